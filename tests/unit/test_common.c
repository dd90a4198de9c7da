/* test_common.c -- common/: sha256, strict numbers, time, line source. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jsonstrict.h"
#include "minunit.h"
#include "text.h"
#include "mem.h"
#include "num.h"
#include "optval.h"
#include "quant.h"
#include "sha256.h"
#include "src.h"
#include "termsafe.h"
#include "units.h"
#include "timeconv.h"

static void sha256_should_match_fips_vectors(void)
{
    cow_sha256 s;
    char hex[65];
    char *big = xmalloc(1000000);
    size_t i;

    sha256_init(&s);
    sha256_final_hex(&s, hex);
    CHECK_STR(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    sha256_init(&s);
    sha256_update(&s, "abc", 3);
    sha256_final_hex(&s, hex);
    CHECK_STR(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    /* one million 'a' fed in odd-sized pieces crosses every block edge */
    memset(big, 'a', 1000000);
    sha256_init(&s);
    for (i = 0; i < 1000000;) {
        size_t n = (i % 7) * 13 + 1;
        if (n > 1000000 - i)
            n = 1000000 - i;
        sha256_update(&s, big + i, n);
        i += n;
    }
    sha256_final_hex(&s, hex);
    CHECK_STR(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    CHECK(s.ctx == NULL);
    sha256_free(&s); /* a finished state frees as a no-op */
    /* a peek mid-stream gives the prefix's digest and leaves the state going */
    sha256_init(&s);
    sha256_update(&s, "ab", 2);
    sha256_peek_hex(&s, hex);
    CHECK_STR(hex, "fb8e20fc2e4c3f248c60c39bd652f3c1347298bb977b8b4d5903b85055620603");
    sha256_update(&s, "c", 1);
    sha256_final_hex(&s, hex);
    CHECK_STR(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    free(big);
}

/* The padding's edges (a length that leaves 0, 1, 8 or 9 bytes of the
 * last block), whole and fed a byte at a time; digests from Python's
 * hashlib.sha256 of bytes((i*7+1) & 255 for i in range(n)). Both the
 * libcrypto and the plain C SHA-256 must give them. */
static void sha256_should_pad_at_every_block_edge(void)
{
    static const struct { size_t n; const char *hex; } want[] = {
        {55, "16fa57a0a3423a715d594516339f36189d6b5f93754a9714fef202616a9fabfe"},
        {56, "c37b44e5f1b18554b36966f4f8e08bfbf3164c4b6c10374d12d89850892073c5"},
        {63, "bbba992d2c85af960fb2987a1fd05e0aa82a3db3c740dd8982a9e273b75e36a3"},
        {64, "66bd4633ed6f71c4ecfa4763bf7ba1c8ec7612de9aa6c0578a7b675207c71e0b"},
        {119, "a3ed307b730fa77c07531300c6e4a282330011d4d4caf6bb7b63ae05950f4b66"},
        {120, "8e3b15d9fea7472655aa069620b7f8c2e55ee1499f763200a7515fe826e99d20"},
    };
    unsigned char msg[120];
    char hex[65];
    cow_sha256 s;
    size_t i, k;

    for (i = 0; i < sizeof msg; i++)
        msg[i] = (unsigned char)((i * 7 + 1) & 255);
    for (k = 0; k < sizeof want / sizeof want[0]; k++) {
        sha256_init(&s);
        sha256_update(&s, msg, want[k].n);
        sha256_final_hex(&s, hex);
        CHECK_STR(hex, want[k].hex);
        sha256_init(&s);
        for (i = 0; i < want[k].n; i++)
            sha256_update(&s, msg + i, 1);
        sha256_final_hex(&s, hex);
        CHECK_STR(hex, want[k].hex);
    }
}

static void num_should_parse_whole_fields_only(void)
{
    static const struct { const char *in; int ok; double v; } d[] = {
        {"1.5", 1, 1.5}, {"-2", 1, -2}, {"1e3", 1, 1000}, {"0.000123", 1, 0.000123},
        {"", 0, 0}, {"1.5ms", 0, 0}, {" 1", 0, 0}, {"nan", 0, 0}, {"inf", 0, 0},
        {"1e999", 0, 0}, {"0x10", 0, 0}, {"-", 0, 0}, {".", 0, 0},
    };
    size_t i;
    int64_t iv;
    for (i = 0; i < sizeof(d) / sizeof(d[0]); i++) {
        double v = -1;
        int ok = num_parse_double(d[i].in, strlen(d[i].in), &v);
        CHECK_INT(ok, d[i].ok);
        if (ok)
            CHECK_NEAR(v, d[i].v, 1e-12);
    }
    CHECK(num_parse_i64("9223372036854775807", 19, &iv) && iv == INT64_MAX);
    CHECK(num_parse_i64("-9223372036854775808", 20, &iv) && iv == INT64_MIN);
    CHECK(!num_parse_i64("9223372036854775808", 19, &iv));
    CHECK(!num_parse_i64("12a", 3, &iv));
    CHECK(!num_parse_i64("+", 1, &iv));
}

static void time_should_convert_civil_and_iso(void)
{
    int64_t us = 0;
    char out[40];
    int off = 1;

    CHECK_INT(time_us_from_civil(1970, 1, 1, 0, 0, 0, 0), 0);
    /* date -u -d '2025-02-03 14:02:11' +%s == 1738591331 */
    CHECK_INT(time_us_from_civil(2025, 2, 3, 14, 2, 11, 532000),
              INT64_C(1738591331532000));
    CHECK(time_parse_iso8601("2025-02-03T14:02:11.532Z", 24, &us));
    CHECK_INT(us, INT64_C(1738591331532000));
    CHECK(time_parse_iso8601("2025-02-03 16:02:11.532+02:00", 29, &us));
    CHECK_INT(us, INT64_C(1738591331532000));
    CHECK(time_parse_iso8601("2025-02-03T14:02:11", 19, &us));
    CHECK_INT(us, INT64_C(1738591331000000));
    CHECK(!time_parse_iso8601("2025-13-03T14:02:11", 19, &us));
    CHECK(!time_parse_iso8601("2025-02-03T14:02:11.5 junk", 26, &us));
    time_format_iso(INT64_C(1738591331532000), out, sizeof(out));
    CHECK_STR(out, "2025-02-03T14:02:11.532Z");
    CHECK(time_parse_offset("-05:00", &off) && off == -18000);
    CHECK(time_parse_offset("+0530", &off) && off == 19800);
    CHECK(time_parse_offset("UTC", &off) && off == 0);
    CHECK(!time_parse_offset("Europe/Paris", &off));
    CHECK_INT(time_month_from_abbr("Feb"), 2);
    CHECK_INT(time_month_from_abbr("Foo"), 0);
}

/* Table: stamp, accepted, what the refusal says. */
static void iso_should_refuse_impossible_dates(void)
{
    static const struct { const char *s; int ok; const char *why; } rows[] = {
        /* 1 */ {"2023-02-31T10:00:00Z", 0, "day of the month"},
        /* 2 */ {"2023-02-29T10:00:00Z", 0, "day of the month"},
        /* 3 */ {"2024-02-29T10:00:00Z", 1, NULL},
        /* 4 */ {"1900-02-29T10:00:00Z", 0, "day of the month"},
        /* 5 */ {"2000-02-29T10:00:00Z", 1, NULL},
        /* 6 */ {"2023-04-31T10:00:00Z", 0, "day of the month"},
        /* 7 */ {"2023-00-10T10:00:00Z", 0, "month"},
        /* 8 */ {"2023-01-10T24:00:00Z", 0, "time of day"},
        /* 9 */ {"2023-01-10T10:60:00Z", 0, "time of day"},
        /* 10 */ {"2023-01-10T10:00:60Z", 0, "time of day"},
        /* 11 */ {"2023-01-10T10:00:00+25:00", 0, "zone"},
        /* 12 */ {"2023-01-10T10:00:00.", 0, "not ISO 8601"},
        /* 13 */ {"2023-1-10T10:00:00Z", 0, "not ISO 8601"},
    };
    size_t i;
    cow_iso t;
    const char *why;
    int64_t us;

    for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        why = NULL;
        if (time_parse_iso(rows[i].s, strlen(rows[i].s), &t, &why) != rows[i].ok ||
            (!rows[i].ok && (why == NULL || strstr(why, rows[i].why) == NULL))) {
            fprintf(stderr, "iso row %zu: %s: %s\n", i + 1, rows[i].s, why ? why : "ok");
            CHECK(0);
        }
    }
    /* the bug: 31 February used to become 3 March */
    CHECK(!time_parse_iso8601("2023-02-31T10:00:00Z", 20, &us));
    CHECK(time_parse_iso("2025-02-03T14:02:11.532123456+01:00", 35, &t, NULL));
    CHECK_INT(t.us, 532123);
    CHECK_INT(t.frac_digits, 9);
    CHECK(t.has_zone && t.off_s == 3600);
    CHECK_INT(time_iso_us(&t), INT64_C(1738587731532123));
    CHECK(time_parse_iso("2025-02-03T14:02:11", 19, &t, NULL) && !t.has_zone);
    CHECK_INT(time_month_days(0, 2), 29);
    CHECK_INT(time_month_days(2023, 2), 28);
    CHECK_INT(time_month_days(2023, 13), 0);
}

/* Table: parser, argument, accepted, value or message. */
/* --t0 and --log-tz: the whole argument through the one ISO 8601 reader
 * or the epoch rule run.json's "t0" follows. Regression: --t0 used to be
 * pasted into a JSON document for the run.json parser, so text after the
 * number ('1796267959, "zzz": 1') was read as more of the document and
 * accepted. */
static void optval_should_read_instants_and_offsets_whole(void)
{
    cow_err e = COW_ERR_INIT;
    int64_t us = 0;
    int off = 0;

    CHECK_INT(optval_instant_us("--t0", "1796267959", &us, &e), COW_OK);
    CHECK_INT(us, INT64_C(1796267959000000));
    CHECK_INT(optval_instant_us("--t0", "1796267959123", &us, &e), COW_OK); /* ms */
    CHECK_INT(us, INT64_C(1796267959123000));
    CHECK_INT(optval_instant_us("--t0", "1796267959123456", &us, &e), COW_OK); /* us */
    CHECK_INT(us, INT64_C(1796267959123456));
    CHECK_INT(optval_instant_us("--t0", "1796267959123456789", &us, &e), COW_OK); /* ns */
    CHECK_INT(us, INT64_C(1796267959123456)); /* exact: no double in between */
    CHECK_INT(optval_instant_us("--t0", "1796267959.5", &us, &e), COW_OK);
    CHECK_INT(us, INT64_C(1796267959500000));
    CHECK_INT(optval_instant_us("--t0", "2026-02-03T14:02:11Z", &us, &e), COW_OK);
    CHECK_INT(us, INT64_C(1770127331000000));
    CHECK_INT(optval_instant_us("--t0", "2026-02-03T15:02:11+01:00", &us, &e), COW_OK);
    CHECK_INT(us, INT64_C(1770127331000000));
    CHECK_INT(optval_instant_us("--t0", "1796267959, \"zzz\": 1", &us, &e), COW_EUSAGE);
    CHECK_STR(e.msg, "--t0: '1796267959, \"zzz\": 1' is not an epoch (s, ms, us) or an "
                     "ISO 8601 time that exists");
    CHECK_INT(optval_instant_us("--t0", "1796267959}", &us, &e), COW_EUSAGE);
    CHECK_INT(optval_instant_us("--t0", " 1796267959", &us, &e), COW_EUSAGE);
    CHECK_INT(optval_instant_us("--t0", "1796267959 ", &us, &e), COW_EUSAGE);
    CHECK_INT(optval_instant_us("--t0", "\"2026-02-03T14:02:11Z\"", &us, &e), COW_EUSAGE);
    CHECK_INT(optval_instant_us("--t0", "yesterday", &us, &e), COW_EUSAGE);
    CHECK_INT(optval_instant_us("--t0", "2023-02-31T10:00:00Z", &us, &e), COW_EUSAGE);
    CHECK_INT(optval_instant_us("--t0", "12", &us, &e), COW_EUSAGE); /* 1970 */
    CHECK_INT(optval_instant_us("--t0", "", &us, &e), COW_EUSAGE);
    CHECK_INT(optval_utc_offset("--log-tz", "+02:00", &off, &e), COW_OK);
    CHECK_INT(off, 7200);
    CHECK_INT(optval_utc_offset("--log-tz", "-0500", &off, &e), COW_OK);
    CHECK_INT(off, -18000);
    CHECK_INT(optval_utc_offset("--log-tz", "UTC", &off, &e), COW_OK);
    CHECK_INT(off, 0);
    CHECK_INT(optval_utc_offset("--log-tz", "Europe/Paris", &off, &e), COW_EUSAGE);
    CHECK_STR(e.msg, "--log-tz: 'Europe/Paris' is not an offset like +02:00, -0500 or UTC "
                     "(zone names are not supported: give the offset in force during the "
                     "capture)");
}

/* One table of time units and one of memory units for column suffixes,
 * run.json and the options; --latency-unit and the others are checked
 * against them on the command line (they used to reach each parser as
 * they were typed). */
static void units_should_name_time_and_memory(void)
{
    cow_err e = COW_ERR_INIT;
    double v = 0;

    CHECK_NEAR(unit_time_us("ms", 2), 1e3, 0);
    CHECK_NEAR(unit_time_us("nanoseconds", 11), 1e-3, 0);
    CHECK_NEAR(unit_time_us("\xc2\xb5s", 3), 1, 0); /* µs */
    CHECK_NEAR(unit_time_us("secs", 4), 1e6, 0);
    CHECK_NEAR(unit_time_us("MS", 2), 0, 0);     /* names come lowercase */
    CHECK_NEAR(unit_time_us("m", 1), 0, 0);      /* minutes? metres? no */
    CHECK_NEAR(unit_mem_bytes("kB"), 1024, 0);
    CHECK_NEAR(unit_mem_bytes("GiB"), 1073741824.0, 0);
    CHECK_NEAR(unit_mem_bytes("pages"), 0, 0);
    CHECK_INT(optval_time_unit("--latency-unit", "usec", &v, &e), COW_OK);
    CHECK_NEAR(v, 1, 0);
    CHECK_INT(optval_time_unit("--latency-unit", "furlongs", &v, &e), COW_EUSAGE);
    CHECK(strstr(e.msg, "--latency-unit: 'furlongs' is not a time unit") == e.msg);
    CHECK_INT(optval_mem_unit("--mem-unit", "MB", &v, &e), COW_OK);
    CHECK_NEAR(v, 1048576, 0);
    CHECK_INT(optval_mem_unit("--mem-unit", "pages", &v, &e), COW_EUSAGE);
    CHECK(strstr(e.msg, "--mem-unit: 'pages' is not a memory unit") == e.msg);
}

static void optval_should_parse_whole_values_with_named_errors(void)
{
    cow_err e = COW_ERR_INIT;
    int64_t v = 0;
    uint64_t u = 0;
    double d = 0;

    CHECK_INT(optval_int("--resamples", "999", 99, 1000, &v, &e), COW_OK);
    CHECK_INT(v, 999);
    CHECK_INT(optval_int("--resamples", "5", 99, 1000, &v, &e), COW_EUSAGE);
    CHECK_STR(e.msg, "--resamples: '5' is out of range (expected 99 to 1000)");
    CHECK_INT(optval_int("--log-year", "20x5", 1970, 2100, &v, &e), COW_EUSAGE);
    CHECK_STR(e.msg, "--log-year: '20x5' is not an integer");
    CHECK_INT(optval_int("--log-year", "", 1970, 2100, &v, &e), COW_EUSAGE);
    CHECK_INT(optval_int("--log-year", " 2025", 1970, 2100, &v, &e), COW_EUSAGE);
    CHECK_INT(optval_u64("--seed", "18446744073709551615", &u, &e), COW_OK);
    CHECK(u == UINT64_MAX);
    CHECK_INT(optval_u64("--seed", "18446744073709551616", &u, &e), COW_EUSAGE);
    CHECK(strstr(e.msg, "out of range") != NULL);
    CHECK_INT(optval_u64("--seed", "abc", &u, &e), COW_EUSAGE);
    CHECK_STR(e.msg, "--seed: 'abc' is not an integer");
    CHECK_INT(optval_u64("--seed", "-5", &u, &e), COW_EUSAGE);
    CHECK_STR(e.msg, "--seed: '-5' is negative (expected 0 to 18446744073709551615)");
    CHECK_INT(optval_u64("--seed", "+5", &u, &e), COW_EUSAGE);
    CHECK_INT(optval_double("--scale", "2.5", 0.5, 4, &d, &e), COW_OK);
    CHECK_NEAR(d, 2.5, 0);
    CHECK_INT(optval_double("--scale", "2x", 0.5, 4, &d, &e), COW_EUSAGE);
    CHECK_STR(e.msg, "--scale: '2x' is not a number");
    CHECK_INT(optval_double("--scale", "nan", 0.5, 4, &d, &e), COW_EUSAGE);
    CHECK_INT(optval_double("--scale", "9", 0.5, 4, &d, &e), COW_EUSAGE);
    CHECK_STR(e.msg, "--scale: '9' is out of range (expected 0.5 to 4)");
    CHECK_INT(optval_duration_us("--every", "150ms", 0, INT64_MAX, &v, &e), COW_OK);
    CHECK_INT(v, 150000);
    CHECK_INT(optval_duration_us("--every", "2.5s", 0, INT64_MAX, &v, &e), COW_OK);
    CHECK_INT(v, 2500000);
    CHECK_INT(optval_duration_us("--every", "4h", 0, INT64_MAX, &v, &e), COW_OK);
    CHECK_INT(v, INT64_C(14400000000));
    CHECK_INT(optval_duration_us("--every", "1500ns", 0, INT64_MAX, &v, &e), COW_EUSAGE);
    CHECK(strstr(e.msg, "whole number of microseconds") != NULL);
    CHECK_INT(optval_duration_us("--every", "150", 0, INT64_MAX, &v, &e), COW_EUSAGE);
    CHECK_STR(e.msg, "--every: '150' is not a duration (a number and a unit: ns, us, "
                     "ms, s, m, h)");
    CHECK_INT(optval_duration_us("--every", "1e3s", 0, INT64_MAX, &v, &e), COW_EUSAGE);
    CHECK_INT(optval_duration_us("--every", "2d", 0, INT64_MAX, &v, &e), COW_EUSAGE);
    CHECK_INT(optval_duration_us("--every", "2s", 0, 1000000, &v, &e), COW_EUSAGE);
    CHECK(strstr(e.msg, "out of range") != NULL);
    CHECK_INT(optval_size("--max", "512", 0, UINT64_MAX, &u, &e), COW_OK);
    CHECK(u == 512);
    CHECK_INT(optval_size("--max", "1k", 0, UINT64_MAX, &u, &e), COW_OK);
    CHECK(u == 1000);
    CHECK_INT(optval_size("--max", "1KB", 0, UINT64_MAX, &u, &e), COW_OK);
    CHECK(u == 1024);
    CHECK_INT(optval_size("--max", "3MiB", 0, UINT64_MAX, &u, &e), COW_OK);
    CHECK(u == 3 * 1024 * 1024);
    CHECK_INT(optval_size("--max", "2gb", 0, UINT64_MAX, &u, &e), COW_OK);
    CHECK(u == UINT64_C(2147483648));
    CHECK_INT(optval_size("--max", "1.5g", 0, UINT64_MAX, &u, &e), COW_EUSAGE);
    CHECK_STR(e.msg, "--max: '1.5g' is not a size (bytes, or a number and k, m, g, "
                     "kb, mb, gb)");
    CHECK_INT(optval_size("--max", "20000000000gb", 0, UINT64_MAX, &u, &e), COW_EUSAGE);
    CHECK(strstr(e.msg, "out of range") != NULL);
    CHECK_INT(optval_size("--max", "-1", 0, UINT64_MAX, &u, &e), COW_EUSAGE);
}

static void src_should_split_lines_and_strip_bom_and_cr(void)
{
    static const char data[] = "\xEF\xBB\xBFts,lat\r\n1,2\n\n3,4";
    cow_src s;
    cow_line ln;
    cow_err e = COW_ERR_INIT;
    int n = 0;

    src_open_mem(&s, "mem", data, sizeof(data) - 1);
    while (src_next_line(&s, &ln, &e) == 1) {
        n++;
        if (ln.no == 1)
            CHECK(ln.n == 6 && memcmp(ln.p, "ts,lat", 6) == 0 && ln.eol);
        if (ln.no == 3)
            CHECK_INT(ln.n, 0);
        if (ln.no == 4)
            CHECK(ln.n == 3 && !ln.eol);
    }
    CHECK_INT(n, 4);
    src_close(&s);
}

static void src_should_read_files_across_buffer_refills(void)
{
    const char *path = "test_common_src.tmp";
    FILE *fp = fopen(path, "wb");
    cow_src s;
    cow_line ln;
    cow_err e = COW_ERR_INIT;
    char hex[65];
    long i, lines = 0, sum = 0;

    CHECK(fp != NULL);
    if (!fp)
        return;
    for (i = 0; i < 200000; i++)
        fprintf(fp, "%ld,some padding text to cross the 1 MiB buffer\n", i);
    fclose(fp);
    CHECK_INT(src_open_file(&s, path, &e), COW_OK);
    while (src_next_line(&s, &ln, &e) == 1) {
        lines++;
        sum += strtol(ln.p, NULL, 10);
    }
    CHECK_INT(lines, 200000);
    CHECK_INT(sum, 199999L * 200000L / 2);
    src_sha256(&s, hex);
    CHECK_INT(strlen(hex), 64);
    src_close(&s);
    CHECK(src_open_file(&s, "no/such/file", &e) == COW_EIO);
    CHECK(strstr(e.msg, "cannot open") != NULL);
    remove(path);
}

static void colname_should_split_the_unit_and_normalise(void)
{
    char b[64], u[16];
    text_colname("\"Latency ( MS )\"", 16, b, sizeof(b), u, sizeof(u));
    CHECK_STR(b, "latency");
    CHECK_STR(u, "ms");
    text_colname("t-rel.s", 7, b, sizeof(b), u, sizeof(u));
    CHECK_STR(b, "t_rel_s");
    CHECK_STR(u, "");
    text_colname("Used Memory [KB]  ", 18, b, sizeof(b), u, sizeof(u));
    CHECK_STR(b, "used_memory");
    CHECK_STR(u, "kb");
    text_colname("rss (bytes", 10, b, sizeof(b), u, sizeof(u)); /* no ')' */
    CHECK_STR(b, "rss_(bytes");
    CHECK_STR(u, "");
}

/* One check of a document: its code, and where (line) when refused. */
static int strict(const char *doc, long *line)
{
    cow_err e = COW_ERR_INIT;
    int rc = json_strict_check(doc, strlen(doc), "t.json", 1, &e);
    *line = e.line;
    return rc;
}

static void json_strict_should_refuse_twice_named_keys_and_infinities(void)
{
    long line;
    CHECK_INT(strict("{\"max_p99_ms\":1,\n\"max_p99_ms\":100}", &line), COW_EPARSE);
    CHECK_INT(line, 2);
    /* spelt differently, the same key once unescaped */
    CHECK_INT(strict("{\"p\":1,\"\\u0070\":2}", &line), COW_EPARSE);
    CHECK_INT(strict("{\"\\ud83d\\ude00\":1,\"\xf0\x9f\x98\x80\":2}", &line), COW_EPARSE);
    CHECK_INT(strict("{\"a\\\"b\":1,\"a\\u0022b\":2}", &line), COW_EPARSE);
    /* the same name in two objects, or as a value, is fine */
    CHECK_INT(strict("{\"a\":{\"x\":1},\"b\":{\"x\":1},\"c\":\"a\",\"d\":[{\"x\":2},{\"x\":3}]}",
                     &line), COW_OK);
    /* a duplicate in a nested object, after the inner one closed */
    CHECK_INT(strict("{\"a\":{\"x\":1,\"y\":{\"x\":2},\n\n\"x\":3}}", &line), COW_EPARSE);
    CHECK_INT(line, 3);
    /* a key-like string inside an array is a value */
    CHECK_INT(strict("{\"k\":[\"k\",\"k\"]}", &line), COW_OK);
    CHECK_INT(strict("{\"v\":1e999}", &line), COW_EPARSE);
    CHECK_INT(strict("{\"v\":[1,\n-1e400]}", &line), COW_EPARSE);
    CHECK_INT(line, 2);
    CHECK_INT(strict("{\"v\":1e308,\"w\":-2.5E-300,\"s\":\"1e999\"}", &line), COW_OK);
}

/* quant.h: the estimate always, its bound beside it, never a bound alone */
static void quant_should_show_the_estimate_with_its_bound(void)
{
    char b[COW_QUANT_FMT_MAX];
    cow_quant q = quant_make(0.999, 12300, 1563, INFINITY, 755, 63);
    CHECK_STR(quant_format(&q, 0, b, sizeof(b)), "12.300 (>= 1.563)");
    CHECK_STR(quant_format(&q, COW_QF_INTERVAL, b, sizeof(b)), "12.300 (>= 1.563)");
    CHECK(isnan(q.hi_us) && !quant_two_sided(&q));
    q = quant_make(0.99, 977, 850, 1200, 1492, NAN);
    CHECK(quant_two_sided(&q));
    CHECK_STR(quant_format(&q, 0, b, sizeof(b)), "0.977");
    CHECK_STR(quant_format(&q, COW_QF_INTERVAL, b, sizeof(b)), "0.977 [0.850, 1.200]");
    q = quant_make(0.5, 20, NAN, 31, 3, 3);
    CHECK_STR(quant_format(&q, 0, b, sizeof(b)), "0.020 (<= 0.031)");
    q = quant_make(0.999, 4000, NAN, NAN, 5, 5);
    CHECK_STR(quant_format(&q, 0, b, sizeof(b)), "4.000 (not bounded)");
    /* a lower bound below the run's median tells nothing: "not bounded"
     * (9.404 (>= 0.035) beside a median of 0.3 read as a bound) */
    q = quant_make(0.99, 9404, 35, NAN, 900, NAN);
    quant_floor(&q, 300);
    CHECK_STR(quant_format(&q, 0, b, sizeof(b)), "9.404 (not bounded)");
    q = quant_make(0.99, 9404, 350, NAN, 900, NAN);
    quant_floor(&q, 300);
    CHECK_STR(quant_format(&q, 0, b, sizeof(b)), "9.404 (>= 0.350)");
    q = quant_make(0.99, 977, 100, 1200, 1492, NAN); /* two-sided: kept */
    quant_floor(&q, 300);
    CHECK_STR(quant_format(&q, COW_QF_INTERVAL, b, sizeof(b)), "0.977 [0.100, 1.200]");
    q = quant_make(0.99, 9404, 35, NAN, 900, NAN); /* no median known: kept */
    quant_floor(&q, NAN);
    CHECK_STR(quant_format(&q, 0, b, sizeof(b)), "9.404 (>= 0.035)");
    /* a delta proved beyond zero whose bound rounds to it reads "> 0", not
     * "at least +0.000" (bgsave-t1's p99.9 lift) */
    q = quant_make(0.999, 1719, 0.0, NAN, 886, NAN);
    CHECK_STR(quant_format(&q, COW_QF_SIGNED, b, sizeof(b)), "+1.719 (> 0)");
    q = quant_make(0.999, 1719, 125, NAN, 886, NAN);
    CHECK_STR(quant_format(&q, COW_QF_SIGNED, b, sizeof(b)), "+1.719 (>= +0.125)");
    q = quant_make(0.999, -900, NAN, -0.2, 886, NAN);
    CHECK_STR(quant_format(&q, COW_QF_SIGNED, b, sizeof(b)), "-0.900 (< 0)");
    q = quant_make(0.5, 0, 0.0, NAN, 886, NAN); /* a quantile, not a change */
    CHECK_STR(quant_format(&q, 0, b, sizeof(b)), "0.000 (>= 0.000)");
    /* a difference keeps its sign on both numbers */
    q = quant_make(NAN, 9710, 1477, NAN, 755, NAN);
    CHECK_STR(quant_format(&q, COW_QF_SIGNED, b, sizeof(b)), "+9.710 (>= +1.477)");
    q = quant_make(NAN, -2222, NAN, NAN, 698, NAN);
    CHECK_STR(quant_format(&q, COW_QF_SIGNED, b, sizeof(b)), "-2.222 (cannot tell)");
    q = quant_make(NAN, 310, 99, 472, 5000, NAN);
    CHECK_STR(quant_format(&q, COW_QF_SIGNED | COW_QF_INTERVAL, b, sizeof(b)),
              "+0.310 [+0.099, +0.472]");
    /* no samples */
    q = quant_make(0.999, NAN, NAN, NAN, 0, 0);
    CHECK_STR(quant_format(&q, 0, b, sizeof(b)), "-");
    CHECK_STR(quant_format(NULL, 0, b, sizeof(b)), "-");
    /* the largest doubles fit the documented buffer whole */
    q = quant_make(0.5, -DBL_MAX, -DBL_MAX, DBL_MAX, 1, 1);
    quant_format(&q, COW_QF_SIGNED | COW_QF_INTERVAL, b, sizeof(b));
    CHECK(strlen(b) < sizeof(b) - 1 && b[strlen(b) - 1] == ']');
    /* a short buffer is cut, never overrun */
    q = quant_make(0.999, 12300, 1563, NAN, 755, 63);
    CHECK_STR(quant_format(&q, 0, b, 6), "12.30");
}

/* Last: it puts the filter in front of this process's stdout and stderr. */
static void safe_streams_should_defuse_control_characters(void)
{
    FILE *out = tmpfile(), *err = tmpfile(), *save_out = stdout, *save_err = stderr;
    char got[128] = "";
    size_t n;

    stdout = out;
    stderr = err;
    term_safe_streams();
    CHECK(term_raw_stdout() == out);
    CHECK(term_raw_stderr() == err);
    printf("run a\x1b[2Jb \xc3");  /* an escape, and a UTF-8 sequence cut in two */
    fflush(stdout);
    printf("\xa9 ok\n");
    fputs("bad\x07\n", stderr);
    fclose(stdout);
    fclose(stderr);
    stdout = save_out;
    stderr = save_err;
    rewind(out);
    n = fread(got, 1, sizeof(got) - 1, out);
    got[n] = '\0';
    CHECK_STR(got, "run a\\x1B[2Jb \xc3\xa9 ok\n");
    rewind(err);
    n = fread(got, 1, sizeof(got) - 1, err);
    got[n] = '\0';
    CHECK_STR(got, "bad\\x07\n");
    fclose(out);
    fclose(err);
}

int main(void)
{
    RUN(sha256_should_match_fips_vectors);
    RUN(sha256_should_pad_at_every_block_edge);
    RUN(num_should_parse_whole_fields_only);
    RUN(time_should_convert_civil_and_iso);
    RUN(iso_should_refuse_impossible_dates);
    RUN(optval_should_parse_whole_values_with_named_errors);
    RUN(optval_should_read_instants_and_offsets_whole);
    RUN(units_should_name_time_and_memory);
    RUN(src_should_split_lines_and_strip_bom_and_cr);
    RUN(src_should_read_files_across_buffer_refills);
    RUN(colname_should_split_the_unit_and_normalise);
    RUN(json_strict_should_refuse_twice_named_keys_and_infinities);
    RUN(quant_should_show_the_estimate_with_its_bound);
    RUN(safe_streams_should_defuse_control_characters);
    return REPORT();
}
