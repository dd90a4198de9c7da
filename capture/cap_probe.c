/* cap_probe.c -- the probe and the writers.
 *
 * Requirements:
 *  1. The probe is open loop for real: sample i is meant to go at start +
 *     i x interval (from the first slot after the connection is made) and
 *     goes then, whatever the server does. Requests are pipelined on one
 *     non-blocking connection and their replies matched in order, so a
 *     server that answers nothing does not hold back the next request.
 *  2. No catch-up: a slot is sent at most one interval after its intended
 *     time. A slot that cannot be sent is a gap with its reason, in
 *     probe-gaps.csv
 *     (intended_us of the first slot, slots, length_us, reason):
 *     "late" (the probe thread itself ran late: this host), "buffer" (the
 *     connection's send buffer is full: the server reads nothing), "cap"
 *     (CAP_PROBE_MAX_WAITING requests already wait for a reply).
 *  3. latency.csv: timestamp_us (actual send, epoch us), latency_us (reply
 *     - actual send, 0.1 us), op, intended_us (epoch us), written as the
 *     replies come (in send order). run.json "latency_from" is "intended":
 *     ingest reads reply - intended unless told otherwise. Stamps come from
 *     cap_wall_us: one wall reading plus monotonic deltas.
 *  4. stalls.csv: each period of at least CAP_STALL_MIN_US in which the
 *     server answered nothing while requests waited (start_us: the later
 *     of the last reply and the oldest waiting send; length_us; waiting:
 *     the requests waiting when it ended; ended: reply, or end when the
 *     capture ended first).
 *  5. A lost connection, a reply nobody asked for, a reply over
 *     CAP_PROBE_MAX_REPLY or no reply for CAP_PROBE_DEAD_S ends the
 *     capture with the reason (cap_stop); what was written stays. At the
 *     end the waiting requests get CAP_PROBE_DRAIN_MS to be answered; the
 *     rest are counted (run.json "unanswered_at_end").
 *  6. Writers pace SET XX (GETs with --load-op get) of random existing keys (the pool
 *     gathered by SCAN at start: no key is ever created) in small pipelined
 *     batches every millisecond, each writer rate / writers per second;
 *     behind schedule they catch up by at most 100 ms of work at once. */
#define _GNU_SOURCE /* ppoll: a wait to the nanosecond */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "cap_int.h"
#include "mem.h"
static double thread_cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The figures kept for run.json's quantiles: every sample up to
 * CAP_KEEP_MAX, then every other one of them and every 2nd sample from
 * there on, and so on (a fixed memory, an even thinning). */
#define CAP_KEEP_MAX ((size_t)1 << 22)

static void keep(cap_ctx *c, double lag_us, double rtt_us)
{
    size_t i;
    if (c->samples % c->stride != 0)
        return;
    if (c->nlag == CAP_KEEP_MAX) {
        for (i = 0; i < c->nlag / 2; i++) {
            c->lag[i] = c->lag[2 * i];
            c->rtt[i] = c->rtt[2 * i];
        }
        c->nlag /= 2;
        c->stride *= 2;
        if (c->samples % c->stride != 0)
            return;
    }
    if (c->nlag == c->caplag) {
        c->caplag = c->caplag ? c->caplag * 2 : 65536;
        c->lag = xrealloc(c->lag, c->caplag * sizeof(float));
        c->rtt = xrealloc(c->rtt, c->caplag * sizeof(float));
    }
    c->lag[c->nlag] = (float)lag_us;
    c->rtt[c->nlag++] = (float)rtt_us;
}

/* Decimal digits of v (>= 0) ending at end; returns the first. */
static char *digits(char *end, unsigned long long v)
{
    do {
        *--end = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    return end;
}

/* One latency.csv row without printf: timestamp_us,latency_us,op,intended_us
 * with the latency in us to 0.1 (ns rounded). */
static void row(FILE *fp, int64_t sent_us, int64_t lat_ns, const char *op,
                int64_t intended_us)
{
    char buf[128], *end = buf + sizeof(buf), *p = end;
    size_t n = strlen(op);
    long long tenths = (lat_ns + 50) / 100;

    *--p = '\n';
    p = digits(p, (unsigned long long)intended_us);
    *--p = ',';
    p -= n;
    memcpy(p, op, n);
    *--p = ',';
    *--p = (char)('0' + tenths % 10);
    *--p = '.';
    p = digits(p, (unsigned long long)(tenths / 10));
    *--p = ',';
    p = digits(p, (unsigned long long)sent_us);
    fwrite(p, 1, (size_t)(end - p), fp);
}

/* ------------------------------------------------------------ the probe */

enum { GAP_NONE = -1, GAP_LATE = 0, GAP_BUFFER, GAP_CAP };

static const char *const gap_why[] = {
    [GAP_LATE] = "late", [GAP_BUFFER] = "buffer", [GAP_CAP] = "cap"};

typedef struct flight {
    int64_t intended, sent;    /* mono ns */
} flight;

typedef struct probe {
    cap_ctx *c;
    redisContext *r;
    FILE *lat, *stalls, *gaps;  /* latency.csv, stalls.csv, probe-gaps.csv */
    const char *op;             /* "ping" or "set" */
    char cmd[128];              /* the command's bytes, built once */
    size_t cmdlen;
    char rest[128];             /* a command the socket took only in part */
    size_t restlen;
    flight *q;                  /* requests waiting for a reply: a ring */
    size_t head, n;
    int64_t last_reply;         /* mono ns of the last reply (or the connect) */
    int gap_kind;               /* the gap run being counted, or GAP_NONE */
    int64_t gap_first;          /* its first slot (mono ns) */
    long long gap_slots;        /* its slots */
} probe;

/* Write the gap run counted so far (requirement 2). */
static void gap_flush(probe *p)
{
    if (p->gap_kind == GAP_NONE)
        return;
    if (p->gaps)
        fprintf(p->gaps, "%lld,%lld,%lld,%s\n", (long long)cap_wall_us(p->c, p->gap_first),
                p->gap_slots, p->gap_slots * (long long)p->c->o->interval_us,
                gap_why[p->gap_kind]);
    p->gap_kind = GAP_NONE;
}

static void gap_add(probe *p, int kind, int64_t intended, long long slots)
{
    p->c->gaps[kind] += slots;
    if (p->gap_kind != kind) {
        gap_flush(p);
        p->gap_kind = kind;
        p->gap_first = intended;
        p->gap_slots = 0;
    }
    p->gap_slots += slots;
}

/* A quiet period that ends at now (requirement 4); how = "reply" or "end". */
static void stall_check(probe *p, int64_t now, const char *how)
{
    int64_t from, len_ns;
    cap_ctx *c = p->c;
    if (p->n == 0)
        return;
    from = p->q[p->head].sent > p->last_reply ? p->q[p->head].sent : p->last_reply;
    len_ns = now - from;
    if (len_ns < CAP_STALL_MIN_US * 1000)
        return;
    c->stalls++;
    if (len_ns / 1000 > c->stall_max_us)
        c->stall_max_us = len_ns / 1000;
    if (p->stalls)
        fprintf(p->stalls, "%lld,%lld,%zu,%s\n", (long long)cap_wall_us(c, from),
                (long long)(len_ns / 1000), p->n, how);
}

/* The replies that came: matched in order to the waiting requests. 0, or
 * -1 when the capture must end (cap_stop said why). */
static int take_replies(probe *p)
{
    char buf[65536];
    ssize_t k = read(p->r->fd, buf, sizeof(buf));
    int64_t now = cap_mono_ns();
    void *rep;
    int first = 1;

    if (k < 0 && (errno == EAGAIN || errno == EINTR))
        return 0;
    if (k <= 0) {
        cap_stop(p->c, "probe connection lost: %s", k == 0 ? "the server closed it"
                                                           : strerror(errno));
        return -1;
    }
    if (redisReaderFeed(p->r->reader, buf, (size_t)k) != REDIS_OK ||
        p->r->reader->len - p->r->reader->pos > CAP_PROBE_MAX_REPLY) {
        cap_stop(p->c, "probe: a reply over %d bytes: not a reply to PING or SET",
                 CAP_PROBE_MAX_REPLY);
        return -1;
    }
    for (;;) {
        const redisReply *rr;
        flight f;
        if (redisReaderGetReply(p->r->reader, &rep) != REDIS_OK) {
            cap_stop(p->c, "probe: the server's reply is not RESP: %s", p->r->reader->errstr);
            return -1;
        }
        if (rep == NULL)
            return 0;
        if (p->n == 0) {
            freeReplyObject(rep);
            cap_stop(p->c, "probe: a reply to no request (another client on the "
                     "connection?)");
            return -1;
        }
        if (first)
            stall_check(p, now, "reply");
        first = 0;
        f = p->q[p->head];
        p->head = (p->head + 1) % CAP_PROBE_MAX_WAITING;
        p->n--;
        rr = rep;
        if (rr->type == REDIS_REPLY_ERROR)
            p->c->errors++;
        row(p->lat, cap_wall_us(p->c, f.sent), now - f.sent,
            rr->type == REDIS_REPLY_ERROR ? "error" : p->op, cap_wall_us(p->c, f.intended));
        freeReplyObject(rep);
        p->c->samples++;
        if (f.sent - f.intended > 1000000)
            p->c->late++;
        keep(p->c, (double)(f.sent - f.intended) / 1000.0, (double)(now - f.sent) / 1000.0);
        p->last_reply = now;
    }
}

/* Hand the socket what it did not take of the last command; 1 when all
 * is out, 0 when some is still held, -1 on a lost connection. */
static int flush_rest(probe *p)
{
    ssize_t k;
    if (p->restlen == 0)
        return 1;
    k = write(p->r->fd, p->rest, p->restlen);
    if (k < 0 && (errno == EAGAIN || errno == EINTR))
        return 0;
    if (k < 0) {
        cap_stop(p->c, "probe connection lost: %s", strerror(errno));
        return -1;
    }
    memmove(p->rest, p->rest + k, p->restlen - (size_t)k);
    p->restlen -= (size_t)k;
    return p->restlen == 0;
}

/* Serve replies until the monotonic instant until: 0, 1 when stopped (or
 * drain and nothing waits), -1 when the capture must end. */
static int serve_until(probe *p, int64_t until, int drain)
{
    for (;;) {
        int64_t now = cap_mono_ns(), wait = until - now;
        struct pollfd pf = {p->r->fd, POLLIN, 0};
        struct timespec ts;
        if ((!drain && atomic_load(&p->c->stop)) || (drain && p->n == 0))
            return 1;
        if (wait <= 0)
            return 0;
        if (p->n > 0 && now - p->q[p->head].sent > INT64_C(1000000000) * CAP_PROBE_DEAD_S) {
            cap_stop(p->c, "probe: no reply for %d s: the server is hung", CAP_PROBE_DEAD_S);
            return -1;
        }
        if (wait > 50000000) /* look at the stop flag every 50 ms */
            wait = 50000000;
        if (p->restlen)
            pf.events |= POLLOUT;
        ts.tv_sec = (time_t)(wait / 1000000000);
        ts.tv_nsec = (long)(wait % 1000000000);
        if (ppoll(&pf, 1, &ts, NULL) <= 0)
            continue;
        if ((pf.revents & POLLOUT) && flush_rest(p) < 0)
            return -1;
        if ((pf.revents & (POLLIN | POLLHUP | POLLERR)) && take_replies(p) < 0)
            return -1;
    }
}

/* Send the slot meant for intended (requirement 2): 0, or -1 when the
 * capture must end. */
static int send_slot(probe *p, int64_t intended)
{
    int64_t sent;
    ssize_t k;
    int fl;

    if (p->n == CAP_PROBE_MAX_WAITING) {
        gap_add(p, GAP_CAP, intended, 1);
        return 0;
    }
    if ((fl = flush_rest(p)) < 0)
        return -1;
    if (fl == 0) {
        gap_add(p, GAP_BUFFER, intended, 1);
        return 0;
    }
    sent = cap_mono_ns();
    k = write(p->r->fd, p->cmd, p->cmdlen);
    if (k < 0 && (errno == EAGAIN || errno == EINTR)) {
        gap_add(p, GAP_BUFFER, intended, 1);
        return 0;
    }
    if (k < 0) {
        cap_stop(p->c, "probe connection lost: %s", strerror(errno));
        return -1;
    }
    gap_flush(p);
    /* the socket took part of it: the request is on its way, the rest follows */
    p->restlen = p->cmdlen - (size_t)k;
    memcpy(p->rest, p->cmd + k, p->restlen);
    p->q[(p->head + p->n) % CAP_PROBE_MAX_WAITING] = (flight){intended, sent};
    if (++p->n > p->c->waiting_max)
        p->c->waiting_max = p->n;
    return 0;
}

/* The probe's files; 0, or -1 (cap_stop said why). */
static int probe_open(probe *p)
{
    cow_err e = COW_ERR_INIT;
    if ((p->lat = cap_create(p->c, "latency.csv", &e)) == NULL ||
        (p->stalls = cap_create(p->c, "stalls.csv", &e)) == NULL ||
        (p->gaps = cap_create(p->c, "probe-gaps.csv", &e)) == NULL) {
        cap_stop(p->c, "probe: %s", e.msg);
        return -1;
    }
    setvbuf(p->lat, NULL, _IOFBF, 1 << 16);
    fprintf(p->lat, "timestamp_us,latency_us,op,intended_us\n");
    fprintf(p->stalls, "start_us,length_us,waiting,ended\n");
    fprintf(p->gaps, "intended_us,slots,length_us,reason\n");
    return 0;
}

static void probe_close(probe *p, FILE *fp, const char *name)
{
    if (fp == NULL)
        return;
    if (fflush(fp) != 0 || ferror(fp))
        cap_write_failed(p->c, name, errno);
    fclose(fp);
}

/* The schedule (requirements 1 and 2). */
static void probe_loop(probe *p)
{
    const cap_opts *o = p->c->o;
    int64_t period = o->interval_us * 1000, start = p->c->mono0_ns, i;

    /* slots on the grid of the capture's start, from the first one ahead
     * (CONFIG and the host's files were read before this thread began) */
    i = (cap_mono_ns() - start) / period + 1;
    for (;; i++) {
        int64_t intended = start + i * period, late;
        int rc = serve_until(p, intended, 0);
        if (rc != 0)
            return;
        late = cap_mono_ns() - intended;
        if (late >= period) {
            /* the thread itself ran late: those slots are gone, not sent in a burst */
            long long k = late / period;
            gap_add(p, GAP_LATE, intended, k);
            i += k;
            intended += k * period;
        }
        if (send_slot(p, intended) < 0)
            return;
    }
}

void *cap_probe_main(void *arg)
{
    cap_ctx *c = arg;
    const cap_opts *o = c->o;
    cow_err e = COW_ERR_INIT;
    probe p;
    double cpu0 = thread_cpu_s();
    char key[64];
    int fl;

    memset(&p, 0, sizeof(p));
    p.c = c;
    p.gap_kind = GAP_NONE;
    p.op = o->probe_set ? "set" : "ping";
    c->stride = 1;
    c->probe_conns = 1;
    prctl(PR_SET_TIMERSLACK, 1UL); /* wake at the slot, not 50 us after it */
    p.r = cap_connect(o, o->host, o->port, o->socket, 5000, &e);
    if (p.r == NULL) {
        cap_stop(c, "probe: %s", e.msg);
        return NULL;
    }
    if (probe_open(&p) != 0)
        goto out;
    snprintf(key, sizeof(key), "cowtail:probe:%ld", (long)getpid());
    if (o->probe_set)
        p.cmdlen = (size_t)snprintf(p.cmd, sizeof(p.cmd), "*3\r\n$3\r\nSET\r\n$%zu\r\n%s\r\n"
                                    "$1\r\nx\r\n", strlen(key), key);
    else
        p.cmdlen = (size_t)snprintf(p.cmd, sizeof(p.cmd), "*1\r\n$4\r\nPING\r\n");
    fl = fcntl(p.r->fd, F_GETFL);
    if (fl < 0 || fcntl(p.r->fd, F_SETFL, fl | O_NONBLOCK) < 0) {
        cap_stop(c, "probe: cannot make the connection non-blocking: %s", strerror(errno));
        goto out;
    }
    p.q = xmalloc(CAP_PROBE_MAX_WAITING * sizeof(*p.q));
    p.last_reply = cap_mono_ns();
    probe_loop(&p);
    /* requirement 5: the waiting requests get a moment to be answered */
    if (serve_until(&p, cap_mono_ns() + CAP_PROBE_DRAIN_MS * INT64_C(1000000), 1) == 0 ||
        p.n > 0) {
        stall_check(&p, cap_mono_ns(), "end");
        c->unanswered = (long long)p.n;
    }
    gap_flush(&p);
    if (o->probe_set && p.n == 0 && fcntl(p.r->fd, F_SETFL, fl) == 0) {
        redisReply *rep = redisCommand(p.r, "DEL %s", key);
        if (rep)
            freeReplyObject(rep);
    }
out:
    probe_close(&p, p.lat, "latency.csv");
    probe_close(&p, p.stalls, "stalls.csv");
    probe_close(&p, p.gaps, "probe-gaps.csv");
    free(p.q);
    redisFree(p.r);
    c->probe_cpu_s = thread_cpu_s() - cpu0;
    return NULL;
}

/* xorshift64*: the writers' key and value choice (seeded, per writer). */
static uint64_t rnd(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * UINT64_C(0x2545F4914F6CDD1D);
}

void *cap_writer_main(void *arg)
{
    writer_arg *w = arg;
    cap_ctx *c = w->c;
    const cap_opts *o = c->o;
    cow_err e = COW_ERR_INIT;
    redisContext *r = cap_connect(o, o->host, o->port, o->socket, 60000, &e);
    double per_ns = o->load_rate / (double)o->writers / 1e9, owed = 0;
    uint64_t s = o->seed * UINT64_C(0x9E3779B97F4A7C15) + (uint64_t)w->idx + 1;
    char *val = xmalloc((size_t)o->value_size + 1);
    int64_t last = cap_mono_ns(), tick;
    size_t i;

    if (r == NULL) {
        cap_stop(c, "writer %d: %s", w->idx + 1, e.msg);
        free(val);
        return NULL;
    }
    for (i = 0; i < (size_t)o->value_size; i++)
        val[i] = (char)('a' + rnd(&s) % 26);
    val[o->value_size] = '\0';
    for (tick = last + 1000000;; tick += 1000000) {
        int64_t now;
        long long k, n;
        if (cap_sleep_until(c, tick))
            break;
        now = cap_mono_ns();
        owed += (double)(now - last) * per_ns;
        if (owed > o->load_rate / (double)o->writers / 10)
            owed = o->load_rate / (double)o->writers / 10; /* 100 ms at most */
        last = now;
        n = (long long)owed;
        owed -= (double)n;
        for (k = 0; k < n; k++) {
            size_t ki = (size_t)(rnd(&s) % (uint64_t)c->npool);
            if (o->load_get) {
                redisAppendCommand(r, "GET %b", c->pool[ki], c->poollen[ki]);
                continue;
            }
            val[rnd(&s) % (uint64_t)o->value_size] = (char)('a' + rnd(&s) % 26);
            /* XX: a key deleted or expired since the start is not made again */
            /* KEEPTTL: a key that expires keeps its expiry */
            redisAppendCommand(r, c->keepttl ? "SET %b %b XX KEEPTTL" : "SET %b %b XX",
                               c->pool[ki], c->poollen[ki], val, (size_t)o->value_size);
        }
        for (k = 0; k < n; k++) {
            redisReply *rep;
            if (redisGetReply(r, (void **)&rep) != REDIS_OK) {
                cap_stop(c, "writer %d connection lost: %s", w->idx + 1, r->errstr);
                goto out;
            }
            freeReplyObject(rep);
            atomic_fetch_add(&c->load_ops, 1);
        }
    }
out:
    redisFree(r);
    free(val);
    free(w);
    return NULL;
}
