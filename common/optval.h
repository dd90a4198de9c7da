/* optval.h -- strict parsing of command-line option values.
 *
 * One parser per kind of value, used by every option of every command, so
 * `--seed abc`, `--seed -5` and `--resamples 1e3x` are refused the same
 * way everywhere. Each function parses the whole argument (no blanks, no
 * trailing text, overflow is an error) and on failure returns COW_EUSAGE
 * with e->msg such as
 *
 *     --seed: 'abc' is not an integer
 *     --resamples: '5' is out of range (expected 99 to 1000000)
 *
 * `opt` is the option as the user typed it ("--seed"); the CLI prints
 * the message and exits 2. */
#ifndef COW_COMMON_OPTVAL_H
#define COW_COMMON_OPTVAL_H

#include <stdint.h>

#include "err.h"

/* A decimal integer in [lo, hi]. */
int optval_int(const char *opt, const char *arg, int64_t lo, int64_t hi,
               int64_t *out, cow_err *e);
/* A non-negative decimal integer up to UINT64_MAX (seeds). */
int optval_u64(const char *opt, const char *arg, uint64_t *out, cow_err *e);
/* A finite decimal number in [lo, hi]. */
int optval_double(const char *opt, const char *arg, double lo, double hi,
                  double *out, cow_err *e);
/* A duration: a number and a unit (ns, us, ms, s, m, h), e.g. "150ms",
 * "2.5s"; no unit is refused rather than guessed. *us: microseconds,
 * which must be whole and in [lo_us, hi_us]. */
int optval_duration_us(const char *opt, const char *arg, int64_t lo_us,
                       int64_t hi_us, int64_t *us, cow_err *e);
/* A size in bytes as redis.conf writes them: a bare number is bytes; k, m,
 * g are powers of 1000; kb, mb, gb (and KiB, MiB, GiB) powers of 1024;
 * case does not matter. Must be in [lo, hi]. */
int optval_size(const char *opt, const char *arg, uint64_t lo, uint64_t hi,
                uint64_t *bytes, cow_err *e);
/* An instant: ISO 8601 (time_parse_iso8601: a date that exists, no zone
 * is UTC) or an epoch number in s, ms, us or ns (time_parse_epoch),
 * the whole argument and nothing else. *us: epoch microseconds. */
int optval_instant_us(const char *opt, const char *arg, int64_t *us, cow_err *e);
/* A time unit (unit_time_us: ns, us, ms, s and their longer names);
 * *us: microseconds per unit. */
int optval_time_unit(const char *opt, const char *arg, double *us, cow_err *e);
/* A memory unit (unit_mem_bytes: bytes, kB, MB, GB, KiB ...); *bytes per
 * unit. */
int optval_mem_unit(const char *opt, const char *arg, double *bytes, cow_err *e);
/* A UTC offset: "UTC", "Z", "+hh:mm", "-hhmm" or "+hh" (time_parse_offset);
 * a zone name is refused. *off_s: seconds east of UTC. */
int optval_utc_offset(const char *opt, const char *arg, int *off_s, cow_err *e);

#endif
