/* store_capture.c -- what capture discovery and the clocks of server logs
 * need from the store (store.h): the pairs that settle a log's zone, and
 * the clocks table (migration 006). Statements here run once per log
 * file, so they are prepared per call. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_int.h"

/* ------------------------------------------------------------- clocks */

static void add_pair(cow_clock_pair **v, size_t *n, size_t *cap, double d_s,
                     double tol_s, const char *what)
{
    cow_clock_pair *p;
    *v = xgrow(*v, sizeof(**v), *n + 1, cap);
    p = &(*v)[(*n)++];
    p->d_s = d_s;
    p->tol_s = tol_s;
    snprintf(p->what, sizeof(p->what), "%s", what);
}


/* The log's save completions against INFO rdb_last_save_time (set by the
 * primary in the second it logs "Background saving terminated"). */
static int pairs_save(cow_store *st, int64_t run, int64_t file, cow_clock_pair **v,
                      size_t *n, size_t *cap, cow_err *e)
{
    sqlite3_stmt *q = NULL;
    int rc;
    if ((rc = prep(st,
        "SELECT ev.t_us, ev.line, lf.path, i.num, f.path, i.line FROM events ev"
        " JOIN files lf ON lf.id = ev.file,"
        " (SELECT num, file, min(line) AS line FROM info WHERE run = ?1 AND"
        "  key = 'rdb_last_save_time' AND num > 0 GROUP BY num LIMIT 1000) i"
        " JOIN files f ON f.id = i.file"
        " WHERE ev.file = ?2 AND ev.kind IN ('bgsave_done', 'rdb_saved')"
        " ORDER BY ev.kind = 'rdb_saved', ev.t_us LIMIT 10000", &q, e)) != COW_OK)
        return rc;
    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_int64(q, 2, file);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        char what[300];
        double d = (double)sqlite3_column_int64(q, 0) / 1e6 - sqlite3_column_double(q, 3);
        snprintf(what, sizeof(what), "INFO rdb_last_save_time %.0f (%s:%lld) vs "
                 "the save's end at %s:%lld", sqlite3_column_double(q, 3),
                 col_text(q, 4), (long long)sqlite3_column_int64(q, 5),
                 col_text(q, 2), (long long)sqlite3_column_int64(q, 1));
        add_pair(v, n, cap, d, 2.0, what);
    }
    unprep(st, q);
    return rc == SQLITE_DONE ? COW_OK : sql_fail(st, e, "reading save pairs");
}

/* The server's start from its first INFO dump (server_time_usec minus
 * uptime_in_seconds, same process_id) against the log's startup line. */
static int pairs_start(cow_store *st, int64_t run, int64_t file, cow_clock_pair **v,
                       size_t *n, size_t *cap, cow_err *e)
{
    sqlite3_stmt *q = NULL;
    int rc;
    if ((rc = prep(st,
        "SELECT ev.t_us, ev.line, lf.path, s.num - 1e6 * u.num, f.path, s.line"
        " FROM info s JOIN info u ON u.file = s.file AND u.dump = s.dump AND"
        "  u.key = 'uptime_in_seconds'"
        " LEFT JOIN info p ON p.file = s.file AND p.dump = s.dump AND p.key = 'process_id'"
        " JOIN files f ON f.id = s.file"
        " JOIN events ev ON ev.file = ?2 AND ev.kind = 'server_start' AND"
        "  (p.num IS NULL OR ev.pid IS NULL OR ev.pid = p.num)"
        " JOIN files lf ON lf.id = ev.file"
        " WHERE s.run = ?1 AND s.key = 'server_time_usec'"
        " GROUP BY ev.line ORDER BY ev.t_us LIMIT 100", &q, e)) != COW_OK)
        return rc;
    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_int64(q, 2, file);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        char what[300];
        double d = ((double)sqlite3_column_int64(q, 0) - sqlite3_column_double(q, 3)) / 1e6;
        snprintf(what, sizeof(what), "INFO server_time_usec - uptime_in_seconds "
                 "(%s:%lld) vs the startup line %s:%lld", col_text(q, 4),
                 (long long)sqlite3_column_int64(q, 5), col_text(q, 2),
                 (long long)sqlite3_column_int64(q, 1));
        add_pair(v, n, cap, d, 3.0, what);
    }
    unprep(st, q);
    return rc == SQLITE_DONE ? COW_OK : sql_fail(st, e, "reading start pairs");
}

/* Signal-handler stamps the parser placed between two local lines. */
static int pairs_signal(cow_store *st, int64_t file, cow_clock_pair **v, size_t *n,
                        size_t *cap, cow_err *e)
{
    sqlite3_stmt *q = NULL;
    int rc;
    if ((rc = prep(st,
        "SELECT ev.value, ev.line, f.path, ev.text FROM events ev JOIN files f"
        " ON f.id = ev.file WHERE ev.file = ?1 AND ev.kind = 'utc_stamp' AND"
        " ev.value IS NOT NULL ORDER BY ev.line LIMIT 100", &q, e)) != COW_OK)
        return rc;
    sqlite3_bind_int64(q, 1, file);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        char what[300];
        snprintf(what, sizeof(what), "the epoch-stamped signal-handler line %s:%lld",
                 col_text(q, 2), (long long)sqlite3_column_int64(q, 1));
        add_pair(v, n, cap, sqlite3_column_double(q, 0), 0.5, what);
    }
    unprep(st, q);
    return rc == SQLITE_DONE ? COW_OK : sql_fail(st, e, "reading signal pairs");
}

int store_clock_pairs(cow_store *st, int64_t run, int64_t file, cow_clock_pair **v,
                      size_t *n, cow_err *e)
{
    size_t cap = 0;
    int rc;
    *v = NULL;
    *n = 0;
    if ((rc = pairs_save(st, run, file, v, n, &cap, e)) == COW_OK &&
        (rc = pairs_start(st, run, file, v, n, &cap, e)) == COW_OK)
        rc = pairs_signal(st, file, v, n, &cap, e);
    if (rc != COW_OK) {
        free(*v);
        *v = NULL;
        *n = 0;
    }
    return rc;
}

/* Step q (bound, prepared by prep) collecting its first column; finalizes q. */
static int collect_i64(cow_store *st, sqlite3_stmt *q, int64_t **v, size_t *n,
                       const char *what, cow_err *e)
{
    size_t cap = 0;
    int rc;
    *v = NULL;
    *n = 0;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        *v = xgrow(*v, sizeof(int64_t), *n + 1, &cap);
        (*v)[(*n)++] = sqlite3_column_int64(q, 0);
    }
    unprep(st, q);
    return rc == SQLITE_DONE ? COW_OK : sql_fail(st, e, what);
}

int store_window_starts(cow_store *st, int64_t file, int64_t **t, size_t *n,
                        cow_err *e)
{
    sqlite3_stmt *q = NULL;
    int rc;
    *t = NULL;
    *n = 0;
    if ((rc = prep(st,
        "SELECT t_us FROM events WHERE file = ?1 AND kind IN ('bgsave_start',"
        " 'sync_bgsave_start', 'aof_rewrite_start', 'forkless_start',"
        " 'bgsave_done', 'aof_rewrite_done', 'sync_success', 'forkless_done')"
        " ORDER BY t_us LIMIT 100000", &q, e)) != COW_OK)
        return rc;
    sqlite3_bind_int64(q, 1, file);
    return collect_i64(st, q, t, n, "reading window events", e);
}

int store_clock_shift(cow_store *st, int64_t file, int64_t off_us, cow_err *e)
{
    sqlite3_stmt *q = NULL;
    int rc;
    /* signal-handler lines are UTC already */
    if ((rc = prep(st,
        "UPDATE events SET t_us = t_us - ?2 WHERE file = ?1 AND kind != 'utc_stamp'"
        " AND (line IS NULL OR line NOT IN (SELECT line FROM events WHERE"
        " file = ?1 AND kind = 'utc_stamp'))", &q, e)) != COW_OK)
        return rc;
    sqlite3_bind_int64(q, 1, file);
    sqlite3_bind_int64(q, 2, off_us);
    rc = sqlite3_step(q);
    unprep(st, q);
    return rc == SQLITE_DONE ? COW_OK : sql_fail(st, e, "shifting log events");
}

int store_clock_set(cow_store *st, int64_t run, int64_t file, const char *decided,
                    int has_off, long off_s, const char *evidence, cow_err *e)
{
    sqlite3_stmt *q = NULL;
    int rc;
    if ((rc = prep(st, "INSERT OR REPLACE INTO clocks (run, file, decided, off_s,"
                   " evidence) VALUES (?1, ?2, ?3, ?4, ?5)", &q, e)) != COW_OK)
        return rc;
    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_int64(q, 2, file);
    sqlite3_bind_text(q, 3, decided, -1, SQLITE_STATIC);
    if (has_off)
        sqlite3_bind_int64(q, 4, off_s);
    bind_text(q, 5, evidence);
    rc = sqlite3_step(q);
    unprep(st, q);
    return rc == SQLITE_DONE ? COW_OK : sql_fail(st, e, "recording the log's clock");
}

int store_file_zoned(cow_store *st, int64_t file, int *zoned, cow_err *e)
{
    sqlite3_stmt *q = NULL;
    int rc;
    *zoned = 0;
    if ((rc = prep(st, "SELECT count(*) FROM files WHERE id = ?1 AND notes LIKE"
                   " '%settled by the zoned stamps%'", &q, e)) != COW_OK)
        return rc;
    sqlite3_bind_int64(q, 1, file);
    if ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        *zoned = sqlite3_column_int(q, 0) > 0;
        rc = SQLITE_DONE;
    }
    unprep(st, q);
    return rc == SQLITE_DONE ? COW_OK : sql_fail(st, e, "reading a log's notes");
}

int store_file_note(cow_store *st, int64_t run, const char *key, char **notes,
                    cow_err *e)
{
    sqlite3_stmt *q = NULL;
    int rc;
    *notes = NULL;
    if ((rc = prep(st, "SELECT notes FROM files WHERE run = ?1 AND instr(notes, ?2) > 0"
                   " ORDER BY path LIMIT 1", &q, e)) != COW_OK)
        return rc;
    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_text(q, 2, key, -1, SQLITE_STATIC);
    if ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        *notes = xstrdup(col_text(q, 0));
        rc = SQLITE_DONE;
    }
    unprep(st, q);
    return rc == SQLITE_DONE ? COW_OK : sql_fail(st, e, "reading a file's notes");
}

int store_clock_list(cow_store *st, int64_t run, cow_clock_row **v, size_t *n,
                     cow_err *e)
{
    sqlite3_stmt *q = NULL;
    size_t cap = 0;
    int rc;
    *v = NULL;
    *n = 0;
    if ((rc = prep(st, "SELECT c.file, f.path, c.decided, c.off_s, c.evidence FROM"
                   " clocks c JOIN files f ON f.id = c.file WHERE c.run = ?1"
                   " ORDER BY f.path", &q, e)) != COW_OK)
        return rc;
    sqlite3_bind_int64(q, 1, run);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        cow_clock_row *r;
        *v = xgrow(*v, sizeof(**v), *n + 1, &cap);
        r = &(*v)[(*n)++];
        memset(r, 0, sizeof(*r));
        r->file = sqlite3_column_int64(q, 0);
        r->path = xstrdup(col_text(q, 1));
        snprintf(r->decided, sizeof(r->decided), "%s", col_text(q, 2));
        r->has_off = sqlite3_column_type(q, 3) != SQLITE_NULL;
        r->off_s = (long)sqlite3_column_int64(q, 3);
        snprintf(r->evidence, sizeof(r->evidence), "%s", col_text(q, 4));
    }
    unprep(st, q);
    if (rc != SQLITE_DONE) {
        store_free_clocks(*v, *n);
        *v = NULL;
        *n = 0;
        return sql_fail(st, e, "reading clocks");
    }
    return COW_OK;
}

void store_free_clocks(cow_clock_row *v, size_t n)
{
    for (size_t i = 0; v != NULL && i < n; i++)
        free(v[i].path);
    free(v);
}

int store_clock_pending(cow_store *st, int64_t run, int all_but_given,
                        int64_t **files, size_t *n, cow_err *e)
{
    sqlite3_stmt *q = NULL;
    int rc;
    *files = NULL;
    *n = 0;
    if ((rc = prep(st, "SELECT id FROM files WHERE run = ?1 AND parser = 'redis-log'"
                   " AND id NOT IN (SELECT file FROM clocks WHERE run = ?1 AND"
                   " (?2 = 0 OR decided = 'given')) ORDER BY id", &q, e)) != COW_OK)
        return rc;
    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_int(q, 2, all_but_given != 0);
    return collect_i64(st, q, files, n, "reading log files", e);
}

/* One file's span while the rows stream by. */
typedef struct span_acc {
    int64_t file, t0, t1, n;
} span_acc;

/* The entry of file in v[0..*n) (sorted by file), added when new. */
static span_acc *span_find(span_acc **v, size_t *n, size_t *cap, int64_t file)
{
    size_t lo = 0, hi = *n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if ((*v)[mid].file < file)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < *n && (*v)[lo].file == file)
        return &(*v)[lo];
    *v = xgrow(*v, sizeof(**v), *n + 1, cap);
    memmove(&(*v)[lo + 1], &(*v)[lo], (*n - lo) * sizeof(**v));
    (*n)++;
    (*v)[lo].file = file;
    (*v)[lo].t0 = INT64_MAX;
    (*v)[lo].t1 = INT64_MIN;
    (*v)[lo].n = 0;
    return &(*v)[lo];
}

static int cmp_span_path(const void *a, const void *b)
{
    const cow_file_span *x = a, *y = b;
    int c = strcmp(x->path, y->path);
    return c != 0 ? c : (x->file > y->file) - (x->file < y->file);
}

int store_file_spans(cow_store *st, int64_t run, cow_file_span **v, size_t *n,
                     cow_err *e)
{
    /* each table scanned once, its (file, t_us) folded into one entry per
     * file here: no GROUP BY over a UNION of every row, which held each
     * row in temporary storage (about 100 bytes a row: 865 MB for 8 M) */
    static const char *const sql[] = {
        "SELECT file, t_us FROM events WHERE run = ?1",
        "SELECT file, t_us FROM info WHERE run = ?1 AND t_us IS NOT NULL",
        "SELECT file, t_us FROM stats WHERE run = ?1 AND t_us IS NOT NULL",
        "SELECT file, t_us FROM mem WHERE run = ?1",
        "SELECT file, t_us FROM latmon WHERE run = ?1 AND t_us IS NOT NULL",
        "SELECT file, t_us FROM intervals WHERE run = ?1 AND t_us IS NOT NULL",
    };
    sqlite3_stmt *q = NULL;
    span_acc *acc = NULL, *last = NULL;
    size_t nacc = 0, capacc = 0, cap = 0, i, k;
    int rc = SQLITE_DONE;

    *v = NULL;
    *n = 0;
    for (k = 0; k < sizeof(sql) / sizeof(sql[0]) && rc == SQLITE_DONE; k++) {
        if ((rc = prep(st, sql[k], &q, e)) != COW_OK) {
            free(acc);
            return rc;
        }
        sqlite3_bind_int64(q, 1, run);
        last = NULL;
        while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
            int64_t f = sqlite3_column_int64(q, 0), t = sqlite3_column_int64(q, 1);
            if (last == NULL || last->file != f)
                last = span_find(&acc, &nacc, &capacc, f);
            if (t < last->t0)
                last->t0 = t;
            if (t > last->t1)
                last->t1 = t;
            last->n++;
        }
        unprep(st, q);
    }
    if (rc != SQLITE_DONE) {
        free(acc);
        return sql_fail(st, e, "reading the files' time spans");
    }
    /* the files' names; a log whose clock was found not to match is left out */
    if ((rc = prep(st, "SELECT f.path, f.parser FROM files f WHERE f.id = ?1 AND f.id NOT IN"
                   " (SELECT file FROM clocks WHERE run = ?2 AND decided = 'mismatch')",
                   &q, e)) != COW_OK) {
        free(acc);
        return rc;
    }
    rc = SQLITE_DONE;
    for (i = 0; i < nacc; i++) {
        sqlite3_bind_int64(q, 1, acc[i].file);
        sqlite3_bind_int64(q, 2, run);
        if ((rc = sqlite3_step(q)) == SQLITE_ROW) {
            cow_file_span *r;
            *v = xgrow(*v, sizeof(**v), *n + 1, &cap);
            r = &(*v)[(*n)++];
            r->file = acc[i].file;
            r->path = xstrdup(col_text(q, 0));
            snprintf(r->parser, sizeof(r->parser), "%s", col_text(q, 1));
            r->t0_us = acc[i].t0;
            r->t1_us = acc[i].t1;
            r->n = acc[i].n;
        } else if (rc != SQLITE_DONE) {
            break;
        }
        sqlite3_reset(q);
        rc = SQLITE_DONE;
    }
    unprep(st, q);
    free(acc);
    if (rc != SQLITE_DONE) {
        store_free_spans(*v, *n);
        *v = NULL;
        *n = 0;
        return sql_fail(st, e, "reading the files' time spans");
    }
    if (*n > 1)
        qsort(*v, *n, sizeof(**v), cmp_span_path);
    return COW_OK;
}

void store_free_spans(cow_file_span *v, size_t n)
{
    for (size_t i = 0; v != NULL && i < n; i++)
        free(v[i].path);
    free(v);
}

int store_sample_files(cow_store *st, int64_t run, char *first, char *last,
                       size_t cap, cow_err *e)
{
    sqlite3_stmt *q = NULL;
    int rc, end;
    first[0] = last[0] = '\0';
    /* the clustered key (run, t_us, ...) finds both ends without a scan */
    for (end = 0; end < 2; end++) {
        if ((rc = prep(st, end == 0
            ? "SELECT f.path FROM samples s JOIN files f ON f.id = s.file"
              " WHERE s.run = ?1 ORDER BY s.t_us LIMIT 1"
            : "SELECT f.path FROM samples s JOIN files f ON f.id = s.file"
              " WHERE s.run = ?1 ORDER BY s.t_us DESC LIMIT 1", &q, e)) != COW_OK)
            return rc;
        sqlite3_bind_int64(q, 1, run);
        rc = sqlite3_step(q);
        if (rc == SQLITE_ROW)
            snprintf(end == 0 ? first : last, cap, "%s", col_text(q, 0));
        unprep(st, q);
        if (rc != SQLITE_ROW && rc != SQLITE_DONE)
            return sql_fail(st, e, "reading the samples' files");
    }
    return COW_OK;
}

/* ------------------------------------------------------ what runs hold */

int store_run_extras(cow_store *st, int64_t run, cow_run_extras *x, cow_err *e)
{
    sqlite3_stmt *q = NULL;
    size_t cap = 0;
    int rc;

    memset(x, 0, sizeof(*x));
    if ((rc = prep(st, "SELECT kind, count(*) FROM events WHERE run = ?1"
                   " GROUP BY kind ORDER BY kind", &q, e)) != COW_OK)
        return rc;
    sqlite3_bind_int64(q, 1, run);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        cow_kind_count *k;
        x->kinds = xgrow(x->kinds, sizeof(*x->kinds), x->nkinds + 1, &cap);
        k = &x->kinds[x->nkinds++];
        snprintf(k->kind, sizeof(k->kind), "%s", col_text(q, 0));
        k->count = sqlite3_column_int64(q, 1);
    }
    unprep(st, q);
    if (rc != SQLITE_DONE)
        goto fail;
    if ((rc = prep(st, "SELECT (SELECT count(*) FROM (SELECT DISTINCT file, dump"
                   " FROM info WHERE run = ?1 AND section IS NOT 'config')), (SELECT count(*) FROM (SELECT"
                   " DISTINCT file, t_us FROM stats WHERE run = ?1 AND source IN"
                   " ('smaps', 'smaps_rollup')))", &q, e)) != COW_OK) {
        store_free_extras(x);
        return rc;
    }
    sqlite3_bind_int64(q, 1, run);
    if ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        x->info_dumps = sqlite3_column_int64(q, 0);
        x->smaps_snapshots = sqlite3_column_int64(q, 1);
        rc = SQLITE_DONE;
    }
    unprep(st, q);
    if (rc != SQLITE_DONE)
        goto fail;
    return COW_OK;
fail:
    store_free_extras(x);
    return sql_fail(st, e, "reading what a run holds");
}

void store_free_extras(cow_run_extras *x)
{
    free(x->kinds);
    memset(x, 0, sizeof(*x));
}

/* ------------------------------------------------------------ rejects */

int store_list_rejects(cow_store *st, const char *label, const char *file,
                       cow_reject_cb cb, void *ctx, cow_err *e)
{
    sqlite3_stmt *q = NULL;
    int rc, stop = 0;

    /* rejected lines of landed files, then files refused whole; a file is
     * matched by its path or its path's end (a base name) */
    if ((rc = prep(st,
        "SELECT r.label, f.path, j.line, j.reason, j.excerpt, 0, NULL FROM rejects j"
        " JOIN files f ON f.id = j.file JOIN runs r ON r.id = f.run"
        " WHERE (?1 IS NULL OR r.label = ?1) AND (?2 IS NULL OR f.path = ?2 OR"
        "  substr(f.path, -length(?2) - 1) = '/' || ?2)"
        " UNION ALL"
        " SELECT label, path, line, reason, NULL, code <> 'unrecognised', code"
        " FROM refusals"
        " WHERE (?1 IS NULL OR label = ?1) AND (?2 IS NULL OR path = ?2 OR"
        "  substr(path, -length(?2) - 1) = '/' || ?2)"
        " ORDER BY 1, 2, 6, 3", &q, e)) != COW_OK)
        return rc;
    bind_text(q, 1, label);
    bind_text(q, 2, file);
    while (!stop && (rc = sqlite3_step(q)) == SQLITE_ROW) {
        cow_reject_row r;
        r.label = col_text(q, 0);
        r.path = col_text(q, 1);
        r.line = sqlite3_column_type(q, 2) == SQLITE_NULL ? 0 : sqlite3_column_int64(q, 2);
        r.reason = col_text(q, 3);
        r.excerpt = sqlite3_column_type(q, 4) == SQLITE_NULL ? NULL : col_text(q, 4);
        r.refused = sqlite3_column_int(q, 5);
        r.code = sqlite3_column_type(q, 6) == SQLITE_NULL ? NULL : col_text(q, 6);
        stop = cb(ctx, &r);
    }
    unprep(st, q);
    return stop || rc == SQLITE_DONE ? COW_OK : sql_fail(st, e, "reading rejects");
}

int store_list_inputs(cow_store *st, int64_t since_s, cow_input_cb cb, void *ctx,
                      cow_err *e)
{
    sqlite3_stmt *q = NULL;
    int rc, stop = 0;

    /* files refused or not recognised, then landed files with rejected
     * lines (the first one's line and reason), by run and path */
    if ((rc = prep(st,
        "SELECT label, path, code, reason, line, 0, 0 FROM refusals WHERE at >= ?1"
        " UNION ALL"
        " SELECT r.label, f.path, NULL,"
        "  (SELECT j.reason FROM rejects j WHERE j.file = f.id ORDER BY j.line LIMIT 1),"
        "  (SELECT min(j.line) FROM rejects j WHERE j.file = f.id), f.rejected, f.rows"
        " FROM files f JOIN runs r ON r.id = f.run"
        " WHERE f.rejected > 0 AND f.ingested_at >= ?1"
        /* a log whose lines carry no year, placed by the file's date: the
         * note from "log_year " to its end or the next note */
        " UNION ALL"
        " SELECT r.label, f.path, 'year', substr(f.notes, instr(f.notes, 'log_year ') + 9),"
        "  0, 0, f.rows FROM files f JOIN runs r ON r.id = f.run"
        " WHERE f.notes LIKE '%log_year % from the file''s modification time%'"
        " AND f.ingested_at >= ?1"
        " ORDER BY 1, 2", &q, e)) != COW_OK)
        return rc;
    sqlite3_bind_int64(q, 1, since_s);
    while (!stop && (rc = sqlite3_step(q)) == SQLITE_ROW) {
        cow_input_row r;
        r.label = col_text(q, 0);
        r.path = col_text(q, 1);
        r.code = sqlite3_column_type(q, 2) == SQLITE_NULL ? NULL : col_text(q, 2);
        r.reason = sqlite3_column_type(q, 3) == SQLITE_NULL ? "" : col_text(q, 3);
        r.line = sqlite3_column_type(q, 4) == SQLITE_NULL ? 0 : sqlite3_column_int64(q, 4);
        r.rejected = sqlite3_column_int64(q, 5);
        r.rows = sqlite3_column_int64(q, 6);
        stop = cb(ctx, &r);
    }
    unprep(st, q);
    return stop || rc == SQLITE_DONE ? COW_OK : sql_fail(st, e, "reading the inputs");
}

int store_clear_refusal(cow_store *st, const char *label, const char *path, cow_err *e)
{
    sqlite3_stmt *q = NULL;
    int rc;
    if ((rc = prep(st, "DELETE FROM refusals WHERE label = ?1 AND path = ?2", &q, e)) != COW_OK)
        return rc;
    bind_text(q, 1, label);
    bind_text(q, 2, path);
    rc = sqlite3_step(q);
    unprep(st, q);
    return rc == SQLITE_DONE ? COW_OK : sql_fail(st, e, "clearing a refusal");
}

/* --------------------------------------------------- files of a run */

/* A file of the run by its name below the run's folder (or its path). */
static const char *const NAME_MATCH =
    " (path = ?2 OR substr(path, -length(?2) - 1) = '/' || ?2)";

int store_file_named(cow_store *st, int64_t run, const char *name, int64_t *id,
                     char sha[65], int *found, cow_err *e)
{
    sqlite3_stmt *q = NULL;
    char sql[300];
    int rc;

    *found = 0;
    snprintf(sql, sizeof(sql), "SELECT id, sha256 FROM files WHERE run = ?1 AND%s"
             " ORDER BY id DESC LIMIT 1", NAME_MATCH);
    if ((rc = prep(st, sql, &q, e)) != COW_OK)
        return rc;
    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_text(q, 2, name, -1, SQLITE_STATIC);
    if ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        *found = 1;
        *id = sqlite3_column_int64(q, 0);
        snprintf(sha, 65, "%s", col_text(q, 1));
        rc = SQLITE_DONE;
    }
    unprep(st, q);
    return rc == SQLITE_DONE ? COW_OK : sql_fail(st, e, "looking up a file by name");
}

int store_file_copy(cow_store *st, int64_t run, int64_t self, const char *sha,
                    int64_t min_size, char *path, size_t cap, int *replaced, cow_err *e)
{
    sqlite3_stmt *q = NULL;
    int rc;

    path[0] = '\0';
    *replaced = 0;
    /* a file of the run, or bytes a file held before --replace (not this
     * file's own name: it may come back to what it was) */
    if ((rc = prep(st, "SELECT path, 0 FROM files WHERE run = ?1 AND sha256 = ?2 AND"
                   " id != ?3 AND size >= ?4 UNION ALL SELECT r.path, 1 FROM replaced r"
                   " WHERE r.run = ?1 AND r.sha256 = ?2 AND r.size >= ?4 AND r.path !="
                   " (SELECT path FROM files WHERE id = ?3) ORDER BY 2 LIMIT 1", &q,
                   e)) != COW_OK)
        return rc;
    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_text(q, 2, sha, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 3, self);
    sqlite3_bind_int64(q, 4, min_size);
    if ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        snprintf(path, cap, "%s", col_text(q, 0));
        *replaced = sqlite3_column_int(q, 1);
        rc = SQLITE_DONE;
    }
    unprep(st, q);
    return rc == SQLITE_DONE ? COW_OK : sql_fail(st, e, "looking for a copy");
}

int store_sample_copy(cow_store *st, int64_t run, int64_t self, char **path,
                      int64_t *same, cow_err *e)
{
    sqlite3_stmt *q = NULL;
    int rc;

    *path = NULL;
    *same = 0;
    /* the other file holding most of this one's (t_us, lat_us, op) rows:
     * each row looked up by (run, t_us), the samples' key */
    if ((rc = prep(st, "SELECT (SELECT path FROM files WHERE id = a.file), count(*)"
                   " FROM samples b JOIN samples a ON a.run = b.run AND a.t_us = b.t_us"
                   " AND a.file != b.file AND a.lat_us = b.lat_us AND a.op IS b.op"
                   " WHERE b.run = ?1 AND b.file = ?2 GROUP BY a.file ORDER BY 2 DESC"
                   " LIMIT 1", &q, e)) != COW_OK)
        return rc;
    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_int64(q, 2, self);
    if ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        *path = xstrdup(col_text(q, 0));
        *same = sqlite3_column_int64(q, 1);
        rc = SQLITE_DONE;
    }
    unprep(st, q);
    return rc == SQLITE_DONE ? COW_OK : sql_fail(st, e, "comparing samples");
}

int store_file_replaced(cow_store *st, int64_t file, cow_err *e)
{
    sqlite3_stmt *q = NULL;
    int rc;
    if ((rc = prep(st, "INSERT INTO replaced(run, path, sha256, size, at) SELECT run,"
                   " path, sha256, size, strftime('%s', 'now') FROM files WHERE id = ?1",
                   &q, e)) != COW_OK)
        return rc;
    sqlite3_bind_int64(q, 1, file);
    rc = sqlite3_step(q);
    unprep(st, q);
    return rc == SQLITE_DONE ? COW_OK : sql_fail(st, e, "keeping a replaced file's digest");
}

int store_file_delete(cow_store *st, int64_t file, cow_err *e)
{
    static const char *const tables[] = {"samples", "rejects", "events", "info",
        "stats", "mem", "latmon", "intervals", "pctl", "clocks", "procs", "server_files",
        NULL};
    sqlite3_stmt *q = NULL;
    char sql[120];
    size_t i;
    int rc;

    for (i = 0; tables[i]; i++) {
        snprintf(sql, sizeof(sql), "DELETE FROM %s WHERE file = ?1", tables[i]);
        if ((rc = prep(st, sql, &q, e)) != COW_OK)
            return rc;
        sqlite3_bind_int64(q, 1, file);
        rc = sqlite3_step(q);
        unprep(st, q);
        if (rc != SQLITE_DONE)
            return sql_fail(st, e, "removing a file's rows");
    }
    if ((rc = prep(st, "DELETE FROM files WHERE id = ?1", &q, e)) != COW_OK)
        return rc;
    sqlite3_bind_int64(q, 1, file);
    rc = sqlite3_step(q);
    unprep(st, q);
    return rc == SQLITE_DONE ? COW_OK : sql_fail(st, e, "removing a file");
}

int store_run_owner(cow_store *st, const char *label, char **host, int *found, cow_err *e)
{
    sqlite3_stmt *q = NULL;
    int rc;

    *found = 0;
    *host = NULL;
    if ((rc = prep(st, "SELECT host FROM runs WHERE label = ?1", &q, e)) != COW_OK)
        return rc;
    sqlite3_bind_text(q, 1, label, -1, SQLITE_STATIC);
    if ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        *found = 1;
        *host = xstrdup(col_text(q, 0));
        rc = SQLITE_DONE;
    }
    unprep(st, q);
    return rc == SQLITE_DONE ? COW_OK : sql_fail(st, e, "looking up a run");
}

int store_run_label(cow_store *st, int64_t run, char **label, cow_err *e)
{
    sqlite3_stmt *q = NULL;
    int rc;

    *label = NULL;
    if ((rc = prep(st, "SELECT label FROM runs WHERE id = ?1", &q, e)) != COW_OK)
        return rc;
    sqlite3_bind_int64(q, 1, run);
    if ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        *label = xstrdup(col_text(q, 0));
        rc = SQLITE_DONE;
    }
    unprep(st, q);
    return rc == SQLITE_DONE ? COW_OK : sql_fail(st, e, "looking up a run");
}
