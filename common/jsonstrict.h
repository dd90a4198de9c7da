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

/* Every key of a JSON text, unescaped, with its line: a parser that
 * keeps no positions (cJSON) finds the line of a member it reads by
 * seeking the key forward from the last one found. O(log n) a seek,
 * however the keys are spelt ("\u0070" is "p") and whether found or not.
 *
 *     cow_jkeys k;  json_keys_index(text, n, &k);
 *     size_t ord = 0;  long line = json_keys_seek(&k, "Count", &ord);
 *     json_keys_free(&k); */
typedef struct cow_jkey {
    char *s;        /* the key, unescaped (NUL-terminated, may hold NULs) */
    size_t n;
    long line;      /* 1-based line of its opening quote */
    size_t ord;     /* its place in document order */
} cow_jkey;

typedef struct cow_jkeys {
    cow_jkey *v;    /* sorted by key, then ord */
    size_t n;
} cow_jkeys;

void json_keys_index(const char *text, size_t n, cow_jkeys *out);
/* The line of the first key equal to key at document place >= *ord, and
 * *ord moves past it; -1 (and *ord unchanged) when there is none. */
long json_keys_seek(const cow_jkeys *k, const char *key, size_t *ord);
void json_keys_free(cow_jkeys *k);

#endif
