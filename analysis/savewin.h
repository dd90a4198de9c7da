/* savewin.h -- what a run's save did: which window is "the save", how
 * much memory grew over it, how long it took, and how fast the writers
 * went. The doctor's facts, the trade-off table and the memory chart all
 * take these numbers from here, so they cannot disagree.
 *
 *     int w = savewin_pick(ph, n);                     -1: no window
 *     double level, mb = savewin_growth(t, bytes, m, &ph[w], &level) / 1048576;
 *     double secs = savewin_seconds(ph, n);            NaN: not from the log
 *     double ops_s = savewin_rate(dur_s, ops, k);      NaN: no intervals
 *
 * Pure: arrays in, numbers out; the requirements are listed in savewin.c. */
#ifndef COW_ANALYSIS_SAVEWIN_H
#define COW_ANALYSIS_SAVEWIN_H

#include <stddef.h>
#include <stdint.h>

#include "phase.h"

/* Index in ph[0..n) of the save window (Requirement 1), -1 for none. */
int savewin_pick(const cow_phase *ph, size_t n);

/* The memory level at t0: the last of the time-ordered samples
 * (t[i], bytes[i]) at or before t0, NaN when none is (Requirement 2). */
double savewin_level(const int64_t *t, const double *bytes, size_t n, int64_t t0);

/* Growth over window w (Requirement 3): the largest sample inside it
 * minus savewin_level at its start, NaN when either is unknown. *level
 * (when not NULL) receives that level. */
double savewin_growth(const int64_t *t, const double *bytes, size_t n, const cow_phase *w,
                      double *level);

/* Wall time of the first save cut from log lines, in seconds
 * (Requirement 4), NaN when there is none. */
double savewin_seconds(const cow_phase *ph, size_t n);

/* Operations per second over intervals of dur_s[i] seconds holding ops[i]
 * operations (Requirement 5), NaN when no interval has both. */
double savewin_rate(const double *dur_s, const double *ops, size_t n);

/* Operations per second from a cumulative counter c sampled at t
 * (Requirement 6), NaN when it cannot tell. */
double savewin_counter_rate(const int64_t *t_us, const double *c, size_t n);

/* Growth over the whole series: its largest sample minus its first
 * (Requirement 7), NaN when empty. */
double savewin_growth_all(const double *bytes, size_t n);

/* Operations per second during window w from intervals starting at t_us[i]
 * of dur_s[i] seconds holding ops[i] operations, each counted by the share
 * of it inside the window (Requirement 8), NaN when none overlaps. */
double savewin_rate_in(const int64_t *t_us, const double *dur_s, const double *ops,
                       size_t n, const cow_phase *w);

/* 1 when the intervals outside w (none of it overlapping w, at least 3)
 * each ran within rel (a share) of their mean rate: a load paced at a
 * fixed rate, whose throughput falls only when the server falls behind. */
int savewin_rate_steady(const int64_t *t_us, const double *dur_s, const double *ops, size_t n,
                        const cow_phase *w, double rel);

/* Operations per second during window w from a cumulative counter: over
 * the shortest span of its samples that holds the window (Requirement 9),
 * NaN when no sample is that early or that late. */
double savewin_counter_rate_in(const int64_t *t_us, const double *c, size_t n,
                               const cow_phase *w);

#endif
