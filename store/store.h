/* store.h -- the SQLite store: the only code that speaks SQL.
 *
 *     cow_store *st;
 *     if (store_open("cowtail.db", &st, &e)) ...;     ":memory:" works too
 *     store_begin(st, &e);
 *     store_add_samples(st, run, file, samples, n, &e);
 *     store_commit(st, &e);                           or store_rollback(st)
 *     store_close(st);
 *
 * The schema comes from schemas/NNN_*.sql, applied at open in order and
 * recorded in PRAGMA user_version. Every statement is prepared once at
 * open. Results handed out (store_list_runs) are owned by the caller and
 * freed with the matching store_free_* function. */
#ifndef COW_STORE_STORE_H
#define COW_STORE_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "rec.h"

typedef struct cow_store cow_store;

/* What a run is called and what run.json says of it. NULL = unknown. */
typedef struct cow_run_meta {
    const char *label;    /* unique name, e.g. "bgsave-t1" or "hostA/run3" */
    const char *path;     /* folder as given */
    const char *scenario; /* run.json "scenario" */
    const char *mode;     /* run.json "mode": fork / forkless */
    const char *host;     /* run.json "host" */
    long trial;           /* run.json "trial", -1 if none */
    const char *meta;     /* run.json verbatim */
} cow_run_meta;

/* One line of `cowtail runs`. */
typedef struct cow_run_row {
    int64_t id;           /* runs.id */
    char *label;          /* owned */
    char *scenario;       /* owned, NULL if unknown */
    char *mode;           /* owned, NULL if unknown */
    char *host;           /* owned, NULL if unknown */
    long trial;           /* -1 if unknown */
    int64_t files;        /* files ingested */
    int64_t samples;      /* latency samples */
    int64_t rejected;     /* rejected lines over all files */
    int64_t events;       /* server events */
    int64_t t_first_us;   /* first sample, 0 if none */
    int64_t t_last_us;    /* last sample, 0 if none */
} cow_run_row;

int store_open(const char *path, cow_store **out, cow_err *e);
/* NULL is a no-op. */
void store_close(cow_store *st);
int store_schema_version(cow_store *st);

int store_begin(cow_store *st, cow_err *e);
int store_commit(cow_store *st, cow_err *e);
/* Never fails in a way the caller can act on. */
void store_rollback(cow_store *st);

/* Find the run by label or create it; fills in meta fields that are set. */
int store_run_upsert(cow_store *st, const cow_run_meta *m, int64_t *run_id,
                     cow_err *e);
/* *seen = 1 when a file with this SHA-256 already landed in this run. */
int store_file_seen(cow_store *st, int64_t run, const char *sha256, int *seen,
                    cow_err *e);
/* *seen = 1 when a file of this size already landed in this run (a cheap
 * test before hashing a file twice). */
int store_file_size_seen(cow_store *st, int64_t run, int64_t size, int *seen,
                         cow_err *e);
/* Start a file row (inside the file's transaction). */
int store_file_begin(cow_store *st, int64_t run, const char *path,
                     int64_t size, const char *parser, int64_t *file_id,
                     cow_err *e);
/* Finish it with its digest and counts. */
int store_file_end(cow_store *st, int64_t file, const char *sha256,
                   int64_t rows, int64_t rejected, const char *notes,
                   cow_err *e);

/* Samples, many at once (multi-row inserts). */
int store_add_samples(cow_store *st, int64_t run, int64_t file,
                      const cow_sample *s, size_t n, cow_err *e);
/* Any other record kind; COW_REC_NOTE and COW_REC_SAMPLE are refused
 * (notes go to store_file_end, samples to store_add_samples). */
int store_add_rec(cow_store *st, int64_t run, int64_t file, const cow_rec *r,
                  cow_err *e);

/* All runs with their counts, ordered by label. */
int store_list_runs(cow_store *st, cow_run_row **rows, size_t *n, cow_err *e);
void store_free_runs(cow_run_row *rows, size_t n);

#endif
