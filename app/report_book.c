/* report_book.c -- one sheet per kind of result (see report_book.h). */
#include "report_book.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "facts.h"
#include "mem.h"
#include "outfile.h"
#include "pct.h"
#include "reported.h"
#include "runstats.h"
#include "strbuf.h"

/* Column spec of a sheet. */
typedef struct colspec {
    const char *name;   /* header */
    const char *unit;   /* or NULL */
    cow_colfmt fmt;     /* format class */
} colspec;

static cow_sheet *sheet(cow_workbook *wb, const char *name, const char *title,
                        const colspec *cols, size_t ncols, cow_err *e)
{
    cow_sheet *s = table_add_sheet(wb, name, title);
    size_t i;
    for (i = 0; i < ncols; i++)
        if (table_add_column(s, cols[i].name, cols[i].unit, cols[i].fmt, e) != COW_OK)
            return NULL;
    return s;
}

/* Cell setters that skip NaN (empty cell) and NULL text. */
static int num(cow_sheet *s, size_t r, size_t c, double v, cow_err *e)
{
    return isnan(v) || isinf(v) ? table_set_empty(s, r, c, e) : table_set_num(s, r, c, v, e);
}

static int txt(cow_sheet *s, size_t r, size_t c, const char *v, cow_err *e)
{
    return v ? table_set_text(s, r, c, v, e) : table_set_empty(s, r, c, e);
}

#define N(s) (sizeof(s) / sizeof((s)[0]))
#define TRY(x) do { int rc_ = (x); if (rc_ != COW_OK) return rc_; } while (0)

static const char *phase_label(const cow_result_set *rs, int idx)
{
    size_t i;
    for (i = 0; i < rs->nph; i++)
        if (rs->ph[i].idx == idx)
            return rs->ph[i].label;
    return "?";
}

static const char *phase_kind(const cow_result_set *rs, int idx)
{
    size_t i;
    for (i = 0; i < rs->nph; i++)
        if (rs->ph[i].idx == idx)
            return rs->ph[i].kind;
    return NULL;
}

/* The run's name with its mark beside it (answer.h app_answer_badge) when
 * the answers are given; caller frees. */
static char *run_name(const cow_run_row *r, size_t i, const app_answers *a)
{
    const char *badge = a != NULL && i < a->n && a->v[i].run_id == r->id
                            ? app_answer_badge(&a->v[i]) : NULL;
    return badge ? xasprintf("%s %s", r->label, badge) : xstrdup(r->label);
}

static int runs_sheet(cow_workbook *wb, const cow_run_row *rows, size_t n,
                      const app_answers *a, cow_err *e)
{
    static const colspec cols[] = {
        {"run", NULL, COW_COLFMT_TEXT}, {"scenario", NULL, COW_COLFMT_TEXT},
        {"mode", NULL, COW_COLFMT_TEXT}, {"host", NULL, COW_COLFMT_TEXT},
        {"trial", NULL, COW_COLFMT_INT}, {"files", NULL, COW_COLFMT_INT},
        {"samples", NULL, COW_COLFMT_INT}, {"rejected lines", NULL, COW_COLFMT_INT},
        {"events", NULL, COW_COLFMT_INT}, {"first sample", "UTC", COW_COLFMT_TIME_US},
        {"span", "s", COW_COLFMT_MS3}, {"phases", NULL, COW_COLFMT_TEXT}};
    cow_sheet *s = sheet(wb, "Runs", "Runs and what landed", cols, N(cols), e);
    size_t i;
    if (s == NULL)
        return e->code;
    for (i = 0; i < n; i++) {
        const cow_run_row *r = &rows[i];
        size_t k = table_add_row(s);
        char *name = run_name(r, i, a);
        int rc = txt(s, k, 0, name, e);
        free(name);
        TRY(rc);
        TRY(txt(s, k, 1, r->scenario, e));
        TRY(txt(s, k, 2, r->mode, e));
        TRY(txt(s, k, 3, r->host, e));
        TRY(r->trial >= 0 ? table_set_int(s, k, 4, r->trial, e) : table_set_empty(s, k, 4, e));
        TRY(table_set_int(s, k, 5, r->files, e));
        TRY(table_set_int(s, k, 6, r->samples, e));
        TRY(table_set_int(s, k, 7, r->rejected, e));
        TRY(table_set_int(s, k, 8, r->events, e));
        TRY(r->samples ? table_set_int(s, k, 9, r->t_first_us, e) : table_set_empty(s, k, 9, e));
        TRY(num(s, k, 10, r->samples ? (double)(r->t_last_us - r->t_first_us) / 1e6 : NAN, e));
        TRY(txt(s, k, 11, r->phases, e));
    }
    return COW_OK;
}

/* The percentiles percentile-only tools reported; only when some run has them. */
static int reported_sheet(cow_workbook *wb, cow_store *st, const cow_run_row *rows,
                          size_t n, cow_err *e)
{
    static const colspec cols[] = {
        {"run", NULL, COW_COLFMT_TEXT}, {"source", NULL, COW_COLFMT_TEXT},
        {"file", NULL, COW_COLFMT_TEXT}, {"op", NULL, COW_COLFMT_TEXT},
        {"percentile", NULL, COW_COLFMT_MS3}, {"value", "ms", COW_COLFMT_MS3},
        {"count", NULL, COW_COLFMT_INT}};
    cow_sheet *s = NULL;
    size_t i, j;
    int rc = COW_OK;

    for (i = 0; i < n && rc == COW_OK; i++) {
        app_reported rep;
        if ((rc = app_load_reported(st, rows[i].id, &rep, e)) != COW_OK)
            return rc;
        if (rep.n > 0 && s == NULL &&
            (s = sheet(wb, "Reported", "Percentiles as the benchmark tools reported "
                       "them (no samples behind them here: no intervals)", cols,
                       N(cols), e)) == NULL)
            rc = e->code;
        for (j = 0; j < rep.n && rc == COW_OK; j++) {
            const cow_pctl_row *p = &rep.v[j];
            size_t k = table_add_row(s);
            if ((rc = txt(s, k, 0, rows[i].label, e)) == COW_OK &&
                (rc = txt(s, k, 1, p->source, e)) == COW_OK &&
                (rc = txt(s, k, 2, p->file, e)) == COW_OK &&
                (rc = txt(s, k, 3, p->op[0] ? p->op : NULL, e)) == COW_OK &&
                (rc = num(s, k, 4, p->q, e)) == COW_OK &&
                (rc = num(s, k, 5, p->value_us / 1000, e)) == COW_OK)
                rc = p->count > 0 ? table_set_int(s, k, 6, p->count, e)
                                  : table_set_empty(s, k, 6, e);
        }
        app_reported_release(&rep);
    }
    return rc;
}

static int phases_sheets(cow_workbook *wb, cow_store *st, const cow_run_row *rows,
                         size_t n, cow_err *e)
{
    static const colspec pc[] = {
        {"run", NULL, COW_COLFMT_TEXT}, {"phase", NULL, COW_COLFMT_TEXT},
        {"kind", NULL, COW_COLFMT_TEXT}, {"start", "UTC", COW_COLFMT_TIME_US},
        {"end", "UTC", COW_COLFMT_TIME_US}, {"length", "s", COW_COLFMT_MS3},
        {"from", NULL, COW_COLFMT_TEXT}, {"overlap", NULL, COW_COLFMT_TEXT},
        {"open", NULL, COW_COLFMT_TEXT}, {"samples", NULL, COW_COLFMT_INT},
        {"mean", "ms", COW_COLFMT_MS3}, {"max", "ms", COW_COLFMT_MS3}};
    static const colspec qc[] = {
        {"run / phase", NULL, COW_COLFMT_TEXT}, {"samples", NULL, COW_COLFMT_INT},
        {"p50", "ms", COW_COLFMT_MS3}, {"p90", "ms", COW_COLFMT_MS3},
        {"p99", "ms", COW_COLFMT_MS3}, {"p99.9", "ms", COW_COLFMT_MS3},
        {"p99.99", "ms", COW_COLFMT_MS3}, {"max", "ms", COW_COLFMT_MS3},
        {"p99 95% lo", "ms", COW_COLFMT_MS3}, {"p99 95% hi", "ms", COW_COLFMT_MS3},
        {"p99.9 95% lo", "ms", COW_COLFMT_MS3}, {"p99.9 95% hi", "ms", COW_COLFMT_MS3},
        {"thin quantiles", NULL, COW_COLFMT_TEXT}, {"p99.9 as read", "ms", COW_COLFMT_TEXT}};
    static const colspec dc[] = {
        {"run", NULL, COW_COLFMT_TEXT}, {"phase", NULL, COW_COLFMT_TEXT},
        {"baseline", NULL, COW_COLFMT_TEXT}, {"quantile", NULL, COW_COLFMT_TEXT},
        {"baseline", "ms", COW_COLFMT_MS3}, {"phase", "ms", COW_COLFMT_MS3},
        {"delta", "ms", COW_COLFMT_MS3}, {"95% lo", "ms", COW_COLFMT_MS3},
        {"95% hi", "ms", COW_COLFMT_MS3}, {"ratio", NULL, COW_COLFMT_MS3},
        {"verdict", NULL, COW_COLFMT_TEXT}, {"thin tail", NULL, COW_COLFMT_TEXT},
        {"method", NULL, COW_COLFMT_TEXT}};
    static const char *const qn[] = {"p50", "p90", "p99", "p99.9", "p99.99"};
    static const double qv[] = {0.5, 0.9, 0.99, 0.999, 0.9999};
    cow_sheet *ps = sheet(wb, "Phases", "Windows cut from the server log or INFO polls",
                          pc, N(pc), e);
    cow_sheet *qs = ps ? sheet(wb, "Percentiles", "Quantiles per phase (ms): the "
                               "estimate, and its 95% bounds where this n allows them "
                               "(an empty hi: no upper bound)",
                               qc, N(qc), e) : NULL;
    cow_sheet *ds = qs ? sheet(wb, "Deltas", "Each window against the baseline "
                               "(95% lo/hi: a bootstrap interval, or the one bound "
                               "of the exact tail test; column method says which)", dc, N(dc), e) : NULL;
    cow_sheet_chart ch;
    size_t i, j, l;

    if (ds == NULL)
        return e->code;
    for (i = 0; i < n; i++) {
        cow_result_set rs;
        size_t lq = 0;
        TRY(store_load_results(st, rows[i].id, &rs, e));
        for (j = 0; j < rs.nph; j++) {
            const cow_phase_row *p = &rs.ph[j];
            size_t k = table_add_row(ps), kq = table_add_row(qs);
            char *name, thin[64] = "";
            double v[5], lo99 = NAN, hi99 = NAN, lo999 = NAN, hi999 = NAN;
            cow_quant q999 = quant_make(0.999, NAN, NAN, NAN, p->n, NAN);
            char shown[COW_QUANT_FMT_MAX];
            TRY(txt(ps, k, 0, rows[i].label, e));
            TRY(txt(ps, k, 1, p->label, e));
            TRY(txt(ps, k, 2, p->kind, e));
            TRY(table_set_int(ps, k, 3, p->t0_us, e));
            TRY(table_set_int(ps, k, 4, p->t1_us, e));
            TRY(num(ps, k, 5, (double)(p->t1_us - p->t0_us) / 1e6, e));
            TRY(txt(ps, k, 6, p->source, e));
            TRY(txt(ps, k, 7, p->overlap ? "yes" : "", e));
            TRY(txt(ps, k, 8, p->open ? "yes" : "", e));
            TRY(table_set_int(ps, k, 9, p->n, e));
            TRY(num(ps, k, 10, p->mean_us / 1000, e));
            TRY(num(ps, k, 11, p->max_us / 1000, e));
            for (l = 0; l < 5; l++)
                v[l] = NAN;
            /* quantile rows come grouped by phase: start where the last
             * phase's ended (linear in phases), else scan them all */
            if (lq >= rs.nq || rs.q[lq].phase != p->idx)
                lq = 0;
            while (lq < rs.nq && rs.q[lq].phase != p->idx)
                lq++;
            for (l = lq; l < rs.nq && rs.q[l].phase == p->idx; l++, lq++) {
                const cow_quantile_row *q = &rs.q[l];
                size_t m;
                for (m = 0; m < 5; m++)
                    if (fabs(q->q - qv[m]) < 1e-9) {
                        /* the estimate always; its bounds beside it (an
                         * empty hi: no finite upper bound) */
                        v[m] = q->value_us;
                        if (q->thin) {
                            size_t used = strlen(thin);
                            snprintf(thin + used, sizeof(thin) - used, "%s%s",
                                     used ? " " : "", qn[m]);
                        }
                        if (m == 2) {
                            lo99 = q->lo_us;
                            hi99 = q->hi_us;
                        }
                        if (m == 3) {
                            lo999 = q->lo_us;
                            hi999 = q->hi_us;
                            q999 = app_quant_row(q, p->n);
                        }
                    }
            }
            int rc_name;
            name = xasprintf("%s / %s", rows[i].label, p->label);
            rc_name = txt(qs, kq, 0, name, e);
            free(name);
            TRY(rc_name);
            TRY(table_set_int(qs, kq, 1, p->n, e));
            for (l = 0; l < 5; l++)
                TRY(num(qs, kq, 2 + l, v[l] / 1000, e));
            TRY(num(qs, kq, 7, p->max_us / 1000, e));
            TRY(num(qs, kq, 8, lo99 / 1000, e));
            TRY(num(qs, kq, 9, hi99 / 1000, e));
            TRY(num(qs, kq, 10, lo999 / 1000, e));
            TRY(num(qs, kq, 11, hi999 / 1000, e));
            TRY(txt(qs, kq, 12, thin, e));
            TRY(txt(qs, kq, 13, quant_format(&q999, 0, shown, sizeof(shown)), e));
        }
        for (j = 0; j < rs.nd; j++) {
            const cow_delta_row *d = &rs.d[j];
            size_t k = table_add_row(ds);
            char q[16];
            snprintf(q, sizeof(q), "p%g", d->q * 100);
            TRY(txt(ds, k, 0, rows[i].label, e));
            TRY(txt(ds, k, 1, phase_label(&rs, d->phase), e));
            TRY(txt(ds, k, 2, phase_label(&rs, d->base), e));
            TRY(txt(ds, k, 3, q, e));
            TRY(num(ds, k, 4, d->base_us / 1000, e));
            TRY(num(ds, k, 5, d->value_us / 1000, e));
            TRY(num(ds, k, 6, d->delta_us / 1000, e));
            TRY(num(ds, k, 7, d->lo_us / 1000, e));
            TRY(num(ds, k, 8, d->hi_us / 1000, e));
            TRY(num(ds, k, 9, d->ratio, e));
            TRY(txt(ds, k, 10, app_verdict_shown(d->verdict), e));
            TRY(txt(ds, k, 11, d->thin ? "yes" : "", e));
            TRY(txt(ds, k, 12, app_delta_method(d), e));
        }
        store_free_results(&rs);
    }
    memset(&ch, 0, sizeof(ch));
    ch.kind = COW_SHEET_CHART_COLUMN;
    ch.title = "p50 / p90 / p99 / p99.9 per phase: the estimates (column 'thin "
               "quantiles' names those with too few samples beyond them)";
    ch.x_title = "run / phase";
    ch.y_title = "latency (ms)";
    ch.x_col = 0;
    ch.first_col = 2;
    ch.last_col = 5;
    return qs->nrows > 0 ? table_set_chart(qs, &ch, e) : COW_OK;
}

static int tradeoff_sheet(cow_workbook *wb, const cow_tradeoff *t, cow_err *e)
{
    static const colspec cols[] = {
        {"metric", NULL, COW_COLFMT_TEXT}, {"mode", NULL, COW_COLFMT_TEXT},
        {"trials", NULL, COW_COLFMT_INT}, {"mean", NULL, COW_COLFMT_MS3},
        {"95% lo", NULL, COW_COLFMT_MS3}, {"95% hi", NULL, COW_COLFMT_MS3},
        {"min", NULL, COW_COLFMT_MS3}, {"max", NULL, COW_COLFMT_MS3},
        {"ratio to first mode", NULL, COW_COLFMT_MS3}, {"ratio 95% lo", NULL, COW_COLFMT_MS3},
        {"ratio 95% hi", NULL, COW_COLFMT_MS3}};
    cow_sheet *s = sheet(wb, "Trade-off", "Modes over trials (run.json mode)", cols,
                         N(cols), e);
    size_t g;
    int m;
    if (s == NULL)
        return e->code;
    for (m = 0; m < COW_TM_COUNT; m++)
        for (g = 0; g < t->ngroups; g++) {
            const cow_trade_stat *x = &t->g[g].m[m];
            size_t k = table_add_row(s);
            int is_b = t->a >= 0 && (int)g == t->b;
            TRY(txt(s, k, 0, tradeoff_metric_label(m), e));
            TRY(txt(s, k, 1, t->g[g].mode, e));
            TRY(table_set_int(s, k, 2, (int64_t)x->n, e));
            TRY(num(s, k, 3, x->mean, e));
            TRY(num(s, k, 4, x->lo, e));
            TRY(num(s, k, 5, x->hi, e));
            TRY(num(s, k, 6, x->min, e));
            TRY(num(s, k, 7, x->max, e));
            TRY(num(s, k, 8, is_b ? t->ratio[m].ratio : NAN, e));
            TRY(num(s, k, 9, is_b ? t->ratio[m].lo : NAN, e));
            TRY(num(s, k, 10, is_b ? t->ratio[m].hi : NAN, e));
        }
    return COW_OK;
}

/* "samples/a/info.txt:11224" -> file and line; "analysis" -> itself, 0.
 * The file is the caller's to free. */
static char *split_source(const char *src, long *line)
{
    const char *colon = src ? strrchr(src, ':') : NULL;
    char *file = xstrdup(src ? src : ""), *end;
    long v;
    *line = 0;
    if (colon == NULL || colon[1] == '\0')
        return file;
    v = strtol(colon + 1, &end, 10);
    if (*end != '\0' || v <= 0)
        return file;
    *line = v;
    file[colon - src] = '\0';
    return file;
}

/* The (rule, recommendation) pairs the Findings sheet has written, each
 * with its table row. */
typedef struct advice_set {
    char **v;
    size_t *row;
    size_t n, cap;
} advice_set;

/* The table row that already holds rule's rec, or (remembering row for it)
 * SIZE_MAX when none does. */
static size_t advice_seen(advice_set *a, const char *rule, const char *rec, size_t row)
{
    cow_sbuf b = {0};
    size_t i;
    sbuf_add(&b, "%s\n%s", rule ? rule : "", rec);
    for (i = 0; i < a->n; i++)
        if (strcmp(a->v[i], b.s) == 0) {
            free(b.s);
            return a->row[i];
        }
    if (a->n == a->cap) {
        a->cap = a->cap ? 2 * a->cap : 32;
        a->v = xrealloc(a->v, a->cap * sizeof(*a->v));
        a->row = xrealloc(a->row, a->cap * sizeof(*a->row));
    }
    a->row[a->n] = row;
    a->v[a->n++] = sbuf_take(&b);
    return SIZE_MAX;
}

/* Cell (row, col) says the text is the one of table row first. */
static int same_as_row(cow_sheet *s, size_t row, size_t col, size_t first, cow_err *e)
{
    char *same = xasprintf("as in row %zu", table_sheet_row(s, first));
    int rc = txt(s, row, col, same, e);
    free(same);
    return rc;
}

static void advice_release(advice_set *a)
{
    size_t i;
    for (i = 0; i < a->n; i++)
        free(a->v[i]);
    free(a->v);
    free(a->row);
}

/* One run's findings into s and their evidence into es; a recommendation
 * the sheet already holds for the same rule is said once (it repeats per
 * run, and printed it was a third of the sheet's pages). */
static int findings_of_run(cow_sheet *s, cow_sheet *es, cow_store *st, const cow_run_row *run,
                           advice_set *seen, cow_err *e)
{
    cow_finding_row *f;
    size_t nf, j;
    cJSON *root = NULL;
    TRY(store_load_findings(st, run->id, &f, &nf, e));
#define TRYF(x)                                                                            \
    do {                                                                                   \
        int rc_ = (x);                                                                     \
        if (rc_ != COW_OK) {                                                               \
            cJSON_Delete(root);                                                            \
            store_free_findings(f, nf);                                                    \
            return rc_;                                                                    \
        }                                                                                  \
    } while (0)
    for (j = 0; j < nf; j++) {
        size_t k = table_add_row(s), first;
        cJSON *it;
        int64_t nev = 0;
        root = f[j].evidence ? cJSON_Parse(f[j].evidence) : NULL;
        if (!cJSON_IsArray(root)) { /* not the doctor's list: no rows */
            cJSON_Delete(root);
            root = NULL;
        }
        cJSON_ArrayForEach(it, root) {
            const char *src = cJSON_GetStringValue(
                cJSON_GetObjectItemCaseSensitive(it, "source"));
            long line;
            size_t r = table_add_row(es);
            char *file;
            int rc_file;
            TRYF(txt(es, r, 0, run->label, e));
            TRYF(txt(es, r, 1, f[j].rule, e));
            TRYF(txt(es, r, 2, cJSON_GetStringValue(
                                  cJSON_GetObjectItemCaseSensitive(it, "metric")), e));
            TRYF(txt(es, r, 3, cJSON_GetStringValue(
                                  cJSON_GetObjectItemCaseSensitive(it, "value")), e));
            file = split_source(src, &line);
            rc_file = txt(es, r, 4, file, e);
            free(file);
            TRYF(rc_file);
            if (line > 0)
                TRYF(table_set_int(es, r, 5, line, e));
            nev++;
        }
        cJSON_Delete(root);
        root = NULL;
        TRYF(txt(s, k, 0, run->label, e));
        TRYF(txt(s, k, 1, f[j].severity, e));
        TRYF(txt(s, k, 2, f[j].rule, e));
        TRYF(txt(s, k, 3, f[j].title, e));
        TRYF(table_set_int(s, k, 4, nev, e));
        if (f[j].recommendation != NULL &&
            (first = advice_seen(seen, f[j].rule, f[j].recommendation, k)) != SIZE_MAX) {
            TRYF(same_as_row(s, k, 5, first, e));
        } else
            TRYF(txt(s, k, 5, f[j].recommendation, e));
    }
    store_free_findings(f, nf);
    return COW_OK;
#undef TRYF
}

/* Findings, one row each, and their evidence, one row per piece: rule,
 * metric, value and the file and line it came from (the doctor's JSON
 * taken apart, so it filters and prints as a table). */
static int findings_sheet(cow_workbook *wb, cow_store *st, const cow_run_row *rows,
                          size_t n, cow_err *e)
{
    static const colspec cols[] = {
        {"run", NULL, COW_COLFMT_TEXT}, {"severity", NULL, COW_COLFMT_TEXT},
        {"rule", NULL, COW_COLFMT_TEXT}, {"finding", NULL, COW_COLFMT_TEXT},
        {"evidence", NULL, COW_COLFMT_INT}, {"recommendation", NULL, COW_COLFMT_TEXT}};
    static const colspec ecols[] = {
        {"run", NULL, COW_COLFMT_TEXT}, {"rule", NULL, COW_COLFMT_TEXT},
        {"metric", NULL, COW_COLFMT_TEXT}, {"value", NULL, COW_COLFMT_TEXT},
        {"file", NULL, COW_COLFMT_TEXT}, {"line", NULL, COW_COLFMT_INT}};
    cow_sheet *s = sheet(wb, "Findings", "What cowtail doctor concluded (evidence: sheet "
                         "Evidence)", cols, N(cols), e);
    cow_sheet *es = s ? sheet(wb, "Evidence", "The evidence of each finding: the value "
                              "and the file and line it came from", ecols, N(ecols), e)
                      : NULL;
    advice_set seen = {0};
    size_t i;
    int rc = COW_OK;
    if (es == NULL)
        return e->code;
    for (i = 0; i < n && rc == COW_OK; i++)
        rc = findings_of_run(s, es, st, &rows[i], &seen, e);
    advice_release(&seen);
    return rc;
}

/* One log event as a row; a text of EVENT_TEXT_ONCE bytes or more that an
 * earlier row holds for the same kind is given as that row (the overcommit
 * warning alone, six printed lines, repeated in every run of the samples:
 * a third of the sheet's printed pages). */
#define EVENT_TEXT_ONCE 80
static int event_row(cow_sheet *s, const cow_run_row *run, const cow_event *v, advice_set *seen,
                     cow_err *e)
{
    size_t k = table_add_row(s), first = SIZE_MAX;
    TRY(txt(s, k, 0, run->label, e));
    TRY(table_set_int(s, k, 1, v->t_us, e));
    TRY(txt(s, k, 2, v->kind, e));
    TRY(v->pid ? table_set_int(s, k, 3, v->pid, e) : table_set_empty(s, k, 3, e));
    TRY(num(s, k, 4, v->value, e));
    TRY(txt(s, k, 5, v->unit, e));
    if (v->text != NULL && strlen(v->text) >= EVENT_TEXT_ONCE)
        first = advice_seen(seen, v->kind, v->text, k);
    return first != SIZE_MAX ? same_as_row(s, k, 6, first, e) : txt(s, k, 6, v->text, e);
}

static int events_sheet(cow_workbook *wb, cow_store *st, const cow_run_row *rows,
                        size_t n, cow_err *e)
{
    static const colspec cols[] = {
        {"run", NULL, COW_COLFMT_TEXT}, {"time", "UTC", COW_COLFMT_TIME_US},
        {"event", NULL, COW_COLFMT_TEXT}, {"pid", NULL, COW_COLFMT_INT},
        {"value", NULL, COW_COLFMT_MS3}, {"unit", NULL, COW_COLFMT_TEXT},
        {"log text", NULL, COW_COLFMT_TEXT}};
    cow_sheet *s = sheet(wb, "Events", "Server log events (a long log text the sheet "
                         "already holds for the same event: \"as in row N\")", cols, N(cols), e);
    advice_set seen = {0};
    size_t i, j;
    int rc = COW_OK;
    if (s == NULL)
        return e->code;
    for (i = 0; i < n && rc == COW_OK; i++) {
        cow_event_set ev;
        if ((rc = store_load_events(st, rows[i].id, &ev, e)) != COW_OK)
            break;
        for (j = 0; j < ev.n && rc == COW_OK; j++)
            rc = event_row(s, &rows[i], &ev.v[j], &seen, e);
        store_free_events(&ev);
    }
    advice_release(&seen);
    return rc;
}

static int summary_sheet(cow_workbook *wb, cow_store *st, const cow_run_row *rows,
                         size_t n, cow_err *e)
{
    static const colspec cols[] = {
        {"run", NULL, COW_COLFMT_TEXT}, {"scenario", NULL, COW_COLFMT_TEXT},
        {"worst window", NULL, COW_COLFMT_TEXT}, {"n baseline", NULL, COW_COLFMT_INT},
        {"n window", NULL, COW_COLFMT_INT}, {"p50 delta", "ms", COW_COLFMT_MS3},
        {"p99 delta", "ms", COW_COLFMT_MS3}, {"p99.9 delta", "ms", COW_COLFMT_MS3},
        {"p99.9 95% lo", "ms", COW_COLFMT_MS3}, {"p99.9 95% hi", "ms", COW_COLFMT_MS3},
        {"p99.9 verdict", NULL, COW_COLFMT_TEXT}, {"warnings", NULL, COW_COLFMT_INT},
        {"critical", NULL, COW_COLFMT_INT}};
    cow_sheet *s = sheet(wb, "Summary", "cowtail report: the worst window of each run "
                         "against its baseline", cols, N(cols), e);
    size_t i, j;
    if (s == NULL)
        return e->code;
    for (i = 0; i < n; i++) {
        cow_result_set rs;
        cow_finding_row *f;
        size_t nf, k = table_add_row(s);
        int best = -1, warn = 0, crit = 0;
        double bestd = -INFINITY;
        TRY(store_load_results(st, rows[i].id, &rs, e));
        for (j = 0; j < rs.nd; j++)
            if (fabs(rs.d[j].q - 0.999) < 1e-9 && rs.d[j].delta_us > bestd &&
                phase_kind_from_name(phase_kind(&rs, rs.d[j].phase)) != COW_PHASE_AFTER) {
                bestd = rs.d[j].delta_us;
                best = rs.d[j].phase;
            }
        TRY(txt(s, k, 0, rows[i].label, e));
        TRY(txt(s, k, 1, rows[i].scenario, e));
        TRY(txt(s, k, 2, best >= 0 ? phase_label(&rs, best) : "(no window)", e));
        for (j = 0; j < rs.nd && best >= 0; j++) {
            const cow_delta_row *d = &rs.d[j];
            size_t m;
            if (d->phase != best)
                continue;
            for (m = 0; m < rs.nph; m++) {
                if (rs.ph[m].idx == d->base)
                    TRY(table_set_int(s, k, 3, rs.ph[m].n, e));
                if (rs.ph[m].idx == d->phase)
                    TRY(table_set_int(s, k, 4, rs.ph[m].n, e));
            }
            if (fabs(d->q - 0.5) < 1e-9)
                TRY(num(s, k, 5, d->delta_us / 1000, e));
            if (fabs(d->q - 0.99) < 1e-9)
                TRY(num(s, k, 6, d->delta_us / 1000, e));
            if (fabs(d->q - 0.999) < 1e-9) {
                TRY(num(s, k, 7, d->delta_us / 1000, e));
                TRY(num(s, k, 8, d->lo_us / 1000, e));
                TRY(num(s, k, 9, d->hi_us / 1000, e));
                TRY(txt(s, k, 10, app_verdict_shown(d->verdict), e));
            }
        }
        store_free_results(&rs);
        TRY(store_load_findings(st, rows[i].id, &f, &nf, e));
        for (j = 0; j < nf; j++) {
            warn += strcmp(f[j].severity, "warning") == 0;
            crit += strcmp(f[j].severity, "critical") == 0;
        }
        store_free_findings(f, nf);
        TRY(table_set_int(s, k, 11, warn, e));
        TRY(table_set_int(s, k, 12, crit, e));
    }
    return COW_OK;
}

/* The Charts sheet prints one chart to a landscape A4 page (xlsx.c breaks
 * the page above each) at CHART_SCALE of its 1600 px (about 10.4 in at 96
 * dpi, its 15 px ticks about 7 pt): CHART_ROWS rows each (585 px at 20 px
 * rows, with its caption and a gap). At most CHARTS_RUNS runs' timelines,
 * the answer's most severe first, keep the printout near 40 pages; the
 * others are in index.html and beside the workbook as PNG files. */
#define CHART_SCALE 0.65
#define CHART_ROWS 31
#define CHARTS_RUNS 4

/* 1 when the run of chart c is among the first CHARTS_RUNS the answer
 * lists (answers NULL, or no more runs than that: every run). */
static int listed(const report_chart *c, const app_answers *a)
{
    size_t k;
    if (a == NULL || a->n <= CHARTS_RUNS)
        return 1;
    for (k = 0; k < a->nsay && k < CHARTS_RUNS; k++)
        if (a->v[a->order[k]].run_id == c->run)
            return 1;
    return 0;
}

/* The charts the workbook carries: those across runs and the timelines of
 * the runs the answer lists first. */
static int in_book(const report_chart *c, const app_answers *a)
{
    return c->file[0] && (c->run == 0 || (strcmp(c->kind, "timeline") == 0 && listed(c, a)));
}

static int charts_sheet(cow_workbook *wb, const report_chart *charts, size_t n,
                        const app_answers *a, const char *dir, cow_err *e)
{
    cow_sheet *s;
    size_t i, row = 1;
    int rc;

    for (i = 0; i < n && !in_book(&charts[i], a); i++)
        ;
    if (i == n)
        return COW_OK;
    s = table_add_sheet(wb, "Charts", NULL);
    s->freeze_header = false;
    s->autofilter = false;
    for (i = 0; i < n; i++) {
        char *path;
        if (!in_book(&charts[i], a))
            continue;
        path = outfile_join(dir, charts[i].file);
        rc = table_add_image(s, path, row, 0, CHART_SCALE, charts[i].title, e);
        free(path);
        if (rc != COW_OK)
            return rc;
        row += CHART_ROWS;
    }
    return COW_OK;
}

/* The seed tables' shape: per scenario, whole runs pooled, p50 / p99 /
 * p99.9 with n: the estimates, and p99.9's lower bound beside them when it
 * has no finite 95% interval. */
static int scenarios_sheet(cow_workbook *wb, cow_store *st, const cow_run_row *rows,
                           size_t n, cow_err *e)
{
    static const colspec cols[] = {
        {"scenario", NULL, COW_COLFMT_TEXT}, {"runs", NULL, COW_COLFMT_INT},
        {"samples", NULL, COW_COLFMT_INT}, {"p50", "ms", COW_COLFMT_MS3},
        {"p99", "ms", COW_COLFMT_MS3}, {"p99.9", "ms", COW_COLFMT_MS3},
        {"p99.9 at least", "ms", COW_COLFMT_MS3}, {"max", "ms", COW_COLFMT_MS3}};
    static const double qs[3] = {0.5, 0.99, 0.999};
    cow_sheet *s = sheet(wb, "Scenarios", "Per scenario (and mode and host), whole runs "
                         "pooled, as in the seed tables: the estimates; p99.9 at least = "
                         "its lower 95% bound where too few samples give an upper one",
                         cols, N(cols), e);
    size_t i, j;
    if (s == NULL)
        return e->code;
    for (i = 0; i < n; i++) {
        double *v;
        size_t m, k, l;
        int runs, seen = 0;
        if (rows[i].scenario == NULL || rows[i].samples == 0)
            continue;
        for (j = 0; j < i; j++)
            seen |= facts_same_group(&rows[j], &rows[i]);
        if (seen)
            continue;
        double val[3], least = NAN, max;
        TRY(facts_pool_group(st, rows, n, &rows[i], &v, &m, &runs, e));
        for (l = 0; l < 3; l++) {
            cow_qci ci;
            if (pct_quantile_ci(v, m, qs[l], 0.95, &ci, e) != COW_OK) {
                free(v);
                return e->code;
            }
            val[l] = ci.est / 1000;
            if (l == 2 && !ci.has_hi && ci.has_lo)
                least = ci.lo / 1000;
        }
        max = m ? v[m - 1] / 1000 : NAN;
        free(v);
        k = table_add_row(s);
        {
            char *name = facts_group_name(&rows[i]);
            int rc_name = txt(s, k, 0, name, e);
            free(name);
            TRY(rc_name);
        }
        TRY(table_set_int(s, k, 1, runs, e));
        TRY(table_set_int(s, k, 2, (int64_t)m, e));
        for (l = 0; l < 3; l++)
            TRY(num(s, k, 3 + l, val[l], e));
        TRY(num(s, k, 6, least, e));
        TRY(num(s, k, 7, max, e));
    }
    return COW_OK;
}

int report_book_build(cow_store *st, const cow_run_row *rows, size_t n,
                      const cow_tradeoff *t, int64_t created_s,
                      const report_chart *charts, size_t ncharts,
                      const app_answers *answers, const char *dir, cow_workbook **out,
                      cow_err *e)
{
    cow_workbook *wb = table_book_new(created_s);
    int rc;

    if ((rc = summary_sheet(wb, st, rows, n, e)) != COW_OK ||
        (rc = scenarios_sheet(wb, st, rows, n, e)) != COW_OK ||
        (rc = runs_sheet(wb, rows, n, answers, e)) != COW_OK ||
        (rc = phases_sheets(wb, st, rows, n, e)) != COW_OK ||
        (rc = reported_sheet(wb, st, rows, n, e)) != COW_OK ||
        (t && t->ngroups > 0 && (rc = tradeoff_sheet(wb, t, e)) != COW_OK) ||
        (rc = findings_sheet(wb, st, rows, n, e)) != COW_OK ||
        (rc = events_sheet(wb, st, rows, n, e)) != COW_OK ||
        (rc = charts_sheet(wb, charts, ncharts, answers, dir, e)) != COW_OK) {
        table_book_free(wb);
        return rc;
    }
    *out = wb;
    return COW_OK;
}
