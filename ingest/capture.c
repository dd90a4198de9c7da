/* capture.c -- capture folders, trees and run.json (see capture.h). */
#include "capture.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "mem.h"
#include "text.h"
#include "src.h"
#include "timeconv.h"

void capture_init(cow_capture *c)
{
    memset(c, 0, sizeof(*c));
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_run(const void *a, const void *b)
{
    return strcmp(((const cow_capture_run *)a)->label,
                  ((const cow_capture_run *)b)->label);
}

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && strcmp(s + n - m, tail) == 0;
}

/* Not capture files: hidden files, run.json, READMEs, and databases (a
 * cowtail.db left in a capture folder). */
static int is_capture_name(const char *name)
{
    if (name[0] == '.')
        return 0;
    if (ends_with(name, ".db") || ends_with(name, ".db-wal") ||
        ends_with(name, ".db-shm") || ends_with(name, ".sqlite") ||
        ends_with(name, ".db-journal"))
        return 0;
    if (strcmp(name, "run.json") == 0 || strcmp(name, "thresholds.json") == 0)
        return 0;
    if (strncasecmp(name, "README", 6) == 0)
        return 0;
    return 1;
}

static char *join(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    char *s = xmalloc(na + nb + 2);
    memcpy(s, a, na);
    if (na > 0 && a[na - 1] != '/')
        s[na++] = '/';
    memcpy(s + na, b, nb + 1);
    return s;
}

static const char *base_name(const char *path)
{
    size_t n = strlen(path);
    const char *p;
    while (n > 1 && path[n - 1] == '/')
        n--;
    for (p = path + n; p > path && p[-1] != '/'; p--)
        ;
    return p;
}

/* Label for the folder given: its base name without a trailing slash. */
static char *top_label(const char *path)
{
    const char *b = base_name(path);
    size_t n = strlen(b);
    while (n > 0 && b[n - 1] == '/')
        n--;
    if (n == 0 || (n == 1 && b[0] == '.'))
        return xstrdup("capture");
    return xstrndup(b, n);
}

static int load_runjson(cow_capture_run *r, cow_err *e)
{
    char *path = join(r->dir, "run.json");
    cow_src s;
    char *text = NULL;
    size_t n = 0;
    int rc;

    if (access(path, F_OK) != 0) {
        free(path);
        return COW_OK;
    }
    rc = src_open_file(&s, path, e);
    if (rc == COW_OK) {
        rc = src_read_all_max(&s, COW_MAX_META_FILE_BYTES, &text, &n, e);
        src_close(&s);
    }
    if (rc == COW_OK)
        rc = runjson_parse(path, text, n, &r->meta, e);
    if (rc == COW_OK) {
        r->has_meta = 1;
        if (r->meta.label) {
            free(r->label);
            r->label = xstrdup(r->meta.label);
        }
    }
    free(text);
    free(path);
    return rc;
}

static cow_capture_run *new_run(cow_capture *c, const char *dir, char *label)
{
    cow_capture_run *r;
    c->runs = xgrow(c->runs, sizeof(*r), c->n + 1, &c->cap);
    r = &c->runs[c->n++];
    memset(r, 0, sizeof(*r));
    r->dir = xstrdup(dir);
    r->label = label;
    r->meta.trial = -1;
    return r;
}

static int walk(cow_capture *c, const char *dir, const char *rel, int depth,
                cow_err *e)
{
    DIR *d;
    struct dirent *de;
    char **files = NULL, **dirs = NULL;
    size_t nf = 0, cf = 0, nd = 0, cd = 0, i;
    int rc = COW_OK;

    if (depth > CAPTURE_MAX_DEPTH) {
        cow_err_at(e, dir, 0, 0);
        return COW_FAIL(e, COW_ELIMIT, "folders nested deeper than %d: a "
                        "symbolic link loop?", CAPTURE_MAX_DEPTH);
    }
    {
        /* a folder that says so (tooling, generators) is not a capture */
        char *marker = join(dir, COW_CAPTURE_IGNORE);
        int skip = access(marker, F_OK) == 0;
        free(marker);
        if (skip)
            return COW_OK;
    }
    if ((d = opendir(dir)) == NULL) {
        cow_err_at(e, dir, 0, 0);
        return COW_FAIL(e, COW_EIO, "cannot read folder: %s", strerror(errno));
    }
    while ((de = readdir(d)) != NULL) {
        struct stat st;
        char *p;
        if (de->d_name[0] == '.')
            continue;
        p = join(dir, de->d_name);
        if (stat(p, &st) != 0) {
            free(p);
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            dirs = xgrow(dirs, sizeof(char *), nd + 1, &cd);
            dirs[nd++] = xstrdup(de->d_name);
        } else if (S_ISREG(st.st_mode) && is_capture_name(de->d_name)) {
            files = xgrow(files, sizeof(char *), nf + 1, &cf);
            files[nf++] = xstrdup(p);
        }
        free(p);
    }
    closedir(d);
    if (nf > 1)
        qsort(files, nf, sizeof(char *), cmp_str);
    if (nd > 1)
        qsort(dirs, nd, sizeof(char *), cmp_str);
    if (nf > 0) {
        cow_capture_run *r = new_run(c, dir, xstrdup(rel));
        r->files = files;
        r->nfiles = nf;
        files = NULL;
        rc = load_runjson(r, e);
    }
    for (i = 0; i < nd; i++) {
        if (rc == COW_OK) {
            char *sub = join(dir, dirs[i]);
            char *subrel = join(rel, dirs[i]);
            rc = walk(c, sub, subrel, depth + 1, e);
            free(sub);
            free(subrel);
        }
        free(dirs[i]);
    }
    free(dirs);
    free(files);
    return rc;
}

int capture_add_path(cow_capture *c, const char *path, cow_err *e)
{
    struct stat st;
    size_t before = c->n;
    int rc;

    if (stat(path, &st) != 0) {
        cow_err_at(e, path, 0, 0);
        return COW_FAIL(e, COW_EIO, "cannot read: %s", strerror(errno));
    }
    if (S_ISDIR(st.st_mode)) {
        char *label = top_label(path);
        rc = walk(c, path, label, 0, e);
        free(label);
        /* Labels below the folder given drop its name: "samples/a" -> "a". */
        if (rc == COW_OK) {
            size_t i, n = strlen(base_name(path));
            char *top = top_label(path);
            n = strlen(top);
            for (i = before; i < c->n; i++) {
                cow_capture_run *r = &c->runs[i];
                if (r->has_meta && r->meta.label)
                    continue;
                if (strncmp(r->label, top, n) == 0 && r->label[n] == '/') {
                    char *rest = xstrdup(r->label + n + 1);
                    free(r->label);
                    r->label = rest;
                }
            }
            free(top);
        }
    } else {
        char *dir = xstrdup(path), *slash = strrchr(dir, '/');
        cow_capture_run *r = NULL;
        size_t i;
        if (slash)
            *slash = '\0';
        else
            strcpy(dir, ".");
        /* several files of one folder are one run */
        for (i = 0; i < c->n; i++)
            if (strcmp(c->runs[i].dir, dir) == 0 && c->runs[i].files != NULL)
                r = &c->runs[i];
        if (r != NULL) {
            r->files = xrealloc(r->files, (r->nfiles + 1) * sizeof(char *));
            r->files[r->nfiles++] = xstrdup(path);
            free(dir);
            return COW_OK;
        }
        r = new_run(c, dir, top_label(strcmp(dir, ".") == 0 ? "capture" : dir));
        if (strcmp(dir, ".") == 0) {
            char cwd[4096];
            if (getcwd(cwd, sizeof(cwd))) {
                free(r->label);
                r->label = top_label(cwd);
            }
        }
        r->files = xmalloc(sizeof(char *));
        r->files[0] = xstrdup(path);
        r->nfiles = 1;
        free(dir);
        rc = load_runjson(r, e);
    }
    if (rc == COW_OK && c->n > before)
        qsort(c->runs + before, c->n - before, sizeof(cow_capture_run), cmp_run);
    return rc;
}

void capture_release(cow_capture *c)
{
    size_t i, j;
    for (i = 0; i < c->n; i++) {
        cow_capture_run *r = &c->runs[i];
        for (j = 0; j < r->nfiles; j++)
            free(r->files[j]);
        free(r->files);
        free(r->dir);
        free(r->label);
        runjson_release(&r->meta);
    }
    free(c->runs);
    memset(c, 0, sizeof(*c));
}

/* ---------------------------------------------------------------- run.json */

static char *get_str(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (cJSON_IsString(v))
        return xstrdup(v->valuestring);
    if (cJSON_IsNumber(v)) {
        char buf[64];
        snprintf(buf, sizeof(buf), "%.17g", v->valuedouble);
        return xstrdup(buf);
    }
    return NULL;
}

/* t0 as a number (epoch s, ms, us or ns by magnitude) or ISO 8601 text. */
static int get_t0(const cJSON *v, int64_t *t0, cow_err *e)
{
    static const double mult[] = {1e6, 1e3, 1.0, 1e-3};
    size_t i;
    if (cJSON_IsString(v)) {
        if (time_parse_iso8601(v->valuestring, strlen(v->valuestring), t0))
            return COW_OK;
        return COW_FAIL(e, COW_EPARSE, "\"t0\" is not an ISO 8601 time: %s",
                        v->valuestring);
    }
    for (i = 0; i < 4; i++) {
        double us = v->valuedouble * mult[i];
        if (us >= (double)COW_EPOCH_MIN_S * 1e6 && us < (double)COW_EPOCH_MAX_S * 1e6) {
            *t0 = (int64_t)llround(us);
            return COW_OK;
        }
    }
    return COW_FAIL(e, COW_EPARSE, "\"t0\" (%.17g) is not an epoch in s, ms, "
                    "us or ns between 1990 and 2100", v->valuedouble);
}

int runjson_parse(const char *path, const char *text, size_t n, cow_runjson *r,
                  cow_err *e)
{
    const char *end = NULL;
    cJSON *root;
    const cJSON *v;
    int rc = COW_OK;

    memset(r, 0, sizeof(*r));
    r->trial = -1;
    root = cJSON_ParseWithLengthOpts(text, n + 1, &end, 1);
    if (root == NULL || !cJSON_IsObject(root)) {
        long line, col;
        text_position(text, end && root == NULL ? (size_t)(end - text) : 0, &line, &col);
        cow_err_at(e, path, line, col);
        cJSON_Delete(root);
        return COW_FAIL(e, COW_EPARSE, "run.json is not a JSON object; fix it "
                        "or remove it (it is optional)");
    }
    r->text = xstrndup(text, n);
    r->label = get_str(root, "label");
    r->scenario = get_str(root, "scenario");
    r->mode = get_str(root, "mode");
    r->host = get_str(root, "host");
    r->log_tz = get_str(root, "log_tz");
    r->time_unit = get_str(root, "time_unit");
    r->latency_unit = get_str(root, "latency_unit");
    r->mem_unit = get_str(root, "mem_unit");
    /* the casts are undefined beyond the type's range (the fuzzer's
     * "trial": 5.6e76): such a number is refused, not converted */
    if (cJSON_IsNumber(v = cJSON_GetObjectItemCaseSensitive(root, "trial"))) {
        if (!(v->valuedouble >= -1 && v->valuedouble <= 1e9)) {
            cJSON_Delete(root);
            cow_err_at(e, path, 0, 0);
            return COW_FAIL(e, COW_EPARSE, "run.json \"trial\" must be a number "
                            "-1..1000000000");
        }
        r->trial = (long)v->valuedouble;
    }
    if (cJSON_IsNumber(v = cJSON_GetObjectItemCaseSensitive(root, "log_year"))) {
        if (!(v->valuedouble >= 1990 && v->valuedouble < 2100)) {
            cJSON_Delete(root);
            cow_err_at(e, path, 0, 0);
            return COW_FAIL(e, COW_EPARSE, "run.json \"log_year\" must be a year "
                            "1990..2099");
        }
        r->log_year = (int)v->valuedouble;
    }
    v = cJSON_GetObjectItemCaseSensitive(root, "t0");
    if (v != NULL && !cJSON_IsNull(v)) {
        if ((rc = get_t0(v, &r->t0_us, e)) == COW_OK)
            r->has_t0 = 1;
        else
            cow_err_at(e, path, 0, 0);
    }
    cJSON_Delete(root);
    return rc;
}

void runjson_release(cow_runjson *r)
{
    free(r->label);
    free(r->scenario);
    free(r->mode);
    free(r->host);
    free(r->log_tz);
    free(r->time_unit);
    free(r->latency_unit);
    free(r->mem_unit);
    free(r->text);
    memset(r, 0, sizeof(*r));
    r->trial = -1;
}
