/* test_benchout.c -- benchmark-tool outputs: redis-benchmark (--csv, report,
 * -q), memtier_benchmark JSON, HdrHistogram text. Fixtures are in
 * tests/data/benchout/ (see its README: which are real, which composed). */
#include <stdlib.h>
#include <string.h>

#include "collect.h"
#include "formats.h"
#include "hdrhist.h"
#include "mem.h"
#include "fixture.h"
#include "minunit.h"
#include "src.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

static char *slurp(const char *name, size_t *n)
{
    char rel[256];
    snprintf(rel, sizeof(rel), "benchout/%s", name);
    return fixture_read(rel, n);
}

static const char *detect_file(const char *name)
{
    char rel[256];
    snprintf(rel, sizeof(rel), "benchout/%s", name);
    return fixture_detect(rel);
}

/* Parse text with p; opts may be NULL; fname goes into the opts. */
static int parse_mem(const cow_parser *p, const char *fname, const char *text,
                     size_t n, const cow_parse_opts *o, collect *c, cow_err *e)
{
    cow_parse_opts oo;
    cow_sink k = collect_sink(c);
    cow_src s;
    int rc;

    memset(&oo, 0, sizeof(oo));
    if (o)
        oo = *o;
    oo.fname = fname;
    cow_err_clear(e);
    src_open_mem(&s, fname, text, n);
    rc = p->parse(&s, &oo, &k, e);
    src_close(&s);
    return rc;
}

static int parse_file(const cow_parser *p, const char *name,
                      const cow_parse_opts *o, collect *c, cow_err *e)
{
    size_t n;
    char *b = slurp(name, &n);
    int rc = parse_mem(p, name, b, n, o, c, e);
    free(b);
    return rc;
}

static int same_op(const char *a, const char *b)
{
    return (a == NULL && b == NULL) || (a && b && strcmp(a, b) == 0);
}

/* The PCTL of op at q; whole-run (t_us == 0) or at t_us. */
static const cow_pctl *pctl(const collect *c, const char *op, double q, int64_t t_us)
{
    size_t i;
    for (i = 0; i < c->n; i++) {
        const cow_pctl *p = &c->recs[i].u.pctl;
        if (c->recs[i].kind == COW_REC_PCTL && same_op(p->op, op) &&
            fabs(p->q - q) < 1e-9 && p->t_us == t_us)
            return p;
    }
    return NULL;
}

static size_t npctl(const collect *c, const char *op, double q)
{
    size_t i, k = 0;
    for (i = 0; i < c->n; i++)
        k += c->recs[i].kind == COW_REC_PCTL && same_op(c->recs[i].u.pctl.op, op) &&
             fabs(c->recs[i].u.pctl.q - q) < 1e-9 && c->recs[i].u.pctl.t_us == 0;
    return k;
}

static const cow_stat *stat(const collect *c, const char *key)
{
    size_t i;
    for (i = 0; i < c->n; i++)
        if (c->recs[i].kind == COW_REC_STAT && strcmp(c->recs[i].u.stat.key, key) == 0)
            return &c->recs[i].u.stat;
    return NULL;
}

static const cow_interval *interval(const collect *c, const char *op, size_t nth)
{
    size_t i;
    for (i = 0; i < c->n; i++)
        if (c->recs[i].kind == COW_REC_INTERVAL && same_op(c->recs[i].u.interval.op, op) &&
            nth-- == 0)
            return &c->recs[i].u.interval;
    return NULL;
}

static const char *note(const collect *c, const char *key)
{
    size_t i;
    for (i = 0; i < c->n; i++)
        if (c->recs[i].kind == COW_REC_NOTE && strcmp(c->recs[i].u.note.key, key) == 0)
            return c->recs[i].u.note.value;
    return NULL;
}

static long pline(const collect *c, const char *op, double q, int64_t t_us)
{
    const cow_pctl *p = pctl(c, op, q, t_us);
    return p ? p->line : -1;
}

/* The i-th reject's line, -1 if there is none. */
static long rline(const collect *c, size_t i)
{
    const cow_rec *r = collect_nth(c, COW_REC_REJECT, i);
    return r ? r->u.reject.line : -1;
}

#define PCTL_IS(c, op, q, t, us, cnt) do { \
    const cow_pctl *pp_ = pctl((c), (op), (q), (t)); \
    CHECK(pp_ != NULL); \
    if (pp_) { CHECK_NEAR(pp_->value_us, (us), 1e-6); CHECK_INT(pp_->count, (cnt)); } \
    } while (0)

#define STAT_IS(c, key, v) do { \
    const cow_stat *st_ = stat((c), (key)); \
    CHECK(st_ != NULL); \
    if (st_) CHECK_NEAR(st_->num, (v), 1e-6); \
    } while (0)

/* ------------------------------------------------------------------ */
/* redis-benchmark --csv                                               */
/* ------------------------------------------------------------------ */

static void rbench_csv_should_read_real_7x_output(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;

    collect_init(&c);
    CHECK_INT(parse_file(&cow_parser_rbench_csv, "rbench_7.0_set_get.csv", NULL, &c, &e), 0);
    /* "SET","128205.12","0.226","0.048","0.215","0.343","0.471","1.527" */
    PCTL_IS(&c, "SET", 0, 0, 48, 0);
    PCTL_IS(&c, "SET", 50, 0, 215, 0);
    PCTL_IS(&c, "SET", 95, 0, 343, 0);
    PCTL_IS(&c, "SET", 99, 0, 471, 0);
    PCTL_IS(&c, "SET", 100, 0, 1527, 0);
    PCTL_IS(&c, "GET", 99, 0, 439, 0);
    CHECK_INT(pline(&c, "GET", 99, 0), 3);
    STAT_IS(&c, "SET:rps", 128205.12);
    STAT_IS(&c, "GET:avg_latency_us", 218);
    CHECK(stat(&c, "SET:rps") && strcmp(stat(&c, "SET:rps")->source, "redis-benchmark") == 0);
    CHECK_INT(collect_count(&c, COW_REC_PCTL), 10);
    CHECK_INT(c.nrejects, 0);
    CHECK(note(&c, "shape") && strstr(note(&c, "shape"), "6.2+"));
    collect_free(&c);

    collect_init(&c);
    CHECK_INT(parse_file(&cow_parser_rbench_csv, "rbench_7.0_mixed.csv", NULL, &c, &e), 0);
    PCTL_IS(&c, "LPUSH (needed to benchmark LRANGE)", 100, 0, 2167, 0);
    PCTL_IS(&c, "LRANGE_100 (first 100 elements)", 50, 0, 711, 0);
    PCTL_IS(&c, "MSET (10 keys)", 99, 0, 2439, 0);
    STAT_IS(&c, "PING_MBULK:rps", 86206.90);
    CHECK_INT(c.nrejects, 0);
    collect_free(&c);
}

static void rbench_csv_should_read_the_headerless_60_shape(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;

    collect_init(&c);
    CHECK_INT(parse_file(&cow_parser_rbench_csv, "rbench_6.0_noheader.csv", NULL, &c, &e), 0);
    CHECK_INT(collect_count(&c, COW_REC_STAT), 4);
    CHECK_INT(collect_count(&c, COW_REC_PCTL), 0);
    STAT_IS(&c, "PING_BULK:rps", 83333.34);
    STAT_IS(&c, "GET:rps", 84033.61);
    CHECK(stat(&c, "PING_INLINE:rps") && stat(&c, "PING_INLINE:rps")->line == 1);
    CHECK(note(&c, "shape") && strstr(note(&c, "shape"), "no latency"));
    collect_free(&c);
}

static void rbench_csv_should_reject_bad_rows_and_keep_odd_names(void)
{
    static const char text[] =
        "\"test\",\"rps\",\"avg_latency_ms\",\"min_latency_ms\",\"p50_latency_ms\","
        "\"p95_latency_ms\",\"p99_latency_ms\",\"max_latency_ms\"\r\n"
        "\r\n"
        "\"SET\",\"100.00\",\"0.500\",\"0.100\",\"0.400\",\"0.900\",\"1.100\",\"2.000\"\r\n"
        "\"SET k \"a,b\"\",\"50.00\",\"1.000\",\"0.200\",\"0.800\",\"1.500\",\"1.900\",\"3.000\"\r\n"
        "\"GET\",\"100.00\",\"0.500\",\"0.100\",\"0.300\",\"0.900\",\"1.100\",\"2.000\"\r\n"
        "\"INCR\",\"100.00\",\"0.500\",\"0.100\",\"0.300\",\"0.900\",\"1.100\",\"2.000\"\r\n"
        "\"LPUSH\",\"100.00\",\"0.500\",\"0.100\",\"abc\",\"0.900\",\"1.100\",\"2.000\"\r\n"
        "\"SET\",\"100.00\",\"0.5";
    static const char junk[] =
        "\"test\",\"rps\"\n\"A\",\"1\"\n\"B\",\"2\"\n\"C\",\"3\"\n\"D\",\"4\"\n"
        "Error: Connection reset by peer\n";
    collect c;
    cow_err e = COW_ERR_INIT;
    const cow_rec *r;

    collect_init(&c);
    CHECK_INT(parse_mem(&cow_parser_rbench_csv, "x.csv", text, strlen(text), NULL, &c, &e), 0);
    PCTL_IS(&c, "SET", 99, 0, 1100, 0);
    /* a custom command printed unescaped keeps its quotes and comma */
    PCTL_IS(&c, "SET k \"a,b\"", 100, 0, 3000, 0);
    CHECK_INT(c.nrejects, 2);
    CHECK_INT(rline(&c, 0), 7);
    CHECK_INT(rline(&c, 1), 8);
    if ((r = collect_nth(&c, COW_REC_REJECT, 1)) != NULL) {
        CHECK_STR(collect_nth(&c, COW_REC_REJECT, 0)->u.reject.reason,
                  "column 5 is not a number >= 0");
        CHECK(strncmp(r->u.reject.reason, "truncated last line", 19) == 0);
    }
    collect_free(&c);

    collect_init(&c);
    CHECK_INT(parse_mem(&cow_parser_rbench_csv, "y.csv", junk, strlen(junk), NULL, &c, &e), 0);
    CHECK_INT(c.nrejects, 1);
    CHECK_INT(rline(&c, 0), 6);
    if ((r = collect_nth(&c, COW_REC_REJECT, 0)) != NULL)
        CHECK(strstr(r->u.reject.reason, "expected 2 fields as in the header") != NULL);
    collect_free(&c);
}

static void rbench_csv_should_refuse_a_file_without_results(void)
{
    static const char hdr[] = "\"test\",\"rps\",\"avg_latency_ms\"\n";
    static const char junk[] = "\"test\",\"rps\"\n\"A\",\"1\"\nx\ny\nz\n";
    collect c;
    cow_err e = COW_ERR_INIT;

    collect_init(&c);
    CHECK_INT(parse_mem(&cow_parser_rbench_csv, "h.csv", hdr, strlen(hdr), NULL, &c, &e),
              COW_EPARSE);
    CHECK_STR(e.path, "h.csv");
    CHECK_INT(e.line, 1);
    CHECK(strstr(e.msg, "no benchmark result") != NULL);
    collect_free(&c);
    collect_init(&c);
    CHECK_INT(parse_mem(&cow_parser_rbench_csv, "j.csv", junk, strlen(junk), NULL, &c, &e),
              COW_EPARSE);
    CHECK(strstr(e.msg, "3 of 4 lines") != NULL);
    collect_free(&c);
}

/* ------------------------------------------------------------------ */
/* redis-benchmark report and -q                                       */
/* ------------------------------------------------------------------ */

static void rbench_text_should_read_the_real_report(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;
    const cow_stat *st;

    collect_init(&c);
    CHECK_INT(parse_file(&cow_parser_rbench_text, "rbench_7.0_report.txt", NULL, &c, &e), 0);
    CHECK_INT(c.nrejects, 0);
    /* Summary: avg 0.344 min 0.032 p50 0.319 p95 0.543 p99 1.047 max 1.887 */
    PCTL_IS(&c, "SET", 0, 0, 32, 5000);
    PCTL_IS(&c, "SET", 50, 0, 319, 5000);
    PCTL_IS(&c, "SET", 95, 0, 543, 5000);
    PCTL_IS(&c, "SET", 99, 0, 1047, 5000);
    PCTL_IS(&c, "SET", 100, 0, 1887, 5000);
    CHECK_INT(pline(&c, "SET", 99, 0), 50);
    /* ladder rows the summary does not repeat */
    PCTL_IS(&c, "SET", 75, 0, 407, 5000);
    PCTL_IS(&c, "SET", 99.988, 0, 1887, 5000);
    CHECK_INT(pline(&c, "SET", 75, 0), 13);
    CHECK_INT(npctl(&c, "SET", 50), 1);
    CHECK_INT(npctl(&c, "SET", 100), 1);
    CHECK_INT(npctl(&c, "SET", 0), 1);
    STAT_IS(&c, "SET:rps", 90909.09);
    STAT_IS(&c, "SET:avg_latency_us", 344);
    STAT_IS(&c, "SET:requests", 5000);
    STAT_IS(&c, "SET:duration_s", 0.05);
    STAT_IS(&c, "SET:clients", 50);
    st = stat(&c, "host:appendonly");
    CHECK(st != NULL && strcmp(st->text, "no") == 0);
    PCTL_IS(&c, "GET", 100, 0, 3023, 5000);
    collect_free(&c);

    collect_init(&c);
    CHECK_INT(parse_file(&cow_parser_rbench_text, "rbench_7.0_quiet.txt", NULL, &c, &e), 0);
    CHECK_INT(c.nrejects, 0);
    STAT_IS(&c, "SET:rps", 90909.09);
    PCTL_IS(&c, "GET", 50, 0, 311, 0);
    collect_free(&c);
}

static void rbench_text_should_reject_garbage_inside_a_report(void)
{
    static const char text[] =
        "====== GET ======\n"
        "  1000 requests completed in 0.01 seconds\n"
        "  what is this\n"
        "Latency by percentile distribution:\n"
        "0.000% <= 0.100 milliseconds (cumulative count 1)\n"
        "50.000% <= 0.2x0 milliseconds (cumulative count 500)\n"
        "100.000% <= 0.900 milliseconds (cumulative count 1000)\n";
    collect c;
    cow_err e = COW_ERR_INIT;

    collect_init(&c);
    CHECK_INT(parse_mem(&cow_parser_rbench_text, "r.txt", text, strlen(text), NULL, &c, &e), 0);
    CHECK_INT(c.nrejects, 2);
    CHECK_INT(rline(&c, 0), 3);
    CHECK_INT(rline(&c, 1), 6);
    /* no summary: the ladder's own ends are kept */
    PCTL_IS(&c, "GET", 0, 0, 100, 1000);
    PCTL_IS(&c, "GET", 100, 0, 900, 1000);
    collect_free(&c);
}

/* ------------------------------------------------------------------ */
/* memtier JSON                                                        */
/* ------------------------------------------------------------------ */

#define MT_START INT64_C(1738587731532000)

static void memtier_should_read_totals_percentiles_and_series(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;
    const cow_interval *iv;

    collect_init(&c);
    CHECK_INT(parse_file(&cow_parser_memtier_json, "memtier_2.2_all_stats.json", NULL, &c, &e), 0);
    CHECK_INT(c.nrejects, 0);
    PCTL_IS(&c, "Sets", 50, 0, 383, 2500);
    PCTL_IS(&c, "Sets", 99.9, 0, 1207, 2500);
    PCTL_IS(&c, "Sets", 0, 0, 103, 2500);
    PCTL_IS(&c, "Sets", 100, 0, 12543, 2500);
    PCTL_IS(&c, "Gets", 99, 0, 895, 2500);
    PCTL_IS(&c, "Totals", 50, 0, 379, 5000);
    CHECK(pctl(&c, "Waits", 50, 0) == NULL); /* Count 0: its 0.000s mean nothing */
    STAT_IS(&c, "Sets:ops_per_sec", 499.2);
    STAT_IS(&c, "Totals:count", 5000);
    STAT_IS(&c, "Gets:avg_latency_us", 401);
    STAT_IS(&c, "config:clients", 5);
    STAT_IS(&c, "config:key_maximum", 10000000);
    STAT_IS(&c, "run:Threads", 2);
    /* 5 entries + the missing second 2, for Sets, Gets, Totals */
    CHECK_INT(collect_count(&c, COW_REC_INTERVAL), 18);
    iv = interval(&c, "Sets", 0);
    CHECK(iv != NULL && interval(&c, "Sets", 5) != NULL);
    if (iv == NULL || interval(&c, "Sets", 5) == NULL) {
        collect_free(&c);
        return;
    }
    CHECK_INT(iv->t_us, MT_START + 1000000);
    CHECK_INT(iv->count, 500);
    CHECK_NEAR(iv->avg_us, 401, 1e-6);
    CHECK_NEAR(iv->min_us, 103, 1e-6);
    CHECK_NEAR(iv->max_us, 1207, 1e-6);
    CHECK_NEAR(iv->dur_s, 1, 1e-12);
    iv = interval(&c, "Sets", 2); /* the stall: no entry in the file */
    CHECK_INT(iv->t_us, MT_START + 3000000);
    CHECK_INT(iv->count, 0);
    CHECK(isnan(iv->avg_us) && isnan(iv->max_us));
    iv = interval(&c, "Sets", 3);
    CHECK_NEAR(iv->max_us, 12543, 1e-6);
    CHECK_INT(iv->line, 87);
    iv = interval(&c, "Sets", 5); /* the final partial second ends at finish */
    CHECK_INT(iv->t_us, INT64_C(1738587736540000));
    CHECK_NEAR(iv->dur_s, 0.008, 1e-9);
    /* per-second percentiles carry the second's end */
    PCTL_IS(&c, "Sets", 99, MT_START + 4000000, 12543, 430);
    CHECK_INT(pline(&c, "Sets", 99, MT_START + 4000000), 97);
    CHECK(note(&c, "run_start") && strcmp(note(&c, "run_start"), "2025-02-03T13:02:11.532Z") == 0);
    collect_free(&c);
}

static void memtier_should_read_old_files_with_nan(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;
    const cow_interval *iv;
    const cow_rec *r;

    collect_init(&c);
    CHECK_INT(parse_file(&cow_parser_memtier_json, "memtier_1.4_nan.json", NULL, &c, &e), 0);
    CHECK(note(&c, "nan") != NULL);
    PCTL_IS(&c, "Sets", 50, 0, 231, 300);
    PCTL_IS(&c, "Totals", 99.9, 0, 2100, 300);
    iv = interval(&c, "Sets", 2);
    CHECK(iv != NULL && collect_nth(&c, COW_REC_REJECT, 1) != NULL);
    if (iv == NULL || collect_nth(&c, COW_REC_REJECT, 1) == NULL) {
        collect_free(&c);
        return;
    }
    CHECK_INT(iv->t_us, INT64_C(1577880002250000)); /* clipped at finish */
    CHECK(isnan(iv->avg_us));
    CHECK_NEAR(iv->max_us, 500, 1e-6);
    /* p50.00: -nan in the series and p99.90: nan in the totals */
    CHECK_INT(c.nrejects, 2);
    r = collect_nth(&c, COW_REC_REJECT, 1);
    CHECK_STR(r->u.reject.text, "Sets/Percentile Latencies/p99.90");
    CHECK_INT(r->u.reject.line, 73);
    CHECK(strstr(r->u.reject.reason, "not a number") != NULL);
    collect_free(&c);
}

static void memtier_should_label_multi_run_results(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;

    collect_init(&c);
    CHECK_INT(parse_file(&cow_parser_memtier_json, "memtier_2.2_runs.json", NULL, &c, &e), 0);
    PCTL_IS(&c, "run1:Totals", 99, 0, 800, 2000);
    PCTL_IS(&c, "run2:Totals", 99, 0, 1600, 2000);
    PCTL_IS(&c, "worst:Totals", 99, 0, 1600, 2000);
    PCTL_IS(&c, "avg:Totals", 99, 0, 1200, 2000);
    PCTL_IS(&c, "best:Totals", 100, 0, 3000, 2000);
    CHECK_INT(npctl(&c, "best:Totals", 100), 1); /* p100.0 given: Max not repeated */
    CHECK_INT(collect_count(&c, COW_REC_PCTL), 5 * 4);
    collect_free(&c);
}

static void memtier_should_refuse_broken_json_with_its_position(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;
    size_t n, cut, i;
    long lines = 1;
    char *b = slurp("memtier_2.2_all_stats.json", &n);

    /* truncated in the middle of a line */
    cut = n / 2;
    while (b[cut] == '\n' || b[cut - 1] == '\n' || b[cut - 1] == '\t')
        cut++;
    for (i = 0; i < cut; i++)
        lines += b[i] == '\n';
    collect_init(&c);
    CHECK_INT(parse_mem(&cow_parser_memtier_json, "m.json", b, cut, NULL, &c, &e), COW_EPARSE);
    CHECK_STR(e.path, "m.json");
    CHECK_INT(e.line, lines);
    CHECK(e.col > 1);
    CHECK(strstr(e.msg, "truncated") != NULL);
    collect_free(&c);

    /* a damaged byte: line 20 is "\t\t\"key_minimum\":           0," */
    b[strstr(b, "\"key_minimum\"") - b + 15] = 'x';
    collect_init(&c);
    CHECK_INT(parse_mem(&cow_parser_memtier_json, "m.json", b, n, NULL, &c, &e), COW_EPARSE);
    CHECK_INT(e.line, 20);
    CHECK(strstr(e.msg, "not valid JSON") != NULL);
    CHECK_INT(collect_count(&c, COW_REC_PCTL), 0);
    collect_free(&c);
    free(b);
}

static void memtier_should_refuse_an_unknown_time_unit(void)
{
    static const char text[] =
        "{\"ALL STATS\": {\"Runtime\": {\"Start time\": 1738587731532,\n"
        "\"Time unit\": \"FORTNIGHTS\"}, \"Totals\": {\"Count\": 1,\n"
        "\"Percentile Latencies\": {\"p50.00\": 0.5}}}}\n";
    cow_parse_opts o;
    collect c;
    cow_err e = COW_ERR_INIT;

    collect_init(&c);
    CHECK_INT(parse_mem(&cow_parser_memtier_json, "u.json", text, strlen(text), NULL, &c, &e),
              COW_EUNIT);
    CHECK(strstr(e.msg, "--latency-unit") != NULL);
    CHECK(strstr(e.msg, "latency_unit") != NULL);
    collect_free(&c);
    memset(&o, 0, sizeof(o));
    o.latency_unit = "us";
    collect_init(&c);
    CHECK_INT(parse_mem(&cow_parser_memtier_json, "u.json", text, strlen(text), &o, &c, &e), 0);
    PCTL_IS(&c, "Totals", 50, 0, 0.5, 1);
    collect_free(&c);
}

/* ------------------------------------------------------------------ */
/* HdrHistogram                                                        */
/* ------------------------------------------------------------------ */

static void hgrm_should_read_memtier_classic_table_in_ms(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;

    collect_init(&c);
    CHECK_INT(parse_file(&cow_parser_hgrm, "memtier_FULL_RUN_1.txt", NULL, &c, &e), 0);
    CHECK_INT(collect_count(&c, COW_REC_PCTL), 9);
    PCTL_IS(&c, "Totals", 99, 0, 911, 2476);
    PCTL_IS(&c, "Totals", 93.75, 0, 527, 2344);
    PCTL_IS(&c, "Totals", 100, 0, 12543, 2500);
    CHECK_INT(pline(&c, "Totals", 100, 0), 11);
    STAT_IS(&c, "Totals:mean_us", 412);
    STAT_IS(&c, "Totals:total_count", 2500);
    CHECK(note(&c, "latency_unit") && strncmp(note(&c, "latency_unit"), "ms:", 3) == 0);
    CHECK(note(&c, "total_count") == NULL);
    CHECK_INT(c.nrejects, 0);
    collect_free(&c);
}

static void hgrm_should_read_java_tables_and_need_a_unit(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;
    cow_parse_opts o;

    collect_init(&c);
    CHECK_INT(parse_file(&cow_parser_hgrm, "hdrjs_java_ms.hgrm", NULL, &c, &e), 0);
    CHECK_INT(collect_count(&c, COW_REC_PCTL), 57);
    PCTL_IS(&c, NULL, 0, 0, 150, 20);
    PCTL_IS(&c, NULL, 10, 0, 178, 204);
    PCTL_IS(&c, NULL, 100, 0, 12335, 2000); /* the 3-column last row */
    STAT_IS(&c, "max_us", 12328);
    CHECK_INT(c.nrejects, 0);
    collect_free(&c);

    /* nothing says the unit: refused, naming the flag */
    collect_init(&c);
    CHECK_INT(parse_file(&cow_parser_hgrm, "hdrjs_java_csv.hgrm", NULL, &c, &e), COW_EUNIT);
    CHECK(strstr(e.msg, "--latency-unit") != NULL);
    CHECK(strstr(e.msg, "\"latency_unit\"") != NULL);
    CHECK_INT(e.line, 1);
    collect_free(&c);

    memset(&o, 0, sizeof(o));
    o.latency_unit = "us";
    collect_init(&c);
    CHECK_INT(parse_file(&cow_parser_hgrm, "hdrjs_java_csv.hgrm", &o, &c, &e), 0);
    CHECK_INT(collect_count(&c, COW_REC_PCTL), 9);
    PCTL_IS(&c, NULL, 50, 0, 500, 50);
    PCTL_IS(&c, NULL, 100, 0, 1000, 100);
    collect_free(&c);
}

static void hgrm_should_read_interval_log_maxima(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;

    collect_init(&c);
    CHECK_INT(parse_file(&cow_parser_hgrm, "memtier_FULL_RUN_1.hgrm", NULL, &c, &e), 0);
    /* each interval's histogram decoded: 5 percentiles + the max column */
    CHECK_INT(collect_count(&c, COW_REC_PCTL), 12);
    PCTL_IS(&c, "Totals", 100, INT64_C(1738587736540000), 12583, 301);
    PCTL_IS(&c, "Totals", 100, INT64_C(1738587741548000), 2047, 301);
    PCTL_IS(&c, "Totals", 50, INT64_C(1738587736540000), 292, 163);
    PCTL_IS(&c, "Totals", 99, INT64_C(1738587736540000), 484, 300);
    PCTL_IS(&c, "Totals", 99.9, INT64_C(1738587736540000), 12583, 301);
    PCTL_IS(&c, "Totals", 90, INT64_C(1738587741548000), 468, 284);
    CHECK_INT(collect_count(&c, COW_REC_INTERVAL), 2);
    CHECK(interval(&c, "Totals", 0) && interval(&c, "Totals", 0)->count == 301 &&
          fabs(interval(&c, "Totals", 0)->avg_us - 338.747508) < 1e-5 &&
          interval(&c, "Totals", 0)->min_us == 100);
    CHECK(note(&c, "latency_unit") && strncmp(note(&c, "latency_unit"), "us:", 3) == 0);
    collect_free(&c);
}

/* The compressed V2 decoder against memtier's own figures: test_timestamps
 * .json in memtier's repository prints, for Sets, p50 0.031, p99 0.095,
 * p99.9 0.207 ms and Count 5278 next to its "Compressed Histogram". */
static void hdr_should_decode_memtier_histograms_to_its_percentiles(void)
{
    static const char sets[] = "HISTFAAAAEl4nJNpmSzMwMCgyQABTFCaC0QoH3ZjsP8AEWBeJPuF7w/"
        "vDa5X7OeYowwkBDi4+Fh4BLhYWFiYGFmYuJm8mfiZmJnMmQDGPwsC";
    static const char gets[] = "HISTFAAAAIF4nJNpmSzMwMCQzgABTFCaC0QoH3ZjsP8AEWBe9YHpklfHOcY"
        "+qzdhTXyXmNcxrWKcwlgU5xGQ1MQYZ6ahIiYmJsDFxcHByMLCwsXBxAiETMxsTCxMTEwsjCDEyMLIwgYSZmdh"
        "ZRJkYpJnYgZSvEzCTJFMukxbWZkWMzIBAJ4lE/s=";
    cow_hdr h;
    const char *why = NULL;

    CHECK_INT(hdr_decode(sets, sizeof(sets) - 1, &h, &why), 0);
    CHECK_INT(h.total, 5278);
    CHECK_INT(hdr_value_at(&h, 50), 31);
    CHECK_INT(hdr_value_at(&h, 99), 95);
    CHECK_INT(hdr_value_at(&h, 99.9), 207);
    CHECK_INT(hdr_max(&h), 903);   /* "Max Latency": 0.903 */
    hdr_free(&h);
    CHECK_INT(hdr_decode(gets, sizeof(gets) - 1, &h, &why), 0);
    CHECK_INT(h.total, 52777);
    CHECK_INT(hdr_value_at(&h, 99.9), 263);
    CHECK_INT(hdr_max(&h), 16063);
    hdr_free(&h);
    CHECK(hdr_decode("HISTFAAAAEl4nJNp", 16, &h, &why) != 0 && why != NULL);
    CHECK(hdr_decode("not base64!", 11, &h, &why) != 0);
}

/* A Java HdrHistogram log (format 1.3, Interval_Length, a .perf file shown
 * in a project's README): ns recorded, the max column in ms. */
static void hgrm_should_decode_a_java_interval_log(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;
    const int64_t t1 = INT64_C(1633286203972000) + 617000;

    collect_init(&c);
    CHECK_INT(parse_file(&cow_parser_hgrm, "java_perf_1.3_ms.hlog", NULL, &c, &e), 0);
    CHECK_INT(c.nrejects, 0);
    CHECK_INT(collect_count(&c, COW_REC_INTERVAL), 4);
    PCTL_IS(&c, NULL, 99, t1, 26083.327, 10);
    PCTL_IS(&c, NULL, 50, t1, 14876.671, 5);
    PCTL_IS(&c, NULL, 100, t1, 26083, 10);
    CHECK(interval(&c, NULL, 3) && fabs(interval(&c, NULL, 3)->dur_s - 0.608) < 1e-9);
    collect_free(&c);
}

static void hgrm_should_reject_garbage_and_unwrap_counts(void)
{
    static const char text[] =
        "       Value   Percentile   TotalCount 1/(1-Percentile)\r\n"
        "\r\n"
        "       1.000     0.000000            1         1.00\r\n"
        "       2.000     0.500000   2147483647         2.00\r\n"
        "       2.5x0     0.750000   2147483647         4.00\r\n"
        "       3.000     1.000000  -2147483648          inf\r\n"
        "#[Mean    =        2.000, StdDeviation   =        0.500]\r\n"
        "#[Max     =        3.000, Total count    =   2147483648]\r\n"
        "       4.000     1.0000";
    collect c;
    cow_err e = COW_ERR_INIT;
    const cow_rec *r;

    collect_init(&c);
    CHECK_INT(parse_mem(&cow_parser_hgrm, "lat_ms.hgrm", text, strlen(text), NULL, &c, &e), 0);
    CHECK_INT(collect_count(&c, COW_REC_PCTL), 3);
    PCTL_IS(&c, NULL, 100, 0, 3000, INT64_C(2147483648));
    CHECK_INT(c.nrejects, 2);
    r = collect_nth(&c, COW_REC_REJECT, 0);
    CHECK_INT(r->u.reject.line, 5);
    CHECK_STR(r->u.reject.reason, "Value is not a number >= 0");
    r = collect_nth(&c, COW_REC_REJECT, 1);
    CHECK_INT(r->u.reject.line, 9);
    CHECK(strncmp(r->u.reject.reason, "truncated last line", 19) == 0);
    collect_free(&c);
}

/* ------------------------------------------------------------------ */
/* Sniffing                                                            */
/* ------------------------------------------------------------------ */

static void sniff_should_pick_the_right_parser(void)
{
    static const char latcsv[] = "t_us,lat_us\n1738587731532000,250\n";
    static const char rbcsv[] = "\"test\",\"rps\",\"avg_latency_ms\",\"min_latency_ms\"\n";
    const cow_parser *p;

    CHECK_STR(detect_file("rbench_7.0_set_get.csv"), "redis-benchmark-csv");
    CHECK_STR(detect_file("rbench_6.0_noheader.csv"), "redis-benchmark-csv");
    CHECK_STR(detect_file("rbench_7.0_report.txt"), "redis-benchmark");
    CHECK_STR(detect_file("rbench_7.0_quiet.txt"), "redis-benchmark");
    CHECK_STR(detect_file("memtier_2.2_all_stats.json"), "memtier-json");
    CHECK_STR(detect_file("memtier_1.4_nan.json"), "memtier-json");
    CHECK_STR(detect_file("memtier_FULL_RUN_1.txt"), "hdr-percentiles");
    CHECK_STR(detect_file("memtier_FULL_RUN_1.hgrm"), "hdr-percentiles");
    CHECK_STR(detect_file("hdrjs_java_ms.hgrm"), "hdr-percentiles");
    CHECK_STR(detect_file("hdrjs_java_csv.hgrm"), "hdr-percentiles");
    /* a per-sample latency CSV is not ours */
    CHECK_INT(cow_parser_rbench_csv.sniff("a.csv", latcsv, strlen(latcsv)), 0);
    CHECK_INT(cow_parser_hgrm.sniff("a.csv", latcsv, strlen(latcsv)), 0);
    CHECK_INT(cow_parser_rbench_csv.sniff("b.csv", rbcsv, strlen(rbcsv)), 95);
    CHECK(cow_parser_latency_csv.sniff("b.csv", rbcsv, strlen(rbcsv)) < 95);
    p = parser_detect("a.csv", latcsv, strlen(latcsv));
    CHECK(p != NULL && strcmp(p->name, "latency-csv") == 0);
}

/* memtier's own example of an interrupted run (its repository's
 * test_runtime.json, trimmed): "Finish time": 0. The bad field is a
 * rejected line naming it; the start, the percentiles and the per-second
 * series land. The refusal used to blame "Start time", which is valid. */
static void memtier_should_keep_an_interrupted_run_with_a_bogus_finish(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;
    const cow_rec *r;
    const cow_interval *iv;
    const int64_t start = INT64_C(1758716446643) * 1000;

    collect_init(&c);
    CHECK_INT(parse_file(&cow_parser_memtier_json, "memtier_2.4_interrupted.json", NULL, &c, &e), 0);
    CHECK_INT(c.nrejects, 1);
    r = collect_nth(&c, COW_REC_REJECT, 0);
    CHECK(r != NULL && r->u.reject.line == 29 &&
          strstr(r->u.reject.reason, "\"Finish time\"") != NULL &&
          strstr(r->u.reject.reason, "Start time") == NULL);
    PCTL_IS(&c, "Sets", 99, 0, 151, 4653);
    PCTL_IS(&c, "Gets", 99.9, 0, 303, 46527);
    PCTL_IS(&c, "Totals", 50, 0, 31, 51180);
    iv = interval(&c, "Gets", 1);
    CHECK(iv != NULL && iv->t_us == start + 2000000 && iv->count == 25933);
    CHECK(pctl(&c, "Gets", 99, start + 1000000) != NULL);
    CHECK(note(&c, "interrupted") && strstr(note(&c, "interrupted"), "INTERRUPTED") != NULL);
    collect_free(&c);
    /* a bad start still refuses, and says which field */
    {
        static const char bad[] = "{\"ALL STATS\":{\"Runtime\":{\"Start time\": 12,"
            "\"Finish time\": 1758716247198,\"Time unit\": \"MILLISECONDS\"},"
            "\"Totals\":{\"Count\": 1,\"Percentile Latencies\":{\"p50.00\": 0.031}}}}";
        collect_init(&c);
        CHECK_INT(parse_mem(&cow_parser_memtier_json, "m.json", bad, sizeof(bad) - 1, NULL, &c, &e),
                  COW_ECLOCK);
        CHECK(strstr(e.msg, "\"Start time\" is not") != NULL && strstr(e.msg, "Finish") == NULL);
        collect_free(&c);
    }
}

/* HdrHistogram_c prints the table with the histogram's significant figures
 * (2 here) and the footer's #[Max = ...] with three decimals: the maximum
 * is the footer's. */
static void hgrm_should_take_the_max_from_the_footer(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;

    collect_init(&c);
    CHECK_INT(parse_file(&cow_parser_hgrm, "memtier2dec_SET_command_run_1.txt", NULL, &c, &e), 0);
    CHECK_INT(c.nrejects, 0);
    PCTL_IS(&c, "SET", 100, 0, 12543, 2500);
    PCTL_IS(&c, "SET", 99.9, 0, 1210, 2498);
    CHECK_INT(pline(&c, "SET", 100, 0), 11);
    CHECK(note(&c, "max") != NULL);
    collect_free(&c);
}

/* wrk2's stdout: the spectrum in ms is read, the rounded summary before
 * it skipped, the totals after it kept; without a spectrum, refused with
 * what to do */
static void hgrm_should_read_wrk2_stdout(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;
    size_t n;
    char *t = slurp("wrk2_latency.txt", &n), *cut;

    CHECK_STR(detect_file("wrk2_latency.txt"), "hdr-percentiles");
    collect_init(&c);
    CHECK_INT(parse_file(&cow_parser_hgrm, "wrk2_latency.txt", NULL, &c, &e), 0);
    CHECK_INT(c.nrejects, 0);
    PCTL_IS(&c, NULL, 50, 0, 1110, 49950);
    PCTL_IS(&c, NULL, 99.9, 0, 2340, 99800); /* the spectrum's, not the summary's 2.34ms */
    CHECK_INT(pline(&c, NULL, 99.9, 0), 27);
    CHECK(stat(&c, "wrk:requests") != NULL && stat(&c, "wrk:requests")->num == 119956);
    CHECK(stat(&c, "wrk:requests_per_sec") != NULL &&
          stat(&c, "wrk:requests_per_sec")->num == 1999.21);
    CHECK_STR(note(&c, "latency_unit"), "ms: wrk2 prints its percentile spectrum in milliseconds");
    collect_free(&c);
    /* the summary alone (wrk2 without --latency) */
    cut = strstr(t, "  Detailed Percentile");
    CHECK(cut != NULL);
    if (cut) {
        *cut = '\0';
        collect_init(&c);
        CHECK_INT(parse_mem(&cow_parser_hgrm, "wrk2.txt", t, strlen(t), NULL, &c, &e),
                  COW_EPARSE);
        CHECK(strstr(e.msg, "run wrk2 with --latency") != NULL);
        collect_free(&c);
    }
    free(t);
}

/* memtier's stdout report: the ALL STATS table's percentiles (ms) and
 * per-command figures; the progress, settings and histogram skipped; bad
 * rows rejected; a file without a table refused */
static void memtier_text_should_read_the_stats_table(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;
    static const char bad[] =
        "ALL STATS\n=====================\n"
        "Type         Ops/sec    p99 Latency       KB/sec\n"
        "------------------------------------------------\n"
        "Sets         7154.42        4.79900       551.02\n"
        "Gets         7154.42        x.79900       551.02\n"
        "Totals       7154.42        4.79900\n";

    CHECK_STR(detect_file("memtier_2.0_stdout.txt"), "memtier-text");
    collect_init(&c);
    CHECK_INT(parse_file(&cow_parser_memtier_text, "memtier_2.0_stdout.txt", NULL, &c, &e), 0);
    CHECK_INT(c.nrejects, 0);
    PCTL_IS(&c, "Totals", 99.9, 0, 15487, 0);
    PCTL_IS(&c, "Sets", 50, 0, 2351, 0);
    CHECK_INT(pline(&c, "Gets", 99, 0), 16);
    CHECK_INT((long)npctl(&c, "Waits", 99), 0); /* "---" */
    STAT_IS(&c, "Totals:ops_per_sec", 78620.03);
    STAT_IS(&c, "Gets:avg_latency_us", 2544.65);
    CHECK_STR(note(&c, "shape"), "1 table, 4 rows; 15 other lines skipped (progress, "
                                 "settings, histogram)");
    collect_free(&c);

    collect_init(&c);
    CHECK_INT(parse_mem(&cow_parser_memtier_text, "m.txt", bad, strlen(bad), NULL, &c, &e), 0);
    CHECK_INT(c.nrejects, 2);
    CHECK_STR(collect_nth(&c, COW_REC_REJECT, 0)->u.reject.reason,
              "a value is neither a number >= 0 nor ---");
    CHECK_STR(collect_nth(&c, COW_REC_REJECT, 1)->u.reject.reason,
              "not one value per column of the table's header");
    PCTL_IS(&c, "Sets", 99, 0, 4799, 0);
    collect_free(&c);

    collect_init(&c);
    CHECK_INT(parse_mem(&cow_parser_memtier_text, "m.txt", "4 Threads\n", 10, NULL, &c, &e),
              COW_EPARSE);
    collect_free(&c);
}

int main(void)
{
    RUN(rbench_csv_should_read_real_7x_output);
    RUN(rbench_csv_should_read_the_headerless_60_shape);
    RUN(rbench_csv_should_reject_bad_rows_and_keep_odd_names);
    RUN(rbench_csv_should_refuse_a_file_without_results);
    RUN(rbench_text_should_read_the_real_report);
    RUN(rbench_text_should_reject_garbage_inside_a_report);
    RUN(memtier_should_read_totals_percentiles_and_series);
    RUN(memtier_should_read_old_files_with_nan);
    RUN(memtier_should_label_multi_run_results);
    RUN(memtier_should_refuse_broken_json_with_its_position);
    RUN(memtier_should_refuse_an_unknown_time_unit);
    RUN(memtier_should_keep_an_interrupted_run_with_a_bogus_finish);
    RUN(hgrm_should_read_memtier_classic_table_in_ms);
    RUN(hgrm_should_read_java_tables_and_need_a_unit);
    RUN(hgrm_should_read_interval_log_maxima);
    RUN(hdr_should_decode_memtier_histograms_to_its_percentiles);
    RUN(hgrm_should_decode_a_java_interval_log);
    RUN(hgrm_should_take_the_max_from_the_footer);
    RUN(hgrm_should_read_wrk2_stdout);
    RUN(memtier_text_should_read_the_stats_table);
    RUN(hgrm_should_reject_garbage_and_unwrap_counts);
    RUN(sniff_should_pick_the_right_parser);
    return REPORT();
}
