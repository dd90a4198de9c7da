/* test_redislog.c -- the Redis/Valkey server log parser ("redis-log").
 *
 * Fixtures in tests/data/redislog/: *-7.0.log are real logs of Debian's
 * redis-server 7.0.15 (see README.md there for how they were captured);
 * the others are hand-written from reference/formats.md §1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect.h"
#include "formats.h"
#include "mem.h"
#include "fixture.h"
#include "minunit.h"
#include "timeconv.h"

#define US COW_US_PER_S

/* ----------------------------------------------------------- helpers --- */

static char *slurp(const char *name, size_t *n)
{
    char rel[256];
    snprintf(rel, sizeof(rel), "redislog/%s", name);
    return fixture_read(rel, n);
}

static cow_parse_opts opts0(void)
{
    cow_parse_opts o;
    memset(&o, 0, sizeof(o));
    return o;
}

/* Parse n bytes of text into c; returns the parse result code. */
static int run_mem(const char *text, size_t n, const cow_parse_opts *o,
                   collect *c, cow_err *e)
{
    cow_src s;
    cow_sink k;
    int rc;

    collect_init(c);
    k = collect_sink(c);
    cow_err_clear(e);
    src_open_mem(&s, "test.log", text, n);
    rc = cow_parser_redis_log.parse(&s, o, &k, e);
    src_close(&s);
    return rc;
}

static int run_file(const char *name, const cow_parse_opts *o, collect *c,
                    cow_err *e)
{
    size_t n;
    char *buf = slurp(name, &n);
    int rc = run_mem(buf, n, o, c, e);
    free(buf);
    return rc;
}

static size_t count_kind(const collect *c, const char *kind)
{
    size_t i, k = 0;
    for (i = 0; i < c->n; i++)
        k += c->recs[i].kind == COW_REC_EVENT &&
             strcmp(c->recs[i].u.event.kind, kind) == 0;
    return k;
}

/* The i-th event of a kind, or NULL. */
static const cow_event *ev(const collect *c, const char *kind, size_t i)
{
    size_t j;
    for (j = 0; j < c->n; j++)
        if (c->recs[j].kind == COW_REC_EVENT &&
            strcmp(c->recs[j].u.event.kind, kind) == 0 && i-- == 0)
            return &c->recs[j].u.event;
    return NULL;
}

static const char *note(const collect *c, const char *key)
{
    size_t j;
    for (j = 0; j < c->n; j++)
        if (c->recs[j].kind == COW_REC_NOTE && strcmp(c->recs[j].u.note.key, key) == 0)
            return c->recs[j].u.note.value;
    return NULL;
}

static const cow_reject *rej(const collect *c, size_t i)
{
    const cow_rec *r = collect_nth(c, COW_REC_REJECT, i);
    return r ? &r->u.reject : NULL;
}

#define UTC(y, mo, d, h, mi, s, ms) time_us_from_civil(y, mo, d, h, mi, s, (ms) * 1000)

/* A present event's field, or a value no check expects. */
#define EV_T(c, k, i) (ev(c, k, i) ? ev(c, k, i)->t_us : -1)
#define EV_V(c, k, i) (ev(c, k, i) ? ev(c, k, i)->value : -1.0)
#define EV_PID(c, k, i) (ev(c, k, i) ? ev(c, k, i)->pid : -1)
#define EV_UNIT(c, k, i) (ev(c, k, i) && ev(c, k, i)->unit ? ev(c, k, i)->unit : "(none)")

/* ------------------------------------------------ real Redis 7.0 logs --- */

static void redislog_should_read_every_event_of_a_real_primary_log(void)
{
    collect c;
    cow_err e;
    cow_parse_opts o = opts0();

    CHECK_INT(run_file("primary-7.0.log", &o, &c, &e), COW_OK);
    CHECK_INT(c.nrejects, 0);
    CHECK_INT(collect_count(&c, COW_REC_EVENT), 67);
    CHECK_INT(count_kind(&c, "repl_backlog_created"), 1); /* its first replica's sync */
    CHECK_INT(count_kind(&c, "replica_lost"), 3);
    CHECK_INT(count_kind(&c, "server_start"), 1);
    CHECK_STR(ev(&c, "version", 0) ? ev(&c, "version", 0)->text : NULL, "7.0.15");
    CHECK_INT(count_kind(&c, "warn_overcommit"), 1);
    CHECK_INT(count_kind(&c, "bgsave_trigger"), 2);
    CHECK_INT(count_kind(&c, "bgsave_start"), 4);
    CHECK_INT(count_kind(&c, "bgsave_done"), 4);
    CHECK_INT(count_kind(&c, "rdb_saved"), 5);        /* 4 children + shutdown SAVE */
    CHECK_INT(count_kind(&c, "cow_rdb"), 6);          /* 4 disk + 2 diskless */
    CHECK_INT(count_kind(&c, "cow_aof"), 4);
    CHECK_INT(count_kind(&c, "aof_rewrite_trigger"), 3);
    CHECK_INT(count_kind(&c, "aof_rewrite_start"), 4);
    CHECK_INT(count_kind(&c, "aof_rewrite_done"), 4);
    CHECK_INT(count_kind(&c, "aof_rewrite_finished"), 4);
    CHECK_INT(count_kind(&c, "replica_sync_request"), 3);
    CHECK_INT(count_kind(&c, "full_resync"), 3);
    CHECK_INT(count_kind(&c, "sync_bgsave_start"), 3);
    CHECK_INT(count_kind(&c, "rdb_transfer_start"), 2);
    CHECK_INT(count_kind(&c, "rdb_transfer_done"), 2);
    CHECK_INT(count_kind(&c, "sync_success"), 2);
    CHECK_INT(count_kind(&c, "shutdown"), 1);
    CHECK_INT(count_kind(&c, "final_save"), 1);
    CHECK_INT(count_kind(&c, "server_exit"), 1);

    /* first line stamp, 30 Nov 2026 08:14:28.504, taken as UTC */
    CHECK_INT(EV_T(&c, "server_start", 0), UTC(2026, 11, 30, 8, 14, 28, 504));
    CHECK_STR(note(&c, "log_tz"), "UTC assumed (no --log-tz / run.json log_tz)");
    /* parent logs the fork, the child its CoW */
    CHECK_INT(EV_PID(&c, "bgsave_start", 0), 3927);
    CHECK_NEAR(EV_V(&c, "bgsave_start", 0), 3939, 0);
    CHECK_STR(EV_UNIT(&c, "bgsave_start", 0), "pid");
    CHECK_INT(EV_PID(&c, "cow_rdb", 0), 3939);
    CHECK_NEAR(EV_V(&c, "cow_rdb", 0), 11, 0);
    CHECK_STR(EV_UNIT(&c, "cow_rdb", 0), "MB");
    CHECK_INT(ev(&c, "cow_rdb", 0) ? ev(&c, "cow_rdb", 0)->line : 0, 13);
    CHECK_NEAR(EV_V(&c, "cow_rdb", 4), 123, 0);       /* peak, not current/average */
    CHECK_NEAR(EV_V(&c, "cow_aof", 2), 104, 0);
    CHECK_INT(EV_PID(&c, "cow_aof", 2), 3948);
    CHECK_NEAR(EV_V(&c, "aof_rewrite_trigger", 1), 100, 0);
    CHECK_NEAR(EV_V(&c, "bgsave_trigger", 0), 1000, 0);
    CHECK_STR(EV_UNIT(&c, "sync_bgsave_start", 0), "disk");
    CHECK_STR(EV_UNIT(&c, "sync_bgsave_start", 1), "socket");
    CHECK_STR(EV_UNIT(&c, "sync_bgsave_start", 2), "socket");
    CHECK_NEAR(EV_V(&c, "rdb_transfer_start", 1), 6455, 0);
    CHECK_INT(EV_T(&c, "bgsave_done", 0) - EV_T(&c, "bgsave_start", 0), 290000);
    CHECK_STR(note(&c, "log_format"), "pid:role, DD Mon YYYY local");
    CHECK(note(&c, "raw_lines") == NULL);
    collect_free(&c);
}

static void redislog_should_follow_a_real_disk_based_replica(void)
{
    static const char *const want[] = {
        "server_start", "version", "warn_overcommit", "server_ready",
        "repl_connect", "repl_sync_start", "repl_full_resync", "repl_receive",
        "repl_flush", "repl_load", "rdb_loaded", "repl_done", "shutdown",
        "server_exit",
    };
    collect c;
    cow_err e;
    cow_parse_opts o = opts0();
    size_t i;

    CHECK_INT(run_file("replica-disk-7.0.log", &o, &c, &e), COW_OK);
    CHECK_INT(collect_count(&c, COW_REC_EVENT), 14);
    for (i = 0; i < 14; i++) {
        const cow_rec *r = collect_nth(&c, COW_REC_EVENT, i);
        CHECK_STR(r ? r->u.event.kind : NULL, want[i]);
    }
    CHECK_NEAR(EV_V(&c, "repl_receive", 0), 179875461, 0);
    CHECK_STR(EV_UNIT(&c, "repl_receive", 0), "bytes");
    CHECK_INT(EV_PID(&c, "repl_done", 0), 5806);
    CHECK_NEAR(EV_V(&c, "rdb_loaded", 0), 345914, 0);
    CHECK_STR(EV_UNIT(&c, "rdb_loaded", 0), "keys");
    CHECK_INT(EV_T(&c, "repl_done", 0), UTC(2026, 11, 30, 8, 14, 44, 943));
    collect_free(&c);
}

static void redislog_should_follow_a_real_diskless_replica_and_its_role_changes(void)
{
    collect c;
    cow_err e;
    cow_parse_opts o = opts0();

    CHECK_INT(run_file("replica-diskless-7.0.log", &o, &c, &e), COW_OK);
    CHECK_INT(c.nrejects, 0);
    CHECK_INT(collect_count(&c, COW_REC_EVENT), 21);
    CHECK_INT(count_kind(&c, "repl_link_lost"), 1);
    CHECK_INT(count_kind(&c, "repl_receive"), 2);
    CHECK(ev(&c, "repl_receive", 0) && isnan(ev(&c, "repl_receive", 0)->value));
    CHECK_INT(count_kind(&c, "repl_full_resync"), 2);
    CHECK_INT(count_kind(&c, "repl_done"), 1);      /* second sync cut by shutdown */
    CHECK_INT(count_kind(&c, "role_change"), 2);
    CHECK(ev(&c, "role_change", 0) &&
          strncmp(ev(&c, "role_change", 0)->text, "MASTER MODE enabled", 19) == 0);
    CHECK(ev(&c, "role_change", 1) &&
          strncmp(ev(&c, "role_change", 1)->text, "Before turning into a replica", 29) == 0);
    CHECK_INT(count_kind(&c, "repl_connect"), 2);
    collect_free(&c);
}

/* ------------------------------------------------------------- time ---- */

static void redislog_should_shift_local_time_by_the_given_zone(void)
{
    collect utc, plus2;
    cow_err e;
    cow_parse_opts o = opts0();
    size_t i, n;

    CHECK_INT(run_file("primary-7.0.log", &o, &utc, &e), COW_OK);
    o.tz_off_s = 7200;
    o.has_tz = 1;
    CHECK_INT(run_file("primary-7.0.log", &o, &plus2, &e), COW_OK);
    n = collect_count(&utc, COW_REC_EVENT);
    CHECK_INT(collect_count(&plus2, COW_REC_EVENT), n);
    for (i = 0; i < n; i++) {
        const cow_rec *a = collect_nth(&utc, COW_REC_EVENT, i);
        const cow_rec *b = collect_nth(&plus2, COW_REC_EVENT, i);
        if (a && b)
            CHECK_INT(a->u.event.t_us - b->u.event.t_us, 7200 * US);
    }
    CHECK_INT(EV_T(&plus2, "server_start", 0), UTC(2026, 11, 30, 6, 14, 28, 504));
    CHECK_STR(note(&plus2, "log_tz"), "local time taken as UTC+02:00 (given)");
    collect_free(&utc);
    collect_free(&plus2);
}

static void redislog_should_infer_the_year_from_mtime_across_new_year(void)
{
    collect c;
    cow_err e;
    cow_parse_opts o = opts0();

    o.mtime_us = UTC(2024, 1, 2, 9, 0, 0, 0);
    CHECK_INT(run_file("r4-noyear.log", &o, &c, &e), COW_OK);
    CHECK_INT(c.nrejects, 0);
    /* 31 Dec is after January: the year before the mtime */
    CHECK_INT(EV_T(&c, "server_start", 0), UTC(2023, 12, 31, 23, 59, 58, 100));
    CHECK_INT(EV_T(&c, "bgsave_start", 0), UTC(2023, 12, 31, 23, 59, 59, 902));
    CHECK_INT(EV_T(&c, "cow_rdb", 0), UTC(2024, 1, 1, 0, 0, 1, 351));
    CHECK(note(&c, "log_year") && strstr(note(&c, "log_year"), "2024 from the file's "
                                         "modification time") != NULL);
    CHECK_STR(ev(&c, "version", 0) ? ev(&c, "version", 0)->text : NULL, "4.0.9");
    CHECK_NEAR(EV_V(&c, "cow_rdb", 0), 3, 0);
    CHECK_NEAR(EV_V(&c, "cow_rdb", 1), 5, 0);
    CHECK_INT(EV_PID(&c, "cow_rdb", 1), 4725);
    CHECK_STR(EV_UNIT(&c, "sync_bgsave_start", 0), "socket");   /* "slaves sockets" */
    CHECK_INT(count_kind(&c, "replica_sync_request"), 1);       /* "Slave ... asks" */
    CHECK_INT(count_kind(&c, "full_resync"), 1);
    CHECK_INT(count_kind(&c, "sync_success"), 1);
    CHECK_INT(count_kind(&c, "warn_thp"), 1);
    CHECK_INT(count_kind(&c, "warn_overcommit"), 1);
    CHECK_NEAR(EV_V(&c, "warn_somaxconn", 0), 128, 0);
    CHECK_NEAR(EV_V(&c, "db_loaded", 0), 1.248, 1e-9);
    /* the signal-handler stamp is UTC epoch seconds */
    CHECK_INT(EV_T(&c, "shutdown_signal", 0), INT64_C(1704067210) * US);
    CHECK(note(&c, "log_tz_check") == NULL);
    collect_free(&c);

    /* a given year is the first line's, rolling over after December */
    o = opts0();
    o.log_year = 2023;
    CHECK_INT(run_file("r4-noyear.log", &o, &c, &e), COW_OK);
    CHECK_INT(c.nrejects, 0);
    CHECK_INT(EV_T(&c, "server_start", 0), UTC(2023, 12, 31, 23, 59, 58, 100));
    CHECK_INT(EV_T(&c, "server_exit", 0), UTC(2024, 1, 1, 0, 0, 11, 0));
    collect_free(&c);
}

static void redislog_should_refuse_a_yearless_log_without_year_info(void)
{
    collect c;
    cow_err e;
    cow_parse_opts o = opts0();

    CHECK_INT(run_file("r4-noyear.log", &o, &c, &e), COW_EUNIT);
    CHECK(strstr(e.msg, "--log-year") != NULL);
    CHECK(strstr(e.msg, "\"log_year\"") != NULL);
    CHECK_INT(e.line, 1);
    CHECK_STR(e.path, "test.log");
    collect_free(&c);
}

static void redislog_should_flag_a_zone_contradicted_by_signal_handler_lines(void)
{
    collect c;
    cow_err e;
    cow_parse_opts o = opts0();

    o.log_year = 2023;
    o.tz_off_s = -5 * 3600;
    o.has_tz = 1;
    CHECK_INT(run_file("r4-noyear.log", &o, &c, &e), COW_OK);
    CHECK_INT(c.nrejects, 0);
    CHECK(note(&c, "log_tz_check") != NULL &&
          strstr(note(&c, "log_tz_check"), "is UTC+00:00, not the zone given") != NULL);
    collect_free(&c);

    /* the right zone: no note, though the signal-handler line comes 4 s
     * after the line before it (a gap is time passing, not a zone) */
    o.tz_off_s = 0;
    CHECK_INT(run_file("r4-noyear.log", &o, &c, &e), COW_OK);
    CHECK(note(&c, "log_tz_check") == NULL);
    collect_free(&c);
}

/* Without a zone, a signal-handler line between two local lines names
 * the offset: an utc_stamp event whose value is it, in seconds. */
static void redislog_should_pair_signal_handler_stamps_with_local_ones(void)
{
    collect c;
    cow_err e;
    cow_parse_opts o = opts0();
    size_t i, n = 0;

    o.log_year = 2023;
    CHECK_INT(run_file("r4-noyear.log", &o, &c, &e), COW_OK);
    CHECK(note(&c, "log_tz_check") == NULL);
    for (i = 0; i < c.n; i++)
        if (c.recs[i].kind == COW_REC_EVENT && strcmp(c.recs[i].u.event.kind, "utc_stamp") == 0) {
            n++;
            CHECK_NEAR(c.recs[i].u.event.value, 0, 0);
            CHECK_INT(c.recs[i].u.event.line, 24);
            CHECK_INT(c.recs[i].u.event.t_us, INT64_C(1704067210) * 1000000);
        }
    CHECK_INT(n, 1);
    collect_free(&c);
}

static void redislog_should_keep_the_zone_of_iso8601_stamps(void)
{
    collect c;
    cow_err e;
    cow_parse_opts o = opts0();

    o.tz_off_s = 5 * 3600;     /* must not apply: the stamps carry +01:00 */
    o.has_tz = 1;
    CHECK_INT(run_file("valkey-iso8601.log", &o, &c, &e), COW_OK);
    CHECK_INT(c.nrejects, 0);
    CHECK_INT(collect_count(&c, COW_REC_EVENT), 21);
    CHECK_INT(EV_T(&c, "server_start", 0), UTC(2025, 2, 3, 13, 2, 0, 100));
    /* every stamp zoned: the note says the log needed none (the store
     * then settles its clock as "zoned", never "UTC assumed") */
    CHECK_STR(note(&c, "log_tz"), "none needed: settled by the zoned stamps of its lines "
                                  "(iso8601 with an offset, or epoch stamps)");
    CHECK_STR(ev(&c, "version", 0) ? ev(&c, "version", 0)->text : NULL, "8.1.1");
    CHECK_STR(EV_UNIT(&c, "sync_bgsave_start", 0), "socket");
    CHECK_NEAR(EV_V(&c, "rdb_transfer_start", 0), 48400, 0);
    CHECK_NEAR(EV_V(&c, "cow_rdb", 0), 41, 0);
    CHECK_INT(EV_PID(&c, "cow_rdb", 0), 48400);
    CHECK_NEAR(EV_V(&c, "cow_aof", 0), 18, 0);
    CHECK_INT(count_kind(&c, "aof_rewrite_scheduled"), 1);
    CHECK_NEAR(EV_V(&c, "partial_resync_ok", 0), 1420, 0);
    CHECK_INT(EV_T(&c, "shutdown_signal", 0), INT64_C(1738587850) * US);
    CHECK_INT(EV_T(&c, "server_exit", 0), UTC(2025, 2, 3, 13, 4, 10, 200));
    collect_free(&c);
}

/* --------------------------------------------------- other generations -- */

static void redislog_should_read_the_2_8_pid_shape(void)
{
    collect c;
    cow_err e;
    cow_parse_opts o = opts0();

    o.log_year = 2015;
    CHECK_INT(run_file("r28-pid.log", &o, &c, &e), COW_OK);
    CHECK_INT(c.nrejects, 0);
    CHECK_INT(collect_count(&c, COW_REC_EVENT), 13);
    CHECK_STR(ev(&c, "version", 0) ? ev(&c, "version", 0)->text : NULL, "2.8.19");
    CHECK_INT(EV_T(&c, "server_start", 0), UTC(2015, 3, 14, 9, 30, 0, 3));
    CHECK_NEAR(EV_V(&c, "cow_rdb", 0), 12, 0);
    CHECK_INT(EV_PID(&c, "cow_rdb", 0), 2450);
    CHECK_NEAR(EV_V(&c, "cow_aof", 0), 4, 0);
    CHECK_INT(count_kind(&c, "server_ready"), 1);
    CHECK(note(&c, "raw_lines") != NULL &&
          strncmp(note(&c, "raw_lines"), "14 lines", 8) == 0);   /* the logo */
    collect_free(&c);
}

static void redislog_should_read_6_x_cow_aof_and_crash_lines(void)
{
    collect c;
    cow_err e;
    cow_parse_opts o = opts0();

    CHECK_INT(run_file("r6-cow.log", &o, &c, &e), COW_OK);
    CHECK_INT(c.nrejects, 0);
    CHECK_INT(collect_count(&c, COW_REC_EVENT), 30);
    CHECK_NEAR(EV_V(&c, "cow_rdb_progress", 0), 150, 0);   /* verbose '-' line */
    CHECK_INT(count_kind(&c, "cow_rdb"), 1);
    CHECK_NEAR(EV_V(&c, "cow_rdb", 0), 212, 0);
    CHECK_NEAR(EV_V(&c, "cow_aof", 0), 96, 0);
    CHECK_NEAR(EV_V(&c, "aof_rewrite_diff", 0), 12.5, 1e-9);
    CHECK_NEAR(EV_V(&c, "aof_rewrite_residual", 0), 0.75, 1e-9);
    CHECK_NEAR(EV_V(&c, "aof_buffer", 0), 80, 0);
    CHECK_INT(count_kind(&c, "bgsave_error"), 2);
    CHECK_INT(count_kind(&c, "bgsave_trigger"), 3);
    CHECK_INT(count_kind(&c, "aof_rewrite_scheduled"), 1);
    CHECK_NEAR(EV_V(&c, "crash", 0), 11, 0);
    CHECK_INT(count_kind(&c, "server_start"), 2);          /* restart after the crash */
    CHECK_INT(EV_PID(&c, "server_start", 1), 1300);
    CHECK(note(&c, "raw_lines") != NULL &&
          strncmp(note(&c, "raw_lines"), "11 lines", 8) == 0);
    collect_free(&c);
}

static void redislog_should_read_valkey_logfmt_with_mixed_stamps(void)
{
    collect c;
    cow_err e;
    cow_parse_opts o = opts0();

    CHECK_INT(run_file("valkey-logfmt.log", &o, &c, &e), COW_OK);
    CHECK_INT(c.nrejects, 0);
    CHECK_INT(collect_count(&c, COW_REC_EVENT), 17);
    CHECK_INT(EV_T(&c, "server_start", 0), INT64_C(1738587731500) * 1000);
    CHECK_INT(count_kind(&c, "repl_sync_start"), 1);        /* PRIMARY <-> REPLICA */
    CHECK_INT(count_kind(&c, "repl_full_resync"), 1);
    CHECK_NEAR(EV_V(&c, "repl_receive", 0), 104857600, 0);
    CHECK_INT(count_kind(&c, "repl_done"), 1);
    CHECK_INT(count_kind(&c, "role_change"), 1);            /* PRIMARY MODE enabled */
    /* legacy local stamp (UTC assumed) and iso8601 +01:00 agree; one
     * local stamp: UTC was assumed, and the note says so */
    CHECK_STR(note(&c, "log_tz"), "UTC assumed (no --log-tz / run.json log_tz)");
    CHECK_INT(EV_T(&c, "sync_bgsave_start", 0), UTC(2025, 2, 3, 13, 2, 20, 0));
    CHECK_INT(EV_T(&c, "bgsave_start", 0), UTC(2025, 2, 3, 13, 2, 20, 2));
    CHECK_STR(EV_UNIT(&c, "sync_bgsave_start", 0), "disk");
    CHECK_NEAR(EV_V(&c, "cow_rdb_progress", 0), 7, 0);      /* level=info */
    CHECK_NEAR(EV_V(&c, "cow_rdb", 0), 8, 0);
    CHECK_INT(EV_PID(&c, "cow_rdb", 0), 52010);
    collect_free(&c);
}

static void redislog_should_read_valkey_forkless_saves(void)
{
    collect c;
    cow_err e;
    cow_parse_opts o = opts0();

    CHECK_INT(run_file("valkey-forkless.log", &o, &c, &e), COW_OK);
    CHECK_INT(c.nrejects, 0);
    CHECK_INT(count_kind(&c, "forkless_scheduled"), 2);
    CHECK_INT(count_kind(&c, "forkless_start"), 2);
    CHECK_INT(count_kind(&c, "forkless_proc_start"), 2);
    CHECK_NEAR(EV_V(&c, "forkless_proc_done", 0), 1000000, 0);
    CHECK_NEAR(EV_V(&c, "forkless_proc_done", 1), 5000, 0);
    CHECK_INT(count_kind(&c, "forkless_completion"), 2);
    CHECK_NEAR(EV_V(&c, "forkless_done", 0), 4, 0);
    CHECK_STR(EV_UNIT(&c, "forkless_done", 0), "s");
    CHECK_INT(count_kind(&c, "forkless_error"), 1);
    CHECK_NEAR(EV_V(&c, "forkless_failed", 0), 1, 0);
    CHECK_INT(count_kind(&c, "bgsave_start"), 0);       /* no fork for the save */
    CHECK_INT(EV_PID(&c, "forkless_done", 0), 51000);
    CHECK_NEAR(EV_V(&c, "cow_aof", 0), 35, 0);          /* AOF rewrite still forks */
    collect_free(&c);
}

/* ------------------------------------------------------- bad input ----- */

static void redislog_should_refuse_a_file_that_is_not_a_log(void)
{
    static const char csv[] = "t_us,lat_us\n1738587731000000,250\n1738587731001000,260\n";
    collect c;
    cow_err e;
    cow_parse_opts o = opts0();

    CHECK_INT(run_mem(csv, sizeof(csv) - 1, &o, &c, &e), COW_EPARSE);
    CHECK(strncmp(e.msg, "not a Redis/Valkey log: line 1", 30) == 0);
    CHECK_INT(e.line, 1);
    CHECK_INT(collect_count(&c, COW_REC_EVENT), 0);
    collect_free(&c);
    CHECK_INT(run_mem("", 0, &o, &c, &e), COW_EPARSE);
    CHECK(strncmp(e.msg, "not a Redis/Valkey log", 22) == 0);
    collect_free(&c);
}

static void redislog_should_read_crlf_like_lf(void)
{
    collect lf, crlf;
    cow_err e;
    cow_parse_opts o = opts0();
    size_t n, i, j = 0;
    char *buf = slurp("primary-7.0.log", &n);
    char *dos = xmalloc(2 * n + 1);

    for (i = 0; i < n; i++) {
        if (buf[i] == '\n')
            dos[j++] = '\r';
        dos[j++] = buf[i];
    }
    CHECK_INT(run_mem(buf, n, &o, &lf, &e), COW_OK);
    CHECK_INT(run_mem(dos, j, &o, &crlf, &e), COW_OK);
    CHECK_INT(crlf.nrejects, 0);
    CHECK_INT(collect_count(&crlf, COW_REC_EVENT), collect_count(&lf, COW_REC_EVENT));
    for (i = 0; i < lf.n && i < crlf.n; i++)
        if (lf.recs[i].kind == COW_REC_EVENT) {
            CHECK_INT(crlf.recs[i].u.event.t_us, lf.recs[i].u.event.t_us);
            CHECK_STR(crlf.recs[i].u.event.text, lf.recs[i].u.event.text);
        }
    collect_free(&lf);
    collect_free(&crlf);
    free(buf);
    free(dos);
}

static void redislog_should_reject_a_truncated_last_line(void)
{
    collect c;
    cow_err e;
    cow_parse_opts o = opts0();
    size_t n;
    char *buf = slurp("primary-7.0.log", &n);

    /* cut "...ready to exit, bye bye...\n" after "bye" */
    CHECK_INT(run_mem(buf, n - 8, &o, &c, &e), COW_OK);
    CHECK_INT(c.nrejects, 1);
    CHECK_INT(rej(&c, 0) ? rej(&c, 0)->line : 0, 99);
    CHECK(rej(&c, 0) && strstr(rej(&c, 0)->reason, "no line end") != NULL);
    CHECK_INT(count_kind(&c, "server_exit"), 0);
    CHECK_INT(collect_count(&c, COW_REC_EVENT), 66);
    collect_free(&c);

    /* cut inside the time stamp of the last line */
    CHECK_INT(run_mem(buf, n - 60, &o, &c, &e), COW_OK);
    CHECK_INT(c.nrejects, 1);
    CHECK(rej(&c, 0) && strstr(rej(&c, 0)->reason, "cut short") != NULL);
    collect_free(&c);
    free(buf);
}

/* 30 good lines, then the lines under test. */
static char *good_then(const char *tail)
{
    char *buf = xmalloc(4096 + strlen(tail));
    size_t o = 0;
    int i;

    for (i = 0; i < 30; i++)
        o += (size_t)sprintf(buf + o, "77:M 03 Feb 2025 10:00:%02d.000 * Ready "
                             "to accept connections\n", i);
    strcpy(buf + o, tail);
    return buf;
}

static void redislog_should_reject_impossible_stamps_and_steps_back(void)
{
    collect c;
    cow_err e;
    cow_parse_opts o = opts0();
    char *buf = good_then(
        "77:M 31 Feb 2025 10:00:40.000 * DB saved on disk\n"
        "77:M 03 Feb 2025 25:00:40.000 * DB saved on disk\n"
        "77:M 03 Feb 2025 09:58:00.000 * DB saved on disk\n"
        "77:M 03 Feb 2025 09:59:30.000 * DB saved on disk\n"
        "Some free text that is not a log line\n");

    CHECK_INT(run_mem(buf, strlen(buf), &o, &c, &e), COW_OK);
    CHECK_INT(c.nrejects, 3);
    CHECK_INT(rej(&c, 0) ? rej(&c, 0)->line : 0, 31);
    CHECK(rej(&c, 0) && strstr(rej(&c, 0)->reason, "day of the month") != NULL);
    CHECK(rej(&c, 1) && strstr(rej(&c, 1)->reason, "time of day") != NULL);
    CHECK(rej(&c, 2) && strstr(rej(&c, 2)->reason, "two logs were concatenated") != NULL);
    CHECK_INT(rej(&c, 2) ? rej(&c, 2)->line : 0, 33);
    /* 30 s back is within the slack */
    CHECK_INT(count_kind(&c, "rdb_saved"), 1);
    CHECK_INT(EV_T(&c, "rdb_saved", 0), UTC(2025, 2, 3, 9, 59, 30, 0));
    collect_free(&c);
    free(buf);
}

/* The iso8601 shape goes through the program's one date check
 * (common/timeconv.c): 31 February is refused, not read as 3 March. */
static void redislog_should_reject_an_impossible_iso8601_date(void)
{
    collect c;
    cow_err e;
    cow_parse_opts o = opts0();
    char *buf = good_then(
        "77:M 2025-02-31T10:00:40.000+00:00 * DB saved on disk\n"
        "77:M 2025-02-03T10:00:41.000+00:00 * DB saved on disk\n");

    CHECK_INT(run_mem(buf, strlen(buf), &o, &c, &e), COW_OK);
    CHECK_INT(c.nrejects, 1);
    CHECK_INT(rej(&c, 0) ? rej(&c, 0)->line : 0, 31);
    CHECK(rej(&c, 0) && strstr(rej(&c, 0)->reason, "day of the month") != NULL);
    CHECK_INT(count_kind(&c, "rdb_saved"), 1);
    CHECK_INT(EV_T(&c, "rdb_saved", 0), UTC(2025, 2, 3, 10, 0, 41, 0));
    collect_free(&c);
    free(buf);
}

static void redislog_should_refuse_a_file_with_too_many_rejects(void)
{
    collect c;
    cow_err e;
    cow_parse_opts o = opts0();
    char *buf = good_then(
        "77:M 03 Feb 2025 09:00:00.000 * DB saved on disk\n"
        "77:M 03 Feb 2025 09:00:01.000 * DB saved on disk\n"
        "77:M 03 Feb 2025 09:00:02.000 * DB saved on disk\n"
        "77:M 03 Feb 2025 09:00:03.000 * DB saved on disk\n");

    CHECK_INT(run_mem(buf, strlen(buf), &o, &c, &e), COW_EPARSE);
    CHECK(strstr(e.msg, "refused whole") != NULL);
    CHECK(strstr(e.msg, "concatenated") != NULL);
    CHECK_INT(e.line, 31);
    collect_free(&c);
    free(buf);
}

static void redislog_should_check_29_february_against_the_year(void)
{
    static const char text[] = "9:M 28 Feb 10:00:00.000 * DB saved on disk\n"
                               "9:M 29 Feb 10:00:00.000 * DB saved on disk\n";
    collect c;
    cow_err e;
    cow_parse_opts o = opts0();

    o.log_year = 2023;
    CHECK_INT(run_mem(text, sizeof(text) - 1, &o, &c, &e), COW_OK);
    CHECK_INT(c.nrejects, 1);
    CHECK(rej(&c, 0) && strstr(rej(&c, 0)->reason, "29 Feb does not exist in 2023") != NULL);
    collect_free(&c);
    o.log_year = 2024;
    CHECK_INT(run_mem(text, sizeof(text) - 1, &o, &c, &e), COW_OK);
    CHECK_INT(c.nrejects, 0);
    CHECK_INT(EV_T(&c, "rdb_saved", 1), UTC(2024, 2, 29, 10, 0, 0, 0));
    collect_free(&c);
}

static void redislog_should_reject_an_event_line_without_its_number(void)
{
    static const char text[] =
        "5:C 03 Feb 2025 10:00:00.000 * Fork CoW for RDB: current 1 MB, peak xx MB, average 1 MB\n"
        "5:C 03 Feb 2025 10:00:00.001 * Fork CoW for RDB: current 1 MB, peak 2 MB, average 1 MB\n";
    collect c;
    cow_err e;
    cow_parse_opts o = opts0();

    CHECK_INT(run_mem(text, sizeof(text) - 1, &o, &c, &e), COW_OK);
    CHECK_INT(c.nrejects, 1);
    CHECK(rej(&c, 0) && strstr(rej(&c, 0)->reason, "'cow_rdb'") != NULL);
    CHECK_NEAR(EV_V(&c, "cow_rdb", 0), 2, 0);
    collect_free(&c);
}

/* ------------------------------------------------------------ sniff ---- */

static int sniff_file(const char *name)
{
    size_t n;
    char *buf = slurp(name, &n);
    int score = cow_parser_redis_log.sniff(name, buf, n < COW_SNIFF_BYTES ? n : COW_SNIFF_BYTES);
    free(buf);
    return score;
}

static void redislog_should_sniff_logs_and_leave_other_files(void)
{
    static const char *const logs[] = {
        "primary-7.0.log", "replica-disk-7.0.log", "replica-diskless-7.0.log",
        "r4-noyear.log", "r28-pid.log", "r6-cow.log", "valkey-iso8601.log",
        "valkey-logfmt.log", "valkey-forkless.log",
    };
    static const char csv[] = "t_us,lat_us\n1738587731000000,250\n";
    static const char hist[] = "min: 0, max: 1, avg: 0.19 (1477 samples) -- 15.01 seconds range\n"
                               "min: 0, max: 3, avg: 0.21 (1475 samples) -- 15.00 seconds range\n";
    size_t i;

    for (i = 0; i < sizeof(logs) / sizeof(logs[0]); i++)
        CHECK_INT(sniff_file(logs[i]), 95);
    CHECK_INT(cow_parser_redis_log.sniff("lat.csv", csv, sizeof(csv) - 1), 0);
    CHECK_INT(cow_parser_redis_log.sniff("history.txt", hist, sizeof(hist) - 1), 0);
    CHECK_INT(cow_parser_redis_log.sniff("redis.log", csv, sizeof(csv) - 1), 10);
    CHECK_INT(cow_parser_redis_log.sniff("x.log", "", 0), 0);
}

/* Issue: logs as container platforms and collectors hand them over. Each
 * wrap-*.log holds the first 24 lines of primary-7.0.log in one wrapper
 * (tests/data/redislog/README.md); every one must give the events of the
 * bare lines, at the same instants. */
static void redislog_should_read_logs_through_container_and_journal_prefixes(void)
{
    static const char *const wraps[] = {
        "wrap-compose.log", "wrap-docker-t.log", "wrap-compose-t.log",
        "wrap-journal-iso.log", "wrap-syslog.log",
    };
    cow_parse_opts o = opts0();
    collect base, c;
    cow_err e;
    size_t n, i, j, nb = 0;
    char *buf = slurp("primary-7.0.log", &n);
    const char *cut = buf;

    for (i = 0; i < 24; i++)
        cut = strchr(cut, '\n') + 1;
    CHECK_INT(run_mem(buf, (size_t)(cut - buf), &o, &base, &e), COW_OK);
    for (j = 0; j < base.n; j++)
        nb += base.recs[j].kind == COW_REC_EVENT;
    CHECK_INT(nb, 13);
    for (i = 0; i < sizeof(wraps) / sizeof(wraps[0]); i++) {
        size_t m, k = 0;
        char *w = slurp(wraps[i], &m);
        const cow_parser *p = parser_detect(wraps[i], w, m);
        CHECK(p == &cow_parser_redis_log);
        CHECK_INT(run_mem(w, m, &o, &c, &e), COW_OK);
        CHECK_INT(c.nrejects, 0);
        for (j = 0; j < c.n; j++) {
            if (c.recs[j].kind != COW_REC_EVENT)
                continue;
            while (base.recs[k].kind != COW_REC_EVENT)
                k++;
            CHECK_STR(c.recs[j].u.event.kind, base.recs[k].u.event.kind);
            CHECK_INT(c.recs[j].u.event.t_us, base.recs[k].u.event.t_us);
            k++;
        }
        CHECK_INT(count_kind(&c, "bgsave_start"), 1);
        CHECK_INT(count_kind(&c, "cow_rdb"), 1);
        collect_free(&c);
        free(w);
    }
    collect_free(&base);
    free(buf);
}

/* The docker stamps are UTC, the container's log is local time (+01:00):
 * the prefix settles the zone without --log-tz, and says so. A year-less
 * Redis 4 line takes the year of its prefix (here across New Year). */
static void redislog_should_take_the_zone_and_year_from_prefix_stamps(void)
{
    static const char r4[] =
        "2025-12-31T23:59:59.100000000Z 7:M 01 Jan 00:59:59.101 * Background saving started by pid 9\n"
        "2026-01-01T00:00:01.000000000Z 9:C 01 Jan 01:00:00.998 * DB saved on disk\n";
    cow_parse_opts o = opts0();
    collect c;
    cow_err e;
    size_t n;
    char *w = slurp("wrap-docker-t.log", &n);

    CHECK_INT(run_mem(w, n, &o, &c, &e), COW_OK);
    CHECK_STR(note(&c, "log_tz"), "local time is UTC+01:00 from line 1 on, "
              "settled by the zoned stamps of the line prefixes");
    CHECK(ev(&c, "bgsave_start", 0) != NULL);
    CHECK_INT(ev(&c, "bgsave_start", 0)->t_us,
              time_us_from_civil(2026, 11, 30, 8, 14, 30, 27000));
    collect_free(&c);
    free(w);
    o.log_year = 1999;  /* not used: the prefix knows */
    CHECK_INT(run_mem(r4, sizeof(r4) - 1, &o, &c, &e), COW_OK);
    CHECK_INT(ev(&c, "bgsave_start", 0)->t_us,
              time_us_from_civil(2025, 12, 31, 23, 59, 59, 101000));
    CHECK_INT(ev(&c, "rdb_saved", 0)->t_us,
              time_us_from_civil(2026, 1, 1, 0, 0, 0, 998000));
    collect_free(&c);
}

/* Smaller misreads found on genuine logs (tests/data/redislog/README.md). */
static void redislog_should_read_2_6_connect_8_bgsave_done_and_valkey_assertions(void)
{
    cow_parse_opts o = opts0();
    collect c;
    cow_err e;

    o.log_year = 2013;
    CHECK_INT(run_file("r26-replica.log", &o, &c, &e), COW_OK);
    CHECK_INT(count_kind(&c, "repl_connect"), 1);   /* "Connecting to MASTER..." */
    CHECK_INT(ev(&c, "repl_connect", 0)->line, 2);
    collect_free(&c);
    CHECK_INT(run_file("r8-bgsave-done.log", &o, &c, &e), COW_OK);
    CHECK(ev(&c, "rdb_keys_saved", 0) != NULL);
    CHECK(ev(&c, "rdb_keys_saved", 0)->value == 14277.0);
    CHECK_STR(ev(&c, "rdb_keys_saved", 0)->unit, "keys");
    CHECK_INT(ev(&c, "rdb_keys_saved", 0)->pid, 37);
    collect_free(&c);
    CHECK_INT(run_file("valkey9-assert.log", &o, &c, &e), COW_OK);
    CHECK_INT(count_kind(&c, "crash"), 1);   /* the recursive one is the same crash */
    CHECK_INT(ev(&c, "crash", 0)->line, 4);
    CHECK_INT(ev(&c, "crash", 0)->t_us, time_us_from_civil(2025, 9, 20, 11, 54, 45, 859000));
    collect_free(&c);
}

/* syslog-enabled yes (KeyDB lines pasted in Snapchat/KeyDB#435): bare
 * messages, stamp and pid from the syslog prefix, year given. */
static void redislog_should_read_bare_syslog_messages(void)
{
    cow_parse_opts o = opts0();
    collect c;
    cow_err e;
    size_t n;
    char *w = slurp("syslog-keydb.log", &n);

    CHECK(parser_detect("syslog-keydb.log", w, n) == &cow_parser_redis_log);
    free(w);
    o.log_year = 2022;
    CHECK_INT(run_file("syslog-keydb.log", &o, &c, &e), COW_OK);
    CHECK_INT(c.nrejects, 0);
    CHECK_INT(count_kind(&c, "bgsave_start"), 2);
    CHECK_INT(count_kind(&c, "cow_rdb"), 3);
    CHECK_INT(ev(&c, "bgsave_start", 0)->pid, 1320323);
    CHECK(ev(&c, "bgsave_start", 0)->value == 2036522.0);
    CHECK_INT(ev(&c, "rdb_saved", 0)->pid, 2036522);
    CHECK_INT(ev(&c, "rdb_saved", 0)->t_us, time_us_from_civil(2022, 5, 22, 22, 2, 49, 0));
    CHECK_INT(count_kind(&c, "aof_rewrite_start"), 1);
    collect_free(&c);
}

/* The processes that wrote a log: a primary with its banner's port and
 * its BGSAVE child, a replica that turned into one, a child whose parent
 * is not in the log. */
static void redislog_should_say_who_wrote_it(void)
{
    static const char log[] =
        "1666:C 30 Nov 2026 08:51:09.421 # Redis version=7.0.15, bits=64, commit=0, modified=0, pid=1666, just started\n"
        "1666:M 30 Nov 2026 08:51:09.422 * Running mode=standalone, port=7301.\n"
        "1678:M 30 Nov 2026 08:51:09.554 * Running mode=standalone, port=7302.\n"
        "1678:S 30 Nov 2026 08:51:15.645 * MASTER <-> REPLICA sync started\n"
        "1666:M 30 Nov 2026 08:51:15.651 * Background saving started by pid 1844\n"
        "1844:C 30 Nov 2026 08:51:16.821 * DB saved on disk\n"
        "1999:C 30 Nov 2026 08:51:17.000 * DB saved on disk\n";
    cow_parse_opts o = opts0();
    cow_err e = COW_ERR_INIT;
    collect c;
    size_t i, n = 0;
    CHECK_INT(run_mem(log, sizeof(log) - 1, &o, &c, &e), COW_OK);
    for (i = 0; i < c.n; i++) {
        const cow_proc *p = &c.recs[i].u.proc;
        if (c.recs[i].kind != COW_REC_PROC)
            continue;
        n++;
        if (p->pid == 1666) {
            CHECK_STR(p->roles, "CM");
            CHECK_INT(p->port, 7301);
            CHECK(p->server && !p->replica);
            CHECK_STR(p->version, "7.0.15");
            CHECK_INT(p->parent, 0);
            CHECK_INT(p->line, 1);
        } else if (p->pid == 1678) {
            CHECK_STR(p->roles, "MS");
            CHECK_INT(p->port, 7302);
            CHECK(p->replica && !p->server);
            CHECK(p->version == NULL);
        } else if (p->pid == 1844) {
            CHECK_INT(p->parent, 1666);
            CHECK_STR(p->roles, "C");
        } else {
            CHECK_INT(p->pid, 1999);
            CHECK_INT(p->parent, 0);
            CHECK_INT(p->line, 7);
        }
    }
    CHECK_INT(n, 4);
    collect_free(&c);
}

int main(void)
{
    RUN(redislog_should_say_who_wrote_it);
    RUN(redislog_should_read_every_event_of_a_real_primary_log);
    RUN(redislog_should_follow_a_real_disk_based_replica);
    RUN(redislog_should_follow_a_real_diskless_replica_and_its_role_changes);
    RUN(redislog_should_shift_local_time_by_the_given_zone);
    RUN(redislog_should_infer_the_year_from_mtime_across_new_year);
    RUN(redislog_should_refuse_a_yearless_log_without_year_info);
    RUN(redislog_should_flag_a_zone_contradicted_by_signal_handler_lines);
    RUN(redislog_should_pair_signal_handler_stamps_with_local_ones);
    RUN(redislog_should_keep_the_zone_of_iso8601_stamps);
    RUN(redislog_should_read_the_2_8_pid_shape);
    RUN(redislog_should_read_6_x_cow_aof_and_crash_lines);
    RUN(redislog_should_read_valkey_logfmt_with_mixed_stamps);
    RUN(redislog_should_read_valkey_forkless_saves);
    RUN(redislog_should_refuse_a_file_that_is_not_a_log);
    RUN(redislog_should_read_crlf_like_lf);
    RUN(redislog_should_reject_a_truncated_last_line);
    RUN(redislog_should_reject_impossible_stamps_and_steps_back);
    RUN(redislog_should_reject_an_impossible_iso8601_date);
    RUN(redislog_should_refuse_a_file_with_too_many_rejects);
    RUN(redislog_should_check_29_february_against_the_year);
    RUN(redislog_should_reject_an_event_line_without_its_number);
    RUN(redislog_should_sniff_logs_and_leave_other_files);
    RUN(redislog_should_read_logs_through_container_and_journal_prefixes);
    RUN(redislog_should_take_the_zone_and_year_from_prefix_stamps);
    RUN(redislog_should_read_2_6_connect_8_bgsave_done_and_valkey_assertions);
    RUN(redislog_should_read_bare_syslog_messages);
    return REPORT();
}
