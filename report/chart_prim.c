/* chart_prim.c -- the display list: adding rectangles, paths, areas,
 * markers and measured text to a primitive list (chart_layout_int.h).
 * Calls chart_style.c for text metrics. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart_layout_int.h"
#include "mem.h"

/* ================= primitives ================= */

cow_prim *lay_plist_add(plist *l, const cow_prim *p)
{
    l->v = xgrow(l->v, sizeof(*l->v), l->n + 1, &l->cap);
    l->v[l->n] = *p;
    return &l->v[l->n++];
}

void lay_prim_release(cow_prim *p)
{
    free(p->pts);
    free(p->text);
    p->pts = NULL;
    p->text = NULL;
}

void lay_plist_release(plist *l)
{
    for (size_t i = 0; i < l->n; i++)
        lay_prim_release(&l->v[i]);
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
    lay_plist_add(l, &p);
}

/* A path or area over n (x, y) pairs copied from pts. */
void lay_add_poly(plist *l, int kind, int role, const double *pts, size_t n,
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
    lay_plist_add(l, &p);
}

void lay_add_line(plist *l, int role, double x0, double y0, double x1,
                         double y1, cow_rgba col, double lw, int dash, int clip)
{
    double pts[4] = {x0, y0, x1, y1};

    lay_add_poly(l, COW_PRIM_PATH, role, pts, 2, col, lw, dash, clip);
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
    lay_plist_add(l, &p);
}


/* A text prim whose anchor point (ha, va of the text box, before
 * rotation) lands on (ax, ay). box is the axis-aligned bounding box. */
cow_prim lay_text_prim(const lctx *x, int role, const char *s, double size,
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
    p.ext = lay_measure(x, s, size, bold);
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

void lay_prim_shift(cow_prim *p, double dx, double dy)
{
    p->x += dx, p->y += dy, p->box.x += dx, p->box.y += dy;
}

/* Move a text prim horizontally so its box lies within [lo, hi]. */
void lay_keep_within(cow_prim *p, double lo, double hi)
{
    if (p->box.x + p->box.w > hi)
        lay_prim_shift(p, hi - (p->box.x + p->box.w), 0);
    if (p->box.x < lo)
        lay_prim_shift(p, lo - p->box.x, 0);
}

void lay_add_text(plist *l, const lctx *x, int role, const char *s, double size,
                         bool bold, cow_rgba col, double ax, double ay, int ha, int va,
                         double angle)
{
    cow_prim p = lay_text_prim(x, role, s, size, bold, col, ax, ay, ha, va, angle);

    lay_plist_add(l, &p);
}

