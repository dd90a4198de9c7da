/* clock.h -- settle a server log's UTC offset when no zone was given.
 *
 *     long off;
 *     i = clock_decide(d_s, tol_s, n, &off, &agree);   pairs best first
 *     if (i < 0 && clock_hour_guess(starts, ns, t_first, t_last, &off)) ...
 *
 * A pair is a log stamp and a UTC source naming the same instant; d_s is
 * the log's stamp read as UTC minus that instant. Zones are whole quarter
 * hours, so a pair decides when d_s lies within its tolerance of the
 * 15-minute grid. Pure: no I/O. */
#ifndef COW_ANALYSIS_CLOCK_H
#define COW_ANALYSIS_CLOCK_H

#include <stddef.h>
#include <stdint.h>

/* UTC offsets come in quarter hours, from -12:00 to +14:00. */
#define COW_ZONE_GRID_S 900
#define COW_ZONE_MIN_S (-12 * 3600)
#define COW_ZONE_MAX_S (14 * 3600)

/* Index of the first pair that falls on the grid (its offset in *off_s,
 * how many pairs give the same offset in *agree), or -1. */
long clock_decide(const double *d_s, const double *tol_s, size_t n, long *off_s,
                  size_t *agree);

/* No pair: when none of the window stamps t[] lies within the samples'
 * span [t_first, t_last] but some would under a whole-hour offset, that
 * offset (the one placing the most, nearest zero) in *off_s: return 1. */
int clock_hour_guess(const int64_t *t, size_t n, int64_t t_first, int64_t t_last,
                     long *off_s);

#endif
