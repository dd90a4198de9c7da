/* cap_server.c -- which server the capture talks to, and where it runs
 * (cap_int.h): INFO at the start, and whether its process, its /proc files
 * and its log are on this host. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cap_int.h"

/* Where the server runs, as far as this host can tell. */
enum { LOC_ELSEWHERE = 0,  /* not here: host files would describe another host */
       LOC_HERE,           /* here, and its /proc files can be read */
       LOC_HERE_NOPROC,    /* here (or not decidable), its /proc files cannot
                              be read: host files are still this host's */
};

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

/* INFO server/replication at the start. */
int cap_server_facts(cap_ctx *c, redisContext *r, srv_info *si, cow_err *e)
{
    const cap_opts *o = c->o;
    redisReply *rep = cap_cmd(r, "INFO");
    char addr[600], why[600], v[64];
    struct tm tm;
    time_t now = time(NULL);
    long long uptime;
    int loc;

    cap_addr(o, addr, sizeof(addr));
    if (rep == NULL && cap_timed_out(r))
        return COW_FAIL(e, COW_EIO, "%s did not answer INFO within %d s: is it stopped "
                        "(SIGSTOP), busy with a long command or a load, or not a Redis "
                        "server? Check it with redis-cli -h/-p and capture again",
                        addr, cap_cmd_tmo_ms / 1000);
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
void cap_replica_log_start(cap_ctx *c, redisContext *rr)
{
    redisReply *rep = cap_cmd(rr, "INFO server");
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
    cap_find_log(c, rr, pid, local, "replica log", c->rlogpath, sizeof(c->rlogpath));
    if (c->rlogpath[0] && stat(c->rlogpath, &sb) == 0)
        c->rlog_off = (long long)sb.st_size;
    else if (c->rlogpath[0]) {
        cap_missing(c, c->rlogpath, "%s", strerror(errno));
        c->rlogpath[0] = '\0';
    }
}
