/* latjson.c -- per-sample latency captures as a JSON array of objects or
 * as JSON lines (one object per line).
 *
 * Exports cow_parser_latency_json. Keys are read like CSV column names
 * (latcols.c): the first object's keys choose the time, latency and op
 * keys; every object is looked up by those names. Numbers and numeric
 * strings are both accepted; a time may be an ISO 8601 string. cJSON is not
 * streaming, so a JSON array is read whole (up to 1 GiB); JSON lines are
 * read line by line and stream. Rejects carry the line of the element. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "formats.h"
#include "jsonstrict.h"
#include "latcols.h"
#include "limits.h"
#include "mem.h"
#include "text.h"

/* The nesting limit is cJSON's (compiled into the library); limits.h
 * names it so the README can state it. */
_Static_assert(CJSON_NESTING_LIMIT == COW_MAX_JSON_DEPTH,
               "COW_MAX_JSON_DEPTH must match cJSON's CJSON_NESTING_LIMIT");

#define LATJSON_BATCH 4096

typedef struct jstate {
    cow_src *s;                      /* input */
    cow_sink *k;                     /* output */
    latcols lc;                      /* key meanings */
    opnames ops;                     /* interned op names */
    char tkey[64], lkey[64], okey[64]; /* chosen key names */
    int keys_known;                  /* first object seen */
    cow_sample batch[LATJSON_BATCH]; /* samples not yet handed over */
    size_t nbatch;                   /* used entries */
    long long rows, rejected;        /* samples accepted, objects rejected */
} jstate;

/* Latency objects are the elements of a top-level array, or JSON lines
 * (a whole object on the first line). A document that merely holds a key
 * like "duration" somewhere (a tool's metadata) is not latency data. */
static int sniff(const char *fname, const char *head, size_t n)
{
    size_t i = 0;
    latcols lc;
    const char *p, *end = head + n;
    int depth = 0, want, lines = 0;

    (void)fname;
    if (n >= 3 && (unsigned char)head[0] == 0xEF)
        i = 3;
    while (i < n && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' ||
                     head[i] == '\t'))
        i++;
    if (i >= n || (head[i] != '[' && head[i] != '{'))
        return 0;
    if (head[i] == '{') {
        /* JSON lines: the first object must close on its line */
        const char *nl = memchr(head + i, '\n', n - i);
        int d = 0, closed = 0, in_str = 0;
        for (p = head + i; p < (nl ? nl : end); p++) {
            if (in_str) {
                if (*p == '\\')
                    p++;
                else if (*p == '"')
                    in_str = 0;
            } else if (*p == '"') {
                in_str = 1;
            } else if (*p == '{' || *p == '[') {
                d++;
            } else if ((*p == '}' || *p == ']') && --d == 0) {
                closed = 1;
            }
        }
        if (!closed)
            return 0;
        lines = 1;
    }
    want = lines ? 1 : 2;
    /* quoted keys of the latency objects that name a time and a latency */
    latcols_init(&lc, NULL);
    for (p = head + i; p < end; p++) {
        if (*p == '{' || *p == '[') {
            depth++;
        } else if (*p == '}' || *p == ']') {
            depth--;
        } else if (*p == '"') {
            const char *q = p, *r = p + 1;
            while (r < end && *r != '"')
                r += *r == '\\' && r + 1 < end ? 2 : 1;
            if (r >= end)
                break;
            if (depth == want && r + 1 < end && r[1] == ':')
                latcols_add(&lc, 0, q + 1, (size_t)(r - q - 1));
            p = r;
        }
    }
    latcols_release(&lc);   /* the columns' indexes stay */
    if (lc.lat_col < 0)
        return 0;
    return lc.time_col >= 0 ? 80 : 30;
}

static int reject(jstate *st, long line, const char *why, const char *text,
                  size_t n, cow_err *e)
{
    st->rejected++;
    return sink_reject(st->k, line, why, text, n, e);
}

static int flush(jstate *st, cow_err *e)
{
    int rc = COW_OK;
    if (st->nbatch > 0)
        rc = sink_samples(st->k, st->batch, st->nbatch, e);
    st->nbatch = 0;
    return rc;
}

static int choose_keys(jstate *st, const cJSON *obj, long line, cow_err *e)
{
    const cJSON *it;
    int i = 0, rc;

    for (it = obj->child; it != NULL; it = it->next, i++)
        latcols_add(&st->lc, i, it->string, strlen(it->string));
    if ((rc = latcols_check(&st->lc, e)) != COW_OK) {
        cow_err_at(e, st->s->name, line, 0);
        return rc;
    }
    for (it = obj->child, i = 0; it != NULL; it = it->next, i++) {
        if (i == st->lc.time_col)
            snprintf(st->tkey, sizeof(st->tkey), "%s", it->string);
        if (i == st->lc.lat_col)
            snprintf(st->lkey, sizeof(st->lkey), "%s", it->string);
        if (i == st->lc.op_col)
            snprintf(st->okey, sizeof(st->okey), "%s", it->string);
    }
    st->keys_known = 1;
    return COW_OK;
}

/* One object; text/n is the source text for a reject excerpt. */
static int object(jstate *st, const cJSON *obj, long line, const char *text,
                  size_t n, cow_err *e)
{
    const cJSON *t, *l, *o;
    const char *why = NULL;
    cow_sample *smp = &st->batch[st->nbatch];
    int rc;

    if (!cJSON_IsObject(obj))
        return reject(st, line, "not a JSON object", text, n, e);
    if (!st->keys_known && (rc = choose_keys(st, obj, line, e)) != COW_OK)
        return rc;
    t = cJSON_GetObjectItemCaseSensitive(obj, st->tkey);
    l = cJSON_GetObjectItemCaseSensitive(obj, st->lkey);
    if (t == NULL || l == NULL)
        return reject(st, line, t ? "missing latency key"
                                          : "missing time key", text, n, e);
    if (cJSON_IsNumber(t))
        rc = latcols_time_num(&st->lc, t->valuedouble, &smp->t_us, &why, e);
    else if (cJSON_IsString(t))
        rc = latcols_time(&st->lc, t->valuestring, strlen(t->valuestring),
                          &smp->t_us, &why, e);
    else {
        rc = COW_EPARSE;
        why = "time is neither a number nor a string";
    }
    if (rc == COW_EPARSE)
        return reject(st, line, why, text, n, e);
    if (rc != COW_OK) {
        cow_err_at(e, st->s->name, line, 0);
        return rc;
    }
    if (cJSON_IsNumber(l))
        rc = latcols_latency_num(&st->lc, l->valuedouble, &smp->lat_us, &why);
    else if (cJSON_IsString(l))
        rc = latcols_latency(&st->lc, l->valuestring, strlen(l->valuestring),
                             &smp->lat_us, &why);
    else {
        rc = COW_EPARSE;
        why = cJSON_IsNull(l) ? "latency is null" : "latency is not a number";
    }
    if (rc != COW_OK)
        return reject(st, line, why, text, n, e);
    smp->op = NULL;
    smp->alt_us = 0; /* no intended send in this format */
    o = st->okey[0] ? cJSON_GetObjectItemCaseSensitive(obj, st->okey) : NULL;
    if (cJSON_IsString(o) && o->valuestring[0])
        smp->op = opnames_intern(&st->ops, o->valuestring, strlen(o->valuestring));
    st->rows++;
    if (++st->nbatch == LATJSON_BATCH)
        return flush(st, e);
    return COW_OK;
}

/* In a string, the byte at *i belongs to it: step over an escaped byte,
 * or end the string at its closing quote; 1 then, 0 outside strings. */
static int string_byte(const char *text, size_t *i, int *in_str)
{
    if (!*in_str)
        return 0;
    if (text[*i] == '\\')
        (*i)++;
    else if (text[*i] == '"')
        *in_str = 0;
    return 1;
}

/* Offsets of the top-level elements of a JSON array, found by a scan that
 * tracks strings and depth, so rejects can name lines. */
static size_t *element_offsets(const char *text, size_t n, size_t *count)
{
    size_t *offs = NULL, cap = 0, k = 0, i;
    int depth = 0, in_str = 0, want = 0;

    for (i = 0; i < n; i++) {
        char c = text[i];
        if (string_byte(text, &i, &in_str))
            continue;
        if (want && c != ' ' && c != '\n' && c != '\r' && c != '\t' && c != ']') {
            offs = xgrow(offs, sizeof(size_t), k + 1, &cap);
            offs[k++] = i;
            want = 0;
        }
        if (c == '"')
            in_str = 1;
        else if (c == '[' || c == '{') {
            if (++depth == 1 && c == '[')
                want = 1;
        } else if (c == ']' || c == '}')
            depth--;
        else if (c == ',' && depth == 1)
            want = 1;
    }
    *count = k;
    return offs;
}

/* The array's shape without building it: '[' first, brackets balanced,
 * strings closed, nothing after the closing ']'. Offset of the first
 * byte that breaks it, or n when whole. */
static size_t array_shape(const char *text, size_t n)
{
    size_t i = 0;
    int depth = 0, in_str = 0;

    if (n >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        i = 3;
    while (i < n && (text[i] == ' ' || text[i] == '\n' || text[i] == '\r' || text[i] == '\t'))
        i++;
    if (i == n || text[i] != '[')
        return i;
    for (; i < n; i++) {
        char c = text[i];
        if (string_byte(text, &i, &in_str))
            continue;
        if (c == '"')
            in_str = 1;
        else if (c == '[' || c == '{') {
            if (++depth > CJSON_NESTING_LIMIT)
                return i;  /* deeper than the parser goes, as a whole parse said */
        } else if ((c == ']' || c == '}') && --depth == 0) {
            for (i++; i < n; i++)
                if (text[i] != ' ' && text[i] != '\n' && text[i] != '\r' && text[i] != '\t')
                    return i;
            return n;
        }
    }
    return n + 1; /* ends inside: truncated */
}

/* One element at a time: the array is never a tree in memory (a 94 MB
 * array of objects made an 806 MB tree). Each element is parsed alone;
 * one that is not valid JSON refuses the file, as a whole-file parse did. */
static int parse_array(jstate *st, const char *text, size_t n, cow_err *e)
{
    size_t *offs, noffs, i, bad = array_shape(text, n);
    cow_textpos tp;
    long line, col;
    int rc = COW_OK;

    if (bad != n) {
        text_position(text, bad > n ? n : bad, &line, &col);
        cow_err_at(e, st->s->name, line, col);
        return COW_FAIL(e, COW_EPARSE,
                        "invalid JSON here (truncated file?): nothing of this "
                        "file was loaded; fix or re-export it");
    }
    offs = element_offsets(text, n, &noffs);
    text_pos_init(&tp, text); /* offsets grow: one pass over the text */
    for (i = 0; i < noffs && rc == COW_OK; i++) {
        size_t off = offs[i];
        size_t len = i + 1 < noffs ? offs[i + 1] - off : n - off;
        const char *end = NULL;
        cow_err se = COW_ERR_INIT;
        cJSON *it = cJSON_ParseWithLengthOpts(text + off, len, &end, 0);
        size_t k = end ? (size_t)(end - (text + off)) : 0;
        /* after the element: blanks, then ',' or the closing ']' */
        while (it && k < len && strchr(" \t\r\n", text[off + k]))
            k++;
        if (it == NULL || (k < len && text[off + k] != ',' && text[off + k] != ']')) {
            cJSON_Delete(it);
            text_position(text, off + (end && it == NULL ? (size_t)(end - (text + off)) : k),
                          &line, &col);
            cow_err_at(e, st->s->name, line, col);
            rc = COW_FAIL(e, COW_EPARSE,
                          "invalid JSON here (truncated file?): nothing of this "
                          "file was loaded; fix or re-export it");
            break;
        }
        text_pos_at(&tp, off, &line, &col);
        if (json_strict_check(text + off, len, st->s->name, line, &se) != COW_OK)
            rc = reject(st, se.line, se.msg, text + off, len > 200 ? 200 : len, e);
        else
            rc = object(st, it, line, text + off, len > 200 ? 200 : len, e);
        cJSON_Delete(it);
    }
    free(offs);
    return rc;
}

static int parse_lines(jstate *st, cow_err *e)
{
    cow_line ln;
    char *scratch = NULL;
    size_t cap = 0;
    int got, rc = COW_OK;

    while (rc == COW_OK && (got = src_next_line(st->s, &ln, e)) == 1) {
        const char *end = NULL;
        cJSON *obj;
        size_t i = 0;

        while (i < ln.n && (ln.p[i] == ' ' || ln.p[i] == '\t'))
            i++;
        if (i == ln.n || ln.p[i] == '#')
            continue;
        scratch = xgrow(scratch, 1, ln.n + 1, &cap);
        memcpy(scratch, ln.p, ln.n);
        scratch[ln.n] = '\0';
        obj = cJSON_ParseWithLengthOpts(scratch, ln.n + 1, &end, 1);
        if (obj == NULL)
            rc = reject(st, ln.no,
                             ln.eol ? "not a JSON object"
                                    : "truncated last line (no line end, invalid JSON)",
                             ln.p, ln.n, e);
        else {
            cow_err se = COW_ERR_INIT;
            if (json_strict_check(ln.p, ln.n, st->s->name, ln.no, &se) != COW_OK)
                rc = reject(st, ln.no, se.msg, ln.p, ln.n, e);
            else
                rc = object(st, obj, ln.no, ln.p, ln.n, e);
        }
        cJSON_Delete(obj);
    }
    free(scratch);
    if (rc == COW_OK && got < 0)
        rc = e->code;
    return rc;
}

static int parse(cow_src *s, const cow_parse_opts *o, cow_sink *k, cow_err *e)
{
    jstate *st = xcalloc(1, sizeof(*st));
    char *text = NULL;
    const char *head;
    size_t n = 0, i = 0;
    int rc;

    st->s = s;
    st->k = k;
    latcols_init(&st->lc, o);
    if ((rc = src_peek(s, &head, &n, e)) != COW_OK)
        goto done;
    if (n >= 3 && (unsigned char)head[0] == 0xEF && (unsigned char)head[1] == 0xBB)
        i = 3;
    while (i < n && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' ||
                     head[i] == '\t'))
        i++;
    if (i < n && head[i] == '[') {
        if ((rc = src_read_all(s, &text, &n, e)) == COW_OK)
            rc = parse_array(st, text, n, e);
    } else {
        rc = parse_lines(st, e); /* JSON lines stream */
    }
    if (rc == COW_OK && parser_too_many_rejects(st->rows, st->rejected)) {
        cow_err_at(e, s->name, 0, 0);
        rc = COW_FAIL(e, COW_EPARSE,
                      "%lld of %lld objects rejected (more than 10%%): is this "
                      "really a latency capture? Nothing of it was loaded",
                      st->rejected, st->rows + st->rejected);
    }
    if (rc == COW_OK && !st->keys_known) {
        cow_err_at(e, s->name, 0, 0);
        rc = COW_FAIL(e, COW_EPARSE, "no sample objects in this file");
    }
    if (rc == COW_OK)
        rc = flush(st, e);
    if (rc == COW_OK)
        rc = latcols_notes(&st->lc, k, e);
done:
    free(text);
    latcols_release(&st->lc);
    opnames_release(&st->ops);
    free(st);
    return rc;
}

const cow_parser cow_parser_latency_json = {
    "latency-json",
    "per-sample latency, JSON array of objects or JSON lines",
    sniff,
    parse,
};
