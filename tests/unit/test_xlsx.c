/* test_xlsx.c -- the table model (table.h) and the .xlsx writer (xlsx.h).
 *
 * The writer tests unzip the produced file with `unzip -p` (skipped with a
 * note when unzip is missing) and compare the sheet XML, split one tag per
 * line, with the files of tests/data/xlsx/. Regenerate those with
 * COW_UPDATE_GOLDEN=1 and review the diff like code. The image tests draw
 * their PNGs with cairo (cow_report links it) and compare the embedded
 * bytes with the originals. */
#include <cairo.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dirent.h>

#include "minunit.h"
#include "table.h"
#include "xlsx.h"

/* 2024-05-01T12:00:00Z: the pinned document date. */
#define CREATED_S INT64_C(1714564800)

static char tmpdir[256];

/* ------------------------------------------------------------ helpers */

static char *read_all(FILE *f, size_t *n)
{
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    size_t k;
    while (buf && (k = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += k;
        if (cap - len < 2)
            buf = realloc(buf, cap *= 2);
    }
    if (buf)
        buf[len] = '\0';
    if (n)
        *n = len;
    return buf;
}

static char *read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    char *s = read_all(f, n);
    fclose(f);
    return s;
}

static bool have_unzip(void)
{
    static int have = -1;
    if (have < 0) {
        have = system("unzip -v >/dev/null 2>&1") == 0;
        if (!have)
            printf("note: unzip not installed, zip content checks skipped\n");
    }
    return have;
}

/* A member of the zip, split one tag per line; NULL when absent. */
static char *unzip_member(const char *zip, const char *member)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "unzip -p '%s' '%s' 2>/dev/null", zip, member);
    FILE *p = popen(cmd, "r");
    if (p == NULL)
        return NULL;
    size_t n;
    char *raw = read_all(p, &n);
    pclose(p);
    if (raw == NULL || n == 0) {
        free(raw);
        return NULL;
    }
    char *out = malloc(2 * n + 2), *o = out;
    for (size_t i = 0; i < n; i++) {
        if (raw[i] == '\r')
            continue;
        if (raw[i] == '<' && i > 0 && raw[i - 1] == '>' && o[-1] != '\n')
            *o++ = '\n';
        *o++ = raw[i];
    }
    if (o == out || o[-1] != '\n')
        *o++ = '\n';
    *o = '\0';
    free(raw);
    return out;
}

/* Compare (or with COW_UPDATE_GOLDEN=1 rewrite) tests/data/xlsx/<name>. */
static void check_golden(const char *name, const char *got)
{
    const char *dir = getenv("COW_TESTDATA");
    char path[1024];
    snprintf(path, sizeof path, "%s/xlsx/%s", dir ? dir : "tests/data", name);
    const char *upd = getenv("COW_UPDATE_GOLDEN");
    if (upd && strcmp(upd, "1") == 0) {
        FILE *f = fopen(path, "wb");
        CHECK(f != NULL);
        if (f) {
            fputs(got, f);
            fclose(f);
            printf("updated %s\n", path);
        }
        return;
    }
    char *want = read_file(path, NULL);
    CHECK(want != NULL);
    if (want && strcmp(want, got) != 0) {
        fprintf(stderr, "golden mismatch: %s (COW_UPDATE_GOLDEN=1 rewrites)\n", path);
        CHECK(strcmp(want, got) == 0);
    }
    free(want);
}

/* A member of the zip as raw bytes (*n of them); NULL when absent. */
static char *unzip_raw(const char *zip, const char *member, size_t *n)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "unzip -p '%s' '%s' 2>/dev/null", zip, member);
    FILE *p = popen(cmd, "r");
    if (p == NULL)
        return NULL;
    char *raw = read_all(p, n);
    pclose(p);
    if (raw && *n == 0) {
        free(raw);
        return NULL;
    }
    return raw;
}

static void tmp_path(char *out, size_t n, const char *name)
{
    snprintf(out, n, "%s/%s", tmpdir, name);
}

/* Number of entries in tmpdir other than . and .. */
static int tmp_entries(void)
{
    DIR *d = opendir(tmpdir);
    int n = 0;
    for (struct dirent *de; d && (de = readdir(d)) != NULL;)
        n += strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0;
    if (d)
        closedir(d);
    return n;
}

/* ------------------------------------------------------- the model */

static void sheet_names_should_be_excel_safe(void)
{
    static const struct { const char *in, *want; } cases[] = {
        /* 1.1 */ {"Latency [p99]: a/b*c?d\\e", "Latency p99 abcde"},
        /* 1.2 */ {"", "Sheet"},
        /* 1.3 */ {"  'quoted'  ", "quoted"},
        /* 1.4 */ {"0123456789012345678901234567890123456789", "0123456789012345678901234567890"},
        /* 1.5 */ {"History", "History_"},
        /* 1.6 */ {"tab\there", "tabhere"},
        /* 1.7 */ {"[]:*?/\\", "Sheet"},
        /* 1.8 */ {"a / b  c", "a b c"},
        /* 1.9 */ {"bad \xff byte", "bad \xEF\xBF\xBD byte"},
        /* 1.10: 30 'a' then a 2-unit emoji: 32 UTF-16 units, cut before it */
        {"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\xF0\x9F\x98\x80", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"},
        /* 1.11: 31 two-byte characters stay whole */
        {"ééééééééééééééééééééééééééééééééé", "ééééééééééééééééééééééééééééééé"},
        /* 1.12: a cut leaving a trailing apostrophe is trimmed again */
        {"abcdefghijklmnopqrstuvwxyz1234'x", "abcdefghijklmnopqrstuvwxyz1234"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char out[128];
        table_safe_sheet_name(NULL, cases[i].in, out, sizeof out);
        CHECK_STR(out, cases[i].want);
    }
}

static void sheet_names_should_be_deduped_ignoring_case(void)
{
    cow_workbook *wb = table_book_new(CREATED_S);
    CHECK_STR(table_add_sheet(wb, "Runs", NULL)->name, "Runs");
    CHECK_STR(table_add_sheet(wb, "runs", NULL)->name, "runs (2)");
    CHECK_STR(table_add_sheet(wb, "RUNS", NULL)->name, "RUNS (3)");
    CHECK_STR(table_add_sheet(wb, "Runs:", NULL)->name, "Runs (4)");
    const char *l = "0123456789012345678901234567890123";
    CHECK_STR(table_add_sheet(wb, l, NULL)->name, "0123456789012345678901234567890");
    CHECK_STR(table_add_sheet(wb, l, NULL)->name, "012345678901234567890123456 (2)");
    CHECK_INT(wb->nsheets, 6);
    table_book_free(wb);
    table_book_free(NULL);
}

static void model_should_copy_and_repair_strings(void)
{
    cow_workbook *wb = table_book_new(0);
    CHECK_INT(wb->created_s, 946684800);
    cow_err e = COW_ERR_INIT;
    char name[] = "p99", unit[] = "ms", text[] = "ok \xc3\x28 \xed\xa0\x80 \xe2\x82";
    cow_sheet *s = table_add_sheet(wb, "s", "title");
    CHECK_INT(table_add_column(s, name, unit, COW_COLFMT_MS3, &e), 0);
    CHECK_INT(table_add_column(s, "x", "", COW_COLFMT_TEXT, &e), 0);
    size_t r = table_add_row(s);
    CHECK_INT(table_set_text(s, r, 1, text, &e), 0);
    name[0] = unit[0] = text[0] = 'X';
    CHECK_STR(s->cols[0].name, "p99");
    CHECK_STR(s->cols[0].unit, "ms");
    CHECK(s->cols[1].unit == NULL);
    /* 2 bad bytes (C3 before '(' , ED A0 80 a surrogate: 3), truncated E2 82: 2 */
    CHECK_STR(table_cell(s, r, 1)->v.text,
              "ok \xEF\xBF\xBD( \xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD \xEF\xBF\xBD\xEF\xBF\xBD");
    /* Overwriting a text cell frees it (ASan would tell). */
    CHECK_INT(table_set_num(s, r, 1, 2.5, &e), 0);
    CHECK_INT(table_cell(s, r, 1)->kind, COW_CELL_NUM);
    CHECK_INT(table_set_text(s, r, 1, NULL, &e), 0);
    CHECK_INT(table_cell(s, r, 1)->kind, COW_CELL_EMPTY);
    CHECK_INT(table_set_text(s, r, 1, "again", &e), 0);
    table_book_free(wb);
}

static void model_should_refuse_misuse(void)
{
    cow_workbook *wb = table_book_new(CREATED_S);
    cow_err e = COW_ERR_INIT;
    cow_sheet *s = table_add_sheet(wb, "s", NULL);
    CHECK_INT(table_add_column(s, "a", NULL, COW_COLFMT_INT, &e), 0);
    CHECK_INT(table_add_column(s, "b", NULL, COW_COLFMT_INT, &e), 0);
    for (int i = 0; i < 100; i++) /* several growths */
        CHECK_INT(table_set_int(s, table_add_row(s), 1, i, &e), 0);
    CHECK_INT(table_cell(s, 99, 1)->v.i, 99);
    CHECK_INT(table_cell(s, 99, 0)->kind, COW_CELL_EMPTY);
    CHECK(table_cell(s, 100, 0) == NULL);
    CHECK_INT(table_add_column(s, "late", NULL, COW_COLFMT_INT, &e), COW_EUSAGE);
    CHECK(strstr(e.msg, "after its rows") != NULL);
    CHECK_INT(table_set_num(s, 100, 0, 1, &e), COW_EUSAGE);
    CHECK_INT(table_set_bool(s, 0, 2, true, &e), COW_EUSAGE);
    CHECK_INT(table_set_width(s, 2, 10, &e), COW_EUSAGE);
    CHECK_INT(table_set_width(s, 1, -1, &e), COW_EUSAGE);
    cow_sheet_chart bad = {COW_SHEET_CHART_LINE, NULL, NULL, NULL, 0, 1, 2};
    CHECK_INT(table_set_chart(s, &bad, &e), COW_EUSAGE);
    bad.last_col = 0;
    CHECK_INT(table_set_chart(s, &bad, &e), COW_EUSAGE);
    bad.first_col = 0; /* 0..0 is only the x column: no series */
    CHECK_INT(table_set_chart(s, &bad, &e), COW_EUSAGE);
    CHECK_INT(table_set_width(s, 1, 256, &e), COW_EUSAGE);
    CHECK_INT(table_set_width(s, 1, 255, &e), 0);
    CHECK(s->chart == NULL);
    table_book_free(wb);
}

/* ------------------------------------------------- date serials */

static void serial_should_round_trip_epoch_us(void)
{
    CHECK_NEAR(xlsx_serial_from_us(0), 25569.0, 0);
    CHECK_NEAR(xlsx_serial_from_us(-1), 25569.0 - 1.0 / 86400e6, 1e-12);
    /* 2024-05-01T12:00:00Z */
    CHECK_NEAR(xlsx_serial_from_us(CREATED_S * 1000000), 45413.5, 0);
    static const int64_t us[] = {
        INT64_C(1700000000123456), INT64_C(1714564800000001),
        INT64_C(1714564799999999), INT64_C(3453667199999999), /* 2079-06-05 */
        INT64_C(946684800000000),  INT64_C(1234567890987654),
    };
    for (size_t i = 0; i < sizeof us / sizeof us[0]; i++) {
        double s = xlsx_serial_from_us(us[i]);
        double day = floor(s);
        int64_t back = ((int64_t)day - 25569) * INT64_C(86400000000) +
                       llround((s - day) * 86400e6);
        CHECK_INT(back, us[i]); /* the double is exact to the us until 2079 */
        /* What the file holds: 16 significant digits, within 1 us. */
        char txt[64];
        snprintf(txt, sizeof txt, "%.16G", s);
        double f = strtod(txt, NULL), fday = floor(f);
        int64_t fback = ((int64_t)fday - 25569) * INT64_C(86400000000) +
                        llround((f - fday) * 86400e6);
        CHECK(llabs(fback - us[i]) <= 1);
    }
}

/* ------------------------------------------------- the writer */

/* Two sheets: phase percentiles with a chart, and awkward text. */
static cow_workbook *sample_book(void)
{
    cow_err e = COW_ERR_INIT;
    cow_workbook *wb = table_book_new(CREATED_S);
    cow_sheet *s = table_add_sheet(wb, "Latency by phase", "Fork latency by phase");
    table_add_column(s, "phase", NULL, COW_COLFMT_TEXT, &e);
    table_add_column(s, "n", NULL, COW_COLFMT_INT, &e);
    table_add_column(s, "p50", "ms", COW_COLFMT_MS3, &e);
    table_add_column(s, "p99", "ms", COW_COLFMT_MS3, &e);
    table_add_column(s, "p99.9", "ms", COW_COLFMT_MS3, &e);
    table_add_column(s, "share", NULL, COW_COLFMT_PCT, &e);
    table_add_column(s, "start", "UTC", COW_COLFMT_TIME_US, &e);
    static const struct { const char *phase; int64_t n; double p50, p99, p999, share; int64_t t; } rows[] = {
        {"before", 60000, 0.181, 0.412, 0.977, 0.6, INT64_C(1714564800000000)},
        {"fork", 12, 0.190, 38.125, NAN, 0.00012, INT64_C(1714564830123456)},
        {"during save", 35000, 0.243, 5.871, 12.004, 0.35, INT64_C(1714564830124000)},
        {"after", 4988, 0.179, 0.398, 0.901, 0.04988, INT64_C(1714564871000000)},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        size_t r = table_add_row(s);
        table_set_text(s, r, 0, rows[i].phase, &e);
        table_set_int(s, r, 1, rows[i].n, &e);
        table_set_num(s, r, 2, rows[i].p50, &e);
        table_set_num(s, r, 3, rows[i].p99, &e);
        table_set_num(s, r, 4, rows[i].p999, &e);
        table_set_num(s, r, 5, rows[i].share, &e);
        table_set_int(s, r, 6, rows[i].t, &e);
    }
    cow_sheet_chart ch = {COW_SHEET_CHART_LINE, "Latency percentiles by phase",
                          "phase", "=latency (ms)", 0, 2, 4};
    table_set_chart(s, &ch, &e);

    cow_sheet *t = table_add_sheet(wb, "Notes / raw: [x]", NULL);
    t->autofilter = false;
    table_add_column(t, "key", NULL, COW_COLFMT_TEXT, &e);
    table_add_column(t, "value", NULL, COW_COLFMT_TEXT, &e);
    table_add_column(t, "flag", NULL, COW_COLFMT_TEXT, &e);
    table_add_column(t, "count", NULL, COW_COLFMT_INT, &e);
    table_set_width(t, 1, 30, &e);
    static const char *texts[][2] = {
        {"formula", "=1+2"}, {"plus", "+cmd|' /C calc'!A0"}, {"minus", "-1"},
        {"at", "@SUM(A1)"}, {"bad utf8", "a\xff" "b"}, {"control", "bell\x07 tab\t"},
        {"spaces", "  padded  "}, {"xml", "<b>&amp;</b>"},
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        size_t r = table_add_row(t);
        table_set_text(t, r, 0, texts[i][0], &e);
        table_set_text(t, r, 1, texts[i][1], &e);
        table_set_bool(t, r, 2, i % 2 == 0, &e);
    }
    table_set_int(t, 0, 3, (INT64_C(1) << 53) + 1, &e); /* beyond a double: text */
    table_set_int(t, 1, 3, INT64_C(1714564830123456), &e); /* exact number */
    table_set_int(t, 2, 3, -5, &e);
    table_set_num(t, 3, 3, INFINITY, &e);
    CHECK_INT(e.code, 0);
    return wb;
}

static void writer_should_match_golden_sheets(void)
{
    cow_workbook *wb = sample_book();
    cow_err e = COW_ERR_INIT;
    char path[512];
    tmp_path(path, sizeof path, "golden.xlsx");
    CHECK_INT(xlsx_write(wb, path, &e), 0);
    CHECK_STR(e.msg, "");
    table_book_free(wb);
    if (!have_unzip())
        return;
    static const char *members[][2] = {
        {"xl/worksheets/sheet1.xml", "sheet1.xml"},
        {"xl/worksheets/sheet2.xml", "sheet2.xml"},
        {"xl/sharedStrings.xml", "sharedStrings.xml"},
        {"xl/charts/chart1.xml", "chart1.xml"},
        {"xl/workbook.xml", "workbook.xml"},
    };
    for (size_t i = 0; i < sizeof members / sizeof members[0]; i++) {
        char *xml = unzip_member(path, members[i][0]);
        CHECK(xml != NULL);
        if (xml)
            check_golden(members[i][1], xml);
        free(xml);
    }
    char *core = unzip_member(path, "docProps/core.xml");
    CHECK(core && strstr(core, "<dc:title>cowtail report</dc:title>"));
    CHECK(core && strstr(core, ">2024-05-01T12:00:00Z</dcterms:created>"));
    free(core);
}

/* Index of the shared string s in sst, or -1. */
static int sst_index(const char *sst, const char *s)
{
    char want[256];
    snprintf(want, sizeof want, ">%s</t>", s);
    const char *hit = strstr(sst, want);
    if (hit == NULL)
        return -1;
    int idx = -1;
    for (const char *p = sst; p && p < hit; p = strstr(p + 1, "<si>"))
        idx += strncmp(p, "<si>", 4) == 0;
    return idx;
}

static void text_should_never_become_a_formula(void)
{
    cow_workbook *wb = sample_book();
    cow_err e = COW_ERR_INIT;
    char path[512];
    tmp_path(path, sizeof path, "formula.xlsx");
    CHECK_INT(xlsx_write(wb, path, &e), 0);
    table_book_free(wb);
    if (!have_unzip())
        return;
    char *sheet = unzip_member(path, "xl/worksheets/sheet2.xml");
    char *sst = unzip_member(path, "xl/sharedStrings.xml");
    CHECK(sheet && sst);
    if (sheet && sst) {
        /* No formula anywhere; +Inf (D5) is an empty cell. */
        CHECK(strstr(sheet, "<f>") == NULL);
        CHECK(strstr(sheet, "<c r=\"D5\"") == NULL);
        /* "=1+2" sits in B2 as shared string number k, a string cell. */
        int k = sst_index(sst, "=1+2");
        CHECK(k >= 0);
        char cell[64];
        const char *b2 = strstr(sheet, "<c r=\"B2\""), *end = b2 ? strstr(b2, "</c>") : NULL;
        snprintf(cell, sizeof cell, "<v>%d</v>", k);
        CHECK(b2 != NULL && end != NULL); /* its style (top-aligned) may stand between */
        if (b2 != NULL && end != NULL) {
            const char *t = strstr(b2, " t=\"s\">"), *v = strstr(b2, cell);
            CHECK(t != NULL && t < end && v != NULL && v < end);
        }
        CHECK(sst_index(sst, "-1") >= 0 && sst_index(sst, "@SUM(A1)") >= 0);
        CHECK(sst_index(sst, "+cmd|' /C calc'!A0") >= 0);
        /* 2^53 + 1 kept exact as text; an epoch us as an exact number. */
        CHECK(sst_index(sst, "9007199254740993") >= 0);
        CHECK(strstr(sheet, "<v>1714564830123456</v>") != NULL);
    }
    free(sheet);
    free(sst);
}

static void long_text_should_be_cut_visibly(void)
{
    cow_err e = COW_ERR_INIT;
    cow_workbook *wb = table_book_new(CREATED_S);
    cow_sheet *s = table_add_sheet(wb, "long", NULL);
    table_add_column(s, "line", NULL, COW_COLFMT_TEXT, &e);
    size_t n = 40000;
    char *big = malloc(n + 1);
    for (size_t i = 0; i < n; i++)
        big[i] = i % 2 ? 'x' : 'y';
    big[n] = '\0';
    table_set_text(s, table_add_row(s), 0, big, &e);
    table_set_text(s, table_add_row(s), 0, big + n - 32767, &e); /* fits */
    free(big);
    char path[512];
    tmp_path(path, sizeof path, "long.xlsx");
    CHECK_INT(xlsx_write(wb, path, &e), 0);
    table_book_free(wb);
    if (!have_unzip())
        return;
    char *sst = unzip_member(path, "xl/sharedStrings.xml");
    const char *cut = sst ? strstr(sst, " [truncated]</t>") : NULL;
    CHECK(cut != NULL);
    if (cut) {
        const char *t = cut;
        while (t > sst && t[-1] != '>')
            t--;
        CHECK_INT(cut - t + 12, 32767); /* Excel's limit, mark included */
    }
    free(sst);
}

static void two_runs_should_give_identical_bytes(void)
{
    char a[512], b[512];
    tmp_path(a, sizeof a, "run1.xlsx");
    tmp_path(b, sizeof b, "run2.xlsx");
    cow_err e = COW_ERR_INIT;
    cow_workbook *wb = sample_book();
    CHECK_INT(xlsx_write(wb, a, &e), 0);
    sleep(1); /* so a wall-clock time stamp anywhere would differ */
    CHECK_INT(xlsx_write(wb, b, &e), 0);
    table_book_free(wb);
    size_t na = 0, nb = 0;
    char *da = read_file(a, &na), *db = read_file(b, &nb);
    CHECK(da && db);
    CHECK(na > 1000);
    CHECK_INT(na, nb);
    CHECK(da && db && na == nb && memcmp(da, db, na) == 0);
    free(da);
    free(db);
    /* Same permissions as a plain fopen would give, not mkstemp's 0600. */
    struct stat st;
    mode_t mask = umask(0);
    umask(mask);
    CHECK(stat(a, &st) == 0 && (st.st_mode & 0777) == (0666 & ~mask));
}

static void unwritable_path_should_fail_clearly(void)
{
    cow_err e = COW_ERR_INIT;
    cow_workbook *wb = sample_book();
    int before = tmp_entries();
    const char *missing = "/nonexistent-cowtail-dir/report.xlsx";
    CHECK_INT(xlsx_write(wb, missing, &e), COW_EIO);
    CHECK_STR(e.path, missing);
    CHECK(strstr(e.msg, "cannot create the workbook") != NULL);
    CHECK(strstr(e.msg, "No such file or directory") != NULL);

    /* A folder in the way: found only at the rename, nothing left behind. */
    char dir[512];
    tmp_path(dir, sizeof dir, "adir");
    CHECK(mkdir(dir, 0755) == 0);
    cow_err_clear(&e);
    CHECK_INT(xlsx_write(wb, dir, &e), COW_EIO);
    CHECK_STR(e.path, dir);
    CHECK(strstr(e.msg, "Is a directory") != NULL);
    CHECK_INT(tmp_entries(), before + 1);
    rmdir(dir);
    table_book_free(wb);
}

static void limits_should_fail_before_writing(void)
{
    cow_err e = COW_ERR_INIT;
    cow_workbook *wb = table_book_new(CREATED_S);
    cow_sheet *s = table_add_sheet(wb, "tall", "title");
    table_add_column(s, "v", NULL, COW_COLFMT_INT, &e);
    /* Fake the row count: the check must come before any cell is read. */
    s->nrows = COW_SHEET_MAX_ROWS - 1;
    char path[512];
    tmp_path(path, sizeof path, "tall.xlsx");
    int before = tmp_entries();
    CHECK_INT(xlsx_write(wb, path, &e), COW_ELIMIT);
    CHECK(strstr(e.msg, "Excel holds 1048574 per sheet") != NULL);
    CHECK_STR(e.path, path);
    CHECK_INT(tmp_entries(), before);
    s->nrows = 0;
    table_book_free(wb);
}

/* ------------------------------------------------- images */

/* A w x h PNG drawn with cairo: a blue frame and a red diagonal. */
static bool write_png(const char *path, int w, int h)
{
    cairo_surface_t *sf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
    cairo_t *cr = cairo_create(sf);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_set_source_rgb(cr, 0.1, 0.3, 0.8);
    cairo_set_line_width(cr, 6);
    cairo_rectangle(cr, 3, 3, w - 6, h - 6);
    cairo_stroke(cr);
    cairo_set_source_rgb(cr, 0.85, 0.1, 0.1);
    cairo_move_to(cr, 10, h - 10);
    cairo_line_to(cr, w - 10, 10);
    cairo_stroke(cr);
    cairo_destroy(cr);
    cairo_status_t st = cairo_surface_write_to_png(sf, path);
    cairo_surface_destroy(sf);
    return st == CAIRO_STATUS_SUCCESS;
}

static void images_should_be_checked_by_the_model(void)
{
    cow_workbook *wb = table_book_new(CREATED_S);
    cow_sheet *s = table_add_sheet(wb, "Charts", NULL);
    cow_err e = COW_ERR_INIT;
    CHECK_INT(table_add_image(s, "", 1, 0, 1, NULL, &e), COW_EUSAGE);
    CHECK_INT(table_add_image(s, NULL, 1, 0, 1, NULL, &e), COW_EUSAGE);
    CHECK_INT(table_add_image(s, "a.png", 1, 0, 0, NULL, &e), COW_EUSAGE);
    CHECK_INT(table_add_image(s, "a.png", 1, 0, NAN, NULL, &e), COW_EUSAGE);
    CHECK_INT(table_add_image(s, "a.png", 1, 0, 10.5, NULL, &e), COW_EUSAGE);
    CHECK_INT(table_add_image(s, "a.png", COW_SHEET_MAX_ROWS, 0, 1, NULL, &e), COW_EUSAGE);
    CHECK_INT(table_add_image(s, "a.png", 1, COW_SHEET_MAX_COLS, 1, NULL, &e), COW_EUSAGE);
    CHECK_INT(table_add_image(s, "a.png", 0, 0, 1, "no room above", &e), COW_EUSAGE);
    CHECK(strstr(e.msg, "'a.png'") && strstr(e.msg, "row >= 1 when captioned"));
    CHECK_INT(s->nimages, 0);
    /* Path kept byte for byte (not repaired), caption repaired, both copied. */
    char path[] = "dir/\xff.png", cap[] = "cap \xff";
    CHECK_INT(table_add_image(s, path, 0, 2, 0.5, NULL, &e), 0);
    CHECK_INT(table_add_image(s, path, 3, 2, 10, cap, &e), 0);
    path[0] = cap[0] = 'X';
    CHECK_INT(s->nimages, 2);
    CHECK_STR(s->images[1].png_path, "dir/\xff.png");
    CHECK_STR(s->images[1].caption, "cap \xEF\xBF\xBD");
    CHECK(s->images[0].caption == NULL);
    CHECK_INT(s->images[1].row, 3);
    CHECK_NEAR(s->images[0].scale, 0.5, 0);
    table_book_free(wb); /* frees the images (ASan would tell) */
}

/* A "Charts" sheet: title row, no table, two captioned images and one
 * without a caption, the same PNG twice. */
static cow_workbook *charts_book(const char *big, const char *small)
{
    cow_err e = COW_ERR_INIT;
    cow_workbook *wb = table_book_new(CREATED_S);
    cow_sheet *c = table_add_sheet(wb, "Charts", "Charts");
    c->freeze_header = false;
    CHECK_INT(table_add_image(c, big, 2, 1, 0.5, "Latency CDF & p99", &e), 0);
    CHECK_INT(table_add_image(c, small, 2, 6, 1, NULL, &e), 0);
    CHECK_INT(table_add_image(c, big, 12, 1, 1, "bell\x07 tab\tend", &e), 0);
    return wb;
}

static void images_should_be_embedded_at_their_cells(void)
{
    char big[512], small[512], path[512];
    tmp_path(big, sizeof big, "cdf.png");
    tmp_path(small, sizeof small, "small.png");
    tmp_path(path, sizeof path, "charts.xlsx");
    CHECK(write_png(big, 200, 100));
    CHECK(write_png(small, 40, 30));
    cow_workbook *wb = charts_book(big, small);
    cow_err e = COW_ERR_INIT;
    CHECK_INT(xlsx_write(wb, path, &e), 0);
    CHECK_STR(e.msg, "");
    table_book_free(wb);
    if (!have_unzip())
        return;
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "unzip -l '%s'", path);
    FILE *p = popen(cmd, "r");
    char *list = p ? read_all(p, NULL) : NULL;
    if (p)
        pclose(p);
    CHECK(list && strstr(list, "xl/media/image1.png"));
    CHECK(list && strstr(list, "xl/media/image2.png"));
    CHECK(list && strstr(list, "xl/drawings/drawing1.xml"));
    free(list);
    /* The PNGs are embedded byte for byte. */
    static const char *media[] = {"xl/media/image1.png", "xl/media/image2.png"};
    const char *orig[] = {big, small};
    for (size_t i = 0; i < 2; i++) {
        size_t nin = 0, nout = 0;
        char *in = read_file(orig[i], &nin);
        char *out = unzip_raw(path, media[i], &nout);
        CHECK(in && out && nin > 8);
        CHECK_INT(nout, nin);
        CHECK(in && out && nin == nout && memcmp(in, out, nin) == 0);
        free(in);
        free(out);
    }
    /* Anchors (0-based col/row), sizes in EMU (9525 per pixel at 96 dpi),
     * alt texts: caption escaped, control characters made spaces, base
     * name when there is no caption. */
    char *dr = unzip_member(path, "xl/drawings/drawing1.xml");
    CHECK(dr != NULL);
    if (dr) {
        CHECK(strstr(dr, "<xdr:from>\n<xdr:col>1</xdr:col>\n<xdr:colOff>0</xdr:colOff>\n"
                         "<xdr:row>2</xdr:row>\n<xdr:rowOff>0</xdr:rowOff>") != NULL);
        CHECK(strstr(dr, "<a:ext cx=\"952500\" cy=\"476250\"/>") != NULL); /* 100x50 px */
        CHECK(strstr(dr, "<xdr:col>6</xdr:col>\n<xdr:colOff>0</xdr:colOff>\n<xdr:row>2</xdr:row>") != NULL);
        CHECK(strstr(dr, "<a:ext cx=\"381000\" cy=\"285750\"/>") != NULL); /* 40x30 px */
        CHECK(strstr(dr, "<xdr:row>12</xdr:row>") != NULL);
        CHECK(strstr(dr, "<a:ext cx=\"1905000\" cy=\"952500\"/>") != NULL); /* 200x100 */
        CHECK(strstr(dr, "descr=\"Latency CDF &amp; p99\"") != NULL);
        CHECK(strstr(dr, "descr=\"small.png\"") != NULL);
        CHECK(strstr(dr, "descr=\"bell  tab end\"") != NULL);
    }
    free(dr);
    /* Captions are string cells just above their images: B2 and B12. */
    char *sheet = unzip_member(path, "xl/worksheets/sheet1.xml");
    char *sst = unzip_member(path, "xl/sharedStrings.xml");
    CHECK(sheet && sst);
    if (sheet && sst) {
        int k = sst_index(sst, "Latency CDF &amp; p99");
        CHECK(k >= 0);
        char *b2 = strstr(sheet, "<c r=\"B2\" s=\""), *nl = b2 ? strchr(b2, '\n') : NULL;
        char v[32];
        snprintf(v, sizeof v, "<v>%d</v>", k);
        CHECK(nl && nl - b2 > 8 && strncmp(nl - 8, "\" t=\"s\">", 8) == 0); /* a string */
        CHECK(nl && strncmp(nl + 1, v, strlen(v)) == 0);
        CHECK(strstr(sheet, "<c r=\"B12\"") != NULL);
        CHECK(strstr(sheet, "<c r=\"G2\"") == NULL); /* no caption, no cell */
        CHECK(strstr(sheet, "<drawing r:id=\"rId1\"/>") != NULL);
        CHECK(strstr(sheet, "<f>") == NULL);
    }
    free(sheet);
    free(sst);
}

static void images_should_keep_output_byte_stable(void)
{
    char big[512], small[512], a[512], b[512];
    tmp_path(big, sizeof big, "cdf.png");
    tmp_path(small, sizeof small, "small.png");
    tmp_path(a, sizeof a, "img1.xlsx");
    tmp_path(b, sizeof b, "img2.xlsx");
    CHECK(write_png(big, 200, 100) && write_png(small, 40, 30));
    cow_workbook *wb = charts_book(big, small);
    cow_err e = COW_ERR_INIT;
    CHECK_INT(xlsx_write(wb, a, &e), 0);
    sleep(1);
    CHECK_INT(xlsx_write(wb, b, &e), 0);
    table_book_free(wb);
    size_t na = 0, nb = 0;
    char *da = read_file(a, &na), *db = read_file(b, &nb);
    CHECK(da && db && na > 1000 && na == nb && memcmp(da, db, na) == 0);
    free(da);
    free(db);
}

/* xlsx_write(wb) must fail with code, a message naming png, e.path the
 * workbook, nothing left in tmpdir and nothing printed. */
/* A workbook that prints: a sheet wider than a page wraps its long text
 * and makes the row as tall as the wrapped cell, wraps its headers at
 * their spaces, aligns every cell to the top; a sheet of charts alone
 * breaks the page above each later row of them. */
static void print_layout_should_wrap_and_break(void)
{
    char png[512], path[512];
    cow_err e = COW_ERR_INIT;
    tmp_path(png, sizeof png, "print.png");
    tmp_path(path, sizeof path, "print.xlsx");
    CHECK(write_png(png, 200, 100));
    cow_workbook *wb = table_book_new(CREATED_S);
    cow_sheet *s = table_add_sheet(wb, "Wide", NULL);
    char longtext[400];
    memset(longtext, 0, sizeof longtext);
    for (size_t i = 0; i + 6 < sizeof longtext - 1; i += 6)
        memcpy(longtext + i, "words ", 6);
    for (int c = 0; c < 6; c++)
        CHECK_INT(table_add_column(s, "a header of several words", NULL, COW_COLFMT_TEXT, &e), 0);
    size_t r = table_add_row(s);
    for (int c = 0; c < 6; c++)
        CHECK_INT(table_set_text(s, r, (size_t)c, longtext, &e), 0);
    cow_sheet *ch = table_add_sheet(wb, "Charts", NULL);
    ch->freeze_header = false;
    ch->autofilter = false;
    CHECK_INT(table_add_image(ch, png, 1, 0, 1, "first", &e), 0);
    CHECK_INT(table_add_image(ch, png, 32, 0, 1, "second", &e), 0);
    CHECK_INT(xlsx_write(wb, path, &e), 0);
    CHECK_STR(e.msg, "");
    table_book_free(wb);
    if (!have_unzip())
        return;
    char *wide = unzip_member(path, "xl/worksheets/sheet1.xml");
    char *charts = unzip_member(path, "xl/worksheets/sheet2.xml");
    char *styles = unzip_member(path, "xl/styles.xml");
    CHECK(wide && charts && styles);
    if (wide && charts && styles) {
        const char *row2 = strstr(wide, "<row r=\"2\"");
        double ht = 0;
        const char *h = row2 ? strstr(row2, "ht=\"") : NULL;
        CHECK(h != NULL && sscanf(h, "ht=\"%lf\"", &ht) == 1);
        CHECK(ht >= 13.0 * 10); /* 6 x 60-character cells cut to a page: many lines */
        CHECK(strstr(wide, "<row r=\"1\"") != NULL &&
              strstr(strstr(wide, "<row r=\"1\""), "customHeight=\"1\"") != NULL);
        CHECK(strstr(styles, "wrapText=\"1\"") != NULL);
        CHECK(strstr(styles, "vertical=\"top\"") != NULL);
        CHECK(strstr(charts, "<rowBreaks count=\"1\"") != NULL);
        CHECK(strstr(charts, "<brk id=\"31\"") != NULL);
    }
    free(wide);
    free(charts);
    free(styles);
}

static void check_image_failure(cow_workbook *wb, int code, const char *png,
                                const char *why)
{
    char path[512], errlog[512];
    tmp_path(path, sizeof path, "bad.xlsx");
    snprintf(errlog, sizeof errlog, "%s.stderr", tmpdir); /* outside tmpdir */
    int before = tmp_entries();
    fflush(stderr);
    int saved = dup(2), fd = open(errlog, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(fd, 2);
    cow_err e = COW_ERR_INIT;
    int rc = xlsx_write(wb, path, &e);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    close(fd);
    CHECK_INT(rc, code);
    CHECK(strstr(e.msg, png) != NULL);
    CHECK(strstr(e.msg, why) != NULL);
    if (!strstr(e.msg, why))
        fprintf(stderr, "message was: %s\n", e.msg);
    CHECK_STR(e.path, path);
    CHECK_INT(tmp_entries(), before);
    struct stat st;
    CHECK(stat(errlog, &st) == 0 && st.st_size == 0); /* no library warning */
    unlink(errlog);
}

static void bad_images_should_fail_clearly(void)
{
    char missing[512], text[512], dir[512], png[512];
    tmp_path(missing, sizeof missing, "no-such-chart.png");
    tmp_path(text, sizeof text, "notes.png");
    tmp_path(dir, sizeof dir, "folder.png");
    tmp_path(png, sizeof png, "ok.png");
    FILE *f = fopen(text, "wb");
    CHECK(f != NULL);
    if (f) {
        fputs("time,latency\n1,2\n", f);
        fclose(f);
    }
    CHECK(mkdir(dir, 0755) == 0);
    CHECK(write_png(png, 20, 10));
    cow_err e = COW_ERR_INIT;

    cow_workbook *wb = table_book_new(CREATED_S);
    cow_sheet *s = table_add_sheet(wb, "Charts", NULL);
    CHECK_INT(table_add_image(s, missing, 1, 0, 1, "gone", &e), 0);
    check_image_failure(wb, COW_EIO, missing, "No such file or directory");
    table_book_free(wb);

    wb = table_book_new(CREATED_S);
    s = table_add_sheet(wb, "Charts", NULL);
    CHECK_INT(table_add_image(s, text, 1, 0, 1, NULL, &e), 0);
    check_image_failure(wb, COW_EPARSE, text, "not a PNG file");
    table_book_free(wb);

    wb = table_book_new(CREATED_S);
    s = table_add_sheet(wb, "Charts", NULL);
    CHECK_INT(table_add_image(s, dir, 1, 0, 1, NULL, &e), 0);
    check_image_failure(wb, COW_EIO, dir, "Is a directory");
    table_book_free(wb);

    /* A caption over the table's header (row 1 with a title) or over
     * another caption is refused, not written on top. */
    wb = table_book_new(CREATED_S);
    s = table_add_sheet(wb, "Data", "title");
    table_add_column(s, "a", NULL, COW_COLFMT_INT, &e);
    table_set_int(s, table_add_row(s), 0, 1, &e);
    CHECK_INT(table_add_image(s, png, 2, 0, 1, "over the header", &e), 0);
    check_image_failure(wb, COW_EUSAGE, png, "A2, its caption cell, holds the table");
    table_book_free(wb);
    wb = table_book_new(CREATED_S);
    s = table_add_sheet(wb, "Data", "title");
    CHECK_INT(table_add_image(s, png, 1, 0, 1, "over the title", &e), 0);
    check_image_failure(wb, COW_EUSAGE, png, "holds the title");
    table_book_free(wb);

    wb = table_book_new(CREATED_S);
    s = table_add_sheet(wb, "Charts", NULL);
    CHECK_INT(table_add_image(s, png, 4, 3, 1, "first", &e), 0);
    CHECK_INT(table_add_image(s, png, 4, 3, 1, "second", &e), 0);
    check_image_failure(wb, COW_EUSAGE, png, "holds another image's caption");
    table_book_free(wb);
    rmdir(dir);
}

static void cleanup(void)
{
    DIR *d = opendir(tmpdir);
    for (struct dirent *de; d && (de = readdir(d)) != NULL;) {
        char p[1024];
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        snprintf(p, sizeof p, "%s/%s", tmpdir, de->d_name);
        unlink(p);
    }
    if (d)
        closedir(d);
    rmdir(tmpdir);
}

int main(void)
{
    const char *t = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/cow_xlsx_XXXXXX", t && t[0] ? t : "/tmp");
    if (mkdtemp(tmpdir) == NULL) {
        fprintf(stderr, "cannot make a temporary folder: %s\n", strerror(errno));
        return 1;
    }
    RUN(sheet_names_should_be_excel_safe);
    RUN(sheet_names_should_be_deduped_ignoring_case);
    RUN(model_should_copy_and_repair_strings);
    RUN(model_should_refuse_misuse);
    RUN(serial_should_round_trip_epoch_us);
    RUN(writer_should_match_golden_sheets);
    RUN(text_should_never_become_a_formula);
    RUN(long_text_should_be_cut_visibly);
    RUN(two_runs_should_give_identical_bytes);
    RUN(unwritable_path_should_fail_clearly);
    RUN(limits_should_fail_before_writing);
    RUN(images_should_be_checked_by_the_model);
    RUN(images_should_be_embedded_at_their_cells);
    RUN(images_should_keep_output_byte_stable);
    RUN(bad_images_should_fail_clearly);
    RUN(print_layout_should_wrap_and_break);
    cleanup();
    return REPORT();
}
