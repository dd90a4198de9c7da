/* chart_legend.c -- the legend: its entries from the series, their size,
 * a place inside the plot that covers the least data, or a strip below. */
#include "chart_layout_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>


/* ================= legend ================= */

enum { LE_LINE, LE_DASH, LE_BAND, LE_MARKER, LE_BAR };

static void le_add(legend_entry *v, size_t *n, const char *text, int kind,
                   cow_rgba col, int shape)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp(v[i].text, text) == 0)
            return;
    if (*n == LEGEND_MAX)
        return;
    v[*n].text = chart_text(text);
    v[*n].kind = kind, v[*n].color = col, v[*n].shape = shape;
    (*n)++;
}

void lay_legend_of(const cow_style *st, const cow_chart *c, legend_entry *v, size_t *n)
{
    static const int kinds[] = {[COW_SERIES_LINE] = LE_LINE, [COW_SERIES_BAND] = LE_BAND,
                                [COW_SERIES_POINTS] = LE_MARKER, [COW_SERIES_BARS] = LE_BAR};

    for (size_t i = 0; i < c->nseries; i++) {
        const cow_series *s = &c->series[i];
        bool pass = false, fail = false;
        cow_rgba col = lay_series_colour(st, c, i);
        for (size_t j = 0; s->state && j < s->n; j++)
            pass |= s->state[j] == COW_STATE_PASS, fail |= s->state[j] == COW_STATE_FAIL;
        if (pass)
            le_add(v, n, "pass", LE_MARKER, st->pass, COW_MARKER_CIRCLE);
        if (fail)
            le_add(v, n, "fail", LE_MARKER, st->fail, COW_MARKER_TRIANGLE);
        if (!s->name[0] || pass || fail || !lay_series_valid(s))
            continue;
        if (s->kind == COW_SERIES_BAND)
            col = lay_with_alpha(col, st->band_alpha);
        if (s->kind == COW_SERIES_BAND && s->alpha > 0)
            col.a = s->alpha;
        le_add(v, n, s->name, s->kind == COW_SERIES_LINE && s->dashed ? LE_DASH
                              : s->kind == COW_SERIES_POINTS && s->segment ? LE_BAR
                              : kinds[s->kind], col, lay_series_marker(c, i));
    }
}

void lay_legend_measure(const lctx *x, legend *lg)
{
    const cow_style *st = x->st;

    lg->row_h = fmax(lay_line_h(x, st->legend_px), st->marker_px) + st->gap_px / 3;
    for (size_t i = 0; i < lg->n; i++) {
        /* a name of any length: no wider than the canvas leaves room for */
        double room = x->w - 2 * st->margin_px - 2 * st->legend_pad_px - st->swatch_px -
                      st->gap_px / 2;
        char *t;
        lay_shorten(x, lg->e[i].text, st->legend_px, false, room, &t);
        free(lg->e[i].text);
        lg->e[i].text = t;
        lg->item_w[i] = st->swatch_px + st->gap_px / 2 +
                        lay_text_w(x, lg->e[i].text, st->legend_px, false);
    }
}

void lay_legend_release(legend *lg)
{
    for (size_t i = 0; i < lg->n; i++)
        free(lg->e[i].text);
    lg->n = 0;
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
int lay_legend_strip_rows(const lctx *x, const legend *lg, double w)
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
        *a = lay_ax_px(Y, s->lo[i]), *b = lay_ax_px(Y, s->hi[i]);
        return;
    }
    *a = *b = lay_ax_px(Y, s->y[i]);
    if (s->lo && isfinite(s->lo[i]))
        *a = lay_ax_px(Y, s->lo[i]);
    if (s->hi && isfinite(s->hi[i]))
        *b = lay_ax_px(Y, s->hi[i]);
    if (s->kind == COW_SERIES_BARS)
        *a = fmax(fmax(*a, *b), lay_bar_base(g));
    if (s->segment) /* a bar 0.6 of a category high (emit_segments) */
        *a = lay_ax_px(Y, s->y[i] - 0.3), *b = lay_ax_px(Y, s->y[i] + 0.3);
}

/* How many data elements of the plot would the box cover? */
static size_t legend_cost(const lctx *x, const geo *g, cow_box box)
{
    size_t cost = 0, i, j;
    double m = x->st->marker_px / 2;

    for (i = 0; i < g->c->nseries; i++) {
        const cow_series *s = &g->c->series[i];
        double pa = NAN, pb = NAN, px_prev = NAN;
        for (j = 0; lay_series_valid(s) && j < s->n; j++) {
            double a, b, px, x0, x1;
            if (!chart_point_ok(s, j)) {
                px_prev = NAN;
                continue;
            }
            point_yrange(g, s, j, &a, &b);
            if (s->kind == COW_SERIES_BARS) {
                lay_bar_span(g->c, i, j, &x0, &x1);
                x0 = lay_ax_px(&g->P.x, x0), x1 = lay_ax_px(&g->P.x, x1);
            } else {
                px = lay_ax_px(&g->P.x, s->x[j]);
                x0 = x1 = px;
                if (s->kind != COW_SERIES_POINTS && isfinite(px_prev))
                    x0 = px_prev, a = fmin(a, pa), b = fmax(b, pb);
                if (s->xlo && s->xhi && isfinite(s->xlo[j]) && isfinite(s->xhi[j]))
                    x0 = lay_ax_px(&g->P.x, s->xlo[j]), x1 = lay_ax_px(&g->P.x, s->xhi[j]);
                px_prev = px, pa = fmin(a, b), pb = fmax(a, b);
            }
            cost += boxes_meet(box, box_of(x0 - m, fmin(a, b) - m, x1 + m, fmax(a, b) + m));
        }
    }
    for (i = 0; i < g->c->nmarks; i++) {
        double px = lay_ax_px(&g->P.x, g->c->marks[i].x);
        cost += px >= box.x && px <= box.x + box.w;
    }
    return cost;
}

/* Try the four inside corners; true and *out when one covers nothing. */
bool lay_legend_inside(const lctx *x, const geo *g, const legend *lg, cow_box *out)
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
    double sw = st->swatch_px, bh = lay_line_h(x, st->legend_px) * 0.7;
    cow_box b = {sx, cy - bh / 2, sw, bh};

    switch (e->kind) {
    case LE_LINE:
    case LE_DASH:
        lay_add_line(l, COW_ROLE_LEGEND, sx, cy, sx + sw, cy, e->color, st->line_px,
                 e->kind == LE_DASH, 0);
        break;
    case LE_BAND:
    case LE_BAR:
        lay_add_rect(l, COW_ROLE_LEGEND, b, e->color, lay_with_alpha(e->color, 0), 0, 0);
        break;
    case LE_MARKER:
        lay_add_marker(l, COW_ROLE_LEGEND, sx + sw / 2, cy, st->marker_px, e->shape,
                   e->color, st->background, 0);
        break;
    }
}

static void legend_item(plist *l, const lctx *x, const legend_entry *e, double lx,
                        double cy)
{
    legend_swatch(l, x, e, lx, cy);
    lay_add_text(l, x, COW_ROLE_LEGEND_TEXT, e->text, x->st->legend_px, false, x->st->text,
             lx + x->st->swatch_px + x->st->gap_px / 2, cy, HA_LEFT, VA_MIDDLE, 0);
}

void lay_legend_emit_inside(plist *l, const lctx *x, const legend *lg, cow_box b)
{
    const cow_style *st = x->st;

    lay_add_rect(l, COW_ROLE_LEGEND, b, st->legend_bg, st->grid, st->grid_px, 0);
    for (size_t i = 0; i < lg->n; i++)
        legend_item(l, x, &lg->e[i], b.x + st->legend_pad_px,
                    b.y + st->legend_pad_px + ((double)i + 0.5) * lg->row_h -
                        st->gap_px / 6);
}

void lay_legend_emit_strip(plist *l, const lctx *x, const legend *lg, cow_box b)
{
    double cur = 0, sep = x->st->gap_px * 2, cy = b.y + lg->row_h / 2;

    for (size_t i = 0; i < lg->n; i++) {
        if (cur > 0 && cur + lg->item_w[i] > b.w)
            cy += lg->row_h, cur = 0;
        legend_item(l, x, &lg->e[i], b.x + cur, cy);
        cur += lg->item_w[i] + sep;
    }
}

