/* replsteps.h -- a replica's sync attempts and their steps, from the
 * replica's own log events (kinds repl_* of ingest/redislog.c).
 *
 * An attempt opens at repl_connect ("Connecting to MASTER"), or at the
 * first replica-side step when there is none; a second "sync started"
 * opens another. Its steps: the resync (full, or partial accepted), the
 * transfer's start (repl_receive), the flush of old data, the load, and
 * link up (repl_done; a partial resync is up when accepted). A link lost
 * before link up, or a new attempt, ends it unfinished; a link lost after
 * link up belongs to no attempt.
 *
 * Durations, in seconds, NaN when a step they need is missing:
 *   attach_to_up: attach -> link up
 *   wait:         resync -> transfer start (the primary preparing the RDB)
 *   transfer:     transfer start -> flush (or load when no flush line)
 *   flush:        flush -> load
 *   load:         load -> link up */
#ifndef COW_ANALYSIS_REPLSTEPS_H
#define COW_ANALYSIS_REPLSTEPS_H

#include <stddef.h>
#include <stdint.h>

#include "rec.h"

#define COW_REPL_NONE INT64_MIN /* a step that was not seen */

typedef enum {
    COW_REPL_UP = 0,   /* link up */
    COW_REPL_LOST,     /* link lost before link up */
    COW_REPL_OPEN      /* neither: another attempt began or the log ended */
} cow_repl_outcome;

typedef struct cow_repl_sync {
    int64_t attach_us;     /* repl_connect, or the attempt's first step */
    int64_t resync_us;     /* repl_full_resync / repl_partial_ok */
    int64_t recv_us;       /* repl_receive: transfer start */
    int64_t recv_end_us;   /* transfer end: the flush, else the load */
    int64_t flush_us;      /* repl_flush */
    int64_t load_us;       /* repl_load */
    int64_t up_us;         /* repl_done, or the partial resync accepted */
    int64_t lost_us;       /* repl_link_lost before up */
    long attach_line;      /* log line of the attach */
    char mode;             /* 'F' full, 'P' partial, 0 unknown */
    cow_repl_outcome outcome;
    double bytes;          /* bytes received as announced, NaN if not said */
    double attach_to_up_s, wait_s, transfer_s, flush_s, load_s;
} cow_repl_sync;

/* The attempts of one replica's events ev[0..n) (time order; kinds other
 * than repl_* are ignored). Fills out[0..cap) and returns how many there
 * are (at most the number of repl_* events; a cap of n always suffices). */
size_t replsteps_find(const cow_event *ev, size_t n, cow_repl_sync *out, size_t cap);

/* "up", "lost", "open". */
const char *replsteps_outcome_name(cow_repl_outcome o);

#endif
