/* cap_run.c -- one capture from start to run.json (cap.h).
 *
 * Requirements:
 *  1. Refuse a non-empty folder unless --force; a server that cannot be
 *     reached or refuses AUTH is an error naming its address, before
 *     anything is written.
 *  2. Read-only unless asked: the only writes to the server are the
 *     trigger, the writers' SETs and --probe set's one key (deleted at the
 *     end).
 *  3. The trigger is sent at --at; its work is over when an INFO poll
 *     after it shows no child in progress and either a child was seen or
 *     total_forks went up (replicaof: the replica's master_link_status is
 *     up and the primary has no save in progress). The capture ends
 *     --after later, or at --duration.
 *  4. SIGINT, SIGTERM, a lost connection or a vanished server process end
 *     the capture early: every thread stops, every file is flushed and
 *     closed, the end dumps are tried, and run.json "interrupted" says why.
 *  5. Whatever cannot be read is in run.json "unreadable" with the reason. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>

#include <cjson/cJSON.h>

#include "cap_int.h"
#include "mem.h"

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
    if (got_signal) {
        /* a second Ctrl-C: the user will not wait for the end dumps */
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    got_signal = sig;
}

void cap_opts_init(cap_opts *o)
{
    memset(o, 0, sizeof(*o));
    o->host = "127.0.0.1";
    o->port = 6379;
    o->interval_us = 2000;
    o->info_every_us = 250000;
    o->info_fast_us = 50000;
    o->info_sections = "all";
    o->at_us = 10000000;
    o->after_us = 10000000;
    o->writers = 2;
    o->keys = 100000;
    o->value_size = 400;
    o->seed = 42;
}

static void say(const cap_opts *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(const cap_opts *o, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    if (o->say == NULL)
        return;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    o->say(o->say_ctx, buf);
}

/* Check that out is a new folder or an empty one (or --force), and with
 * create, create it when it is new. */
static int prepare_dir(const cap_opts *o, int create, cow_err *e)
{
    struct stat sb;
    DIR *d;
    struct dirent *de;
    int n = 0;

    if (lstat(o->out, &sb) != 0) {
        if (errno != ENOENT)
            return COW_FAIL(e, COW_EIO, "%s: %s", o->out, strerror(errno));
        if (create && mkdir(o->out, 0755) != 0)
            return COW_FAIL(e, COW_EIO, "cannot create the folder %s: %s", o->out,
                            strerror(errno));
        return COW_OK;
    }
    if (!S_ISDIR(sb.st_mode))
        return COW_FAIL(e, COW_EUSAGE, "%s exists and is not a folder: give a new "
                        "or empty folder with --out", o->out);
    if ((d = opendir(o->out)) == NULL)
        return COW_FAIL(e, COW_EIO, "%s: %s", o->out, strerror(errno));
    while ((de = readdir(d)) != NULL)
        if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
            n++;
    closedir(d);
    if (n > 0 && !o->force)
        return COW_FAIL(e, COW_EUSAGE, "%s is not empty (%d entries): give a new or "
                        "empty folder with --out, or --force to write into it (files "
                        "of the same name are replaced)", o->out, n);
    return COW_OK;
}

static redisReply *cmd(redisContext *r, const char *fmt, ...)
{
    va_list ap;
    void *rep;
    va_start(ap, fmt);
    rep = redisvCommand(r, fmt, ap);
    va_end(ap);
    return rep;
}

/* One reply flattened as redis-cli prints it piped: one leaf per line. */
static void put_flat(FILE *fp, const redisReply *r)
{
    size_t i;
    switch (r->type) {
    case REDIS_REPLY_ARRAY:
        for (i = 0; i < r->elements; i++)
            put_flat(fp, r->element[i]);
        break;
    case REDIS_REPLY_INTEGER:
        fprintf(fp, "%lld\n", r->integer);
        break;
    case REDIS_REPLY_NIL:
        fputc('\n', fp);
        break;
    default:
        fwrite(r->str, 1, r->len, fp);
        fputc('\n', fp);
        break;
    }
}

/* CONFIG parameters whose value is a secret: never written to a capture
 * folder (people share those). */
static const char *const secret_params[] = {
    "requirepass", "masterauth", "tls-key-file-pass", "tls-client-key-file-pass",
    "sentinel-pass", NULL};

/* Blank the value of every secret parameter of a CONFIG GET reply. */
static void redact_config(redisReply *rep)
{
    size_t i, k;
    if (rep == NULL || rep->type != REDIS_REPLY_ARRAY)
        return;
    for (i = 0; i + 1 < rep->elements; i += 2) {
        redisReply *name = rep->element[i], *val = rep->element[i + 1];
        if (name->type != REDIS_REPLY_STRING || val->type != REDIS_REPLY_STRING ||
            val->len == 0)
            continue;
        for (k = 0; secret_params[k]; k++)
            if (strcmp(name->str, secret_params[k]) == 0) {
                static const char r[] = "(redacted by cowtail capture)";
                free(val->str);
                val->str = xstrdup(r);
                val->len = sizeof(r) - 1;
            }
    }
}

/* Send a command and save its reply flattened as name; 0 or -1 (listed). */
static int dump(cap_ctx *c, redisContext *r, const char *name, const char *what,
                redisReply *rep)
{
    cow_err e = COW_ERR_INIT;
    FILE *fp;
    if (rep == NULL) {
        cap_missing(c, what, "no reply: %s", r ? r->errstr : "no connection");
        return -1;
    }
    if (rep->type == REDIS_REPLY_ERROR) {
        cap_missing(c, what, "%s", rep->str);
        freeReplyObject(rep);
        return -1;
    }
    if ((fp = cap_create(c, name, &e)) == NULL) {
        cap_missing(c, what, "%s", e.msg);
        freeReplyObject(rep);
        return -1;
    }
    if (rep->type == REDIS_REPLY_ARRAY && rep->elements == 0)
        fputc('\n', fp); /* an empty reply is one empty line, as redis-cli writes */
    else
        put_flat(fp, rep);
    if (fclose(fp) != 0)
        cap_missing(c, name, "write error");
    freeReplyObject(rep);
    return 0;
}

/* LATENCY LATEST, HISTORY of each event, DOCTOR. */
static void latency_dumps(cap_ctx *c, redisContext *r)
{
    redisReply *latest = r ? cmd(r, "LATENCY LATEST") : NULL;
    size_t i;
    if (latest && latest->type == REDIS_REPLY_ARRAY) {
        for (i = 0; i < latest->elements; i++) {
            const redisReply *ev = latest->element[i];
            char name[128], what[160];
            size_t k;
            if (ev->type != REDIS_REPLY_ARRAY || ev->elements < 1 ||
                ev->element[0]->type != REDIS_REPLY_STRING)
                continue;
            snprintf(name, sizeof(name), "latency-history-%s.txt", ev->element[0]->str);
            for (k = 16; name[k]; k++)
                if (!(name[k] == '-' || name[k] == '.' || name[k] == '_' ||
                      (name[k] >= 'a' && name[k] <= 'z') || (name[k] >= '0' && name[k] <= '9')))
                    name[k] = '_';
            snprintf(what, sizeof(what), "LATENCY HISTORY %s", ev->element[0]->str);
            dump(c, r, name, what, cmd(r, "LATENCY HISTORY %s", ev->element[0]->str));
        }
    }
    dump(c, r, "latency-latest.txt", "LATENCY LATEST", latest);
    dump(c, r, "latency-doctor.txt", "LATENCY DOCTOR", r ? cmd(r, "LATENCY DOCTOR") : NULL);
}

/* The server's log file (CONFIG GET logfile / dir), or "" with a reason. */
/* The log file of the server behind r (pid, local: on this host), from
 * CONFIG GET logfile (and dir for a relative one), or "" with the reason
 * listed under what ("server log", "replica log"). */
static void find_log(cap_ctx *c, redisContext *r, long pid, int local, const char *what,
                     char *path, size_t cap)
{
    redisReply *lf = cmd(r, "CONFIG GET logfile"), *dir = NULL;
    struct stat sb;
    path[0] = '\0';
    if (lf == NULL || lf->type != REDIS_REPLY_ARRAY || lf->elements < 2) {
        cap_missing(c, what, "CONFIG GET logfile: %s",
                    lf && lf->type == REDIS_REPLY_ERROR ? lf->str : "no usable reply");
    } else if (lf->element[1]->len == 0) {
        cap_missing(c, what, "logfile is \"\": the server logs to its standard "
                    "output, which cowtail cannot read; save it yourself into the "
                    "capture folder");
    } else if (!local) {
        cap_missing(c, what, "%s is on the server's host, not this one: copy "
                    "it into the capture folder", lf->element[1]->str);
    } else if (lf->element[1]->str[0] == '/') {
        snprintf(path, cap, "%s", lf->element[1]->str);
    } else {
        /* the server opens a relative logfile from its working directory:
         * /proc/PID/cwd, else CONFIG GET dir (the server chdirs there) */
        snprintf(path, cap, "/proc/%ld/cwd/%s", pid, lf->element[1]->str);
        if (stat(path, &sb) != 0 && (dir = cmd(r, "CONFIG GET dir")) != NULL &&
            dir->type == REDIS_REPLY_ARRAY && dir->elements >= 2)
            snprintf(path, cap, "%s/%s", dir->element[1]->str, lf->element[1]->str);
    }
    if (lf)
        freeReplyObject(lf);
    if (dir)
        freeReplyObject(dir);
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

static double quant(const float *v, size_t n, double q)
{
    size_t i;
    if (n == 0)
        return NAN;
    i = (size_t)ceil(q * (double)n);
    return v[i == 0 ? 0 : (i > n ? n : i) - 1];
}

static double cpu_s(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

static const char *trig_name(int t)
{
    switch (t) {
    case CAP_TRIG_BGSAVE: return "bgsave";
    case CAP_TRIG_BGREWRITEAOF: return "bgrewriteaof";
    case CAP_TRIG_REPLICAOF: return "replicaof";
    default: return "none";
    }
}

static void iso(int64_t us, char *buf, size_t cap)
{
    time_t s = (time_t)(us / 1000000);
    struct tm tm;
    gmtime_r(&s, &tm);
    snprintf(buf, cap, "%04d-%02d-%02dT%02d:%02d:%02d.%06lldZ", tm.tm_year + 1900,
             tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
             (long long)(us % 1000000));
}

/* What INFO said of the server at the start. */
typedef struct srv_info {
    char role[32], version[48], name[32], tz[16], host[256];
    long pid;
} srv_info;

/* Seconds since process pid started (from /proc), or -1. */
static double process_age_s(long pid)
{
    char path[64], buf[1024], *p;
    FILE *fp;
    size_t n;
    double up;
    unsigned long long start = 0;
    int field;

    snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
    if ((fp = fopen(path, "r")) == NULL)
        return -1;
    n = fread(buf, 1, sizeof(buf) - 1, fp);
    fclose(fp);
    buf[n] = '\0';
    /* field 22 (starttime, clock ticks after boot), counted after the
     * command name's closing parenthesis (field 2 may hold blanks) */
    if ((p = strrchr(buf, ')')) == NULL)
        return -1;
    for (field = 2; field < 22 && p; field++)
        p = strchr(p + 1, ' ');
    if (p == NULL || sscanf(p + 1, "%llu", &start) != 1)
        return -1;
    if ((fp = fopen("/proc/uptime", "r")) == NULL)
        return -1;
    if (fscanf(fp, "%lf", &up) != 1)
        up = -1;
    fclose(fp);
    return up < 0 ? -1 : up - (double)start / (double)sysconf(_SC_CLK_TCK);
}

/* Where the server runs, as far as this host can tell. */
enum { LOC_ELSEWHERE = 0,  /* not here: host files would describe another host */
       LOC_HERE,           /* here, and its /proc files can be read */
       LOC_HERE_NOPROC,    /* here (or not decidable), its /proc files cannot
                              be read: host files are still this host's */
};

/* The command name of process pid from /proc/PID/stat (readable by every
 * user), or "" when it cannot be read. */
static void process_comm(long pid, char *buf, size_t cap)
{
    char path[64], b[512], *l, *r;
    FILE *fp;
    size_t n;
    buf[0] = '\0';
    snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
    if ((fp = fopen(path, "r")) == NULL)
        return;
    n = fread(b, 1, sizeof(b) - 1, fp);
    fclose(fp);
    b[n] = '\0';
    if ((l = strchr(b, '(')) != NULL && (r = strrchr(b, ')')) != NULL && r > l)
        snprintf(buf, cap, "%.*s", (int)(r - l - 1), l + 1);
}

static int server_name_ok(const char *b)
{
    return strstr(b, "redis-server") != NULL || strstr(b, "valkey-server") != NULL ||
           strstr(b, "redis-check") != NULL;
}

/* Is pid a redis/valkey server process of this host, up uptime_s seconds
 * (INFO uptime_in_seconds; -1 unknown)? LOC_*; why says what was found
 * when the answer is not LOC_HERE. */
static int where_is_server(long pid, long long uptime_s, char *why, size_t cap)
{
    char path[64], exe[512], comm[64];
    ssize_t n;
    const char *b;
    int eno;
    if (pid <= 0) {
        snprintf(why, cap, "INFO gave no process_id");
        return LOC_ELSEWHERE;
    }
    snprintf(path, sizeof(path), "/proc/%ld", pid);
    if (access(path, F_OK) != 0) {
        snprintf(why, cap, "process_id %ld is not a process of this host: the server "
                 "runs elsewhere (or in another pid namespace)", pid);
        return LOC_ELSEWHERE;
    }
    snprintf(path, sizeof(path), "/proc/%ld/exe", pid);
    if ((n = readlink(path, exe, sizeof(exe) - 1)) < 0) {
        eno = errno;
        /* /proc/PID/stat is readable by every user: its command name and
         * start time still tell whether this is the server */
        process_comm(pid, comm, sizeof(comm));
        if (comm[0] && !server_name_ok(comm) && strncmp(comm, "redis", 5) != 0 &&
            strncmp(comm, "valkey", 6) != 0) {
            snprintf(why, cap, "process %ld of this host is %s, not a redis or valkey "
                     "server: the server runs elsewhere", pid, comm);
            return LOC_ELSEWHERE;
        }
        if (comm[0] && uptime_s >= 0) {
            double age = process_age_s(pid);
            if (age >= 0 && fabs(age - (double)uptime_s) > 5) {
                snprintf(why, cap, "process %ld of this host (%s) started %.0f s ago, but "
                         "the server says it has been up %lld s: another server (in a "
                         "container?), not this one", pid, comm, age, uptime_s);
                return LOC_ELSEWHERE;
            }
        }
        snprintf(why, cap, "the server is process %ld of this host%s%s%s, but %s cannot be "
                 "read (%s): its smaps_rollup and status are not polled; run cowtail "
                 "capture as the server's user (or root) to read them", pid,
                 comm[0] ? " (" : "", comm, comm[0] ? ")" : "", path, strerror(eno));
        return LOC_HERE_NOPROC;
    }
    exe[n] = '\0';
    b = strrchr(exe, '/');
    b = b ? b + 1 : exe;
    if (!server_name_ok(b)) {
        snprintf(why, cap, "process %ld of this host is %.200s, not a redis or valkey "
                 "server: the server runs elsewhere", pid, exe);
        return LOC_ELSEWHERE;
    }
    if (uptime_s >= 0) {
        double age = process_age_s(pid);
        /* another server of this host with the same pid (a container's
         * server, seen from outside its pid namespace) started at another
         * time */
        if (age >= 0 && fabs(age - (double)uptime_s) > 5) {
            snprintf(why, cap, "process %ld of this host is a server that started "
                     "%.0f s ago, but the server says it has been up %lld s: "
                     "another server (in a container?), not this one", pid, age,
                     uptime_s);
            return LOC_ELSEWHERE;
        }
    }
    return LOC_HERE;
}

/* A number rounded to 0.1 (figures in us and %), or null. */
static cJSON *num_or_null(double v)
{
    char buf[64];
    if (!isfinite(v))
        return cJSON_CreateNull();
    snprintf(buf, sizeof(buf), "%.1f", v);
    return cJSON_CreateRaw(buf);
}

/* An integer written whole (cJSON would print an epoch in us as 1.79e+15). */
static void add_int(cJSON *o, const char *key, long long v)
{
    char buf[32];
    snprintf(buf, sizeof(buf), "%lld", v);
    cJSON_AddRawToObject(o, key, buf);
}

typedef struct trig_state {
    int sent;
    int64_t sent_us, done_us, done_mono;
    int seen;                  /* a child (or sync) seen after the trigger */
    long long forks0;
    char reply[256];
} trig_state;

static void write_runjson(cap_ctx *c, const srv_info *si, const trig_state *tg,
                          cap_result *res, double total_cpu_s, int64_t end_us)
{
    const cap_opts *o = c->o;
    cJSON *j = cJSON_CreateObject(), *cap, *p, *x, *a;
    char buf[128], addr[600];
    cow_err e = COW_ERR_INIT;
    FILE *fp;
    char *text;
    size_t i;

    if (o->label)
        cJSON_AddStringToObject(j, "label", o->label);
    cJSON_AddStringToObject(j, "scenario", o->scenario ? o->scenario : trig_name(o->trigger));
    cJSON_AddStringToObject(j, "mode", "fork");
    cJSON_AddStringToObject(j, "host", si->host);
    if (c->host_local)
        cJSON_AddStringToObject(j, "log_tz", si->tz);
    cJSON_AddNullToObject(j, "t0");
    snprintf(buf, sizeof(buf), "%s %s", si->name, si->version);
    cJSON_AddStringToObject(j, "server", buf);
    add_int(j, "start_epoch_us", (long long)c->wall0_us);
    iso(c->wall0_us, buf, sizeof(buf));
    cJSON_AddStringToObject(j, "start_utc", buf);
    if (c->why[0])
        cJSON_AddStringToObject(j, "interrupted", c->why);
    else
        cJSON_AddNullToObject(j, "interrupted");

    cap = cJSON_AddObjectToObject(j, "capture");
    cJSON_AddStringToObject(cap, "made_by", "cowtail capture");
    cJSON_AddStringToObject(cap, "cowtail_version", o->version ? o->version : "");
    cap_addr(o, addr, sizeof(addr));
    cJSON_AddStringToObject(cap, "address", addr);
    if (o->socket)
        cJSON_AddStringToObject(cap, "socket", o->socket);
    else {
        cJSON_AddStringToObject(cap, "server_host", o->host);
        cJSON_AddNumberToObject(cap, "port", o->port);
    }
    cJSON_AddStringToObject(cap, "role", si->role);
    add_int(cap, "server_pid", (long long)si->pid);
    cJSON_AddBoolToObject(cap, "local", c->host_local);
    cJSON_AddBoolToObject(cap, "proc_files", c->local);
    if (!c->local)
        cJSON_AddStringToObject(cap, "proc_files_why", c->proc_why);
    cJSON_AddBoolToObject(cap, "host_files", c->host_local);
    add_int(cap, "end_epoch_us", (long long)end_us);
    snprintf(buf, sizeof(buf), "%.6f", res->seconds);
    cJSON_AddRawToObject(cap, "seconds", buf);
    cJSON_AddItemToObject(cap, "cpu_pct_of_core", num_or_null(res->total_cpu_pct));
    (void)total_cpu_s;

    p = cJSON_AddObjectToObject(cap, "probe");
    cJSON_AddStringToObject(p, "command", o->probe_set ? "SET" : "PING");
    add_int(p, "interval_us", (long long)o->interval_us);
    cJSON_AddStringToObject(p, "schedule", "open loop: sample i is meant to go at "
                            "start + i x interval; late samples go as soon as possible, "
                            "none is skipped");
    cJSON_AddStringToObject(p, "clock", "one CLOCK_REALTIME reading at start plus "
                            "CLOCK_MONOTONIC deltas");
    add_int(p, "samples", (long long)res->samples);
    add_int(p, "errors", (long long)c->errors);
    cJSON_AddNumberToObject(p, "late_over_1ms", (double)res->late);
    x = cJSON_AddObjectToObject(p, "send_lag_us");
    cJSON_AddItemToObject(x, "p50", num_or_null(res->lag_p50_us));
    cJSON_AddItemToObject(x, "p99", num_or_null(res->lag_p99_us));
    cJSON_AddItemToObject(x, "max", num_or_null(res->lag_max_us));
    x = cJSON_AddObjectToObject(p, "round_trip_us");
    cJSON_AddItemToObject(x, "min", num_or_null(res->rtt_min_us));
    cJSON_AddItemToObject(x, "p50", num_or_null(res->rtt_p50_us));
    cJSON_AddItemToObject(x, "p99", num_or_null(res->rtt_p99_us));
    cJSON_AddItemToObject(p, "cpu_pct_of_core", num_or_null(res->probe_cpu_pct));

    x = cJSON_AddObjectToObject(cap, "info");
    cJSON_AddStringToObject(x, "sections", o->info_sections);
    add_int(x, "every_us", (long long)o->info_every_us);
    add_int(x, "every_us_with_child", (long long)o->info_fast_us);
    add_int(x, "polls", (long long)res->info_polls);
    x = cJSON_AddObjectToObject(cap, "proc");
    cJSON_AddNumberToObject(x, "every_us", 1000000);
    cJSON_AddNumberToObject(x, "every_us_with_child", 200000);
    add_int(x, "polls", (long long)res->proc_polls);

    if (c->logpath[0]) {
        x = cJSON_AddObjectToObject(cap, "server_log");
        cJSON_AddStringToObject(x, "path", c->logpath);
        add_int(x, "from_byte", (long long)c->log_off);
        add_int(x, "bytes", (long long)c->log_bytes);
        cJSON_AddStringToObject(x, "file", c->log_bytes > 0 ? "redis.log"
                                : c->log_bytes == 0 ? "none: nothing was logged during "
                                "the capture" : "none: see unreadable");
    }
    x = cJSON_AddObjectToObject(cap, "trigger");
    cJSON_AddStringToObject(x, "kind", trig_name(o->trigger));
    if (o->trigger != CAP_TRIG_NONE) {
        add_int(x, "at_us", (long long)o->at_us);
        add_int(x, "after_us", (long long)o->after_us);
        if (o->trigger == CAP_TRIG_REPLICAOF) {
            snprintf(buf, sizeof(buf), "%s:%d", o->replica_host, o->replica_port);
            cJSON_AddStringToObject(x, "replica", buf);
        }
        if (tg->sent) {
            add_int(x, "sent_epoch_us", (long long)tg->sent_us);
            cJSON_AddStringToObject(x, "reply", tg->reply);
        } else {
            cJSON_AddNullToObject(x, "sent_epoch_us");
        }
        if (tg->done_us)
            add_int(x, "done_epoch_us", (long long)tg->done_us);
        else
            cJSON_AddNullToObject(x, "done_epoch_us");
    }
    if (o->load_rate > 0) {
        x = cJSON_AddObjectToObject(cap, "load");
        cJSON_AddNumberToObject(x, "rate_per_s", o->load_rate);
        cJSON_AddStringToObject(x, "command", o->load_get ? "GET" : "SET");
        cJSON_AddNumberToObject(x, "writers", o->writers);
        add_int(x, "keys_max", (long long)o->keys);
        add_int(x, "keys", (long long)c->npool);
        cJSON_AddStringToObject(x, "keys_from", "SCAN of the keys that existed at the "
                                "start (string keys); written with SET XX, so no key is "
                                "created");
        cJSON_AddNumberToObject(x, "value_size", o->value_size);
        snprintf(buf, sizeof(buf), "%llu", (unsigned long long)o->seed);
        cJSON_AddRawToObject(x, "seed", buf);
        add_int(x, "ops", (long long)res->load_ops);
    }
    a = cJSON_AddArrayToObject(cap, "unreadable");
    for (i = 0; i < c->nmiss; i++) {
        cJSON *m = cJSON_CreateObject();
        cJSON_AddStringToObject(m, "what", c->miss[i].what);
        cJSON_AddStringToObject(m, "why", c->miss[i].why);
        cJSON_AddItemToArray(a, m);
    }
    text = cJSON_Print(j);
    if (text && (fp = cap_create(c, "run.json", &e)) != NULL) {
        fputs(text, fp);
        fputc('\n', fp);
        fclose(fp);
    }
    free(text);
    cJSON_Delete(j);
}

/* INFO server/replication at the start. */
static int server_facts(cap_ctx *c, redisContext *r, srv_info *si, cow_err *e)
{
    const cap_opts *o = c->o;
    redisReply *rep = cmd(r, "INFO");
    char addr[600], why[600], v[64];
    struct tm tm;
    time_t now = time(NULL);
    long long uptime;
    int loc;

    cap_addr(o, addr, sizeof(addr));
    if (rep == NULL || rep->type != REDIS_REPLY_STRING) {
        COW_FAIL(e, COW_EIO, "%s: INFO failed: %s%s", addr,
                 rep && rep->type == REDIS_REPLY_ERROR ? rep->str : r->errstr,
                 rep && rep->type == REDIS_REPLY_ERROR && strstr(rep->str, "NOAUTH")
                     ? " (give the password with --pass-env VAR, and --user for an "
                       "ACL user)" : "");
        if (rep)
            freeReplyObject(rep);
        return COW_EIO;
    }
    memset(si, 0, sizeof(*si));
    cap_info_field(rep->str, "role", si->role, sizeof(si->role));
    if (cap_info_field(rep->str, "valkey_version", si->version, sizeof(si->version)))
        snprintf(si->name, sizeof(si->name), "valkey");
    else {
        cap_info_field(rep->str, "redis_version", si->version, sizeof(si->version));
        snprintf(si->name, sizeof(si->name), "redis");
        if (cap_info_field(rep->str, "server_name", v, sizeof(v)))
            snprintf(si->name, sizeof(si->name), "%.31s", v);
    }
    si->pid = (long)cap_info_ll(rep->str, "process_id", 0);
    uptime = cap_info_ll(rep->str, "uptime_in_seconds", -1);
    freeReplyObject(rep);
    c->pid = si->pid;
    loc = where_is_server(si->pid, uptime, why, sizeof(why));
    c->local = !o->no_proc && loc == LOC_HERE;
    c->host_local = loc != LOC_ELSEWHERE;
    if (o->no_proc && loc != LOC_ELSEWHERE)
        snprintf(why, sizeof(why), "--no-proc was given");
    if (!c->local) {
        snprintf(c->proc_why, sizeof(c->proc_why), "%s", why);
        cap_missing(c, "/proc of the server", "%s", why);
    }
    if (!c->host_local)
        cap_missing(c, "host files (THP, sysctls, meminfo, vmstat, loadavg)",
                    "not read: the server is not on this host, so this host's files "
                    "would describe another machine");
    if (!c->host_local)
        snprintf(si->host, sizeof(si->host), "%s", o->socket ? "localhost" : o->host);
    else if (gethostname(si->host, sizeof(si->host)) != 0)
        snprintf(si->host, sizeof(si->host), "localhost");
    if (o->host_name)
        snprintf(si->host, sizeof(si->host), "%s", o->host_name);
    localtime_r(&now, &tm);
    snprintf(si->tz, sizeof(si->tz), "%c%02d:%02d", tm.tm_gmtoff < 0 ? '-' : '+',
             (int)(labs(tm.tm_gmtoff) / 3600 % 24), (int)(labs(tm.tm_gmtoff) % 3600 / 60));
    return COW_OK;
}

/* The replica's log from now on (copied at the end as replica.log), when
 * the replica runs on this host. */
static void replica_log_start(cap_ctx *c, redisContext *rr)
{
    redisReply *rep = cmd(rr, "INFO server");
    char why[600];
    long pid = rep && rep->type == REDIS_REPLY_STRING
                   ? (long)cap_info_ll(rep->str, "process_id", 0) : 0;
    long long uptime = rep && rep->type == REDIS_REPLY_STRING
                   ? cap_info_ll(rep->str, "uptime_in_seconds", -1) : -1;
    struct stat sb;
    int local;

    if (rep)
        freeReplyObject(rep);
    local = !c->o->no_proc && where_is_server(pid, uptime, why, sizeof(why)) != LOC_ELSEWHERE;
    if (!local && !c->o->no_proc)
        cap_missing(c, "replica log", "%s", why);
    find_log(c, rr, pid, local, "replica log", c->rlogpath, sizeof(c->rlogpath));
    if (c->rlogpath[0] && stat(c->rlogpath, &sb) == 0)
        c->rlog_off = (long long)sb.st_size;
    else if (c->rlogpath[0]) {
        cap_missing(c, c->rlogpath, "%s", strerror(errno));
        c->rlogpath[0] = '\0';
    }
}

static void send_trigger(cap_ctx *c, redisContext *r, trig_state *tg)
{
    const cap_opts *o = c->o;
    redisReply *rep = NULL;
    redisContext *rr = NULL;
    cow_err e = COW_ERR_INIT;

    pthread_mutex_lock(&c->mu);
    tg->forks0 = c->st.forks;
    pthread_mutex_unlock(&c->mu);
    tg->sent_us = cap_now_us(c);
    tg->sent = 1;
    if (o->trigger == CAP_TRIG_BGSAVE)
        rep = cmd(r, "BGSAVE");
    else if (o->trigger == CAP_TRIG_BGREWRITEAOF)
        rep = cmd(r, "BGREWRITEAOF");
    else {
        rr = cap_connect(o, o->replica_host, o->replica_port, NULL, 5000, &e);
        if (rr == NULL) {
            snprintf(tg->reply, sizeof(tg->reply), "%.255s", e.msg);
            cap_stop(c, "trigger: the replica: %s", e.msg);
            return;
        }
        replica_log_start(c, rr);
        rep = cmd(rr, "REPLICAOF %s %d", o->host, o->port);
        redisFree(rr);
    }
    if (rep == NULL) {
        snprintf(tg->reply, sizeof(tg->reply), "no reply");
        cap_stop(c, "trigger %s: no reply", trig_name(o->trigger));
        return;
    }
    snprintf(tg->reply, sizeof(tg->reply), "%s%s",
             rep->type == REDIS_REPLY_ERROR ? "error: " : "", rep->str ? rep->str : "");
    if (rep->type == REDIS_REPLY_ERROR)
        cap_stop(c, "trigger %s refused: %s", trig_name(o->trigger), rep->str);
    freeReplyObject(rep);
}

/* Is the trigger's work over? (requirement 3) */
static int trigger_done(cap_ctx *c, trig_state *tg, redisContext **rep_conn)
{
    const cap_opts *o = c->o;
    cap_state s;
    int busy;

    pthread_mutex_lock(&c->mu);
    s = c->st;
    pthread_mutex_unlock(&c->mu);
    if (s.poll_us <= tg->sent_us)
        return 0;
    busy = s.bgsave || s.aofrw || s.aofsched || s.modfork || atomic_load(&c->child);
    if (busy)
        tg->seen = 1;
    if (o->trigger == CAP_TRIG_REPLICAOF) {
        cow_err e = COW_ERR_INIT;
        redisReply *rep;
        char v[32] = "";
        if (*rep_conn == NULL)
            *rep_conn = cap_connect(o, o->replica_host, o->replica_port, NULL, 2000, &e);
        if (*rep_conn == NULL)
            return 0;
        rep = cmd(*rep_conn, "INFO replication");
        if (rep == NULL) {
            redisFree(*rep_conn);
            *rep_conn = NULL;
            return 0;
        }
        if (rep->type == REDIS_REPLY_STRING)
            cap_info_field(rep->str, "master_link_status", v, sizeof(v));
        freeReplyObject(rep);
        return strcmp(v, "up") == 0 && !busy;
    }
    return !busy && (tg->seen || s.forks > tg->forks0);
}

void cap_result_release(cap_result *r)
{
    free(r->miss);
    r->miss = NULL;
    r->unreadable = 0;
}

static void free_pool(cap_ctx *c)
{
    size_t i;
    for (i = 0; i < c->npool; i++)
        free(c->pool[i]);
    free(c->pool);
    free(c->poollen);
    c->pool = NULL;
    c->poollen = NULL;
    c->npool = 0;
}

/* --load: the names of up to o->keys string keys that exist now (SCAN,
 * TYPE string where the server knows it: Redis 6 and later). The writers
 * write only these, with SET XX, so the load never adds a key (nor turns a
 * hash into a string). None: refused, saying how to load some. */
static int gather_pool(cap_ctx *c, redisContext *r, cow_err *e)
{
    const cap_opts *o = c->o;
    char cursor[32] = "0", addr[600], how[800];
    size_t cap = 0, i;
    int typed = 1;
    long long dbsize = 0;
    redisReply *rep;

    cap_addr(o, addr, sizeof(addr));
    for (;;) {
        rep = typed ? cmd(r, "SCAN %s COUNT 1000 TYPE string", cursor)
                    : cmd(r, "SCAN %s COUNT 1000", cursor);
        if (rep && rep->type == REDIS_REPLY_ERROR && typed && strcmp(cursor, "0") == 0) {
            freeReplyObject(rep); /* before Redis 6: no TYPE */
            typed = 0;
            continue;
        }
        if (rep == NULL || rep->type != REDIS_REPLY_ARRAY || rep->elements != 2 ||
            rep->element[0]->type != REDIS_REPLY_STRING ||
            rep->element[1]->type != REDIS_REPLY_ARRAY) {
            COW_FAIL(e, COW_EIO, "%s: SCAN (to find existing keys for --load) failed: %s",
                     addr, rep && rep->type == REDIS_REPLY_ERROR ? rep->str
                     : rep ? "unexpected reply" : r->errstr);
            if (rep)
                freeReplyObject(rep);
            return COW_EIO;
        }
        snprintf(cursor, sizeof(cursor), "%s", rep->element[0]->str);
        for (i = 0; i < rep->element[1]->elements && (long long)c->npool < o->keys; i++) {
            const redisReply *k = rep->element[1]->element[i];
            if (k->type != REDIS_REPLY_STRING)
                continue;
            if (c->npool == cap) {
                cap = cap ? cap * 2 : 1024;
                c->pool = xrealloc(c->pool, cap * sizeof(*c->pool));
                c->poollen = xrealloc(c->poollen, cap * sizeof(*c->poollen));
            }
            c->pool[c->npool] = xmalloc(k->len + 1);
            memcpy(c->pool[c->npool], k->str, k->len);
            c->pool[c->npool][k->len] = '\0';
            c->poollen[c->npool++] = k->len;
        }
        freeReplyObject(rep);
        if (strcmp(cursor, "0") == 0 || (long long)c->npool >= o->keys)
            break;
    }
    /* SCAN's TYPE and SET's KEEPTTL came with Redis 6: a key's expiry
     * is kept where the server can */
    c->keepttl = typed;
    if (c->npool > 0)
        return COW_OK;
    if ((rep = cmd(r, "DBSIZE")) != NULL) {
        if (rep->type == REDIS_REPLY_INTEGER)
            dbsize = rep->integer;
        freeReplyObject(rep);
    }
    if (o->socket)
        snprintf(how, sizeof(how), "redis-benchmark -s %s", o->socket);
    else
        snprintf(how, sizeof(how), "redis-benchmark -h %s -p %d", o->host, o->port);
    if (dbsize > 0)
        return COW_FAIL(e, COW_EUSAGE, "%s holds %lld keys but no string key: --load only "
                        "SETs string keys that already exist (it never creates a key nor "
                        "changes a key's type); leave out --load to only observe",
                        addr, dbsize);
    return COW_FAIL(e, COW_EUSAGE, "%s holds no keys: --load only writes keys that already "
                    "exist and never creates one; on a test server load a data set first, "
                    "e.g. '%s -t set -n 200000 -r 100000 -d 400' (about 86,000 keys of 400 "
                    "bytes), or leave out --load to only observe", addr, how);
}

int cap_run(const cap_opts *user, cap_result *res, cow_err *e)
{
    cap_opts oc = *user, *o = &oc;
    cap_ctx c;
    srv_info si;
    trig_state tg;
    redisContext *r = NULL, *rep_conn = NULL;
    pthread_t probe, info, proc, rinfo, *wr = NULL;
    int have_proc = 0, have_rinfo = 0, rc, i, nwr = 0;
    struct sigaction sa, old_int, old_term, old_pipe;
    sigset_t block, oldmask;
    char *logpath = c.logpath, addr[600];
    FILE *tput = NULL;
    int64_t end_mono, win_mono, win_start_us, t_trig;
    long long last_ops = 0;
    double cpu0;
    struct stat sb;

    memset(res, 0, sizeof(*res));
    memset(&c, 0, sizeof(c));
    memset(&tg, 0, sizeof(tg));
    c.o = o;
    pthread_mutex_init(&c.mu, NULL);
    snprintf(c.dir, sizeof(c.dir), "%s", o->out);
    snprintf(res->out, sizeof(res->out), "%s", o->out);
    cap_addr(o, addr, sizeof(addr));

    /* requirement 1: the server first, then the folder */
    if ((r = cap_connect(o, o->host, o->port, o->socket, 5000, e)) == NULL)
        return COW_EIO;
    if ((rc = prepare_dir(o, 0, e)) != COW_OK || (rc = server_facts(&c, r, &si, e)) != COW_OK) {
        redisFree(r);
        free(c.miss);
        return rc;
    }
    if (o->load_rate > 0 && (rc = gather_pool(&c, r, e)) != COW_OK) {
        redisFree(r);
        free(c.miss);
        free_pool(&c);
        return rc;
    }
    /* the folder only once the server is known to answer */
    if ((rc = prepare_dir(o, 1, e)) != COW_OK) {
        redisFree(r);
        free(c.miss);
        return rc;
    }

    /* signals: the handler only sets a flag; worker threads block them */
    got_signal = 0;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    sa.sa_handler = SIG_IGN; /* a dead server's socket must not kill us */
    sigaction(SIGPIPE, &sa, &old_pipe);

    {
        struct timespec w;
        clock_gettime(CLOCK_REALTIME, &w);
        c.mono0_ns = cap_mono_ns();
        c.wall0_us = (int64_t)w.tv_sec * 1000000 + w.tv_nsec / 1000;
    }
    cpu0 = cpu_s();
    res->start_us = c.wall0_us;
    say(o, "capture: %s (%s %s, role %s%s) into %s", addr, si.name, si.version, si.role,
        c.host_local ? ", on this host" : "", o->out);
    if (c.host_local && !c.local)
        say(o, "capture: %s", c.proc_why);

    {
        redisReply *conf = cmd(r, "CONFIG GET *");
        redact_config(conf);
        dump(&c, r, "config.txt", "CONFIG GET *", conf);
    }
    if (c.host_local)
        cap_host_facts(&c, "before");
    find_log(&c, r, c.pid, c.host_local, "server log", logpath, sizeof(c.logpath));
    if (logpath[0]) {
        if (stat(logpath, &sb) == 0)
            c.log_off = (long long)sb.st_size;
        else {
            cap_missing(&c, logpath, "%s", strerror(errno));
            logpath[0] = '\0';
        }
    }
    if (o->load_rate > 0) {
        cow_err e2 = COW_ERR_INIT;
        if ((tput = cap_create(&c, "throughput.csv", &e2)) == NULL)
            cap_missing(&c, "throughput.csv", "%s", e2.msg);
        else
            fprintf(tput, "timestamp_us,ops\n");
    }

    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &block, &oldmask);
    pthread_create(&probe, NULL, cap_probe_main, &c);
    pthread_create(&info, NULL, cap_info_main, &c);
    if (c.local)
        have_proc = pthread_create(&proc, NULL, cap_proc_main, &c) == 0;
    if (o->trigger == CAP_TRIG_REPLICAOF)
        have_rinfo = pthread_create(&rinfo, NULL, cap_replica_info_main, &c) == 0;
    if (o->load_rate > 0) {
        say(o, "load: %.0f %s/s on %zu existing keys (SCAN at the start; SET XX never "
            "creates one)", o->load_rate, o->load_get ? "GET" : "SET", c.npool);
        wr = xcalloc((size_t)o->writers, sizeof(*wr));
        for (i = 0; i < o->writers; i++) {
            writer_arg *w = xmalloc(sizeof(*w));
            w->c = &c;
            w->idx = i;
            if (pthread_create(&wr[nwr], NULL, cap_writer_main, w) == 0)
                nwr++;
            else
                free(w);
        }
    }
    pthread_sigmask(SIG_SETMASK, &oldmask, NULL);

    t_trig = c.mono0_ns + o->at_us * 1000;
    end_mono = c.mono0_ns + (o->duration_us > 0 ? o->duration_us
                             : o->trigger != CAP_TRIG_NONE
                             ? o->at_us + INT64_C(600000000) + o->after_us
                             : INT64_C(60000000)) * 1000;
    win_mono = c.mono0_ns;
    win_start_us = c.wall0_us;
    for (;;) {
        int64_t now = cap_mono_ns();
        if (got_signal) {
            cap_stop(&c, "interrupted by %s after %.1f s",
                     got_signal == SIGINT ? "SIGINT (Ctrl-C)" : "SIGTERM",
                     (double)(now - c.mono0_ns) / 1e9);
            res->signal = got_signal;
        }
        if (atomic_load(&c.stop))
            break;
        if (now >= end_mono)
            break;
        if (o->trigger != CAP_TRIG_NONE && !tg.sent && now >= t_trig) {
            send_trigger(&c, r, &tg);
            say(o, "trigger: %s at %.1f s: %s", trig_name(o->trigger),
                (double)(now - c.mono0_ns) / 1e9, tg.reply);
        } else if (tg.sent && !tg.done_us && trigger_done(&c, &tg, &rep_conn)) {
            tg.done_us = cap_now_us(&c);
            tg.done_mono = cap_mono_ns();
            say(o, "trigger: the %s is over at %.1f s; %.1f s more", trig_name(o->trigger),
                (double)(tg.done_mono - c.mono0_ns) / 1e9, (double)o->after_us / 1e6);
            if (tg.done_mono + o->after_us * 1000 < end_mono)
                end_mono = tg.done_mono + o->after_us * 1000;
        }
        if (tput && now - win_mono >= 100000000) {
            long long ops = atomic_load(&c.load_ops);
            fprintf(tput, "%lld,%lld\n", (long long)win_start_us, ops - last_ops);
            last_ops = ops;
            win_mono += 100000000;
            win_start_us = cap_wall_us(&c, win_mono);
        }
        {
            struct timespec ts = {0, 10000000};
            nanosleep(&ts, NULL);
        }
    }
    atomic_store(&c.stop, 1);
    pthread_join(probe, NULL);
    pthread_join(info, NULL);
    if (have_proc)
        pthread_join(proc, NULL);
    if (have_rinfo)
        pthread_join(rinfo, NULL);
    for (i = 0; i < nwr; i++)
        pthread_join(wr[i], NULL);
    free(wr);
    if (rep_conn)
        redisFree(rep_conn);
    if (tput) {
        if (fflush(tput) != 0 || ferror(tput))
            cap_missing(&c, "throughput.csv", "write error");
        fclose(tput);
    }
    res->load_ops = atomic_load(&c.load_ops);

    /* the end dumps, on a fresh connection when the old one is gone */
    {
        redisReply *ping = cmd(r, "PING");
        if (ping == NULL) {
            cow_err e2 = COW_ERR_INIT;
            redisFree(r);
            r = cap_connect(o, o->host, o->port, o->socket, 2000, &e2);
        } else {
            freeReplyObject(ping);
        }
    }
    latency_dumps(&c, r);
    if (r)
        redisFree(r);
    if (c.host_local)
        cap_host_facts(&c, "after");
    if (logpath[0])
        c.log_bytes = cap_copy_tail(&c, logpath, c.log_off, "redis.log");
    if (c.rlogpath[0])
        cap_copy_tail(&c, c.rlogpath, c.rlog_off, "replica.log");

    /* results */
    {
        int64_t end_us = cap_now_us(&c);
        size_t n = c.nlag;
        res->seconds = (double)(end_us - c.wall0_us) / 1e6;
        res->samples = c.samples;
        res->late = c.late;
        if (n > 0) {
            qsort(c.lag, n, sizeof(float), cmp_float);
            qsort(c.rtt, n, sizeof(float), cmp_float);
        }
        res->lag_p50_us = quant(c.lag, n, 0.5);
        res->lag_p99_us = quant(c.lag, n, 0.99);
        res->lag_max_us = n ? c.lag[n - 1] : NAN;
        res->rtt_min_us = n ? c.rtt[0] : NAN;
        res->rtt_p50_us = quant(c.rtt, n, 0.5);
        res->rtt_p99_us = quant(c.rtt, n, 0.99);
        res->probe_cpu_pct = res->seconds > 0 ? 100 * c.probe_cpu_s / res->seconds : NAN;
        res->total_cpu_pct = res->seconds > 0 ? 100 * (cpu_s() - cpu0) / res->seconds : NAN;
        res->info_polls = c.info_polls;
        res->proc_polls = c.proc_polls;
        res->local = c.local;
        res->host_local = c.host_local;
        snprintf(res->proc_why, sizeof(res->proc_why), "%s", c.proc_why);
        res->server_pid = si.pid;
        snprintf(res->role, sizeof(res->role), "%s", si.role);
        snprintf(res->server, sizeof(res->server), "%.15s %.47s", si.name, si.version);
        res->trigger_us = tg.sent ? tg.sent_us : 0;
        res->work_end_us = tg.done_us;
        res->unreadable = (int)c.nmiss;
        snprintf(res->interrupted, sizeof(res->interrupted), "%s", c.why);
        write_runjson(&c, &si, &tg, res, 0, end_us);
    }
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    sigaction(SIGPIPE, &old_pipe, NULL);
    free(c.lag);
    free(c.rtt);
    res->miss = c.miss; /* the caller prints them */
    free_pool(&c);
    pthread_mutex_destroy(&c.mu);
    return COW_OK;
}
