/* test_latency.c -- the latency sample parsers (latency-csv, latency-json)
 * from in-memory buffers, through the collecting sink. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collect.h"
#include "formats.h"
#include "minunit.h"

typedef struct result {
    int rc;            /* parse return code */
    collect c;         /* what was emitted */
    cow_err e;         /* error when rc != 0 */
} result;

static void run_parser(const cow_parser *p, const char *text,
                       const cow_parse_opts *o, result *r)
{
    cow_src s;
    cow_sink k;
    cow_parse_opts none;

    memset(&none, 0, sizeof(none));
    collect_init(&r->c);
    cow_err_clear(&r->e);
    k = collect_sink(&r->c);
    src_open_mem(&s, "mem.csv", text, strlen(text));
    r->rc = p->parse(&s, o ? o : &none, &k, &r->e);
    src_close(&s);
}

static const cow_sample *sample(const result *r, size_t i)
{
    const cow_rec *rec = collect_nth(&r->c, COW_REC_SAMPLE, i);
    return rec ? &rec->u.sample : NULL;
}

static const cow_reject *reject(const result *r, size_t i)
{
    const cow_rec *rec = collect_nth(&r->c, COW_REC_REJECT, i);
    return rec ? &rec->u.reject : NULL;
}

/* 2025-02-03T14:02:11Z */
#define T0_S 1738591331LL

static void csv_should_detect_epoch_units_by_magnitude(void)
{
    static const struct {
        const char *text;
        long long t_us;
        double lat_us;
    } cases[] = {
        {"timestamp,latency_ms\n1738591331.5,1.25\n", T0_S * 1000000 + 500000, 1250},
        {"ts,lat_us\n1738591331500,7\n", T0_S * 1000000 + 500000, 7},
        {"time_us,rtt_ns\n1738591331500000,1500\n", T0_S * 1000000 + 500000, 1.5},
        {"epoch,latency (ms)\n1738591331500000000,0.5\n", T0_S * 1000000 + 500000, 500},
        {"t,duration[s]\n2025-02-03T14:02:11.5Z,0.002\n", T0_S * 1000000 + 500000, 2000},
        {"ts_ns\tlatency_us\n1738591331500000000\t3\n", T0_S * 1000000 + 500000, 3},
        {"epoch_s;value_ms\n1738591331.5;4\n", T0_S * 1000000 + 500000, 4000},
    };
    size_t i;
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        result r;
        run_parser(&cow_parser_latency_csv, cases[i].text, NULL, &r);
        CHECK_INT(r.rc, COW_OK);
        CHECK_INT(r.c.nsamples, 1);
        if (r.c.nsamples == 1) {
            CHECK_INT(sample(&r, 0)->t_us, cases[i].t_us);
            CHECK_NEAR(sample(&r, 0)->lat_us, cases[i].lat_us, 1e-9);
        }
        if (r.rc)
            fprintf(stderr, "case %zu: %s\n", i, r.e.msg);
        collect_free(&r.c);
    }
}

static void csv_should_keep_ops_quotes_bom_crlf_and_comments(void)
{
    const char *text = "\xEF\xBB\xBF# probe v1\r\n"
                       "\"timestamp_us\",\"latency_us\",\"op\"\r\n"
                       "1738591331000000,100,\"SET\"\r\n"
                       "\r\n"
                       "# a comment in the middle\r\n"
                       "1738591331002000,250.5,GET\r\n";
    result r;
    run_parser(&cow_parser_latency_csv, text, NULL, &r);
    CHECK_INT(r.rc, COW_OK);
    CHECK_INT(r.c.nsamples, 2);
    CHECK_INT(r.c.nrejects, 0);
    CHECK_STR(sample(&r, 0)->op, "SET");
    CHECK_STR(sample(&r, 1)->op, "GET");
    CHECK_NEAR(sample(&r, 1)->lat_us, 250.5, 1e-9);
    CHECK_INT(sample(&r, 1)->t_us, 1738591331002000LL);
    collect_free(&r.c);
}

static void csv_should_reject_bad_rows_with_their_line(void)
{
    const char *text = "timestamp_us,latency_us\n"
                       "1738591331000000,100\n"     /* 2 ok */
                       "1738591331001000,abc\n"     /* 3 not a number */
                       "1738591331002000,NaN\n"     /* 4 NaN */
                       "1738591331003000,-5\n"      /* 5 negative */
                       "1738591331004000\n"         /* 6 one field */
                       "1738591331005000,inf\n"     /* 7 inf */
                       "1738591331006000,\n"        /* 8 empty */
                       "1738591331007000,7\n"       /* 9 ok */
                       "1738591331008000,8";        /* 10 truncated */
    result r;
    run_parser(&cow_parser_latency_csv, text, NULL, &r);
    /* every bad row is reported, then the file is refused whole */
    CHECK_INT(r.rc, COW_EPARSE);
    CHECK(strstr(r.e.msg, "7 of 9 data lines rejected") != NULL);
    CHECK_INT(r.c.nrejects, 7);
    CHECK_INT(reject(&r, 0)->line, 3);
    CHECK_STR(reject(&r, 0)->reason, "latency is not a number");
    CHECK_STR(reject(&r, 1)->reason, "latency is NaN or infinite");
    CHECK_STR(reject(&r, 2)->reason, "negative latency");
    CHECK_INT(reject(&r, 3)->line, 6);
    CHECK_STR(reject(&r, 4)->reason, "latency is NaN or infinite");
    CHECK_STR(reject(&r, 5)->reason, "empty latency field");
    CHECK_INT(reject(&r, 6)->line, 10);
    CHECK(strstr(reject(&r, 6)->reason, "truncated") != NULL);
    CHECK(parser_too_many_rejects(2, 7));
    CHECK(!parser_too_many_rejects(1000, 2));
    CHECK(parser_too_many_rejects(20, 3));
    CHECK(!parser_too_many_rejects(27, 3));
    collect_free(&r.c);
}

static void csv_should_refuse_what_it_cannot_know(void)
{
    static const struct {
        const char *text;
        int rc;
        const char *needle;  /* must appear in the message */
        long line;
    } cases[] = {
        {"ts,latency\n1738591331,1\n", COW_EUNIT, "--latency-unit", 1},
        {"ts,latency_ms\n0.5,1\n", COW_EUNIT, "--t0", 2},
        {"t_s,latency_ms\n0.5,1\n", COW_EUNIT, "--t0", 2},
        {"ts,latency_ms\n-1738591331,1\n", COW_ECLOCK, "monotonic", 2},
        /* epoch us by magnitude, or CLOCK_MONOTONIC ns after 20 days? */
        {"timestamp,latency_ms\n1738591331500000,1\n", COW_EUNIT, "monotonic clock in nanoseconds", 2},
        {"ts,latency_ms\n1738591331,1\n1738591300,1\n", COW_ECLOCK, "backwards", 3},
        {"ts_s,latency_ms\n1738591331,1\n1838591331,1\n", COW_ECLOCK, "days", 3},
        {"ts_ms,latency_ms\n1738591331000,1\n5,1\n", COW_ECLOCK, "1990", 3},
        {"count,latency_ms\n1,1\n", COW_EPARSE, "no time column", 1},
        {"a,b\n1,2\n", COW_EPARSE, "no latency column", 1},
        {"# only a comment\n", COW_EPARSE, "empty", 0},
    };
    size_t i;
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        result r;
        run_parser(&cow_parser_latency_csv, cases[i].text, NULL, &r);
        CHECK_INT(r.rc, cases[i].rc);
        CHECK(strstr(r.e.msg, cases[i].needle) != NULL);
        CHECK_INT(r.e.line, cases[i].line);
        CHECK_STR(r.e.path, "mem.csv");
        if (strstr(r.e.msg, cases[i].needle) == NULL)
            fprintf(stderr, "case %zu: %s\n", i, r.e.msg);
        collect_free(&r.c);
    }
}

static void csv_should_use_flags_for_units_and_anchor(void)
{
    cow_parse_opts o;
    result r;

    memset(&o, 0, sizeof(o));
    o.latency_unit = "ms";
    o.time_unit = "s";
    o.t0_us = T0_S * 1000000;
    o.has_t0 = 1;
    run_parser(&cow_parser_latency_csv, "t,latency\n0.25,2\n1.5,3\n", &o, &r);
    CHECK_INT(r.rc, COW_OK);
    CHECK_INT(r.c.nsamples, 2);
    CHECK_INT(sample(&r, 0)->t_us, T0_S * 1000000 + 250000);
    CHECK_INT(sample(&r, 1)->t_us, T0_S * 1000000 + 1500000);
    CHECK_NEAR(sample(&r, 1)->lat_us, 3000, 1e-9);
    collect_free(&r.c);
}

static void csv_should_tolerate_small_reordering(void)
{
    result r;
    run_parser(&cow_parser_latency_csv,
               "ts_ms,lat_ms\n1738591331000,1\n1738591330000,1\n1738591332000,1\n",
               NULL, &r);
    CHECK_INT(r.rc, COW_OK);
    CHECK_INT(r.c.nsamples, 3);
    collect_free(&r.c);
}

static void json_should_read_arrays_and_lines(void)
{
    const char *arr = "[\n"
                      "  {\"ts\": 1738591331.0, \"latency_ms\": 1.5, \"op\": \"SET\"},\n"
                      "  {\"ts\": 1738591331.5, \"latency_ms\": \"2\"},\n"
                      "  {\"ts\": 1738591332.0, \"latency_ms\": null},\n"
                      "  {\"ts\": 1738591332.5, \"latency_ms\": 3}\n"
                      "]\n";
    const char *lines = "{\"timestamp_us\":1738591331000000,\"rtt_us\":10}\n"
                        "not json\n"
                        "{\"timestamp_us\":1738591331001000,\"rtt_us\":-1}\n"
                        "{\"timestamp_us\":1738591331002000,\"rtt_us\":12}\n"
                        "{\"timestamp_us\":17385913310030";
    result r;

    run_parser(&cow_parser_latency_json, arr, NULL, &r);
    CHECK_INT(r.rc, COW_OK);
    CHECK_INT(r.c.nsamples, 3);
    CHECK_INT(r.c.nrejects, 1);
    CHECK_INT(reject(&r, 0)->line, 4);
    CHECK_STR(reject(&r, 0)->reason, "latency is null");
    CHECK_STR(sample(&r, 0)->op, "SET");
    CHECK_NEAR(sample(&r, 1)->lat_us, 2000, 1e-9);
    CHECK(sample(&r, 2) && sample(&r, 2)->t_us == T0_S * 1000000 + 1500000);
    collect_free(&r.c);

    run_parser(&cow_parser_latency_json,
               "[{\"time\": \"2025-02-03T14:02:12.5Z\", \"latency_ms\": 3},"
               " {\"time\": 1738591332, \"latency_ms\": 3}]", NULL, &r);
    CHECK_INT(r.c.nsamples, 1);
    CHECK_INT(r.c.nrejects, 1);
    CHECK(sample(&r, 0) && sample(&r, 0)->t_us == T0_S * 1000000 + 1500000);
    CHECK(reject(&r, 0) != NULL);
    if (reject(&r, 0))
        CHECK_STR(reject(&r, 0)->reason,
                  "time is not an ISO 8601 stamp like the rows before it");
    collect_free(&r.c);

    run_parser(&cow_parser_latency_json, lines, NULL, &r);
    CHECK_INT(r.rc, COW_EPARSE); /* 3 bad of 5: refused whole */
    CHECK(strstr(r.e.msg, "3 of 5 objects rejected") != NULL);
    CHECK_INT(r.c.nrejects, 3);
    CHECK_INT(reject(&r, 0)->line, 2);
    CHECK_STR(reject(&r, 1)->reason, "negative latency");
    CHECK(strstr(reject(&r, 2)->reason, "truncated") != NULL);
    collect_free(&r.c);
}

static void json_should_refuse_broken_arrays_with_position(void)
{
    result r;
    run_parser(&cow_parser_latency_json,
               "[\n {\"ts\": 1738591331, \"latency_ms\": 1},\n {\"ts\": 17", NULL, &r);
    CHECK_INT(r.rc, COW_EPARSE);
    CHECK_INT(r.e.line, 3);
    CHECK(strstr(r.e.msg, "invalid JSON") != NULL);
    collect_free(&r.c);
}

static void sniffers_should_claim_their_own_files(void)
{
    const char *csv = "timestamp_us,latency_us,op\n1,2,SET\n";
    const char *json = "[{\"ts\":1,\"latency_ms\":2}]";
    const char *mem = "timestamp_ms,rss_bytes\n1,2\n";
    CHECK(parser_detect("x.csv", csv, strlen(csv)) == &cow_parser_latency_csv);
    CHECK(parser_detect("x.json", json, strlen(json)) == &cow_parser_latency_json);
    CHECK(cow_parser_latency_csv.sniff("m.csv", mem, strlen(mem)) == 0);
    CHECK(cow_parser_latency_json.sniff("x", csv, strlen(csv)) == 0);
    /* redis-cli's empty reply, piped: an empty line; the name says what */
    CHECK(parser_detect("latency-latest.txt", "\n", 1) == &cow_parser_latency_monitor);
    CHECK(parser_detect("notes.txt", "\n", 1) == NULL);
}

static void throughput_should_become_intervals(void)
{
    result r;
    const cow_rec *a, *b;

    run_parser(&cow_parser_throughput_csv,
               "timestamp_us,ops\n1738591331000000,100\n1738591332000000,90\n"
               "1738591333000000,x\n1738591334000000,80\n", NULL, &r);
    CHECK_INT(r.rc, COW_OK);
    CHECK_INT(collect_count(&r.c, COW_REC_INTERVAL), 3);
    CHECK_INT(r.c.nrejects, 1);
    a = collect_nth(&r.c, COW_REC_INTERVAL, 0);
    b = collect_nth(&r.c, COW_REC_INTERVAL, 1);
    CHECK(a && a->u.interval.count == 100 && a->u.interval.dur_s == 1.0);
    CHECK(b && b->u.interval.t_us == 1738591332000000LL && b->u.interval.dur_s == 2.0);
    collect_free(&r.c);

    /* rates: count = rate x interval */
    run_parser(&cow_parser_throughput_csv,
               "ts_ms,rps\n1738591331000,1000\n1738591331500,1000\n", NULL, &r);
    a = collect_nth(&r.c, COW_REC_INTERVAL, 0);
    CHECK(a && a->u.interval.count == 500);
    collect_free(&r.c);
    CHECK(cow_parser_throughput_csv.sniff("x", "timestamp_us,latency_us,ops\n", 27) == 0);
    CHECK(cow_parser_throughput_csv.sniff("x", "timestamp_us,ops\n", 17) == 85);
}

/* The note of a parse whose key is key, or NULL. */
static const char *note_of(const result *r, const char *key)
{
    size_t i;
    for (i = 0; i < r->c.n; i++)
        if (r->c.recs[i].kind == COW_REC_NOTE && strcmp(r->c.recs[i].u.note.key, key) == 0)
            return r->c.recs[i].u.note.value;
    return NULL;
}

/* latcols.c requirement 6: cowtail capture's intended_us column. */
static void csv_should_read_the_intended_send(void)
{
    /* sample 2 went 5 ms late and took 300 us: 5.3 ms from its intended
     * send; sample 3's intended time is unreadable, sample 4's is after
     * its send (another clock) */
    const char *text = "timestamp_us,latency_us,op,intended_us\n"
                       "1738591331000050,40.5,ping,1738591331000000\n"
                       "1738591331007000,300,ping,1738591331002000\n"
                       "1738591331007400,30,ping,x\n"
                       "1738591331007500,30,ping,1738591331009000\n";
    const char *n;
    result r;
    run_parser(&cow_parser_latency_csv, text, NULL, &r);
    CHECK_INT(r.rc, COW_OK);
    CHECK_INT(r.c.nsamples, 4);
    CHECK_INT(r.c.nrejects, 0);
    CHECK_INT(sample(&r, 1)->t_us, 1738591331007000LL); /* the actual send */
    CHECK_NEAR(sample(&r, 1)->lat_us, 300, 1e-9);
    n = note_of(&r, "intended send");
    CHECK(n != NULL);
    if (n) {
        CHECK(strstr(n, "'intended_us': 2 samples sent 2525.0 us after their "
                        "intended time on average, p99 5000.0 us, at most 5000.0 us, 1 more than "
                        "1 ms late") != NULL);
        CHECK(strstr(n, "no coordinated omission) at most 5300.0 us") != NULL);
        CHECK(strstr(n, "1 unreadable, 1 more than 1 ms after the actual send") != NULL);
    }
    collect_free(&r.c);
    /* latcols.c requirement 7: read from the intended send, sample 2 is
     * placed at ...002000 with 5,300 us; samples 3 and 4 keep their send */
    {
        cow_parse_opts o;
        memset(&o, 0, sizeof(o));
        o.latency_from_intended = 1;
        run_parser(&cow_parser_latency_csv, text, &o, &r);
        CHECK_INT(r.rc, COW_OK);
        CHECK_INT(r.c.nsamples, 4);
        CHECK_INT(sample(&r, 0)->t_us, 1738591331000000LL);
        CHECK_NEAR(sample(&r, 0)->lat_us, 90.5, 1e-9);
        CHECK_INT(sample(&r, 1)->t_us, 1738591331002000LL);
        CHECK_NEAR(sample(&r, 1)->lat_us, 5300, 1e-9);
        CHECK_INT(sample(&r, 2)->t_us, 1738591331007400LL);
        CHECK_NEAR(sample(&r, 2)->lat_us, 30, 1e-9);
        CHECK_INT(sample(&r, 3)->t_us, 1738591331007500LL);
        n = note_of(&r, "intended send");
        CHECK(n != NULL && strstr(n, "placed at their intended send") != NULL);
        collect_free(&r.c);
    }
    /* without the column there is no such note */
    run_parser(&cow_parser_latency_csv, "timestamp_us,latency_us\n1738591331000050,40\n",
               NULL, &r);
    CHECK(note_of(&r, "intended send") == NULL);
    collect_free(&r.c);
}

/* A unitless stamp that reads as epoch us is taken as such when the
 * file's own date follows it within a week, not otherwise. */
static void csv_should_take_unitless_us_as_epoch_only_near_the_file_date(void)
{
    cow_parse_opts o;
    result r;
    const char *text = "timestamp,latency_ms\n1738591331500000,1\n";

    memset(&o, 0, sizeof(o));
    o.mtime_us = (T0_S + 12) * 1000000;
    run_parser(&cow_parser_latency_csv, text, &o, &r);
    CHECK_INT(r.rc, COW_OK);
    CHECK_INT(r.c.nsamples, 1);
    collect_free(&r.c);
    o.mtime_us = (T0_S + 30 * 86400) * 1000000LL;  /* a month later: a copy, or not epoch */
    run_parser(&cow_parser_latency_csv, text, &o, &r);
    CHECK_INT(r.rc, COW_EUNIT);
    collect_free(&r.c);
    o.time_unit = "us";
    run_parser(&cow_parser_latency_csv, text, &o, &r);
    CHECK_INT(r.rc, COW_OK);
    collect_free(&r.c);
}

int main(void)
{
    RUN(csv_should_read_the_intended_send);
    RUN(csv_should_detect_epoch_units_by_magnitude);
    RUN(csv_should_take_unitless_us_as_epoch_only_near_the_file_date);
    RUN(csv_should_keep_ops_quotes_bom_crlf_and_comments);
    RUN(csv_should_reject_bad_rows_with_their_line);
    RUN(csv_should_refuse_what_it_cannot_know);
    RUN(csv_should_use_flags_for_units_and_anchor);
    RUN(csv_should_tolerate_small_reordering);
    RUN(json_should_read_arrays_and_lines);
    RUN(json_should_refuse_broken_arrays_with_position);
    RUN(sniffers_should_claim_their_own_files);
    RUN(throughput_should_become_intervals);
    return REPORT();
}
