/* rbench.c -- redis-benchmark / valkey-benchmark output (formats.md §6).
 *
 * Exports cow_parser_rbench_csv ("redis-benchmark-csv", the --csv output)
 * and cow_parser_rbench_text ("redis-benchmark", the default report and -q).
 *
 * What each test row becomes (source "redis-benchmark", op = test name as
 * printed, e.g. "SET" or "LRANGE_100 (first 100 elements)"):
 *
 *   COW_REC_PCTL  q = 0 (min_latency), 50, 95, 99 (pNN_latency), 100 (max),
 *                 value_us = the printed milliseconds x 1000, t_us = 0 (the
 *                 output carries no clock). count = requests of the test
 *                 when the text report says it ("requests completed"), else
 *                 0 (the CSV does not say it).
 *   COW_REC_STAT  key "<test>:rps" (num = requests per second, unit "req/s"),
 *                 "<test>:avg_latency_us" (num in us, unit "us"); the text
 *                 report adds "<test>:requests", "<test>:duration_s",
 *                 "<test>:clients", "<test>:payload_bytes", and the server's
 *                 "host:save" / "host:appendonly" configuration as text.
 *                 stat.text is the field as printed, with its unit.
 *   COW_REC_NOTE  "shape" (which version's layout), "latency_unit".
 *
 * The average is a STAT, not a percentile: it is no point of the
 * distribution, and a q = -1 convention would leak into every consumer.
 * The text report's "percentile distribution" ladder (50%, 75%, 87.5%, ...)
 * is emitted as PCTL rows too, except where the Summary block gives the
 * same quantile (its min/p50/max are exact, the ladder's are bucket edges);
 * its "Cumulative distribution" block repeats the same histogram in coarse
 * buckets and is checked but not emitted. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats.h"
#include "mem.h"
#include "num.h"

#define RB_SOURCE "redis-benchmark"
/* The 7.x header has 8 columns; a few unknown extra ones are tolerated. */
#define RB_MAX_COLS 16
/* Longest test name kept; a custom command line can be long. */
#define RB_MAX_NAME 200

/* ------------------------------------------------------------------ */
/* Shared emit helpers                                                 */
/* ------------------------------------------------------------------ */

static int emit_pctl(cow_sink *k, const char *op, double q, double ms,
                     int64_t count, long line, cow_err *e)
{
    cow_rec r;
    memset(&r, 0, sizeof(r));
    r.kind = COW_REC_PCTL;
    r.u.pctl.source = RB_SOURCE;
    r.u.pctl.op = op;
    r.u.pctl.q = q;
    r.u.pctl.value_us = ms * 1000.0;
    r.u.pctl.count = count;
    r.u.pctl.line = line;
    return sink_emit(k, &r, e);
}

/* A STAT keyed "<op>:<what>"; text is the value as printed. */
static int emit_stat(cow_sink *k, const char *op, const char *what,
                     const char *text, double num, const char *unit,
                     long line, cow_err *e)
{
    char key[RB_MAX_NAME + 64];

    snprintf(key, sizeof(key), "%s:%s", op, what);
    return sink_stat(k, 0, RB_SOURCE, key, text, num, unit, line, e);
}

static int emit_ms_stat(cow_sink *k, const char *op, const char *what,
                        double ms, long line, cow_err *e)
{
    char text[48];
    snprintf(text, sizeof(text), "%.3f ms", ms);
    return emit_stat(k, op, what, text, ms * 1000.0, "us", line, e);
}

static int emit_rps(cow_sink *k, const char *op, double rps, long line,
                    cow_err *e)
{
    char text[48];
    snprintf(text, sizeof(text), "%.2f", rps);
    return emit_stat(k, op, "rps", text, rps, "req/s", line, e);
}

/* Refuse a file that gave nothing, or mostly garbage. */
static int finish(cow_src *s, long rows, long rejects, long last, cow_err *e)
{
    if (rows == 0) {
        cow_err_at(e, s->name, last > 0 ? last : 1, 0);
        return COW_FAIL(e, COW_EPARSE,
                        "no benchmark result in the file: was redis-benchmark "
                        "stopped before its first test finished?");
    }
    if (parser_too_many_rejects(rows, rejects)) {
        cow_err_at(e, s->name, last, 0);
        return COW_FAIL(e, COW_EPARSE,
                        "%ld of %ld lines are not redis-benchmark output: "
                        "is this really its output? (choose the parser by hand)",
                        rejects, rows + rejects);
    }
    return COW_OK;
}

static int is_blank(const char *p, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (p[i] != ' ' && p[i] != '\t')
            return 0;
    return 1;
}

/* ------------------------------------------------------------------ */
/* --csv                                                               */
/* ------------------------------------------------------------------ */

enum rbcol_kind { RBC_TEST, RBC_RPS, RBC_AVG, RBC_PCT, RBC_OTHER };

typedef struct rbcol {
    int kind;        /* enum rbcol_kind */
    double q;        /* RBC_PCT: quantile in percent */
    double mult;     /* RBC_AVG/RBC_PCT: ms per unit of the column */
} rbcol;

typedef struct rbfield {
    const char *p;   /* first byte (inside quotes) */
    size_t n;        /* length */
} rbfield;

typedef struct rbcsv {
    cow_src *s;               /* input */
    cow_sink *k;              /* output */
    rbcol col[RB_MAX_COLS];   /* meaning of each column */
    int ncol;                 /* columns in the header (2 without one) */
    long rows, rejects;       /* good rows and rejected lines */
} rbcsv;

/* Strip one pair of surrounding double quotes. */
static void unquote(const char **p, size_t *n)
{
    num_trim(p, n);
    if (*n >= 2 && (*p)[0] == '"' && (*p)[*n - 1] == '"') {
        (*p)++;
        *n -= 2;
    }
}

static int eq(const char *p, size_t n, const char *lit)
{
    return strlen(lit) == n && memcmp(p, lit, n) == 0;
}

/* "p99_latency_ms" -> RBC_PCT 99; "min_latency_ms" -> q 0; etc. */
static rbcol col_meaning(const char *p, size_t n)
{
    rbcol c = {RBC_OTHER, 0, 1};
    size_t stem;
    double q;

    if (eq(p, n, "test"))
        c.kind = RBC_TEST;
    else if (eq(p, n, "rps"))
        c.kind = RBC_RPS;
    if (c.kind != RBC_OTHER || n < 12)
        return c;
    if (memcmp(p + n - 11, "_latency_ms", 11) == 0)
        c.mult = 1;
    else if (memcmp(p + n - 11, "_latency_us", 11) == 0)
        c.mult = 0.001;
    else
        return c;
    stem = n - 11;
    if (eq(p, stem, "avg"))
        c.kind = RBC_AVG;
    else if (eq(p, stem, "min"))
        c.kind = RBC_PCT, c.q = 0;
    else if (eq(p, stem, "max"))
        c.kind = RBC_PCT, c.q = 100;
    else if (stem >= 2 && p[0] == 'p' && num_parse_double(p + 1, stem - 1, &q) &&
             q > 0 && q < 100)
        c.kind = RBC_PCT, c.q = q;
    return c;
}

/* A header line: its first field is test. */
static int is_header(const char *p, size_t n)
{
    const char *c = memchr(p, ',', n);
    size_t m = c ? (size_t)(c - p) : n;
    unquote(&p, &m);
    return eq(p, m, "test");
}

static int read_header(rbcsv *c, const cow_line *ln, cow_err *e)
{
    const char *p = ln->p, *end = ln->p + ln->n;
    char note[160];
    int rc;

    c->ncol = 0;
    while (p <= end) {
        const char *comma = memchr(p, ',', (size_t)(end - p));
        const char *f = p;
        size_t n = comma ? (size_t)(comma - p) : (size_t)(end - p);
        if (c->ncol == RB_MAX_COLS) {
            cow_err_at(e, c->s->name, ln->no, 0);
            return COW_FAIL(e, COW_EPARSE, "more than %d columns in the "
                            "redis-benchmark header", RB_MAX_COLS);
        }
        unquote(&f, &n);
        c->col[c->ncol] = col_meaning(f, n);
        if (c->col[c->ncol].kind == RBC_OTHER) {
            snprintf(note, sizeof(note), "column %d '%.*s' not understood: ignored",
                     c->ncol + 1, (int)(n > 64 ? 64 : n), f);
            if ((rc = sink_note(c->k, "ignored_column", note, e)) != COW_OK)
                return rc;
        }
        c->ncol++;
        if (!comma)
            break;
        p = comma + 1;
    }
    if (c->col[0].kind != RBC_TEST || c->ncol < 2 || c->col[1].kind != RBC_RPS) {
        cow_err_at(e, c->s->name, ln->no, 0);
        return COW_FAIL(e, COW_EPARSE, "redis-benchmark CSV header must start "
                        "with \"test\",\"rps\"");
    }
    return COW_OK;
}

/* Index of the last ch in p[0..n), or RB_NONE. */
#define RB_NONE ((size_t)-1)
static size_t rfind(const char *p, size_t n, char ch)
{
    while (n > 0)
        if (p[--n] == ch)
            return n;
    return RB_NONE;
}

/* Split a row from the right: the ncol-1 value fields are plain numbers
 * (quoted or not); whatever is left is the test name, which may itself
 * hold quotes or commas (a custom command is printed unescaped, §6.1).
 * Returns 0, or -1 when the row does not have that shape. */
static int split_row(const char *p, size_t n, int ncol, rbfield *f)
{
    size_t j = n; /* fields still to take are in p[0..j) */
    int c;

    for (c = ncol - 1; c >= 1; c--) {
        size_t b, end;
        if (j > 0 && p[j - 1] == '"') {
            end = j - 1;
            if ((b = rfind(p, end, '"')) == RB_NONE)
                return -1;
            j = b++; /* the opening quote; a comma must precede it */
        } else {
            end = j;
            if ((b = rfind(p, j, ',')) == RB_NONE)
                return -1;
            j = ++b; /* just after the comma */
        }
        f[c].p = p + b;
        f[c].n = end - b;
        if (j == 0 || p[j - 1] != ',')
            return -1;
        j--;
    }
    f[0].p = p;
    f[0].n = j;
    unquote(&f[0].p, &f[0].n);
    return f[0].n == 0 ? -1 : 0;
}

static int reject(rbcsv *c, const cow_line *ln, const char *why, cow_err *e)
{
    c->rejects++;
    return sink_reject(c->k, ln->no, why, ln->p, ln->n, e);
}

static int emit_row(rbcsv *c, const cow_line *ln, char *op, const double *v,
                    cow_err *e)
{
    int i, rc = COW_OK;

    for (i = 1; i < c->ncol && rc == COW_OK; i++) {
        switch ((enum rbcol_kind)c->col[i].kind) {
        case RBC_RPS: rc = emit_rps(c->k, op, v[i], ln->no, e); break;
        case RBC_AVG:
            rc = emit_ms_stat(c->k, op, "avg_latency_us", v[i] * c->col[i].mult,
                              ln->no, e);
            break;
        case RBC_PCT:
            rc = emit_pctl(c->k, op, c->col[i].q, v[i] * c->col[i].mult, 0,
                           ln->no, e);
            break;
        case RBC_TEST:
        case RBC_OTHER: break;
        }
    }
    return rc;
}

static int csv_row(rbcsv *c, const cow_line *ln, cow_err *e)
{
    rbfield f[RB_MAX_COLS];
    double v[RB_MAX_COLS];
    char op[RB_MAX_NAME + 1], why[160];
    int i;

    if (split_row(ln->p, ln->n, c->ncol, f) != 0) {
        snprintf(why, sizeof(why), "%sexpected %d fields as in the header: "
                 "the test name, then numbers", ln->eol ? "" : "truncated last "
                 "line: ", c->ncol);
        return reject(c, ln, why, e);
    }
    for (i = 1; i < c->ncol; i++) {
        const char *p = f[i].p;
        size_t n = f[i].n;
        num_trim(&p, &n);
        if (!num_parse_double(p, n, &v[i]) || v[i] < 0) {
            snprintf(why, sizeof(why), "%scolumn %d is not a number >= 0",
                     ln->eol ? "" : "truncated last line: ", i + 1);
            return reject(c, ln, why, e);
        }
    }
    if (f[0].n > RB_MAX_NAME)
        return reject(c, ln, "test name longer than 200 bytes", e);
    memcpy(op, f[0].p, f[0].n);
    op[f[0].n] = '\0';
    c->rows++;
    return emit_row(c, ln, op, v, e);
}

static int csv_start(rbcsv *c, const cow_line *ln, cow_err *e)
{
    int rc;

    if (is_header(ln->p, ln->n)) {
        if ((rc = read_header(c, ln, e)) != COW_OK)
            return rc;
        return sink_note(c->k, "shape", c->ncol > 2
                         ? "header with latency columns (redis-benchmark 6.2+)"
                         : "header \"test\",\"rps\": throughput only", e);
    }
    c->ncol = 2;
    c->col[0].kind = RBC_TEST;
    c->col[1].kind = RBC_RPS;
    if ((rc = sink_note(c->k, "shape", "no header, \"test\",\"rps\" rows "
                        "(redis-benchmark 6.0 or older): throughput only, no "
                        "latency", e)) != COW_OK)
        return rc;
    return csv_row(c, ln, e);
}

static int rbcsv_parse(cow_src *s, const cow_parse_opts *o, cow_sink *k,
                       cow_err *e)
{
    rbcsv c;
    cow_line ln;
    long last = 0;
    int rc = COW_OK, got;

    (void)o;
    memset(&c, 0, sizeof(c));
    c.s = s;
    c.k = k;
    if ((rc = sink_note(k, "latency_unit", "ms as printed by redis-benchmark "
                        "(stored in us)", e)) != COW_OK)
        return rc;
    while (rc == COW_OK && (got = src_next_line(s, &ln, e)) == 1) {
        last = ln.no;
        if (is_blank(ln.p, ln.n))
            continue;
        if (c.ncol == 0)
            rc = csv_start(&c, &ln, e);
        else if (is_header(ln.p, ln.n))
            rc = read_header(&c, &ln, e); /* two runs appended to one file */
        else
            rc = csv_row(&c, &ln, e);
    }
    if (rc != COW_OK)
        return rc;
    if (got < 0)
        return e->code;
    return finish(s, c.rows, c.rejects, last, e);
}

/* A row of the headerless 6.0 shape: "NAME","number". */
static int is_old_row(const char *p, size_t n)
{
    rbfield f[2];
    double v;
    size_t i;

    if (n < 5 || p[0] != '"' || split_row(p, n, 2, f) != 0)
        return 0;
    for (i = 0; i < f[0].n; i++)
        if (f[0].p[i] < ' ')
            return 0;
    num_trim(&f[1].p, &f[1].n);
    return num_parse_double(f[1].p, f[1].n, &v);
}

static int rbcsv_sniff(const char *fname, const char *head, size_t n)
{
    const char *p = head, *end = head + n;
    int lines = 0;

    (void)fname;
    if (n >= 3 && (unsigned char)p[0] == 0xEF && (unsigned char)p[1] == 0xBB)
        p += 3;
    if ((size_t)(end - p) >= 12 && memcmp(p, "\"test\",\"rps\"", 12) == 0)
        return 95;
    if ((size_t)(end - p) >= 9 && memcmp(p, "test,rps,", 9) == 0)
        return 90;
    /* no header: every complete line in the head must be "NAME","number" */
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len;
        if (nl == NULL)
            break; /* the head may cut the last line */
        len = (size_t)(nl - p);
        if (len > 0 && p[len - 1] == '\r')
            len--;
        if (len > 0 && !is_old_row(p, len))
            return 0;
        lines += len > 0;
        p = nl + 1;
    }
    return lines > 0 ? 85 : 0;
}

const cow_parser cow_parser_rbench_csv = {
    "redis-benchmark-csv",
    "redis-benchmark / valkey-benchmark --csv output (6.0 and 6.2+ shapes)",
    rbcsv_sniff,
    rbcsv_parse,
};

/* ------------------------------------------------------------------ */
/* Text report and -q                                                  */
/* ------------------------------------------------------------------ */

/* Rows of the percentile ladder kept per test (HdrHistogram prints about
 * 2 x log2(count) rows; 1 << 20 requests give ~40). */
#define RB_MAX_LADDER 512
/* Columns of the "latency summary" table. */
#define RB_MAX_SUM 8

enum rbsec { SEC_NONE, SEC_HEAD, SEC_LADDER, SEC_CUMUL, SEC_SUMMARY,
             SEC_SUMNAMES, SEC_SUMVALS };

typedef struct rbstep {
    double q;        /* percent */
    double ms;       /* latency, ms */
    long line;       /* input line */
} rbstep;

typedef struct rbtext {
    cow_sink *k;                 /* output */
    int sec;                     /* enum rbsec */
    char op[RB_MAX_NAME + 1];    /* current test name */
    int64_t requests;            /* "N requests completed", 0 if not seen */
    rbstep lad[RB_MAX_LADDER];   /* percentile ladder of the current test */
    int nlad;                    /* rows in lad */
    double sumq[RB_MAX_SUM];     /* quantiles the summary gave */
    int nsumq;                   /* entries in sumq */
    char sumcol[RB_MAX_SUM][8];  /* names of the summary table's columns */
    int nsumcol;                 /* entries in sumcol */
    char *lb;                    /* the current line, trimmed, NUL-terminated */
    size_t lbcap;                /* allocated size of lb */
    long no;                     /* its line number */
    long rows, rejects;          /* good and rejected lines */
} rbtext;

static int starts(const char *p, const char *lit)
{
    return strncmp(p, lit, strlen(lit)) == 0;
}

static const char *skip_blanks(const char *p)
{
    while (*p == ' ')
        p++;
    return p;
}

/* Parse the number at *p (after blanks, up to a blank or one of ",%)"). */
static int take_num(const char **p, double *v)
{
    const char *b = skip_blanks(*p);
    *p = b;
    while (**p != '\0' && **p != ' ' && **p != ',' && **p != '%' && **p != ')')
        (*p)++;
    return num_parse_double(b, (size_t)(*p - b), v);
}

/* Skip blanks, then lit; 1 when it was there. */
static int expect(const char **p, const char *lit)
{
    const char *b = skip_blanks(*p);
    if (!starts(b, lit))
        return 0;
    *p = b + strlen(lit);
    return 1;
}

/* "50.000% <= 0.319 milliseconds (cumulative count 2502)", or 6.0's
 * "99.99% <= 1 milliseconds". */
static int ladder_line(const char *p, rbstep *st)
{
    double c;

    if (!take_num(&p, &st->q) || !expect(&p, "%") || !expect(&p, "<=") ||
        !take_num(&p, &st->ms) || !expect(&p, "milliseconds"))
        return 0;
    if (expect(&p, "(cumulative count") && (!take_num(&p, &c) || !expect(&p, ")")))
        return 0;
    return *skip_blanks(p) == '\0' && st->q >= 0 && st->q <= 100 && st->ms >= 0;
}

/* Emit the ladder of the test just finished, minus the quantiles its
 * summary gave exactly. */
static int text_flush(rbtext *t, cow_err *e)
{
    int i, j, rc;

    for (i = 0; i < t->nlad; i++) {
        int dup = 0;
        for (j = 0; j < t->nsumq; j++)
            dup |= fabs(t->sumq[j] - t->lad[i].q) < 1e-9;
        if (dup)
            continue;
        rc = emit_pctl(t->k, t->op, t->lad[i].q, t->lad[i].ms, t->requests,
                       t->lad[i].line, e);
        if (rc != COW_OK)
            return rc;
    }
    t->nlad = 0;
    t->nsumq = 0;
    return COW_OK;
}

/* "====== SET ======" */
static int text_begin(rbtext *t, const char *p, size_t n, cow_err *e)
{
    int rc = text_flush(t, e);
    if (rc != COW_OK)
        return rc;
    n -= 14;
    snprintf(t->op, sizeof(t->op), "%.*s", (int)(n > RB_MAX_NAME ? RB_MAX_NAME : n),
             p + 7);
    t->sec = SEC_HEAD;
    t->requests = 0;
    t->nsumcol = 0;
    return COW_OK;
}

/* "SET: 181818.19 requests per second[, p50=0.255 msec]" (-q), and the
 * "SET: rps=..." progress lines that survive when a run is killed. */
static int text_quiet(rbtext *t, const char *p, int *ok, cow_err *e)
{
    const char *colon = strchr(p, ':'), *q;
    char op[RB_MAX_NAME + 1];
    double rps, p50 = 0;
    int has_p50 = 0, rc;

    *ok = 0;
    if (colon == NULL || colon == p || (size_t)(colon - p) > RB_MAX_NAME)
        return COW_OK;
    q = colon + 1;
    if (expect(&q, "rps=")) {
        *ok = 1;
        return COW_OK;
    }
    if (t->sec != SEC_NONE) /* "throughput summary: ..." is no -q line */
        return COW_OK;
    if (!take_num(&q, &rps) || !expect(&q, "requests per second"))
        return COW_OK;
    if (expect(&q, ", p50=")) {
        if (!take_num(&q, &p50) || !(p50 >= 0) || !expect(&q, "msec"))
            return COW_OK;
        has_p50 = 1;
    }
    if (*q != '\0')
        return COW_OK;
    snprintf(op, sizeof(op), "%.*s", (int)(colon - p), p);
    *ok = 1;
    t->rows++;
    if ((rc = emit_rps(t->k, op, rps, t->no, e)) != COW_OK || !has_p50)
        return rc;
    return emit_pctl(t->k, op, 50, p50, 0, t->no, e);
}

/* "100000 requests completed in 0.55 seconds", "50 parallel clients"... */
static int text_head(rbtext *t, const char *p, int *ok, cow_err *e)
{
    const char *q = p, *r;
    double a, b;
    int rc;

    *ok = 1;
    if (take_num(&q, &a)) {
        r = q;
        if (expect(&r, "requests completed in") && take_num(&r, &b) &&
            expect(&r, "seconds") && *r == '\0') {
            if (!(a >= 0 && a < 9007199254740992.0)) /* the cast is UB beyond */
                return *ok = 0, COW_OK;
            t->requests = (int64_t)a;
            rc = emit_stat(t->k, t->op, "requests", p, a, NULL, t->no, e);
            return rc ? rc : emit_stat(t->k, t->op, "duration_s", p, b, "s", t->no, e);
        }
        r = q;
        if (expect(&r, "parallel clients") && *r == '\0')
            return emit_stat(t->k, t->op, "clients", p, a, NULL, t->no, e);
        r = q;
        if (expect(&r, "bytes payload") && *r == '\0')
            return emit_stat(t->k, t->op, "payload_bytes", p, a, "bytes", t->no, e);
    }
    q = p;
    if (expect(&q, "host configuration \"save\":"))
        return emit_stat(t->k, "host", "save", skip_blanks(q), NAN, NULL, t->no, e);
    q = p;
    if (expect(&q, "host configuration \"appendonly\":"))
        return emit_stat(t->k, "host", "appendonly", skip_blanks(q), NAN, NULL,
                         t->no, e);
    /* known lines that carry nothing cowtail keeps */
    *ok = starts(p, "keep alive:") || starts(p, "multi-thread:") ||
          starts(p, "threads:") || starts(p, "cluster mode:") ||
          starts(p, "save:") || starts(p, "appendonly:") || starts(p, "node ") ||
          starts(p, "host configuration");
    return COW_OK;
}

/* Names line "avg min p50 p95 p99 max" under "latency summary (msec):". */
static void text_sumnames(rbtext *t, const char *p)
{
    for (t->nsumcol = 0; t->nsumcol < RB_MAX_SUM; t->nsumcol++) {
        size_t m;
        p = skip_blanks(p);
        for (m = 0; p[m] != '\0' && p[m] != ' '; m++)
            ;
        if (m == 0)
            break;
        snprintf(t->sumcol[t->nsumcol], sizeof(t->sumcol[0]), "%.*s", (int)m, p);
        p += m;
    }
    t->sec = SEC_SUMVALS;
}

/* Values line of that table: avg -> STAT, min/pNN/max -> PCTL. */
static int text_sumvals(rbtext *t, const char *p, int *ok, cow_err *e)
{
    double v[RB_MAX_SUM];
    int i, rc = COW_OK;

    for (i = 0; i < t->nsumcol; i++)
        if (!take_num(&p, &v[i]) || !(v[i] >= 0)) /* a latency is never < 0 */
            return *ok = 0, COW_OK;
    if (*skip_blanks(p) != '\0')
        return *ok = 0, COW_OK;
    *ok = 1;
    for (i = 0; i < t->nsumcol && rc == COW_OK; i++) {
        const char *c = t->sumcol[i];
        double q;
        if (strcmp(c, "avg") == 0) {
            rc = emit_ms_stat(t->k, t->op, "avg_latency_us", v[i], t->no, e);
            continue;
        }
        if (strcmp(c, "min") == 0)
            q = 0;
        else if (strcmp(c, "max") == 0)
            q = 100;
        else if (c[0] != 'p' || !num_parse_double(c + 1, strlen(c + 1), &q) ||
                 !(q > 0 && q < 100))
            continue; /* a column added by a later version, or not a
                         quantile ("p500") */
        if (t->nsumq < RB_MAX_SUM)
            t->sumq[t->nsumq++] = q;
        rc = emit_pctl(t->k, t->op, q, v[i], t->requests, t->no, e);
    }
    t->rows++;
    t->sec = SEC_SUMMARY;
    return rc;
}

/* A line inside a test's report. */
static int text_section(rbtext *t, const char *p, int *ok, cow_err *e)
{
    const char *q = p;
    rbstep st;
    double rps;

    *ok = 1;
    if (strcmp(p, "Latency by percentile distribution:") == 0)
        t->sec = SEC_LADDER;
    else if (strcmp(p, "Cumulative distribution of latencies:") == 0)
        t->sec = SEC_CUMUL;
    else if (strcmp(p, "Summary:") == 0)
        t->sec = SEC_SUMMARY;
    else if (strcmp(p, "latency summary (msec):") == 0)
        t->sec = SEC_SUMNAMES;
    else if (t->sec == SEC_SUMNAMES)
        text_sumnames(t, p);
    else if (t->sec == SEC_SUMVALS)
        return text_sumvals(t, p, ok, e);
    else if (ladder_line(p, &st)) {
        if (t->sec == SEC_CUMUL)
            return COW_OK; /* same histogram, coarser: checked, not kept */
        if (t->nlad == RB_MAX_LADDER)
            return *ok = 0, COW_OK;
        st.line = t->no;
        t->lad[t->nlad++] = st;
        t->rows++;
    } else {
        (void)expect(&q, "throughput summary:"); /* 6.0 prints the bare line */
        if (take_num(&q, &rps) && expect(&q, "requests per second") && *q == '\0') {
            t->rows++;
            return emit_rps(t->k, t->op, rps, t->no, e);
        }
        if (t->sec == SEC_HEAD)
            return text_head(t, p, ok, e);
        *ok = 0;
    }
    return COW_OK;
}

static int text_line(rbtext *t, const cow_line *ln, cow_err *e)
{
    const char *p = ln->p;
    size_t n = ln->n, i;
    int ok = 0, rc;

    for (i = n; i > 0; i--) /* progress lines end in CR and are overwritten */
        if (p[i - 1] == '\r') {
            p += i;
            n -= i;
            break;
        }
    num_trim(&p, &n);
    if (n == 0)
        return COW_OK;
    t->lb = xgrow(t->lb, 1, n + 1, &t->lbcap);
    memcpy(t->lb, p, n);
    t->lb[n] = '\0';
    t->no = ln->no;
    if (n > 14 && starts(t->lb, "====== ") && strcmp(t->lb + n - 7, " ======") == 0)
        return text_begin(t, t->lb, n, e);
    if ((rc = text_quiet(t, t->lb, &ok, e)) != COW_OK || ok)
        return rc;
    if (t->sec != SEC_NONE && ((rc = text_section(t, t->lb, &ok, e)) != COW_OK || ok))
        return rc;
    t->rejects++;
    return sink_reject(t->k, ln->no, ln->eol ? "not a line of a redis-benchmark report"
                       : "truncated last line of a redis-benchmark report",
                       ln->p, ln->n, e);
}

static int rbtext_parse(cow_src *s, const cow_parse_opts *o, cow_sink *k,
                        cow_err *e)
{
    rbtext *t = xcalloc(1, sizeof(*t));
    cow_line ln;
    long last = 0;
    int rc, got = 0;

    (void)o;
    t->k = k;
    rc = sink_note(k, "latency_unit", "ms as printed by redis-benchmark "
                   "(stored in us)", e);
    while (rc == COW_OK && (got = src_next_line(s, &ln, e)) == 1) {
        last = ln.no;
        rc = text_line(t, &ln, e);
    }
    if (rc == COW_OK && got < 0)
        rc = e->code;
    if (rc == COW_OK)
        rc = text_flush(t, e);
    if (rc == COW_OK)
        rc = finish(s, t->rows, t->rejects, last, e);
    free(t->lb);
    free(t);
    return rc;
}

/* Find lit in p[0..n). */
static int has(const char *p, size_t n, const char *lit)
{
    size_t m = strlen(lit), i;
    for (i = 0; i + m <= n; i++)
        if (p[i] == lit[0] && memcmp(p + i, lit, m) == 0)
            return 1;
    return 0;
}

static int rbtext_sniff(const char *fname, const char *head, size_t n)
{
    (void)fname;
    if (has(head, n, "====== ") && has(head, n, " requests completed in "))
        return 95;
    if (has(head, n, " requests per second, p50="))
        return 90;
    return 0;
}

const cow_parser cow_parser_rbench_text = {
    "redis-benchmark",
    "redis-benchmark / valkey-benchmark report and -q output (6.0+)",
    rbtext_sniff,
    rbtext_parse,
};
