/* test_wrappers.c -- what real files come wrapped in: line prefixes of
 * container platforms and collectors, terminal transcripts of redis-cli
 * sessions, and every shape of redis-cli --latency(-history).
 *
 * Fixtures: tests/data/transcript/ (live redis-server/redis-cli 7.0.15 in a
 * terminal, see the README there), tests/data/clilat/, tests/data/redislog/. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect.h"
#include "fixture.h"
#include "formats.h"
#include "minunit.h"
#include "prefix.h"
#include "timeconv.h"

static const char *note(const collect *c, const char *key)
{
    size_t j;
    for (j = 0; j < c->n; j++)
        if (c->recs[j].kind == COW_REC_NOTE && strcmp(c->recs[j].u.note.key, key) == 0)
            return c->recs[j].u.note.value;
    return NULL;
}

/* Detect and parse a fixture as ingest does (parser_detect, parser_run). */
static int ingest_fixture(const char *rel, const char *fname, const cow_parser **pp,
                          collect *c, cow_err *e)
{
    size_t n;
    char *buf = fixture_read(rel, &n);
    cow_parse_opts o;
    cow_src s;
    cow_sink k;
    int rc;

    memset(&o, 0, sizeof(o));
    o.fname = fname;
    collect_init(c);
    k = collect_sink(c);
    cow_err_clear(e);
    *pp = parser_detect(fname, buf, n < COW_SNIFF_BYTES ? n : COW_SNIFF_BYTES);
    if (*pp == NULL) {
        free(buf);
        return -1;
    }
    src_open_mem(&s, fname, buf, n);
    rc = parser_run(*pp, &s, &o, &k, e);
    src_close(&s);
    free(buf);
    return rc;
}

/* ------------------------------------------------------------ prefixes */

static void prefix_should_peel_each_wrapper_and_keep_the_rest(void)
{
    static const struct { const char *line; int kinds; int has_t; const char *rest; } cases[] = {
        {"cache_1     | 1:M 07 Jan 2023 19:16:34.747 * Ready", COW_PFX_COMPOSE, 0, "1:M 07"},
        {"redis-1  | ", COW_PFX_COMPOSE, 0, ""},
        {"2026-08-31T03:46:15.123456789Z 1:M 31 Aug", COW_PFX_STAMP, 1, "1:M 31"},
        {"2026-08-31T03:46:15+00:00 | 1:M 31 Aug", COW_PFX_STAMP, 1, "1:M 31"},
        {"redis-1  | 2026-08-31T03:46:15.5Z 1:M x", COW_PFX_COMPOSE | COW_PFX_STAMP, 1, "1:M x"},
        {"2026-08-31T03:46:15+0000 cache-7 redis-server[812]: 812:M 31", COW_PFX_JOURNAL, 1, "812:M 31"},
        {"Aug 11 20:22:51 hafen nextcloud.redis-server[209821]: 209821:C 11", COW_PFX_SYSLOG, 0, "209821:C 11"},
        {"Jul  7 21:31:57 host redis: Background saving", COW_PFX_SYSLOG, 0, "Background"},
        {"[pod/redis-0/redis] 1:M 31 Aug", COW_PFX_KUBE, 0, "1:M 31"},
    };
    static const char *const kept[] = {
        "1:M 07 Jan 2023 19:16:34.747 * Ready", "[4711] 03 Feb 14:02:11 * x",
        "2026-08-31T03:46:15Z", "2026-08-31T03:46:15 1:M no zone",
        "1738591331532,0.25", "redis_version:7.0.15", "# Server",
        "Jul  7 21:31:57 host says: hello", "| a | b |",
    };
    cow_prefix pf;
    size_t i, k;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        k = prefix_peel(cases[i].line, strlen(cases[i].line), &pf);
        CHECK_INT(pf.kinds, cases[i].kinds);
        CHECK_INT(pf.has_t, cases[i].has_t);
        CHECK(strncmp(cases[i].line + k, cases[i].rest, strlen(cases[i].rest)) == 0);
    }
    k = prefix_peel(cases[3].line, strlen(cases[3].line), &pf);
    CHECK_INT(pf.t_us, time_us_from_civil(2026, 8, 31, 3, 46, 15, 0));
    for (i = 0; i < sizeof(kept) / sizeof(kept[0]); i++) {
        CHECK_INT(prefix_peel(kept[i], strlen(kept[i]), &pf), 0);
        CHECK_INT(pf.kinds, 0);
    }
}

static void prefix_should_tell_prompts_and_echoes_from_data(void)
{
    static const char *const prompts[] = {
        "127.0.0.1:6379> info", "10.1.1.228:7001> info", "127.0.0.1:7291[2]> latency history command",
        "redis 127.0.0.1:6379> ", "not connected> ", "$ redis-cli --latency -h 10.0.0.5",
        "# valkey-cli info", "root@cache-7:~# redis-cli -p 7001 info", "$",
    };
    static const char *const data[] = {
        "# Server", "used_memory_peak_perc:39.42%", "redis_version:7.0.15", "$ ls -l",
        "min: 0, max: 1, avg: 0.36 (1413 samples) -- 15.00 seconds range", "save",
        "1) 1) \"command\"", "Latency spikes are observed", "debug", "3600 1 300 100",
    };
    static const char *const echoes[] = {"OK", "(1.00s)", "debug sleep 0.3", "LATENCY LATEST",
                                         "info", "config get maxmemory", "^C"};
    const char *cmd;
    size_t i, ncmd;

    for (i = 0; i < sizeof(prompts) / sizeof(prompts[0]); i++)
        CHECK(prefix_prompt(prompts[i], strlen(prompts[i]), &cmd, &ncmd));
    CHECK(prefix_prompt(prompts[2], strlen(prompts[2]), &cmd, &ncmd) &&
          ncmd == 23 && memcmp(cmd, "latency history command", 23) == 0);
    for (i = 0; i < sizeof(data) / sizeof(data[0]); i++) {
        CHECK(!prefix_prompt(data[i], strlen(data[i]), &cmd, &ncmd));
        CHECK(!prefix_echo(data[i], strlen(data[i])));
    }
    for (i = 0; i < sizeof(echoes) / sizeof(echoes[0]); i++)
        CHECK(prefix_echo(echoes[i], strlen(echoes[i])));
}

/* The line source skips the prefix and transcript tests on a line that
 * cannot hold either (common/src.c: line_marks); what it returns must be
 * what the tests themselves decide, line for line: the known prefixes,
 * prompts, echoes and data above, each with one character changed in
 * every way, and random lines over the characters the tests look at. */
static void source_should_peel_and_skip_as_the_tests_decide(void)
{
    static const char *const known[] = {
        "cache_1     | 1:M 07 Jan 2023 19:16:34.747 * Ready", "redis-1  | ",
        "2026-08-31T03:46:15.123456789Z 1:M 31 Aug", "2026-08-31T03:46:15+00:00 | 1:M 31 Aug",
        "2026-08-31T03:46:15+0000 cache-7 redis-server[812]: 812:M 31",
        "Jul  7 21:31:57 host redis: Background saving", "[pod/redis-0/redis] 1:M 31 Aug",
        "127.0.0.1:6379> info", "not connected> ", "$ redis-cli --latency -h 10.0.0.5",
        "root@cache-7:~# redis-cli -p 7001 info", "$", "#", "/tmp/r.sock> ping", "OK", "^C",
        "(1.00s)", "LATENCY LATEST", "1738591331002001,269,SET", "1738591331532,0.25",
        "used_memory_peak_perc:39.42%", "3600 1 300 100", "a>", "x$", "info", "ping",
        "bgsave", "bgrewriteaof", "debug sleep 0.3", "latency latest", "config get maxmemory",
        "client list", "slowlog get", "INFO persistence",
    };
    static const char alpha[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                " \t>$#%[]/|:()^-T.,@~+Z";
    size_t cap = 16u << 20, used = 0, nlines = 0, i, j, c, peeled = 0, prompts = 0, bad = 0;
    char *buf = malloc(cap), line[80];
    unsigned long long x = 88172645463325252ULL;
    cow_src s;
    cow_line ln;
    cow_err e = COW_ERR_INIT;
    size_t pos;

#define ADD(p, n) do { if (used + n + 1 > cap) abort(); memcpy(buf + used, p, n); used += n; buf[used++] = '\n'; nlines++; } while (0)
    for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
        size_t n = strlen(known[i]);
        ADD(known[i], n);
        for (j = 0; j < n; j++)
            for (c = 0; c + 1 < sizeof(alpha); c++) {
                memcpy(line, known[i], n);
                line[j] = alpha[c];
                ADD(line, n);
            }
    }
    for (i = 0; i < 20000; i++) {
        size_t n;
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        n = 1 + (size_t)(x % 40);
        for (j = 0; j < n; j++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            line[j] = alpha[x % (sizeof(alpha) - 1)];
        }
        ADD(line, n);
    }
#undef ADD
    CHECK(used < cap);
    src_open_mem(&s, "mixed.txt", buf, used);
    pos = 0;
    for (i = 0; i < nlines; i++) {
        const char *p = buf + pos, *rest, *cmd;
        size_t n = (size_t)((const char *)memchr(p, '\n', used - pos) - p), k, nrest, ncmd;
        cow_prefix pf;
        int transcript;
        pos += n + 1;
        k = n > 0 ? prefix_peel(p, n, &pf) : 0;
        if (n == 0)
            memset(&pf, 0, sizeof(pf));
        rest = p + k;
        nrest = n - k;
        peeled += k > 0;
        transcript = nrest > 0 && (prefix_prompt(rest, nrest, &cmd, &ncmd) ||
                                   prefix_echo(rest, nrest));
        prompts += transcript != 0;
        if (transcript)
            continue;
        if (src_next_line(&s, &ln, &e) != 1) {
            bad++;
            break;
        }
        bad += ln.n != nrest || memcmp(ln.p, rest, nrest) != 0 || ln.pre.kinds != pf.kinds ||
               ln.pre.has_t != pf.has_t || ln.pre.t_us != pf.t_us || ln.no != (long)i + 1;
    }
    CHECK_INT(bad, 0);
    CHECK_INT(src_next_line(&s, &ln, &e), 0);
    CHECK_INT(s.peeled, (long)peeled);
    CHECK_INT(s.prompts, (long)prompts);
    CHECK(peeled > 100 && prompts > 100);
    src_close(&s);
    free(buf);
}

/* ------------------------------------------------------------ transcripts */

/* A redis-cli session: LATENCY LATEST after two DEBUG SLEEPs, CONFIG GET,
 * INFO persistence, LATENCY HISTORY on db 2, then --latency-history. */
static void transcript_should_parse_each_commands_output(void)
{
    const cow_parser *p;
    collect c;
    cow_err e;
    const cow_rec *r;
    size_t i, ninfo = 0, nlat = 0, nint = 0;

    CHECK_INT(ingest_fixture("transcript/session-1796156008.txt", "session-1796156008.txt",
                             &p, &c, &e), COW_OK);
    CHECK(p == &cow_parser_transcript);
    CHECK_INT(c.nrejects, 0);
    for (i = 0; i < c.n; i++) {
        r = &c.recs[i];
        if (r->kind == COW_REC_LATMON) {
            nlat++;
            CHECK_STR(r->u.latmon.event, "command");
            CHECK_INT(r->u.latmon.t_us, INT64_C(1796156010) * COW_US_PER_S);
            CHECK(r->u.latmon.lat_ms == 300.0);
            CHECK_INT(r->u.latmon.line, nlat == 1 ? 7 : 57);
        } else if (r->kind == COW_REC_INFO && strcmp(r->u.info.section, "config") == 0) {
            if (strcmp(r->u.info.key, "maxmemory-policy") == 0)
                CHECK_STR(r->u.info.text, "noeviction");
        } else if (r->kind == COW_REC_INFO) {
            ninfo++;
            if (strcmp(r->u.info.key, "rdb_changes_since_last_save") == 0)
                CHECK(r->u.info.num == 20000.0 && r->u.info.line == 32);
        } else if (r->kind == COW_REC_INTERVAL) {
            nint++;
            if (nint == 1)
                CHECK(r->u.interval.max_us == 6000.0 && r->u.interval.count == 98 &&
                      r->u.interval.line == 61);
        }
    }
    CHECK_INT(nlat, 2);
    CHECK_INT(ninfo, 30);
    CHECK_INT(nint, 4);
    CHECK_STR(note(&c, "transcript"), "11 commands; 5 outputs parsed, 0 not used");
    collect_free(&c);
}

/* Two full INFO dumps at prompts: one series of two dumps, no field named
 * after a prompt. */
static void transcript_should_read_info_dumps_between_prompts(void)
{
    const cow_parser *p;
    collect c;
    cow_err e;
    size_t i, n0 = 0, n1 = 0;

    CHECK_INT(ingest_fixture("transcript/info-twice.txt", "info-twice.txt", &p, &c, &e), COW_OK);
    CHECK(p == &cow_parser_transcript);
    CHECK_INT(c.nrejects, 0);
    for (i = 0; i < c.n; i++)
        if (c.recs[i].kind == COW_REC_INFO) {
            CHECK(strstr(c.recs[i].u.info.key, "127.0.0.1") == NULL);
            CHECK(c.recs[i].u.info.t_us > 0);
            n0 += c.recs[i].u.info.dump == 0;
            n1 += c.recs[i].u.info.dump == 1;
        }
    CHECK(n0 > 150 && n1 == n0);
    collect_free(&c);
}

/* The same session on a server without server_time_usec (before Redis
 * 6.2): two INFO replies that nothing places in time are kept, unplaced
 * and in order (dump 0 then dump 1), with a note, not refused whole. */
static void transcript_should_keep_unstamped_info_dumps_in_order(void)
{
    const cow_parser *p;
    collect c;
    cow_err e;
    size_t i, n0 = 0, n1 = 0, notes = 0;

    CHECK_INT(ingest_fixture("transcript/info-twice-nostamp.txt", "info-twice-nostamp.txt",
                             &p, &c, &e), COW_OK);
    CHECK(p == &cow_parser_transcript);
    CHECK_INT(c.nrejects, 0);
    for (i = 0; i < c.n; i++) {
        if (c.recs[i].kind == COW_REC_INFO) {
            CHECK(c.recs[i].u.info.t_us == 0);
            n0 += c.recs[i].u.info.dump == 0;
            n1 += c.recs[i].u.info.dump == 1;
        }
        if (c.recs[i].kind == COW_REC_NOTE && strcmp(c.recs[i].u.note.key, "info_time") == 0 &&
            strstr(c.recs[i].u.note.value, "in the order they came") != NULL)
            notes++;
    }
    CHECK(n0 > 150 && n1 == n0);
    CHECK_INT(notes, 1);
    collect_free(&c);
}

/* A shell session: `redis-cli --latency` stopped with ^C, DEBUG SLEEP's
 * "OK", LATENCY LATEST and LATENCY DOCTOR, each after a "$ " prompt. */
static void transcript_should_read_shell_prompts_and_skip_echoes(void)
{
    const cow_parser *p;
    collect c;
    cow_err e;
    const cow_rec *r;

    CHECK_INT(ingest_fixture("transcript/shell-1796156125.txt", "shell-1796156125.txt",
                             &p, &c, &e), COW_OK);
    CHECK(p == &cow_parser_transcript);
    CHECK_INT(c.nrejects, 0);
    r = collect_nth(&c, COW_REC_INTERVAL, 0);
    CHECK(r && r->u.interval.count == 229 && r->u.interval.max_us == 2000.0);
    r = collect_nth(&c, COW_REC_LATMON, 0);
    CHECK(r && strcmp(r->u.latmon.kind, "latest") == 0 && r->u.latmon.lat_ms == 250.0);
    r = collect_nth(&c, COW_REC_LATMON, 1);
    CHECK(r && strcmp(r->u.latmon.kind, "doctor") == 0 && r->u.latmon.none_observed == 0);
    collect_free(&c);
}

/* ------------------------------------------------------------ --latency */

/* Every shape auto-detected, the clean terminal copy included; the piped
 * figures as one line each, with a shell prompt before them. */
static void clilat_should_detect_every_shape(void)
{
    static const char *const files[] = {
        "clilat/history-raw.txt", "clilat/history-tty.txt", "clilat/latency-tty.txt",
        "clilat/history-csv.txt", "clilat/history-json.txt", "clilat/latency-raw.txt",
        "clilat/history-clean-1796156010.txt",
    };
    const cow_parser *p;
    collect c;
    cow_err e;
    const cow_rec *r;
    size_t i;

    for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
        CHECK_STR(fixture_detect(files[i]), "redis-cli-latency");
    CHECK_INT(ingest_fixture("clilat/history-clean-1796156010.txt",
                             "history-clean-1796156010.txt", &p, &c, &e), COW_OK);
    CHECK_INT(collect_count(&c, COW_REC_INTERVAL), 4);
    CHECK_INT(c.nrejects, 0);
    r = collect_nth(&c, COW_REC_INTERVAL, 3);
    CHECK(r && r->u.interval.count == 36 && r->u.interval.max_us == 3000.0 &&
          r->u.interval.avg_us == 280.0);
    r = collect_nth(&c, COW_REC_INTERVAL, 0);
    CHECK(r && r->u.interval.t_us == INT64_C(1796156010) * COW_US_PER_S + 1010000);
    CHECK(note(&c, "transcript") != NULL);
    collect_free(&c);
}

int main(void)
{
    RUN(prefix_should_peel_each_wrapper_and_keep_the_rest);
    RUN(prefix_should_tell_prompts_and_echoes_from_data);
    RUN(source_should_peel_and_skip_as_the_tests_decide);
    RUN(transcript_should_parse_each_commands_output);
    RUN(transcript_should_read_info_dumps_between_prompts);
    RUN(transcript_should_keep_unstamped_info_dumps_in_order);
    RUN(transcript_should_read_shell_prompts_and_skip_echoes);
    RUN(clilat_should_detect_every_shape);
    return REPORT();
}
