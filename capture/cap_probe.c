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
 *     cap_wall_us: one wall reading plus monotonic deltas. A reply's time
 *     is when it reached the socket (requirement 7), not when the thread
 *     read it.
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
 *     behind schedule they catch up by at most 100 ms of work at once.
 *  7. One wake per slot. On TCP the kernel stamps each segment's arrival
 *     (SO_TIMESTAMPNS, CLOCK_REALTIME, read back as a control message and
 *     turned into CLOCK_MONOTONIC at the read); once a read has shown the
 *     stamps come, the thread sleeps to the next slot while at most one
 *     request waits, reads that request's reply at the slot (alone in the
 *     socket, it keeps its own stamp), sends, then parses what it read
 *     (reading after the send would let the new request's reply, when the
 *     thread is preempted between the two, merge with the old one and
 *     give it its stamp). With two or more waiting it wakes at each reply as
 *     without stamps: the kernel merges segments that wait unread and
 *     keeps only the newest stamp, which would give an earlier reply a
 *     later one's time. Only a reply read after such a sleep takes the
 *     stamp: one read when the thread woke for it takes the read's time, as
 *     before (with requests pipelined back to back the kernel's stamp has
 *     been seen to precede the reply's true arrival), and so does a read
 *     that holds several replies or a stamp from before the request left.
 *     Without stamps (a unix socket) every reply wakes the thread and its
 *     time is the read's. */
#define _GNU_SOURCE /* ppoll: a wait to the nanosecond */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
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
    const char *rep;            /* its usual reply: "+PONG\r\n" or "+OK\r\n" */
    size_t replen;
    char rest[128];             /* a command the socket took only in part */
    size_t restlen;
    flight *q;                  /* requests waiting for a reply: a ring */
    size_t head, n;
    int64_t last_reply;         /* mono ns of the last reply (or the connect) */
    int stamps;                 /* asked for the kernel's receive stamps */
    int stamped;                /* a read has brought one: the thread may sleep
                                   past a reply (requirement 7) */
    int unread;                 /* slept while a request waited: its reply
                                   may be in the socket */
    int64_t wall_off;           /* CLOCK_REALTIME - CLOCK_MONOTONIC (ns) at
                                   the last send or read, 0 before one */
    char got[65536];            /* read by pull, not yet fed (feed) */
    size_t ngot;
    int64_t got_now;            /* when it was read (mono ns) */
    int64_t got_stamp;          /* the kernel's stamp of its arrival (mono
                                   ns), 0 when none came */
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

/* Read what the socket holds into buf: the bytes (0 at the end of the
 * stream, -1 with errno), into *now the monotonic instant of the read and
 * into *stamp the kernel's stamp of the data's arrival as a monotonic
 * instant (requirement 7), 0 when it gave none. */
static ssize_t recv_stamped(probe *p, char *buf, size_t cap, int64_t *now_ns,
                            int64_t *stamp)
{
    union {
        struct cmsghdr align;
        char b[CMSG_SPACE(sizeof(struct timespec))];
    } ctl;
    struct iovec iov = {buf, cap};
    struct msghdr m;
    struct cmsghdr *cm;
    ssize_t k;
    int64_t now;

    memset(&m, 0, sizeof(m));
    m.msg_iov = &iov;
    m.msg_iovlen = 1;
    if (p->stamps) {
        m.msg_control = ctl.b;
        m.msg_controllen = sizeof(ctl.b);
    }
    k = recvmsg(p->r->fd, &m, 0);
    now = cap_mono_ns();
    *now_ns = now;
    *stamp = 0;
    if (k <= 0 || !p->stamps)
        return k;
    for (cm = CMSG_FIRSTHDR(&m); cm; cm = CMSG_NXTHDR(&m, cm)) {
        struct timespec ts;
        int64_t st, off;
        if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_TIMESTAMPNS)
            continue;
        memcpy(&ts, CMSG_DATA(cm), sizeof(ts));
        /* the offset read at the last send or read came before the reply
         * did: a step of the wall clock between the two moves the stamp */
        off = cap_wall_offset();
        st = cap_stamp_mono((int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec, p->wall_off, off, now);
        p->wall_off = off;
        if (st > 0)
            *stamp = st;
        p->stamped = 1;
        return k;
    }
    /* data without a stamp (its time is the read's): every reply wakes
     * the thread until a read brings one again */
    p->stamped = 0;
    return k;
}

/* Read what came into p->got (p->ngot bytes, read at p->got_now, the
 * kernel's stamp p->got_stamp): 0, or -1 when the capture must end
 * (cap_stop said why). */
static int pull(probe *p)
{
    int slept = p->unread; /* the stamp is the reply's only after a sleep */
    ssize_t k = recv_stamped(p, p->got, sizeof(p->got), &p->got_now, &p->got_stamp);

    p->unread = 0;
    p->ngot = 0;
    if (!slept)
        p->got_stamp = 0;
    if (k < 0 && (errno == EAGAIN || errno == EINTR))
        return 0;
    if (k <= 0) {
        cap_stop(p->c, "probe connection lost: %s", k == 0 ? "the server closed it"
                                                           : strerror(errno));
        return -1;
    }
    p->ngot = (size_t)k;
    return 0;
}

/* One reply, to the oldest waiting request, read at now; stamp: the
 * kernel's stamp of its arrival, or 0. A read that holds several replies
 * carries one stamp, which the kernel may have kept from any of the
 * segments it merged: those replies take the read's time, as does a reply
 * stamped before its request left (requirement 7). */
static void answered(probe *p, int64_t now, int64_t stamp, int first, int error)
{
    flight f = p->q[p->head];
    int64_t at = stamp >= f.sent && stamp > 0 ? stamp : now > f.sent ? now : f.sent;

    if (first)
        stall_check(p, at, "reply");
    p->head = (p->head + 1) % CAP_PROBE_MAX_WAITING;
    p->n--;
    if (error)
        p->c->errors++;
    row(p->lat, cap_wall_us(p->c, f.sent), at - f.sent, error ? "error" : p->op,
        cap_wall_us(p->c, f.intended));
    p->c->samples++;
    if (at == stamp)
        p->c->probe_stamped++;
    if (f.sent - f.intended > 1000000)
        p->c->late++;
    keep(p->c, (double)(f.sent - f.intended) / 1000.0, (double)(at - f.sent) / 1000.0);
    p->last_reply = at;
}

/* How many whole copies of the usual reply (+PONG or +OK) buf is, with
 * nothing of an earlier reply half read and no more than wait for one;
 * 0 when it is anything else (hiredis's reader takes it). */
static size_t usual_replies(const probe *p, const char *buf, size_t k)
{
    const redisReader *rd = p->r->reader;
    size_t i, m = p->replen;

    if (rd->pos != rd->len || rd->ridx != -1 || k % m != 0 || k / m > p->n)
        return 0;
    for (i = 0; i < k; i += m)
        if (memcmp(buf + i, p->rep, m) != 0)
            return 0;
    return k / m;
}

/* The replies of what pull read: matched in order to the waiting
 * requests. 0, or -1 when the capture must end (cap_stop said why). */
static int feed(probe *p)
{
    int64_t now = p->got_now, stamp = p->got_stamp;
    size_t k = p->ngot, i, usual;
    void *rep, *next = NULL;
    int first = 1;

    p->ngot = 0;
    if (k == 0)
        return 0;
    if ((usual = usual_replies(p, p->got, k)) > 0) {
        for (i = 0; i < usual; i++)
            answered(p, now, usual == 1 ? stamp : 0, i == 0, 0);
        return 0;
    }
    if (redisReaderFeed(p->r->reader, p->got, k) != REDIS_OK ||
        p->r->reader->len - p->r->reader->pos > CAP_PROBE_MAX_REPLY) {
        cap_stop(p->c, "probe: a reply over %d bytes: not a reply to PING or SET",
                 CAP_PROBE_MAX_REPLY);
        return -1;
    }
    /* one reply ahead: the stamp is a reply's only when the read held one */
    if (redisReaderGetReply(p->r->reader, &next) != REDIS_OK)
        goto bad;
    while ((rep = next) != NULL) {
        int error;
        next = NULL;
        if (redisReaderGetReply(p->r->reader, &next) != REDIS_OK) {
            freeReplyObject(rep);
            goto bad;
        }
        if (next != NULL || !first)
            stamp = 0;
        if (p->n == 0) {
            freeReplyObject(rep);
            if (next)
                freeReplyObject(next);
            cap_stop(p->c, "probe: a reply to no request (another client on the "
                     "connection?)");
            return -1;
        }
        error = ((const redisReply *)rep)->type == REDIS_REPLY_ERROR;
        freeReplyObject(rep);
        answered(p, now, stamp, first, error);
        first = 0;
    }
    return 0;
bad:
    cap_stop(p->c, "probe: the server's reply is not RESP: %s", p->r->reader->errstr);
    return -1;
}

static int take_replies(probe *p)
{
    return pull(p) < 0 ? -1 : feed(p);
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
 * drain and nothing waits), -1 when the capture must end. While the
 * kernel stamps replies and at most one request waits, sleep to until
 * without waking for the reply (requirement 7); at until that reply is
 * read (pull) before the slot's send and fed after it. */
static int serve_until(probe *p, int64_t until, int drain)
{
    for (;;) {
        int64_t now = cap_mono_ns(), wait = until - now;
        struct pollfd pf = {p->r->fd, POLLIN, 0};
        struct timespec ts;
        if ((!drain && atomic_load(&p->c->stop)) || (drain && p->n == 0))
            return 1;
        if (wait <= 0) /* the reply that waited while it slept, alone in the
                          socket before the slot's send: read now, fed after
                          the send (probe_loop; requirement 7) */
            return p->unread ? pull(p) : 0;
        if (p->n > 0 && now - p->q[p->head].sent > INT64_C(1000000000) * CAP_PROBE_DEAD_S) {
            cap_stop(p->c, "probe: no reply for %d s: the server is hung", CAP_PROBE_DEAD_S);
            return -1;
        }
        if (wait > 50000000) /* look at the stop flag every 50 ms */
            wait = 50000000;
        if (!drain && p->stamped && p->n <= 1 && p->restlen == 0) {
            int64_t t = now + wait;
            ts.tv_sec = (time_t)(t / 1000000000);
            ts.tv_nsec = (long)(t % 1000000000);
            if (p->n > 0)
                p->unread = 1;
            clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
            continue;
        }
        if (p->unread && take_replies(p) < 0) /* what came while it slept, first */
            return -1;
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

/* Send the slot meant for *intended (requirement 2): 0, or -1 when the
 * capture must end. A thread preempted between the schedule's look at the
 * clock and the send stamp would send more than one period late: the slots
 * it missed are a "late" gap and the request takes the last of them
 * (*intended moves on; the caller's slot count with it). */
static int send_slot(probe *p, int64_t *intended_io, int64_t period)
{
    int64_t sent, slot, intended = *intended_io;
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
    if (p->stamps)
        p->wall_off = cap_wall_offset(); /* before the reply can come */
    sent = cap_mono_ns();
    slot = cap_slot_at(intended, sent, period);
    if (slot != intended) {
        gap_add(p, GAP_LATE, intended, (slot - intended) / period);
        *intended_io = intended = slot;
    }
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
        int64_t intended = start + i * period, slot;
        int rc = serve_until(p, intended, 0);
        if (rc != 0)
            return;
        /* the thread itself ran late: those slots are gone, not sent in a
         * burst (send_slot looks again at its own stamp) */
        slot = cap_slot_at(intended, cap_mono_ns(), period);
        if (slot != intended)
            gap_add(p, GAP_LATE, intended, (slot - intended) / period);
        if (send_slot(p, &slot, period) < 0)
            return;
        i += (slot - intended) / period;
        if (feed(p) < 0)
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
    p.rep = o->probe_set ? "+OK\r\n" : "+PONG\r\n";
    p.replen = strlen(p.rep);
    fl = fcntl(p.r->fd, F_GETFL);
    if (fl < 0 || fcntl(p.r->fd, F_SETFL, fl | O_NONBLOCK) < 0) {
        cap_stop(c, "probe: cannot make the connection non-blocking: %s", strerror(errno));
        goto out;
    }
    {
        int one = 1;
        p.stamps = setsockopt(p.r->fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one)) == 0;
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
