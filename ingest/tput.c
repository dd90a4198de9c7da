/* tput.c -- throughput series: a CSV with a time column and a count of
 * operations per row (`timestamp_us,ops`, `ts,throughput`, `t_s,rps`).
 *
 * Exports cow_parser_throughput_csv. Each row becomes a COW_REC_INTERVAL
 * with op "throughput": t_us = the row's time, taken as the START of the
 * interval the row counts, dur_s = the gap to the next row (the last row
 * takes the gap before it), count = the operations in it. Columns named
 * throughput, *_per_sec, rps, qps or tps are rates: count = rate x dur_s.
 * Time columns follow latcols.c. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats.h"
#include "limits.h"
#include "latcols.h"
#include "mem.h"
#include "num.h"

#define TPUT_MAX_FIELDS 64

static const char *const count_names[] = {"ops", "operations", "requests",
                                          "reqs", "count", "completed", NULL};
static const char *const rate_names[] = {"throughput", "ops_per_sec", "ops_s",
                                         "rps", "qps", "tps", "ops_sec", NULL};

/* true when p[0..n), quotes and spaces left out and read in lower case,
 * is want (compared in place: a name of any length, nothing cut). */
static bool name_is(const char *p, size_t n, const char *want)
{
    size_t i, k = 0;
    for (i = 0; i < n; i++) {
        char c = (char)(p[i] >= 'A' && p[i] <= 'Z' ? p[i] + 32 : p[i]);
        if (p[i] == '"' || p[i] == ' ')
            continue;
        if (want[k] == '\0' || want[k] != c) /* a NUL in p must not read past want */
            return false;
        k++;
    }
    return want[k] == '\0';
}

/* 1 count column, 2 rate column, 0 neither. */
static int value_kind(const char *p, size_t n)
{
    size_t i;
    for (i = 0; count_names[i]; i++)
        if (name_is(p, n, count_names[i]))
            return 1;
    for (i = 0; rate_names[i]; i++)
        if (name_is(p, n, rate_names[i]))
            return 2;
    return 0;
}

typedef struct tfield {
    const char *p;  /* start */
    size_t n;       /* length */
} tfield;

static int split(const char *p, size_t n, tfield *f, int max)
{
    int k = 0;
    size_t i = 0;
    for (;;) {
        const char *d = memchr(p + i, ',', n - i);
        size_t end = d ? (size_t)(d - p) : n;
        if (k == max)
            return -1;
        f[k].p = p + i;
        f[k++].n = end - i;
        if (!d)
            return k;
        i = end + 1;
    }
}

/* Header analysis shared by sniff and parse: time column via latcols,
 * value column and its kind here. */
static void header(latcols *lc, const tfield *f, int k, int *vcol, int *vkind)
{
    int i;
    *vcol = -1;
    *vkind = 0;
    for (i = 0; i < k; i++) {
        int vk = value_kind(f[i].p, f[i].n);
        if (vk && *vcol < 0) {
            *vcol = i;
            *vkind = vk;
        } else {
            latcols_add(lc, i, f[i].p, f[i].n);
        }
    }
}

static int sniff(const char *fname, const char *head, size_t n)
{
    tfield f[TPUT_MAX_FIELDS];
    const char *nl = memchr(head, '\n', n);
    size_t len = nl ? (size_t)(nl - head) : n;
    latcols lc;
    int k, vcol, vkind;

    (void)fname;
    if (len > 0 && head[len - 1] == '\r')
        len--;
    if ((k = split(head, len, f, TPUT_MAX_FIELDS)) < 2)
        return 0;
    latcols_init(&lc, NULL);
    header(&lc, f, k, &vcol, &vkind);
    latcols_release(&lc);   /* the columns' indexes stay */
    if (vcol < 0 || lc.time_col < 0 || lc.lat_col >= 0)
        return 0;
    return 85;
}

static int emit(cow_sink *k, int64_t t, double dur, double v, int vkind,
                long line, cow_err *e)
{
    cow_rec r;
    memset(&r, 0, sizeof(r));
    r.kind = COW_REC_INTERVAL;
    r.u.interval.t_us = t;
    r.u.interval.dur_s = dur;
    r.u.interval.min_us = r.u.interval.max_us = r.u.interval.avg_us = NAN;
    r.u.interval.count = isnan(dur) && vkind == 2 ? 0
                       : (int64_t)llround(vkind == 2 ? v * dur : v);
    r.u.interval.op = "throughput";
    r.u.interval.line = line;
    return sink_emit(k, &r, e);
}

static int blank(const char *p, size_t n)
{
    while (n > 0 && (*p == ' ' || *p == '\t' || *p == '"')) {
        p++;
        n--;
    }
    return n == 0;
}

/* parse with lc initialised (its column names released by the caller). */
static int parse_cols(cow_src *s, cow_sink *k, latcols *lc, cow_err *e)
{
    tfield f[TPUT_MAX_FIELDS];
    cow_line ln;
    int got, rc = COW_OK, nf, vcol = -1, vkind = 0, have_header = 0;
    long long rows = 0, rejected = 0, missing = 0;
    int64_t prev = 0, pending_t = 0;
    double pending_v = NAN, last_dur = NAN;
    long pending_line = 0;

    while ((got = src_next_line(s, &ln, e)) == 1 && rc == COW_OK) {
        const char *why = NULL;
        int64_t t;
        double v;
        if (ln.n == 0 || ln.p[0] == '#')
            continue;
        nf = split(ln.p, ln.n, f, TPUT_MAX_FIELDS);
        if (!have_header) {
            header(lc, f, nf, &vcol, &vkind);
            if (vcol < 0 || (rc = latcols_check_time(lc, e)) != COW_OK) {
                cow_err_at(e, s->name, ln.no, 0);
                return vcol < 0 ? COW_FAIL(e, COW_EPARSE, "no operations column "
                                           "(ops, throughput, rps ...)") : rc;
            }
            have_header = 1;
            continue;
        }
        if (!ln.eol || nf <= vcol || nf <= lc->time_col) {
            why = !ln.eol ? "last line has no line end: possibly truncated"
                          : "missing column";
        } else {
            rc = latcols_time(lc, f[lc->time_col].p, f[lc->time_col].n, &t, &why, e);
            if (rc != COW_OK && rc != COW_EPARSE) {
                cow_err_at(e, s->name, ln.no, 0);
                return rc;
            }
            rc = COW_OK;
            if (why == NULL && blank(f[vcol].p, f[vcol].n)) {
                v = NAN; /* an empty cell: a missing value, not a bad row */
                missing++;
            } else if (why == NULL &&
                       (!latcols_parse_number(f[vcol].p, f[vcol].n, &v) || v < 0)) {
                why = "operations is not a non-negative number";
            } else if (why == NULL && v > COW_MAX_OPS) {
                why = "operations beyond 10^12 in one row: not a real count "
                      "(a unit or column mistake?)";
            }
        }
        if (why != NULL) {
            rejected++;
            rc = sink_reject(k, ln.no, why, ln.p, ln.n, e);
            continue;
        }
        if (prev != 0 && t <= prev) {
            cow_err_at(e, s->name, ln.no, 0);
            return COW_FAIL(e, COW_ECLOCK, "time does not increase: a "
                            "throughput series needs one row per interval");
        }
        /* A row is emitted when the next one tells its length. */
        if (!isnan(pending_v)) {
            last_dur = (double)(t - prev) / 1e6;
            rc = emit(k, pending_t, last_dur, pending_v, vkind, pending_line, e);
        }
        pending_line = ln.no;
        pending_t = t;
        pending_v = v;
        prev = t;
        rows += !isnan(v);
    }
    if (got < 0)
        return e->code;
    if (rc == COW_OK && rows == 1) {
        cow_err_at(e, s->name, pending_line, 0);
        return COW_FAIL(e, COW_EPARSE, "one row: a throughput series needs two "
                        "rows to know how long an interval is");
    }
    if (rc == COW_OK && rows > 1 && !isnan(pending_v))
        rc = emit(k, pending_t, last_dur, pending_v, vkind, pending_line, e);
    if (rc == COW_OK && missing > 0) {
        char buf[96];
        snprintf(buf, sizeof(buf), "%lld empty cells (missing values, not errors)",
                 missing);
        rc = sink_note(k, "missing_values", buf, e);
    }
    if (rc == COW_OK && parser_too_many_rejects(rows, rejected)) {
        cow_err_at(e, s->name, 0, 0);
        return COW_FAIL(e, COW_EPARSE, "%lld of %lld rows rejected: is this a "
                        "throughput series?", rejected, rows + rejected);
    }
    if (rc == COW_OK && !have_header) {
        cow_err_at(e, s->name, 0, 0);
        return COW_FAIL(e, COW_EPARSE, "empty file");
    }
    return rc;
}

static int parse(cow_src *s, const cow_parse_opts *o, cow_sink *k, cow_err *e)
{
    latcols lc;
    int rc;

    latcols_init(&lc, o);
    rc = parse_cols(s, k, &lc, e);
    latcols_release(&lc);
    return rc;
}

const cow_parser cow_parser_throughput_csv = {
    "throughput-csv",
    "operations per interval: CSV with a time column and ops/throughput/rps",
    sniff,
    parse,
};
