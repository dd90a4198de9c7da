/* report_summary.c -- summary.md (see report_summary.h). Markdown only:
 * tables, lists and image links; numbers in ms with 3 decimals; a
 * quantile without a finite 95% interval is shown as ">= lower bound". */
#include "report_summary.h"
#include "reported.h"
#include "visible.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "diff.h"
#include "doc.h"
#include "facts.h"
#include "fleet.h"
#include "label.h"
#include "mem.h"
#include "pct.h"

/* Text from the captures (labels, scenarios, hosts, modes, paths) made
 * safe for a Markdown table cell through report_visible: label_safe's
 * COW_LABEL_MD escapes | < > ` * _ [ ] and the rest, control characters
 * show as \xNN, bidi and zero-width controls as \uXXXX. The result
 * stays valid until MD_RING further calls (a ring, so that one fprintf
 * may hold several); md_release frees it at the end of the document. */
#define MD_RING 16
static char *md_ring[MD_RING];
static unsigned md_next;

static const char *md(const char *s)
{
    unsigned k = md_next++ % MD_RING;
    free(md_ring[k]);
    md_ring[k] = report_visible(s ? s : "", COW_LABEL_MD);
    return md_ring[k];
}

/* The same as an inline code span (`s`), where backslashes are literal:
 * control characters and invalid UTF-8 are made safe, backticks become
 * single quotes so the span cannot be closed early. */
static const char *md_code(const char *s)
{
    unsigned k = md_next++ % MD_RING;
    size_t i, n;
    char *t = report_visible(s ? s : "", COW_LABEL_TERM);
    for (i = 0, n = strlen(t); i < n; i++)
        if (t[i] == '`')
            t[i] = '\'';
    free(md_ring[k]);
    md_ring[k] = xmalloc(n + 3);
    snprintf(md_ring[k], n + 3, "`%s`", t);
    free(t);
    return md_ring[k];
}

static void md_release(void)
{
    unsigned k;
    for (k = 0; k < MD_RING; k++) {
        free(md_ring[k]);
        md_ring[k] = NULL;
    }
}

/* A stored quantile as every output shows it (quant.h), a lower bound
 * under the run's median (floor_us) shown "not bounded". */
static const char *honest(const cow_quantile_row *q, int64_t n, double floor_us, char *buf,
                          size_t len)
{
    cow_quant v = app_quant_row(q, n);
    quant_floor(&v, floor_us);
    return quant_format(&v, 0, buf, len);
}

static const cow_phase_row *phase(const cow_result_set *rs, int idx)
{
    size_t i;
    for (i = 0; i < rs->nph; i++)
        if (rs->ph[i].idx == idx)
            return &rs->ph[i];
    return NULL;
}

/* The window whose p99.9 rose most (answer.h's one choice), or -1. */
static int worst(const cow_result_set *rs, const cow_delta_row **d999)
{
    *d999 = app_worst_window(rs);
    return *d999 ? (*d999)->phase : -1;
}

static const char *verdict_md(const char *v)
{
    return app_verdict_shown(v);
}

/* A delta as the verdict rule left it: estimate with its two-sided
 * interval, the exact tail test's one-sided bound, or "cannot tell". */
static const char *delta_ci(const cow_delta_row *d, char *buf, size_t n)
{
    cow_quant v = app_quant_delta(d);
    return quant_format(&v, COW_QF_SIGNED | COW_QF_INTERVAL, buf, n);
}

/* The answer, as the document decided it (report_doc.h): the table, the
 * same rows in words, the quiet runs counted, the legend once. */
static void answers(const report_summary_in *in, FILE *fp)
{
    if (in->doc != NULL)
        doc_md_answer(in->doc, fp);
}

/* Every file that did not land whole, with why and what to do, and what
 * that does to the exit status (README, Exit codes). */
static void inputs(const report_summary_in *in, FILE *fp)
{
    const app_inputs *x = in->inputs;
    size_t i;
    char *line;
    if (x == NULL)
        return;
    fprintf(fp, "## Inputs\n\n");
    if (x->n == 0) {
        fprintf(fp, "Every file of these runs was read whole: nothing refused, nothing "
                    "unrecognised, no line rejected.\n\n");
        return;
    }
    line = app_inputs_count_line(x);
    fprintf(fp, "Not every file landed whole (%s):\n\n", line);
    free(line);
    for (i = 0; i < x->n; i++) {
        line = app_input_line(&x->v[i], APP_ANSWER_MD);
        fprintf(fp, "- %s\n", line);
        free(line);
    }
    fprintf(fp, "\n");
    if (x->count[APP_INPUT_REFUSED] + x->count[APP_INPUT_REJECTED] > 0)
        fprintf(fp, "Because of %s, `cowtail ingest` of these files exits 1 (some "
                    "input rejected), and so does `cowtail report` when it ingests them; "
                    "this report is complete for what did land. `cowtail rejects` lists "
                    "every refused file, unrecognised file and rejected line.\n\n",
                x->count[APP_INPUT_REFUSED] && x->count[APP_INPUT_REJECTED]
                    ? "the refused files and the rejected lines"
                : x->count[APP_INPUT_REFUSED] == 1 ? "the refused file"
                : x->count[APP_INPUT_REFUSED]      ? "the refused files"
                                                   : "the rejected lines");
    else
        fprintf(fp, "Files not recognised and logs dated by a guessed year do not "
                    "change the exit status (0). `cowtail rejects` lists the files not "
                    "recognised.\n\n");
}

/* The reference of a delta taken against the baseline on both sides of
 * its window (runstats.h Requirement 7), so the row's arithmetic adds up:
 * "against both sides' 4.343: "; "" otherwise. */
static const char *both_sides(const cow_delta_row *d, char *buf, size_t n)
{
    if (!d->local_base || isnan(d->base_us))
        return "";
    snprintf(buf, n, "against both sides' %.3f: ", d->base_us / 1000);
    return buf;
}

static int headline(cow_store *st, const report_summary_in *in, FILE *fp, cow_err *e)
{
    size_t i;
    fprintf(fp, "## Headline\n\nEvery run: its baseline, and the window whose p99.9 rose "
                "most.\n\n");
    fprintf(fp, "| run | scenario | baseline n | baseline p50 | baseline p99 | "
                "baseline p99.9 | worst window | window n | window p99.9 | "
                "p99.9 delta (95%% CI) | verdict |\n");
    fprintf(fp, "| --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | --- | --- |\n");
    for (i = 0; i < in->nrows; i++) {
        cow_result_set rs;
        const cow_delta_row *d = NULL;
        const cow_phase_row *b = NULL, *w = NULL;
        char b50[COW_QUANT_FMT_MAX], b99[COW_QUANT_FMT_MAX], b999[COW_QUANT_FMT_MAX],
            w999[COW_QUANT_FMT_MAX], ci[COW_QUANT_FMT_MAX], both[64];
        const char *badge;
        double fl;
        int wi, rc;

        if ((rc = store_load_results(st, in->rows[i].id, &rs, e)) != COW_OK)
            return rc;
        wi = worst(&rs, &d);
        fl = app_floor_us(&rs);
        if (d != NULL) {
            b = phase(&rs, d->base);
            w = phase(&rs, wi);
        } else if (rs.nph > 0) {
            b = &rs.ph[0];
        }
        badge = in->doc != NULL && in->doc->badges != NULL && i < in->doc->nanchors
                    ? in->doc->badges[i] : NULL;
        fprintf(fp, "| %s%s%s%s | %s | %lld | %s | %s | %s |", md(in->rows[i].label),
                badge ? " **" : "", badge ? md(badge) : "", badge ? "**" : "",
                md(in->rows[i].scenario),
                b ? (long long)b->n : 0LL,
                honest(b ? store_result_quantile(&rs, b->idx, 0.5) : NULL, b ? b->n : 0, NAN, b50,
                       sizeof(b50)),
                honest(b ? store_result_quantile(&rs, b->idx, 0.99) : NULL, b ? b->n : 0, fl, b99,
                       sizeof(b99)),
                honest(b ? store_result_quantile(&rs, b->idx, 0.999) : NULL, b ? b->n : 0, fl,
                       b999, sizeof(b999)));
        if (w != NULL && d != NULL)
            fprintf(fp, " %s | %lld | %s | %s%s | %s |\n", md(w->label), (long long)w->n,
                    honest(store_result_quantile(&rs, w->idx, 0.999), w->n, fl, w999, sizeof(w999)),
                    both_sides(d, both, sizeof(both)), delta_ci(d, ci, sizeof(ci)),
                    verdict_md(d->verdict));
        else if (in->answers != NULL && in->answers->v[i].log_only)
            fprintf(fp, " %s (no samples: %d window%s in the log) | | | | |\n",
                    md(in->answers->v[i].window), in->answers->v[i].nwindows,
                    in->answers->v[i].nwindows == 1 ? "" : "s");
        else
            fprintf(fp, " (no window) | | | | |\n");
        store_free_results(&rs);
    }
    fprintf(fp, "\n");
    return COW_OK;
}

typedef struct frow {
    const char *run;          /* run label (borrowed) */
    cow_finding_row f;        /* the finding (owned) */
} frow;

static void free_frows(frow *all, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        free(all[i].f.rule);
        free(all[i].f.severity);
        free(all[i].f.title);
        free(all[i].f.evidence);
        free(all[i].f.recommendation);
    }
    free(all);
}

/* Findings grouped by severity, then by rule: one bullet per rule with
 * the runs it fired for, so a batch of twenty runs stays readable. */
/* The seed tables: per scenario, whole runs pooled. */
static int by_scenario(cow_store *st, const report_summary_in *in, FILE *fp, cow_err *e)
{
    static const double qs[3] = {0.5, 0.99, 0.999};
    size_t i, j;
    int l, rc, rows = 0;

    for (i = 0; i < in->nrows; i++) {
        const cow_run_row *r = &in->rows[i];
        double *v;
        size_t m;
        int runs, seen = 0;
        char cell[3][COW_QUANT_FMT_MAX];
        if (r->scenario == NULL || r->samples == 0)
            continue;
        for (j = 0; j < i; j++)
            seen |= facts_same_group(&in->rows[j], r);
        if (seen)
            continue;
        if ((rc = facts_pool_group(st, in->rows, in->nrows, r, &v, &m, &runs, e)) != COW_OK)
            return rc;
        for (l = 0; l < 3; l++) {
            cow_quant q = app_honest_quantile(v, m, qs[l]);
            quant_format(&q, 0, cell[l], sizeof(cell[l]));
        }
        if (rows++ == 0)
            fprintf(fp, "## By scenario\n\nTrials of one scenario, mode and host pooled (whole "
                        "runs), ms.\n\n"
                        "| scenario | runs | n | p50 | p99 | p99.9 | max |\n"
                        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        {
            char *name = facts_group_name(r);
            fprintf(fp, "| %s | %d | %zu | %s | %s | %s | %.3f |\n", md(name), runs, m,
                    cell[0], cell[1], cell[2], m ? v[m - 1] / 1000 : NAN);
            free(name);
        }
        free(v);
    }
    if (rows)
        fprintf(fp, "\n");
    return COW_OK;
}

static int findings(cow_store *st, const report_summary_in *in, FILE *fp, cow_err *e)
{
    static const char *const order[] = {"critical", "warning", "info"};
    frow *all = NULL;
    size_t cap = 0, n = 0, i, j, k;
    unsigned char *done;

    for (i = 0; i < in->nrows; i++) {
        cow_finding_row *f;
        size_t nf;
        int rc = store_load_findings(st, in->rows[i].id, &f, &nf, e);
        if (rc != COW_OK) {
            free_frows(all, n);
            return rc;
        }
        for (j = 0; j < nf; j++) {
            all = xgrow(all, sizeof(frow), n + 1, &cap);
            all[n].run = in->rows[i].label;
            all[n++].f = f[j];
        }
        free(f); /* the strings moved into all[] */
    }
    done = xcalloc(n ? n : 1, 1);
    fprintf(fp, "## Findings\n\n");
    for (k = 0; k < 3; k++)
        for (i = 0; i < n; i++) {
            size_t runs = 0;
            if (done[i] || strcmp(all[i].f.severity, order[k]) != 0)
                continue;
            for (j = i; j < n; j++)
                if (!done[j] && strcmp(all[j].f.rule, all[i].f.rule) == 0 &&
                    strcmp(all[j].f.severity, order[k]) == 0)
                    runs++;
            if (runs == 1) {
                fprintf(fp, "- **%s** `%s` (%s): %s.  \n", order[k], all[i].f.rule,
                        md(all[i].run), md(all[i].f.title));
                done[i] = 1;
            } else {
                size_t shown = 0;
                fprintf(fp, "- **%s** `%s` in %zu runs (", order[k], all[i].f.rule, runs);
                for (j = i; j < n; j++)
                    if (!done[j] && strcmp(all[j].f.rule, all[i].f.rule) == 0 &&
                        strcmp(all[j].f.severity, order[k]) == 0) {
                        if (shown < 6)
                            fprintf(fp, "%s%s", shown ? ", " : "", md(all[j].run));
                        else if (shown == 6)
                            fprintf(fp, ", ...");
                        shown++;
                        if (j != i)
                            done[j] = 1;
                    }
                fprintf(fp, "); in %s: %s.  \n", md(all[i].run), md(all[i].f.title));
                done[i] = 1;
            }
            fprintf(fp, "  *Do:* %s\n", md(all[i].f.recommendation));
        }
    if (n == 0)
        fprintf(fp, "Nothing to report.\n");
    fprintf(fp, "\nEvidence (values and the file:line they came from) is in "
                "`report.xlsx`, sheet Findings, and in `cowtail doctor`.\n\n");
    free_frows(all, n);
    free(done);
    return COW_OK;
}

static void tradeoff(const report_summary_in *in, FILE *fp)
{
    const cow_tradeoff *t = in->trade;
    size_t g;
    int m;
    if (t == NULL || t->ngroups < 1)
        return;
    fprintf(fp, "## Trade-off between modes\n\nRuns of host %s, scenario %s "
                "(modes are compared on one host and one workload).\n\n| metric |",
            md_code(in->trade_host ? in->trade_host : "-"),
            md_code(in->trade_scenario ? in->trade_scenario : "-"));
    for (g = 0; g < t->ngroups; g++)
        fprintf(fp, " %s (n=%zu): mean [95%% CI] (min-max) |", md(t->g[g].mode), t->g[g].ntrials);
    if (t->a >= 0)
        fprintf(fp, " %s / %s |", md(t->g[t->b].mode), md(t->g[t->a].mode));
    fprintf(fp, "\n| --- |");
    for (g = 0; g < t->ngroups; g++)
        fprintf(fp, " --- |");
    fprintf(fp, "%s\n", t->a >= 0 ? " --- |" : "");
    for (m = 0; m < COW_TM_COUNT; m++) {
        fprintf(fp, "| %s |", tradeoff_metric_label(m));
        for (g = 0; g < t->ngroups; g++) {
            const cow_trade_stat *s = &t->g[g].m[m];
            if (s->n == 0)
                fprintf(fp, " - |");
            else if (s->n == 1)
                fprintf(fp, " %.1f |", s->mean);
            else
                fprintf(fp, " %.1f [%.1f, %.1f] (%.1f-%.1f) |", s->mean, s->lo, s->hi,
                        s->min, s->max);
        }
        if (t->a >= 0) {
            const cow_trade_ratio *r = &t->ratio[m];
            if (isnan(r->ratio))
                fprintf(fp, " - |");
            else if (isnan(r->lo))
                fprintf(fp, " x%.3f |", r->ratio);
            else
                fprintf(fp, " x%.3f [%.3f, %.3f] |", r->ratio, r->lo, r->hi);
        }
        fprintf(fp, "\n");
    }
    fprintf(fp, "\n");
}

static void charts(const report_summary_in *in, FILE *fp)
{
    size_t i;
    int skipped = 0;
    fprintf(fp, "## Charts\n\n");
    for (i = 0; i < in->ncharts; i++)
        if (in->charts[i].file[0])
            fprintf(fp, "### %s\n\n![%s](%s)\n\n", md(in->charts[i].title),
                    md(in->charts[i].title), in->charts[i].file);
    for (i = 0; i < in->ncharts; i++)
        if (!in->charts[i].file[0]) {
            if (!skipped++)
                fprintf(fp, "Not drawn:\n\n");
            fprintf(fp, "- %s: %s\n", md(in->charts[i].title), md(in->charts[i].why));
        }
    if (skipped)
        fprintf(fp, "\n");
}

/* Runs with percentile-only sources: what their tools reported, every
 * cell from the one op that speaks for the run (the overall op, else the
 * worst command: reported.h), with the requests behind it. */
static int reported(cow_store *st, const report_summary_in *in, FILE *fp, cow_err *e)
{
    static const double qs[] = {50, 99, 99.9, 100};
    size_t i, j, shown = 0;
    int rc, any_bound = 0;

    for (i = 0; i < in->nrows; i++) {
        app_reported rep;
        const cow_pctl_row *first = NULL;
        const char *file, *op;
        int64_t total;
        if ((rc = app_load_reported(st, in->rows[i].id, &rep, e)) != COW_OK)
            return rc;
        if (!app_reported_pick(&rep, &file, &op)) {
            app_reported_release(&rep);
            continue;
        }
        if (shown++ == 0)
            fprintf(fp, "## Reported percentiles\n\n"
                        "What the benchmark tools printed (ms), for runs whose "
                        "latency comes from them: no samples behind these here, "
                        "so no intervals and no bootstrap; `diff` and `check` "
                        "compare them as plain numbers. Each row is one command's "
                        "own figures: the tool's overall line, else its worst "
                        "command. Every row is in `report.xlsx`, sheet Reported.\n\n"
                        "| run | source | op | p50 | p99 | p99.9 | max | requests |\n"
                        "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |\n");
        for (j = 0; j < rep.n && first == NULL; j++)
            if (strcmp(rep.v[j].file, file) == 0 && strcmp(rep.v[j].op, op) == 0)
                first = &rep.v[j];
        fprintf(fp, "| %s | %s | %s |", md(in->rows[i].label), md(first->source),
                op[0] ? md(op) : "-");
        for (j = 0; j < sizeof(qs) / sizeof(qs[0]); j++) {
            int bound = 0;
            const cow_pctl_row *p = app_reported_op_at(&rep, file, op, qs[j], &bound);
            double step;
            if (p == NULL) {
                fprintf(fp, " - |");
            } else if (bound) {
                any_bound = 1;
                step = app_reported_step(&rep, p);
                fprintf(fp, " \\<= %.3f", p->value_us / 1000);
                if (!isnan(step))
                    fprintf(fp, " (%.3f ms steps)", step / 1000);
                fprintf(fp, " |");
            } else {
                fprintf(fp, " %.3f |", p->value_us / 1000);
            }
        }
        total = app_reported_total(&rep, first);
        if (total > 0)
            fprintf(fp, " %lld |\n", (long long)total);
        else
            fprintf(fp, " |\n");
        app_reported_release(&rep);
    }
    if (shown)
        fprintf(fp, "\n%s", any_bound ? "`<= x (s ms steps)`: the tool printed only "
                                         "cumulative lines (`99.07% <= 2 milliseconds`): "
                                         "the quantile is at most x, and more than x - s.\n\n"
                                       : "");
    return COW_OK;
}

/* The limits a run or host fails, "max_fork_ms 20.191 > 15, ..." */
/* The probe: closed-loop unless its samples carried an intended send
 * (then open-loop, and its own lateness is said run by run). */
static void probe_caveat(const report_summary_in *in, FILE *fp)
{
    const app_answers *a = in->answers;
    size_t i, open = 0, warned = 0;
    for (i = 0; a != NULL && i < a->n; i++)
        if (a->v[i].probe_known) {
            open++;
            warned += app_probe_was_late(&a->v[i]) ? 1u : 0u;
        }
    if (a != NULL && open == a->n && open > 0) {
        fprintf(fp, "- Each sample carries its intended send, so its latency can be "
                    "read from it: the time a stall held a request back counts "
                    "(`--latency-from intended`, the default for a `cowtail capture` "
                    "folder). Read from the actual send, a probe sent late hides part "
                    "of what clients saw: each run's answer states its send lag (%zu "
                    "with a p99 of %g ms or more read from the actual send).\n",
                warned, APP_PROBE_LATE_MS);
        return;
    }
    fprintf(fp, "- A closed-loop probe waits out each stall before the next "
                "request, so stalls are under-counted (coordinated omission)");
    if (open > 0)
        fprintf(fp, "; %zu of these runs' probes are open-loop (intended sends "
                    "recorded): their answers state the send lag (%zu with a p99 of "
                    "%g ms or more)", open, warned, APP_PROBE_LATE_MS);
    fprintf(fp, ".\n");
}

/* report --thresholds over several runs: which runs and hosts fail, and
 * what the failing runs share (check.h, triage.h). */
static void fleet_check(const report_summary_in *in, FILE *fp)
{
    const app_fleet_check *fc = in->fleet;
    char why[1600];
    size_t i, j;
    int a;

    if (fc == NULL)
        return;
    fprintf(fp, "## Fleet check\n\n"
                "Limits of %s, judged as `cowtail check` judges them (%s over %zu "
                "comparisons, runs x latency limits): %d of %zu runs fail",
            md_code(in->fleet_path), fc->method == COW_FLEET_BH ? "Benjamini-Hochberg" : "Holm",
            fc->m, fc->nfailed, fc->n);
    if (fc->nh > 0)
        fprintf(fp, "; %d of %zu hosts with several runs, each judged once on its pooled "
                    "runs, fail", fc->nhfailed, fc->nh);
    fprintf(fp, ".\n\n");
    if (fc->nfailed > 0) {
        fprintf(fp, "| failing run | host | limits failed |\n| --- | --- | --- |\n");
        for (i = 0; i < fc->n; i++) {
            if (!fc->failed[i])
                continue;
            app_failing_limits(in->th, fc->v[i], why, sizeof(why));
            fprintf(fp, "| %s | %s | %s |\n", md(in->rows[i].label),
                    in->rows[i].host ? md(in->rows[i].host) : "unknown", md(why));
        }
        fprintf(fp, "\n");
    }
    if (fc->nhfailed > 0) {
        fprintf(fp, "| failing host | runs | limits failed |\n| --- | ---: | --- |\n");
        for (i = 0; i < fc->nh; i++) {
            if (!fc->hfailed[i])
                continue;
            app_failing_limits(in->th, fc->hv[i], why, sizeof(why));
            fprintf(fp, "| %s | %zu | %s |\n", md(fc->h[i].host), fc->h[i].nruns, md(why));
        }
        fprintf(fp, "\n");
    }
    if (fc->tri.failing == 0)
        return;
    fprintf(fp, "### What the failing runs share\n\n"
                "Runs per value, failing/passing (%d/%d in all). Separation: the largest "
                "share of a value among the failing runs minus its share among the passing "
                "runs; the attribute that separates best comes first.\n\n"
                "| attribute | separation | values (failing/passing) |\n"
                "| --- | ---: | --- |\n", fc->tri.failing, fc->tri.passing);
    for (a = 0; a < fc->tri.nattr; a++) {
        const app_triage_row *r = &fc->tri.a[a];
        fprintf(fp, "| %s | %+.2f | ", app_triage_names[r->attr], r->separation);
        for (j = 0; j < r->nv; j++)
            fprintf(fp, "%s%s %d/%d", j ? ", " : "", md(r->v[j].value), r->v[j].failing,
                    r->v[j].passing);
        fprintf(fp, " |\n");
    }
    fprintf(fp, "\n");
}

int report_summary_write(cow_store *st, const report_summary_in *in, FILE *fp,
                         cow_err *e)
{
    int rc;
    fprintf(fp, "# cowtail report\n\n%zu run%s from %s.\n\n", in->nrows,
            in->nrows == 1 ? "" : "s", md_code(in->db));
    answers(in, fp);
    inputs(in, fp);
    if ((rc = headline(st, in, fp, e)) != COW_OK ||
        (rc = reported(st, in, fp, e)) != COW_OK ||
        (rc = by_scenario(st, in, fp, e)) != COW_OK ||
        (rc = findings(st, in, fp, e)) != COW_OK) {
        md_release();
        return rc;
    }
    fleet_check(in, fp);
    tradeoff(in, fp);
    charts(in, fp);
    fprintf(fp, "## Method and caveats\n\n"
                "- Quantiles: Hyndman-Fan type 7, with distribution-free 95%% "
                "intervals from order statistics. Deltas: a percentile bootstrap "
                "(%d resamples, seed %llu: re-running gives the same numbers) where "
                "both sides have enough effective samples beyond the quantile, else "
                "an exact tail test on clusters of slow samples (`lift`/`drop` "
                "wrong at most 5%% of the time, `?` when it cannot tell).\n"
                "- Samples within a phase are autocorrelated (stalls cluster): "
                "the intervals of each phase's quantiles, the deltas and the tail "
                "tests count effective samples (n_eff), so serially dependent probes "
                "count for less than their number. The By scenario table pools whole "
                "runs and counts every sample: its bounds are optimistic.\n",
            in->resamples, (unsigned long long)in->seed);
    probe_caveat(in, fp);
    fprintf(fp, "- Phases come from the server log when there is one (millisecond "
                "stamps), else from INFO polls (as exact as the polling interval).\n");
    md_release();
    if (ferror(fp))
        return COW_FAIL(e, COW_EIO, "writing summary: %s", strerror(errno));
    return COW_OK;
}
