/* chart_layout.h -- from a cow_chart to positioned primitives, in pixels.
 *
 * The middle chart layer: pure (no cairo, no I/O, no globals). Text is
 * measured through a callback so tests use chart_measure_fake() (fixed
 * width per character) and goldens do not depend on installed fonts.
 *
 *     cow_style st;  cow_layout L;
 *     chart_style_defaults(&st, 1.0);                 every visual choice
 *     if (chart_layout_build(c, &st, 1600, 900, chart_measure_fake, NULL, &L, e))
 *         return e->code;                             not drawable, too small
 *     char *dump = chart_layout_dump(&L);             golden text; free()
 *     chart_layout_release(&L);
 *
 * Result: L.prims is a display list in drawing order (background, spans,
 * grid, series, marks, axes, text, legend) with colours, line widths and
 * font sizes already resolved from the style, so drawing is a loop of
 * cairo calls. L.plots describes each plot rectangle and its axes (ranges,
 * ticks, which tick labels are shown and how they were fitted).
 *
 * Layout rules (the contract the goldens pin):
 * - Canvas, top to bottom: margin, title, subtitle (+ the TIME origin in
 *   UTC), legend strip when the legend cannot sit inside the plot, then
 *   the plot cell(s), then one footnote line (the chart note plus what the
 *   layout had to hide: clamped log values, dropped labels, skipped panels).
 * - A plot cell, top to bottom: panel title, a lane of span/mark labels
 *   above the plot so they never cover data, the plot, x tick labels, "n="
 *   line, x axis title. Left: y axis title (rotated), y tick labels.
 * - The lane: a span's label sits on a bracket in the span's colour drawn
 *   over the span's extent (the plot itself is shaded); a mark's label
 *   sits over a dashed connector down to the plot. Rows are filled greedy
 *   left to right, lowest row first, at most style.lane_rows; an item fits
 *   a row when its label and bracket clear the row's items by gap_px and
 *   no connector crosses its label, and a mark's connector crosses no
 *   label in a lower row. A label that fits no row is dropped and counted
 *   in the footnote.
 * - Ranges: LINEAR pads 3% away from the data (never across 0) and
 *   extends to the outer nice ticks unless that adds more than 10% of the
 *   span on that side (then the ticks stay inside). TIME is
 *   tight to the data (and spans/marks), snapped to an outer tick within
 *   2% of the span. LOG10 pads 3% of the log span and
 *   ticks stay inside it. PCTL runs from the smallest q to the next "nines"
 *   tick above the largest q < 1. CATEGORY is -0.5..ncats-0.5; on the y
 *   axis category 0 is at the top. has_range overrides data ranges.
 * - Log axes: values <= 0 (LOG10) or q >= 1 (PCTL) are drawn at the low
 *   (resp. high) edge of the axis and counted in the footnote.
 * - Ticks: 1-2-5 steps (chart_nice_ticks); LOG10 decades, with 2 and 5
 *   labelled when the range holds fewer than 3 decade ticks; PCTL labels
 *   0%, 50%, 90%, 99%, 99.9%, ... Tick labels are plain numbers (k/M for
 *   thousands/millions), the unit is in the axis title "label (unit)".
 * - Tick label collisions (overlap or less than half an em apart), in this
 *   order: LOG10 drops 2/5 labels, PCTL drops 50%; then numeric axes show
 *   every k-th label (k = 2, 3, ...). Category x labels rotate 45 degrees,
 *   are shortened with an ellipsis to style.cat_label_max_px, and are
 *   thinned only if still crowded. Category y labels are shortened.
 * - Legend: entries for named series (a points series with states gives
 *   "pass"/"fail" entries). Placed inside the plot at the first corner
 *   (top right, top left, bottom right, bottom left) whose box covers no
 *   data; otherwise in a strip above the plot. Panel charts: always strip.
 *
 * Ownership: chart_layout_release() frees everything in a cow_layout
 * (safe on a zeroed or released one). Strings returned by
 * chart_layout_dump() are the caller's to free(). */
#ifndef COW_REPORT_CHART_LAYOUT_H
#define COW_REPORT_CHART_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>

#include "chart_data.h"
#include "err.h"

typedef struct cow_rgba {
    double r, g, b, a;  /* 0..1 each; a == 0 means "none" */
} cow_rgba;

typedef struct cow_box {
    double x, y;        /* top-left corner, pixels from canvas top-left */
    double w, h;        /* size in pixels */
} cow_box;

#define COW_PALETTE_MAX 8
#define COW_SPAN_COLORS 6 /* orange, green, purple, grey, vermillion, blue */

/* Every visual choice; sizes are pixels at the chosen scale. */
typedef struct cow_style {
    double scale;            /* 1 = 1600x900, 2 = high DPI (all sizes x2) */
    char font[64];           /* font family for all text */
    double title_px;         /* chart title (bold) */
    double subtitle_px;      /* subtitle line */
    double panel_title_px;   /* small-multiple titles (bold) */
    double label_px;         /* axis titles */
    double tick_px;          /* tick labels */
    double legend_px;        /* legend text */
    double annot_px;         /* span/mark labels, "n=" */
    double note_px;          /* footnote */
    double margin_px;        /* canvas edge to content */
    double gap_px;           /* between stacked blocks */
    double tick_len_px;      /* tick mark length */
    double xtick_spacing_px; /* wanted distance between x ticks */
    double ytick_spacing_px; /* wanted distance between y ticks */
    double line_px;          /* series lines */
    double axis_px;          /* axis lines and ticks */
    double grid_px;          /* grid lines */
    double mark_px;          /* vertical mark lines */
    double bracket_px;       /* span brackets in the label lane */
    double marker_px;        /* marker diameter */
    double errbar_px;        /* error bars and whiskers */
    double cap_px;           /* half width of whisker caps */
    double swatch_px;        /* legend swatch length */
    double legend_pad_px;    /* inside the legend box */
    double cat_label_max_px; /* category labels are shortened to this */
    int lane_rows;           /* rows for span/mark labels above a plot */
    double band_alpha;       /* BAND fill opacity */
    double span_alpha;       /* span shading opacity */
    double thin_alpha;       /* pale bars (too few samples) */
    cow_rgba background;     /* canvas */
    cow_rgba plot_bg;        /* inside the plot rectangle */
    cow_rgba text;           /* titles, labels */
    cow_rgba muted;          /* subtitle, footnote, "n=" */
    cow_rgba grid;           /* grid lines */
    cow_rgba axis;           /* axis lines and tick marks */
    cow_rgba mark;           /* vertical marks */
    cow_rgba legend_bg;      /* legend box fill */
    cow_rgba pass, fail;     /* point states */
    cow_rgba palette[COW_PALETTE_MAX]; /* series colours (Okabe-Ito) */
    size_t npalette;         /* used entries of palette */
    cow_rgba span_palette[COW_SPAN_COLORS]; /* span colours (cow_span.color
                                indexes this; shaded at span_alpha) */
} cow_style;

/* Fill st with the defaults at a scale (1 or 2; <= 0 means 1). */
void chart_style_defaults(cow_style *st, double scale);

/* Text metrics: advance width and the font's ascent/descent. */
typedef struct cow_text_ext {
    double w;        /* advance width in pixels */
    double ascent;   /* above the baseline */
    double descent;  /* below the baseline (positive) */
} cow_text_ext;

typedef void (*cow_measure_fn)(void *ctx, const char *utf8, double size_px,
                               bool bold, cow_text_ext *out);

/* Fake metrics for tests: 0.6 em per code point (bold 0.65), ascent 0.8
 * em, descent 0.2 em. ctx is unused. */
void chart_measure_fake(void *ctx, const char *utf8, double size_px, bool bold,
                        cow_text_ext *out);

/* What a primitive is for (dumps and tests use it; drawing does not). */
enum cow_role {
    COW_ROLE_BACKGROUND = 0, COW_ROLE_PLOT_BG, COW_ROLE_SPAN, COW_ROLE_GRID,
    COW_ROLE_SERIES, COW_ROLE_ERRBAR, COW_ROLE_MARK, COW_ROLE_AXIS,
    COW_ROLE_TICK, COW_ROLE_BRACKET, COW_ROLE_TITLE, COW_ROLE_SUBTITLE,
    COW_ROLE_PANEL_TITLE, COW_ROLE_AXIS_TITLE, COW_ROLE_TICK_LABEL,
    COW_ROLE_CAT_N, COW_ROLE_SPAN_LABEL, COW_ROLE_MARK_LABEL, COW_ROLE_LEGEND,
    COW_ROLE_LEGEND_TEXT, COW_ROLE_NOTE, COW_ROLE_CALLOUT, COW_ROLE_CALLOUT_LABEL,
    COW_ROLE_COUNT
};

enum cow_prim_kind {
    COW_PRIM_RECT = 0, /* box, filled and/or stroked */
    COW_PRIM_PATH,     /* polyline through pts; a NaN pair starts a new piece */
    COW_PRIM_AREA,     /* closed filled polygon through pts */
    COW_PRIM_TEXT,     /* one line of text */
    COW_PRIM_MARKER    /* a marker shape centred at (x, y) */
};

typedef struct cow_prim {
    int kind;          /* enum cow_prim_kind */
    int role;          /* enum cow_role */
    int clip;          /* 0, or 1 + index in plots: clip to that plot rect */
    cow_rgba fill;     /* RECT/AREA/MARKER fill; a == 0: no fill */
    cow_rgba stroke;   /* RECT/PATH/MARKER outline, TEXT colour */
    double lw;         /* stroke width in pixels */
    int dash;          /* 0 solid, 1 dashed */
    cow_box box;       /* RECT: itself; TEXT/MARKER: bounding box */
    double *pts;       /* PATH/AREA: x0,y0,x1,y1,... (owned) */
    size_t npts;       /* number of (x, y) pairs */
    char *text;        /* TEXT: UTF-8 (owned) */
    double x, y;       /* TEXT: baseline start before rotation; MARKER: centre */
    double size;       /* TEXT: font size; MARKER: diameter */
    double angle;      /* TEXT: degrees, clockwise about (x, y) */
    bool bold;         /* TEXT: bold face */
    cow_text_ext ext;  /* TEXT: measured metrics (for overlap checks) */
    int shape;         /* MARKER: enum cow_marker (never AUTO) */
} cow_prim;

#define COW_MAX_TICKS 128 /* also the most categories that get a label */

typedef struct cow_tick {
    double v;          /* data value (q on PCTL, index on CATEGORY) */
    double px;         /* pixel position along the axis */
    bool major;        /* grid line and long tick */
    bool shown;        /* label drawn (false: dropped to avoid overlap) */
    char *label;       /* label text (possibly shortened; owned by the layout) */
} cow_tick;

/* How tick labels were made to fit. */
enum cow_fit {
    COW_FIT_ALL = 0,   /* every label as is */
    COW_FIT_THINNED,   /* every k-th label (or minor labels dropped) */
    COW_FIT_ROTATED,   /* category labels at 45 degrees */
    COW_FIT_SHORTENED  /* some labels end in an ellipsis (may also rotate) */
};

typedef struct cow_axis_layout {
    int kind;          /* enum cow_axis_kind */
    double lo, hi;     /* shown range in data units */
    double tlo, thi;   /* the same after the axis transform */
    double p0, p1;     /* pixels of tlo and thi */
    cow_tick ticks[COW_MAX_TICKS]; /* in value order */
    size_t nticks;     /* used entries of ticks */
    int fit;           /* enum cow_fit */
    int every;         /* 1 = all labels, k = one in k */
    bool rotated;      /* labels drawn at 45 degrees */
    size_t nclamped;   /* values drawn at the edge (see header comment) */
} cow_axis_layout;

typedef struct cow_plot_layout {
    cow_box rect;          /* the plot rectangle */
    cow_axis_layout x, y;  /* its axes */
    int panel;             /* panel index, -1 for a single-plot chart */
    size_t ndropped;       /* span/mark labels that fitted no lane row */
} cow_plot_layout;

typedef struct cow_layout {
    double w, h;           /* canvas size */
    cow_plot_layout *plots;/* one per drawn plot */
    size_t nplots;         /* used entries of plots */
    bool has_legend;       /* a legend was laid out */
    bool legend_inside;    /* inside a plot corner (else a strip) */
    cow_box legend;        /* legend box */
    cow_prim *prims;       /* display list in drawing order */
    size_t nprims, cap_prims; /* used / allocated */
} cow_layout;

/* Lay out c on a w x h canvas. out is overwritten (release it after, also
 * after a failure). Errors: COW_EUSAGE when the chart is not drawable
 * (message = chart_is_drawable's reason) or the canvas is smaller than
 * 320x200 pixels at the style's scale. */
int chart_layout_build(const cow_chart *c, const cow_style *st, double w, double h,
                       cow_measure_fn measure, void *mctx, cow_layout *out,
                       cow_err *e);
void chart_layout_release(cow_layout *l);

/* Deterministic text dump (C locale numbers, one element a line, paths
 * abbreviated to count, first and last points). Caller frees. */
char *chart_layout_dump(const cow_layout *l);

/* Number of pairs of TEXT prims whose boxes intersect (0 for a good
 * layout; tests assert it). */
size_t chart_layout_text_overlaps(const cow_layout *l);

/* ---------- ticks (exported for tests) ---------- */

/* Nice 1-2-5 ticks covering [lo, hi]: the first tick <= lo, the last >= hi,
 * step the {1,2,5}x10^k nearest to (hi - lo) / target on a log scale.
 * Writes at most max values; returns how many; *step gets the step. */
size_t chart_nice_ticks(double lo, double hi, size_t target, double *out,
                        size_t max, double *step);
/* Log ticks inside [lo, hi] (lo > 0): decades, plus 2x and 5x (major =
 * false) when fewer than 3 decades fall inside. Returns the count. */
size_t chart_log_ticks(double lo, double hi, double *out, bool *major, size_t max);
/* Percentile-axis ticks inside q in [qlo, qhi]: 0, .5, .9, .99, ... */
size_t chart_pctl_ticks(double qlo, double qhi, double *out, size_t max);
/* Label text of a tick value: kind is enum cow_axis_kind; step is the
 * tick step (LINEAR/TIME) and scale_max the largest |value| on the axis
 * (picks k/M). Writes "" for CATEGORY. */
void chart_format_tick(int kind, double v, double step, double scale_max,
                       char *out, size_t n);

#endif
