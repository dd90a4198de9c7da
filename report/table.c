/* table.c -- the plain workbook model of table.h.
 *
 * Exports the table_* functions. Layers: UTF-8 repair, sheet names, the
 * workbook and sheets, cells, charts, images. */
#include "table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"

/* 2000-01-01T00:00:00Z: the document date when the caller pins none. */
#define DEFAULT_CREATED_S INT64_C(946684800)

/* ---------------------------------------------------------------- UTF-8 */

/* Length of the valid UTF-8 sequence at p (1..4), or 0 when invalid:
 * overlong forms, surrogates and code points above U+10FFFF are invalid
 * (RFC 3629), as Excel rejects them. */
static size_t utf8_seq(const unsigned char *p)
{
    unsigned char c = p[0];
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        return (p[1] & 0xC0) == 0x80 ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) {
        unsigned char lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
        if (p[1] < lo || p[1] > hi || (p[2] & 0xC0) != 0x80)
            return 0;
        return 3;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        unsigned char lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
        if (p[1] < lo || p[1] > hi || (p[2] & 0xC0) != 0x80 ||
            (p[3] & 0xC0) != 0x80)
            return 0;
        return 4;
    }
    return 0;
}

char *table_utf8_dup(const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    size_t n = strlen((const char *)p);
    /* Each bad byte becomes 3 bytes at most. */
    char *out = xmalloc(3 * n + 1), *o = out;
    while (*p) {
        size_t k = utf8_seq(p); /* reads stop at the NUL: it is not 10xxxxxx */
        if (k == 0) {
            memcpy(o, "\xEF\xBF\xBD", 3);
            o += 3;
            p++;
            continue;
        }
        memcpy(o, p, k);
        o += k;
        p += k;
    }
    *o = '\0';
    return out;
}

/* ----------------------------------------------------------- sheet names */

static bool is_name_forbidden(unsigned char c)
{
    return c < 0x20 || c == 0x7F || strchr("[]:*?/\\", c) != NULL;
}

/* Cut valid UTF-8 s to at most max UTF-16 units (Excel counts those). */
static void cut_units(char *s, size_t max)
{
    size_t units = 0, i = 0;
    while (s[i]) {
        size_t k = utf8_seq((const unsigned char *)s + i);
        size_t u = k == 4 ? 2 : 1;
        if (units + u > max)
            break;
        units += u;
        i += k;
    }
    s[i] = '\0';
}

/* Trim spaces and apostrophes at both ends (Excel refuses a name that
 * starts or ends with an apostrophe). */
static void trim_name(char *s)
{
    size_t n = strlen(s), a = 0;
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\''))
        s[--n] = '\0';
    while (s[a] == ' ' || s[a] == '\'')
        a++;
    memmove(s, s + a, n - a + 1);
}

static bool name_equal(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        char ca = *a, cb = *b;
        if (ca >= 'A' && ca <= 'Z')
            ca = (char)(ca - 'A' + 'a');
        if (cb >= 'A' && cb <= 'Z')
            cb = (char)(cb - 'A' + 'a');
        if (ca != cb)
            return false;
    }
    return *a == *b;
}

static bool name_taken(const cow_workbook *wb, const char *name)
{
    for (size_t i = 0; wb && i < wb->nsheets; i++)
        if (name_equal(wb->sheets[i]->name, name))
            return true;
    return false;
}

/* base (already clean, <= 31 units) made unique with " (k)". */
static void dedupe_name(const cow_workbook *wb, const char *base, char *out,
                        size_t n)
{
    snprintf(out, n, "%s", base);
    for (unsigned k = 2; name_taken(wb, out); k++) {
        char suffix[16], cut[128];
        snprintf(suffix, sizeof suffix, " (%u)", k);
        snprintf(cut, sizeof cut, "%s", base);
        cut_units(cut, COW_SHEET_NAME_MAX - strlen(suffix));
        trim_name(cut);
        snprintf(out, n, "%s%s", cut, suffix);
    }
}

void table_safe_sheet_name(const cow_workbook *wb, const char *name,
                           char *out, size_t n)
{
    char *clean = table_utf8_dup(name), *o = clean;
    for (const char *p = clean; *p; p++) {
        bool double_space = *p == ' ' && o > clean && o[-1] == ' ';
        if (!is_name_forbidden((unsigned char)*p) && !double_space)
            *o++ = *p; /* "a / b" loses the slash and one space */
    }
    *o = '\0';
    trim_name(clean);
    cut_units(clean, COW_SHEET_NAME_MAX);
    trim_name(clean);
    char base[128];
    snprintf(base, sizeof base, "%s", clean[0] ? clean : "Sheet");
    if (name_equal(base, "History"))
        snprintf(base, sizeof base, "%s_", clean);
    free(clean);
    dedupe_name(wb, base, out, n);
}

/* ------------------------------------------------------ workbook, sheets */

cow_workbook *table_book_new(int64_t created_s)
{
    cow_workbook *wb = xcalloc(1, sizeof *wb);
    wb->created_s = created_s ? created_s : DEFAULT_CREATED_S;
    return wb;
}

static void cell_clear(cow_cell *c)
{
    if (c->kind == COW_CELL_TEXT)
        free(c->v.text);
    c->kind = COW_CELL_EMPTY;
}

static void chart_free_spec(cow_sheet_chart *c)
{
    if (c == NULL)
        return;
    free(c->title);
    free(c->x_title);
    free(c->y_title);
    free(c);
}

static void sheet_free(cow_sheet *s)
{
    for (size_t i = 0; i < s->nrows * s->ncols; i++)
        cell_clear(&s->cells[i]);
    for (size_t i = 0; i < s->ncols; i++) {
        free(s->cols[i].name);
        free(s->cols[i].unit);
    }
    chart_free_spec(s->chart);
    for (size_t i = 0; i < s->nimages; i++) {
        free(s->images[i].png_path);
        free(s->images[i].caption);
    }
    free(s->images);
    free(s->cells);
    free(s->cols);
    free(s->name);
    free(s->title);
    free(s);
}

void table_book_free(cow_workbook *wb)
{
    if (wb == NULL)
        return;
    for (size_t i = 0; i < wb->nsheets; i++)
        sheet_free(wb->sheets[i]);
    free(wb->sheets);
    free(wb);
}

static char *dup_or_null(const char *s)
{
    return s ? table_utf8_dup(s) : NULL;
}

cow_sheet *table_add_sheet(cow_workbook *wb, const char *name,
                           const char *title)
{
    char safe[128];
    table_safe_sheet_name(wb, name, safe, sizeof safe);
    cow_sheet *s = xcalloc(1, sizeof *s);
    s->name = xstrdup(safe);
    s->title = dup_or_null(title);
    s->freeze_header = true;
    s->autofilter = true;
    wb->sheets = xgrow(wb->sheets, sizeof *wb->sheets, wb->nsheets + 1,
                       &wb->sheets_cap);
    wb->sheets[wb->nsheets++] = s;
    return s;
}

void table_move_sheet(cow_workbook *wb, size_t from, size_t to)
{
    cow_sheet *s;
    if (from >= wb->nsheets || to >= wb->nsheets || from == to)
        return;
    s = wb->sheets[from];
    if (from > to)
        memmove(&wb->sheets[to + 1], &wb->sheets[to], (from - to) * sizeof *wb->sheets);
    else
        memmove(&wb->sheets[from], &wb->sheets[from + 1], (to - from) * sizeof *wb->sheets);
    wb->sheets[to] = s;
}

int table_add_column(cow_sheet *s, const char *name, const char *unit,
                     cow_colfmt fmt, cow_err *e)
{
    if (s->nrows > 0)
        return COW_FAIL(e, COW_EUSAGE,
                        "column '%s' added to sheet '%s' after its rows",
                        name ? name : "", s->name);
    if (s->ncols >= COW_SHEET_MAX_COLS)
        return COW_FAIL(e, COW_ELIMIT, "sheet '%s' has more than %u columns",
                        s->name, COW_SHEET_MAX_COLS);
    s->cols = xgrow(s->cols, sizeof *s->cols, s->ncols + 1, &s->cols_cap);
    cow_column *c = &s->cols[s->ncols++];
    c->name = table_utf8_dup(name);
    c->unit = unit && unit[0] ? table_utf8_dup(unit) : NULL;
    c->fmt = fmt;
    c->width = 0;
    return COW_OK;
}

int table_set_width(cow_sheet *s, size_t col, double width, cow_err *e)
{
    if (col >= s->ncols || !(width >= 0 && width <= COW_COLUMN_WIDTH_MAX))
        return COW_FAIL(e, COW_EUSAGE, "no column %zu (width %g) in sheet '%s'",
                        col, width, s->name);
    s->cols[col].width = width;
    return COW_OK;
}

size_t table_sheet_row(const cow_sheet *s, size_t row)
{
    return row + (s->title ? 1 : 0) + 2;
}

size_t table_add_row(cow_sheet *s)
{
    size_t need = (s->nrows + 1) * s->ncols, cap = s->rows_cap * s->ncols;
    if (s->ncols > 0 && need > cap) {
        s->cells = xgrow(s->cells, sizeof *s->cells, need, &cap);
        s->rows_cap = cap / s->ncols;
    }
    for (size_t c = 0; c < s->ncols; c++)
        s->cells[s->nrows * s->ncols + c].kind = COW_CELL_EMPTY;
    return s->nrows++;
}

/* ----------------------------------------------------------------- cells */

const cow_cell *table_cell(const cow_sheet *s, size_t row, size_t col)
{
    if (row >= s->nrows || col >= s->ncols)
        return NULL;
    return &s->cells[row * s->ncols + col];
}

/* The cell to overwrite, cleared, or NULL with e set. */
static cow_cell *cell_for_set(cow_sheet *s, size_t row, size_t col, cow_err *e)
{
    if (row >= s->nrows || col >= s->ncols) {
        COW_FAIL(e, COW_EUSAGE, "no cell at row %zu column %zu in sheet '%s'",
                 row, col, s->name);
        return NULL;
    }
    cow_cell *c = &s->cells[row * s->ncols + col];
    cell_clear(c);
    return c;
}

int table_set_num(cow_sheet *s, size_t row, size_t col, double v, cow_err *e)
{
    cow_cell *c = cell_for_set(s, row, col, e);
    if (c == NULL)
        return COW_EUSAGE;
    c->kind = COW_CELL_NUM;
    c->v.num = v;
    return COW_OK;
}

int table_set_int(cow_sheet *s, size_t row, size_t col, int64_t v, cow_err *e)
{
    cow_cell *c = cell_for_set(s, row, col, e);
    if (c == NULL)
        return COW_EUSAGE;
    c->kind = COW_CELL_INT;
    c->v.i = v;
    return COW_OK;
}

int table_set_text(cow_sheet *s, size_t row, size_t col, const char *v,
                   cow_err *e)
{
    cow_cell *c = cell_for_set(s, row, col, e);
    if (c == NULL)
        return COW_EUSAGE;
    if (v != NULL) {
        c->kind = COW_CELL_TEXT;
        c->v.text = table_utf8_dup(v);
    }
    return COW_OK;
}

int table_set_bool(cow_sheet *s, size_t row, size_t col, bool v, cow_err *e)
{
    cow_cell *c = cell_for_set(s, row, col, e);
    if (c == NULL)
        return COW_EUSAGE;
    c->kind = COW_CELL_BOOL;
    c->v.b = v;
    return COW_OK;
}

int table_set_empty(cow_sheet *s, size_t row, size_t col, cow_err *e)
{
    return cell_for_set(s, row, col, e) ? COW_OK : COW_EUSAGE;
}

/* ---------------------------------------------------------------- charts */

int table_set_chart(cow_sheet *s, const cow_sheet_chart *spec, cow_err *e)
{
    bool only_x = spec->first_col == spec->last_col && spec->first_col == spec->x_col;
    if (spec->x_col >= s->ncols || spec->first_col >= s->ncols ||
        spec->last_col >= s->ncols || spec->first_col > spec->last_col || only_x)
        return COW_FAIL(e, COW_EUSAGE,
                        "chart columns x=%zu series=%zu..%zu do not fit sheet "
                        "'%s' (%zu columns; a series other than x is needed)",
                        spec->x_col, spec->first_col, spec->last_col, s->name,
                        s->ncols);
    cow_sheet_chart *c = xcalloc(1, sizeof *c);
    *c = *spec;
    c->title = dup_or_null(spec->title);
    c->x_title = dup_or_null(spec->x_title);
    c->y_title = dup_or_null(spec->y_title);
    chart_free_spec(s->chart);
    s->chart = c;
    return COW_OK;
}

/* ---------------------------------------------------------------- images */

int table_add_image(cow_sheet *s, const char *png_path, size_t row,
                    size_t col, double scale, const char *caption, cow_err *e)
{
    if (png_path == NULL || png_path[0] == '\0')
        return COW_FAIL(e, COW_EUSAGE, "image for sheet '%s' has no file name",
                        s->name);
    if (row >= COW_SHEET_MAX_ROWS || col >= COW_SHEET_MAX_COLS ||
        !(scale > 0 && scale <= COW_IMAGE_SCALE_MAX) || (caption && row == 0))
        return COW_FAIL(e, COW_EUSAGE,
                        "image '%s' cannot go at row %zu column %zu of sheet "
                        "'%s' with scale %g (inside the grid, scale in (0, %g], "
                        "row >= 1 when captioned)",
                        png_path, row, col, s->name, scale, COW_IMAGE_SCALE_MAX);
    s->images = xgrow(s->images, sizeof *s->images, s->nimages + 1,
                      &s->images_cap);
    cow_sheet_image *im = &s->images[s->nimages++];
    im->png_path = xstrdup(png_path); /* a path is bytes, not text: no repair */
    im->caption = dup_or_null(caption);
    im->row = row;
    im->col = col;
    im->scale = scale;
    return COW_OK;
}
