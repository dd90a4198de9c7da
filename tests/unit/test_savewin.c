/* test_savewin.c -- the save window's numbers (analysis/savewin.c), each
 * requirement against values worked out by hand. */
#include <math.h>
#include <string.h>

#include "minunit.h"
#include "savewin.h"

static cow_phase ph(int kind, int64_t t0, int64_t t1, const char *source)
{
    cow_phase p;
    memset(&p, 0, sizeof(p));
    p.kind = kind;
    p.t0_us = t0;
    p.t1_us = t1;
    p.source = source;
    return p;
}

/* Requirement 1 */
static void pick_should_prefer_the_first_save_over_earlier_windows(void)
{
    cow_phase v[4] = {ph(COW_PHASE_BASELINE, 0, 10, "derived"),
                      ph(COW_PHASE_SYNC_DISK, 10, 20, "log"),
                      ph(COW_PHASE_FORKLESS, 30, 40, "log"),
                      ph(COW_PHASE_BGSAVE, 50, 60, "log")};
    CHECK_INT(savewin_pick(v, 4), 2);
    CHECK_INT(savewin_pick(v, 2), 1);   /* no save: the first window */
    CHECK_INT(savewin_pick(v, 1), -1);  /* no window */
    CHECK_INT(savewin_pick(v, 0), -1);
}

/* Requirements 2 and 3 */
static void growth_should_need_a_sample_at_or_before_the_start(void)
{
    int64_t t[5] = {100, 200, 300, 400, 500};
    double b[5] = {10, 12, 30, 25, 99};
    cow_phase w = ph(COW_PHASE_BGSAVE, 200, 500, "log");
    double level = 0;

    CHECK_NEAR(savewin_level(t, b, 5, 200), 12, 0);   /* at the start counts */
    CHECK_NEAR(savewin_level(t, b, 5, 199), 10, 0);
    CHECK(isnan(savewin_level(t, b, 5, 99)));
    /* 300 and 400 are inside, 500 is the (exclusive) end: 30 - 12 */
    CHECK_NEAR(savewin_growth(t, b, 5, &w, &level), 18, 0);
    CHECK_NEAR(level, 12, 0);
    /* no sample before the start: unknown, not the first sample after it */
    w = ph(COW_PHASE_BGSAVE, 50, 500, "log");
    CHECK(isnan(savewin_growth(t, b, 5, &w, &level)));
    CHECK(isnan(level));
    /* no sample inside */
    w = ph(COW_PHASE_BGSAVE, 500, 600, "log");
    CHECK(isnan(savewin_growth(t, b, 5, &w, NULL)));
}

/* Requirement 4 */
static void seconds_should_come_from_a_closed_log_save(void)
{
    cow_phase v[3] = {ph(COW_PHASE_BGSAVE, 0, 2000001, "info"),
                      ph(COW_PHASE_BGSAVE, 5000000, 7500001, "log"),
                      ph(COW_PHASE_FORKLESS, 9000000, 9000101, "log")};
    CHECK_NEAR(savewin_seconds(v, 3), 2.5, 1e-12);
    v[1].fork_us = 5500000;   /* from the child's start line */
    CHECK_NEAR(savewin_seconds(v, 3), 2.0, 1e-12);
    v[1].open = 1;            /* never seen to end: the next save */
    CHECK_NEAR(savewin_seconds(v, 3), 100e-6, 1e-12);
    CHECK(isnan(savewin_seconds(v, 1)));
}

/* Requirements 5 and 6 */
static void rate_should_weigh_intervals_by_their_length(void)
{
    double dur[3] = {1, 3, NAN}, ops[3] = {100, 100, 5000};
    int64_t t[3] = {1000000, 2000000, 5000000};
    double c[3] = {10, 20, 610};

    /* 200 ops over 4 s, not the mean of 100/s and 33/s */
    CHECK_NEAR(savewin_rate(dur, ops, 3), 50, 1e-12);
    CHECK(isnan(savewin_rate(dur + 2, ops + 2, 1)));
    CHECK_NEAR(savewin_counter_rate(t, c, 3), 150, 1e-12);
    c[2] = 5; /* a restart */
    CHECK(isnan(savewin_counter_rate(t, c, 3)));
    CHECK(isnan(savewin_counter_rate(t, c, 1)));
}

/* Requirements 7, 8 and 9: the save's figures beside the run's */
static void rates_in_a_window_should_count_the_overlapping_share(void)
{
    /* 1 s intervals from t = 0 s: 100, 100, 40, 40, 100 ops */
    int64_t t[5] = {0, 1000000, 2000000, 3000000, 4000000};
    double dur[5] = {1, 1, 1, 1, 1}, ops[5] = {100, 100, 40, 40, 100};
    double c[4] = {0, 100, 180, 380}, b[4] = {5, 9, 30, 7};
    int64_t tc[4] = {0, 1000000, 3000000, 5000000};
    cow_phase w = ph(COW_PHASE_BGSAVE, 1500000, 4000000, "log");

    /* half of 100 + 40 + 40 over 2.5 s: 52/s, where the run says 76/s */
    CHECK_NEAR(savewin_rate_in(t, dur, ops, 5, &w), 130.0 / 2.5, 1e-12);
    CHECK_NEAR(savewin_rate(dur, ops, 5), 76, 1e-12);
    w.t0_us = 6000000; /* after the series */
    w.t1_us = 7000000;
    CHECK(isnan(savewin_rate_in(t, dur, ops, 5, &w)));
    /* counter: from the sample at 1 s to the one at 5 s */
    w.t0_us = 1500000;
    w.t1_us = 4000000;
    CHECK_NEAR(savewin_counter_rate_in(tc, c, 4, &w), 280.0 / 4.0, 1e-12);
    w.t1_us = 5000001; /* no sample that late */
    CHECK(isnan(savewin_counter_rate_in(tc, c, 4, &w)));
    CHECK_NEAR(savewin_growth_all(b, 4), 25, 0);
    CHECK(isnan(savewin_growth_all(b, 0)));
}

/* a load paced at a fixed rate: every interval outside the window within
 * 1% of their mean; the window's own intervals are not read */
static void paced_load_should_be_steady_outside_the_window(void)
{
    int64_t t[6] = {0, 1000000, 2000000, 3000000, 4000000, 5000000};
    double dur[6] = {1, 1, 1, 1, 1, 1};
    double ops[6] = {100000, 99840, 20000, 30000, 100320, 100000};
    cow_phase w = ph(COW_PHASE_BGSAVE, 2000000, 4000000, "log");

    CHECK(savewin_rate_steady(t, dur, ops, 6, &w, 0.01));
    ops[5] = 98000; /* 2.3% below the others */
    CHECK(!savewin_rate_steady(t, dur, ops, 6, &w, 0.01));
    ops[5] = 100000;
    w.t0_us = 1500000; /* the intervals at 1 s and 4 s overlap: two left outside */
    w.t1_us = 4500000;
    CHECK(!savewin_rate_steady(t, dur, ops, 6, &w, 0.01));
}

int main(void)
{
    RUN(pick_should_prefer_the_first_save_over_earlier_windows);
    RUN(growth_should_need_a_sample_at_or_before_the_start);
    RUN(seconds_should_come_from_a_closed_log_save);
    RUN(rate_should_weigh_intervals_by_their_length);
    RUN(rates_in_a_window_should_count_the_overlapping_share);
    RUN(paced_load_should_be_steady_outside_the_window);
    return REPORT();
}
