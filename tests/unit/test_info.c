/* test_info.c -- the redis-info and redis-config parsers and the stamp
 * helpers, on real captures from Debian's redis-server 7.0.15 (see
 * tests/data/info/README.md) and on small malformed inputs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collect.h"
#include "formats.h"
#include "stamp.h"
#include "fixture.h"
#include "minunit.h"
#include "timeconv.h"

/* ---------------------------------------------------------------- helpers */

/* Parse a fixture; fname is the base name the parser sees. */
static int parse_file(const cow_parser *p, const char *rel, collect *c,
                      cow_err *e)
{
    cow_parse_opts o;
    cow_src s;
    cow_sink k = collect_sink(c);
    const char *slash = strrchr(rel, '/');
    int rc;

    memset(&o, 0, sizeof(o));
    o.fname = slash ? slash + 1 : rel;
    if ((rc = src_open_file(&s, fixture_path(rel), e)) != COW_OK)
        return rc;
    rc = p->parse(&s, &o, &k, e);
    src_close(&s);
    return rc;
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

/* The info record of key (and sub, NULL for the main one) in dump. */
static const cow_info *find_info(const collect *c, int dump, const char *key,
                                 const char *sub)
{
    size_t i;
    for (i = 0; i < c->n; i++) {
        const cow_info *f = &c->recs[i].u.info;
        if (c->recs[i].kind != COW_REC_INFO || f->dump != dump ||
            strcmp(f->key, key) != 0)
            continue;
        if ((sub == NULL && f->sub == NULL) ||
            (sub != NULL && f->sub != NULL && strcmp(sub, f->sub) == 0))
            return f;
    }
    return NULL;
}

static const char *find_note(const collect *c, const char *key)
{
    size_t i;
    for (i = 0; i < c->n; i++)
        if (c->recs[i].kind == COW_REC_NOTE && strcmp(c->recs[i].u.note.key, key) == 0)
            return c->recs[i].u.note.value;
    return NULL;
}

static int sniff_file(const cow_parser *p, const char *rel)
{
    static char head[COW_SNIFF_BYTES];
    FILE *fp = fopen(fixture_path(rel), "rb");
    size_t n;
    const char *slash = strrchr(rel, '/');
    if (fp == NULL)
        return -1;
    n = fread(head, 1, sizeof(head), fp);
    fclose(fp);
    return p ? p->sniff(slash + 1, head, n)
             : (parser_detect(slash + 1, head, n) == NULL ? -2 : 0);
}

/* ---------------------------------------------------------------- stamps */

static void info_should_parse_stamp_lines(void)
{
    static const struct { const char *line; int rc; int64_t us; } cases[] = {
        /* 1.x epochs by magnitude */
        {"1738591331", 1, INT64_C(1738591331000000)},
        {"# ts=1738591331532", 1, INT64_C(1738591331532000)},
        {"ts: 1738591331532123", 1, INT64_C(1738591331532123)},
        {"t=1738591331532123456", 1, INT64_C(1738591331532123)},
        {"time=1738591331.5", 1, INT64_C(1738591331500000)},
        {"# 1738591331532", 1, INT64_C(1738591331532000)},
        /* 2.x ISO 8601 */
        {"2025-02-03T14:02:11.532Z", 1, INT64_C(1738591331532000)},
        {"=== 2025-02-03 15:02:11+01:00 ===", 1, INT64_C(1738591331000000)},
        {"[2025-02-03T14:02:11Z]", 1, INT64_C(1738591331000000)},
        /* 3.x date(1) */
        {"Mon Feb  3 14:02:11 UTC 2025", 1, INT64_C(1738591331000000)},
        {"Mon Feb  3 02:02:11 PM UTC 2025", 1, INT64_C(1738591331000000)},
        {"Mon, 03 Feb 2025 14:02:11 +0000", 1, INT64_C(1738591331000000)},
        {"date: Mon Feb 3 15:02:11 +0100 2025", 1, INT64_C(1738591331000000)},
        /* a label and blanks before the time (the user's own harness) */
        {"# ts 2025-02-03T14:02:11Z", 1, INT64_C(1738591331000000)},
        {"# ts 1738591331532", 1, INT64_C(1738591331532000)},
        {"# date Mon Feb  3 14:02:11 UTC 2025", 1, INT64_C(1738591331000000)},
        {"# time  2025-02-03 14:02:11.5Z", 1, INT64_C(1738591331500000)},
        /* 4.x unusable stamps */
        {"Mon Feb  3 14:02:11 CET 2025", -1, 0},
        {"Mon Feb  3 14:02:11 2025", -1, 0},
        {"ts=12", -1, 0},
        {"Mon Feb 31 14:02:11 UTC 2025", -1, 0},     /* not 3 March */
        {"2025-02-31T14:02:11Z", -1, 0},
        /* 5.x not stamps */
        {"# Server", 0, 0},
        {"# at least one", 0, 0},    /* a label and blanks, but no stamp */
        {"# ts", 0, 0},
        {"used_memory:412337152", 0, 0},
        {"12345678901", 0, 0},
        {"rdb_last_save_time:1796026502", 0, 0},
        {"", 0, 0},
    };
    size_t i;
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        int64_t us = 0;
        const char *why = NULL;
        int rc = info_stamp_parse(cases[i].line, strlen(cases[i].line), &us, &why);
        if (rc != cases[i].rc)
            fprintf(stderr, "case %zu: '%s'\n", i, cases[i].line);
        CHECK_INT(rc, cases[i].rc);
        if (rc == 1)
            CHECK_INT(us, cases[i].us);
        if (rc < 0)
            CHECK(why != NULL);
    }
}

static void info_should_find_stamps_in_file_names(void)
{
    int64_t us = 0;
    CHECK(info_name_stamp("info-1738591331532.txt", "info", &us));
    CHECK_INT(us, INT64_C(1738591331532000));
    CHECK(info_name_stamp("/x/INFO_1738591331.txt", "info", &us));
    CHECK_INT(us, INT64_C(1738591331000000));
    CHECK(!info_name_stamp("info-17385913315.txt", "info", &us)); /* 11 digits */
    CHECK(!info_name_stamp("myinfo-1738591331.txt", "info", &us));
    CHECK(!info_name_stamp("info-1738591331x.txt", "info", &us));
    CHECK(info_name_stamp("lat-hist_1738591331532_a.txt", NULL, &us));
    CHECK_INT(us, INT64_C(1738591331532000));
    CHECK(!info_name_stamp("run7-latency.txt", NULL, &us));
}

/* ---------------------------------------------------------------- dumps */

static void info_should_read_a_real_single_dump(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;
    const cow_info *f;

    collect_init(&c);
    CHECK_INT(parse_file(&cow_parser_redis_info, "info/info-1796026562885.txt",
                         &c, &e), COW_OK);
    CHECK_INT(c.nrejects, 0);
    f = find_info(&c, 0, "rdb_last_cow_size", NULL);
    CHECK(f != NULL);
    if (f) {
        CHECK_NEAR(f->num, 335028224.0, 0);
        CHECK_STR(f->section, "Persistence");
        CHECK_STR(f->text, "335028224");
        CHECK_INT(f->line, 106);
        CHECK_INT(f->t_us, INT64_C(1796026562892416)); /* server_time_usec */
    }
    f = find_info(&c, 0, "latest_fork_usec", NULL);
    CHECK(f && f->num == 10060.0 && strcmp(f->section, "Stats") == 0);
    f = find_info(&c, 0, "used_memory_human", NULL);
    CHECK(f && fabs(f->num - 671.16 * 1048576.0) < 1e-3);
    f = find_info(&c, 0, "used_memory", NULL);
    CHECK(f && f->num == 703758672.0);
    f = find_info(&c, 0, "used_memory_peak_perc", NULL);
    CHECK(f && f->num == 100.0 && strcmp(f->text, "100.00%") == 0);
    f = find_info(&c, 0, "maxmemory_human", NULL);
    CHECK(f && f->num == 0.0);
    f = find_info(&c, 0, "run_id", NULL);
    CHECK(f && isnan(f->num) && strcmp(f->text, "99dee8ea59417ed7ad47c6a7fe2723273330a0ed") == 0);
    f = find_info(&c, 0, "db0", NULL);
    CHECK(f && isnan(f->num) && strcmp(f->text, "keys=3650159,expires=0,avg_ttl=0") == 0);
    f = find_info(&c, 0, "db0", "keys");
    CHECK(f && f->num == 3650159.0 && strcmp(f->section, "Keyspace") == 0 && f->line == 229);
    f = find_info(&c, 0, "db0", "avg_ttl");
    CHECK(f && f->num == 0.0);
    f = find_info(&c, 0, "cmdstat_set", "usec_per_call");
    CHECK(f && f->num == 2.09);
    f = find_info(&c, 0, "latency_percentiles_usec_set", "p99.9");
    CHECK(f && f->num == 47.103 && strcmp(f->section, "Latencystats") == 0);
    CHECK(find_note(&c, "info_clock") == NULL); /* file name is 7 ms away */
    CHECK_STR(find_note(&c, "info_dumps"), "1 INFO dump; placed by "
              "server_time_usec: 1, timestamp line: 0, file name: 0");
    collect_free(&c);
}

static void info_should_place_a_series_by_server_time(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;
    const cow_info *f;
    static const int64_t t[3] = {INT64_C(1796026557024637),
        INT64_C(1796026557661237), INT64_C(1796026558277482)};
    static const double bgsave[3] = {0, 1, 1};
    int d;

    collect_init(&c);
    CHECK_INT(parse_file(&cow_parser_redis_info, "info/series3-iso.txt", &c, &e),
              COW_OK);
    CHECK_INT(c.nrejects, 0);
    for (d = 0; d < 3; d++) {
        f = find_info(&c, d, "rdb_bgsave_in_progress", NULL);
        CHECK(f != NULL);
        if (f) {
            CHECK_INT(f->t_us, t[d]);
            CHECK_NEAR(f->num, bgsave[d], 0);
        }
    }
    f = find_info(&c, 2, "current_cow_size", NULL);
    CHECK(f && f->num == 2400256.0 && f->line == 417);
    f = find_info(&c, 1, "db0", "keys");
    CHECK(f && f->num == 3572536.0);
    CHECK(find_info(&c, 3, "db0", NULL) == NULL);
    CHECK_STR(find_note(&c, "info_dumps"), "3 INFO dumps; placed by "
              "server_time_usec: 3, timestamp line: 0, file name: 0");
    CHECK(find_note(&c, "restart") == NULL);
    collect_free(&c);

    /* date(1) stamp lines before each dump, default INFO sections */
    collect_init(&c);
    CHECK_INT(parse_file(&cow_parser_redis_info, "info/series3-date.txt", &c, &e),
              COW_OK);
    f = find_info(&c, 0, "server_time_usec", NULL);
    CHECK(f && f->t_us == INT64_C(1796026499632971));
    f = find_info(&c, 1, "rdb_bgsave_in_progress", NULL);
    CHECK(f && f->num == 1.0 && f->line == 305);
    CHECK(find_note(&c, "info_clock") == NULL); /* date -u agrees within 2 s */
    collect_free(&c);

    /* '# ts=<ms>' lines, INFO all */
    collect_init(&c);
    CHECK_INT(parse_file(&cow_parser_redis_info, "info/series2-ts.txt", &c, &e),
              COW_OK);
    f = find_info(&c, 1, "rdb_last_cow_size", NULL);
    CHECK(f && f->line == 331 && f->t_us == INT64_C(1796026499651342));
    collect_free(&c);
}

static void info_should_refuse_a_series_it_cannot_place(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;

    collect_init(&c);
    CHECK_INT(parse_file(&cow_parser_redis_info,
                         "info/series2-nostamp-derived.txt", &c, &e), COW_EUNIT);
    CHECK_INT(e.line, 1); /* dump 0 cannot be placed once dump 1 begins */
    CHECK(strstr(e.path, "series2-nostamp-derived.txt") != NULL);
    CHECK(strstr(e.msg, "server_time_usec") != NULL);
    CHECK(strstr(e.msg, "# ts=") != NULL);
    CHECK(strstr(e.msg, "info-<epoch_ms>.txt") != NULL);
    collect_free(&c);
}

static void info_should_place_by_stamp_lines_and_file_names(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;
    const cow_info *f;

    collect_init(&c);
    CHECK_INT(parse_mem(&cow_parser_redis_info, "series.txt",
                        "# ts=1738591331532\n# Persistence\r\nrdb_bgsave_in_progress:0\r\n"
                        "\r\n# ts=1738591332532\n# Persistence\r\n"
                        "rdb_bgsave_in_progress:1\r\n", &c, &e), COW_OK);
    f = find_info(&c, 0, "rdb_bgsave_in_progress", NULL);
    CHECK(f && f->t_us == INT64_C(1738591331532000) && f->num == 0);
    f = find_info(&c, 1, "rdb_bgsave_in_progress", NULL);
    CHECK(f && f->t_us == INT64_C(1738591332532000) && f->num == 1 && f->line == 7);
    collect_free(&c);

    /* file-name stamp for a single dump without server_time_usec */
    collect_init(&c);
    CHECK_INT(parse_mem(&cow_parser_redis_info, "info-1738591331532.txt",
                        "# Persistence\nrdb_last_cow_size:12\n", &c, &e), COW_OK);
    f = find_info(&c, 0, "rdb_last_cow_size", NULL);
    CHECK(f && f->t_us == INT64_C(1738591331532000) && strcmp(f->section, "Persistence") == 0);
    collect_free(&c);

    /* nothing to place it: a single dump is kept at t=0, with a note */
    collect_init(&c);
    CHECK_INT(parse_mem(&cow_parser_redis_info, "grep.txt",
                        "rdb_last_cow_size:33640448\nrdb_last_bgsave_time_sec:3\n",
                        &c, &e), COW_OK);
    f = find_info(&c, 0, "rdb_last_cow_size", NULL);
    CHECK(f && f->t_us == 0 && strcmp(f->section, "") == 0 && f->num == 33640448.0);
    CHECK(find_note(&c, "info_time") != NULL);
    collect_free(&c);
}

static void info_should_note_restarts_and_clock_disagreement(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;

    collect_init(&c);
    CHECK_INT(parse_mem(&cow_parser_redis_info, "x.txt",
                        "ts=1738591331000\n# Server\nrun_id:aaaa\nprocess_id:7\n"
                        "server_time_usec:1738591331100000\n"
                        "ts=1738591341000\n# Server\nrun_id:bbbb\nprocess_id:9\n"
                        "server_time_usec:1738591351000000\n", &c, &e), COW_OK);
    CHECK(find_note(&c, "restart") != NULL);
    CHECK(find_note(&c, "restart") && strstr(find_note(&c, "restart"), "dump 1") != NULL);
    CHECK(find_note(&c, "info_clock") != NULL); /* dump 1: 10 s apart */
    CHECK(find_note(&c, "info_clock") && strstr(find_note(&c, "info_clock"), "dump 1") != NULL);
    CHECK(find_info(&c, 1, "run_id", NULL) &&
          find_info(&c, 1, "run_id", NULL)->t_us == INT64_C(1738591351000000));
    collect_free(&c);
}

static void info_should_convert_value_shapes(void)
{
    static const struct { const char *line; double num; } cases[] = {
        {"a:-1", -1}, {"a:1.07", 1.07}, {"a:87.12%", 87.12},
        {"a:393.24M", 393.24 * 1048576.0}, {"a:1000B", 1000},
        {"a:2.00G", 2.0 * 1073741824.0}, {"a:1.50K", 1536},
        {"a:jemalloc-5.3.0", NAN}, {"a:", NAN}, {"a:ok", NAN},
        {"a:Linux 6.1.0-18-amd64 x86_64", NAN}, {"a:12e", NAN},
    };
    size_t i;
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        collect c;
        cow_err e = COW_ERR_INIT;
        char buf[128];
        const cow_info *f;
        snprintf(buf, sizeof(buf), "%s\n", cases[i].line);
        collect_init(&c);
        CHECK_INT(parse_mem(&cow_parser_redis_info, "v.txt", buf, &c, &e), COW_OK);
        f = find_info(&c, 0, "a", NULL);
        CHECK(f != NULL);
        if (f && isnan(cases[i].num))
            CHECK(isnan(f->num));
        else if (f)
            CHECK_NEAR(f->num, cases[i].num, 1e-6);
        collect_free(&c);
    }
}

static void info_should_split_replica_lines(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;
    const cow_info *f;

    collect_init(&c);
    CHECK_INT(parse_mem(&cow_parser_redis_info, "r.txt",
                        "# Replication\r\nslave0:ip=::1,port=6380,state=online,"
                        "offset=8812345,lag=0\r\nerrorstat_ERR:count=3\r\n", &c, &e),
              COW_OK);
    f = find_info(&c, 0, "slave0", "ip");
    CHECK(f && strcmp(f->text, "::1") == 0 && isnan(f->num));
    f = find_info(&c, 0, "slave0", "offset");
    CHECK(f && f->num == 8812345.0);
    f = find_info(&c, 0, "slave0", "state");
    CHECK(f && strcmp(f->text, "online") == 0);
    f = find_info(&c, 0, "errorstat_ERR", "count");
    CHECK(f && f->num == 3);
    collect_free(&c);
}

/* ---------------------------------------------------------------- bad input */

static void info_should_reject_bad_lines_not_crash(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;
    const cow_rec *r;
    char big[4096];
    int i;

    /* garbage line and a cut-off last line among good ones */
    collect_init(&c);
    strcpy(big, "# Persistence\r\n");
    for (i = 0; i < 30; i++)
        snprintf(big + strlen(big), sizeof(big) - strlen(big), "f%d:%d\r\n", i, i);
    strcat(big, "Could not connect to Redis at 127.0.0.1:6379: Connection refused\n"
                "Error: Server closed the connection\nrdb_last_cow_size:3364");
    CHECK_INT(parse_mem(&cow_parser_redis_info, "b.txt", big, &c, &e), COW_OK);
    CHECK_INT(c.nrejects, 3);
    r = collect_nth(&c, COW_REC_REJECT, 0);
    CHECK(r && r->u.reject.line == 32 && strstr(r->u.reject.reason, "not an INFO line"));
    r = collect_nth(&c, COW_REC_REJECT, 1);
    CHECK(r && r->u.reject.line == 33 && strstr(r->u.reject.reason, "blank"));
    r = collect_nth(&c, COW_REC_REJECT, 2);
    CHECK(r && r->u.reject.line == 34 && strstr(r->u.reject.reason, "cut off"));
    CHECK(find_info(&c, 0, "rdb_last_cow_size", NULL) == NULL);
    CHECK(find_info(&c, 0, "f29", NULL) != NULL);
    collect_free(&c);

    /* a stamp in a named zone is rejected, and the series cannot be placed */
    collect_init(&c);
    CHECK_INT(parse_mem(&cow_parser_redis_info, "z.txt",
                        "Mon Feb  3 14:02:11 CET 2025\n# Stats\na:1\n"
                        "Mon Feb  3 14:02:12 CET 2025\n# Stats\na:2\n", &c, &e),
              COW_EUNIT);
    CHECK_INT(e.line, 2);
    CHECK(c.nrejects >= 1);
    collect_free(&c);

    /* mostly garbage: refused whole */
    collect_init(&c);
    CHECK_INT(parse_mem(&cow_parser_redis_info, "g.txt",
                        "hello world\nthis is not info\nnor this\na:1\n", &c, &e),
              COW_EPARSE);
    collect_free(&c);

    /* empty and blank files: refused with a reason, no crash */
    collect_init(&c);
    CHECK_INT(parse_mem(&cow_parser_redis_info, "e.txt", "", &c, &e), COW_EPARSE);
    CHECK_INT(parse_mem(&cow_parser_redis_info, "e.txt", "\r\n\r\n# Server\r\n",
                        &c, &e), COW_EPARSE);
    CHECK_INT(parse_mem(&cow_parser_redis_info, "e.txt", ":\n::\n#\n# \n", &c, &e),
              COW_EPARSE);
    collect_free(&c);
}

/* ---------------------------------------------------------------- config */

static void config_should_read_config_get_all(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;
    const cow_info *f;

    collect_init(&c);
    CHECK_INT(parse_file(&cow_parser_redis_config, "info/config-get-all.txt",
                         &c, &e), COW_OK);
    CHECK_INT(collect_count(&c, COW_REC_INFO), 192);
    CHECK_INT(c.nrejects, 0);
    f = find_info(&c, 0, "latency-monitor-threshold", NULL);
    CHECK(f && f->num == 1.0 && strcmp(f->section, "config") == 0 && f->line == 63);
    f = find_info(&c, 0, "save", NULL);
    CHECK(f && strcmp(f->text, "") == 0 && isnan(f->num));
    f = find_info(&c, 0, "repl-diskless-sync", NULL);
    CHECK(f && strcmp(f->text, "yes") == 0);
    f = find_info(&c, 0, "appendonly", NULL);
    CHECK(f && strcmp(f->text, "no") == 0);
    f = find_info(&c, 0, "disable-thp", NULL);
    CHECK(f && strcmp(f->text, "yes") == 0);
    f = find_info(&c, 0, "maxmemory", NULL);
    CHECK(f && f->num == 0.0);
    collect_free(&c);

    collect_init(&c);
    CHECK_INT(parse_file(&cow_parser_redis_config,
                         "info/config-get-maxmemory-tty.txt", &c, &e), COW_OK);
    CHECK_INT(collect_count(&c, COW_REC_INFO), 5);
    f = find_info(&c, 0, "maxmemory-policy", NULL);
    CHECK(f && strcmp(f->text, "noeviction") == 0 && f->line == 1);
    f = find_info(&c, 0, "maxmemory-samples", NULL);
    CHECK(f && f->num == 5.0);
    collect_free(&c);

    /* a name without its value at the end is rejected */
    collect_init(&c);
    CHECK_INT(parse_mem(&cow_parser_redis_config, "c.txt",
                        "appendonly\nno\nsave\n\nmaxmemory\n0\nhz\n", &c, &e), COW_OK);
    CHECK_INT(collect_count(&c, COW_REC_INFO), 3);
    CHECK_INT(c.nrejects, 1);
    collect_free(&c);
}

/* ---------------------------------------------------------------- sniff */

static void info_should_be_sniffed_without_stealing(void)
{
    CHECK(sniff_file(&cow_parser_redis_info, "info/info-1796026562885.txt") >= 95);
    CHECK(sniff_file(&cow_parser_redis_info, "info/series3-date.txt") >= 95);
    CHECK(sniff_file(&cow_parser_redis_info, "info/series2-ts.txt") >= 95);
    CHECK_INT(cow_parser_redis_info.sniff("x", "redis_version:7.0.15\n", 21), 95);
    CHECK_INT(cow_parser_redis_info.sniff("x", "AnonHugePages:  0 kB\n", 21), 0);
    CHECK_INT(sniff_file(&cow_parser_redis_info, "info/config-get-all.txt"), 0);
    CHECK_INT(sniff_file(&cow_parser_redis_info, "latmon/latency-report.txt"), 0);
    CHECK_INT(sniff_file(&cow_parser_redis_info, "clilat/history-raw.txt"), 0);
    CHECK(sniff_file(&cow_parser_redis_config, "info/config-get-all.txt") >= 75);
    CHECK(sniff_file(&cow_parser_redis_config, "info/config-get-maxmemory-tty.txt") >= 75);
    CHECK_INT(sniff_file(&cow_parser_redis_config, "info/series3-iso.txt"), 0);
    CHECK_INT(sniff_file(&cow_parser_redis_config, "latmon/latest-raw.txt"), 0);
    CHECK_STR(fixture_detect("info/info-1796026562885.txt"), "redis-info");
    CHECK_STR(fixture_detect("info/series3-iso.txt"), "redis-info");
    CHECK_STR(fixture_detect("info/config-get-all.txt"), "redis-config");
}

/* info_peek_server_time: the key at a line's start with digits to the
 * line's end; anything else is no time. */
static int64_t peek_of(const char *text)
{
    char path[] = "/tmp/cowtail-peek-XXXXXX";
    int fd = mkstemp(path);
    int64_t us;
    FILE *f;
    if (fd < 0)
        return -1;
    f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    us = info_peek_server_time(path);
    unlink(path);
    return us;
}

static void info_peek_should_read_only_a_whole_server_time(void)
{
    CHECK_INT(peek_of("# Server\r\nserver_time_usec:1426324300000000\r\n"), 1426324300000000);
    CHECK_INT(peek_of("server_time_usec:1426324300000000"), 1426324300000000); /* no newline */
    CHECK_INT(peek_of("x_server_time_usec:1426324300000000\n"), 0);  /* not at a line's start */
    CHECK_INT(peek_of("server_time_usec:14263x\n"), 0);              /* not a number */
    CHECK_INT(peek_of("server_time_usec:\n"), 0);
    CHECK_INT(peek_of("server_time_usec:99999999999999999999999999\n"), 0); /* too long */
    CHECK_INT(peek_of(""), 0);
    CHECK_INT(info_peek_server_time("/nonexistent/info.txt"), 0);
    CHECK_INT(info_peek_server_time("/dev/null"), 0); /* not a regular file */
}

int main(void)
{
    RUN(info_should_parse_stamp_lines);
    RUN(info_peek_should_read_only_a_whole_server_time);
    RUN(info_should_find_stamps_in_file_names);
    RUN(info_should_read_a_real_single_dump);
    RUN(info_should_place_a_series_by_server_time);
    RUN(info_should_refuse_a_series_it_cannot_place);
    RUN(info_should_place_by_stamp_lines_and_file_names);
    RUN(info_should_note_restarts_and_clock_disagreement);
    RUN(info_should_convert_value_shapes);
    RUN(info_should_split_replica_lines);
    RUN(info_should_reject_bad_lines_not_crash);
    RUN(config_should_read_config_get_all);
    RUN(info_should_be_sniffed_without_stealing);
    return REPORT();
}
