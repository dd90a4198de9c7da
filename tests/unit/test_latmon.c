/* test_latmon.c -- the redis-latency (LATENCY LATEST/HISTORY/DOCTOR) and
 * redis-cli-latency (--latency, --latency-history) parsers, on real
 * captures from Debian's redis-server / redis-cli 7.0.15 (see the README.md
 * files under tests/data/latmon and tests/data/clilat) and on malformed
 * inputs. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect.h"
#include "formats.h"
#include "fixture.h"
#include "minunit.h"

/* ---------------------------------------------------------------- helpers */

static int parse_file_t0(const cow_parser *p, const char *rel, int64_t t0,
                         collect *c, cow_err *e)
{
    cow_parse_opts o;
    cow_src s;
    cow_sink k = collect_sink(c);
    int rc;

    memset(&o, 0, sizeof(o));
    o.fname = strrchr(rel, '/') + 1;
    o.t0_us = t0;
    o.has_t0 = t0 != 0;
    if ((rc = src_open_file(&s, fixture_path(rel), e)) != COW_OK)
        return rc;
    rc = p->parse(&s, &o, &k, e);
    src_close(&s);
    return rc;
}

static int parse_file(const cow_parser *p, const char *rel, collect *c, cow_err *e)
{
    return parse_file_t0(p, rel, 0, c, e);
}

static int parse_mem(const cow_parser *p, const char *fname, const char *text,
                     collect *c, cow_err *e)
{
    cow_parse_opts o;
    cow_src s;
    cow_sink k = collect_sink(c);
    int rc;

    memset(&o, 0, sizeof(o));
    o.fname = fname;
    src_open_mem(&s, fname, text, strlen(text));
    rc = p->parse(&s, &o, &k, e);
    src_close(&s);
    return rc;
}

static const cow_latmon *lm(const collect *c, size_t i)
{
    const cow_rec *r = collect_nth(c, COW_REC_LATMON, i);
    return r ? &r->u.latmon : NULL;
}

static const cow_interval *iv(const collect *c, size_t i)
{
    const cow_rec *r = collect_nth(c, COW_REC_INTERVAL, i);
    return r ? &r->u.interval : NULL;
}

static const char *find_note(const collect *c, const char *key)
{
    size_t i;
    for (i = 0; i < c->n; i++)
        if (c->recs[i].kind == COW_REC_NOTE && strcmp(c->recs[i].u.note.key, key) == 0)
            return c->recs[i].u.note.value;
    return NULL;
}

static bool same_str(const char *a, const char *b)
{
    return (a == NULL && b == NULL) || (a && b && strcmp(a, b) == 0);
}

/* Check one latmon record: kind, event, t (seconds), lat, max, line. */
static bool lm_is(const cow_latmon *r, const char *kind, const char *event,
                  int64_t t_s, double lat, double max, long line)
{
    if (r == NULL)
        return false;
    if (!same_str(r->kind, kind) || !same_str(r->event, event) ||
        r->t_us != t_s * 1000000 || r->line != line)
        return false;
    if (isnan(lat) ? !isnan(r->lat_ms) : r->lat_ms != lat)
        return false;
    return isnan(max) ? isnan(r->max_ms) : r->max_ms == max;
}

/* ---------------------------------------------------------------- LATENCY */

static void latmon_should_read_a_report_with_headers(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;
    const cow_latmon *d;

    collect_init(&c);
    CHECK_INT(parse_file(&cow_parser_latency_monitor, "latmon/latency-report.txt",
                         &c, &e), COW_OK);
    CHECK_INT(c.nrejects, 0);
    CHECK(lm_is(lm(&c, 0), "latest", "command", 1796026562, 2, 2398, 2));
    CHECK(lm_is(lm(&c, 1), "latest", "fork", 1796026557, 10, 10, 6));
    CHECK(lm_is(lm(&c, 2), "history", "fork", 1796026499, 4, NAN, 11));
    CHECK(lm_is(lm(&c, 3), "history", "fork", 1796026557, 10, NAN, 13));
    CHECK(lm_is(lm(&c, 4), "history", "aof-write", 0, NAN, NAN, 16)); /* empty */
    d = lm(&c, 5);
    CHECK(lm_is(d, "doctor", NULL, 0, NAN, NAN, 18));
    CHECK(d && d->none_observed == 0 &&
          strncmp(d->text, "Dave, I have observed latency spikes", 36) == 0 &&
          strstr(d->text, "\n\n1. command:") != NULL);
    CHECK(lm_is(lm(&c, 6), "doctor", "command", 0, 224, 2398, 20));
    CHECK(lm_is(lm(&c, 7), "doctor", "fork", 0, 7, 10, 21));
    CHECK_INT(collect_count(&c, COW_REC_LATMON), 8);
    CHECK_STR(find_note(&c, "latency_sections"),
              "latest, history fork, history aof-write, doctor");
    collect_free(&c);
}

static void latmon_should_read_the_terminal_shape(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;

    collect_init(&c);
    CHECK_INT(parse_file(&cow_parser_latency_monitor,
                         "latmon/latency-report-tty.txt", &c, &e), COW_OK);
    CHECK_INT(c.nrejects, 0);
    CHECK(lm_is(lm(&c, 0), "latest", "command", 1796026565, 6, 2398, 2));
    CHECK(lm_is(lm(&c, 1), "latest", "fork", 1796026557, 10, 10, 6));
    CHECK(lm_is(lm(&c, 2), "history", "fork", 1796026499, 4, NAN, 11));
    CHECK(lm_is(lm(&c, 3), "history", "fork", 1796026557, 10, NAN, 13));
    CHECK(lm_is(lm(&c, 4), "history", "aof-write", 0, NAN, NAN, 16));
    CHECK(lm(&c, 5) && lm(&c, 5)->text && strchr(lm(&c, 5)->text, '\r') == NULL);
    CHECK(lm_is(lm(&c, 6), "doctor", "command", 0, 206, 2398, 20));
    collect_free(&c);
}

static void latmon_should_read_every_latest_shape(void)
{
    static const struct { const char *file; int64_t cmd_t; double cmd_lat; } cases[] = {
        {"latmon/latest-raw.txt", 1796026504, 2},
        {"latmon/latest-tty.txt", 1796026506, 3},
        {"latmon/latest-csv.txt", 1796026567, 5},
        {"latmon/latest-json.txt", 1796026567, 5},
    };
    size_t i;
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        collect c;
        cow_err e = COW_ERR_INIT;
        collect_init(&c);
        CHECK_INT(parse_file(&cow_parser_latency_monitor, cases[i].file, &c, &e),
                  COW_OK);
        CHECK_INT(collect_count(&c, COW_REC_LATMON), 2);
        CHECK(lm(&c, 0) && strcmp(lm(&c, 0)->kind, "latest") == 0 &&
              strcmp(lm(&c, 0)->event, "command") == 0 &&
              lm(&c, 0)->t_us == cases[i].cmd_t * 1000000 &&
              lm(&c, 0)->lat_ms == cases[i].cmd_lat && lm(&c, 0)->max_ms == 2398);
        CHECK(lm(&c, 1) && strcmp(lm(&c, 1)->event, "fork") == 0);
        CHECK_INT(c.nrejects, 0);
        collect_free(&c);
    }
}

static void latmon_should_name_history_events_from_file_names(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;

    collect_init(&c);
    CHECK_INT(parse_file(&cow_parser_latency_monitor,
                         "latmon/latency-history-command.txt", &c, &e), COW_OK);
    CHECK_INT(collect_count(&c, COW_REC_LATMON), 4);
    CHECK(lm_is(lm(&c, 0), "history", "command", 1796026496, 2398, NAN, 1));
    CHECK(lm_is(lm(&c, 1), "history", "command", 1796026499, 50, NAN, 3));
    CHECK(lm_is(lm(&c, 3), "history", "command", 1796026504, 2, NAN, 7));
    collect_free(&c);

    collect_init(&c);
    CHECK_INT(parse_file(&cow_parser_latency_monitor,
                         "latmon/latency-history-fork.tty.txt", &c, &e), COW_OK);
    CHECK(lm_is(lm(&c, 0), "history", "fork", 1796026499, 4, NAN, 1));
    CHECK_INT(collect_count(&c, COW_REC_LATMON), 1);
    collect_free(&c);

    /* empty replies: terminal "(empty array)" and piped single blank line */
    collect_init(&c);
    CHECK_INT(parse_file(&cow_parser_latency_monitor,
                         "latmon/latency-history-aof-write.txt", &c, &e), COW_OK);
    CHECK(lm_is(lm(&c, 0), "history", "aof-write", 0, NAN, NAN, 1));
    CHECK_INT(collect_count(&c, COW_REC_LATMON), 1);
    collect_free(&c);
    collect_init(&c);
    CHECK_INT(parse_file(&cow_parser_latency_monitor,
                         "latmon/latency-history-expire-cycle.txt", &c, &e), COW_OK);
    CHECK(lm_is(lm(&c, 0), "history", "expire-cycle", 0, NAN, NAN, 1));
    collect_free(&c);

    /* "latency-history.txt" names no event: the extension is not one */
    collect_init(&c);
    CHECK_INT(parse_mem(&cow_parser_latency_monitor, "latency-history.txt",
                        "1796026496\n431\n", &c, &e), COW_OK);
    CHECK(lm(&c, 0) == NULL || lm(&c, 0)->event == NULL ||
          strcmp(lm(&c, 0)->event, "txt") != 0);
    CHECK(find_note(&c, "latency_history_event") != NULL);
    collect_free(&c);

    /* an empty reply that nothing names is refused, with what to do */
    collect_init(&c);
    CHECK_INT(parse_mem(&cow_parser_latency_monitor, "out.txt", "(empty array)\r\n",
                        &c, &e), COW_EPARSE);
    CHECK(strstr(e.msg, "=== LATENCY HISTORY fork ===") != NULL);
    CHECK_INT(e.line, 1);
    collect_free(&c);
}

/* A DOCTOR event line a terminal wrapped (an 80-column redis-cli, cut
 * mid-word and at a space) is read whole: the 500 ms stall is kept. */
static void latmon_should_join_wrapped_doctor_lines(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;
    const char *text =
        "Dave, I have observed latency spikes in this Redis instance. You don't mind "
        "talking about it, do you Dave?\n"
        "\n"
        "1. command: 3 latency spikes (average 180ms, mean deviation 120ms, period 40.1\n"
        "2 sec). Worst all time event 500ms.\n"
        "2. aof-fsync-always: 2 latency spikes (average 30ms, mean deviation 5ms,\n"
        "period 60.00 sec). Worst all time event 41ms.\n"
        "\n"
        "I have a few advices for you:\n"
        "\n"
        "- Check your Slow Log to understand what are the commands you are running which "
        "are too slow to execute.\n";
    size_t i, k = 0;

    collect_init(&c);
    CHECK_INT(parse_mem(&cow_parser_latency_monitor, "latency-doctor.txt", text, &c, &e),
              COW_OK);
    for (i = 0; lm(&c, i) != NULL; i++) {
        const cow_latmon *r = lm(&c, i);
        if (r->event && strcmp(r->event, "command") == 0) {
            CHECK(r->max_ms == 500 && r->lat_ms == 180 && r->line == 3);
            k++;
        }
        if (r->event && strcmp(r->event, "aof-fsync-always") == 0) {
            CHECK(r->max_ms == 41 && r->line == 5);
            k++;
        }
    }
    CHECK_INT(k, 2);
    collect_free(&c);
}

static void latmon_should_see_when_the_doctor_saw_nothing(void)
{
    static const struct { const char *file; int none; } cases[] = {
        {"latmon/doctor-none.txt", 1},
        {"latmon/doctor-none-tty.txt", 1},
        {"latmon/doctor-disabled.txt", 0},
        {"latmon/doctor-spikes.txt", 0},
    };
    size_t i;
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        collect c;
        cow_err e = COW_ERR_INIT;
        collect_init(&c);
        CHECK_INT(parse_file(&cow_parser_latency_monitor, cases[i].file, &c, &e),
                  COW_OK);
        CHECK(lm(&c, 0) && strcmp(lm(&c, 0)->kind, "doctor") == 0 &&
              lm(&c, 0)->none_observed == cases[i].none && lm(&c, 0)->text != NULL);
        if (i == 2)
            CHECK(find_note(&c, "latency_monitor") != NULL);
        if (i == 3)
            CHECK(lm_is(lm(&c, 2), "doctor", "fork", 0, 4, 4, 4));
        collect_free(&c);
    }
}

static void latmon_should_read_the_seed_000_shape(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;

    collect_init(&c);
    CHECK_INT(parse_file(&cow_parser_latency_monitor, "latmon/seed000-shape.txt",
                         &c, &e), COW_OK);
    CHECK_INT(collect_count(&c, COW_REC_LATMON), 2);
    CHECK(lm(&c, 0) && lm(&c, 0)->none_observed == 1 && lm(&c, 0)->line == 2 &&
          strstr(lm(&c, 0)->text, "not in\nthe slightest bit") != NULL);
    CHECK(lm_is(lm(&c, 1), "history", "fork", 0, NAN, NAN, 7));
    collect_free(&c);

    /* Valkey 8.0+ wording, no header */
    collect_init(&c);
    CHECK_INT(parse_mem(&cow_parser_latency_monitor, "d.txt", "No latency spike "
                        "was observed during the lifetime of this Valkey instance, "
                        "not in the slightest bit.\n", &c, &e), COW_OK);
    CHECK(lm(&c, 0) && lm(&c, 0)->none_observed == 1);
    collect_free(&c);
}

static void latmon_should_reject_bad_lines_not_crash(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;
    const cow_rec *r;

    /* Valkey 8.1 six-element LATEST and a wrong-sized entry */
    collect_init(&c);
    CHECK_INT(parse_mem(&cow_parser_latency_monitor, "l.txt",
                        "fork\r\n1738591331\r\n41\r\n52\r\n300\r\n7\r\n"
                        "command\r\n1738591331\r\n12\r\n"
                        "expire-cycle\r\n1738591331\r\n3\r\n4\r\n300\r\n2\r\n",
                        &c, &e), COW_OK);
    CHECK(lm_is(lm(&c, 0), "latest", "fork", 1738591331, 41, 52, 1));
    CHECK(lm_is(lm(&c, 1), "latest", "expire-cycle", 1738591331, 3, 4, 10));
    CHECK(find_note(&c, "latency_latest") != NULL);
    CHECK_INT(c.nrejects, 1);
    r = collect_nth(&c, COW_REC_REJECT, 0);
    CHECK(r && r->u.reject.line == 7 && strstr(r->u.reject.reason, "2 numbers"));
    collect_free(&c);

    /* a cut last line leaves a time stamp without its latency */
    collect_init(&c);
    CHECK_INT(parse_mem(&cow_parser_latency_monitor, "latency-history-fork.txt",
                        "1738591331\n41\n1738591332\n4", &c, &e), COW_OK);
    CHECK(lm_is(lm(&c, 0), "history", "fork", 1738591331, 41, NAN, 1));
    CHECK_INT(c.nrejects, 2);
    r = collect_nth(&c, COW_REC_REJECT, 0);
    CHECK(r && r->u.reject.line == 4 && strstr(r->u.reject.reason, "cut off"));
    r = collect_nth(&c, COW_REC_REJECT, 1);
    CHECK(r && r->u.reject.line == 3 && strstr(r->u.reject.reason, "without"));
    collect_free(&c);

    /* a redis-cli error and garbage among history pairs */
    collect_init(&c);
    CHECK_INT(parse_mem(&cow_parser_latency_monitor, "latency-history-fork.txt",
                        "1738591331\n41\n1738591332\n40\n1738591333\n39\n"
                        "1738591334\n38\n1738591335\n37\n1738591336\n36\n"
                        "Could not connect to Redis at 127.0.0.1:6379: refused\n"
                        "99\n5\n", &c, &e), COW_OK);
    CHECK_INT(collect_count(&c, COW_REC_LATMON), 6);
    CHECK_INT(c.nrejects, 2);
    CHECK(lm_is(lm(&c, 5), "history", "fork", 1738591336, 36, NAN, 11));
    collect_free(&c);

    /* nothing but garbage: refused whole */
    collect_init(&c);
    CHECK_INT(parse_mem(&cow_parser_latency_monitor, "x.txt",
                        "hello world\n(error) ERR unknown\n!!\n", &c, &e), COW_EPARSE);
    collect_free(&c);
    collect_init(&c);
    CHECK_INT(parse_mem(&cow_parser_latency_monitor, "x.txt", "", &c, &e), COW_EPARSE);
    CHECK_INT(parse_mem(&cow_parser_latency_monitor, "x.txt", "[[\"fork\",\n", &c, &e),
              COW_EPARSE);
    CHECK_INT(parse_mem(&cow_parser_latency_monitor, "x.txt", "1) 1) \"\n", &c, &e),
              COW_EPARSE);
    collect_free(&c);
}

/* ---------------------------------------------------------------- --latency */

static void clilat_should_read_piped_latency_history(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;
    const int64_t t0 = INT64_C(1796026520000000);
    const cow_interval *i;

    collect_init(&c);
    CHECK_INT(parse_file_t0(&cow_parser_cli_latency, "clilat/history-raw.txt", t0,
                            &c, &e), COW_OK);
    CHECK_INT(c.nrejects, 0);
    CHECK_INT(collect_count(&c, COW_REC_INTERVAL), 4);
    i = iv(&c, 0);
    CHECK(i && i->min_us == 0 && i->max_us == 1000 && fabs(i->avg_us - 50) < 1e-9 &&
          i->count == 100 && i->dur_s == 1.01 && i->line == 100 &&
          i->t_us == t0 + 1010000);
    i = iv(&c, 1);
    CHECK(i && i->count == 99 && fabs(i->avg_us - 30) < 1e-9 && i->t_us == t0 + 2010000);
    i = iv(&c, 2);
    CHECK(i && i->t_us == t0 + 3010000 && i->line == 300);
    i = iv(&c, 3); /* stopped capture: estimated length 46 x 10 ms */
    CHECK(i && i->count == 46 && i->max_us == 0 && fabs(i->dur_s - 0.46) < 1e-9 &&
          i->line == 347);
    CHECK(find_note(&c, "interval_estimated") != NULL);
    CHECK(find_note(&c, "latency_resolution") != NULL);
    CHECK_STR(find_note(&c, "clilat_shape"), "piped");
    collect_free(&c);
}

static void clilat_should_read_terminal_csv_and_json(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;
    const int64_t t0 = INT64_C(1796026520000000);

    collect_init(&c);
    CHECK_INT(parse_file_t0(&cow_parser_cli_latency, "clilat/history-tty.txt", t0,
                            &c, &e), COW_OK);
    CHECK_INT(c.nrejects, 0);
    CHECK_INT(collect_count(&c, COW_REC_INTERVAL), 4);
    CHECK(iv(&c, 0) && iv(&c, 0)->max_us == 3000 && fabs(iv(&c, 0)->avg_us - 230) < 1e-9 &&
          iv(&c, 0)->count == 97 && iv(&c, 0)->dur_s == 1.00 && iv(&c, 0)->line == 1);
    CHECK(iv(&c, 1) && iv(&c, 1)->count == 98 && iv(&c, 1)->t_us == t0 + 2010000);
    CHECK(iv(&c, 3) && iv(&c, 3)->count == 46 && iv(&c, 3)->line == 4);
    CHECK_STR(find_note(&c, "clilat_shape"), "terminal");
    collect_free(&c);

    /* plain --latency on a terminal: one running line, never closed */
    collect_init(&c);
    CHECK_INT(parse_file_t0(&cow_parser_cli_latency, "clilat/latency-tty.txt", t0,
                            &c, &e), COW_OK);
    CHECK_INT(collect_count(&c, COW_REC_INTERVAL), 1);
    CHECK(iv(&c, 0) && iv(&c, 0)->count == 238 && iv(&c, 0)->max_us == 2000 &&
          fabs(iv(&c, 0)->dur_s - 238 * 0.01015) < 1e-9);
    collect_free(&c);

    collect_init(&c);
    CHECK_INT(parse_file_t0(&cow_parser_cli_latency, "clilat/history-csv.txt", t0,
                            &c, &e), COW_OK);
    CHECK(iv(&c, 1) && iv(&c, 1)->count == 99 && iv(&c, 1)->dur_s == 1.01 &&
          iv(&c, 1)->line == 199);
    CHECK_STR(find_note(&c, "clilat_shape"), "--csv");
    collect_free(&c);

    collect_init(&c);
    CHECK_INT(parse_file_t0(&cow_parser_cli_latency, "clilat/history-json.txt", t0,
                            &c, &e), COW_OK);
    CHECK(iv(&c, 0) && fabs(iv(&c, 0)->avg_us - 110) < 1e-9 && iv(&c, 0)->count == 99);
    CHECK_INT(collect_count(&c, COW_REC_INTERVAL), 3);
    collect_free(&c);

    collect_init(&c);
    CHECK_INT(parse_file_t0(&cow_parser_cli_latency, "clilat/latency-raw.txt", t0,
                            &c, &e), COW_OK);
    CHECK(iv(&c, 0) && iv(&c, 0)->count == 100 && fabs(iv(&c, 0)->avg_us - 40) < 1e-9);
    collect_free(&c);
}

static void clilat_should_need_a_clock(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;

    collect_init(&c);
    CHECK_INT(parse_file(&cow_parser_cli_latency, "clilat/history-raw.txt", &c, &e),
              COW_EUNIT);
    CHECK(strstr(e.msg, "--t0") != NULL && strstr(e.msg, "\"t0\"") != NULL);
    CHECK(strstr(e.msg, "`cowtail capture`") != NULL); /* the way to a clock */
    CHECK(strstr(e.path, "history-raw.txt") != NULL);
    CHECK_INT(collect_count(&c, COW_REC_INTERVAL), 0);
    collect_free(&c);

    /* a stamp in the file name places it */
    collect_init(&c);
    CHECK_INT(parse_mem(&cow_parser_cli_latency, "latency-history-1738591331.txt",
                        "0 1 0.50 2\n -- 1.00 seconds range\n", &c, &e), COW_OK);
    CHECK(iv(&c, 0) && iv(&c, 0)->t_us == INT64_C(1738591332000000));
    collect_free(&c);
}

/* A script(1) typescript: its header is the start, header and trailer
 * are not rejects. */
static void clilat_should_take_the_start_from_a_typescript(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;

    collect_init(&c);
    CHECK_INT(parse_file(&cow_parser_cli_latency, "clilat/history-typescript.txt", &c, &e),
              COW_OK);
    CHECK_INT(c.nrejects, 0);
    CHECK(collect_count(&c, COW_REC_INTERVAL) >= 3);
    /* Script started on 2026-12-03 06:53:28+00:00; the first interval
     * closes 1.01 s later (its " -- 1.01 seconds range") */
    CHECK(iv(&c, 0) && iv(&c, 0)->t_us == INT64_C(1796280808000000) + 1010000);
    collect_free(&c);

    /* the older header names the zone; a local one cannot be used */
    collect_init(&c);
    CHECK_INT(parse_mem(&cow_parser_cli_latency, "lat.txt",
                        "Script started on Thu 03 Dec 2026 06:53:28 AM UTC\n"
                        "0 1 0.50 2\n -- 1.00 seconds range\n"
                        "Script done on Thu 03 Dec 2026 06:53:30 AM UTC\n", &c, &e), COW_OK);
    CHECK_INT(c.nrejects, 0);
    CHECK(iv(&c, 0) && iv(&c, 0)->t_us == INT64_C(1796280809000000));
    collect_free(&c);
    collect_init(&c);
    CHECK_INT(parse_mem(&cow_parser_cli_latency, "lat.txt",
                        "Script started on Thu 03 Dec 2026 06:53:28 AM CET\n"
                        "0 1 0.50 2\n -- 1.00 seconds range\n", &c, &e), COW_EUNIT);
    CHECK(strstr(e.msg, "script(1) header") != NULL && strstr(e.msg, "--t0") != NULL);
    collect_free(&c);
}

static void clilat_should_reject_bad_lines_not_crash(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;
    const cow_rec *r;
    char buf[2048];
    int k;

    /* real capture cut at 4096 bytes by block buffering */
    collect_init(&c);
    CHECK_INT(parse_file_t0(&cow_parser_cli_latency, "clilat/history-raw-cut4096.txt",
                            INT64_C(1796026520000000), &c, &e), COW_OK);
    CHECK_INT(c.nrejects, 1);
    r = collect_nth(&c, COW_REC_REJECT, 0);
    CHECK(r && r->u.reject.line == 342 && strstr(r->u.reject.reason, "cut off"));
    CHECK_INT(collect_count(&c, COW_REC_INTERVAL), 4);
    CHECK(iv(&c, 0) && iv(&c, 0)->count == 99 && iv(&c, 0)->line == 99);
    CHECK(iv(&c, 3) && iv(&c, 3)->count == 43);
    collect_free(&c);

    /* garbage and inconsistent figures; a range with nothing before it */
    collect_init(&c);
    strcpy(buf, " -- 1.00 seconds range\r\n");
    for (k = 1; k <= 30; k++)
        snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "0 1 0.50 %d\r\n", k);
    strcat(buf, "5 1 0.50 31\r\nhello\r\n -- 1.00 seconds range\r\n");
    CHECK_INT(parse_mem(&cow_parser_cli_latency, "latency-1738591331.txt", buf,
                        &c, &e), COW_OK);
    CHECK_INT(c.nrejects, 3);
    CHECK_INT(collect_count(&c, COW_REC_INTERVAL), 1);
    CHECK(iv(&c, 0) && iv(&c, 0)->count == 30 && iv(&c, 0)->line == 31);
    r = collect_nth(&c, COW_REC_REJECT, 1);
    CHECK(r && r->u.reject.line == 32 && strstr(r->u.reject.reason, "inconsistent"));
    collect_free(&c);

    collect_init(&c);
    CHECK_INT(parse_mem(&cow_parser_cli_latency, "latency-1738591331.txt",
                        "what\nis\nthis\n", &c, &e), COW_EPARSE);
    CHECK_INT(parse_mem(&cow_parser_cli_latency, "latency-1738591331.txt", "", &c, &e),
              COW_EPARSE);
    CHECK_INT(parse_mem(&cow_parser_cli_latency, "latency-1738591331.txt",
                        "\x1b[0G\x1b[2Kmin: 0, max\x1b[", &c, &e), COW_EPARSE);
    collect_free(&c);
}

/* ---------------------------------------------------------------- sniff */

/* LATENCY HISTOGRAM as the capture saves it (piped: "info" and "ping"
 * alone on a line are command names, not a transcript's echoes) and as
 * the terminal prints it (RESP2, with CR LF), real replies of
 * redis-server 7.0.15; a count that falls rejects its command only. */
static const cow_stat *hist_row(const collect *c, const char *cmd, const char *text)
{
    size_t i;
    for (i = 0; i < c->n; i++) {
        const cow_stat *s = &c->recs[i].u.stat;
        if (c->recs[i].kind == COW_REC_STAT && strcmp(s->source, "latency-histogram") == 0 &&
            strcmp(s->key, cmd) == 0 && strcmp(s->text, text) == 0)
            return s;
    }
    return NULL;
}

static void latmon_should_read_latency_histogram(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;
    const cow_stat *s;

    collect_init(&c);
    CHECK_INT(parse_file(&cow_parser_latency_monitor, "latmon/histogram-raw.txt", &c, &e), COW_OK);
    CHECK_INT((long)c.nrejects, 0);
    CHECK((s = hist_row(&c, "info", "calls")) != NULL && s->num == 34);
    CHECK((s = hist_row(&c, "ping", "calls")) != NULL);
    CHECK((s = hist_row(&c, "keys", "calls")) != NULL && s->num == 3 && s->line == 91);
    CHECK((s = hist_row(&c, "keys", "135266")) != NULL && s->num == 3);
    CHECK((s = hist_row(&c, "set", "8454")) != NULL && s->num == 15994);
    CHECK_STR(find_note(&c, "latency_sections"), "histogram");
    collect_free(&c);

    collect_init(&c);
    CHECK_INT(parse_file(&cow_parser_latency_monitor, "latmon/histogram-tty.txt", &c, &e), COW_OK);
    CHECK_INT((long)c.nrejects, 0);
    CHECK((s = hist_row(&c, "set", "calls")) != NULL && s->num == 20000);
    CHECK((s = hist_row(&c, "get", "66")) != NULL && s->num == 20000);
    collect_free(&c);

    /* RESP3 (redis-cli -3): piped, a level per line; in a terminal, "N#"
     * markers and "=>"; the same entries as RESP2 */
    collect_init(&c);
    CHECK_INT(parse_file(&cow_parser_latency_monitor, "latmon/histogram-resp3-raw.txt", &c, &e),
              COW_OK);
    CHECK_INT((long)c.nrejects, 0);
    CHECK((s = hist_row(&c, "get", "calls")) != NULL && s->num == 20001);
    CHECK((s = hist_row(&c, "get", "33")) != NULL && s->num == 20001);
    CHECK((s = hist_row(&c, "config|get", "4")) != NULL && s->num == 1);
    CHECK((s = hist_row(&c, "hello", "66")) != NULL && s->num == 5);
    collect_free(&c);
    collect_init(&c);
    CHECK_INT(parse_file(&cow_parser_latency_monitor, "latmon/histogram-resp3-tty.txt", &c, &e),
              COW_OK);
    CHECK_INT((long)c.nrejects, 0);
    CHECK((s = hist_row(&c, "set", "calls")) != NULL && s->num == 20301);
    CHECK((s = hist_row(&c, "set", "1")) != NULL && s->num == 20195);
    CHECK((s = hist_row(&c, "get", "calls")) != NULL);
    collect_free(&c);

    /* a header with the commands asked for; the count of "get" falls */
    collect_init(&c);
    CHECK_INT(parse_mem(&cow_parser_latency_monitor, "lh.txt",
                        "127.0.0.1:6379> latency histogram set get\n"
                        "set\ncalls\n10\nhistogram_usec\n1\n8\n4\n10\n"
                        "get\ncalls\n10\nhistogram_usec\n1\n9\n2\n7\n"
                        "config|get\ncalls\n1\nhistogram_usec\n16\n1\n",
                        &c, &e), COW_OK);
    CHECK_INT((long)c.nrejects, 1);
    CHECK(hist_row(&c, "set", "4") != NULL);
    CHECK(hist_row(&c, "get", "calls") == NULL);
    CHECK(hist_row(&c, "config|get", "16") != NULL);
    collect_free(&c);
}

static void latency_files_should_be_detected_by_content(void)
{
    static const struct { const char *file, *parser; } cases[] = {
        {"latmon/latency-report.txt", "redis-latency"},
        {"latmon/latency-report-tty.txt", "redis-latency"},
        {"latmon/seed000-shape.txt", "redis-latency"},
        {"latmon/latest-raw.txt", "redis-latency"},
        {"latmon/latest-tty.txt", "redis-latency"},
        {"latmon/latest-csv.txt", "redis-latency"},
        {"latmon/latest-json.txt", "redis-latency"},
        {"latmon/latency-history-command.txt", "redis-latency"},
        {"latmon/latency-history-fork.tty.txt", "redis-latency"},
        {"latmon/latency-history-aof-write.txt", "redis-latency"},
        {"latmon/doctor-none.txt", "redis-latency"},
        {"latmon/doctor-disabled.txt", "redis-latency"},
        {"latmon/doctor-spikes.txt", "redis-latency"},
        {"latmon/histogram-raw.txt", "redis-latency"},
        {"latmon/histogram-tty.txt", "redis-latency"},
        {"latmon/histogram-resp3-raw.txt", "redis-latency"},
        {"latmon/histogram-resp3-tty.txt", "redis-latency"},
        {"clilat/history-raw.txt", "redis-cli-latency"},
        {"clilat/history-raw-cut4096.txt", "redis-cli-latency"},
        {"clilat/history-tty.txt", "redis-cli-latency"},
        {"clilat/latency-tty.txt", "redis-cli-latency"},
        {"clilat/history-csv.txt", "redis-cli-latency"},
        {"clilat/history-json.txt", "redis-cli-latency"},
        {"clilat/latency-raw.txt", "redis-cli-latency"},
    };
    size_t i;
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const char *got = fixture_detect(cases[i].file);
        if (strcmp(got, cases[i].parser) != 0)
            fprintf(stderr, "%s: detected as %s\n", cases[i].file, got);
        CHECK_STR(got, cases[i].parser);
    }
}

int main(void)
{
    RUN(latmon_should_read_a_report_with_headers);
    RUN(latmon_should_read_the_terminal_shape);
    RUN(latmon_should_read_every_latest_shape);
    RUN(latmon_should_name_history_events_from_file_names);
    RUN(latmon_should_see_when_the_doctor_saw_nothing);
    RUN(latmon_should_join_wrapped_doctor_lines);
    RUN(latmon_should_read_the_seed_000_shape);
    RUN(latmon_should_reject_bad_lines_not_crash);
    RUN(clilat_should_read_piped_latency_history);
    RUN(clilat_should_read_terminal_csv_and_json);
    RUN(clilat_should_need_a_clock);
    RUN(clilat_should_take_the_start_from_a_typescript);
    RUN(clilat_should_reject_bad_lines_not_crash);
    RUN(latmon_should_read_latency_histogram);
    RUN(latency_files_should_be_detected_by_content);
    return REPORT();
}
