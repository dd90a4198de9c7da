/* test_html.c -- report/html.c: everything from the captures is escaped,
 * valid UTF-8 and free of control bytes; tables, figures and findings
 * carry the anchors and links the page's readers follow. */
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "visible.h"
#include "minunit.h"

/* The page html_begin .. f .. html_end writes, as a string (caller frees). */
static char *page(void (*f)(cow_html *h))
{
    char *buf = NULL;
    size_t n = 0;
    FILE *fp = open_memstream(&buf, &n);
    cow_html h;
    cow_err e;
    memset(&e, 0, sizeof(e));
    html_begin(&h, fp, "t");
    f(&h);
    CHECK_INT(html_end(&h, &e), COW_OK);
    fclose(fp);
    return buf;
}

static void hostile_text(cow_html *h)
{
    html_para(h, NULL, "<script>alert(1)</script> \"q\" 'a' & \x1b[2J \xff end");
}

static void html_should_escape_markup_quotes_ansi_and_bad_utf8(void)
{
    char *s = page(hostile_text);
    CHECK(strstr(s, "<script") == NULL);
    CHECK(strstr(s, "&lt;script&gt;alert(1)&lt;/script&gt; &quot;q&quot; &#39;a&#39; &amp; "
                    "\\x1B[2J \xef\xbf\xbd end") != NULL);
    CHECK(strchr(s, '\x1b') == NULL);
    free(s);
}

static void hostile_attrs(cow_html *h)
{
    cow_html_figure f = {"fig-\"x", "a\" onerror=\"alert(1).png", "t<", NULL, 10, 20};
    html_heading(h, 2, "run-\"><b>", "x");
    html_figure(h, &f);
    html_link(h, "#\"'><i>", "y");
}

static void html_should_escape_attributes(void)
{
    char *s = page(hostile_attrs);
    CHECK(strstr(s, "onerror=\"") == NULL);
    CHECK(strstr(s, "src=\"a&quot; onerror=&quot;alert(1).png\"") != NULL);
    CHECK(strstr(s, "id=\"run-&quot;&gt;&lt;b&gt;\"") != NULL);
    CHECK(strstr(s, "href=\"#&quot;&#39;&gt;&lt;i&gt;\"") != NULL);
    CHECK(strstr(s, "width=\"10\" height=\"20\"") != NULL);
    free(s);
}

static void a_table(cow_html *h)
{
    static const char *const head[] = {"run", "#p99 (ms)"};
    cow_html_table *t = html_table_new("cap", 2, head);
    size_t i;
    for (i = 0; i < 20; i++) { /* past the first allocation */
        html_table_row(t);
        html_table_set(t, 0, i == 19 ? "last<" : "r", i == 19 ? "#run-last" : NULL);
        html_table_setf(t, 1, "%.3f", (double)i);
    }
    CHECK_INT(t->nrows, 20);
    html_table_write(h, t);
    html_table_free(t);
    html_table_free(NULL);
}

static void html_should_write_tables_with_numeric_columns_and_links(void)
{
    char *s = page(a_table);
    CHECK(strstr(s, "<caption>cap</caption>") != NULL);
    CHECK(strstr(s, "<th>p99 (ms)</th>") != NULL); /* the '#' marks, not shown */
    CHECK(strstr(s, "<td class=\"num\">19.000</td>") != NULL);
    CHECK(strstr(s, "<td><a href=\"#run-last\">last&lt;</a></td>") != NULL);
    free(s);
}

static void a_finding(cow_html *h)
{
    cow_html_evidence ev[2] = {{"latest_fork_usec", "4586", "samples/a/info.txt:11224"},
                               {"p99.9 delta", "+9.7 ms", "analysis"}};
    cow_html_finding f = {"run-a-slow_fork", "warning", "slow_fork", "fork took 33 ms",
                          "keep overcommit 1", "#fig-timeline-a", "Latency over time: a",
                          ev, 2};
    html_finding(h, &f);
}

static void html_should_link_a_finding_to_its_chart_with_evidence_rows(void)
{
    char *s = page(a_finding);
    CHECK(strstr(s, "<div class=\"finding warning\" id=\"run-a-slow_fork\">") != NULL);
    CHECK(strstr(s, "Shown in <a href=\"#fig-timeline-a\">Latency over time: a</a>") != NULL);
    CHECK(strstr(s, "<td class=\"src\">samples/a/info.txt:11224</td>") != NULL);
    CHECK(strstr(s, "href=\"#run-a-slow_fork\"") != NULL);
    free(s);
}

static void html_should_make_anchor_ids_without_spaces(void)
{
    char *id = html_anchor("run", "fleet/cache-a/bgsave");
    CHECK_STR(id, "run-fleet_cache-a_bgsave");
    free(id);
    id = html_anchor("run", "a b <c>");
    CHECK(strpbrk(id, " <>\"'") == NULL);
    free(id);
}

static void sections(cow_html *h)
{
    html_section(h, NULL, "run");
    html_section(h, NULL, "inner");
}

static void html_should_close_open_sections_at_the_end(void)
{
    char *s = page(sections);
    CHECK(strstr(s, "</section>\n</section>\n</body>\n</html>\n") != NULL);
    free(s);
}

/* The invisible controls are shown, every one of them, in every sink; the
 * characters beside them are kept. */
static void visible_should_show_bidi_and_zero_width_controls(void)
{
    static const struct {
        const char *in, *out;
    } rows[] = {
        {"abc\xE2\x80\xAE" "fed", "abc\\u202Efed"},      /* RLO */
        {"a\xE2\x80\xAA" "b\xE2\x80\xAC", "a\\u202Ab\\u202C"},
        {"\xE2\x81\xA6x\xE2\x81\xA9", "\\u2066x\\u2069"}, /* isolates */
        {"z\xE2\x80\x8Bw\xE2\x80\x8D", "z\\u200Bw\\u200D"}, /* zero width */
        {"\xE2\x80\x8E\xE2\x80\x8F", "\\u200E\\u200F"},   /* LRM, RLM */
        {"\xEF\xBB\xBFlabel", "\\uFEFFlabel"},              /* a BOM inside */
        {"caf\xC3\xA9 \xE2\x80\x94 ok", "caf\xC3\xA9 \xE2\x80\x94 ok"}, /* kept */
    };
    size_t i;
    for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        char *t = report_visible(rows[i].in, COW_LABEL_TEXT);
        CHECK_STR(t, rows[i].out);
        free(t);
    }
    {   /* the page shows it too */
        char *page = NULL;
        size_t n = 0;
        FILE *fp = open_memstream(&page, &n);
        cow_html h;
        h.fp = fp;
        h.open_sections = 0;
        html_text(&h, "run\xE2\x80\xAE" "x");
        fclose(fp);
        CHECK_STR(page, "run\\u202Ex");
        free(page);
    }
}

int main(void)
{
    RUN(visible_should_show_bidi_and_zero_width_controls);
    RUN(html_should_escape_markup_quotes_ansi_and_bad_utf8);
    RUN(html_should_escape_attributes);
    RUN(html_should_write_tables_with_numeric_columns_and_links);
    RUN(html_should_link_a_finding_to_its_chart_with_evidence_rows);
    RUN(html_should_make_anchor_ids_without_spaces);
    RUN(html_should_close_open_sections_at_the_end);
    return REPORT();
}
