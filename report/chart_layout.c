/* chart_layout.c -- scales, ticks, label fitting, legend placement and the
 * display list of a chart, in plain numbers.
 *
 * Exports chart_style_defaults, chart_measure_fake, chart_layout_build,
 * chart_layout_release, chart_layout_dump, chart_layout_text_overlaps and
 * the tick helpers (chart_layout.h). The rules are listed in the header;
 * this file is in the order a chart is laid out: style, ticks, ranges,
 * label fitting, the label lane, one plot's geometry, its primitives, the
 * legend, the whole chart, the dump. */
#include "chart_layout.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "timeconv.h"

#define PI 3.14159265358979323846
#define SQRT_HALF 0.70710678118654752440
#define ELLIPSIS "\xe2\x80\xa6"

/* ================= style and metrics ================= */

static cow_rgba hex(unsigned v, double a)
{
    cow_rgba c = {(double)((v >> 16) & 255) / 255.0,
                  (double)((v >> 8) & 255) / 255.0, (double)(v & 255) / 255.0, a};
    return c;
}

static void style_colours(cow_style *st)
{
    /* Okabe & Ito (2008), "Color Universal Design": distinguishable with
     * the common colour-vision deficiencies. Yellow is last: it is nearly
     * invisible as a thin line on white. */
    static const unsigned okabe[COW_PALETTE_MAX] = {
        0x0072B2, 0xD55E00, 0x009E73, 0xCC79A7,
        0xE69F00, 0x56B4E9, 0x000000, 0xF0E442};
    static const unsigned spans[COW_SPAN_COLORS] = {0xE69F00, 0x009E73, 0xCC79A7,
                                                    0x7F7F7F, 0xD55E00, 0x0072B2};
    size_t i;

    for (i = 0; i < COW_PALETTE_MAX; i++)
        st->palette[i] = hex(okabe[i], 1.0);
    st->npalette = COW_PALETTE_MAX;
    for (i = 0; i < COW_SPAN_COLORS; i++)
        st->span_palette[i] = hex(spans[i], 1.0);
    st->background = hex(0xFFFFFF, 1.0);
    st->plot_bg = hex(0xFFFFFF, 1.0);
    st->text = hex(0x1A1A1A, 1.0);
    st->muted = hex(0x555555, 1.0);
    st->grid = hex(0xE2E2E2, 1.0);
    st->axis = hex(0x333333, 1.0);
    st->mark = hex(0x333333, 0.8);
    st->legend_bg = hex(0xFFFFFF, 0.92);
    st->pass = hex(0x009E73, 1.0);
    st->fail = hex(0xD55E00, 1.0);
}

void chart_style_defaults(cow_style *st, double scale)
{
    double k = scale > 0 ? scale : 1.0;

    memset(st, 0, sizeof(*st));
    st->scale = k;
    chart_set_text(st->font, sizeof(st->font), "DejaVu Sans");
    st->title_px = 28 * k;
    st->subtitle_px = 17 * k;
    st->panel_title_px = 17 * k;
    st->label_px = 17 * k;
    st->tick_px = 15 * k;
    st->legend_px = 15 * k;
    st->annot_px = 14 * k;
    st->note_px = 14 * k;
    st->margin_px = 28 * k;
    st->gap_px = 12 * k;
    st->tick_len_px = 6 * k;
    st->xtick_spacing_px = 130 * k;
    st->ytick_spacing_px = 70 * k;
    st->line_px = 2.2 * k;
    st->axis_px = 1.2 * k;
    st->grid_px = 1.0 * k;
    st->mark_px = 1.5 * k;
    st->bracket_px = 4 * k;
    st->marker_px = 10 * k;
    st->errbar_px = 1.8 * k;
    st->cap_px = 6 * k;
    st->swatch_px = 28 * k;
    st->legend_pad_px = 10 * k;
    st->cat_label_max_px = 220 * k;
    st->lane_rows = 3;
    st->band_alpha = 0.35;
    st->span_alpha = 0.16;
    st->thin_alpha = 0.35;
    style_colours(st);
}

static size_t utf8_chars(const char *s)
{
    size_t n = 0;

    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

void chart_measure_fake(void *ctx, const char *utf8, double size_px, bool bold,
                        cow_text_ext *out)
{
    (void)ctx;
    out->w = (bold ? 0.65 : 0.6) * size_px * (double)utf8_chars(utf8);
    out->ascent = 0.8 * size_px;
    out->descent = 0.2 * size_px;
}

/* Everything a layout step needs besides the chart. */
typedef struct lctx {
    const cow_style *st;  /* visual choices */
    cow_measure_fn fn;    /* text metrics */
    void *mctx;           /* its context */
    double w, h;          /* canvas */
} lctx;

static cow_text_ext measure(const lctx *x, const char *s, double size, bool bold)
{
    cow_text_ext t = {0, 0, 0};

    x->fn(x->mctx, s, size, bold, &t);
    return t;
}

static double text_w(const lctx *x, const char *s, double size, bool bold)
{
    return measure(x, s, size, bold).w;
}

static double line_h(const lctx *x, double size)
{
    cow_text_ext t = measure(x, "Hg", size, false);
    return t.ascent + t.descent;
}

/* Copy s into out, cut on a code point and ended with an ellipsis so it
 * measures at most maxw. Returns true when it had to cut. */
static bool shorten(const lctx *x, const char *s, double size, bool bold,
                    double maxw, char *out, size_t n)
{
    size_t len;

    chart_set_text(out, n, s);
    if (text_w(x, out, size, bold) <= maxw)
        return false;
    len = strlen(out);
    while (len > 0) {
        do
            len--;
        while (len > 0 && ((unsigned char)out[len] & 0xC0) == 0x80);
        while (len > 0 && out[len - 1] == ' ')
            len--;
        if (len + sizeof(ELLIPSIS) > n)
            continue;
        memcpy(out + len, ELLIPSIS, sizeof(ELLIPSIS));
        if (text_w(x, out, size, bold) <= maxw)
            return true;
    }
    chart_set_text(out, n, ELLIPSIS);
    return true;
}

/* ================= primitives ================= */

typedef struct plist {
    cow_prim *v;        /* prims */
    size_t n, cap;      /* used / allocated */
} plist;

static cow_prim *plist_add(plist *l, const cow_prim *p)
{
    l->v = xgrow(l->v, sizeof(*l->v), l->n + 1, &l->cap);
    l->v[l->n] = *p;
    return &l->v[l->n++];
}

static void prim_release(cow_prim *p)
{
    free(p->pts);
    free(p->text);
    p->pts = NULL;
    p->text = NULL;
}

static void plist_release(plist *l)
{
    for (size_t i = 0; i < l->n; i++)
        prim_release(&l->v[i]);
    free(l->v);
    memset(l, 0, sizeof(*l));
}

static cow_prim prim_new(int kind, int role)
{
    cow_prim p;

    memset(&p, 0, sizeof(p));
    p.kind = kind;
    p.role = role;
    return p;
}

static void add_rect(plist *l, int role, cow_box b, cow_rgba fill, cow_rgba stroke,
                     double lw, int clip)
{
    cow_prim p = prim_new(COW_PRIM_RECT, role);

    p.box = b;
    p.fill = fill;
    p.stroke = stroke;
    p.lw = lw;
    p.clip = clip;
    plist_add(l, &p);
}

/* A path or area over n (x, y) pairs copied from pts. */
static void add_poly(plist *l, int kind, int role, const double *pts, size_t n,
                     cow_rgba col, double lw, int dash, int clip)
{
    cow_prim p = prim_new(kind, role);

    if (n == 0)
        return;
    p.pts = xmalloc(2 * n * sizeof(double));
    memcpy(p.pts, pts, 2 * n * sizeof(double));
    p.npts = n;
    if (kind == COW_PRIM_AREA)
        p.fill = col;
    else
        p.stroke = col;
    p.lw = lw;
    p.dash = dash;
    p.clip = clip;
    plist_add(l, &p);
}

static void add_line(plist *l, int role, double x0, double y0, double x1,
                     double y1, cow_rgba col, double lw, int dash, int clip)
{
    double pts[4] = {x0, y0, x1, y1};

    add_poly(l, COW_PRIM_PATH, role, pts, 2, col, lw, dash, clip);
}

static void add_marker(plist *l, int role, double x, double y, double d,
                       int shape, cow_rgba fill, cow_rgba stroke, int clip)
{
    cow_prim p = prim_new(COW_PRIM_MARKER, role);

    p.x = x;
    p.y = y;
    p.size = d;
    p.shape = shape;
    p.fill = fill;
    p.stroke = stroke;
    p.lw = d / 8;
    p.clip = clip;
    p.box.x = x - d / 2;
    p.box.y = y - d / 2;
    p.box.w = p.box.h = d;
    plist_add(l, &p);
}

enum { HA_LEFT, HA_CENTER, HA_RIGHT };
enum { VA_TOP, VA_MIDDLE, VA_BASELINE, VA_BOTTOM };

/* A text prim whose anchor point (ha, va of the text box, before
 * rotation) lands on (ax, ay). box is the axis-aligned bounding box. */
static cow_prim text_prim(const lctx *x, int role, const char *s, double size,
                          bool bold, cow_rgba col, double ax, double ay, int ha,
                          int va, double angle)
{
    cow_prim p = prim_new(COW_PRIM_TEXT, role);
    double w, as, de, ua, vb, th, c, sn, minx, miny, maxx, maxy;
    double cu[4], cv[4];
    int i;

    p.text = xstrdup(s);
    p.size = size;
    p.bold = bold;
    p.stroke = col;
    p.angle = angle;
    p.ext = measure(x, s, size, bold);
    w = p.ext.w, as = p.ext.ascent, de = p.ext.descent;
    ua = ha == HA_LEFT ? 0 : ha == HA_CENTER ? w / 2 : w;
    vb = va == VA_TOP ? -as : va == VA_MIDDLE ? (de - as) / 2 : va == VA_BASELINE ? 0 : de;
    th = angle * PI / 180.0, c = cos(th), sn = sin(th);
    if (angle == 0)
        c = 1, sn = 0;
    p.x = ax - (ua * c - vb * sn);
    p.y = ay - (ua * sn + vb * c);
    cu[0] = 0, cu[1] = w, cu[2] = 0, cu[3] = w;
    cv[0] = -as, cv[1] = -as, cv[2] = de, cv[3] = de;
    minx = miny = INFINITY, maxx = maxy = -INFINITY;
    for (i = 0; i < 4; i++) {
        double px = p.x + cu[i] * c - cv[i] * sn, py = p.y + cu[i] * sn + cv[i] * c;
        minx = fmin(minx, px), maxx = fmax(maxx, px);
        miny = fmin(miny, py), maxy = fmax(maxy, py);
    }
    p.box.x = minx, p.box.y = miny, p.box.w = maxx - minx, p.box.h = maxy - miny;
    return p;
}

static void prim_shift(cow_prim *p, double dx, double dy)
{
    p->x += dx, p->y += dy, p->box.x += dx, p->box.y += dy;
}

/* Move a text prim horizontally so its box lies within [lo, hi]. */
static void keep_within(cow_prim *p, double lo, double hi)
{
    if (p->box.x + p->box.w > hi)
        prim_shift(p, hi - (p->box.x + p->box.w), 0);
    if (p->box.x < lo)
        prim_shift(p, lo - p->box.x, 0);
}

static void add_text(plist *l, const lctx *x, int role, const char *s, double size,
                     bool bold, cow_rgba col, double ax, double ay, int ha, int va,
                     double angle)
{
    cow_prim p = text_prim(x, role, s, size, bold, col, ax, ay, ha, va, angle);

    plist_add(l, &p);
}

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

    if (!(hi > lo))
        hi = lo + 1;
    st = nice_step((hi - lo) / (double)(target ? target : 1));
    for (;;) {
        a = floor(lo / st + 1e-9);
        b = ceil(hi / st - 1e-9);
        if (b - a + 1 <= (double)max || max == 0)
            break;
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

static bool series_valid(const cow_series *s)
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
        if (!series_valid(s) || (on_x && s->kind == COW_SERIES_BARS))
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

static void axis_range(const cow_chart *c, bool on_x, double len_px,
                       double spacing, cow_axis_layout *al)
{
    const cow_axis *a = on_x ? &c->x : &c->y;
    extent e = data_extent(c, on_x, a->kind);
    tickset t;
    size_t i, target = target_ticks(len_px, spacing);

    memset(&t, 0, sizeof(t));
    for (i = 0; i < COW_MAX_TICKS; i++)
        t.major[i] = true;
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
        if (a->kind == COW_AXIS_CATEGORY)
            chart_set_text(k->label, sizeof(k->label), c->cats[i].label);
        else
            chart_format_tick(a->kind, t.v[i], t.step, t.smax, k->label,
                              sizeof(k->label));
    }
    al->every = 1;
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

static double ax_px(const cow_axis_layout *a, double v)
{
    double span = a->thi - a->tlo;

    return a->p0 + (ax_t(a, v) - a->tlo) / (span != 0 ? span : 1) * (a->p1 - a->p0);
}

static void axis_place(cow_axis_layout *a, double p0, double p1)
{
    a->p0 = p0, a->p1 = p1;
    for (size_t i = 0; i < a->nticks; i++)
        a->ticks[i].px = ax_px(a, a->ticks[i].v);
}

/* ================= tick label fitting ================= */

/* Do the shown labels (boxes along the axis, [lo, hi] per tick) keep
 * at least gap apart? */
static bool spaced(const cow_axis_layout *a, const double *lo, const double *hi,
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
static void thin_every(cow_axis_layout *a, const double *lo, const double *hi,
                       double gap)
{
    bool elig[COW_MAX_TICKS];
    size_t i, k, j;

    for (i = 0; i < a->nticks; i++)
        elig[i] = a->ticks[i].shown;
    for (k = 1; k <= a->nticks; k++) {
        for (i = 0, j = 0; i < a->nticks; i++)
            a->ticks[i].shown = elig[i] && (j++ % k == 0);
        if (spaced(a, lo, hi, gap))
            break;
    }
    a->every = (int)k;
    if (k > 1)
        a->fit = COW_FIT_THINNED;
}

/* Numeric labels along an axis: drop minor/50% labels first, then thin. */
static void fit_numeric(cow_axis_layout *a, const double *lo, const double *hi,
                        double gap)
{
    size_t i;

    a->fit = COW_FIT_ALL;
    if (spaced(a, lo, hi, gap))
        return;
    for (i = 0; i < a->nticks; i++) {
        cow_tick *t = &a->ticks[i];
        if ((a->kind == COW_AXIS_LOG10 && !t->major) ||
            (a->kind == COW_AXIS_PCTL && t->v == 0.5))
            t->shown = false, a->fit = COW_FIT_THINNED;
    }
    if (!spaced(a, lo, hi, gap))
        thin_every(a, lo, hi, gap);
}

/* Category x labels: horizontal if they fit their slots, else rotated 45
 * degrees and shortened (to cat_label_max_px, and so that no label runs
 * past the cell's left edge); thinned only if rotated labels still crowd. */
static void fit_x_category(const lctx *x, cow_axis_layout *a, double cell_x)
{
    const cow_style *st = x->st;
    double slot = fabs(a->p1 - a->p0) / (a->thi - a->tlo), lh = line_h(x, st->tick_px);
    bool fits = true;
    size_t i, k;

    for (i = 0; i < a->nticks; i++)
        fits = fits && text_w(x, a->ticks[i].label, st->tick_px, false) <= slot - st->gap_px / 2;
    a->fit = COW_FIT_ALL;
    if (fits)
        return;
    a->rotated = true;
    a->fit = COW_FIT_ROTATED;
    for (i = 0; i < a->nticks; i++) {
        char buf[COW_CHART_NAME];
        double room = (a->ticks[i].px - cell_x) / SQRT_HALF - lh;
        if (shorten(x, a->ticks[i].label, st->tick_px, false,
                    fmin(st->cat_label_max_px, room), buf, sizeof(buf)))
            a->fit = COW_FIT_SHORTENED;
        memcpy(a->ticks[i].label, buf, sizeof(buf));
    }
    /* Parallel 45-degree lines slot apart are slot*sin(45) apart. */
    for (k = 1; (double)k * slot * SQRT_HALF < lh * 1.15 && k < a->nticks; k++)
        ;
    for (i = 0; i < a->nticks; i++)
        a->ticks[i].shown = i % k == 0;
    a->every = (int)k;
}

/* ================= one plot: geometry ================= */

/* A label in the lane above a plot. A span's item also covers the span's
 * own extent, because its bracket is drawn under its label in the same
 * row; overlapping spans therefore land in different rows. */
typedef struct lane_item {
    double x0, x1;      /* data range it belongs to (x0 == x1 for a mark) */
    double a, b;        /* that range in pixels, clipped to the plot */
    double lx, rx;      /* label box left/right in pixels */
    const char *label;  /* text */
    bool is_span;       /* span (bracket under the label) or mark */
    int color;          /* span colour index */
    int row;            /* 0 = nearest the plot; -1 = dropped */
} lane_item;

typedef struct geo {
    const cow_chart *c;       /* the plot's chart (a panel or the chart) */
    cow_plot_layout P;        /* geometry */
    cow_box cell;             /* where the plot and its labels go */
    lane_item *lane;          /* labels above the plot */
    size_t nlane;             /* entries of lane */
    int lane_rows;            /* rows in use */
    plist texts;              /* text and lane prims, final positions */
} geo;

static void geo_release(geo *g)
{
    free(g->lane);
    plist_release(&g->texts);
    memset(g, 0, sizeof(*g));
}

static double y_label_width(const lctx *x, cow_axis_layout *a)
{
    double w = 0;

    for (size_t i = 0; i < a->nticks; i++) {
        if (a->kind == COW_AXIS_CATEGORY) {
            char buf[COW_CHART_NAME];
            if (shorten(x, a->ticks[i].label, x->st->tick_px, false,
                        x->st->cat_label_max_px, buf, sizeof(buf)))
                a->fit = COW_FIT_SHORTENED;
            memcpy(a->ticks[i].label, buf, sizeof(buf));
        }
        w = fmax(w, text_w(x, a->ticks[i].label, x->st->tick_px, false));
    }
    return w;
}

static void axis_title(const cow_axis *a, char *out, size_t n)
{
    if (a->unit[0] && a->label[0])
        snprintf(out, n, "%s (%s)", a->label, a->unit);
    else
        snprintf(out, n, "%s", a->label[0] ? a->label : a->unit);
}

static bool any_cat_n(const cow_chart *c)
{
    for (size_t i = 0; i < c->ncats; i++)
        if (c->cats[i].n >= 0)
            return true;
    return false;
}

/* Height of the x label block (tick labels, n= line, axis title). */
static double x_block_height(const lctx *x, const geo *g)
{
    const cow_style *st = x->st;
    const cow_axis_layout *a = &g->P.x;
    double h = st->tick_len_px + st->gap_px / 2, rot = 0;
    char title[COW_CHART_TEXT];

    if (a->rotated) {
        for (size_t i = 0; i < a->nticks; i++) {
            cow_text_ext t = measure(x, a->ticks[i].label, st->tick_px, false);
            rot = fmax(rot, (t.w + t.ascent + t.descent) * SQRT_HALF);
        }
        h += rot;
    } else {
        h += line_h(x, st->tick_px);
    }
    if (a->kind == COW_AXIS_CATEGORY && any_cat_n(g->c))
        h += line_h(x, st->annot_px) + st->gap_px / 4;
    axis_title(&g->c->x, title, sizeof(title));
    if (title[0])
        h += st->gap_px / 2 + line_h(x, st->label_px);
    return h;
}

static void fit_x_labels(const lctx *x, geo *g)
{
    cow_axis_layout *a = &g->P.x;
    double lo[COW_MAX_TICKS], hi[COW_MAX_TICKS];

    if (a->kind == COW_AXIS_CATEGORY) {
        fit_x_category(x, a, g->cell.x);
        return;
    }
    for (size_t i = 0; i < a->nticks; i++) {
        double w = text_w(x, a->ticks[i].label, x->st->tick_px, false);
        lo[i] = fmax(a->ticks[i].px - w / 2, g->cell.x);
        hi[i] = lo[i] + w;
        if (hi[i] > g->cell.x + g->cell.w)
            hi[i] = g->cell.x + g->cell.w, lo[i] = hi[i] - w;
    }
    fit_numeric(a, lo, hi, x->st->tick_px / 2);
}

static void fit_y_labels(const lctx *x, geo *g)
{
    cow_axis_layout *a = &g->P.y;
    double lo[COW_MAX_TICKS], hi[COW_MAX_TICKS], lh = line_h(x, x->st->tick_px);

    /* Pixels grow downwards; order boxes by value along the axis. */
    for (size_t i = 0; i < a->nticks; i++) {
        double p = a->p1 < a->p0 ? -a->ticks[i].px : a->ticks[i].px;
        lo[i] = p - lh / 2, hi[i] = p + lh / 2;
    }
    if (a->kind == COW_AXIS_CATEGORY) {
        if (!spaced(a, lo, hi, lh * 0.1))
            thin_every(a, lo, hi, lh * 0.1);
        return;
    }
    fit_numeric(a, lo, hi, lh * 0.2);
}

static int cmp_lane(const void *pa, const void *pb)
{
    const lane_item *a = pa, *b = pb;
    double la = a->is_span ? fmin(a->lx, a->a) : a->lx;
    double lb = b->is_span ? fmin(b->lx, b->a) : b->lx;
    return (la > lb) - (la < lb);
}

static void lane_collect(const lctx *x, geo *g)
{
    const cow_chart *c = g->c;
    const cow_box *r = &g->P.rect;
    size_t i;

    g->lane = xcalloc(c->nspans + c->nmarks + 1, sizeof(*g->lane));
    for (i = 0; i < c->nspans + c->nmarks; i++) {
        lane_item *it = &g->lane[g->nlane];
        bool span = i < c->nspans;
        double w;
        it->is_span = span;
        it->x0 = span ? c->spans[i].x0 : c->marks[i - c->nspans].x;
        it->x1 = span ? c->spans[i].x1 : it->x0;
        it->label = span ? c->spans[i].label : c->marks[i - c->nspans].label;
        it->color = span ? (c->spans[i].color >= 0 ? c->spans[i].color : (int)i) : 0;
        it->a = fmax(ax_px(&g->P.x, it->x0), r->x);
        it->b = fmin(ax_px(&g->P.x, it->x1), r->x + r->w);
        if (it->b < it->a || !it->label[0])
            continue;
        w = text_w(x, it->label, x->st->annot_px, false);
        it->lx = fmin(fmax((it->a + it->b) / 2 - w / 2, r->x), r->x + r->w - w);
        it->rx = it->lx + w;
        g->nlane++;
    }
}

/* Occupied pixel intervals of one lane row. */
typedef struct lane_row {
    double *iv;         /* l0,r0,l1,r1,... */
    size_t n, cap;      /* intervals / doubles allocated */
} lane_row;

static bool row_free(const lane_row *row, double l, double r, double gap)
{
    for (size_t i = 0; i < row->n; i++)
        if (l < row->iv[2 * i + 1] + gap && row->iv[2 * i] < r + gap)
            return false;
    return true;
}

static void row_take(lane_row *row, double l, double r)
{
    row->iv = xgrow(row->iv, sizeof(double), 2 * row->n + 2, &row->cap);
    row->iv[2 * row->n] = l, row->iv[2 * row->n + 1] = r;
    row->n++;
}

/* What a lane row holds: full item extents (labels and span brackets),
 * label text alone, and mark connector lines passing through it. */
typedef struct lane_rowset {
    lane_row occ, txt, pins;  /* the three interval sets */
} lane_rowset;

static double item_l(const lane_item *it)
{
    return it->is_span ? fmin(it->lx, it->a) : it->lx;
}

static double item_r(const lane_item *it)
{
    return it->is_span ? fmax(it->rx, it->b) : it->rx;
}

/* Can it go in row r? Its extent must clear the row's items, its label
 * the connectors crossing the row, and a mark's connector the labels of
 * every row below (brackets may cross a connector; text may not). */
static bool lane_fits(const lane_rowset *rows, int r, const lane_item *it, double gap)
{
    if (!row_free(&rows[r].occ, item_l(it), item_r(it), gap) ||
        !row_free(&rows[r].pins, it->lx, it->rx, gap / 4))
        return false;
    for (int k = 0; !it->is_span && k < r; k++)
        if (!row_free(&rows[k].txt, it->a - 1, it->a + 1, gap / 4))
            return false;
    return true;
}

/* Greedy rows, left to right: each label takes the lowest row where it
 * fits; labels that fit no row are dropped and counted. */
static void lane_place(const lctx *x, geo *g)
{
    lane_rowset rows[8];
    int nrows = x->st->lane_rows > 8 ? 8 : x->st->lane_rows, r;
    double gap = x->st->gap_px;

    memset(rows, 0, sizeof(rows));
    lane_collect(x, g);
    qsort(g->lane, g->nlane, sizeof(*g->lane), cmp_lane);
    g->lane_rows = 0;
    for (size_t i = 0; i < g->nlane; i++) {
        lane_item *it = &g->lane[i];
        for (r = 0; r < nrows && !lane_fits(rows, r, it, gap); r++)
            ;
        it->row = r < nrows ? r : -1;
        if (r == nrows) {
            g->P.ndropped++;
            continue;
        }
        row_take(&rows[r].occ, item_l(it), item_r(it));
        row_take(&rows[r].txt, it->lx, it->rx);
        for (int k = 0; !it->is_span && k < r; k++)
            row_take(&rows[k].pins, it->a - 1, it->a + 1);
        if (r + 1 > g->lane_rows)
            g->lane_rows = r + 1;
    }
    for (r = 0; r < 8; r++) {
        free(rows[r].occ.iv);
        free(rows[r].txt.iv);
        free(rows[r].pins.iv);
    }
}

static double lane_row_h(const lctx *x)
{
    return line_h(x, x->st->annot_px) + x->st->bracket_px + x->st->gap_px / 2;
}

static void plot_texts(const lctx *x, geo *g);

/* Lay out the horizontal extent (y labels, plot x range, x label fit, the
 * lane), then the vertical one. */
static void plot_geom(const lctx *x, const cow_chart *c, cow_box cell, int panel,
                      geo *g)
{
    const cow_style *st = x->st;
    double lh_tick = line_h(x, st->tick_px), ptitle = 0, left, right, top, bottom;
    double lane_h, est_h;
    char title[COW_CHART_TEXT];

    memset(g, 0, sizeof(*g));
    g->c = c, g->cell = cell, g->P.panel = panel;
    if (panel >= 0 && c->title[0])
        ptitle = line_h(x, st->panel_title_px) + st->gap_px / 2;
    est_h = cell.h - ptitle - 3 * lh_tick - 2 * st->gap_px;
    axis_range(c, false, est_h, st->ytick_spacing_px, &g->P.y);
    axis_title(&c->y, title, sizeof(title));
    left = y_label_width(x, &g->P.y) + st->tick_len_px + st->gap_px / 2 +
           (title[0] ? line_h(x, st->label_px) + st->gap_px / 2 : 0);
    axis_range(c, true, cell.w - left, st->xtick_spacing_px, &g->P.x);
    right = st->gap_px;
    if (g->P.x.kind != COW_AXIS_CATEGORY && g->P.x.nticks > 0)
        right = fmax(right, text_w(x, g->P.x.ticks[g->P.x.nticks - 1].label,
                                   st->tick_px, false) / 2);
    g->P.rect.x = cell.x + left;
    g->P.rect.w = cell.w - left - right;
    axis_place(&g->P.x, g->P.rect.x, g->P.rect.x + g->P.rect.w);
    fit_x_labels(x, g);
    lane_place(x, g);
    lane_h = g->lane_rows * lane_row_h(x);
    top = cell.y + ptitle + lane_h + fmax(st->gap_px / 2, lh_tick * 0.6);
    bottom = cell.y + cell.h - x_block_height(x, g);
    g->P.rect.y = top;
    g->P.rect.h = fmax(bottom - top, 10 * st->scale);
    if (g->P.y.kind == COW_AXIS_CATEGORY)
        axis_place(&g->P.y, top, top + g->P.rect.h);
    else
        axis_place(&g->P.y, top + g->P.rect.h, top);
    fit_y_labels(x, g);
    plot_texts(x, g);
}

/* ================= one plot: text ================= */

static void emit_x_labels(const lctx *x, geo *g)
{
    const cow_style *st = x->st;
    const cow_axis_layout *a = &g->P.x;
    const cow_box *r = &g->P.rect;
    double y = r->y + r->h + st->tick_len_px + st->gap_px / 2, ymax = y;
    double nh = (a->kind == COW_AXIS_CATEGORY && any_cat_n(g->c))
                    ? line_h(x, st->annot_px) + st->gap_px / 4 : 0;
    double ylab = a->rotated ? y + nh : y, yn = a->rotated ? y : y + line_h(x, st->tick_px);
    char title[COW_CHART_TEXT];

    for (size_t i = 0; i < a->nticks; i++) {
        const cow_tick *t = &a->ticks[i];
        cow_prim p;
        if (!t->shown)
            continue;
        if (a->rotated) {
            p = text_prim(x, COW_ROLE_TICK_LABEL, t->label, st->tick_px, false,
                          st->text, t->px + 2 * st->scale, ylab, HA_RIGHT, VA_MIDDLE, -45);
            prim_shift(&p, 0, ylab - p.box.y);
        } else {
            p = text_prim(x, COW_ROLE_TICK_LABEL, t->label, st->tick_px, false,
                          st->text, t->px, ylab, HA_CENTER, VA_TOP, 0);
            keep_within(&p, g->cell.x, g->cell.x + g->cell.w);
        }
        ymax = fmax(ymax, p.box.y + p.box.h);
        plist_add(&g->texts, &p);
        if (nh > 0 && g->c->cats[i].n >= 0) {
            char buf[32];
            snprintf(buf, sizeof(buf), "n=%ld", g->c->cats[i].n);
            add_text(&g->texts, x, COW_ROLE_CAT_N, buf, st->annot_px, false, st->muted,
                     t->px, yn, HA_CENTER, VA_TOP, 0);
            ymax = fmax(ymax, yn + line_h(x, st->annot_px));
        }
    }
    axis_title(&g->c->x, title, sizeof(title));
    if (title[0])
        add_text(&g->texts, x, COW_ROLE_AXIS_TITLE, title, st->label_px, false,
                 st->text, r->x + r->w / 2, ymax + st->gap_px / 2, HA_CENTER, VA_TOP, 0);
}

static void emit_y_labels(const lctx *x, geo *g)
{
    const cow_style *st = x->st;
    const cow_axis_layout *a = &g->P.y;
    const cow_box *r = &g->P.rect;
    char title[COW_CHART_TEXT], buf[COW_CHART_TEXT];

    for (size_t i = 0; i < a->nticks; i++)
        if (a->ticks[i].shown)
            add_text(&g->texts, x, COW_ROLE_TICK_LABEL, a->ticks[i].label,
                     st->tick_px, false, st->text,
                     r->x - st->tick_len_px - st->gap_px / 2, a->ticks[i].px,
                     HA_RIGHT, VA_MIDDLE, 0);
    axis_title(&g->c->y, title, sizeof(title));
    if (!title[0])
        return;
    shorten(x, title, st->label_px, false, r->h, buf, sizeof(buf));
    add_text(&g->texts, x, COW_ROLE_AXIS_TITLE, buf, st->label_px, false, st->text,
             g->cell.x + line_h(x, st->label_px) / 2, r->y + r->h / 2, HA_CENTER,
             VA_MIDDLE, -90);
}

static cow_rgba span_colour(const cow_style *st, int i)
{
    return st->span_palette[(size_t)(i < 0 ? 0 : i) % COW_SPAN_COLORS];
}

/* Row r of the lane: bracket along its bottom, label text above it. */
static void emit_lane(const lctx *x, geo *g)
{
    const cow_style *st = x->st;
    const cow_box *r = &g->P.rect;
    double rh = lane_row_h(x), lh = line_h(x, st->annot_px);

    for (size_t i = 0; i < g->nlane; i++) {
        const lane_item *it = &g->lane[i];
        double bot = r->y - st->gap_px / 4 - (double)it->row * rh;
        double ty = bot - st->bracket_px - st->gap_px / 6 - lh / 2;
        if (it->row < 0)
            continue;
        if (it->is_span) {
            add_line(&g->texts, COW_ROLE_BRACKET, it->a, bot - st->bracket_px / 2,
                     fmax(it->b, it->a + 1), bot - st->bracket_px / 2,
                     span_colour(st, it->color), st->bracket_px, 0, 0);
            add_text(&g->texts, x, COW_ROLE_SPAN_LABEL, it->label, st->annot_px, false,
                     st->text, (it->lx + it->rx) / 2, ty, HA_CENTER, VA_MIDDLE, 0);
        } else {
            add_line(&g->texts, COW_ROLE_MARK, it->a, r->y, it->a, ty + lh / 2,
                     st->mark, st->mark_px * 0.7, 1, 0);
            add_text(&g->texts, x, COW_ROLE_MARK_LABEL, it->label, st->annot_px, false,
                     st->text, (it->lx + it->rx) / 2, ty, HA_CENTER, VA_MIDDLE, 0);
        }
    }
}

static void plot_texts(const lctx *x, geo *g)
{
    if (g->P.panel >= 0 && g->c->title[0]) {
        char buf[COW_CHART_TEXT];
        shorten(x, g->c->title, x->st->panel_title_px, true, g->cell.w, buf, sizeof(buf));
        add_text(&g->texts, x, COW_ROLE_PANEL_TITLE, buf, x->st->panel_title_px, true,
                 x->st->text, g->cell.x, g->cell.y, HA_LEFT, VA_TOP, 0);
    }
    emit_x_labels(x, g);
    emit_y_labels(x, g);
    emit_lane(x, g);
}

/* ================= one plot: shapes ================= */

static cow_rgba series_colour(const cow_style *st, const cow_chart *c, size_t si)
{
    size_t auto_i = 0;

    if (c->series[si].color >= 0)
        return st->palette[(size_t)c->series[si].color % st->npalette];
    for (size_t i = 0; i < si; i++)
        auto_i += c->series[i].color < 0;
    return st->palette[auto_i % st->npalette];
}

static int series_marker(const cow_chart *c, size_t si)
{
    if (c->series[si].marker != COW_MARKER_AUTO)
        return c->series[si].marker;
    return COW_MARKER_CIRCLE + (int)(si % 5);
}

static cow_rgba with_alpha(cow_rgba c, double a)
{
    c.a = a;
    return c;
}

/* Pixel pairs buffer with NaN breaks. */
typedef struct pbuf {
    double *v;       /* x,y pairs */
    size_t n, cap;   /* pairs used / doubles allocated */
} pbuf;

static void pb_add(pbuf *b, double x, double y)
{
    b->v = xgrow(b->v, sizeof(double), 2 * b->n + 2, &b->cap);
    b->v[2 * b->n] = x, b->v[2 * b->n + 1] = y;
    b->n++;
}

static void pb_break(pbuf *b)
{
    if (b->n > 0 && !isnan(b->v[2 * b->n - 1]))
        pb_add(b, NAN, NAN);
}

static void emit_line(plist *l, const geo *g, const cow_series *s, cow_rgba col,
                      double lw, int clip)
{
    pbuf b = {NULL, 0, 0};

    for (size_t i = 0; i < s->n; i++) {
        if (!chart_point_ok(s, i)) {
            pb_break(&b);
            continue;
        }
        pb_add(&b, ax_px(&g->P.x, s->x[i]), ax_px(&g->P.y, s->y[i]));
    }
    add_poly(l, COW_PRIM_PATH, COW_ROLE_SERIES, b.v, b.n, col, lw, s->dashed, clip);
    free(b.v);
}

/* One AREA per run of finite columns: lo forwards, hi backwards. */
static void emit_band(plist *l, const geo *g, const cow_series *s, cow_rgba col,
                      int clip)
{
    pbuf b = {NULL, 0, 0};
    size_t i = 0, j, k;

    while (i < s->n) {
        for (; i < s->n && !chart_point_ok(s, i); i++)
            ;
        for (j = i; j < s->n && chart_point_ok(s, j); j++)
            ;
        b.n = 0;
        for (k = i; k < j; k++)
            pb_add(&b, ax_px(&g->P.x, s->x[k]), ax_px(&g->P.y, s->lo[k]));
        for (k = j; k > i; k--)
            pb_add(&b, ax_px(&g->P.x, s->x[k - 1]), ax_px(&g->P.y, s->hi[k - 1]));
        if (j - i == 1) {      /* a lone column: give it a pixel of width */
            b.v[0] -= 0.5, b.v[2] += 0.5;
        }
        if (b.n >= 2)
            add_poly(l, COW_PRIM_AREA, COW_ROLE_SERIES, b.v, b.n, col, 0, 0, clip);
        i = j;
    }
    free(b.v);
}

/* Error bar from (x0,y0) to (x1,y1) with caps across it. */
static void errbar(pbuf *b, double x0, double y0, double x1, double y1, double cap)
{
    bool vert = x0 == x1;

    pb_add(b, x0, y0), pb_add(b, x1, y1), pb_break(b);
    if (vert) {
        pb_add(b, x0 - cap, y0), pb_add(b, x0 + cap, y0), pb_break(b);
        pb_add(b, x1 - cap, y1), pb_add(b, x1 + cap, y1), pb_break(b);
    } else {
        pb_add(b, x0, y0 - cap), pb_add(b, x0, y0 + cap), pb_break(b);
        pb_add(b, x1, y1 - cap), pb_add(b, x1, y1 + cap), pb_break(b);
    }
}

/* Colour and shape of point i of series si (states override both). */
static cow_rgba point_style(const cow_style *st, const cow_chart *c, size_t si,
                            size_t i, int *shape, int *slot)
{
    const cow_series *s = &c->series[si];
    int state = s->state ? s->state[i] : COW_STATE_NONE;

    *slot = state == COW_STATE_PASS ? 1 : state == COW_STATE_FAIL ? 2 : 0;
    *shape = *slot == 1 ? COW_MARKER_CIRCLE : *slot == 2 ? COW_MARKER_TRIANGLE
                                                          : series_marker(c, si);
    return *slot == 1 ? st->pass : *slot == 2 ? st->fail : series_colour(st, c, si);
}

static bool inside(const cow_box *r, double x, double y)
{
    return x >= r->x - 0.5 && x <= r->x + r->w + 0.5 && y >= r->y - 0.5 &&
           y <= r->y + r->h + 0.5;
}

/* Error bars (clipped, one path per colour), then markers: not clipped,
 * so a point on the frame shows whole, but left out when its centre is
 * outside the plot. */
static void emit_points(plist *l, const lctx *x, const geo *g, size_t si, int clip)
{
    const cow_style *st = x->st;
    const cow_series *s = &g->c->series[si];
    pbuf b[3] = {{NULL, 0, 0}, {NULL, 0, 0}, {NULL, 0, 0}};
    cow_rgba cols[3];
    int shape, k;
    size_t i;

    for (i = 0; i < s->n; i++) {
        double px, py;
        cow_rgba col = point_style(st, g->c, si, i, &shape, &k);
        if (!chart_point_ok(s, i))
            continue;
        cols[k] = col;
        px = ax_px(&g->P.x, s->x[i]), py = ax_px(&g->P.y, s->y[i]);
        if (s->lo && s->hi && isfinite(s->lo[i]) && isfinite(s->hi[i]))
            errbar(&b[k], px, ax_px(&g->P.y, s->lo[i]), px, ax_px(&g->P.y, s->hi[i]),
                   st->cap_px);
        if (s->xlo && s->xhi && isfinite(s->xlo[i]) && isfinite(s->xhi[i]))
            errbar(&b[k], ax_px(&g->P.x, s->xlo[i]), py, ax_px(&g->P.x, s->xhi[i]), py,
                   st->cap_px);
    }
    for (k = 0; k < 3; k++) {
        if (b[k].n)
            add_poly(l, COW_PRIM_PATH, COW_ROLE_ERRBAR, b[k].v, b[k].n,
                     with_alpha(cols[k], 0.85), st->errbar_px, 0, clip);
        free(b[k].v);
    }
    for (i = 0; i < s->n; i++) {
        double px, py;
        cow_rgba col = point_style(st, g->c, si, i, &shape, &k);
        if (!chart_point_ok(s, i))
            continue;
        px = ax_px(&g->P.x, s->x[i]), py = ax_px(&g->P.y, s->y[i]);
        if (inside(&g->P.rect, px, py))
            add_marker(l, COW_ROLE_SERIES, px, py, st->marker_px, shape, col,
                       st->background, 0);
    }
}

static size_t bar_group(const cow_chart *c, size_t si, size_t *ngroups)
{
    size_t g = 0, n = 0;

    for (size_t i = 0; i < c->nseries; i++) {
        if (c->series[i].kind != COW_SERIES_BARS)
            continue;
        if (i < si)
            g++;
        n++;
    }
    *ngroups = n;
    return g;
}

/* Bar rectangle of series si at category k, in data units of x. */
static void bar_span(const cow_chart *c, size_t si, size_t k, double *x0, double *x1)
{
    size_t ng, gi = bar_group(c, si, &ng);
    double slot = 0.8 / (double)(ng ? ng : 1);

    *x0 = (double)k - 0.4 + slot * ((double)gi + 0.06);
    *x1 = *x0 + slot * 0.88;
}

static double bar_base(const geo *g)
{
    const cow_axis_layout *a = &g->P.y;

    if (a->kind == COW_AXIS_LOG10)
        return a->p0;
    return ax_px(a, a->lo > 0 ? a->lo : a->hi < 0 ? a->hi : 0);
}

static void emit_bars(plist *l, const lctx *x, const geo *g, size_t si, int clip)
{
    const cow_style *st = x->st;
    const cow_series *s = &g->c->series[si];
    cow_rgba col = series_colour(st, g->c, si);
    pbuf b = {NULL, 0, 0};

    for (size_t k = 0; k < s->n && k < g->c->ncats; k++) {
        double x0, x1, py, base = bar_base(g), cx;
        bool thin = s->thin && s->thin[k];
        cow_box r;
        if (!chart_point_ok(s, k))
            continue;
        bar_span(g->c, si, k, &x0, &x1);
        x0 = ax_px(&g->P.x, x0), x1 = ax_px(&g->P.x, x1), cx = (x0 + x1) / 2;
        py = ax_px(&g->P.y, s->y[k]);
        r.x = x0, r.w = x1 - x0, r.y = fmin(py, base), r.h = fabs(base - py);
        add_rect(l, COW_ROLE_SERIES, r, thin ? with_alpha(col, st->thin_alpha) : col,
                 thin ? col : with_alpha(col, 0), thin ? st->errbar_px / 2 : 0, clip);
        if (s->lo && s->hi && isfinite(s->lo[k]) && isfinite(s->hi[k]))
            errbar(&b, cx, ax_px(&g->P.y, s->lo[k]), cx, ax_px(&g->P.y, s->hi[k]),
                   fmin(st->cap_px, r.w * 0.3));
    }
    add_poly(l, COW_PRIM_PATH, COW_ROLE_ERRBAR, b.v, b.n, st->axis, st->errbar_px, 0, clip);
    free(b.v);
}

static void emit_grid(plist *l, const lctx *x, const geo *g)
{
    const cow_style *st = x->st;
    const cow_box *r = &g->P.rect;
    size_t i;

    for (i = 0; g->P.x.kind != COW_AXIS_CATEGORY && i < g->P.x.nticks; i++)
        if (g->P.x.ticks[i].major)
            add_line(l, COW_ROLE_GRID, g->P.x.ticks[i].px, r->y, g->P.x.ticks[i].px,
                     r->y + r->h, st->grid, st->grid_px, 0, 0);
    for (i = 0; i < g->P.y.nticks; i++)
        if (g->P.y.ticks[i].major)
            add_line(l, COW_ROLE_GRID, r->x, g->P.y.ticks[i].px, r->x + r->w,
                     g->P.y.ticks[i].px, st->grid, st->grid_px, 0, 0);
}

static void emit_axes(plist *l, const lctx *x, const geo *g)
{
    const cow_style *st = x->st;
    const cow_box *r = &g->P.rect;
    double yb = r->y + r->h, tl = st->tick_len_px;
    size_t i;

    add_line(l, COW_ROLE_AXIS, r->x, r->y, r->x, yb, st->axis, st->axis_px, 0, 0);
    add_line(l, COW_ROLE_AXIS, r->x, yb, r->x + r->w, yb, st->axis, st->axis_px, 0, 0);
    for (i = 0; i < g->P.x.nticks; i++)
        add_line(l, COW_ROLE_TICK, g->P.x.ticks[i].px, yb, g->P.x.ticks[i].px,
                 yb + (g->P.x.ticks[i].major ? tl : tl / 2), st->axis, st->axis_px, 0, 0);
    for (i = 0; i < g->P.y.nticks; i++)
        add_line(l, COW_ROLE_TICK, r->x - (g->P.y.ticks[i].major ? tl : tl / 2),
                 g->P.y.ticks[i].px, r->x, g->P.y.ticks[i].px, st->axis, st->axis_px, 0, 0);
}

static void emit_spans_marks(plist *l, const lctx *x, const geo *g, int clip, bool marks)
{
    const cow_style *st = x->st;
    const cow_box *r = &g->P.rect;
    size_t i;

    for (i = 0; !marks && i < g->c->nspans; i++) {
        const cow_span *sp = &g->c->spans[i];
        double a = ax_px(&g->P.x, sp->x0), b = ax_px(&g->P.x, sp->x1);
        cow_box bx = {a, r->y, fmax(b - a, 1), r->h};
        add_rect(l, COW_ROLE_SPAN, bx,
                 with_alpha(span_colour(st, sp->color >= 0 ? sp->color : (int)i),
                            st->span_alpha),
                 with_alpha(st->text, 0), 0, clip);
    }
    for (i = 0; marks && i < g->c->nmarks; i++) {
        double px = ax_px(&g->P.x, g->c->marks[i].x);
        add_line(l, COW_ROLE_MARK, px, r->y, px, r->y + r->h, st->mark, st->mark_px, 1, clip);
    }
}

/* Shapes of plot pi into l: background, spans, grid, series, marks, axes. */
static void plot_shapes(plist *l, const lctx *x, const geo *g, int pi)
{
    const cow_style *st = x->st;
    int clip = pi + 1;

    add_rect(l, COW_ROLE_PLOT_BG, g->P.rect, st->plot_bg, with_alpha(st->axis, 0), 0, 0);
    emit_spans_marks(l, x, g, clip, false);
    emit_grid(l, x, g);
    for (size_t i = 0; i < g->c->nseries; i++) {
        const cow_series *s = &g->c->series[i];
        cow_rgba col = series_colour(st, g->c, i);
        if (!series_valid(s))
            continue;
        switch (s->kind) {
        case COW_SERIES_LINE:
            emit_line(l, g, s, col, st->line_px, clip);
            break;
        case COW_SERIES_BAND:
            emit_band(l, g, s, with_alpha(col, st->band_alpha), clip);
            break;
        case COW_SERIES_POINTS:
            emit_points(l, x, g, i, clip);
            break;
        case COW_SERIES_BARS:
            emit_bars(l, x, g, i, clip);
            break;
        }
    }
    emit_spans_marks(l, x, g, clip, true);
    emit_axes(l, x, g);
}

/* ================= legend ================= */

enum { LE_LINE, LE_DASH, LE_BAND, LE_MARKER, LE_BAR };

typedef struct legend_entry {
    char text[COW_CHART_NAME];  /* label */
    int kind;                   /* LE_* swatch */
    cow_rgba color;             /* swatch colour */
    int shape;                  /* LE_MARKER shape */
} legend_entry;

#define LEGEND_MAX 24

static void le_add(legend_entry *v, size_t *n, const char *text, int kind,
                   cow_rgba col, int shape)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp(v[i].text, text) == 0)
            return;
    if (*n == LEGEND_MAX)
        return;
    chart_set_text(v[*n].text, sizeof(v[*n].text), text);
    v[*n].kind = kind, v[*n].color = col, v[*n].shape = shape;
    (*n)++;
}

static void legend_of(const cow_style *st, const cow_chart *c, legend_entry *v, size_t *n)
{
    static const int kinds[] = {[COW_SERIES_LINE] = LE_LINE, [COW_SERIES_BAND] = LE_BAND,
                                [COW_SERIES_POINTS] = LE_MARKER, [COW_SERIES_BARS] = LE_BAR};

    for (size_t i = 0; i < c->nseries; i++) {
        const cow_series *s = &c->series[i];
        bool pass = false, fail = false;
        cow_rgba col = series_colour(st, c, i);
        for (size_t j = 0; s->state && j < s->n; j++)
            pass |= s->state[j] == COW_STATE_PASS, fail |= s->state[j] == COW_STATE_FAIL;
        if (pass)
            le_add(v, n, "pass", LE_MARKER, st->pass, COW_MARKER_CIRCLE);
        if (fail)
            le_add(v, n, "fail", LE_MARKER, st->fail, COW_MARKER_TRIANGLE);
        if (!s->name[0] || pass || fail || !series_valid(s))
            continue;
        if (s->kind == COW_SERIES_BAND)
            col = with_alpha(col, st->band_alpha);
        le_add(v, n, s->name, s->kind == COW_SERIES_LINE && s->dashed ? LE_DASH
                              : kinds[s->kind], col, series_marker(c, i));
    }
}

typedef struct legend {
    legend_entry e[LEGEND_MAX];  /* entries */
    size_t n;                    /* count */
    double row_h, item_w[LEGEND_MAX]; /* row height, width of each item */
} legend;

static void legend_measure(const lctx *x, legend *lg)
{
    const cow_style *st = x->st;

    lg->row_h = fmax(line_h(x, st->legend_px), st->marker_px) + st->gap_px / 3;
    for (size_t i = 0; i < lg->n; i++)
        lg->item_w[i] = st->swatch_px + st->gap_px / 2 +
                        text_w(x, lg->e[i].text, st->legend_px, false);
}

static cow_box legend_box_inside(const lctx *x, const legend *lg)
{
    cow_box b = {0, 0, 0, 0};

    for (size_t i = 0; i < lg->n; i++)
        b.w = fmax(b.w, lg->item_w[i]);
    b.w += 2 * x->st->legend_pad_px;
    b.h = (double)lg->n * lg->row_h + 2 * x->st->legend_pad_px - x->st->gap_px / 3;
    return b;
}

/* Rows needed to flow the legend across width w. */
static int legend_strip_rows(const lctx *x, const legend *lg, double w)
{
    double cur = 0, sep = x->st->gap_px * 2;
    int rows = lg->n ? 1 : 0;

    for (size_t i = 0; i < lg->n; i++) {
        if (cur > 0 && cur + lg->item_w[i] > w)
            rows++, cur = 0;
        cur += lg->item_w[i] + sep;
    }
    return rows;
}

static bool boxes_meet(cow_box a, cow_box b)
{
    return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

static cow_box box_of(double x0, double y0, double x1, double y1)
{
    cow_box b = {fmin(x0, x1), fmin(y0, y1), fabs(x1 - x0), fabs(y1 - y0)};
    return b;
}

/* Data y extent of point i of s (pixels), for legend collisions. */
static void point_yrange(const geo *g, const cow_series *s, size_t i, double *a, double *b)
{
    const cow_axis_layout *Y = &g->P.y;

    if (s->kind == COW_SERIES_BAND) {
        *a = ax_px(Y, s->lo[i]), *b = ax_px(Y, s->hi[i]);
        return;
    }
    *a = *b = ax_px(Y, s->y[i]);
    if (s->lo && isfinite(s->lo[i]))
        *a = ax_px(Y, s->lo[i]);
    if (s->hi && isfinite(s->hi[i]))
        *b = ax_px(Y, s->hi[i]);
    if (s->kind == COW_SERIES_BARS)
        *a = fmax(fmax(*a, *b), bar_base(g));
}

/* How many data elements of the plot would the box cover? */
static size_t legend_cost(const lctx *x, const geo *g, cow_box box)
{
    size_t cost = 0, i, j;
    double m = x->st->marker_px / 2;

    for (i = 0; i < g->c->nseries; i++) {
        const cow_series *s = &g->c->series[i];
        double pa = NAN, pb = NAN, px_prev = NAN;
        for (j = 0; series_valid(s) && j < s->n; j++) {
            double a, b, px, x0, x1;
            if (!chart_point_ok(s, j)) {
                px_prev = NAN;
                continue;
            }
            point_yrange(g, s, j, &a, &b);
            if (s->kind == COW_SERIES_BARS) {
                bar_span(g->c, i, j, &x0, &x1);
                x0 = ax_px(&g->P.x, x0), x1 = ax_px(&g->P.x, x1);
            } else {
                px = ax_px(&g->P.x, s->x[j]);
                x0 = x1 = px;
                if (s->kind != COW_SERIES_POINTS && isfinite(px_prev))
                    x0 = px_prev, a = fmin(a, pa), b = fmax(b, pb);
                if (s->xlo && s->xhi && isfinite(s->xlo[j]) && isfinite(s->xhi[j]))
                    x0 = ax_px(&g->P.x, s->xlo[j]), x1 = ax_px(&g->P.x, s->xhi[j]);
                px_prev = px, pa = fmin(a, b), pb = fmax(a, b);
            }
            cost += boxes_meet(box, box_of(x0 - m, fmin(a, b) - m, x1 + m, fmax(a, b) + m));
        }
    }
    for (i = 0; i < g->c->nmarks; i++) {
        double px = ax_px(&g->P.x, g->c->marks[i].x);
        cost += px >= box.x && px <= box.x + box.w;
    }
    return cost;
}

/* Try the four inside corners; true and *out when one covers nothing. */
static bool legend_inside(const lctx *x, const geo *g, const legend *lg, cow_box *out)
{
    cow_box b = legend_box_inside(x, lg);
    const cow_box *r = &g->P.rect;
    double in = x->st->gap_px;
    int k;

    if (b.w > r->w * 0.45 || b.h > r->h * 0.6)
        return false;
    for (k = 0; k < 4; k++) {
        b.x = (k % 2 == 0) ? r->x + r->w - in - b.w : r->x + in;
        b.y = (k < 2) ? r->y + in : r->y + r->h - in - b.h;
        if (legend_cost(x, g, b) == 0) {
            *out = b;
            return true;
        }
    }
    return false;
}

static void legend_swatch(plist *l, const lctx *x, const legend_entry *e, double sx,
                          double cy)
{
    const cow_style *st = x->st;
    double sw = st->swatch_px, bh = line_h(x, st->legend_px) * 0.7;
    cow_box b = {sx, cy - bh / 2, sw, bh};

    switch (e->kind) {
    case LE_LINE:
    case LE_DASH:
        add_line(l, COW_ROLE_LEGEND, sx, cy, sx + sw, cy, e->color, st->line_px,
                 e->kind == LE_DASH, 0);
        break;
    case LE_BAND:
    case LE_BAR:
        add_rect(l, COW_ROLE_LEGEND, b, e->color, with_alpha(e->color, 0), 0, 0);
        break;
    case LE_MARKER:
        add_marker(l, COW_ROLE_LEGEND, sx + sw / 2, cy, st->marker_px, e->shape,
                   e->color, st->background, 0);
        break;
    }
}

static void legend_item(plist *l, const lctx *x, const legend_entry *e, double lx,
                        double cy)
{
    legend_swatch(l, x, e, lx, cy);
    add_text(l, x, COW_ROLE_LEGEND_TEXT, e->text, x->st->legend_px, false, x->st->text,
             lx + x->st->swatch_px + x->st->gap_px / 2, cy, HA_LEFT, VA_MIDDLE, 0);
}

static void legend_emit_inside(plist *l, const lctx *x, const legend *lg, cow_box b)
{
    const cow_style *st = x->st;

    add_rect(l, COW_ROLE_LEGEND, b, st->legend_bg, st->grid, st->grid_px, 0);
    for (size_t i = 0; i < lg->n; i++)
        legend_item(l, x, &lg->e[i], b.x + st->legend_pad_px,
                    b.y + st->legend_pad_px + ((double)i + 0.5) * lg->row_h -
                        st->gap_px / 6);
}

static void legend_emit_strip(plist *l, const lctx *x, const legend *lg, cow_box b)
{
    double cur = 0, sep = x->st->gap_px * 2, cy = b.y + lg->row_h / 2;

    for (size_t i = 0; i < lg->n; i++) {
        if (cur > 0 && cur + lg->item_w[i] > b.w)
            cy += lg->row_h, cur = 0;
        legend_item(l, x, &lg->e[i], b.x + cur, cy);
        cur += lg->item_w[i] + sep;
    }
}

/* ================= the whole chart ================= */

typedef struct plan {
    geo *geos;              /* one per drawn plot */
    size_t ngeo;            /* count */
    bool strip;             /* legend in a strip above the plots */
    bool inside;            /* legend inside plot 0 */
    cow_box legend;         /* its box */
    bool reserve_note;      /* room kept for the footnote */
    char note[512];         /* the footnote */
    double header_bottom;   /* y under title and subtitle */
} plan;

static void plan_release(plan *p)
{
    for (size_t i = 0; i < p->ngeo; i++)
        geo_release(&p->geos[i]);
    free(p->geos);
    p->geos = NULL;
    p->ngeo = 0;
}

static void note_add(char *note, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void note_add(char *note, size_t n, const char *fmt, ...)
{
    size_t len = strlen(note);
    va_list ap;

    if (len > 0 && len + 7 < n)
        memcpy(note + len, "  \xc2\xb7  ", 6), len += 6;
    va_start(ap, fmt);
    vsnprintf(note + len, n - len, fmt, ap);
    va_end(ap);
}

static void notes_of(const cow_chart *root, plan *p)
{
    char why[COW_CHART_TEXT];

    p->note[0] = '\0';
    if (root->note[0])
        note_add(p->note, sizeof(p->note), "%s", root->note);
    for (size_t i = 0; i < root->npanels; i++)
        if (!chart_is_drawable(root->panels[i], why, sizeof(why)))
            note_add(p->note, sizeof(p->note), "not shown: %s (%s)",
                     root->panels[i]->title, why);
    for (size_t i = 0; i < p->ngeo; i++) {
        const geo *g = &p->geos[i];
        const char *pre = g->P.panel >= 0 ? g->c->title : "";
        const char *sep = pre[0] ? ": " : "";
        if (g->P.y.kind == COW_AXIS_LOG10 && g->P.y.nclamped)
            note_add(p->note, sizeof(p->note), "%s%s%zu values \xe2\x89\xa4 0 drawn at the "
                     "bottom edge of the log axis", pre, sep, g->P.y.nclamped);
        if (g->P.x.kind == COW_AXIS_LOG10 && g->P.x.nclamped)
            note_add(p->note, sizeof(p->note), "%s%s%zu values \xe2\x89\xa4 0 drawn at the "
                     "left edge of the log axis", pre, sep, g->P.x.nclamped);
        if (g->P.x.kind == COW_AXIS_PCTL && g->P.x.nclamped)
            note_add(p->note, sizeof(p->note), "%s%s%zu points at 100%% drawn at the "
                     "right edge", pre, sep, g->P.x.nclamped);
        if (g->P.ndropped)
            note_add(p->note, sizeof(p->note), "%s%s%zu phase/mark label%s hidden "
                     "(no room above the plot)", pre, sep, g->P.ndropped,
                     g->P.ndropped == 1 ? "" : "s");
    }
}

static void grid_shape(const cow_chart *c, size_t n, size_t *cols, size_t *rows)
{
    size_t k = c->panel_cols > 0 ? (size_t)c->panel_cols : n <= 4 ? n : 3;

    *cols = k ? k : 1;
    *rows = (n + *cols - 1) / *cols;
}

/* Cells for the plots inside area, then their geometry. */
static void plan_plots(const lctx *x, const cow_chart *c, cow_box area, plan *p)
{
    size_t cols, rows, i, k = 0;
    double gx = x->st->gap_px * 3, gy = x->st->gap_px * 2, cw, ch;

    if (c->npanels == 0) {
        p->geos = xcalloc(1, sizeof(geo));
        p->ngeo = 1;
        plot_geom(x, c, area, -1, &p->geos[0]);
        return;
    }
    for (i = 0; i < c->npanels; i++)
        k += chart_is_drawable(c->panels[i], NULL, 0);
    p->geos = xcalloc(k, sizeof(geo));
    grid_shape(c, k, &cols, &rows);
    cw = (area.w - gx * (double)(cols - 1)) / (double)cols;
    ch = (area.h - gy * (double)(rows - 1)) / (double)rows;
    for (i = 0; i < c->npanels; i++) {
        cow_box cell;
        size_t j = p->ngeo;
        if (!chart_is_drawable(c->panels[i], NULL, 0))
            continue;
        cell.x = area.x + (double)(j % cols) * (cw + gx);
        cell.y = area.y + (double)(j / cols) * (ch + gy);
        cell.w = cw, cell.h = ch;
        plot_geom(x, c->panels[i], cell, (int)i, &p->geos[p->ngeo++]);
    }
}

/* One attempt at the plan with the current strip/note choices. Returns
 * true when those choices need to change (and changes them). */
static bool plan_try(const lctx *x, const cow_chart *c, legend *lg, plan *p)
{
    const cow_style *st = x->st;
    double m = st->margin_px, nh = line_h(x, st->note_px) + st->gap_px / 2;
    cow_box area = {m, p->header_bottom, x->w - 2 * m, 0};
    double bottom = x->h - m - (p->reserve_note ? nh : 0);

    plan_release(p);
    if (p->strip) {
        int rows = legend_strip_rows(x, lg, area.w);
        p->legend = (cow_box){area.x, area.y, area.w, rows * lg->row_h};
        area.y += p->legend.h + st->gap_px / 2;
    }
    area.h = bottom - area.y;
    plan_plots(x, c, area, p);
    notes_of(c, p);
    if (lg->n > 0 && !p->strip) {
        p->inside = legend_inside(x, &p->geos[0], lg, &p->legend);
        if (!p->inside)
            return p->strip = true;
    }
    if (p->note[0] && !p->reserve_note)
        return p->reserve_note = true;
    return false;
}

static double emit_header(plist *l, const lctx *x, const cow_chart *c)
{
    const cow_style *st = x->st;
    double m = st->margin_px, y = m, w = x->w - 2 * m;
    char buf[COW_CHART_TEXT + 64], sub[COW_CHART_TEXT + 64];
    const cow_chart *tc = c->npanels ? c->panels[0] : c;

    shorten(x, c->title, st->title_px, true, w, buf, sizeof(buf));
    add_text(l, x, COW_ROLE_TITLE, buf, st->title_px, true, st->text, m, y, HA_LEFT,
             VA_TOP, 0);
    y += line_h(x, st->title_px) + st->gap_px / 3;
    snprintf(sub, sizeof(sub), "%s", c->subtitle);
    if (tc->x.kind == COW_AXIS_TIME && tc->x.origin_us != 0) {
        char iso[40];
        time_format_iso(tc->x.origin_us, iso, sizeof(iso));
        note_add(sub, sizeof(sub), "t = 0 s at %s", iso);
    }
    if (sub[0]) {
        shorten(x, sub, st->subtitle_px, false, w, buf, sizeof(buf));
        add_text(l, x, COW_ROLE_SUBTITLE, buf, st->subtitle_px, false, st->muted, m, y,
                 HA_LEFT, VA_TOP, 0);
        y += line_h(x, st->subtitle_px);
    }
    return y + st->gap_px;
}

static void layout_emit(const lctx *x, const plan *p, const legend *lg, plist *l)
{
    const cow_style *st = x->st;
    char buf[512];
    size_t i, j;

    for (i = 0; i < p->ngeo; i++)
        plot_shapes(l, x, &p->geos[i], (int)i);
    for (i = 0; i < p->ngeo; i++)
        for (j = 0; j < p->geos[i].texts.n; j++) {
            plist_add(l, &p->geos[i].texts.v[j]);
            p->geos[i].texts.v[j].text = NULL;   /* moved */
            p->geos[i].texts.v[j].pts = NULL;
        }
    if (lg->n > 0 && p->inside)
        legend_emit_inside(l, x, lg, p->legend);
    else if (lg->n > 0)
        legend_emit_strip(l, x, lg, p->legend);
    if (p->note[0]) {
        shorten(x, p->note, st->note_px, false, x->w - 2 * st->margin_px, buf, sizeof(buf));
        add_text(l, x, COW_ROLE_NOTE, buf, st->note_px, false, st->muted, st->margin_px,
                 x->h - st->margin_px, HA_LEFT, VA_BOTTOM, 0);
    }
}

int chart_layout_build(const cow_chart *c, const cow_style *st, double w, double h,
                       cow_measure_fn measure_fn, void *mctx, cow_layout *out,
                       cow_err *e)
{
    lctx x = {st, measure_fn, mctx, w, h};
    plist l = {NULL, 0, 0};
    plan p;
    legend lg;
    char why[COW_CHART_TEXT];
    size_t i;

    memset(out, 0, sizeof(*out));
    if (!chart_is_drawable(c, why, sizeof(why)))
        return COW_FAIL(e, COW_EUSAGE, "chart '%s' not drawn: %s", c ? c->title : "", why);
    if (w < 320 * st->scale || h < 200 * st->scale)
        return COW_FAIL(e, COW_EUSAGE, "canvas %gx%g is smaller than 320x200 at scale %g",
                        w, h, st->scale);
    memset(&p, 0, sizeof(p));
    memset(&lg, 0, sizeof(lg));
    add_rect(&l, COW_ROLE_BACKGROUND, (cow_box){0, 0, w, h}, st->background,
             with_alpha(st->background, 0), 0, 0);
    p.header_bottom = emit_header(&l, &x, c);
    if (c->legend && c->npanels == 0)
        legend_of(st, c, lg.e, &lg.n);
    for (i = 0; c->legend && i < c->npanels; i++)
        legend_of(st, c->panels[i], lg.e, &lg.n);
    legend_measure(&x, &lg);
    p.strip = c->npanels > 0 && lg.n > 0;
    for (i = 0; i < 3 && plan_try(&x, c, &lg, &p); i++)
        ;
    layout_emit(&x, &p, &lg, &l);
    out->w = w, out->h = h;
    out->prims = l.v, out->nprims = l.n, out->cap_prims = l.cap;
    out->nplots = p.ngeo;
    out->plots = xcalloc(p.ngeo ? p.ngeo : 1, sizeof(cow_plot_layout));
    for (i = 0; i < p.ngeo; i++)
        out->plots[i] = p.geos[i].P;
    out->has_legend = lg.n > 0;
    out->legend_inside = p.inside;
    out->legend = p.legend;
    plan_release(&p);
    return 0;
}

void chart_layout_release(cow_layout *l)
{
    if (l == NULL)
        return;
    for (size_t i = 0; i < l->nprims; i++)
        prim_release(&l->prims[i]);
    free(l->prims);
    free(l->plots);
    memset(l, 0, sizeof(*l));
}

/* ================= dump and checks ================= */

typedef struct sbuf {
    char *s;          /* text, NUL-terminated */
    size_t n, cap;    /* used / allocated */
} sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void sb_printf(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    int k;

    va_start(ap, fmt);
    k = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (k < 0)
        return;
    b->s = xgrow(b->s, 1, b->n + (size_t)k + 1, &b->cap);
    va_start(ap, fmt);
    vsnprintf(b->s + b->n, (size_t)k + 1, fmt, ap);
    va_end(ap);
    b->n += (size_t)k;
}

static const char *role_name(int r)
{
    static const char *names[COW_ROLE_COUNT] = {
        "background", "plot_bg", "span", "grid", "series", "errbar", "mark", "axis",
        "tick", "bracket", "title", "subtitle", "panel_title", "axis_title",
        "tick_label", "cat_n", "span_label", "mark_label", "legend", "legend_text",
        "note"};
    return r >= 0 && r < COW_ROLE_COUNT ? names[r] : "?";
}

static void sb_rgba(sbuf *b, const char *name, cow_rgba c)
{
    if (c.a <= 0)
        return;
    sb_printf(b, " %s=#%02x%02x%02x%02x", name, (unsigned)lround(c.r * 255),
              (unsigned)lround(c.g * 255), (unsigned)lround(c.b * 255),
              (unsigned)lround(c.a * 255));
}

static void sb_pt(sbuf *b, const double *p)
{
    if (isnan(p[0]))
        sb_printf(b, " |");
    else
        sb_printf(b, " %.1f,%.1f", p[0], p[1]);
}

static void dump_axis(sbuf *b, const char *name, const cow_axis_layout *a)
{
    static const char *kinds[] = {"linear", "log10", "time", "pctl", "category"};
    static const char *fits[] = {"all", "thinned", "rotated", "shortened"};

    sb_printf(b, "  %s %s range %.6g..%.6g px %.1f..%.1f fit=%s every=%d clamped=%zu\n",
              name, kinds[a->kind], a->lo, a->hi, a->p0, a->p1, fits[a->fit], a->every,
              a->nclamped);
    for (size_t i = 0; i < a->nticks; i++)
        sb_printf(b, "    tick %.6g @%.1f%s \"%s\"%s\n", a->ticks[i].v, a->ticks[i].px,
                  a->ticks[i].major ? "" : " minor", a->ticks[i].label,
                  a->ticks[i].shown ? "" : " hidden");
}

static void dump_prim(sbuf *b, const cow_prim *p)
{
    static const char *kinds[] = {"rect", "path", "area", "text", "marker"};

    sb_printf(b, "%s %s", kinds[p->kind], role_name(p->role));
    if (p->clip)
        sb_printf(b, " clip=%d", p->clip - 1);
    switch (p->kind) {
    case COW_PRIM_RECT:
        sb_printf(b, " %.1f,%.1f %.1fx%.1f", p->box.x, p->box.y, p->box.w, p->box.h);
        break;
    case COW_PRIM_PATH:
    case COW_PRIM_AREA:
        sb_printf(b, " n=%zu", p->npts);
        for (size_t i = 0; i < p->npts; i++) {
            if (i == 3 && p->npts > 5) {
                sb_printf(b, " ...");
                i = p->npts - 2;
            }
            sb_pt(b, p->pts + 2 * i);
        }
        break;
    case COW_PRIM_TEXT:
        sb_printf(b, " \"%s\" at %.1f,%.1f size=%.1f%s angle=%g box %.1f,%.1f %.1fx%.1f",
                  p->text, p->x, p->y, p->size, p->bold ? " bold" : "", p->angle,
                  p->box.x, p->box.y, p->box.w, p->box.h);
        break;
    case COW_PRIM_MARKER:
        sb_printf(b, " shape=%d at %.1f,%.1f d=%.1f", p->shape, p->x, p->y, p->size);
        break;
    }
    if (p->lw > 0)
        sb_printf(b, " lw=%.2f", p->lw);
    if (p->dash)
        sb_printf(b, " dashed");
    sb_rgba(b, "fill", p->fill);
    sb_rgba(b, p->kind == COW_PRIM_TEXT ? "color" : "stroke", p->stroke);
    sb_printf(b, "\n");
}

char *chart_layout_dump(const cow_layout *l)
{
    sbuf b = {NULL, 0, 0};
    size_t i;

    sb_printf(&b, "canvas %.0fx%.0f plots=%zu prims=%zu\n", l->w, l->h, l->nplots,
              l->nprims);
    for (i = 0; i < l->nplots; i++) {
        const cow_plot_layout *P = &l->plots[i];
        sb_printf(&b, "plot %zu panel=%d rect %.1f,%.1f %.1fx%.1f dropped=%zu\n", i,
                  P->panel, P->rect.x, P->rect.y, P->rect.w, P->rect.h, P->ndropped);
        dump_axis(&b, "x", &P->x);
        dump_axis(&b, "y", &P->y);
    }
    if (l->has_legend)
        sb_printf(&b, "legend %s %.1f,%.1f %.1fx%.1f\n", l->legend_inside ? "inside" : "strip",
                  l->legend.x, l->legend.y, l->legend.w, l->legend.h);
    for (i = 0; i < l->nprims; i++)
        dump_prim(&b, &l->prims[i]);
    if (b.s == NULL)
        b.s = xstrdup("");
    return b.s;
}

/* Corners of a text prim's rotated rectangle. */
static void text_corners(const cow_prim *p, double cx[4], double cy[4])
{
    double th = p->angle * PI / 180.0, c = p->angle == 0 ? 1 : cos(th);
    double s = p->angle == 0 ? 0 : sin(th);
    double u[4] = {0, p->ext.w, p->ext.w, 0};
    double v[4] = {-p->ext.ascent, -p->ext.ascent, p->ext.descent, p->ext.descent};

    for (int i = 0; i < 4; i++) {
        cx[i] = p->x + u[i] * c - v[i] * s;
        cy[i] = p->y + u[i] * s + v[i] * c;
    }
}

/* Separating axis test on two convex quadrilaterals (touching is fine). */
static bool quads_meet(const double ax[4], const double ay[4], const double bx[4],
                       const double by[4])
{
    const double *qx[2] = {ax, bx}, *qy[2] = {ay, by};

    for (int q = 0; q < 2; q++)
        for (int i = 0; i < 2; i++) {
            double nx = -(qy[q][i + 1] - qy[q][i]), ny = qx[q][i + 1] - qx[q][i];
            double amin = INFINITY, amax = -INFINITY, bmin = INFINITY, bmax = -INFINITY;
            for (int k = 0; k < 4; k++) {
                double pa = ax[k] * nx + ay[k] * ny, pb = bx[k] * nx + by[k] * ny;
                amin = fmin(amin, pa), amax = fmax(amax, pa);
                bmin = fmin(bmin, pb), bmax = fmax(bmax, pb);
            }
            if (amax <= bmin + 1e-6 || bmax <= amin + 1e-6)
                return false;
        }
    return true;
}

size_t chart_layout_text_overlaps(const cow_layout *l)
{
    size_t n = 0;

    for (size_t i = 0; i < l->nprims; i++) {
        double ax[4], ay[4];
        if (l->prims[i].kind != COW_PRIM_TEXT)
            continue;
        text_corners(&l->prims[i], ax, ay);
        for (size_t j = i + 1; j < l->nprims; j++) {
            double bx[4], by[4];
            if (l->prims[j].kind != COW_PRIM_TEXT ||
                !boxes_meet(l->prims[i].box, l->prims[j].box))
                continue;
            text_corners(&l->prims[j], bx, by);
            n += quads_meet(ax, ay, bx, by);
        }
    }
    return n;
}
