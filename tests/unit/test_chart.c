/* test_chart.c -- report/chart_*: tick tables, the timeline reducer on a
 * million samples, "why not drawable" reasons, label collision handling,
 * layout goldens for every chart type (fake text metrics, so no fonts
 * involved) and PNG files that decode, have the right size and are not
 * blank.
 *
 * Goldens live in tests/data/chart/<name>.txt and are compared exactly;
 * regenerate with COW_UPDATE_GOLDEN=1 and review the diff like code. */
#include <cairo.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chart_data.h"
#include "chart_layout.h"
#include "minunit.h"
#include "png.h"

#define W 1600
#define H 900

static cow_style style1;

/* Under -fsanitize=address: fontconfig keeps one pattern of its config
 * cache until exit even after cairo_debug_reset_static_data(); bounded and
 * not ours, so LeakSanitizer is told to ignore that library only. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
    return "leak:libfontconfig.so\n";
}

/* ---------- ticks ---------- */

static void ticks_should_be_nice_125(void)
{
    static const struct {
        double lo, hi;
        size_t target, n;
        double first, last, step;
    } rows[] = {
        /* 1.1 */ {0, 47.3, 5, 6, 0, 50, 10},
        /* 1.2 */ {0, 1, 5, 6, 0, 1, 0.2},
        /* 1.3 */ {-3.2, 7.9, 5, 7, -4, 8, 2},
        /* 1.4 */ {1000, 1000.9, 4, 6, 1000, 1001, 0.2},
        /* 1.4b */ {-3.2, 7.9, 10, 13, -4, 8, 1},
        /* 1.5 */ {0, 3e6, 6, 7, 0, 3e6, 5e5},
        /* 1.5b */ {0, 3.09e6, 3, 5, 0, 4e6, 1e6},   /* nearest, not ceiling */
        /* 1.6 */ {5, 5, 4, 6, 5, 6, 0.2},    /* empty range: lo .. lo+1 */
    };
    double v[64], step;

    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        size_t n = chart_nice_ticks(rows[i].lo, rows[i].hi, rows[i].target, v, 64, &step);
        CHECK_INT(n, rows[i].n);
        CHECK_NEAR(v[0], rows[i].first, 1e-9);
        CHECK_NEAR(v[n - 1], rows[i].last, 1e-9);
        CHECK_NEAR(step, rows[i].step, 1e-12);
    }
    chart_nice_ticks(0, 47.3, 5, v, 64, &step);
    for (int i = 0; i < 6; i++)
        CHECK_NEAR(v[i], 10.0 * i, 1e-9);
}

static void log_ticks_should_be_decades_or_125(void)
{
    double v[32];
    bool major[32];
    size_t n;

    n = chart_log_ticks(0.8, 1234, v, major, 32);           /* 2.1 */
    CHECK_INT(n, 4);
    CHECK_NEAR(v[0], 1, 1e-12);
    CHECK_NEAR(v[3], 1000, 1e-9);
    CHECK(major[0] && major[3]);
    n = chart_log_ticks(3, 40, v, major, 32);               /* 2.2 few decades */
    CHECK_INT(n, 3);
    CHECK_NEAR(v[0], 5, 1e-12);
    CHECK_NEAR(v[1], 10, 1e-12);
    CHECK_NEAR(v[2], 20, 1e-12);
    CHECK(major[0] && major[1] && major[2]);   /* < 2 decades: all grid lines */
    n = chart_log_ticks(2, 150, v, major, 32);              /* 2.2b two decades */
    CHECK_INT(n, 6);
    CHECK_NEAR(v[0], 2, 1e-12);
    CHECK_NEAR(v[5], 100, 1e-12);
    CHECK(!major[0] && !major[1] && major[2] && !major[3] && !major[4] && major[5]);
    n = chart_log_ticks(0.002, 2e5, v, major, 32);          /* 2.3 */
    CHECK_INT(n, 8);
    CHECK_NEAR(v[0], 0.01, 1e-15);
}

static void pctl_ticks_should_label_nines(void)
{
    static const char *want[] = {"0%", "50%", "90%", "99%", "99.9%", "99.99%"};
    double v[16];
    char buf[32];
    size_t n = chart_pctl_ticks(0, 0.9999, v, 16);

    CHECK_INT(n, 6);
    for (size_t i = 0; i < n && i < 6; i++) {
        chart_format_tick(COW_AXIS_PCTL, v[i], 0, 0, buf, sizeof(buf));
        CHECK_STR(buf, want[i]);
    }
    CHECK_INT(chart_pctl_ticks(0.95, 0.999, v, 16), 2);     /* 99%, 99.9% */
}

static void tick_labels_should_format_by_step(void)
{
    static const struct {
        int kind;
        double v, step, smax;
        const char *want;
    } rows[] = {
        /* 3.1 */ {COW_AXIS_LINEAR, 2500, 500, 3000, "2500"},
        /* 3.2 */ {COW_AXIS_LINEAR, 2.5e6, 5e5, 3e6, "2.5M"},
        /* 3.3 */ {COW_AXIS_LINEAR, 25000, 5000, 30000, "25k"},
        /* 3.4 */ {COW_AXIS_LINEAR, 0.25, 0.05, 1, "0.25"},
        /* 3.5 */ {COW_AXIS_LINEAR, 0, 5e5, 3e6, "0"},
        /* 3.6 */ {COW_AXIS_TIME, -2, 2, 10, "-2"},
        /* 3.7 */ {COW_AXIS_LOG10, 10000, 0, 0, "10k"},
        /* 3.8 */ {COW_AXIS_LOG10, 0.01, 0, 0, "0.01"},
        /* 3.9 */ {COW_AXIS_PCTL, 0.99999, 0, 0, "99.999%"},
    };
    char buf[32];

    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        chart_format_tick(rows[i].kind, rows[i].v, rows[i].step, rows[i].smax, buf,
                          sizeof(buf));
        CHECK_STR(buf, rows[i].want);
    }
}

/* ---------- the reducer ---------- */

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Nearest-rank quantile of lat[i0..i1) by sorting a copy. */
static double exact_q(const double *lat, size_t i0, size_t i1, double q)
{
    size_t n = i1 - i0, k;
    double *v = malloc(n * sizeof(double)), r;

    memcpy(v, lat + i0, n * sizeof(double));
    qsort(v, n, sizeof(double), cmp_d);
    k = (size_t)ceil(q * (double)n);
    r = v[k ? k - 1 : 0];
    free(v);
    return r;
}

static void reducer_should_fold_a_million_samples(void)
{
    size_t n = 1000000, ncol = 1000, i, c;
    int64_t *t = malloc(n * sizeof(int64_t));
    double *lat = malloc(n * sizeof(double));
    cow_colred r;
    cow_err e = COW_ERR_INIT;
    static const size_t cols[] = {0, 1, 4, 5, 500, 994, 999};

    for (i = 0; i < n; i++) {
        t[i] = INT64_C(1700000000000000) + (int64_t)i * 10;  /* 10 us apart */
        lat[i] = (double)((i * 7919) % 1000) + 1 + (i % 100000 == 7 ? 50000 : 0);
    }
    CHECK_INT(chart_reduce_columns(t, lat, n, t[0], t[0] + 10 * (int64_t)n, ncol, NULL,
                                   &r, &e), 0);
    CHECK_INT(r.win_cols, 10);
    CHECK_INT(r.min_n, 1000);
    CHECK_NEAR(r.q, 0.99, 0);
    for (c = 0; c < ncol; c++) {
        CHECK_INT(r.count[c], 1000);
        if (r.count[c] != 1000)
            break;
    }
    CHECK_NEAR(r.min_us[0], 1, 0);
    CHECK_NEAR(r.max_us[0], 50000 + (double)((7 * 7919) % 1000) + 1, 0);
    CHECK_NEAR(r.max_us[1], 1000, 0);
    CHECK_NEAR(r.t_s[0], 0.005, 1e-12);
    /* Window = 10 columns centred on c (10 000 samples > min_n). */
    for (i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) {
        size_t cc = cols[i], i0 = cc >= 5 ? (cc - 5) * 1000 + 500 : 0;
        size_t i1 = (cc + 5) * 1000 + 500 > n ? n : (cc + 5) * 1000 + 500;
        double want = exact_q(lat, i0, i1, 0.99);
        CHECK_NEAR(r.q_us[cc] / want, 1.0, 0.0006);
    }
    chart_colred_release(&r);
    free(t);
    free(lat);
}

static void reducer_should_widen_sparse_windows_and_leave_gaps(void)
{
    int64_t t[50];
    double lat[50], mx = 0;
    cow_colred r;
    cow_err e = COW_ERR_INIT;
    size_t i, empty = 0;

    for (i = 0; i < 50; i++) {
        t[i] = (int64_t)i * 1000000;            /* 1 s apart over 50 s */
        lat[i] = 100 + (double)((i * 37) % 50) * 10;
        mx = fmax(mx, lat[i]);
    }
    CHECK_INT(chart_reduce_columns(t, lat, 50, 0, 100 * 1000000, 200, NULL, &r, &e), 0);
    /* min_n (1000) > n: every window holds all 50 samples; p99 = the max. */
    CHECK_NEAR(r.q_us[0], mx, mx * 0.0006);
    for (i = 0; i < 200; i++)
        empty += r.count[i] == 0;
    CHECK_INT(empty, 150);
    CHECK(isnan(r.min_us[199]) && isnan(r.max_us[199]) && isnan(r.q_us[199]));
    CHECK(isnan(r.q_us[1]));                     /* column 1 has no sample */
    chart_colred_release(&r);

    CHECK_INT(chart_reduce_columns(t, lat, 0, 0, 1000, 4, NULL, &r, &e), 0);
    CHECK(isnan(r.q_us[0]) && r.count[3] == 0);
    chart_colred_release(&r);
}

static void reducer_should_refuse_bad_input(void)
{
    int64_t t[3] = {0, 10, 5};
    double lat[3] = {1, 2, 3}, neg[3] = {1, -2, 3};
    int64_t ts[3] = {0, 5, 10};
    cow_colred r;
    cow_err e = COW_ERR_INIT;

    CHECK_INT(chart_reduce_columns(t, lat, 3, 0, 100, 10, NULL, &r, &e), COW_EUSAGE);
    CHECK(strstr(e.msg, "index 2") != NULL);
    chart_colred_release(&r);
    CHECK_INT(chart_reduce_columns(ts, neg, 3, 0, 100, 10, NULL, &r, &e), COW_EUSAGE);
    CHECK(strstr(e.msg, "index 1") != NULL);
    CHECK_INT(chart_reduce_columns(ts, lat, 3, 0, 100, 0, NULL, &r, &e), COW_EUSAGE);
    CHECK_INT(chart_reduce_columns(ts, lat, 3, 100, 100, 4, NULL, &r, &e), COW_EUSAGE);
    chart_colred_release(&r);
}

/* ---------- chart builders for the goldens ---------- */

static cow_chart *mk_timeline(bool log_y)
{
    size_t n = 200000, ncol = W, i;
    int64_t *t = malloc(n * sizeof(int64_t)), t0 = INT64_C(1726480800000000);
    double *lat = malloc(n * sizeof(double)), lo[W], hi[W], q[W];
    cow_colred r;
    cow_err e = COW_ERR_INIT;
    cow_chart *c = chart_new("Latency timeline");

    for (i = 0; i < n; i++) {
        double s = (double)i * 60.0 / (double)n;
        t[i] = t0 + (int64_t)(s * 1e6);
        lat[i] = 200 + (double)((i * 7919) % 400) + (s > 20 && s < 30 ? 3000.0 * (double)(i % 7 == 0) : 0);
        if (log_y && i % 5000 == 0)
            lat[i] = 0;   /* zeros on a log axis: clamped and counted */
    }
    chart_reduce_columns(t, lat, n, t0, t0 + 60 * INT64_C(1000000), ncol, NULL, &r, &e);
    for (i = 0; i < ncol; i++)
        lo[i] = r.min_us[i] / 1000, hi[i] = r.max_us[i] / 1000, q[i] = r.q_us[i] / 1000;
    chart_set_text(c->subtitle, sizeof(c->subtitle), "synthetic");
    chart_axis_set(&c->x, COW_AXIS_TIME, "time", "s");
    c->x.origin_us = t0;
    chart_axis_set(&c->y, log_y ? COW_AXIS_LOG10 : COW_AXIS_LINEAR, "latency", "ms");
    chart_add_band(c, "min-max", r.t_s, lo, hi, ncol)->color = 5;
    chart_add_line(c, "p99", r.t_s, q, ncol)->color = 0;
    chart_add_span(c, 20, 30, "BGSAVE");
    chart_add_span(c, 40, 45, "AOF rewrite");
    chart_add_span(c, 44, 50, "full sync (diskless)");
    chart_add_mark(c, 20.001, "fork");
    chart_add_mark(c, 40.001, "fork");
    chart_add_mark(c, 44.001, "fork");
    chart_colred_release(&r);
    free(t);
    free(lat);
    return c;
}

static cow_chart *mk_distribution(void)
{
    cow_chart *c = chart_new("Percentile distribution");
    double q[40], a[40], b[40];

    for (int i = 0; i < 40; i++) {
        q[i] = 1 - pow(10, -4.0 * i / 39);
        a[i] = 0.2 * pow(1.12, i);
        b[i] = 0.25 * pow(1.2, i);
    }
    chart_axis_set(&c->x, COW_AXIS_PCTL, "percentile", "");
    chart_axis_set(&c->y, COW_AXIS_LOG10, "latency", "ms");
    chart_add_line(c, "baseline", q, a, 40);
    chart_add_line(c, "BGSAVE", q, b, 40);
    return c;
}

static cow_chart *mk_bars(void)
{
    static const double p50[] = {1, 1.1, 1.05}, p99[] = {1.9, 2.6, 2.1},
                        p999[] = {2.4, 10.5, 2.7};
    static const double lo[] = {2.2, 8.6, 2.2}, hi[] = {3.1, 13.6, 3.5};
    static const unsigned char thin[] = {0, 1, 1};
    cow_chart *c = chart_new("Quantiles per scenario");

    chart_axis_set(&c->x, COW_AXIS_CATEGORY, "scenario", "");
    chart_axis_set(&c->y, COW_AXIS_LINEAR, "latency", "ms");
    chart_add_category(c, "steady", 30000);
    chart_add_category(c, "disk_sync", 705);
    chart_add_category(c, "diskless_sync", 690);
    chart_add_bars(c, "p50", p50, NULL, NULL, 3);
    chart_add_bars(c, "p99", p99, NULL, NULL, 3);
    chart_series_set_thin(chart_add_bars(c, "p99.9", p999, lo, hi, 3), thin);
    return c;
}

static cow_chart *mk_memory(void)
{
    double t[41], f[41], g[41];
    cow_chart *c = chart_new("Memory during the save");

    for (int i = 0; i < 41; i++) {
        t[i] = -2 + 0.3 * i;
        f[i] = 1000 + (t[i] >= 0 && t[i] < 3 ? 350 * t[i] / 3 : 0);
        g[i] = 1000 + (t[i] >= 0 && t[i] < 6 ? 10 : 0);
    }
    chart_axis_set(&c->x, COW_AXIS_LINEAR, "time since BGSAVE", "s");
    chart_axis_set(&c->y, COW_AXIS_LINEAR, "memory", "MB");
    chart_add_line(c, "fork", t, f, 41)->color = 1;
    chart_add_line(c, "forkless", t, g, 41)->color = 0;
    chart_add_span(c, 0, 3, "fork save")->color = 4;
    chart_add_span(c, 0, 6, "forkless save")->color = 5;
    chart_add_mark(c, 0, "BGSAVE");
    return c;
}

static void panel_points(cow_chart *c, const char *title, const char *unit,
                         double a, double b)
{
    cow_chart *p = chart_add_panel(c, title);
    double x0 = 0, x1 = 1, alo = a * 0.9, ahi = a * 1.1, blo = b * 0.8, bhi = b * 1.3;

    chart_axis_set(&p->x, COW_AXIS_CATEGORY, "", "");
    chart_axis_set(&p->y, COW_AXIS_LINEAR, title, unit);
    p->y.include_zero = true;
    chart_add_category(p, "fork", 7);
    chart_add_category(p, "forkless", 7);
    chart_series_set_yerr(chart_add_points(p, "fork", &x0, &a, 1), &alo, &ahi);
    chart_series_set_yerr(chart_add_points(p, "forkless", &x1, &b, 1), &blo, &bhi);
}

static cow_chart *mk_tradeoff(void)
{
    cow_chart *c = chart_new("Fork vs forkless");
    cow_chart *empty;

    panel_points(c, "COW", "MB", 354.7, 0);
    panel_points(c, "save time", "s", 3, 5.4);
    panel_points(c, "throughput", "ops/s", 27202, 23034);
    panel_points(c, "worst round trip", "ms", 20.1, 7.2);
    empty = chart_add_panel(c, "fork time");   /* no data: skipped, noted */
    chart_axis_set(&empty->y, COW_AXIS_LINEAR, "fork", "ms");
    return c;
}

static cow_chart *mk_progress(void)
{
    double t[20], k[20], r[20];
    cow_chart *c = chart_new("Forkless save progress"), *a, *b;

    for (int i = 0; i < 20; i++)
        t[i] = 0.3 * i, k[i] = 500000.0 * t[i], r[i] = 6 - t[i];
    c->panel_cols = 1;
    a = chart_add_panel(c, "keys processed");
    chart_axis_set(&a->x, COW_AXIS_LINEAR, "time since BGSAVE", "s");
    chart_axis_set(&a->y, COW_AXIS_LINEAR, "keys", "");
    chart_add_line(a, "keys processed", t, k, 20);
    b = chart_add_panel(c, "estimated time remaining");
    chart_axis_set(&b->x, COW_AXIS_LINEAR, "time since BGSAVE", "s");
    chart_axis_set(&b->y, COW_AXIS_LINEAR, "remaining", "s");
    chart_add_line(b, "estimated seconds remaining", t, r, 20)->color = 1;
    return c;
}

static cow_chart *mk_fleet(size_t n)
{
    double x[64], y[64], lo[64], hi[64];
    unsigned char st[64];
    char name[64];
    cow_chart *c = chart_new("p99.9 lift per host");
    cow_series *s;

    chart_axis_set(&c->x, COW_AXIS_LINEAR, "p99.9 lift", "ms");
    chart_axis_set(&c->y, COW_AXIS_CATEGORY, "", "");
    for (size_t i = 0; i < n; i++) {
        x[i] = 6.0 - 0.25 * (double)i, y[i] = (double)i;
        lo[i] = x[i] - 0.5, hi[i] = x[i] + 0.7;
        st[i] = x[i] > 2 ? COW_STATE_FAIL : COW_STATE_PASS;
        snprintf(name, sizeof(name), "host-%02zu", i);
        chart_add_category(c, name, -1);
    }
    s = chart_add_points(c, "lift", x, y, n);
    chart_series_set_xerr(s, lo, hi);
    chart_series_set_state(s, st);
    chart_add_mark(c, 2, "threshold 2 ms");
    return c;
}

/* ---------- goldens ---------- */

static void layout_ok(const char *name, const cow_layout *L)
{
    size_t bad = 0;

    CHECK_INT(chart_layout_text_overlaps(L), 0);
    for (size_t i = 0; i < L->nprims; i++) {
        const cow_prim *p = &L->prims[i];
        if (p->kind == COW_PRIM_TEXT &&
            (p->box.x < -0.01 || p->box.y < -0.01 || p->box.x + p->box.w > L->w + 0.01 ||
             p->box.y + p->box.h > L->h + 0.01)) {
            fprintf(stderr, "%s: text \"%s\" leaves the canvas\n", name, p->text);
            bad++;
        }
    }
    CHECK_INT(bad, 0);
}

static void golden(const char *name, cow_chart *c)
{
    const char *dir = getenv("COW_TESTDATA");
    char path[1024], *got, *want = NULL;
    cow_layout L;
    cow_err e = COW_ERR_INIT;
    FILE *f;
    long len;

    snprintf(path, sizeof(path), "%s/chart/%s.txt", dir ? dir : "tests/data", name);
    CHECK_INT(chart_layout_build(c, &style1, W, H, chart_measure_fake, NULL, &L, &e), 0);
    layout_ok(name, &L);
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
    chart_free(c);
}

static void layouts_should_match_goldens(void)
{
    golden("timeline", mk_timeline(false));
    golden("timeline_log", mk_timeline(true));
    golden("distribution", mk_distribution());
    golden("bars", mk_bars());
    golden("memory", mk_memory());
    golden("tradeoff", mk_tradeoff());
    golden("progress", mk_progress());
    golden("fleet", mk_fleet(24));
}

/* ---------- what the layout decided ---------- */

static void build(cow_chart *c, double w, double h, cow_layout *L)
{
    cow_err e = COW_ERR_INIT;

    CHECK_INT(chart_layout_build(c, &style1, w, h, chart_measure_fake, NULL, L, &e), 0);
}

static void log_axis_should_clamp_and_say_so(void)
{
    cow_chart *c = mk_timeline(true);
    cow_layout L;
    bool noted = false;

    build(c, W, H, &L);
    CHECK(L.plots[0].y.nclamped > 0);
    for (size_t i = 0; i < L.nprims; i++)
        if (L.prims[i].role == COW_ROLE_NOTE)
            noted = strstr(L.prims[i].text, "drawn at the bottom edge") != NULL;
    CHECK(noted);
    chart_layout_release(&L);
    chart_free(c);
}

static void crowded_category_labels_should_rotate_and_shorten(void)
{
    cow_chart *c = chart_new("Many scenarios");
    double y[12];
    cow_layout L;
    char name[96];

    chart_axis_set(&c->x, COW_AXIS_CATEGORY, "scenario", "");
    for (int i = 0; i < 12; i++) {
        y[i] = i + 1;
        snprintf(name, sizeof(name), i == 5 ? "scenario-%02d-with-a-name-that-goes-on-and-on-and-on"
                                            : "scenario-%02d-long", i);
        chart_add_category(c, name, 700 + i);
    }
    chart_add_bars(c, "p99", y, NULL, NULL, 12);
    build(c, W, H, &L);
    CHECK(L.plots[0].x.rotated);
    CHECK_INT(L.plots[0].x.fit, COW_FIT_SHORTENED);
    CHECK(strstr(L.plots[0].x.ticks[5].label, "\xe2\x80\xa6") != NULL);
    CHECK(strstr(L.plots[0].x.ticks[4].label, "\xe2\x80\xa6") == NULL);
    CHECK_INT(L.plots[0].x.every, 1);
    layout_ok("categories", &L);
    chart_layout_release(&L);
    /* Fewer, short labels stay horizontal. */
    chart_free(c);
    c = mk_bars();
    build(c, W, H, &L);
    CHECK(!L.plots[0].x.rotated);
    CHECK_INT(L.plots[0].x.fit, COW_FIT_ALL);
    chart_layout_release(&L);
    chart_free(c);
}

static void crowded_numeric_labels_should_thin(void)
{
    cow_chart *c = chart_new("Narrow");
    double x[2] = {0, 1234567}, y[2] = {1, 2};
    cow_layout L;
    size_t shown = 0;

    chart_axis_set(&c->x, COW_AXIS_LINEAR, "bytes", "B");
    chart_add_line(c, "", x, y, 2);
    style1.tick_px = 30;              /* labels wider than the ... */
    style1.xtick_spacing_px = 20;     /* ... tick spacing asked for */
    build(c, 400, 300, &L);
    chart_style_defaults(&style1, 1);
    CHECK_INT(L.plots[0].x.fit, COW_FIT_THINNED);
    CHECK(L.plots[0].x.every >= 2);
    for (size_t i = 0; i < L.plots[0].x.nticks; i++)
        shown += L.plots[0].x.ticks[i].shown;
    CHECK(shown >= 2 && shown < L.plots[0].x.nticks);
    layout_ok("narrow", &L);
    chart_layout_release(&L);
    chart_free(c);
}

static void legend_should_avoid_data(void)
{
    cow_chart *c = mk_memory();
    cow_layout L;

    build(c, W, H, &L);
    CHECK(L.has_legend && L.legend_inside);
    /* The fork curve fills the top right: the legend goes top left. */
    CHECK(L.legend.x < L.plots[0].rect.x + L.plots[0].rect.w / 2);
    chart_layout_release(&L);
    chart_free(c);
    /* Data everywhere: the legend moves to a strip above the plot. */
    c = chart_new("Full");
    {
        double x[4] = {0, 1, 0, 1}, y[4] = {0, 1, 1, 0};
        chart_add_line(c, "a", x, y, 2);
        chart_add_line(c, "b", x + 2, y + 2, 2);
        chart_add_line(c, "c", x, x, 2);
    }
    c->y.has_range = true, c->y.min = 0, c->y.max = 1;
    c->x.has_range = true, c->x.min = 0, c->x.max = 1;
    build(c, W, H, &L);
    CHECK(L.has_legend && !L.legend_inside);
    CHECK(L.legend.y + L.legend.h <= L.plots[0].rect.y);
    chart_layout_release(&L);
    chart_free(c);
}

static void lane_labels_should_not_overlap(void)
{
    cow_chart *c = mk_timeline(false);
    cow_layout L;

    for (int i = 0; i < 30; i++)
        chart_add_mark(c, 1 + i * 0.5, "fork");   /* far too many to label */
    build(c, W, H, &L);
    CHECK(L.plots[0].ndropped > 0);
    layout_ok("lane", &L);
    chart_layout_release(&L);
    chart_free(c);
}

/* ---------- why not drawable ---------- */

static void undrawable_charts_should_say_why(void)
{
    static const char *want[] = {
        "no series to draw", "no data points in any series",
        "log y axis but no value above 0", "category axis but no categories",
        "bars 'p99' have 2 values for 1 categories",
        "percentile axis but no quantile level in [0, 1)"};
    double nan2[2] = {NAN, NAN}, zero[2] = {0, 0}, x[2] = {0, 1}, q1[2] = {1, 1};
    cow_chart *c[6];
    char why[256];
    cow_layout L;
    cow_err e = COW_ERR_INIT;

    c[0] = chart_new("a");
    c[1] = chart_new("b");
    chart_add_line(c[1], "s", x, nan2, 2);
    c[2] = chart_new("c");
    c[2]->y.kind = COW_AXIS_LOG10;
    chart_add_line(c[2], "s", x, zero, 2);
    c[3] = chart_new("d");
    c[3]->x.kind = COW_AXIS_CATEGORY;
    chart_add_points(c[3], "s", x, x, 2);
    c[4] = chart_new("e");
    chart_add_category(c[4], "only", -1);
    chart_add_bars(c[4], "p99", x, NULL, NULL, 2);
    c[5] = chart_new("f");
    c[5]->x.kind = COW_AXIS_PCTL;
    chart_add_line(c[5], "s", q1, x, 2);
    for (int i = 0; i < 6; i++) {
        CHECK(!chart_is_drawable(c[i], why, sizeof(why)));
        CHECK_STR(why, want[i]);
        CHECK_INT(chart_layout_build(c[i], &style1, W, H, chart_measure_fake, NULL, &L, &e),
                  COW_EUSAGE);
        chart_layout_release(&L);
        chart_free(c[i]);
    }
    c[0] = chart_new("panels");
    chart_add_panel(c[0], "empty one");
    CHECK(!chart_is_drawable(c[0], why, sizeof(why)));
    CHECK(strncmp(why, "no panel has data", 17) == 0);
    chart_free(c[0]);
    c[0] = mk_memory();
    CHECK(chart_is_drawable(c[0], why, sizeof(why)));
    chart_free(c[0]);
}

/* ---------- PNG ---------- */

/* Distinct colours inside a rectangle of an RGB24/ARGB32 image. */
static size_t distinct_colours(cairo_surface_t *s, int x0, int y0, int x1, int y1)
{
    unsigned char *d = cairo_image_surface_get_data(s);
    int stride = cairo_image_surface_get_stride(s);
    uint32_t seen[512];
    size_t n = 0;

    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1 && n < 512; x++) {
            uint32_t v = *(uint32_t *)(d + y * stride + 4 * x) & 0xFFFFFF;
            size_t k;
            for (k = 0; k < n && seen[k] != v; k++)
                ;
            if (k == n)
                seen[n++] = v;
        }
    return n;
}

static void png_check(cow_chart *c, double scale, const char *tag)
{
    char path[512];
    cow_style st;
    cow_err e = COW_ERR_INIT;
    cairo_surface_t *s;
    int w = (int)(W * scale), h = (int)(H * scale);

    snprintf(path, sizeof(path), "%s/cow_test_chart_%ld_%s.png",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (long)getpid(), tag);
    chart_style_defaults(&st, scale);
    CHECK_INT(chart_write_png(c, &st, path, w, h, &e), 0);
    s = cairo_image_surface_create_from_png(path);
    CHECK_INT(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
    if (cairo_surface_status(s) == CAIRO_STATUS_SUCCESS) {
        CHECK_INT(cairo_image_surface_get_width(s), w);
        CHECK_INT(cairo_image_surface_get_height(s), h);
        cairo_surface_flush(s);
        CHECK(distinct_colours(s, w / 8, h / 5, w * 7 / 8, h * 4 / 5) > 20);
    }
    cairo_surface_destroy(s);
    remove(path);
    chart_free(c);
}

static void png_should_decode_with_content(void)
{
    png_check(mk_timeline(false), 1, "timeline");
    png_check(mk_bars(), 1, "bars");
    png_check(mk_tradeoff(), 2, "tradeoff2x");
    png_check(mk_fleet(24), 1, "fleet");
}

static void png_should_refuse_empty_and_unwritable(void)
{
    cow_chart *c = chart_new("nothing");
    cow_err e = COW_ERR_INIT;
    char path[512];

    snprintf(path, sizeof(path), "/tmp/cow_test_chart_%ld_empty.png", (long)getpid());
    CHECK_INT(chart_write_png(c, &style1, path, W, H, &e), COW_EUSAGE);
    CHECK(strstr(e.msg, "no series to draw") != NULL);
    CHECK(access(path, F_OK) != 0);
    chart_free(c);
    c = mk_bars();
    CHECK_INT(chart_write_png(c, &style1, "/nonexistent-dir/x.png", W, H, &e), COW_EIO);
    CHECK_STR(e.path, "/nonexistent-dir/x.png");
    chart_free(c);
}

int main(void)
{
    chart_style_defaults(&style1, 1);
    RUN(ticks_should_be_nice_125);
    RUN(log_ticks_should_be_decades_or_125);
    RUN(pctl_ticks_should_label_nines);
    RUN(tick_labels_should_format_by_step);
    RUN(reducer_should_fold_a_million_samples);
    RUN(reducer_should_widen_sparse_windows_and_leave_gaps);
    RUN(reducer_should_refuse_bad_input);
    RUN(layouts_should_match_goldens);
    RUN(log_axis_should_clamp_and_say_so);
    RUN(crowded_category_labels_should_rotate_and_shorten);
    RUN(crowded_numeric_labels_should_thin);
    RUN(legend_should_avoid_data);
    RUN(lane_labels_should_not_overlap);
    RUN(undrawable_charts_should_say_why);
    RUN(png_should_decode_with_content);
    RUN(png_should_refuse_empty_and_unwritable);
    /* Drop cairo's font caches so LeakSanitizer sees only our leaks. */
    cairo_debug_reset_static_data();
    return REPORT();
}
