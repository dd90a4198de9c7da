/* hgrm.c -- HdrHistogram text output (formats.md §8).
 *
 * Exports cow_parser_hgrm ("hdr-percentiles"), which reads:
 *
 *  - percentile distributions: the C library's CLASSIC table and its CSV
 *    variant (§8.1, also memtier's --hdr-file-prefix *.txt), and Java's
 *    outputPercentileDistribution (§8.2, the usual .hgrm of wrk2, jHiccup);
 *  - wrk2's stdout with --latency (or -U): the "Detailed Percentile
 *    spectrum:" it prints is the C library's CLASSIC table in ms; the
 *    lines before it (its own rounded summary) are skipped, and after it
 *    "N requests in ..." and "Requests/sec:" are kept as stats
 *    ("wrk:requests", "wrk:requests_per_sec"), "Socket errors: ..." as
 *    "wrk:socket_errors" (timeouts included: requests that never answered);
 *  - interval logs (§8.3, .hlog, jHiccup, memtier's *.hgrm): each interval's
 *    compressed histogram (base64 + zlib, HdrHistogram V2 encoding,
 *    hdrhist.c) is decoded into its full histogram, so every interval has
 *    its percentiles and count: a per-interval p99/p99.9 timeline.
 *
 * Records (source "hdr"):
 *   COW_REC_PCTL  distribution: one per row, q = Percentile x 100, value_us,
 *                 count = TotalCount at that row (the 100% row's is the
 *                 total), t_us = 0. Interval log, per interval at t_us =
 *                 its end: q = 50, 90, 99, 99.9, 99.99 from the decoded
 *                 histogram (count = values at or below), and q = 100 from
 *                 the Interval_Max column (count = the interval's total, 0
 *                 when its histogram could not be decoded: then a note).
 *   COW_REC_INTERVAL interval log: min/max/mean/count of each decoded
 *                 interval, t_us = its end, dur_s = its length.
 *                 op: "Totals" / "<CMD>" from memtier's file names
 *                 (<prefix>_FULL_RUN_1.txt, <prefix>_SET_command_run_1.txt),
 *                 the Tag= of a Java log row, else NULL.
 *   COW_REC_STAT  footer: "[<op>:]mean_us", "stddev_us", "max_us" (num in us),
 *                 "total_count", "buckets", "sub_buckets".
 *   COW_REC_NOTE  "latency_unit" (which unit and why), "shape".
 *
 * Requirement: nothing in these files states the unit of the values. It is
 * taken from --latency-unit / run.json "latency_unit" when given, else from
 * the file name: memtier's *.txt tables are ms and its interval logs us
 * (§7.2), a stem ending in _ns/_us/_ms/_s names the unit. Otherwise the
 * file is refused, naming the flag: a guess would be off by 1000. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats.h"
#include "hdrhist.h"
#include "mem.h"
#include "num.h"
#include "text.h"
#include "timeconv.h"
#include "units.h"

#define HG_SOURCE "hdr"
/* Fields of a row (4 in a table, 4 + Tag= in a log). */
#define HG_MAX_FIELDS 8
/* Longest op label kept. */
#define HG_MAX_OP 64

typedef struct hgfield {
    const char *p;  /* first byte, quotes stripped */
    size_t n;       /* length */
} hgfield;

typedef struct hg {
    cow_src *s;              /* input */
    cow_sink *k;             /* output */
    const cow_parse_opts *o; /* flags */
    double us_per_unit;      /* value unit, 0 until decided */
    char op[HG_MAX_OP];      /* op label from the file name, "" if none */
    int is_log;              /* interval log rather than a table */
    int header;              /* the column header was seen */
    int end_is_abs;          /* log column 2 is EndTimestamp (else a length) */
    int memtier_log;         /* the log's first line is memtier's title */
    double start_s;          /* log #[StartTime:], 0 if none */
    double base_s;           /* log #[BaseTime:], 0 if none */
    double last_q;           /* previous row's percentile, for order */
    int64_t last_count;      /* previous row's TotalCount, unwrapped */
    int64_t footer_total;    /* footer's Total count, -1 if none */
    double footer_max;       /* footer's Max in the file's unit, NaN if none */
    int held;                /* the table's 100% row waits for the footer */
    double held_v;           /* its value */
    int64_t held_count;      /* its TotalCount */
    long held_line;          /* its line */
    int held_dec;            /* decimals the table printed it with */
    long rows, rejects;      /* good rows and rejected lines */
    long last_line;          /* last line read */
    double raw_per_col;      /* histogram units per Interval_Max unit, 0 until known */
    long undecoded;          /* interval histograms that did not decode */
    long first_undecoded;    /* line of the first */
    const char *undecoded_why; /* and why */
    int wrk;                 /* wrk2's stdout: "Running 1m test @ ..." first */
    int wrk_spectrum;        /* its "Detailed Percentile spectrum:" was seen */
    int wrk_tail;            /* the table ended (the dashes line after it) */
    long wrk_skipped;        /* its lines outside the table, skipped */
} hg;

/* Percentiles emitted per decoded interval (q = 100 is the max column). */
static const double hg_log_q[] = {50, 90, 99, 99.9, 99.99};

/* ------------------------------------------------------------------ */
/* Units and names                                                     */
/* ------------------------------------------------------------------ */

static const char *unit_name(double us)
{
    return us == 1e-3 ? "ns" : us == 1 ? "us" : us == 1e3 ? "ms" : "s";
}

static int ends_with(const char *s, size_t n, const char *lit)
{
    size_t m = strlen(lit);
    return n >= m && memcmp(s + n - m, lit, m) == 0;
}

/* memtier's --hdr-file-prefix names: sets op; 1 when the name is one. */
static int memtier_name(const char *fname, char *op, size_t nop)
{
    const char *p;
    int k;

    if ((p = strstr(fname, "_FULL_RUN_")) && sscanf(p, "_FULL_RUN_%d", &k) == 1) {
        snprintf(op, nop, "Totals");
        return 1;
    }
    if ((p = strstr(fname, "_command_run_")) && sscanf(p, "_command_run_%d", &k) == 1) {
        const char *b = p;
        while (b > fname && b[-1] != '_')
            b--;
        snprintf(op, nop, "%.*s", (int)(p - b), b);
        return b < p;
    }
    return 0;
}

/* Unit named by the file name; 0 if none. */
static double name_unit(const char *fname, int is_log, const char **why)
{
    const char *dot, *base;
    char op[HG_MAX_OP];
    size_t n;

    if (fname == NULL)
        return 0;
    base = strrchr(fname, '/') ? strrchr(fname, '/') + 1 : fname;
    if (memtier_name(base, op, sizeof(op))) {
        *why = is_log ? "memtier --hdr-file-prefix interval log (raw "
                        "recorded microseconds)"
                      : "memtier --hdr-file-prefix percentile table";
        return is_log ? 1 : 1e3;
    }
    dot = strrchr(base, '.');
    n = dot ? (size_t)(dot - base) : strlen(base);
    *why = "from the file name's unit suffix";
    if (ends_with(base, n, "_ns") || ends_with(base, n, "-ns"))
        return 1e-3;
    if (ends_with(base, n, "_us") || ends_with(base, n, "-us"))
        return 1;
    if (ends_with(base, n, "_ms") || ends_with(base, n, "-ms"))
        return 1e3;
    if (ends_with(base, n, "_s") || ends_with(base, n, "-s"))
        return 1e6;
    return 0;
}

/* Decide the unit before the first value: option, then file name. */
static int decide_unit(hg *h, long line, cow_err *e)
{
    const char *why = NULL;
    double by_name = name_unit(h->o ? h->o->fname : NULL, h->is_log, &why);

    if (by_name == 0 && h->is_log && h->memtier_log) {
        by_name = 1;
        why = "memtier interval log header (raw recorded microseconds)";
    }
    char note[200];

    if (by_name == 0 && h->wrk) {
        by_name = 1e3;
        why = "wrk2 prints its percentile spectrum in milliseconds";
    }
    if (h->o && h->o->latency_unit) {
        h->us_per_unit = unit_time_us(h->o->latency_unit, strlen(h->o->latency_unit));
        if (h->us_per_unit == 0) {
            cow_err_at(e, h->s->name, line, 0);
            return COW_FAIL(e, COW_EUSAGE, "latency unit '%.16s' unknown: use "
                            "ns, us, ms or s", h->o->latency_unit);
        }
        snprintf(note, sizeof(note), "%s: --latency-unit / run.json latency_unit%s",
                 unit_name(h->us_per_unit), by_name != 0 && by_name != h->us_per_unit
                 ? " (the file name suggests otherwise)" : "");
    } else if (by_name != 0) {
        h->us_per_unit = by_name;
        snprintf(note, sizeof(note), "%s: %s", unit_name(by_name), why);
    } else {
        cow_err_at(e, h->s->name, line, 0);
        return COW_FAIL(e, COW_EUNIT, "an HdrHistogram file does not say the unit "
                        "of its values: pass --latency-unit ms|us|ns|s or set "
                        "\"latency_unit\" in run.json");
    }
    return sink_note(h->k, "latency_unit", note, e);
}

/* ------------------------------------------------------------------ */
/* Lines                                                               */
/* ------------------------------------------------------------------ */

/* Split on blanks and commas; quotes around a field are dropped.
 * Returns the count, or -1 when there are too many. */
static int split(const char *p, size_t n, hgfield *f)
{
    size_t i = 0;
    int k = 0;

    for (;;) {
        size_t b;
        while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == ','))
            i++;
        if (i == n)
            return k;
        if (k == HG_MAX_FIELDS)
            return -1;
        b = i;
        while (i < n && p[i] != ' ' && p[i] != '\t' && p[i] != ',')
            i++;
        f[k].p = p + b;
        f[k].n = i - b;
        if (f[k].n >= 2 && f[k].p[0] == '"' && f[k].p[f[k].n - 1] == '"')
            f[k].p++, f[k].n -= 2;
        k++;
    }
}

static int feq(const hgfield *f, const char *lit)
{
    return f->n == strlen(lit) && memcmp(f->p, lit, f->n) == 0;
}

static int reject(hg *h, const cow_line *ln, const char *why, cow_err *e)
{
    char buf[200];
    h->rejects++;
    snprintf(buf, sizeof(buf), "%s%s", ln->eol ? "" : "truncated last line: ", why);
    return sink_reject(h->k, ln->no, buf, ln->p, ln->n, e);
}

static int emit_stat(hg *h, const char *what, double num, const char *unit,
                     long line, cow_err *e)
{
    char key[HG_MAX_OP + 32], text[48];

    snprintf(key, sizeof(key), "%s%s%s", h->op, h->op[0] ? ":" : "", what);
    snprintf(text, sizeof(text), "%.15g", num);
    return sink_stat(h->k, 0, HG_SOURCE, key, text, num, unit, line, e);
}

static int emit_pctl(hg *h, const char *op, double q, double v, int64_t t_us,
                     int64_t count, long line, cow_err *e)
{
    cow_rec r;
    memset(&r, 0, sizeof(r));
    r.kind = COW_REC_PCTL;
    r.u.pctl.source = HG_SOURCE;
    r.u.pctl.op = op && op[0] ? op : NULL;
    r.u.pctl.t_us = t_us;
    r.u.pctl.q = q;
    r.u.pctl.value_us = v * h->us_per_unit;
    r.u.pctl.count = count;
    r.u.pctl.line = line;
    h->rows++;
    return sink_emit(h->k, &r, e);
}

/* "#[Mean    =        0.201, StdDeviation   =        0.113]" and friends. */
static int footer(hg *h, const cow_line *ln, cow_err *e)
{
    static const struct { const char *name, *key; int is_value; } t[] = {
        {"Mean", "mean_us", 1}, {"StdDeviation", "stddev_us", 1},
        {"Max", "max_us", 1}, {"Total count", "total_count", 0},
        {"Buckets", "buckets", 0}, {"SubBuckets", "sub_buckets", 0},
    };
    const char *p = ln->p + 2, *end = ln->p + ln->n;
    int rc;

    if (end > p && end[-1] == ']')
        end--;
    while (p < end) {
        const char *comma = memchr(p, ',', (size_t)(end - p)), *eqs;
        const char *stop = comma ? comma : end, *name = p, *val;
        size_t nn, nv, i;
        double v;
        if ((eqs = memchr(p, '=', (size_t)(stop - p))) == NULL)
            return COW_OK; /* another comment */
        nn = (size_t)(eqs - name);
        val = eqs + 1;
        nv = (size_t)(stop - val);
        num_trim(&name, &nn);
        num_trim(&val, &nv);
        for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
            if (strlen(t[i].name) != nn || memcmp(name, t[i].name, nn) != 0)
                continue;
            if (!num_parse_double(val, nv, &v))
                return reject(h, ln, "footer value is not a number", e);
            if (t[i].is_value)
                rc = emit_stat(h, t[i].key, v * h->us_per_unit, "us", ln->no, e);
            else
                rc = emit_stat(h, t[i].key, v, NULL, ln->no, e);
            if (rc != COW_OK)
                return rc;
            if (strcmp(t[i].key, "total_count") == 0)
                h->footer_total = (int64_t)v;
            if (strcmp(t[i].key, "max_us") == 0)
                h->footer_max = v;
        }
        p = comma ? comma + 1 : end;
    }
    return COW_OK;
}

/* Counts >= 2^31 print wrapped (%d of a 64-bit value, §8.1): undo it
 * using the fact that TotalCount never goes down. */
static int64_t unwrap(int64_t raw, int64_t prev)
{
    int64_t v = (int64_t)(uint32_t)raw;
    if (raw >= 0 && raw >= prev)
        return raw;
    v += (prev >> 32) << 32;
    while (v < prev)
        v += INT64_C(1) << 32;
    return v;
}

/* Value Percentile TotalCount [1/(1-Percentile)] */
static int table_row(hg *h, const cow_line *ln, const hgfield *f, int nf,
                     cow_err *e)
{
    double v, pc, inv;
    int64_t cnt;

    if (nf != 3 && nf != 4)
        return reject(h, ln, "expected 3 or 4 columns: Value Percentile "
                      "TotalCount 1/(1-Percentile)", e);
    if (!num_parse_double(f[0].p, f[0].n, &v) || v < 0)
        return reject(h, ln, "Value is not a number >= 0", e);
    if (!num_parse_double(f[1].p, f[1].n, &pc) || pc < 0 || pc > 1)
        return reject(h, ln, "Percentile is not a fraction between 0 and 1", e);
    if (!num_parse_i64(f[2].p, f[2].n, &cnt))
        return reject(h, ln, "TotalCount is not an integer", e);
    if (nf == 4 && !feq(&f[3], "inf") && !feq(&f[3], "Infinity") &&
        !num_parse_double(f[3].p, f[3].n, &inv))
        return reject(h, ln, "1/(1-Percentile) is not a number or inf", e);
    if (h->rows > 0 && pc < h->last_q)
        return reject(h, ln, "Percentile goes down: rows out of order", e);
    h->last_q = pc;
    h->last_count = unwrap(cnt, h->last_count);
    if (pc == 1.0) {
        /* the maximum: printed with the table's few decimals, and again
         * with three in the footer's #[Max = ...]: wait for the footer */
        int rc = h->held ? emit_pctl(h, h->op, 100.0, h->held_v, 0, h->held_count,
                                     h->held_line, e) : COW_OK;
        h->held = 1;
        h->held_v = v;
        h->held_count = h->last_count;
        h->held_line = ln->no;
        h->held_dec = 0;
        if (memchr(f[0].p, '.', f[0].n) != NULL)
            h->held_dec = (int)(f[0].n - (size_t)((const char *)memchr(f[0].p, '.', f[0].n) -
                                                  f[0].p) - 1);
        return rc;
    }
    return emit_pctl(h, h->op, pc * 100.0, v, 0, h->last_count, ln->no, e);
}

/* Histogram units per Interval_Max unit: jHiccup records ns and prints the
 * max in ms (--max-value-divisor), memtier records and prints us. Read off
 * the first interval whose max is not 0, as the power of 1000 nearest to
 * the decoded max over the printed one. */
static double raw_per_col(hg *h, const cow_hdr *d, double mx)
{
    double ratio, k;

    if (h->raw_per_col > 0 || !(mx > 0) || hdr_max(d) <= 0)
        return h->raw_per_col > 0 ? h->raw_per_col : 1;
    ratio = (double)hdr_max(d) / mx;
    for (k = 1; k < 1e9 && ratio > k * 31.6; k *= 1000)
        ;
    h->raw_per_col = k;
    return k;
}

/* One interval's histogram: percentiles, the interval figures, its max. */
static int log_histogram(hg *h, const cow_line *ln, const char *tag,
                         const hgfield *payload, double dur_s, double mx,
                         int64_t end_us, cow_err *e)
{
    cow_hdr d;
    cow_rec r;
    const char *why;
    double us_per_raw;
    size_t i;
    int rc;

    if (hdr_decode(payload->p, payload->n, &d, &why) != 0) {
        if (h->undecoded++ == 0) {
            h->first_undecoded = ln->no;
            h->undecoded_why = why;
        }
        return emit_pctl(h, tag, 100, mx, end_us, 0, ln->no, e);
    }
    us_per_raw = h->us_per_unit / raw_per_col(h, &d, mx);
    for (i = 0; i < sizeof(hg_log_q) / sizeof(hg_log_q[0]) && d.total > 0; i++)
        if ((rc = emit_pctl(h, tag, hg_log_q[i],
                            (double)hdr_value_at(&d, hg_log_q[i]) * us_per_raw / h->us_per_unit,
                            end_us, hdr_count_at(&d, hg_log_q[i]), ln->no, e)) != COW_OK)
            return hdr_free(&d), rc;
    memset(&r, 0, sizeof(r));
    r.kind = COW_REC_INTERVAL;
    r.u.interval.t_us = end_us;
    r.u.interval.dur_s = dur_s;
    r.u.interval.min_us = d.total ? (double)hdr_min(&d) * us_per_raw : NAN;
    r.u.interval.max_us = d.total ? mx * h->us_per_unit : NAN;
    r.u.interval.avg_us = d.total ? hdr_mean(&d) * us_per_raw : NAN;
    r.u.interval.count = d.total;
    r.u.interval.op = tag[0] ? tag : NULL;
    r.u.interval.line = ln->no;
    rc = emit_pctl(h, tag, 100, mx, end_us, d.total, ln->no, e);
    hdr_free(&d);
    return rc != COW_OK ? rc : sink_emit(h->k, &r, e);
}

/* [Tag=x,]start,end-or-length,max,payload */
static int log_row(hg *h, const cow_line *ln, const hgfield *f, int nf,
                   cow_err *e)
{
    char tag[HG_MAX_OP];
    double t0, t1, mx, dur, anchor = h->start_s > 0 ? h->start_s : h->base_s;
    int64_t end_us;

    snprintf(tag, sizeof(tag), "%s", h->op);
    if (nf > 0 && f[0].n > 4 && memcmp(f[0].p, "Tag=", 4) == 0) {
        snprintf(tag, sizeof(tag), "%.*s", (int)(f[0].n - 4), f[0].p + 4);
        f++, nf--;
    }
    if (nf != 4)
        return reject(h, ln, "expected start,end,max,histogram", e);
    if (!num_parse_double(f[0].p, f[0].n, &t0) || !num_parse_double(f[1].p, f[1].n, &t1) ||
        t0 < 0 || t1 < 0)
        return reject(h, ln, "interval times are not numbers >= 0", e);
    if (!num_parse_double(f[2].p, f[2].n, &mx) || mx < 0)
        return reject(h, ln, "Interval_Max is not a number >= 0", e);
    if (!h->end_is_abs)
        t1 += t0; /* Interval_Length */
    dur = t1 - t0;
    if (!(dur >= 0))
        return reject(h, ln, "interval ends before it starts", e);
    if (t0 < (double)COW_EPOCH_MIN_S) { /* relative to StartTime/BaseTime */
        if (anchor <= 0 && !(h->o && h->o->has_t0)) {
            cow_err_at(e, h->s->name, ln->no, 0);
            return COW_FAIL(e, COW_ECLOCK, "interval times are relative and the "
                            "log has no #[StartTime:]: give the start with --t0 "
                            "or run.json \"t0\"");
        }
        t1 = anchor > 0 ? t1 + anchor : t1 + (double)h->o->t0_us / 1e6;
    }
    if (t1 > (double)COW_EPOCH_MAX_S)
        return reject(h, ln, "interval end after 2100: not an epoch time", e);
    if (t1 < (double)COW_EPOCH_MIN_S) /* a StartTime/BaseTime of 1970 */
        return reject(h, ln, "interval end before 1990: the log's StartTime or "
                      "BaseTime is not an epoch time", e);
    end_us = (int64_t)llround(t1 * 1e6);
    return log_histogram(h, ln, tag, &f[3], dur, mx, end_us, e);
}

/* "#[StartTime: 1738587731.532 (seconds since epoch), ...]" */
static void log_time(const cow_line *ln, const char *lit, double *out)
{
    size_t m = strlen(lit), j;
    const char *p = ln->p + m;
    if (ln->n <= m || memcmp(ln->p, lit, m) != 0)
        return;
    while (p < ln->p + ln->n && *p == ' ')
        p++;
    for (j = 0; p + j < ln->p + ln->n && p[j] != ' ' && p[j] != ']'; j++)
        ;
    (void)num_parse_double(p, j, out);
}

static int comment(hg *h, const cow_line *ln, cow_err *e)
{
    if (ln->n >= 2 && ln->p[1] == '[') {
        if (!h->is_log && h->header)
            return footer(h, ln, e);
        log_time(ln, "#[StartTime:", &h->start_s);
        log_time(ln, "#[BaseTime:", &h->base_s);
        if (ln->n > 25 && memcmp(ln->p, "#[Histogram log format", 22) == 0)
            h->is_log = 1;
        if (ln->n > 40 && memcmp(ln->p + ln->n - 39,
                                 " command HDR latency histogram results]", 39) == 0)
            h->memtier_log = 1;
    }
    return COW_OK; /* comments are skipped (portable rule, §8.2) */
}

/* The header: first field Value, or StartTimestamp for a log. */
static int header(hg *h, const cow_line *ln, const hgfield *f, int nf,
                  cow_err *e)
{
    int rc;

    if (nf >= 3 && feq(&f[0], "Value") && feq(&f[1], "Percentile"))
        h->is_log = 0;
    else if (nf >= 3 && feq(&f[0], "StartTimestamp"))
        h->is_log = 1, h->end_is_abs = feq(&f[1], "EndTimestamp");
    else
        return reject(h, ln, "expected the 'Value Percentile TotalCount' header "
                      "(or an interval log's \"StartTimestamp\" header) first", e);
    h->header = 1;
    if ((rc = decide_unit(h, ln->no, e)) != COW_OK)
        return rc;
    return sink_note(h->k, "shape", h->is_log
                     ? "HdrHistogram interval log: each interval's compressed "
                       "histogram decoded (percentiles and counts per interval)"
                     : "HdrHistogram percentile distribution", e);
}

/* wrk's first line: "Running 1m test @ http://..." */
static int is_wrk_head(const char *p, size_t n)
{
    return n >= 16 && memcmp(p, "Running ", 8) == 0 && text_find(p, n, " test @ ") != NULL;
}

/* wrk2's lines around its table: 1 when the line was one of them (taken
 * or skipped), 0 when the table's own engine reads it. */
static int wrk_line(hg *h, const cow_line *ln, int *rc, cow_err *e)
{
    const char *p = ln->p, *q;
    size_t n = ln->n;
    double v;

    text_trim(&p, &n);
    if (!h->wrk_spectrum) {
        if (n == 29 && memcmp(p, "Detailed Percentile spectrum:", 29) == 0)
            h->wrk_spectrum = 1;
        else
            h->wrk_skipped++;
        return 1;
    }
    if (!h->wrk_tail && n > 0 && p[0] == '-' && h->header) {
        h->wrk_tail = 1;
        return 1;
    }
    if (!h->wrk_tail)
        return 0;
    *rc = COW_OK;
    if (n > 13 && memcmp(p, "Requests/sec:", 13) == 0) {
        q = p + 13;
        size_t m = n - 13;
        text_trim(&q, &m);
        if (num_parse_double(q, m, &v))
            *rc = emit_stat(h, "wrk:requests_per_sec", v, NULL, ln->no, e);
    } else if ((q = memchr(p, ' ', n)) != NULL && n > 13 &&
               text_find(p, n, " requests in ") == q) {
        int64_t k;
        if (num_parse_i64(p, (size_t)(q - p), &k))
            *rc = emit_stat(h, "wrk:requests", (double)k, NULL, ln->no, e);
    } else if (n > 14 && memcmp(p, "Socket errors:", 14) == 0) {
        /* "connect 0, read 3, write 0, timeout 1": their sum */
        long long sum = 0, x;
        const char *r = p + 14, *end = p + n;
        while (r < end) {
            while (r < end && !(*r >= '0' && *r <= '9'))
                r++;
            if (r >= end)
                break;
            for (x = 0; r < end && *r >= '0' && *r <= '9' && x < 1000000000000LL; r++)
                x = x * 10 + (*r - '0'); /* bounded by the line, not by a NUL */
            sum += x;
        }
        *rc = emit_stat(h, "wrk:socket_errors", (double)sum, NULL, ln->no, e);
    } else
        h->wrk_skipped++;
    return 1;
}

static int line(hg *h, const cow_line *ln, cow_err *e)
{
    hgfield f[HG_MAX_FIELDS];
    int nf, rc = COW_OK;

    if (h->wrk && wrk_line(h, ln, &rc, e))
        return rc;
    if (ln->n > 0 && ln->p[0] == '#')
        return comment(h, ln, e);
    nf = split(ln->p, ln->n, f);
    if (nf == 0)
        return COW_OK;
    if (nf < 0)
        return reject(h, ln, "too many fields for an HdrHistogram row", e);
    if (!h->header)
        return header(h, ln, f, nf, e);
    if (feq(&f[0], "Value") || feq(&f[0], "StartTimestamp"))
        return reject(h, ln, "a second header: two files appended? load them "
                      "separately", e);
    return h->is_log ? log_row(h, ln, f, nf, e) : table_row(h, ln, f, nf, e);
}

/* The table's 100% row, with the footer's more precise Max when the table
 * printed fewer than three decimals and the two agree to its rounding
 * (HdrHistogram_c prints values with the histogram's significant figures,
 * the footer with three decimals). */
static int emit_held_max(hg *h, cow_err *e)
{
    char note[160];
    double v = h->held_v;
    int rc;

    h->held = 0;
    if (!isnan(h->footer_max) && h->footer_max != v && h->held_dec < 3 &&
        fabs(h->footer_max - v) <= 0.5 * pow(10, -h->held_dec) + 1e-9) {
        snprintf(note, sizeof(note), "the maximum is the footer's #[Max = %.3f] "
                 "(line %ld printed it rounded: %g)", h->footer_max, h->held_line, v);
        if ((rc = sink_note(h->k, "max", note, e)) != COW_OK)
            return rc;
        v = h->footer_max;
    }
    return emit_pctl(h, h->op, 100.0, v, 0, h->held_count, h->held_line, e);
}

static int hg_finish(hg *h, cow_err *e)
{
    char note[128];
    int rc;

    if (h->held && (rc = emit_held_max(h, e)) != COW_OK)
        return rc;
    if (h->undecoded > 0) {
        char why[300];
        snprintf(why, sizeof(why), "%ld interval histograms not decoded, first at "
                 "line %ld (%s): those intervals have their max only",
                 h->undecoded, h->first_undecoded, h->undecoded_why);
        if ((rc = sink_note(h->k, "histogram", why, e)) != COW_OK)
            return rc;
    }
    if (h->rows == 0) {
        cow_err_at(e, h->s->name, h->last_line > 0 ? h->last_line : 1, 0);
        return COW_FAIL(e, COW_EPARSE, h->header
                        ? "no rows after the HdrHistogram header: empty histogram?"
                        : "no 'Value Percentile TotalCount' header: not an "
                          "HdrHistogram percentile distribution");
    }
    if (parser_too_many_rejects(h->rows, h->rejects)) {
        cow_err_at(e, h->s->name, h->last_line, 0);
        return COW_FAIL(e, COW_EPARSE, "%ld of %ld rows are not HdrHistogram rows: "
                        "is this really one?", h->rejects, h->rows + h->rejects);
    }
    if (!h->is_log && h->footer_total >= 0 && h->footer_total != h->last_count) {
        snprintf(note, sizeof(note), "footer Total count %lld differs from the "
                 "last row's TotalCount %lld: the footer is authoritative",
                 (long long)h->footer_total, (long long)h->last_count);
        return sink_note(h->k, "total_count", note, e);
    }
    return COW_OK;
}

static int hg_parse(cow_src *s, const cow_parse_opts *o, cow_sink *k,
                    cow_err *e)
{
    hg h;
    cow_line ln;
    int rc = COW_OK, got;

    memset(&h, 0, sizeof(h));
    h.s = s;
    h.k = k;
    h.o = o;
    h.footer_total = -1;
    h.footer_max = NAN;
    if (o && o->fname)
        (void)memtier_name(o->fname, h.op, sizeof(h.op));
    while (rc == COW_OK && (got = src_next_line(s, &ln, e)) == 1) {
        h.last_line = ln.no;
        if (ln.no == 1 && is_wrk_head(ln.p, ln.n))
            h.wrk = 1;
        rc = line(&h, &ln, e);
    }
    if (rc != COW_OK)
        return rc;
    if (got < 0)
        return e->code;
    if (h.wrk && !h.wrk_spectrum) {
        cow_err_at(e, s->name, h.last_line > 0 ? h.last_line : 1, 0);
        return COW_FAIL(e, COW_EPARSE, "wrk output without a \"Detailed Percentile "
                        "spectrum:\": run wrk2 with --latency (or -U) so that it prints "
                        "one; its rounded summary alone is not read");
    }
    if (h.wrk && h.wrk_skipped > 0) {
        char note[160];
        snprintf(note, sizeof(note), "wrk2 output: %ld lines outside its percentile "
                 "spectrum skipped (its rounded summary, thread statistics)", h.wrk_skipped);
        if ((rc = sink_note(k, "shape", note, e)) != COW_OK)
            return rc;
    }
    return hg_finish(&h, e);
}

/* First non-comment line's first two fields. */
static int hg_sniff(const char *fname, const char *head, size_t n)
{
    const char *p = head, *end = head + n;
    int log_comment = 0;
    size_t len;

    {   /* wrk2's stdout: its head line, and the spectrum within the head */
        const char *nl = memchr(head, '\n', n);
        if (is_wrk_head(head, nl ? (size_t)(nl - head) : n))
            return text_find(head, n, "Detailed Percentile spectrum:") ? 90 : 60;
    }
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (len > 0 && p[len - 1] == '\r')
            len--;
        if (len > 22 && memcmp(p, "#[Histogram log format", 22) == 0)
            log_comment = 1;
        if (len > 0 && *p != '#') {
            hgfield f[HG_MAX_FIELDS];
            int nf = split(p, len, f);
            if (nf >= 3 && feq(&f[0], "Value") && feq(&f[1], "Percentile"))
                return 95;
            if (nf >= 3 && feq(&f[0], "StartTimestamp"))
                return 90;
            break;
        }
        p = nl ? nl + 1 : end;
    }
    if (log_comment)
        return 90;
    len = fname ? strlen(fname) : 0;
    return ends_with(fname ? fname : "", len, ".hgrm") ? 20 : 0;
}

const cow_parser cow_parser_hgrm = {
    "hdr-percentiles",
    "HdrHistogram percentile distribution (.hgrm, memtier *.txt) and interval log",
    hg_sniff,
    hg_parse,
};
