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

#endif
