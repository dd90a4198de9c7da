/* test_report_charts.c -- the report's per-run chart kinds
 * (app/report_chartbuild.c) through their layouts: a golden dump per kind
 * (tests/data/chart/rc_<kind>.txt, fake text metrics; COW_UPDATE_GOLDEN=1
 * rewrites them) and the decisions the report promises: the timeline's
 * rolling quantile trails the data and never leads it, the worst sample
 * carries a label, window against baseline has whiskers and draws a
 * one-sided bound as such, the spectrum has at most eight series a chart,
 * each in its own colour, and a replica sync is a bar per attempt. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart_data.h"
#include "chart_layout.h"
#include "mem.h"
#include "minunit.h"
#include "report_chartbuild.h"

#define W 1600
#define H 900

static cow_style style1;

static void build(const cow_chart *c, cow_layout *L)
{
    cow_err e = COW_ERR_INIT;
    CHECK_INT(chart_layout_build(c, &style1, W, H, chart_measure_fake, NULL, L, &e), 0);
    CHECK_INT(chart_layout_text_overlaps(L), 0);
}

static void golden(const char *name, const cow_chart *c)
{
    const char *dir = getenv("COW_TESTDATA");
    char path[1024], *got, *want = NULL;
    cow_layout L;
    FILE *f;
    long len;

    snprintf(path, sizeof(path), "%s/chart/rc_%s.txt", dir ? dir : "tests/data", name);
    build(c, &L);
    got = chart_layout_dump(&L);
    if (getenv("COW_UPDATE_GOLDEN") && (f = fopen(path, "w")) != NULL) {
        fputs(got, f);
        fclose(f);
    }
    if ((f = fopen(path, "rb")) != NULL) {
        fseek(f, 0, SEEK_END);
        len = ftell(f);
        rewind(f);
        want = calloc(1, (size_t)len + 1);
        if (fread(want, 1, (size_t)len, f) != (size_t)len)
            want[0] = '\0';
        fclose(f);
    }
    CHECK(want != NULL);
    if (want && strcmp(got, want) != 0) {
        fprintf(stderr, "%s differs from the layout (COW_UPDATE_GOLDEN=1 to accept)\n", path);
        CHECK(0);
    }
    free(want);
    free(got);
    chart_layout_release(&L);
}

static size_t count_role(const cow_layout *L, int kind, int role)
{
    size_t i, n = 0;
    for (i = 0; i < L->nprims; i++)
        n += L->prims[i].kind == kind && L->prims[i].role == role;
    return n;
}

/* ------------------------------------------------------------ timeline */

/* 10 s at 500 samples a second, 0.1 ms, with a stall of 50 ms samples in
 * [5, 6) s and one worst sample of 80 ms at 5.5 s. */
#define TL_N 5000
static int64_t tl_t[TL_N];
static double tl_lat[TL_N];

static void tl_data(void)
{
    size_t i;
    for (i = 0; i < TL_N; i++) {
        double s = (double)i / 500;
        tl_t[i] = INT64_C(1796028720000000) + (int64_t)(s * 1e6);
        tl_lat[i] = s >= 5 && s < 6 ? 50000 : 100;
    }
    tl_lat[2750] = 80000;
}

static const cow_series *series_of(const cow_chart *c, int kind)
{
    size_t i;
    for (i = 0; i < c->nseries; i++)
        if (c->series[i].kind == kind)
            return &c->series[i];
    return NULL;
}

static void trail_span_should_be_fixed_in_time(void)
{
    CHECK_INT(rc_trail_us(5000, 10000000), 500000);     /* 500/s: 0.5 s holds 250 */
    CHECK_INT(rc_trail_us(50000, 10000000), 250000);    /* the shortest already holds 200 */
    CHECK_INT(rc_trail_us(500, 10000000), 2000000);     /* 50/s: 5 s > a fifth of 10 s */
    CHECK_INT(rc_trail_us(10, 1000000), 250000);        /* a short run: the shortest */
}

static void timeline_quantile_should_never_lead_the_data(void)
{
    rc_window w = {5, 6, "BGSAVE", 5.0, 12.5};
    cow_err e = COW_ERR_INIT;
    cow_chart *c;
    const cow_series *q;
    size_t i, early = 0, during = 0;

    tl_data();
    c = rc_timeline("run", tl_t, tl_lat, TL_N, &w, 1, 1000, 0, &e);
    CHECK(c != NULL);
    if (c == NULL)
        return;
    q = series_of(c, COW_SERIES_LINE);
    CHECK(q != NULL && strstr(q->name, "trailing 0.5 s") != NULL);
    for (i = 0; q && i < q->n; i++) {
        double right = q->x[i] + 0.005; /* the column's right edge (10 s / 1000) */
        if (right <= 5.0 + 1e-9 && q->y[i] > 1)
            early++;
        if (q->x[i] > 5.3 && q->x[i] < 6 && q->y[i] > 40)
            during++;
    }
    CHECK_INT(early, 0);        /* not a pixel above 1 ms before the stall */
    CHECK(during > 60);         /* and it does rise once the stall is in the window */
    chart_free(c);
}

/* The control: the centred window the timeline used to draw rises before
 * the stall, so the check above can tell the two apart. */
static void centred_window_should_lead_the_data(void)
{
    cow_colred r;
    cow_reduce_opts o = {0.99, 0, 300, 0};
    cow_err e = COW_ERR_INIT;
    size_t i, early = 0;

    tl_data();
    CHECK_INT(chart_reduce_columns(tl_t, tl_lat, TL_N, tl_t[0], tl_t[TL_N - 1] + 1, 1000, &o,
                                   &r, &e), 0);
    for (i = 0; i < r.ncol; i++)
        early += r.t_s[i] + 0.005 <= 5.0 && r.q_us[i] > 1000;
    CHECK(early > 0);
    chart_colred_release(&r);
}

static void timeline_should_label_the_worst_sample_and_band_the_fork(void)
{
    rc_window w = {5, 6, "BGSAVE", 5.0, 12.5};
    cow_err e = COW_ERR_INIT;
    cow_chart *c;
    cow_layout L;
    size_t i, labels = 0, fork_band = 0;

    tl_data();
    c = rc_timeline("run", tl_t, tl_lat, TL_N, &w, 1, 1000, 0, &e);
    if (c == NULL) {
        CHECK(0);
        return;
    }
    CHECK_INT(c->ncallouts, 1);
    /* the run's worst, said so: the answer's is the window's */
    CHECK_STR(c->callouts[0].label, "worst of the run 80.000 ms, sent at 5.500 s");
    for (i = 0; i < c->nspans; i++)
        fork_band += fabs(c->spans[i].x0 - 5.0) < 1e-9 && fabs(c->spans[i].x1 - 5.0125) < 1e-9;
    CHECK_INT(fork_band, 1);
    CHECK_STR(c->marks[0].label, "fork 12.5 ms");
    build(c, &L);
    for (i = 0; i < L.nprims; i++) {
        const cow_prim *p = &L.prims[i];
        const cow_box *r = &L.plots[0].rect;
        if (p->kind != COW_PRIM_TEXT || p->role != COW_ROLE_CALLOUT_LABEL)
            continue;
        labels++;
        CHECK(strstr(p->text, "80.000 ms") != NULL);
        CHECK(p->box.x >= r->x && p->box.x + p->box.w <= r->x + r->w + 0.01);
        CHECK(p->box.y >= r->y - 0.01 && p->box.y + p->box.h <= r->y + r->h + 0.01);
    }
    CHECK_INT(labels, 1);
    CHECK_INT(count_role(&L, COW_PRIM_MARKER, COW_ROLE_CALLOUT), 1);
    /* the slowest samples as points: the stall's 500 samples hold the top 5 */
    CHECK(count_role(&L, COW_PRIM_MARKER, COW_ROLE_SERIES) >= 5);
    chart_layout_release(&L);
    golden("timeline", c);
    chart_free(c);
}

/* -------------------------------------------------- window vs baseline */

static rc_phase_q ph2[2] = {
    {"baseline", 1492, {0.175, 0.6, 0.977, 2.9}, {0.16, 0.55, 0.8, 2.85},
     {0.19, 0.7, 1.2, NAN}},
    {"bgsave#1", 755, {0.2, 0.9, 4.3, 12.6}, {0.18, 0.8, 3.1, 1.563}, {0.23, 1.1, NAN, NAN}}};

static void window_chart_should_draw_whiskers_and_one_sided_bounds(void)
{
    cow_err e = COW_ERR_INIT;
    cow_chart *c = rc_window_chart("run", ph2, 2, NULL, &e);
    cow_layout L;
    size_t i, j, to_top = 0, paths = 0;

    if (c == NULL) {
        CHECK(0);
        return;
    }
    CHECK_INT(c->y.kind, COW_AXIS_LOG10);
    CHECK_INT(c->ncats, 4);
    CHECK_STR(c->cats[3].label, "p99.9");
    CHECK_STR(c->note, "");
    {   /* a window judged on both sides says so under the chart */
        cow_chart *b = rc_window_chart("run", ph2, 2, "read on both sides", &e);
        CHECK(b != NULL && strcmp(b->note, "read on both sides") == 0);
        chart_free(b);
    }
    CHECK_INT(c->nseries, 2);
    build(c, &L);
    for (i = 0; i < L.nprims; i++) {
        const cow_prim *p = &L.prims[i];
        if (p->kind != COW_PRIM_PATH || p->role != COW_ROLE_ERRBAR)
            continue;
        paths++;
        for (j = 0; j < p->npts; j++) /* an open whisker ends on the plot's top */
            to_top += !isnan(p->pts[2 * j]) && fabs(p->pts[2 * j + 1] - L.plots[0].rect.y) < 0.01;
    }
    CHECK(paths > 0);
    /* three one-sided bounds (baseline p99.9, window p99 and p99.9): each
     * reaches the top once along the whisker and once at its arrow tip */
    CHECK_INT(to_top, 6);
    chart_layout_release(&L);
    golden("window", c);
    chart_free(c);
}

/* -------------------------------------------------------------- spectrum */

static void spectrum_should_hold_at_most_eight_series_a_chart(void)
{
    static const double q[3] = {0.5, 0.99, 0.999};
    double v[19][3];
    rc_line lines[19];
    cow_chart **ch = NULL;
    size_t i, j, k, n;

    for (i = 0; i < 19; i++) {
        for (k = 0; k < 3; k++)
            v[i][k] = (double)(i + 1) * (double)(k + 1) * 0.1;
        lines[i].name = xasprintf("run-%02zu SET (memtier)", i);
        lines[i].q = q;
        lines[i].ms = v[i];
        lines[i].n = 3;
    }
    n = rc_spectrum(lines, 19, &ch);
    CHECK_INT(n, 3);
    for (i = 0; i < n; i++) {
        CHECK(ch[i]->nseries <= RC_MAX_SERIES);
        for (j = 0; j < ch[i]->nseries; j++)
            for (k = j + 1; k < ch[i]->nseries; k++)
                CHECK(ch[i]->series[j].color != ch[i]->series[k].color);
    }
    CHECK_INT(ch[0]->nseries + ch[1]->nseries + ch[2]->nseries, 19);
    CHECK_STR(ch[2]->title, "Reported percentile spectrum (3 of 3)");
    golden("spectrum", ch[0]);
    for (i = 0; i < n; i++)
        chart_free(ch[i]);
    free(ch);
    for (i = 0; i < 19; i++)
        free(lines[i].name);
}

/* issue 36 item 4: a 600-byte phase label was cut at 40 bytes in the
 * window chart's series name, a replica's at 20 in its category, a title
 * at 160; the chart data keeps each whole, and the layout shortens what it
 * draws to fit (an ellipsis), laying the chart out as before. */
static void long_labels_should_stay_whole_in_the_chart(void)
{
    cow_err e = COW_ERR_INIT;
    char *label = xcalloc(1, 601), *want;
    rc_phase_q ph[2];
    rc_sync sy;
    cow_chart *c;
    cow_layout L;
    size_t i, legend = 0;

    memset(label, 'a', 600);
    memcpy(label, "long-", 5);
    memcpy(ph, ph2, sizeof(ph));
    ph[1].label = label;
    c = rc_window_chart(label, ph, 2, NULL, &e);
    if (c == NULL) {
        CHECK(0);
        free(label);
        return;
    }
    want = xasprintf("%s (n=%ld)", label, ph[1].n);
    CHECK_STR(c->series[1].name, want);
    free(want);
    want = xasprintf("Window against baseline: %s", label);
    CHECK_STR(c->title, want);
    free(want);
    build(c, &L);
    for (i = 0; i < L.nprims; i++)
        if (L.prims[i].kind == COW_PRIM_TEXT && L.prims[i].role == COW_ROLE_LEGEND_TEXT &&
            strstr(L.prims[i].text, "long-aaaa") != NULL)
            legend += strstr(L.prims[i].text, "\xe2\x80\xa6") != NULL; /* ellipsis */
    CHECK_INT(legend, 1);
    chart_layout_release(&L);
    chart_free(c);
    memset(&sy, 0, sizeof(sy));
    snprintf(sy.who, sizeof(sy.who), "replica #2 (port 6381) attempt 1"); /* cut at 20 once */
    snprintf(sy.how, sizeof(sy.how), "full, diskless: up");
    sy.resync_s = 0.1, sy.recv_s = 0.2, sy.recv_end_s = 0.3, sy.flush_s = 0.4;
    sy.load_s = 0.5, sy.up_s = 0.6, sy.lost_s = NAN;
    c = rc_replsync(label, &sy, 1, &e);
    CHECK(c != NULL && strlen(c->title) == strlen("Replica syncs: ") + 600);
    CHECK(c != NULL && strcmp(c->cats[0].label,
                                     "replica #2 (port 6381) attempt 1: full, diskless: up") == 0);
    chart_free(c);
    free(label);
}

/* ------------------------------------------------------- memory, syncs */

static void memory_chart_should_say_what_it_plots(void)
{
    int64_t t[5];
    double b[5] = {100e6, 100e6, 250e6, 250e6, 100e6};
    rc_window w = {1, 3, "BGSAVE", 1, NAN};
    cow_err e = COW_ERR_INIT;
    cow_chart *c;
    size_t i;

    for (i = 0; i < 5; i++)
        t[i] = INT64_C(1796028720000000) + (int64_t)i * 1000000;
    double cb[3] = {0, 150e6, 0};
    rc_cow_series cow = {"INFO current_cow_size", t + 1, cb, 3};

    c = rc_memory("run", "memory_current", "run/memory.csv", t, b, 5, &cow, t[0], &w, 1, &e);
    if (c == NULL) {
        CHECK(0);
        return;
    }
    CHECK(strstr(c->subtitle, "cgroup memory.current") != NULL);
    CHECK(strstr(c->subtitle, "run/memory.csv") != NULL);
    CHECK(strstr(c->subtitle, "copy-on-write of the fork child: INFO current_cow_size") != NULL);
    CHECK(c->nseries == 2 && c->series[1].n == 3);
    CHECK(c->nseries == 2 && strcmp(c->series[1].name, "copy-on-write, peak 143 MB") == 0);
    CHECK_STR(c->y.label, "cgroup memory.current");
    CHECK_STR(rc_mem_name("rss_bytes"), "RSS");
    CHECK_STR(rc_mem_name("pss_bytes"), "PSS");
    CHECK_STR(rc_mem_name("child_rss_bytes"), "child RSS");
    golden("memory", c);
    chart_free(c);
}

static void replica_syncs_should_be_a_bar_per_attempt(void)
{
    rc_sync v[2] = {{"#2 try 1", "full diskless, up", 0.01, 0.02, 2.2, NAN, 2.2, 2.73, NAN},
                    {"#3 try 1", "full disk, lost", 0.01, 0.5, 1.5, 1.5, 1.6, NAN, 1.9}};
    cow_err e = COW_ERR_INIT;
    cow_chart *c = rc_replsync("run", v, 2, &e);
    cow_layout L;
    size_t i, bars = 0;

    if (c == NULL) {
        CHECK(0);
        return;
    }
    CHECK_INT(c->ncats, 2);
    CHECK_STR(c->cats[1].label, "#3 try 1: full disk, lost");
    build(c, &L);
    for (i = 0; i < L.nprims; i++)
        bars += L.prims[i].kind == COW_PRIM_RECT && L.prims[i].role == COW_ROLE_SERIES;
    /* first: attach, wait, transfer, load (no flush line); second: all five,
     * the load ending where the link was lost */
    CHECK_INT(bars, 9);
    chart_layout_release(&L);
    golden("replsync", c);
    chart_free(c);
}

int main(void)
{
    chart_style_defaults(&style1, 1.0);
    RUN(trail_span_should_be_fixed_in_time);
    RUN(timeline_quantile_should_never_lead_the_data);
    RUN(centred_window_should_lead_the_data);
    RUN(timeline_should_label_the_worst_sample_and_band_the_fork);
    RUN(window_chart_should_draw_whiskers_and_one_sided_bounds);
    RUN(spectrum_should_hold_at_most_eight_series_a_chart);
    RUN(memory_chart_should_say_what_it_plots);
    RUN(replica_syncs_should_be_a_bar_per_attempt);
    RUN(long_labels_should_stay_whole_in_the_chart);
    return REPORT();
}
