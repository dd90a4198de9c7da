/* test_clock.c -- a server log's zone from pairs, and the clocks of two
 * files of one run compared (analysis/clock.c). */
#include <stdint.h>
#include <string.h>

#include "clock.h"
#include "minunit.h"

#define S 1000000LL      /* us per second */
#define H (3600 * S)     /* us per hour */
/* 2026-11-30T08:50:08Z, the bundled steady capture's first sample */
#define T0 1796028608000000LL

/* A pair off the grid by more than its tolerance decides nothing; the
 * first on the grid decides, and agreeing pairs are counted. */
static void decide_should_take_the_first_pair_on_the_grid(void)
{
    double d[] = {7203.5, 7200.4, 7199.8, 3600.0};
    double tol[] = {1.0, 1.0, 1.0, 1.0};
    long off = 0;
    size_t agree = 0;
    CHECK_INT(clock_decide(d, tol, 4, &off, &agree), 1);
    CHECK_INT(off, 7200);
    CHECK_INT(agree, 2);
    /* beyond +14:00: not a zone */
    d[0] = 15 * 3600.0;
    CHECK_INT(clock_decide(d, tol, 1, &off, &agree), -1);
}

/* No window inside the samples, but all of them two hours later: UTC+2. */
static void hour_guess_should_name_the_offset_that_places_the_windows(void)
{
    int64_t t[] = {T0 + 2 * H + 60 * S, T0 + 2 * H + 62 * S};
    long off = 0;
    CHECK_INT(clock_hour_guess(t, 2, T0, T0 + 600 * S, &off), 1);
    CHECK_INT(off, 7200);
    /* one window inside: no guess (clock_hour_better's case) */
    t[0] = T0 + 30 * S;
    CHECK_INT(clock_hour_guess(t, 2, T0, T0 + 600 * S, &off), 0);
}

/* Some window stamps inside as read (a periodic save), but one hour back
 * places more of them: the zone assumed is in doubt. */
static void hour_better_should_doubt_a_zone_that_places_fewer(void)
{
    int64_t t[] = {T0 + 10 * S, T0 + H + 100 * S, T0 + H + 102 * S, T0 + H + 300 * S};
    long off = 0;
    size_t k0 = 0, k = 0;
    CHECK_INT(clock_hour_better(t, 4, T0, T0 + 600 * S, &off, &k0, &k), 1);
    CHECK_INT(off, 3600);
    CHECK_INT(k0, 1);
    CHECK_INT(k, 3);
    /* saves every minute throughout: any shift places as many, no doubt */
    {
        int64_t p[24];
        int i;
        for (i = 0; i < 24; i++)
            p[i] = T0 - 2 * H + (int64_t)i * 15 * 60 * S;
        CHECK_INT(clock_hour_better(p, 24, T0, T0 + 600 * S, &off, &k0, &k), 0);
    }
    /* nothing inside: not this function's case */
    CHECK_INT(clock_hour_better(t + 1, 3, T0, T0 + 600 * S, &off, &k0, &k), 0);
}

/* Spans less than 30 min apart share a clock; 3 h apart is a whole-hour
 * offset; 5 h 30 min a zone-grid one; 26 h no zone at all. */
static void skew_should_tell_hours_grid_and_other_clocks(void)
{
    long off = 7;
    double gap = -1;
    /* overlapping, and a snapshot 20 min before the capture */
    CHECK_INT(clock_skew(T0, T0 + 600 * S, T0 + 100 * S, T0 + 700 * S, &off, &gap), COW_SKEW_NONE);
    CHECK_NEAR(gap, 0, 0);
    CHECK_INT(clock_skew(T0, T0 + 600 * S, T0 - 1200 * S, T0 - 1200 * S, &off, &gap), COW_SKEW_NONE);
    CHECK_NEAR(gap, 1200, 1e-9);
    /* an INFO series 3 h later */
    CHECK_INT(clock_skew(T0, T0 + 600 * S, T0 + 3 * H - 1 * S, T0 + 3 * H + 590 * S, &off, &gap),
              COW_SKEW_HOUR);
    CHECK_INT(off, 3 * 3600);
    CHECK_NEAR(gap, 3 * 3600 - 601, 1e-9);
    /* a memory series in local time west of UTC */
    CHECK_INT(clock_skew(T0, T0 + 600 * S, T0 - 5 * H, T0 - 5 * H + 600 * S, &off, &gap),
              COW_SKEW_HOUR);
    CHECK_INT(off, -5 * 3600);
    /* India, +05:30: the whole hour (+05:00 or +06:00) does not line up */
    CHECK_INT(clock_skew(T0, T0 + 600 * S, T0 + 5 * H + 1800 * S, T0 + 5 * H + 2400 * S,
                         &off, &gap), COW_SKEW_GRID);
    CHECK_INT(off, 5 * 3600 + 1800);
    /* a day and two hours later: no zone does it */
    CHECK_INT(clock_skew(T0, T0 + 600 * S, T0 + 26 * H, T0 + 26 * H + 600 * S, &off, &gap),
              COW_SKEW_OTHER);
    CHECK_INT(off, 26 * 3600);
}

static void skew_text_should_say_the_offset_and_its_kind(void)
{
    cow_clock_skew k;
    char out[120];
    memset(&k, 0, sizeof(k));
    k.kind = COW_SKEW_HOUR;
    k.off_s = -3 * 3600;
    clock_skew_offset_text(&k, out, sizeof(out));
    CHECK_STR(out, "-03:00 (a whole-hour offset: a clock in local time?)");
    k.kind = COW_SKEW_GRID;
    k.off_s = 5 * 3600 + 45 * 60;
    clock_skew_offset_text(&k, out, sizeof(out));
    CHECK_STR(out, "+05:45 (a zone offset: a clock in local time?)");
    k.kind = COW_SKEW_OTHER;
    k.off_s = 26 * 3600;
    clock_skew_offset_text(&k, out, sizeof(out));
    CHECK_STR(out, "+26.0 h (no zone offset: another clock, or another day?)");
}

int main(void)
{
    RUN(decide_should_take_the_first_pair_on_the_grid);
    RUN(hour_guess_should_name_the_offset_that_places_the_windows);
    RUN(hour_better_should_doubt_a_zone_that_places_fewer);
    RUN(skew_should_tell_hours_grid_and_other_clocks);
    RUN(skew_text_should_say_the_offset_and_its_kind);
    return REPORT();
}
