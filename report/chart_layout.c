/* chart_layout.c -- the display list of a chart, in plain numbers: style,
 * text metrics, primitives, one plot's geometry and shapes, the whole
 * chart. Axes and ticks are in chart_axis.c, the legend in
 * chart_legend.c, the test dump in chart_dump.c (chart_layout_int.h).
 *
 * Exports chart_style_defaults, chart_measure_fake, chart_layout_build
 * and chart_layout_release (chart_layout.h). The rules are listed in the
 * header; this file is in the order a chart is laid out: style, the label
 * lane, one plot's geometry, its primitives, the whole chart. */
#include "chart_layout.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart_layout_int.h"
#include "mem.h"
#include "timeconv.h"

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

static cow_text_ext measure(const lctx *x, const char *s, double size, bool bold)
{
    cow_text_ext t = {0, 0, 0};

    x->fn(x->mctx, s, size, bold, &t);
    return t;
}

double lay_text_w(const lctx *x, const char *s, double size, bool bold)
{
    return measure(x, s, size, bold).w;
}

double lay_line_h(const lctx *x, double size)
{
    cow_text_ext t = measure(x, "Hg", size, false);
    return t.ascent + t.descent;
}

/* Copy s into out, cut on a code point and ended with an ellipsis so it
 * measures at most maxw. Returns true when it had to cut. */
bool lay_shorten(const lctx *x, const char *s, double size, bool bold,
                        double maxw, char *out, size_t n)
{
    size_t len;

    chart_set_text(out, n, s);
    if (lay_text_w(x, out, size, bold) <= maxw)
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
        if (lay_text_w(x, out, size, bold) <= maxw)
            return true;
    }
    chart_set_text(out, n, ELLIPSIS);
    return true;
}

/* ================= primitives ================= */

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

void lay_add_rect(plist *l, int role, cow_box b, cow_rgba fill, cow_rgba stroke,
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

void lay_add_line(plist *l, int role, double x0, double y0, double x1,
                         double y1, cow_rgba col, double lw, int dash, int clip)
{
    double pts[4] = {x0, y0, x1, y1};

    add_poly(l, COW_PRIM_PATH, role, pts, 2, col, lw, dash, clip);
}

void lay_add_marker(plist *l, int role, double x, double y, double d,
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

void lay_add_text(plist *l, const lctx *x, int role, const char *s, double size,
                         bool bold, cow_rgba col, double ax, double ay, int ha, int va,
                         double angle)
{
    cow_prim p = text_prim(x, role, s, size, bold, col, ax, ay, ha, va, angle);

    plist_add(l, &p);
}

/* ================= one plot: geometry ================= */

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
            if (lay_shorten(x, a->ticks[i].label, x->st->tick_px, false,
                        x->st->cat_label_max_px, buf, sizeof(buf)))
                a->fit = COW_FIT_SHORTENED;
            memcpy(a->ticks[i].label, buf, sizeof(buf));
        }
        w = fmax(w, lay_text_w(x, a->ticks[i].label, x->st->tick_px, false));
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
        h += lay_line_h(x, st->tick_px);
    }
    if (a->kind == COW_AXIS_CATEGORY && any_cat_n(g->c))
        h += lay_line_h(x, st->annot_px) + st->gap_px / 4;
    axis_title(&g->c->x, title, sizeof(title));
    if (title[0])
        h += st->gap_px / 2 + lay_line_h(x, st->label_px);
    return h;
}

static void fit_x_labels(const lctx *x, geo *g)
{
    cow_axis_layout *a = &g->P.x;
    double lo[COW_MAX_TICKS], hi[COW_MAX_TICKS];

    if (a->kind == COW_AXIS_CATEGORY) {
        lay_fit_x_category(x, a, g->cell.x);
        return;
    }
    for (size_t i = 0; i < a->nticks; i++) {
        double w = lay_text_w(x, a->ticks[i].label, x->st->tick_px, false);
        lo[i] = fmax(a->ticks[i].px - w / 2, g->cell.x);
        hi[i] = lo[i] + w;
        if (hi[i] > g->cell.x + g->cell.w)
            hi[i] = g->cell.x + g->cell.w, lo[i] = hi[i] - w;
    }
    lay_fit_numeric(a, lo, hi, x->st->tick_px / 2);
}

static void fit_y_labels(const lctx *x, geo *g)
{
    cow_axis_layout *a = &g->P.y;
    double lo[COW_MAX_TICKS], hi[COW_MAX_TICKS], lh = lay_line_h(x, x->st->tick_px);

    /* Pixels grow downwards; order boxes by value along the axis. */
    for (size_t i = 0; i < a->nticks; i++) {
        double p = a->p1 < a->p0 ? -a->ticks[i].px : a->ticks[i].px;
        lo[i] = p - lh / 2, hi[i] = p + lh / 2;
    }
    if (a->kind == COW_AXIS_CATEGORY) {
        if (!lay_spaced(a, lo, hi, lh * 0.1))
            lay_thin_every(a, lo, hi, lh * 0.1);
        return;
    }
    lay_fit_numeric(a, lo, hi, lh * 0.2);
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
        it->a = fmax(lay_ax_px(&g->P.x, it->x0), r->x);
        it->b = fmin(lay_ax_px(&g->P.x, it->x1), r->x + r->w);
        if (it->b < it->a || !it->label[0])
            continue;
        w = lay_text_w(x, it->label, x->st->annot_px, false);
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
    return lay_line_h(x, x->st->annot_px) + x->st->bracket_px + x->st->gap_px / 2;
}

static void plot_texts(const lctx *x, geo *g);

/* Lay out the horizontal extent (y labels, plot x range, x label fit, the
 * lane), then the vertical one. */
static void plot_geom(const lctx *x, const cow_chart *c, cow_box cell, int panel,
                      geo *g)
{
    const cow_style *st = x->st;
    double lh_tick = lay_line_h(x, st->tick_px), ptitle = 0, left, right, top, bottom;
    double lane_h, est_h;
    char title[COW_CHART_TEXT];

    memset(g, 0, sizeof(*g));
    g->c = c, g->cell = cell, g->P.panel = panel;
    if (panel >= 0 && c->title[0])
        ptitle = lay_line_h(x, st->panel_title_px) + st->gap_px / 2;
    est_h = cell.h - ptitle - 3 * lh_tick - 2 * st->gap_px;
    lay_axis_range(c, false, est_h, st->ytick_spacing_px, &g->P.y);
    axis_title(&c->y, title, sizeof(title));
    left = y_label_width(x, &g->P.y) + st->tick_len_px + st->gap_px / 2 +
           (title[0] ? lay_line_h(x, st->label_px) + st->gap_px / 2 : 0);
    lay_axis_range(c, true, cell.w - left, st->xtick_spacing_px, &g->P.x);
    right = st->gap_px;
    if (g->P.x.kind != COW_AXIS_CATEGORY && g->P.x.nticks > 0)
        right = fmax(right, lay_text_w(x, g->P.x.ticks[g->P.x.nticks - 1].label,
                                   st->tick_px, false) / 2);
    g->P.rect.x = cell.x + left;
    g->P.rect.w = cell.w - left - right;
    lay_axis_place(&g->P.x, g->P.rect.x, g->P.rect.x + g->P.rect.w);
    fit_x_labels(x, g);
    lane_place(x, g);
    lane_h = g->lane_rows * lane_row_h(x);
    top = cell.y + ptitle + lane_h + fmax(st->gap_px / 2, lh_tick * 0.6);
    bottom = cell.y + cell.h - x_block_height(x, g);
    g->P.rect.y = top;
    g->P.rect.h = fmax(bottom - top, 10 * st->scale);
    if (g->P.y.kind == COW_AXIS_CATEGORY)
        lay_axis_place(&g->P.y, top, top + g->P.rect.h);
    else
        lay_axis_place(&g->P.y, top + g->P.rect.h, top);
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
                    ? lay_line_h(x, st->annot_px) + st->gap_px / 4 : 0;
    double ylab = a->rotated ? y + nh : y, yn = a->rotated ? y : y + lay_line_h(x, st->tick_px);
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
            lay_add_text(&g->texts, x, COW_ROLE_CAT_N, buf, st->annot_px, false, st->muted,
                     t->px, yn, HA_CENTER, VA_TOP, 0);
            ymax = fmax(ymax, yn + lay_line_h(x, st->annot_px));
        }
    }
    axis_title(&g->c->x, title, sizeof(title));
    if (title[0])
        lay_add_text(&g->texts, x, COW_ROLE_AXIS_TITLE, title, st->label_px, false,
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
            lay_add_text(&g->texts, x, COW_ROLE_TICK_LABEL, a->ticks[i].label,
                     st->tick_px, false, st->text,
                     r->x - st->tick_len_px - st->gap_px / 2, a->ticks[i].px,
                     HA_RIGHT, VA_MIDDLE, 0);
    axis_title(&g->c->y, title, sizeof(title));
    if (!title[0])
        return;
    lay_shorten(x, title, st->label_px, false, r->h, buf, sizeof(buf));
    lay_add_text(&g->texts, x, COW_ROLE_AXIS_TITLE, buf, st->label_px, false, st->text,
             g->cell.x + lay_line_h(x, st->label_px) / 2, r->y + r->h / 2, HA_CENTER,
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
    double rh = lane_row_h(x), lh = lay_line_h(x, st->annot_px);

    for (size_t i = 0; i < g->nlane; i++) {
        const lane_item *it = &g->lane[i];
        double bot = r->y - st->gap_px / 4 - (double)it->row * rh;
        double ty = bot - st->bracket_px - st->gap_px / 6 - lh / 2;
        if (it->row < 0)
            continue;
        if (it->is_span) {
            lay_add_line(&g->texts, COW_ROLE_BRACKET, it->a, bot - st->bracket_px / 2,
                     fmax(it->b, it->a + 1), bot - st->bracket_px / 2,
                     span_colour(st, it->color), st->bracket_px, 0, 0);
            lay_add_text(&g->texts, x, COW_ROLE_SPAN_LABEL, it->label, st->annot_px, false,
                     st->text, (it->lx + it->rx) / 2, ty, HA_CENTER, VA_MIDDLE, 0);
        } else {
            lay_add_line(&g->texts, COW_ROLE_MARK, it->a, r->y, it->a, ty + lh / 2,
                     st->mark, st->mark_px * 0.7, 1, 0);
            lay_add_text(&g->texts, x, COW_ROLE_MARK_LABEL, it->label, st->annot_px, false,
                     st->text, (it->lx + it->rx) / 2, ty, HA_CENTER, VA_MIDDLE, 0);
        }
    }
}

static void plot_texts(const lctx *x, geo *g)
{
    if (g->P.panel >= 0 && g->c->title[0]) {
        char buf[COW_CHART_TEXT];
        lay_shorten(x, g->c->title, x->st->panel_title_px, true, g->cell.w, buf, sizeof(buf));
        lay_add_text(&g->texts, x, COW_ROLE_PANEL_TITLE, buf, x->st->panel_title_px, true,
                 x->st->text, g->cell.x, g->cell.y, HA_LEFT, VA_TOP, 0);
    }
    emit_x_labels(x, g);
    emit_y_labels(x, g);
    emit_lane(x, g);
}

/* ================= one plot: shapes ================= */

cow_rgba lay_series_colour(const cow_style *st, const cow_chart *c, size_t si)
{
    size_t auto_i = 0;

    if (c->series[si].color >= 0)
        return st->palette[(size_t)c->series[si].color % st->npalette];
    for (size_t i = 0; i < si; i++)
        auto_i += c->series[i].color < 0;
    return st->palette[auto_i % st->npalette];
}

int lay_series_marker(const cow_chart *c, size_t si)
{
    if (c->series[si].marker != COW_MARKER_AUTO)
        return c->series[si].marker;
    return COW_MARKER_CIRCLE + (int)(si % 5);
}

cow_rgba lay_with_alpha(cow_rgba c, double a)
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
        pb_add(&b, lay_ax_px(&g->P.x, s->x[i]), lay_ax_px(&g->P.y, s->y[i]));
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
            pb_add(&b, lay_ax_px(&g->P.x, s->x[k]), lay_ax_px(&g->P.y, s->lo[k]));
        for (k = j; k > i; k--)
            pb_add(&b, lay_ax_px(&g->P.x, s->x[k - 1]), lay_ax_px(&g->P.y, s->hi[k - 1]));
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

/* A one-sided bound: from (x, y0) to the plot edge at y1 (top or bottom),
 * ending in an open arrow that says "beyond". */
static void errbar_open(pbuf *b, double x, double y0, double y1, double cap)
{
    double d = y1 < y0 ? cap : -cap;
    pb_add(b, x, y0), pb_add(b, x, y1), pb_break(b);
    pb_add(b, x - cap, y0), pb_add(b, x + cap, y0), pb_break(b);
    pb_add(b, x - cap, y1 + d), pb_add(b, x, y1), pb_add(b, x + cap, y1 + d), pb_break(b);
}

/* The same along x, to the plot's left or right edge. */
static void errbar_open_x(pbuf *b, double y, double x0, double x1, double cap)
{
    double d = x1 < x0 ? cap : -cap;
    pb_add(b, x0, y), pb_add(b, x1, y), pb_break(b);
    pb_add(b, x0, y - cap), pb_add(b, x0, y + cap), pb_break(b);
    pb_add(b, x1 + d, y - cap), pb_add(b, x1, y), pb_add(b, x1 + d, y + cap), pb_break(b);
}

/* Whiskers of point i: two-sided, or one-sided to the plot's edge. */
static void point_whiskers(pbuf *b, const geo *g, const cow_series *s, size_t i, double px,
                           double py, double cap)
{
    const cow_box *r = &g->P.rect;
    bool lo = s->lo && isfinite(s->lo[i]), hi = s->hi && isfinite(s->hi[i]);
    bool xlo = s->xlo && isfinite(s->xlo[i]), xhi = s->xhi && isfinite(s->xhi[i]);

    if (lo && hi)
        errbar(b, px, lay_ax_px(&g->P.y, s->lo[i]), px, lay_ax_px(&g->P.y, s->hi[i]), cap);
    else if (lo)
        errbar_open(b, px, lay_ax_px(&g->P.y, s->lo[i]), r->y, cap);
    else if (hi)
        errbar_open(b, px, lay_ax_px(&g->P.y, s->hi[i]), r->y + r->h, cap);
    if (s->segment)
        return;
    if (xlo && xhi)
        errbar(b, lay_ax_px(&g->P.x, s->xlo[i]), py, lay_ax_px(&g->P.x, s->xhi[i]), py, cap);
    else if (xlo)
        errbar_open_x(b, py, lay_ax_px(&g->P.x, s->xlo[i]), r->x + r->w, cap);
    else if (xhi)
        errbar_open_x(b, py, lay_ax_px(&g->P.x, s->xhi[i]), r->x, cap);
}

/* A segment series: one bar per point from xlo to xhi, 0.6 of a category
 * high, centred on y. */
static void emit_segments(plist *l, const lctx *x, const geo *g, size_t si, int clip)
{
    const cow_series *s = &g->c->series[si];
    cow_rgba col = lay_series_colour(x->st, g->c, si);

    for (size_t i = 0; i < s->n; i++) {
        double a, b, y0, y1;
        cow_box r;
        if (!chart_point_ok(s, i) || !s->xlo || !s->xhi || !isfinite(s->xlo[i]) ||
            !isfinite(s->xhi[i]))
            continue;
        a = lay_ax_px(&g->P.x, s->xlo[i]), b = lay_ax_px(&g->P.x, s->xhi[i]);
        y0 = lay_ax_px(&g->P.y, s->y[i] - 0.3), y1 = lay_ax_px(&g->P.y, s->y[i] + 0.3);
        r.x = fmin(a, b), r.w = fmax(fabs(b - a), 1), r.y = fmin(y0, y1), r.h = fabs(y1 - y0);
        lay_add_rect(l, COW_ROLE_SERIES, r, col, x->st->background, x->st->errbar_px / 2,
                     clip);
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
                                                          : lay_series_marker(c, si);
    return *slot == 1 ? st->pass : *slot == 2 ? st->fail : lay_series_colour(st, c, si);
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
        px = lay_ax_px(&g->P.x, s->x[i]), py = lay_ax_px(&g->P.y, s->y[i]);
        point_whiskers(&b[k], g, s, i, px, py, st->cap_px);
    }
    for (k = 0; k < 3; k++) {
        if (b[k].n)
            add_poly(l, COW_PRIM_PATH, COW_ROLE_ERRBAR, b[k].v, b[k].n,
                     lay_with_alpha(cols[k], 0.85), st->errbar_px, 0, clip);
        free(b[k].v);
    }
    for (i = 0; i < s->n; i++) {
        double px, py;
        cow_rgba col = point_style(st, g->c, si, i, &shape, &k);
        if (!chart_point_ok(s, i))
            continue;
        px = lay_ax_px(&g->P.x, s->x[i]), py = lay_ax_px(&g->P.y, s->y[i]);
        if (inside(&g->P.rect, px, py))
            lay_add_marker(l, COW_ROLE_SERIES, px, py, st->marker_px, shape, col,
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
void lay_bar_span(const cow_chart *c, size_t si, size_t k, double *x0, double *x1)
{
    size_t ng, gi = bar_group(c, si, &ng);
    double slot = 0.8 / (double)(ng ? ng : 1);

    *x0 = (double)k - 0.4 + slot * ((double)gi + 0.06);
    *x1 = *x0 + slot * 0.88;
}

double lay_bar_base(const geo *g)
{
    const cow_axis_layout *a = &g->P.y;

    if (a->kind == COW_AXIS_LOG10)
        return a->p0;
    return lay_ax_px(a, a->lo > 0 ? a->lo : a->hi < 0 ? a->hi : 0);
}

static void emit_bars(plist *l, const lctx *x, const geo *g, size_t si, int clip)
{
    const cow_style *st = x->st;
    const cow_series *s = &g->c->series[si];
    cow_rgba col = lay_series_colour(st, g->c, si);
    pbuf b = {NULL, 0, 0};

    for (size_t k = 0; k < s->n && k < g->c->ncats; k++) {
        double x0, x1, py, base = lay_bar_base(g), cx;
        bool thin = s->thin && s->thin[k];
        cow_box r;
        if (!chart_point_ok(s, k))
            continue;
        lay_bar_span(g->c, si, k, &x0, &x1);
        x0 = lay_ax_px(&g->P.x, x0), x1 = lay_ax_px(&g->P.x, x1), cx = (x0 + x1) / 2;
        py = lay_ax_px(&g->P.y, s->y[k]);
        r.x = x0, r.w = x1 - x0, r.y = fmin(py, base), r.h = fabs(base - py);
        lay_add_rect(l, COW_ROLE_SERIES, r, thin ? lay_with_alpha(col, st->thin_alpha) : col,
                 thin ? col : lay_with_alpha(col, 0), thin ? st->errbar_px / 2 : 0, clip);
        if (s->lo && s->hi && isfinite(s->lo[k]) && isfinite(s->hi[k]))
            errbar(&b, cx, lay_ax_px(&g->P.y, s->lo[k]), cx, lay_ax_px(&g->P.y, s->hi[k]),
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
            lay_add_line(l, COW_ROLE_GRID, g->P.x.ticks[i].px, r->y, g->P.x.ticks[i].px,
                     r->y + r->h, st->grid, st->grid_px, 0, 0);
    for (i = 0; i < g->P.y.nticks; i++)
        if (g->P.y.ticks[i].major)
            lay_add_line(l, COW_ROLE_GRID, r->x, g->P.y.ticks[i].px, r->x + r->w,
                     g->P.y.ticks[i].px, st->grid, st->grid_px, 0, 0);
}

static void emit_axes(plist *l, const lctx *x, const geo *g)
{
    const cow_style *st = x->st;
    const cow_box *r = &g->P.rect;
    double yb = r->y + r->h, tl = st->tick_len_px;
    size_t i;

    lay_add_line(l, COW_ROLE_AXIS, r->x, r->y, r->x, yb, st->axis, st->axis_px, 0, 0);
    lay_add_line(l, COW_ROLE_AXIS, r->x, yb, r->x + r->w, yb, st->axis, st->axis_px, 0, 0);
    for (i = 0; i < g->P.x.nticks; i++)
        lay_add_line(l, COW_ROLE_TICK, g->P.x.ticks[i].px, yb, g->P.x.ticks[i].px,
                 yb + (g->P.x.ticks[i].major ? tl : tl / 2), st->axis, st->axis_px, 0, 0);
    for (i = 0; i < g->P.y.nticks; i++)
        lay_add_line(l, COW_ROLE_TICK, r->x - (g->P.y.ticks[i].major ? tl : tl / 2),
                 g->P.y.ticks[i].px, r->x, g->P.y.ticks[i].px, st->axis, st->axis_px, 0, 0);
}

static void emit_spans_marks(plist *l, const lctx *x, const geo *g, int clip, bool marks)
{
    const cow_style *st = x->st;
    const cow_box *r = &g->P.rect;
    size_t i;

    for (i = 0; !marks && i < g->c->nspans; i++) {
        const cow_span *sp = &g->c->spans[i];
        double a = lay_ax_px(&g->P.x, sp->x0), b = lay_ax_px(&g->P.x, sp->x1);
        cow_box bx = {a, r->y, fmax(b - a, 1), r->h};
        lay_add_rect(l, COW_ROLE_SPAN, bx,
                 lay_with_alpha(span_colour(st, sp->color >= 0 ? sp->color : (int)i),
                            st->span_alpha),
                 lay_with_alpha(st->text, 0), 0, clip);
    }
    for (i = 0; marks && i < g->c->nmarks; i++) {
        double px = lay_ax_px(&g->P.x, g->c->marks[i].x);
        lay_add_line(l, COW_ROLE_MARK, px, r->y, px, r->y + r->h, st->mark, st->mark_px, 1, clip);
    }
}

/* Shapes of plot pi into l: background, spans, grid, series, marks, axes. */
static void plot_shapes(plist *l, const lctx *x, const geo *g, int pi)
{
    const cow_style *st = x->st;
    int clip = pi + 1;

    lay_add_rect(l, COW_ROLE_PLOT_BG, g->P.rect, st->plot_bg, lay_with_alpha(st->axis, 0), 0, 0);
    emit_spans_marks(l, x, g, clip, false);
    emit_grid(l, x, g);
    for (size_t i = 0; i < g->c->nseries; i++) {
        const cow_series *s = &g->c->series[i];
        cow_rgba col = lay_series_colour(st, g->c, i);
        if (!lay_series_valid(s))
            continue;
        switch (s->kind) {
        case COW_SERIES_LINE:
            emit_line(l, g, s, col, st->line_px, clip);
            break;
        case COW_SERIES_BAND:
            emit_band(l, g, s, lay_with_alpha(col, s->alpha > 0 ? s->alpha : st->band_alpha),
                      clip);
            break;
        case COW_SERIES_POINTS:
            if (s->segment)
                emit_segments(l, x, g, i, clip);
            else
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
    double m = st->margin_px, nh = lay_line_h(x, st->note_px) + st->gap_px / 2;
    cow_box area = {m, p->header_bottom, x->w - 2 * m, 0};
    double bottom = x->h - m - (p->reserve_note ? nh : 0);

    plan_release(p);
    if (p->strip) {
        int rows = lay_legend_strip_rows(x, lg, area.w);
        p->legend = (cow_box){area.x, area.y, area.w, rows * lg->row_h};
        area.y += p->legend.h + st->gap_px / 2;
    }
    area.h = bottom - area.y;
    plan_plots(x, c, area, p);
    notes_of(c, p);
    if (lg->n > 0 && !p->strip) {
        p->inside = lay_legend_inside(x, &p->geos[0], lg, &p->legend);
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

    lay_shorten(x, c->title, st->title_px, true, w, buf, sizeof(buf));
    lay_add_text(l, x, COW_ROLE_TITLE, buf, st->title_px, true, st->text, m, y, HA_LEFT,
             VA_TOP, 0);
    y += lay_line_h(x, st->title_px) + st->gap_px / 3;
    snprintf(sub, sizeof(sub), "%s", c->subtitle);
    if (tc->x.kind == COW_AXIS_TIME && tc->x.origin_us != 0) {
        char iso[40];
        time_format_iso(tc->x.origin_us, iso, sizeof(iso));
        note_add(sub, sizeof(sub), "t = 0 s at %s", iso);
    }
    if (sub[0]) {
        lay_shorten(x, sub, st->subtitle_px, false, w, buf, sizeof(buf));
        lay_add_text(l, x, COW_ROLE_SUBTITLE, buf, st->subtitle_px, false, st->muted, m, y,
                 HA_LEFT, VA_TOP, 0);
        y += lay_line_h(x, st->subtitle_px);
    }
    return y + st->gap_px;
}

/* Callouts of one plot: a ring at the point, the label on a box beside it
 * inside the plot (right of the point when it fits, else left), moved
 * down past the legend when the legend is inside this plot. */
static void emit_callouts(plist *l, const lctx *x, const geo *g, const cow_box *avoid)
{
    const cow_style *st = x->st;
    const cow_box *r = &g->P.rect;
    double size = st->legend_px, pad = st->gap_px / 4, h = lay_line_h(x, size);

    for (size_t i = 0; i < g->c->ncallouts; i++) {
        const cow_callout *c = &g->c->callouts[i];
        double px = lay_ax_px(&g->P.x, c->x), py = lay_ax_px(&g->P.y, c->y);
        double w = lay_text_w(x, c->label, size, true), off = st->marker_px;
        cow_box b;
        if (!isfinite(px) || !isfinite(py))
            continue;
        lay_add_marker(l, COW_ROLE_CALLOUT, px, py, st->marker_px * 1.6, COW_MARKER_CIRCLE,
                       lay_with_alpha(st->text, 0), st->text, 0);
        b.w = w + 2 * pad, b.h = h + 2 * pad;
        b.x = px + off + b.w <= r->x + r->w ? px + off : px - off - b.w;
        if (b.x < r->x)
            b.x = r->x;
        b.y = fmin(fmax(py - b.h / 2, r->y), r->y + r->h - b.h);
        if (avoid && boxes_meet(b, *avoid))
            b.y = fmin(avoid->y + avoid->h + pad, r->y + r->h - b.h);
        lay_add_rect(l, COW_ROLE_CALLOUT, b, lay_with_alpha(st->background, 0.9), st->text,
                     st->errbar_px / 2, 0);
        lay_add_text(l, x, COW_ROLE_CALLOUT_LABEL, c->label, size, true, st->text, b.x + pad,
                     b.y + pad, HA_LEFT, VA_TOP, 0);
    }
}

static void layout_emit(const lctx *x, const plan *p, const legend *lg, plist *l)
{
    const cow_style *st = x->st;
    char buf[512];
    size_t i, j;

    for (i = 0; i < p->ngeo; i++)
        plot_shapes(l, x, &p->geos[i], (int)i);
    for (i = 0; i < p->ngeo; i++)
        emit_callouts(l, x, &p->geos[i], i == 0 && lg->n > 0 && p->inside ? &p->legend : NULL);
    for (i = 0; i < p->ngeo; i++)
        for (j = 0; j < p->geos[i].texts.n; j++) {
            plist_add(l, &p->geos[i].texts.v[j]);
            p->geos[i].texts.v[j].text = NULL;   /* moved */
            p->geos[i].texts.v[j].pts = NULL;
        }
    if (lg->n > 0 && p->inside)
        lay_legend_emit_inside(l, x, lg, p->legend);
    else if (lg->n > 0)
        lay_legend_emit_strip(l, x, lg, p->legend);
    if (p->note[0]) {
        lay_shorten(x, p->note, st->note_px, false, x->w - 2 * st->margin_px, buf, sizeof(buf));
        lay_add_text(l, x, COW_ROLE_NOTE, buf, st->note_px, false, st->muted, st->margin_px,
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
    lay_add_rect(&l, COW_ROLE_BACKGROUND, (cow_box){0, 0, w, h}, st->background,
             lay_with_alpha(st->background, 0), 0, 0);
    p.header_bottom = emit_header(&l, &x, c);
    if (c->legend && c->npanels == 0)
        lay_legend_of(st, c, lg.e, &lg.n);
    for (i = 0; c->legend && i < c->npanels; i++)
        lay_legend_of(st, c->panels[i], lg.e, &lg.n);
    lay_legend_measure(&x, &lg);
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

