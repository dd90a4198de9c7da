/* parse_ahead.h -- parse files on worker threads ahead of the one writer.
 *
 *     cow_ahead *a = ahead_start(files, n, jobs, detect);
 *     for (i = 0; i < n; i++) {                 the writer, in file order
 *         ahead_head(a, i, &h);                 opened? which parser? size
 *         ... ahead_replay(a, i, &sink, sha, &e) or ahead_drop(a, i) ...
 *     }
 *     ahead_stop(a);
 *
 * `jobs` workers take the files in order, open and detect each, and run its
 * parser into a per-file buffer of copied records: AHEAD_BUDGET bytes at
 * most per file and jobs x AHEAD_BUDGET over the files not yet written; a
 * worker over either waits for the writer (never the worker of the file
 * the writer waits for, so the pipeline cannot deadlock). ahead_replay hands the file's records to a sink on the calling
 * thread in the order the parser emitted them, as if the parser ran there,
 * so the store sees exactly the sequence a single-threaded ingest gives.
 * Peak memory: jobs x (AHEAD_BUDGET + one chunk) beyond the file being
 * written, whatever the tree. */
#ifndef COW_APP_PARSE_AHEAD_H
#define COW_APP_PARSE_AHEAD_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "parser.h"
#include "sink.h"

/* Bytes of copied records one file may hold before its worker waits. */
#define AHEAD_BUDGET (4u << 20)

typedef struct cow_ahead cow_ahead;

/* What ahead_replay needs to parse one file. */
typedef struct cow_ahead_file {
    const char *path;          /* borrowed, valid until ahead_stop */
    cow_parse_opts opts;       /* fname and mtime_us are filled by the worker */
    int skip;                  /* 1: do not open it (its run is unusable) */
    const char *forced;        /* parser named for it (--parser, run.json), or NULL */
} cow_ahead_file;

/* A file as its worker found it, before parsing. */
typedef struct cow_ahead_head {
    int rc;                    /* COW_OK, or the open/peek error in e */
    cow_err e;
    const cow_parser *parser;  /* NULL: no parser recognises it */
    char why[160];             /* then: why it is not text, or "" */
    const char *unk;           /* then: why no parser reads this text, or NULL */
    int empty;                 /* then: the file is empty */
    long long size;            /* bytes, from the open file */
    int64_t mtime_us;
} cow_ahead_head;

/* How the caller finds a file's parser from its first bytes (fills
 * h->parser, h->why, h->unk, h->empty); called on the worker threads. */
typedef void (*cow_ahead_detect)(const cow_ahead_file *f, const char *fname,
                                 const char *head, size_t nhead, cow_ahead_head *h);

/* NULL when threads cannot be started (then ingest runs on one thread). */
cow_ahead *ahead_start(cow_ahead_file *files, size_t n, int jobs, cow_ahead_detect detect);
/* Wait until file i is opened and detected. */
void ahead_head(cow_ahead *a, size_t i, cow_ahead_head *h);
/* Replay file i's records into sink; returns the parser's result (or the
 * sink's first error, after which the worker is told to stop), and its
 * SHA-256 when COW_OK. */
int ahead_replay(cow_ahead *a, size_t i, cow_sink *sink, char sha[65], cow_err *e);
/* File i is not wanted (skipped, duplicate): stop its worker, free it. */
void ahead_drop(cow_ahead *a, size_t i);
void ahead_stop(cow_ahead *a);

#endif
