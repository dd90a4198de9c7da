/* limits.h -- every limit cowtail puts on its input, in one place.
 *
 * Capture trees come from many hosts and are untrusted, so every reader
 * is bounded: a line, a whole-file read, a JSON nesting, a value. Like
 * SQLite's SQLITE_MAX_*, each limit is a named constant with the reason
 * for its size; the README's "Safety" section lists them, and
 * tests/hostile/ has a test that crosses each one. A limit crossed is
 * never silent: the line is rejected or the file refused, with the limit
 * named in the message. */
#ifndef COW_COMMON_LIMITS_H
#define COW_COMMON_LIMITS_H

#include <stdint.h>

/* Longest line of a line-based capture. A longer line is rejected (its
 * bytes are skipped up to the next line end, memory stays bounded) and
 * the rest of the file is read: the good rows around it are kept. No
 * real capture line comes near 16 MiB; a longer one is binary data or a
 * file that lost its line ends. */
#define COW_MAX_LINE_BYTES (16u * 1024u * 1024u)

/* Largest file read whole (JSON arrays, memtier JSON): cJSON is not
 * streaming and builds a tree of about ten times the text, so 512 MiB of
 * text is several GiB of memory. Refused by size before any byte is read
 * when the size is known, and as soon as the limit is crossed otherwise
 * (a pipe, /dev/zero). Bigger captures belong in JSON lines. */
#define COW_MAX_WHOLE_FILE_BYTES (512u * 1024u * 1024u)

/* Largest run.json or thresholds.json: these are a few hundred bytes of
 * settings, so a megabyte is plenty and keeps a hostile one cheap. */
#define COW_MAX_META_FILE_BYTES (1u * 1024u * 1024u)

/* Deepest JSON nesting accepted (cJSON's CJSON_NESTING_LIMIT, which
 * exists "to prevent stack overflows"); deeper is refused as malformed. */
#define COW_MAX_JSON_DEPTH 1000

/* Values beyond physical limits are rejected with the reason, not stored:
 * a latency over an hour is not a latency of a Redis command (a stuck
 * probe, a unit mistaken by 10^6); no Redis host of this era has 2^50
 * bytes (1 PiB) of memory; a capture stamp outside 1990..2100 is a clock
 * or unit error (COW_EPOCH_MIN_S/MAX_S in timeconv.h hold those years). */
#define COW_MAX_LATENCY_US (3600.0 * 1e6)
#define COW_MAX_MEM_BYTES 1125899906842624.0 /* 2^50 */
/* Operations in one row of a throughput series (per interval or per
 * second): a Redis server does about 10^6 a second, so 10^12 is beyond
 * any of them (and its count over a 31-day span still fits an int64). */
#define COW_MAX_OPS 1e12

/* Most save/sync/rewrite windows analysed in one run. Each window gets
 * its quantiles with intervals (a few kB of results); an experiment has a
 * handful, a day of production logs a few hundred. A run with more is
 * not one experiment (or a hostile log of 160,000 "Background saving
 * started" lines): analyze refuses it with this limit named, instead of
 * spending minutes and gigabytes. */
#define COW_MAX_WINDOWS 10000

#endif
