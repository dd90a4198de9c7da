/* chart_data.h -- what a chart shows, as plain numbers and strings.
 *
 * The first of the three chart layers (data -> layout -> drawing). Nothing
 * here knows about pixels, fonts or cairo; the layout (chart_layout.h) turns
 * a cow_chart into positioned primitives and chart_cairo.h draws them.
 *
 *     cow_chart *c = chart_new("Latency during BGSAVE");
 *     chart_axis_set(&c->x, COW_AXIS_TIME, "time", "s");
 *     c->x.origin_us = run_start_us;                 shown in the subtitle
 *     chart_add_band(c, "min-max per pixel", x, lo, hi, n);
 *     chart_add_span(c, 2.0, 5.1, "BGSAVE");
 *     if (!chart_is_drawable(c, why, sizeof why)) skip, say why in the summary
 *     chart_free(c);
 *
 * Ownership: a cow_chart owns everything hung on it. chart_add_* copy the
 * caller's arrays and strings, so the caller keeps (and frees) its own.
 * Titles, names and labels are heap strings of any length, never NULL once
 * set by the builders; change one with chart_text_replace(). Panels returned
 * by chart_add_panel() belong to the parent and are freed with it.
 * chart_free(NULL) is a no-op. Out of memory aborts (mem.h).
 *
 * Error bars: a POINTS series' y error with only lo finite (hi NaN) is a
 * one-sided bound, "at least lo": drawn from lo up to the plot's top with
 * an open arrow; only hi finite, down to the bottom. A lone point with no
 * finite bound gets no whisker.
 *
 * Value conventions:
 * - x and y are in the axis' data unit: seconds from x.origin_us on a
 *   COW_AXIS_TIME axis, the quantile level q in [0,1) on a COW_AXIS_PCTL
 *   axis (q = 0.999 is "99.9%"), the category index 0..ncats-1 on a
 *   COW_AXIS_CATEGORY axis, plain values otherwise.
 * - NaN in y (or lo/hi) is a gap: lines break there, points are skipped.
 * - On log axes (LOG10, and PCTL which is log of 1/(1-q)) a value that
 *   cannot be shown (<= 0 on LOG10, q >= 1 on PCTL) is drawn at the axis
 *   edge and counted; the layout adds a footnote saying how many.
 *
 * Chart kinds the report uses (app/report_chartbuild.c builds the per-run
 * ones; docs/gallery/ shows one of each):
 *  1 timeline: TIME x, band (per-column min/max from chart_reduce_columns,
 *    opaque) + line (the p99 of a trailing span) + points (the slowest
 *    samples), spans for phases and fork durations, marks for forks, a
 *    callout on the worst sample.
 *  2 window against baseline: CATEGORY x (p50..p99.9), LOG10 y, one points
 *    series per phase with y error (one-sided bounds as arrows).
 *  3 percentile distribution: PCTL x, one line per phase or scenario.
 *  4 memory during a save: TIME x, the series in MB, spans and marks;
 *    by mode: linear x (s from save start), lines.
 *  5 replica syncs: CATEGORY y (attempts), a segment series per step.
 *  6 trade-off panel: panels, each a CATEGORY-x chart with points + y error.
 *  7 forkless progress: panels sharing a time x.
 *  8 fleet: CATEGORY y (runs sorted), points with x error, state pass/fail,
 *    a mark at the threshold.
 *  9 reported spectrum: PCTL x, at most eight lines a chart. */
#ifndef COW_REPORT_CHART_DATA_H
#define COW_REPORT_CHART_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"

/* How an axis maps data to position. */
enum cow_axis_kind {
    COW_AXIS_LINEAR = 0, /* nice 1-2-5 ticks, range extended to them */
    COW_AXIS_LOG10,      /* decades (1-2-5 inside when few decades) */
    COW_AXIS_TIME,       /* seconds from origin_us; tight range, 1-2-5 s */
    COW_AXIS_PCTL,       /* q, placed at log10(1/(1-q)): 50%, 90%, 99%... */
    COW_AXIS_CATEGORY    /* chart categories at 0..ncats-1 */
};

/* What a series draws. */
enum cow_series_kind {
    COW_SERIES_LINE = 0, /* polyline through (x[i], y[i]) */
    COW_SERIES_BAND,     /* filled area between lo[i] and hi[i] at x[i] */
    COW_SERIES_POINTS,   /* markers at (x[i], y[i]), optional error bars */
    COW_SERIES_BARS      /* one bar per category: y[c], whisker lo[c]..hi[c] */
};

/* Per-point state of a points series (fleet view colours). */
enum cow_point_state {
    COW_STATE_NONE = 0, /* series colour */
    COW_STATE_PASS,     /* passed its threshold */
    COW_STATE_FAIL      /* failed its threshold */
};

/* Marker shapes; distinct shapes keep series apart without colour. */
enum cow_marker {
    COW_MARKER_AUTO = 0, /* by series index */
    COW_MARKER_CIRCLE,
    COW_MARKER_SQUARE,
    COW_MARKER_TRIANGLE,
    COW_MARKER_DIAMOND,
    COW_MARKER_CROSS
};

#define COW_CHART_TEXT 160   /* bytes for the subtitle and the footnote */
#define COW_CHART_NAME 64    /* bytes a tick label or a short name is built in */

typedef struct cow_axis {
    int kind;                    /* enum cow_axis_kind */
    char *label;                 /* what is measured, e.g. "latency" (owned) */
    char unit[24];               /* e.g. "ms"; shown as "latency (ms)" */
    int64_t origin_us;           /* TIME: UTC epoch us of x = 0 (subtitle) */
    bool has_range;              /* use min/max below instead of data */
    double min, max;             /* fixed range (data units) if has_range */
    bool include_zero;           /* LINEAR: range always contains 0 */
} cow_axis;

typedef struct cow_series {
    int kind;                    /* enum cow_series_kind */
    char *name;                  /* legend text (owned); "" keeps it out of the legend */
    int color;                   /* palette index; -1 = by series order */
    int marker;                  /* enum cow_marker for POINTS */
    bool dashed;                 /* LINE: dashed stroke */
    size_t n;                    /* points (BARS: equals chart ncats) */
    double *x;                   /* n x values; NULL for BARS */
    double *y;                   /* n values; NULL for BAND */
    double *lo, *hi;             /* BAND edges / BARS whiskers / POINTS y err; or NULL */
    double *xlo, *xhi;           /* POINTS x error bars, or NULL */
    unsigned char *state;        /* POINTS: enum cow_point_state per point, or NULL */
    unsigned char *thin;         /* BARS: 1 = too few samples beyond q (drawn pale) */
    double alpha;                /* BAND: fill opacity; 0 = the style's band_alpha */
    bool segment;                /* POINTS: a bar from xlo to xhi at y (a step of
                                    a replica sync), no marker */
} cow_series;

/* A shaded x range: a phase window such as "BGSAVE". */
typedef struct cow_span {
    double x0, x1;               /* data units, x0 <= x1 */
    char *label;                 /* drawn above the plot, never over data (owned) */
    int color;                   /* style span_palette index; -1 = by span order */
} cow_span;

/* A vertical line at an instant: a fork, a threshold. */
typedef struct cow_mark {
    double x;                    /* data units */
    char *label;                 /* drawn above the plot; "" for none (owned) */
} cow_mark;

/* A labelled point drawn over the data: the run's worst sample. The label
 * sits beside the point inside the plot, on a box that keeps it legible
 * over the series. */
typedef struct cow_callout {
    double x, y;                 /* data units */
    char *label;                 /* e.g. "worst 75.1 ms at 3.412 s" (owned) */
} cow_callout;

typedef struct cow_category {
    char *label;                 /* tick label on the category axis (owned) */
    long n;                      /* sample count shown as "n=..."; -1 none */
} cow_category;

typedef struct cow_chart {
    char *title;                   /* first line, bold (owned) */
    char subtitle[COW_CHART_TEXT]; /* second line; TIME origin is appended */
    char note[COW_CHART_TEXT];     /* footnote under the x axis, "" for none */
    cow_axis x, y;                 /* the two axes */
    cow_series *series;            /* drawn in order (first is at the back) */
    size_t nseries, cap_series;    /* used / allocated */
    cow_span *spans;               /* shaded windows */
    size_t nspans, cap_spans;      /* used / allocated */
    cow_mark *marks;               /* vertical marks */
    size_t nmarks, cap_marks;      /* used / allocated */
    cow_callout *callouts;         /* labelled points */
    size_t ncallouts, cap_callouts;/* used / allocated */
    cow_category *cats;            /* categories for a CATEGORY axis */
    size_t ncats, cap_cats;        /* used / allocated */
    struct cow_chart **panels;     /* small multiples; when npanels > 0 the
                                      chart's own axes and series are unused */
    size_t npanels, cap_panels;    /* used / allocated */
    int panel_cols;                /* grid columns for panels; 0 = auto */
    bool legend;                   /* show a legend (default true) */
} cow_chart;

/* ---------- building ---------- */

/* New empty chart with a title (kept whole); free with chart_free(). */
cow_chart *chart_new(const char *title);
void chart_free(cow_chart *c);

/* Copy s into a fixed text field of size n, truncating on a UTF-8
 * boundary (the subtitle, the note, the unit). */
void chart_set_text(char *dst, size_t n, const char *s);
/* A whole copy of s (NULL = "") made safe to draw and to write into chart
 * XML; the caller frees it. */
char *chart_text(const char *s);
/* Replace the owned text *dst (a title, name or label above) with a copy
 * of s made by chart_text(); the old text is freed. */
void chart_text_replace(char **dst, const char *s);

/* Set kind, label and unit of an axis (label/unit may be NULL = ""). */
void chart_axis_set(cow_axis *a, int kind, const char *label, const char *unit);

/* Add series; arrays are copied (lo/hi/x may be NULL where the comment
 * allows). The returned pointer stays valid until the next chart_add_* on
 * the same chart: set its optional fields right away. */
cow_series *chart_add_line(cow_chart *c, const char *name, const double *x,
                           const double *y, size_t n);
cow_series *chart_add_band(cow_chart *c, const char *name, const double *x,
                           const double *lo, const double *hi, size_t n);
cow_series *chart_add_points(cow_chart *c, const char *name, const double *x,
                             const double *y, size_t n);
/* One value per category (n must equal c->ncats when drawn); lo/hi are the
 * whisker ends or NULL. */
cow_series *chart_add_bars(cow_chart *c, const char *name, const double *y,
                           const double *lo, const double *hi, size_t n);
/* Optional arrays of a series already added (n values each, copied). */
void chart_series_set_yerr(cow_series *s, const double *lo, const double *hi);
void chart_series_set_xerr(cow_series *s, const double *lo, const double *hi);
void chart_series_set_state(cow_series *s, const unsigned char *state);
void chart_series_set_thin(cow_series *s, const unsigned char *thin);

/* Returns the span (valid until the next chart_add_span) to set color. */
cow_span *chart_add_span(cow_chart *c, double x0, double x1, const char *label);
void chart_add_mark(cow_chart *c, double x, const char *label);
void chart_add_callout(cow_chart *c, double x, double y, const char *label);
/* n < 0: no "n=" annotation. */
void chart_add_category(cow_chart *c, const char *label, long n);
/* A sub-chart drawn in a grid cell under the parent's title; owned by c. */
cow_chart *chart_add_panel(cow_chart *c, const char *title);

/* ---------- checking ---------- */

/* true when point i of s has a value that can be drawn (finite where its
 * kind needs it; NaN is a gap). */
bool chart_point_ok(const cow_series *s, size_t i);

/* true when c can be drawn with something in it. Otherwise false and a
 * reason for the report summary in why (e.g. "no samples in any series",
 * "log y axis but no value > 0"). Callers skip such a chart instead of
 * drawing an empty frame. why may be NULL. */
bool chart_is_drawable(const cow_chart *c, char *why, size_t nwhy);

/* ---------- the timeline reducer (chart 1) ----------
 *
 * Millions of samples are never drawn one by one: chart_reduce_columns
 * folds time-sorted samples into ncol equal time columns over [t0, t1)
 * and returns, per column, min and max latency and a rolling quantile.
 *
 * Rolling quantile (q, default 0.99) at column c is taken over the union of
 *   (a) the samples whose time lies within win_cols columns centred on c
 *       (default max(1, ncol / 100), i.e. 1% of the time range), and
 *   (b) the min_n samples nearest to the column centre (default 1000),
 * so that sparse captures still get a p99 from enough samples instead of
 * a max in disguise. Both window edges only move forward as c grows, so
 * every sample enters and leaves once, each in O(1) (a two-level histogram
 * of the window: bucket and block counts): O(n + ncol * sqrt B) time with
 * B = COW_RED_BUCKETS, O(B) extra memory, no per-sample storage. Values
 * are counted in log buckets 0.1% wide (1 us .. 1000 s; smaller values
 * share bucket 0, larger ones the top), and the quantile is the nearest-
 * rank bucket's geometric centre: relative error <= 0.05%, below a pixel.
 * A column with no samples gets NaN in all three (a gap, not a zero).
 *
 * Trailing window (trail_us > 0), the timeline's: the rolling quantile at
 * column c is taken over the samples whose time lies in
 * [e - trail_us, e), e the column's right edge, so it never reacts before
 * the data does (a centred window rises half a window before a stall).
 * The span is fixed in time, not in samples; min_n is then the fewest
 * samples a value needs (fewer: NaN), and a column without samples of its
 * own still gets the value of its window, so the line does not break at
 * every empty pixel column. */

#define COW_RED_BUCKETS 20800  /* ceil(ln(1e9) / ln(1.001)) + spare */

typedef struct cow_reduce_opts {
    double q;           /* rolling quantile level, 0 < q < 1; 0 = 0.99 */
    size_t win_cols;    /* window width in columns; 0 = max(1, ncol/100) */
    size_t min_n;       /* samples the window holds at least; 0 = 1000
                           (trailing: the fewest for a value; 0 = 1) */
    int64_t trail_us;   /* > 0: trailing window of this span (above) */
} cow_reduce_opts;

typedef struct cow_colred {
    size_t ncol;        /* columns */
    double *t_s;        /* column centre, seconds from t0 */
    double *min_us;     /* smallest latency in the column, NaN if empty */
    double *max_us;     /* largest latency in the column, NaN if empty */
    double *q_us;       /* rolling quantile at the column, NaN if empty */
    size_t *count;      /* samples in the column */
    size_t win_cols;    /* window width actually used */
    size_t min_n;       /* minimum window sample count actually used */
    double q;           /* quantile level actually used */
    int64_t trail_us;   /* trailing span used, 0 = centred window */
} cow_colred;

/* Reduce n samples (t_us ascending; lat_us finite, >= 0) that fall in
 * [t0_us, t1_us) into ncol columns; samples outside are ignored. out is
 * filled (free with chart_colred_release, also safe after a failure).
 * n == 0 gives ncol all-NaN columns. Errors: COW_EUSAGE when ncol == 0,
 * t1_us <= t0_us, times are not ascending or a latency is NaN/negative
 * (the message says which index). */
int chart_reduce_columns(const int64_t *t_us, const double *lat_us, size_t n,
                         int64_t t0_us, int64_t t1_us, size_t ncol,
                         const cow_reduce_opts *o, cow_colred *out, cow_err *e);
void chart_colred_release(cow_colred *r);

#endif
