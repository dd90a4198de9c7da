/* diag_rules_int.h -- what the doctor's rule files share (private to
 * analysis/): the window helpers of diag_window.c and the rule functions
 * that diag_rules.c's table lists. */
#ifndef COW_ANALYSIS_DIAG_RULES_INT_H
#define COW_ANALYSIS_DIAG_RULES_INT_H

#include <stddef.h>

#include "diag.h"

/* The levels a window fact compares, and their names ("p50" .. "p99.9"). */
enum { L50 = 0, L90 = 1, L99 = 2, L999 = 3 };
extern const char *const diag_level_name[4];

/* p99 or p99.9 lifted significantly. */
int diag_lifted(const cow_window_fact *w);
/* What advice says about vm.overcommit_memory, by what the run holds:
 * "keep vm.overcommit_memory=1" only when it is 1; "set
 * vm.overcommit_memory=1 (it is 0 here)" when it is not; "make sure
 * vm.overcommit_memory=1 (not captured)" when unknown. */
const char *diag_overcommit_advice(const cow_run_facts *x);
/* p50 moved significantly, by a material share of its baseline and of the
 * tail's move. */
int diag_median_moved(const cow_window_fact *w);
/* p50's own interval shows a material rise. */
int diag_median_material(const cow_window_fact *w);
/* The level that lifted most (p99.9 preferred), for titles. */
int diag_lift_level(const cow_window_fact *w);
/* The comparison at level l as a structured field of the finding. */
void diag_delta_stat(cow_finding *f, const cow_window_fact *w, int l);
/* ... and as an evidence line too. */
void diag_delta_evidence(cow_finding *f, const cow_window_fact *w, int l);
/* The fact is known and its text is s (any case). */
int diag_is_text(const cow_fact *v, const char *s);
/* THP's mode as set is mode ("always [madvise] never" or one word). */
int diag_thp_is(const cow_fact *v, const char *mode);

/* A threshold rule (diag_threshold.c): the skeleton several rules share.
 * It fires when its fact is known, passes the test and, with
 * silent_if_known, that other fact is not known; its title, the facts it
 * cites and its advice are fixed text. */
enum { DIAG_KNOWN = 0, /* known is enough */
       DIAG_ABOVE,     /* num > limit (NaN never passes) */
       DIAG_AT_LEAST   /* num >= limit */
};
/* The place of a cow_fact in cow_run_facts (never 0: label comes first). */
#define DIAG_FACT(field) offsetof(cow_run_facts, field)
#define DIAG_MAX_CITES 3
struct cow_threshold {
    size_t fact;                /* DIAG_FACT() of the fact weighed */
    int test;                   /* DIAG_KNOWN, DIAG_ABOVE, DIAG_AT_LEAST */
    double limit;
    size_t silent_if_known;     /* 0, or DIAG_FACT() of a fact that, known,
                                   silences the rule */
    const char *title;          /* the title; with title_after, the part
                                   before the fact's number (%.0f) */
    const char *title_after;    /* NULL: no number in the title */
    struct {
        const char *metric;     /* NULL: no more */
        size_t fact;            /* DIAG_FACT() */
    } cite[DIAG_MAX_CITES];     /* the facts quoted, in order */
    const char *advice;
};
/* A cow_rule_fn's work for a threshold rule: 1 and f filled when t fires
 * for runs[i]. */
int diag_threshold_fire(const struct cow_threshold *t, const cow_run_facts *runs,
                        size_t n, size_t i, cow_finding *f);

/* The rules (diag.h's cow_rule_fn), in the table's order. */
int rule_tail_only_lift(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_full_lift(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_thin_tail(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_fork_not_the_cost(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_fork_is_the_cost(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_kernel_account(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_slow_command(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_command_in_save(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_slowness_outlasts_fork(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_slow_fork(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_thp_backing(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_thp_not_backing(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_disk_vs_diskless(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_full_resyncs(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_readonly_control(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_monitor_blind_spot(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_overlapping_forks(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_cow_headroom(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_aof_still_forks(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_periodic_spikes(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_unstable_baseline(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_overcommit(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_thp_always(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_ingest_refusals(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_clock_mismatch(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_child_killed(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_latmon_spike(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
/* ... threshold rules among them (diag_threshold_fire). */
int rule_swappiness(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_numa_balancing(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_replica_lag(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_log_cow(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_latmon_thp(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);

#endif
