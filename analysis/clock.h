/* clock.h -- settle a server log's UTC offset when no zone was given.
 *
 *     long off;
 *     i = clock_decide(d_s, tol_s, n, &off, &agree);   pairs best first
 *     if (i < 0 && clock_hour_guess(starts, ns, t_first, t_last, &off)) ...
 *
 * A pair is a log stamp and a UTC source naming the same instant; d_s is
 * the log's stamp read as UTC minus that instant. Zones are whole quarter
 * hours, so a pair decides when d_s lies within its tolerance of the
 * 15-minute grid.
 *
 *     k = clock_skew(r0, r1, f0, f1, &off, &gap);      two files of one run
 *
 * compares the span of one file with the run's reference clock (the
 * latency samples'): spans COW_CLOCK_GAP_S or more apart are a clock
 * mismatch, and the offset that lines them up says what kind. Pure: no
 * I/O. */
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

/* Some windows fall inside the samples' span, but a whole-hour offset
 * would place more of them there: that offset (the one placing the most,
 * nearest zero) in *off_s, the counts in *k0 (as read) and *k (shifted):
 * return 1. The zone assumed (UTC) may be wrong. */
int clock_hour_better(const int64_t *t, size_t n, int64_t t_first, int64_t t_last,
                      long *off_s, size_t *k0, size_t *k);

/* Two files of one run whose spans lie this far apart do not share a
 * clock: every zone but UTC is an hour or more off it, and the files of
 * one capture are written during it. */
#define COW_CLOCK_GAP_S 1800

enum cow_skew_kind {
    COW_SKEW_NONE = 0, /* the spans overlap or lie less than the gap apart */
    COW_SKEW_HOUR,     /* a whole-hour offset lines them up: local time? */
    COW_SKEW_GRID,     /* an offset on the 15-minute zone grid does */
    COW_SKEW_OTHER     /* no zone offset does: another clock, or another day */
};

/* A file's span [f0, f1] against the reference span [r0, r1] (us, a span
 * may be one instant). *gap_s: how far apart they lie (0 when they
 * overlap). Not NONE: *off_s is the file's clock minus the reference's,
 * s: the whole hour (HOUR) or grid step (GRID) lining their starts up
 * that makes them overlap, else (OTHER) the start difference. */
int clock_skew(int64_t r0, int64_t r1, int64_t f0, int64_t f1, long *off_s,
               double *gap_s);

/* One file whose clock does not match the run's reference, for the
 * ingest note and the doctor (filled by the caller: names and spans). */
typedef struct cow_clock_skew {
    char file[160];      /* the file, as ingested */
    char ref[160];       /* the reference: the samples' file(s) */
    int ref_info;        /* 1: no samples, the reference is the INFO series */
    int64_t f0_us, f1_us; /* the file's span */
    int64_t r0_us, r1_us; /* the reference's span */
    int kind;            /* enum cow_skew_kind, never NONE */
    long off_s;          /* file clock minus reference */
    double gap_s;        /* how far apart the spans lie */
} cow_clock_skew;

/* "+03:00 (a whole-hour offset: a clock in local time?)" and the like. */
void clock_skew_offset_text(const cow_clock_skew *k, char *out, size_t cap);

#endif
