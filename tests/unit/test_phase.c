/* test_phase.c -- windows from events and INFO polls; per-phase stats. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "minunit.h"
#include "phase.h"
#include "runstats.h"

#define S(x) ((int64_t)(x) * 1000000)
#define T0 INT64_C(1738591331000000)

static cow_event ev(int64_t t, const char *kind, double value, const char *unit)
{
    cow_event v;
    memset(&v, 0, sizeof(v));
    v.t_us = t;
    v.kind = kind;
    v.value = value;
    v.unit = unit;
    return v;
}

static void phases_should_follow_log_windows(void)
{
    cow_event e[] = {
        ev(T0 + S(2), "bgsave_trigger", 100, NULL),
        ev(T0 + S(2) + 1000, "bgsave_start", 4711, NULL),
        ev(T0 + S(3), "rdb_saved", NAN, NULL),
        ev(T0 + S(3) + 500, "cow_rdb", 12, "MB"),
        ev(T0 + S(4), "bgsave_done", NAN, NULL),
        ev(T0 + S(6), "sync_bgsave_start", NAN, "socket"),
        ev(T0 + S(6) + 2000, "rdb_transfer_start", 4800, NULL),
        ev(T0 + S(7), "rdb_transfer_done", NAN, NULL),
        ev(T0 + S(8), "sync_success", NAN, NULL),
        ev(T0 + S(9), "aof_rewrite_start", 4900, NULL),
    };
    cow_phase_input in;
    cow_phases ph;
    cow_err err = COW_ERR_INIT;

    memset(&in, 0, sizeof(in));
    in.ev = e;
    in.nev = sizeof(e) / sizeof(e[0]);
    in.t_first_us = T0;
    in.t_last_us = T0 + S(10);
    CHECK_INT(phase_build(&in, &ph, &err), COW_OK);
    CHECK_INT(ph.n, 6);
    CHECK_STR(ph.v[0].label, "baseline");
    CHECK_INT(ph.v[0].t1_us, T0 + S(2) + 1000);
    CHECK_STR(ph.v[1].label, "bgsave#1");
    CHECK_INT(ph.v[1].child_pid, 4711);
    CHECK_INT(ph.v[1].t1_us, T0 + S(4) + 1000); /* the end line's whole millisecond */
    CHECK_STR(ph.v[2].label, "between#1");
    CHECK_STR(ph.v[3].label, "sync-diskless#1");
    CHECK_INT(ph.v[3].fork_us, T0 + S(6) + 2000);
    CHECK_INT(ph.v[3].t1_us, T0 + S(8) + 1000);
    CHECK_STR(ph.v[5].label, "aof-rewrite#1");
    CHECK_INT(ph.v[5].open, 1);
    CHECK_INT(ph.v[5].t1_us, T0 + S(10) + 1);
    CHECK_INT(ph.v[1].overlap, 0);
    phase_release(&ph);

    /* the fork happened before its log line: the window opens earlier */
    in.fork_preroll_us = 2707;
    CHECK_INT(phase_build(&in, &ph, &err), COW_OK);
    /* ... but never before its trigger line (Requirement 10): the fork
     * began after "1 changes in 3600 seconds. Saving..." was logged */
    CHECK_INT(ph.v[1].t0_us, T0 + S(2));
    CHECK_INT(ph.v[1].fork_us, T0 + S(2) + 1000);
    CHECK_INT(ph.v[3].t0_us, T0 + S(6)); /* a sync opens at its trigger */
    phase_release(&ph);
}

/* Requirements 9-11, on the shapes of a live capture: INFO polled every
 * 100 ms reads latest_fork_usec 193000 (a fork before the capture), then
 * 7000 after the BGSAVE's child started and 8400 after the AOF rewrite's;
 * a diskless sync whose replica logs "MASTER <-> REPLICA sync: Finished
 * with success" 408 ms after the primary's "Synchronization with replica
 * ... succeeded". */
static void each_window_should_use_its_own_fork(void)
{
    cow_event e[] = {
        ev(T0 + S(3) + 610000, "bgsave_start", 2365, "pid"),
        ev(T0 + S(5), "bgsave_done", NAN, NULL),
        ev(T0 + S(6) + 4000, "aof_rewrite_start", 2370, "pid"),
        ev(T0 + S(7), "aof_rewrite_done", NAN, NULL),
        ev(T0 + S(8) + 62000, "sync_bgsave_start", NAN, "socket"),
        ev(T0 + S(8) + 67000, "rdb_transfer_start", 2380, "pid"),
        ev(T0 + S(10) + 386000, "rdb_transfer_done", NAN, NULL),
        ev(T0 + S(10) + 386000, "sync_success", NAN, NULL),
    };
    cow_fork_obs polls[] = {
        {T0 + S(3) + 500000, 193000}, /* before the BGSAVE: another fork's */
        {T0 + S(3) + 700000, 7000},   /* the BGSAVE's own */
        {T0 + S(6) + 100000, 8400},   /* the AOF rewrite's */
    };
    int64_t up[] = {T0 + S(10) + 794000};
    cow_phase_input in;
    cow_phases ph;
    cow_err err = COW_ERR_INIT;
    int poll = 0;
    size_t i;

    memset(&in, 0, sizeof(in));
    in.ev = e;
    in.nev = sizeof(e) / sizeof(e[0]);
    in.t_first_us = T0;
    in.t_last_us = T0 + S(12);
    in.fork_preroll_us = 193000 + 1000; /* the run's largest: the old rule */
    in.fork_polls = polls;
    in.nfork_polls = 3;
    in.replica_up = up;
    in.nreplica_up = 1;
    CHECK(phase_fork_dur(&in, T0 + S(3) + 610000, T0 + S(6) + 4000, &poll) == 7000);
    CHECK_INT(poll, 1);
    CHECK(isnan(phase_fork_dur(&in, T0 + S(3) + 610000, T0 + S(3) + 650000, NULL)));
    CHECK_INT(phase_build(&in, &ph, &err), COW_OK);
    for (i = 0; i < ph.n; i++) {
        if (strcmp(ph.v[i].label, "bgsave#1") == 0)
            CHECK_INT(ph.v[i].t0_us, T0 + S(3) + 610000 - 7000 - 1000);
        if (strcmp(ph.v[i].label, "aof-rewrite#1") == 0)
            CHECK_INT(ph.v[i].t0_us, T0 + S(6) + 4000 - 8400 - 1000);
        if (strcmp(ph.v[i].label, "sync-diskless#1") == 0)
            CHECK_INT(ph.v[i].t1_us, T0 + S(10) + 794000 + 1000); /* the replica's link-up */
    }
    phase_release(&ph);

    /* a LATENCY HISTORY fork sample (stamped to the second) when no poll
     * came inside the event */
    {
        cow_fork_obs hist[] = {{T0 + S(3), 7000}};
        in.nfork_polls = 0;
        in.fork_hist = hist;
        in.nfork_hist = 1;
        CHECK(phase_fork_dur(&in, T0 + S(3) + 610000, T0 + S(6) + 4000, &poll) == 7000);
        CHECK_INT(poll, 0);
        CHECK(isnan(phase_fork_dur(&in, T0 + S(4) + 10000, T0 + S(6), NULL)));
    }
}

/* Requirement 8: an AOF rewrite ends when its parent is done ("finished
 * successfully", 15 ms after the child was reaped), not at the reaping;
 * without that line, at the reaping. */
static void aof_rewrite_should_end_when_the_parent_is_done(void)
{
    cow_event e[] = {
        ev(T0 + S(1), "aof_rewrite_start", 10, NULL),
        ev(T0 + S(3), "aof_rewrite_done", NAN, NULL),
        ev(T0 + S(3) + 15000, "aof_rewrite_finished", NAN, NULL),
        ev(T0 + S(5), "aof_rewrite_start", 12, NULL),
        ev(T0 + S(6), "aof_rewrite_done", NAN, NULL),
        ev(T0 + S(7), "aof_rewrite_start", 13, NULL),
        ev(T0 + S(8), "aof_rewrite_finished", NAN, NULL),
    };
    cow_phase_input in;
    cow_phases ph;
    cow_err err = COW_ERR_INIT;
    size_t i, k = 0;
    int64_t ends[3];

    memset(&in, 0, sizeof(in));
    in.ev = e;
    in.nev = 7;
    in.t_first_us = T0;
    in.t_last_us = T0 + S(10);
    CHECK_INT(phase_build(&in, &ph, &err), COW_OK);
    for (i = 0; i < ph.n && k < 3; i++)
        if (ph.v[i].kind == COW_PHASE_AOF_REWRITE)
            ends[k++] = ph.v[i].t1_us;
    CHECK_INT(k, 3);
    if (k == 3) {
        CHECK_INT(ends[0], T0 + S(3) + 15000 + 1000);
        CHECK_INT(ends[1], T0 + S(6) + 1000); /* no finished line before the next start */
        CHECK_INT(ends[2], T0 + S(10) + 1); /* no done line: open to the last sample */
    }
    phase_release(&ph);
}

static void phases_should_mark_overlaps_and_use_polls(void)
{
    cow_event e[] = {
        ev(T0 + S(1), "aof_rewrite_start", 10, NULL),
        ev(T0 + S(2), "sync_bgsave_start", NAN, "disk"),
        ev(T0 + S(2) + 10, "bgsave_start", 11, NULL),
        ev(T0 + S(3), "aof_rewrite_done", NAN, NULL),
        ev(T0 + S(4), "bgsave_done", NAN, NULL),
    };
    cow_flag_poll polls[] = {{T0 + S(5), 0}, {T0 + S(6), 1}, {T0 + S(7), 0}};
    cow_phase_input in;
    cow_phases ph;
    cow_err err = COW_ERR_INIT;

    memset(&in, 0, sizeof(in));
    in.ev = e;
    in.nev = 5;
    in.t_first_us = T0;
    in.t_last_us = T0 + S(10);
    CHECK_INT(phase_build(&in, &ph, &err), COW_OK);
    CHECK_STR(ph.v[1].label, "aof-rewrite#1");
    CHECK_STR(ph.v[2].label, "sync-disk#1");
    CHECK_INT(ph.v[1].overlap, 1);
    CHECK_INT(ph.v[2].overlap, 1);
    CHECK_INT(ph.v[2].t1_us, T0 + S(4) + 1000); /* no sync_success: save end */
    phase_release(&ph);

    /* no log: INFO polls give the window */
    memset(&in, 0, sizeof(in));
    in.bgsave = polls;
    in.nbgsave = 3;
    in.t_first_us = T0;
    in.t_last_us = T0 + S(10);
    CHECK_INT(phase_build(&in, &ph, &err), COW_OK);
    CHECK_INT(ph.n, 3);
    CHECK_STR(ph.v[1].label, "bgsave#1");
    CHECK_STR(ph.v[1].source, "info");
    CHECK_INT(ph.v[1].t0_us, T0 + S(6));
    CHECK_INT(ph.v[1].t1_us, T0 + S(7));
    phase_release(&ph);

    /* a rewrite that ended before the capture: the gap after it is the
     * baseline; a forkless save hides the INFO flag window */
    {
        cow_event e2[] = {ev(T0 - S(5), "aof_rewrite_start", 9, NULL),
                          ev(T0 - S(2), "aof_rewrite_done", NAN, NULL),
                          ev(T0 + S(2), "forkless_start", NAN, NULL),
                          ev(T0 + S(8), "forkless_done", 6, "s")};
        in.ev = e2;
        in.nev = 4;
        CHECK_INT(phase_build(&in, &ph, &err), COW_OK);
        CHECK_INT(ph.n, 4);
        CHECK_STR(ph.v[0].label, "aof-rewrite#1");
        CHECK_STR(ph.v[1].label, "baseline");
        CHECK_STR(ph.v[2].label, "forkless#1");
        CHECK_STR(ph.v[3].label, "after");
        phase_release(&ph);
        in.ev = NULL;
        in.nev = 0;
    }

    /* nothing: one baseline */
    in.nbgsave = 0;
    CHECK_INT(phase_build(&in, &ph, &err), COW_OK);
    CHECK_INT(ph.n, 1);
    CHECK_STR(ph.v[0].label, "baseline");
    phase_release(&ph);
}

static void runstats_should_find_a_tail_lift(void)
{
    /* 4000 baseline samples 100..499 us, 1000 during with a tail */
    enum { NB = 4000, ND = 1000 };
    int64_t t[NB + ND];
    double lat[NB + ND];
    cow_event e[] = {ev(T0 + NB * 1000, "bgsave_start", 1, NULL),
                     ev(T0 + (NB + ND) * 1000, "bgsave_done", NAN, NULL)};
    cow_phase_input in;
    cow_phases ph;
    cow_runstats rs;
    cow_runstats_opts o = {COW_PCT_LINEAR, 999, 7, 0, NULL};
    cow_err err = COW_ERR_INIT;
    size_t i;

    for (i = 0; i < NB + ND; i++) {
        t[i] = T0 + (int64_t)i * 1000;
        lat[i] = 100 + (double)(i * 37 % 400);
        if (i >= NB && i % 20 == 0)
            lat[i] = 20000; /* 5% stalls of 20 ms */
    }
    memset(&in, 0, sizeof(in));
    in.ev = e;
    in.nev = 2;
    in.t_first_us = t[0];
    in.t_last_us = t[NB + ND - 1];
    CHECK_INT(phase_build(&in, &ph, &err), COW_OK);
    CHECK_INT(ph.n, 2);
    {
        cow_array_samples as = {t, lat, NB + ND};
        CHECK_INT(runstats_compute(&ph, &o, runstats_array_loader, &as, &rs, &err), COW_OK);
    }
    CHECK_INT(rs.all.sum.n, NB + ND);
    CHECK_INT(rs.ph[0].sum.n, NB);
    CHECK_INT(rs.ph[1].sum.n, ND);
    CHECK_INT(rs.ph[1].has_delta, 1);
    CHECK_INT(rs.ph[1].delta[2].verdict, COW_VERDICT_LIFT); /* p99 */
    CHECK_INT(rs.ph[1].delta[0].verdict, COW_VERDICT_FLAT); /* p50 */
    /* the 50 stalls, plus the few body values above the baseline p99 */
    CHECK(rs.ph[1].ex99.count >= 50 && rs.ph[1].ex99.count <= 65);
    CHECK_NEAR(rs.ph[1].delta[2].est_b, 20000, 1e-9);
    runstats_release(&rs);
    phase_release(&ph);
}

/* A request sent 4.2 ms before the window opened that took 12.4 ms (it
 * waited out the fork) is the window's, not the baseline's. */
/* baseline [T0, T0+2s), a window of kind [T0+2s, T0+3s), after to T0+4s */
static void three_phases(cow_phase *v, int kind)
{
    memset(v, 0, 3 * sizeof(*v));
    v[0].kind = COW_PHASE_BASELINE;
    v[0].t0_us = T0;
    v[0].t1_us = T0 + S(2);
    v[1].kind = kind;
    v[1].t0_us = T0 + S(2);
    v[1].t1_us = T0 + S(3);
    v[2].kind = COW_PHASE_AFTER;
    v[2].t0_us = T0 + S(3);
    v[2].t1_us = T0 + S(4);
}

static void in_flight_should_give_a_straddling_sample_to_the_window(void)
{
    cow_phase v[3];
    cow_phases ph = {v, 3, 3};
    int64_t t[] = {T0, T0 + S(1), T0 + S(2) - 4200, T0 + S(2) - 100, T0 + S(2) + 10,
                   T0 + S(3) - 50, T0 + S(3) + 5};
    double lat[] = {100, 200, 12400, 50, 300, 40, 70};
    double buf[7];
    size_t n = sizeof(t) / sizeof(t[0]);

    three_phases(v, COW_PHASE_BGSAVE);
    /* baseline: completed before t0; the 12.4 ms one completed in the
     * window, the one sent 100 us before t0 with 50 us before it */
    memcpy(buf, lat, sizeof(lat));
    CHECK_INT(phase_keep_in_flight(&ph, 0, t, buf, n), 3);
    CHECK_NEAR(buf[0], 100, 0);
    CHECK_NEAR(buf[1], 200, 0);
    CHECK_NEAR(buf[2], 50, 0);
    /* the window: the straddling request, the two sent inside it */
    memcpy(buf, lat, sizeof(lat));
    CHECK_INT(phase_keep_in_flight(&ph, 1, t, buf, n), 3);
    CHECK_NEAR(buf[0], 12400, 0);
    CHECK_NEAR(buf[1], 300, 0);
    CHECK_NEAR(buf[2], 40, 0);
    /* after: the one sent 50 us before t1 with 40 us ended inside the
     * window, the one sent after t1 is after's */
    memcpy(buf, lat, sizeof(lat));
    CHECK_INT(phase_keep_in_flight(&ph, 2, t, buf, n), 1);
    CHECK_NEAR(buf[0], 70, 0);
}

/* The two edges alike: a request in flight when the window opens joins
 * it, one in flight when it closes leaves it for the next phase (the
 * rule "in flight at any time during the window" kept both, and a heavy
 * tail tilted the window toward lift); the phase that reaches the
 * capture's end keeps a request completed after it. */
static void in_flight_should_treat_both_window_edges_alike(void)
{
    cow_phase v[3];
    cow_phases ph = {v, 3, 3};
    /* 0: straddles the start (sent 1 ms before t0, 5 ms); 1: straddles
     * the end (sent 1 ms before t1, 5 ms); 2: inside; 3: sent 1 ms
     * before the capture's end, completed 4 ms after it */
    int64_t t[] = {T0 + S(2) - 1000, T0 + S(3) - 1000, T0 + S(2) + 500, T0 + S(4) - 1000};
    double lat[] = {5000, 5000, 100, 5000};
    size_t k;

    three_phases(v, COW_PHASE_AOF_REWRITE);
    CHECK_INT(phase_holds(&ph, 1, t[0], lat[0]), 1); /* joins at the start */
    CHECK_INT(phase_holds(&ph, 0, t[0], lat[0]), 0);
    CHECK_INT(phase_holds(&ph, 1, t[1], lat[1]), 0); /* leaves at the end */
    CHECK_INT(phase_holds(&ph, 2, t[1], lat[1]), 1);
    CHECK_INT(phase_holds(&ph, 1, t[2], lat[2]), 1);
    CHECK_INT(phase_holds(&ph, 2, t[3], lat[3]), 1); /* the capture's end */
    /* every sample in exactly one phase */
    for (k = 0; k < 4; k++)
        CHECK_INT(phase_holds(&ph, 0, t[k], lat[k]) + phase_holds(&ph, 1, t[k], lat[k]) +
                      phase_holds(&ph, 2, t[k], lat[k]), 1);
    /* after is read from its t0 less the longest latency */
    CHECK(phase_first_send(&v[2], 5000) <= t[1]);
}

static int cmp_dbl(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

/* runstats_sort (a radix sort above 256 values) gives qsort's order:
 * negatives, zeros, duplicates, values that share their top bytes, tiny
 * and huge magnitudes, every size around the switch. */
static void runstats_sort_should_match_qsort(void)
{
    static const size_t sizes[] = {0, 1, 2, 255, 256, 257, 1000, 20000};
    uint64_t x = 88172645463325252ull;
    size_t s, i;

    for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
        size_t n = sizes[s];
        double *a = malloc((n ? n : 1) * sizeof(double));
        double *b = malloc((n ? n : 1) * sizeof(double));
        int same = 1;
        for (i = 0; i < n; i++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            switch (x % 6) {
            case 0: a[i] = (double)(x % 1000) / 8.0; break;        /* duplicates */
            case 1: a[i] = -(double)(x % 100000) * 1e-3; break;    /* negatives */
            case 2: a[i] = 0.0; break;
            case 3: a[i] = (double)(x >> 11) * 1e-300; break;      /* tiny */
            case 4: a[i] = (double)(x >> 11) * 1e250; break;       /* huge */
            default: a[i] = 250.0 + (double)(x % 4096) * 1e-9;     /* one top byte */
            }
            b[i] = a[i];
        }
        runstats_sort(a, n);
        if (n > 1)
            qsort(b, n, sizeof(double), cmp_dbl);
        for (i = 0; i < n; i++)
            same &= a[i] == b[i];
        CHECK(same);
        free(a);
        free(b);
    }
}

int main(void)
{
    RUN(phases_should_follow_log_windows);
    RUN(each_window_should_use_its_own_fork);
    RUN(aof_rewrite_should_end_when_the_parent_is_done);
    RUN(phases_should_mark_overlaps_and_use_polls);
    RUN(runstats_should_find_a_tail_lift);
    RUN(in_flight_should_give_a_straddling_sample_to_the_window);
    RUN(in_flight_should_treat_both_window_edges_alike);
    RUN(runstats_sort_should_match_qsort);
    return REPORT();
}
