/* sink.h -- the typed records a parser emits, and the sink that takes them.
 *
 * Parsers never touch SQLite. They read a cow_src and call sink_emit() for
 * each record; in production the sink writes to the store (cli wires it),
 * in tests it collects records into an array (tests/unit/collect.h).
 *
 * Records are defined in common/rec.h.
 *
 * A sink callback returns 0 or an error code (with e filled); a parser
 * stops at the first sink error and returns it. */
#ifndef COW_INGEST_SINK_H
#define COW_INGEST_SINK_H

#include <stdint.h>

#include "err.h"
#include "rec.h"

typedef struct cow_sink {
    /* Take one record; return 0 or an error code with e filled. */
    int (*emit)(void *ctx, const cow_rec *r, cow_err *e);
    /* Take a whole batch of samples at once (fast path for big captures);
     * may be NULL, then samples go through emit one by one. */
    int (*emit_samples)(void *ctx, const cow_sample *s, size_t n, cow_err *e);
    void *ctx;
} cow_sink;

int sink_emit(cow_sink *k, const cow_rec *r, cow_err *e);
int sink_samples(cow_sink *k, const cow_sample *s, size_t n, cow_err *e);
/* Shorthands that build the record. */
int sink_reject(cow_sink *k, long line, const char *reason, const char *text,
                size_t n, cow_err *e);
int sink_note(cow_sink *k, const char *key, const char *value, cow_err *e);
/* A COW_REC_STAT (kernel value, or a benchmark tool's figure). */
int sink_stat(cow_sink *k, int64_t t_us, const char *source, const char *key,
              const char *text, double num, const char *unit, long line,
              cow_err *e);

#endif
