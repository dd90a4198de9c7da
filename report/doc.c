/* doc.c -- the report's document and its three renderers (doc.h).
 *
 * Layers: the model (tables, lines, held runs, anchors), then one
 * renderer per format. A renderer only lays out and escapes: every
 * string passes report_visible first, then the format's own escaping
 * (Markdown: label_safe's COW_LABEL_MD through it; HTML: html.h; the
 * workbook: table.h and xlsx.c). */
#include "doc.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "strbuf.h"
#include "visible.h"

/* ------------------------------------------------------------ the model */

static char *dup_or_null(const char *s)
{
    return s ? xstrdup(s) : NULL;
}

void doc_init(cow_doc *d)
{
    memset(d, 0, sizeof(*d));
}

void doc_table_init(cow_doc_table *t, const char *caption, size_t ncols,
                    const char *const *head)
{
    size_t c;
    memset(t, 0, sizeof(*t));
    t->caption = dup_or_null(caption);
    t->ncols = ncols;
    t->head = xcalloc(ncols ? ncols : 1, sizeof(char *));
    t->num = xcalloc(ncols ? ncols : 1, 1);
    for (c = 0; c < ncols; c++) {
        t->num[c] = head[c][0] == '#';
        t->head[c] = xstrdup(head[c] + t->num[c]);
    }
}

void doc_table_release(cow_doc_table *t)
{
    size_t i;
    for (i = 0; t->cells != NULL && i < t->nrows * t->ncols; i++) {
        free(t->cells[i]);
        free(t->href[i]);
    }
    for (i = 0; t->badge != NULL && i < t->nrows; i++)
        free(t->badge[i]);
    free(t->badge);
    for (i = 0; t->head != NULL && i < t->ncols; i++)
        free(t->head[i]);
    free(t->cells);
    free(t->href);
    free(t->head);
    free(t->num);
    free(t->caption);
    memset(t, 0, sizeof(*t));
}

size_t doc_table_row(cow_doc_table *t)
{
    size_t c, old = t->cap;
    if (t->nrows + 1 > t->cap) {
        t->cap = t->cap ? 2 * t->cap : 16;
        t->cells = xrealloc(t->cells, t->cap * (t->ncols ? t->ncols : 1) * sizeof(char *));
        t->href = xrealloc(t->href, t->cap * (t->ncols ? t->ncols : 1) * sizeof(char *));
        t->badge = xrealloc(t->badge, t->cap * sizeof(char *));
        for (c = old * t->ncols; c < t->cap * t->ncols; c++)
            t->cells[c] = t->href[c] = NULL;
        for (c = old; c < t->cap; c++)
            t->badge[c] = NULL;
    }
    return t->nrows++;
}

void doc_table_set(cow_doc_table *t, size_t row, size_t col, const char *text,
                   const char *href)
{
    size_t k;
    if (row >= t->nrows || col >= t->ncols)
        return;
    k = row * t->ncols + col;
    free(t->cells[k]);
    free(t->href[k]);
    t->cells[k] = dup_or_null(text);
    t->href[k] = dup_or_null(href);
}

void doc_table_setf(cow_doc_table *t, size_t row, size_t col, const char *fmt, ...)
{
    cow_sbuf b = {0};
    va_list ap;
    char *s;
    va_start(ap, fmt);
    sbuf_vadd(&b, fmt, ap);
    va_end(ap);
    s = sbuf_take(&b);
    doc_table_set(t, row, col, s, NULL);
    free(s);
}

const char *doc_table_cell(const cow_doc_table *t, size_t row, size_t col)
{
    return row < t->nrows && col < t->ncols ? t->cells[row * t->ncols + col] : NULL;
}

void doc_table_badge(cow_doc_table *t, size_t row, const char *badge)
{
    if (row >= t->nrows)
        return;
    free(t->badge[row]);
    t->badge[row] = dup_or_null(badge);
}

const char *doc_table_row_badge(const cow_doc_table *t, size_t row)
{
    return row < t->nrows ? t->badge[row] : NULL;
}

void doc_add_line(cow_doc *d, const char *run, const char *href, const char *badge,
                  const char *text)
{
    cow_doc_line *l;
    d->lines = xgrow(d->lines, sizeof(*d->lines), d->nlines + 1, &d->caplines);
    l = &d->lines[d->nlines++];
    l->run = xstrdup(run ? run : "");
    l->href = dup_or_null(href);
    l->badge = dup_or_null(badge);
    l->text = xstrdup(text ? text : "");
}

cow_doc_held *doc_add_held(cow_doc *d, const char *run, const char *href, const char *badge,
                           const char *text)
{
    cow_doc_held *x;
    d->held = xgrow(d->held, sizeof(*d->held), d->nheld + 1, &d->capheld);
    x = &d->held[d->nheld++];
    memset(x, 0, sizeof(*x));
    x->run = xstrdup(run ? run : "");
    x->href = dup_or_null(href);
    x->badge = dup_or_null(badge);
    x->text = xstrdup(text ? text : "");
    return x;
}

void doc_release(cow_doc *d)
{
    size_t i;
    doc_table_release(&d->answer);
    for (i = 0; i < d->nlines; i++) {
        free(d->lines[i].run);
        free(d->lines[i].href);
        free(d->lines[i].badge);
        free(d->lines[i].text);
    }
    for (i = 0; i < d->nheld; i++) {
        free(d->held[i].run);
        free(d->held[i].href);
        free(d->held[i].badge);
        free(d->held[i].text);
        doc_table_release(&d->held[i].what);
    }
    for (i = 0; i < d->nanchors; i++) {
        free(d->anchors[i]);
        if (d->badges != NULL)
            free(d->badges[i]);
    }
    free(d->anchors);
    free(d->badges);
    free(d->badge_note);
    free(d->lines);
    free(d->held);
    free(d->quiet);
    free(d->legend);
    free(d->worst_file);
    free(d->worst_title);
    free(d->worst_id);
    memset(d, 0, sizeof(*d));
}

/* ------------------------------------------------------------ Markdown */

/* s as Markdown text (a table cell, a list item): visible, then escaped. */
static void md_put(FILE *fp, const char *s)
{
    char *t = report_visible(s ? s : "", COW_LABEL_MD);
    fputs(t, fp);
    free(t);
}

/* A name's mark, set apart: " **MARK**" (NULL: nothing). */
static void md_badge(FILE *fp, const char *badge)
{
    if (badge == NULL)
        return;
    fputs(" **", fp);
    md_put(fp, badge);
    fputs("**", fp);
}

static void md_table(const cow_doc_table *t, FILE *fp)
{
    size_t r, c;
    if (t->caption) {
        md_put(fp, t->caption);
        fputs("\n\n", fp);
    }
    fputs("|", fp);
    for (c = 0; c < t->ncols; c++) {
        fputs(" ", fp);
        md_put(fp, t->head[c]);
        fputs(" |", fp);
    }
    fputs("\n|", fp);
    for (c = 0; c < t->ncols; c++)
        fputs(t->num[c] ? " ---: |" : " --- |", fp);
    fputs("\n", fp);
    for (r = 0; r < t->nrows; r++) {
        fputs("|", fp);
        for (c = 0; c < t->ncols; c++) {
            const char *x = t->cells[r * t->ncols + c];
            fputs(" ", fp);
            if (x != NULL && x[0])
                md_put(fp, x);
            if (c == 0)
                md_badge(fp, t->badge[r]);
            fputs(" |", fp);
        }
        fputs("\n", fp);
    }
    fputs("\n", fp);
}

void doc_md_answer(const cow_doc *d, FILE *fp)
{
    size_t i;
    fputs("## The answer\n\n", fp);
    if (d->answer.nrows > 0)
        md_table(&d->answer, fp);
    else
        fputs("No run has anything to report.\n\n", fp);
    if (d->badge_note) {
        md_put(fp, d->badge_note);
        fputs("\n\n", fp);
    }
    for (i = 0; i < d->nlines; i++) {
        fputs("- **", fp);
        md_put(fp, d->lines[i].run);
        fputs("**", fp);
        md_badge(fp, d->lines[i].badge);
        fputs(": ", fp);
        md_put(fp, d->lines[i].text);
        fputs("\n", fp);
    }
    if (d->quiet) {
        fputs(d->nlines ? "\n" : "", fp);
        md_put(fp, d->quiet);
        fputs("\n", fp);
    }
    fputs("\n", fp);
    for (i = 0; i < d->nheld; i++) {
        if (i == 0)
            fputs("### Runs without latency samples\n\n", fp);
        fputs("**", fp);
        md_put(fp, d->held[i].run);
        fputs("**", fp);
        md_badge(fp, d->held[i].badge);
        fputs(": ", fp);
        md_put(fp, d->held[i].text);
        fputs("\n\n", fp);
        if (d->held[i].what.nrows > 0)
            md_table(&d->held[i].what, fp);
    }
    if (d->legend) {
        md_put(fp, d->legend);
        fputs("\n\n", fp);
    }
}

/* ------------------------------------------------------------ HTML */

static void html_doc_table(cow_html *h, const cow_doc_table *t, const char *id,
                           const char *cls)
{
    size_t r, c;
    fputs("<table", h->fp);
    if (id) {
        fputs(" id=\"", h->fp);
        html_text(h, id);
        fputs("\"", h->fp);
    }
    if (cls) {
        fputs(" class=\"", h->fp);
        html_text(h, cls);
        fputs("\"", h->fp);
    }
    fputs(">\n", h->fp);
    if (t->caption) {
        fputs("<caption>", h->fp);
        html_text(h, t->caption);
        fputs("</caption>\n", h->fp);
    }
    fputs("<thead><tr>", h->fp);
    for (c = 0; c < t->ncols; c++) {
        fputs("<th>", h->fp);
        html_text(h, t->head[c]);
        fputs("</th>", h->fp);
    }
    fputs("</tr></thead>\n<tbody>\n", h->fp);
    for (r = 0; r < t->nrows; r++) {
        fputs("<tr>", h->fp);
        for (c = 0; c < t->ncols; c++) {
            size_t k = r * t->ncols + c;
            fputs(t->num[c] ? "<td class=\"num\">" : "<td>", h->fp);
            if (t->href[k] && t->cells[k])
                html_link(h, t->href[k], t->cells[k]);
            else
                html_text(h, t->cells[k]);
            if (c == 0 && t->badge != NULL)
                html_badge(h, t->badge[r]);
            fputs("</td>", h->fp);
        }
        fputs("</tr>\n", h->fp);
    }
    fputs("</tbody>\n</table>\n", h->fp);
}

void doc_html_answer(const cow_doc *d, cow_html *h, int width, int height)
{
    size_t i;
    if (d->answer.nrows > 0)
        html_doc_table(h, &d->answer, "answer-table", "answer-table");
    else
        html_para(h, "answer", "No run has anything to report.");
    if (d->badge_note)
        html_para(h, "note badge-note", d->badge_note);
    if (d->worst_file != NULL) {
        cow_html_figure f;
        memset(&f, 0, sizeof(f));
        f.id = d->worst_id;
        f.file = d->worst_file;
        f.title = d->worst_title;
        f.width = width;
        f.height = height;
        html_figure(h, &f);
    }
    html_section(h, NULL, "answers");
    html_heading(h, 2, "answers", "The answer in words");
    if (d->nlines > 0) {
        fputs("<ol class=\"answers-list\">\n", h->fp);
        for (i = 0; i < d->nlines; i++) {
            fputs("<li>", h->fp);
            if (d->lines[i].href)
                html_link(h, d->lines[i].href, d->lines[i].run);
            else
                html_text(h, d->lines[i].run);
            html_badge(h, d->lines[i].badge);
            fputs(": ", h->fp);
            html_text(h, d->lines[i].text);
            fputs("</li>\n", h->fp);
        }
        fputs("</ol>\n", h->fp);
    }
    if (d->quiet)
        html_para(h, NULL, d->quiet);
    for (i = 0; i < d->nheld; i++) {
        if (i == 0)
            html_heading(h, 3, "held", "Runs without latency samples");
        fputs("<p>", h->fp);
        if (d->held[i].href)
            html_link(h, d->held[i].href, d->held[i].run);
        else
            html_text(h, d->held[i].run);
        html_badge(h, d->held[i].badge);
        fputs(": ", h->fp);
        html_text(h, d->held[i].text);
        fputs("</p>\n", h->fp);
        if (d->held[i].what.nrows > 0) {
            fputs("<div class=\"tbl\">", h->fp);
            html_doc_table(h, &d->held[i].what, NULL, NULL);
            fputs("</div>\n", h->fp);
        }
    }
    if (d->legend)
        html_para(h, "note", d->legend);
    html_section_end(h);
}

/* ------------------------------------------------------------ workbook */

#define TRY(x) do { int rc_ = (x); if (rc_ != COW_OK) return rc_; } while (0)

int doc_sheet_answer(const cow_doc *d, cow_workbook *wb, cow_err *e)
{
    const cow_doc_table *t = &d->answer;
    char *title = d->badge_note && t->caption ? xasprintf("%s. %s", t->caption, d->badge_note)
                                              : NULL;
    cow_sheet *s = table_add_sheet(wb, "Answer", title ? title : t->caption);
    size_t r, c, row;
    free(title);
    for (c = 0; c < t->ncols; c++)
        TRY(table_add_column(s, t->head[c], NULL, COW_COLFMT_TEXT, e));
    for (r = 0; r < t->nrows; r++) {
        row = table_add_row(s);
        for (c = 0; c < t->ncols; c++) {
            const char *x = t->cells[r * t->ncols + c];
            if (c == 0 && t->badge[r] != NULL) {
                char *v = xasprintf("%s %s", x ? x : "", t->badge[r]);
                int rc = table_set_text(s, row, c, v, e);
                free(v);
                TRY(rc);
            } else if (x != NULL && x[0]) {
                TRY(table_set_text(s, row, c, x, e));
            }
        }
    }
    table_move_sheet(wb, wb->nsheets - 1, 0);
    return COW_OK;
}
