/* chart_layout.c -- the whole chart: header, the plan of plots and
 * legend (strip or inside), footnotes, callouts, and the exports
 * chart_layout_build and chart_layout_release (chart_layout.h). One plot
 * is chart_plot.c's, the legend chart_legend.c's; below them chart_axis.c,
 * chart_prim.c and chart_style.c; chart_dump.c dumps the result for the
 * tests. No file below calls this one. */
#include "chart_layout.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart_layout_int.h"
#include "mem.h"
#include "timeconv.h"

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
        lay_geo_release(&p->geos[i]);
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
        lay_plot_geom(x, c, area, -1, &p->geos[0]);
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
        lay_plot_geom(x, c->panels[i], cell, (int)i, &p->geos[p->ngeo++]);
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
    char sub[COW_CHART_TEXT + 64], *buf;
    const cow_chart *tc = c->npanels ? c->panels[0] : c;

    lay_shorten(x, c->title, st->title_px, true, w, &buf);
    lay_add_text(l, x, COW_ROLE_TITLE, buf, st->title_px, true, st->text, m, y, HA_LEFT,
             VA_TOP, 0);
    free(buf);
    y += lay_line_h(x, st->title_px) + st->gap_px / 3;
    snprintf(sub, sizeof(sub), "%s", c->subtitle);
    if (tc->x.kind == COW_AXIS_TIME && tc->x.origin_us != 0) {
        char iso[40];
        time_format_iso(tc->x.origin_us, iso, sizeof(iso));
        note_add(sub, sizeof(sub), "t = 0 s at %s", iso);
    }
    if (sub[0]) {
        lay_shorten(x, sub, st->subtitle_px, false, w, &buf);
        lay_add_text(l, x, COW_ROLE_SUBTITLE, buf, st->subtitle_px, false, st->muted, m, y,
                 HA_LEFT, VA_TOP, 0);
        free(buf);
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
    char *buf;
    size_t i, j;

    for (i = 0; i < p->ngeo; i++)
        lay_plot_shapes(l, x, &p->geos[i], (int)i);
    for (i = 0; i < p->ngeo; i++)
        emit_callouts(l, x, &p->geos[i], i == 0 && lg->n > 0 && p->inside ? &p->legend : NULL);
    for (i = 0; i < p->ngeo; i++)
        for (j = 0; j < p->geos[i].texts.n; j++) {
            lay_plist_add(l, &p->geos[i].texts.v[j]);
            p->geos[i].texts.v[j].text = NULL;   /* moved */
            p->geos[i].texts.v[j].pts = NULL;
        }
    if (lg->n > 0 && p->inside)
        lay_legend_emit_inside(l, x, lg, p->legend);
    else if (lg->n > 0)
        lay_legend_emit_strip(l, x, lg, p->legend);
    if (p->note[0]) {
        lay_shorten(x, p->note, st->note_px, false, x->w - 2 * st->margin_px, &buf);
        lay_add_text(l, x, COW_ROLE_NOTE, buf, st->note_px, false, st->muted, st->margin_px,
                 x->h - st->margin_px, HA_LEFT, VA_BOTTOM, 0);
        free(buf);
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
    for (i = 0; i < p.ngeo; i++) {
        out->plots[i] = p.geos[i].P;
        memset(&p.geos[i].P, 0, sizeof(p.geos[i].P));   /* tick labels moved */
    }
    out->has_legend = lg.n > 0;
    out->legend_inside = p.inside;
    out->legend = p.legend;
    plan_release(&p);
    lay_legend_release(&lg);
    return 0;
}

void chart_layout_release(cow_layout *l)
{
    if (l == NULL)
        return;
    for (size_t i = 0; i < l->nprims; i++)
        lay_prim_release(&l->prims[i]);
    for (size_t i = 0; i < l->nplots; i++) {
        lay_axis_release(&l->plots[i].x);
        lay_axis_release(&l->plots[i].y);
    }
    free(l->prims);
    free(l->plots);
    memset(l, 0, sizeof(*l));
}

