/* export.c -- the rows that leave SQLite (store_fleet.h), one SELECT per export
 * table. Each row carries its run's key (host, run label) and the export
 * version, and is denormalised where a distributed engine would otherwise
 * need a join (a delta names its phase's kind and label). The columns are
 * the ones schemas/clickhouse.sql declares, in the same order. */
#include "store_fleet.h"

#include <stdio.h>
#include <string.h>

#include "store_int.h"
#include "store_runfacts.h"

/* the run's host: run.json's or `ingest --host`, '' when unknown (a key
 * column of ClickHouse cannot be NULL); never the machine that ingested
 * it, which runs.ingested_on names */
#define KEY "coalesce(r.host, '') AS host, r.label AS run, ?1 AS export_version"

const char *const cow_export_tables[] = {
    "runs", "run_facts", "servers", "server_facts", "phases", "quantiles", "deltas", "exceedance",
    "findings", "checks", "windows", "answers", "repl_syncs", "inputs", "samples",
    NULL
};

static const struct {
    const char *table;
    const char *sql;
} export_sql[] = {
    {"runs",
     "SELECT " KEY ", r.scenario, r.mode, r.trial, r.path,"
     " (SELECT count(*) FROM files f WHERE f.run = r.id) AS files,"
     " (SELECT count(*) FROM samples s WHERE s.run = r.id) AS samples,"
     " (SELECT min(t_us) FROM samples s WHERE s.run = r.id) AS t_first_us,"
     " (SELECT max(t_us) FROM samples s WHERE s.run = r.id) AS t_last_us,"
     " a.seed, a.resamples, a.method, r.ingested_on, r.uid"
     " FROM runs r LEFT JOIN analyses a ON a.run = r.id ORDER BY r.id"},
    {"servers",
     "SELECT " KEY ", s.seq, s.role, s.pid, s.port, s.version, s.run_id, s.how,"
     " (SELECT count(DISTINCT x.file) FROM server_files x WHERE x.run = s.run"
     "  AND x.server = s.seq) AS files"
     " FROM servers s JOIN runs r ON r.id = s.run ORDER BY r.id, s.seq"},
    {"phases",
     "SELECT " KEY ", p.idx, p.kind, p.label, p.t0_us, p.t1_us, p.fork_us, p.child_pid,"
     " p.source, p.overlap, p.open, p.failed, p.n, p.mean_us, p.min_us, p.max_us, p.grid_us"
     " FROM phases p JOIN runs r ON r.id = p.run ORDER BY r.id, p.idx"},
    {"quantiles",
     "SELECT " KEY ", x.phase, p.kind AS phase_kind, p.label AS phase_label, x.q,"
     " x.value_us, x.lo_us, x.hi_us, x.n_needed, x.thin, x.n_eff"
     " FROM quantiles x JOIN runs r ON r.id = x.run"
     " JOIN phases p ON p.run = x.run AND p.idx = x.phase"
     " ORDER BY r.id, x.phase, x.q"},
    {"deltas",
     "SELECT " KEY ", x.phase, p.kind AS phase_kind, p.label AS phase_label, x.base, x.q,"
     " x.base_us, x.value_us, x.delta_us, x.lo_us, x.hi_us, x.ratio, x.ratio_lo,"
     " x.ratio_hi, x.verdict, x.thin, x.n_eff_base, x.n_eff_phase, x.method, x.p_up,"
     " x.p_down, x.test_level"
     " FROM deltas x JOIN runs r ON r.id = x.run"
     " JOIN phases p ON p.run = x.run AND p.idx = x.phase"
     " ORDER BY r.id, x.phase, x.q"},
    {"exceedance",
     "SELECT " KEY ", x.phase, p.kind AS phase_kind, p.label AS phase_label, x.base_q,"
     " x.threshold_us, x.n, x.count, x.p, x.lo, x.hi, x.clusters, x.p_more"
     " FROM exceed x JOIN runs r ON r.id = x.run"
     " JOIN phases p ON p.run = x.run AND p.idx = x.phase"
     " ORDER BY r.id, x.phase, x.base_q"},
    {"findings",
     "SELECT " KEY ", x.seq, x.rule, x.severity, x.title, x.evidence, x.recommendation"
     " FROM findings x JOIN runs r ON r.id = x.run ORDER BY r.id, x.seq"},
    /* a host's pooled judgement has no run: run '' and the host it judged */
    {"checks",
     "SELECT coalesce(r.host, x.host, '') AS host, coalesce(r.label, '') AS run,"
     " ?1 AS export_version, x.scope, x.limit_name, x.limit_value, x.value, x.p,"
     " x.p_adjusted, x.verdict, x.method, x.correction, x.comparisons, x.detail, x.runs,"
     " x.evaluated_at"
     " FROM checks x LEFT JOIN runs r ON r.id = x.run"
     " ORDER BY x.run IS NULL, r.id, x.host, x.rowid"},
    {"windows",
     "SELECT " KEY ", x.idx, x.kind, x.label, x.t0_us, x.t1_us, x.fork_us, x.child_pid,"
     " x.source, x.overlap, x.open, x.failed"
     " FROM windows x JOIN runs r ON r.id = x.run ORDER BY r.id, x.idx"},
    {"answers",
     "SELECT " KEY ", x.say, x.quiet, x.line, x.window_label, x.kind, x.t0_us, x.len_us, x.nwindows,"
     " x.verdict, x.method, x.base_p999_us, x.window_p999_us, x.delta_us, x.delta_lo_us,"
     " x.delta_hi_us, x.worst_us, x.fork_ms, x.cow_mb, x.cow_pct_used, x.thp, x.transfer,"
     " x.cause, x.gate, x.gate_why, x.todo, x.todo_rule, x.decided_at"
     " FROM answers x JOIN runs r ON r.id = x.run ORDER BY r.id"},
    {"repl_syncs",
     "SELECT " KEY ", x.server, x.attempt, x.pid, x.port, x.attach_line, x.mode, x.outcome,"
     " x.attach_us, x.resync_us, x.recv_us, x.recv_end_us, x.flush_us, x.load_us, x.up_us,"
     " x.lost_us, x.bytes, x.attach_to_up_s, x.wait_s, x.transfer_s, x.flush_s, x.load_s"
     " FROM repl_syncs x JOIN runs r ON r.id = x.run ORDER BY r.id, x.server, x.attempt"},
    /* the inputs that did not land whole (app/inputs.c: refused, not
     * recognised, landed with rejected lines); a refused run's label may
     * name no run of the database: host '' */
    {"inputs",
     "SELECT coalesce(r.host, '') AS host, x.label AS run, ?1 AS export_version, x.path,"
     " CASE x.code WHEN 'unrecognised' THEN 'unrecognised' ELSE 'refused' END AS kind,"
     " x.code, x.reason, x.line, 0 AS rejected, 0 AS rows"
     " FROM refusals x LEFT JOIN runs r ON r.id = coalesce(x.run,"
     "  (SELECT id FROM runs WHERE label = x.label))"
     " UNION ALL"
     " SELECT coalesce(r.host, ''), r.label, ?1, f.path, 'rejected', NULL,"
     "  (SELECT j.reason FROM rejects j WHERE j.file = f.id ORDER BY j.line LIMIT 1),"
     "  (SELECT min(j.line) FROM rejects j WHERE j.file = f.id), f.rejected, f.rows"
     " FROM files f JOIN runs r ON r.id = f.run WHERE f.rejected > 0"
     " ORDER BY 2, 4"},
    {"samples",
     "SELECT " KEY ", s.t_us, s.lat_us, o.name AS op, f.path AS file, s.seq"
     " FROM runs r JOIN samples s ON s.run = r.id JOIN files f ON f.id = s.file"
     " LEFT JOIN ops o ON o.id = s.op ORDER BY s.run, s.t_us, s.file, s.seq"},
};

/* The mark, sent after every other table: one row per run, whose version
 * is then complete (?2: the tables sent, comma-separated). */
static const char export_mark_sql[] = "SELECT " KEY ", ?2 AS tables FROM runs r ORDER BY r.id";

static int export_query(cow_store *st, const char *table, const char *sql, int64_t version,
                        const char *tables, cow_xrow_fn row, void *ctx, cow_err *e);

int store_export_rows(cow_store *st, const char *table, int64_t version,
                      cow_xrow_fn row, void *ctx, cow_err *e)
{
    const char *sql = NULL;
    char facts_sql[3000];
    size_t i;

    for (i = 0; i < sizeof(export_sql) / sizeof(export_sql[0]); i++)
        if (strcmp(export_sql[i].table, table) == 0)
            sql = export_sql[i].sql;
    /* the columns of store_runfacts.c's table: a run's facts, a server's */
    if (sql == NULL && (strcmp(table, "run_facts") == 0 || strcmp(table, "server_facts") == 0)) {
        int per_server = table[0] == 's';
        char fcols[2400];
        if (per_server)
            store_server_facts_cols(fcols, sizeof(fcols), "x.");
        else
            store_run_facts_cols(fcols, sizeof(fcols), "x.");
        snprintf(facts_sql, sizeof(facts_sql),
                 "SELECT " KEY "%s, %s FROM %s x JOIN runs r ON r.id = x.run ORDER BY r.id%s",
                 per_server ? ", x.server" : "", fcols, table, per_server ? ", x.server" : "");
        sql = facts_sql;
    }
    if (sql == NULL)
        return COW_FAIL(e, COW_EINTERNAL, "no export table '%s'", table);
    return export_query(st, table, sql, version, NULL, row, ctx, e);
}

int store_export_mark(cow_store *st, int64_t version, const char *tables, cow_xrow_fn row,
                      void *ctx, cow_err *e)
{
    return export_query(st, COW_EXPORT_MARK, export_mark_sql, version, tables, row, ctx, e);
}

static int export_query(cow_store *st, const char *table, const char *sql, int64_t version,
                        const char *tables, cow_xrow_fn row, void *ctx, cow_err *e)
{
    sqlite3 *db = st->db;
    const char *cols[64];
    cow_xval v[64];
    sqlite3_stmt *q;
    int n, c, rc = COW_OK, step;

    if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK)
        return COW_FAIL(e, COW_ESQL, "export %s: %s", table, sqlite3_errmsg(db));
    sqlite3_bind_int64(q, 1, version);
    if (tables != NULL)
        sqlite3_bind_text(q, 2, tables, -1, SQLITE_STATIC);
    n = sqlite3_column_count(q);
    if (n > 64) {
        sqlite3_finalize(q);
        return COW_FAIL(e, COW_EINTERNAL, "export %s: %d columns", table, n);
    }
    for (c = 0; c < n; c++)
        cols[c] = sqlite3_column_name(q, c);
    while ((step = sqlite3_step(q)) == SQLITE_ROW) {
        for (c = 0; c < n; c++) {
            memset(&v[c], 0, sizeof(v[c]));
            switch (sqlite3_column_type(q, c)) {
            case SQLITE_INTEGER:
                v[c].type = COW_XINT;
                v[c].i = sqlite3_column_int64(q, c);
                break;
            case SQLITE_FLOAT:
                v[c].type = COW_XREAL;
                v[c].d = sqlite3_column_double(q, c);
                break;
            case SQLITE_TEXT:
            case SQLITE_BLOB:
                v[c].type = COW_XTEXT;
                v[c].s = (const char *)sqlite3_column_text(q, c);
                v[c].n = (size_t)sqlite3_column_bytes(q, c);
                break;
            default:
                v[c].type = COW_XNULL;
            }
        }
        if (row(ctx, cols, v, n) != 0) {
            rc = COW_FAIL(e, COW_EIO, "export %s: stopped", table);
            break;
        }
    }
    if (rc == COW_OK && step != SQLITE_DONE)
        rc = COW_FAIL(e, COW_ESQL, "export %s: %s", table, sqlite3_errmsg(db));
    sqlite3_finalize(q);
    return rc;
}
