/* test_app.c -- the application layer on :memory: stores: ingest a
 * bundled capture, analyse it, compare runs, check thresholds. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "analyze.h"
#include "answer.h"
#include "app.h"
#include "capture.h"
#include "check.h"
#include "fleet.h"
#include "diff.h"
#include "doctor.h"
#include "facts.h"
#include "mem.h"
#include "minunit.h"
#include "pct.h"
#include "reported.h"
#include "report_doc.h"
#include "report_job.h"
#include "savewin.h"
#include "tradeoff_run.h"
#include "triage.h"
#include "store_fleet.h"
#include "phase.h"

/* A sample folder (COW_SAMPLES, set by ctest). */
static char *sample(const char *name)
{
    static char path[8][1024];
    static int k;
    const char *dir = getenv("COW_SAMPLES");
    k = (k + 1) % 8;
    snprintf(path[k], sizeof(path[k]), "%s/%s", dir ? dir : "samples", name);
    return path[k];
}

/* A store holding the named sample runs, and its run list. */
static cow_store *loaded(const char *const *names, int n, cow_run_row **rows, size_t *nrows)
{
    cow_store *st = NULL;
    cow_err e = COW_ERR_INIT;
    cow_ingest_flags fl;
    cow_ingest_totals tot;
    char *paths[8];
    int i;

    memset(&fl, 0, sizeof(fl));
    memset(&tot, 0, sizeof(tot));
    fl.quiet = 1;
    for (i = 0; i < n; i++)
        paths[i] = sample(names[i]);
    CHECK_INT(store_open(":memory:", &st, &e), COW_OK);
    CHECK_INT(app_ingest_paths(st, paths, n, &fl, &tot), EXIT_OK);
    CHECK_INT(tot.runs, n);
    CHECK_INT(tot.rejected, 0);
    CHECK_INT(store_list_runs(st, rows, nrows, &e), COW_OK);
    CHECK_INT(*nrows, (size_t)n);
    return st;
}

static void analyze_should_store_what_it_returns(void)
{
    static const char *const names[] = {"bgsave-t1"};
    cow_run_row *rows = NULL;
    size_t n = 0, ns = 0, i;
    cow_store *st = loaded(names, 1, &rows, &n);
    cow_runstats_opts o = {COW_PCT_LINEAR, 199, 7, 0, NULL};
    cow_err e = COW_ERR_INIT;
    app_analysis a;
    cow_result_set rs;
    int64_t *t = NULL;
    double *v = NULL;
    int windows = 0;

    CHECK_INT(app_analyze(st, &rows[0], &o, &a, &e), COW_OK);
    CHECK_INT(a.n, rows[0].samples);
    for (i = 0; i < a.ph.n; i++)
        windows += a.ph.v[i].kind == COW_PHASE_BGSAVE;
    CHECK_INT(windows, 1);
    CHECK_INT(a.ph.v[0].kind, COW_PHASE_BASELINE);
    /* the whole run's p99 is the type 7 quantile of every sample */
    CHECK_INT(store_load_samples(st, rows[0].id, &t, &v, &ns, &e), COW_OK);
    CHECK_INT(ns, a.n);
    runstats_sort(v, ns);
    CHECK_NEAR(a.rs.all.sum.v[COW_P99], pct_quantile(v, ns, 0.99, COW_PCT_LINEAR), 1e-9);
    /* what was stored is what was returned */
    memset(&rs, 0, sizeof(rs));
    CHECK_INT(store_load_results(st, rows[0].id, &rs, &e), COW_OK);
    CHECK(rs.analysed);
    CHECK_INT(rs.nph, a.ph.n);
    for (i = 0; i < rs.nph && i < a.ph.n; i++) {
        CHECK_STR(rs.ph[i].label, a.ph.v[i].label);
        CHECK_INT(rs.ph[i].n, a.rs.ph[i].sum.n);
    }
    store_free_results(&rs);
    app_analysis_release(&a);
    free(t);
    free(v);
    store_free_runs(rows, n);
    store_close(st);
}

static void diff_should_find_no_difference_with_itself(void)
{
    static const char *const names[] = {"steady"};
    cow_run_row *rows = NULL;
    size_t n = 0;
    cow_store *st = loaded(names, 1, &rows, &n);
    cow_err e = COW_ERR_INIT;
    app_diff_base b;
    app_diff_row r;
    int l;

    CHECK_INT(app_diff_base_load(st, &rows[0], 199, 1, &b, &e), COW_OK);
    CHECK_INT(b.n, rows[0].samples);
    CHECK_INT(app_diff_run(st, &b, &rows[0], 1, &r, &e), COW_OK);
    CHECK_INT(r.windows, 0);
    CHECK_INT(r.n, b.n);
    for (l = 0; l < APP_DIFF_LEVELS; l++) {
        CHECK_NEAR(r.d[l].delta, 0, 0);
        /* ~ where the interval is calibrated, ? where the tail is thin */
        CHECK(r.d[l].verdict == (r.d[l].method == COW_QCMP_BOOT ? COW_VERDICT_FLAT
                                                               : COW_VERDICT_UNSURE));
        CHECK_INT(quant_two_sided(&r.run_q[l]), quant_two_sided(&r.base_q[l]));
    }
    CHECK(r.has_max);
    CHECK_NEAR(r.run_max_us, r.base_max_us, 0);
    app_diff_base_release(&b);
    store_free_runs(rows, n);
    store_close(st);
}

static void check_should_fail_a_limit_below_the_measured_p99(void)
{
    static const char *const names[] = {"steady"};
    cow_run_row *rows = NULL;
    size_t n = 0;
    cow_store *st = loaded(names, 1, &rows, &n);
    cow_err e = COW_ERR_INIT;
    app_thresholds t;
    app_verdict v[TH_COUNT];
    char path[] = "/tmp/cow_thresholdsXXXXXX";
    int fd = mkstemp(path);
    FILE *fp = fdopen(fd, "w");

    fprintf(fp, "{\"max_p99_ms\": 0.001, \"min_samples\": 10}\n");
    fclose(fp);
    CHECK_INT(app_load_thresholds(path, &t, &e), COW_OK);
    CHECK(t.set[TH_P99] && t.set[TH_MIN_N] && !t.set[TH_FORK]);
    CHECK_INT(app_check_run(st, &rows[0], &t, v, &e), COW_OK);
    CHECK(v[TH_P99].p < 1e-6);                    /* every sample is over 1 us */
    CHECK_INT(app_check_correct(&v, 1, &t, COW_FLEET_HOLM), 1); /* one comparison */
    CHECK_INT(v[TH_P99].state, APP_FAIL);
    CHECK(v[TH_P99].p_adj >= v[TH_P99].p);
    CHECK(v[TH_P99].value > 0.001);
    CHECK_INT(v[TH_MIN_N].state, APP_PASS);
    CHECK_INT(v[TH_MIN_N].value, rows[0].samples);
    /* fail closed: a lift limit without a save window fails, unless the
     * limit says "missing": "pass" */
    fp = fopen(path, "w");
    fprintf(fp, "{\"max_p999_lift_ms\": 1, \"max_p99_lift_ms\": {\"limit\": 1, \"missing\": \"pass\"}}\n");
    fclose(fp);
    CHECK_INT(app_load_thresholds(path, &t, &e), COW_OK);
    CHECK_INT(app_check_run(st, &rows[0], &t, v, &e), COW_OK);
    CHECK_INT(v[TH_P999_LIFT].state, APP_FAIL);
    CHECK(strstr(v[TH_P999_LIFT].note, "cannot judge max_p999_lift_ms") != NULL);
    CHECK_INT(v[TH_P99_LIFT].state, APP_PASS);
    fp = fopen(path, "w");
    fprintf(fp, "{\"max_p99_ms\": {\"limit\": 1, \"missing\": \"maybe\"}}\n");
    fclose(fp);
    CHECK_INT(app_load_thresholds(path, &t, &e), COW_EPARSE);
    fp = fopen(path, "w");
    fprintf(fp, "{\"max_p99_ms\": \"1\"}\n");
    fclose(fp);
    CHECK_INT(app_load_thresholds(path, &t, &e), COW_EPARSE);
    CHECK(strstr(e.msg, "max_p99_ms") != NULL);
    remove(path);
    store_free_runs(rows, n);
    store_close(st);
}

static const cow_run_row *row(const cow_run_row *rows, size_t n, const char *label)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (strcmp(rows[i].label, label) == 0)
            return &rows[i];
    return NULL;
}

/* A file under a fresh scratch folder. */
static char scratch[64];

/* A report job over st into a new scratch folder's sub (dir, dcap): the
 * options every report test shares (test.db, scale 0.5, seed 1, 199
 * resamples, created 1); a test sets what it needs beside them. */
static void report_job(app_report *j, cow_store *st, const char *sub, char *dir, size_t dcap)
{
    snprintf(scratch, sizeof(scratch), "/tmp/cow_test_appXXXXXX");
    CHECK(mkdtemp(scratch) != NULL);
    snprintf(dir, dcap, "%s/%s", scratch, sub);
    memset(j, 0, sizeof(*j));
    j->db = "test.db";
    j->dir = j->co.dir = dir;
    j->co.scale = 0.5;
    j->seed = 1;
    j->resamples = 199;
    j->created = 1;
    j->st = st;
}
static const char *scratch_file(const char *name, const char *text)
{
    static char path[128];
    FILE *fp;
    snprintf(path, sizeof(path), "%s/%s", scratch, name);
    if (text && (fp = fopen(path, "w")) != NULL) {
        fputs(text, fp);
        fclose(fp);
    }
    return path;
}

/* A margin or limit whose value in us is not finite (1e306 ms is inf us)
 * or is negative is refused at the key's line, naming the key. */
static void thresholds_should_refuse_numbers_beyond_a_double_in_us(void)
{
    static const char *const bad[][2] = {
        {"{\n  \"margin_rel\": 0.25,\n  \"margin_ms\": 1e306\n}\n", "margin_ms"},
        {"{\n\n  \"max_p99_ms\": 1e306\n}\n", "max_p99_ms"},
        {"{\"min_samples\": 1,\n \"max_fork_ms\": {\"limit\": 1e307}}\n", "max_fork_ms"},
        {"{\"min_samples\": 1,\n\n \"margin_rel\": -0.5}\n", "margin_rel"},
        {"{\"min_samples\": 1,\n \"max_p99_ms\": {\"limit\": 1, \"x\": 2}}\n", "max_p99_ms"}};
    static const long lines[] = {3, 3, 2, 3, 2};
    app_thresholds t;
    size_t i;

    snprintf(scratch, sizeof(scratch), "/tmp/cow_test_appXXXXXX");
    CHECK(mkdtemp(scratch) != NULL);
    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        cow_err e = COW_ERR_INIT;
        const char *path = scratch_file("m.json", bad[i][0]);
        CHECK_INT(app_load_thresholds(path, &t, &e), COW_EPARSE);
        CHECK_STR(e.path, path);
        CHECK_INT(e.line, lines[i]);
        CHECK(strstr(e.msg, bad[i][1]) != NULL);
    }
    {
        cow_err e = COW_ERR_INIT;
        CHECK_INT(app_load_thresholds(scratch_file("ok.json", "{\"margin_ms\": 1e300}"), &t, &e),
                  COW_OK);
        CHECK(isfinite(t.margin.abs_us));
    }
    remove(scratch_file("m.json", NULL));
    remove(scratch_file("ok.json", NULL));
    rmdir(scratch);
}

static void diff_should_pool_the_windows_of_a_saving_run(void)
{
    static const char *const names[] = {"steady", "bgsave-t1"};
    cow_run_row *rows = NULL;
    size_t n = 0, nw = 0, i, j;
    cow_store *st = loaded(names, 2, &rows, &n);
    const cow_run_row *base = row(rows, n, "steady"), *run = row(rows, n, "bgsave-t1");
    cow_err e = COW_ERR_INIT;
    cow_result_set rs;
    app_diff_base b;
    app_diff_row r;
    int64_t *t = NULL;
    double *v = NULL;
    size_t ns = 0;

    CHECK(base && run);
    CHECK_INT(app_diff_base_load(st, base, 199, 3, &b, &e), COW_OK);
    CHECK_INT(app_diff_run(st, &b, run, 0, &r, &e), COW_OK);
    CHECK_INT(r.windows, 1);
    /* the pooled values are the samples inside the stored BGSAVE window */
    memset(&rs, 0, sizeof(rs));
    CHECK_INT(store_load_results(st, run->id, &rs, &e), COW_OK);
    CHECK_INT(store_load_samples(st, run->id, &t, &v, &ns, &e), COW_OK);
    for (i = 0; i < rs.nph; i++)
        if (strcmp(rs.ph[i].kind, "bgsave") == 0)
            for (j = 0; j < ns; j++)
                nw += t[j] >= rs.ph[i].t0_us && t[j] < rs.ph[i].t1_us;
    CHECK(nw > 0);
    CHECK_INT(r.n, nw);
    CHECK_INT(r.d[3].nb, nw);
    CHECK(r.run_max_us >= r.d[3].est_b);
    /* --whole: every sample */
    CHECK_INT(app_diff_run(st, &b, run, 1, &r, &e), COW_OK);
    CHECK_INT(r.windows, 0);
    CHECK_INT(r.n, ns);
    /* too few values for a two-sided interval: a lower bound */
    {
        double few[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        char buf[COW_QUANT_FMT_MAX];
        cow_quant q = app_honest_quantile(few, 10, 0.99);
        /* the estimate is kept beside the bound (never the bound alone) */
        CHECK(!quant_two_sided(&q) && isnan(q.hi_us) && !isnan(q.lo_us));
        CHECK_NEAR(q.est_us, 9.91, 1e-12);
        CHECK(isnan(app_honest_quantile(few, 0, 0.5).est_us));
        q = app_honest_quantile(few, 10, 0.5);
        CHECK(quant_two_sided(&q));
        CHECK_NEAR(q.est_us, 5.5, 1e-12);
        CHECK_STR(quant_format(&q, 0, buf, sizeof(buf)), "0.005"); /* 5.5 us, %.3f ms */
    }
    /* enough samples for p99.9 (4,000 >= 3,688) but dependent: n_eff
     * 1,181 gives a lower bound only, as analyze shows it */
    {
        char buf[COW_QUANT_FMT_MAX];
        size_t k, nn = 4000;
        double *many = malloc(nn * sizeof(*many));
        cow_quant q;
        for (k = 0; k < nn; k++)
            many[k] = (double)k;
        q = app_quant_sorted(many, nn, NAN, 0.999);
        CHECK(quant_two_sided(&q));
        q = app_quant_sorted(many, nn, 4000, 0.999);
        CHECK(quant_two_sided(&q));
        q = app_quant_sorted(many, nn, 0, 0.999); /* unknown: the count */
        CHECK(quant_two_sided(&q));
        q = app_quant_sorted(many, nn, 1181, 0.999);
        CHECK(!quant_two_sided(&q) && !isnan(q.lo_us) && !isnan(q.est_us));
        CHECK(strstr(quant_format(&q, 0, buf, sizeof(buf)), "(>= ") != NULL);
        free(many);
    }
    store_free_results(&rs);
    free(t);
    free(v);
    app_diff_base_release(&b);
    store_free_runs(rows, n);
    store_close(st);
}

static void check_should_judge_every_limit(void)
{
    static const char *const names[] = {"bgsave-t1"};
    cow_run_row *rows = NULL;
    size_t n = 0;
    cow_store *st = loaded(names, 1, &rows, &n);
    cow_err e = COW_ERR_INIT;
    app_thresholds t;
    app_verdict v[TH_COUNT];
    cow_fact fork;
    int k;

    snprintf(scratch, sizeof(scratch), "/tmp/cow_test_appXXXXXX");
    CHECK(mkdtemp(scratch) != NULL);
    CHECK_INT(app_load_thresholds(scratch_file("t.json",
        "{\"max_p999_lift_ms\": 1000, \"max_p99_lift_ms\": 1000, \"max_p99_ms\": 1000,"
        " \"max_p999_ms\": 1000, \"max_cow_fraction\": 1, \"max_fork_ms\": 0,"
        " \"require_thp_off\": true, \"min_samples\": 100000}"), &t, &e), COW_OK);
    for (k = 0; k < TH_COUNT; k++)
        CHECK(t.set[k]);
    CHECK_INT(app_check_run(st, &rows[0], &t, v, &e), COW_OK);
    CHECK_INT(v[TH_P999_LIFT].state, APP_PASS);
    CHECK(strstr(v[TH_P999_LIFT].note, "bgsave#1") != NULL);
    CHECK_INT(v[TH_P99].state, APP_PASS);
    CHECK_INT(v[TH_MIN_N].state, APP_FAIL);       /* 5845 < 100000 */
    CHECK_INT(v[TH_MIN_N].value, rows[0].samples);
    CHECK_INT(store_fact_info_last(st, rows[0].id, "latest_fork_usec", &fork, &e), COW_OK);
    CHECK(fork.known);
    CHECK_NEAR(v[TH_FORK].value, fork.num / 1000, 1e-9);
    CHECK_INT(v[TH_FORK].state, fork.num > 0 ? APP_FAIL : APP_PASS);
    CHECK(v[TH_COW].state != APP_FAIL);
    /* malformed files name the problem */
    CHECK_INT(app_load_thresholds(scratch_file("u.json", "{\"max_p9_ms\": 1}"), &t, &e),
              COW_EPARSE);
    CHECK(strstr(e.msg, "unknown key") != NULL);
    CHECK_INT(app_load_thresholds(scratch_file("v.json", "[1]"), &t, &e), COW_EPARSE);
    CHECK_INT(app_load_thresholds(scratch_file("w.json", "{\"require_thp_off\": 1}"), &t, &e),
              COW_EPARSE);
    CHECK_INT(app_load_thresholds(scratch_file("x.json", "{\"max_p99_ms\": -1}"), &t, &e),
              COW_EPARSE);
    CHECK(app_load_thresholds(scratch_file("missing.json", NULL), &t, &e) != COW_OK);
    store_free_runs(rows, n);
    store_close(st);
}

/* One answer per run, decided once: the window, the p99.9 verdict with
 * the estimates and bounds the store holds, the evidence, and the runs
 * with nothing to say counted. */
static void answers_should_decide_each_run_once(void)
{
    static const char *const names[] = {"bgsave-t2", "steady", "bgsave-t3"};
    cow_run_row *rows = NULL;
    size_t n = 0, i;
    cow_store *st = loaded(names, 3, &rows, &n);
    cow_err e = COW_ERR_INIT;
    cow_findings fs;
    cow_run_facts *facts = NULL;
    app_answers a;
    char *line;

    memset(&fs, 0, sizeof(fs));
    CHECK_INT(app_doctor(st, rows, n, &fs, &facts, &e), COW_OK);
    CHECK_INT(app_answers_build(st, rows, n, facts, &fs, NULL, NULL, &a, &e), COW_OK);
    CHECK_INT(a.n, 3);
    CHECK_INT(a.nsay, 1);
    CHECK_INT(a.nquiet[APP_QUIET_NO_WINDOW], 1);
    CHECK_INT(a.nquiet[APP_QUIET_UNSURE], 1);
    for (i = 0; i < n; i++) {
        const app_answer *x = &a.v[i];
        cow_result_set rs;
        const cow_delta_row *d;
        CHECK_STR(x->run, rows[i].label);
        CHECK_INT(store_load_results(st, rows[i].id, &rs, &e), COW_OK);
        d = app_worst_window(&rs);
        if (strcmp(x->run, "steady") == 0) {
            CHECK(d == NULL && !x->has_window && !x->say);
        } else {
            /* the answer carries the stored delta, estimate and bound */
            CHECK(d != NULL && x->has_window);
            CHECK_NEAR(x->delta.est_us, d->delta_us, 0);
            CHECK_STR(x->kind, "bgsave");
            CHECK(x->len_us > 0 && x->t0_us > 0);
            CHECK(!isnan(x->fork_ms) && x->fork_ms > 0);
            CHECK(!isnan(x->cow_mb) && x->cow_pct_used > 50);
            CHECK_INT(x->thp, APP_THP_NOT_BACKING);
        }
        store_free_results(&rs);
    }
    CHECK_STR(a.v[a.order[0]].run, "bgsave-t2");
    CHECK_INT(a.v[a.order[0]].verdict, COW_VERDICT_LIFT);
    line = app_answer_line(&a.v[a.order[0]], APP_ANSWER_TERM);
    CHECK(strstr(line, "bgsave-t2: bgsave at ") == line);
    /* the estimates with their bounds beside them, never a bound alone */
    CHECK(strstr(line, "p99.9 4.020 (>= 1.029) ms -> 11.321 (>= 3.687) ms: lift "
                       "+7.301 (>= +0.125) ms") != NULL);
    CHECK(strstr(line, "Evidence: fork 4.1 ms, copy-on-write 147 MB (97% of used_memory)") !=
          NULL);
    free(line);
    line = app_answer_quiet_line(&a, APP_ANSWER_TERM);
    CHECK(line != NULL && strstr(line, "2 other runs have nothing to report: 1 cannot tell") == line);
    free(line);
    app_answers_release(&a);
    diag_release(&fs);
    free(facts);
    store_free_runs(rows, n);
    store_close(st);
}

/* Advice that fits the run: the same evidence (a fork under 10 ms,
 * copy-on-write ~97% of used_memory, a p99.9 lift) gives the same cause
 * and "Do" whether the lift is 9.7 ms (aof-rewrite), 7.3 ms (bgsave-t2),
 * 6.6 ms (fullsync-disk) or 1.7 ms (bgsave-t1); a forkless save's cause
 * is its own work whether its lift is at p99.9 or, under a p99.9 ?, at
 * p99 (forkless-t5 had none); its "Do"
 * never comes from the monitor's "no fork recorded", nor any run's from
 * a finding about the measurement. */
static void answers_should_give_the_same_evidence_the_same_cause(void)
{
    static const char *const names[] = {"aof-rewrite", "bgsave-t2", "fullsync-disk",
                                         "bgsave-t1", "forkless/forkless-t1",
                                         "forkless/forkless-t5"};
    cow_run_row *rows = NULL;
    size_t n = 0, i;
    cow_store *st = loaded(names, 6, &rows, &n);
    cow_err e = COW_ERR_INIT;
    cow_findings fs;
    cow_run_facts *facts = NULL;
    app_answers a;

    memset(&fs, 0, sizeof(fs));
    CHECK_INT(app_doctor(st, rows, n, &fs, &facts, &e), COW_OK);
    CHECK_INT(app_answers_build(st, rows, n, facts, &fs, NULL, NULL, &a, &e), COW_OK);
    for (i = 0; i < n; i++) {
        const app_answer *x = &a.v[i];
        char *line = app_answer_line(x, APP_ANSWER_TERM);
        CHECK(x->todo_rule == NULL || (strcmp(x->todo_rule, "monitor_blind_spot") != 0 &&
                                       strcmp(x->todo_rule, "tail_only_lift") != 0));
        CHECK(strstr(line, "LATENCY DOCTOR only sees") == NULL);
        if (strstr(x->run, "forkless") != NULL) {
            /* forkless-t5: p99.9 ?, a p99 lift shown: the same cause */
            if (strcmp(x->run, "forkless/forkless-t5") == 0)
                CHECK(x->verdict == COW_VERDICT_UNSURE && x->shown_in != NULL);
            else
                CHECK_INT(x->verdict, COW_VERDICT_LIFT);
            CHECK(x->cause != NULL && strstr(x->cause, "forkless save's own work") != NULL);
        } else if (strcmp(x->run, "aof-rewrite") == 0 || strcmp(x->run, "fullsync-disk") == 0) {
            /* their baselines moved around the window (p99 +290% after the
             * rewrite, p50 +610% after the sync), and the doctor says so;
             * the ? is the tail test's, with its numbers: a baseline of
             * 3,000 samples is too short for the block test */
            size_t k;
            int found = 0;
            CHECK_INT(x->verdict, COW_VERDICT_UNSURE);
            CHECK(strstr(line, "(cannot tell: the tail test: ") != NULL);
            CHECK(strstr(line, "; the block test needs 10000 baseline samples (20 blocks of "
                               "500), has ") != NULL);
            /* the delta's reference is printed, so the line's arithmetic adds up */
            CHECK(!isnan(x->both_ms) && strstr(line, " ms (both sides of the window: ") != NULL);
            for (k = 0; k < fs.n; k++)
                found |= strcmp(fs.v[k].rule, "unstable_baseline") == 0 &&
                         strcmp(fs.v[k].run, x->run) == 0;
            CHECK(found);
        } else {
            CHECK_INT(x->verdict, COW_VERDICT_LIFT);
            CHECK(x->fork_ms < 10 && x->cow_pct_used > 90);
            CHECK(x->cause != NULL);
            /* bgsave-t1's 1.7 ms rise under its 5.1 ms fork: not the fork alone */
            if (x->cause != NULL)
                CHECK_STR(x->cause, strcmp(x->run, "bgsave-t1") == 0
                                        ? "copy-on-write and the child's I/O after the fork, "
                                          "not the fork alone"
                                        : "copy-on-write and the child's I/O after the fork, "
                                          "not the fork");
            CHECK(x->todo_rule != NULL && strcmp(x->todo_rule, "fork_not_the_cost") == 0);
        }
        free(line);
    }
    app_answers_release(&a);
    diag_release(&fs);
    free(facts);
    store_free_runs(rows, n);
    store_close(st);
}

/* "Nothing to report" only for runs with nothing: a fork shown to be the
 * stall (fork-t3) is listed with what did show; bgsave-t3 and
 * fullsync-diskless (whose baselines moved as much around the window as
 * the window did, the reason shown) stay counted. */
/* The quiet line names the runs that cannot tell, those of one reason
 * together, and the per-run text gives the same reason. */
static void quiet_line_should_name_unsure_runs_by_reason(void)
{
    app_answer v[4];
    app_answers a;
    char *line, *one;
    size_t i;

    memset(v, 0, sizeof(v));
    memset(&a, 0, sizeof(a));
    v[0].run = "a";
    v[1].run = "b";
    v[2].run = "c";
    v[3].run = "d";
    for (i = 0; i < 3; i++)
        v[i].quiet = APP_QUIET_UNSURE;
    v[3].quiet = APP_QUIET_FLAT;
    snprintf(v[0].delta.why, sizeof(v[0].delta.why), "stalls every 0.500 s, locked to the probe");
    snprintf(v[2].delta.why, sizeof(v[2].delta.why), "stalls every 0.500 s, locked to the probe");
    a.v = v;
    a.n = 4;
    a.nquiet[APP_QUIET_UNSURE] = 3;
    a.nquiet[APP_QUIET_FLAT] = 1;
    line = app_answer_quiet_line(&a, APP_ANSWER_TERM);
    CHECK_STR(line, "4 runs have nothing to report: 1 show no change (~); 3 cannot tell (?): "
                    "a, c (stalls every 0.500 s, locked to the probe); b (too few samples in "
                    "the window).");
    free(line);
    one = app_answer_quiet_text(&v[1]);
    CHECK_STR(one, "nothing to report: cannot tell whether p99.9 moved (?: too few samples "
                   "in the window)");
    free(one);
    one = app_answer_quiet_text(&v[3]);
    CHECK_STR(one, "nothing to report: its windows did not move p99.9 (~)");
    free(one);
    v[3].say = 1;
    CHECK(app_answer_quiet_text(&v[3]) == NULL);
    /* a ? because the baseline moved tells how it moved: the story */
    snprintf(v[1].delta.why, sizeof(v[1].delta.why), "a change within the baseline's own "
             "movement around the window");
    v[1].moved = "p99 0.977 ms before the window, 3.812 ms after it (+290%)";
    a.nquiet[APP_QUIET_FLAT] = 0;
    line = app_answer_quiet_line(&a, APP_ANSWER_TERM);
    CHECK_STR(line, "3 runs have nothing to report: 3 cannot tell (?): a, c (stalls every "
                    "0.500 s, locked to the probe); b (a change within the baseline's own "
                    "movement around the window). Where the baseline itself moved: b: p99 "
                    "0.977 ms before the window, 3.812 ms after it (+290%).");
    free(line);
    v[1].moved = NULL;
}

static void answers_should_list_a_rise_the_p999_could_not_tell(void)
{
    static const char *const names[] = {"fullsync-diskless", "forkless/fork-t3",
                                         "bgsave-t3"};
    cow_run_row *rows = NULL;
    size_t n = 0, i;
    cow_store *st = loaded(names, 3, &rows, &n);
    cow_err e = COW_ERR_INIT;
    cow_findings fs;
    cow_run_facts *facts = NULL;
    app_answers a;
    char *line;

    memset(&fs, 0, sizeof(fs));
    CHECK_INT(app_doctor(st, rows, n, &fs, &facts, &e), COW_OK);
    CHECK_INT(app_answers_build(st, rows, n, facts, &fs, NULL, NULL, &a, &e), COW_OK);
    CHECK_INT(a.nsay, 2);
    CHECK_INT(a.nquiet[APP_QUIET_UNSURE], 1);
    for (i = 0; i < n; i++) {
        const app_answer *x = &a.v[i];
        line = app_answer_line(x, APP_ANSWER_TERM);
        CHECK_INT(x->verdict, COW_VERDICT_UNSURE);
        if (strcmp(x->run, "fullsync-diskless") == 0) {
            /* the quiet phase after the sync is lower than the baseline
             * and the sync stands above both: the sync's aftermath, not a
             * second baseline (runstats.h Requirement 7d); the ? names the
             * tests' shortfall; the sync's p90 rise is shown */
            CHECK(x->say && x->shown_in != NULL && fabs(x->shown_delta.q - 0.9) < 1e-9);
            CHECK(strstr(line, ": ? +1.929 (cannot tell: the tail test: 7 vs 13 samples beyond "
                               "the pooled p99.22") != NULL);
            CHECK(strstr(line, "the block test needs 10000 baseline samples") != NULL);
            CHECK(strstr(line, "; but p90 lift +1.067 [") != NULL);
        } else if (strstr(x->run, "fork-t3") != NULL) {
            /* p99 and p99.9 cannot tell on a 2 s baseline; p90 can */
            CHECK(x->say && x->shown_in != NULL && fabs(x->shown_delta.q - 0.9) < 1e-9);
            CHECK(strstr(line, "; but p90 lift +0.214 [+0.168, +0.255] ms in bgsave#1") != NULL);
            CHECK(strstr(line, "; the server answered nothing for 23.8 ms at ") != NULL);
        } else {
            CHECK(!x->say && x->shown_in == NULL && x->shown_finding == NULL);
        }
        free(line);
    }
    line = app_answer_quiet_line(&a, APP_ANSWER_TERM);
    CHECK(line != NULL && strstr(line, "1 other run has nothing to report: 1 cannot tell") ==
                              line);
    /* named, with the rule behind its ? */
    CHECK(line != NULL && strstr(line, "bgsave-t3 (a baseline too short for a tail verdict") !=
                              NULL);
    free(line);
    app_answers_release(&a);
    diag_release(&fs);
    free(facts);
    store_free_runs(rows, n);
    store_close(st);
}

/* "Worst sample" names which: the window's, and the run's (what the
 * timeline rings, "worst of the run") beside it when it lies elsewhere
 * (a 136 ms stall after a window whose worst was 48 ms). */
static void answer_should_say_which_worst_sample(void)
{
    static const char *const names[] = {"bgsave-t2"};
    cow_run_row *rows = NULL;
    size_t n = 0;
    cow_store *st = loaded(names, 1, &rows, &n);
    cow_err e = COW_ERR_INIT;
    cow_findings fs;
    cow_run_facts *facts = NULL;
    app_answers a;
    app_answer x;
    char *line;

    memset(&fs, 0, sizeof(fs));
    CHECK_INT(app_doctor(st, rows, n, &fs, &facts, &e), COW_OK);
    CHECK_INT(app_answers_build(st, rows, n, facts, &fs, NULL, NULL, &a, &e), COW_OK);
    CHECK(a.v[0].run_worst_ms >= a.v[0].worst_ms && a.v[0].run_worst_in != NULL);
    /* the run's worst is what the facts (and the timeline) see */
    CHECK_NEAR(a.v[0].run_worst_ms, facts[0].run_max_us / 1000, 1e-9);
    line = app_answer_line(&a.v[0], APP_ANSWER_TERM);
    CHECK(strstr(line, "; worst sample in the window 14.8 ms; the server answered nothing "
                       "for 14.8 ms at ") != NULL);
    free(line);
    x = a.v[0];
    x.worst_ms = 48.1;
    x.run_worst_ms = 136.314;
    x.run_worst_in = (char *)"after";
    line = app_answer_line(&x, APP_ANSWER_TERM);
    CHECK(strstr(line, "; worst sample in the window 48.1 ms (worst of the run 136.3 ms, "
                       "in after); ") != NULL);
    free(line);
    app_answers_release(&a);
    diag_release(&fs);
    free(facts);
    store_free_runs(rows, n);
    store_close(st);
}

/* An open-loop probe's own lateness reaches the answer: read back from
 * the ingest note (p99, max, how many over 1 ms), latency said to be read
 * from the actual send, and a p99 lag over 1 ms is a warning that lists
 * the run even with no window at all. */
static void answer_should_state_the_probes_send_lag(void)
{
    char dir[64] = "/tmp/cowtail-probe-XXXXXX", path[128], *paths[1];
    cow_store *st = NULL;
    cow_err e = COW_ERR_INIT;
    cow_ingest_flags fl;
    cow_ingest_totals tot;
    cow_run_row *rows = NULL;
    size_t n = 0, i;
    app_answers a;
    char *line;
    FILE *fp;

    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof(path), "%s/latency.csv", dir);
    fp = fopen(path, "w");
    CHECK(fp != NULL);
    if (fp == NULL)
        return;
    fputs("timestamp_us,latency_us,op,intended_us\n", fp);
    /* 1,000 sends every 2 ms; every 20th goes 40 ms late (5%: the p99 is
     * one of them), the rest 50 us late */
    for (i = 0; i < 1000; i++) {
        long long want = 1738591331000000LL + (long long)i * 2000;
        fprintf(fp, "%lld,300,ping,%lld\n", want + (i % 20 == 0 ? 40000 : 50), want);
    }
    fclose(fp);
    memset(&fl, 0, sizeof(fl));
    memset(&tot, 0, sizeof(tot));
    fl.quiet = 1;
    fl.latency_from = "send"; /* the default is the intended send */
    paths[0] = dir;
    CHECK_INT(store_open(":memory:", &st, &e), COW_OK);
    CHECK_INT(app_ingest_paths(st, paths, 1, &fl, &tot), EXIT_OK);
    CHECK_INT(store_list_runs(st, &rows, &n, &e), COW_OK);
    CHECK_INT(n, 1);
    CHECK_INT(app_answers_build(st, rows, n, NULL, NULL, NULL, NULL, &a, &e), COW_OK);
    CHECK(a.v[0].probe_known && !a.v[0].probe_from_intended);
    CHECK_INT(a.v[0].probe_n, 1000);
    CHECK_INT(a.v[0].probe_late, 50);
    CHECK_NEAR(a.v[0].probe_max_ms, 40.0, 1e-9);
    CHECK(a.v[0].probe_p99_ms > 38 && a.v[0].probe_p99_ms <= 40.0);
    CHECK(app_probe_was_late(&a.v[0]) && a.v[0].say);
    line = app_answer_line(&a.v[0], APP_ANSWER_TERM);
    CHECK(strstr(line, "Warning: the probe itself was sent late (a probe that waits for "
                       "each reply waits out the server's stalls; a busy host delays it "
                       "too): tail figures read from the actual send are lower bounds of "
                       "what clients saw. Probe: sent late by p99 ") != NULL);
    CHECK(strstr(line, "overloaded") == NULL); /* the server's stall is not the host's */
    CHECK(strstr(line, "at most 40.000 ms, 50 of 1000 samples more than 1 ms late; latency "
                       "read from the actual send (--latency-from intended") != NULL);
    free(line);
    app_answers_release(&a);
    store_free_runs(rows, n);
    store_close(st);
    unlink(path);
    rmdir(dir);
}

static void doctor_should_store_the_findings_it_returns(void)
{
    static const char *const names[] = {"fullsync-disk", "fullsync-diskless",
                                         "monitor-threshold-0"};
    cow_run_row *rows = NULL;
    size_t n = 0, i, j, total = 0;
    cow_store *st = loaded(names, 3, &rows, &n);
    cow_err e = COW_ERR_INIT;
    cow_findings fs;
    cow_run_facts *facts = NULL;
    int disk_vs_diskless = 0, blind = 0, quantiles = 0;

    memset(&fs, 0, sizeof(fs));
    CHECK_INT(app_doctor(st, rows, n, &fs, &facts, &e), COW_OK);
    CHECK(fs.n > 0);
    for (j = 0; j < fs.n; j++) {
        disk_vs_diskless |= strcmp(fs.v[j].rule, "disk_vs_diskless_sync") == 0 &&
                            strcmp(fs.v[j].run, "fullsync-disk") == 0;
        blind |= strcmp(fs.v[j].rule, "monitor_blind_spot") == 0;
    }
    CHECK(disk_vs_diskless);
    CHECK(blind);
    for (i = 0; i < n; i++) {
        cow_finding_row *fr;
        size_t nf = 0, k = 0;
        CHECK_STR(facts[i].label, rows[i].label);
        CHECK_INT(facts[i].samples, rows[i].samples);
        CHECK_INT(store_load_findings(st, rows[i].id, &fr, &nf, &e), COW_OK);
        for (j = 0; j < fs.n; j++) {
            cJSON *o, *ev;
            char *text;
            if (strcmp(fs.v[j].run, rows[i].label) != 0)
                continue;
            CHECK(k < nf);
            if (k >= nf)
                break;
            CHECK_STR(fr[k].rule, fs.v[j].rule);
            CHECK_STR(fr[k].title, fs.v[j].title);
            CHECK_STR(fr[k].recommendation, fs.v[j].advice);
            o = app_finding_json(&fs.v[j]);
            ev = cJSON_GetObjectItemCaseSensitive(o, "evidence");
            CHECK_INT(cJSON_GetArraySize(ev), fs.v[j].nev);
            text = cJSON_PrintUnformatted(ev);
            CHECK_STR(fr[k].evidence, text);
            free(text);
            /* the comparisons behind a lift finding are fields, n_eff and
             * method included */
            if (strcmp(fs.v[j].rule, "tail_only_lift") == 0 ||
                strcmp(fs.v[j].rule, "thin_tail") == 0) {
                cJSON *qs = cJSON_GetObjectItemCaseSensitive(o, "quantiles"), *q0;
                CHECK(cJSON_GetArraySize(qs) >= 1);
                q0 = cJSON_GetArrayItem(qs, 0);
                CHECK(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(q0, "n_eff")));
                CHECK(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(q0, "n_eff_base")));
                CHECK(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(q0, "method")));
                CHECK(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(q0, "verdict")));
                quantiles++;
            }
            cJSON_Delete(o);
            k++;
        }
        CHECK_INT(nf, k);
        total += nf;
        store_free_findings(fr, nf);
    }
    CHECK_INT(total, fs.n);
    CHECK(quantiles > 0);
    diag_release(&fs);
    free(facts);
    store_free_runs(rows, n);
    store_close(st);
}

/* The trade-off's memory growth, from the raw series (savewin's
 * requirements, applied here by hand to the first BGSAVE/forkless phase). */
static double growth_by_hand(cow_store *st, const cow_run_row *r)
{
    cow_result_set rs;
    cow_err e = COW_ERR_INIT;
    int64_t *t = NULL, t0 = 0, t1 = 0;
    double *b = NULL, before = NAN, peak = NAN;
    size_t m = 0, i;

    memset(&rs, 0, sizeof(rs));
    CHECK_INT(store_load_results(st, r->id, &rs, &e), COW_OK);
    for (i = 0; i < rs.nph && t1 == 0; i++)
        if (strcmp(rs.ph[i].kind, "bgsave") == 0 || strcmp(rs.ph[i].kind, "forkless") == 0)
            t0 = rs.ph[i].t0_us, t1 = rs.ph[i].t1_us;
    store_free_results(&rs);
    CHECK_INT(store_load_mem(st, r->id, &t, &b, &m, &e), COW_OK);
    for (i = 0; i < m; i++) {
        if (t[i] <= t0)
            before = b[i];
        else if (t[i] < t1 && (isnan(peak) || b[i] > peak))
            peak = b[i];
    }
    free(t);
    free(b);
    return (peak - before) / 1048576;
}

static void tradeoff_should_compare_fork_with_forkless(void)
{
    static const char *const names[] = {"forkless/fork-t1", "forkless/fork-t2",
                                        "forkless/forkless-t1", "forkless/forkless-t2",
                                        "steady"};
    cow_run_row *rows = NULL;
    size_t n = 0, i, k;
    cow_store *st = loaded(names, 5, &rows, &n);
    cow_err e = COW_ERR_INIT;
    app_tradeoff_sel sel;
    app_tradeoff t;
    char *one[1] = {"forkless/fork-t2"};

    memset(&sel, 0, sizeof(sel));
    CHECK_INT(app_tradeoff_run(st, rows, n, &sel, 1, &t, &e), COW_OK);
    CHECK(t.picked);
    CHECK_STR(t.host, "lab-docker-1");
    CHECK_STR(t.scenario, "bgsave");
    CHECK_INT(t.nt, 4);
    CHECK_INT(t.t.ngroups, 2);
    for (i = 0; i < t.nt; i++) {
        const cow_run_row *r = row(rows, n, t.tr[i].label);
        CHECK(r != NULL);
        if (r) {
            CHECK_NEAR(t.tr[i].v[COW_TM_MEM_MB], growth_by_hand(st, r), 1e-9);
            CHECK_NEAR(t.tr[i].v[COW_TM_N_RUN], (double)r->samples, 0);
        }
        /* the save's figures beside the run's: the writers slow down
         * during the save (the captures: 21-27 k ops/s against 23-27 k) */
        CHECK(t.tr[i].v[COW_TM_TPUT_SAVE] > 0);
        CHECK(t.tr[i].v[COW_TM_TPUT_SAVE] < t.tr[i].v[COW_TM_TPUT]);
        CHECK(t.tr[i].v[COW_TM_N_SAVE] > 0);
        CHECK(t.tr[i].v[COW_TM_N_SAVE] < t.tr[i].v[COW_TM_N_RUN]);
        CHECK(t.tr[i].v[COW_TM_WORST_SAVE_MS] <= t.tr[i].v[COW_TM_WORST_MS]);
        CHECK(!isnan(t.tr[i].v[COW_TM_MEM_RUN_MB]));
        if (strcmp(t.tr[i].mode, "forkless") == 0) {
            CHECK_NEAR(t.tr[i].v[COW_TM_COW_MB], 0, 0);
            CHECK(isnan(t.tr[i].v[COW_TM_FORK_MS]));
        } else {
            CHECK(t.tr[i].v[COW_TM_COW_MB] > 100);
        }
        CHECK(t.tr[i].v[COW_TM_SAVE_S] > 0);
        CHECK(t.tr[i].v[COW_TM_TPUT] > 0);
    }
    for (k = 0; k < t.t.ngroups; k++)
        CHECK_INT(t.t.g[k].ntrials, 2);
    app_tradeoff_release(&t);
    /* by label, and a host no run has */
    sel.labels = one;
    sel.nlabels = 1;
    CHECK_INT(app_tradeoff_run(st, rows, n, &sel, 1, &t, &e), COW_OK);
    CHECK(!t.picked);
    CHECK_INT(t.nt, 1);
    /* one mode: no ratio (and no group -1 to read it from) */
    CHECK_INT(t.t.ngroups, 1);
    CHECK_INT(t.t.a, -1);
    CHECK_INT(t.t.b, -1);
    app_tradeoff_release(&t);
    memset(&sel, 0, sizeof(sel));
    sel.host = "nowhere";
    CHECK_INT(app_tradeoff_run(st, rows, n, &sel, 1, &t, &e), COW_OK);
    CHECK_INT(t.nt, 0);
    app_tradeoff_release(&t);
    /* the group helpers */
    {
        const cow_run_row *a = row(rows, n, "forkless/fork-t1"),
                          *b = row(rows, n, "forkless/fork-t2"),
                          *c = row(rows, n, "forkless/forkless-t1");
        double *v = NULL;
        size_t m = 0;
        int runs = 0;
        CHECK(facts_same_group(a, b));
        CHECK(!facts_same_group(a, c));
        CHECK_INT(facts_pool_group(st, rows, n, a, &v, &m, &runs, &e), COW_OK);
        CHECK_INT(runs, 2);
        CHECK_INT(m, a->samples + b->samples);
        for (i = 1; i < m; i++)
            CHECK(v[i - 1] <= v[i]);
        free(v);
        {
            char *gname = facts_group_name(a);
            CHECK_STR(gname, "bgsave (fork, lab-docker-1)");
            free(gname);
        }
    }
    store_free_runs(rows, n);
    store_close(st);
}

static void report_should_write_every_output(void)
{
    static const char *const names[] = {"forkless/fork-t1", "forkless/forkless-t1",
                                        "fleet/cache-a/bgsave", "fleet/cache-b/bgsave"};
    cow_run_row *rows = NULL;
    size_t n = 0, i, drawn = 0;
    cow_store *st = loaded(names, 4, &rows, &n);
    cow_err e = COW_ERR_INIT;
    app_report j;
    char dir[128], path[400], *text;
    struct stat sb;
    FILE *fp;
    long len;

    report_job(&j, st, "out/report", dir, sizeof(dir));
    j.co.lift_limit_ms = 1;
    j.created = -1;
    CHECK_INT(app_report_write(&j, &e), COW_OK);
    CHECK_INT(j.n, 4);
    CHECK(j.has_trade);
    CHECK(j.created > 0);
    for (i = 0; i < j.nch; i++) {
        if (!j.charts[i].file[0])
            continue;
        drawn++;
        snprintf(path, sizeof(path), "%s/%s", dir, j.charts[i].file);
        CHECK(stat(path, &sb) == 0 && sb.st_size > 1000);
    }
    CHECK(drawn >= 8);
    snprintf(path, sizeof(path), "%s/report.xlsx", dir);
    CHECK(stat(path, &sb) == 0 && sb.st_size > 1000);
    snprintf(path, sizeof(path), "%s/summary.md", dir);
    fp = fopen(path, "r");
    CHECK(fp != NULL);
    if (fp) {
        fseek(fp, 0, SEEK_END);
        len = ftell(fp);
        rewind(fp);
        text = calloc(1, (size_t)len + 1);
        CHECK(fread(text, 1, (size_t)len, fp) == (size_t)len);
        fclose(fp);
        for (i = 0; i < n; i++)
            CHECK(strstr(text, rows[i].label) != NULL);
        CHECK(strstr(text, "`test.db`") != NULL);
        free(text);
    }
    app_report_release(&j);
    CHECK(j.rows == NULL && j.charts == NULL);
    /* an unwritable folder is an I/O error naming it */
    memset(&j, 0, sizeof(j));
    j.dir = j.co.dir = "/proc/no/such";
    j.co.scale = 0.5;
    j.co.lift_limit_ms = NAN;
    j.resamples = 199;
    j.created = 1;
    j.st = st;
    CHECK(app_report_write(&j, &e) != COW_OK);
    CHECK(strstr(e.msg, "/proc/no/such") != NULL);
    app_report_release(&j);
    store_free_runs(rows, n);
    store_close(st);
}

/* One judgement per comparison: on the bundled fleet, the gate the report
 * colours (answers, which the fleet chart and summary.md read) is the one
 * `cowtail check` reaches on its own, run by run and limit by limit, and
 * the verdict of each answer is the headline's (the stored worst window).
 * cache-e's p99.9 lift is shown above zero but not above the 20 ms limit
 * after Holm: "lift" in the headline, the gate passes it, both said. */
static void report_should_judge_each_fleet_run_once(void)
{
    static const char *const names[] = {"fleet/cache-a/bgsave", "fleet/cache-a/steady",
                                        "fleet/cache-b/bgsave", "fleet/cache-c/fullsync",
                                        "fleet/cache-d/bgsave", "fleet/cache-e/bgsave",
                                        "fleet/cache-e/steady"};
    cow_run_row *rows = NULL;
    size_t n = 0, i, cache_e = 0;
    cow_store *st = loaded(names, 7, &rows, &n);
    cow_err e = COW_ERR_INIT;
    app_report j;
    app_thresholds t;
    app_fleet_check fc;
    char dir[128];

    report_job(&j, st, "fleet-report", dir, sizeof(dir));
    j.co.lift_limit_ms = 20;
    j.thresholds = sample("fleet/thresholds.json");
    CHECK_INT(app_report_write(&j, &e), COW_OK);
    CHECK_INT(j.n, 7);
    CHECK_INT(j.answers.n, 7);
    /* the gate as `cowtail check` judges it, computed apart */
    CHECK_INT(app_load_thresholds(j.thresholds, &t, &e), COW_OK);
    CHECK_INT(app_check_fleet(st, j.rows, j.n, &t, COW_FLEET_HOLM, 1, NULL, &fc, &e), COW_OK);
    for (i = 0; i < j.n; i++) {
        const app_answer *a = &j.answers.v[i];
        const cow_delta_row *d;
        cow_result_set rs;
        CHECK_STR(a->run, j.rows[i].label);
        CHECK_INT(a->gate, fc.failed[i] ? APP_GATE_FAIL : APP_GATE_PASS);
        CHECK_INT(a->gate_lift, fc.v[i][TH_P999_LIFT].state == APP_FAIL ? APP_GATE_FAIL
                                                                         : APP_GATE_PASS);
        CHECK_INT(a->gate, j.fleet.failed[i] ? APP_GATE_FAIL : APP_GATE_PASS);
        CHECK_INT(store_load_results(st, j.rows[i].id, &rs, &e), COW_OK);
        d = app_worst_window(&rs);
        CHECK_INT(a->has_window, d != NULL);
        if (d != NULL) {
            CHECK_STR(boot_verdict_name(a->verdict), d->verdict);
            CHECK_NEAR(a->delta.est_us, d->delta_us, 0);
        }
        store_free_results(&rs);
        if (strcmp(a->run, "fleet/cache-e/bgsave") == 0) {
            cache_e = i + 1;
            CHECK_INT(a->verdict, COW_VERDICT_LIFT);
            CHECK_INT(a->gate_lift, APP_GATE_PASS);
            {   /* the line says both, each labelled */
                char *line = app_answer_line(a, APP_ANSWER_TERM);
                CHECK(strstr(line, ": lift +59.598 (>= +0.529) ms") != NULL);
                /* the gate reads the headline's verdict: a lift the gate
                 * could not show beyond 20 ms is still called a lift */
                CHECK(strstr(line, "Gate: passes, not shown over a limit its estimate exceeds: the lift is shown, its size over the limit "
                                   "is not: max_p999_lift_ms 59.598 over 20 (raw p ") != NULL);
                CHECK(strstr(line, "but not shown to be") == NULL);
                CHECK(strstr(line, ", adjusted p 0.683)") != NULL); /* Holm over 7 runs */
                free(line);
            }
        }
        /* a failed gate is listed and says so */
        if (a->gate == APP_GATE_FAIL) {
            char *line = app_answer_line(a, APP_ANSWER_TERM);
            CHECK(a->say);
            CHECK(strstr(line, "Gate: fails ") != NULL);
            free(line);
        }
    }
    CHECK(cache_e > 0);
    app_check_fleet_release(&fc);
    app_report_release(&j);
    store_free_runs(rows, n);
    store_close(st);
}

/* The numbers of one row of the answer table read against each other, on
 * the bundled fleet (cache-a's verdict used the baseline on both sides of
 * its window; its baseline p99 has a lower bound under the median):
 *   1. the p99.9 before the arrow plus the verdict's delta is the p99.9
 *      after it: the baseline shown is the one the delta was taken against;
 *   2. "N of M beyond X": X is the p99 printed before the arrow, and N the
 *      window's samples beyond that very number, counted here apart;
 *   3. no "(>= b)" in a quantile cell with b under the run's median: such
 *      a bound is printed "not bounded". */
static double first_num(const char *s)
{
    return s ? strtod(s, NULL) : NAN;
}

static void bounds_over_floor(const char *cell, double floor_ms)
{
    const char *p = cell;
    while (p && (p = strstr(p, "(>= ")) != NULL) {
        double b = strtod(p + 4, NULL);
        CHECK(b >= floor_ms - 0.0005);
        p += 4;
    }
}

static void report_doc_rows_should_read_against_each_other(void)
{
    static const char *const names[] = {"fleet/cache-a/bgsave", "fleet/cache-d/bgsave",
                                        "fleet/cache-e/bgsave"};
    cow_run_row *rows = NULL;
    size_t n = 0, i, k, both = 0, unbounded = 0;
    cow_store *st = loaded(names, 3, &rows, &n);
    cow_err e = COW_ERR_INIT;
    app_report j;
    report_summary_in in;
    report_doc_impact *imp = NULL;
    cow_doc d;
    char dir[128];

    report_job(&j, st, "doc-report", dir, sizeof(dir));
    CHECK_INT(app_report_write(&j, &e), COW_OK);
    memset(&in, 0, sizeof(in));
    in.rows = j.rows;
    in.nrows = j.n;
    in.answers = &j.answers;
    CHECK_INT(report_doc_build(st, &in, &d, &imp, &e), COW_OK);
    CHECK_INT(d.answer.nrows, j.answers.nsay);
    CHECK(d.answer.nrows >= 2);
    for (k = 0; k < d.answer.nrows; k++) {
        const app_answer *a = &j.answers.v[j.answers.order[k]];
        const char *p99 = doc_table_cell(&d.answer, k, RDOC_P99);
        const char *p999 = doc_table_cell(&d.answer, k, RDOC_P999);
        const char *v = doc_table_cell(&d.answer, k, RDOC_VERDICT);
        const char *slow = doc_table_cell(&d.answer, k, RDOC_SLOW);
        const char *arrow = p999 ? strstr(p999, "\u2192 ") : NULL;
        const cow_delta_row *dw;
        cow_result_set rs;
        double *lat = NULL;
        int64_t *t = NULL;
        size_t m = 0, beyond = 0;
        char want[64];
        for (i = 0; i < j.n && j.rows[i].id != a->run_id; i++)
            ;
        CHECK_INT(store_load_results(st, a->run_id, &rs, &e), COW_OK);
        dw = app_worst_window(&rs);
        CHECK(dw != NULL && arrow != NULL && v != NULL && slow != NULL);
        /* 1 */
        CHECK_NEAR(first_num(p999) + strtod(strchr(v, ' ') + 1, NULL),
                   first_num(arrow + strlen("\u2192 ")), 0.0015);
        both += strstr(p999, "(both sides)") != NULL;
        unbounded += strstr(p99, "not bounded") != NULL || strstr(p999, "not bounded") != NULL;
        /* 2 */
        {
            const cow_phase_row *w = store_result_phase(&rs, dw->phase);
            double thr = first_num(p99) * 1000;
            CHECK_INT(store_load_range(st, a->run_id, w->t0_us, w->t1_us, &lat, &t, &m, &e),
                      COW_OK);
            for (i = 0; i < m; i++)
                beyond += lat[i] > store_result_quantile(&rs, dw->base, 0.99)->value_us;
            snprintf(want, sizeof(want), "%zu of %zu beyond %.3f", beyond, m, thr / 1000);
            CHECK_STR(slow, want);
            CHECK_INT(imp[k].slow, (long long)beyond);
        }
        /* 3 */
        bounds_over_floor(p99, app_floor_us(&rs) / 1000);
        bounds_over_floor(p999, app_floor_us(&rs) / 1000);
        free(lat);
        free(t);
        store_free_results(&rs);
    }
    CHECK(both >= 1);      /* cache-a: against both sides */
    CHECK(unbounded >= 1); /* cache-a's p99 bound 0.035 under its median 0.232 */
    free(imp);
    doc_release(&d);
    app_report_release(&j);
    store_free_runs(rows, n);
    store_close(st);
}

/* A file's bytes as a string (caller frees), NULL when it cannot be read. */
static char *read_text(const char *path)
{
    FILE *fp = fopen(path, "rb");
    char *text;
    long len;
    if (fp == NULL)
        return NULL;
    fseek(fp, 0, SEEK_END);
    len = ftell(fp);
    rewind(fp);
    text = calloc(1, (size_t)len + 1);
    if (fread(text, 1, (size_t)len, fp) != (size_t)len) {
        free(text);
        text = NULL;
    }
    fclose(fp);
    return text;
}

/* run.json "synthetic": true, false, absent (0) or anything else
 * (refused: a sample must never pass for an incident by a typo). */
static void runjson_should_read_synthetic_strictly(void)
{
    static const struct { const char *text; int rc, synthetic; } cases[] = {
        {"{\"synthetic\": true}", COW_OK, 1},
        {"{\"synthetic\": false}", COW_OK, 0},
        {"{\"label\": \"x\"}", COW_OK, 0},
        {"{\"synthetic\": null}", COW_OK, 0},
        {"{\"synthetic\": \"yes\"}", COW_EPARSE, 0},
        {"{\"synthetic\": 1}", COW_EPARSE, 0},
    };
    size_t i;
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        cow_runjson r;
        cow_err e = COW_ERR_INIT;
        CHECK_INT(runjson_parse("run.json", cases[i].text, strlen(cases[i].text), &r, &e),
                  cases[i].rc);
        if (cases[i].rc == COW_OK)
            CHECK_INT(r.synthetic, cases[i].synthetic);
        else
            CHECK(strstr(e.msg, "\"synthetic\" must be true or false") != NULL);
        runjson_release(&r);
    }
}

/* A run whose run.json says "synthetic": true (the bundled fleet's
 * cache-e) is marked beside its name in the answer table, the answer in
 * words, the headline and the run's section, in summary.md, index.html
 * and the workbook alike; a real capture (bgsave-t2) never is. */
static void report_should_mark_a_synthetic_run_and_no_other(void)
{
    static const char *const names[] = {"bgsave-t2", "fleet/cache-e/bgsave"};
    cow_run_row *rows = NULL;
    size_t n = 0, k, marked = 0, real = 0;
    cow_store *st = loaded(names, 2, &rows, &n);
    cow_err e = COW_ERR_INIT;
    app_report j;
    report_summary_in in;
    cow_doc d;
    char dir[128], path[256];
    char *md, *page, *sheet, *cmd;

    CHECK_STR(rows[0].label, "bgsave-t2");
    CHECK_INT(rows[0].synthetic, 0);
    CHECK_STR(rows[1].label, "fleet/cache-e/bgsave");
    CHECK_INT(rows[1].synthetic, 1);
    report_job(&j, st, "synthetic", dir, sizeof(dir));
    CHECK_INT(app_report_write(&j, &e), COW_OK);
    CHECK_INT(j.answers.v[0].synthetic, 0);
    CHECK_INT(j.answers.v[1].synthetic, 1);
    CHECK(app_answer_badge(&j.answers.v[0]) == NULL);
    CHECK_STR(app_answer_badge(&j.answers.v[1]), "SYNTHETIC");
    memset(&in, 0, sizeof(in));
    in.rows = j.rows;
    in.nrows = j.n;
    in.answers = &j.answers;
    CHECK_INT(report_doc_build(st, &in, &d, NULL, &e), COW_OK);
    CHECK(d.answer.nrows == 2);
    for (k = 0; k < d.answer.nrows; k++) {
        const char *run = doc_table_cell(&d.answer, k, RDOC_RUN);
        const char *badge = doc_table_row_badge(&d.answer, k);
        if (strcmp(run, "fleet/cache-e/bgsave") == 0) {
            CHECK_STR(badge, "SYNTHETIC");
            CHECK_STR(d.lines[k].badge, "SYNTHETIC");
            marked++;
        } else {
            CHECK(badge == NULL && d.lines[k].badge == NULL);
            real++;
        }
    }
    CHECK_INT(marked, 1);
    CHECK_INT(real, 1);
    CHECK(d.badges[0] == NULL);
    CHECK_STR(d.badges[1], "SYNTHETIC");
    CHECK(d.badge_note != NULL && strstr(d.badge_note, "\"synthetic\": true") != NULL);
    doc_release(&d);

    snprintf(path, sizeof(path), "%s/summary.md", dir);
    md = read_text(path);
    CHECK(md != NULL);
    if (md != NULL) {
        CHECK(strstr(md, "| fleet/cache-e/bgsave **SYNTHETIC** | bgsave#1 at ") != NULL);
        CHECK(strstr(md, "- **fleet/cache-e/bgsave** **SYNTHETIC**: ") != NULL);
        CHECK(strstr(md, "| fleet/cache-e/bgsave **SYNTHETIC** | bgsave | ") != NULL); /* headline */
        CHECK(strstr(md, "SYNTHETIC: the run's run.json says a generator made") != NULL);
        CHECK(strstr(md, "bgsave-t2 **SYNTHETIC**") == NULL);
        CHECK(strstr(md, "| bgsave-t2 | bgsave#1 at ") != NULL);
        free(md);
    }
    snprintf(path, sizeof(path), "%s/index.html", dir);
    page = read_text(path);
    CHECK(page != NULL);
    if (page != NULL) {
        /* the answer table's cell and the run's own heading */
        CHECK(strstr(page, ">fleet/cache-e/bgsave</a> <strong class=\"badge\">SYNTHETIC</strong>"
                           "</td>") != NULL);
        CHECK(strstr(page, ">fleet/cache-e/bgsave <strong class=\"badge\">SYNTHETIC</strong>"
                           "<a class=\"self\"") != NULL);
        CHECK(strstr(page, "bgsave-t2</a> <strong class=\"badge\">") == NULL);
        CHECK(strstr(page, ">bgsave-t2 <strong class=\"badge\">") == NULL);
        free(page);
    }
    /* the workbook: the Answer sheet (first) and the Answers sheet */
    snprintf(path, sizeof(path), "%s/strings.xml", scratch);
    cmd = xasprintf("unzip -p '%s/report.xlsx' xl/sharedStrings.xml > '%s' 2>/dev/null", dir,
                    path);
    if (system(cmd) == 0 && (sheet = read_text(path)) != NULL) {
        CHECK(strstr(sheet, ">fleet/cache-e/bgsave SYNTHETIC<") != NULL);
        CHECK(strstr(sheet, "bgsave-t2 SYNTHETIC") == NULL);
        free(sheet);
    } else {
        printf("note: unzip not available, the workbook's cells not read\n");
    }
    remove(path);
    free(cmd);
    app_report_release(&j);
    store_free_runs(rows, n);
    store_close(st);
}

/* The text of file name under dir (caller frees), or NULL. */
static char *slurp(const char *dir, const char *name)
{
    char *path = xasprintf("%s/%s", dir, name), *text = read_text(path);

    free(path);
    return text;
}

/* issue 36 item 4: a 600-byte run label once came out cut at 160 bytes in
 * the chart list (summary.md's "### Latency over time: ..." and the
 * figure's caption in index.html) and at 200 in the chart's title. */
static void report_should_keep_a_long_label_whole(void)
{
    char *label = xcalloc(1, 601), *path = sample("bgsave-t1"), *want, *text;
    cow_store *st = NULL;
    cow_err e = COW_ERR_INIT;
    cow_ingest_flags fl;
    cow_ingest_totals tot;
    app_report j;
    char dir[128];
    size_t i, titled = 0;

    memset(label, 'a', 600);
    memcpy(label, "long-", 5);
    memset(&fl, 0, sizeof(fl));
    memset(&tot, 0, sizeof(tot));
    fl.quiet = 1;
    fl.label = label;
    CHECK_INT(store_open(":memory:", &st, &e), COW_OK);
    CHECK_INT(app_ingest_paths(st, &path, 1, &fl, &tot), EXIT_OK);
    report_job(&j, st, "long-report", dir, sizeof(dir));
    CHECK_INT(app_report_write(&j, &e), COW_OK);
    CHECK_INT(j.n, 1);
    CHECK_INT(strlen(j.rows[0].label), 600);
    want = xasprintf("Latency over time: %s", label);
    for (i = 0; i < j.nch; i++)
        titled += strcmp(j.charts[i].title, want) == 0 && j.charts[i].file[0];
    CHECK_INT(titled, 1);
    text = slurp(dir, "summary.md");
    CHECK(text != NULL && strstr(text, want) != NULL);
    free(text);
    text = slurp(dir, "index.html");
    CHECK(text != NULL && strstr(text, want) != NULL);
    free(text);
    free(want);
    app_report_release(&j);
    store_close(st);
    free(label);
}

/* One run, one mode, one host: the charts that compare modes or hosts are
 * skipped, and summary.md says why. */
static void report_should_say_why_a_chart_is_not_drawn(void)
{
    static const char *const names[] = {"readonly-control"};
    cow_run_row *rows = NULL;
    size_t n = 0, i, skipped = 0;
    cow_store *st = loaded(names, 1, &rows, &n);
    cow_err e = COW_ERR_INIT;
    app_report j;
    char dir[128], path[400], line[600];
    FILE *fp;
    int not_drawn = 0;

    report_job(&j, st, "r", dir, sizeof(dir));
    j.db = "x.db";
    j.co.lift_limit_ms = NAN;
    j.created = 1796000000;
    CHECK_INT(app_report_write(&j, &e), COW_OK);
    CHECK(!j.has_trade);
    CHECK_INT(j.created, 1796000000);
    for (i = 0; i < j.nch; i++)
        skipped += j.charts[i].file[0] == '\0';
    CHECK(skipped >= 3);
    snprintf(path, sizeof(path), "%s/summary.md", dir);
    if ((fp = fopen(path, "r")) != NULL) {
        while (fgets(line, sizeof(line), fp))
            not_drawn += strncmp(line, "- ", 2) == 0 && strstr(line, "fewer than two") != NULL;
        fclose(fp);
    }
    CHECK(not_drawn >= 2);
    app_report_release(&j);
    store_free_runs(rows, n);
    store_close(st);
}

/* A sink (app_sink) that keeps what app/ said. */
typedef struct heard {
    char said[8192];  /* the account, as said (cut at the size) */
    int says;         /* say calls */
    char error[256];  /* the last error line */
    int errors;       /* error calls */
} heard;

static void hear_say(void *ctx, const char *text)
{
    heard *h = ctx;
    size_t len = strlen(h->said);
    snprintf(h->said + len, sizeof(h->said) - len, "%s", text);
    h->says++;
}

static void hear_error(void *ctx, const char *line)
{
    heard *h = ctx;
    snprintf(h->error, sizeof(h->error), "%s", line);
    h->errors++;
}

static void ingest_should_say_what_it_refused_and_skipped(void)
{
    cow_store *st = NULL;
    cow_err e = COW_ERR_INIT;
    cow_ingest_flags fl;
    cow_ingest_totals tot;
    cow_run_row *rows = NULL;
    cow_fact refused;
    size_t n = 0;
    const char *dir = getenv("COW_TESTDATA");
    char bad[512], one[512], *paths[1];
    heard h = {"", 0, "", 0};

    snprintf(bad, sizeof(bad), "%s/e2e/bad", dir ? dir : "tests/data");
    snprintf(one, sizeof(one), "%s/e2e/bad/nounit.csv", dir ? dir : "tests/data");
    memset(&fl, 0, sizeof(fl));
    memset(&tot, 0, sizeof(tot));
    CHECK_INT(store_open(":memory:", &st, &e), COW_OK);
    paths[0] = bad;
    CHECK_INT(app_ingest_paths(st, paths, 1, &fl, &tot), EXIT_REJECTED);
    CHECK_INT(tot.files_refused, 3);
    CHECK_INT(tot.files_skipped, 1);
    CHECK_INT(tot.files_ok, 0);
    CHECK_INT(store_fact_refusals(st, "bad", &refused, &e), COW_OK);
    CHECK_INT(refused.num, 3);
    /* a flag settles the unit; the same file again is a duplicate */
    fl.latency_unit = "ms";
    fl.label = "manual";
    paths[0] = one;
    CHECK_INT(app_ingest_paths(st, paths, 1, &fl, &tot), EXIT_OK);
    CHECK_INT(tot.files_ok, 1);
    memset(&tot, 0, sizeof(tot));
    CHECK_INT(app_ingest_paths(st, paths, 1, &fl, &tot), EXIT_OK);
    CHECK_INT(tot.files_dup, 1);
    CHECK_INT(store_list_runs(st, &rows, &n, &e), COW_OK);
    CHECK(row(rows, n, "manual") != NULL && row(rows, n, "manual")->samples == 1);
    store_free_runs(rows, n);
    /* unusable flags and paths */
    memset(&fl, 0, sizeof(fl));
    fl.parser = "no-such-parser";
    CHECK_INT(app_ingest_paths(st, paths, 1, &fl, &tot), EXIT_USAGE);
    memset(&fl, 0, sizeof(fl));
    paths[0] = "/no/such/capture";
    CHECK_INT(app_ingest_paths(st, paths, 1, &fl, &tot), EXIT_USAGE);
    /* what app/ says goes to the sink; the quiet form says no file line
     * and returns the totals the summary line is made of */
    app_set_sink(&(app_sink){hear_say, hear_error, NULL, &h});
    paths[0] = sample("steady");
    memset(&tot, 0, sizeof(tot));
    CHECK_INT(app_ingest_quiet(st, paths, 1, 1, &tot), EXIT_OK);
    CHECK_INT(tot.files_ok, 17);
    CHECK_INT(tot.runs, 1);
    CHECK_INT(tot.rows, 17425);
    CHECK_INT(app_ingest_quiet(st, paths, 1, 1, &tot), EXIT_OK);
    CHECK_INT(tot.files_ok, 0);
    CHECK_INT(tot.files_dup, 17);
    CHECK_INT(h.says, 0);
    memset(&fl, 0, sizeof(fl));
    CHECK_INT(app_ingest_paths(st, paths, 1, &fl, &tot), EXIT_OK);
    CHECK(strstr(h.said, "run steady (") == h.said);
    CHECK(strstr(h.said, "already ingested (same SHA-256): nothing added\n") != NULL);
    app_errorf("test_app: %s", "an error line");
    CHECK_INT(h.errors, 1);
    CHECK_STR(h.error, "test_app: an error line");
    app_set_sink(NULL);
    app_errorf("test_app: %s", "no sink: not heard");
    CHECK_INT(h.errors, 1);
    store_close(st);
}

static void ingest_should_take_the_flags_that_override_run_json(void)
{
    cow_store *st = NULL;
    cow_err e = COW_ERR_INIT;
    cow_ingest_flags fl;
    cow_ingest_totals tot;
    const char *dir = getenv("COW_TESTDATA");
    char one[512], *paths[2];

    snprintf(one, sizeof(one), "%s/e2e/bad/nounit.csv", dir ? dir : "tests/data");
    CHECK_INT(store_open(":memory:", &st, &e), COW_OK);
    memset(&fl, 0, sizeof(fl));
    fl.quiet = 1;
    paths[0] = one;
    /* --t0 and --log-tz come parsed (cli/, test_common's optval tests) */
    fl.has_log_tz = 1;
    fl.log_tz_s = 3600;
    /* a --t0, a forced parser and a unit: the file lands */
    fl.has_t0 = 1;
    fl.t0_us = INT64_C(1770127331000000);
    fl.parser = "latency-csv";
    fl.latency_unit = "us";
    fl.label = "forced";
    memset(&tot, 0, sizeof(tot));
    CHECK_INT(app_ingest_paths(st, paths, 1, &fl, &tot), EXIT_OK);
    CHECK_INT(tot.files_ok, 1);
    CHECK_INT(tot.rows, 1);
    fl.label = "forced-epoch";
    CHECK_INT(app_ingest_paths(st, paths, 1, &fl, &tot), EXIT_OK);
    /* --label names one run */
    paths[0] = sample("steady");
    paths[1] = sample("bgsave-t1");
    fl.has_t0 = 0;
    fl.parser = NULL;
    fl.latency_unit = NULL;
    CHECK_INT(app_ingest_paths(st, paths, 2, &fl, &tot), EXIT_USAGE);
    store_close(st);
}

static void report_dir_should_be_missing_empty_or_marked(void)
{
    cow_err e = COW_ERR_INIT;
    char dir[128], path[192];
    FILE *fp;

    snprintf(scratch, sizeof(scratch), "/tmp/cow_test_appXXXXXX");
    CHECK(mkdtemp(scratch) != NULL);
    snprintf(dir, sizeof(dir), "%s/out", scratch);
    CHECK_INT(app_report_check_dir(dir, 0, &e), COW_OK);          /* missing */
    CHECK(mkdir(dir, 0777) == 0);
    CHECK_INT(app_report_check_dir(dir, 0, &e), COW_OK);          /* empty */
    snprintf(path, sizeof(path), "%s/main.c", dir);
    fp = fopen(path, "w");
    fclose(fp);
    CHECK_INT(app_report_check_dir(dir, 0, &e), COW_EUSAGE);      /* someone's */
    CHECK(strstr(e.msg, "--force") != NULL);
    CHECK_INT(app_report_check_dir(dir, 1, &e), COW_OK);
    snprintf(path, sizeof(path), "%s/%s", dir, APP_REPORT_MARKER);
    fp = fopen(path, "w");
    fclose(fp);
    CHECK_INT(app_report_check_dir(dir, 0, &e), COW_OK);          /* ours */
    snprintf(path, sizeof(path), "%s/main.c", dir);
    CHECK_INT(app_report_check_dir(path, 1, &e), COW_EUSAGE);     /* a file */
    CHECK(strstr(e.msg, "not a folder") != NULL);
}

/* Percentile-only runs (tests/data/pctonly): analyze carries the tools'
 * percentiles, diff compares them without a bootstrap, check judges them. */
static void pctonly_runs_should_count_in_analyze_diff_and_check(void)
{
    cow_store *st = NULL;
    cow_err e = COW_ERR_INIT;
    cow_ingest_flags fl;
    cow_ingest_totals tot;
    cow_run_row *rows = NULL;
    size_t n = 0, i;
    char path[1024];
    char *paths[1] = {path};
    const char *dir = getenv("COW_TESTDATA");
    const cow_run_row *mt = NULL, *rb = NULL;
    cow_runstats_opts o = {COW_PCT_LINEAR, 199, 7, 0, NULL};
    app_analysis a;
    app_diff_base b;
    app_diff_row d;
    app_thresholds th;
    app_verdict v[TH_COUNT];
    const cow_pctl_row *p;

    memset(&fl, 0, sizeof(fl));
    memset(&tot, 0, sizeof(tot));
    fl.quiet = 1;
    snprintf(path, sizeof(path), "%s/pctonly", dir ? dir : "tests/data");
    CHECK_INT(store_open(":memory:", &st, &e), COW_OK);
    CHECK_INT(app_ingest_paths(st, paths, 1, &fl, &tot), EXIT_REJECTED); /* Finish time */
    CHECK_INT(tot.rejected, 1);
    CHECK_INT(store_list_runs(st, &rows, &n, &e), COW_OK);
    CHECK_INT(n, 2);
    for (i = 0; i < n; i++) {
        if (strcmp(rows[i].label, "memtier") == 0)
            mt = &rows[i];
        if (strcmp(rows[i].label, "redis-benchmark") == 0)
            rb = &rows[i];
    }
    CHECK(mt != NULL && rb != NULL);
    if (mt == NULL || rb == NULL)
        goto out;
    CHECK_INT(app_analyze(st, mt, &o, &a, &e), COW_OK);
    CHECK_INT(a.n, 0);
    CHECK_INT(a.rep.n, 15);   /* Gets, Sets, Totals x p0, p50, p99, p99.9, p100 */
    p = app_reported_at(&a.rep, 99.9);
    CHECK(p && strcmp(p->op, "Totals") == 0 && p->value_us == 295 && p->count == 51180);
    app_analysis_release(&a);
    CHECK_INT(app_diff_base_load(st, rb, 199, 1, &b, &e), COW_OK);
    CHECK_INT(app_diff_run(st, &b, mt, 0, &d, &e), COW_OK);
    CHECK(d.reported);
    /* redis-benchmark has no overall op: its worst command speaks (SET p99 0.471) */
    CHECK(d.rep_has[2] && d.rep_base[2].value_us == 471 && d.rep_run[2].value_us == 143);
    CHECK(!d.rep_has[3]);     /* redis-benchmark --csv prints no p99.9 */
    app_diff_base_release(&b);
    memset(&th, 0, sizeof(th));
    th.set[TH_P99] = th.set[TH_P999] = 1;
    th.v[TH_P99] = 0.140;
    th.v[TH_P999] = 1.0;
    CHECK_INT(app_check_run(st, mt, &th, v, &e), COW_OK);
    CHECK_INT(v[TH_P99].state, APP_FAIL);
    CHECK_NEAR(v[TH_P99].value, 0.143, 1e-12);
    CHECK_INT(v[TH_P999].state, APP_PASS);
    CHECK(strstr(v[TH_P99].note, "reported by memtier") != NULL);
out:
    store_free_runs(rows, n);
    store_close(st);
}

/* A redis-benchmark run with several commands and no overall line: every
 * level comes from one command's own figures (the worst at the tail), not
 * p99 from GET next to max from INCR; the requests are that command's
 * total; a text report's cumulative lines ("99.07% <= 2 milliseconds")
 * give p99 as a bound with its step. */
static void reported_should_read_one_command_at_every_level(void)
{
    static const struct { const char *op; double q, ms; int64_t count; } in[] = {
        {"GET", 50, 0.215, 10000}, {"GET", 99, 2.103, 10000}, {"GET", 100, 3.007, 10000},
        {"INCR", 50, 0.300, 5000}, {"INCR", 99, 0.471, 5000}, {"INCR", 100, 6.343, 5000},
        {"SET", 50, 0.100, 2000}, {"SET", 99, 0.439, 2000}, {"SET", 100, 0.743, 2000},
    };
    cow_pctl_row rows[9];
    app_reported rep = {rows, 9};
    const char *file, *op;
    const cow_pctl_row *p;
    int i, bound = -1;

    for (i = 0; i < 9; i++) {
        memset(&rows[i], 0, sizeof(rows[i]));
        snprintf(rows[i].source, sizeof(rows[i].source), "redis-benchmark");
        rows[i].file = "bench.csv"; /* the test's rows, not loaded: never freed */
        snprintf(rows[i].op, sizeof(rows[i].op), "%s", in[i].op);
        rows[i].q = in[i].q;
        rows[i].value_us = in[i].ms * 1000;
        rows[i].count = in[i].count;
    }
    CHECK(app_reported_pick(&rep, &file, &op));
    CHECK_STR(op, "GET");
    for (i = 0; i < 3; i++) {
        p = app_reported_at(&rep, in[i].q);
        CHECK(p != NULL && strcmp(p->op, "GET") == 0);
        CHECK_NEAR(p->value_us, in[i].ms * 1000, 0);
    }
    /* the max is GET's 3.007, not INCR's 6.343 */
    CHECK_NEAR(app_reported_at(&rep, 100)->value_us, 3007, 1e-9);
    CHECK_INT(app_reported_total(&rep, app_reported_at(&rep, 50)), 10000);
    /* a level GET does not report is not borrowed from another command */
    CHECK(app_reported_at(&rep, 99.9) == NULL);

    /* cumulative lines only: p99 is at most the first line at or above it */
    rows[0].q = 98.5, rows[0].value_us = 1000;
    rows[1].q = 99.07, rows[1].value_us = 2000;
    rows[2].q = 100, rows[2].value_us = 3000;
    rep.n = 3;
    p = app_reported_op_at(&rep, "bench.csv", "GET", 99, &bound);
    CHECK(p == &rows[1] && bound == 1);
    CHECK_NEAR(app_reported_step(&rep, p), 1000, 1e-9);
    p = app_reported_op_at(&rep, "bench.csv", "GET", 100, &bound);
    CHECK(p == &rows[2] && bound == 0);
}

/* An HdrHistogram table's counts give a rank interval: with one row per
 * value 1..1000 (count = value), the bounds sit one row below the lower
 * rank and at the upper rank of pct_quantile_ci over the same values. */
static void reported_ci_should_follow_the_ranks_of_the_counts(void)
{
    static cow_pctl_row rows[1000];
    static double vals[1000];
    app_reported rep = {rows, 1000};
    cow_qci ci;
    cow_err e = COW_ERR_INIT;
    double lo = 0, hi = 0;
    int i;

    for (i = 0; i < 1000; i++) {
        memset(&rows[i], 0, sizeof(rows[i]));
        snprintf(rows[i].source, sizeof(rows[i].source), "hdr");
        rows[i].file = "t.hgrm";
        rows[i].q = 100.0 * (i + 1) / 1000;
        rows[i].value_us = i + 1;
        rows[i].count = i + 1;
        vals[i] = i + 1;
    }
    CHECK_INT(pct_quantile_ci(vals, 1000, 0.9, 0.95, &ci, &e), COW_OK);
    CHECK(app_reported_ci(&rep, app_reported_at(&rep, 90), &lo, &hi));
    CHECK_NEAR(lo, (double)ci.lo_rank - 1, 0);
    CHECK_NEAR(hi, (double)ci.hi_rank, 0);
    CHECK_INT(app_reported_total(&rep, &rows[0]), 1000);
    /* p99.9 of 1000 values has no finite upper bound: no interval */
    CHECK(!app_reported_ci(&rep, app_reported_at(&rep, 99.9), &lo, &hi));
    /* a memtier row (its count is the total) gives none either */
    snprintf(rows[899].source, sizeof(rows[899].source), "memtier");
    CHECK(!app_reported_ci(&rep, &rows[899], &lo, &hi));
}

/* A synthetic fleet: the 3 failing runs share kernel 6.1.0-fail and THP
 * always; one passing run has that kernel too, none has THP always. */
static void triage_should_rank_what_the_failing_runs_share(void)
{
    app_triage_facts f[10];
    int failed[10], i, a;
    app_triage tr;

    memset(f, 0, sizeof(f));
    for (i = 0; i < 10; i++) {
        failed[i] = i < 3;
        snprintf(f[i].v[TRI_VERSION], sizeof(f[i].v[0]), "redis 7.0.15");
        snprintf(f[i].v[TRI_KERNEL], sizeof(f[i].v[0]), "%s",
                 i < 4 ? "6.1.0-fail" : "6.8.0");
        snprintf(f[i].v[TRI_THP_MODE], sizeof(f[i].v[0]), "%s", i < 3 ? "always" : "madvise");
        snprintf(f[i].v[TRI_THP_HEAP], sizeof(f[i].v[0]), "%s", i < 3 ? "yes" : "unknown");
        snprintf(f[i].v[TRI_OVERCOMMIT], sizeof(f[i].v[0]), "%d", i % 2);
        snprintf(f[i].v[TRI_DISKLESS], sizeof(f[i].v[0]), "yes");
        snprintf(f[i].v[TRI_DATASET], sizeof(f[i].v[0]), "128-256 MiB");
        snprintf(f[i].v[TRI_KEYS], sizeof(f[i].v[0]), "100k-1M");
        snprintf(f[i].v[TRI_HOST], sizeof(f[i].v[0]), "h%d", i);
    }
    app_triage_rank(f, failed, 10, &tr);
    CHECK_INT(tr.failing, 3);
    CHECK_INT(tr.passing, 7);
    CHECK_INT(tr.nattr, TRI_COUNT);
    /* THP always and AnonHugePages yes: 3/3 failing, 0/7 passing; the enum
     * order breaks their tie */
    CHECK_INT(tr.a[0].attr, TRI_THP_MODE);
    CHECK_NEAR(tr.a[0].separation, 1.0, 1e-12);
    CHECK_STR(tr.a[0].v[0].value, "always");
    CHECK_INT(tr.a[0].v[0].failing, 3);
    CHECK_INT(tr.a[0].v[0].passing, 0);
    CHECK_STR(tr.a[0].v[1].value, "madvise");
    CHECK_INT(tr.a[0].v[1].passing, 7);
    CHECK_INT(tr.a[1].attr, TRI_THP_HEAP);
    /* kernel: 3/3 - 1/7 */
    CHECK_INT(tr.a[2].attr, TRI_KERNEL);
    CHECK_NEAR(tr.a[2].separation, 1.0 - 1.0 / 7, 1e-12);
    CHECK_STR(tr.a[2].v[0].value, "6.1.0-fail");
    CHECK_INT(tr.a[2].v[0].failing, 3);
    CHECK_INT(tr.a[2].v[0].passing, 1);
    CHECK_NEAR(tr.a[2].v[1].separation, -6.0 / 7, 1e-12);
    /* overcommit: 0 on runs 0, 2 (2 failing) and 4, 6, 8 (3 passing):
     * 2/3 - 3/7; then host (each value 1/3), then the shared ones (0) */
    CHECK_INT(tr.a[3].attr, TRI_HOST);
    CHECK_NEAR(tr.a[3].separation, 1.0 / 3, 1e-12);
    CHECK_STR(tr.a[3].v[0].value, "h0");
    CHECK_INT(tr.a[4].attr, TRI_OVERCOMMIT);
    CHECK_NEAR(tr.a[4].separation, 2.0 / 3 - 3.0 / 7, 1e-12);
    CHECK_STR(tr.a[4].v[0].value, "0");
    for (a = 5; a < TRI_COUNT; a++)
        CHECK_NEAR(tr.a[a].separation, 0, 1e-12);
    CHECK_INT(tr.a[5].attr, TRI_VERSION);
    CHECK_INT(tr.a[6].attr, TRI_DISKLESS);
    CHECK_INT(tr.a[7].attr, TRI_DATASET);
    CHECK_INT(tr.a[7].nv, 1);
    CHECK_INT(tr.a[8].attr, TRI_KEYS);
    app_triage_release(&tr);
    /* nothing fails: nothing to rank */
    for (i = 0; i < 10; i++)
        failed[i] = 0;
    app_triage_rank(f, failed, 10, &tr);
    CHECK_INT(tr.nattr, 0);
    CHECK_INT(tr.passing, 10);
    app_triage_release(&tr);
    /* everything fails: shares among failing alone */
    for (i = 0; i < 10; i++)
        failed[i] = 1;
    app_triage_rank(f, failed, 10, &tr);
    CHECK_INT(tr.a[0].attr, TRI_VERSION);
    CHECK_NEAR(tr.a[0].separation, 1.0, 1e-12);
    app_triage_release(&tr);
}

/* The triage's values are the run's facts (run_facts' columns): each
 * attribute from its column, "unknown" when the fact is. */
static void triage_should_read_the_run_facts(void)
{
    cow_fact v[COW_RF_COUNT];
    cow_run_row r;
    app_triage_facts f;
    int i;

    memset(v, 0, sizeof(v));
    for (i = 0; i < COW_RF_COUNT; i++)
        v[i].num = NAN;
    memset(&r, 0, sizeof(r));
    app_triage_of(&r, v, &f);
    for (i = 0; i < TRI_COUNT; i++)
        CHECK_STR(f.v[i], APP_TRIAGE_UNKNOWN);
#define TEXT(id, s) (v[id].known = 1, snprintf(v[id].text, sizeof(v[id].text), "%s", s))
#define NUM(id, x) (v[id].known = 1, v[id].num = (x))
    TEXT(RF_SERVER_KIND, "valkey");
    TEXT(RF_SERVER_VERSION, "8.1.1");
    TEXT(RF_KERNEL, "6.1.0-18-amd64");
    TEXT(RF_THP_ENABLED, "always");
    NUM(RF_ANON_HUGE, 2097152);
    NUM(RF_OVERCOMMIT, 1);
    TEXT(RF_DISKLESS, "no");
    NUM(RF_USED_MEMORY, 151.0 * 1048576);
    NUM(RF_KEYS, 300000);
#undef TEXT
#undef NUM
    r.host = (char *)"cache-a";
    app_triage_of(&r, v, &f);
    CHECK_STR(f.v[TRI_VERSION], "valkey 8.1.1");
    CHECK_STR(f.v[TRI_KERNEL], "6.1.0-18-amd64");
    CHECK_STR(f.v[TRI_THP_MODE], "always");
    CHECK_STR(f.v[TRI_THP_HEAP], "yes");
    CHECK_STR(f.v[TRI_OVERCOMMIT], "1");
    CHECK_STR(f.v[TRI_DISKLESS], "no");
    CHECK_STR(f.v[TRI_DATASET], "128-256 MiB");
    CHECK_STR(f.v[TRI_KEYS], "100k-1M");
    CHECK_STR(f.v[TRI_HOST], "cache-a");
    v[RF_ANON_HUGE].num = 0;
    app_triage_of(&r, v, &f);
    CHECK_STR(f.v[TRI_THP_HEAP], "no");
}

static void triage_bucket_should_be_powers_of_two(void)
{
    char b[64];
    app_triage_bucket(151.0 * 1048576, b, sizeof(b));
    CHECK_STR(b, "128-256 MiB");
    app_triage_bucket(128.0 * 1048576, b, sizeof(b));
    CHECK_STR(b, "128-256 MiB");
    app_triage_bucket(128.0 * 1048576 - 1, b, sizeof(b));
    CHECK_STR(b, "64-128 MiB");
    app_triage_bucket(600.0 * 1048576, b, sizeof(b));
    CHECK_STR(b, "512 MiB-1 GiB");
    app_triage_bucket(1.5 * 1073741824, b, sizeof(b));
    CHECK_STR(b, "1-2 GiB");
    app_triage_bucket(1, b, sizeof(b));
    CHECK_STR(b, "1-2 B");
    app_triage_bucket(0, b, sizeof(b));
    CHECK_STR(b, "0 B");
    app_triage_bucket(NAN, b, sizeof(b));
    CHECK_STR(b, APP_TRIAGE_UNKNOWN);
    app_triage_bucket10(300000, b, sizeof(b));
    CHECK_STR(b, "100k-1M");
    app_triage_bucket10(100000, b, sizeof(b));
    CHECK_STR(b, "100k-1M");
    app_triage_bucket10(99999, b, sizeof(b));
    CHECK_STR(b, "10k-100k");
    app_triage_bucket10(1, b, sizeof(b));
    CHECK_STR(b, "1-10");
    app_triage_bucket10(999, b, sizeof(b));
    CHECK_STR(b, "100-1k");
    app_triage_bucket10(2.5e9, b, sizeof(b));
    CHECK_STR(b, "1G-10G");
    app_triage_bucket10(0, b, sizeof(b));
    CHECK_STR(b, "0");
    app_triage_bucket10(-1, b, sizeof(b));
    CHECK_STR(b, APP_TRIAGE_UNKNOWN);
}

typedef struct check_rows {
    int rows, host_rows, fail_rows;
    long long host_runs;
    double host_min_n;
} check_rows;

static int count_check_row(void *ctx, const char *const *cols, const cow_xval *v, int n)
{
    check_rows *c = ctx;
    int i, host = 0, fail = 0;
    for (i = 0; i < n; i++) {
        if (strcmp(cols[i], "scope") == 0)
            host = v[i].type == COW_XTEXT && strcmp(v[i].s, "host") == 0;
        if (strcmp(cols[i], "verdict") == 0)
            fail = v[i].type == COW_XTEXT && strcmp(v[i].s, "fail") == 0;
    }
    c->rows++;
    c->host_rows += host;
    c->fail_rows += fail;
    if (host) {
        CHECK_STR(cols[1], "run");
        CHECK_INT(v[1].n, 0);                   /* a host's row has no run */
        CHECK_STR(v[0].s, "vm");
        for (i = 0; i < n; i++) {
            if (strcmp(cols[i], "runs") == 0)
                c->host_runs = v[i].i;
            if (strcmp(cols[i], "limit_name") == 0 && strcmp(v[i].s, "min_samples") == 0)
                c->host_min_n = v[i + 2].type == COW_XREAL ? v[i + 2].d : (double)v[i + 2].i;
        }
    }
    return 0;
}

/* Three runs of host vm: each judged, the host once on their pooled
 * samples; the checks table holds both, replaced by the next check. */
static void check_fleet_should_judge_hosts_and_store_the_checks(void)
{
    static const char *const names[] = {"bgsave-t1", "bgsave-t2", "steady"};
    cow_run_row *rows = NULL;
    size_t n = 0, i, j, win = 0;
    cow_store *st = loaded(names, 3, &rows, &n);
    cow_err e = COW_ERR_INIT;
    app_thresholds t;
    app_fleet_check fc;
    check_rows c;

    snprintf(scratch, sizeof(scratch), "/tmp/cow_test_appXXXXXX");
    CHECK(mkdtemp(scratch) != NULL);
    CHECK_INT(app_load_thresholds(scratch_file("t.json",
        "{\"max_p999_lift_ms\": {\"limit\": 1000, \"missing\": \"pass\"},"
        " \"max_fork_ms\": 0, \"min_samples\": 1000}"),
        &t, &e), COW_OK);
    CHECK_INT(app_check_fleet(st, rows, n, &t, COW_FLEET_HOLM, 1, NULL, &fc, &e), COW_OK);
    CHECK_INT(fc.n, 3);
    CHECK_INT(fc.nh, 1);
    CHECK_STR(fc.h[0].host, "vm");
    CHECK_INT(fc.h[0].nruns, 3);
    CHECK_INT(fc.m, 2);   /* the saving runs x 1 latency limit (steady has no window) */
    CHECK_INT(fc.mh, 1);  /* 1 host x 1 latency limit */
    CHECK_INT(fc.hv[0][TH_MIN_N].value, rows[0].samples + rows[1].samples + rows[2].samples);
    /* check makes no analysis and stores none */
    for (i = 0; i < n; i++) {
        int done = 1;
        CHECK_INT(store_analysed(st, rows[i].id, &done, &e), COW_OK);
        CHECK_INT(done, 0);
    }
    /* the pooled windows: every window sample once (no overlap here), the
     * windows check made for itself being those a full analysis makes */
    CHECK_INT(app_analyze_all(st, rows, n, 1, 1, 199, 1, NULL, &e), COW_OK);
    for (i = 0; i < n; i++) {
        cow_result_set rs;
        CHECK_INT(store_load_results(st, rows[i].id, &rs, &e), COW_OK);
        for (j = 0; j < rs.nph; j++)
            if (phase_is_window(phase_kind_from_name(rs.ph[j].kind)))
                win += (size_t)rs.ph[j].n;
        store_free_results(&rs);
    }
    CHECK(win > 0);
    CHECK_INT(fc.hv[0][TH_P999_LIFT].n, win);
    CHECK(!isnan(fc.hv[0][TH_P999_LIFT].p_adj));
    CHECK_INT(fc.hv[0][TH_P999_LIFT].state, APP_PASS);
    /* fork > 0 ms on the saving runs: they and the host fail */
    CHECK_INT(fc.nfailed, 2);
    CHECK_INT(fc.nhfailed, 1);
    CHECK(strstr(fc.hv[0][TH_FORK].note, "worst run bgsave-t") != NULL);
    CHECK_INT(fc.tri.failing, 2);
    CHECK_INT(fc.tri.passing, 1);
    CHECK_INT(app_check_save(st, rows, &t, &fc, &e), COW_OK);
    CHECK_INT(app_check_save(st, rows, &t, &fc, &e), COW_OK); /* replaces, never adds */
    memset(&c, 0, sizeof(c));
    CHECK_INT(store_export_rows(st, "checks", 7, count_check_row, &c, &e), COW_OK);
    CHECK_INT(c.rows, 4 * 3);      /* (3 runs + 1 host) x 3 limits */
    CHECK_INT(c.host_rows, 3);
    CHECK_INT(c.fail_rows, 2 + 1); /* fork: two runs and the host */
    CHECK_INT(c.host_runs, 3);
    CHECK_NEAR(c.host_min_n, (double)(rows[0].samples + rows[1].samples + rows[2].samples),
               0);
    app_check_fleet_release(&fc);
    store_free_runs(rows, n);
    store_close(st);
}

int main(void)
{
    RUN(analyze_should_store_what_it_returns);
    RUN(diff_should_find_no_difference_with_itself);
    RUN(check_should_fail_a_limit_below_the_measured_p99);
    RUN(diff_should_pool_the_windows_of_a_saving_run);
    RUN(check_should_judge_every_limit);
    RUN(thresholds_should_refuse_numbers_beyond_a_double_in_us);
    RUN(doctor_should_store_the_findings_it_returns);
    RUN(tradeoff_should_compare_fork_with_forkless);
    RUN(report_should_write_every_output);
    RUN(report_should_say_why_a_chart_is_not_drawn);
    RUN(report_should_keep_a_long_label_whole);
    RUN(ingest_should_say_what_it_refused_and_skipped);
    RUN(ingest_should_take_the_flags_that_override_run_json);
    RUN(report_dir_should_be_missing_empty_or_marked);
    RUN(pctonly_runs_should_count_in_analyze_diff_and_check);
    RUN(reported_ci_should_follow_the_ranks_of_the_counts);
    RUN(triage_should_rank_what_the_failing_runs_share);
    RUN(triage_bucket_should_be_powers_of_two);
    RUN(triage_should_read_the_run_facts);
    RUN(check_fleet_should_judge_hosts_and_store_the_checks);
    RUN(answers_should_decide_each_run_once);
    RUN(answers_should_give_the_same_evidence_the_same_cause);
    RUN(answers_should_list_a_rise_the_p999_could_not_tell);
    RUN(quiet_line_should_name_unsure_runs_by_reason);
    RUN(answer_should_say_which_worst_sample);
    RUN(answer_should_state_the_probes_send_lag);
    RUN(reported_should_read_one_command_at_every_level);
    RUN(report_should_judge_each_fleet_run_once);
    RUN(report_doc_rows_should_read_against_each_other);
    RUN(runjson_should_read_synthetic_strictly);
    RUN(report_should_mark_a_synthetic_run_and_no_other);
    return REPORT();
}
