/* report_doc.c -- the report's document, decided once (report_doc.h).
 *
 * Every cell of the answer table is decided here, from the answers
 * (answer.h) and the stored results; the three renderers of report/doc.c
 * only lay the cells out. The numbers of one row read against each other:
 *   - the p99.9 before the arrow is the reference its delta was taken
 *     against (the baseline on both sides of the window, when the verdict
 *     used that one), so before + delta = during;
 *   - "N of M beyond X" counts the window's samples beyond the p99 printed
 *     before the arrow of the same row, X itself;
 *   - a lower bound below the baseline's median tells nothing about a
 *     tail: it is printed "not bounded", never as if it bounded anything. */
#include "report_doc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "facts.h"
#include "html.h"
#include "mem.h"
#include "quant.h"
#include "strbuf.h"
#include "timeconv.h"

static const char *const answer_head[RDOC_NCOLS] = {
    "run", "event, when", "p99 before \u2192 during (ms)", "p99.9 before \u2192 during (ms)",
    "verdict (p99.9 delta, ms)", "#longest stall", "throughput before \u2192 during",
    "slower than p99 before", "cause", "gate", "do"};

/* ------------------------------------------------------------ anchors */

char *report_doc_anchor(const report_summary_in *in, size_t i)
{
    char **ids = xcalloc(i + 1, sizeof(*ids)), *out;
    size_t k, j;
    for (k = 0; k <= i; k++) {
        char *base = html_anchor("run", in->rows[k].label);
        unsigned suffix = 2;
        int taken;
        ids[k] = xstrdup(base);
        do { /* labels "a b" and "a/b" share a stem: the later one gets -2 */
            taken = 0;
            for (j = 0; j < k && !taken; j++)
                taken = strcmp(ids[j], ids[k]) == 0;
            if (taken) {
                free(ids[k]);
                ids[k] = xasprintf("%s-%u", base, suffix++);
            }
        } while (taken);
        free(base);
    }
    out = ids[i];
    for (k = 0; k < i; k++)
        free(ids[k]);
    free(ids);
    return out;
}

char *report_png_stem(const char *file)
{
    size_t k = strlen(file);

    if (k > 4 && strcmp(file + k - 4, ".png") == 0)
        k -= 4;
    return xstrndup(file, k);
}

/* ------------------------------------------------------------ numbers */

/* What to do, short: the advice's first clause (up to ": "). */
static char *short_do(const char *todo)
{
    const char *c;
    if (todo == NULL)
        return NULL;
    c = strstr(todo, ": ");
    return c ? xstrndup(todo, (size_t)(c - todo)) : xstrdup(todo);
}

/* ------------------------------------------------------------ one row */

static void cells_window(cow_doc_table *t, size_t row, const app_answer *a,
                         const cow_result_set *rs, const cow_delta_row *d,
                         report_doc_impact *x)
{
    const cow_phase_row *b = store_result_phase(rs, d->base), *w = store_result_phase(rs, d->phase);
    double floor_us = app_floor_us(rs);
    cow_quant bq = app_quant_row(store_result_quantile(rs, d->base, 0.99), b ? b->n : -1);
    cow_quant wq = app_quant_row(store_result_quantile(rs, d->phase, 0.99), w ? w->n : -1);
    char q1[COW_QUANT_FMT_MAX], q2[COW_QUANT_FMT_MAX], q3[COW_QUANT_FMT_MAX];
    cow_sbuf s = {0};
    char *v;

    quant_floor(&bq, floor_us);
    quant_floor(&wq, floor_us);
    doc_table_setf(t, row, RDOC_P99, "%s \u2192 %s", quant_format(&bq, 0, q1, sizeof(q1)),
                   quant_format(&wq, 0, q2, sizeof(q2)));
    /* the delta's own reference before the arrow: before + delta = during */
    doc_table_setf(t, row, RDOC_P999, "%s \u2192 %s", app_answer_base_cell(a, q1, sizeof(q1)),
                   quant_format(&a->win, 0, q2, sizeof(q2)));
    sbuf_add(&s, "%s %s", app_verdict_shown(d->verdict),
             app_answer_delta_cell(a, q3, sizeof(q3)));
    if (a->shown_in != NULL || a->shown_finding != NULL) {
        char *sh = app_answer_shown(a); /* a finding's title up to its ": " */
        const char *c = a->shown_in == NULL ? strstr(sh, ": ") : NULL;
        sbuf_add(&s, "; %.*s", c ? (int)(c - sh) : (int)strlen(sh), sh);
        free(sh);
    }
    v = sbuf_take(&s);
    doc_table_set(t, row, RDOC_VERDICT, v, NULL);
    free(v);
    if (!isnan(x->stall_ms))
        doc_table_setf(t, row, RDOC_STALL, "%.1f ms", x->stall_ms);
    if (!isnan(x->tput_before)) {
        char *tp = app_impact_tput_text(x, "\u2192");
        doc_table_set(t, row, RDOC_TPUT, tp, NULL);
        free(tp);
    } else
        doc_table_set(t, row, RDOC_TPUT, "not measured", NULL);
    if (x->n > 0 && !isnan(x->base_p99_ms))
        doc_table_setf(t, row, RDOC_SLOW, "%lld of %lld beyond %.3f", x->slow, x->n,
                       x->base_p99_ms);
}

static const char *gate_cell(const app_answer *a, char *buf, size_t n)
{
    if (a->gate == APP_GATE_FAIL)
        snprintf(buf, n, "fails: %s", a->gate_why ? a->gate_why : "");
    else if (a->gate == APP_GATE_PASS && a->gate_why != NULL)
        snprintf(buf, n, "passes, not shown over a limit its estimate exceeds: %s", a->gate_why);
    else if (a->gate == APP_GATE_PASS)
        snprintf(buf, n, "passes");
    else
        snprintf(buf, n, "no limits given");
    return buf;
}

static int one_row(cow_store *st, const report_summary_in *in, size_t ri, cow_doc *d,
                   report_doc_impact *x, cow_err *e)
{
    const app_answer *a = &in->answers->v[ri];
    const cow_run_row *r = &in->rows[ri];
    cow_doc_table *t = &d->answer;
    size_t row = doc_table_row(t);
    char *href, when[40], gate[1200], *todo;
    cow_result_set rs;
    const cow_delta_row *dw;
    int rc;

    *x = app_impact_none();
    href = xasprintf("#%s", d->anchors[ri]);
    doc_table_set(t, row, RDOC_RUN, a->run, href);
    free(href);
    doc_table_badge(t, row, app_answer_badge(a));
    if (a->has_window) {
        time_format_iso_s(a->t0_us, when, sizeof(when));
        doc_table_setf(t, row, RDOC_EVENT, "%s at %s, %.1f s", a->window, when,
                       (double)a->len_us / 1e6);
    } else {
        doc_table_set(t, row, RDOC_EVENT, a->nwindows ? "no baseline to compare with"
                                                      : "no fork, save or sync window", NULL);
    }
    if ((rc = store_load_results(st, r->id, &rs, e)) != COW_OK)
        return rc;
    dw = a->has_window && !a->log_only ? app_worst_window(&rs) : NULL;
    if (dw != NULL) {
        *x = a->impact; /* measured once, by the answer */
        cells_window(t, row, a, &rs, dw, x);
    } else if (a->held) {
        char *h = app_answer_held_text(a);
        doc_table_setf(t, row, RDOC_VERDICT, "no latency samples: no tail verdict; it holds %s",
                       h);
        free(h);
    } else {
        doc_table_set(t, row, RDOC_VERDICT, "no latency samples: no tail verdict", NULL);
    }
    store_free_results(&rs);
    if (rc != COW_OK)
        return rc;
    doc_table_set(t, row, RDOC_CAUSE, a->cause, NULL);
    doc_table_set(t, row, RDOC_GATE, gate_cell(a, gate, sizeof(gate)), NULL);
    todo = short_do(a->todo);
    doc_table_set(t, row, RDOC_DO, todo, NULL);
    free(todo);
    return COW_OK;
}

/* ------------------------------------------------------------ held runs */

static int sev_rank(const char *sev)
{
    return strcmp(sev, "critical") == 0 ? 0 : strcmp(sev, "warning") == 0 ? 1 : 2;
}

/* A run without latency samples that holds other evidence gets its own
 * part of the answer: what it holds, its findings most severe first. */
static int held_section(cow_store *st, const report_summary_in *in, size_t ri, cow_doc *d,
                        cow_err *e)
{
    static const char *const head[] = {"what", "#how many", "detail"};
    const app_answer *a = &in->answers->v[ri];
    cow_finding_row *f;
    size_t nf, j;
    int rank, rc;
    char *href = xasprintf("#%s", d->anchors[ri]), *h = app_answer_held_text(a), *text;
    cow_doc_held *x;

    text = xasprintf("no latency samples, so no tail verdict; it holds %s.", h);
    x = doc_add_held(d, a->run, href, app_answer_badge(a), text);
    free(text);
    free(href);
    free(h);
    doc_table_init(&x->what, NULL, 3, head);
    if ((rc = store_load_findings(st, a->run_id, &f, &nf, e)) != COW_OK)
        return rc;
    for (rank = 0; rank < 3; rank++)
        for (j = 0; j < nf; j++)
            if (sev_rank(f[j].severity) == rank) {
                size_t r = doc_table_row(&x->what);
                doc_table_setf(&x->what, r, 0, "%s finding %s", f[j].severity, f[j].rule);
                doc_table_set(&x->what, r, 1, "1", NULL);
                doc_table_set(&x->what, r, 2, f[j].title, NULL);
            }
    store_free_findings(f, nf);
    if (a->held_intervals > 0) {
        size_t r = doc_table_row(&x->what);
        doc_table_set(&x->what, r, 0, "latency intervals (redis-cli, hiccup logs)", NULL);
        doc_table_setf(&x->what, r, 1, "%lld", a->held_intervals);
        if (!isnan(a->held_interval_max_ms))
            doc_table_setf(&x->what, r, 2, "worst %.1f ms", a->held_interval_max_ms);
    }
    if (a->held_tput > 0) {
        size_t r = doc_table_row(&x->what);
        doc_table_set(&x->what, r, 0, "throughput intervals (load writers)", NULL);
        doc_table_setf(&x->what, r, 1, "%lld", a->held_tput);
    }
    if (a->held_mem > 0) {
        size_t r = doc_table_row(&x->what);
        doc_table_set(&x->what, r, 0, "memory polls", NULL);
        doc_table_setf(&x->what, r, 1, "%lld", a->held_mem);
    }
    return COW_OK;
}

/* ------------------------------------------------------------ the rest */

/* The line without its leading "label: " (the link beside it shows it). */
static const char *after_label(const char *line, const char *label)
{
    size_t k = strlen(label);
    return strncmp(line, label, k) == 0 && line[k] == ':' && line[k + 1] == ' ' ? line + k + 2
                                                                               : line;
}

static void worst_chart(const report_summary_in *in, size_t ri, cow_doc *d)
{
    size_t i;
    for (i = 0; i < in->ncharts; i++) {
        const report_chart *c = &in->charts[i];
        char *stem;
        if (c->run != in->rows[ri].id || strcmp(c->kind, "timeline") != 0 || !c->file[0])
            continue;
        stem = report_png_stem(c->file);
        d->worst_file = xstrdup(c->file);
        d->worst_id = html_anchor("worst", stem);
        free(stem);
        d->worst_title = xasprintf("The worst run, %s: %s", in->rows[ri].label, c->title);
        return;
    }
}

static const char legend_cols[] =
    "Columns: before is the baseline the verdict compared the window with (\"both "
    "sides\": the baseline on both sides of the window, when it moved), during is the "
    "window; the verdict's delta is during minus before. A bound below the baseline's "
    "median tells nothing about a tail and is printed \"not bounded\". Longest stall: the "
    "longest time no reply came while a request was outstanding. Slower than p99 before: "
    "the window's requests beyond the p99 printed before the arrow. ";

int report_doc_build(cow_store *st, const report_summary_in *in, cow_doc *d,
                     report_doc_impact **imp, cow_err *e)
{
    const app_answers *a = in->answers;
    report_doc_impact *x;
    size_t i;
    int rc = COW_OK;
    char *line;

    doc_init(d);
    doc_table_init(&d->answer, "The answer: one row per run that has something to say, "
                   "most severe first (latencies in ms)", RDOC_NCOLS, answer_head);
    d->anchors = xcalloc(in->nrows ? in->nrows : 1, sizeof(char *));
    d->badges = xcalloc(in->nrows ? in->nrows : 1, sizeof(char *));
    d->nanchors = in->nrows;
    for (i = 0; i < in->nrows; i++) {
        const char *badge = a != NULL && i < a->n ? app_answer_badge(&a->v[i]) : NULL;
        d->anchors[i] = report_doc_anchor(in, i);
        d->badges[i] = badge ? xstrdup(badge) : NULL;
        if (badge && d->badge_note == NULL)
            d->badge_note = xstrdup(app_answer_badge_note());
    }
    x = xcalloc(a && a->nsay ? a->nsay : 1, sizeof(*x));
    for (i = 0; a != NULL && i < a->nsay && rc == COW_OK; i++) {
        size_t ri = a->order[i];
        char *href;
        rc = one_row(st, in, ri, d, &x[i], e);
        line = app_answer_line(&a->v[ri], APP_ANSWER_TERM);
        href = xasprintf("#%s", d->anchors[ri]);
        doc_add_line(d, a->v[ri].run, href, app_answer_badge(&a->v[ri]),
                     after_label(line, a->v[ri].run));
        free(href);
        free(line);
    }
    for (i = 0; a != NULL && i < a->nsay && rc == COW_OK; i++)
        if (a->v[a->order[i]].held)
            rc = held_section(st, in, a->order[i], d, e);
    if (rc != COW_OK) {
        free(x);
        doc_release(d);
        return rc;
    }
    if (a != NULL) {
        d->quiet = app_answer_quiet_line(a, APP_ANSWER_TERM);
        if (a->nsay > 0)
            worst_chart(in, a->order[0], d);
        d->legend = xasprintf("%s%s", legend_cols, app_answer_legend(APP_ANSWER_TERM));
    }
    if (imp != NULL)
        *imp = x;
    else
        free(x);
    return COW_OK;
}
