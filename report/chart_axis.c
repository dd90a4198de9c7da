/* chart_axis.c -- axes: nice, log and percentile ticks, tick labels,
 * data extents, axis ranges and placement, tick label fitting
 * (thinning, rotating, shortening). */
#include "chart_layout_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"


/* ================= ticks ================= */

static double nice_step(double raw)
{
    double p, m;

    if (!(raw > 0) || !isfinite(raw))
        return 1;
    /* The 1-2-5 value nearest raw on a log scale (boundaries at the
     * geometric means sqrt(2), sqrt(10), sqrt(50)). */
    p = pow(10, floor(log10(raw)));
    m = raw / p;
    if (m < 1.4142135623730951)
        return p;
    if (m < 3.1622776601683795)
        return 2 * p;
    if (m < 7.0710678118654755)
        return 5 * p;
    return 10 * p;
}

size_t chart_nice_ticks(double lo, double hi, size_t target, double *out,
                        size_t max, double *step)
{
    double st, a, b;
    size_t n, i;
    int tries;

    /* an infinite or NaN end (a value of 1e308 and its span overflow)
     * has no ticks to search for: the loop below would never end */
    if (!isfinite(lo) || !isfinite(hi) || !isfinite(hi - lo)) {
        if (step)
            *step = NAN;
        return 0;
    }
    if (!(hi > lo))
        hi = lo + 1;
    st = nice_step((hi - lo) / (double)(target ? target : 1));
    for (tries = 0;; tries++) {
        a = floor(lo / st + 1e-9);
        b = ceil(hi / st - 1e-9);
        if (b - a + 1 <= (double)max || max == 0)
            break;
        if (tries == 64 || !isfinite(st * 1.5)) { /* each try grows st 1.5x */
            if (step)
                *step = NAN;
            return 0;
        }
        st = nice_step(st * 1.5);
    }
    n = max == 0 ? 0 : (size_t)(b - a + 1);
    for (i = 0; i < n; i++) {
        out[i] = (a + (double)i) * st;
        if (fabs(out[i]) < st * 1e-9)
            out[i] = 0;  /* no "-0" */
    }
    if (step)
        *step = st;
    return n;
}

static int cmp_dbl(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

size_t chart_log_ticks(double lo, double hi, double *out, bool *major, size_t max)
{
    int k0 = (int)floor(log10(lo) + 1e-9), k1 = (int)floor(log10(hi) + 1e-9), k;
    size_t n = 0, ndec = 0, i;
    static const double mult[2] = {2, 5};

    for (k = k0; k <= k1 && n < max; k++) {
        double v = pow(10, k);
        if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9))
            out[n++] = v, ndec++;
    }
    if (ndec <= 3) {
        for (k = k0; k <= k1; k++)
            for (i = 0; i < 2 && n < max; i++) {
                double v = mult[i] * pow(10, k);
                if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9))
                    out[n++] = v;
            }
        qsort(out, n, sizeof(double), cmp_dbl);
    }
    for (i = 0; i < n; i++) {
        double m = out[i] / pow(10, floor(log10(out[i]) + 1e-9));
        if (major)
            major[i] = fabs(m - 1) < 1e-6 || ndec < 2;
    }
    return n;
}

static double pctl_t(double q)
{
    return -log10(1 - q);
}

size_t chart_pctl_ticks(double qlo, double qhi, double *out, size_t max)
{
    double tl = pctl_t(qlo) - 1e-9, th = pctl_t(qhi) + 1e-9, q;
    size_t n = 0;
    int k;

    if (0 >= qlo - 1e-12 && n < max && 0 <= qhi)
        out[n++] = 0;
    if (pctl_t(0.5) >= tl && pctl_t(0.5) <= th && n < max)
        out[n++] = 0.5;
    for (k = 1; k <= 9 && n < max; k++) {
        q = 1 - pow(10, -k);
        if ((double)k >= tl && (double)k <= th)
            out[n++] = q;
    }
    return n;
}

void chart_format_tick(int kind, double v, double step, double scale_max,
                       char *out, size_t n)
{
    const char *suf = "";
    double div = 1, d;
    int dec;

    switch (kind) {
    case COW_AXIS_CATEGORY:
        chart_set_text(out, n, "");
        return;
    case COW_AXIS_PCTL:
        dec = v <= 0 ? 0 : (int)ceil(pctl_t(v) - 1e-6) - 2;
        snprintf(out, n, "%.*f%%", dec > 0 ? dec : 0, v <= 0 ? 0.0 : 100 * v);
        return;
    case COW_AXIS_LOG10:
        if (v >= 1e6)
            snprintf(out, n, "%gM", v / 1e6);
        else if (v >= 1e4)
            snprintf(out, n, "%gk", v / 1e3);
        else
            snprintf(out, n, "%g", v);
        return;
    case COW_AXIS_LINEAR:
    case COW_AXIS_TIME:
        break;
    }
    if (scale_max >= 1e6)
        div = 1e6, suf = "M";
    else if (scale_max >= 1e4)
        div = 1e3, suf = "k";
    d = step / div;
    dec = d >= 1 || !(d > 0) ? 0 : (int)ceil(-log10(d) - 1e-9);
    if (fabs(v / div) < d * 1e-6)
        snprintf(out, n, "0");
    else
        snprintf(out, n, "%.*f%s", dec, v / div, suf);
}

/* ================= data extents and ranges ================= */

bool lay_series_valid(const cow_series *s)
{
    switch (s->kind) {
    case COW_SERIES_LINE:
    case COW_SERIES_POINTS:
        return s->x && s->y;
    case COW_SERIES_BAND:
        return s->x && s->lo && s->hi;
    case COW_SERIES_BARS:
        return s->y != NULL;
    }
    return false;
}

typedef struct extent {
    double lo, hi;   /* showable data range */
    bool any;        /* some value was showable */
    size_t nclamp;   /* main values that cannot be shown on this axis */
} extent;

static void ext_add(extent *e, int kind, double v, bool main)
{
    if (!isfinite(v))
        return;
    if ((kind == COW_AXIS_LOG10 && v <= 0) ||
        (kind == COW_AXIS_PCTL && (v < 0 || v >= 1))) {
        e->nclamp += main;
        return;
    }
    if (!e->any)
        e->lo = e->hi = v, e->any = true;
    e->lo = fmin(e->lo, v);
    e->hi = fmax(e->hi, v);
}

static void ext_series_y(extent *e, int kind, const cow_series *s, size_t i)
{
    if (s->kind == COW_SERIES_BAND) {
        ext_add(e, kind, s->lo[i], true);
        ext_add(e, kind, s->hi[i], true);
        return;
    }
    ext_add(e, kind, s->y[i], true);
    if (s->lo)
        ext_add(e, kind, s->lo[i], false);
    if (s->hi)
        ext_add(e, kind, s->hi[i], false);
}

static extent data_extent(const cow_chart *c, bool on_x, int kind)
{
    extent e = {0, 0, false, 0};
    size_t i, j;

    for (i = 0; i < c->nseries; i++) {
        const cow_series *s = &c->series[i];
        if (!lay_series_valid(s) || (on_x && s->kind == COW_SERIES_BARS))
            continue;
        for (j = 0; j < s->n; j++) {
            if (!chart_point_ok(s, j))
                continue;
            if (!on_x) {
                ext_series_y(&e, kind, s, j);
                continue;
            }
            ext_add(&e, kind, s->x[j], true);
            if (s->xlo)
                ext_add(&e, kind, s->xlo[j], false);
            if (s->xhi)
                ext_add(&e, kind, s->xhi[j], false);
        }
    }
    for (i = 0; on_x && kind != COW_AXIS_PCTL && i < c->nspans; i++) {
        ext_add(&e, kind, c->spans[i].x0, false);
        ext_add(&e, kind, c->spans[i].x1, false);
    }
    for (i = 0; on_x && kind != COW_AXIS_PCTL && i < c->nmarks; i++)
        ext_add(&e, kind, c->marks[i].x, false);
    for (i = 0; i < c->ncallouts; i++)
        ext_add(&e, kind, on_x ? c->callouts[i].x : c->callouts[i].y, false);
    return e;
}

static bool has_bars(const cow_chart *c)
{
    for (size_t i = 0; i < c->nseries; i++)
        if (c->series[i].kind == COW_SERIES_BARS)
            return true;
    return false;
}

/* Ticks and range of one axis; len_px estimates the axis length, which
 * only sets how many ticks are wanted. *step and *smax feed labels. */
typedef struct tickset {
    double v[COW_MAX_TICKS];    /* values */
    bool major[COW_MAX_TICKS];  /* decade (or grid) ticks */
    size_t n;                   /* count */
    double step, smax;          /* label formatting inputs */
} tickset;

static size_t target_ticks(double len_px, double spacing)
{
    double t = len_px / (spacing > 0 ? spacing : 100);
    return t < 2 ? 2 : t > 12 ? 12 : (size_t)t;
}

/* Keep only ticks within [lo, hi] (with a little slack). */
static void ticks_clip(tickset *t, double lo, double hi)
{
    size_t i, k = 0;
    double eps = (hi - lo) * 1e-9;

    for (i = 0; i < t->n; i++)
        if (t->v[i] >= lo - eps && t->v[i] <= hi + eps)
            t->major[k] = t->major[i], t->v[k++] = t->v[i];
    t->n = k;
}

static void range_linear(const cow_axis *a, extent e, bool zero, size_t target,
                         cow_axis_layout *al, tickset *t)
{
    double lo = e.any ? e.lo : 0, hi = e.any ? e.hi : 1, pad;

    if (zero)
        lo = fmin(lo, 0), hi = fmax(hi, 0);
    if (hi - lo < 1e-12 * fmax(1, fabs(hi)))
        pad = fabs(hi) > 0 ? fabs(hi) * 0.1 : 1, lo -= pad, hi += pad;
    pad = 0.03 * (hi - lo);
    lo = (lo >= 0 && lo - pad < 0) ? 0 : lo - pad;
    hi = (hi <= 0 && hi + pad > 0) ? 0 : hi + pad;
    if (a->has_range)
        lo = a->min, hi = a->max;
    t->n = chart_nice_ticks(lo, hi, target, t->v, COW_MAX_TICKS, &t->step);
    /* Extend to the outer ticks unless that wastes over 10% per side. */
    if (!a->has_range && t->n >= 2) {
        double span = hi - lo;
        if (lo - t->v[0] <= 0.1 * span)
            lo = t->v[0];
        if (t->v[t->n - 1] - hi <= 0.1 * span)
            hi = t->v[t->n - 1];
    }
    al->lo = lo, al->hi = hi;
    al->tlo = lo, al->thi = hi;
}

static void range_time(const cow_axis *a, extent e, size_t target,
                       cow_axis_layout *al, tickset *t)
{
    double lo = e.any ? e.lo : 0, hi = e.any ? e.hi : 1;

    if (a->has_range)
        lo = a->min, hi = a->max;
    if (!(hi > lo))
        lo -= 1, hi += 1;
    t->n = chart_nice_ticks(lo, hi, target, t->v, COW_MAX_TICKS, &t->step);
    /* Snap to an outer tick within 2% of the span: 0.02..59.98 s shows as
     * 0..60 s, but a run is never padded by more than a sliver. */
    if (!a->has_range && t->n >= 2) {
        if (lo - t->v[0] <= 0.02 * (hi - lo))
            lo = t->v[0];
        if (t->v[t->n - 1] - hi <= 0.02 * (hi - lo))
            hi = t->v[t->n - 1];
    }
    al->lo = al->tlo = lo;
    al->hi = al->thi = hi;
}

static void range_log(const cow_axis *a, extent e, cow_axis_layout *al, tickset *t)
{
    double lo = e.any ? e.lo : 1, hi = e.any ? e.hi : 10, tl, th, pad;

    if (a->has_range && a->min > 0 && a->max > a->min)
        lo = a->min, hi = a->max;
    if (!(hi > lo))
        lo /= 3.1622776601683795, hi *= 3.1622776601683795;
    tl = log10(lo), th = log10(hi);
    pad = a->has_range ? 0 : 0.03 * (th - tl);
    tl -= pad, th += pad;
    al->tlo = tl, al->thi = th;
    al->lo = pow(10, tl), al->hi = pow(10, th);
    t->n = chart_log_ticks(al->lo, al->hi, t->v, t->major, COW_MAX_TICKS);
    if (t->n < 2) {
        t->n = chart_nice_ticks(al->lo, al->hi, 4, t->v, COW_MAX_TICKS, &t->step);
        ticks_clip(t, al->lo, al->hi);
        for (size_t i = 0; i < t->n; i++)
            t->major[i] = true;
    }
}

static void range_pctl(const cow_axis *a, extent e, cow_axis_layout *al, tickset *t)
{
    double qlo = e.any ? e.lo : 0, qhi = e.any ? e.hi : 0.99, tl, th;

    if (a->has_range && a->min >= 0 && a->max < 1 && a->max > a->min)
        qlo = a->min, qhi = a->max;
    tl = qlo <= 0.01 ? 0 : pctl_t(qlo);
    th = ceil(pctl_t(qhi) - 1e-6);
    if (th < tl + 1)
        th = tl + 1;
    al->tlo = tl, al->thi = th;
    al->lo = 1 - pow(10, -tl), al->hi = 1 - pow(10, -th);
    t->n = chart_pctl_ticks(al->lo, al->hi, t->v, COW_MAX_TICKS);
}

static void range_category(const cow_chart *c, cow_axis_layout *al, tickset *t)
{
    size_t i;

    al->lo = al->tlo = -0.5;
    al->hi = al->thi = (double)c->ncats - 0.5;
    t->n = c->ncats < COW_MAX_TICKS ? c->ncats : COW_MAX_TICKS;
    for (i = 0; i < t->n; i++)
        t->v[i] = (double)i;
}

void lay_axis_range(const cow_chart *c, bool on_x, double len_px,
                           double spacing, cow_axis_layout *al)
{
    const cow_axis *a = on_x ? &c->x : &c->y;
    extent e = data_extent(c, on_x, a->kind);
    tickset t;
    size_t i, target = target_ticks(len_px, spacing);

    memset(&t, 0, sizeof(t));
    for (i = 0; i < COW_MAX_TICKS; i++)
        t.major[i] = true;
    lay_axis_release(al);
    al->kind = a->kind;
    al->nclamped = e.nclamp;
    switch (a->kind) {
    case COW_AXIS_LINEAR:
        range_linear(a, e, a->include_zero || (!on_x && has_bars(c)), target, al, &t);
        break;
    case COW_AXIS_TIME:
        range_time(a, e, target, al, &t);
        break;
    case COW_AXIS_LOG10:
        range_log(a, e, al, &t);
        break;
    case COW_AXIS_PCTL:
        range_pctl(a, e, al, &t);
        break;
    case COW_AXIS_CATEGORY:
        range_category(c, al, &t);
        break;
    }
    if (a->kind == COW_AXIS_LINEAR || a->kind == COW_AXIS_TIME)
        ticks_clip(&t, al->lo, al->hi);
    t.smax = fmax(fabs(al->lo), fabs(al->hi));
    al->nticks = t.n;
    for (i = 0; i < t.n; i++) {
        cow_tick *k = &al->ticks[i];
        k->v = t.v[i];
        k->major = t.major[i];
        k->shown = true;
        if (a->kind == COW_AXIS_CATEGORY) {
            k->label = chart_text(c->cats[i].label);
        } else {
            char buf[COW_CHART_NAME];   /* a number and its suffix */
            chart_format_tick(a->kind, t.v[i], t.step, t.smax, buf, sizeof(buf));
            k->label = xstrdup(buf);
        }
    }
    al->every = 1;
}

void lay_axis_release(cow_axis_layout *a)
{
    for (size_t i = 0; i < a->nticks; i++) {
        free(a->ticks[i].label);
        a->ticks[i].label = NULL;
    }
    a->nticks = 0;
}

/* Transformed value of v on an axis; unshowable values go to the edge
 * (the footnote counts them). */
static double ax_t(const cow_axis_layout *a, double v)
{
    switch (a->kind) {
    case COW_AXIS_LOG10:
        return v > 0 ? log10(v) : a->tlo;
    case COW_AXIS_PCTL:
        if (v < 0)
            return a->tlo;
        return v >= 1 ? a->thi : fmin(pctl_t(v), a->thi);
    case COW_AXIS_LINEAR:
    case COW_AXIS_TIME:
    case COW_AXIS_CATEGORY:
        break;
    }
    return v;
}

double lay_ax_px(const cow_axis_layout *a, double v)
{
    double span = a->thi - a->tlo;

    return a->p0 + (ax_t(a, v) - a->tlo) / (span != 0 ? span : 1) * (a->p1 - a->p0);
}

void lay_axis_place(cow_axis_layout *a, double p0, double p1)
{
    a->p0 = p0, a->p1 = p1;
    for (size_t i = 0; i < a->nticks; i++)
        a->ticks[i].px = lay_ax_px(a, a->ticks[i].v);
}

/* ================= tick label fitting ================= */

/* Do the shown labels (boxes along the axis, [lo, hi] per tick) keep
 * at least gap apart? */
bool lay_spaced(const cow_axis_layout *a, const double *lo, const double *hi,
                       double gap)
{
    double last = -INFINITY;

    for (size_t i = 0; i < a->nticks; i++) {
        if (!a->ticks[i].shown)
            continue;
        if (lo[i] < last + gap)
            return false;
        last = hi[i];
    }
    return true;
}

/* Show every k-th of the labels still eligible, for the smallest k that
 * keeps them apart. */
void lay_thin_every(cow_axis_layout *a, const double *lo, const double *hi,
                           double gap)
{
    bool elig[COW_MAX_TICKS];
    size_t i, k, j;

    for (i = 0; i < a->nticks; i++)
        elig[i] = a->ticks[i].shown;
    for (k = 1; k <= a->nticks; k++) {
        for (i = 0, j = 0; i < a->nticks; i++)
            a->ticks[i].shown = elig[i] && (j++ % k == 0);
        if (lay_spaced(a, lo, hi, gap))
            break;
    }
    a->every = (int)k;
    if (k > 1)
        a->fit = COW_FIT_THINNED;
}

/* Numeric labels along an axis: drop minor/50% labels first, then thin. */
void lay_fit_numeric(cow_axis_layout *a, const double *lo, const double *hi,
                            double gap)
{
    size_t i;

    a->fit = COW_FIT_ALL;
    if (lay_spaced(a, lo, hi, gap))
        return;
    for (i = 0; i < a->nticks; i++) {
        cow_tick *t = &a->ticks[i];
        if ((a->kind == COW_AXIS_LOG10 && !t->major) ||
            (a->kind == COW_AXIS_PCTL && t->v == 0.5))
            t->shown = false, a->fit = COW_FIT_THINNED;
    }
    if (!lay_spaced(a, lo, hi, gap))
        lay_thin_every(a, lo, hi, gap);
}

/* Category x labels: horizontal if they fit their slots, else rotated 45
 * degrees and shortened (to cat_label_max_px, and so that no label runs
 * past the cell's left edge); thinned only if rotated labels still crowd. */
void lay_fit_x_category(const lctx *x, cow_axis_layout *a, double cell_x)
{
    const cow_style *st = x->st;
    double slot = fabs(a->p1 - a->p0) / (a->thi - a->tlo), lh = lay_line_h(x, st->tick_px);
    bool fits = true;
    size_t i, k;

    for (i = 0; i < a->nticks; i++)
        fits = fits && lay_text_w(x, a->ticks[i].label, st->tick_px, false) <= slot - st->gap_px / 2;
    a->fit = COW_FIT_ALL;
    if (fits)
        return;
    a->rotated = true;
    a->fit = COW_FIT_ROTATED;
    for (i = 0; i < a->nticks; i++) {
        char *buf;
        double room = (a->ticks[i].px - cell_x) / SQRT_HALF - lh;
        if (lay_shorten(x, a->ticks[i].label, st->tick_px, false,
                    fmin(st->cat_label_max_px, room), &buf))
            a->fit = COW_FIT_SHORTENED;
        free(a->ticks[i].label);
        a->ticks[i].label = buf;
    }
    /* Parallel 45-degree lines slot apart are slot*sin(45) apart. */
    for (k = 1; (double)k * slot * SQRT_HALF < lh * 1.15 && k < a->nticks; k++)
        ;
    for (i = 0; i < a->nticks; i++)
        a->ticks[i].shown = i % k == 0;
    a->every = (int)k;
}

