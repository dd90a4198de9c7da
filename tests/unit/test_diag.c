/* test_diag.c -- the doctor's rules on the facts of the seed stories. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot.h"
#include "diag.h"
#include "verdict.h"
#include "minunit.h"

static int fired_any(const cow_findings *f, const char *rule);
static int fired(const cow_findings *f, const char *run, const char *rule);

static void known(cow_fact *f, double num, const char *text)
{
    memset(f, 0, sizeof(*f));
    f->known = 1;
    f->num = num;
    snprintf(f->text, sizeof(f->text), "%s", text);
    snprintf(f->src, sizeof(f->src), "x/info.txt:7");
}

static void window(cow_run_facts *r, const char *kind, double d50, int v50,
                   double d999, int v999)
{
    cow_window_fact *w = &r->worst;
    w->present = 1;
    w->kind = phase_kind_from_name(kind);
    snprintf(w->label, sizeof(w->label), "%s#1", kind);
    w->delta_us[0] = d50;
    w->verdict[0] = v50;
    w->base_us[0] = 11220;
    w->delta_us[2] = d999 * 0.8;
    w->verdict[2] = v999;
    w->delta_us[3] = d999;
    w->verdict[3] = v999;
    w->value_us[3] = 54479;
    w->n = 721;
    w->base_n = 1708;
    r->base_n = 1708;
    r->thin_p999 = 1;
}

static void base(cow_run_facts *r, const char *label, const char *scenario)
{
    memset(r, 0, sizeof(*r));
    r->label = label;
    r->scenario = scenario;
    r->host = "mac";
    r->samples = 2000;
    r->analysed = 1;
    r->save_period_s = NAN;
    r->mem_growth_bytes = NAN;
}

/* A significant but tiny median shift is not a "full lift". */
static void doctor_should_ignore_immaterial_median_shifts(void)
{
    cow_run_facts r;
    cow_findings f;
    base(&r, "x", "bgsave");
    window(&r, "bgsave", 9, COW_VERDICT_LIFT, 23000, COW_VERDICT_LIFT);
    diag_run(&r, 1, &f);
    CHECK(fired_any(&f, "tail_only_lift"));
    CHECK(!fired_any(&f, "full_lift"));
    diag_release(&f);
    /* 13% of the median but under 10% of the p99 move (18.4 ms): tail only */
    window(&r, "bgsave", 1500, COW_VERDICT_LIFT, 23000, COW_VERDICT_LIFT);
    diag_run(&r, 1, &f);
    CHECK(fired_any(&f, "tail_only_lift"));
    CHECK(!fired_any(&f, "full_lift"));
    diag_release(&f);
    /* 18% of the median and 11% of the p99 move: the whole distribution */
    window(&r, "bgsave", 2000, COW_VERDICT_LIFT, 23000, COW_VERDICT_LIFT);
    diag_run(&r, 1, &f);
    CHECK(!fired_any(&f, "tail_only_lift"));
    CHECK(fired_any(&f, "full_lift"));
    diag_release(&f);
    /* seed 000: p50 +0.28 ms on 11.2 ms while p99.9 rose 8.2 ms */
    window(&r, "bgsave", 280, COW_VERDICT_LIFT, 8200, COW_VERDICT_LIFT);
    diag_run(&r, 1, &f);
    CHECK(fired_any(&f, "tail_only_lift"));
    CHECK(!fired_any(&f, "full_lift"));
    diag_release(&f);
    /* a real BGSAVE capture: p50 0.033 -> 0.051 ms (+55%), p99 +1.1 ms */
    window(&r, "bgsave", 18, COW_VERDICT_LIFT, 1375, COW_VERDICT_LIFT);
    r.worst.base_us[0] = 33;
    diag_run(&r, 1, &f);
    CHECK(fired_any(&f, "tail_only_lift"));
    CHECK(!fired_any(&f, "full_lift"));
    diag_release(&f);
}

static int fired(const cow_findings *f, const char *run, const char *rule)
{
    size_t i;
    for (i = 0; i < f->n; i++)
        if (strcmp(f->v[i].run, run) == 0 && strcmp(f->v[i].rule, rule) == 0)
            return 1;
    return 0;
}

static int fired_any(const cow_findings *f, const char *rule)
{
    size_t i;
    for (i = 0; i < f->n; i++)
        if (strcmp(f->v[i].rule, rule) == 0)
            return 1;
    return 0;
}

/* Does a finding of rule `rule` cite metric with value? */
static int has_evidence(const cow_findings *f, const char *rule, const char *metric,
                        const char *value)
{
    size_t i, k;
    for (i = 0; i < f->n; i++)
        if (strcmp(f->v[i].rule, rule) == 0)
            for (k = 0; (int)k < f->v[i].nev; k++)
                if (strcmp(f->v[i].ev[k].metric, metric) == 0 &&
                    strcmp(f->v[i].ev[k].value, value) == 0)
                    return 1;
    return 0;
}

/* Does the advice of rule `rule` contain text? */
static int advice_has(const cow_findings *f, const char *rule, const char *text)
{
    size_t i;
    for (i = 0; i < f->n; i++)
        if (strcmp(f->v[i].rule, rule) == 0 && strstr(f->v[i].advice, text) != NULL)
            return 1;
    return 0;
}

/* Both syncs lifted the tail and the diskless one took longer (the
 * bundled captures' shape): the advice must not promise that diskless
 * spares the tail, and says what it cost. */
static void doctor_should_not_advise_diskless_against_the_evidence(void)
{
    cow_run_facts r[2];
    cow_findings f;

    base(&r[0], "disk", "fullsync");
    window(&r[0], "sync-disk", 280, COW_VERDICT_FLAT, 6594, COW_VERDICT_LIFT);
    known(&r[0].repl_sync, 1.881, "1.881 s");
    base(&r[1], "diskless", "fullsync");
    window(&r[1], "sync-diskless", 538, COW_VERDICT_LIFT, 2396, COW_VERDICT_LIFT);
    known(&r[1].repl_sync, 2.732, "2.732 s");
    diag_run(r, 2, &f);
    CHECK(fired(&f, "disk", "disk_vs_diskless_sync"));
    CHECK(advice_has(&f, "disk_vs_diskless_sync",
                     "these captures do not show diskless sync sparing the tail "
                     "(disk lift, diskless lift at p99.9)"));
    CHECK(advice_has(&f, "disk_vs_diskless_sync",
                     "1.881 s on disk and 2.732 s diskless here, so diskless costs sync time"));
    CHECK(!advice_has(&f, "disk_vs_diskless_sync", "the tail stayed flat"));
    diag_release(&f);
    /* a read-only control's sync (1 MB copied on write) is no disk side to
     * a writing load's diskless one (148 MB): not compared (the bundled
     * readonly-control was) */
    known(&r[0].rdb_last_cow_size, 1081344, "1081344");
    known(&r[1].rdb_last_cow_size, 154710016, "154710016");
    diag_run(r, 2, &f);
    CHECK(!fired(&f, "disk", "disk_vs_diskless_sync"));
    diag_release(&f);
    known(&r[0].rdb_last_cow_size, 152014848, "152014848"); /* fullsync-disk's */
    diag_run(r, 2, &f);
    CHECK(fired(&f, "disk", "disk_vs_diskless_sync"));
    diag_release(&f);
}

/* Seed 000: disk sync lifts p99.9 by 8.2 ms with p50 flat, fork 1.7 ms,
 * THP [always] but AnonHugePages 0, DOCTOR saw nothing; diskless flat;
 * read-only control flat. */
static void doctor_should_tell_the_seed_000_story(void)
{
    cow_run_facts r[3];
    cow_findings f;

    base(&r[0], "disk", "fullsync");
    window(&r[0], "sync-disk", 280, COW_VERDICT_FLAT, 8179, COW_VERDICT_LIFT);
    known(&r[0].latest_fork_usec, 1707, "");
    known(&r[0].used_memory, 413892608, "");
    known(&r[0].thp_enabled, NAN, "always");
    known(&r[0].anon_huge, 0, "0 kB");
    known(&r[0].latmon_none, 1, "");
    known(&r[0].latmon_fork, 0, "");
    known(&r[0].diskless_sync, NAN, "no");
    known(&r[0].repl_sync, 1.950, "1.950 s, wait 1.2 s, transfer 0.3 s, load 0.45 s");
    base(&r[1], "diskless", "fullsync");
    known(&r[1].repl_sync, 1.519, "1.519 s, transfer 1.1 s, load 0.4 s");
    window(&r[1], "sync-diskless", 130, COW_VERDICT_FLAT, -2100, COW_VERDICT_FLAT);
    base(&r[2], "readonly", "read-only-control");
    window(&r[2], "sync-disk", 10, COW_VERDICT_FLAT, 600, COW_VERDICT_FLAT);

    diag_run(r, 3, &f);
    CHECK(fired(&f, "disk", "tail_only_lift"));
    CHECK(!fired(&f, "disk", "full_lift"));
    CHECK(fired(&f, "disk", "fork_not_the_cost"));
    CHECK(fired(&f, "disk", "thp_not_backing_heap"));
    CHECK(!fired(&f, "disk", "thp_backing_heap"));
    CHECK(fired(&f, "disk", "monitor_blind_spot"));
    CHECK(fired(&f, "disk", "disk_vs_diskless_sync"));
    CHECK(has_evidence(&f, "disk_vs_diskless_sync", "attach-to-link-up disk",
                       "1.950 s, wait 1.2 s, transfer 0.3 s, load 0.45 s"));
    CHECK(has_evidence(&f, "disk_vs_diskless_sync", "attach-to-link-up diskless",
                       "1.519 s, transfer 1.1 s, load 0.4 s"));
    /* the disk sync lifted, the diskless one did not: diskless advised */
    CHECK(advice_has(&f, "disk_vs_diskless_sync", "here the tail stayed flat with it"));
    CHECK(advice_has(&f, "disk_vs_diskless_sync",
                     "attach to link up took 1.950 s on disk and 1.519 s diskless here"));
    CHECK(!advice_has(&f, "disk_vs_diskless_sync", "costs sync time"));
    CHECK(fired(&f, "disk", "thin_tail"));
    CHECK(fired(&f, "disk", "thp_always"));
    CHECK(!fired(&f, "diskless", "tail_only_lift"));
    CHECK(fired(&f, "readonly", "readonly_control_flat"));
    CHECK(!fired(&f, "disk", "slow_fork")); /* 395 MB in 1.7 ms: 226 GB/s */
    diag_release(&f);
}

/* THP backing the heap: critical before kernel 5.8, a warning after. */
static void doctor_should_weigh_thp_by_kernel(void)
{
    cow_run_facts r;
    cow_findings f;
    size_t i;

    base(&r, "thp", "bgsave");
    known(&r.anon_huge, 268435456, "262144 kB");
    known(&r.thp_enabled, NAN, "always");
    known(&r.os, NAN, "Linux 4.19.0-21-amd64 x86_64");
    diag_run(&r, 1, &f);
    CHECK(fired(&f, "thp", "thp_backing_heap"));
    for (i = 0; i < f.n; i++)
        if (strcmp(f.v[i].rule, "thp_backing_heap") == 0)
            CHECK_INT(f.v[i].severity, COW_SEV_CRIT);
    diag_release(&f);
    known(&r.os, NAN, "Linux 6.1.0-18-amd64 x86_64");
    diag_run(&r, 1, &f);
    for (i = 0; i < f.n; i++)
        if (strcmp(f.v[i].rule, "thp_backing_heap") == 0) {
            CHECK_INT(f.v[i].severity, COW_SEV_WARN);
            CHECK(strstr(f.v[i].title, "4 KiB") != NULL);
        }
    diag_release(&f);
}

/* Seed 003 / 004 / 002 shapes. */
static void doctor_should_catch_memory_period_and_settings(void)
{
    cow_run_facts r;
    cow_findings f;

    base(&r, "forkless", "bgsave");
    r.mode = "forkless";
    known(&r.aof_last_cow_size, 10485760, "");
    known(&r.rdb_last_cow_size, 371929088, "");
    known(&r.used_memory, 1116691496, "");
    known(&r.overcommit, 0, "0");
    known(&r.swappiness, 60, "60");
    known(&r.numa, 1, "1");
    known(&r.latest_fork_usec, 150000, "");
    r.nsaves = 4;
    r.nlifted = 3;
    r.save_period_s = 14400;
    diag_run(&r, 1, &f);
    CHECK(fired(&f, "forkless", "aof_rewrite_still_forks"));
    CHECK(fired(&f, "forkless", "cow_memory_headroom"));
    CHECK(fired(&f, "forkless", "periodic_save_spikes"));
    CHECK(fired(&f, "forkless", "overcommit_memory"));
    CHECK(fired(&f, "forkless", "swappiness_high"));
    CHECK(fired(&f, "forkless", "numa_balancing_on"));
    CHECK(fired(&f, "forkless", "slow_fork")); /* 1.04 GB in 150 ms: 6.9 GB/s */
    CHECK(!fired(&f, "forkless", "tail_only_lift"));
    diag_release(&f);
}

/* A healthy run: settings right, no lift, enough samples, THP never. No
 * rule may fire: the negative case of every rule at once. */
static void doctor_should_say_nothing_of_a_healthy_run(void)
{
    cow_run_facts r[2];
    cow_findings f;
    size_t i;

    base(&r[0], "healthy", "bgsave");
    window(&r[0], "bgsave", 3, COW_VERDICT_FLAT, 120, COW_VERDICT_FLAT);
    r[0].thin_p999 = 0;
    r[0].base_n = r[0].worst.base_n = r[0].worst.n = 40000;
    known(&r[0].latest_fork_usec, 1800, "");
    known(&r[0].used_memory, 413892608, "");
    known(&r[0].rdb_last_cow_size, 4194304, "");
    known(&r[0].aof_last_cow_size, 0, "");
    known(&r[0].sync_full, 0, "");
    known(&r[0].full_resync, 0, "");
    known(&r[0].thp_enabled, NAN, "never");
    known(&r[0].anon_huge, 0, "0 kB");
    known(&r[0].overcommit, 1, "1");
    known(&r[0].swappiness, 1, "1");
    known(&r[0].numa, 0, "0");
    known(&r[0].warn_overcommit, 0, "");
    known(&r[0].lm_threshold, 10, "10");
    known(&r[0].latmon_none, 0, "");
    known(&r[0].latmon_fork, 1, "");
    r[0].nsaves = 4;
    r[0].nlifted = 0;
    r[0].save_period_s = 3600;
    base(&r[1], "healthy-readonly", "read-only");
    window(&r[1], "bgsave", 1, COW_VERDICT_FLAT, 50, COW_VERDICT_FLAT);
    r[1].thin_p999 = 0;
    diag_run(r, 2, &f);
    for (i = 0; i < f.n; i++)
        fprintf(stderr, "unexpected: %s %s: %s\n", f.v[i].run, f.v[i].rule, f.v[i].title);
    CHECK_INT(f.n, 0);
    diag_release(&f);
}

/* The rules the stories above do not fire. */
static void doctor_should_count_resyncs_and_overlaps(void)
{
    cow_run_facts r;
    cow_findings f;
    base(&r, "x", "fullsync");
    known(&r.sync_full, 3, "");
    r.noverlap = 2;
    diag_run(&r, 1, &f);
    CHECK(fired_any(&f, "full_resyncs"));
    CHECK(fired_any(&f, "overlapping_forks"));
    diag_release(&f);
}

static void doctor_should_report_refusals_lag_and_shared_hosts(void)
{
    cow_run_facts r[2];
    cow_findings f;

    base(&r[0], "a", "bgsave");
    known(&r[0].refused, 1, "time runs backwards by 40.000 s");
    known(&r[0].replica_lag, 3, "3");
    r[0].nwin = 1;
    r[0].win_t0[0] = 1000;
    r[0].win_t1[0] = 5000;
    base(&r[1], "b", "bgsave");
    r[1].nwin = 1;
    r[1].win_t0[0] = 4000;
    r[1].win_t1[0] = 9000;
    diag_host_overlaps(r, 2);
    CHECK_INT(r[0].host_overlaps, 1);
    CHECK_STR(r[0].host_overlap_with, "b");
    diag_run(r, 2, &f);
    CHECK(fired(&f, "a", "ingest_refusals"));
    CHECK(fired(&f, "a", "replica_lag"));
    CHECK(fired(&f, "a", "overlapping_forks"));
    CHECK(fired(&f, "b", "overlapping_forks"));
    CHECK(!fired(&f, "b", "ingest_refusals"));
    diag_release(&f);
    /* another host: no overlap */
    r[1].host = "other";
    r[0].host_overlaps = r[1].host_overlaps = 0;
    diag_host_overlaps(r, 2);
    CHECK_INT(r[0].host_overlaps, 0);
}

/* The finding of rule in run, or NULL. */
static const cow_finding *finding(const cow_findings *f, const char *run, const char *rule)
{
    size_t i;
    for (i = 0; i < f->n; i++)
        if (strcmp(f->v[i].run, run) == 0 && strcmp(f->v[i].rule, rule) == 0)
            return &f->v[i];
    return NULL;
}

/* A run with only the server's log and LATENCY output: the log's
 * copy-on-write, a child killed by signal 9, LATENCY DOCTOR's huge-page
 * advice and a 431 ms LATENCY LATEST spike each give their finding, each
 * citing its file:line. */
static void doctor_should_read_evidence_without_samples(void)
{
    cow_run_facts r;
    cow_findings f;
    const cow_finding *x;

    base(&r, "logonly", "bgsave");
    r.samples = 0;
    r.analysed = 0;
    known(&r.cow_mb, 5655, "RDB: 5655 MB of memory used by copy-on-write");
    snprintf(r.cow_mb.src, sizeof(r.cow_mb.src), "logonly/redis.log:7");
    known(&r.child_killed, 1, "bgsave_killed: Background saving terminated by signal 9");
    snprintf(r.child_killed.src, sizeof(r.child_killed.src), "logonly/redis.log:11");
    known(&r.latmon_thp, 1, "- I detected a non zero amount of anonymous huge pages");
    snprintf(r.latmon_thp.src, sizeof(r.latmon_thp.src), "logonly/latency-doctor.txt:9");
    known(&r.latmon_spike, 431, "command (LATENCY LATEST)");
    snprintf(r.latmon_spike.src, sizeof(r.latmon_spike.src), "logonly/latency-latest.txt:1");
    diag_run(&r, 1, &f);
    CHECK((x = finding(&f, "logonly", "log_cow")) != NULL);
    if (x) {
        CHECK(strstr(x->title, "5655 MB") != NULL);
        CHECK_STR(x->ev[0].src, "logonly/redis.log:7");
    }
    CHECK((x = finding(&f, "logonly", "save_child_killed")) != NULL);
    if (x) {
        CHECK(strstr(x->title, "signal 9") != NULL);
        CHECK_STR(x->ev[0].src, "logonly/redis.log:11");
        /* the OOM killer named only with kernel evidence: none here */
        CHECK(strstr(x->advice, "usually the kernel's OOM killer") == NULL);
        CHECK(strstr(x->advice, "no kernel log is in this run") != NULL);
    }
    CHECK((x = finding(&f, "logonly", "latency_doctor_thp")) != NULL);
    if (x)
        CHECK_STR(x->ev[0].src, "logonly/latency-doctor.txt:9");
    CHECK((x = finding(&f, "logonly", "latency_spike")) != NULL);
    if (x) {
        CHECK(strstr(x->title, "431 ms") != NULL);
        CHECK_STR(x->ev[0].value, "431 ms, command (LATENCY LATEST)");
        CHECK_STR(x->ev[0].src, "logonly/latency-latest.txt:1");
    }
    diag_release(&f);
    /* with INFO's used_memory, cow_memory_headroom weighs the log's figure
     * instead; a spike below 100 ms is the monitor's ordinary business */
    known(&r.used_memory, 6e9, "6000000000");
    known(&r.latmon_spike, 5, "command (LATENCY LATEST)");
    diag_run(&r, 1, &f);
    CHECK(finding(&f, "logonly", "log_cow") == NULL);
    CHECK(finding(&f, "logonly", "cow_memory_headroom") != NULL);
    /* no pointer to a table the doctor's report does not hold */
    CHECK(finding(&f, "logonly", "cow_memory_headroom") &&
          strstr(finding(&f, "logonly", "cow_memory_headroom")->advice,
                 "trade-off table") == NULL);
    CHECK(finding(&f, "logonly", "latency_spike") == NULL);
    diag_release(&f);
    /* each event its own advice: an AOF fsync to the disk, the expire
     * cycle to the keys it frees, a command (DOCTOR's) to SLOWLOG, an
     * event with no name to the saves */
    {
        static const struct {
            const char *text, *want, *not;
        } ev[] = {
            {"aof-fsync-always (LATENCY DOCTOR)", "appendfsync everysec", "SLOWLOG"},
            {"aof-write-pending-fsync (LATENCY HISTORY)", "no-appendfsync-on-rewrite", "SLOWLOG"},
            {"expire-cycle (LATENCY HISTORY)", "lazyfree-lazy-expire", "SLOWLOG"},
            {"eviction-del (LATENCY LATEST)", "lazyfree-lazy-eviction", "SLOWLOG"},
            {"command (LATENCY DOCTOR)", "SLOWLOG GET", "fork"},
            {"an unnamed event (LATENCY HISTORY)", "line its time up", "SLOWLOG"},
        };
        size_t k;
        for (k = 0; k < sizeof(ev) / sizeof(ev[0]); k++) {
            known(&r.latmon_spike, 431, ev[k].text);
            diag_run(&r, 1, &f);
            CHECK((x = finding(&f, "logonly", "latency_spike")) != NULL);
            CHECK(x && strstr(x->advice, ev[k].want) != NULL &&
                  strstr(x->advice, ev[k].not) == NULL);
            diag_release(&f);
        }
    }
}

/* No fixed-size text in a finding: a run labelled with 2,000 characters
 * (and a host that saved at once with another such run) keeps its whole
 * label in the finding's run and in the title that names the other run;
 * the advice is never cut either. */
static void doctor_should_keep_long_labels_whole(void)
{
    static char a[2001], b[2001];
    cow_run_facts r[2];
    cow_findings f;
    const cow_finding *x;

    memset(a, 'a', 2000);
    memset(b, 'b', 2000);
    a[1999] = 'A';
    b[1999] = 'B';
    base(&r[0], a, "bgsave");
    base(&r[1], b, "bgsave");
    r[0].nwin = r[1].nwin = 1;
    r[0].win_t0[0] = 1000;
    r[0].win_t1[0] = 5000;
    r[1].win_t0[0] = 4000;
    r[1].win_t1[0] = 9000;
    known(&r[0].refused, 1, "time runs backwards by 40.000 s");
    diag_host_overlaps(r, 2);
    diag_run(r, 2, &f);
    CHECK((x = finding(&f, a, "overlapping_forks")) != NULL);
    if (x) {
        CHECK_INT((int)strlen(x->run), 2000);
        CHECK(strstr(x->title, b) != NULL); /* the other run, whole */
        CHECK(strlen(x->title) > 2000);
    }
    CHECK((x = finding(&f, a, "ingest_refusals")) != NULL);
    if (x)
        CHECK(x->advice != NULL && x->advice[0] != '\0');
    diag_release(&f);
}

/* The fork itself was the stall: a 197 ms fork, one sample in flight that
 * waited 195 ms of it and is the run's worst: fork_is_the_cost, a warning
 * citing that sample; the worst sample elsewhere: information; a 5 ms fork
 * (or a sample that waited a little of it): nothing. */
static void doctor_should_say_when_the_fork_is_the_cost(void)
{
    cow_run_facts r;
    cow_findings f;
    const cow_finding *x;

    base(&r, "forkstall", "bgsave");
    known(&r.latest_fork_usec, 197000, "197000");
    r.fork_inflight = 1;
    snprintf(r.fork_window, sizeof(r.fork_window), "bgsave#1");
    r.fork_dur_us = 197000;
    r.fork_inflight_n = 1;
    r.fork_inflight_max_us = 195337;
    r.fork_inflight_sent_us = 1963;
    r.run_max_us = 195337;
    diag_run(&r, 1, &f);
    CHECK((x = finding(&f, "forkstall", "fork_is_the_cost")) != NULL);
    if (x) {
        CHECK_INT(x->severity, COW_SEV_WARN);
        CHECK(strstr(x->title, "the fork of bgsave#1 took 197.0 ms, and 1 sample in flight "
                               "while it ran, the longest 195.3 ms (sent 2.0 ms after the "
                               "fork began): the run's worst sample is among them") != NULL);
        CHECK_STR(x->ev[2].value, "195.337 ms, sent 1.963 ms after the fork began");
        /* advice conditional on the setting it names: not captured here */
        CHECK(strstr(x->advice, "make sure vm.overcommit_memory=1 (not captured)") != NULL);
    }
    diag_release(&f);
    known(&r.overcommit, 0, "0");
    diag_run(&r, 1, &f);
    CHECK((x = finding(&f, "forkstall", "fork_is_the_cost")) != NULL);
    CHECK(x && strstr(x->advice, "set vm.overcommit_memory=1 (it is 0 here)") != NULL &&
          strstr(x->advice, "keep vm.overcommit") == NULL);
    diag_release(&f);
    known(&r.overcommit, 1, "1");
    diag_run(&r, 1, &f);
    CHECK((x = finding(&f, "forkstall", "fork_is_the_cost")) != NULL);
    CHECK(x && strstr(x->advice, "keep vm.overcommit_memory=1") != NULL);
    diag_release(&f);
    memset(&r.overcommit, 0, sizeof(r.overcommit));
    r.run_max_us = 400000;
    diag_run(&r, 1, &f);
    CHECK((x = finding(&f, "forkstall", "fork_is_the_cost")) != NULL);
    if (x)
        CHECK_INT(x->severity, COW_SEV_INFO);
    diag_release(&f);
    r.fork_inflight_max_us = 40000; /* waited a fifth of it */
    diag_run(&r, 1, &f);
    CHECK(finding(&f, "forkstall", "fork_is_the_cost") == NULL);
    diag_release(&f);
    r.fork_dur_us = 5000;
    r.fork_inflight_max_us = 5000;
    diag_run(&r, 1, &f);
    CHECK(finding(&f, "forkstall", "fork_is_the_cost") == NULL);
    diag_release(&f);
}

/* A command the latency monitor recorded inside the save window, as long
 * as the fork and half the window's worst sample, is the cause; shorter
 * than the fork or than half the worst, a finding that says so. */
static void doctor_should_name_a_command_inside_the_save(void)
{
    cow_run_facts r;
    cow_findings f;
    const cow_finding *x;
    char *c;

    base(&r, "keys", "bgsave");
    window(&r, "bgsave", 100, COW_VERDICT_NA, 90000, COW_VERDICT_LIFT);
    snprintf(r.fork_window, sizeof(r.fork_window), "bgsave#1");
    r.worst.max_us = 141000;
    known(&r.latest_fork_usec, 21000, "21000");
    known(&r.win_cmd, 135, "command");
    snprintf(r.win_cmd.src, sizeof(r.win_cmd.src), "x/latency-history-command.txt:3");
    r.win_cmd_at_s = 2;
    c = diag_command_cause(&r);
    CHECK_STR(c, "a slow command blocked the server 135 ms, 2.0-3.0 s into the save (its "
                 "latency monitor); also the fork (21.0 ms)");
    free(c);
    diag_run(&r, 1, &f);
    CHECK((x = finding(&f, "keys", "command_in_save")) != NULL);
    CHECK(x && strstr(x->title, "a command, not the save, made bgsave#1's worst wait") != NULL);
    diag_release(&f);
    /* the run's slowest command by LATENCY HISTOGRAM named */
    r.cmdhist.known = 1;
    r.cmdhist.n = 1;
    snprintf(r.cmdhist.v[0].cmd, sizeof(r.cmdhist.v[0].cmd), "keys");
    c = diag_command_cause(&r);
    CHECK(c && strstr(c, "a slow command (keys, the run's slowest by LATENCY HISTOGRAM) "
                         "blocked the server 135 ms") != NULL);
    free(c);
    /* half the window's worst or less: a finding, not the cause */
    r.worst.max_us = 300000;
    CHECK((c = diag_command_cause(&r)) == NULL);
    diag_run(&r, 1, &f);
    CHECK((x = finding(&f, "keys", "command_in_save")) != NULL);
    CHECK(x && strstr(x->title, "not the command alone") != NULL);
    diag_release(&f);
    /* about as long as the fork: BGSAVE itself, which the latency monitor
     * times as a command, fork included (the bundled forkless/fork-t1's
     * 20 ms command beside its 20.2 ms fork) */
    r.worst.max_us = 141000;
    known(&r.latest_fork_usec, 100000, "100000");
    CHECK((c = diag_command_cause(&r)) == NULL);
    diag_run(&r, 1, &f);
    CHECK(finding(&f, "keys", "command_in_save") == NULL);
    diag_release(&f);
    /* under 10 ms, or the worst window not the fork's: nothing claimed */
    known(&r.latest_fork_usec, 1000, "1000");
    snprintf(r.worst.label, sizeof(r.worst.label), "bgsave#2");
    CHECK((c = diag_command_cause(&r)) == NULL);
    r.win_cmd.num = 9;
    diag_run(&r, 1, &f);
    CHECK(finding(&f, "keys", "command_in_save") == NULL);
    diag_release(&f);
}

/* The fork is the cause only when its stall explains the window's excess:
 * the live capture's shape, a 49.9 ms fork that 2 samples waited out,
 * then 7 s of 40-85 ms medians (3,412 samples of 25 ms or more after the
 * fork ended): not the fork's; copy-on-write (or CPU) first, the fork
 * named as also there. The forkstall shape (nothing slow after the fork)
 * stays the fork's. */
static void doctor_should_clear_a_fork_the_slowness_outlasts(void)
{
    cow_run_facts r;
    cow_findings f;
    const cow_finding *x;

    base(&r, "live", "bgsave");
    known(&r.latest_fork_usec, 49900, "49900");
    r.fork_dur = r.latest_fork_usec;
    r.fork_inflight = 1;
    snprintf(r.fork_window, sizeof(r.fork_window), "bgsave#1");
    r.fork_dur_us = 49900;
    r.fork_inflight_n = 2;
    r.fork_inflight_max_us = 49100;
    r.fork_inflight_sent_us = 800;
    r.run_max_us = 92000;
    r.fork_after_n = 3412;
    r.fork_after_min_us = 24950;
    r.fork_after_span_us = 7.04e6;
    r.worst.present = 1;
    snprintf(r.worst.label, sizeof(r.worst.label), "bgsave#1");
    r.worst.value_us[0] = 61000;
    r.worst.base_us[0] = 900;
    diag_run(&r, 1, &f);
    CHECK(finding(&f, "live", "fork_is_the_cost") == NULL);
    CHECK((x = finding(&f, "live", "slowness_outlasts_fork")) != NULL);
    CHECK(finding(&f, "live", "fork_not_the_cost") == NULL);
    if (x) {
        CHECK(strstr(x->title, "the slowness outlasts the fork: the fork of bgsave#1 took "
                               "49.9 ms, and 3412 samples sent after it ended took 24.950 ms "
                               "or more, the last 7.0 s after it (the window's p50 61.000 ms, "
                               "the baseline's 0.900 ms): the fork itself is not the "
                               "cost") != NULL);
        CHECK(strstr(x->title, "also there: 2 samples waited it out") != NULL);
        CHECK(strstr(x->advice, "copy-on-write") != NULL);
    }
    diag_release(&f);
    r.fork_after_n = 3; /* nothing slow after it: the fork's */
    r.fork_after_span_us = 40000;
    diag_run(&r, 1, &f);
    CHECK(finding(&f, "live", "fork_is_the_cost") != NULL);
    diag_release(&f);
}

/* "p50 did not move" only when p50's own interval says so: a p50 that rose
 * from 0.021 to 0.215 ms (95% [+0.099, +0.272]) is a move, however small
 * next to the tail's; one whose interval holds zero did not move. */
static void doctor_should_judge_p50_by_its_own_interval(void)
{
    cow_run_facts r;
    cow_findings f;
    const cow_finding *x;

    base(&r, "t1", "bgsave");
    window(&r, "bgsave", 194, COW_VERDICT_LIFT, 9710, COW_VERDICT_LIFT);
    r.worst.base_us[0] = 21;
    r.worst.lo_us[0] = 99;
    r.worst.hi_us[0] = 272;
    r.worst.lo_us[3] = 1477;
    r.worst.hi_us[3] = INFINITY;
    r.worst.method[3] = COW_QCMP_TAIL;
    diag_run(&r, 1, &f);
    CHECK((x = finding(&f, "t1", "tail_only_lift")) != NULL);
    if (x) {
        CHECK(strstr(x->title, "did not move") == NULL);
        CHECK(strstr(x->title, "p50 rose too, but far less (+0.194 ms, 95%: "
                               "[+0.099, +0.272])") != NULL);
    }
    diag_release(&f);
    window(&r, "bgsave", 4, COW_VERDICT_FLAT, 9710, COW_VERDICT_LIFT);
    r.worst.lo_us[0] = -20;
    r.worst.hi_us[0] = 28;
    diag_run(&r, 1, &f);
    CHECK((x = finding(&f, "t1", "tail_only_lift")) != NULL);
    if (x)
        CHECK(strstr(x->title, "while p50 did not move materially (+0.004 ms, 95%: "
                               "[-0.020, +0.028])") != NULL);
    diag_release(&f);
}

/* THP: a warning only for 'always' (the file's bracketed word counts);
 * madvise, the recommended setting, is information. On a kernel >= 5.8 the
 * advice weighs what 'never' costs (a slower fork) instead of advising it
 * bare. */
static void doctor_should_warn_of_thp_only_for_always(void)
{
    cow_run_facts r;
    cow_findings f;
    const cow_finding *x;

    base(&r, "h", "bgsave");
    known(&r.thp_enabled, NAN, "always [madvise] never");
    diag_run(&r, 1, &f);
    CHECK((x = finding(&f, "h", "thp_not_backing_heap")) != NULL);
    if (x)
        CHECK_INT(x->severity, COW_SEV_INFO);
    CHECK(finding(&f, "h", "thp_always") == NULL);
    diag_release(&f);
    known(&r.thp_enabled, NAN, "[always] madvise never");
    diag_run(&r, 1, &f);
    CHECK((x = finding(&f, "h", "thp_not_backing_heap")) != NULL);
    if (x)
        CHECK_INT(x->severity, COW_SEV_WARN);
    CHECK(finding(&f, "h", "thp_always") != NULL);
    diag_release(&f);
    known(&r.thp_enabled, NAN, "always madvise [never]");
    diag_run(&r, 1, &f);
    CHECK(finding(&f, "h", "thp_not_backing_heap") == NULL);
    diag_release(&f);
    /* huge pages backing the heap on kernel 6.18: weighed, not advised bare */
    known(&r.thp_enabled, NAN, "[always] madvise never");
    known(&r.anon_huge, 2e9, "2000000000");
    known(&r.os, NAN, "Linux 6.18.44 x86_64");
    known(&r.latest_fork_usec, 6600, "6600");
    known(&r.thp_split, 985, "+985 over the capture");
    diag_run(&r, 1, &f);
    CHECK((x = finding(&f, "h", "thp_backing_heap")) != NULL);
    if (x) {
        CHECK_INT(x->severity, COW_SEV_WARN);
        CHECK(strstr(x->advice, "makes the fork slower") != NULL);
        CHECK(strstr(x->advice, "(this capture: 985 huge pages split, thp_split_pmd)") != NULL);
        CHECK(strstr(x->advice, "this run's fork took 6.6 ms") != NULL);
        CHECK(strncmp(x->advice, "weigh it before turning THP off", 31) == 0);
    }
    diag_release(&f);
}

/* One diskless transfer serving two replicas is one fork, not two. */
static void doctor_should_count_one_fork_per_sync_line(void)
{
    cow_run_facts r;
    cow_findings f;
    const cow_finding *x;

    base(&r, "p", "fullsync-diskless");
    known(&r.full_resync, 2, "");
    known(&r.sync_forks, 1, "");
    diag_run(&r, 1, &f);
    CHECK((x = finding(&f, "p", "full_resyncs")) != NULL);
    if (x) {
        CHECK(strstr(x->title, "2 full resyncs, served by 1 fork of the primary") != NULL);
        CHECK(strstr(x->title, "each one forks") == NULL);
    }
    diag_release(&f);
}

static void rules_should_have_unique_ids(void)
{
    const cow_rule *a, *b;
    int n = 0;
    for (a = diag_rules(); a->id; a++, n++)
        for (b = a + 1; b->id; b++)
            CHECK(strcmp(a->id, b->id) != 0);
    CHECK(n >= 15);
}

/* No THP file captured, but the log's THP warning (Redis reads [always]
 * before it warns): thp_always fires on the log's evidence. */
static void doctor_should_use_the_logs_thp_warning(void)
{
    cow_run_facts r;
    cow_findings f;

    base(&r, "warned", "bgsave");
    known(&r.warn_thp, 1, "1");
    diag_run(&r, 1, &f);
    CHECK(fired(&f, "warned", "thp_always"));
    diag_release(&f);
    base(&r, "silent", "bgsave");
    diag_run(&r, 1, &f);
    CHECK(!fired(&f, "silent", "thp_always"));
    diag_release(&f);
    base(&r, "madvise", "bgsave");
    known(&r.warn_thp, 1, "1");
    known(&r.thp_enabled, NAN, "madvise");  /* the host file wins */
    diag_run(&r, 1, &f);
    CHECK(!fired(&f, "madvise", "thp_always"));
    diag_release(&f);
}

/* A run without samples whose tool reports p99.9 from few requests. */
static void doctor_should_call_a_tools_p999_from_few_requests_thin(void)
{
    cow_run_facts r;
    cow_findings f;

    base(&r, "bench", "bgsave");
    r.samples = 0;
    known(&r.reported_p999, 1207, "1.207 ms, memtier Totals");
    r.reported_n = 2500;
    diag_run(&r, 1, &f);
    CHECK(fired(&f, "bench", "thin_tail"));
    diag_release(&f);
    r.reported_n = 51180;
    diag_run(&r, 1, &f);
    CHECK(!fired(&f, "bench", "thin_tail"));
    diag_release(&f);
}

/* clock_mismatch: a file hours off the samples' clock, with both spans
 * and the offset as evidence; a log whose windows miss the samples; a
 * log assumed UTC that an hour's offset would place better. */
static void doctor_should_report_clocks_that_do_not_match(void)
{
    cow_run_facts r;
    cow_findings f;
    const cow_finding *c = NULL;
    size_t i;

    base(&r, "clk", "bgsave");
    diag_run(&r, 1, &f);
    CHECK(!fired(&f, "clk", "clock_mismatch"));
    diag_release(&f);
    r.nskews = 1;
    snprintf(r.skews[0].file, sizeof(r.skews[0].file), "clk/info.txt");
    snprintf(r.skews[0].ref, sizeof(r.skews[0].ref), "clk/latency.csv");
    r.skews[0].r0_us = 1796028608000000LL;
    r.skews[0].r1_us = r.skews[0].r0_us + 600000000LL;
    r.skews[0].f0_us = r.skews[0].r0_us + 10800000000LL;
    r.skews[0].f1_us = r.skews[0].f0_us + 600000000LL;
    r.skews[0].kind = COW_SKEW_HOUR;
    r.skews[0].off_s = 10800;
    r.skews[0].gap_s = 10200;
    diag_run(&r, 1, &f);
    for (i = 0; i < f.n; i++)
        if (strcmp(f.v[i].rule, "clock_mismatch") == 0)
            c = &f.v[i];
    CHECK(c != NULL);
    if (c != NULL) {
        CHECK_INT(c->severity, COW_SEV_WARN);
        CHECK_STR(c->title, "1 file not on the samples' clock: info.txt lies 2.8 h "
                            "from latency.csv (likely offset +03:00)");
        CHECK_INT(c->nev, 3);
        CHECK_STR(c->ev[0].value, "2026-11-30T11:50:08Z .. 2026-11-30T12:00:08Z");
        CHECK_STR(c->ev[0].src, "clk/info.txt");
        CHECK_STR(c->ev[1].value, "2026-11-30T08:50:08Z .. 2026-11-30T09:00:08Z");
        CHECK_STR(c->ev[1].src, "clk/latency.csv");
        CHECK_STR(c->ev[2].value, "+03:00 (a whole-hour offset: a clock in local time?)");
    }
    diag_release(&f);
    /* no samples: the INFO series is the reference, and named so */
    r.skews[0].ref_info = 1;
    diag_run(&r, 1, &f);
    c = NULL;
    for (i = 0; i < f.n; i++)
        if (strcmp(f.v[i].rule, "clock_mismatch") == 0)
            c = &f.v[i];
    CHECK(c != NULL && strstr(c->title, "1 file not on the INFO series' clock") != NULL);
    CHECK(c != NULL && strcmp(c->ev[1].metric, "INFO series' span") == 0);
    diag_release(&f);
    base(&r, "clk", "bgsave");
    r.log_zone = 1;
    known(&r.log_clock, 7200, "mismatch");
    snprintf(r.log_clock.src, sizeof(r.log_clock.src), "clk/redis.log");
    diag_run(&r, 1, &f);
    CHECK(fired(&f, "clk", "clock_mismatch"));
    CHECK(f.n > 0 && strstr(f.v[0].title, "redis.log: the log's windows fall outside "
                            "the samples' span, as if its local time were UTC+02:00") != NULL);
    CHECK(f.n > 0 && strstr(f.v[0].advice, "--log-tz +02:00") != NULL);
    diag_release(&f);
    r.log_zone = 2;
    r.log_clock.num = -3600;
    r.log_in0 = 1;
    r.log_in = 3;
    diag_run(&r, 1, &f);
    CHECK(f.n > 0 && strstr(f.v[0].title, "UTC assumed for the log (no UTC pair), but "
                            "UTC-01:00 would place 3 of its window stamps inside the "
                            "samples' span instead of 1") != NULL);
    diag_release(&f);
}

/* The same evidence, the same cause: a 4.1 ms fork under a 7.3 ms lift
 * (bgsave-t2) is "not the cost" as a 4.6 ms fork under 9.7 ms is
 * (aof-rewrite). A 5.1 ms fork under a 1.7 ms lift (bgsave-t1) could have
 * made it alone: not said, unless the fork held fewer samples in flight
 * than the lifted quantile rests on (1 against p99.9's 2 largest of 721:
 * "the fork alone cannot have made it"). A 30 ms fork under a 40 ms lift
 * may be the cost: not said. A forkless save never gets the fork rule, and its
 * empty fork history is no blind spot of the monitor. */
static void doctor_should_clear_a_short_fork_the_same_way(void)
{
    static const double fork_us[] = {4600, 4100, 5100, 30000};
    static const double lift_us[] = {9710, 7301, 1719, 40000};
    static const int want[] = {1, 1, 0, 0};
    cow_run_facts r;
    cow_findings f;
    size_t k;
    for (k = 0; k < 4; k++) {
        base(&r, "x", "bgsave");
        window(&r, "bgsave", 9, COW_VERDICT_LIFT, lift_us[k], COW_VERDICT_LIFT);
        known(&r.latest_fork_usec, fork_us[k], "");
        diag_run(&r, 1, &f);
        CHECK(fired_any(&f, "fork_not_the_cost") == want[k]);
        diag_release(&f);
    }
    {
        const cow_finding *x;
        base(&r, "x", "bgsave");
        window(&r, "bgsave", 9, COW_VERDICT_LIFT, 1719, COW_VERDICT_LIFT);
        known(&r.latest_fork_usec, 5100, "");
        r.fork_inflight = 1;
        r.fork_inflight_n = 1;
        diag_run(&r, 1, &f);
        CHECK((x = finding(&f, "x", "fork_not_the_cost")) != NULL);
        CHECK(x && strstr(x->title, "1 sample was in flight while it ran, while p99.9 rose "
                                    "1.719 ms, a quantile of the window's 2 largest samples: "
                                    "the fork alone cannot have made it") != NULL);
        diag_release(&f);
        r.fork_inflight_n = 2; /* as many as it rests on: the fork could have */
        diag_run(&r, 1, &f);
        CHECK(finding(&f, "x", "fork_not_the_cost") == NULL);
        diag_release(&f);
    }
    base(&r, "x", "forkless");
    window(&r, "forkless", 9, COW_VERDICT_LIFT, 3252, COW_VERDICT_LIFT);
    known(&r.latest_fork_usec, 4100, "");
    known(&r.latmon_fork, 0, "");
    diag_run(&r, 1, &f);
    CHECK(!fired_any(&f, "fork_not_the_cost"));
    CHECK(!fired_any(&f, "monitor_blind_spot"));
    diag_release(&f);
    /* a fork window with the same empty history still is one */
    base(&r, "x", "bgsave");
    window(&r, "bgsave", 9, COW_VERDICT_LIFT, 3252, COW_VERDICT_LIFT);
    known(&r.latmon_fork, 0, "");
    diag_run(&r, 1, &f);
    CHECK(fired_any(&f, "monitor_blind_spot"));
    diag_release(&f);
}

/* The threshold rules share one skeleton (diag_threshold.c): at the limit
 * an "above" rule stays silent and an "at least" rule fires, a NaN never
 * passes, a fact that silences the rule does, and the title carries the
 * number whole. */
static void doctor_should_apply_threshold_rules_at_their_limits(void)
{
    cow_run_facts r[4];
    cow_findings f;
    const cow_finding *x;
    int k;

    for (k = 0; k < 4; k++)
        base(&r[k], k == 0 ? "at" : k == 1 ? "over" : k == 2 ? "nan" : "silenced", "s");
    known(&r[0].swappiness, 10, "10");      /* SWAPPINESS_WARN: not above */
    known(&r[1].swappiness, 11, "11");
    known(&r[2].swappiness, NAN, "?");
    known(&r[0].replica_lag, 2, "2");       /* REPLICA_LAG_WARN_S: at least */
    known(&r[1].replica_lag, 1, "1");       /* one ACK a second: lag 1 is normal */
    known(&r[2].cow_mb, 120, "120");
    known(&r[3].cow_mb, 120, "120");
    known(&r[3].used_memory, 5e9, "5000000000"); /* INFO weighs it: silent */
    known(&r[0].numa, 0, "0");
    known(&r[1].numa, 1, "1");
    known(&r[3].latmon_thp, 0, "- I detected anonymous huge pages");
    known(&r[3].anon_huge, 2097152, "2048 kB");
    known(&r[3].thp_enabled, 0, "always [madvise] never");
    diag_run(r, 4, &f);
    CHECK(!fired(&f, "at", "swappiness_high"));
    CHECK((x = finding(&f, "over", "swappiness_high")) != NULL);
    CHECK(x && strcmp(x->title, "vm.swappiness is 11: under copy-on-write memory "
                      "pressure the kernel may swap the server's heap") == 0);
    CHECK(x && x->nev == 1 && strcmp(x->ev[0].metric, "vm.swappiness") == 0 &&
          strcmp(x->ev[0].src, "x/info.txt:7") == 0);
    CHECK(!fired(&f, "nan", "swappiness_high"));
    CHECK((x = finding(&f, "at", "replica_lag")) != NULL);
    CHECK(x && strcmp(x->title, "a replica lagged 2 s behind the primary (INFO slaveN "
                      "lag)") == 0);
    CHECK(!fired(&f, "over", "replica_lag"));
    CHECK(fired(&f, "nan", "log_cow"));
    CHECK(!fired(&f, "silenced", "log_cow"));
    CHECK(!fired(&f, "at", "numa_balancing_on"));
    CHECK((x = finding(&f, "over", "numa_balancing_on")) != NULL);
    CHECK(x && strcmp(x->title, "kernel.numa_balancing is on: page migrations add "
                      "latency spikes") == 0 && strncmp(x->advice, "sysctl kernel.numa", 18) == 0);
    CHECK((x = finding(&f, "silenced", "latency_doctor_thp")) != NULL);
    CHECK(x && x->nev == 3 && strcmp(x->ev[1].metric, "AnonHugePages") == 0);
    diag_release(&f);
}

/* Every finding true of the files it reads (an SRE's reading of the
 * bundled samples): THP advice by the setting it names, no swappiness
 * warning on a host without swap, a slow fork of a small server blamed on
 * the host (overcommit decides whether a fork fails, not its time), a
 * read-only control "flat" only when its interval says so, set against a
 * write run of its own window kind. */
static void doctor_should_say_only_what_the_files_support(void)
{
    cow_run_facts r[3];
    cow_findings f;
    const cow_finding *x;

    base(&r[0], "h", "bgsave");
    known(&r[0].thp_enabled, NAN, "always [madvise] never");
    known(&r[0].anon_huge, 0, "0 kB");
    diag_run(r, 1, &f);
    CHECK(advice_has(&f, "thp_not_backing_heap", "under madvise only memory that asks"));
    CHECK(!advice_has(&f, "thp_not_backing_heap", "disable-thp yes"));
    diag_release(&f);
    known(&r[0].thp_enabled, NAN, "[always] madvise never");
    diag_run(r, 1, &f);
    CHECK(advice_has(&f, "thp_not_backing_heap", "disable-thp yes (the default) turns THP off"));
    diag_release(&f);

    known(&r[0].swappiness, 60, "60");
    diag_run(r, 1, &f);
    CHECK(fired(&f, "h", "swappiness_high"));   /* swap unknown: it may swap */
    diag_release(&f);
    known(&r[0].swap_total, 0, "0 kB");
    diag_run(r, 1, &f);
    CHECK(!fired(&f, "h", "swappiness_high"));  /* no swap: nothing to swap to */
    diag_release(&f);

    known(&r[0].latest_fork_usec, 32800, "32800");
    known(&r[0].used_memory, 158809424, "158809424");
    known(&r[0].overcommit, 0, "0");
    diag_run(r, 1, &f);
    CHECK((x = finding(&f, "h", "slow_fork")) != NULL);
    CHECK(x && strstr(x->advice, "151 MB should fork in a few ms: look at the host") != NULL);
    CHECK(x && strstr(x->advice, "overcommit") == NULL);
    diag_release(&f);

    base(&r[0], "write-bgsave", "bgsave");
    window(&r[0], "bgsave", 10, COW_VERDICT_FLAT, 7000, COW_VERDICT_LIFT);
    base(&r[1], "write-sync", "fullsync-disk");
    window(&r[1], "sync-disk", 10, COW_VERDICT_FLAT, 3000, COW_VERDICT_LIFT);
    base(&r[2], "readonly", "read-only-control");
    window(&r[2], "sync-disk", 10, COW_VERDICT_FLAT, 3397, COW_VERDICT_UNSURE);
    diag_run(r, 3, &f);
    CHECK(!fired(&f, "readonly", "readonly_control_flat")); /* "?" is not flat */
    diag_release(&f);
    /* a first sync (the backlog made for it): no backlog size advice */
    known(&r[1].sync_full, 1, "1");
    diag_run(r, 3, &f);
    CHECK(advice_has(&f, "full_resyncs", "size repl-backlog-size"));
    diag_release(&f);
    known(&r[1].backlog_created, 1, "1");
    diag_run(r, 3, &f);
    CHECK(advice_has(&f, "full_resyncs", "a replica's first sync is always a full one"));
    CHECK(!advice_has(&f, "full_resyncs", "size repl-backlog-size"));
    diag_release(&f);
    r[2].worst.verdict[3] = COW_VERDICT_FLAT;
    r[2].worst.delta_us[3] = 300;
    diag_run(r, 3, &f);
    CHECK((x = finding(&f, "readonly", "readonly_control_flat")) != NULL);
    CHECK(x && strstr(x->title, "while write-sync lifted (+3.000 ms)") != NULL);
    diag_release(&f);
}

int main(void)
{
    RUN(doctor_should_say_only_what_the_files_support);
    RUN(doctor_should_call_a_tools_p999_from_few_requests_thin);
    RUN(doctor_should_clear_a_short_fork_the_same_way);
    RUN(doctor_should_use_the_logs_thp_warning);
    RUN(doctor_should_tell_the_seed_000_story);
    RUN(doctor_should_not_advise_diskless_against_the_evidence);
    RUN(doctor_should_weigh_thp_by_kernel);
    RUN(doctor_should_catch_memory_period_and_settings);
    RUN(rules_should_have_unique_ids);
    RUN(doctor_should_read_evidence_without_samples);
    RUN(doctor_should_keep_long_labels_whole);
    RUN(doctor_should_say_when_the_fork_is_the_cost);
    RUN(doctor_should_name_a_command_inside_the_save);
    RUN(doctor_should_clear_a_fork_the_slowness_outlasts);
    RUN(doctor_should_judge_p50_by_its_own_interval);
    RUN(doctor_should_warn_of_thp_only_for_always);
    RUN(doctor_should_count_one_fork_per_sync_line);
    RUN(doctor_should_ignore_immaterial_median_shifts);
    RUN(doctor_should_say_nothing_of_a_healthy_run);
    RUN(doctor_should_count_resyncs_and_overlaps);
    RUN(doctor_should_report_refusals_lag_and_shared_hosts);
    RUN(doctor_should_report_clocks_that_do_not_match);
    RUN(doctor_should_apply_threshold_rules_at_their_limits);
    return REPORT();
}
