/* chart_plot.c -- one plot: its geometry (axes from chart_axis.c, the
 * label lane above it), its texts (tick labels, span and mark labels) and
 * its shapes (spans, grid, series, whiskers, segments, marks, axes).
 * Calls chart_style.c, chart_prim.c and chart_axis.c. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart_layout_int.h"
#include "mem.h"

/* ================= one plot: geometry ================= */

void lay_geo_release(geo *g)
{
    free(g->lane);
    lay_plist_release(&g->texts);
    lay_axis_release(&g->P.x);
    lay_axis_release(&g->P.y);
    memset(g, 0, sizeof(*g));
}

static double y_label_width(const lctx *x, cow_axis_layout *a)
{
    double w = 0;

    for (size_t i = 0; i < a->nticks; i++) {
        if (a->kind == COW_AXIS_CATEGORY) {
            char *buf;
            if (lay_shorten(x, a->ticks[i].label, x->st->tick_px, false,
                        x->st->cat_label_max_px, &buf))
                a->fit = COW_FIT_SHORTENED;
            free(a->ticks[i].label);
            a->ticks[i].label = buf;
        }
        w = fmax(w, lay_text_w(x, a->ticks[i].label, x->st->tick_px, false));
    }
    return w;
}

static bool has_axis_title(const cow_axis *a)
{
    return a->label[0] || a->unit[0];
}

/* "latency (ms)", "latency" or "ms"; the caller frees it. */
static char *axis_title(const cow_axis *a)
{
    if (a->unit[0] && a->label[0])
        return xasprintf("%s (%s)", a->label, a->unit);
    return xstrdup(a->label[0] ? a->label : a->unit);
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

    if (a->rotated) {
        for (size_t i = 0; i < a->nticks; i++) {
            cow_text_ext t = lay_measure(x, a->ticks[i].label, st->tick_px, false);
            rot = fmax(rot, (t.w + t.ascent + t.descent) * SQRT_HALF);
        }
        h += rot;
    } else {
        h += lay_line_h(x, st->tick_px);
    }
    if (a->kind == COW_AXIS_CATEGORY && any_cat_n(g->c))
        h += lay_line_h(x, st->annot_px) + st->gap_px / 4;
    if (has_axis_title(&g->c->x))
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
void lay_plot_geom(const lctx *x, const cow_chart *c, cow_box cell, int panel,
                      geo *g)
{
    const cow_style *st = x->st;
    double lh_tick = lay_line_h(x, st->tick_px), ptitle = 0, left, right, top, bottom;
    double lane_h, est_h;

    memset(g, 0, sizeof(*g));
    g->c = c, g->cell = cell, g->P.panel = panel;
    if (panel >= 0 && c->title[0])
        ptitle = lay_line_h(x, st->panel_title_px) + st->gap_px / 2;
    est_h = cell.h - ptitle - 3 * lh_tick - 2 * st->gap_px;
    lay_axis_range(c, false, est_h, st->ytick_spacing_px, &g->P.y);
    left = y_label_width(x, &g->P.y) + st->tick_len_px + st->gap_px / 2 +
           (has_axis_title(&c->y) ? lay_line_h(x, st->label_px) + st->gap_px / 2 : 0);
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
    char *title, *buf;

    for (size_t i = 0; i < a->nticks; i++) {
        const cow_tick *t = &a->ticks[i];
        cow_prim p;
        if (!t->shown)
            continue;
        if (a->rotated) {
            p = lay_text_prim(x, COW_ROLE_TICK_LABEL, t->label, st->tick_px, false,
                          st->text, t->px + 2 * st->scale, ylab, HA_RIGHT, VA_MIDDLE, -45);
            lay_prim_shift(&p, 0, ylab - p.box.y);
        } else {
            p = lay_text_prim(x, COW_ROLE_TICK_LABEL, t->label, st->tick_px, false,
                          st->text, t->px, ylab, HA_CENTER, VA_TOP, 0);
            lay_keep_within(&p, g->cell.x, g->cell.x + g->cell.w);
        }
        ymax = fmax(ymax, p.box.y + p.box.h);
        lay_plist_add(&g->texts, &p);
        if (nh > 0 && g->c->cats[i].n >= 0) {
            char nbuf[32];
            snprintf(nbuf, sizeof(nbuf), "n=%ld", g->c->cats[i].n);
            lay_add_text(&g->texts, x, COW_ROLE_CAT_N, nbuf, st->annot_px, false, st->muted,
                     t->px, yn, HA_CENTER, VA_TOP, 0);
            ymax = fmax(ymax, yn + lay_line_h(x, st->annot_px));
        }
    }
    if (!has_axis_title(&g->c->x))
        return;
    title = axis_title(&g->c->x);
    lay_shorten(x, title, st->label_px, false, g->cell.w, &buf);
    lay_add_text(&g->texts, x, COW_ROLE_AXIS_TITLE, buf, st->label_px, false,
             st->text, r->x + r->w / 2, ymax + st->gap_px / 2, HA_CENTER, VA_TOP, 0);
    free(title);
    free(buf);
}

static void emit_y_labels(const lctx *x, geo *g)
{
    const cow_style *st = x->st;
    const cow_axis_layout *a = &g->P.y;
    const cow_box *r = &g->P.rect;
    char *title, *buf;

    for (size_t i = 0; i < a->nticks; i++)
        if (a->ticks[i].shown)
            lay_add_text(&g->texts, x, COW_ROLE_TICK_LABEL, a->ticks[i].label,
                     st->tick_px, false, st->text,
                     r->x - st->tick_len_px - st->gap_px / 2, a->ticks[i].px,
                     HA_RIGHT, VA_MIDDLE, 0);
    if (!has_axis_title(&g->c->y))
        return;
    title = axis_title(&g->c->y);
    lay_shorten(x, title, st->label_px, false, r->h, &buf);
    lay_add_text(&g->texts, x, COW_ROLE_AXIS_TITLE, buf, st->label_px, false, st->text,
             g->cell.x + lay_line_h(x, st->label_px) / 2, r->y + r->h / 2, HA_CENTER,
             VA_MIDDLE, -90);
    free(title);
    free(buf);
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
        char *buf;
        lay_shorten(x, g->c->title, x->st->panel_title_px, true, g->cell.w, &buf);
        lay_add_text(&g->texts, x, COW_ROLE_PANEL_TITLE, buf, x->st->panel_title_px, true,
                 x->st->text, g->cell.x, g->cell.y, HA_LEFT, VA_TOP, 0);
        free(buf);
    }
    emit_x_labels(x, g);
    emit_y_labels(x, g);
    emit_lane(x, g);
}

/* ================= one plot: shapes ================= */

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
    lay_add_poly(l, COW_PRIM_PATH, COW_ROLE_SERIES, b.v, b.n, col, lw, s->dashed, clip);
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
            lay_add_poly(l, COW_PRIM_AREA, COW_ROLE_SERIES, b.v, b.n, col, 0, 0, clip);
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
            lay_add_poly(l, COW_PRIM_PATH, COW_ROLE_ERRBAR, b[k].v, b[k].n,
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
    lay_add_poly(l, COW_PRIM_PATH, COW_ROLE_ERRBAR, b.v, b.n, st->axis, st->errbar_px, 0, clip);
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
void lay_plot_shapes(plist *l, const lctx *x, const geo *g, int pi)
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

