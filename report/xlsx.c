/* xlsx.c -- a cow_workbook as an .xlsx file, through libxlsxwriter.
 *
 * Exports xlsx_write() and xlsx_serial_from_us(). One function per layer:
 * formats, column widths, cells, charts, images, sheets, then the workbook
 * and the file (temporary name + rename). Every lxw_error is turned into a
 * cow_err carrying the output path; libxlsxwriter's own stderr warnings are
 * avoided by handing it only values it accepts (clean sheet names, cut
 * strings, rows and columns inside the grid, PNGs whose header was read). */
#include "visible.h"
#include "xlsx.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <xlsxwriter.h>

#include "label.h"
#include "mem.h"
#include "outfile.h"

#define US_PER_DAY INT64_C(86400000000)
/* Excel serial of 1970-01-01 in the 1900 date system. */
#define EXCEL_SERIAL_1970 25569
/* Excel's limit for one cell, in characters. */
#define XLSX_TEXT_MAX 32767
#define XLSX_CUT_MARK " [truncated]"
/* Integers beyond 2^53 do not survive a double: written as text. */
#define XLSX_EXACT_INT (INT64_C(1) << 53)
/* Computed widths stay readable: [min, max] Excel character units. */
#define WIDTH_MIN 6.0
#define WIDTH_MAX 60.0
/* A sheet printed one page wide on landscape A4 keeps 8.5 pt or more of
 * its 11 pt font when its columns take at most PRINT_PX pixels at 96 dpi:
 * the page's 10.89 printable inches are 1,045 px, and 1,045 x 11 / 8.5 is
 * 1,352. A column of width w (Excel character units of the default font,
 * 7 px each) takes 7w + 5 px with its padding. Wider sheets wrap their
 * widest text columns (PRINT_TEXT_MIN units at the narrowest) instead of
 * shrinking the font. */
#define PRINT_PX 1352.0
#define PRINT_TEXT_MIN 10.0
static double print_px(double width_units, size_t ncols)
{
    return 7.0 * width_units + 5.0 * (double)ncols;
}
/* Native charts are drawn this much larger than libxlsxwriter's 480x288. */
#define CHART_SCALE 1.5
#define DOC_TITLE "cowtail report"

/* Number formats per class; NULL keeps Excel's General. */
static const char *const num_formats[] = {
    [COW_COLFMT_TEXT] = NULL,
    [COW_COLFMT_INT] = "#,##0",
    [COW_COLFMT_MS3] = "0.000",
    [COW_COLFMT_PCT] = "0.0%",
    [COW_COLFMT_TIME_US] = "yyyy-mm-dd hh:mm:ss.000",
};
/* Axis number formats per class (ms axes read better without 3 decimals). */
static const char *const axis_formats[] = {
    [COW_COLFMT_TEXT] = NULL,
    [COW_COLFMT_INT] = "#,##0",
    [COW_COLFMT_MS3] = NULL,
    [COW_COLFMT_PCT] = "0%",
    [COW_COLFMT_TIME_US] = "hh:mm:ss",
};
#define NFMT (sizeof num_formats / sizeof num_formats[0])

typedef struct xlsx_ctx {
    lxw_workbook *book;     /* the workbook being built */
    lxw_format *title;      /* the title row: bold, larger */
    lxw_format *head_text;  /* header over text columns */
    lxw_format *head_num;   /* header over number columns: right-aligned */
    lxw_format *num[NFMT];  /* cell format per cow_colfmt; NULL = General */
    lxw_format *boolean;    /* TRUE/FALSE: LibreOffice shows 1/0 without it */
    lxw_format *caption;    /* an image's caption: bold */
    lxw_format *wrap;       /* a text cell of a column narrowed to print: wrapped, top */
    lxw_format *top;        /* every other cell: top-aligned */
    double *width;          /* the sheet being written: each column's width */
    unsigned char *wrapped; /* and whether its text wraps (narrowed to print) */
    const char *path;       /* the output file, for error messages */
    cow_err *e;             /* where errors go */
} xlsx_ctx;

/* -------------------------------------------------------------- errors */

/* A refused libxlsxwriter call: what names the item (a cell, "chart"). */
static int lib_fail(xlsx_ctx *x, lxw_error err, const cow_sheet *s,
                    const char *what)
{
    COW_FAIL(x->e, COW_EINTERNAL, "cannot write %s of sheet '%s': %s", what,
             s->name, lxw_strerror(err));
    cow_err_at(x->e, x->path, 0, 0);
    return COW_EINTERNAL;
}

static int cell_fail(xlsx_ctx *x, lxw_error err, const cow_sheet *s,
                     lxw_row_t r, lxw_col_t c)
{
    char what[32], ref[16];
    lxw_rowcol_to_cell(ref, r, c);
    snprintf(what, sizeof what, "cell %s", ref);
    return lib_fail(x, err, s, what);
}

/* ------------------------------------------------------------- formats */

static lxw_format *add_format(xlsx_ctx *x)
{
    lxw_format *f = workbook_add_format(x->book);
    if (f == NULL) /* libxlsxwriter's only failure here is malloc */
        COW_FAIL(x->e, COW_EINTERNAL, "libxlsxwriter could not add a format");
    return f;
}

static int add_formats(xlsx_ctx *x)
{
    if (!(x->title = add_format(x)) || !(x->head_text = add_format(x)) ||
        !(x->head_num = add_format(x)) || !(x->boolean = add_format(x)) ||
        !(x->caption = add_format(x)) || !(x->wrap = add_format(x)) ||
        !(x->top = add_format(x)))
        return COW_EINTERNAL;
    /* a row made tall by a wrapped cell reads from the top in every cell */
    format_set_align(x->top, LXW_ALIGN_VERTICAL_TOP);
    format_set_align(x->boolean, LXW_ALIGN_VERTICAL_TOP);
    format_set_text_wrap(x->wrap);
    format_set_align(x->wrap, LXW_ALIGN_VERTICAL_TOP);
    format_set_bold(x->caption);
    format_set_num_format(x->boolean, "\"TRUE\";\"TRUE\";\"FALSE\"");
    format_set_bold(x->title);
    format_set_font_size(x->title, 13);
    format_set_text_wrap(x->title);
    format_set_align(x->title, LXW_ALIGN_VERTICAL_TOP);
    format_set_bold(x->head_text);
    format_set_bottom(x->head_text, LXW_BORDER_THIN);
    format_set_text_wrap(x->head_text);
    format_set_align(x->head_text, LXW_ALIGN_VERTICAL_BOTTOM);
    format_set_bold(x->head_num);
    format_set_text_wrap(x->head_num);
    format_set_align(x->head_num, LXW_ALIGN_VERTICAL_BOTTOM);
    format_set_bottom(x->head_num, LXW_BORDER_THIN);
    format_set_align(x->head_num, LXW_ALIGN_RIGHT);
    for (size_t i = 0; i < NFMT; i++) {
        if (num_formats[i] == NULL)
            continue;
        if (!(x->num[i] = add_format(x)))
            return COW_EINTERNAL;
        format_set_num_format(x->num[i], num_formats[i]);
        format_set_align(x->num[i], LXW_ALIGN_VERTICAL_TOP);
    }
    return COW_OK;
}

/* --------------------------------------------------------------- widths */

static size_t utf8_chars(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* "name (unit)" into out. */
static void header_text(const cow_column *c, char *out, size_t n)
{
    if (c->unit)
        snprintf(out, n, "%s (%s)", c->name, c->unit);
    else
        snprintf(out, n, "%s", c->name);
}

/* About how many characters the number v takes shown as fmt. */
static size_t number_chars(double v, cow_colfmt fmt)
{
    char buf[64];
    if (!isfinite(v))
        return 0; /* left empty */
    switch (fmt) {
    case COW_COLFMT_INT: {
        size_t n = (size_t)snprintf(buf, sizeof buf, "%.0f", fabs(v));
        return n + (n - 1) / 3 + (v < 0);
    }
    case COW_COLFMT_MS3: return (size_t)snprintf(buf, sizeof buf, "%.3f", v);
    case COW_COLFMT_PCT: return (size_t)snprintf(buf, sizeof buf, "%.1f%%", v * 100);
    case COW_COLFMT_TIME_US: return 23;
    case COW_COLFMT_TEXT: break;
    }
    return (size_t)snprintf(buf, sizeof buf, "%.10g", v);
}

static size_t cell_chars(const cow_cell *c, cow_colfmt fmt)
{
    switch (c->kind) {
    case COW_CELL_EMPTY: return 0;
    case COW_CELL_TEXT: return utf8_chars(c->v.text);
    case COW_CELL_BOOL: return 5;
    case COW_CELL_NUM: return number_chars(c->v.num, fmt);
    case COW_CELL_INT: return number_chars((double)c->v.i, fmt);
    }
    return 0;
}

/* The column's width: given, or from its widest cell and header. */
/* The characters of the longest space-separated word of text. */
static size_t longest_word(const char *text)
{
    size_t best = 0, cur = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        if (*p == ' ') {
            cur = 0;
            continue;
        }
        if ((*p & 0xC0) != 0x80 && ++cur > best) /* count a character once */
            best = cur;
    }
    return best;
}

/* The lines a text (a header, a wrapped cell) takes in a column of width
 * w: words wrap at spaces, a word longer than the line takes the lines it
 * fills; about one character of padding. */
static size_t header_lines(const char *head, double w)
{
    size_t lines = 1, used = 0;
    /* a proportional font's characters average about 0.85 of the unit */
    double room = w - 1 > 1 ? (w - 1) / 0.85 : 1;
    const char *p = head;
    while (*p) {
        const char *q = strchr(p, ' ');
        size_t len = q ? (size_t)(q - p) : strlen(p), n = 0;
        for (size_t i = 0; i < len; i++)
            n += ((unsigned char)p[i] & 0xC0) != 0x80;
        if (used > 0 && (double)(used + 1 + n) > room) {
            lines++;
            used = n;
        } else {
            used += (used > 0) + n;
        }
        while ((double)used > room) { /* a long word breaks where it must */
            lines++;
            used -= (size_t)room;
        }
        p = q ? q + 1 : p + len;
    }
    return lines;
}

static double column_width(const cow_sheet *s, size_t col)
{
    const cow_column *c = &s->cols[col];
    if (c->width > 0)
        return c->width;
    char head[1024];
    header_text(c, head, sizeof head);
    /* The header wraps at its spaces (write_header): its longest word sets
     * the least width; the autofilter button covers about 3 characters. */
    double w = (double)longest_word(head) + (s->autofilter ? 3 : 0);
    for (size_t r = 0; r < s->nrows && w < WIDTH_MAX; r++) {
        double cw = (double)cell_chars(&s->cells[r * s->ncols + col], c->fmt);
        if (cw > w)
            w = cw;
    }
    w += 1; /* breathing room: Excel's width excludes cell padding */
    return w < WIDTH_MIN ? WIDTH_MIN : w > WIDTH_MAX ? WIDTH_MAX : w;
}

/* Each column's width into x->width, the text columns narrowed (and
 * marked to wrap) when the sheet is wider than a page holds at 8.5 pt: one
 * cap for every text column, the largest that fits, at least
 * PRINT_TEXT_MIN. */
static void fit_widths(xlsx_ctx *x, const cow_sheet *s)
{
    double fixed = 0, lo = PRINT_TEXT_MIN, hi = WIDTH_MAX, total = 0;
    size_t c;
    int i;
    for (c = 0; c < s->ncols; c++) {
        x->width[c] = column_width(s, c);
        /* text longer than its column wraps: LibreOffice prints the text
         * that overflows into the empty cells beside it, and shrinks the
         * whole sheet to fit that on the page */
        x->wrapped[c] = s->cols[c].fmt == COW_COLFMT_TEXT && x->width[c] >= WIDTH_MAX;
        total += x->width[c];
        if (s->cols[c].fmt != COW_COLFMT_TEXT || s->cols[c].width > 0)
            fixed += x->width[c];
    }
    if (print_px(total, s->ncols) <= PRINT_PX)
        return;
    for (i = 0; i < 30; i++) { /* bisect the cap */
        double cap = (lo + hi) / 2, sum = fixed;
        for (c = 0; c < s->ncols; c++)
            if (s->cols[c].fmt == COW_COLFMT_TEXT && s->cols[c].width <= 0)
                sum += x->width[c] < cap ? x->width[c] : cap;
        if (print_px(sum, s->ncols) <= PRINT_PX)
            lo = cap;
        else
            hi = cap;
    }
    for (c = 0; c < s->ncols; c++)
        if (s->cols[c].fmt == COW_COLFMT_TEXT && s->cols[c].width <= 0 && x->width[c] > lo) {
            x->width[c] = floor(lo);
            x->wrapped[c] = 1;
        }
}

/* ---------------------------------------------------------------- cells */

double xlsx_serial_from_us(int64_t us)
{
    int64_t days = us / US_PER_DAY, rem = us % US_PER_DAY;
    if (rem < 0) { /* floor division for instants before 1970 */
        rem += US_PER_DAY;
        days--;
    }
    /* The integer part is exact; one rounding in the addition. */
    return (double)(days + EXCEL_SERIAL_1970) + (double)rem / (double)US_PER_DAY;
}

/* Text as a string cell, never interpreted (a leading = + - @ stays text),
 * cut to Excel's limit with a visible mark. */
static lxw_error write_text_safe(lxw_worksheet *ws, lxw_row_t r, lxw_col_t c,
                                 const char *text, lxw_format *f)
{
    if (utf8_chars(text) <= XLSX_TEXT_MAX)
        return worksheet_write_string(ws, r, c, text, f);
    size_t keep = XLSX_TEXT_MAX - (sizeof XLSX_CUT_MARK - 1), i = 0;
    for (size_t n = 0; text[i]; i++) { /* byte offset of char number keep */
        if (((unsigned char)text[i] & 0xC0) != 0x80 && n++ == keep)
            break;
    }
    char *cut = xmalloc(i + sizeof XLSX_CUT_MARK);
    memcpy(cut, text, i);
    memcpy(cut + i, XLSX_CUT_MARK, sizeof XLSX_CUT_MARK);
    lxw_error err = worksheet_write_string(ws, r, c, cut, f);
    free(cut);
    return err;
}

/* Every string cell goes through label_safe: a chart caches the text of
 * the cells it refers to (series names, categories) in its own XML part,
 * where libxlsxwriter does not escape control characters as it does in
 * the sheets, so ESC in a label would make xl/charts/chartN.xml not
 * well-formed. Invalid UTF-8 becomes U+FFFD. */
static lxw_error write_text(lxw_worksheet *ws, lxw_row_t r, lxw_col_t c,
                            const char *text, lxw_format *f)
{
    char *safe = report_visible(text, COW_LABEL_XLSX);
    lxw_error err = write_text_safe(ws, r, c, safe, f);
    free(safe);
    return err;
}

static lxw_error write_double(lxw_worksheet *ws, lxw_row_t r, lxw_col_t c,
                              double v, cow_colfmt fmt, lxw_format *f)
{
    /* NaN and Inf have no Excel number. An empty cell is what charts show
     * as a gap (text or #N/A would be plotted as 0 by LibreOffice). */
    if (!isfinite(v) || (fmt == COW_COLFMT_TIME_US && fabs(v) >= 9.2e18))
        return LXW_NO_ERROR;
    if (fmt == COW_COLFMT_TIME_US)
        return worksheet_write_number(ws, r, c, xlsx_serial_from_us(llround(v)), f);
    return worksheet_write_number(ws, r, c, v, f);
}

static lxw_error write_int(lxw_worksheet *ws, lxw_row_t r, lxw_col_t c,
                           int64_t v, cow_colfmt fmt, lxw_format *f)
{
    if (fmt == COW_COLFMT_TIME_US)
        return worksheet_write_number(ws, r, c, xlsx_serial_from_us(v), f);
    if (v > XLSX_EXACT_INT || v < -XLSX_EXACT_INT) {
        char digits[24];
        snprintf(digits, sizeof digits, "%lld", (long long)v);
        return worksheet_write_string(ws, r, c, digits, NULL);
    }
    return worksheet_write_number(ws, r, c, (double)v, f);
}

static lxw_error write_cell(xlsx_ctx *x, lxw_worksheet *ws, lxw_row_t r,
                            lxw_col_t c, const cow_cell *cell, cow_colfmt fmt)
{
    lxw_format *f = x->num[fmt] ? x->num[fmt] : x->top;
    switch (cell->kind) {
    case COW_CELL_EMPTY: return LXW_NO_ERROR;
    case COW_CELL_TEXT:
        return write_text(ws, r, c, cell->v.text, x->wrapped[c] ? x->wrap : x->top);
    case COW_CELL_BOOL: return worksheet_write_boolean(ws, r, c, cell->v.b, x->boolean);
    case COW_CELL_NUM: return write_double(ws, r, c, cell->v.num, fmt, f);
    case COW_CELL_INT: return write_int(ws, r, c, cell->v.i, fmt, f);
    }
    return LXW_NO_ERROR;
}

/* --------------------------------------------------------------- charts */

static uint8_t chart_type(cow_sheet_chart_kind k)
{
    switch (k) {
    case COW_SHEET_CHART_LINE: return LXW_CHART_LINE;
    case COW_SHEET_CHART_SCATTER: return LXW_CHART_SCATTER_STRAIGHT_WITH_MARKERS;
    case COW_SHEET_CHART_COLUMN: return LXW_CHART_COLUMN;
    }
    return LXW_CHART_LINE;
}

/* libxlsxwriter reads a chart label starting with '=' as a cell reference;
 * a leading space keeps it a plain label. Returns s or buf. */
static const char *plain_label(const char *s, char *buf, size_t n)
{
    char *safe = report_visible(s, COW_LABEL_XLSX);
    snprintf(buf, n, "%s%s", safe[0] == '=' ? " " : "", safe);
    free(safe);
    return buf;
}

static void chart_labels(lxw_chart *ch, const cow_sheet_chart *spec)
{
    char buf[1024];
    if (spec->title)
        chart_title_set_name(ch, plain_label(spec->title, buf, sizeof buf));
    if (spec->x_title)
        chart_axis_set_name(ch->x_axis, plain_label(spec->x_title, buf, sizeof buf));
    if (spec->y_title)
        chart_axis_set_name(ch->y_axis, plain_label(spec->y_title, buf, sizeof buf));
    chart_legend_set_position(ch, LXW_CHART_LEGEND_BOTTOM);
    /* the chart's text at 11 pt, the sheet's own size: printed one page
     * wide it shrinks with the sheet and stays at 8 pt or more */
    {
        lxw_chart_font f = {.size = 11};
        chart_axis_set_num_font(ch->x_axis, &f);
        chart_axis_set_num_font(ch->y_axis, &f);
        chart_axis_set_name_font(ch->x_axis, &f);
        chart_axis_set_name_font(ch->y_axis, &f);
        chart_legend_set_font(ch, &f);
    }
}

static void chart_axes(lxw_chart *ch, const cow_sheet *s,
                       const cow_sheet_chart *spec)
{
    const char *xf = axis_formats[s->cols[spec->x_col].fmt];
    const char *yf = axis_formats[s->cols[spec->first_col].fmt];
    if (xf && spec->kind == COW_SHEET_CHART_SCATTER)
        chart_axis_set_num_format(ch->x_axis, xf);
    if (yf)
        chart_axis_set_num_format(ch->y_axis, yf);
}

/* One series per value column over data rows [r0, r1], named by its
 * header cell (a reference, so the name is never parsed as a formula). */
static int chart_series(xlsx_ctx *x, lxw_chart *ch, const cow_sheet *s,
                        lxw_row_t hdr)
{
    const cow_sheet_chart *spec = s->chart;
    lxw_row_t r0 = hdr + 1, r1 = hdr + (lxw_row_t)s->nrows;
    lxw_col_t xc = (lxw_col_t)spec->x_col;
    for (size_t col = spec->first_col; col <= spec->last_col; col++) {
        if (col == spec->x_col)
            continue;
        lxw_chart_series *ser = chart_add_series(ch, NULL, NULL);
        if (ser == NULL)
            return lib_fail(x, LXW_ERROR_MEMORY_MALLOC_FAILED, s, "chart series");
        lxw_col_t c = (lxw_col_t)col;
        chart_series_set_categories(ser, s->name, r0, xc, r1, xc);
        chart_series_set_values(ser, s->name, r0, c, r1, c);
        chart_series_set_name_range(ser, s->name, hdr, c);
        if (spec->kind == COW_SHEET_CHART_LINE) /* a point between gaps shows */
            chart_series_set_marker_type(ser, LXW_CHART_MARKER_AUTOMATIC);
    }
    return COW_OK;
}

/* The sheet's chart, right of the table (or below it when the table is
 * as wide as the grid). */
static int write_chart(xlsx_ctx *x, lxw_worksheet *ws, const cow_sheet *s,
                       lxw_row_t hdr)
{
    const cow_sheet_chart *spec = s->chart;
    if (spec == NULL || s->nrows == 0)
        return COW_OK;
    lxw_chart *ch = workbook_add_chart(x->book, chart_type(spec->kind));
    if (ch == NULL)
        return lib_fail(x, LXW_ERROR_MEMORY_MALLOC_FAILED, s, "chart");
    chart_labels(ch, spec);
    chart_axes(ch, s, spec);
    int rc = chart_series(x, ch, s, hdr);
    if (rc)
        return rc;
    /* as wide as the table above it (printed one page wide, no wider) */
    double table_px = 0;
    for (size_t c = 0; c < s->ncols; c++)
        table_px += x->width[c];
    table_px = print_px(table_px, s->ncols);
    lxw_chart_options opt = {
        .x_scale = table_px / 480.0 > CHART_SCALE ? table_px / 480.0 : CHART_SCALE,
        .y_scale = CHART_SCALE};
    /* below the table, not beside it: a chart to the right widens the
     * printed sheet and fitting it one page wide shrinks the table's font */
    lxw_row_t row = hdr + (lxw_row_t)s->nrows + 2;
    lxw_col_t col = 0;
    lxw_error err = worksheet_insert_chart_opt(ws, row, col, ch, &opt);
    return err ? lib_fail(x, err, s, "chart") : COW_OK;
}

/* --------------------------------------------------------------- images */

/* An image that cannot be used: msg names the PNG, e->path the workbook. */
static int image_fail(xlsx_ctx *x, const cow_sheet *s, const char *png,
                      int code, const char *why, const char *hint)
{
    COW_FAIL(x->e, code, "cannot insert image '%s' in sheet '%s': %s (%s)",
             png, s->name, why, hint);
    cow_err_at(x->e, x->path, 0, 0);
    return code;
}

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The file opens and starts as a PNG must: signature, then an IHDR chunk
 * with a size. libxlsxwriter would print a warning for anything else. */
static int check_png(xlsx_ctx *x, const cow_sheet *s, const char *png)
{
    static const unsigned char magic[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    const char *hint = "write the PNG before the workbook, or fix its path";
    unsigned char h[24]; /* signature 8, chunk length 4, "IHDR", w 4, h 4 */
    FILE *f = fopen(png, "rb");
    if (f == NULL)
        return image_fail(x, s, png, COW_EIO, strerror(errno), hint);
    size_t n = fread(h, 1, sizeof h, f);
    int errnum = ferror(f) ? errno : 0; /* a folder reads as EISDIR */
    fclose(f);
    if (errnum)
        return image_fail(x, s, png, COW_EIO, strerror(errnum), hint);
    if (n < sizeof h || memcmp(h, magic, sizeof magic) != 0 ||
        memcmp(h + 12, "IHDR", 4) != 0 || be32(h + 16) == 0 || be32(h + 20) == 0)
        return image_fail(x, s, png, COW_EPARSE, "not a PNG file",
                          "only PNG images can be inserted");
    return COW_OK;
}

/* What already holds cell (r, c) when image i's caption goes there: the
 * title, the table, or an earlier caption; NULL when free. */
static const char *cell_owner(const cow_sheet *s, lxw_row_t hdr, size_t r,
                              size_t c, size_t i)
{
    if (s->title && r == 0 && c == 0)
        return "the title";
    if (c < s->ncols && r >= hdr && r <= hdr + s->nrows)
        return "the table";
    for (size_t j = 0; j < i; j++) {
        const cow_sheet_image *o = &s->images[j];
        if (o->caption && o->row - 1 == r && o->col == c)
            return "another image's caption";
    }
    return NULL;
}

/* Alt text: the caption, else the file's base name (what libxlsxwriter
 * would use), as valid UTF-8 without control characters, which an XML
 * attribute cannot hold. The caller frees it. */
static char *alt_text(const cow_sheet_image *im)
{
    const char *base = strrchr(im->png_path, '/');
    char *alt = table_utf8_dup(im->caption ? im->caption
                                           : base ? base + 1 : im->png_path);
    for (char *p = alt; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7F)
            *p = ' ';
    return alt;
}

static int write_image(xlsx_ctx *x, lxw_worksheet *ws, const cow_sheet *s,
                       lxw_row_t hdr, size_t i)
{
    const cow_sheet_image *im = &s->images[i];
    lxw_row_t r = (lxw_row_t)im->row;
    lxw_col_t c = (lxw_col_t)im->col;
    int rc = check_png(x, s, im->png_path);
    if (rc)
        return rc;
    const char *owner = im->caption ? cell_owner(s, hdr, im->row - 1, im->col, i) : NULL;
    if (owner) {
        char why[64];
        lxw_rowcol_to_cell(why, r - 1, c);
        snprintf(why + strlen(why), sizeof why - strlen(why),
                 ", its caption cell, holds %s", owner);
        return image_fail(x, s, im->png_path, COW_EUSAGE, why,
                          "place the image where the cell above it is free");
    }
    lxw_error err;
    if (im->caption && (err = write_text(ws, r - 1, c, im->caption, x->caption)))
        return cell_fail(x, err, s, r - 1, c);
    char *alt = alt_text(im); /* libxlsxwriter copies it */
    lxw_image_options opt = {.x_scale = im->scale, .y_scale = im->scale,
                             .description = alt};
    err = worksheet_insert_image_opt(ws, r, c, im->png_path, &opt);
    free(alt);
    if (err) {
        char what[600];
        snprintf(what, sizeof what, "image '%s'", im->png_path);
        return lib_fail(x, err, s, what);
    }
    return COW_OK;
}

static int write_images(xlsx_ctx *x, lxw_worksheet *ws, const cow_sheet *s,
                        lxw_row_t hdr)
{
    lxw_row_t *brk;
    size_t nb = 0;
    lxw_error err = LXW_NO_ERROR;
    for (size_t i = 0; i < s->nimages; i++) {
        int rc = write_image(x, ws, s, hdr, i);
        if (rc)
            return rc;
    }
    /* a sheet of images alone prints a row of them to a page: a break
     * above each later row's caption (Excel keeps at most 1023) */
    if (s->ncols > 0 || s->nimages < 2)
        return COW_OK;
    brk = xcalloc(s->nimages + 1, sizeof(*brk));
    for (size_t i = 1; i < s->nimages && nb < 1023; i++)
        if (s->images[i].row > s->images[i - 1].row && s->images[i].row > 1)
            brk[nb++] = (lxw_row_t)(s->images[i].row - 1);
    if (nb > 0)
        err = worksheet_set_h_pagebreaks(ws, brk);
    free(brk);
    return err ? lib_fail(x, err, s, "the page breaks") : COW_OK;
}

/* --------------------------------------------------------------- sheets */

/* The title row: over a table of several columns the title is one cell
 * merged across them, wrapped, and the row tall enough for its lines, so a
 * page as wide as the table prints it whole instead of cutting it at the
 * last column. */
static int write_title(xlsx_ctx *x, lxw_worksheet *ws, const cow_sheet *s)
{
    lxw_error err;
    double width = 0;
    size_t c, lines;
    char *safe;

    if (s->title == NULL)
        return COW_OK;
    if (s->ncols < 2 || utf8_chars(s->title) > 1000) { /* a long text: cut by write_text */
        if ((err = write_text(ws, 0, 0, s->title, x->title)))
            return lib_fail(x, err, s, "the title");
        return COW_OK;
    }
    for (c = 0; c < s->ncols; c++)
        width += x->width[c];
    safe = report_visible(s->title, COW_LABEL_XLSX);
    /* bold 13 pt is about 1.3 widths of the 11 pt character unit */
    lines = (size_t)ceil((double)utf8_chars(safe) * 1.3 / (width > 1 ? width : 1));
    if (lines < 1)
        lines = 1;
    err = worksheet_merge_range(ws, 0, 0, 0, (lxw_col_t)(s->ncols - 1), safe, x->title);
    free(safe);
    if (err)
        return lib_fail(x, err, s, "the title");
    if ((err = worksheet_set_row(ws, 0, 18.0 * (double)(lines > 6 ? 6 : lines), NULL)))
        return lib_fail(x, err, s, "the title row");
    return COW_OK;
}

/* Print setup: landscape A4, one page wide (as many tall as it takes),
 * the title and header rows on every page, the sheet and page in the
 * footer. */
static int write_print(xlsx_ctx *x, lxw_worksheet *ws, const cow_sheet *s, lxw_row_t hdr)
{
    lxw_error err;
    worksheet_set_landscape(ws);
    worksheet_set_paper(ws, 9);
    worksheet_set_margins(ws, 0.4, 0.4, 0.5, 0.5);
    worksheet_fit_to_pages(ws, 1, 0);
    if (s->ncols > 0 && (err = worksheet_repeat_rows(ws, 0, hdr)))
        return lib_fail(x, err, s, "the rows repeated on each page");
    if ((err = worksheet_set_footer(ws, "&L&A&Rpage &P of &N")))
        return lib_fail(x, err, s, "the footer");
    return COW_OK;
}

static int write_header(xlsx_ctx *x, lxw_worksheet *ws, const cow_sheet *s,
                        lxw_row_t hdr)
{
    lxw_error err;
    int rc = write_title(x, ws, s);
    if (rc != COW_OK)
        return rc;
    size_t lines = 1;
    for (size_t c = 0; c < s->ncols; c++) {
        char head[1024];
        header_text(&s->cols[c], head, sizeof head);
        lxw_format *f = s->cols[c].fmt == COW_COLFMT_TEXT ? x->head_text : x->head_num;
        size_t l = header_lines(head, x->width[c] - (s->autofilter ? 3 : 0));
        if (l > lines)
            lines = l;
        if ((err = write_text(ws, hdr, (lxw_col_t)c, head, f)))
            return cell_fail(x, err, s, hdr, (lxw_col_t)c);
    }
    /* a header wrapped at its spaces gets the height of its lines */
    if (lines > 1 && (err = worksheet_set_row(ws, hdr, 15.0 * (double)lines, NULL)))
        return lib_fail(x, err, s, "the header row");
    return COW_OK;
}

static int write_rows(xlsx_ctx *x, lxw_worksheet *ws, const cow_sheet *s,
                      lxw_row_t hdr)
{
    for (size_t r = 0; r < s->nrows; r++) {
        lxw_row_t row = hdr + 1 + (lxw_row_t)r;
        size_t lines = 1;
        for (size_t c = 0; c < s->ncols; c++) {
            const cow_cell *cell = &s->cells[r * s->ncols + c];
            lxw_error err = write_cell(x, ws, row, (lxw_col_t)c, cell, s->cols[c].fmt);
            if (err)
                return cell_fail(x, err, s, row, (lxw_col_t)c);
            if (x->wrapped[c] && cell->kind == COW_CELL_TEXT && cell->v.text != NULL) {
                size_t l = header_lines(cell->v.text, x->width[c]);
                if (l > lines)
                    lines = l;
            }
        }
        /* a spreadsheet keeps a row one line tall however its cells wrap
         * (LibreOffice prints the rest over the next rows): as tall as
         * its most wrapped cell */
        if (lines > 1) {
            lxw_error err = worksheet_set_row(ws, row, 13.0 * (double)(lines > 40 ? 40 : lines),
                                              NULL);
            if (err)
                return lib_fail(x, err, s, "a row's height");
        }
    }
    return COW_OK;
}

/* Widths, frozen header, autofilter. */
static int write_view(xlsx_ctx *x, lxw_worksheet *ws, const cow_sheet *s,
                      lxw_row_t hdr)
{
    lxw_error err;
    for (size_t c = 0; c < s->ncols; c++) {
        lxw_col_t col = (lxw_col_t)c;
        if ((err = worksheet_set_column(ws, col, col, x->width[c], NULL)))
            return lib_fail(x, err, s, "column widths");
    }
    if (s->freeze_header)
        worksheet_freeze_panes(ws, hdr + 1, 0);
    if (s->autofilter && s->ncols > 0 &&
        (err = worksheet_autofilter(ws, hdr, 0, hdr + (lxw_row_t)s->nrows,
                                    (lxw_col_t)(s->ncols - 1))))
        return lib_fail(x, err, s, "the autofilter");
    return COW_OK;
}

static int write_sheet(xlsx_ctx *x, const cow_sheet *s)
{
    lxw_row_t hdr = s->title ? 1 : 0;
    if (s->nrows > LXW_ROW_MAX - 1 - hdr)
        return COW_FAIL(x->e, COW_ELIMIT,
                        "sheet '%s' has %zu rows but Excel holds %u per sheet: "
                        "write fewer rows (sample or aggregate them)",
                        s->name, s->nrows, (unsigned)(LXW_ROW_MAX - 1 - hdr));
    lxw_worksheet *ws = workbook_add_worksheet(x->book, s->name);
    if (ws == NULL)
        return lib_fail(x, LXW_ERROR_PARAMETER_VALIDATION, s, "the name");
    x->width = xcalloc(s->ncols ? s->ncols : 1, sizeof(*x->width));
    x->wrapped = xcalloc(s->ncols ? s->ncols : 1, 1);
    fit_widths(x, s);
    int rc = write_header(x, ws, s, hdr);
    if (rc == COW_OK)
        rc = write_rows(x, ws, s, hdr);
    if (rc == COW_OK)
        rc = write_view(x, ws, s, hdr);
    if (rc == COW_OK)
        rc = write_chart(x, ws, s, hdr);
    if (rc == COW_OK)
        rc = write_images(x, ws, s, hdr);
    if (rc == COW_OK)
        rc = write_print(x, ws, s, hdr);
    free(x->width);
    free(x->wrapped);
    x->width = NULL;
    x->wrapped = NULL;
    return rc;
}

/* ------------------------------------------------------ workbook, file */

static int set_properties(xlsx_ctx *x, const cow_workbook *wb)
{
    char title[] = DOC_TITLE; /* lxw_doc_properties wants char * */
    lxw_doc_properties props = {.title = title, .created = (time_t)wb->created_s};
    lxw_error err = workbook_set_properties(x->book, &props);
    if (err) {
        COW_FAIL(x->e, COW_EINTERNAL, "cannot set the document properties: %s",
                 lxw_strerror(err));
        cow_err_at(x->e, x->path, 0, 0);
        return COW_EINTERNAL;
    }
    return COW_OK;
}

/* Build every sheet into book; on error the caller frees book. */
static int build(xlsx_ctx *x, const cow_workbook *wb)
{
    int rc = set_properties(x, wb);
    if (rc == COW_OK)
        rc = add_formats(x);
    for (size_t i = 0; rc == COW_OK && i < wb->nsheets; i++)
        rc = write_sheet(x, wb->sheets[i]);
    if (rc)
        cow_err_at(x->e, x->path, 0, 0);
    return rc;
}

/* workbook_close() writes the file and frees book whatever happens. */
static int close_book(lxw_workbook *book, const char *path, cow_err *e)
{
    lxw_error err = workbook_close(book);
    if (err == LXW_NO_ERROR)
        return COW_OK;
    COW_FAIL(e, COW_EIO, "cannot write the workbook: %s", lxw_strerror(err));
    cow_err_at(e, path, 0, 0);
    return COW_EIO;
}

int xlsx_write(const cow_workbook *wb, const char *path, cow_err *e)
{
    cow_outfile o;
    int rc = outfile_open(&o, path, e);
    if (rc) {
        char why[sizeof(e->msg)];
        snprintf(why, sizeof(why), "%s", e->msg);
        COW_FAIL(e, rc, "cannot create the workbook: %s", why);
        cow_err_at(e, path, 0, 0);
        return rc;
    }
    /* libxlsxwriter writes the temporary file by name */
    fclose(o.fp);
    o.fp = NULL;
    xlsx_ctx x = {.book = workbook_new(o.tmp), .path = path, .e = e};
    if (x.book == NULL) {
        rc = COW_FAIL(e, COW_EINTERNAL, "libxlsxwriter could not start a workbook");
        cow_err_at(e, path, 0, 0);
        goto fail;
    }
    rc = build(&x, wb);
    if (rc) {
        lxw_workbook_free(x.book);
        goto fail;
    }
    rc = close_book(x.book, path, e);
    if (rc)
        goto fail;
    return outfile_commit(&o, e);
fail:
    outfile_abort(&o);
    return rc;
}

const char *xlsx_lib_version(void)
{
    return lxw_version();
}
