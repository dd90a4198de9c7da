/* chart_cairo.h -- the drawing layer: a laid-out chart onto a cairo context.
 *
 *     cairo_status_t st = chart_draw_cairo(&layout, &style, cr);
 *
 * Only draws: every position, colour and size was decided by the layout;
 * the style is read for the font family alone. Works on any cairo surface
 * (PNG image, PDF, SVG). The context's state is saved and restored. */
#ifndef COW_REPORT_CHART_CAIRO_H
#define COW_REPORT_CHART_CAIRO_H

#include <cairo.h>

#include "chart_layout.h"

/* Draw every primitive of l in order. Returns cairo_status(cr) afterwards
 * (CAIRO_STATUS_SUCCESS when all went well). */
cairo_status_t chart_draw_cairo(const cow_layout *l, const cow_style *st, cairo_t *cr);

/* Select st's font at size_px (bold or not) on cr: the one place that
 * turns a style font into cairo calls, shared by drawing and measuring. */
void chart_cairo_font(cairo_t *cr, const cow_style *st, double size_px, int bold);

#endif
