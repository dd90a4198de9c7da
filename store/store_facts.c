/* store_facts.c -- the doctor's facts: one value with its source per
 * question (last/max INFO field, stat, event count, latency monitor,
 * refusals), and the memory and interval series. */
#include "store.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "store_int.h"

/* ------------------------------------------------------------- facts */

/* Step q (bound by the caller); a row fills f from columns num, text,
 * path, line. */
static int fact_row(cow_store *st, sqlite3_stmt *q, cow_fact *f, cow_err *e)
{
    int rc = sqlite3_step(q);
    memset(f, 0, sizeof(*f));
    f->num = NAN;
    if (rc == SQLITE_ROW) {
        const unsigned char *t = sqlite3_column_text(q, 1);
        const unsigned char *p = sqlite3_column_text(q, 2);
        f->known = 1;
        f->num = col_num(q, 0);
        snprintf(f->text, sizeof(f->text), "%s", t ? (const char *)t : "");
        const unsigned char *who = sqlite3_column_count(q) > 4
                                   ? sqlite3_column_text(q, 4) : NULL;
        if (p && who)
            snprintf(f->src, sizeof(f->src), "%s:%lld, %s", (const char *)p,
                     (long long)sqlite3_column_int64(q, 3), (const char *)who);
        else if (p)
            snprintf(f->src, sizeof(f->src), "%s:%lld", (const char *)p,
                     (long long)sqlite3_column_int64(q, 3));
    }
    sqlite3_reset(q);
    sqlite3_clear_bindings(q);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return sql_fail(st, e, "reading facts");
    return COW_OK;
}

/* The fact statement stmt with ?1 = run, ?2 = key and, unless NULL,
 * ?3 = key2 (further parameters bound by the caller first). */
static int fact_keys(cow_store *st, int stmt, int64_t run, const char *key,
                     const char *key2, cow_fact *f, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[stmt];
    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_text(q, 2, key, -1, SQLITE_STATIC);
    if (key2 != NULL)
        sqlite3_bind_text(q, 3, key2, -1, SQLITE_STATIC);
    return fact_row(st, q, f, e);
}

static int fact_key(cow_store *st, int stmt, int64_t run, const char *key,
                    cow_fact *f, cow_err *e)
{
    return fact_keys(st, stmt, run, key, NULL, f, e);
}

int store_fact_info_last(cow_store *st, int64_t run, const char *key, cow_fact *f,
                         cow_err *e)
{
    return fact_key(st, SQL_FACT_INFO_LAST, run, key, f, e);
}

int store_fact_info_max(cow_store *st, int64_t run, const char *key, cow_fact *f,
                        cow_err *e)
{
    return fact_key(st, SQL_FACT_INFO_MAX, run, key, f, e);
}

int store_fact_info_at(cow_store *st, int64_t run, const char *key, int64_t from_us,
                       int64_t until_us, cow_fact *f, cow_err *e)
{
    sqlite3_bind_int64(st->stmt[SQL_FACT_INFO_AT], 3, from_us);
    sqlite3_bind_int64(st->stmt[SQL_FACT_INFO_AT], 4, until_us);
    return fact_key(st, SQL_FACT_INFO_AT, run, key, f, e);
}

int store_fact_info_sub_max(cow_store *st, int64_t run, const char *key_prefix,
                            const char *sub, cow_fact *f, cow_err *e)
{
    return fact_keys(st, SQL_FACT_INFO_SUB_MAX, run, key_prefix, sub, f, e);
}

int store_fact_stat_max(cow_store *st, int64_t run, const char *source,
                        const char *key, int child, cow_fact *f, cow_err *e)
{
    sqlite3_bind_int(st->stmt[SQL_FACT_STAT_MAX], 4, child != 0);
    return fact_keys(st, SQL_FACT_STAT_MAX, run, source, key, f, e);
}

int store_fact_stat_last(cow_store *st, int64_t run, const char *source,
                         const char *key, cow_fact *f, cow_err *e)
{
    return fact_keys(st, SQL_FACT_STAT_LAST, run, source, key, f, e);
}

int store_fact_event_count(cow_store *st, int64_t run, const char *kind,
                           cow_fact *f, cow_err *e)
{
    int rc = fact_key(st, SQL_FACT_EVENT_COUNT, run, kind, f, e);
    if (rc == COW_OK && !f->known) {
        f->known = 1; /* no such event: a count of zero */
        f->num = 0;
    }
    return rc;
}

int store_fact_event_max(cow_store *st, int64_t run, const char *kind,
                         cow_fact *f, cow_err *e)
{
    return fact_key(st, SQL_FACT_EVENT_MAX, run, kind, f, e);
}

int store_fact_latmon(cow_store *st, int64_t run, const char *what, cow_fact *f,
                      cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_FACT_LATMON];
    int rc, col = strcmp(what, "history") == 0 ? 1 : strcmp(what, "latest") == 0 ? 2 : 3;

    memset(f, 0, sizeof(*f));
    f->num = NAN;
    sqlite3_bind_int64(q, 1, run);
    rc = sqlite3_step(q);
    if (rc == SQLITE_ROW && sqlite3_column_int64(q, 0) > 0) {
        const unsigned char *p = sqlite3_column_text(q, 3 + col);
        f->known = 1;
        f->num = (double)sqlite3_column_int64(q, col);
        if (p)
            snprintf(f->src, sizeof(f->src), "%s", (const char *)p);
    }
    sqlite3_reset(q);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return sql_fail(st, e, "reading latency monitor");
    return COW_OK;
}

int store_fact_latmon_thp(cow_store *st, int64_t run, cow_fact *f, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_FACT_LATMON_THP];
    int rc;

    memset(f, 0, sizeof(*f));
    f->num = NAN;
    sqlite3_bind_int64(q, 1, run);
    rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
        const char *text = (const char *)sqlite3_column_text(q, 0);
        const char *path = (const char *)sqlite3_column_text(q, 1);
        const char *hit = text ? strstr(text, "huge page") : NULL, *p, *b;
        long line = (long)sqlite3_column_int64(q, 2);
        /* the line of the text that says it, and that line's words */
        for (p = text, b = text; hit != NULL && p < hit; p++)
            if (*p == '\n') {
                line++;
                b = p + 1;
            }
        f->known = 1;
        f->num = 1;
        if (b != NULL) {
            const char *end = strchr(b, '\n');
            size_t len = end ? (size_t)(end - b) : strlen(b);
            snprintf(f->text, sizeof(f->text), "%.*s", (int)len, b);
        }
        snprintf(f->src, sizeof(f->src), "%s:%ld", path ? path : "", line);
    }
    sqlite3_reset(q);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return sql_fail(st, e, "reading LATENCY DOCTOR");
    return COW_OK;
}

int store_fact_latmon_fork_near(cow_store *st, int64_t run, int64_t t_us, cow_fact *f,
                                cow_err *e)
{
    sqlite3_stmt *q = NULL;
    int rc;

    memset(f, 0, sizeof(*f));
    f->num = NAN;
    if ((rc = prep(st, "SELECT l.lat_ms, f.path, l.line FROM latmon l JOIN files f ON"
                   " f.id = l.file WHERE l.run = ?1 AND l.kind = 'history' AND"
                   " l.event = 'fork' AND l.lat_ms IS NOT NULL AND l.t_us IS NOT NULL AND"
                   " abs(l.t_us - ?2) <= 2000000 ORDER BY abs(l.t_us - ?2) LIMIT 1",
                   &q, e)) != COW_OK)
        return rc;
    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_int64(q, 2, t_us);
    if ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        const char *path = (const char *)sqlite3_column_text(q, 1);
        f->known = 1;
        f->num = sqlite3_column_double(q, 0) * 1000;
        snprintf(f->text, sizeof(f->text), "%.0f ms (LATENCY HISTORY fork)",
                 sqlite3_column_double(q, 0));
        snprintf(f->src, sizeof(f->src), "%s:%lld", path ? path : "",
                 (long long)sqlite3_column_int64(q, 2));
        rc = SQLITE_DONE;
    }
    unprep(st, q);
    return rc == SQLITE_DONE ? COW_OK : sql_fail(st, e, "reading LATENCY HISTORY fork");
}

int store_load_latmon_fork(cow_store *st, int64_t run, int64_t **t_us, double **ms,
                           size_t *n, cow_err *e)
{
    sqlite3_stmt *q = NULL;
    size_t cap = 0, cap2 = 0, k = 0;
    int rc;

    *t_us = NULL;
    *ms = NULL;
    *n = 0;
    if ((rc = prep(st, "SELECT t_us, lat_ms FROM latmon WHERE run = ?1 AND kind = 'history'"
                   " AND event = 'fork' AND lat_ms IS NOT NULL AND t_us IS NOT NULL"
                   " ORDER BY t_us", &q, e)) != COW_OK)
        return rc;
    sqlite3_bind_int64(q, 1, run);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        *t_us = xgrow(*t_us, sizeof(int64_t), k + 1, &cap);
        *ms = xgrow(*ms, sizeof(double), k + 1, &cap2);
        (*t_us)[k] = sqlite3_column_int64(q, 0);
        (*ms)[k++] = sqlite3_column_double(q, 1);
    }
    unprep(st, q);
    *n = k;
    return rc == SQLITE_DONE ? COW_OK : sql_fail(st, e, "reading LATENCY HISTORY fork");
}

int store_fact_stat_rise(cow_store *st, int64_t run, const char *source, const char *key,
                         cow_fact *f, cow_err *e)
{
    sqlite3_stmt *q = NULL;
    int rc;

    memset(f, 0, sizeof(*f));
    f->num = NAN;
    if ((rc = prep(st, "SELECT max(s.num) - min(s.num), count(*),"
                   " (SELECT fx.path || ':' || sx.line FROM stats sx JOIN files fx ON"
                   "  fx.id = sx.file WHERE sx.run = ?1 AND sx.source = ?2 AND sx.key = ?3"
                   "  AND sx.num IS NOT NULL ORDER BY sx.num DESC LIMIT 1)"
                   " FROM stats s WHERE s.run = ?1 AND s.source = ?2 AND s.key = ?3"
                   " AND s.num IS NOT NULL", &q, e)) != COW_OK)
        return rc;
    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_text(q, 2, source, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 3, key, -1, SQLITE_STATIC);
    if ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        if (sqlite3_column_int64(q, 1) >= 2) {
            const char *src = (const char *)sqlite3_column_text(q, 2);
            f->known = 1;
            f->num = sqlite3_column_double(q, 0);
            snprintf(f->text, sizeof(f->text), "+%.0f over the capture", f->num);
            snprintf(f->src, sizeof(f->src), "%s", src ? src : "");
        }
        rc = SQLITE_DONE;
    }
    unprep(st, q);
    return rc == SQLITE_DONE ? COW_OK : sql_fail(st, e, "reading a counter's rise");
}

int store_fact_latmon_spike(cow_store *st, int64_t run, cow_fact *f, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_FACT_LATMON_SPIKE];
    int rc;

    memset(f, 0, sizeof(*f));
    f->num = NAN;
    sqlite3_bind_int64(q, 1, run);
    rc = sqlite3_step(q);
    if (rc == SQLITE_ROW && sqlite3_column_double(q, 0) > 0) {
        const char *ev = (const char *)sqlite3_column_text(q, 1);
        const char *kind = (const char *)sqlite3_column_text(q, 2);
        const char *path = (const char *)sqlite3_column_text(q, 3);
        f->known = 1;
        f->num = sqlite3_column_double(q, 0);
        snprintf(f->text, sizeof(f->text), "%s (LATENCY %s)", ev ? ev : "an unnamed event",
                 kind && strcmp(kind, "latest") == 0   ? "LATEST"
                 : kind && strcmp(kind, "doctor") == 0 ? "DOCTOR"
                                                       : "HISTORY");
        snprintf(f->src, sizeof(f->src), "%s:%lld", path ? path : "",
                 (long long)sqlite3_column_int64(q, 4));
    }
    sqlite3_reset(q);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return sql_fail(st, e, "reading the latency monitor's spikes");
    return COW_OK;
}

int store_fact_latmon_cmd(cow_store *st, int64_t run, int64_t t0_us, int64_t t1_us,
                          cow_fact *f, int64_t *t_us, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_FACT_LATMON_CMD];
    int rc;

    memset(f, 0, sizeof(*f));
    f->num = NAN;
    *t_us = 0;
    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_int64(q, 2, t0_us);
    sqlite3_bind_int64(q, 3, t1_us);
    rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
        const char *ev = (const char *)sqlite3_column_text(q, 1);
        const char *path = (const char *)sqlite3_column_text(q, 3);
        f->known = 1;
        f->num = sqlite3_column_double(q, 0);
        *t_us = sqlite3_column_int64(q, 2);
        snprintf(f->text, sizeof(f->text), "%s", ev ? ev : "command");
        snprintf(f->src, sizeof(f->src), "%s:%lld", path ? path : "",
                 (long long)sqlite3_column_int64(q, 4));
    }
    sqlite3_reset(q);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return sql_fail(st, e, "reading the latency monitor's commands");
    return COW_OK;
}

int store_load_mem(cow_store *st, int64_t run, int64_t **t_us, double **bytes,
                   size_t *n, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_LOAD_MEM];
    size_t c1 = 0, c2 = 0, k = 0;
    char first[64] = "";
    int rc;

    *t_us = NULL;
    *bytes = NULL;
    sqlite3_bind_int64(q, 1, run);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        const unsigned char *w = sqlite3_column_text(q, 2);
        const char *what = w ? (const char *)w : "";
        if (k == 0)
            snprintf(first, sizeof(first), "%s", what);
        else if (strcmp(first, what) != 0)
            break; /* one series: the preferred one */
        *t_us = xgrow(*t_us, sizeof(int64_t), k + 1, &c1);
        *bytes = xgrow(*bytes, sizeof(double), k + 1, &c2);
        (*t_us)[k] = sqlite3_column_int64(q, 0);
        (*bytes)[k++] = sqlite3_column_double(q, 1);
    }
    sqlite3_reset(q);
    *n = k;
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        return sql_fail(st, e, "loading memory series");
    return COW_OK;
}

static double col_or_nan(sqlite3_stmt *q, int i)
{
    return sqlite3_column_type(q, i) == SQLITE_NULL ? NAN : sqlite3_column_double(q, i);
}

int store_load_kstat(cow_store *st, int64_t run, cow_kstat_row **rows, size_t *n,
                     char **path, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_LOAD_KSTAT];
    size_t cap = 0, k = 0;
    int rc;

    *rows = NULL;
    *path = NULL;
    sqlite3_bind_int64(q, 1, run);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        cow_kstat_row *r;
        const unsigned char *pid = sqlite3_column_text(q, 2), *p = sqlite3_column_text(q, 11);
        double ut = col_or_nan(q, 5), stm = col_or_nan(q, 6);
        *rows = xgrow(*rows, sizeof(**rows), k + 1, &cap);
        r = &(*rows)[k++];
        r->t_us = sqlite3_column_int64(q, 0);
        r->child = sqlite3_column_int(q, 1);
        r->pid = pid ? strtol((const char *)pid, NULL, 10) : 0;
        r->minflt = col_or_nan(q, 3);
        r->majflt = col_or_nan(q, 4);
        r->cpu_us = ut + stm;
        r->stime_us = stm;
        r->delay_us = col_or_nan(q, 7);
        r->read_bytes = col_or_nan(q, 8);
        r->write_bytes = col_or_nan(q, 9);
        r->line = (long)sqlite3_column_int64(q, 10);
        if (*path == NULL)
            *path = xstrdup(p ? (const char *)p : "");
    }
    sqlite3_reset(q);
    *n = k;
    if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
        free(*rows);
        free(*path);
        *rows = NULL;
        *path = NULL;
        return sql_fail(st, e, "loading the kernel's account (kstat)");
    }
    return COW_OK;
}

int store_load_cmdhist(cow_store *st, int64_t run, cow_cmdhist_row **rows, size_t *n,
                       cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_LOAD_CMDHIST];
    size_t cap = 0, k = 0;
    int rc;

    *rows = NULL;
    sqlite3_bind_int64(q, 1, run);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        const unsigned char *p = sqlite3_column_text(q, 0), *c = sqlite3_column_text(q, 1),
                            *t = sqlite3_column_text(q, 2);
        cow_cmdhist_row *r;
        *rows = xgrow(*rows, sizeof(**rows), k + 1, &cap);
        r = &(*rows)[k++];
        r->file = xstrdup(p ? (const char *)p : "");
        r->cmd = xstrdup(c ? (const char *)c : "");
        r->bound_us = t && strcmp((const char *)t, "calls") != 0 ? strtoll((const char *)t, NULL, 10) : 0;
        r->n = sqlite3_column_double(q, 3);
        r->line = (long)sqlite3_column_int64(q, 4);
    }
    sqlite3_reset(q);
    *n = k;
    if (rc != SQLITE_DONE) {
        store_free_cmdhist(*rows, k);
        *rows = NULL;
        *n = 0;
        return sql_fail(st, e, "loading LATENCY HISTOGRAM");
    }
    return COW_OK;
}

void store_free_cmdhist(cow_cmdhist_row *rows, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        free(rows[i].file);
        free(rows[i].cmd);
    }
    free(rows);
}

int store_mem_source(cow_store *st, int64_t run, char **what, char **path, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_MEM_SOURCE];
    int rc;

    *what = *path = NULL;
    sqlite3_bind_int64(q, 1, run);
    if ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        const unsigned char *w = sqlite3_column_text(q, 0), *p = sqlite3_column_text(q, 1);
        *what = xstrdup(w ? (const char *)w : "");
        *path = xstrdup(p ? (const char *)p : "");
    }
    sqlite3_reset(q);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
        free(*what);
        free(*path);
        *what = *path = NULL;
        return sql_fail(st, e, "reading the memory series' source");
    }
    if (*what == NULL)
        *what = xstrdup(""), *path = xstrdup("");
    return COW_OK;
}

int store_load_intervals(cow_store *st, int64_t run, int throughput,
                         int64_t **t_us, double **dur_s, double **count,
                         double **max_us, size_t *n, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_LOAD_INTERVALS];
    size_t c1 = 0, c2 = 0, c3 = 0, c4 = 0, k = 0;
    int rc;

    *t_us = NULL;
    *dur_s = *count = *max_us = NULL;
    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_int(q, 2, throughput != 0);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        *t_us = xgrow(*t_us, sizeof(int64_t), k + 1, &c1);
        *dur_s = xgrow(*dur_s, sizeof(double), k + 1, &c2);
        *count = xgrow(*count, sizeof(double), k + 1, &c3);
        *max_us = xgrow(*max_us, sizeof(double), k + 1, &c4);
        (*t_us)[k] = sqlite3_column_int64(q, 0);
        (*dur_s)[k] = col_num(q, 1);
        (*count)[k] = col_num(q, 2);
        (*max_us)[k++] = col_num(q, 3);
    }
    sqlite3_reset(q);
    *n = k;
    if (rc != SQLITE_DONE)
        return sql_fail(st, e, "loading intervals");
    return COW_OK;
}


int store_load_quiet(cow_store *st, int64_t run, cow_quiet_row **v, size_t *n, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_LOAD_QUIET];
    size_t cap = 0, k = 0;
    int rc;

    *v = NULL;
    sqlite3_bind_int64(q, 1, run);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        cow_quiet_row *r;
        *v = xgrow(*v, sizeof(**v), k + 1, &cap);
        r = &(*v)[k++];
        r->gap = strcmp(col_text(q, 0), "gap") == 0;
        r->t_us = sqlite3_column_int64(q, 1);
        r->dur_us = sqlite3_column_int64(q, 2);
        r->n = sqlite3_column_int64(q, 3);
        snprintf(r->how, sizeof(r->how), "%s", col_text(q, 4));
    }
    sqlite3_reset(q);
    *n = k;
    if (rc != SQLITE_DONE) {
        free(*v);
        *v = NULL;
        *n = 0;
        return sql_fail(st, e, "loading the probe's stalls and gaps");
    }
    return COW_OK;
}

int store_fact_refusals(cow_store *st, const char *label, cow_fact *f, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_FACT_REFUSALS];
    int rc;
    sqlite3_bind_text(q, 1, label, -1, SQLITE_STATIC);
    rc = fact_row(st, q, f, e);
    if (rc == COW_OK && !f->known) {
        f->known = 1;
        f->num = 0;
    }
    return rc;
}

