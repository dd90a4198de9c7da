/* test_quiet.c -- ingest/quiet.c: `cowtail capture`'s stalls.csv and
 * probe-gaps.csv, known by their exact header, one record per row. */
#include <string.h>

#include "collect.h"
#include "formats.h"
#include "minunit.h"

static int parse(const char *name, const char *text, collect *c, cow_err *e)
{
    cow_parse_opts o;
    cow_sink k = collect_sink(c);
    cow_src s;
    int rc;
    memset(&o, 0, sizeof(o));
    o.fname = name;
    collect_init(c);
    src_open_mem(&s, name, text, strlen(text));
    rc = cow_parser_probe_quiet.parse(&s, &o, &k, e);
    src_close(&s);
    return rc;
}

static void quiet_should_be_known_by_its_exact_header(void)
{
    /* 1.1-1.4: the two headers, and near misses that are not them */
    static const char *const yes[] = {
        "start_us,length_us,waiting,ended\n1796562754978087,2011369,994,reply\n",
        "intended_us,slots,length_us,reason\r\n1796562754792049,2,4000,late\r\n", NULL};
    static const char *const no[] = {
        "start_us,length_us,waiting\n1,2,3\n", "timestamp_us,ops\n1,2\n",
        "intended_us,slots,reason\n1,2,late\n", " start_us,length_us,waiting,ended\n", NULL};
    size_t i;
    for (i = 0; yes[i]; i++) {
        CHECK_INT(cow_parser_probe_quiet.sniff("stalls.csv", yes[i], strlen(yes[i])), 95);
        CHECK(parser_detect("x.csv", yes[i], strlen(yes[i])) == &cow_parser_probe_quiet);
    }
    for (i = 0; no[i]; i++)
        CHECK_INT(cow_parser_probe_quiet.sniff("stalls.csv", no[i], strlen(no[i])), 0);
}

static void stalls_should_become_records(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;
    const cow_rec *r;
    CHECK_INT(parse("stalls.csv", "start_us,length_us,waiting,ended\n"
                    "1796562754978087,2011369,994,reply\n"
                    "1796562799000000,15000,3,end\n", &c, &e), COW_OK);
    CHECK_INT(collect_count(&c, COW_REC_QUIET), 2);
    r = collect_nth(&c, COW_REC_QUIET, 0);
    CHECK_STR(r->u.quiet.kind, "stall");
    CHECK_INT(r->u.quiet.t_us, 1796562754978087LL);
    CHECK_INT(r->u.quiet.dur_us, 2011369);
    CHECK_INT(r->u.quiet.n, 994);
    CHECK_STR(r->u.quiet.how, "reply");
    CHECK_INT(r->u.quiet.line, 2);
    r = collect_nth(&c, COW_REC_QUIET, 1);
    CHECK_STR(r->u.quiet.how, "end");
    CHECK_INT(c.nrejects, 0);
    collect_free(&c);
}

static void gaps_should_become_records(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;
    const cow_rec *r;
    CHECK_INT(parse("probe-gaps.csv", "intended_us,slots,length_us,reason\n"
                    "1796562754792049,2,4000,late\n1796562754800049,7,14000,buffer\n"
                    "1796562754900049,1,2000,cap\n", &c, &e), COW_OK);
    CHECK_INT(collect_count(&c, COW_REC_QUIET), 3);
    r = collect_nth(&c, COW_REC_QUIET, 1);
    CHECK_STR(r->u.quiet.kind, "gap");
    CHECK_INT(r->u.quiet.n, 7);        /* slots */
    CHECK_INT(r->u.quiet.dur_us, 14000);
    CHECK_STR(r->u.quiet.how, "buffer");
    collect_free(&c);
}

static void bad_rows_should_be_rejects_with_reasons(void)
{
    /* 2.1-2.6 */
    static const struct { const char *row, *why; } t[] = {
        {"1796562754978087,2011369,994,later", "ended is neither reply nor end"},
        {"1796562754978087,-5,994,reply", "not a whole number >= 0"},
        {"1796562754978,2011369,994,reply", "start is not an epoch in us (1990..2100)"},
        {"1796562754978087,2011369,reply", "not four fields"},
        {"1796562754978087,2011369,994,reply,x", "not four fields"},
        {"1796562754978087,2.5,994,reply", "not a whole number >= 0"}};
    size_t i;
    for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
        collect c;
        cow_err e = COW_ERR_INIT;
        char text[256];
        const cow_rec *r;
        snprintf(text, sizeof(text), "start_us,length_us,waiting,ended\n%s\n", t[i].row);
        CHECK_INT(parse("stalls.csv", text, &c, &e), COW_OK);
        CHECK_INT(collect_count(&c, COW_REC_QUIET), 0);
        CHECK_INT(c.nrejects, 1);
        r = collect_nth(&c, COW_REC_REJECT, 0);
        CHECK_STR(r->u.reject.reason, t[i].why);
        CHECK_INT(r->u.reject.line, 2);
        collect_free(&c);
    }
}

int main(void)
{
    RUN(quiet_should_be_known_by_its_exact_header);
    RUN(stalls_should_become_records);
    RUN(gaps_should_become_records);
    RUN(bad_rows_should_be_rejects_with_reasons);
    return REPORT();
}
