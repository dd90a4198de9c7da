/* check.h -- the fleet gate: a run against the limits of a thresholds file
 * (schemas/thresholds.schema.json). */
#ifndef COW_APP_CHECK_H
#define COW_APP_CHECK_H

#include "err.h"
#include "store.h"

enum { TH_P999_LIFT, TH_P99_LIFT, TH_P99, TH_P999, TH_COW, TH_FORK, TH_THP, TH_MIN_N, TH_COUNT };

/* The file's keys, in TH_* order. */
extern const char *const app_th_keys[TH_COUNT];

typedef struct app_thresholds {
    int set[TH_COUNT];     /* key present */
    double v[TH_COUNT];    /* limit (bool as 0/1) */
} app_thresholds;

/* Read a thresholds file; unknown keys and wrong types are errors naming
 * the file. */
int app_load_thresholds(const char *path, app_thresholds *t, cow_err *e);

enum { APP_PASS = 0, APP_FAIL = 1, APP_NA = 2 };

typedef struct app_verdict {
    int state;            /* APP_PASS, APP_FAIL, APP_NA */
    double value;         /* measured, NaN if unknown */
    char note[160];       /* why n/a, or the detail */
} app_verdict;

/* Evaluate run r (analysing it first when it never was) against every
 * limit; out[k] is filled for every k, set or not. */
int app_check_run(cow_store *st, const cow_run_row *r, const app_thresholds *t,
                  app_verdict out[TH_COUNT], cow_err *e);

#endif
