/* chart_style.c -- the visual choices (chart_style_defaults: sizes, the
 * colour-blind-safe palette), text metrics through the caller's callback
 * (and the fake one tests use), shortening a text to a width, and the
 * colour and marker of each series. Calls nothing else of the layout. */
#include "chart_layout.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart_layout_int.h"
#include "mem.h"

#define ELLIPSIS "\xe2\x80\xa6"

/* ================= style and metrics ================= */

static cow_rgba hex(unsigned v, double a)
{
    cow_rgba c = {(double)((v >> 16) & 255) / 255.0,
                  (double)((v >> 8) & 255) / 255.0, (double)(v & 255) / 255.0, a};
    return c;
}

static void style_colours(cow_style *st)
{
    /* Okabe & Ito (2008), "Color Universal Design": distinguishable with
     * the common colour-vision deficiencies. Yellow is last: it is nearly
     * invisible as a thin line on white. */
    static const unsigned okabe[COW_PALETTE_MAX] = {
        0x0072B2, 0xD55E00, 0x009E73, 0xCC79A7,
        0xE69F00, 0x56B4E9, 0x000000, 0xF0E442};
    static const unsigned spans[COW_SPAN_COLORS] = {0xE69F00, 0x009E73, 0xCC79A7,
                                                    0x7F7F7F, 0xD55E00, 0x0072B2};
    size_t i;

    for (i = 0; i < COW_PALETTE_MAX; i++)
        st->palette[i] = hex(okabe[i], 1.0);
    st->npalette = COW_PALETTE_MAX;
    for (i = 0; i < COW_SPAN_COLORS; i++)
        st->span_palette[i] = hex(spans[i], 1.0);
    st->background = hex(0xFFFFFF, 1.0);
    st->plot_bg = hex(0xFFFFFF, 1.0);
    st->text = hex(0x1A1A1A, 1.0);
    st->muted = hex(0x555555, 1.0);
    st->grid = hex(0xE2E2E2, 1.0);
    st->axis = hex(0x333333, 1.0);
    st->mark = hex(0x333333, 0.8);
    st->legend_bg = hex(0xFFFFFF, 0.92);
    st->pass = hex(0x009E73, 1.0);
    st->fail = hex(0xD55E00, 1.0);
}

void chart_style_defaults(cow_style *st, double scale)
{
    double k = scale > 0 ? scale : 1.0;

    memset(st, 0, sizeof(*st));
    st->scale = k;
    chart_set_text(st->font, sizeof(st->font), "DejaVu Sans");
    st->title_px = 28 * k;
    st->subtitle_px = 17 * k;
    st->panel_title_px = 17 * k;
    st->label_px = 17 * k;
    st->tick_px = 15 * k;
    st->legend_px = 15 * k;
    st->annot_px = 14 * k;
    st->note_px = 14 * k;
    st->margin_px = 28 * k;
    st->gap_px = 12 * k;
    st->tick_len_px = 6 * k;
    st->xtick_spacing_px = 130 * k;
    st->ytick_spacing_px = 70 * k;
    st->line_px = 2.2 * k;
    st->axis_px = 1.2 * k;
    st->grid_px = 1.0 * k;
    st->mark_px = 1.5 * k;
    st->bracket_px = 4 * k;
    st->marker_px = 10 * k;
    st->errbar_px = 1.8 * k;
    st->cap_px = 6 * k;
    st->swatch_px = 28 * k;
    st->legend_pad_px = 10 * k;
    st->cat_label_max_px = 220 * k;
    st->lane_rows = 3;
    st->band_alpha = 0.35;
    st->span_alpha = 0.16;
    st->thin_alpha = 0.35;
    style_colours(st);
}

static size_t utf8_chars(const char *s)
{
    size_t n = 0;

    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

void chart_measure_fake(void *ctx, const char *utf8, double size_px, bool bold,
                        cow_text_ext *out)
{
    (void)ctx;
    out->w = (bold ? 0.65 : 0.6) * size_px * (double)utf8_chars(utf8);
    out->ascent = 0.8 * size_px;
    out->descent = 0.2 * size_px;
}

cow_text_ext lay_measure(const lctx *x, const char *s, double size, bool bold)
{
    cow_text_ext t = {0, 0, 0};

    x->fn(x->mctx, s, size, bold, &t);
    return t;
}

double lay_text_w(const lctx *x, const char *s, double size, bool bold)
{
    return lay_measure(x, s, size, bold).w;
}

double lay_line_h(const lctx *x, double size)
{
    cow_text_ext t = lay_measure(x, "Hg", size, false);
    return t.ascent + t.descent;
}

/* A copy of s, cut on a code point and ended with an ellipsis so it
 * measures at most maxw (room for the ellipsis is allocated up front). */
bool lay_shorten(const lctx *x, const char *s, double size, bool bold,
                        double maxw, char **out)
{
    char *t = chart_text(s);
    size_t len = strlen(t);

    *out = t;
    if (lay_text_w(x, t, size, bold) <= maxw)
        return false;
    t = *out = xrealloc(t, len + sizeof(ELLIPSIS));
    while (len > 0) {
        do
            len--;
        while (len > 0 && ((unsigned char)t[len] & 0xC0) == 0x80);
        while (len > 0 && t[len - 1] == ' ')
            len--;
        memcpy(t + len, ELLIPSIS, sizeof(ELLIPSIS));
        if (lay_text_w(x, t, size, bold) <= maxw)
            return true;
    }
    memcpy(t, ELLIPSIS, sizeof(ELLIPSIS));
    return true;
}

/* ================= series styles ================= */

cow_rgba lay_series_colour(const cow_style *st, const cow_chart *c, size_t si)
{
    size_t auto_i = 0;

    if (c->series[si].color >= 0)
        return st->palette[(size_t)c->series[si].color % st->npalette];
    for (size_t i = 0; i < si; i++)
        auto_i += c->series[i].color < 0;
    return st->palette[auto_i % st->npalette];
}

int lay_series_marker(const cow_chart *c, size_t si)
{
    if (c->series[si].marker != COW_MARKER_AUTO)
        return c->series[si].marker;
    return COW_MARKER_CIRCLE + (int)(si % 5);
}

cow_rgba lay_with_alpha(cow_rgba c, double a)
{
    c.a = a;
    return c;
}

