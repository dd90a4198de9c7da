/* test_cmdhist.c -- slow commands from LATENCY HISTOGRAM rows
 * (analysis/cmdhist.h): the difference of a start and an end snapshot,
 * the bucket bounds a call count is stated against, the fork's commands
 * left out. */
#include <string.h>

#include "cmdhist.h"
#include "minunit.h"

#define ROW(f, c, b, n, l) {(char *)(f), (char *)(c), (b), (n), (l)}

static void slow_commands_should_be_what_ran_between_the_snapshots(void)
{
    /* before: 2 KEYS calls up to 131 ms; after: 5, the 3 new up to 262 ms
     * (one of them in a bucket missing from the start); BGSAVE's 33 ms is
     * its fork; GET is fast */
    static const cow_cmdhist_row rows[] = {
        ROW("run/latency-histogram-start.txt", "keys", 0, 2, 1),
        ROW("run/latency-histogram-start.txt", "keys", 131072, 2, 5),
        ROW("run/latency-histogram.txt", "get", 0, 900, 1),
        ROW("run/latency-histogram.txt", "get", 8, 899, 5),
        ROW("run/latency-histogram.txt", "get", 2048, 900, 7),
        ROW("run/latency-histogram.txt", "bgsave", 0, 1, 9),
        ROW("run/latency-histogram.txt", "bgsave", 33554, 1, 13),
        ROW("run/latency-histogram.txt", "keys", 0, 5, 15),
        ROW("run/latency-histogram.txt", "keys", 8192, 1, 19),
        ROW("run/latency-histogram.txt", "keys", 131072, 3, 21),
        ROW("run/latency-histogram.txt", "keys", 262144, 5, 23),
    };
    cow_cmdhist h;

    cmdhist_summarise(rows, sizeof(rows) / sizeof(rows[0]), &h);
    CHECK_INT(h.known, 1);
    CHECK_INT(h.during, 1);
    CHECK_INT((long)h.ncmds, 3);
    CHECK_INT((long)h.n, 1);
    CHECK_STR(h.v[0].cmd, "keys");
    CHECK_NEAR(h.v[0].calls, 3, 0);
    CHECK_NEAR(h.v[0].top_us, 262144, 0);
    CHECK_NEAR(h.v[0].over_us, 65536, 0); /* half the first bound above 10 ms */
    CHECK_NEAR(h.v[0].over_n, 2, 0);      /* one of the three was at most 8 ms */
    CHECK_INT(h.v[0].line, 15);
    CHECK_STR(h.file, "run/latency-histogram.txt");

    /* the end snapshot alone: since the counters were reset */
    cmdhist_summarise(rows + 2, sizeof(rows) / sizeof(rows[0]) - 2, &h);
    CHECK_INT(h.during, 0);
    CHECK_NEAR(h.v[0].calls, 5, 0);
    CHECK_NEAR(h.v[0].over_n, 4, 0);
    /* nothing slow: known, none listed */
    cmdhist_summarise(rows + 2, 3, &h);
    CHECK_INT(h.known, 1);
    CHECK_INT((long)h.n, 0);
    cmdhist_summarise(NULL, 0, &h);
    CHECK_INT(h.known, 0);
}

int main(void)
{
    RUN(slow_commands_should_be_what_ran_between_the_snapshots);
    return REPORT();
}
