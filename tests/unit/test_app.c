/* test_app.c -- the application layer on :memory: stores: ingest a
 * bundled capture, analyse it, compare runs, check thresholds. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "app.h"
#include "check.h"
#include "diff.h"
#include "minunit.h"
#include "pct.h"

/* A sample folder (COW_SAMPLES, set by ctest). */
static char *sample(const char *name)
{
    static char path[4][1024];
    static int k;
    const char *dir = getenv("COW_SAMPLES");
    k = (k + 1) % 4;
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
    cow_runstats_opts o = {COW_PCT_LINEAR, 199, 7};
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
        CHECK_INT(r.d[l].verdict, COW_VERDICT_FLAT);
        CHECK_INT(r.run_q[l].state, r.base_q[l].state);
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
    CHECK_INT(v[TH_P99].state, APP_FAIL);
    CHECK(v[TH_P99].value > 0.001);
    CHECK_INT(v[TH_MIN_N].state, APP_PASS);
    CHECK_INT(v[TH_MIN_N].value, rows[0].samples);
    fp = fopen(path, "w");
    fprintf(fp, "{\"max_p99_ms\": \"1\"}\n");
    fclose(fp);
    CHECK_INT(app_load_thresholds(path, &t, &e), COW_EPARSE);
    CHECK(strstr(e.msg, "max_p99_ms") != NULL);
    remove(path);
    store_free_runs(rows, n);
    store_close(st);
}

int main(void)
{
    RUN(analyze_should_store_what_it_returns);
    RUN(diff_should_find_no_difference_with_itself);
    RUN(check_should_fail_a_limit_below_the_measured_p99);
    return REPORT();
}
