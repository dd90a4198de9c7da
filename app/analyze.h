/* analyze.h -- analyse one run: cut it into phases, compute each phase's
 * quantiles with intervals and the deltas against the baseline, and store
 * the results (phases, quantiles, deltas, exceedance) in one transaction. */
#ifndef COW_APP_ANALYZE_H
#define COW_APP_ANALYZE_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "phase.h"
#include "reported.h"
#include "runstats.h"
#include "store.h"

/* One run's analysis, as stored. */
typedef struct app_analysis {
    cow_phases ph;       /* the phases */
    cow_runstats rs;     /* their statistics */
    size_t n;            /* latency samples in the run */
    int64_t t_first_us;  /* first sample (0 without samples) */
    int64_t t_last_us;   /* last sample (0 without samples) */
    app_reported rep;    /* percentiles percentile-only tools reported */
} app_analysis;

/* Analyse run r with options o and store the results; out (released with
 * app_analysis_release, also on error) receives them. */
int app_analyze(cow_store *st, const cow_run_row *r, const cow_runstats_opts *o,
                app_analysis *out, cow_err *e);
/* The same choosing how samples are assigned to windows: in flight (0,
 * the default: phase_keep_in_flight) or by send time alone (1). A run
 * whose server log's clock does not match its samples (see
 * app_settle_clocks) is refused with COW_ECLOCK. */
int app_analyze_assign(cow_store *st, const cow_run_row *r, const cow_runstats_opts *o,
                       int by_send, app_analysis *a, cow_err *e);
void app_analysis_release(app_analysis *a);

/* "linear" or "nearest". */
const char *app_method_name(int method);

#endif
