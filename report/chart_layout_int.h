/* chart_layout_int.h -- what the layout's files share and nobody else
 * sees: the layout context, the primitive list, one plot's geometry, the
 * legend, and the functions that cross files. From the bottom up, each
 * file calling only those above it in this list:
 *   chart_style.c   style, text metrics, series colours and markers
 *   chart_prim.c    the primitive list
 *   chart_axis.c    ticks, ranges and label fitting
 *   chart_plot.c    one plot: geometry, texts, shapes
 *   chart_legend.c  the legend
 *   chart_layout.c  the whole chart (chart_layout_build)
 *   chart_dump.c    the text dump and overlap check the tests use. */
#ifndef COW_REPORT_CHART_LAYOUT_INT_H
#define COW_REPORT_CHART_LAYOUT_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "chart_layout.h"

#define PI 3.14159265358979323846
#define SQRT_HALF 0.70710678118654752440

/* Text anchors of lay_add_text. */
enum { HA_LEFT, HA_CENTER, HA_RIGHT };
enum { VA_TOP, VA_MIDDLE, VA_BASELINE, VA_BOTTOM };

/* Everything a layout step needs besides the chart. */
typedef struct lctx {
    const cow_style *st;  /* visual choices */
    cow_measure_fn fn;    /* text metrics */
    void *mctx;           /* its context */
    double w, h;          /* canvas */
} lctx;

typedef struct plist {
    cow_prim *v;        /* prims */
    size_t n, cap;      /* used / allocated */
} plist;

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

typedef struct legend_entry {
    char *text;                 /* label (owned; shortened to the canvas) */
    int kind;                   /* LE_* swatch */
    cow_rgba color;             /* swatch colour */
    int shape;                  /* LE_MARKER shape */
} legend_entry;

#define LEGEND_MAX 24

typedef struct legend {
    legend_entry e[LEGEND_MAX];  /* entries */
    size_t n;                    /* count */
    double row_h, item_w[LEGEND_MAX]; /* row height, width of each item */
} legend;

/* 1 when two boxes overlap. */
static inline bool boxes_meet(cow_box a, cow_box b)
{
    return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/* chart_style.c: text metrics, series styles */
cow_text_ext lay_measure(const lctx *x, const char *s, double size, bool bold);
double lay_line_h(const lctx *x, double size);
double lay_text_w(const lctx *x, const char *s, double size, bool bold);
/* *out = a copy of s (made by chart_text), cut to measure at most maxw;
 * the caller frees it. Returns true when it had to cut. */
bool lay_shorten(const lctx *x, const char *s, double size, bool bold,
                        double maxw, char **out);
cow_rgba lay_series_colour(const cow_style *st, const cow_chart *c, size_t si);
cow_rgba lay_with_alpha(cow_rgba c, double a);
int lay_series_marker(const cow_chart *c, size_t si);

/* chart_prim.c: the primitive list */
cow_prim *lay_plist_add(plist *l, const cow_prim *p);
void lay_prim_release(cow_prim *p);
void lay_plist_release(plist *l);
/* A text primitive, measured and anchored (not yet in a list). */
cow_prim lay_text_prim(const lctx *x, int role, const char *s, double size, bool bold,
                       cow_rgba col, double ax, double ay, int ha, int va, double angle);
void lay_prim_shift(cow_prim *p, double dx, double dy);
/* Move p along x so its box lies within [lo, hi] (when it fits). */
void lay_keep_within(cow_prim *p, double lo, double hi);
void lay_add_poly(plist *l, int kind, int role, const double *pts, size_t n, cow_rgba col,
                  double lw, int dash, int clip);
void lay_add_line(plist *l, int role, double x0, double y0, double x1,
                         double y1, cow_rgba col, double lw, int dash, int clip);
void lay_add_rect(plist *l, int role, cow_box b, cow_rgba fill, cow_rgba stroke,
                         double lw, int clip);
void lay_add_marker(plist *l, int role, double x, double y, double d,
                           int shape, cow_rgba fill, cow_rgba stroke, int clip);
void lay_add_text(plist *l, const lctx *x, int role, const char *s, double size,
                         bool bold, cow_rgba col, double ax, double ay, int ha, int va,
                         double angle);

/* chart_plot.c: one plot */
void lay_geo_release(geo *g);
void lay_plot_geom(const lctx *x, const cow_chart *c, cow_box cell, int panel, geo *g);
void lay_plot_shapes(plist *l, const lctx *x, const geo *g, int pi);
double lay_bar_base(const geo *g);
void lay_bar_span(const cow_chart *c, size_t si, size_t k, double *x0, double *x1);

/* chart_axis.c: ranges, ticks, tick label fitting */
void lay_fit_x_category(const lctx *x, cow_axis_layout *a, double cell_x);
void lay_fit_numeric(cow_axis_layout *a, const double *lo, const double *hi,
                            double gap);
bool lay_spaced(const cow_axis_layout *a, const double *lo, const double *hi,
                       double gap);
void lay_thin_every(cow_axis_layout *a, const double *lo, const double *hi,
                           double gap);
double lay_ax_px(const cow_axis_layout *a, double v);
void lay_axis_range(const cow_chart *c, bool on_x, double len_px,
                           double spacing, cow_axis_layout *al);
void lay_axis_place(cow_axis_layout *a, double p0, double p1);
/* Free the tick labels of a (zeroed or filled by lay_axis_range). */
void lay_axis_release(cow_axis_layout *a);
bool lay_series_valid(const cow_series *s);

/* chart_legend.c: entries, size, placement, primitives */
int lay_legend_strip_rows(const lctx *x, const legend *lg, double w);
bool lay_legend_inside(const lctx *x, const geo *g, const legend *lg, cow_box *out);
void lay_legend_emit_inside(plist *l, const lctx *x, const legend *lg, cow_box b);
void lay_legend_emit_strip(plist *l, const lctx *x, const legend *lg, cow_box b);
void lay_legend_of(const cow_style *st, const cow_chart *c, legend_entry *v, size_t *n);
void lay_legend_measure(const lctx *x, legend *lg);
void lay_legend_release(legend *lg);

#endif
