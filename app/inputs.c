/* inputs.c -- the inputs that did not land whole (inputs.h). */
#include "inputs.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "label.h"
#include "mem.h"
#include "strbuf.h"

typedef struct loadctx {
    app_inputs *out;
    size_t cap;
} loadctx;

static int one(void *ctx, const cow_input_row *r)
{
    loadctx *c = ctx;
    app_input *x;
    c->out->v = xgrow(c->out->v, sizeof(*c->out->v), c->out->n + 1, &c->cap);
    x = &c->out->v[c->out->n++];
    memset(x, 0, sizeof(*x));
    x->run = xstrdup(r->label);
    x->path = xstrdup(r->path);
    x->code = r->code ? xstrdup(r->code) : NULL;
    x->reason = xstrdup(r->reason ? r->reason : "");
    x->line = r->line;
    x->rejected = r->rejected;
    x->rows = r->rows;
    x->kind = r->code == NULL                         ? APP_INPUT_REJECTED
              : strcmp(r->code, "unrecognised") == 0 ? APP_INPUT_UNRECOGNISED
              : strcmp(r->code, "year") == 0         ? APP_INPUT_YEAR_GUESSED
                                                      : APP_INPUT_REFUSED;
    if (x->kind == APP_INPUT_YEAR_GUESSED) {
        /* the note ends at its last year ("... taken as 2025"); the file's
         * other notes follow it */
        char *t = strstr(x->reason, " taken as ");
        if (t != NULL) {
            t += strlen(" taken as ");
            while (*t >= '0' && *t <= '9')
                t++;
            *t = '\0';
        }
    }
    c->out->count[x->kind]++;
    return 0;
}

int app_inputs_load(cow_store *st, int64_t since_s, app_inputs *out, cow_err *e)
{
    loadctx c = {out, 0};
    int rc;
    memset(out, 0, sizeof(*out));
    if ((rc = store_list_inputs(st, since_s, one, &c, e)) != COW_OK)
        app_inputs_release(out);
    return rc;
}

/* 1 when path lies under one of paths[0..n) (or is one) */
static int under_any(const char *path, char **paths, int n)
{
    int i;
    for (i = 0; i < n; i++) {
        size_t k = strlen(paths[i]);
        while (k > 1 && paths[i][k - 1] == '/')
            k--;
        if (strncmp(path, paths[i], k) == 0 && (path[k] == '\0' || path[k] == '/'))
            return 1;
    }
    return 0;
}

int app_inputs_of_ingest(cow_store *st, char **paths, int npaths, int64_t since_s,
                         app_inputs *out, cow_err *e)
{
    size_t i, k = 0;
    int rc = app_inputs_load(st, since_s, out, e);
    if (rc != COW_OK)
        return rc;
    for (i = 0; i < out->n; i++) {
        if (under_any(out->v[i].path, paths, npaths)) {
            out->v[k++] = out->v[i];
            continue;
        }
        out->count[out->v[i].kind]--;
        free(out->v[i].run);
        free(out->v[i].path);
        free(out->v[i].code);
        free(out->v[i].reason);
    }
    out->n = k;
    return COW_OK;
}

void app_inputs_release(app_inputs *in)
{
    size_t i;
    for (i = 0; i < in->n; i++) {
        free(in->v[i].run);
        free(in->v[i].path);
        free(in->v[i].code);
        free(in->v[i].reason);
    }
    free(in->v);
    memset(in, 0, sizeof(*in));
}

static void sb_text(cow_sbuf *b, const char *s, int sink)
{
    char *t = label_safe(s ? s : "", sink == APP_ANSWER_MD ? COW_LABEL_MD : COW_LABEL_TERM);
    sbuf_add(b, "%s", t);
    free(t);
}

/* The path as a code span in Markdown (backticks made quotes), plain on a
 * terminal. */
static void sb_path(cow_sbuf *b, const char *s, int sink)
{
    char *t = label_safe(s ? s : "", COW_LABEL_TERM);
    if (sink == APP_ANSWER_MD) {
        char *p;
        for (p = t; *p; p++)
            if (*p == '`')
                *p = '\'';
        sbuf_add(b, "`%s`", t);
    } else {
        sbuf_add(b, "%s", t);
    }
    free(t);
}

/* What to do, for what the reason does not say itself. */
static const char *todo(const app_input *in)
{
    if (in->kind == APP_INPUT_UNRECOGNISED)
        return "nothing, if it is not a capture";
    if (in->kind == APP_INPUT_YEAR_GUESSED)
        return "if the year is wrong, ingest the folder again with --log-year YEAR (the "
               "year of the log's first line) and --replace, or put \"log_year\" in "
               "run.json";
    if (in->kind == APP_INPUT_REJECTED)
        return "cowtail rejects --file NAME lists every rejected line; fix the writer "
               "or the lines and ingest again with --replace";
    if (in->code != NULL && strcmp(in->code, "changed") == 0)
        return NULL; /* the reason says it */
    return "fix what the reason says and ingest the folder again (the refusal is "
           "replaced when the file lands)";
}

char *app_input_line(const app_input *in, int sink)
{
    cow_sbuf b = {0};
    const char *t = todo(in);
    if (sink == APP_ANSWER_MD)
        sbuf_add(&b, "**");
    sb_text(&b, in->run, sink);
    sbuf_add(&b, "%s: ", sink == APP_ANSWER_MD ? "**" : "");
    sb_path(&b, in->path, sink);
    if (in->line > 0)
        sbuf_add(&b, " line %lld", (long long)in->line);
    switch (in->kind) {
    case APP_INPUT_REFUSED: sbuf_add(&b, ": refused, nothing of it loaded: "); break;
    case APP_INPUT_UNRECOGNISED: sbuf_add(&b, ": not recognised, not read: "); break;
    case APP_INPUT_YEAR_GUESSED:
        sbuf_add(&b, ": its lines carry no year, and it was guessed: ");
        break;
    default:
        sbuf_add(&b, ": %lld line%s rejected (%lld records landed); the first: ",
               (long long)in->rejected, in->rejected == 1 ? "" : "s", (long long)in->rows);
        break;
    }
    sb_text(&b, in->reason, sink);
    if (t != NULL) {
        sbuf_add(&b, ". Do: ");
        sb_text(&b, t, sink);
    }
    sbuf_add(&b, ".");
    return b.s;
}

const char *app_input_kind_word(int kind)
{
    static const char *const w[APP_INPUT_KINDS] = {"refused", "not recognised",
                                                   "rejected lines", "year guessed"};
    return kind >= 0 && kind < APP_INPUT_KINDS ? w[kind] : "?";
}

char *app_inputs_count_line(const app_inputs *in)
{
    cow_sbuf b = {0};
    sbuf_add(&b, "%zu file%s refused, %zu not recognised, %zu with rejected lines",
           in->count[APP_INPUT_REFUSED], in->count[APP_INPUT_REFUSED] == 1 ? "" : "s",
           in->count[APP_INPUT_UNRECOGNISED], in->count[APP_INPUT_REJECTED]);
    if (in->count[APP_INPUT_YEAR_GUESSED] > 0)
        sbuf_add(&b, ", %zu log%s dated by a guessed year", in->count[APP_INPUT_YEAR_GUESSED],
                 in->count[APP_INPUT_YEAR_GUESSED] == 1 ? "" : "s");
    return b.s;
}
