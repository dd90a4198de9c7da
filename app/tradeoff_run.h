/* tradeoff_run.h -- the trade-off between save modes over trials: choose
 * the runs, gather each run's metrics (facts_trial), compare the modes
 * (analysis/tradeoff.c). */
#ifndef COW_APP_TRADEOFF_RUN_H
#define COW_APP_TRADEOFF_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "store.h"
#include "tradeoff.h"

/* Which runs: those labelled (none given: all), of a scenario and host
 * (NULL: any; both NULL and no label: the group facts_tradeoff_group
 * picks). Runs without a mode or without samples are left out. */
typedef struct app_tradeoff_sel {
    char **labels;          /* RUN... */
    int nlabels;
    const char *scenario;   /* --scenario */
    const char *host;       /* --host */
} app_tradeoff_sel;

typedef struct app_tradeoff {
    cow_trial *tr;          /* the trials, in run order */
    size_t nt;
    cow_tradeoff t;         /* the comparison (when nt > 0) */
    int picked;             /* the group was picked (host/scenario below) */
    const char *host;       /* the group compared (borrowed from rows) */
    const char *scenario;
} app_tradeoff;

/* Compare the modes of the selected runs of rows[0..n) with bootstrap
 * seed. out->nt == 0 when no run qualifies (then nothing is compared). */
int app_tradeoff_run(cow_store *st, const cow_run_row *rows, size_t n,
                     const app_tradeoff_sel *sel, uint64_t seed, app_tradeoff *out,
                     cow_err *e);
void app_tradeoff_release(app_tradeoff *t);

#endif
