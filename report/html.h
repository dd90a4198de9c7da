/* html.h -- one self-contained HTML page (the report's index.html) written
 * from plain structs: headings with anchors, paragraphs, tables, figures
 * and findings. No JavaScript, no network: the CSS is inline and images
 * are files beside the page.
 *
 *     cow_html h;
 *     html_begin(&h, fp, "cowtail report");
 *     html_heading(&h, 2, "run-bgsave-t1", "bgsave-t1");
 *     html_para(&h, NULL, "p99.9 rose 1.7 ms during bgsave#1");
 *     cow_html_table *t = html_table_new("Phases", 2, (const char *[]){"phase", "n"});
 *     html_table_row(t); html_table_set(t, 0, "bgsave#1", NULL, 0); ...
 *     html_table_write(&h, t); html_table_free(t);
 *     rc = html_end(&h, &e);          COW_EIO when a write failed
 *
 * Text: every string given as text or attribute is written as valid UTF-8
 * (an invalid byte becomes U+FFFD), control characters show as \xNN (an
 * ANSI escape from a log line cannot reach the page), and & < > " ' are
 * escaped, so a label "<script>" is shown, never run. Only the tag names
 * and the class names this module writes itself are markup.
 *
 * Ownership: the writer holds fp but never closes it. Tables own copies
 * of their strings; html_table_free(NULL) is a no-op. */
#ifndef COW_REPORT_HTML_H
#define COW_REPORT_HTML_H

#include <stddef.h>
#include <stdio.h>

#include "err.h"

typedef struct cow_html {
    FILE *fp;        /* where the page goes (the caller's) */
    int open_sections; /* <section>s not yet closed */
} cow_html;

/* The doctype, <head> (charset, title, inline CSS) and <body>. */
void html_begin(cow_html *h, FILE *fp, const char *title);
/* Close open sections, </body></html>; COW_EIO when any write failed. */
int html_end(cow_html *h, cow_err *e);

/* s escaped for text or a double-quoted attribute (NULL writes nothing). */
void html_text(cow_html *h, const char *s);
/* printf-style, the result escaped as html_text. */
void html_textf(cow_html *h, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* <section id=...> ... html_section_end. id may be NULL. */
void html_section(cow_html *h, const char *id, const char *cls);
void html_section_end(cow_html *h);
/* <hN id=id>text <a class="self" href="#id">#</a></hN>: the link a person
 * copies to paste one run or one finding. level 1..4; id may be NULL. */
void html_heading(cow_html *h, int level, const char *id, const char *text);
/* html_heading with a mark beside the text (html_badge); badge NULL: none. */
void html_heading_badge(cow_html *h, int level, const char *id, const char *text,
                        const char *badge);
/* A mark set apart beside a name: " <strong class="badge">badge</strong>"
 * ("SYNTHETIC"); NULL writes nothing. */
void html_badge(cow_html *h, const char *badge);
/* <p class=cls>text</p>; cls may be NULL. */
void html_para(cow_html *h, const char *cls, const char *text);
/* <a href=href>text</a> (href escaped as an attribute). */
void html_link(cow_html *h, const char *href, const char *text);
/* <ul class=cls> with one <li> per item, each an optional link. */
void html_list(cow_html *h, const char *cls, const char *const *items,
               const char *const *hrefs, size_t n);

/* A chart: the PNG beside the page, or the reason it was not drawn. */
typedef struct cow_html_figure {
    const char *id;       /* anchor, or NULL */
    const char *file;     /* image file name beside the page, NULL/"" = not drawn */
    const char *title;    /* caption and alt text */
    const char *why;      /* why not drawn (file empty) */
    int width, height;    /* intrinsic size of the PNG, pixels */
} cow_html_figure;
void html_figure(cow_html *h, const cow_html_figure *f);

/* One piece of a finding's evidence. */
typedef struct cow_html_evidence {
    const char *metric;   /* what was measured */
    const char *value;    /* its value as text */
    const char *source;   /* file:line, or "analysis" */
} cow_html_evidence;

/* A doctor's finding: heading with its own anchor, the claim, the chart
 * that shows it (a link to the figure's anchor), the advice, and the
 * evidence as a table of metric, value and file:line. */
typedef struct cow_html_finding {
    const char *id;          /* anchor */
    const char *severity;    /* critical / warning / info (also its class) */
    const char *rule;        /* rule id */
    const char *title;       /* the claim */
    const char *advice;      /* what to do */
    const char *chart_href;  /* "#fig-..." of the chart that shows it, or NULL */
    const char *chart_title; /* that chart's title */
    const cow_html_evidence *ev;
    size_t nev;
} cow_html_finding;
void html_finding(cow_html *h, const cow_html_finding *f);

/* A table of text cells; a numeric column is right-aligned. */
typedef struct cow_html_cell {
    char *text;           /* owned; NULL = empty */
    char *href;           /* owned link target, or NULL */
} cow_html_cell;

typedef struct cow_html_table {
    char *caption;        /* owned, or NULL */
    size_t ncols;         /* columns */
    char **head;          /* ncols owned header texts */
    unsigned char *num;   /* ncols flags: right-aligned numbers */
    cow_html_cell *cells; /* nrows * ncols, row-major */
    size_t nrows, cap;    /* rows used / allocated */
} cow_html_table;

/* A table with ncols columns named head[0..ncols) (copied). A header
 * that starts with '#' marks a numeric column; the '#' is not shown. */
cow_html_table *html_table_new(const char *caption, size_t ncols, const char *const *head);
/* Append an empty row; returns its index. */
size_t html_table_row(cow_html_table *t);
/* Set cell (last row, col) to text (copied) with an optional link. */
void html_table_set(cow_html_table *t, size_t col, const char *text, const char *href);
void html_table_setf(cow_html_table *t, size_t col, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void html_table_write(cow_html *h, const cow_html_table *t);
void html_table_free(cow_html_table *t);

/* An anchor id for label: prefix, '-', then label's file stem (letters,
 * digits, '-' and '_'; each other byte run becomes one '_'; label.h keeps
 * it short). Not unique by itself ("a b" and "a/b" give the same): callers
 * that need uniqueness add a suffix. The caller frees it. */
char *html_anchor(const char *prefix, const char *label);

#endif
