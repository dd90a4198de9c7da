/* phase.h -- cut a run into windows: baseline, during (BGSAVE, full sync
 * over disk or sockets, AOF rewrite, forkless save), between, after.
 *
 *     cow_phase_input in = {events, nev, info_bgsave, n1, info_aof, n2,
 *                           t_first_us, t_last_us};
 *     cow_phases ph;
 *     if (phase_build(&in, &ph, e)) ...;
 *     for i < ph.n: ph.v[i].kind, .label, .t0_us, .t1_us, .overlap
 *     phase_release(&ph);
 *
 * Windows come from server log events first (exact to the millisecond),
 * else from INFO polls (rdb_bgsave_in_progress / aof_rewrite_in_progress
 * 0 -> 1 -> 0: as exact as the polling interval). Pure: no I/O. */
#ifndef COW_ANALYSIS_PHASE_H
#define COW_ANALYSIS_PHASE_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "rec.h"

enum cow_phase_kind {
    COW_PHASE_BASELINE = 0, /* before the first window */
    COW_PHASE_BGSAVE,       /* a plain BGSAVE (fork, child writes the RDB) */
    COW_PHASE_SYNC_DISK,    /* replica full sync, RDB written to disk first */
    COW_PHASE_SYNC_DISKLESS,/* replica full sync, RDB streamed to sockets */
    COW_PHASE_AOF_REWRITE,  /* AOF rewrite (forks too) */
    COW_PHASE_FORKLESS,     /* Valkey forkless save */
    COW_PHASE_BETWEEN,      /* between two windows */
    COW_PHASE_AFTER,        /* after the last window */
    COW_PHASE_NKINDS
};

/* A sample in the window [t0_us, t1_us) belongs to it. */
typedef struct cow_phase {
    int kind;            /* enum cow_phase_kind */
    int seq;             /* 1-based among windows of this kind, 0 otherwise */
    char label[32];      /* "baseline", "bgsave#1", "sync-disk#1", ... */
    int64_t t0_us;       /* start (inclusive) */
    int64_t t1_us;       /* end (exclusive) */
    int64_t fork_us;     /* when the fork happened (child started), 0 if n/a */
    long child_pid;      /* pid of the forked child, 0 if unknown */
    const char *source;  /* "log" or "info" (static strings) */
    int overlap;         /* 1 when another fork/save window overlaps it */
    int open;            /* 1 when no end was seen: cut at the capture end */
    int failed;          /* 1 when the save/rewrite ended in error */
} cow_phase;

typedef struct cow_phases {
    cow_phase *v;        /* in time order, baseline first */
    size_t n, cap;
} cow_phases;

/* One INFO poll of a 0/1 flag. */
typedef struct cow_flag_poll {
    int64_t t_us;        /* poll time */
    int on;              /* flag value */
} cow_flag_poll;

/* One observation of a fork's duration: a latest_fork_usec poll, or a
 * LATENCY HISTORY `fork` sample (stamped to the second). */
typedef struct cow_fork_obs {
    int64_t t_us;        /* when it was read (poll) or stamped (history) */
    double dur_us;       /* the fork's duration */
} cow_fork_obs;

typedef struct cow_phase_input {
    const cow_event *ev;        /* events in time order */
    size_t nev;
    const cow_flag_poll *bgsave; /* rdb_bgsave_in_progress polls, time order */
    size_t nbgsave;
    const cow_flag_poll *aof;   /* aof_rewrite_in_progress polls, time order */
    size_t naof;
    int64_t fork_preroll_us;    /* a child's start line is logged after
                                   fork() returns: its window opens this
                                   much earlier (fork time + 1 ms of stamp
                                   truncation); 0 when unknown. Only
                                   the fallback: a window whose own fork
                                   is observed (fork_polls, fork_hist)
                                   opens by that fork's time */
    const cow_fork_obs *fork_polls; /* latest_fork_usec polls, time order */
    size_t nfork_polls;
    const cow_fork_obs *fork_hist;  /* LATENCY HISTORY fork, time order */
    size_t nfork_hist;
    const int64_t *replica_up;  /* a replica's link-up lines ("MASTER <->
                                   REPLICA sync: Finished with success"),
                                   time order: a full sync ends there */
    size_t nreplica_up;
    int64_t t_first_us;         /* first sample of the run (0 if none) */
    int64_t t_last_us;          /* last sample of the run */
} cow_phase_input;

int phase_build(const cow_phase_input *in, cow_phases *out, cow_err *e);
void phase_release(cow_phases *p);

/* The duration of the fork whose child's start line is at fork_us, from
 * what was observed inside its event and before the next fork began
 * (until_us): the first latest_fork_usec poll at or after the line (the
 * parent sets it before it logs), else a LATENCY HISTORY fork sample of
 * that second or later; NAN when neither was seen (a poll or sample of
 * another fork is never used). *from_poll (may be NULL) says which. */
double phase_fork_dur(const cow_phase_input *in, int64_t fork_us, int64_t until_us,
                      int *from_poll);

/* The primary's events: drop those of replica processes (a pid with any
 * replica-side event: role_change, repl_*) and of the children they
 * forked, so that a log two servers wrote into (or a replica's log in the
 * run) gives windows from the primary only, never a replica's fork or
 * restart as the primary's. Copies into out (room for n), returns how
 * many; the replica pids found go to *nreplicas. */
size_t phase_primary_events(const cow_event *ev, size_t n, cow_event *out,
                            size_t *nreplicas);

/* In-flight assignment (the default): a sample belongs to the phase in
 * whose [t0, t1) its request completed (t_send + latency), the two edges
 * alike: a request in flight when a window opens is the window's (one
 * sent 4 ms before the fork that waited it out), one still in flight when
 * it closes is the next phase's, so under a steady process the slow
 * requests a window gains at its start balance those it loses at its end
 * (the rule "in flight at any time during the window" kept both and
 * tilted heavy tails toward lift). Baseline, between and after keep only
 * the samples that completed in their span and in no window; the phase
 * that reaches the capture's end also keeps those sent before its t1
 * that completed after it. The send-time rule (t_send in [t0, t1)) is
 * phase 0's own span.
 * Compacts lat[] (with its send times t[]) to the samples of phase i and
 * returns how many are left. Give a phase the samples sent in
 * [t0 - longest latency, t1) (phase_first_send) so that none is missed. */
size_t phase_keep_in_flight(const cow_phases *ph, size_t i, const int64_t *t,
                            double *lat, size_t n);
/* 1 when the sample sent at t that took lat belongs to phase i by that
 * rule (phase_keep_in_flight keeps exactly these). */
int phase_holds(const cow_phases *ph, size_t i, int64_t t, double lat);
/* The earliest send time a sample of phase p can have: t0 less the run's
 * longest latency (and 1 us), t0 when that is not known. */
int64_t phase_first_send(const cow_phase *p, double max_lat);
/* "baseline", "bgsave", "sync-disk", "sync-diskless", "aof-rewrite",
 * "forkless", "between", "after" */
const char *phase_kind_name(int kind);
/* The kind phase_kind_name gives that name (as stored), -1 for none. */
int phase_kind_from_name(const char *name);
/* Stable snake_case id for JSON: "baseline", "bgsave", "fullsync_disk",
 * "fullsync_diskless", "aof_rewrite", "forkless", "between", "after" */
const char *phase_kind_id(int kind);
/* "BGSAVE", "full sync (disk)", "full sync (diskless)", "AOF rewrite",
 * "forkless save" (and the name for the others): chart spans, tables */
const char *phase_kind_title(int kind);
/* 1 for kinds that are a fork/save window */
int phase_is_window(int kind);
/* 1 for the kinds that save the dataset (BGSAVE, forkless save) */
int phase_is_save(int kind);

#endif
