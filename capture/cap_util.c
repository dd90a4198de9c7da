/* cap_util.c -- the capture's clock, stop flag, folder files, connections
 * and INFO field reading (cap_int.h). */
#include <errno.h>
#include <poll.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cap_int.h"
#include "mem.h"
#include "outfile.h"

int64_t cap_mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t cap_wall_us(const cap_ctx *c, int64_t mono_ns)
{
    /* one wall reading at start plus a monotonic delta: never a
     * difference of the two clocks */
    return c->wall0_us + (mono_ns - c->mono0_ns) / 1000;
}

int64_t cap_now_us(const cap_ctx *c)
{
    return cap_wall_us(c, cap_mono_ns());
}

/* The realtime clock read between two monotonic readings and set against
 * their midpoint, the narrowest of three tries (a thread preempted between
 * the readings would move it by the time it was away). The wall clock
 * steps: on some virtual machines by half a millisecond ten times a
 * second. */
int64_t cap_wall_offset(void)
{
    int64_t best = INT64_MAX, off = 0;

    for (int t = 0; t < 3 && best > 20000; t++) {
        struct timespec rt;
        int64_t m1 = cap_mono_ns(), m2;
        clock_gettime(CLOCK_REALTIME, &rt);
        m2 = cap_mono_ns();
        if (m2 - m1 < best) {
            best = m2 - m1;
            off = (int64_t)rt.tv_sec * 1000000000 + rt.tv_nsec - (m1 + (m2 - m1) / 2);
        }
    }
    return off;
}

int64_t cap_stamp_mono(int64_t wall_ns, int64_t off_before, int64_t off_now, int64_t now_ns)
{
    int64_t st = wall_ns - off_now;

    if (off_before && wall_ns - off_before > st)
        st = wall_ns - off_before;
    return st > now_ns ? now_ns : st;
}

int cap_sleep_until(cap_ctx *c, int64_t mono_ns)
{
    for (;;) {
        int64_t now = cap_mono_ns(), until = mono_ns;
        struct timespec ts;
        if (atomic_load(&c->stop))
            return 1;
        if (now >= mono_ns)
            return 0;
        if (until - now > 50000000) /* look at the stop flag every 50 ms */
            until = now + 50000000;
        ts.tv_sec = (time_t)(until / 1000000000);
        ts.tv_nsec = (long)(until % 1000000000);
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
            ;
    }
}

/* The first reason stops the capture. After a signal it is the signal:
 * a thread whose read the signal cut short ("INFO connection lost:
 * interrupted") may stop it before the main loop sees the flag. */
void cap_stop(cap_ctx *c, const char *fmt, ...)
{
    va_list ap;
    int sig = cap_signal;
    pthread_mutex_lock(&c->mu);
    if (c->why[0] == '\0' && sig != 0) {
        snprintf(c->why, sizeof(c->why), "interrupted by %s after %.1f s",
                 sig == SIGINT ? "SIGINT (Ctrl-C)" : "SIGTERM",
                 (double)(cap_mono_ns() - c->mono0_ns) / 1e9);
    } else if (c->why[0] == '\0') {
        va_start(ap, fmt);
        vsnprintf(c->why, sizeof(c->why), fmt, ap);
        va_end(ap);
    }
    pthread_mutex_unlock(&c->mu);
    atomic_store(&c->stop, 1);
}

void cap_missing(cap_ctx *c, const char *what, const char *fmt, ...)
{
    va_list ap;
    cap_miss *m;
    pthread_mutex_lock(&c->mu);
    c->miss = xrealloc(c->miss, (c->nmiss + 1) * sizeof(*c->miss));
    m = &c->miss[c->nmiss++];
    snprintf(m->what, sizeof(m->what), "%s", what);
    va_start(ap, fmt);
    vsnprintf(m->why, sizeof(m->why), fmt, ap);
    va_end(ap);
    pthread_mutex_unlock(&c->mu);
}

void cap_write_failed(cap_ctx *c, const char *name, int er)
{
    const char *why = er ? strerror(er) : "write error";
    pthread_mutex_lock(&c->mu);
    if (!c->write_failed)
        snprintf(c->write_why, sizeof(c->write_why), "%s: %s", name, why);
    c->write_failed = 1;
    pthread_mutex_unlock(&c->mu);
    cap_missing(c, name, "write failed (%s): the file ends where the write failed; "
                "free space in the folder's file system and capture again", why);
    cap_stop(c, "a write to %s failed: %s", name, why);
}

FILE *cap_create(cap_ctx *c, const char *name, cow_err *e)
{
    char *path = outfile_join(c->dir, name); /* never cut: a long --out */
    int fd, flags = O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC;
    FILE *fp;

    /* never through a link; an existing file only with --force */
    flags |= c->o->force ? O_TRUNC : O_EXCL;
    fd = open(path, flags, 0644);
    if (fd < 0) {
        COW_FAIL(e, COW_EIO, "cannot create %s: %s", path, strerror(errno));
        free(path);
        return NULL;
    }
    fp = fdopen(fd, "w");
    if (fp == NULL) {
        close(fd);
        COW_FAIL(e, COW_EIO, "cannot open %s: %s", path, strerror(errno));
    }
    free(path);
    return fp;
}

void cap_addr(const cap_opts *o, char *buf, size_t cap)
{
    if (o->socket)
        snprintf(buf, cap, "%s", o->socket);
    else if (strchr(o->host, ':'))
        snprintf(buf, cap, "[%s]:%d", o->host, o->port);
    else
        snprintf(buf, cap, "%s:%d", o->host, o->port);
}

redisContext *cap_connect(const cap_opts *o, const char *host, int port,
                          const char *sock, int tmo_ms, cow_err *e)
{
    struct timeval tv;
    redisContext *r;
    redisReply *rep;
    char addr[600];

    tv.tv_sec = tmo_ms / 1000;
    tv.tv_usec = (tmo_ms % 1000) * 1000;
    if (sock) {
        snprintf(addr, sizeof(addr), "%s", sock);
        r = redisConnectUnixWithTimeout(sock, tv);
    } else {
        snprintf(addr, sizeof(addr), strchr(host, ':') ? "[%s]:%d" : "%s:%d", host, port);
        r = redisConnectWithTimeout(host, port, tv);
    }
    if (r == NULL || r->err) {
        COW_FAIL(e, COW_EIO, "cannot connect to %s: %s (is the server running and "
                 "listening there? TLS is not supported: use a local tunnel such as "
                 "stunnel or ssh -L)", addr, r ? r->errstr : "out of memory");
        if (r)
            redisFree(r);
        return NULL;
    }
    redisSetTimeout(r, tv);
    if (o->pass) {
        rep = o->user ? redisCommand(r, "AUTH %s %s", o->user, o->pass)
                      : redisCommand(r, "AUTH %s", o->pass);
        if (rep == NULL || rep->type == REDIS_REPLY_ERROR) {
            COW_FAIL(e, COW_EIO, "%s refused AUTH%s%s: %s", addr, o->user ? " as " : "",
                     o->user ? o->user : "",
                     rep ? rep->str : r->errstr);
            if (rep)
                freeReplyObject(rep);
            redisFree(r);
            return NULL;
        }
        freeReplyObject(rep);
    }
    return r;
}

int cap_info_field(const char *info, const char *key, char *buf, size_t cap)
{
    size_t n = strlen(key);
    const char *p = info;
    while (p && *p) {
        if (strncmp(p, key, n) == 0 && p[n] == ':') {
            size_t k = strcspn(p + n + 1, "\r\n");
            if (k >= cap)
                k = cap - 1;
            memcpy(buf, p + n + 1, k);
            buf[k] = '\0';
            return 1;
        }
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    return 0;
}

volatile sig_atomic_t cap_signal;
int cap_cmd_tmo_ms = CAP_CMD_TMO_MS;

/* A command and its reply under a deadline: the reply is read in slices of
 * at most 100 ms, so a server that answers one byte at a time, or not at
 * all, cannot hold the capture past tmo_ms, nor past SIGINT/SIGTERM
 * (cap_signal) or stop. On a timeout r->errstr says CAP_TIMEOUT_WHY and
 * r is spent (its reply may still arrive): free it. */
static redisReply *cmd_within(redisContext *r, int tmo_ms, atomic_int *stop,
                              const char *fmt, va_list ap)
{
    int done = 0;
    void *rep = NULL;
    int64_t deadline = cap_mono_ns() + (int64_t)tmo_ms * 1000000;

    if (r->err || redisvAppendCommand(r, fmt, ap) != REDIS_OK)
        return NULL;
    do {
        if (redisBufferWrite(r, &done) != REDIS_OK)
            return NULL;
    } while (!done);
    for (;;) {
        struct pollfd pf;
        int64_t left;
        if (redisGetReplyFromReader(r, &rep) != REDIS_OK)
            return NULL;
        if (rep != NULL)
            return rep;
        left = (deadline - cap_mono_ns()) / 1000000;
        if (cap_signal || (stop && atomic_load(stop)) || left <= 0) {
            r->err = REDIS_ERR_IO;
            snprintf(r->errstr, sizeof(r->errstr), "%s",
                     left <= 0 ? CAP_TIMEOUT_WHY : "interrupted");
            return NULL;
        }
        pf.fd = r->fd;
        pf.events = POLLIN;
        if (poll(&pf, 1, left < 100 ? (int)left : 100) > 0 &&
            redisBufferRead(r) != REDIS_OK)
            return NULL;
    }
}

redisReply *cap_cmd(redisContext *r, const char *fmt, ...)
{
    va_list ap;
    redisReply *rep;
    va_start(ap, fmt);
    rep = cmd_within(r, cap_cmd_tmo_ms, NULL, fmt, ap);
    va_end(ap);
    return rep;
}

redisReply *cap_cmd_within(redisContext *r, int tmo_ms, atomic_int *stop,
                           const char *fmt, ...)
{
    va_list ap;
    redisReply *rep;
    va_start(ap, fmt);
    rep = cmd_within(r, tmo_ms, stop, fmt, ap);
    va_end(ap);
    return rep;
}

bool cap_timed_out(const redisContext *r)
{
    return r && r->err && strcmp(r->errstr, CAP_TIMEOUT_WHY) == 0;
}

long long cap_info_ll(const char *info, const char *key, long long dflt)
{
    char buf[64], *end;
    long long v;
    if (!cap_info_field(info, key, buf, sizeof(buf)))
        return dflt;
    v = strtoll(buf, &end, 10);
    return end == buf ? dflt : v;
}

int cap_parse_hostport(const char *s, char *hbuf, size_t hcap, int *port, cow_err *e)
{
    const char *colon, *h = s;
    size_t hn;
    char *end;
    long p;

    if (s[0] == '[') {
        const char *rb = strchr(s, ']');
        if (rb == NULL || rb[1] != ':')
            return COW_FAIL(e, COW_EUSAGE, "'%s' is not HOST:PORT", s);
        h = s + 1;
        hn = (size_t)(rb - h);
        colon = rb + 1;
    } else {
        colon = strrchr(s, ':');
        if (colon == NULL || colon == s)
            return COW_FAIL(e, COW_EUSAGE, "'%s' is not HOST:PORT", s);
        hn = (size_t)(colon - s);
    }
    p = strtol(colon + 1, &end, 10);
    if (*end != '\0' || end == colon + 1 || p < 1 || p > 65535)
        return COW_FAIL(e, COW_EUSAGE, "'%s': the port must be 1 to 65535", s);
    if (hn + 1 > hcap)
        return COW_FAIL(e, COW_EUSAGE, "'%s': the host name is too long", s);
    memcpy(hbuf, h, hn);
    hbuf[hn] = '\0';
    *port = (int)p;
    return COW_OK;
}

int64_t cap_slot_at(int64_t intended_ns, int64_t now_ns, int64_t period_ns)
{
    if (period_ns <= 0 || now_ns - intended_ns < period_ns)
        return intended_ns;
    return intended_ns + (now_ns - intended_ns) / period_ns * period_ns;
}
