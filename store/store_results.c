/* store_results.c -- what analysis reads and writes: samples, events and INFO
 * series in; phases, quantiles, deltas, exceedance and findings out; the
 * run list. */
#include "store.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mem.h"
#include "store_int.h"

/* ------------------------------------------------------------ analysis */

/* The shift from the stored reading to the one asked for
 * (store_set_latency_from): a sample read from the other one moves by
 * alt_us (schemas/022_latency_from.sql). */
#define SHIFT_SENT "max(alt_us, 0)"
#define SHIFT_INTENDED "min(alt_us, 0)"

static const char *const load_sql[] = {
    [COW_FROM_SENT] = "SELECT t_us + " SHIFT_SENT " AS t, lat_us - " SHIFT_SENT
                      " FROM samples WHERE run = ?1 ORDER BY t",
    [COW_FROM_INTENDED] = "SELECT t_us + " SHIFT_INTENDED " AS t, lat_us - " SHIFT_INTENDED
                          " FROM samples WHERE run = ?1 ORDER BY t"};
/* [t0, t1) on the reading's time; the stored time bounds it within the
 * run's largest shift (?4), so the key range is still what is read */
static const char *const range_sql[] = {
    [COW_FROM_SENT] = "SELECT lat_us - " SHIFT_SENT ", t_us + " SHIFT_SENT " AS t"
                      " FROM samples WHERE run = ?1 AND t_us >= ?2 - ?4 AND t_us < ?3 + ?4"
                      " AND t_us + " SHIFT_SENT " >= ?2 AND t_us + " SHIFT_SENT " < ?3"
                      " ORDER BY t",
    [COW_FROM_INTENDED] = "SELECT lat_us - " SHIFT_INTENDED ", t_us + " SHIFT_INTENDED " AS t"
                          " FROM samples WHERE run = ?1 AND t_us >= ?2 - ?4 AND t_us < ?3 + ?4"
                          " AND t_us + " SHIFT_INTENDED " >= ?2 AND t_us + " SHIFT_INTENDED
                          " < ?3 ORDER BY t"};

/* Does run hold samples whose reading differs from the stored one? 1 and
 * the largest shift in *max_us; 0 when every sample reads as stored. */
static int shifted(cow_store *st, int64_t run, int64_t *max_us, cow_err *e)
{
    sqlite3_stmt *q = NULL;
    int rc;
    if (st->latency_from == COW_FROM_STORED)
        return 0;
    if (st->alt_run != run) {
        if (prep(st, st->latency_from == COW_FROM_SENT
                 ? "SELECT coalesce(max(alt_us), 0) FROM samples WHERE run = ?1"
                 : "SELECT coalesce(-min(alt_us), 0) FROM samples WHERE run = ?1",
                 &q, e) != COW_OK)
            return -1;
        sqlite3_bind_int64(q, 1, run);
        rc = sqlite3_step(q);
        st->alt_max_us = rc == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;
        unprep(st, q);
        if (rc != SQLITE_ROW) {
            sql_fail(st, e, "reading the samples' shifts");
            return -1;
        }
        st->alt_run = run;
    }
    *max_us = st->alt_max_us;
    return st->alt_max_us > 0;
}

int store_load_samples(cow_store *st, int64_t run, int64_t **t_us,
                       double **lat_us, size_t *n, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_LOAD_SAMPLES];
    size_t cap = 4096, k = 0;
    int64_t mx;
    int rc, sh = shifted(st, run, &mx, e);

    if (sh < 0)
        return e->code;
    if (sh && (rc = prep(st, load_sql[st->latency_from], &q, e)) != COW_OK)
        return rc;

    /* grown as the rows come (counting them first was a second pass over
     * the run: a third of the load of 10 M samples) */
    *t_us = xmalloc(cap * sizeof(int64_t));
    *lat_us = xmalloc(cap * sizeof(double));
    *n = 0;
    sqlite3_bind_int64(q, 1, run);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        if (k == cap) {
            cap *= 2;
            *t_us = xrealloc(*t_us, cap * sizeof(int64_t));
            *lat_us = xrealloc(*lat_us, cap * sizeof(double));
        }
        (*t_us)[k] = sqlite3_column_int64(q, 0);
        (*lat_us)[k++] = sqlite3_column_double(q, 1);
    }
    if (sh)
        unprep(st, q);
    else
        sqlite3_reset(q);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
        free(*t_us);
        free(*lat_us);
        *t_us = NULL;
        *lat_us = NULL;
        return sql_fail(st, e, "loading samples");
    }
    *n = k;
    return COW_OK;
}

static void copy_col(sqlite3_stmt *q, int col, char *out, size_t cap)
{
    const unsigned char *t = sqlite3_column_text(q, col);
    snprintf(out, cap, "%s", t ? (const char *)t : "");
}

int store_load_pctl(cow_store *st, int64_t run, cow_pctl_row **rows, size_t *n,
                    cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_LOAD_PCTL];
    size_t cap = 0, k = 0;
    int rc;

    *rows = NULL;
    sqlite3_bind_int64(q, 1, run);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        cow_pctl_row *r;
        *rows = xgrow(*rows, sizeof(**rows), k + 1, &cap);
        r = &(*rows)[k++];
        copy_col(q, 0, r->source, sizeof(r->source));
        r->file = xstrdup(col_text(q, 1));
        r->line = (long)sqlite3_column_int64(q, 2);
        copy_col(q, 3, r->op, sizeof(r->op));
        r->q = sqlite3_column_double(q, 4);
        r->value_us = sqlite3_column_double(q, 5);
        r->count = sqlite3_column_int64(q, 6);
    }
    sqlite3_reset(q);
    *n = k;
    if (rc != SQLITE_DONE) {
        store_free_pctl(*rows, k);
        *rows = NULL;
        *n = 0;
        return sql_fail(st, e, "loading percentiles");
    }
    return COW_OK;
}

void store_free_pctl(cow_pctl_row *rows, size_t n)
{
    for (size_t i = 0; rows != NULL && i < n; i++)
        free(rows[i].file);
    free(rows);
}

int store_load_pctl_series(cow_store *st, int64_t run, double q, char *op,
                           int64_t **t_us, double **value_us, size_t *n, cow_err *e)
{
    sqlite3_stmt *s = st->stmt[SQL_LOAD_PCTL_SERIES];
    size_t cap = 0, cap2 = 0, k = 0;
    int rc, pass;

    *t_us = NULL;
    *value_us = NULL;
    *n = 0;
    op[0] = '\0';
    /* pass 0 picks the op ("Totals", else the first), pass 1 reads it */
    for (pass = 0; pass < 2; pass++) {
        int have = 0;
        sqlite3_bind_int64(s, 1, run);
        sqlite3_bind_double(s, 2, q);
        while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
            const char *o = (const char *)sqlite3_column_text(s, 0);
            o = o ? o : "";
            if (pass == 0) {
                if (!have || strcmp(o, "Totals") == 0)
                    snprintf(op, 64, "%s", o);
                have = 1;
                continue;
            }
            if (strcmp(o, op) != 0)
                continue;
            *t_us = xgrow(*t_us, sizeof(int64_t), k + 1, &cap);
            *value_us = xgrow(*value_us, sizeof(double), k + 1, &cap2);
            (*t_us)[k] = sqlite3_column_int64(s, 1);
            (*value_us)[k++] = sqlite3_column_double(s, 2);
        }
        sqlite3_reset(s);
        if (rc != SQLITE_DONE) {
            free(*t_us);
            free(*value_us);
            *t_us = NULL;
            *value_us = NULL;
            return sql_fail(st, e, "loading a percentile series");
        }
    }
    *n = k;
    return COW_OK;
}

int store_sample_bounds(cow_store *st, int64_t run, int *any, int64_t *t_first_us,
                        int64_t *t_last_us, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_SAMPLE_BOUNDS];
    int64_t mx;
    int rc, sh = shifted(st, run, &mx, e);
    if (sh < 0)
        return e->code;
    /* another reading: its span needs the shifts (a scan of the run) */
    if (sh && (rc = prep(st, st->latency_from == COW_FROM_SENT
                         ? "SELECT min(t_us + " SHIFT_SENT "), max(t_us + " SHIFT_SENT ")"
                           " FROM samples WHERE run = ?1"
                         : "SELECT min(t_us + " SHIFT_INTENDED "), max(t_us + " SHIFT_INTENDED
                           ") FROM samples WHERE run = ?1", &q, e)) != COW_OK)
        return rc;
    sqlite3_bind_int64(q, 1, run);
    rc = sqlite3_step(q);
    *any = rc == SQLITE_ROW && sqlite3_column_type(q, 0) != SQLITE_NULL;
    *t_first_us = *any ? sqlite3_column_int64(q, 0) : 0;
    *t_last_us = *any ? sqlite3_column_int64(q, 1) : 0;
    if (sh)
        unprep(st, q);
    else
        sqlite3_reset(q);
    if (rc != SQLITE_ROW)
        return sql_fail(st, e, "reading the samples' span");
    return COW_OK;
}

int store_load_range(cow_store *st, int64_t run, int64_t t0_us, int64_t t1_us,
                     double **lat, int64_t **t, size_t *n, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_LOAD_LAT];
    size_t cap = 0, tcap = 0, k = 0;
    int64_t mx;
    int rc, sh = shifted(st, run, &mx, e);

    *lat = NULL;
    if (t)
        *t = NULL;
    if (sh < 0)
        return e->code;
    if (sh && (rc = prep(st, range_sql[st->latency_from], &q, e)) != COW_OK)
        return rc;
    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_int64(q, 2, t0_us);
    sqlite3_bind_int64(q, 3, t1_us);
    if (sh)
        sqlite3_bind_int64(q, 4, mx);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        if (k == cap)
            *lat = xgrow(*lat, sizeof(double), k + 1, &cap);
        if (t && k == tcap)
            *t = xgrow(*t, sizeof(int64_t), k + 1, &tcap);
        (*lat)[k] = sqlite3_column_double(q, 0);
        if (t)
            (*t)[k] = sqlite3_column_int64(q, 1);
        k++;
    }
    if (sh)
        unprep(st, q);
    else
        sqlite3_reset(q);
    *n = k;
    if (rc == SQLITE_DONE && *lat == NULL) /* none: still an array (memcpy of 0) */
        *lat = xmalloc(sizeof(double));
    if (rc != SQLITE_DONE) {
        free(*lat);
        *lat = NULL;
        if (t) {
            free(*t);
            *t = NULL;
        }
        *n = 0;
        return sql_fail(st, e, "loading latencies");
    }
    return COW_OK;
}

int store_load_latencies(cow_store *st, int64_t run, int64_t t0_us, int64_t t1_us,
                         double **lat, size_t *n, cow_err *e)
{
    return store_load_range(st, run, t0_us, t1_us, lat, NULL, n, e);
}

/* A TEXT column copied into a pool of owned strings (NULL for NULL). */
static const char *pool_dup(char ***pool, size_t *npool, size_t *cap, sqlite3_stmt *q, int i)
{
    const unsigned char *t = sqlite3_column_text(q, i);
    if (t == NULL)
        return NULL;
    *pool = xgrow(*pool, sizeof(char *), *npool + 1, cap);
    (*pool)[*npool] = xstrdup((const char *)t);
    return (*pool)[(*npool)++];
}

static void pool_free(char **pool, size_t npool)
{
    size_t i;
    for (i = 0; i < npool; i++)
        free(pool[i]);
    free(pool);
}

static int load_events(cow_store *st, int stmt, int64_t run, int server,
                       cow_event_set *out, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[stmt];
    size_t cap = 0, pcap = 0;
    int rc;

    memset(out, 0, sizeof(*out));
    sqlite3_bind_int64(q, 1, run);
    if (server > 0)
        sqlite3_bind_int(q, 2, server);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        cow_event *v;
        out->v = xgrow(out->v, sizeof(cow_event), out->n + 1, &cap);
        v = &out->v[out->n++];
        v->t_us = sqlite3_column_int64(q, 0);
        v->kind = pool_dup(&out->pool, &out->npool, &pcap, q, 1);
        v->pid = (long)sqlite3_column_int64(q, 2);
        v->value = sqlite3_column_type(q, 3) == SQLITE_NULL ? NAN
                                                            : sqlite3_column_double(q, 3);
        v->unit = pool_dup(&out->pool, &out->npool, &pcap, q, 4);
        v->text = pool_dup(&out->pool, &out->npool, &pcap, q, 5);
        v->line = (long)sqlite3_column_int64(q, 6);
    }
    sqlite3_reset(q);
    if (rc != SQLITE_DONE) {
        store_free_events(out);
        return sql_fail(st, e, "loading events");
    }
    return COW_OK;
}

int store_load_events(cow_store *st, int64_t run, cow_event_set *out, cow_err *e)
{
    return load_events(st, SQL_LOAD_EVENTS, run, 0, out, e);
}

int store_load_primary_events(cow_store *st, int64_t run, cow_event_set *out,
                              int *by_table, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_HAS_SERVERS];
    int rc;
    sqlite3_bind_int64(q, 1, run);
    rc = sqlite3_step(q);
    *by_table = rc == SQLITE_ROW && sqlite3_column_int64(q, 0) > 0;
    sqlite3_reset(q);
    if (rc != SQLITE_ROW)
        return sql_fail(st, e, "counting the run's servers");
    return load_events(st, SQL_LOAD_PRIMARY_EVENTS, run, 0, out, e);
}

int store_load_server_events(cow_store *st, int64_t run, int server, cow_event_set *out,
                             cow_err *e)
{
    return load_events(st, SQL_LOAD_SERVER_EVENTS, run, server, out, e);
}

void store_free_events(cow_event_set *s)
{
    pool_free(s->pool, s->npool);
    free(s->v);
    memset(s, 0, sizeof(*s));
}

/* Rows of (t_us, num) of a bound statement q into two grown arrays. */
static int load_t_num(cow_store *st, sqlite3_stmt *q, int64_t **t_us, double **num,
                      size_t *n, const char *what, cow_err *e)
{
    size_t cap = 0, cap2 = 0, k = 0;
    int rc;

    *t_us = NULL;
    *num = NULL;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        *t_us = xgrow(*t_us, sizeof(int64_t), k + 1, &cap);
        *num = xgrow(*num, sizeof(double), k + 1, &cap2);
        (*t_us)[k] = sqlite3_column_int64(q, 0);
        (*num)[k++] = sqlite3_column_double(q, 1);
    }
    sqlite3_reset(q);
    *n = k;
    if (rc != SQLITE_DONE)
        return sql_fail(st, e, what);
    return COW_OK;
}

int store_load_info_series(cow_store *st, int64_t run, const char *key,
                           int64_t **t_us, double **num, size_t *n, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_LOAD_INFO];

    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_text(q, 2, key, -1, SQLITE_STATIC);
    return load_t_num(st, q, t_us, num, n, "loading INFO series", e);
}

int store_load_child_stat_series(cow_store *st, int64_t run, const char *source,
                                 const char *key, int64_t **t_us, double **num,
                                 size_t *n, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_LOAD_CHILD_STAT];

    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_text(q, 2, source, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 3, key, -1, SQLITE_STATIC);
    return load_t_num(st, q, t_us, num, n, "loading the fork child's snapshots", e);
}

int store_analysis_drop(cow_store *st, int64_t run, cow_err *e)
{
    static const int dels[] = {SQL_DEL_ANALYSIS, SQL_DEL_PHASES, SQL_DEL_QUANTILES,
                               SQL_DEL_DELTAS, SQL_DEL_EXCEED};
    sqlite3_stmt *q;
    size_t i;
    int rc;

    for (i = 0; i < sizeof(dels) / sizeof(dels[0]); i++) {
        q = st->stmt[dels[i]];
        sqlite3_bind_int64(q, 1, run);
        if ((rc = step_done(st, q, e, "clearing old results")) != COW_OK)
            return rc;
    }
    return COW_OK;
}

int store_analysis_begin(cow_store *st, int64_t run, uint64_t seed,
                         int resamples, const char *method, cow_err *e)
{
    sqlite3_stmt *q;
    int rc;

    if ((rc = store_analysis_drop(st, run, e)) != COW_OK)
        return rc;
    q = st->stmt[SQL_PUT_ANALYSIS];
    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_int64(q, 2, (sqlite3_int64)seed);
    sqlite3_bind_int(q, 3, resamples);
    sqlite3_bind_text(q, 4, method, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 5, (sqlite3_int64)time(NULL));
    return step_done(st, q, e, "recording analysis");
}

/* ------------------------------------------------------ the result rows
 * Each table's put statement binds ?1 = run, then one parameter per entry
 * of its column table, in order: where the field is in the row struct, its
 * C type and when it is NULL; its load statement selects the same columns
 * in the same order, read back through the same table. Adding a column: a
 * line here, the column in both statements (store.c) and the migration. */
static const col_desc phase_cols[] = {
    COL(cow_phase_row, idx, COL_INT),         COL(cow_phase_row, kind, COL_TEXT),
    COL(cow_phase_row, label, COL_TEXT),      COL(cow_phase_row, t0_us, COL_I64),
    COL(cow_phase_row, t1_us, COL_I64),       COL(cow_phase_row, fork_us, COL_T),
    COL(cow_phase_row, child_pid, COL_NZ),    COL(cow_phase_row, source, COL_TEXT),
    COL(cow_phase_row, overlap, COL_INT),     COL(cow_phase_row, open, COL_INT),
    COL(cow_phase_row, failed, COL_INT),      COL(cow_phase_row, n, COL_I64),
    COL(cow_phase_row, mean_us, COL_NUM),     COL(cow_phase_row, min_us, COL_NUM),
    COL(cow_phase_row, max_us, COL_NUM),      COL(cow_phase_row, grid_us, COL_NUM),
    COL(cow_phase_row, unstable, COL_TEXT)};

static const col_desc quantile_cols[] = {
    COL(cow_quantile_row, phase, COL_INT),    COL(cow_quantile_row, q, COL_DBL),
    COL(cow_quantile_row, value_us, COL_NUM), COL(cow_quantile_row, lo_us, COL_NUM),
    COL(cow_quantile_row, hi_us, COL_NUM),    COL(cow_quantile_row, n_needed, COL_I64),
    COL(cow_quantile_row, thin, COL_INT),     COL(cow_quantile_row, n_eff, COL_NUM)};

static const col_desc delta_cols[] = {
    COL(cow_delta_row, phase, COL_INT),       COL(cow_delta_row, base, COL_INT),
    COL(cow_delta_row, q, COL_DBL),           COL(cow_delta_row, base_us, COL_NUM),
    COL(cow_delta_row, value_us, COL_NUM),    COL(cow_delta_row, delta_us, COL_NUM),
    COL(cow_delta_row, lo_us, COL_NUM),       COL(cow_delta_row, hi_us, COL_NUM),
    COL(cow_delta_row, ratio, COL_NUM),       COL(cow_delta_row, ratio_lo, COL_NUM),
    COL(cow_delta_row, ratio_hi, COL_NUM),    COL(cow_delta_row, verdict, COL_TEXT),
    COL(cow_delta_row, thin, COL_INT),        COL(cow_delta_row, n_eff_base, COL_NUM),
    COL(cow_delta_row, n_eff_phase, COL_NUM), COL(cow_delta_row, method, COL_TEXT),
    COL(cow_delta_row, p_up, COL_NUM),        COL(cow_delta_row, p_down, COL_NUM),
    COL(cow_delta_row, test_level, COL_NUM),  COL(cow_delta_row, why, COL_TEXT),
    COL(cow_delta_row, local_base, COL_INT)};

static const col_desc exceed_cols[] = {
    COL(cow_exceed_row, phase, COL_INT),      COL(cow_exceed_row, base_q, COL_DBL),
    COL(cow_exceed_row, threshold_us, COL_DBL), COL(cow_exceed_row, n, COL_I64),
    COL(cow_exceed_row, count, COL_I64),      COL(cow_exceed_row, p, COL_NUM),
    COL(cow_exceed_row, lo, COL_NUM),         COL(cow_exceed_row, hi, COL_NUM),
    COL(cow_exceed_row, clusters, COL_I64),   COL(cow_exceed_row, p_more, COL_NUM)};

/* Bind run and row's columns to the statement stmt, step it. */
static int put_row(cow_store *st, int stmt, int64_t run, const void *row,
                   const col_desc *c, size_t n, const char *what, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[stmt];
    int rc;

    if ((rc = store_bind_cols(q, 2, row, c, n, what, e)) != COW_OK)
        return rc;
    sqlite3_bind_int64(q, 1, run);
    return step_done(st, q, e, what);
}

int store_put_phase(cow_store *st, int64_t run, const cow_phase_row *p, cow_err *e)
{
    return put_row(st, SQL_PUT_PHASE, run, p, phase_cols, NCOLS(phase_cols),
                   "storing phase", e);
}

int store_put_quantile(cow_store *st, int64_t run, const cow_quantile_row *r,
                       cow_err *e)
{
    return put_row(st, SQL_PUT_QUANTILE, run, r, quantile_cols, NCOLS(quantile_cols),
                   "storing quantile", e);
}

int store_put_delta(cow_store *st, int64_t run, const cow_delta_row *d,
                    cow_err *e)
{
    return put_row(st, SQL_PUT_DELTA, run, d, delta_cols, NCOLS(delta_cols),
                   "storing delta", e);
}

int store_put_exceed(cow_store *st, int64_t run, const cow_exceed_row *x,
                     cow_err *e)
{
    return put_row(st, SQL_PUT_EXCEED, run, x, exceed_cols, NCOLS(exceed_cols),
                   "storing exceedance", e);
}

/* Where a loaded row's strings go: the result set's pool. */
typedef struct res_ctx {
    cow_result_set *r;  /* strings go to its pool */
    size_t pcap;        /* the pool's capacity */
} res_ctx;

/* Read the columns of q's current row into row, by the same column table
 * that wrote them (column i is table row i: the SELECT leaves out run).
 * NULL reads back as what wrote it: NaN, NULL, 0. */
static void get_row(sqlite3_stmt *q, void *row, const col_desc *c, size_t n, res_ctx *x)
{
    char *base = row;
    size_t i;
    for (i = 0; i < n; i++) {
        void *f = base + c[i].off;
        int k = (int)i;
        switch (c[i].type) {
        case COL_INT: *(int *)f = sqlite3_column_int(q, k); break;
        case COL_I64:
        case COL_T:
        case COL_STEP: *(int64_t *)f = sqlite3_column_int64(q, k); break;
        case COL_DBL: *(double *)f = sqlite3_column_double(q, k); break;
        case COL_NUM: *(double *)f = col_num(q, k); break;
        case COL_TEXT:
        case COL_STR0:
            *(const char **)f = pool_dup(&x->r->pool, &x->r->npool, &x->pcap, q, k);
            break;
        case COL_NZ: *(long *)f = (long)sqlite3_column_int64(q, k); break;
        }
    }
}

/* Every row of statement stmt for run, appended to *arr (elem bytes each,
 * *n of them) through the column table c. SQLITE_DONE, or the error code
 * of the step. */
static int load_rows(cow_store *st, int stmt, int64_t run, void **arr, size_t *n,
                     size_t elem, const col_desc *c, size_t ncols, res_ctx *x)
{
    sqlite3_stmt *q = st->stmt[stmt];
    size_t cap = 0;
    int rc;

    if (store_cols_bad(c, ncols) < ncols)
        return SQLITE_MISUSE;
    sqlite3_bind_int64(q, 1, run);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        *arr = xgrow(*arr, elem, *n + 1, &cap);
        get_row(q, (char *)*arr + elem * (*n)++, c, ncols, x);
    }
    sqlite3_reset(q);
    return rc;
}

int store_analysed(cow_store *st, int64_t run, int *analysed, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_RES_ANALYSIS];
    int rc;

    sqlite3_bind_int64(q, 1, run);
    rc = sqlite3_step(q);
    *analysed = rc == SQLITE_ROW;
    sqlite3_reset(q);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return sql_fail(st, e, "loading results");
    return COW_OK;
}

int store_load_results(cow_store *st, int64_t run, cow_result_set *r, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_RES_ANALYSIS];
    res_ctx c = {r, 0};
    int rc;

    memset(r, 0, sizeof(*r));
    sqlite3_bind_int64(q, 1, run);
    if ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        r->analysed = 1;
        r->seed = (uint64_t)sqlite3_column_int64(q, 0);
        r->resamples = sqlite3_column_int(q, 1);
        rc = SQLITE_DONE;
    }
    sqlite3_reset(q);
    if (rc != SQLITE_DONE ||
        load_rows(st, SQL_RES_PHASES, run, (void **)&r->ph, &r->nph, sizeof(*r->ph),
                  phase_cols, NCOLS(phase_cols), &c) != SQLITE_DONE ||
        load_rows(st, SQL_RES_QUANTILES, run, (void **)&r->q, &r->nq, sizeof(*r->q),
                  quantile_cols, NCOLS(quantile_cols), &c) != SQLITE_DONE ||
        load_rows(st, SQL_RES_DELTAS, run, (void **)&r->d, &r->nd, sizeof(*r->d),
                  delta_cols, NCOLS(delta_cols), &c) != SQLITE_DONE ||
        load_rows(st, SQL_RES_EXCEED, run, (void **)&r->x, &r->nx, sizeof(*r->x),
                  exceed_cols, NCOLS(exceed_cols), &c) != SQLITE_DONE) {
        rc = sql_fail(st, e, "loading results");
        store_free_results(r);
        return rc;
    }
    return COW_OK;
}

const cow_phase_row *store_result_phase(const cow_result_set *rs, int idx)
{
    size_t i;
    for (i = 0; i < rs->nph; i++)
        if (rs->ph[i].idx == idx)
            return &rs->ph[i];
    return NULL;
}

const cow_quantile_row *store_result_quantile(const cow_result_set *rs, int phase, double q)
{
    size_t i;
    for (i = 0; i < rs->nq; i++)
        if (rs->q[i].phase == phase && fabs(rs->q[i].q - q) < 1e-9)
            return &rs->q[i];
    return NULL;
}

void store_free_results(cow_result_set *r)
{
    pool_free(r->pool, r->npool);
    free(r->ph);
    free(r->q);
    free(r->d);
    free(r->x);
    memset(r, 0, sizeof(*r));
}

int store_load_findings(cow_store *st, int64_t run, cow_finding_row **rows,
                        size_t *n, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_LOAD_FINDINGS];
    size_t cap = 0, k = 0;
    int rc;

    *rows = NULL;
    sqlite3_bind_int64(q, 1, run);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        cow_finding_row *f;
        *rows = xgrow(*rows, sizeof(**rows), k + 1, &cap);
        f = &(*rows)[k++];
        f->rule = col_dup(q, 0);
        f->severity = col_dup(q, 1);
        f->title = col_dup(q, 2);
        f->evidence = col_dup(q, 3);
        f->recommendation = col_dup(q, 4);
    }
    sqlite3_reset(q);
    *n = k;
    if (rc != SQLITE_DONE) {
        store_free_findings(*rows, k);
        *rows = NULL;
        *n = 0;
        return sql_fail(st, e, "loading findings");
    }
    return COW_OK;
}

void store_free_findings(cow_finding_row *rows, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        free(rows[i].rule);
        free(rows[i].severity);
        free(rows[i].title);
        free(rows[i].evidence);
        free(rows[i].recommendation);
    }
    free(rows);
}


int store_clear_findings(cow_store *st, int64_t run, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_DEL_FINDINGS];
    sqlite3_bind_int64(q, 1, run);
    return step_done(st, q, e, "clearing findings");
}

int store_put_finding(cow_store *st, int64_t run, int seq, const char *rule,
                      const char *severity, const char *title,
                      const char *evidence_json, const char *recommendation,
                      cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_PUT_FINDING];
    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_int(q, 2, seq);
    bind_text(q, 3, rule);
    bind_text(q, 4, severity);
    bind_text(q, 5, title);
    bind_text(q, 6, evidence_json);
    bind_text(q, 7, recommendation);
    return step_done(st, q, e, "storing finding");
}

/* A run's id, label, scenario, mode, host and trial (-1: none): the first
 * six columns of both run listings. */
static void read_run_key(sqlite3_stmt *q, cow_run_row *r)
{
    r->id = sqlite3_column_int64(q, 0);
    r->label = col_dup(q, 1);
    r->scenario = col_dup(q, 2);
    r->mode = col_dup(q, 3);
    r->host = col_dup(q, 4);
    r->trial = sqlite3_column_type(q, 5) == SQLITE_NULL
                   ? -1 : (long)sqlite3_column_int64(q, 5);
}

int store_list_runs(cow_store *st, cow_run_row **rows, size_t *n, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_RUNS];
    cow_run_row *v = NULL;
    size_t k = 0, cap = 0;
    int rc;

    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        cow_run_row *r;
        v = xgrow(v, sizeof(*v), k + 1, &cap);
        r = &v[k++];
        read_run_key(q, r);
        r->files = sqlite3_column_int64(q, 6);
        r->samples = sqlite3_column_int64(q, 7);
        r->rejected = sqlite3_column_int64(q, 8);
        r->events = sqlite3_column_int64(q, 9);
        r->t_first_us = sqlite3_column_int64(q, 10);
        r->t_last_us = sqlite3_column_int64(q, 11);
        r->phases = col_dup(q, 12);
        r->ingested_on = col_dup(q, 13);
        r->synthetic = sqlite3_column_int(q, 14) != 0;
    }
    sqlite3_reset(q);
    if (rc != SQLITE_DONE) {
        store_free_runs(v, k);
        return sql_fail(st, e, "listing runs");
    }
    *rows = v;
    *n = k;
    return COW_OK;
}

int store_list_runs_brief(cow_store *st, cow_run_row **rows, size_t *n, cow_err *e)
{
    sqlite3_stmt *q = NULL;
    cow_run_row *v = NULL;
    size_t k = 0, cap = 0;
    int rc;

    if ((rc = prep(st, "SELECT id, label, scenario, mode, host, trial, synthetic FROM runs"
                       " ORDER BY label", &q, e)) != COW_OK)
        return rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        cow_run_row *r;
        v = xgrow(v, sizeof(*v), k + 1, &cap);
        r = &v[k++];
        memset(r, 0, sizeof(*r));
        read_run_key(q, r);
        r->synthetic = sqlite3_column_int(q, 6) != 0;
    }
    unprep(st, q);
    if (rc != SQLITE_DONE) {
        store_free_runs(v, k);
        return sql_fail(st, e, "listing runs");
    }
    *rows = v;
    *n = k;
    return COW_OK;
}

void store_free_runs(cow_run_row *rows, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        free(rows[i].label);
        free(rows[i].scenario);
        free(rows[i].mode);
        free(rows[i].host);
        free(rows[i].phases);
        free(rows[i].ingested_on);
    }
    free(rows);
}

