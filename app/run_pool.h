/* run_pool.h -- per-run work on worker threads, its results used in run
 * order by the one writer.
 *
 *     app_pool_run(st, n, jobs, work, done, ctx, &e);
 *
 * Each worker thread has its own connection to the database
 * (store_open_reader) and computes item i with work(rd, i, ctx), reading
 * only. The calling thread calls done(st, i, ...) for items 0, 1, 2, ...
 * in that order, with work's result: everything that writes goes through
 * st, on one thread, in index order, so the outcome (the database, the
 * output) is the same for every number of workers. At most 2 x jobs items
 * run ahead of the one done() waits for, so what the items hold is
 * bounded by the workers, not by n. With jobs <= 1, a database in memory
 * or fewer than two items, work and done alternate on the calling thread,
 * with st as the reader. */
#ifndef COW_APP_RUN_POOL_H
#define COW_APP_RUN_POOL_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "store.h"

/* Compute item i reading through rd (never writing); the result goes to
 * ctx's slot for i. Called on a worker thread, items in any order. */
typedef int (*app_pool_work_fn)(cow_store *rd, size_t i, void *ctx, cow_err *e);
/* Use item i, in index order, on the calling thread: rc and we are what
 * work returned for it. Returning other than COW_OK (with e set) stops
 * the pool; that code is app_pool_run's. */
typedef int (*app_pool_done_fn)(cow_store *st, size_t i, int rc, const cow_err *we,
                                void *ctx, cow_err *e);

/* Run work and done over items 0..n with jobs workers (0: one per core). */
int app_pool_run(cow_store *st, size_t n, int jobs, app_pool_work_fn work,
                 app_pool_done_fn done, void *ctx, cow_err *e);

/* The same pool for items that arrive one at a time, e.g. runs as ingest
 * lands them, so that their work overlaps what the caller does meanwhile:
 *
 *     app_stream *s = app_stream_start(st, jobs, work, ctx);
 *     ... app_stream_add(s, run_id);              item 0, 1, 2, ... is ready
 *     ... app_stream_collect(s, 0, done, ctx, &e); done() for those finished
 *     app_stream_collect(s, 1, done, ctx, &e);    done() for all, in order
 *     app_stream_stop(s);
 *
 * Items are used in the order they were added, as app_pool_run does; an
 * item's inputs must be committed before it is added (workers read
 * through their own connections). With no worker (a database in memory,
 * no thread), collect with all set works the items on the calling thread,
 * and collect without it does nothing. */
typedef struct app_stream app_stream;

/* Work on item i, whose key app_stream_add gave. Same rules as work. */
typedef int (*app_stream_work_fn)(cow_store *rd, size_t i, int64_t key, void *ctx,
                                  cow_err *e);

/* A stream with `workers` threads (0: none, the calling thread works). */
app_stream *app_stream_start(cow_store *st, int workers, app_stream_work_fn work,
                             void *ctx);
/* Item i's work is in flight at most until done() for item i returns, and
 * no two items in flight share i % app_stream_slots(s): a caller's
 * per-item results can live in a ring of this many. */
size_t app_stream_slots(const app_stream *s);
/* The next item, with its key. */
void app_stream_add(app_stream *s, int64_t key);
/* done() for the items finished, in order, stopping at the first not yet
 * finished; with all set, waiting for every item added. A done() that
 * fails stops the stream: its code and error are returned, by this call
 * and every later one; later items are dropped. */
int app_stream_collect(app_stream *s, int all, app_pool_done_fn done, void *ctx,
                       cow_err *e);
/* Join the workers; items not collected are dropped. NULL is allowed. */
void app_stream_stop(app_stream *s);

#endif
