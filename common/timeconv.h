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
/* Parse ISO 8601 / RFC 3339 "YYYY-MM-DD[T ]hh:mm:ss[.frac][Z|+hh:mm|-hhmm]".
 * Without a zone the time is taken as UTC. true on success. */
bool time_parse_iso8601(const char *p, size_t n, int64_t *us);
/* Month number 1..12 of an English three-letter abbreviation, or 0. */
int time_month_from_abbr(const char *p);
/* Format epoch microseconds as "YYYY-MM-DDThh:mm:ss.mmmZ" into out (>= 32). */
void time_format_iso(int64_t us, char *out, size_t n);
/* Parse a zone given as "UTC", "Z", "+hh:mm", "-hhmm" or "+hh" into seconds
 * east of UTC. true on success. */
bool time_parse_offset(const char *s, int *off_s);

#endif
