/* replsync.h -- each replica server's sync attempts (analysis/replsteps.h)
 * from that replica's own log events (the servers table says which lines
 * are whose). */
#ifndef COW_APP_REPLSYNC_H
#define COW_APP_REPLSYNC_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "replsteps.h"
#include "store.h"

typedef struct app_replica {
    int seq;             /* cow_server_row.seq */
    int64_t pid;         /* 0 when unknown */
    int64_t port;        /* 0 when unknown */
    cow_repl_sync *v;    /* its attempts, in time order */
    size_t n;
} app_replica;

typedef struct app_replsyncs {
    app_replica *r;      /* the run's replicas with at least one attempt */
    size_t n;
} app_replsyncs;

/* The sync attempts of run `run`'s replicas (out released with
 * app_replsyncs_release, also on error). */
int app_replica_syncs(cow_store *st, int64_t run, app_replsyncs *out, cow_err *e);
void app_replsyncs_release(app_replsyncs *s);

/* The first attempt that reached link up of any replica, or NULL. */
const cow_repl_sync *app_replsyncs_first_up(const app_replsyncs *s,
                                            const app_replica **who);

#endif
