/* doc.h -- the report's document: what app/ decided once (the answer
 * table, the answer in words, the runs whose only evidence is not latency
 * samples, each run's anchor), as plain text in plain
 * structs, and the three renderers that write it: Markdown (summary.md),
 * HTML (index.html, through html.h) and the workbook's first sheet
 * (table.h). The renderers decide nothing: they escape and lay out the
 * cells they are given, so the three outputs cannot disagree.
 *
 *     cow_doc d;
 *     doc_init(&d);
 *     cow_doc_table *t = &d.answer;      doc_table_init(t, "Answer", 3, head);
 *     size_t r = doc_table_row(t);       doc_table_set(t, r, 0, "bgsave-t2", "#run-bgsave-t2");
 *     doc_md_answer(&d, fp);  doc_html_answer(&d, &h);  doc_sheet_answer(&d, wb, &e);
 *     doc_release(&d);
 *
 * Ownership: the document owns copies of every string given to it;
 * doc_release frees them all (and is safe on a zeroed doc). */
#ifndef COW_REPORT_DOC_H
#define COW_REPORT_DOC_H

#include <stddef.h>
#include <stdio.h>

#include "err.h"
#include "html.h"
#include "table.h"

/* A table of text cells. */
typedef struct cow_doc_table {
    char *caption;        /* what it shows (owned), or NULL */
    size_t ncols;         /* columns */
    char **head;          /* ncols header texts (owned) */
    unsigned char *num;   /* ncols flags: right-aligned */
    char **cells;         /* nrows * ncols, row-major, owned; NULL = empty */
    char **href;          /* nrows * ncols in-page link targets ("#run-x"), or NULL */
    char **badge;         /* nrows: a mark set beside the row's first cell
                             ("SYNTHETIC", owned), or NULL */
    size_t nrows, cap;    /* rows used / allocated */
} cow_doc_table;

/* One line of the answer in words. */
typedef struct cow_doc_line {
    char *run;            /* the run's label (owned) */
    char *href;           /* its section's anchor in index.html (owned), or NULL */
    char *text;           /* what the run's answer says, without the label (owned) */
    char *badge;          /* the run's mark beside its label (owned), or NULL */
} cow_doc_line;

/* A run without latency samples that holds other evidence: what it holds. */
typedef struct cow_doc_held {
    char *run;            /* label (owned) */
    char *href;           /* anchor (owned), or NULL */
    char *text;           /* one sentence: what it holds and what that shows (owned) */
    char *badge;          /* the run's mark beside its label (owned), or NULL */
    cow_doc_table what;   /* its evidence, one row per series or finding */
} cow_doc_held;

typedef struct cow_doc {
    cow_doc_table answer; /* one row per run that has something to say, by severity */
    cow_doc_line *lines;  /* the same rows in words, same order */
    size_t nlines, caplines;
    char *quiet;          /* the line counting the runs with nothing to say, or NULL */
    char *legend;         /* how to read the verdict words and bounds (owned) */
    char *worst_file;     /* the chart of the worst run (a PNG beside the page), or NULL */
    char *worst_title;    /* its caption */
    char *worst_id;       /* its figure's anchor */
    cow_doc_held *held;   /* runs without samples that hold evidence */
    size_t nheld, capheld;
    char **anchors;       /* each run's anchor in index.html, in run order (owned) */
    char **badges;        /* nanchors: each run's mark beside its name wherever
                             a page names it ("SYNTHETIC"), NULL entries none */
    size_t nanchors;
    char *badge_note;     /* what the marks mean, when some run has one, or NULL */
} cow_doc;

void doc_init(cow_doc *d);
void doc_release(cow_doc *d);

/* A table of ncols columns named head[0..ncols) (copied); a header that
 * starts with '#' marks a right-aligned column (the '#' is not shown). */
void doc_table_init(cow_doc_table *t, const char *caption, size_t ncols,
                    const char *const *head);
void doc_table_release(cow_doc_table *t);
/* Append an empty row; returns its index. */
size_t doc_table_row(cow_doc_table *t);
/* Set cell (row, col) to text (copied; NULL: empty) with an optional link.
 * Out of range is ignored (a caller bug shows as an empty cell). */
void doc_table_set(cow_doc_table *t, size_t row, size_t col, const char *text,
                   const char *href);
void doc_table_setf(cow_doc_table *t, size_t row, size_t col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The cell's text, or NULL. */
const char *doc_table_cell(const cow_doc_table *t, size_t row, size_t col);
/* Set the mark beside row's first cell (copied; NULL: none). */
void doc_table_badge(cow_doc_table *t, size_t row, const char *badge);
/* The row's mark, or NULL. */
const char *doc_table_row_badge(const cow_doc_table *t, size_t row);

/* Append a line, a held run (strings copied; NULL allowed where the
 * field says so). */
void doc_add_line(cow_doc *d, const char *run, const char *href, const char *badge,
                  const char *text);
cow_doc_held *doc_add_held(cow_doc *d, const char *run, const char *href, const char *badge,
                           const char *text);

/* Every string a renderer writes passes report_visible (visible.h) first:
 * the one place a label is made visible, then escaped for the format. */

/* A mark beside a name is laid out as its format sets a word apart:
 * Markdown "name **MARK**", HTML "name <strong class=badge>MARK</strong>",
 * the workbook's cell "name MARK"; the text of all three reads "name MARK".
 * badge_note follows the table (in the workbook: the sheet's title). */

/* Markdown: the answer table, the answer in words, the quiet line, the
 * runs that hold evidence without samples, the legend. */
void doc_md_answer(const cow_doc *d, FILE *fp);
/* HTML: the answer table (class "answer", id "answer-table") first, then
 * the worst run's chart (width x height px), the answer in words, the
 * held runs and the legend. */
void doc_html_answer(const cow_doc *d, cow_html *h, int width, int height);
/* The workbook's first sheet, "Answer": the answer table, cell for cell,
 * then the answer in words below it. */
int doc_sheet_answer(const cow_doc *d, cow_workbook *wb, cow_err *e);

#endif
