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

/* The rules (diag.h's cow_rule_fn), in the table's order. */
int rule_tail_only_lift(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_full_lift(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_thin_tail(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_fork_not_the_cost(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_fork_is_the_cost(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
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
int rule_overcommit(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_swappiness(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_numa_balancing(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_thp_always(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_ingest_refusals(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_clock_mismatch(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_replica_lag(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_log_cow(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_child_killed(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_latmon_thp(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);
int rule_latmon_spike(const cow_run_facts *r, size_t n, size_t i, cow_finding *f);

#endif
