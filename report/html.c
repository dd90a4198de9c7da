/* html.c -- the report's HTML page from plain structs (html.h). Every
 * string from the captures passes through esc(): label_safe for valid
 * UTF-8 without control characters, then the five HTML metacharacters. */
#include "visible.h"
#include "html.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "label.h"
#include "mem.h"
#include "strbuf.h"

/* Print-friendly, readable without JavaScript; wide tables scroll inside
 * their own box instead of widening the page. */
static const char css[] =
    "body{font:15px/1.45 'DejaVu Sans',Verdana,sans-serif;color:#1a1a1a;"
    "max-width:1280px;margin:0 auto;padding:0 1.2em 3em}\n"
    "h1{font-size:1.7em;margin:.8em 0 .2em}h2{font-size:1.35em;margin:1.6em 0 .4em;"
    "border-bottom:2px solid #ddd;padding-bottom:.2em}h3{font-size:1.1em;margin:1.2em 0 .3em}"
    "h4{font-size:1em;margin:1em 0 .3em}\n"
    "a{color:#0b5cad}a.self{color:#999;text-decoration:none;font-weight:normal;"
    "margin-left:.3em}a.self:hover{color:#0b5cad}\n"
    ".lede{color:#444}.note{color:#555;font-size:.9em}\n"
    ".answers{border-left:4px solid #0072b2;padding:.2em 1em;background:#f4f8fc}\n"
    ".answer{font-size:1.05em;border-left:4px solid #0072b2;padding:.3em 1em;"
    "background:#f4f8fc}\n"
    ".tbl{overflow-x:auto;margin:.6em 0}\n"
    "table.answer-table{font-size:.8em;margin:.4em 0 1em}\n"
    "table{border-collapse:collapse;font-size:.9em}caption{text-align:left;"
    "font-weight:bold;padding:.3em 0}\n"
    "th,td{border:1px solid #ccc;padding:.2em .5em;vertical-align:top}"
    "th{background:#f0f0f0;text-align:left}td.num{text-align:right;"
    "font-variant-numeric:tabular-nums;white-space:nowrap}\n"
    "figure{margin:1em 0}figure img{max-width:100%;height:auto;border:1px solid #ddd}"
    "figcaption{color:#444;font-size:.9em}\n"
    ".finding{border:1px solid #ddd;border-left:5px solid #999;padding:.2em .9em;"
    "margin:.8em 0}.finding.critical{border-left-color:#c0392b}"
    ".finding.warning{border-left-color:#d55e00}.finding.info{border-left-color:#0072b2}\n"
    ".sev{font-weight:bold;text-transform:uppercase;font-size:.8em;margin-right:.4em}\n"
    ".badge{background:#7a1fa2;color:#fff;font-size:.75em;font-weight:bold;"
    "padding:.05em .4em;border-radius:3px;white-space:nowrap}\n"
    "code,.src{font-family:'DejaVu Sans Mono',monospace;font-size:.88em}\n"
    "nav ul{columns:3;padding-left:1.2em}\n"
    ":target{outline:3px solid #f0c040}\n"
    "@media print{a.self{display:none}nav{display:none}figure,table{break-inside:avoid}"
    "body{max-width:none}}\n";

static void put(cow_html *h, const char *s)
{
    fputs(s, h->fp);
}

/* s for text and double-quoted attributes. */
static void esc(FILE *fp, const char *s)
{
    char *t, *p;
    if (s == NULL)
        return;
    t = report_visible(s, COW_LABEL_TEXT);
    for (p = t; *p; p++)
        switch (*p) {
        case '&': fputs("&amp;", fp); break;
        case '<': fputs("&lt;", fp); break;
        case '>': fputs("&gt;", fp); break;
        case '"': fputs("&quot;", fp); break;
        case '\'': fputs("&#39;", fp); break;
        default: fputc(*p, fp);
        }
    free(t);
}

void html_text(cow_html *h, const char *s)
{
    esc(h->fp, s);
}

__attribute__((format(printf, 1, 0)))
static char *vformat(const char *fmt, va_list ap)
{
    cow_sbuf b = {0};
    sbuf_vadd(&b, fmt, ap);
    return sbuf_take(&b);
}

void html_textf(cow_html *h, const char *fmt, ...)
{
    va_list ap;
    char *s;
    va_start(ap, fmt);
    s = vformat(fmt, ap);
    va_end(ap);
    esc(h->fp, s);
    free(s);
}

void html_begin(cow_html *h, FILE *fp, const char *title)
{
    memset(h, 0, sizeof(*h));
    h->fp = fp;
    put(h, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
           "<title>");
    esc(fp, title);
    put(h, "</title>\n<style>\n");
    put(h, css);
    put(h, "</style>\n</head>\n<body>\n");
}

int html_end(cow_html *h, cow_err *e)
{
    while (h->open_sections > 0)
        html_section_end(h);
    put(h, "</body>\n</html>\n");
    if (ferror(h->fp))
        return COW_FAIL(e, COW_EIO, "writing the HTML page: %s", strerror(errno));
    return COW_OK;
}

static void attr(cow_html *h, const char *name, const char *v)
{
    if (v == NULL || !v[0])
        return;
    fprintf(h->fp, " %s=\"", name);
    esc(h->fp, v);
    put(h, "\"");
}

void html_section(cow_html *h, const char *id, const char *cls)
{
    put(h, "<section");
    attr(h, "id", id);
    attr(h, "class", cls);
    put(h, ">\n");
    h->open_sections++;
}

void html_section_end(cow_html *h)
{
    if (h->open_sections <= 0)
        return;
    put(h, "</section>\n");
    h->open_sections--;
}

void html_badge(cow_html *h, const char *badge)
{
    if (badge == NULL)
        return;
    put(h, " <strong class=\"badge\">");
    esc(h->fp, badge);
    put(h, "</strong>");
}

void html_heading(cow_html *h, int level, const char *id, const char *text)
{
    html_heading_badge(h, level, id, text, NULL);
}

void html_heading_badge(cow_html *h, int level, const char *id, const char *text,
                        const char *badge)
{
    if (level < 1)
        level = 1;
    if (level > 4)
        level = 4;
    fprintf(h->fp, "<h%d", level);
    attr(h, "id", id);
    put(h, ">");
    esc(h->fp, text);
    html_badge(h, badge);
    if (id && id[0]) {
        put(h, "<a class=\"self\" href=\"#");
        esc(h->fp, id);
        put(h, "\" title=\"link to this\">#</a>");
    }
    fprintf(h->fp, "</h%d>\n", level);
}

void html_para(cow_html *h, const char *cls, const char *text)
{
    put(h, "<p");
    attr(h, "class", cls);
    put(h, ">");
    esc(h->fp, text);
    put(h, "</p>\n");
}

void html_link(cow_html *h, const char *href, const char *text)
{
    put(h, "<a");
    attr(h, "href", href);
    put(h, ">");
    esc(h->fp, text);
    put(h, "</a>");
}

void html_list(cow_html *h, const char *cls, const char *const *items,
               const char *const *hrefs, size_t n)
{
    size_t i;
    put(h, "<ul");
    attr(h, "class", cls);
    put(h, ">\n");
    for (i = 0; i < n; i++) {
        put(h, "<li>");
        if (hrefs && hrefs[i])
            html_link(h, hrefs[i], items[i]);
        else
            esc(h->fp, items[i]);
        put(h, "</li>\n");
    }
    put(h, "</ul>\n");
}

void html_figure(cow_html *h, const cow_html_figure *f)
{
    put(h, "<figure");
    attr(h, "id", f->id);
    put(h, ">\n");
    if (f->file && f->file[0]) {
        put(h, "<img");
        attr(h, "src", f->file);
        attr(h, "alt", f->title);
        if (f->width > 0 && f->height > 0)
            fprintf(h->fp, " width=\"%d\" height=\"%d\"", f->width, f->height);
        put(h, ">\n<figcaption>");
        esc(h->fp, f->title);
        put(h, " (");
        html_link(h, f->file, f->file);
        put(h, ")");
        if (f->id && f->id[0]) {
            put(h, "<a class=\"self\" href=\"#");
            esc(h->fp, f->id);
            put(h, "\" title=\"link to this chart\">#</a>");
        }
        put(h, "</figcaption>\n");
    } else {
        put(h, "<figcaption>");
        esc(h->fp, f->title);
        put(h, ": not drawn: ");
        esc(h->fp, f->why);
        put(h, "</figcaption>\n");
    }
    put(h, "</figure>\n");
}

void html_finding(cow_html *h, const cow_html_finding *f)
{
    size_t i;
    put(h, "<div class=\"finding ");
    esc(h->fp, f->severity);
    put(h, "\"");
    attr(h, "id", f->id);
    put(h, ">\n<p><span class=\"sev\">");
    esc(h->fp, f->severity);
    put(h, "</span><code>");
    esc(h->fp, f->rule);
    put(h, "</code> ");
    esc(h->fp, f->title);
    if (f->id && f->id[0]) {
        put(h, "<a class=\"self\" href=\"#");
        esc(h->fp, f->id);
        put(h, "\" title=\"link to this finding\">#</a>");
    }
    put(h, "</p>\n");
    if (f->chart_href && f->chart_href[0]) {
        put(h, "<p class=\"note\">Shown in ");
        html_link(h, f->chart_href, f->chart_title ? f->chart_title : f->chart_href);
        put(h, ".</p>\n");
    }
    if (f->advice && f->advice[0]) {
        put(h, "<p><b>Do:</b> ");
        esc(h->fp, f->advice);
        put(h, "</p>\n");
    }
    if (f->nev > 0) {
        put(h, "<div class=\"tbl\"><table>\n<thead><tr><th>evidence</th><th>value</th>"
               "<th>from (file:line)</th></tr></thead>\n<tbody>\n");
        for (i = 0; i < f->nev; i++) {
            put(h, "<tr><td>");
            esc(h->fp, f->ev[i].metric);
            put(h, "</td><td>");
            esc(h->fp, f->ev[i].value);
            put(h, "</td><td class=\"src\">");
            esc(h->fp, f->ev[i].source);
            put(h, "</td></tr>\n");
        }
        put(h, "</tbody>\n</table></div>\n");
    }
    put(h, "</div>\n");
}

/* ------------------------------------------------------------ tables */

cow_html_table *html_table_new(const char *caption, size_t ncols, const char *const *head)
{
    cow_html_table *t = xcalloc(1, sizeof(*t));
    size_t c;
    t->caption = caption ? xstrdup(caption) : NULL;
    t->ncols = ncols;
    t->head = xcalloc(ncols ? ncols : 1, sizeof(char *));
    t->num = xcalloc(ncols ? ncols : 1, 1);
    for (c = 0; c < ncols; c++) {
        const char *s = head[c] ? head[c] : "";
        t->num[c] = s[0] == '#';
        t->head[c] = xstrdup(s + t->num[c]);
    }
    return t;
}

size_t html_table_row(cow_html_table *t)
{
    if (t->nrows + 1 > t->cap) {
        size_t rows = t->cap ? t->cap * 2 : 8;
        t->cells = xrealloc(t->cells, rows * t->ncols * sizeof(cow_html_cell));
        memset(t->cells + t->cap * t->ncols, 0,
               (rows - t->cap) * t->ncols * sizeof(cow_html_cell));
        t->cap = rows;
    }
    return t->nrows++;
}

void html_table_set(cow_html_table *t, size_t col, const char *text, const char *href)
{
    cow_html_cell *c;
    if (t->nrows == 0 || col >= t->ncols)
        return;
    c = &t->cells[(t->nrows - 1) * t->ncols + col];
    free(c->text);
    free(c->href);
    c->text = text ? xstrdup(text) : NULL;
    c->href = href ? xstrdup(href) : NULL;
}

void html_table_setf(cow_html_table *t, size_t col, const char *fmt, ...)
{
    va_list ap;
    char *s;
    va_start(ap, fmt);
    s = vformat(fmt, ap);
    va_end(ap);
    html_table_set(t, col, s, NULL);
    free(s);
}

void html_table_write(cow_html *h, const cow_html_table *t)
{
    size_t r, c;
    put(h, "<div class=\"tbl\"><table>\n");
    if (t->caption) {
        put(h, "<caption>");
        esc(h->fp, t->caption);
        put(h, "</caption>\n");
    }
    put(h, "<thead><tr>");
    for (c = 0; c < t->ncols; c++) {
        put(h, "<th>");
        esc(h->fp, t->head[c]);
        put(h, "</th>");
    }
    put(h, "</tr></thead>\n<tbody>\n");
    for (r = 0; r < t->nrows; r++) {
        put(h, "<tr>");
        for (c = 0; c < t->ncols; c++) {
            const cow_html_cell *x = &t->cells[r * t->ncols + c];
            put(h, t->num[c] ? "<td class=\"num\">" : "<td>");
            if (x->href)
                html_link(h, x->href, x->text);
            else
                esc(h->fp, x->text);
            put(h, "</td>");
        }
        put(h, "</tr>\n");
    }
    put(h, "</tbody>\n</table></div>\n");
}

void html_table_free(cow_html_table *t)
{
    size_t i;
    if (t == NULL)
        return;
    for (i = 0; i < t->nrows * t->ncols; i++) {
        free(t->cells[i].text);
        free(t->cells[i].href);
    }
    for (i = 0; i < t->ncols; i++)
        free(t->head[i]);
    free(t->head);
    free(t->num);
    free(t->cells);
    free(t->caption);
    free(t);
}

char *html_anchor(const char *prefix, const char *label)
{
    char *stem = label_stem_new(label ? label : ""), *id = xasprintf("%s-%s", prefix, stem);

    free(stem);
    return id;
}
