/* test_kstat.c -- the kernel's own account: capture's kstat.csv as
 * records (ingest/kstat.c) and a save window's account and causes
 * (analysis/kacct.c), against values worked out by hand. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect.h"
#include "formats.h"
#include "kacct.h"
#include "minunit.h"

#define HEAD "timestamp_us,task,pid,minflt,majflt,utime_us,stime_us,run_delay_us,read_bytes,write_bytes\n"

static int parse(const char *text, collect *c, cow_err *e)
{
    cow_parse_opts o;
    cow_sink k = collect_sink(c);
    cow_src s;
    int rc;
    memset(&o, 0, sizeof(o));
    o.fname = "kstat.csv";
    collect_init(c);
    src_open_mem(&s, "kstat.csv", text, strlen(text));
    rc = cow_parser_kstat.parse(&s, &o, &k, e);
    src_close(&s);
    return rc;
}

/* ingest requirement 1 */
static void kstat_should_be_known_by_its_exact_header(void)
{
    static const char yes[] = HEAD "1796639576882387,main,14261,106348,1,850000,290000,1110,69632,24576\n";
    static const char *const no[] = {
        "timestamp_us,task,pid,minflt\n1,main,2,3\n", "timestamp_us,ops\n1,2\n",
        " " HEAD, NULL};
    size_t i;
    CHECK_INT(cow_parser_kstat.sniff("kstat.csv", yes, strlen(yes)), 95);
    CHECK(parser_detect("any.csv", yes, strlen(yes)) == &cow_parser_kstat);
    for (i = 0; no[i]; i++)
        CHECK_INT(cow_parser_kstat.sniff("kstat.csv", no[i], strlen(no[i])), 0);
}

/* ingest requirement 2: one stat per value, the pid as text */
static void rows_should_become_one_stat_per_value(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;
    const cow_rec *r;
    CHECK_INT(parse(HEAD "1796639576882387,main,14261,106348,1,850000,290000,1110,69632,24576\n"
                    "1796639579937424,child,14275,262,0,30000,0,,,\n", &c, &e), COW_OK);
    CHECK_INT(collect_count(&c, COW_REC_STAT), 7 + 4);
    r = collect_nth(&c, COW_REC_STAT, 0);
    CHECK_STR(r->u.stat.source, "kstat-main");
    CHECK_STR(r->u.stat.key, "minflt");
    CHECK_STR(r->u.stat.text, "14261");
    CHECK(r->u.stat.num == 106348);
    CHECK_INT(r->u.stat.t_us, 1796639576882387LL);
    CHECK_INT(r->u.stat.line, 2);
    r = collect_nth(&c, COW_REC_STAT, 4);
    CHECK_STR(r->u.stat.key, "run_delay_us");
    CHECK_STR(r->u.stat.unit, "us");
    r = collect_nth(&c, COW_REC_STAT, 7); /* the child: no delay, no io */
    CHECK_STR(r->u.stat.source, "kstat-child");
    CHECK_STR(r->u.stat.text, "14275");
    CHECK_STR(collect_nth(&c, COW_REC_STAT, 10)->u.stat.key, "stime_us");
    CHECK_INT(c.nrejects, 0);
    collect_free(&c);
}

/* ingest requirement 3 */
static void bad_rows_should_be_rejects_with_reasons(void)
{
    static const struct {
        const char *row, *why;
    } t[] = {{"1796639576882387,thread,1,2,3,4,5,6,7,8", "task is neither main nor child"},
             {"1796639576882387,main,1,-2,3,4,5,6,7,8", "a value is not a whole number >= 0"},
             {"1796639576882,main,1,2,3,4,5,6,7,8",
              "timestamp_us is not an epoch in us (1990..2100)"},
             {"1796639576882387,main,1,2,3,4,5,6,7", "not ten fields"},
             {"1796639576882387,main,1,,3,4,5,6,7,8", "a value is not a whole number >= 0"},
             {"1796639576882387,main,0,2,3,4,5,6,7,8", "pid is 0"}};
    size_t i;
    for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
        collect c;
        cow_err e = COW_ERR_INIT;
        char text[512];
        snprintf(text, sizeof(text), HEAD "%s\n", t[i].row);
        CHECK_INT(parse(text, &c, &e), COW_OK);
        CHECK_INT(collect_count(&c, COW_REC_STAT), 0);
        CHECK_INT(c.nrejects, 1);
        CHECK_STR(collect_nth(&c, COW_REC_REJECT, 0)->u.reject.reason, t[i].why);
        collect_free(&c);
    }
    {
        collect c;
        cow_err e = COW_ERR_INIT;
        CHECK(parse("timestamp_us,ops\n1,2\n", &c, &e) != COW_OK);
        CHECK_INT(e.line, 1);
        collect_free(&c);
    }
    {   /* mostly bad rows: the file is refused whole, naming its last line */
        collect c;
        cow_err e = COW_ERR_INIT;
        char text[4096];
        size_t o = (size_t)snprintf(text, sizeof(text), "%s", HEAD);
        int j;
        for (j = 0; j < 20; j++)
            o += (size_t)snprintf(text + o, sizeof(text) - o, "x,main,1,2,3,4,5,6,7,8\n");
        CHECK_INT(parse(text, &c, &e), COW_EPARSE);
        CHECK(strstr(e.msg, "20 of 20 rows are not kstat rows") != NULL);
        CHECK_INT(e.line, 21);
        collect_free(&c);
    }
}

/* ------------------------------------------------------------ kacct */

#define S 1000000LL
#define T0 (1796639570LL * S)

static cow_kstat_row mrow(int64_t t, double flt, double stime_ms, double delay_ms, long line)
{
    cow_kstat_row r;
    memset(&r, 0, sizeof(r));
    r.t_us = t;
    r.pid = 100;
    r.minflt = flt;
    r.majflt = 0;
    r.stime_us = stime_ms * 1000;
    r.cpu_us = r.stime_us * 3;
    r.delay_us = delay_ms * 1000;
    r.read_bytes = r.write_bytes = NAN;
    r.line = line;
    return r;
}

static cow_kstat_row crow(int64_t t, long pid, double wbytes, double cpu_ms)
{
    cow_kstat_row r;
    memset(&r, 0, sizeof(r));
    r.t_us = t;
    r.pid = pid;
    r.child = 1;
    r.minflt = r.majflt = 0;
    r.cpu_us = cpu_ms * 1000;
    r.stime_us = 0;
    r.delay_us = 0;
    r.read_bytes = 0;
    r.write_bytes = wbytes;
    return r;
}

/* The shape of a real save: 10 faults/s before, then a 2 s window of
 * 20,000 faults/s and 300 ms of system time beyond 20 ms/s, the run queue
 * as before (30 ms/s); the fork 49.9 ms. */
static size_t cow_shape(cow_kstat_row *v)
{
    size_t n = 0;
    int i;
    for (i = 0; i <= 5; i++) /* 5 s before, a reading a second */
        v[n++] = mrow(T0 + i * S, 1000 + 10.0 * i, 100 + 20.0 * i, 50 + 30.0 * i, 0);
    /* the window [T0+5 s, T0+7 s] */
    v[n++] = mrow(T0 + 6 * S, 1050 + 20000, 200 + 20 + 150, 200 + 30, 0);
    v[n++] = crow(T0 + 6 * S, 200, 1e6, 400);
    v[n++] = mrow(T0 + 7 * S, 1050 + 40000, 200 + 40 + 300, 200 + 60, 0);
    v[n++] = crow(T0 + 7 * S, 200, 48e6, 1580);
    v[n++] = mrow(T0 + 8 * S, 1050 + 40010, 200 + 60 + 300, 200 + 90, 0);
    return n;
}

/* kacct requirements 1 and 2 */
static void window_should_count_against_the_rate_before(void)
{
    cow_kstat_row v[16];
    size_t n = cow_shape(v);
    cow_kacct k;
    kacct_window(v, n, T0 + 5 * S, T0 + 7 * S, &k);
    CHECK_INT(k.known, 1);
    CHECK_INT(k.has_before, 1);
    CHECK_NEAR(k.win_s, 2.0, 1e-9);
    CHECK_NEAR(k.before_s, 5.0, 1e-9);
    CHECK_NEAR(k.minflt, 40000, 1e-6);
    CHECK_NEAR(k.minflt_rate0, 10, 1e-9);
    CHECK_NEAR(k.minflt_x, 40000 - 20, 1e-6);
    CHECK_NEAR(k.stime_ms, 340, 1e-6);
    CHECK_NEAR(k.stime_rate0_ms, 20, 1e-9);
    CHECK_NEAR(k.stime_x_ms, 300, 1e-6);
    CHECK_NEAR(k.delay_ms, 60, 1e-6);
    CHECK_NEAR(k.delay_x_ms, 0, 1e-6);
    /* requirement 3: the child's last reading, once */
    CHECK_INT(k.children, 1);
    CHECK_NEAR(k.child_write_bytes, 48e6, 1e-3);
    CHECK_NEAR(k.child_cpu_ms, 1580, 1e-6);
    /* requirement 1: interpolated inside a second between readings */
    kacct_window(v, n, T0 + 5 * S + S / 2, T0 + 6 * S, &k);
    CHECK_NEAR(k.minflt, 10000, 1e-6); /* 21,050 less the midpoint 11,050 */
    /* no reading after the end: unknown */
    kacct_window(v, n, T0 + 7 * S, T0 + 9 * S, &k);
    CHECK_INT(k.known, 0);
    /* requirement 5: a restarted server's counters start again: unknown */
    {
        cow_kstat_row w[3] = {mrow(T0, 50000, 900, 500, 0), mrow(T0 + S, 60000, 950, 600, 0),
                              mrow(T0 + 2 * S, 300, 10, 5, 0)};
        kacct_window(w, 3, T0 + S, T0 + 2 * S, &k);
        CHECK_INT(k.known, 0);
    }
    /* requirement 2: under a second before the window, no rate */
    kacct_window(v, n, T0 + S / 2, T0 + 2 * S, &k);
    CHECK_INT(k.known, 1);
    CHECK_INT(k.has_before, 0);
    CHECK(isnan(k.minflt_rate0));
}

/* kacct requirement 4, and the cause's words: a 49.9 ms fork followed by
 * seconds of copy-on-write names copy-on-write with its fault numbers and
 * the fork as "also" */
static void copy_on_write_should_outrank_a_shorter_fork(void)
{
    cow_kstat_row v[16];
    size_t n = cow_shape(v);
    cow_kacct k;
    cow_kcauses c;
    char *t;
    kacct_window(v, n, T0 + 5 * S, T0 + 7 * S, &k);
    kacct_causes(&k, 49.9, &c);
    CHECK_INT(c.n, 2);
    CHECK_INT(c.kind[0], KC_COW);
    CHECK_INT(c.kind[1], KC_FORK);
    t = kacct_cause_text(&k, 49.9, 0);
    CHECK_STR(t, "copy-on-write: the main thread took 40,000 minor faults in 2.0 s (20,000/s, "
                 "against 10/s before) and 340 ms of system time (300 ms beyond its rate "
                 "before); also the fork, 49.9 ms");
    free(t);
    /* the worst sample was in flight during the fork: said beside it */
    t = kacct_cause_text(&k, 49.9, 1);
    CHECK(t != NULL && strstr(t, "; also the fork, 49.9 ms, which the run's worst sample "
                                 "waited out") != NULL);
    free(t);
    /* a fork longer than the copying: the fork alone, no phrase of ours */
    kacct_causes(&k, 400, &c);
    CHECK_INT(c.kind[0], KC_FORK);
    CHECK(kacct_cause_text(&k, 400, 0) == NULL);
}

/* CPU contention: the run queue wait beyond its rate before */
static void run_queue_wait_should_name_cpu_contention(void)
{
    cow_kstat_row v[8];
    size_t n = 0;
    cow_kacct k;
    cow_kcauses c;
    char *t;
    int i;
    for (i = 0; i <= 3; i++)
        v[n++] = mrow(T0 + i * S, 1000 + 10.0 * i, 100 + 20.0 * i, 50 + 10.0 * i, 0);
    v[n++] = mrow(T0 + 4 * S, 1040 + 500, 180, 80 + 400, 0);
    kacct_window(v, n, T0 + 3 * S, T0 + 4 * S, &k);
    CHECK_NEAR(k.delay_x_ms, 390, 1e-6);
    kacct_causes(&k, 5.0, &c); /* a 5 ms fork stalls no one; 500 faults are no COW */
    CHECK_INT(c.n, 1);
    CHECK_INT(c.kind[0], KC_CPU);
    t = kacct_cause_text(&k, 5.0, 0);
    CHECK_STR(t, "CPU contention: the main thread waited 400 ms on the run queue in 1.0 s "
                 "(400 ms/s, against 10 ms/s before)");
    free(t);
    /* the same wait spread as before: nothing material */
    v[n - 1] = mrow(T0 + 4 * S, 1050, 120, 90, 0);
    kacct_window(v, n, T0 + 3 * S, T0 + 4 * S, &k);
    kacct_causes(&k, NAN, &c);
    CHECK_INT(c.n, 0);
    CHECK(kacct_cause_text(&k, NAN, 0) == NULL);
}

int main(void)
{
    RUN(kstat_should_be_known_by_its_exact_header);
    RUN(rows_should_become_one_stat_per_value);
    RUN(bad_rows_should_be_rejects_with_reasons);
    RUN(window_should_count_against_the_rate_before);
    RUN(copy_on_write_should_outrank_a_shorter_fork);
    RUN(run_queue_wait_should_name_cpu_contention);
    return REPORT();
}
