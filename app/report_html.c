/* report_html.c -- index.html from the store and the charts written
 * (report_html.h): this file decides what the page says, report/html.c
 * how it is marked up. */
#include "report_html.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "answer.h"
#include "check.h"
#include "doc.h"
#include "fleet.h"
#include "html.h"
#include "inputs.h"
#include "mem.h"
#include "phase.h"
#include "quant.h"
#include "replsync.h"
#include "report_doc.h"
#include "reported.h"
#include "timeconv.h"

typedef struct page {
    cow_html h;
    const report_summary_in *in;
    int w, h_px;           /* chart size */
    char **ids;            /* each run's anchor, unique (owned) */
} page;

/* ------------------------------------------------------------ helpers */

/* A quantile in the one format (quant.h): "12.300 [11.9, 12.8]",
 * "12.300 (>= 1.563)", "-". */
static const char *qtext(const cow_quantile_row *q, int64_t n, double floor_us, char *buf,
                         size_t len)
{
    cow_quant x;
    if (q == NULL) {
        snprintf(buf, len, "-");
        return buf;
    }
    x = app_quant_row(q, n);
    quant_floor(&x, floor_us); /* a bound under the run's median: "not bounded" */
    return quant_format(&x, COW_QF_INTERVAL, buf, len);
}

/* A delta as the verdict rule left it: "+9.710 (>= +1.477)",
 * "+0.033 [+0.013, +0.051]", "+2.396 (cannot tell)". */
static const char *delta_text(const cow_delta_row *d, char *buf, size_t n)
{
    cow_quant x = app_quant_delta(d);
    return quant_format(&x, COW_QF_SIGNED | COW_QF_INTERVAL, buf, n);
}

/* One side of a delta: the phase's stored quantile at q with its bounds;
 * without one, the delta's own figure, which has no bound of its own. */
static const char *qside(const cow_result_set *rs, int phase, const cow_phase_row *p,
                         double q, double est_us, char *buf, size_t len)
{
    const cow_quantile_row *r = store_result_quantile(rs, phase, q);
    cow_quant x;
    if (r != NULL)
        return qtext(r, p ? p->n : -1, q >= 0.99 ? app_floor_us(rs) : NAN, buf, len);
    x = quant_make(q, est_us, NAN, NAN, p ? p->n : -1, NAN);
    return quant_format(&x, COW_QF_INTERVAL, buf, len);
}

static const char *qname(double q, char *buf, size_t n)
{
    snprintf(buf, n, "p%g", q * 100);
    return buf;
}

/* The run's answer (answer.h) as one plain line, or NULL when the report
 * has none (caller frees). A quiet run says why it has nothing to say. */
static char *run_answer(const report_summary_in *in, size_t ri)
{
    const app_answer *a;
    char *quiet;
    if (in->answers == NULL || ri >= in->answers->n)
        return NULL;
    a = &in->answers->v[ri];
    quiet = app_answer_quiet_text(a);
    return quiet != NULL ? quiet : app_answer_line(a, APP_ANSWER_TERM);
}

/* line without its leading "label: " (the heading or link beside it
 * shows the label). */
static const char *after_label(const char *line, const char *label)
{
    size_t k = strlen(label);
    return strncmp(line, label, k) == 0 && line[k] == ':' && line[k + 1] == ' ' ? line + k + 2
                                                                               : line;
}

/* The anchor of a chart figure: fig-<file stem>; the caller frees it. */
static char *fig_id(const report_chart *c)
{
    char *stem = report_png_stem(c->file[0] ? c->file : c->title),
         *id = html_anchor("fig", stem);
    free(stem);
    return id;
}

static void figure(page *pg, const report_chart *c)
{
    cow_html_figure f;
    char *id = fig_id(c);
    memset(&f, 0, sizeof(f));
    f.id = id;
    f.file = c->file;
    f.title = c->title;
    f.why = c->why;
    f.width = pg->w;
    f.height = pg->h_px;
    html_figure(&pg->h, &f);
    free(id);
}

/* ------------------------------------------------- finding -> chart */

static const struct {
    const char *rule;
    const char *kind; /* chart kind that shows it */
} rule_chart[] = {
    {"tail_only_lift", "window"},       {"full_lift", "window"},
    {"thin_tail", "window"},            {"monitor_blind_spot", "window"},
    {"readonly_control_flat", "window"}, {"periodic_save_spikes", "timeline"},
    {"fork_not_the_cost", "timeline"},  {"slowness_outlasts_fork", "timeline"},  {"slow_fork", "timeline"},
    {"overlapping_forks", "timeline"},  {"clock_mismatch", "timeline"},
    {"cow_memory_headroom", "memory"},  {"aof_rewrite_still_forks", "memory"},
    {"full_resyncs", "replsync"},       {"replica_lag", "replsync"},
    {"disk_vs_diskless_sync", "replsync"},
};

static const report_chart *chart_of(int64_t run, const char *kind, const report_chart *v,
                                    size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (v[i].run == run && strcmp(v[i].kind, kind) == 0 && v[i].file[0])
            return &v[i];
    return NULL;
}

const report_chart *report_html_chart_for(const char *rule, int64_t run,
                                          const report_chart *charts, size_t n)
{
    size_t i;
    for (i = 0; i < sizeof(rule_chart) / sizeof(rule_chart[0]); i++)
        if (strcmp(rule_chart[i].rule, rule) == 0) {
            const report_chart *c = chart_of(run, rule_chart[i].kind, charts, n);
            /* a lift the window chart could not draw is still on the timeline */
            return c ? c : chart_of(run, "timeline", charts, n);
        }
    return NULL;
}

/* The evidence JSON the doctor stored: [{"metric","value","source"}...]. */
static size_t parse_evidence(const char *json, cJSON **root, cow_html_evidence **out)
{
    cJSON *it;
    size_t n = 0, k;
    *out = NULL;
    *root = json ? cJSON_Parse(json) : NULL;
    if (*root == NULL || !cJSON_IsArray(*root))
        return 0;
    k = (size_t)cJSON_GetArraySize(*root);
    *out = xcalloc(k ? k : 1, sizeof(**out));
    cJSON_ArrayForEach(it, *root) {
        cow_html_evidence *v = &(*out)[n++];
        v->metric = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "metric"));
        v->value = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "value"));
        v->source = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "source"));
    }
    return n;
}

/* ------------------------------------------------------- the sections */

/* The answer first, as the document decided it (report_doc.h): the
 * table, the worst run's chart, the same rows in words, the quiet runs
 * counted, the legend once. */
static void answers(page *pg)
{
    if (pg->in->doc != NULL) {
        doc_html_answer(pg->in->doc, &pg->h, pg->w, pg->h_px);
        return;
    }
    html_section(&pg->h, NULL, "answers");
    html_heading(&pg->h, 2, "answers", "The answer in words");
    html_para(&pg->h, NULL, "No answers were decided for these runs.");
    html_section_end(&pg->h);
}

static void phases_table(page *pg, const cow_result_set *rs, int64_t origin)
{
    static const char *const head[] = {"phase", "kind", "#start (s)", "#end (s)",
                                       "#samples", "fork", "#p50 (ms)", "#p99 (ms)",
                                       "#p99.9 (ms)", "#max (ms)"};
    cow_html_table *t = html_table_new("Phases (times from the run's first sample; "
                                       "quantiles: estimate [95% interval] or (its one "
                                       "bound))", 10, head);
    size_t i;
    char b[COW_QUANT_FMT_MAX];
    double fl = app_floor_us(rs);
    for (i = 0; i < rs->nph; i++) {
        const cow_phase_row *p = &rs->ph[i];
        html_table_row(t);
        html_table_set(t, 0, p->label, NULL);
        html_table_set(t, 1, p->kind, NULL);
        html_table_setf(t, 2, "%.3f", (double)(p->t0_us - origin) / 1e6);
        html_table_setf(t, 3, "%.3f", (double)(p->t1_us - origin) / 1e6);
        html_table_setf(t, 4, "%lld", (long long)p->n);
        if (p->fork_us)
            html_table_setf(t, 5, "at %.3f s", (double)(p->fork_us - origin) / 1e6);
        html_table_set(t, 6, qtext(store_result_quantile(rs, p->idx, 0.5), p->n, NAN, b, sizeof(b)), NULL);
        html_table_set(t, 7, qtext(store_result_quantile(rs, p->idx, 0.99), p->n, fl, b, sizeof(b)), NULL);
        html_table_set(t, 8, qtext(store_result_quantile(rs, p->idx, 0.999), p->n, fl, b, sizeof(b)), NULL);
        if (p->n > 0)
            html_table_setf(t, 9, "%.3f", p->max_us / 1000);
    }
    html_table_write(&pg->h, t);
    html_table_free(t);
}

static void deltas_table(page *pg, const cow_result_set *rs)
{
    static const char *const head[] = {"window", "quantile", "#baseline (ms)",
                                       "#window (ms)", "#delta (ms): estimate (95% bound)",
                                       "verdict", "method"};
    cow_html_table *t;
    size_t i;
    char b[COW_QUANT_FMT_MAX];
    if (rs->nd == 0)
        return;
    t = html_table_new("Window against baseline: each quantile as in Phases (estimate "
                       "[95% interval] or (its one bound)), the change's estimate and its "
                       "95% bound",
                       7, head);
    for (i = 0; i < rs->nd; i++) {
        const cow_delta_row *d = &rs->d[i];
        const cow_phase_row *p = store_result_phase(rs, d->phase), *bp = store_result_phase(rs, d->base);
        html_table_row(t);
        html_table_set(t, 0, p ? p->label : "?", NULL);
        html_table_set(t, 1, qname(d->q, b, sizeof(b)), NULL);
        /* the same quantile rows the Phases table shows, with their bounds:
         * a bare number beside a delta would claim a two-sided interval */
        html_table_set(t, 2, qside(rs, d->base, bp, d->q, d->base_us, b, sizeof(b)), NULL);
        html_table_set(t, 3, qside(rs, d->phase, p, d->q, d->value_us, b, sizeof(b)), NULL);
        html_table_set(t, 4, delta_text(d, b, sizeof(b)), NULL);
        html_table_set(t, 5, app_verdict_shown(d->verdict), NULL);
        html_table_set(t, 6, app_delta_method(d), NULL);
    }
    html_table_write(&pg->h, t);
    html_table_free(t);
}

static const char *sync_mode(const cow_result_set *rs)
{
    size_t i;
    for (i = 0; i < rs->nph; i++) {
        int k = phase_kind_from_name(rs->ph[i].kind);
        if (k == COW_PHASE_SYNC_DISKLESS)
            return "diskless";
        if (k == COW_PHASE_SYNC_DISK)
            return "disk";
    }
    return "-";
}

static void secs(cow_html_table *t, size_t col, double s)
{
    if (!isnan(s))
        html_table_setf(t, col, "%.3f", s);
}

static int replsync_table(page *pg, cow_store *st, const cow_run_row *r,
                          const cow_result_set *rs, cow_err *e)
{
    static const char *const head[] = {"replica", "attempt", "resync", "sync mode",
                                       "outcome", "#attach to link up (s)", "#wait (s)",
                                       "#transfer (s)", "#flush (s)", "#load (s)",
                                       "#MB received"};
    app_replsyncs rsy;
    cow_html_table *t;
    size_t i, j;
    int rc = app_replica_syncs(st, r->id, &rsy, e);
    if (rc != COW_OK || rsy.n == 0) {
        app_replsyncs_release(&rsy);
        return rc;
    }
    t = html_table_new("Replica syncs (from each replica's own log)", 11, head);
    for (i = 0; i < rsy.n; i++)
        for (j = 0; j < rsy.r[i].n; j++) {
            const cow_repl_sync *s = &rsy.r[i].v[j];
            html_table_row(t);
            if (rsy.r[i].port)
                html_table_setf(t, 0, "#%d (port %lld)", rsy.r[i].seq,
                                (long long)rsy.r[i].port);
            else
                html_table_setf(t, 0, "#%d", rsy.r[i].seq);
            html_table_setf(t, 1, "%zu", j + 1);
            html_table_set(t, 2, s->mode == 'F' ? "full" : s->mode == 'P' ? "partial" : "?",
                           NULL);
            html_table_set(t, 3, sync_mode(rs), NULL);
            html_table_set(t, 4, replsteps_outcome_name(s->outcome), NULL);
            secs(t, 5, s->attach_to_up_s);
            secs(t, 6, s->wait_s);
            secs(t, 7, s->transfer_s);
            secs(t, 8, s->flush_s);
            secs(t, 9, s->load_s);
            if (!isnan(s->bytes))
                html_table_setf(t, 10, "%.1f", s->bytes / 1048576);
        }
    html_table_write(&pg->h, t);
    html_table_free(t);
    app_replsyncs_release(&rsy);
    return COW_OK;
}

static int reported_table(page *pg, cow_store *st, const cow_run_row *r, cow_err *e)
{
    static const char *const head[] = {"source", "file:line", "op", "#percentile",
                                       "#value (ms)", "#count"};
    app_reported rep;
    cow_html_table *t;
    size_t i;
    int rc = app_load_reported(st, r->id, &rep, e);
    if (rc != COW_OK || rep.n == 0) {
        app_reported_release(&rep);
        return rc;
    }
    t = html_table_new("Percentiles the benchmark tool reported (no samples behind them "
                       "here: no intervals)", 6, head);
    for (i = 0; i < rep.n; i++) {
        const cow_pctl_row *p = &rep.v[i];
        html_table_row(t);
        html_table_set(t, 0, p->source, NULL);
        html_table_setf(t, 1, "%s:%ld", p->file, p->line);
        html_table_set(t, 2, p->op[0] ? p->op : "-", NULL);
        html_table_setf(t, 3, "%g", p->q);
        html_table_setf(t, 4, "%.3f", p->value_us / 1000);
        if (p->count > 0)
            html_table_setf(t, 5, "%lld", (long long)p->count);
    }
    html_table_write(&pg->h, t);
    html_table_free(t);
    app_reported_release(&rep);
    return COW_OK;
}

/* A run without samples stores no phases: its windows as the server log
 * (or INFO) gives them, made now as `analyze` makes them (read only). */
static int log_windows_table(page *pg, cow_store *st, const cow_run_row *r, cow_err *e)
{
    static const char *const head[] = {"window", "start (UTC)", "#length (s)", "from",
                                       "fork (UTC)", "notes"};
    cow_runstats_opts o;
    app_analysis a;
    cow_html_table *t;
    size_t i;
    int rc;

    memset(&o, 0, sizeof(o));
    o.seed = pg->in->seed;
    o.resamples = pg->in->resamples;
    memset(&a, 0, sizeof(a));
    if ((rc = app_analyze_compute(st, r, &o, 0, &a, e)) != COW_OK) {
        app_analysis_release(&a);
        /* a log whose clock does not match: the answer and the findings say
         * so; the page goes on without the table */
        return rc == COW_ECLOCK ? COW_OK : rc;
    }
    t = html_table_new("Windows from the server log (no latency samples: no quantiles)", 6,
                       head);
    for (i = 0; i < a.ph.n; i++) {
        const cow_phase *p = &a.ph.v[i];
        char t0[40], tf[40];
        if (!phase_is_window(p->kind))
            continue;
        time_format_iso(p->t0_us, t0, sizeof(t0));
        html_table_row(t);
        html_table_set(t, 0, p->label, NULL);
        html_table_set(t, 1, t0, NULL);
        html_table_setf(t, 2, "%.3f", (double)(p->t1_us - p->t0_us) / 1e6);
        html_table_set(t, 3, p->source ? p->source : "-", NULL);
        if (p->fork_us) {
            time_format_iso(p->fork_us, tf, sizeof(tf));
            html_table_set(t, 4, tf, NULL);
        }
        html_table_setf(t, 5, "%s%s%s", p->failed ? "ended in error or killed " : "",
                        p->open ? "open (no end seen) " : "",
                        p->overlap ? "overlaps another" : "");
    }
    if (t->nrows > 0)
        html_table_write(&pg->h, t);
    html_table_free(t);
    app_analysis_release(&a);
    return COW_OK;
}

static int sev_rank(const char *sev)
{
    return strcmp(sev, "critical") == 0 ? 0 : strcmp(sev, "warning") == 0 ? 1 : 2;
}

/* Critical, then warning, then info; the doctor's order within each
 * (insertion sort: stable, and a run has a handful). */
static void sort_by_severity(cow_finding_row *f, size_t n)
{
    size_t i, j;
    for (i = 1; i < n; i++) {
        cow_finding_row x = f[i];
        for (j = i; j > 0 && sev_rank(f[j - 1].severity) > sev_rank(x.severity); j--)
            f[j] = f[j - 1];
        f[j] = x;
    }
}

static int run_findings(page *pg, cow_store *st, size_t ri, cow_err *e)
{
    const report_summary_in *in = pg->in;
    cow_finding_row *f;
    size_t nf, i;
    int rc = store_load_findings(st, in->rows[ri].id, &f, &nf, e);
    if (rc != COW_OK)
        return rc;
    sort_by_severity(f, nf);
    html_heading(&pg->h, 3, NULL, nf ? "Findings (most severe first)" : "Findings: none");
    for (i = 0; i < nf; i++) {
        cow_html_finding hf;
        cow_html_evidence *ev;
        cJSON *root;
        const report_chart *c = report_html_chart_for(f[i].rule, in->rows[ri].id,
                                                      in->charts, in->ncharts);
        char *id, *href = NULL, *stem = html_anchor("", f[i].rule);
        size_t j, same = 0;
        memset(&hf, 0, sizeof(hf));
        for (j = 0; j < i; j++) /* a rule that fired twice: -2, -3... */
            same += strcmp(f[j].rule, f[i].rule) == 0;
        if (same)
            id = xasprintf("%s%s-%zu", pg->ids[ri], stem, same + 1);
        else
            id = xasprintf("%s%s", pg->ids[ri], stem);
        free(stem);
        hf.id = id;
        hf.severity = f[i].severity;
        hf.rule = f[i].rule;
        hf.title = f[i].title;
        hf.advice = f[i].recommendation;
        if (c != NULL) {
            char *fid = fig_id(c);
            hf.chart_href = href = xasprintf("#%s", fid);
            hf.chart_title = c->title;
            free(fid);
        }
        hf.nev = parse_evidence(f[i].evidence, &root, &ev);
        hf.ev = ev;
        html_finding(&pg->h, &hf);
        free(id);
        free(href);
        free(ev);
        cJSON_Delete(root);
    }
    store_free_findings(f, nf);
    return COW_OK;
}

static int run_section(page *pg, cow_store *st, size_t ri, cow_err *e)
{
    const cow_run_row *r = &pg->in->rows[ri];
    cow_result_set rs;
    char *ans;
    size_t i;
    int rc, charts = 0;

    if ((rc = store_load_results(st, r->id, &rs, e)) != COW_OK)
        return rc;
    html_section(&pg->h, NULL, "run");
    {
        const cow_doc *d = pg->in->doc;
        const char *badge = d != NULL && d->badges != NULL && ri < d->nanchors
                                ? d->badges[ri] : NULL;
        html_heading_badge(&pg->h, 2, pg->ids[ri], r->label, badge);
        if (badge != NULL)
            html_para(&pg->h, "note badge-note", d->badge_note);
    }
    if ((ans = run_answer(pg->in, ri)) != NULL) {
        html_para(&pg->h, "answer", after_label(ans, r->label));
        free(ans);
    }
    {
        char meta[600];
        snprintf(meta, sizeof(meta), "scenario %s, mode %s, host %s; %lld samples from "
                 "%lld files, %lld server events, %lld rejected lines",
                 r->scenario ? r->scenario : "-", r->mode ? r->mode : "-",
                 r->host ? r->host : "-", (long long)r->samples, (long long)r->files,
                 (long long)r->events, (long long)r->rejected);
        html_para(&pg->h, "note", meta);
    }
    for (i = 0; i < pg->in->ncharts; i++)
        if (pg->in->charts[i].run == r->id) {
            if (!charts++)
                html_heading(&pg->h, 3, NULL, "Charts");
            figure(pg, &pg->in->charts[i]);
        }
    if ((rc = run_findings(pg, st, ri, e)) != COW_OK)
        goto done;
    html_heading(&pg->h, 3, NULL, "Tables");
    if (rs.nph > 0)
        phases_table(pg, &rs, r->t_first_us ? r->t_first_us : rs.ph[0].t0_us);
    deltas_table(pg, &rs);
    if ((rc = replsync_table(pg, st, r, &rs, e)) != COW_OK)
        goto done;
    if (r->samples == 0 && (rc = log_windows_table(pg, st, r, e)) == COW_OK)
        rc = reported_table(pg, st, r, e);
done:
    html_section_end(&pg->h);
    store_free_results(&rs);
    return rc;
}

static void fleet_check(page *pg)
{
    const report_summary_in *in = pg->in;
    const app_fleet_check *fc = in->fleet;
    char why[600], line[800];
    size_t i, j;
    int a;

    if (fc == NULL)
        return;
    html_heading(&pg->h, 3, "fleet-check", "Fleet check");
    snprintf(line, sizeof(line), "Limits of %s, judged as cowtail check judges them (%s "
             "over %zu comparisons, runs x latency limits): %d of %zu runs fail; %d of %zu "
             "hosts with several runs, each judged once on its pooled runs, fail.",
             in->fleet_path ? in->fleet_path : "-",
             fc->method == COW_FLEET_BH ? "Benjamini-Hochberg" : "Holm", fc->m, fc->nfailed,
             fc->n, fc->nhfailed, fc->nh);
    html_para(&pg->h, NULL, line);
    {   /* every run judged, failing ones first */
        static const char *const head[] = {"run", "host", "verdict", "limits failed"};
        cow_html_table *t = html_table_new("The check, run by run", 4, head);
        int pass;
        for (pass = 0; pass < 2; pass++)
            for (i = 0; i < fc->n && i < in->nrows; i++) {
                char *href;
                if ((fc->failed[i] == 0) != pass) /* pass 0: the failing ones */
                    continue;
                app_failing_limits(in->th, fc->v[i], why, sizeof(why));
                href = xasprintf("#%s", pg->ids[i]);
                html_table_row(t);
                html_table_set(t, 0, in->rows[i].label, href);
                free(href);
                html_table_set(t, 1, in->rows[i].host ? in->rows[i].host : "-", NULL);
                html_table_set(t, 2, fc->failed[i] ? "fails" : "passes", NULL);
                html_table_set(t, 3, why[0] ? why : "-", NULL);
            }
        html_table_write(&pg->h, t);
        html_table_free(t);
    }
    if (fc->nhfailed > 0) {
        static const char *const head[] = {"failing host", "#runs", "limits failed"};
        cow_html_table *t = html_table_new(NULL, 3, head);
        for (i = 0; i < fc->nh; i++) {
            if (!fc->hfailed[i])
                continue;
            app_failing_limits(in->th, fc->hv[i], why, sizeof(why));
            html_table_row(t);
            html_table_set(t, 0, fc->h[i].host, NULL);
            html_table_setf(t, 1, "%zu", fc->h[i].nruns);
            html_table_set(t, 2, why, NULL);
        }
        html_table_write(&pg->h, t);
        html_table_free(t);
    }
    if (fc->tri.failing > 0) {
        static const char *const head[] = {"attribute", "#separation",
                                           "values (failing/passing)"};
        cow_html_table *t = html_table_new("What the failing runs share", 3, head);
        for (a = 0; a < fc->tri.nattr; a++) {
            const app_triage_row *r = &fc->tri.a[a];
            size_t used = 0;
            line[0] = '\0';
            for (j = 0; j < r->nv && used < sizeof(line); j++)
                used += (size_t)snprintf(line + used, sizeof(line) - used, "%s%s %d/%d",
                                         j ? ", " : "", r->v[j].value, r->v[j].failing,
                                         r->v[j].passing);
            html_table_row(t);
            html_table_set(t, 0, app_triage_names[r->attr], NULL);
            html_table_setf(t, 1, "%+.2f", r->separation);
            html_table_set(t, 2, line, NULL);
        }
        html_table_write(&pg->h, t);
        html_table_free(t);
    }
}

static void tradeoff_table(page *pg)
{
    const cow_tradeoff *tr = pg->in->trade;
    const char **head;
    cow_html_table *t;
    char (*names)[96];
    size_t g, nc;
    int m;
    if (tr == NULL || tr->ngroups < 1)
        return;
    nc = 1 + tr->ngroups + (tr->a >= 0);
    head = xcalloc(nc, sizeof(char *));
    names = xcalloc(nc, sizeof(*names));
    head[0] = "metric";
    for (g = 0; g < tr->ngroups; g++) {
        snprintf(names[g], sizeof(names[g]), "%s (n=%zu): mean [95%% CI] (min-max)",
                 tr->g[g].mode, tr->g[g].ntrials);
        head[1 + g] = names[g];
    }
    if (tr->a >= 0) {
        snprintf(names[tr->ngroups], sizeof(names[0]), "%s / %s", tr->g[tr->b].mode,
                 tr->g[tr->a].mode);
        head[1 + tr->ngroups] = names[tr->ngroups];
    }
    {
        char cap[300];
        snprintf(cap, sizeof(cap), "Trade-off between modes: host %s, scenario %s",
                 pg->in->trade_host ? pg->in->trade_host : "-",
                 pg->in->trade_scenario ? pg->in->trade_scenario : "-");
        t = html_table_new(cap, nc, head);
    }
    for (m = 0; m < COW_TM_COUNT; m++) {
        html_table_row(t);
        html_table_set(t, 0, tradeoff_metric_label(m), NULL);
        for (g = 0; g < tr->ngroups; g++) {
            const cow_trade_stat *s = &tr->g[g].m[m];
            if (s->n == 0)
                html_table_set(t, 1 + g, "-", NULL);
            else if (s->n == 1)
                html_table_setf(t, 1 + g, "%.1f", s->mean);
            else
                html_table_setf(t, 1 + g, "%.1f [%.1f, %.1f] (%.1f-%.1f)", s->mean, s->lo,
                                s->hi, s->min, s->max);
        }
        if (tr->a >= 0) {
            const cow_trade_ratio *r = &tr->ratio[m];
            if (isnan(r->ratio))
                html_table_set(t, nc - 1, "-", NULL);
            else if (isnan(r->lo))
                html_table_setf(t, nc - 1, "x%.3f", r->ratio);
            else
                html_table_setf(t, nc - 1, "x%.3f [%.3f, %.3f]", r->ratio, r->lo, r->hi);
        }
    }
    html_table_write(&pg->h, t);
    html_table_free(t);
    free(head);
    free(names);
}

static void fleet_section(page *pg)
{
    size_t i;
    int any = 0;
    html_section(&pg->h, NULL, "fleet");
    html_heading(&pg->h, 2, "fleet", "Across runs");
    fleet_check(pg);
    tradeoff_table(pg);
    for (i = 0; i < pg->in->ncharts; i++)
        if (pg->in->charts[i].run == 0 && pg->in->charts[i].file[0]) {
            if (!any++)
                html_heading(&pg->h, 3, "fleet-charts", "Charts across runs");
            figure(pg, &pg->in->charts[i]);
        }
    any = 0;
    for (i = 0; i < pg->in->ncharts; i++)
        if (!pg->in->charts[i].file[0]) {
            char line[800];
            if (!any++)
                html_heading(&pg->h, 3, "not-drawn", "Charts not drawn");
            snprintf(line, sizeof(line), "%s: %s", pg->in->charts[i].title,
                     pg->in->charts[i].why);
            html_para(&pg->h, "note", line);
        }
    html_section_end(&pg->h);
}

/* Every input that did not land whole (inputs.h): refused, not
 * recognised, or with rejected lines, each with why and what to do. */
static void inputs_section(page *pg)
{
    static const char *const head[] = {"run", "file", "what", "why and what to do"};
    const app_inputs *in = pg->in->inputs;
    cow_html_table *t;
    char *line;
    size_t i;

    html_section(&pg->h, NULL, "inputs");
    html_heading(&pg->h, 2, "inputs", "Inputs not used");
    if (in == NULL || in->n == 0) {
        html_para(&pg->h, NULL, in == NULL ? "Not listed for this report." :
                  "Every file ingested landed whole: none refused, none unrecognised, no "
                  "line rejected.");
        html_section_end(&pg->h);
        return;
    }
    line = app_inputs_count_line(in);
    html_para(&pg->h, NULL, line);
    free(line);
    t = html_table_new(NULL, 4, head);
    for (i = 0; i < in->n; i++) {
        const app_input *x = &in->v[i];
        html_table_row(t);
        html_table_set(t, 0, x->run, NULL);
        if (x->line > 0)
            html_table_setf(t, 1, "%s:%lld", x->path, (long long)x->line);
        else
            html_table_set(t, 1, x->path, NULL);
        if (x->kind == APP_INPUT_REJECTED)
            html_table_setf(t, 2, "%lld lines rejected, %lld landed", (long long)x->rejected,
                            (long long)x->rows);
        else
            html_table_set(t, 2, app_input_kind_word(x->kind), NULL);
        line = app_input_line(x, APP_ANSWER_TERM);
        html_table_set(t, 3, line, NULL);
        free(line);
    }
    html_table_write(&pg->h, t);
    html_table_free(t);
    html_section_end(&pg->h);
}

/* ------------------------------------------------------------- page */

int report_html_write(cow_store *st, const report_summary_in *in, int chart_w, int chart_h,
                      FILE *fp, cow_err *e)
{
    page pg;
    size_t i;
    int rc = COW_OK, rc2;
    char lede[600];

    memset(&pg, 0, sizeof(pg));
    pg.in = in;
    pg.w = chart_w;
    pg.h_px = chart_h;
    pg.ids = xcalloc(in->nrows ? in->nrows : 1, sizeof(*pg.ids));
    for (i = 0; i < in->nrows; i++) /* the document's anchors, the table links to them */
        if (in->doc != NULL && i < in->doc->nanchors)
            pg.ids[i] = xstrdup(in->doc->anchors[i]);
        else
            pg.ids[i] = report_doc_anchor(in, i);
    html_begin(&pg.h, fp, "cowtail report");
    /* the title, then at once the answer table (the first screen) */
    html_heading(&pg.h, 1, NULL, "cowtail report");
    answers(&pg);
    snprintf(lede, sizeof(lede), "%zu run%s from %s. Latencies in ms. Quantiles: "
             "Hyndman-Fan type 7, each with its distribution-free 95%% bound; deltas: "
             "percentile bootstrap, %d resamples, seed %llu, or the exact tail test "
             "where the bootstrap is not calibrated.", in->nrows,
             in->nrows == 1 ? "" : "s", in->db ? in->db : "-", in->resamples,
             (unsigned long long)in->seed);
    html_para(&pg.h, "lede", lede);
    fputs("<nav>\n", fp);
    {
        const char **items = xcalloc(in->nrows + 3, sizeof(char *));
        char **hrefs = xcalloc(in->nrows + 3, sizeof(char *));
        size_t n = 0;
        items[n] = "The answer in words";
        hrefs[n++] = xstrdup("#answers");
        for (i = 0; i < in->nrows; i++) {
            items[n] = in->rows[i].label;
            hrefs[n++] = xasprintf("#%s", pg.ids[i]);
        }
        items[n] = "Across runs";
        hrefs[n++] = xstrdup("#fleet");
        items[n] = "Inputs not used";
        hrefs[n++] = xstrdup("#inputs");
        html_list(&pg.h, "toc", items, (const char *const *)hrefs, n);
        for (i = 0; i < n; i++)
            free(hrefs[i]);
        free(hrefs);
        free(items);
    }
    fputs("</nav>\n<main>\n", fp);
    for (i = 0; i < in->nrows && rc == COW_OK; i++)
        rc = run_section(&pg, st, i, e);
    if (rc == COW_OK) {
        fleet_section(&pg);
        inputs_section(&pg);
    }
    fputs("</main>\n", fp);
    rc2 = html_end(&pg.h, e);
    for (i = 0; i < in->nrows; i++)
        free(pg.ids[i]);
    free(pg.ids);
    return rc != COW_OK ? rc : rc2;
}
