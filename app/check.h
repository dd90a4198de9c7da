/* check.h -- the fleet gate: a run against the limits of a thresholds file
 * (schemas/thresholds.schema.json). */
#ifndef COW_APP_CHECK_H
#define COW_APP_CHECK_H

#include <stdio.h>

#include "app.h"
#include "dep.h"
#include "err.h"
#include "phase.h"
#include "store.h"
#include "triage.h"
#include "verdict.h"

enum { TH_P999_LIFT, TH_P99_LIFT, TH_P99, TH_P999, TH_COW, TH_FORK, TH_THP, TH_MIN_N, TH_COUNT };

/* The file's keys, in TH_* order. */
extern const char *const app_th_keys[TH_COUNT];

typedef struct app_thresholds {
    int set[TH_COUNT];     /* key present */
    double v[TH_COUNT];    /* limit (bool as 0/1) */
    int missing_pass[TH_COUNT]; /* {"limit": x, "missing": "pass"}: a run
                                   without the data passes (default: fails) */
    cow_qcmp_margin margin;  /* "margin_rel", "margin_ms" (verdict.h's
                                defaults where absent): the materiality of
                                analyze's and report's equivalence (~) and
                                of a baseline that moved; check's own
                                judgement takes each limit as its margin */
} app_thresholds;

/* Read a thresholds file; unknown keys and wrong types are errors naming
 * the file. A limit is a value or {"limit": value, "missing": "pass"|"fail"}. */
int app_load_thresholds(const char *path, app_thresholds *t, cow_err *e);

enum { APP_PASS = 0, APP_FAIL = 1, APP_NA = 2 };

typedef struct app_verdict {
    int state;            /* APP_PASS, APP_FAIL, APP_NA */
    double value;         /* measured, NaN if unknown */
    double p;             /* one-sided p-value of "over the limit"; NaN for a
                             limit without sampling error (COW, fork, THP,
                             min_samples) or without data */
    double p_adj;         /* p after the fleet's correction (app_check_correct) */
    const char *method;   /* bootstrap / tail-test / binomial, or NULL */
    double n, n_eff;      /* samples behind p and their effective number */
    char note[400];       /* why n/a, or the detail */
} app_verdict;

/* The limits of t that v fails, for a table cell: "max_fork_ms 20.191
 * (limit 15; raw p 0.01, adjusted p 0.04), ..." ("" when none), cut at n. */
void app_failing_limits(const app_thresholds *t, const app_verdict *v, char *buf, size_t n);

/* Runs judged while `check` ingested them (check_ingest.c), by run id. */
typedef struct app_prejudged {
    int64_t *run;                 /* runs, in the order they landed */
    app_verdict (*v)[TH_COUNT];   /* v[i]: run[i]'s app_check_run */
    size_t n, cap_run, cap_v;
    int64_t *order;               /* app_prejudged_index: (run, i) by run */
} app_prejudged;

/* Evaluate run r against every limit, on phases made for it and not
 * stored (app_judged_phases; a stored analysis is not read, so the
 * verdict depends on the run's input and t alone): it only reads, so any
 * connection will do. out[k] is filled for every k,
 * set or not. A limit with a p-value
 * is left APP_PASS until app_check_correct() decides it. A set limit
 * whose data are missing fails ("no samples: cannot judge max_p99_ms")
 * unless it says "missing": "pass". */
int app_check_run(cow_store *st, const cow_run_row *r, const app_thresholds *t,
                  app_verdict out[TH_COUNT], cow_err *e);

/* app_check_run for every run of rows[0..n) on jobs worker threads (0:
 * one per core), each with its own connection (a run in pre: its verdict
 * copied; pre may be NULL); v[i] is rows[i]'s, the same for every jobs.
 * On failure *ndone is the number of runs (in order) judged before the
 * first that failed. */
int app_check_runs(cow_store *st, const cow_run_row *rows, size_t n, const app_thresholds *t,
                   int jobs, const app_prejudged *pre, app_verdict (*v)[TH_COUNT],
                   size_t *ndone, cow_err *e);

/* Ingest paths quietly (app_ingest_quiet, *tot its totals), analysing and
 * judging against t each run as it lands, on jobs worker threads beside
 * the ingest; pre (released with app_prejudged_release) receives the
 * verdicts. The database ends as after ingest and app_analyze_all of the
 * runs; the verdicts are what app_check_run gives afterwards. Returns the
 * ingest's exit code (EXIT_IO when analysing failed, said through app_error). */
int app_check_ingest(cow_store *st, char **paths, int npaths, int jobs,
                     const app_thresholds *t, cow_ingest_totals *tot,
                     app_prejudged *pre);
/* Sort pre for app_prejudged_find. */
void app_prejudged_index(app_prejudged *pre);
/* run's verdict in pre (indexed), or NULL when it was not judged there. */
const app_verdict *app_prejudged_find(const app_prejudged *pre, int64_t run);
void app_prejudged_release(app_prejudged *pre);

/* The longest of lat[0..n) (0 when empty). */
double app_longest(const double *lat, size_t n);
/* Phase i's samples of a run in memory (ts ascending send times, lat; the
 * run's longest latency), as analyze assigns them (in flight, phase.h):
 * time order in *time and a sorted copy in *sorted, both the caller's. */
cow_group app_phase_group(const cow_phases *ph, size_t i, const int64_t *ts,
                          const double *lat, size_t n, double longest, double **time,
                          double **sorted);

/* Every check with a p-value of runs v[0..n) fails when its p-value,
 * adjusted over all of them (method: enum cow_fleet_method), is <=
 * APP_CHECK_ALPHA. Returns the number of comparisons. */
#define APP_CHECK_ALPHA 0.05
size_t app_check_correct(app_verdict (*v)[TH_COUNT], size_t n, const app_thresholds *t,
                         int method);

/* Every verdict n/a, no value, no p-value. */
void app_check_clear(app_verdict out[TH_COUNT]);

/* x has no data for limit k: fail closed ("WHAT: cannot judge KEY")
 * unless the limit says "missing": "pass". */
void app_check_missing(app_verdict *x, const app_thresholds *t, int k, const char *what);

/* 1 when verdicts v fail a set limit of t. */
int app_check_failed(const app_verdict v[TH_COUNT], const app_thresholds *t);

/* ---- the fleet: every run, then every host with several runs (check_fleet.c) */

/* A host with several runs, judged once on their pooled samples. */
typedef struct app_host_check {
    const char *host;      /* borrowed from the rows */
    size_t *runs;          /* indexes of its runs in the rows, owned */
    size_t nruns;
} app_host_check;

typedef struct app_fleet_check {
    int method;            /* enum cow_fleet_method */
    size_t n;              /* runs judged (fewer than asked when an error stopped) */
    app_verdict (*v)[TH_COUNT]; /* per run */
    int *failed;           /* per run: fails a set limit */
    int nfailed;
    size_t m;              /* comparisons of the runs' family */
    app_host_check *h;     /* hosts with two runs or more, in order of first run */
    size_t nh;
    app_verdict (*hv)[TH_COUNT]; /* per host */
    int *hfailed;
    int nhfailed;
    size_t mh;             /* comparisons of the hosts' family */
    app_triage tri;        /* what the failing runs share */
    int64_t evaluated_us;  /* when (UTC epoch us) */
} app_fleet_check;

/* Judge every run rows[0..n) (app_check_run), correct over runs x latency
 * limits; then every host with two runs or more on their pooled samples
 * (baselines with baselines, windows with windows, whole runs for the
 * quantile limits; the worst run's value for COW, fork and THP, the sum
 * for min_samples), corrected over hosts x latency limits, a family of
 * its own; then the triage of the runs. On error out->n says how many
 * runs were judged. jobs: runs judged at once (0: one per core). pre
 * (indexed; NULL: none) holds runs judged already (app_check_ingest),
 * whose verdicts are taken as they are. Release with
 * app_check_fleet_release. */
int app_check_fleet(cow_store *st, const cow_run_row *rows, size_t n,
                    const app_thresholds *t, int method, int jobs,
                    const app_prejudged *pre, app_fleet_check *out, cow_err *e);
void app_check_fleet_release(app_fleet_check *fc);

/* Replace the checks table (schemas/010_checks.sql) by fc's verdicts. */
int app_check_save(cow_store *st, const cow_run_row *rows, const app_thresholds *t,
                   const app_fleet_check *fc, cow_err *e);

#endif
