/* fuzz_meta.c -- fuzz targets for the inputs that are not captures:
 * run.json, thresholds.json, and the capture tree walk.
 *
 *   run-json    runjson_parse on the input (no file: it takes text).
 *   thresholds  app_load_thresholds on the input written to a file.
 *   json-strict json_strict_check and json_keys_index on the input (the
 *               duplicate-key and non-finite checks every JSON read goes
 *               through): every key the index holds is found again by a
 *               seek from the start, on a line of the text.
 *   tree-walk   the input is a small script that builds a tree in a
 *               fresh temporary folder, one entry a line, at most
 *               FZ_TREE_MAX entries:
 *                   d NAME          a folder
 *                   f NAME TEXT     a file holding TEXT and a newline
 *                   l NAME TARGET   a symbolic link (to anything: "..",
 *                                   "/proc/meminfo", itself)
 *               NAME is relative (no leading '/', no "..": the tree is
 *               built inside the folder); then capture_add_path walks it.
 * Invariants: each returns COW_OK or an error with a message; a walk
 * ends, and every file it lists starts with the root it was given; run
 * labels are non-NULL. */
#define _XOPEN_SOURCE 700 /* nftw */
#include "fuzz_meta.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture.h"
#include "check.h"
#include "err.h"
#include "jsonstrict.h"

#define FZ_TREE_MAX 16

static const char *const meta_names[] = {"run-json", "thresholds", "json-strict",
                                         "tree-walk", NULL};

const char *const *fz_meta_names(void)
{
    return meta_names;
}

static void meta_die(const char *what, const char *msg)
{
    fprintf(stderr, "fuzz_meta: %s: invariant broken: %s\n", what, msg);
    abort();
}

static void check_err(const char *what, int rc, const cow_err *e)
{
    if (rc != COW_OK && (e->code != rc || e->msg[0] == '\0'))
        meta_die(what, "error without its code or message");
}

static void fz_runjson(const uint8_t *data, size_t size)
{
    cow_runjson r;
    cow_err e = COW_ERR_INIT;
    char *text = malloc(size + 1);
    int rc;

    memcpy(text, data, size);
    text[size] = '\0';
    memset(&r, 0, sizeof(r));
    rc = runjson_parse("run.json", text, size, &r, &e);
    check_err("run-json", rc, &e);
    runjson_release(&r);
    free(text);
}

/* A fresh temporary folder for one input; "" when none can be made. */
static void tmp_dir(char *out, size_t n)
{
    const char *base = getenv("TMPDIR");
    snprintf(out, n, "%s/cowfuzzXXXXXX", base && base[0] ? base : "/tmp");
    if (mkdtemp(out) == NULL)
        out[0] = '\0';
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    (void)remove(path); /* links are removed, not followed */
    return 0;
}

static void rm_tree(const char *dir)
{
    (void)nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void fz_thresholds(const uint8_t *data, size_t size)
{
    char dir[512], path[600];
    app_thresholds t;
    cow_err e = COW_ERR_INIT;
    FILE *fp;
    int rc;

    tmp_dir(dir, sizeof(dir));
    if (!dir[0])
        return;
    snprintf(path, sizeof(path), "%s/thresholds.json", dir);
    if ((fp = fopen(path, "wb")) != NULL) {
        fwrite(data, 1, size, fp);
        fclose(fp);
        rc = app_load_thresholds(path, &t, &e);
        check_err("thresholds", rc, &e);
    }
    rm_tree(dir);
}

/* NAME is usable inside the tree: relative, no "..", no empty part. */
static int name_ok(const char *s)
{
    return s[0] != '\0' && s[0] != '/' && strstr(s, "..") == NULL &&
           strstr(s, "//") == NULL && strlen(s) < 200;
}

static void build_entry(const char *root, char *line)
{
    char path[800], *name = line + 2, *rest;
    FILE *fp;

    if (strlen(line) < 3 || line[1] != ' ')
        return;
    rest = strchr(name, ' ');
    if (rest)
        *rest++ = '\0';
    if (!name_ok(name))
        return;
    snprintf(path, sizeof(path), "%s/%s", root, name);
    switch (line[0]) {
    case 'd':
        (void)mkdir(path, 0755);
        break;
    case 'f':
        if ((fp = fopen(path, "wb")) != NULL) {
            fprintf(fp, "%s\n", rest ? rest : "");
            fclose(fp);
        }
        break;
    case 'l':
        if (rest && rest[0])
            (void)symlink(rest, path);
        break;
    default:
        break;
    }
}

static void fz_tree(const uint8_t *data, size_t size)
{
    char dir[512], *text = malloc(size + 1), *line, *save = NULL;
    cow_capture c;
    cow_err e = COW_ERR_INIT;
    size_t i, j, rootlen;
    int rc, k = 0;

    memcpy(text, data, size);
    text[size] = '\0';
    tmp_dir(dir, sizeof(dir));
    if (!dir[0]) {
        free(text);
        return;
    }
    for (line = strtok_r(text, "\n", &save); line && k < FZ_TREE_MAX;
         line = strtok_r(NULL, "\n", &save), k++)
        build_entry(dir, line);
    capture_init(&c);
    rc = capture_add_path(&c, dir, &e);
    check_err("tree-walk", rc, &e);
    rootlen = strlen(dir);
    for (i = 0; rc == COW_OK && i < c.n; i++) {
        if (c.runs[i].label == NULL)
            meta_die("tree-walk", "a run without a label");
        for (j = 0; j < c.runs[i].nfiles; j++)
            if (strncmp(c.runs[i].files[j], dir, rootlen) != 0)
                meta_die("tree-walk", "a file outside the root it was given");
    }
    capture_release(&c);
    rm_tree(dir);
    free(text);
}

static void fz_json_strict(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    cow_err e = COW_ERR_INIT;
    cow_jkeys k;
    size_t i, lines = 1;
    int rc = json_strict_check(text, size, "fuzz.json", 1, &e);

    check_err("json-strict", rc, &e);
    for (i = 0; i < size; i++)
        lines += text[i] == '\n';
    json_keys_index(text, size, &k);
    for (i = 0; i < k.n; i++) {
        size_t ord = 0;
        long line;
        if (memchr(k.v[i].s, '\0', k.v[i].n) != NULL)
            continue; /* a seek takes a C string */
        line = json_keys_seek(&k, k.v[i].s, &ord);
        if (line < 1 || (size_t)line > lines)
            meta_die("json-strict", "a key of the index not found again, or off the text");
    }
    json_keys_free(&k);
}

int fz_meta_run(const char *name, const uint8_t *data, size_t size)
{
    if (name == NULL || strcmp(name, "json-strict") == 0)
        fz_json_strict(data, size);
    if (name == NULL || strcmp(name, "run-json") == 0)
        fz_runjson(data, size);
    if (name == NULL || strcmp(name, "thresholds") == 0)
        fz_thresholds(data, size);
    if (name == NULL || strcmp(name, "tree-walk") == 0)
        fz_tree(data, size);
    return name == NULL || strcmp(name, "run-json") == 0 ||
           strcmp(name, "thresholds") == 0 || strcmp(name, "json-strict") == 0 ||
           strcmp(name, "tree-walk") == 0;
}
