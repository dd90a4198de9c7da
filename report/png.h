/* png.h -- a chart into a PNG file (cairo image surface).
 *
 *     cow_style st;  chart_style_defaults(&st, scale);
 *     if (chart_write_png(c, &st, "out/timeline.png", 1600 * scale, 900 * scale, e))
 *         report e->msg; a chart that is not drawable fails with COW_EUSAGE and
 *         the reason, and no file is written.
 *
 * Text is measured with cairo using the style's font, so the layout matches
 * what is drawn. Every cairo status is checked. */
#ifndef COW_REPORT_PNG_H
#define COW_REPORT_PNG_H

#include "chart_data.h"
#include "chart_layout.h"
#include "err.h"

/* Lay out and draw c on a w x h canvas and write it to path (replaced if
 * it exists). Errors: COW_EUSAGE (not drawable, canvas too small; the
 * message is the reason), COW_EIO (cannot write path; e->path is set),
 * COW_EINTERNAL (cairo failed while drawing). */
int chart_write_png(const cow_chart *c, const cow_style *st, const char *path,
                    int w, int h, cow_err *e);

/* The version of the cairo library in use ("1.16.0"; static storage). */
const char *png_cairo_version(void);

#endif
