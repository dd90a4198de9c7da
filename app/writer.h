/* writer.h -- a background thread that writes sample batches to the store
 * while the parser reads the next ones, so parsing (and hashing) and
 * SQLite run on two cores instead of one after the other.
 *
 *     cow_writer *w = writer_start(st, run, file);
 *     writer_push(w, samples, n, &e);      copies the batch, may block
 *     writer_sync(w, &e);                  wait until all pushed landed;
 *                                          only then may this thread touch st
 *     writer_stop(w, &e);                  sync, then end the thread
 *
 * The store is used by one thread at a time: the writer between a push
 * and the next sync, the caller otherwise. Op names must stay valid until
 * the next sync (the parsers intern them for the whole file). */
#ifndef COW_APP_WRITER_H
#define COW_APP_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "rec.h"
#include "store.h"

typedef struct cow_writer cow_writer;

/* NULL when a thread cannot be started (the caller then writes itself). */
cow_writer *writer_start(cow_store *st, int64_t run, int64_t file);
int writer_push(cow_writer *w, const cow_sample *s, size_t n, cow_err *e);
int writer_sync(cow_writer *w, cow_err *e);
/* Sync, stop and free; returns the first error the writer met. */
int writer_stop(cow_writer *w, cow_err *e);

#endif
