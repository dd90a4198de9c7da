/* units.h -- the names of time and memory units that captures, run.json
 * and the command line use, one table each: a latency or time column's
 * unit suffix ("latency_ms", "t (us)"), --latency-unit / --time-unit,
 * --mem-unit and their run.json keys all read through these. */
#ifndef COW_COMMON_UNITS_H
#define COW_COMMON_UNITS_H

#include <stddef.h>

/* Microseconds per time unit name[0..n): ns, nanos, nsec, nanoseconds,
 * us, usec, micros, microseconds, µs, ms, msec, millis, milliseconds, s,
 * sec, secs, seconds (as written: lowercase). 0 when not a unit. */
double unit_time_us(const char *name, size_t n);
/* Bytes per memory unit name, case ignored: bytes, byte, b; kb, kib, k
 * (1024); mb, mib, m; gb, gib, g (as /proc and redis write them, powers of
 * 1024). 0 when not a unit. */
double unit_mem_bytes(const char *name);

#endif
