/* test_replsteps.c -- a replica's sync attempts (analysis/replsteps.c),
 * against the steps of replica logs worked out by hand. */
#include <math.h>
#include <string.h>

#include "minunit.h"
#include "replsteps.h"

static cow_event ev(int64_t t_ms, const char *kind, double value)
{
    cow_event e;
    memset(&e, 0, sizeof(e));
    e.t_us = t_ms * 1000;
    e.kind = kind;
    e.value = value;
    e.line = (long)(t_ms % 1000);
    return e;
}

/* The disk-based full sync of samples/fullsync-disk/replica/replica.log:
 * 15.645 connect, 15.651 full resync, 16.908 receiving, 17.084 flush and
 * load, 17.526 done; then the link lost, a reconnect that never syncs. */
static void full_sync_should_give_each_step_and_its_duration(void)
{
    cow_event v[] = {ev(15645, "role_change", NAN),    ev(15645, "repl_connect", NAN),
                     ev(15645, "repl_sync_start", NAN), ev(15651, "repl_full_resync", NAN),
                     ev(16908, "repl_receive", 124089071), ev(17084, "repl_flush", NAN),
                     ev(17084, "repl_load", NAN),        ev(17526, "rdb_loaded", 300000),
                     ev(17526, "repl_done", NAN),        ev(25683, "repl_link_lost", NAN),
                     ev(25683, "repl_connect", NAN),     ev(25683, "repl_sync_start", NAN)};
    cow_repl_sync s[4];
    CHECK_INT(replsteps_find(v, 12, s, 4), 2);
    CHECK_INT(s[0].outcome, COW_REPL_UP);
    CHECK_INT(s[0].mode, 'F');
    CHECK_INT(s[0].attach_us, 15645000);
    CHECK_INT(s[0].resync_us, 15651000);
    CHECK_INT(s[0].recv_us, 16908000);
    CHECK_INT(s[0].recv_end_us, 17084000);
    CHECK_INT(s[0].up_us, 17526000);
    CHECK_INT(s[0].lost_us, COW_REPL_NONE);
    CHECK_NEAR(s[0].bytes, 124089071, 0);
    CHECK_NEAR(s[0].attach_to_up_s, 1.881, 1e-9);
    CHECK_NEAR(s[0].wait_s, 1.257, 1e-9);
    CHECK_NEAR(s[0].transfer_s, 0.176, 1e-9);
    CHECK_NEAR(s[0].flush_s, 0.0, 1e-9);
    CHECK_NEAR(s[0].load_s, 0.442, 1e-9);
    /* the reconnect after the link was lost: open, nothing measured */
    CHECK_INT(s[1].outcome, COW_REPL_OPEN);
    CHECK_INT(s[1].attach_us, 25683000);
    CHECK_INT(s[1].mode, 0);
    CHECK(isnan(s[1].attach_to_up_s) && isnan(s[1].transfer_s) && isnan(s[1].load_s));
    CHECK(isnan(s[1].bytes));
    CHECK_STR(replsteps_outcome_name(s[0].outcome), "up");
    CHECK_STR(replsteps_outcome_name(s[1].outcome), "open");
}

static void link_lost_before_done_should_be_an_unfinished_attempt(void)
{
    cow_event v[] = {ev(1000, "repl_sync_start", NAN), ev(1010, "repl_full_resync", NAN),
                     ev(1500, "repl_receive", NAN),    ev(2500, "repl_link_lost", NAN),
                     ev(3000, "repl_connect", NAN),    ev(3001, "repl_full_resync", NAN),
                     ev(3100, "repl_receive", NAN),    ev(3400, "repl_load", NAN),
                     ev(3900, "repl_done", NAN)};
    cow_repl_sync s[3];
    CHECK_INT(replsteps_find(v, 9, s, 3), 2);
    /* no connect line: the first step is the attach */
    CHECK_INT(s[0].attach_us, 1000000);
    CHECK_INT(s[0].outcome, COW_REPL_LOST);
    CHECK_INT(s[0].lost_us, 2500000);
    CHECK_INT(s[0].up_us, COW_REPL_NONE);
    CHECK(isnan(s[0].attach_to_up_s));
    CHECK(isnan(s[0].transfer_s)); /* transfer never ended */
    CHECK_NEAR(s[0].wait_s, 0.49, 1e-9);
    /* no flush line: the transfer ends at the load, flush unknown */
    CHECK_INT(s[1].outcome, COW_REPL_UP);
    CHECK_NEAR(s[1].attach_to_up_s, 0.9, 1e-9);
    CHECK_NEAR(s[1].transfer_s, 0.3, 1e-9);
    CHECK(isnan(s[1].flush_s));
    CHECK_NEAR(s[1].load_s, 0.5, 1e-9);
}

static void partial_resync_should_be_up_when_accepted(void)
{
    cow_event v[] = {ev(100, "repl_connect", NAN), ev(100, "repl_sync_start", NAN),
                     ev(104, "repl_partial_ok", NAN), ev(900, "repl_link_lost", NAN)};
    cow_repl_sync s[2];
    CHECK_INT(replsteps_find(v, 4, s, 2), 1);
    CHECK_INT(s[0].mode, 'P');
    CHECK_INT(s[0].outcome, COW_REPL_UP);
    CHECK_NEAR(s[0].attach_to_up_s, 0.004, 1e-9);
    CHECK(isnan(s[0].transfer_s) && isnan(s[0].load_s) && isnan(s[0].wait_s));
}

static void second_sync_start_should_open_another_attempt(void)
{
    /* a sync that failed (no lost line) and was tried again, twice */
    cow_event v[] = {ev(10, "repl_sync_start", NAN), ev(20, "repl_sync_start", NAN),
                     ev(30, "repl_sync_start", NAN), ev(35, "repl_full_resync", NAN),
                     ev(40, "repl_done", NAN)};
    cow_repl_sync s[1];
    /* the count says how many there are even past the cap */
    CHECK_INT(replsteps_find(v, 5, s, 1), 3);
    CHECK_INT(s[0].outcome, COW_REPL_OPEN);
    CHECK_INT(s[0].attach_us, 10000);
    CHECK_INT(replsteps_find(v, 0, s, 1), 0);
    CHECK_INT(replsteps_find(v, 1, NULL, 0), 1);
}

int main(void)
{
    RUN(full_sync_should_give_each_step_and_its_duration);
    RUN(link_lost_before_done_should_be_an_unfinished_attempt);
    RUN(partial_resync_should_be_up_when_accepted);
    RUN(second_sync_start_should_open_another_attempt);
    return REPORT();
}
