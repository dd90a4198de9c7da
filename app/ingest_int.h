/* ingest_int.h -- what the ingest's files share, private to app/:
 * ingest_run.c (the driver), ingest_sink.c (a parser's records into the
 * store), ingest_labels.c (runs of one label told apart). */
#ifndef COW_APP_INGEST_INT_H
#define COW_APP_INGEST_INT_H

#include <stdint.h>
#include <time.h>

#include "capture.h"
#include "err.h"
#include "sink.h"
#include "store.h"
#include "writer.h"

/* Rejects said per file; the rest are only counted and stored. */
#define SHOW_REJECTS 5

typedef struct storesink {
    cow_store *st;        /* destination */
    int64_t run, file;    /* ids */
    const char *path;     /* file being read, for messages */
    long long rows;       /* records landed */
    long long samples;    /* of which latency samples */
    long long rejected;   /* lines rejected */
    char notes[1024];     /* "key: value; ..." from the parser */
    cow_writer *w;        /* background sample writer, NULL until needed */
    int progress;         /* show progress (the sink does: a terminal) */
    time_t last_progress; /* when progress was last printed */
    struct infobuf *info; /* INFO records not stored yet, NULL until needed */
} storesink;

/* sink->emit/emit_samples/ctx for k (the driver sets k's fields first). */
void store_sink_wire(storesink *k, cow_sink *sink);
/* After the parser returned rc: stops the writer, stores the INFO
 * records still held, erases the progress; the first error wins. */
int store_sink_finish(storesink *k, int rc, cow_err *e);

/* A run is its folder in the batch plus its host, not its label: a later
 * run of a label already taken (in cap, or in st from another host) is
 * renamed label@host or label~N, and that is said. */
int ingest_unique_labels(cow_store *st, cow_capture *cap, cow_err *e);

#endif
