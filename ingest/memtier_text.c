/* memtier_text.c -- memtier_benchmark's report on stdout: the stats tables
 * it prints at the end of a run (formats.md, benchmark outputs).
 *
 * Exports cow_parser_memtier_text ("memtier-text"). Requirements:
 *  1. A table is a column header line beginning "Type" that names
 *     "Ops/sec" (the columns set apart by two or more blanks: "Avg.
 *     Latency", "p50 Latency", "p99.9 Latency", "KB/sec" ...), followed by
 *     a line of dashes and one row per command ("Sets", "Gets", "Waits",
 *     "Totals", ...), each with one value per column ("---": none). The
 *     title line before the "=====" line above it ("ALL STATS", "BEST RUN
 *     RESULTS", "RUN #2 RESULTS", ...) prefixes its ops as in the JSON file
 *     ("best:Sets"); a table without a title is "ALL STATS".
 *  2. Records (source "memtier", as memtier-json's): COW_REC_PCTL per "pNN
 *     Latency" value, q = NN, value in ms (memtier prints msec), t_us = 0,
 *     count 0 (stdout does not say how many requests stand behind it);
 *     COW_REC_STAT "<op>:ops_per_sec", "<op>:avg_latency_us",
 *     "<op>:kb_per_sec". An old table with a single "Latency" column (an
 *     average) gives its ops/sec and KB/sec only, with a note.
 *  3. Everything else (the progress lines, the threads / connections /
 *     seconds block, the "Request Latency Distribution" histogram) is
 *     skipped and counted in a note; a file with no table is refused. A row
 *     whose value count differs from the header's, or whose value is not a
 *     number, is a reject with the reason. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats.h"
#include "mem.h"
#include "memtier_int.h"
#include "parser.h"
#include "num.h"
#include "text.h"

#define MX_COLS 24
#define MX_OP 96

typedef struct mcol {
    double q;       /* a percentile column's NN, else NAN */
    int what;       /* 1 ops/sec, 2 average latency, 3 KB/sec, 0 other */
} mcol;

typedef struct mx {
    cow_sink *k;
    cow_src *s;
    char *title;        /* the last line before a "=====" line, or NULL */
    char *pending;      /* the line before the current one, or NULL */
    char pfx[32];       /* the current table's op prefix */
    mcol col[MX_COLS];
    int ncol;           /* columns after Type; 0 outside a table */
    int dashes;         /* the dashes under the header were seen */
    int old_latency;    /* a single "Latency" column */
    long tables, rows, skipped, bad;
} mx;

/* The header's columns, set apart by two or more blanks. */
static int header(mx *m, const char *p, size_t n)
{
    size_t i = 0;
    int k = -1;

    m->ncol = 0;
    m->old_latency = 0;
    while (i < n) {
        size_t a, b;
        while (i < n && p[i] == ' ')
            i++;
        a = i;
        while (i < n && !(p[i] == ' ' && (i + 1 >= n || p[i + 1] == ' ')))
            i++;
        b = i;
        if (b == a)
            break;
        if (k++ < 0)
            continue; /* "Type" */
        if (m->ncol == MX_COLS)
            return -1;
        {
            mcol *c = &m->col[m->ncol++];
            const char *w = p + a;
            size_t len = b - a;
            c->q = NAN;
            c->what = 0;
            if (len == 7 && memcmp(w, "Ops/sec", 7) == 0)
                c->what = 1;
            else if ((len == 12 && memcmp(w, "Avg. Latency", 12) == 0))
                c->what = 2;
            else if (len == 7 && memcmp(w, "Latency", 7) == 0)
                m->old_latency = 1;
            else if (len == 6 && memcmp(w, "KB/sec", 6) == 0)
                c->what = 3;
            else if (len > 9 && w[0] == 'p' && memcmp(w + len - 8, " Latency", 8) == 0) {
                double q;
                if (num_parse_double(w + 1, len - 9, &q) && q > 0 && q <= 100)
                    c->q = q;
            }
        }
    }
    return m->ncol;
}

static int is_header(const char *p, size_t n)
{
    return n > 12 && memcmp(p, "Type ", 5) == 0 && !memchr(p, ',', n) &&
           text_find(p, n, "Ops/sec") != NULL;
}

static int all_of(const char *p, size_t n, char ch)
{
    size_t i;
    if (n < 10)
        return 0;
    for (i = 0; i < n; i++)
        if (p[i] != ch)
            return 0;
    return 1;
}

static int row(mx *m, const cow_line *ln, const char *p, size_t n, cow_err *e)
{
    const char *f[MX_COLS + 1];
    size_t len[MX_COLS + 1], i = 0;
    int k = 0, c, rc = COW_OK;
    char op[MX_OP];

    while (i < n && k <= MX_COLS) {
        while (i < n && p[i] == ' ')
            i++;
        if (i >= n)
            break;
        f[k] = p + i;
        while (i < n && p[i] != ' ')
            i++;
        len[k] = (size_t)(p + i - f[k]);
        k++;
    }
    if (i < n || k != m->ncol + 1)
        return m->bad++, sink_reject(m->k, ln->no, "not one value per column of the table's header",
                           ln->p, ln->n, e);
    snprintf(op, sizeof(op), "%s%.*s", m->pfx, (int)len[0], f[0]);
    for (c = 0; c < m->ncol && rc == COW_OK; c++) {
        double v;
        const mcol *col = &m->col[c];
        char key[MX_OP + 24];
        if (len[c + 1] == 3 && memcmp(f[c + 1], "---", 3) == 0)
            continue;
        if (!num_parse_double(f[c + 1], len[c + 1], &v) || !isfinite(v) || v < 0)
            return m->bad++, sink_reject(m->k, ln->no, "a value is neither a number >= 0 nor ---",
                               ln->p, ln->n, e);
        if (!isnan(col->q)) {
            cow_rec r;
            memset(&r, 0, sizeof(r));
            r.kind = COW_REC_PCTL;
            r.u.pctl.source = "memtier";
            r.u.pctl.op = op;
            r.u.pctl.q = col->q;
            r.u.pctl.value_us = v * 1000;
            r.u.pctl.line = ln->no;
            rc = sink_emit(m->k, &r, e);
        } else if (col->what) {
            static const char *const name[] = {"", "ops_per_sec", "avg_latency_us", "kb_per_sec"};
            static const char *const unit[] = {"", "ops/s", "us", "KB/s"};
            snprintf(key, sizeof(key), "%s:%s", op, name[col->what]);
            rc = sink_stat(m->k, 0, "memtier", key, NULL, col->what == 2 ? v * 1000 : v,
                           unit[col->what], ln->no, e);
        }
    }
    m->rows++;
    return rc;
}

static int take(mx *m, const cow_line *ln, cow_err *e)
{
    const char *p = ln->p;
    size_t n = ln->n;
    int rc = COW_OK;

    while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\r'))
        n--;
    if (is_header(p, n)) {
        char buf[32];
        const char *pfx = memtier_stats_prefix(m->title ? m->title : "ALL STATS", buf,
                                               sizeof(buf));
        if (header(m, p, n) <= 0) {
            m->ncol = 0;
            return sink_reject(m->k, ln->no, "a table header of more than 24 columns",
                               ln->p, ln->n, e);
        }
        snprintf(m->pfx, sizeof(m->pfx), "%s", pfx ? pfx : "");
        m->dashes = 0;
        m->tables++;
        free(m->title);
        m->title = NULL;
        if (m->old_latency)
            rc = sink_note(m->k, "latency", "an old table with a single Latency column "
                           "(an average, unit unstated): its ops/sec and KB/sec only", e);
        return rc;
    }
    if (all_of(p, n, '=')) {
        free(m->title);
        m->title = m->pending;
        m->pending = NULL;
        m->ncol = 0;
        return COW_OK;
    }
    if (m->ncol > 0 && !m->dashes && all_of(p, n, '-')) {
        m->dashes = 1;
        return COW_OK;
    }
    if (m->ncol > 0 && m->dashes) {
        if (n == 0) {
            m->ncol = 0;
            return COW_OK;
        }
        return row(m, ln, p, n, e);
    }
    {
        const char *t = p;
        size_t tn = n;
        text_trim(&t, &tn);
        free(m->pending);
        m->pending = xstrndup(t, tn);
    }
    if (n > 0)
        m->skipped++;
    return COW_OK;
}

static int parse(cow_src *s, const cow_parse_opts *o, cow_sink *k, cow_err *e)
{
    mx m;
    cow_line ln;
    int got, rc = COW_OK;
    long last = 0;
    char note[160];

    (void)o;
    memset(&m, 0, sizeof(m));
    m.k = k;
    m.s = s;
    while (rc == COW_OK && (got = src_next_line(s, &ln, e)) == 1) {
        last = ln.no;
        rc = take(&m, &ln, e);
    }
    free(m.title);
    free(m.pending);
    if (rc != COW_OK)
        return rc;
    if (got < 0)
        return e->code;
    if (m.rows == 0 || parser_too_many_rejects(m.rows, m.bad)) {
        cow_err_at(e, s->name, last > 0 ? last : 1, 0);
        if (m.rows > 0)
            return COW_FAIL(e, COW_EPARSE, "%ld of %ld table rows are not memtier rows: "
                            "is this really memtier_benchmark's report?", m.bad,
                            m.rows + m.bad);
        return COW_FAIL(e, COW_EPARSE, "no memtier stats table (a \"Type  Ops/sec ...\" "
                        "header with rows under it): not memtier_benchmark's report");
    }
    snprintf(note, sizeof(note), "%ld table%s, %ld rows; %ld other lines skipped "
             "(progress, settings, histogram)", m.tables, m.tables == 1 ? "" : "s", m.rows,
             m.skipped);
    return sink_note(k, "shape", note, e);
}

static int sniff(const char *fname, const char *head, size_t n)
{
    const char *p = head, *end = head + n;
    (void)fname;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (is_header(p, len) && text_find(p, len, "Latency") != NULL)
            return 85;
        p = nl ? nl + 1 : end;
    }
    return 0;
}

const cow_parser cow_parser_memtier_text = {
    "memtier-text",
    "memtier_benchmark's report on stdout: its stats tables (ops/sec, average and "
    "pNN latencies per command)",
    sniff, parse};
