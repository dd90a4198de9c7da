/* kstat.c -- the kernel's own account of the server's main thread and its
 * fork children: `cowtail capture`'s kstat.csv (capture/cap_kstat.c).
 *
 * Exports cow_parser_kstat. Requirements:
 *  1. The file is known by its exact header
 *       timestamp_us,task,pid,minflt,majflt,utime_us,stime_us,run_delay_us,read_bytes,write_bytes
 *     and nothing else is read as one.
 *  2. Each row is one COW_REC_STAT per value it holds, at the row's time:
 *     source "kstat-main" or "kstat-child" (the task), key the column
 *     name, num the value, text the task's pid (a child's counters start
 *     at its fork: they are told apart by it), unit "us" for times,
 *     "bytes" for I/O, none for fault counts.
 *  3. An epoch stamp in us within 1990..2100, task main or child, a pid
 *     and counters whole and not negative; run_delay_us, read_bytes and
 *     write_bytes may be empty (the kernel did not give them). Anything
 *     else is a reject with the reason, and the row gives no record; a
 *     file of mostly such rows is refused whole (parser_too_many_rejects). */
#include <stdio.h>
#include <string.h>

#include "formats.h"
#include "parser.h"
#include "num.h"
#include "timeconv.h"

static const char head[] =
    "timestamp_us,task,pid,minflt,majflt,utime_us,stime_us,run_delay_us,read_bytes,write_bytes";
#define NF 10
static const char *const col[NF] = {"timestamp_us", "task", "pid", "minflt", "majflt",
                                    "utime_us", "stime_us", "run_delay_us", "read_bytes",
                                    "write_bytes"};
static const char *const unit[NF] = {NULL, NULL, NULL, NULL, NULL, "us", "us", "us",
                                     "bytes", "bytes"};
/* columns 7.. may be empty */
#define FIRST_OPTIONAL 7

static int is_head(const char *p, size_t n)
{
    if (n > 0 && p[n - 1] == '\r')
        n--;
    return n == sizeof(head) - 1 && memcmp(p, head, n) == 0;
}

static int sniff(const char *fname, const char *h, size_t n)
{
    const char *nl = memchr(h, '\n', n);
    (void)fname;
    return is_head(h, nl ? (size_t)(nl - h) : n) ? 95 : 0;
}

typedef struct krow {
    int64_t v[NF];
    int has[NF];
    int child;
} krow;

/* The row's fields; NULL, or why it is not a row (requirement 3). */
static const char *row(const char *p, size_t n, krow *r)
{
    const char *f[NF];
    size_t len[NF], i, k = 0, at = 0;

    if (n > 0 && p[n - 1] == '\r')
        n--;
    for (i = 0; i <= n && k < NF; i++)
        if (i == n || p[i] == ',') {
            f[k] = p + at;
            len[k++] = i - at;
            at = i + 1;
        }
    if (k != NF || at <= n)
        return "not ten fields";
    if (len[1] == 4 && memcmp(f[1], "main", 4) == 0)
        r->child = 0;
    else if (len[1] == 5 && memcmp(f[1], "child", 5) == 0)
        r->child = 1;
    else
        return "task is neither main nor child";
    for (i = 0; i < NF; i++) {
        if (i == 1)
            continue;
        r->has[i] = 0;
        if (len[i] == 0 && i >= FIRST_OPTIONAL)
            continue;
        if (!num_parse_i64(f[i], len[i], &r->v[i]) || r->v[i] < 0)
            return "a value is not a whole number >= 0";
        r->has[i] = 1;
    }
    if (r->v[0] < COW_EPOCH_MIN_S * 1000000 || r->v[0] > COW_EPOCH_MAX_S * 1000000)
        return "timestamp_us is not an epoch in us (1990..2100)";
    if (r->v[2] == 0)
        return "pid is 0";
    return NULL;
}

static int parse(cow_src *s, const cow_parse_opts *o, cow_sink *k, cow_err *e)
{
    cow_line ln;
    int got, seen_head = 0, rc = COW_OK;
    long long rows = 0, children = 0, bad = 0;
    long last = 0;
    int64_t last_child = 0;
    char note[128];

    (void)o;
    while (rc == COW_OK && (got = src_next_line(s, &ln, e)) == 1) {
        krow r;
        const char *why;
        char pid[24];
        size_t i;
        if (!seen_head) {
            if (!is_head(ln.p, ln.n)) {
                cow_err_at(e, s->name, ln.no, 0);
                return COW_FAIL(e, COW_EPARSE, "the header is not '%s': not a capture's "
                                "kstat.csv (name its parser with --parser, or leave the "
                                "file out)", head);
            }
            seen_head = 1;
            continue;
        }
        if (ln.n == 0)
            continue;
        last = ln.no;
        memset(&r, 0, sizeof(r));
        if ((why = row(ln.p, ln.n, &r)) != NULL) {
            bad++;
            rc = sink_reject(k, ln.no, why, ln.p, ln.n, e);
            continue;
        }
        snprintf(pid, sizeof(pid), "%lld", (long long)r.v[2]);
        for (i = 3; i < NF && rc == COW_OK; i++)
            if (r.has[i])
                rc = sink_stat(k, r.v[0], r.child ? "kstat-child" : "kstat-main", col[i],
                               pid, (double)r.v[i], unit[i], ln.no, e);
        if (rc == COW_OK) {
            rows++;
            if (r.child && r.v[2] != last_child) {
                children++;
                last_child = r.v[2];
            }
        }
    }
    if (rc != COW_OK)
        return rc;
    if (got < 0)
        return e->code;
    if (parser_too_many_rejects(rows, bad)) {
        cow_err_at(e, s->name, last > 0 ? last : 1, 0);
        return COW_FAIL(e, COW_EPARSE, "%lld of %lld rows are not kstat rows: is this "
                        "really a capture's kstat.csv?", bad, rows + bad);
    }
    snprintf(note, sizeof(note), "%lld rows of the main thread's and %lld fork child%s "
             "kernel counters", rows, children, children == 1 ? "'s" : "ren's");
    return sink_note(k, "kernel account", note, e);
}

const cow_parser cow_parser_kstat = {
    "kstat",
    "cowtail capture's kstat.csv: the main thread's and each fork child's page faults, "
    "CPU time, run-queue wait and disk I/O, from /proc",
    sniff, parse};
