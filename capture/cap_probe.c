/* cap_probe.c -- the probe and the writers.
 *
 * Requirements:
 *  1. The probe sends one command on one connection on an open-loop
 *     schedule: sample i is meant to go at start + i x interval (from
 *     the first slot after the connection is made). A reply
 *     that comes after the next slot makes the next samples go late, one
 *     after the other, as soon as possible: no slot is skipped, so the
 *     latency can be read from the actual send (latency_us) and from the
 *     intended send (reply - intended_us, without coordinated omission).
 *  2. latency.csv: timestamp_us (actual send, epoch us), latency_us (reply
 *     - actual send, 0.1 us), op, intended_us (epoch us). Stamps come from
 *     cap_wall_us: one wall reading plus monotonic deltas.
 *  3. A lost connection ends the capture with the reason (cap_stop); what
 *     was written stays.
 *  4. Writers pace SET XX (GETs with --load-op get) of random existing keys (the pool
 *     gathered by SCAN at start: no key is ever created) in small pipelined
 *     batches every millisecond, each writer rate / writers per second;
 *     behind schedule they catch up by at most 100 ms of work at once. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

void *cap_probe_main(void *arg)
{
    cap_ctx *c = arg;
    const cap_opts *o = c->o;
    cow_err e = COW_ERR_INIT;
    redisContext *r;
    FILE *fp;
    int64_t start, i;
    double cpu0 = thread_cpu_s();
    char key[64], cmdbuf[128];
    int cmdlen;
    const char *op = o->probe_set ? "set" : "ping";

    /* a stall longer than a minute is a dead server, not a sample */
    r = cap_connect(o, o->host, o->port, o->socket, 60000, &e);
    if (r == NULL) {
        cap_stop(c, "probe: %s", e.msg);
        return NULL;
    }
    if ((fp = cap_create(c, "latency.csv", &e)) == NULL) {
        cap_stop(c, "probe: %s", e.msg);
        redisFree(r);
        return NULL;
    }
    setvbuf(fp, NULL, _IOFBF, 1 << 16);
    fprintf(fp, "timestamp_us,latency_us,op,intended_us\n");
    snprintf(key, sizeof(key), "cowtail:probe:%ld", (long)getpid());
    if (o->probe_set)
        cmdlen = snprintf(cmdbuf, sizeof(cmdbuf), "*3\r\n$3\r\nSET\r\n$%zu\r\n%s\r\n"
                          "$1\r\nx\r\n", strlen(key), key);
    else
        cmdlen = snprintf(cmdbuf, sizeof(cmdbuf), "*1\r\n$4\r\nPING\r\n");
    /* slots on the grid of the capture's start, from the first one ahead
     * (CONFIG and the host's files were read before this thread began) */
    start = c->mono0_ns;
    c->stride = 1;
    i = (cap_mono_ns() - start) / (o->interval_us * 1000) + 1;
    for (;; i++) {
        int64_t intended = start + i * o->interval_us * 1000, sent, done;
        redisReply *rep;
        if (cap_sleep_until(c, intended))
            break;
        sent = cap_mono_ns();
        /* the command's bytes are built once: nothing but the write and
         * the read between the two clock readings */
        if (redisAppendFormattedCommand(r, cmdbuf, (size_t)cmdlen) != REDIS_OK ||
            redisGetReply(r, (void **)&rep) != REDIS_OK)
            rep = NULL;
        done = cap_mono_ns();
        if (rep == NULL) {
            cap_stop(c, "probe connection lost: %s", r->errstr[0] ? r->errstr
                                                                   : "no reply");
            break;
        }
        if (rep->type == REDIS_REPLY_ERROR)
            c->errors++;
        row(fp, cap_wall_us(c, sent), done - sent,
            rep->type == REDIS_REPLY_ERROR ? "error" : op, cap_wall_us(c, intended));
        freeReplyObject(rep);
        c->samples++;
        if (sent - intended > 1000000)
            c->late++;
        keep(c, (double)(sent - intended) / 1000.0, (double)(done - sent) / 1000.0);
    }
    if (fflush(fp) != 0 || ferror(fp))
        cap_missing(c, "latency.csv", "write error: the file may be incomplete");
    fclose(fp);
    if (o->probe_set) {
        redisReply *rep = redisCommand(r, "DEL %s", key);
        if (rep)
            freeReplyObject(rep);
    }
    redisFree(r);
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
