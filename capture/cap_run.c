/* cap_run.c -- one capture from start to end (cap.h): the folder, the threads,
 * the trigger, the end dumps and the result (run.json: cap_runjson.c).
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
#include <fcntl.h>
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
    cap_signal = sig; /* a pending read gives up (cap_cmd) */
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
    o->at_us = 30000000; /* a baseline the block test can judge a save against */
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
    if (!S_ISLNK(sb.st_mode) && strlen(o->out) > 1 && o->out[strlen(o->out) - 1] == '/') {
        /* "link/" is followed by lstat: look at the name without the slashes */
        char *bare = xstrdup(o->out);
        size_t len = strlen(bare);
        while (len > 1 && bare[len - 1] == '/')
            bare[--len] = '\0';
        struct stat lb;
        if (lstat(bare, &lb) == 0 && S_ISLNK(lb.st_mode))
            sb.st_mode = S_IFLNK;
        free(bare);
    }
    if (S_ISLNK(sb.st_mode))
        return COW_FAIL(e, COW_EUSAGE, "%s is a symbolic link: cowtail does not write "
                        "a capture through links (its files are opened with O_NOFOLLOW); "
                        "give the folder the link points to, or a new folder, with --out",
                        o->out);
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

/* This host's 1-minute load average, NAN when it cannot be read. */
static double load1(void)
{
    char buf[64], *end;
    int fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
    ssize_t k;
    double v;
    if (fd < 0)
        return NAN;
    k = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (k <= 0)
        return NAN;
    buf[k] = '\0';
    v = strtod(buf, &end);
    return end == buf ? NAN : v;
}

/* Was the probe held back by this host? Only the host's own evidence
 * counts: the probe thread waking more than an interval late, its sends
 * late by 1 ms at p99, or a load average above the CPUs. A server that
 * answers nothing does not delay an open-loop send, so it never counts. */
static void host_evidence(cap_result *res)
{
    long long slots = res->samples + res->gaps_late + res->gaps_buffer + res->gaps_cap;
    if (res->gaps_late > 0 && res->gaps_late * 1000 >= slots)
        snprintf(res->host_busy_why, sizeof(res->host_busy_why), "the probe thread ran "
                 "more than one interval late: %lld of %lld slots not sent",
                 res->gaps_late, slots);
    else if (res->lag_p99_us >= 1000)
        snprintf(res->host_busy_why, sizeof(res->host_busy_why), "the probe's sends were "
                 "late by %.0f us at p99 (its own thread, not the server)", res->lag_p99_us);
    else if (res->cpus > 0 && res->load1_after > res->cpus)
        snprintf(res->host_busy_why, sizeof(res->host_busy_why), "load average %.2f on "
                 "%d CPUs at the end", res->load1_after, res->cpus);
    res->host_busy = res->host_busy_why[0] != '\0';
}

static double cpu_s(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
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
        rep = cap_cmd(r, "BGSAVE");
    else if (o->trigger == CAP_TRIG_BGREWRITEAOF)
        rep = cap_cmd(r, "BGREWRITEAOF");
    else {
        rr = cap_connect(o, o->replica_host, o->replica_port, NULL, 5000, &e);
        if (rr == NULL) {
            snprintf(tg->reply, sizeof(tg->reply), "%.255s", e.msg);
            cap_stop(c, "trigger: the replica: %s", e.msg);
            return;
        }
        cap_replica_log_start(c, rr);
        rep = cap_cmd(rr, "REPLICAOF %s %d", o->host, o->port);
        redisFree(rr);
    }
    if (rep == NULL) {
        snprintf(tg->reply, sizeof(tg->reply), "no reply");
        cap_stop(c, "trigger %s: no reply", cap_trig_name(o->trigger));
        return;
    }
    snprintf(tg->reply, sizeof(tg->reply), "%s%s",
             rep->type == REDIS_REPLY_ERROR ? "error: " : "", rep->str ? rep->str : "");
    if (rep->type == REDIS_REPLY_ERROR)
        cap_stop(c, "trigger %s refused: %s", cap_trig_name(o->trigger), rep->str);
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
        rep = cap_cmd(*rep_conn, "INFO replication");
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
        rep = typed ? cap_cmd(r, "SCAN %s COUNT 1000 TYPE string", cursor)
                    : cap_cmd(r, "SCAN %s COUNT 1000", cursor);
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
    if ((rep = cap_cmd(r, "DBSIZE")) != NULL) {
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
    pthread_t probe, info, proc, kstat, rinfo, *wr = NULL;
    int have_proc = 0, have_kstat = 0, have_rinfo = 0, rc, i, nwr = 0;
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
    if ((rc = prepare_dir(o, 0, e)) != COW_OK || (rc = cap_server_facts(&c, r, &si, e)) != COW_OK ||
        (rc = cap_replica_check(&c, &tg, e)) != COW_OK) {
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
    cap_reserve_runjson(&c);

    /* signals: the handler only sets a flag; worker threads block them */
    got_signal = 0;
    cap_signal = 0;
    cap_cmd_tmo_ms = CAP_CMD_TMO_MS;
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
    res->load1_before = load1();
    res->cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
    say(o, "capture: %s (%s %s, role %s%s) into %s", addr, si.name, si.version, si.role,
        c.host_local ? ", on this host" : "", o->out);
    if (c.host_local && !c.local)
        say(o, "capture: %s", c.proc_why);

    {
        redisReply *conf = cap_cmd(r, "CONFIG GET *");
        cap_redact_config(conf);
        cap_dump(&c, r, "config.txt", "CONFIG GET *", conf);
    }
    cap_histogram_dump(&c, r, "latency-histogram-start.txt", si.version);
    if (c.host_local)
        cap_host_facts(&c, "before");
    cap_find_log(&c, r, c.pid, c.host_local, "server log", logpath, sizeof(c.logpath));
    if (logpath[0]) {
        int fd = cap_open_regular(&c, logpath, &sb);
        if (fd >= 0) {
            c.log_off = (long long)sb.st_size;
            close(fd);
        } else {
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
    if (c.local)
        have_kstat = pthread_create(&kstat, NULL, cap_kstat_main, &c) == 0;
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
            cap_stop(&c, "interrupted"); /* the signal's name: cap_stop */
            res->signal = got_signal;
        }
        if (atomic_load(&c.stop))
            break;
        if (now >= end_mono)
            break;
        if (o->trigger != CAP_TRIG_NONE && !tg.sent && now >= t_trig) {
            send_trigger(&c, r, &tg);
            say(o, "trigger: %s at %.1f s: %s", cap_trig_name(o->trigger),
                (double)(now - c.mono0_ns) / 1e9, tg.reply);
        } else if (tg.sent && !tg.done_us && trigger_done(&c, &tg, &rep_conn)) {
            tg.done_us = cap_now_us(&c);
            tg.done_mono = cap_mono_ns();
            say(o, "trigger: the %s is over at %.1f s; %.1f s more", cap_trig_name(o->trigger),
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
    if (have_kstat)
        pthread_join(kstat, NULL);
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

    /* the end dumps, on a fresh connection when the old one is gone; after
     * a signal each read has 300 ms at most (a second signal ends it) */
    if (got_signal) {
        cap_cmd_tmo_ms = 300;
        cap_signal = 0;
    }
    cap_replica_restore(&c, &tg);
    {
        redisReply *ping = cap_cmd(r, "PING");
        if (ping == NULL) {
            cow_err e2 = COW_ERR_INIT;
            redisFree(r);
            r = cap_connect(o, o->host, o->port, o->socket, 2000, &e2);
        } else {
            freeReplyObject(ping);
        }
    }
    /* the histogram first: the LATENCY calls that follow are the capture's
       own, not the run's */
    cap_histogram_dump(&c, r, "latency-histogram.txt", si.version);
    cap_latency_dumps(&c, r);
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
        res->gaps_late = c.gaps[0];
        res->gaps_buffer = c.gaps[1];
        res->gaps_cap = c.gaps[2];
        res->stalls = c.stalls;
        res->stall_max_ms = (double)c.stall_max_us / 1000.0;
        res->waiting_max = (long long)c.waiting_max;
        res->unanswered = c.unanswered;
        res->probe_conns = c.probe_conns;
        res->load1_after = load1();
        host_evidence(res);
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
        snprintf(res->replica_after, sizeof(res->replica_after), "%s", tg.rep_after);
        res->replica_restore_failed = tg.rep_failed;
        res->unreadable = (int)c.nmiss;
        snprintf(res->interrupted, sizeof(res->interrupted), "%s", c.why);
        cap_write_runjson(&c, &si, &tg, res, 0, end_us);
        res->unreadable = (int)c.nmiss; /* run.json's own write may add one */
        res->write_failed = c.write_failed;
        snprintf(res->write_why, sizeof(res->write_why), "%s", c.write_why);
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
