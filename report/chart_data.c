/* chart_data.c -- building cow_chart values, checking they can be drawn,
 * and the per-pixel-column reducer of the latency timeline.
 *
 * Exports the chart_* builders, chart_is_drawable() and
 * chart_reduce_columns()/chart_colred_release() declared in chart_data.h. */
#include "visible.h"
#include "chart_data.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "label.h"
#include "mem.h"

/* ================= building ================= */

char *chart_text(const char *s)
{
    /* labels may hold any bytes: control characters and invalid UTF-8
     * would make cairo fail and chart XML not well-formed */
    return report_visible(s ? s : "", COW_LABEL_XLSX);
}

void chart_text_replace(char **dst, const char *s)
{
    char *t = chart_text(s);

    free(*dst);
    *dst = t;
}

void chart_set_text(char *dst, size_t n, const char *s)
{
    size_t len;
    char *safe;

    if (n == 0)
        return;
    safe = chart_text(s);
    len = strlen(safe);
    if (len >= n) {
        len = n - 1;
        /* Back up over UTF-8 continuation bytes so no character is cut. */
        while (len > 0 && ((unsigned char)safe[len] & 0xC0) == 0x80)
            len--;
    }
    memcpy(dst, safe, len);
    dst[len] = '\0';
    free(safe);
}

cow_chart *chart_new(const char *title)
{
    cow_chart *c = xcalloc(1, sizeof(*c));

    c->title = chart_text(title);
    c->legend = true;
    chart_axis_set(&c->x, COW_AXIS_LINEAR, "", "");
    chart_axis_set(&c->y, COW_AXIS_LINEAR, "", "");
    return c;
}

static void series_release(cow_series *s)
{
    free(s->x);
    free(s->y);
    free(s->lo);
    free(s->hi);
    free(s->xlo);
    free(s->xhi);
    free(s->state);
    free(s->thin);
    free(s->name);
}

void chart_free(cow_chart *c)
{
    size_t i;

    if (c == NULL)
        return;
    for (i = 0; i < c->nseries; i++)
        series_release(&c->series[i]);
    for (i = 0; i < c->npanels; i++)
        chart_free(c->panels[i]);
    for (i = 0; i < c->nspans; i++)
        free(c->spans[i].label);
    for (i = 0; i < c->nmarks; i++)
        free(c->marks[i].label);
    for (i = 0; i < c->ncallouts; i++)
        free(c->callouts[i].label);
    for (i = 0; i < c->ncats; i++)
        free(c->cats[i].label);
    free(c->x.label);
    free(c->y.label);
    free(c->title);
    free(c->series);
    free(c->spans);
    free(c->marks);
    free(c->cats);
    free(c->callouts);
    free(c->panels);
    free(c);
}

void chart_axis_set(cow_axis *a, int kind, const char *label, const char *unit)
{
    char *text = chart_text(label);

    free(a->label);  /* a is zeroed by chart_new, or set before */
    memset(a, 0, sizeof(*a));
    a->kind = kind;
    a->label = text;
    chart_set_text(a->unit, sizeof(a->unit), unit);
}

/* Copy of n doubles, or NULL when src is NULL. */
static double *dup_d(const double *src, size_t n)
{
    double *p;

    if (src == NULL)
        return NULL;
    p = xmalloc((n ? n : 1) * sizeof(double));
    if (n)
        memcpy(p, src, n * sizeof(double));
    return p;
}

static unsigned char *dup_u8(const unsigned char *src, size_t n)
{
    unsigned char *p;

    if (src == NULL)
        return NULL;
    p = xmalloc(n ? n : 1);
    if (n)
        memcpy(p, src, n);
    return p;
}

static cow_series *add_series(cow_chart *c, int kind, const char *name, size_t n)
{
    cow_series *s;

    c->series = xgrow(c->series, sizeof(*c->series), c->nseries + 1,
                      &c->cap_series);
    s = &c->series[c->nseries++];
    memset(s, 0, sizeof(*s));
    s->kind = kind;
    s->color = -1;
    s->n = n;
    s->name = chart_text(name);
    return s;
}

cow_series *chart_add_line(cow_chart *c, const char *name, const double *x,
                           const double *y, size_t n)
{
    cow_series *s = add_series(c, COW_SERIES_LINE, name, n);

    s->x = dup_d(x, n);
    s->y = dup_d(y, n);
    return s;
}

cow_series *chart_add_band(cow_chart *c, const char *name, const double *x,
                           const double *lo, const double *hi, size_t n)
{
    cow_series *s = add_series(c, COW_SERIES_BAND, name, n);

    s->x = dup_d(x, n);
    s->lo = dup_d(lo, n);
    s->hi = dup_d(hi, n);
    return s;
}

cow_series *chart_add_points(cow_chart *c, const char *name, const double *x,
                             const double *y, size_t n)
{
    cow_series *s = add_series(c, COW_SERIES_POINTS, name, n);

    s->x = dup_d(x, n);
    s->y = dup_d(y, n);
    return s;
}

cow_series *chart_add_bars(cow_chart *c, const char *name, const double *y,
                           const double *lo, const double *hi, size_t n)
{
    cow_series *s = add_series(c, COW_SERIES_BARS, name, n);

    s->y = dup_d(y, n);
    s->lo = dup_d(lo, n);
    s->hi = dup_d(hi, n);
    return s;
}

void chart_series_set_yerr(cow_series *s, const double *lo, const double *hi)
{
    free(s->lo);
    free(s->hi);
    s->lo = dup_d(lo, s->n);
    s->hi = dup_d(hi, s->n);
}

void chart_series_set_xerr(cow_series *s, const double *lo, const double *hi)
{
    free(s->xlo);
    free(s->xhi);
    s->xlo = dup_d(lo, s->n);
    s->xhi = dup_d(hi, s->n);
}

void chart_series_set_state(cow_series *s, const unsigned char *state)
{
    free(s->state);
    s->state = dup_u8(state, s->n);
}

void chart_series_set_thin(cow_series *s, const unsigned char *thin)
{
    free(s->thin);
    s->thin = dup_u8(thin, s->n);
}

cow_span *chart_add_span(cow_chart *c, double x0, double x1, const char *label)
{
    cow_span *sp;

    c->spans = xgrow(c->spans, sizeof(*c->spans), c->nspans + 1, &c->cap_spans);
    sp = &c->spans[c->nspans++];
    sp->x0 = x0 < x1 ? x0 : x1;
    sp->x1 = x0 < x1 ? x1 : x0;
    sp->color = -1;
    sp->label = chart_text(label);
    return sp;
}

void chart_add_mark(cow_chart *c, double x, const char *label)
{
    cow_mark *m;

    c->marks = xgrow(c->marks, sizeof(*c->marks), c->nmarks + 1, &c->cap_marks);
    m = &c->marks[c->nmarks++];
    m->x = x;
    m->label = chart_text(label);
}

void chart_add_callout(cow_chart *c, double x, double y, const char *label)
{
    cow_callout *k;

    c->callouts = xgrow(c->callouts, sizeof(*c->callouts), c->ncallouts + 1,
                        &c->cap_callouts);
    k = &c->callouts[c->ncallouts++];
    k->x = x;
    k->y = y;
    k->label = chart_text(label);
}

void chart_add_category(cow_chart *c, const char *label, long n)
{
    cow_category *k;

    c->cats = xgrow(c->cats, sizeof(*c->cats), c->ncats + 1, &c->cap_cats);
    k = &c->cats[c->ncats++];
    k->label = chart_text(label);
    k->n = n;
}

cow_chart *chart_add_panel(cow_chart *c, const char *title)
{
    cow_chart *p = chart_new(title);

    c->panels = xgrow(c->panels, sizeof(*c->panels), c->npanels + 1,
                      &c->cap_panels);
    c->panels[c->npanels++] = p;
    p->legend = false;
    return p;
}

/* ================= checking ================= */

static bool why_set(char *why, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static bool why_set(char *why, size_t n, const char *fmt, ...)
{
    va_list ap;

    if (why != NULL && n > 0) {
        va_start(ap, fmt);
        vsnprintf(why, n, fmt, ap);
        va_end(ap);
    }
    return false;
}

bool chart_point_ok(const cow_series *s, size_t i)
{
    switch (s->kind) {
    case COW_SERIES_BAND:
        return isfinite(s->x[i]) && isfinite(s->lo[i]) && isfinite(s->hi[i]);
    case COW_SERIES_BARS:
        return isfinite(s->y[i]);
    case COW_SERIES_LINE:
    case COW_SERIES_POINTS:
        return isfinite(s->x[i]) && isfinite(s->y[i]);
    }
    return false;
}

static size_t series_count_ok(const cow_series *s)
{
    size_t i, k = 0;

    if ((s->kind == COW_SERIES_BAND && (!s->x || !s->lo || !s->hi)) ||
        (s->kind != COW_SERIES_BAND && !s->y) ||
        (s->kind != COW_SERIES_BARS && s->kind != COW_SERIES_BAND && !s->x))
        return 0;
    for (i = 0; i < s->n; i++)
        k += chart_point_ok(s, i);
    return k;
}

/* Is any x (on_x) or y value showable on a log axis: > 0, or a quantile
 * level in [0, 1) on a percentile x axis? */
static bool any_positive(const cow_chart *c, bool on_x)
{
    size_t i, j;

    for (i = 0; i < c->nseries; i++) {
        const cow_series *s = &c->series[i];
        for (j = 0; j < s->n; j++) {
            double v;
            if (!chart_point_ok(s, j))
                continue;
            if (on_x)
                v = s->kind == COW_SERIES_BARS ? 1.0 : s->x[j];
            else
                v = s->kind == COW_SERIES_BAND ? s->hi[j] : s->y[j];
            if ((c->x.kind == COW_AXIS_PCTL && on_x) ? (v >= 0 && v < 1) : v > 0)
                return true;
        }
    }
    return false;
}

static bool plot_is_drawable(const cow_chart *c, char *why, size_t nwhy)
{
    size_t i, ok = 0;

    if (c->nseries == 0)
        return why_set(why, nwhy, "no series to draw");
    for (i = 0; i < c->nseries; i++) {
        const cow_series *s = &c->series[i];
        if (s->kind == COW_SERIES_BARS && s->n != c->ncats)
            return why_set(why, nwhy, "bars '%s' have %zu values for %zu categories",
                           s->name, s->n, c->ncats);
        ok += series_count_ok(s);
    }
    if (ok == 0)
        return why_set(why, nwhy, "no data points in any series");
    if ((c->x.kind == COW_AXIS_CATEGORY || c->y.kind == COW_AXIS_CATEGORY) &&
        c->ncats == 0)
        return why_set(why, nwhy, "category axis but no categories");
    if (c->y.kind == COW_AXIS_LOG10 && !any_positive(c, false))
        return why_set(why, nwhy, "log y axis but no value above 0");
    if (c->x.kind == COW_AXIS_LOG10 && !any_positive(c, true))
        return why_set(why, nwhy, "log x axis but no value above 0");
    if (c->x.kind == COW_AXIS_PCTL && !any_positive(c, true))
        return why_set(why, nwhy, "percentile axis but no quantile level in [0, 1)");
    return true;
}

bool chart_is_drawable(const cow_chart *c, char *why, size_t nwhy)
{
    size_t i;
    char sub[COW_CHART_TEXT];

    if (c == NULL)
        return why_set(why, nwhy, "no chart");
    if (c->npanels == 0)
        return plot_is_drawable(c, why, nwhy);
    for (i = 0; i < c->npanels; i++)
        if (plot_is_drawable(c->panels[i], sub, sizeof(sub)))
            return true;
    return why_set(why, nwhy, "no panel has data (first: %s: %s)",
                   c->panels[0]->title, sub);
}

/* ================= the column reducer =================
 *
 * A two-level histogram over log buckets counts the samples in the
 * sliding window: adding or removing a sample is O(1) (its bucket and its
 * block of RED_BLOCK buckets), and the nearest-rank quantile walks the
 * blocks, then one block's buckets: O(B / RED_BLOCK + RED_BLOCK) per
 * column. See chart_data.h for the window definition. */

#define RED_RATIO 1.001 /* bucket width: 0.1% */
#define RED_BLOCK 128   /* buckets per block of the second level */
#define RED_NBLOCKS ((COW_RED_BUCKETS + RED_BLOCK - 1) / RED_BLOCK)

static size_t bucket_of(double v)
{
    static double inv_log_ratio; /* 1 / ln(RED_RATIO), computed once */
    double b;

    if (!(v >= 1.0))
        return 0;
    if (inv_log_ratio == 0)
        inv_log_ratio = 1.0 / log(RED_RATIO);
    b = 1.0 + floor(log(v) * inv_log_ratio);
    return b >= COW_RED_BUCKETS - 1 ? COW_RED_BUCKETS - 1 : (size_t)b;
}

/* Geometric centre of a bucket (bucket 0 is [0, 1) us: its middle). */
static double bucket_value(size_t b)
{
    if (b == 0)
        return 0.5;
    return pow(RED_RATIO, (double)b - 0.5);
}

typedef struct red_hist {
    int *count;          /* COW_RED_BUCKETS per-bucket counts */
    int *block;          /* RED_NBLOCKS sums of RED_BLOCK buckets */
} red_hist;

static void hist_add(red_hist *h, size_t b, int d)
{
    h->count[b] += d;
    h->block[b / RED_BLOCK] += d;
}

/* Smallest bucket whose prefix count reaches k (k >= 1). */
static size_t hist_find(const red_hist *h, long k)
{
    size_t blk = 0, b;
    for (; blk < RED_NBLOCKS - 1 && h->block[blk] < k; blk++)
        k -= h->block[blk];
    for (b = blk * RED_BLOCK; b < COW_RED_BUCKETS - 1 && h->count[b] < k; b++)
        k -= h->count[b];
    return b;
}

static int red_check(const int64_t *t_us, const double *lat_us, size_t n,
                     int64_t t0, int64_t t1, size_t ncol, cow_err *e)
{
    size_t i;

    if (ncol == 0)
        return COW_FAIL(e, COW_EUSAGE, "timeline needs at least one column");
    if (t1 <= t0)
        return COW_FAIL(e, COW_EUSAGE, "timeline end %lld is not after start %lld",
                        (long long)t1, (long long)t0);
    for (i = 0; i < n; i++) {
        if (i > 0 && t_us[i] < t_us[i - 1])
            return COW_FAIL(e, COW_EUSAGE,
                            "samples not sorted by time at index %zu", i);
        if (!(lat_us[i] >= 0) || !isfinite(lat_us[i]))
            return COW_FAIL(e, COW_EUSAGE,
                            "latency at index %zu is negative or not a number", i);
    }
    return 0;
}

static void red_alloc(cow_colred *r, size_t ncol)
{
    size_t c;

    r->ncol = ncol;
    r->t_s = xmalloc(ncol * sizeof(double));
    r->min_us = xmalloc(ncol * sizeof(double));
    r->max_us = xmalloc(ncol * sizeof(double));
    r->q_us = xmalloc(ncol * sizeof(double));
    r->count = xcalloc(ncol, sizeof(size_t));
    for (c = 0; c < ncol; c++)
        r->min_us[c] = r->max_us[c] = r->q_us[c] = NAN;
}

/* Per-column min, max and count of samples [i0, i1). */
static void red_minmax(const int64_t *t_us, const double *lat_us, size_t i0,
                       size_t i1, int64_t t0, double span, cow_colred *r)
{
    for (size_t i = i0; i < i1; i++) {
        double f = (double)(t_us[i] - t0) / span * (double)r->ncol;
        size_t c = f >= (double)(r->ncol - 1) ? r->ncol - 1 : (size_t)f;
        double v = lat_us[i];
        if (r->count[c]++ == 0) {
            r->min_us[c] = r->max_us[c] = v;
        } else {
            if (v < r->min_us[c]) r->min_us[c] = v;
            if (v > r->max_us[c]) r->max_us[c] = v;
        }
    }
}

/* First index in [lo, hi) whose time is >= t (times ascending). */
static size_t advance(const int64_t *t_us, size_t i, size_t hi, double t)
{
    while (i < hi && (double)t_us[i] < t)
        i++;
    return i;
}

/* Sliding-window state over sample indices [wl, wh). */
typedef struct red_win {
    size_t lo_t, hi_t, mid; /* time-window edges and centre index */
    size_t wl, wh;          /* samples currently counted */
    red_hist h;             /* counts of the window by bucket */
} red_win;

static void red_quantiles(const int64_t *t_us, const double *lat_us, size_t i0,
                          size_t i1, int64_t t0, double span, cow_colred *r)
{
    red_win w = {i0, i0, i0, i0, i0,
                 {xcalloc(COW_RED_BUCKETS, sizeof(int)), xcalloc(RED_NBLOCKS, sizeof(int))}};
    double dt = span / (double)r->ncol, half = (double)r->win_cols * dt / 2;
    size_t h = r->min_n / 2, c;

    for (c = 0; c < r->ncol; c++) {
        double tc = (double)t0 + ((double)c + 0.5) * dt;
        size_t lo_c, hi_c, lo, hi;
        w.lo_t = advance(t_us, w.lo_t, i1, tc - half);
        w.hi_t = advance(t_us, w.hi_t, i1, tc + half);
        w.mid = advance(t_us, w.mid, i1, tc);
        lo_c = w.mid - i0 > h ? w.mid - h : i0;
        if (i1 - i0 > r->min_n && lo_c > i1 - r->min_n)
            lo_c = i1 - r->min_n;
        hi_c = i1 - lo_c > r->min_n ? lo_c + r->min_n : i1;
        lo = lo_c < w.lo_t ? lo_c : w.lo_t;
        hi = hi_c > w.hi_t ? hi_c : w.hi_t;
        for (; w.wh < hi; w.wh++)   /* add first: [wl, lo) is then all counted */
            hist_add(&w.h, bucket_of(lat_us[w.wh]), 1);
        for (; w.wl < lo; w.wl++)
            hist_add(&w.h, bucket_of(lat_us[w.wl]), -1);
        if (r->count[c] > 0 && w.wh > w.wl) {
            long k = (long)ceil(r->q * (double)(w.wh - w.wl));
            r->q_us[c] = bucket_value(hist_find(&w.h, k < 1 ? 1 : k));
        }
    }
    free(w.h.count);
    free(w.h.block);
}

/* The trailing window: samples in [right edge - trail, right edge). */
static void red_trailing(const int64_t *t_us, const double *lat_us, size_t i0, size_t i1,
                         int64_t t0, double span, cow_colred *r)
{
    red_hist h = {xcalloc(COW_RED_BUCKETS, sizeof(int)), xcalloc(RED_NBLOCKS, sizeof(int))};
    double dt = span / (double)r->ncol;
    size_t wl = i0, wh = i0, c;

    for (c = 0; c < r->ncol; c++) {
        double edge = (double)t0 + ((double)c + 1) * dt;
        size_t hi = advance(t_us, wh, i1, edge);
        size_t lo = advance(t_us, wl, i1, edge - (double)r->trail_us);
        for (; wh < hi; wh++)
            hist_add(&h, bucket_of(lat_us[wh]), 1);
        for (; wl < lo; wl++)
            hist_add(&h, bucket_of(lat_us[wl]), -1);
        if (wh > wl && wh - wl >= r->min_n) {
            long k = (long)ceil(r->q * (double)(wh - wl));
            r->q_us[c] = bucket_value(hist_find(&h, k < 1 ? 1 : k));
        }
    }
    free(h.count);
    free(h.block);
}

int chart_reduce_columns(const int64_t *t_us, const double *lat_us, size_t n,
                         int64_t t0_us, int64_t t1_us, size_t ncol,
                         const cow_reduce_opts *o, cow_colred *out, cow_err *e)
{
    double span = (double)(t1_us - t0_us);
    size_t i0, i1, c;

    memset(out, 0, sizeof(*out));
    if (red_check(t_us, lat_us, n, t0_us, t1_us, ncol, e))
        return e ? e->code : COW_EUSAGE;
    red_alloc(out, ncol);
    out->q = o && o->q > 0 && o->q < 1 ? o->q : 0.99;
    out->win_cols = o && o->win_cols ? o->win_cols : (ncol / 100 ? ncol / 100 : 1);
    out->trail_us = o && o->trail_us > 0 ? o->trail_us : 0;
    out->min_n = o && o->min_n ? o->min_n : out->trail_us ? 1 : 1000;
    for (c = 0; c < ncol; c++)
        out->t_s[c] = ((double)c + 0.5) * span / (double)ncol / 1e6;
    for (i0 = 0; i0 < n && t_us[i0] < t0_us; i0++)
        ;
    for (i1 = i0; i1 < n && t_us[i1] < t1_us; i1++)
        ;
    red_minmax(t_us, lat_us, i0, i1, t0_us, span, out);
    if (out->trail_us)
        red_trailing(t_us, lat_us, i0, i1, t0_us, span, out);
    else
        red_quantiles(t_us, lat_us, i0, i1, t0_us, span, out);
    return 0;
}

void chart_colred_release(cow_colred *r)
{
    if (r == NULL)
        return;
    free(r->t_s);
    free(r->min_us);
    free(r->max_us);
    free(r->q_us);
    free(r->count);
    memset(r, 0, sizeof(*r));
}
