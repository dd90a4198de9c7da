/* export_out.c -- JSON lines and ClickHouse HTTP outputs (export_out.h).
 *
 * For JSON lines a row becomes one JSON object per line with the columns'
 * names as keys. ClickHouse gets TabSeparated rows under an INSERT that
 * names the columns (half the bytes of JSONEachRow, and cheaper for the
 * server to parse: measured in bench/README.md). Integers
 * print exact, reals with 15 significant digits, or 17 when 15 would not
 * read back bit for bit, NaN and infinities as null. A JSON lines table is written
 * through outfile (a new temporary file renamed when complete), so a file is whole
 * or absent and never written through a link. */
#include "export_out.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <curl/curl.h>

#include "mem.h"
#include "outfile.h"
#include "text.h"

extern const char cow_clickhouse_ddl[];

struct cow_xout {
    int ch;                 /* 1: ClickHouse, 0: JSON lines */
    int use_db;             /* database `cowtail` exists: name it in URLs */
    char *base;             /* URL without a trailing '/', or the folder */
    CURL *curl;
    char table[64];         /* the table being written */
    char cols[2048];        /* ClickHouse: "(host,run,...)" of its rows */
    cow_outfile out;        /* JSON lines: the table's file, while open */
    int open;
    char *buf;              /* rows not yet sent */
    size_t n, cap;
    char *reply;            /* ClickHouse's last answer */
    size_t nreply, capreply;
    char **keys;            /* "('host','run')" of every run exported */
    size_t nkeys, capkeys;
    long long rows;
    cow_err err;
};

static void put(cow_xout *o, const char *s, size_t n)
{
    if (o->n + n + 1 > o->cap)
        o->buf = xgrow(o->buf, 1, o->n + n + 1, &o->cap);
    memcpy(o->buf + o->n, s, n);
    o->n += n;
}

static void put_s(cow_xout *o, const char *s)
{
    put(o, s, strlen(s));
}

/* A JSON string, valid UTF-8: a byte that starts no valid sequence (a
 * folder name in Latin-1, 0xFF) becomes U+FFFD, as in runs --json. */
static void put_json_str(cow_xout *o, const char *s, size_t n)
{
    size_t i, from = 0, k;
    char esc[8];

    put(o, "\"", 1);
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x80) {
            if ((k = text_utf8_len(s + i, n - i)) > 0) {
                i += k - 1;
                continue;
            }
            put(o, s + from, i - from);
            put_s(o, "\xEF\xBF\xBD");
            from = i + 1;
            continue;
        }
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        put(o, s + from, i - from);
        from = i + 1;
        switch (c) {
        case '"': put_s(o, "\\\""); break;
        case '\\': put_s(o, "\\\\"); break;
        case '\n': put_s(o, "\\n"); break;
        case '\r': put_s(o, "\\r"); break;
        case '\t': put_s(o, "\\t"); break;
        default:
            snprintf(esc, sizeof(esc), "\\u%04x", c);
            put_s(o, esc);
        }
    }
    put(o, s + from, n - from);
    put(o, "\"", 1);
}

/* A ClickHouse TabSeparated field: tab, newline and backslash escaped. */
static void put_tsv_str(cow_xout *o, const char *s, size_t n)
{
    size_t i, from = 0;
    for (i = 0; i < n; i++) {
        const char *esc = s[i] == '\t' ? "\\t" : s[i] == '\n' ? "\\n"
                        : s[i] == '\r' ? "\\r" : s[i] == '\\' ? "\\\\" : NULL;
        if (esc == NULL)
            continue;
        put(o, s + from, i - from);
        put_s(o, esc);
        from = i + 1;
    }
    put(o, s + from, n - from);
}

/* The same string as a ClickHouse SQL literal, at dst (room for 2n + 3
 * bytes): its length. Never cut: the key of a DELETE must be whole. */
static size_t put_sql_str(char *dst, const char *s, size_t n)
{
    size_t i, j = 0;
    dst[j++] = '\'';
    for (i = 0; i < n; i++) {
        if (s[i] == '\'' || s[i] == '\\')
            dst[j++] = '\\';
        dst[j++] = s[i];
    }
    dst[j++] = '\'';
    dst[j] = '\0';
    return j;
}

static size_t on_reply(char *p, size_t size, size_t nmemb, void *ctx)
{
    cow_xout *o = ctx;
    size_t n = size * nmemb;
    if (o->nreply + n + 1 > o->capreply)
        o->reply = xgrow(o->reply, 1, o->nreply + n + 1, &o->capreply);
    memcpy(o->reply + o->nreply, p, n);
    o->nreply += n;
    o->reply[o->nreply] = '\0';
    return n;
}

/* POST body to the server; query (when not NULL) goes in the URL, as an
 * INSERT's does, else the body is the query. */
static int ch_post(cow_xout *o, const char *query, const char *body, size_t n,
                   cow_err *e)
{
    char *url, *q = NULL;
    long status = 0;
    CURLcode rc;
    size_t len;

    if (query && (q = curl_easy_escape(o->curl, query, 0)) == NULL)
        return COW_FAIL(e, COW_EINTERNAL, "clickhouse: cannot encode query");
    len = strlen(o->base) + (q ? strlen(q) : 0) + 64;
    url = xmalloc(len);
    snprintf(url, len, "%s/?%s%s%s", o->base, o->use_db ? "database=" XOUT_DATABASE "&" : "",
             q ? "query=" : "", q ? q : "");
    curl_free(q);
    o->nreply = 0;
    if (o->reply)
        o->reply[0] = '\0';
    curl_easy_setopt(o->curl, CURLOPT_URL, url);
    curl_easy_setopt(o->curl, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(o->curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)n);
    rc = curl_easy_perform(o->curl);
    free(url);
    if (rc != CURLE_OK)
        return COW_FAIL(e, COW_EIO, "clickhouse %s: %s", o->base, curl_easy_strerror(rc));
    curl_easy_getinfo(o->curl, CURLINFO_RESPONSE_CODE, &status);
    if (status != 200)
        return COW_FAIL(e, COW_EIO, "clickhouse %s: HTTP %ld: %.300s", o->base, status,
                        o->reply ? o->reply : "");
    return COW_OK;
}

static int flush(cow_xout *o, cow_err *e)
{
    char query[2200];
    int rc = COW_OK;

    if (o->n == 0)
        return COW_OK;
    if (o->ch) {
        snprintf(query, sizeof(query), "INSERT INTO %s %s FORMAT TabSeparated", o->table,
                 o->cols);
        rc = ch_post(o, query, o->buf, o->n, e);
    } else if (fwrite(o->buf, 1, o->n, o->out.fp) != o->n) {
        rc = COW_FAIL(e, COW_EIO, "%s: cannot write: %s", o->out.path, strerror(errno));
    }
    o->n = 0;
    return rc;
}

static cow_xout *xout_new(const char *base)
{
    cow_xout *o = xcalloc(1, sizeof(*o));
    size_t n = strlen(base);
    while (n > 1 && base[n - 1] == '/')
        n--;
    o->base = xstrndup(base, n);
    o->err = (cow_err)COW_ERR_INIT;
    return o;
}

int xout_jsonl(const char *dir, cow_xout **out, cow_err *e)
{
    struct stat sb;

    *out = NULL;
    int rc;

    if ((rc = outfile_make_dir(dir, 0, e)) != COW_OK)
        return rc;
    if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
        return COW_FAIL(e, COW_EUSAGE, "%s: not a folder", dir);
    *out = xout_new(dir);
    return COW_OK;
}

/* Run every statement of schemas/clickhouse.sql: comments ('--' to the
 * end of the line, which may hold ';') go first, then ';' separates. */
static int ch_ddl(cow_xout *o, cow_err *e)
{
    char *all = xstrdup(cow_clickhouse_ddl), *p, *stmt, *save = NULL;
    int rc = COW_OK;

    for (p = all; (p = strstr(p, "--")) != NULL;)
        while (*p && *p != '\n')
            *p++ = ' ';
    for (stmt = strtok_r(all, ";", &save); stmt && rc == COW_OK;
         stmt = strtok_r(NULL, ";", &save))
        if (stmt[strspn(stmt, " \t\r\n")] != '\0')
            rc = ch_post(o, NULL, stmt, strlen(stmt), e);
    free(all);
    return rc;
}

int xout_clickhouse(const char *url, cow_xout **out, cow_err *e)
{
    static const char create_db[] = "CREATE DATABASE IF NOT EXISTS " XOUT_DATABASE;
    cow_xout *o;
    int rc;

    *out = NULL;
    if (strncmp(url, "http://", 7) != 0 && strncmp(url, "https://", 8) != 0)
        return COW_FAIL(e, COW_EUSAGE,
                        "--clickhouse %s: give the HTTP interface's URL, e.g. "
                        "http://127.0.0.1:8123",
                        url);
    if (strchr(url, '?'))
        return COW_FAIL(e, COW_EUSAGE,
                        "--clickhouse %s: no query part please: the tables go to "
                        "database '" XOUT_DATABASE "'",
                        url);
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
        return COW_FAIL(e, COW_EINTERNAL, "libcurl will not start");
    o = xout_new(url);
    o->ch = 1;
    o->curl = curl_easy_init();
    if (o->curl == NULL) {
        xout_close(o);
        return COW_FAIL(e, COW_EINTERNAL, "libcurl will not start");
    }
    curl_easy_setopt(o->curl, CURLOPT_WRITEFUNCTION, on_reply);
    curl_easy_setopt(o->curl, CURLOPT_WRITEDATA, o);
    curl_easy_setopt(o->curl, CURLOPT_CONNECTTIMEOUT, 10L);
    curl_easy_setopt(o->curl, CURLOPT_NOSIGNAL, 1L);
    /* the database first (the URL names it for every other statement) */
    if ((rc = ch_post(o, NULL, create_db, strlen(create_db), e)) != COW_OK) {
        xout_close(o);
        return rc;
    }
    o->use_db = 1;
    if ((rc = ch_ddl(o, e)) != COW_OK) {
        xout_close(o);
        return rc;
    }
    *out = o;
    return COW_OK;
}

int xout_table(cow_xout *o, const char *table, cow_err *e)
{
    snprintf(o->table, sizeof(o->table), "%s", table);
    o->cols[0] = '\0';
    o->n = 0;
    if (o->ch)
        return COW_OK;
    {
        char *name = xasprintf("%s.jsonl", table), *path = outfile_join(o->base, name);
        int rc = outfile_open(&o->out, path, e);
        free(name);
        free(path);
        if (rc != COW_OK)
            return rc;
    }
    o->open = 1;
    return COW_OK;
}

/* Remember a run's key, ('host','run'), for xout_replace. */
static void keep_key(cow_xout *o, const cow_xval *host, const cow_xval *run)
{
    char *key;
    size_t j = 0;
    if (host->type != COW_XTEXT || run->type != COW_XTEXT)
        return;
    key = xmalloc(2 * (host->n + run->n) + 10);
    key[j++] = '(';
    j += put_sql_str(key + j, host->s, host->n);
    key[j++] = ',';
    j += put_sql_str(key + j, run->s, run->n);
    key[j++] = ')';
    key[j] = '\0';
    if (o->nkeys > 0 && strcmp(o->keys[o->nkeys - 1], key) == 0) {
        free(key);
        return; /* a host's checks come one after the other */
    }
    if (o->nkeys == o->capkeys)
        o->keys = xgrow(o->keys, sizeof(*o->keys), o->nkeys + 1, &o->capkeys);
    o->keys[o->nkeys++] = key;
}

/* One value as JSON (sep ',' and the key before it) or as a TSV field. */
static void put_value(cow_xout *o, const cow_xval *v, int tsv)
{
    char num[40];

    switch (v->type) {
    case COW_XINT:
        snprintf(num, sizeof(num), "%" PRId64, v->i);
        put_s(o, num);
        return;
    case COW_XREAL:
        if (isfinite(v->d)) {
            /* the shortest of 15 or 17 digits that reads back exact */
            snprintf(num, sizeof(num), "%.15g", v->d);
            if (strtod(num, NULL) != v->d)
                snprintf(num, sizeof(num), "%.17g", v->d);
            put_s(o, num);
            return;
        }
        break;
    case COW_XTEXT:
        if (tsv)
            put_tsv_str(o, v->s, v->n);
        else
            put_json_str(o, v->s, v->n);
        return;
    case COW_XNULL: break;
    }
    put_s(o, tsv ? "\\N" : "null");
}

int xout_row(void *ctx, const char *const *cols, const cow_xval *v, int n)
{
    cow_xout *o = ctx;
    int i;

    if (o->ch) {
        /* the runs exported, the hosts judged as a whole (run ''), and the
         * labels of inputs refused before their run existed (no runs row) */
        if (n >= 2 && (strcmp(o->table, "runs") == 0 || strcmp(o->table, "inputs") == 0 ||
                       (strcmp(o->table, "checks") == 0 && v[1].type == COW_XTEXT &&
                        v[1].n == 0)))
            keep_key(o, &v[0], &v[1]);
        if (o->cols[0] == '\0') { /* the INSERT names the columns, in this order */
            size_t used = 0;
            for (i = 0; i < n; i++)
                used += (size_t)snprintf(o->cols + used, used < sizeof(o->cols)
                                         ? sizeof(o->cols) - used : 0,
                                         "%s%s", i ? "," : "(", cols[i]);
            if (used + 2 > sizeof(o->cols))
                return COW_FAIL(&o->err, COW_EINTERNAL, "export %s: too many columns",
                                o->table) != 0;
            snprintf(o->cols + used, sizeof(o->cols) - used, ")");
        }
        for (i = 0; i < n; i++) {
            if (i)
                put(o, "\t", 1);
            put_value(o, &v[i], 1);
        }
        put(o, "\n", 1);
    } else {
        put(o, "{", 1);
        for (i = 0; i < n; i++) {
            if (i)
                put(o, ",", 1);
            put_json_str(o, cols[i], strlen(cols[i]));
            put(o, ":", 1);
            put_value(o, &v[i], 0);
        }
        put(o, "}\n", 2);
    }
    o->rows++;
    if (o->n >= XOUT_BATCH && flush(o, &o->err) != COW_OK)
        return 1;
    return 0;
}

int xout_end(cow_xout *o, cow_err *e)
{
    int rc = flush(o, e);
    if (o->open) {
        o->open = 0;
        if (rc == COW_OK)
            rc = outfile_commit(&o->out, e);
        else
            outfile_abort(&o->out);
    }
    return rc;
}

int xout_replace(cow_xout *o, const char *const *tables, int64_t version, cow_err *e)
{
    /* runs per mutation: one ALTER per table per chunk, not per run */
    enum { CHUNK = 200 };
    size_t from, k;
    int rc = COW_OK;

    if (!o->ch)
        return COW_OK;
    for (; *tables && rc == COW_OK; tables++)
        for (from = 0; from < o->nkeys && rc == COW_OK; from += CHUNK) {
            o->n = 0;
            put_s(o, "ALTER TABLE ");
            put_s(o, *tables);
            put_s(o, " DELETE WHERE export_version < ");
            {
                char num[32];
                snprintf(num, sizeof(num), "%" PRId64, version);
                put_s(o, num);
            }
            put_s(o, " AND (host, run) IN (");
            for (k = from; k < o->nkeys && k < from + CHUNK; k++) {
                if (k > from)
                    put(o, ",", 1);
                put_s(o, o->keys[k]);
            }
            put(o, ")", 1);
            rc = ch_post(o, NULL, o->buf, o->n, e);
            o->n = 0;
        }
    return rc;
}

const cow_err *xout_error(const cow_xout *o)
{
    return &o->err;
}

long long xout_rows(const cow_xout *o)
{
    return o->rows;
}

void xout_close(cow_xout *o)
{
    size_t i;
    if (o == NULL)
        return;
    if (o->open)
        outfile_abort(&o->out);
    if (o->curl)
        curl_easy_cleanup(o->curl);
    if (o->ch)
        curl_global_cleanup();
    for (i = 0; i < o->nkeys; i++)
        free(o->keys[i]);
    free(o->keys);
    free(o->buf);
    free(o->reply);
    free(o->base);
    free(o);
}

/* A failed export says what landed and what did not, and what to do: the
 * version it sent has no mark, so the query of the README skips it. */
static void explain(cow_err *e, const cow_export_opts *opt, int64_t version,
                    const char *const *sent, size_t nsent, const char *failed)
{
    char why[sizeof(e->msg)], *done = xstrdup(""), *left = xstrdup(""), *t;
    size_t i;
    int after = 0;

    snprintf(why, sizeof(why), "%s", e->msg);
    for (i = strlen(why); i > 0 && (why[i - 1] == '\n' || why[i - 1] == ' '); i--)
        why[i - 1] = '\0';
    for (i = 0; i < nsent; i++) {
        t = xasprintf("%s%s%s", done, i ? ", " : "", sent[i]);
        free(done);
        done = t;
    }
    for (i = 0; cow_export_tables[i]; i++) {
        const char *n = cow_export_tables[i];
        if (strcmp(n, "samples") == 0 && !opt->samples)
            continue;
        if (failed && strcmp(n, failed) == 0)
            after = 1;
        if (!after)
            continue;
        t = xasprintf("%s%s, ", left, n);
        free(left);
        left = t;
    }
    t = xasprintf("%s%s", left, COW_EXPORT_MARK);
    free(left);
    left = t;
    COW_FAIL(e, e->code, "%s; export version %lld sent %s%s, not %s; without its mark "
             "in table %s the version is incomplete and the README's query reads the "
             "one before it: run the export again", why, (long long)version,
             nsent ? "" : "nothing", done, left, COW_EXPORT_MARK);
    free(done);
    free(left);
}

/* One table: its rows, then its end. */
static int send_table(cow_store *st, cow_xout *o, const char *t, int64_t version,
                      const char *tables, cow_err *e)
{
    int rc;
    if ((rc = xout_table(o, t, e)) != COW_OK)
        return rc;
    rc = tables ? store_export_mark(st, version, tables, xout_row, o, e)
                : store_export_rows(st, t, version, xout_row, o, e);
    if (rc != COW_OK && xout_error(o)->code)
        *e = *xout_error(o);
    if (rc == COW_OK)
        rc = xout_end(o, e);
    return rc;
}

int app_export(cow_store *st, const cow_export_opts *opt, cow_export_result *res,
               cow_err *e)
{
    const char **sent, *failed = NULL;
    cow_xout *o = NULL;
    struct timeval tv;
    size_t nsent = 0, ntab = 0;
    char *tables = xstrdup(""), *t;
    int i, rc;

    memset(res, 0, sizeof(*res));
    while (cow_export_tables[ntab])   /* every table, the mark, the NULL */
        ntab++;
    sent = xcalloc(ntab + 2, sizeof(*sent));
    rc = opt->clickhouse ? xout_clickhouse(opt->clickhouse, &o, e)
                         : xout_jsonl(opt->jsonl, &o, e);
    gettimeofday(&tv, NULL);
    res->version = (int64_t)tv.tv_sec * 1000000 + tv.tv_usec;
    if (rc == COW_OK && opt->jsonl) {
        /* the folder's mark goes first: until the new one is written, no
         * version in it is marked complete */
        char *mark = outfile_join(opt->jsonl, COW_EXPORT_MARK ".jsonl");
        if (unlink(mark) != 0 && errno != ENOENT)
            rc = COW_FAIL(e, COW_EIO, "%s: cannot remove: %s", mark, strerror(errno));
        free(mark);
    }
    for (i = 0; rc == COW_OK && cow_export_tables[i]; i++) {
        long long before = xout_rows(o);
        const char *n = cow_export_tables[i];
        if (strcmp(n, "samples") == 0 && !opt->samples)
            continue;
        if ((rc = send_table(st, o, n, res->version, NULL, e)) != COW_OK) {
            failed = n;
            break;
        }
        if (opt->on_table)
            opt->on_table(opt->ctx, n, xout_rows(o) - before);
        sent[nsent++] = n;
        t = xasprintf("%s%s%s", tables, nsent > 1 ? "," : "", n);
        free(tables);
        tables = t;
    }
    /* every table landed: mark the version complete, then drop the older */
    if (rc == COW_OK && (rc = send_table(st, o, COW_EXPORT_MARK, res->version, tables, e)) != COW_OK)
        failed = COW_EXPORT_MARK;
    if (rc == COW_OK) {
        sent[nsent] = COW_EXPORT_MARK;
        sent[nsent + 1] = NULL;
        rc = xout_replace(o, sent, res->version, e);
    } else if (o != NULL) {
        explain(e, opt, res->version, sent, nsent, failed);
    }
    if (o)
        res->rows = xout_rows(o);
    xout_close(o);
    free(tables);
    free(sent);
    return rc;
}
