/* loadgen.c: a small load generator for Redis fork / copy-on-write captures.
 *
 * It speaks RESP over TCP itself (libc + pthreads only) and talks to loopback
 * only: any host other than 127.0.0.1 / localhost is refused, because the
 * captures it makes are meant to be rerun on a developer's machine, never
 * aimed at a shared server.
 *
 * Two modes:
 *
 *   --load     fills the server with --keys keys "key:0".."key:N-1" of
 *              --value-size random printable bytes, from a fixed --seed, so
 *              every capture starts from the same dataset.
 *   (default)  runs for --duration seconds:
 *                - one probe connection issuing one command (SET, GET or PING)
 *                  every --interval-ms, timing each round trip with
 *                  CLOCK_MONOTONIC;
 *                - --writers connections (one thread each) pipelining batches
 *                  of --batch SETs (or GETs with --read-only) of random
 *                  existing keys, optionally capped at --rate ops/s in total;
 *                - a throughput row per second (writer replies received).
 *
 * Clocks: one CLOCK_REALTIME reading is taken at start together with one
 * CLOCK_MONOTONIC reading; every timestamp written is that epoch plus a
 * monotonic delta.  The two clocks are never subtracted from each other
 * (seed 003's probe did that and wrote negative timestamps).
 *
 * Output:
 *   latency CSV     timestamp_us,latency_us,op   (send time, epoch µs; RTT µs)
 *   throughput CSV  timestamp_us,ops             (end of each 1 s window)
 * and a one-line summary on stderr.
 *
 * Build: cc -std=c11 -O2 -Wall -Wextra -pthread -o loadgen loadgen.c
 */
#define _POSIX_C_SOURCE 200809L

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------------ */
/* Options                                                              */
/* ------------------------------------------------------------------ */

typedef struct opts {
    const char *host;        /* must be 127.0.0.1 or localhost */
    int port;                /* server TCP port */
    int load;                /* 1 = fill the dataset and exit */
    long keys;               /* number of keys key:0..keys-1 */
    int value_size;          /* bytes per value */
    unsigned long long seed; /* PRNG seed for the dataset and the key picks */
    double duration_s;       /* length of a load run, seconds */
    double interval_ms;      /* probe pace, milliseconds between sends */
    const char *probe_op;    /* "set", "get" or "ping" */
    int writers;             /* writer connections (threads) */
    int batch;               /* commands per pipelined writer batch */
    long rate;               /* writer ops/s cap over all writers, 0 = none */
    int read_only;           /* 1 = writers send GET instead of SET */
    const char *lat_path;    /* latency CSV path */
    const char *tput_path;   /* throughput CSV path */
} opts;

/* ------------------------------------------------------------------ */
/* Time                                                                 */
/* ------------------------------------------------------------------ */

static int64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int64_t wall_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Sleep until an absolute CLOCK_MONOTONIC instant; absolute so that the
 * probe's pace does not drift by the length of each round trip. */
static void sleep_until_ns(int64_t t_ns)
{
    struct timespec ts;
    ts.tv_sec = (time_t)(t_ns / 1000000000);
    ts.tv_nsec = (long)(t_ns % 1000000000);
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
        ;
}

/* ------------------------------------------------------------------ */
/* PRNG (xorshift64*): fixed seeds give the same dataset every run      */
/* ------------------------------------------------------------------ */

static uint64_t rng_next(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1DULL;
}

/* Random printable bytes: 64 symbols, so LZF (rdbcompression) cannot shrink
 * values much and the RDB the child writes is about as large as the data. */
static void rng_fill(uint64_t *s, char *p, int n)
{
    static const char sym[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    int i = 0;
    while (i < n) {
        uint64_t r = rng_next(s);
        for (int k = 0; k < 10 && i < n; k++, r >>= 6)
            p[i++] = sym[r & 63];
    }
}

/* ------------------------------------------------------------------ */
/* Connection and RESP                                                  */
/* ------------------------------------------------------------------ */

typedef struct conn {
    int fd;            /* socket */
    char buf[65536];   /* receive buffer */
    size_t r;          /* read position in buf */
    size_t w;          /* end of valid data in buf */
    long errors;       /* error replies (-ERR ...) seen */
} conn;

static int conn_open(conn *c, const char *host, int port)
{
    struct sockaddr_in sa;
    int one = 1;
    struct timeval tv = {10, 0};

    /* Loopback only: these captures are never to be pointed at a real server. */
    if (strcmp(host, "127.0.0.1") != 0 && strcmp(host, "localhost") != 0) {
        fprintf(stderr, "loadgen: refusing host '%s': only 127.0.0.1 or localhost\n", host);
        return -1;
    }
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)port);
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    c->fd = socket(AF_INET, SOCK_STREAM, 0);
    if (c->fd < 0) {
        perror("loadgen: socket");
        return -1;
    }
    if (connect(c->fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
        fprintf(stderr, "loadgen: connect 127.0.0.1:%d: %s\n", port, strerror(errno));
        close(c->fd);
        return -1;
    }
    /* The probe sends one small command at a time: Nagle would add delay. */
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    /* A wedged server must not keep the run alive past its duration forever. */
    setsockopt(c->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    c->r = c->w = 0;
    c->errors = 0;
    return 0;
}

static int conn_send(conn *c, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t k = send(c->fd, p, n, MSG_NOSIGNAL);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            perror("loadgen: send");
            return -1;
        }
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

/* Make at least `need` unread bytes available in the buffer. */
static int conn_fill(conn *c, size_t need)
{
    if (need > sizeof c->buf)
        return -1;
    if (c->w - c->r >= need)
        return 0;
    if (c->r > 0) {
        memmove(c->buf, c->buf + c->r, c->w - c->r);
        c->w -= c->r;
        c->r = 0;
    }
    while (c->w < need) {
        ssize_t k = recv(c->fd, c->buf + c->w, sizeof c->buf - c->w, 0);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            fprintf(stderr, "loadgen: recv: %s\n", k == 0 ? "server closed the connection" : strerror(errno));
            return -1;
        }
        c->w += (size_t)k;
    }
    return 0;
}

/* Read one CRLF-terminated line; *len excludes the CRLF. */
static int conn_line(conn *c, const char **line, size_t *len)
{
    size_t scan = c->r;
    for (;;) {
        for (; scan + 1 < c->w; scan++) {
            if (c->buf[scan] == '\r' && c->buf[scan + 1] == '\n') {
                *line = c->buf + c->r;
                *len = scan - c->r;
                c->r = scan + 2;
                return 0;
            }
        }
        size_t have = c->w - c->r;
        if (conn_fill(c, have + 1) != 0)
            return -1;
        scan = c->r + (have > 0 ? have - 1 : 0);
    }
}

/* Read and discard one reply (+ - : $; arrays are not expected). */
static int conn_reply(conn *c)
{
    const char *line;
    size_t len;
    if (conn_line(c, &line, &len) != 0 || len == 0)
        return -1;
    switch (line[0]) {
    case '+':
    case ':':
        return 0;
    case '-':
        if (c->errors++ < 3)
            fprintf(stderr, "loadgen: server error: %.*s\n", (int)len, line);
        return 0;
    case '$': {
        long n = strtol(line + 1, NULL, 10);
        if (n < 0)
            return 0; /* null bulk: missing key */
        size_t skip = (size_t)n + 2;
        /* Values can be larger than the buffer in theory; drain in chunks. */
        while (skip > 0) {
            size_t chunk = skip < sizeof c->buf / 2 ? skip : sizeof c->buf / 2;
            if (conn_fill(c, chunk) != 0)
                return -1;
            c->r += chunk;
            skip -= chunk;
        }
        return 0;
    }
    default:
        fprintf(stderr, "loadgen: unexpected reply type '%c'\n", line[0]);
        return -1;
    }
}

/* Append a RESP command: "SET key:<k> <value>" or "GET key:<k>" or "PING". */
static size_t cmd_put(char *out, const char *op, long key, const char *val, int vlen)
{
    char k[32];
    int klen = snprintf(k, sizeof k, "key:%ld", key);
    if (strcmp(op, "set") == 0) {
        size_t n = (size_t)sprintf(out, "*3\r\n$3\r\nSET\r\n$%d\r\n%s\r\n$%d\r\n", klen, k, vlen);
        memcpy(out + n, val, (size_t)vlen);
        n += (size_t)vlen;
        memcpy(out + n, "\r\n", 2);
        return n + 2;
    }
    if (strcmp(op, "get") == 0)
        return (size_t)sprintf(out, "*2\r\n$3\r\nGET\r\n$%d\r\n%s\r\n", klen, k);
    return (size_t)sprintf(out, "*1\r\n$4\r\nPING\r\n");
}

/* Room for one command of value size vlen. */
static size_t cmd_room(int vlen)
{
    return 96 + (size_t)vlen;
}

/* ------------------------------------------------------------------ */
/* Load mode                                                            */
/* ------------------------------------------------------------------ */

static int run_load(const opts *o)
{
    enum { LOAD_BATCH = 1000 };
    conn *c = calloc(1, sizeof *c);
    char *out = malloc(cmd_room(o->value_size) * LOAD_BATCH);
    char *val = malloc((size_t)o->value_size);
    uint64_t s = o->seed ? o->seed : 1;
    int rc = 0;

    if (!c || !out || !val || conn_open(c, o->host, o->port) != 0) {
        free(c); free(out); free(val);
        return 1;
    }
    for (long i = 0; i < o->keys && rc == 0; ) {
        size_t n = 0;
        long j = 0;
        for (; j < LOAD_BATCH && i + j < o->keys; j++) {
            rng_fill(&s, val, o->value_size);
            n += cmd_put(out + n, "set", i + j, val, o->value_size);
        }
        if (conn_send(c, out, n) != 0)
            rc = 1;
        for (long k = 0; k < j && rc == 0; k++)
            if (conn_reply(c) != 0)
                rc = 1;
        i += j;
    }
    if (c->errors > 0)
        rc = 1;
    fprintf(stderr, "loadgen: loaded %ld keys x %d bytes (seed %llu)%s\n",
            o->keys, o->value_size, o->seed, rc ? " WITH ERRORS" : "");
    close(c->fd);
    free(c); free(out); free(val);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Run mode                                                             */
/* ------------------------------------------------------------------ */

typedef struct shared {
    const opts *o;              /* options */
    int64_t mono0_ns;           /* monotonic instant of the run start */
    int64_t end_ns;             /* monotonic instant the run stops */
    atomic_llong ops;           /* writer replies received so far */
    atomic_int failed;          /* a thread lost its connection */
} shared;

typedef struct probe_out {
    int64_t *send_ns;           /* send instants, monotonic, relative to mono0 */
    int64_t *rtt_ns;            /* round trip times */
    long n;                     /* samples taken */
    long cap;                   /* capacity of the arrays */
    long skipped;               /* pace slots skipped because a reply was late */
    long errors;                /* error replies */
} probe_out;

typedef struct writer_arg {
    shared *sh;                 /* run-wide state */
    int index;                  /* writer number, for its PRNG seed */
} writer_arg;

typedef struct probe_arg {
    shared *sh;                 /* run-wide state */
    probe_out *po;              /* where the samples go */
} probe_arg;

static void *probe_main(void *p)
{
    probe_arg *a = p;
    shared *sh = a->sh;
    const opts *o = sh->o;
    probe_out *po = a->po;
    int64_t step = (int64_t)(o->interval_ms * 1e6);
    uint64_t s = o->seed * 7919 + 17;
    char *val = malloc((size_t)o->value_size);
    char *out = malloc(cmd_room(o->value_size));
    conn *c = calloc(1, sizeof *c);

    if (!val || !out || !c || conn_open(c, o->host, o->port) != 0) {
        atomic_store(&sh->failed, 1);
        free(val); free(out); free(c);
        return NULL;
    }
    rng_fill(&s, val, o->value_size);
    int64_t next = sh->mono0_ns;
    while (po->n < po->cap) {
        sleep_until_ns(next);
        if (next >= sh->end_ns)
            break;
        long key = (long)(rng_next(&s) % (uint64_t)o->keys);
        /* Change a few bytes so every SET really stores a new value. */
        rng_fill(&s, val, o->value_size < 8 ? o->value_size : 8);
        size_t n = cmd_put(out, o->probe_op, key, val, o->value_size);
        int64_t t0 = mono_ns();
        if (conn_send(c, out, n) != 0 || conn_reply(c) != 0) {
            atomic_store(&sh->failed, 1);
            break;
        }
        int64_t t1 = mono_ns();
        po->send_ns[po->n] = t0 - sh->mono0_ns;
        po->rtt_ns[po->n] = t1 - t0;
        po->n++;
        /* Fixed pace; slots that passed while waiting for a reply are skipped,
         * not sent in a burst (a burst would measure the probe's own queue). */
        next += step;
        while (next <= t1) {
            next += step;
            po->skipped++;
        }
    }
    po->errors = c->errors;
    close(c->fd);
    free(val); free(out); free(c);
    return NULL;
}

static void *writer_main(void *p)
{
    writer_arg *a = p;
    shared *sh = a->sh;
    const opts *o = sh->o;
    uint64_t s = o->seed * 1000003 + (uint64_t)a->index * 7 + 1;
    const char *op = o->read_only ? "get" : "set";
    char *val = malloc((size_t)o->value_size);
    char *out = malloc(cmd_room(o->value_size) * (size_t)o->batch);
    conn *c = calloc(1, sizeof *c);
    /* Batch period when capped: rate is shared evenly by the writers. */
    int64_t period = o->rate > 0
        ? (int64_t)(1e9 * o->batch * o->writers / (double)o->rate) : 0;
    int64_t next = sh->mono0_ns;

    if (!val || !out || !c || conn_open(c, o->host, o->port) != 0) {
        atomic_store(&sh->failed, 1);
        free(val); free(out); free(c);
        return NULL;
    }
    rng_fill(&s, val, o->value_size);
    for (;;) {
        if (period > 0) {
            sleep_until_ns(next);
            next += period;
            /* After a long stall do not try to catch up a whole second's worth. */
            int64_t now = mono_ns();
            if (next < now - 1000000000LL)
                next = now;
        }
        if (mono_ns() >= sh->end_ns)
            break;
        size_t n = 0;
        for (int i = 0; i < o->batch; i++) {
            long key = (long)(rng_next(&s) % (uint64_t)o->keys);
            rng_fill(&s, val, o->value_size < 8 ? o->value_size : 8);
            n += cmd_put(out + n, op, key, val, o->value_size);
        }
        if (conn_send(c, out, n) != 0) {
            atomic_store(&sh->failed, 1);
            break;
        }
        int ok = 1;
        for (int i = 0; i < o->batch; i++) {
            if (conn_reply(c) != 0) {
                ok = 0;
                break;
            }
        }
        if (!ok) {
            atomic_store(&sh->failed, 1);
            break;
        }
        atomic_fetch_add(&sh->ops, o->batch);
    }
    close(c->fd);
    free(val); free(out); free(c);
    return NULL;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Nearest-rank quantile of a sorted array, for the stderr summary only. */
static double q_us(const int64_t *v, long n, double q)
{
    if (n == 0)
        return 0;
    long k = (long)(q * (double)n);
    if (k >= n)
        k = n - 1;
    return (double)v[k] / 1000.0;
}

static int write_latency(const char *path, int64_t epoch0_us, const probe_out *po, const char *op)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "loadgen: %s: %s\n", path, strerror(errno));
        return -1;
    }
    fprintf(f, "timestamp_us,latency_us,op\n");
    for (long i = 0; i < po->n; i++) {
        int64_t ts = epoch0_us + po->send_ns[i] / 1000;
        int64_t tenth = (po->rtt_ns[i] + 50) / 100; /* 0.1 µs units, rounded */
        fprintf(f, "%lld,%lld.%lld,%s\n", (long long)ts,
                (long long)(tenth / 10), (long long)(tenth % 10), op);
    }
    return fclose(f) == 0 ? 0 : -1;
}

static int run_load_test(const opts *o)
{
    shared sh;
    probe_out po;
    probe_arg pa;
    pthread_t probe_t;
    pthread_t *wt = calloc((size_t)o->writers, sizeof *wt);
    writer_arg *wa = calloc((size_t)o->writers, sizeof *wa);
    FILE *tf = fopen(o->tput_path, "w");
    long long total_ops = 0;
    int rc = 0;

    if (!wt || !wa || !tf) {
        fprintf(stderr, "loadgen: cannot start: %s\n", tf ? "out of memory" : strerror(errno));
        return 1;
    }
    memset(&po, 0, sizeof po);
    po.cap = (long)(o->duration_s * 1000.0 / o->interval_ms) + 16;
    po.send_ns = calloc((size_t)po.cap, sizeof *po.send_ns);
    po.rtt_ns = calloc((size_t)po.cap, sizeof *po.rtt_ns);
    if (!po.send_ns || !po.rtt_ns) {
        fprintf(stderr, "loadgen: no memory for %ld probe samples; raise --interval-ms\n", po.cap);
        return 1;
    }

    /* The one pairing of the two clocks, taken back to back. */
    int64_t epoch0_us = wall_us();
    sh.mono0_ns = mono_ns();
    sh.end_ns = sh.mono0_ns + (int64_t)(o->duration_s * 1e9);
    sh.o = o;
    atomic_init(&sh.ops, 0);
    atomic_init(&sh.failed, 0);

    pa.sh = &sh;
    pa.po = &po;
    pthread_create(&probe_t, NULL, probe_main, &pa);
    for (int i = 0; i < o->writers; i++) {
        wa[i].sh = &sh;
        wa[i].index = i;
        pthread_create(&wt[i], NULL, writer_main, &wa[i]);
    }

    fprintf(tf, "timestamp_us,ops\n");
    long long prev = 0;
    for (int64_t sec = 1; ; sec++) {
        int64_t at = sh.mono0_ns + sec * 1000000000LL;
        if (at > sh.end_ns)
            break;
        sleep_until_ns(at);
        long long now = atomic_load(&sh.ops);
        fprintf(tf, "%lld,%lld\n", (long long)(epoch0_us + sec * 1000000LL), now - prev);
        prev = now;
    }

    pthread_join(probe_t, NULL);
    for (int i = 0; i < o->writers; i++)
        pthread_join(wt[i], NULL);
    total_ops = atomic_load(&sh.ops);
    if (fclose(tf) != 0)
        rc = 1;
    if (write_latency(o->lat_path, epoch0_us, &po, o->probe_op) != 0)
        rc = 1;
    if (atomic_load(&sh.failed))
        rc = 1;

    qsort(po.rtt_ns, (size_t)po.n, sizeof *po.rtt_ns, cmp_i64);
    fprintf(stderr,
            "loadgen: probe n=%ld skipped=%ld errors=%ld p50=%.1fus p99=%.1fus p99.9=%.1fus max=%.1fus; "
            "writers=%d ops=%lld (%.0f/s)%s\n",
            po.n, po.skipped, po.errors, q_us(po.rtt_ns, po.n, 0.50), q_us(po.rtt_ns, po.n, 0.99),
            q_us(po.rtt_ns, po.n, 0.999), q_us(po.rtt_ns, po.n, 1.0), o->writers, total_ops,
            (double)total_ops / o->duration_s, atomic_load(&sh.failed) ? " (a connection failed)" : "");
    free(po.send_ns); free(po.rtt_ns); free(wt); free(wa);
    return rc;
}

/* ------------------------------------------------------------------ */
/* main                                                                 */
/* ------------------------------------------------------------------ */

static void usage(void)
{
    fprintf(stderr,
        "usage: loadgen [--host 127.0.0.1] --port N [--keys N] [--value-size B] [--seed S]\n"
        "               --load\n"
        "       loadgen ... --duration S [--interval-ms 2] [--probe-op set|get|ping]\n"
        "               [--writers N] [--batch 80] [--rate OPS] [--read-only]\n"
        "               --latency-out FILE --throughput-out FILE\n");
}

int main(int argc, char **argv)
{
    opts o = {"127.0.0.1", 0, 0, 300000, 400, 1, 0, 2.0, "set", 2, 80, 0, 0, NULL, NULL};

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        int takes = 1;
        if (strcmp(a, "--load") == 0) { o.load = 1; takes = 0; }
        else if (strcmp(a, "--read-only") == 0) { o.read_only = 1; takes = 0; }
        else if (!v) { usage(); return 2; }
        else if (strcmp(a, "--host") == 0) o.host = v;
        else if (strcmp(a, "--port") == 0) o.port = atoi(v);
        else if (strcmp(a, "--keys") == 0) o.keys = atol(v);
        else if (strcmp(a, "--value-size") == 0) o.value_size = atoi(v);
        else if (strcmp(a, "--seed") == 0) o.seed = strtoull(v, NULL, 10);
        else if (strcmp(a, "--duration") == 0) o.duration_s = atof(v);
        else if (strcmp(a, "--interval-ms") == 0) o.interval_ms = atof(v);
        else if (strcmp(a, "--probe-op") == 0) o.probe_op = v;
        else if (strcmp(a, "--writers") == 0) o.writers = atoi(v);
        else if (strcmp(a, "--batch") == 0) o.batch = atoi(v);
        else if (strcmp(a, "--rate") == 0) o.rate = atol(v);
        else if (strcmp(a, "--latency-out") == 0) o.lat_path = v;
        else if (strcmp(a, "--throughput-out") == 0) o.tput_path = v;
        else { usage(); return 2; }
        i += takes;
    }
    if (strcmp(o.host, "127.0.0.1") != 0 && strcmp(o.host, "localhost") != 0) {
        fprintf(stderr, "loadgen: refusing host '%s': only 127.0.0.1 or localhost\n", o.host);
        return 2;
    }
    if (o.port <= 0 || o.port > 65535 || o.keys <= 0 || o.value_size <= 0 || o.value_size > 16384) {
        usage();
        return 2;
    }
    if (o.load)
        return run_load(&o);
    if (o.duration_s <= 0 || o.duration_s > 3600 || o.interval_ms <= 0 || o.writers < 0 ||
        o.batch <= 0 || o.batch > 10000 || !o.lat_path || !o.tput_path ||
        (strcmp(o.probe_op, "set") != 0 && strcmp(o.probe_op, "get") != 0 &&
         strcmp(o.probe_op, "ping") != 0)) {
        usage();
        return 2;
    }
    if (o.read_only && strcmp(o.probe_op, "set") == 0) {
        fprintf(stderr, "loadgen: --read-only with --probe-op set would still write; use get or ping\n");
        return 2;
    }
    return run_load_test(&o);
}
