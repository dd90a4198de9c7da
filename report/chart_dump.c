/* chart_dump.c -- a deterministic text dump of a layout (C locale
 * numbers, one element a line) for goldens, and the overlap check the
 * tests run on it. Not used when drawing. */
#include "chart_layout_int.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "mem.h"
#include "strbuf.h"

/* ================= dump and checks ================= */

static const char *role_name(int r)
{
    static const char *names[COW_ROLE_COUNT] = {
        "background", "plot_bg", "span", "grid", "series", "errbar", "mark", "axis",
        "tick", "bracket", "title", "subtitle", "panel_title", "axis_title",
        "tick_label", "cat_n", "span_label", "mark_label", "legend", "legend_text",
        "note", "callout", "callout_label"};
    return r >= 0 && r < COW_ROLE_COUNT ? names[r] : "?";
}

static void sb_rgba(cow_sbuf *b, const char *name, cow_rgba c)
{
    if (c.a <= 0)
        return;
    sbuf_add(b, " %s=#%02x%02x%02x%02x", name, (unsigned)lround(c.r * 255),
              (unsigned)lround(c.g * 255), (unsigned)lround(c.b * 255),
              (unsigned)lround(c.a * 255));
}

static void sb_pt(cow_sbuf *b, const double *p)
{
    if (isnan(p[0]))
        sbuf_add(b, " |");
    else
        sbuf_add(b, " %.1f,%.1f", p[0], p[1]);
}

static void dump_axis(cow_sbuf *b, const char *name, const cow_axis_layout *a)
{
    static const char *kinds[] = {"linear", "log10", "time", "pctl", "category"};
    static const char *fits[] = {"all", "thinned", "rotated", "shortened"};

    sbuf_add(b, "  %s %s range %.6g..%.6g px %.1f..%.1f fit=%s every=%d clamped=%zu\n",
              name, kinds[a->kind], a->lo, a->hi, a->p0, a->p1, fits[a->fit], a->every,
              a->nclamped);
    for (size_t i = 0; i < a->nticks; i++)
        sbuf_add(b, "    tick %.6g @%.1f%s \"%s\"%s\n", a->ticks[i].v, a->ticks[i].px,
                  a->ticks[i].major ? "" : " minor", a->ticks[i].label,
                  a->ticks[i].shown ? "" : " hidden");
}

static void dump_prim(cow_sbuf *b, const cow_prim *p)
{
    static const char *kinds[] = {"rect", "path", "area", "text", "marker"};

    sbuf_add(b, "%s %s", kinds[p->kind], role_name(p->role));
    if (p->clip)
        sbuf_add(b, " clip=%d", p->clip - 1);
    switch (p->kind) {
    case COW_PRIM_RECT:
        sbuf_add(b, " %.1f,%.1f %.1fx%.1f", p->box.x, p->box.y, p->box.w, p->box.h);
        break;
    case COW_PRIM_PATH:
    case COW_PRIM_AREA:
        sbuf_add(b, " n=%zu", p->npts);
        for (size_t i = 0; i < p->npts; i++) {
            if (i == 3 && p->npts > 5) {
                sbuf_add(b, " ...");
                i = p->npts - 2;
            }
            sb_pt(b, p->pts + 2 * i);
        }
        break;
    case COW_PRIM_TEXT:
        sbuf_add(b, " \"%s\" at %.1f,%.1f size=%.1f%s angle=%g box %.1f,%.1f %.1fx%.1f",
                  p->text, p->x, p->y, p->size, p->bold ? " bold" : "", p->angle,
                  p->box.x, p->box.y, p->box.w, p->box.h);
        break;
    case COW_PRIM_MARKER:
        sbuf_add(b, " shape=%d at %.1f,%.1f d=%.1f", p->shape, p->x, p->y, p->size);
        break;
    }
    if (p->lw > 0)
        sbuf_add(b, " lw=%.2f", p->lw);
    if (p->dash)
        sbuf_add(b, " dashed");
    sb_rgba(b, "fill", p->fill);
    sb_rgba(b, p->kind == COW_PRIM_TEXT ? "color" : "stroke", p->stroke);
    sbuf_add(b, "\n");
}

char *chart_layout_dump(const cow_layout *l)
{
    cow_sbuf b = {NULL, 0, 0};
    size_t i;

    sbuf_add(&b, "canvas %.0fx%.0f plots=%zu prims=%zu\n", l->w, l->h, l->nplots,
              l->nprims);
    for (i = 0; i < l->nplots; i++) {
        const cow_plot_layout *P = &l->plots[i];
        sbuf_add(&b, "plot %zu panel=%d rect %.1f,%.1f %.1fx%.1f dropped=%zu\n", i,
                  P->panel, P->rect.x, P->rect.y, P->rect.w, P->rect.h, P->ndropped);
        dump_axis(&b, "x", &P->x);
        dump_axis(&b, "y", &P->y);
    }
    if (l->has_legend)
        sbuf_add(&b, "legend %s %.1f,%.1f %.1fx%.1f\n", l->legend_inside ? "inside" : "strip",
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

