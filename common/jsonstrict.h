/* jsonstrict.h -- what a JSON parser lets through and cowtail refuses, in
 * every JSON document it reads (thresholds, run.json, memtier, latency
 * JSON): a key named twice in one object (which of the two counts is the
 * parser's accident: {"max_p99_ms":1,"max_p99_ms":100}), compared after
 * unescaping ("\u0070" is "p"), and a number that is not finite as a
 * double (1e999). Linear in the text; run it on a document the parser
 * accepted.
 *
 *     if (json_strict_check(text, n, path, &e) != COW_OK) ...   e at path:line */
#ifndef COW_COMMON_JSONSTRICT_H
#define COW_COMMON_JSONSTRICT_H

#include <stddef.h>

#include "err.h"

/* COW_OK, or COW_EPARSE with e at path:line (line relative to the text's
 * first line plus first_line - 1) naming the key or the number. */
int json_strict_check(const char *text, size_t n, const char *path, long first_line,
                      cow_err *e);

#endif
