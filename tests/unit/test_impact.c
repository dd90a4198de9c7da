/* test_impact.c -- impact.c's requirements on hand-worked cases. */
#include <math.h>
#include <stdint.h>

#include "impact.h"
#include "minunit.h"

/* Rows: sends (us), latencies (us), the longest stall (us). */
static void impact_should_find_the_longest_stall(void)
{
    static const struct {
        const char *id;
        size_t n;
        int64_t send[6];
        double lat[6];
        double stall, at; /* and where it began (us) */
    } rows[] = {
        /* 1.1 one request: its latency (Requirement 2) */
        {"1.1", 1, {100}, {250}, 250, 100},
        /* 1.2 closed loop, one in flight: the largest latency */
        {"1.2", 3, {0, 300, 700}, {200, 350, 100}, 350, 300},
        /* 1.3 open loop: requests every 100 us, the server stops from 1000 to
         * 9000; the queued ones all answer at 9000: one 8000 us stall, not
         * each request's own latency summed */
        {"1.3", 5, {800, 900, 1000, 1100, 1200}, {100, 100, 8000, 7900, 7800}, 8000, 1000},
        /* 1.4 idle time between requests is not a stall (nothing outstanding) */
        {"1.4", 2, {0, 10000}, {50, 60}, 60, 10000},
        /* 1.5 a NaN latency is skipped (Requirement 3) */
        {"1.5", 2, {0, 100}, {NAN, 40}, 40, 100},
    };
    size_t i;
    for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        double at;
        CHECK_NEAR(impact_longest_stall(rows[i].send, rows[i].lat, rows[i].n), rows[i].stall, 0);
        CHECK_NEAR(impact_longest_stall_at(rows[i].send, rows[i].lat, rows[i].n, &at),
                   rows[i].stall, 0);
        CHECK_NEAR(at, rows[i].at, 0);
    }
    CHECK(isnan(impact_longest_stall(NULL, NULL, 0))); /* Requirement 4 */
}

static void impact_should_count_beyond_the_threshold_given(void)
{
    static const double lat[] = {100, 3903, 3904, 6230, NAN};
    CHECK_INT((long long)impact_count_above(lat, 5, 3903), 2); /* strictly beyond */
    CHECK_INT((long long)impact_count_above(lat, 5, 6230), 0);
    CHECK_INT((long long)impact_count_above(lat, 5, NAN), 0);
}

int main(void)
{
    RUN(impact_should_find_the_longest_stall);
    RUN(impact_should_count_beyond_the_threshold_given);
    return REPORT();
}
