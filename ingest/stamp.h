/* stamp.h -- time stamps shared by the INFO, LATENCY and redis-cli parsers
 * (info.c, clilat.c), so that "what counts as a time stamp" is decided in
 * one place (see the header comment of stamp.c for the accepted shapes). */
#ifndef COW_INGEST_STAMP_H
#define COW_INGEST_STAMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Parse a whole timestamp line (decoration, label and value; see stamp.c).
 * Returns 1 and sets *us when the line is a usable stamp, 0 when the line
 * is not a stamp at all, -1 when it looks like a stamp that cannot be used
 * (unknown zone, out of range); then *why says why, phrased for the user
 * (a static string). */
int info_stamp_parse(const char *p, size_t n, int64_t *us, const char **why);

/* true when p[0..n) is an epoch number whose unit follows from its size
 * (10 digits s, 13 ms, 16 us, 19 ns, or "<s>.<fraction>") and lies in the
 * plausible capture range; *unit names the unit ("s", "ms", "us", "ns"). */
bool info_epoch_parse(const char *p, size_t n, int64_t *us, const char **unit);

/* A stamp in a file's base name. With prefix (e.g. "info"), the name must
 * be <prefix>[-_.]<epoch>[.ext] (prefix compared without case); with prefix
 * NULL, the first run of 10, 13, 16 or 19 digits anywhere in the name is
 * taken. true and *us set when found and plausible. */
bool info_name_stamp(const char *fname, const char *prefix, int64_t *us);

#endif
