/* phase.c -- windows from events (see phase.h).
 *
 * Requirements:
 *  1. Log windows, parent side: "Starting BGSAVE for SYNC with target:
 *     disk|socket" opens a full sync (disk or diskless) that ends at
 *     "Synchronization with replica ... succeeded" (or the end of its
 *     save/transfer when that line is missing); otherwise "Background
 *     saving started" opens a BGSAVE ending at "terminated with success" /
 *     error / signal; "Background append only file rewriting started" an
 *     AOF rewrite; "Beginning forklessSaveToDisk" a forkless save.
 *  2. The fork instant of a window is its child's start line, which is
 *     logged only after fork() returned: a BGSAVE or AOF rewrite window
 *     opens in->fork_preroll_us before it, so the stall of the fork call
 *     itself falls inside the window, not in the baseline.
 *  3. Without log windows of a kind, INFO polls of rdb_bgsave_in_progress
 *     and aof_rewrite_in_progress give them (rising poll to falling poll).
 *  4. A window without an end is cut at the last sample, or at the next
 *     start of its kind (one save, one AOF rewrite runs at a time), and
 *     marked open.
 *  5. Two windows that overlap are both marked (an RDB save during an AOF
 *     rewrite cannot fork at once, but a deferred one can start right as
 *     the other ends; overlapping means sharing time, not touching).
 *  6. Baseline: from the first sample to the first window that holds
 *     samples (windows that ended before the capture began do not count);
 *     after: from the last window's end; between: gaps between windows.
 *     Empty ones are left out. No windows: the whole run is baseline.
 *  7. A forkless save from the log is the save: INFO's
 *     rdb_bgsave_in_progress flag during it adds no BGSAVE window.
 *  8. An AOF rewrite's parent finishes after its child: "terminated with
 *     success" is logged when the child is reaped, then the parent writes
 *     the residual diff or renames the new base file and manifest, in the
 *     event loop, until "Background AOF rewrite finished successfully";
 *     the window ends at that line when it comes before the next rewrite
 *     starts (its stall is the rewrite's, not the after phase's).
 *  9. Each window's fork is its own: the preroll of Requirement 2 is the
 *     duration of the fork observed inside that event (phase_fork_dur:
 *     the first latest_fork_usec poll after the child's start line, else
 *     a LATENCY HISTORY fork sample, before the next fork began), never
 *     another fork's; the run-wide fork_preroll_us only when none was.
 * 10. A window never opens before its trigger: a BGSAVE or AOF rewrite
 *     whose trigger line ("N changes in M seconds. Saving...", "Starting
 *     automatic rewriting of AOF") precedes it opens no earlier than that
 *     line, and never before the previous window of the server closed.
 * 11. A full sync ends when the replica's link is up: a replica link-up
 *     line after the primary's end of the sync (and before the next sync
 *     began) moves its end there, so the replica's load of the RDB, and
 *     the samples that wait for it, are the sync's. */
#include "phase.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "limits.h"
#include "mem.h"

/* The one table of phase kinds: the name stored and shown in labels, the
 * id of JSON output, the title of chart spans and tables. */
static const struct {
    const char *name, *id, *title;
} kind_table[COW_PHASE_NKINDS] = {
    [COW_PHASE_BASELINE] = {"baseline", "baseline", "baseline"},
    [COW_PHASE_BGSAVE] = {"bgsave", "bgsave", "BGSAVE"},
    [COW_PHASE_SYNC_DISK] = {"sync-disk", "fullsync_disk", "full sync (disk)"},
    [COW_PHASE_SYNC_DISKLESS] = {"sync-diskless", "fullsync_diskless", "full sync (diskless)"},
    [COW_PHASE_AOF_REWRITE] = {"aof-rewrite", "aof_rewrite", "AOF rewrite"},
    [COW_PHASE_FORKLESS] = {"forkless", "forkless", "forkless save"},
    [COW_PHASE_BETWEEN] = {"between", "between", "between"},
    [COW_PHASE_AFTER] = {"after", "after", "after"},
};

const char *phase_kind_name(int kind)
{
    return kind >= 0 && kind < COW_PHASE_NKINDS ? kind_table[kind].name : "?";
}

int phase_kind_from_name(const char *name)
{
    int k;
    for (k = 0; name && k < COW_PHASE_NKINDS; k++)
        if (strcmp(name, kind_table[k].name) == 0)
            return k;
    return -1;
}

const char *phase_kind_id(int kind)
{
    return kind >= 0 && kind < COW_PHASE_NKINDS ? kind_table[kind].id : "?";
}

const char *phase_kind_title(int kind)
{
    return kind >= 0 && kind < COW_PHASE_NKINDS ? kind_table[kind].title : "?";
}

int phase_is_save(int kind)
{
    return kind == COW_PHASE_BGSAVE || kind == COW_PHASE_FORKLESS;
}

int phase_is_window(int kind)
{
    return kind >= COW_PHASE_BGSAVE && kind <= COW_PHASE_FORKLESS;
}

static cow_phase *push(cow_phases *p, int kind, int64_t t0, int64_t t1,
                       const char *source)
{
    cow_phase *ph;
    p->v = xgrow(p->v, sizeof(cow_phase), p->n + 1, &p->cap);
    ph = &p->v[p->n++];
    memset(ph, 0, sizeof(*ph));
    ph->kind = kind;
    ph->t0_us = t0;
    ph->t1_us = t1;
    ph->source = source;
    return ph;
}

static int is(const cow_event *v, const char *kind)
{
    return v->kind != NULL && strcmp(v->kind, kind) == 0;
}

/* Index of the first event at or after i matching one of kinds, or nev.
 * The search stops at an event of kind stop (the next start of the same
 * operation: Redis runs one save, one AOF rewrite at a time, so a start
 * means the one before ended without its end line); *stopped then gets
 * that index. This keeps pairing linear: a log of 160,000 unmatched
 * "Background saving started" lines would otherwise be scanned to its
 * end once per line. */
static size_t find(const cow_phase_input *in, size_t i, const char *const *kinds,
                   const char *stop, size_t *stopped)
{
    *stopped = in->nev;
    for (; i < in->nev; i++) {
        const char *const *k;
        for (k = kinds; *k; k++)
            if (is(&in->ev[i], *k))
                return i;
        if (is(&in->ev[i], stop)) {
            *stopped = i;
            break;
        }
    }
    return in->nev;
}

static const char *const save_end[] = {"bgsave_done", "bgsave_error",
                                       "bgsave_killed", NULL};
static const char *const xfer_end[] = {"rdb_transfer_done", "rdb_transfer_error",
                                       "rdb_transfer_killed", NULL};
static const char *const aof_end[] = {"aof_rewrite_done", "aof_rewrite_error",
                                      "aof_rewrite_killed", NULL};
static const char *const fl_end[] = {"forkless_done", "forkless_failed",
                                     "forkless_cancelled", NULL};
static const char *const sync_end[] = {"sync_success", "sync_bgsave_error", NULL};

/* Close window ph at event j, or, without one, at the next start of its
 * kind (event stop) or the end of the capture (Requirement 4). */
static void close_at(const cow_phase_input *in, cow_phase *ph, size_t j,
                     size_t stop)
{
    if (j >= in->nev && stop < in->nev) {
        ph->t1_us = in->ev[stop].t_us > ph->t0_us ? in->ev[stop].t_us : ph->t0_us + 1;
        ph->open = 1;
    } else if (j < in->nev) {
        /* the end line's millisecond counts, all of it: a log stamp is
         * truncated to the millisecond, so a sample in [t, t + 1 ms) may
         * still be inside the window (a sub-millisecond stamp: up to it) */
        int64_t t = in->ev[j].t_us;
        ph->t1_us = t % 1000 == 0 ? t + 1000 : t + 1;
        ph->failed = strstr(in->ev[j].kind, "error") != NULL ||
                     strstr(in->ev[j].kind, "killed") != NULL ||
                     strstr(in->ev[j].kind, "failed") != NULL ||
                     strstr(in->ev[j].kind, "cancelled") != NULL;
    } else {
        ph->t1_us = in->t_last_us > ph->t0_us ? in->t_last_us + 1 : ph->t0_us + 1;
        ph->open = 1;
    }
}

static int is_fork_start(const cow_event *v)
{
    return is(v, "bgsave_start") || is(v, "aof_rewrite_start") ||
           is(v, "rdb_transfer_start") || is(v, "sync_bgsave_start");
}

/* When the next fork after event i began (INT64_MAX when none did) */
static int64_t next_fork(const cow_phase_input *in, size_t i)
{
    size_t k;
    for (k = i + 1; k < in->nev; k++)
        if (is_fork_start(&in->ev[k]) && in->ev[k].t_us > in->ev[i].t_us)
            return in->ev[k].t_us;
    return INT64_MAX;
}

double phase_fork_dur(const cow_phase_input *in, int64_t fork_us, int64_t until_us,
                      int *from_poll)
{
    size_t k;
    if (from_poll)
        *from_poll = 0;
    for (k = 0; k < in->nfork_polls; k++) {
        const cow_fork_obs *o = &in->fork_polls[k];
        if (o->t_us >= until_us)
            break;
        if (o->t_us >= fork_us && o->dur_us > 0) {
            if (from_poll)
                *from_poll = 1;
            return o->dur_us;
        }
    }
    /* a history sample is stamped with the second the fork ended in */
    for (k = 0; k < in->nfork_hist; k++) {
        const cow_fork_obs *o = &in->fork_hist[k];
        if (o->t_us >= until_us)
            break;
        if (o->t_us > fork_us - 1000000 && o->dur_us > 0)
            return o->dur_us;
    }
    return NAN;
}

/* Requirements 2, 9, 10: where the window of the child started at event i
 * opens */
static int64_t fork_open(const cow_phase_input *in, size_t i, const cow_phases *w)
{
    const cow_event *v = &in->ev[i];
    double d = phase_fork_dur(in, v->t_us, next_fork(in, i), NULL);
    int64_t pre = !isnan(d) ? (int64_t)ceil(d) + 1000 : in->fork_preroll_us;
    int64_t t0 = v->t_us - pre, floor = INT64_MIN;
    size_t k;
    for (k = i; k-- > 0;) {
        const cow_event *u = &in->ev[k];
        if (u->t_us < t0)
            break;
        if (is(u, "bgsave_trigger") || is(u, "aof_rewrite_trigger")) {
            floor = u->t_us;
            break;
        }
    }
    /* the windows are made in the order of their events: the last 64 hold
     * the one that closed last before this event (a scan of all of them
     * made a log of 160k unmatched saves quadratic: 28 s) */
    for (k = w->n; k-- > 0 && w->n - k <= 64;)
        if (w->v[k].t1_us <= v->t_us && w->v[k].t1_us > floor)
            floor = w->v[k].t1_us;
    return t0 > floor ? t0 : floor;
}

/* Requirement 11: a full sync's end moved to the replica's link-up */
static void sync_link_up(const cow_phase_input *in, cow_phase *ph, size_t i)
{
    int64_t until = INT64_MAX;
    size_t k;
    for (k = i + 1; k < in->nev; k++)
        if (is(&in->ev[k], "sync_bgsave_start")) {
            until = in->ev[k].t_us;
            break;
        }
    for (k = 0; k < in->nreplica_up; k++) {
        int64_t t = in->replica_up[k];
        if (t >= until)
            break;
        if ((ph->open || t >= ph->t1_us - 1000) && t > ph->t0_us) {
            ph->t1_us = t % 1000 == 0 ? t + 1000 : t + 1;
            ph->open = 0;
            return;
        }
    }
}

/* Requirement 1: windows from log events. */
static void from_log(const cow_phase_input *in, cow_phases *w)
{
    size_t i, j;
    unsigned char *used = xcalloc(in->nev ? in->nev : 1, 1);

    for (i = 0; i < in->nev; i++) {
        const cow_event *v = &in->ev[i];
        cow_phase *ph;
        if (used[i])
            continue;
        if (is(v, "sync_bgsave_start")) {
            int disk = v->unit == NULL || strcmp(v->unit, "socket") != 0;
            static const char *const child_disk[] = {"bgsave_start", NULL};
            static const char *const child_sock[] = {"rdb_transfer_start", NULL};
            size_t stop, cstop, estop = in->nev;
            size_t c = find(in, i + 1, disk ? child_disk : child_sock,
                            "sync_bgsave_start", &cstop);
            size_t s = find(in, i + 1, sync_end, "sync_bgsave_start", &stop);
            ph = push(w, disk ? COW_PHASE_SYNC_DISK : COW_PHASE_SYNC_DISKLESS,
                      v->t_us, 0, "log");
            if (c < in->nev) {
                size_t end = find(in, c + 1, disk ? save_end : xfer_end,
                                  disk ? child_disk[0] : child_sock[0], &estop);
                used[c] = 1;
                if (end < in->nev)
                    used[end] = 1;
                ph->fork_us = in->ev[c].t_us;
                ph->child_pid = (long)in->ev[c].value;
                if (s >= in->nev) {
                    s = end;
                    stop = estop < stop ? estop : stop;
                }
            }
            close_at(in, ph, s, stop);
            if (s < in->nev)
                used[s] = 1;
            sync_link_up(in, ph, i);
        } else if (is(v, "bgsave_start") || is(v, "aof_rewrite_start") ||
                   is(v, "forkless_start")) {
            int kind = is(v, "bgsave_start") ? COW_PHASE_BGSAVE
                     : is(v, "aof_rewrite_start") ? COW_PHASE_AOF_REWRITE
                     : COW_PHASE_FORKLESS;
            const char *const *ends = kind == COW_PHASE_BGSAVE ? save_end
                                    : kind == COW_PHASE_AOF_REWRITE ? aof_end
                                    : fl_end;
            ph = push(w, kind, kind == COW_PHASE_FORKLESS ? v->t_us : fork_open(in, i, w),
                      0, "log");
            if (kind != COW_PHASE_FORKLESS) {
                ph->fork_us = v->t_us;
                ph->child_pid = (long)v->value;
            }
            size_t stop, fstop;
            j = find(in, i + 1, ends, v->kind, &stop);
            if (j < in->nev && is(&in->ev[j], "aof_rewrite_done")) { /* Requirement 8 */
                static const char *const finished[] = {"aof_rewrite_finished", NULL};
                size_t f = find(in, j + 1, finished, v->kind, &fstop);
                if (f < in->nev) {
                    used[j] = 1;
                    j = f;
                }
            }
            close_at(in, ph, j, stop);
            if (j < in->nev)
                used[j] = 1;
        }
    }
    free(used);
}

static int has_kind(const cow_phases *w, int kind)
{
    size_t i;
    for (i = 0; i < w->n; i++)
        if (w->v[i].kind == kind)
            return 1;
    return 0;
}

/* Requirement 3: windows from INFO flag polls. */
static void from_polls(const cow_flag_poll *p, size_t n, int kind,
                       int64_t t_last, cow_phases *w)
{
    size_t i;
    cow_phase *ph = NULL;
    for (i = 0; i < n; i++) {
        if (p[i].on && ph == NULL) {
            ph = push(w, kind, p[i].t_us, 0, "info");
        } else if (!p[i].on && ph != NULL) {
            ph->t1_us = p[i].t_us;
            ph = NULL;
        }
    }
    if (ph != NULL) {
        ph->t1_us = t_last > ph->t0_us ? t_last + 1 : ph->t0_us + 1;
        ph->open = 1;
    }
}

static int cmp_start(const void *a, const void *b)
{
    const cow_phase *x = a, *y = b;
    if (x->t0_us != y->t0_us)
        return x->t0_us < y->t0_us ? -1 : 1;
    return x->kind - y->kind;
}

int phase_build(const cow_phase_input *in, cow_phases *out, cow_err *e)
{
    cow_phases w;
    size_t i, j;
    int seq[COW_PHASE_NKINDS];
    int64_t cursor;
    int sampled_window = 0;

    memset(out, 0, sizeof(*out));
    memset(&w, 0, sizeof(w));
    memset(seq, 0, sizeof(seq));
    from_log(in, &w);
    if (w.n > COW_MAX_WINDOWS) {
        size_t nw = w.n;
        phase_release(&w);
        return COW_FAIL(e, COW_ELIMIT, "%zu save/sync/rewrite windows in one "
                        "run (the limit is %d): this is not one experiment; "
                        "split the capture", nw, COW_MAX_WINDOWS);
    }
    if (!has_kind(&w, COW_PHASE_BGSAVE) && !has_kind(&w, COW_PHASE_SYNC_DISK) &&
        !has_kind(&w, COW_PHASE_SYNC_DISKLESS) && !has_kind(&w, COW_PHASE_FORKLESS))
        from_polls(in->bgsave, in->nbgsave, COW_PHASE_BGSAVE, in->t_last_us, &w);
    if (!has_kind(&w, COW_PHASE_AOF_REWRITE))
        from_polls(in->aof, in->naof, COW_PHASE_AOF_REWRITE, in->t_last_us, &w);
    if (w.n > 1)
        qsort(w.v, w.n, sizeof(cow_phase), cmp_start);
    /* Requirement 5 */
    for (i = 0; i < w.n; i++)
        for (j = i + 1; j < w.n && w.v[j].t0_us < w.v[i].t1_us; j++)
            w.v[i].overlap = w.v[j].overlap = 1;
    /* Requirement 6 */
    cursor = in->t_first_us;
    for (i = 0; i < w.n; i++) {
        cow_phase *ph;
        if (w.v[i].t0_us > cursor && in->t_first_us != 0) {
            /* the first stretch of samples before any window that holds
             * samples is the baseline, even after a window that ended
             * before the capture began */
            ph = push(out, cursor == in->t_first_us && !sampled_window
                               ? COW_PHASE_BASELINE : COW_PHASE_BETWEEN,
                      cursor, w.v[i].t0_us, w.v[i].source);
            ph->source = "derived";
        }
        if (w.v[i].t1_us > in->t_first_us && w.v[i].t0_us <= in->t_last_us)
            sampled_window = 1;
        ph = push(out, w.v[i].kind, 0, 0, NULL);
        *ph = w.v[i];
        if (ph->t1_us > cursor)
            cursor = ph->t1_us;
    }
    if (w.n == 0 && in->t_first_us != 0)
        push(out, COW_PHASE_BASELINE, in->t_first_us, in->t_last_us + 1, "derived");
    else if (w.n > 0 && in->t_last_us >= cursor && in->t_first_us != 0)
        push(out, COW_PHASE_AFTER, cursor, in->t_last_us + 1, "derived");
    for (i = 0; i < out->n; i++) {
        cow_phase *ph = &out->v[i];
        if (ph->kind == COW_PHASE_BASELINE || ph->kind == COW_PHASE_AFTER) {
            snprintf(ph->label, sizeof(ph->label), "%s", phase_kind_name(ph->kind));
        } else {
            ph->seq = ++seq[ph->kind];
            snprintf(ph->label, sizeof(ph->label), "%s#%d",
                     phase_kind_name(ph->kind), ph->seq);
        }
    }
    free(w.v);
    return COW_OK;
}

void phase_release(cow_phases *p)
{
    free(p->v);
    memset(p, 0, sizeof(*p));
}

/* The latest end among the phases: the capture's end. */
static int64_t last_end(const cow_phases *ph)
{
    int64_t m = INT64_MIN;
    size_t j;
    for (j = 0; j < ph->n; j++)
        if (ph->v[j].t1_us > m)
            m = ph->v[j].t1_us;
    return m;
}

/* The request sent at t that took lat completed in p's [t0, t1); a phase
 * that reaches the capture's end (t1 == end) also keeps those sent before
 * t1 that completed after it (no later phase is there to take them). */
static int completes_in(const cow_phase *p, int64_t t, double lat, int64_t end)
{
    double c = (double)t + (lat > 0 ? lat : 0);

    if (c < (double)p->t0_us)
        return 0;
    return p->t1_us == end ? t < p->t1_us : c < (double)p->t1_us;
}

int phase_holds(const cow_phases *ph, size_t i, int64_t t, double lat)
{
    const cow_phase *p = &ph->v[i];
    int64_t end = last_end(ph);
    size_t j;

    if (!completes_in(p, t, lat, end))
        return 0;
    if (phase_is_window(p->kind))
        return 1;
    for (j = 0; j < ph->n; j++)
        if (phase_is_window(ph->v[j].kind) && completes_in(&ph->v[j], t, lat, end))
            return 0;
    return 1;
}

int64_t phase_first_send(const cow_phase *p, double max_lat)
{
    if (max_lat > 0)
        return p->t0_us - (int64_t)ceil(max_lat) - 1;
    return p->t0_us;
}

size_t phase_keep_in_flight(const cow_phases *ph, size_t i, const int64_t *t,
                            double *lat, size_t n)
{
    size_t k, m = 0;

    for (k = 0; k < n; k++)
        if (phase_holds(ph, i, t[k], lat[k]))
            lat[m++] = lat[k];
    return m;
}

static int is_replica_kind(const char *k)
{
    return strncmp(k, "repl_", 5) == 0 || strcmp(k, "role_change") == 0;
}

static int in_list(const long *v, size_t n, long x)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (v[i] == x)
            return 1;
    return 0;
}

size_t phase_primary_events(const cow_event *ev, size_t n, cow_event *out,
                            size_t *nreplicas)
{
    long rep[64];
    size_t nr = 0, i, m = 0, before;

    for (i = 0; i < n; i++)
        if (ev[i].pid > 0 && is_replica_kind(ev[i].kind) && nr < 64 &&
            !in_list(rep, nr, ev[i].pid))
            rep[nr++] = ev[i].pid;
    *nreplicas = nr;
    /* children a replica forked ("started by pid N" values), to a fixpoint */
    do {
        before = nr;
        for (i = 0; i < n; i++)
            if (in_list(rep, *nreplicas, ev[i].pid) && ev[i].unit &&
                strcmp(ev[i].unit, "pid") == 0 && ev[i].value > 0 && nr < 64 &&
                !in_list(rep, nr, (long)ev[i].value))
                rep[nr++] = (long)ev[i].value;
    } while (nr != before);
    for (i = 0; i < n; i++)
        if (ev[i].pid <= 0 || !in_list(rep, nr, ev[i].pid))
            out[m++] = ev[i];
    return m;
}
