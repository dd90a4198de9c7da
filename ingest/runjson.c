/* runjson.c -- a capture folder's run.json (capture.h): strict JSON (no
 * key twice, finite numbers), its fields read into a cow_runjson with
 * file:line on every error. capture.c finds the file and calls it. */
#include "capture.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "jsonstrict.h"
#include "mem.h"
#include "parser.h"
#include "text.h"
#include "timeconv.h"

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
    if (cJSON_IsString(v)) {
        if (time_parse_iso8601(v->valuestring, strlen(v->valuestring), t0))
            return COW_OK;
        return COW_FAIL(e, COW_EPARSE, "\"t0\" is not an ISO 8601 time: %s",
                        v->valuestring);
    }
    if (time_epoch_guess_us(v->valuedouble, t0))
        return COW_OK;
    return COW_FAIL(e, COW_EPARSE, "\"t0\" (%.17g) is not an epoch in s, ms, "
                    "us or ns between 1990 and 2100", v->valuedouble);
}

/* "files": {"glob": {"role": "replica", "parser": "redis-info"}, ...} */
static int get_files(const cJSON *v, cow_runjson *r, cow_err *e)
{
    const cJSON *it;
    if (!cJSON_IsObject(v))
        return COW_FAIL(e, COW_EPARSE, "\"files\" must be an object from a "
                        "file glob to {\"role\": ..., \"parser\": ...}");
    cJSON_ArrayForEach(it, v) {
        cow_filemap *m;
        char *role, *parser;
        if (!cJSON_IsObject(it))
            return COW_FAIL(e, COW_EPARSE, "\"files\": \"%s\" must map to an "
                            "object such as {\"role\": \"replica\"}", it->string);
        role = get_str(it, "role");
        parser = get_str(it, "parser");
        if (role && strcmp(role, "primary") != 0 && strcmp(role, "replica") != 0) {
            free(parser);
            COW_FAIL(e, COW_EPARSE, "\"files\": \"%s\": role \"%s\" is neither "
                     "\"primary\" nor \"replica\"", it->string, role);
            free(role);
            return COW_EPARSE;
        }
        if (parser && parser_by_name(parser) == NULL) {
            free(role);
            COW_FAIL(e, COW_EPARSE, "\"files\": \"%s\": no parser named \"%s\" "
                     "(see cowtail help ingest)", it->string, parser);
            free(parser);
            return COW_EPARSE;
        }
        r->files = xrealloc(r->files, (r->nfiles + 1) * sizeof(*m));
        m = &r->files[r->nfiles++];
        m->glob = xstrdup(it->string);
        /* canonical strings: the driver keeps pointers to them */
        m->role = role ? (strcmp(role, "primary") == 0 ? "primary" : "replica") : NULL;
        m->parser = parser ? parser_by_name(parser)->name : NULL;
        free(role);
        free(parser);
    }
    return COW_OK;
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
    if ((rc = json_strict_check(text, n, path, 1, e)) != COW_OK) {
        cJSON_Delete(root);
        return rc;
    }
    r->text = xstrndup(text, n);
    r->label = get_str(root, "label");
    r->scenario = get_str(root, "scenario");
    r->mode = get_str(root, "mode");
    r->host = get_str(root, "host");
    r->log_tz = get_str(root, "log_tz");
    r->time_unit = get_str(root, "time_unit");
    r->latency_from = get_str(root, "latency_from");
    r->latency_unit = get_str(root, "latency_unit");
    r->mem_unit = get_str(root, "mem_unit");
    if (cJSON_IsString(v = cJSON_GetObjectItemCaseSensitive(root, "interrupted")))
        r->interrupted = xstrdup(v->valuestring);
    if (cJSON_IsNumber(v = cJSON_GetObjectItemCaseSensitive(root, "start_epoch_us")) &&
        v->valuedouble >= (double)COW_EPOCH_MIN_S * 1e6 &&
        v->valuedouble < (double)COW_EPOCH_MAX_S * 1e6)
        r->start_us = (int64_t)v->valuedouble;
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
    /* a generated sample must never pass for a real incident: anything
     * but true or false is refused rather than guessed */
    if ((v = cJSON_GetObjectItemCaseSensitive(root, "synthetic")) != NULL && !cJSON_IsNull(v)) {
        if (!cJSON_IsBool(v)) {
            cJSON_Delete(root);
            cow_err_at(e, path, 0, 0);
            return COW_FAIL(e, COW_EPARSE, "run.json \"synthetic\" must be true or false "
                            "(true: a generator made the run's files)");
        }
        r->synthetic = cJSON_IsTrue(v);
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
    if ((v = cJSON_GetObjectItemCaseSensitive(root, "files")) != NULL &&
        (rc = get_files(v, r, e)) != COW_OK) {
        cow_err_at(e, path, 0, 0);
        cJSON_Delete(root);
        return rc;
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
    free(r->latency_from);
    free(r->latency_unit);
    free(r->mem_unit);
    free(r->interrupted);
    free(r->text);
    for (size_t i = 0; i < r->nfiles; i++)
        free(r->files[i].glob);
    free(r->files);
    memset(r, 0, sizeof(*r));
    r->trial = -1;
}
