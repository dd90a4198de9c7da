/* impact.h -- what a window cost the clients, from the samples alone:
 * the longest stall (the longest time no reply came while a request was
 * outstanding) and how many requests were slower than a threshold.
 *
 *     double stall_us = impact_longest_stall(send_us, lat_us, n);   NaN: n == 0
 *     size_t slow = impact_count_above(lat_us, n, base_p99_us);
 *
 * Pure: arrays in, numbers out; the requirements are listed in impact.c. */
#ifndef COW_ANALYSIS_IMPACT_H
#define COW_ANALYSIS_IMPACT_H

#include <stddef.h>
#include <stdint.h>

/* The longest stall among n requests sent at send_us[i] that took lat_us[i]
 * (Requirements 1-4), in microseconds; NaN when n == 0. */
double impact_longest_stall(const int64_t *send_us, const double *lat_us, size_t n);

/* The same, and where the stall began (us, on send_us's clock: the
 * reply before it or its oldest outstanding send, the later) into
 * *start_us (may be NULL; NaN when there is none). */
double impact_longest_stall_at(const int64_t *send_us, const double *lat_us, size_t n,
                               double *start_us);

/* Requests with lat_us[i] > thr_us (Requirement 5); 0 when thr_us is NaN. */
size_t impact_count_above(const double *lat_us, size_t n, double thr_us);

#endif
