/* test_hostile.c -- the library side of the hostile-input fixes: each
 * case failed (crash under ASan, hang, wrong value) before its fix. The
 * end-to-end side (the cowtail binary on inputs built at test time) is
 * tests/hostile/hostile.sh. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chart_layout.h"
#include "label.h"
#include "latcols.h"
#include "limits.h"
#include "mem.h"
#include "minunit.h"
#include "parser.h"
#include "src.h"
#include "text.h"
#include "tradeoff.h"

/* 1.1 opnames_intern compared with strncmp, which stops at a NUL in the
 * new name and then read past the shorter stored one (ASan). */
static void opnames_should_tell_names_with_a_nul_apart(void)
{
    opnames t;
    const char set_nul[] = "set\0abcdefghijklmnop";
    memset(&t, 0, sizeof(t));
    CHECK(opnames_intern(&t, "set", 3) != NULL);
    CHECK(opnames_intern(&t, set_nul, sizeof(set_nul) - 1) == NULL);
    CHECK_STR(opnames_intern(&t, "set", 3), "set");
    CHECK_INT(t.n, 1);
    opnames_release(&t);
}

/* 3.1 chart_nice_ticks(hi = inf) looped forever. */
static void nice_ticks_should_end_on_infinite_ranges(void)
{
    double v[COW_MAX_TICKS], st = 0;
    CHECK_INT(chart_nice_ticks(0, INFINITY, 5, v, COW_MAX_TICKS, &st), 0);
    CHECK(isnan(st));
    CHECK_INT(chart_nice_ticks(-1e308, 1e308, 5, v, COW_MAX_TICKS, &st), 0);
    CHECK_INT(chart_nice_ticks(NAN, 1, 5, v, COW_MAX_TICKS, &st), 0);
    CHECK_INT(chart_nice_ticks(0, 1e308, 5, v, COW_MAX_TICKS, &st) > 0, 1);
    CHECK_INT(chart_nice_ticks(0, 10, 5, v, COW_MAX_TICKS, &st), 6);
}

/* 3.2 JSON positions: one pass over growing offsets, same answers. */
static void text_pos_should_resume_and_restart(void)
{
    const char *t = "ab\ncd\n\nef";
    cow_textpos tp;
    long line, col;
    text_pos_init(&tp, t);
    text_pos_at(&tp, 4, &line, &col);
    CHECK_INT(line, 2);
    CHECK_INT(col, 2);
    text_pos_at(&tp, 8, &line, &col);
    CHECK_INT(line, 4);
    CHECK_INT(col, 2);
    text_pos_at(&tp, 1, &line, &col); /* backwards: restarts */
    CHECK_INT(line, 1);
    CHECK_INT(col, 2);
}

/* 3.4 an overlong line is skipped and numbered; the others are read. */
static void src_should_skip_an_overlong_line(void)
{
    size_t big = COW_MAX_LINE_BYTES + 10, n = 0;
    char *buf = xmalloc(big + 32), *all = NULL;
    cow_src s;
    cow_line ln;
    cow_err e = COW_ERR_INIT;
    long seen[4];
    int k = 0, rc;

    memcpy(buf, "a\n", 2);
    memset(buf + 2, 'x', big);
    memcpy(buf + 2 + big, "\nb\n", 3);
    src_open_mem(&s, "mem", buf, big + 5);
    while ((rc = src_next_line(&s, &ln, &e)) == 1 && k < 4)
        seen[k++] = ln.no;
    CHECK_INT(rc, 0);
    CHECK_INT(k, 2);
    CHECK_INT(seen[0], 1);
    CHECK_INT(seen[1], 3);
    CHECK_INT(s.nlong, 1);
    CHECK_INT(s.long_no[0], 2);
    src_close(&s);
    /* a whole-file read over its limit is refused before reading */
    src_open_mem(&s, "mem", buf, big + 5);
    CHECK_INT(src_read_all_max(&s, 1024, &all, &n, &e), COW_ELIMIT);
    CHECK(strstr(e.msg, "over the limit") != NULL);
    CHECK(all == NULL);
    src_close(&s);
    free(buf);
}

/* 4 / 5 labels: each sink gets valid UTF-8 and no control characters. */
static void label_should_be_safe_for_each_sink(void)
{
    static const struct { const char *in; int sink; const char *want; } cases[] = {
        /* 1 */ {"a\033[2Jb", COW_LABEL_TERM, "a\\x1B[2Jb"},
        /* 2 */ {"caf\xe9", COW_LABEL_TERM, "caf\xEF\xBF\xBD"},        /* Latin-1 */
        /* 3 */ {"caf\xc3\xa9", COW_LABEL_XLSX, "caf\xc3\xa9"},        /* UTF-8 kept */
        /* 4 */ {"a|b<script>\n", COW_LABEL_MD, "a\\|b\\<script\\>\\x0A"},
        /* 5 */ {"x\xc2\x9by", COW_LABEL_XLSX, "x\\x9By"},             /* C1 CSI */
        /* 6 */ {"t\tn\n", COW_LABEL_XLSX, "t\tn\n"},
        /* 7 */ {"\xed\xa0\x80", COW_LABEL_TERM, "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"},
        /* 8 */ {NULL, COW_LABEL_TERM, ""},
    };
    size_t i;
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char *got = label_safe(cases[i].in, (enum cow_label_sink)cases[i].sink);
        if (strcmp(got, cases[i].want) != 0)
            fprintf(stderr, "label case %zu\n", i + 1);
        CHECK_STR(got, cases[i].want);
        free(got);
    }
}

static void label_file_stem_should_be_short_and_keep_long_labels_apart(void)
{
    char a[COW_LABEL_STEM_MAX + 1], b[COW_LABEL_STEM_MAX + 1];
    char la[400], lb[400];
    label_file_stem("a b", a, sizeof(a));
    CHECK_STR(a, "a_b");
    label_file_stem("a/b", a, sizeof(a));
    CHECK_STR(a, "a_b");
    label_file_stem("../..", a, sizeof(a));
    CHECK_STR(a, "_");
    memset(la, 'p', sizeof(la) - 2);
    memcpy(lb, la, sizeof(la));
    la[sizeof(la) - 2] = 'x', la[sizeof(la) - 1] = '\0';
    lb[sizeof(lb) - 2] = 'y', lb[sizeof(lb) - 1] = '\0';
    label_file_stem(la, a, sizeof(a));
    label_file_stem(lb, b, sizeof(b));
    CHECK(strlen(a) <= COW_LABEL_STEM_MAX);
    CHECK(strcmp(a, b) != 0);
}

static void utf8_tail_should_hold_back_a_cut_sequence(void)
{
    CHECK_INT(label_utf8_tail("ab\xc3", 3), 1);
    CHECK_INT(label_utf8_tail("ab\xe2\x82", 4), 2);
    CHECK_INT(label_utf8_tail("ab\xe2\x82\xac", 5), 0);
    CHECK_INT(label_utf8_tail("ab", 2), 0);
    CHECK(text_is_utf8("caf\xc3", 4));      /* cut by the buffer's end */
    CHECK(!text_is_utf8("caf\xe9 x", 6));   /* Latin-1 */
}

/* 8 what the bytes say when no parser recognises a file */
static void why_unknown_should_name_the_reason(void)
{
    CHECK(strstr(parser_why_unknown("", 0), "empty file") != NULL);
    CHECK(strstr(parser_why_unknown("a,b\rc,d\r", 8), "CR only") != NULL);
    CHECK(strstr(parser_why_unknown("a\0b\n", 4), "binary") != NULL);
    CHECK(strstr(parser_why_unknown("caf\xe9\n", 5), "not UTF-8") != NULL);
    CHECK(parser_why_unknown("hello\n", 6) == NULL);
}

/* 7.1 tradeoff on runs that all have one mode read groups[-1] (UBSan). */
static void tradeoff_should_compare_nothing_with_one_mode(void)
{
    cow_trial t[2];
    cow_tradeoff out;
    cow_err e = COW_ERR_INIT;
    int m;
    memset(t, 0, sizeof(t));
    for (m = 0; m < COW_TM_COUNT; m++)
        t[0].v[m] = 1, t[1].v[m] = 2;
    t[0].mode = t[1].mode = "fork";
    CHECK_INT(tradeoff_compute(t, 2, 1, &out, &e), COW_OK);
    CHECK_INT(out.ngroups, 1);
    CHECK_INT(out.a, -1);
    CHECK_INT(out.b, -1);
    CHECK(isnan(out.ratio[0].ratio));
}

int main(void)
{
    RUN(opnames_should_tell_names_with_a_nul_apart);
    RUN(nice_ticks_should_end_on_infinite_ranges);
    RUN(text_pos_should_resume_and_restart);
    RUN(src_should_skip_an_overlong_line);
    RUN(label_should_be_safe_for_each_sink);
    RUN(label_file_stem_should_be_short_and_keep_long_labels_apart);
    RUN(utf8_tail_should_hold_back_a_cut_sequence);
    RUN(why_unknown_should_name_the_reason);
    RUN(tradeoff_should_compare_nothing_with_one_mode);
    return REPORT();
}
