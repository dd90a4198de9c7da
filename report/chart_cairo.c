/* chart_cairo.c -- draws a cow_layout with cairo; nothing is decided here.
 *
 * Exports chart_draw_cairo() and chart_cairo_font() (chart_cairo.h). */
#include "visible.h"
#include "chart_cairo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "label.h"
#include "text.h"

static void set_rgba(cairo_t *cr, cow_rgba c)
{
    cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a);
}

void chart_cairo_font(cairo_t *cr, const cow_style *st, double size_px, int bold)
{
    cairo_select_font_face(cr, st->font, CAIRO_FONT_SLANT_NORMAL,
                           bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, size_px);
}

static void stroke_style(cairo_t *cr, const cow_prim *p)
{
    double dash[2] = {p->lw * 3, p->lw * 2};

    cairo_set_line_width(cr, p->lw);
    cairo_set_dash(cr, dash, p->dash ? 2 : 0, 0);
}

/* Path through pts; a NaN pair lifts the pen. */
static void trace(cairo_t *cr, const cow_prim *p)
{
    int pen = 0;

    for (size_t i = 0; i < p->npts; i++) {
        double x = p->pts[2 * i], y = p->pts[2 * i + 1];
        if (isnan(x) || isnan(y)) {
            pen = 0;
            continue;
        }
        if (pen)
            cairo_line_to(cr, x, y);
        else
            cairo_move_to(cr, x, y);
        pen = 1;
    }
}

static void fill_stroke(cairo_t *cr, const cow_prim *p)
{
    if (p->fill.a > 0) {
        set_rgba(cr, p->fill);
        if (p->stroke.a > 0 && p->lw > 0)
            cairo_fill_preserve(cr);
        else
            cairo_fill(cr);
    }
    if (p->stroke.a > 0 && p->lw > 0) {
        set_rgba(cr, p->stroke);
        stroke_style(cr, p);
        cairo_stroke(cr);
    }
    cairo_new_path(cr);
}

static void marker_path(cairo_t *cr, const cow_prim *p)
{
    double r = p->size / 2, x = p->x, y = p->y;

    switch (p->shape) {
    case COW_MARKER_SQUARE:
        cairo_rectangle(cr, x - r * 0.85, y - r * 0.85, r * 1.7, r * 1.7);
        break;
    case COW_MARKER_TRIANGLE:
        cairo_move_to(cr, x, y - r * 1.1);
        cairo_line_to(cr, x + r, y + r * 0.75);
        cairo_line_to(cr, x - r, y + r * 0.75);
        cairo_close_path(cr);
        break;
    case COW_MARKER_DIAMOND:
        cairo_move_to(cr, x, y - r * 1.15);
        cairo_line_to(cr, x + r, y);
        cairo_line_to(cr, x, y + r * 1.15);
        cairo_line_to(cr, x - r, y);
        cairo_close_path(cr);
        break;
    case COW_MARKER_CROSS:
        cairo_rectangle(cr, x - r, y - r * 0.3, 2 * r, r * 0.6);
        cairo_rectangle(cr, x - r * 0.3, y - r, r * 0.6, 2 * r);
        break;
    case COW_MARKER_AUTO:
    case COW_MARKER_CIRCLE:
    default:
        cairo_arc(cr, x, y, r, 0, 2 * M_PI);
        break;
    }
}

static void draw_text(cairo_t *cr, const cow_prim *p, const cow_style *st)
{
    cairo_save(cr);
    chart_cairo_font(cr, st, p->size, p->bold);
    set_rgba(cr, p->stroke);
    cairo_translate(cr, p->x, p->y);
    if (p->angle != 0)
        cairo_rotate(cr, p->angle * M_PI / 180.0);
    cairo_move_to(cr, 0, 0);
    if (text_is_utf8(p->text, strlen(p->text))) {
        cairo_show_text(cr, p->text);
    } else { /* cairo refuses invalid UTF-8 (and fails the whole chart) */
        char *safe = report_visible(p->text, COW_LABEL_XLSX);
        cairo_show_text(cr, safe);
        free(safe);
    }
    cairo_new_path(cr);   /* show_text leaves a current point behind */
    cairo_restore(cr);
}

static void draw_prim(cairo_t *cr, const cow_layout *l, const cow_prim *p,
                      const cow_style *st)
{
    if (p->clip > 0 && (size_t)p->clip <= l->nplots) {
        const cow_box *r = &l->plots[p->clip - 1].rect;
        cairo_save(cr);
        cairo_rectangle(cr, r->x, r->y, r->w, r->h);
        cairo_clip(cr);
    }
    /* A fresh path: cairo_arc would otherwise join the previous point. */
    cairo_new_path(cr);
    switch (p->kind) {
    case COW_PRIM_RECT:
        cairo_rectangle(cr, p->box.x, p->box.y, p->box.w, p->box.h);
        fill_stroke(cr, p);
        break;
    case COW_PRIM_PATH:
        trace(cr, p);
        fill_stroke(cr, p);
        break;
    case COW_PRIM_AREA:
        trace(cr, p);
        cairo_close_path(cr);
        fill_stroke(cr, p);
        break;
    case COW_PRIM_MARKER:
        marker_path(cr, p);
        fill_stroke(cr, p);
        break;
    case COW_PRIM_TEXT:
        draw_text(cr, p, st);
        break;
    }
    if (p->clip > 0 && (size_t)p->clip <= l->nplots)
        cairo_restore(cr);
}

cairo_status_t chart_draw_cairo(const cow_layout *l, const cow_style *st, cairo_t *cr)
{
    cairo_save(cr);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    for (size_t i = 0; i < l->nprims && cairo_status(cr) == CAIRO_STATUS_SUCCESS; i++)
        draw_prim(cr, l, &l->prims[i], st);
    cairo_restore(cr);
    return cairo_status(cr);
}
