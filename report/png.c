/* png.c -- surfaces and files for charts: measure with cairo, lay out,
 * draw, write. The only exported symbol is chart_write_png (png.h). */
#include "visible.h"
#include "png.h"

#include <cairo.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart_cairo.h"
#include "label.h"
#include "outfile.h"
#include "text.h"

/* Text measurement through the real font, for chart_layout_build. */
typedef struct cmeasure {
    cairo_t *cr;            /* a context on the target surface */
    const cow_style *st;    /* font family */
} cmeasure;

static void measure_cairo(void *ctx, const char *s, double size_px, bool bold,
                          cow_text_ext *out)
{
    cmeasure *m = ctx;
    cairo_text_extents_t te;
    cairo_font_extents_t fe;

    chart_cairo_font(m->cr, m->st, size_px, bold);
    if (text_is_utf8(s, strlen(s))) {
        cairo_text_extents(m->cr, s, &te);
    } else { /* as draw_text shows it */
        char *safe = report_visible(s, COW_LABEL_XLSX);
        cairo_text_extents(m->cr, safe, &te);
        free(safe);
    }
    cairo_font_extents(m->cr, &fe);
    out->w = te.x_advance;
    out->ascent = fe.ascent;
    out->descent = fe.descent;
}

static int cairo_fail(cow_err *e, cairo_status_t s, const char *what)
{
    return COW_FAIL(e, COW_EINTERNAL, "%s: %s", what, cairo_status_to_string(s));
}

/* Lay out and draw onto cr; no file I/O. */
static int render(const cow_chart *c, const cow_style *st, cairo_t *cr, int w, int h,
                  cow_err *e)
{
    cmeasure m = {cr, st};
    cow_layout L;
    cairo_status_t s;
    int rc;

    rc = chart_layout_build(c, st, w, h, measure_cairo, &m, &L, e);
    if (rc == 0 && (s = cairo_status(cr)) != CAIRO_STATUS_SUCCESS)
        rc = cairo_fail(e, s, "measuring chart text");
    if (rc == 0 && (s = chart_draw_cairo(&L, st, cr)) != CAIRO_STATUS_SUCCESS)
        rc = cairo_fail(e, s, "drawing chart");
    chart_layout_release(&L);
    return rc;
}

static cairo_status_t png_out(void *fp, const unsigned char *data, unsigned int n)
{
    return fwrite(data, 1, n, fp) == n ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

int chart_write_png(const cow_chart *c, const cow_style *st, const char *path,
                    int w, int h, cow_err *e)
{
    cairo_surface_t *sf;
    cairo_t *cr;
    cairo_status_t s;
    char why[COW_CHART_TEXT];
    int rc;

    if (!chart_is_drawable(c, why, sizeof(why)))
        return COW_FAIL(e, COW_EUSAGE, "chart '%s' not drawn: %s", c ? c->title : "", why);
    if (w <= 0 || h <= 0)
        return COW_FAIL(e, COW_EUSAGE, "canvas %dx%d is empty", w, h);
    sf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
    if ((s = cairo_surface_status(sf)) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(sf);
        return cairo_fail(e, s, "creating a chart surface");
    }
    cr = cairo_create(sf);
    rc = render(c, st, cr, w, h, e);
    cairo_destroy(cr);
    if (rc == 0) {
        cairo_surface_flush(sf);
        cow_outfile o;
        /* never through a link planted at path: a new file, renamed over it */
        if ((rc = outfile_open(&o, path, e)) == COW_OK) {
            s = cairo_surface_write_to_png_stream(sf, png_out, o.fp);
            if (s != CAIRO_STATUS_SUCCESS) {
                outfile_abort(&o);
                rc = COW_FAIL(e, COW_EIO, "cannot write PNG: %s", cairo_status_to_string(s));
                cow_err_at(e, path, 0, 0);
            } else {
                rc = outfile_commit(&o, e);
            }
        }
    }
    cairo_surface_destroy(sf);
    return rc;
}

const char *png_cairo_version(void)
{
    return cairo_version_string();
}
