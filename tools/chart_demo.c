/* chart_demo.c -- renders every chart type from synthetic data so a person
 * can look at them: chart_demo [outdir] [--scale N] [--dump]. Writes
 * outdir/NN_name.png and prints one line per chart (written, or skipped
 * and why); --dump adds NN_name.txt layout dumps. Not installed and not a test; the data are made up (seeded). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "chart_data.h"
#include "chart_layout.h"
#include "mem.h"
#include "outfile.h"
#include "png.h"
#include "timeconv.h"

/* ---------- seeded randomness ---------- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static double urand(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return ((double)(rng_state >> 11) + 0.5) / 9007199254740992.0;
}

/* Lognormal latency in us with median med and shape s. */
static double lognorm(double med, double s)
{
    double u = urand(), v = urand();
    return med * exp(s * sqrt(-2 * log(u)) * cos(2 * M_PI * v));
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* ---------- output ---------- */

typedef struct demo {
    const char *dir;   /* output folder */
    cow_style st;      /* style at the chosen scale */
    int w, h;          /* canvas */
    int failed;        /* charts that failed to write */
    int dump;          /* also write NN_name.txt layout dumps */
} demo;

/* The layout as text (real font metrics are not used: fake ones). */
static void dump(const demo *d, const char *name, const cow_chart *c)
{
    char *path = xasprintf("%s/%s.txt", d->dir, name), *txt;
    cow_layout L;
    cow_err e = COW_ERR_INIT;
    cow_outfile f;

    if (chart_layout_build(c, &d->st, d->w, d->h, chart_measure_fake, NULL, &L, &e) == 0 &&
        outfile_open(&f, path, &e) == 0) {
        txt = chart_layout_dump(&L);
        fputs(txt, f.fp);
        outfile_commit(&f, &e);
        free(txt);
    }
    chart_layout_release(&L);
    free(path);
}

static void emit(demo *d, const char *name, cow_chart *c)
{
    char *path = xasprintf("%s/%s.png", d->dir, name), why[COW_CHART_TEXT];
    cow_err e = COW_ERR_INIT;

    if (!chart_is_drawable(c, why, sizeof(why))) {
        printf("skipped %-24s %s\n", name, why);
    } else if (chart_write_png(c, &d->st, path, d->w, d->h, &e) != 0) {
        fprintf(stderr, "chart_demo: %s: %s\n", path, e.msg);
        d->failed++;
    } else {
        printf("wrote   %s\n", path);
    }
    if (d->dump && chart_is_drawable(c, NULL, 0))
        dump(d, name, c);
    chart_free(c);
    free(path);
}

/* ---------- 1. latency timeline ---------- */

/* Phases of the synthetic run, seconds from its start. */
static const struct {
    double t0, t1;
    const char *label;
    double med_us, tail;
} phases[] = {
    {95, 131, "BGSAVE", 300, 1.1},
    {250, 292, "full sync (disk)", 380, 1.2},
    {292, 318, "full sync (diskless)", 320, 0.9},
    {440, 495, "AOF rewrite", 290, 1.0},
};

static void timeline_samples(int64_t **pt, double **pl, size_t *pn, int64_t t0)
{
    size_t n = 2000000, i, k;
    int64_t *t = xmalloc(n * sizeof(int64_t));
    double *l = xmalloc(n * sizeof(double));

    for (i = 0; i < n; i++) {
        double ts = (double)i * 600.0 / (double)n, med = 220, s = 0.45;
        for (k = 0; k < sizeof(phases) / sizeof(phases[0]); k++)
            if (ts >= phases[k].t0 && ts < phases[k].t1)
                med = phases[k].med_us, s = 0.45 + 0.35 * phases[k].tail;
        t[i] = t0 + (int64_t)(ts * 1e6);
        l[i] = lognorm(med, s);
        if (urand() < 2e-6)
            l[i] += 40000 * urand();   /* rare stalls */
    }
    *pt = t, *pl = l, *pn = n;
}

static cow_chart *timeline(const demo *d, bool log_y)
{
    int64_t t0 = time_us_from_civil(2024, 9, 16, 10, 0, 0, 0), *t;
    double *l, *lo, *hi, *q;
    size_t n, i, k, ncol = (size_t)d->w;
    cow_colred r;
    cow_err e = COW_ERR_INIT;
    cow_chart *c = chart_new("Round-trip latency during persistence events");
    cow_series *s;

    timeline_samples(&t, &l, &n, t0);
    if (chart_reduce_columns(t, l, n, t0, t0 + 600 * COW_US_PER_S, ncol, NULL, &r, &e)) {
        fprintf(stderr, "chart_demo: %s\n", e.msg);
        exit(1);
    }
    lo = xmalloc(ncol * sizeof(double)), hi = xmalloc(ncol * sizeof(double));
    q = xmalloc(ncol * sizeof(double));
    for (i = 0; i < ncol; i++)
        lo[i] = r.min_us[i] / 1000, hi[i] = r.max_us[i] / 1000, q[i] = r.q_us[i] / 1000;
    snprintf(c->subtitle, sizeof(c->subtitle),
             "synthetic: %zu samples, %zu per pixel column; rolling p99 over %zu columns",
             n, n / ncol, r.win_cols);
    chart_axis_set(&c->x, COW_AXIS_TIME, "time", "s");
    c->x.origin_us = t0;
    c->x.has_range = true, c->x.min = 0, c->x.max = 600;
    chart_axis_set(&c->y, log_y ? COW_AXIS_LOG10 : COW_AXIS_LINEAR, "round trip", "ms");
    c->y.include_zero = true;
    s = chart_add_band(c, "min\xe2\x80\x93max per pixel", r.t_s, lo, hi, ncol);
    s->color = 5;
    s = chart_add_line(c, "rolling p99", r.t_s, q, ncol);
    s->color = 0;
    for (k = 0; k < sizeof(phases) / sizeof(phases[0]); k++) {
        chart_add_span(c, phases[k].t0, phases[k].t1, phases[k].label);
        chart_add_mark(c, phases[k].t0 + 0.02, "fork");
    }
    free(lo), free(hi), free(q), free(t), free(l);
    chart_colred_release(&r);
    return c;
}

/* ---------- 2. percentile distribution ---------- */

static void pctl_line(cow_chart *c, const char *name, double med, double s, size_t n)
{
    double *v = xmalloc(n * sizeof(double)), qs[120], ys[120];
    size_t i, m = 0;

    for (i = 0; i < n; i++)
        v[i] = lognorm(med, s) / 1000;
    qsort(v, n, sizeof(double), cmp_d);
    for (i = 0; i < 120; i++) {
        double t = 5.0 * (double)i / 119, q = 1 - pow(10, -t);
        size_t k = (size_t)(q * (double)(n - 1));
        if ((double)n * (1 - q) < 1)
            break;
        qs[m] = q, ys[m++] = v[k];
    }
    chart_add_line(c, name, qs, ys, m);
    free(v);
}

static cow_chart *distribution(void)
{
    cow_chart *c = chart_new("Latency by percentile, per phase");

    chart_set_text(c->subtitle, sizeof(c->subtitle),
                   "HdrHistogram-style: x is 1/(1\xe2\x88\x92q) on a log scale; synthetic data");
    chart_axis_set(&c->x, COW_AXIS_PCTL, "percentile", "");
    chart_axis_set(&c->y, COW_AXIS_LOG10, "round trip", "ms");
    pctl_line(c, "steady", 220, 0.45, 400000);
    pctl_line(c, "BGSAVE", 300, 0.83, 200000);
    pctl_line(c, "full sync (disk)", 380, 0.87, 200000);
    pctl_line(c, "AOF rewrite", 290, 0.80, 150000);
    return c;
}

/* ---------- 3. quantile bars ---------- */

static cow_chart *quantile_bars(void)
{
    static const char *names[] = {"steady", "disk_sync", "diskless_sync",
                                  "read-only control"};
    static const long ns[] = {30000, 705, 690, 702};
    static const double p50[] = {1.02, 1.10, 1.05, 1.01}, p99[] = {1.9, 2.6, 2.1, 2.0},
                        p999[] = {2.4, 10.494, 2.7, 9.894};
    double lo[3][4], hi[3][4];
    const double *v[3] = {p50, p99, p999};
    static const char *qn[] = {"p50", "p99", "p99.9"};
    unsigned char thin[4] = {0, 1, 1, 1};
    cow_chart *c = chart_new("Quantiles per scenario, with 95% intervals");
    cow_series *s;

    chart_set_text(c->subtitle, sizeof(c->subtitle),
                   "bars: quantile; whiskers: distribution-free 95% interval; synthetic");
    chart_axis_set(&c->x, COW_AXIS_CATEGORY, "scenario", "");
    chart_axis_set(&c->y, COW_AXIS_LINEAR, "round trip", "ms");
    for (int i = 0; i < 4; i++) {
        chart_add_category(c, names[i], ns[i]);
        for (int q = 0; q < 3; q++)
            lo[q][i] = v[q][i] * (0.92 - 0.05 * q), hi[q][i] = v[q][i] * (1.06 + 0.12 * q);
    }
    for (int q = 0; q < 3; q++) {
        s = chart_add_bars(c, qn[q], v[q], lo[q], hi[q], 4);
        if (q == 2)
            chart_series_set_thin(s, thin);
    }
    chart_set_text(c->note, sizeof(c->note),
                   "pale bar: fewer than 10 samples beyond the quantile");
    return c;
}

/* ---------- 4. memory during the save ---------- */

static cow_chart *memory(void)
{
    double t[81], fork_mb[81], fl_mb[81];
    cow_chart *c = chart_new("Memory during BGSAVE: fork vs forkless");
    cow_series *s;

    for (int i = 0; i < 81; i++) {
        double x = -2 + 0.15 * i, f = 1070, g = 1070;
        if (x >= 0 && x < 3)
            f += 354 * (1 - exp(-x * 1.6));
        else if (x >= 3)
            f += 354 * exp(-(x - 3) * 6);
        if (x >= 0 && x < 5.6)
            g += 9.9 * fmin(1, x / 0.5);
        t[i] = x, fork_mb[i] = f + 2 * (urand() - 0.5), fl_mb[i] = g + 2 * (urand() - 0.5);
    }
    chart_set_text(c->subtitle, sizeof(c->subtitle),
                   "cgroup memory, sampled every 150 ms, aligned at the save start; synthetic");
    chart_axis_set(&c->x, COW_AXIS_LINEAR, "time since BGSAVE", "s");
    chart_axis_set(&c->y, COW_AXIS_LINEAR, "memory", "MB");
    s = chart_add_line(c, "fork", t, fork_mb, 81);
    s->color = 1;
    s = chart_add_line(c, "forkless", t, fl_mb, 81);
    s->color = 0;
    chart_add_span(c, 0, 3.0, "fork save (3 s)")->color = 4;
    chart_add_span(c, 0, 5.6, "forkless save (5.6 s)")->color = 5;
    chart_add_mark(c, 0, "BGSAVE");
    return c;
}

/* ---------- 5. trade-off panel ---------- */

static void tradeoff_panel(cow_chart *c, const char *title, const char *unit,
                           const double m[2], const double lo[2], const double hi[2])
{
    cow_chart *p = chart_add_panel(c, title);
    static const char *modes[2] = {"fork", "forkless"};
    static const int colors[2] = {1, 0};

    chart_axis_set(&p->x, COW_AXIS_CATEGORY, "", "");
    chart_axis_set(&p->y, COW_AXIS_LINEAR, title, unit);
    p->y.include_zero = true;
    for (int i = 0; i < 2; i++) {
        double x = i;
        cow_series *s;
        chart_add_category(p, modes[i], 7);
        s = chart_add_points(p, modes[i], &x, &m[i], 1);
        chart_series_set_yerr(s, &lo[i], &hi[i]);
        s->color = colors[i];
        s->marker = i ? COW_MARKER_SQUARE : COW_MARKER_CIRCLE;
    }
}

static cow_chart *tradeoff(void)
{
    cow_chart *c = chart_new("Fork vs forkless BGSAVE: what each costs");
    static const double cow[2] = {354.7, 0}, cowl[2] = {319.6, 0}, cowh[2] = {367.5, 0};
    static const double sv[2] = {3, 5.4}, svl[2] = {3, 5}, svh[2] = {3, 6};
    static const double tp[2] = {27202, 23034}, tpl[2] = {26100, 22050}, tph[2] = {28010, 23900};
    static const double rt[2] = {20.1, 7.2}, rtl[2] = {11.5, 5.1}, rth[2] = {25.7, 14.2};

    chart_set_text(c->subtitle, sizeof(c->subtitle),
                   "7 trials per mode: marker = mean, whisker = min\xe2\x80\x93max; synthetic");
    tradeoff_panel(c, "COW", "MB", cow, cowl, cowh);
    tradeoff_panel(c, "save time", "s", sv, svl, svh);
    tradeoff_panel(c, "throughput", "ops/s", tp, tpl, tph);
    tradeoff_panel(c, "worst round trip", "ms", rt, rtl, rth);
    return c;
}

/* ---------- 6. forkless progress ---------- */

static cow_chart *progress(void)
{
    double t[40], keys[40], rem[40];
    cow_chart *c = chart_new("Forkless save progress");
    cow_chart *a, *b;

    for (int i = 0; i < 40; i++) {
        t[i] = 0.15 * i;
        keys[i] = fmin(3000000, 3000000 / 5.85 * t[i] * (1 + 0.06 * sin(i * 0.7)));
        rem[i] = keys[i] >= 3000000 ? 0 : ceil((3000000 - keys[i]) / (3000000 / 5.85));
    }
    chart_set_text(c->subtitle, sizeof(c->subtitle),
                   "INFO persistence polled every 150 ms; synthetic");
    c->panel_cols = 1;
    a = chart_add_panel(c, "keys processed");
    chart_axis_set(&a->x, COW_AXIS_LINEAR, "time since BGSAVE", "s");
    chart_axis_set(&a->y, COW_AXIS_LINEAR, "keys", "");
    a->y.include_zero = true;
    chart_add_line(a, "current_save_keys_processed", t, keys, 40);
    chart_add_mark(a, 5.85, "done");
    b = chart_add_panel(c, "estimated time remaining");
    chart_axis_set(&b->x, COW_AXIS_LINEAR, "time since BGSAVE", "s");
    chart_axis_set(&b->y, COW_AXIS_LINEAR, "remaining", "s");
    b->y.include_zero = true;
    chart_add_line(b, "forkless_estimated_seconds_remaining", t, rem, 40)->color = 1;
    return c;
}

/* ---------- 7. fleet ---------- */

static int cmp_desc(const void *a, const void *b)
{
    return -cmp_d(a, b);
}

static cow_chart *fleet(void)
{
    enum { N = 24 };
    double lift[N], y[N], lo[N], hi[N];
    unsigned char state[N];
    cow_chart *c = chart_new("p99.9 lift during full sync, per host");
    char name[32];
    cow_series *s;

    for (int i = 0; i < N; i++)
        lift[i] = 8 * pow(urand(), 2.2) - 0.4;
    qsort(lift, N, sizeof(double), cmp_desc);
    chart_set_text(c->subtitle, sizeof(c->subtitle),
                   "lift = phase p99.9 \xe2\x88\x92 baseline p99.9, 95% bootstrap interval; synthetic");
    chart_axis_set(&c->x, COW_AXIS_LINEAR, "p99.9 lift", "ms");
    chart_axis_set(&c->y, COW_AXIS_CATEGORY, "", "");
    for (int i = 0; i < N; i++) {
        snprintf(name, sizeof(name), "cache-%02d.eu-west-1", (i * 7) % N + 1);
        chart_add_category(c, name, -1);
        y[i] = i;
        lo[i] = lift[i] - 0.3 - 0.4 * urand();
        hi[i] = lift[i] + 0.3 + 0.6 * urand();
        state[i] = lift[i] > 2.0 ? COW_STATE_FAIL : COW_STATE_PASS;
    }
    s = chart_add_points(c, "lift", lift, y, N);
    chart_series_set_xerr(s, lo, hi);
    chart_series_set_state(s, state);
    chart_add_mark(c, 2.0, "threshold 2 ms");
    chart_add_mark(c, 0.0, "");
    return c;
}

/* ---------- main ---------- */

int main(int argc, char **argv)
{
    demo d;
    double scale = 1;
    const char *dir = "chart_demo_out";
    cow_chart *empty;

    memset(&d, 0, sizeof(d));
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--scale") == 0 && i + 1 < argc)
            scale = atof(argv[++i]);
        else if (strcmp(argv[i], "--dump") == 0)
            d.dump = 1;
        else
            dir = argv[i];
    }
    if (scale < 1 || scale > 4) {
        fprintf(stderr, "chart_demo: --scale must be 1..4\n");
        return 2;
    }
    mkdir(dir, 0777);
    d.dir = dir;
    chart_style_defaults(&d.st, scale);
    d.w = (int)(1600 * scale), d.h = (int)(900 * scale);
    emit(&d, "1_timeline", timeline(&d, false));
    emit(&d, "1_timeline_log", timeline(&d, true));
    emit(&d, "2_distribution", distribution());
    emit(&d, "3_quantile_bars", quantile_bars());
    emit(&d, "4_memory", memory());
    emit(&d, "5_tradeoff", tradeoff());
    emit(&d, "6_progress", progress());
    emit(&d, "7_fleet", fleet());
    empty = chart_new("Forkless progress (no data)");
    chart_add_line(empty, "keys", NULL, NULL, 0);
    emit(&d, "8_empty", empty);
    return d.failed ? 1 : 0;
}
