/* table.h -- a workbook as plain tables: sheets, typed columns, cells.
 *
 * The model the spreadsheet writer (xlsx.h) renders. It knows nothing of
 * libxlsxwriter: a report fills it, xlsx_write() turns it into a file, and
 * tests can inspect it without unzipping anything.
 *
 *     cow_workbook *wb = table_book_new(now_s);
 *     cow_sheet *s = table_add_sheet(wb, "Latency by phase", "p99 by phase");
 *     table_add_column(s, "phase", NULL, COW_COLFMT_TEXT, e);
 *     table_add_column(s, "p99", "ms", COW_COLFMT_MS3, e);
 *     size_t r = table_add_row(s);
 *     table_set_text(s, r, 0, "fork"); table_set_num(s, r, 1, 12.5);
 *     xlsx_write(wb, "report.xlsx", e); table_book_free(wb);
 *
 * Ownership: a cow_workbook owns everything hung on it. Every function that
 * takes a string copies it, so the caller keeps (and frees) its own. Sheets
 * returned by table_add_sheet() belong to the workbook and stay valid until
 * table_book_free(), which releases everything; table_book_free(NULL) is a
 * no-op. Out of memory aborts (mem.h).
 *
 * Text is stored as valid UTF-8: invalid bytes are replaced by U+FFFD when
 * copied, so a garbage line from a capture can never make a corrupt file.
 * Cells are never interpreted: a text "=1+2" stays the text "=1+2". */
#ifndef COW_REPORT_TABLE_H
#define COW_REPORT_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"

/* Excel's limit on sheet names, in characters. */
#define COW_SHEET_NAME_MAX 31
/* Excel's grid: rows include the title and header rows. */
#define COW_SHEET_MAX_ROWS 1048576u
#define COW_SHEET_MAX_COLS 16384u
/* Excel's widest column, in character units. */
#define COW_COLUMN_WIDTH_MAX 255.0

/* How a column's numbers are shown. The stored value never changes. */
typedef enum cow_colfmt {
    COW_COLFMT_TEXT = 0, /* general text; numbers shown as Excel chooses */
    COW_COLFMT_INT,      /* whole numbers with thousands separators */
    COW_COLFMT_MS3,      /* milliseconds with 3 decimals (= microseconds) */
    COW_COLFMT_PCT,      /* a fraction shown as percent: 0.253 -> 25.3% */
    COW_COLFMT_TIME_US   /* UTC epoch microseconds shown as a date-time */
} cow_colfmt;

/* What a cell holds. */
typedef enum cow_cell_kind {
    COW_CELL_EMPTY = 0, /* nothing written (a gap in charts) */
    COW_CELL_NUM,       /* double; NaN/Inf are written as text */
    COW_CELL_INT,       /* int64; exact only up to 2^53, see xlsx.h */
    COW_CELL_TEXT,      /* UTF-8 string, owned by the sheet */
    COW_CELL_BOOL       /* TRUE/FALSE */
} cow_cell_kind;

typedef struct cow_cell {
    cow_cell_kind kind; /* which member of v is meaningful */
    union {
        double num;     /* COW_CELL_NUM */
        int64_t i;      /* COW_CELL_INT (epoch microseconds for TIME_US) */
        char *text;     /* COW_CELL_TEXT, NUL-terminated, owned */
        bool b;         /* COW_CELL_BOOL */
    } v;                /* the value */
} cow_cell;

typedef struct cow_column {
    char *name;         /* header text, owned, never NULL */
    char *unit;         /* shown as "name (unit)"; NULL when none */
    cow_colfmt fmt;     /* number format class */
    double width;       /* in Excel character units; 0 = from content */
} cow_column;

/* Native chart types (the spreadsheet draws them, not cowtail). */
typedef enum cow_sheet_chart_kind {
    COW_SHEET_CHART_LINE = 0, /* categories on x, one line per column */
    COW_SHEET_CHART_SCATTER,  /* numeric x from a column, lines + markers */
    COW_SHEET_CHART_COLUMN    /* clustered vertical bars per category */
} cow_sheet_chart_kind;

/* A chart over all data rows: x from column x_col, one series per column
 * first_col..last_col (inclusive), each named after its header. */
typedef struct cow_sheet_chart {
    cow_sheet_chart_kind kind; /* line, scatter or column */
    char *title;        /* chart title, owned; NULL = none */
    char *x_title;      /* x axis title, owned; NULL = none */
    char *y_title;      /* y axis title, owned; NULL = none */
    size_t x_col;       /* column of categories / x values */
    size_t first_col;   /* first series column */
    size_t last_col;    /* last series column, >= first_col */
} cow_sheet_chart;

/* Size factors accepted for an image (1 = the PNG's pixels at 96 dpi). */
#define COW_IMAGE_SCALE_MAX 10.0

/* A PNG placed on a sheet (a chart drawn by cowtail, say). The file is
 * only read when the workbook is written, and copied into it whole. */
typedef struct cow_sheet_image {
    char *png_path;     /* the PNG file, owned, copied byte for byte */
    char *caption;      /* text above the image and its alt text, owned,
                         * valid UTF-8; NULL = none */
    size_t row;         /* worksheet row of the top-left corner, 0-based */
    size_t col;         /* worksheet column of the top-left corner */
    double scale;       /* size factor on both axes, (0, COW_IMAGE_SCALE_MAX] */
} cow_sheet_image;

typedef struct cow_sheet {
    char *name;         /* Excel-safe, unique in the workbook, owned */
    char *title;        /* line above the header; NULL = no title row */
    cow_column *cols;   /* columns, ncols of them */
    size_t ncols;       /* number of columns */
    size_t cols_cap;    /* allocated columns */
    cow_cell *cells;    /* row-major, nrows * ncols */
    size_t nrows;       /* data rows (header and title not counted) */
    size_t rows_cap;    /* allocated rows */
    bool freeze_header; /* keep title + header visible when scrolling */
    bool autofilter;    /* filter buttons on the header row */
    cow_sheet_chart *chart; /* optional native chart, owned; NULL = none */
    cow_sheet_image *images; /* PNG images in insertion order, owned */
    size_t nimages;     /* number of images */
    size_t images_cap;  /* allocated images */
} cow_sheet;

typedef struct cow_workbook {
    cow_sheet **sheets; /* in tab order, owned */
    size_t nsheets;     /* number of sheets */
    size_t sheets_cap;  /* allocated slots */
    int64_t created_s;  /* document date, UTC epoch seconds (pinned) */
} cow_workbook;

/* A new empty workbook. created_s is the document creation date written
 * into the file (UTC epoch seconds); pass the run's pinned --now, never the
 * wall clock, so output is byte-stable. 0 means 2000-01-01T00:00:00Z.
 * Free with table_book_free(). */
cow_workbook *table_book_new(int64_t created_s);

/* Release the workbook, its sheets, cells and strings. NULL is a no-op. */
void table_book_free(cow_workbook *wb);

/* Append a sheet. name is made Excel-safe (table_safe_sheet_name) and
 * unique; title may be NULL. Header freeze and autofilter are on by default.
 * The sheet belongs to wb. */
cow_sheet *table_add_sheet(cow_workbook *wb, const char *name,
                           const char *title);

/* Move the sheet at tab index from to index to (0: first), the others
 * keeping their order. Out-of-range indexes leave wb as it is. */
void table_move_sheet(cow_workbook *wb, size_t from, size_t to);

/* Make name an acceptable, unique sheet name into out (>= 128 bytes):
 * drop []:*?/\ and control characters, squeeze runs of spaces (so that
 * "a / b" becomes "a b"), trim spaces and leading/trailing
 * apostrophes, cut to 31 characters (at a UTF-8 boundary), "Sheet" when
 * nothing is left, "History" (reserved by Excel) becomes "History_", and
 * " (2)", " (3)"... is appended (cutting the base) while the name equals
 * a sheet name already in wb, ignoring ASCII case as Excel does. */
void table_safe_sheet_name(const cow_workbook *wb, const char *name,
                           char *out, size_t n);

/* Append a column; unit may be NULL. Columns must all be added before the
 * first row: afterwards this fails with COW_EUSAGE. Also COW_ELIMIT past
 * COW_SHEET_MAX_COLS. */
int table_add_column(cow_sheet *s, const char *name, const char *unit,
                     cow_colfmt fmt, cow_err *e);

/* Fixed width for column col in Excel character units (0 = from content).
 * COW_EUSAGE when col is out of range or width is not in
 * [0, COW_COLUMN_WIDTH_MAX]. */
int table_set_width(cow_sheet *s, size_t col, double width, cow_err *e);

/* Append a row of empty cells; returns its index (0-based data row). */
size_t table_add_row(cow_sheet *s);
/* The row number a spreadsheet shows for data row `row` (1-based, after
 * the title and header rows). */
size_t table_sheet_row(const cow_sheet *s, size_t row);

/* Set one cell, replacing (and freeing) what was there. These return
 * COW_EUSAGE when row or col is out of range (a caller bug); the cell is
 * then untouched. table_set_text copies s (NULL stores an empty cell). */
int table_set_num(cow_sheet *s, size_t row, size_t col, double v, cow_err *e);
int table_set_int(cow_sheet *s, size_t row, size_t col, int64_t v, cow_err *e);
int table_set_text(cow_sheet *s, size_t row, size_t col, const char *v,
                   cow_err *e);
int table_set_bool(cow_sheet *s, size_t row, size_t col, bool v, cow_err *e);
int table_set_empty(cow_sheet *s, size_t row, size_t col, cow_err *e);

/* The cell at (row, col), or NULL when out of range. Borrowed. */
const cow_cell *table_cell(const cow_sheet *s, size_t row, size_t col);

/* Attach a native chart (replacing any earlier one). spec's strings are
 * copied. COW_EUSAGE when a column index is out of range, first_col >
 * last_col, or the only series column is x_col (x_col is skipped when it
 * falls inside the series range). */
int table_set_chart(cow_sheet *s, const cow_sheet_chart *spec, cow_err *e);

/* Place the PNG png_path with its top-left corner on the worksheet cell
 * (row, col), sized scale times its pixels. row and col count worksheet
 * cells from 0, title and header rows included (not data rows), so a
 * "Charts" sheet without columns can stack images:
 *
 *     cow_sheet *c = table_add_sheet(wb, "Charts", NULL);
 *     c->freeze_header = false;
 *     table_add_image(c, "out/cdf.png", 1, 0, 0.5, "Latency CDF", e);
 *     table_add_image(c, "out/rss.png", 30, 0, 0.5, "RSS during fork", e);
 *
 * A caption (may be NULL) is written as a string cell just above the
 * image, at (row - 1, col), and is also the image's alt text; without one
 * the alt text is the file's base name. Both strings are copied. The file
 * is not opened here: xlsx_write() checks it. COW_EUSAGE when png_path is
 * NULL or empty, the cell is outside the grid, scale is not in
 * (0, COW_IMAGE_SCALE_MAX], or a caption is given with row 0 (no cell
 * above for it). */
int table_add_image(cow_sheet *s, const char *png_path, size_t row,
                    size_t col, double scale, const char *caption, cow_err *e);

/* Copy s into a new string with invalid UTF-8 replaced by U+FFFD (EF BF
 * BD). The caller frees the result with free(). */
char *table_utf8_dup(const char *s);

#endif
