/* fixture.h -- reading test fixtures under tests/data (COW_TESTDATA, set by
 * ctest; "tests/data" when run by hand from the project folder).
 *
 *     char *text = fixture_read("redislog/primary-7.0.log", &n);  free it
 *     CHECK_STR(fixture_detect("info/series3.txt"), "redis-info");
 */
#ifndef COW_TESTS_FIXTURE_H
#define COW_TESTS_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "parser.h"

/* Path of a fixture (static buffer, valid until the next call). */
static inline const char *fixture_path(const char *rel)
{
    static char path[1024];
    const char *dir = getenv("COW_TESTDATA");
    snprintf(path, sizeof(path), "%s/%s", dir ? dir : "tests/data", rel);
    return path;
}

/* The whole fixture, NUL-terminated (caller frees); exits 2 when missing:
 * a test without its fixture cannot say anything. */
static inline char *fixture_read(const char *rel, size_t *n)
{
    FILE *fp = fopen(fixture_path(rel), "rb");
    char *buf;
    long len;

    if (fp == NULL) {
        fprintf(stderr, "cannot open fixture %s\n", fixture_path(rel));
        exit(2);
    }
    fseek(fp, 0, SEEK_END);
    len = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    buf = xmalloc((size_t)len + 1);
    *n = fread(buf, 1, (size_t)len, fp);
    buf[*n] = '\0';
    fclose(fp);
    return buf;
}

/* Name of the parser parser_detect picks for a fixture (its base name and
 * first bytes), "(none)" or "(missing)". */
static inline const char *fixture_detect(const char *rel)
{
    static char head[COW_SNIFF_BYTES];
    const char *slash = strrchr(rel, '/');
    FILE *fp = fopen(fixture_path(rel), "rb");
    const cow_parser *p;
    size_t n;
    if (fp == NULL)
        return "(missing)";
    n = fread(head, 1, sizeof(head), fp);
    fclose(fp);
    p = parser_detect(slash ? slash + 1 : rel, head, n);
    return p ? p->name : "(none)";
}

#endif
