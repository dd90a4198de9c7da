/* timeconv.h -- civil time and epoch microseconds.
 *
 * All instants in cowtail are UTC epoch microseconds (int64). These helpers
 * convert without touching the process time zone (no mktime/TZ). */
#ifndef COW_COMMON_TIMECONV_H
#define COW_COMMON_TIMECONV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define COW_US_PER_S INT64_C(1000000)
/* Plausible epoch range for captures: 1990-01-01 .. 2100-01-01 UTC. */
#define COW_EPOCH_MIN_S INT64_C(631152000)
#define COW_EPOCH_MAX_S INT64_C(4102444800)

/* Days since 1970-01-01 of a proleptic Gregorian date (month 1..12). */
int64_t time_days_from_civil(int64_t y, int m, int d);
/* Epoch microseconds of a UTC civil time. */
int64_t time_us_from_civil(int y, int mon, int d, int h, int mi, int s, int us);
/* Days in a month of year y (month 1..12); y == 0 (year unknown) allows
 * 29 February. */
int time_month_days(int y, int mon);

/* An ISO 8601 stamp as written, fields checked (see time_parse_iso). */
typedef struct cow_iso {
    int y, mon, d;      /* civil date: a day that exists in that month */
    int h, mi, s;       /* 00:00:00 .. 23:59:59 (no leap second 60) */
    int us;             /* fraction of the second in microseconds */
    int frac_digits;    /* digits written after the point (0: none) */
    bool has_zone;      /* Z or an offset was written */
    int off_s;          /* that offset in seconds east of UTC (0 without) */
} cow_iso;

/* The one ISO 8601 / RFC 3339 reader of cowtail: the whole of p[0..n) is
 * "YYYY-MM-DD[T ]hh:mm:ss[.frac][Z|UTC|+hh:mm|+hhmm|+hh]" (frac: 1 or more
 * digits, ',' allowed for '.', digits past microseconds truncated).
 * Impossible dates (2023-02-31, 2023-13-01, 25:00:00) are refused. true on
 * success; on failure *why (when why is not NULL) says what is wrong. */
bool time_parse_iso(const char *p, size_t n, cow_iso *out, const char **why);
/* Epoch microseconds of a parsed stamp; without a zone it is taken as UTC. */
int64_t time_iso_us(const cow_iso *t);
/* time_parse_iso then time_iso_us: an absolute instant (no zone: UTC). */
bool time_parse_iso8601(const char *p, size_t n, int64_t *us);
/* Month number 1..12 of an English three-letter abbreviation, or 0. */
int time_month_from_abbr(const char *p);
/* Format epoch microseconds as "YYYY-MM-DDThh:mm:ss.mmmZ" into out (>= 32). */
void time_format_iso(int64_t us, char *out, size_t n);
/* The same to the second: 2026-04-07T14:02:11Z. */
void time_format_iso_s(int64_t us, char *out, size_t n);
/* Parse a zone given as "UTC", "Z", "+hh:mm", "-hhmm" or "+hh" into seconds
 * east of UTC. true on success. */
bool time_parse_offset(const char *s, int *off_s);
/* Epoch microseconds of the text p[0..n), the whole of it an epoch number
 * in s, ms, us or ns chosen by magnitude (1990..2100); an integer is
 * scaled exactly. false when it is none of them. */
bool time_parse_epoch(const char *p, size_t n, int64_t *us);
/* An epoch number as captures write it, in seconds, milliseconds,
 * microseconds or nanoseconds, told apart by magnitude: the first of
 * those readings inside COW_EPOCH_MIN_S..COW_EPOCH_MAX_S, rounded to the
 * microsecond. false when none is (run.json "t0", --t0). */
bool time_epoch_guess_us(double v, int64_t *us);

#endif
