/* merge.c -- combine another cowtail database into this one (store_fleet.h).
 *
 * The input is ATTACHed as `src`; runs and files are mapped in two TEMP
 * tables (source id -> id here) and every table is copied with one
 * INSERT ... SELECT through those maps, all in one transaction, so an
 * interrupted merge leaves OUT as it was. New files get ids above the
 * largest one here, in the source's order, so a run's rows keep their
 * relative order and the file ids stay dense. */
#include "store_fleet.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "schema_sql.h"
#include "store_int.h"

/* The last path component of a file's path, in SQL (no reverse search). */
#define BASENAME(x) "replace(" x ", rtrim(" x ", replace(" x ", '/', '')), '')"

/* A run is its label and its host (run.json's or `ingest --host`); a run
 * whose host is unknown is its label and its uid, so two sources' runs of
 * unknown host never become one, while merging the same source again
 * finds the runs it brought before. The machine that ingested a run
 * (ingested_on) is no host. */

/* Raw tables keyed by file: copied for new files only. "R" and "F" stand
 * for the mapped run and file ids. */
static const struct {
    const char *table;
    const char *cols;  /* columns after run, file (or after file: rejects) */
} raw_tables[] = {
    {"events", "line, t_us, kind, pid, value, unit, text"},
    {"info", "line, dump, t_us, section, key, sub, text, num"},
    {"stats", "line, t_us, source, key, text, num, unit"},
    {"mem", "t_us, bytes, what"},
    {"latmon", "line, t_us, kind, event, lat_ms, max_ms, text, none_observed"},
    {"intervals", "line, t_us, dur_s, min_us, max_us, avg_us, count, op"},
    {"pctl", "line, source, op, t_us, q, value_us, count"},
    {"clocks", "decided, off_s, evidence"},
    {"procs", "pid, roles, parent, replica, server, port, version, line"},
};

/* Result tables keyed by run: copied for runs that have none here. */
static const struct {
    const char *table;
    const char *cols;  /* columns after run */
} result_tables[] = {
    {"analyses", "seed, resamples, method, created_at"},
    {"phases", "idx, kind, label, t0_us, t1_us, fork_us, child_pid, source, overlap,"
               " open, failed, n, mean_us, min_us, max_us, grid_us"},
    {"quantiles", "phase, q, value_us, lo_us, hi_us, n_needed, thin, n_eff"},
    {"deltas", "phase, base, q, base_us, value_us, delta_us, lo_us, hi_us, ratio,"
               " ratio_lo, ratio_hi, verdict, thin, n_eff_base, n_eff_phase, method,"
               " p_up, p_down, test_level"},
    {"exceed", "phase, base_q, threshold_us, n, count, p, lo, hi, clusters, p_more"},
};

static int fail(sqlite3 *db, cow_err *e, const char *what)
{
    return COW_FAIL(e, COW_ESQL, "merge: %s: %s", what, sqlite3_errmsg(db));
}

static int run_sql(sqlite3 *db, const char *sql, cow_err *e)
{
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        COW_FAIL(e, COW_ESQL, "merge: %s", msg ? msg : sqlite3_errmsg(db));
        sqlite3_free(msg);
        return COW_ESQL;
    }
    return COW_OK;
}

/* ", PREFIXa, PREFIXb, ...": the columns of main.table other than run. */
static int other_cols(sqlite3 *db, const char *table, const char *prefix, char *buf,
                      size_t cap, cow_err *e)
{
    sqlite3_stmt *q;
    size_t n = 0;
    int step;

    buf[0] = '\0';
    if (sqlite3_prepare_v2(db, "SELECT name FROM pragma_table_info(?1) WHERE name != 'run'",
                           -1, &q, NULL) != SQLITE_OK)
        return COW_FAIL(e, COW_ESQL, "merge: %s", sqlite3_errmsg(db));
    sqlite3_bind_text(q, 1, table, -1, SQLITE_STATIC);
    while ((step = sqlite3_step(q)) == SQLITE_ROW && n < cap)
        n += (size_t)snprintf(buf + n, cap - n, ", %s%s", prefix,
                              (const char *)sqlite3_column_text(q, 0));
    sqlite3_finalize(q);
    if (step != SQLITE_DONE && step != SQLITE_ROW)
        return COW_FAIL(e, COW_ESQL, "merge: %s", sqlite3_errmsg(db));
    if (n >= cap)
        return COW_FAIL(e, COW_EINTERNAL, "merge: the columns of %s do not fit", table);
    return COW_OK;
}

/* One statement, bound with ints ?1..?n, stepped to the end; *changes gets
 * the rows it wrote when not NULL. */
static int run_bound(sqlite3 *db, const char *sql, const int64_t *args, int nargs,
                     long long *changes, cow_err *e)
{
    sqlite3_stmt *q;
    int i, rc;

    if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK)
        return fail(db, e, "preparing");
    for (i = 0; i < nargs; i++)
        sqlite3_bind_int64(q, i + 1, args[i]);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW)
        ;
    sqlite3_finalize(q);
    if (rc != SQLITE_DONE)
        return fail(db, e, "copying");
    if (changes)
        *changes = sqlite3_changes64(db);
    return COW_OK;
}

static int64_t one_int(sqlite3 *db, const char *sql, const char *arg)
{
    sqlite3_stmt *q;
    int64_t v = -1;
    if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK)
        return -1;
    if (arg)
        sqlite3_bind_text(q, 1, arg, -1, SQLITE_STATIC);
    if (sqlite3_step(q) == SQLITE_ROW)
        v = sqlite3_column_int64(q, 0);
    sqlite3_finalize(q);
    return v;
}

/* The input file's name without folder and .db: the prefix for a
 * colliding run of unknown host. The caller frees it. */
static char *origin_stem(const char *path)
{
    const char *b = strrchr(path, '/');
    size_t n;
    b = b ? b + 1 : path;
    n = strlen(b);
    if (n > 3 && strcmp(b + n - 3, ".db") == 0)
        n -= 3;
    return xstrndup(b, n);
}

/* Where a run of label/host goes: its id here (0 when it is new) and the
 * label it has here (*dst_label, the caller frees it, set on failure too). */
static int place_run(sqlite3 *db, const char *label, const char *host,
                     const char *uid, const char *stem, int64_t *dst, char **dst_label,
                     cow_err *e)
{
    const char *sql =
        "SELECT id, r.host IS ?2 AND (r.host IS NOT NULL OR r.uid IS ?3)"
        " FROM main.runs r WHERE label = ?1";
    sqlite3_stmt *q;
    int attempt, rc;

    *dst_label = xstrdup(label);
    if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK)
        return fail(db, e, "preparing run lookup");
    for (attempt = 0; attempt < 2; attempt++) {
        sqlite3_bind_text(q, 1, *dst_label, -1, SQLITE_TRANSIENT);
        if (host)
            sqlite3_bind_text(q, 2, host, -1, SQLITE_STATIC);
        else
            sqlite3_bind_null(q, 2);
        if (uid)
            sqlite3_bind_text(q, 3, uid, -1, SQLITE_STATIC);
        else
            sqlite3_bind_null(q, 3);
        rc = sqlite3_step(q);
        if (rc == SQLITE_DONE) { /* label free: a new run */
            *dst = 0;
            sqlite3_finalize(q);
            return COW_OK;
        }
        if (rc != SQLITE_ROW) {
            sqlite3_finalize(q);
            return fail(db, e, "looking up run");
        }
        if (sqlite3_column_int(q, 1)) { /* same label, same host */
            *dst = sqlite3_column_int64(q, 0);
            sqlite3_finalize(q);
            return COW_OK;
        }
        sqlite3_reset(q);
        free(*dst_label);
        *dst_label = xasprintf("%s/%s", host ? host : stem, label);
    }
    sqlite3_finalize(q);
    return COW_FAIL(e, COW_EUSAGE,
                    "run '%s' (host %s) collides with two other runs ('%s' and "
                    "'%s'): rename one with run.json \"label\" and ingest again",
                    label, host ? host : "unknown", label, *dst_label);
}

/* Fill temp.run_map, adding the runs that are new here. */
static int map_runs(sqlite3 *db, const char *stem, const cow_merge_opts *opt,
                    cow_merge_stats *ms, cow_err *e)
{
    sqlite3_stmt *q, *add = NULL, *put = NULL;
    int rc = COW_OK, step;

    if (sqlite3_prepare_v2(db, "SELECT id, label, host, uid FROM src.runs r ORDER BY id", -1,
                           &q, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db,
                           "INSERT INTO main.runs(label, path, scenario, mode, host, trial,"
                           " meta, created_at, ingested_on, uid, synthetic) SELECT ?2, path,"
                           " scenario, mode, ?3, trial, meta, created_at, ingested_on, uid,"
                           " synthetic"
                           " FROM src.runs WHERE id = ?1",
                           -1, &add, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, "INSERT INTO temp.run_map(src, dst, fresh) VALUES(?1, ?2, ?3)",
                           -1, &put, NULL) != SQLITE_OK) {
        rc = fail(db, e, "preparing run map");
        goto out;
    }
    while ((step = sqlite3_step(q)) == SQLITE_ROW) {
        int64_t src = sqlite3_column_int64(q, 0), dst = 0;
        const char *label = (const char *)sqlite3_column_text(q, 1);
        const char *host = (const char *)sqlite3_column_text(q, 2);
        const char *uid = (const char *)sqlite3_column_text(q, 3);
        char *dst_label = NULL;
        int fresh;

        if ((rc = place_run(db, label, host, uid, stem, &dst, &dst_label, e)) != COW_OK) {
            free(dst_label);
            goto out;
        }
        fresh = dst == 0;
        if (fresh) {
            sqlite3_bind_int64(add, 1, src);
            sqlite3_bind_text(add, 2, dst_label, -1, SQLITE_STATIC);
            if (host)
                sqlite3_bind_text(add, 3, host, -1, SQLITE_STATIC);
            else
                sqlite3_bind_null(add, 3);
            if (sqlite3_step(add) != SQLITE_DONE) {
                rc = fail(db, e, "adding run");
                free(dst_label);
                goto out;
            }
            sqlite3_reset(add);
            dst = sqlite3_last_insert_rowid(db);
            ms->runs_new++;
        } else {
            ms->runs_existing++;
        }
        if (strcmp(label, dst_label) != 0)
            ms->runs_renamed++;
        sqlite3_bind_int64(put, 1, src);
        sqlite3_bind_int64(put, 2, dst);
        sqlite3_bind_int(put, 3, fresh);
        if (sqlite3_step(put) != SQLITE_DONE) {
            rc = fail(db, e, "mapping run");
            free(dst_label);
            goto out;
        }
        sqlite3_reset(put);
        if (opt->on_run)
            opt->on_run(opt->ctx, label, dst_label, fresh);
        free(dst_label);
    }
    if (step != SQLITE_DONE)
        rc = fail(db, e, "reading runs");
out:
    sqlite3_finalize(q);
    sqlite3_finalize(add);
    sqlite3_finalize(put);
    return rc;
}

/* Fill temp.file_map and copy the file rows that are new here. ?1 is
 * results_only. */
static int map_files(sqlite3 *db, const char *origin, int results_only,
                     cow_merge_stats *ms, cow_err *e)
{
    int64_t ro = results_only;
    long long n = 0;
    int rc;
    sqlite3_stmt *q;

    /* existing: same run here, same name, same digest */
    if ((rc = run_sql(db,
                      "INSERT INTO temp.file_map(src, dst, fresh, complete)"
                      " SELECT f.id, (SELECT d.id FROM main.files d WHERE d.run = m.dst"
                      "   AND d.sha256 = f.sha256 AND " BASENAME("d.path") " = " BASENAME("f.path")
                      "   ORDER BY d.id LIMIT 1), 0, 0"
                      " FROM src.files f JOIN temp.run_map m ON m.src = f.run",
                      e)) != COW_OK)
        return rc;
    /* ingest's rule: a file of the same name in the same run with other
     * bytes (grown, or changed, since one of the two was ingested) is
     * refused, not added beside it: its rows would count twice */
    if ((rc = run_sql(db,
                      "UPDATE temp.file_map SET dst = 0, fresh = 0, refused = 1"
                      " FROM src.files f JOIN temp.run_map m ON m.src = f.run"
                      " WHERE temp.file_map.src = f.id AND temp.file_map.dst IS NULL"
                      " AND EXISTS (SELECT 1 FROM main.files d WHERE d.run = m.dst"
                      "   AND " BASENAME("d.path") " = " BASENAME("f.path") ")",
                      e)) != COW_OK)
        return rc;
    /* new ones: ids above the largest here, in the source's order */
    if ((rc = run_sql(db,
                      "UPDATE temp.file_map SET dst = b.top + n.rn, fresh = 1"
                      " FROM (SELECT src AS s, row_number() OVER (ORDER BY src) AS rn"
                      "       FROM temp.file_map WHERE dst IS NULL) n,"
                      "      (SELECT coalesce(max(id), 0) AS top FROM main.files) b"
                      " WHERE temp.file_map.src = n.s",
                      e)) != COW_OK)
        return rc;
    /* in OUT without its samples, complete in the input: bring them now */
    if (!results_only &&
        (rc = run_sql(db,
                      "UPDATE temp.file_map SET complete = 1 WHERE fresh = 0 AND"
                      " (SELECT partial FROM main.files WHERE id = dst) = 1 AND"
                      " (SELECT partial FROM src.files WHERE id = src) = 0",
                      e)) != COW_OK)
        return rc;
    if (sqlite3_prepare_v2(db,
                           "INSERT INTO main.files(id, run, path, size, sha256, parser, rows,"
                           " rejected, notes, ingested_at, host, origin, partial)"
                           " SELECT m.dst, r.dst, f.path, f.size, f.sha256, f.parser, f.rows,"
                           " f.rejected, f.notes, f.ingested_at,"
                           " coalesce(f.host, (SELECT host FROM src.runs WHERE id = f.run)),"
                           " coalesce(f.origin, ?2), CASE WHEN ?1 THEN 1 ELSE f.partial END"
                           " FROM src.files f JOIN temp.file_map m ON m.src = f.id AND m.fresh"
                           " JOIN temp.run_map r ON r.src = f.run ORDER BY f.id",
                           -1, &q, NULL) != SQLITE_OK)
        return fail(db, e, "preparing file copy");
    sqlite3_bind_int64(q, 1, ro);
    sqlite3_bind_text(q, 2, origin, -1, SQLITE_STATIC);
    rc = sqlite3_step(q);
    sqlite3_finalize(q);
    if (rc != SQLITE_DONE)
        return fail(db, e, "copying files");
    ms->files_new = (long)sqlite3_changes64(db);
    n = one_int(db, "SELECT count(*) FROM temp.file_map WHERE fresh = 0 AND NOT refused",
                NULL);
    ms->files_skipped = (long)n;
    n = one_int(db, "SELECT count(*) FROM temp.file_map WHERE refused", NULL);
    ms->files_refused = (long)n;
    n = one_int(db, "SELECT count(*) FROM temp.file_map WHERE complete = 1", NULL);
    ms->files_completed = (long)n;
    return COW_OK;
}

static int copy_rows(sqlite3 *db, int results_only, cow_merge_stats *ms, cow_err *e)
{
    char sql[1024];
    size_t i;
    long long n = 0;
    int rc;

    for (i = 0; i < sizeof(raw_tables) / sizeof(raw_tables[0]); i++) {
        snprintf(sql, sizeof(sql),
                 "INSERT INTO main.%s(run, file, %s) SELECT r.dst, m.dst, %s"
                 " FROM src.%s x JOIN temp.file_map m ON m.src = x.file AND m.fresh"
                 " JOIN temp.run_map r ON r.src = x.run",
                 raw_tables[i].table, raw_tables[i].cols, raw_tables[i].cols,
                 raw_tables[i].table);
        if ((rc = run_sql(db, sql, e)) != COW_OK)
            return rc;
    }
    if ((rc = run_sql(db,
                      "INSERT INTO main.rejects(file, line, reason, excerpt)"
                      " SELECT m.dst, x.line, x.reason, x.excerpt FROM src.rejects x"
                      " JOIN temp.file_map m ON m.src = x.file AND m.fresh",
                      e)) != COW_OK)
        return rc;
    /* servers: a run that has its own keeps them (their numbers are what
     * its files point to); one that has none takes the source's, with the
     * source's attribution of the files that came */
    if ((rc = run_sql(db,
                      "INSERT INTO main.server_files(run, file, server, pid, how)"
                      " SELECT r.dst, m.dst, x.server, x.pid, x.how FROM src.server_files x"
                      " JOIN temp.file_map m ON m.src = x.file AND m.fresh"
                      " JOIN temp.run_map r ON r.src = x.run WHERE NOT EXISTS"
                      " (SELECT 1 FROM main.servers y WHERE y.run = r.dst);"
                      "INSERT INTO main.servers(run, seq, role, pid, port, version, run_id,"
                      " how) SELECT r.dst, x.seq, x.role, x.pid, x.port, x.version,"
                      " x.run_id, x.how FROM src.servers x"
                      " JOIN temp.run_map r ON r.src = x.run WHERE NOT EXISTS"
                      " (SELECT 1 FROM main.servers y WHERE y.run = r.dst)",
                      e)) != COW_OK)
        return rc;
    if (!results_only) {
        if ((rc = run_sql(db,
                          "INSERT INTO main.ops(name) SELECT name FROM src.ops"
                          " WHERE name NOT IN (SELECT name FROM main.ops);"
                          "INSERT INTO temp.op_map(src, dst) SELECT s.id, o.id"
                          " FROM src.ops s JOIN main.ops o ON o.name = s.name",
                          e)) != COW_OK)
            return rc;
        if ((rc = run_bound(db,
                            "INSERT INTO main.samples(run, t_us, file, seq, lat_us, op)"
                            " SELECT r.dst, s.t_us, m.dst, s.seq, s.lat_us, o.dst"
                            " FROM src.samples s JOIN temp.file_map m ON m.src = s.file"
                            " AND (m.fresh OR m.complete)"
                            " JOIN temp.run_map r ON r.src = s.run"
                            " LEFT JOIN temp.op_map o ON o.src = s.op",
                            NULL, 0, &n, e)) != COW_OK)
            return rc;
        ms->samples = n;
        if ((rc = run_sql(db,
                          "UPDATE main.files SET partial = 0 WHERE id IN"
                          " (SELECT dst FROM temp.file_map WHERE complete = 1)",
                          e)) != COW_OK)
            return rc;
    }
    return COW_OK;
}

#define CHECK_COLS                                                                 \
    "x.host, x.scope, x.limit_name, x.limit_value, x.value, x.p, x.p_adjusted,"        \
    " x.verdict, x.method, x.correction, x.comparisons, x.detail, x.runs, x.evaluated_at"

/* Results and findings of runs that have none here; a run that has its own
 * keeps them (they may be newer), and is counted stale when files came. */
static int copy_results(sqlite3 *db, cow_merge_stats *ms, cow_err *e)
{
    char sql[1024];
    size_t i;
    int rc;

    if ((rc = run_sql(db,
                      "UPDATE temp.run_map SET results ="
                      " (NOT EXISTS (SELECT 1 FROM main.analyses WHERE run = dst)"
                      "  AND EXISTS (SELECT 1 FROM src.analyses WHERE run = src)),"
                      " findings = (NOT EXISTS (SELECT 1 FROM main.findings WHERE run = dst)"
                      "  AND EXISTS (SELECT 1 FROM src.findings WHERE run = src)),"
                      " checks = (NOT EXISTS (SELECT 1 FROM main.checks WHERE run = dst)"
                      "  AND EXISTS (SELECT 1 FROM src.checks WHERE run = src))",
                      e)) != COW_OK)
        return rc;
    for (i = 0; i < sizeof(result_tables) / sizeof(result_tables[0]); i++) {
        snprintf(sql, sizeof(sql),
                 "INSERT INTO main.%s(run, %s) SELECT r.dst, %s FROM src.%s x"
                 " JOIN temp.run_map r ON r.src = x.run AND r.results",
                 result_tables[i].table, result_tables[i].cols, result_tables[i].cols,
                 result_tables[i].table);
        if ((rc = run_sql(db, sql, e)) != COW_OK)
            return rc;
    }
    /* the facts (run's and servers'), answers, replica syncs and windows of
     * runs that have none here (every column but run, the table's own) */
    {
        static const char *const kept[] = {"run_facts", "server_facts", "answers",
                                           "repl_syncs", "windows"};
        for (i = 0; i < sizeof(kept) / sizeof(kept[0]); i++) {
            char cols[2048], xcols[2400], ins[5200];
            if ((rc = other_cols(db, kept[i], "", cols, sizeof(cols), e)) != COW_OK ||
                (rc = other_cols(db, kept[i], "x.", xcols, sizeof(xcols), e)) != COW_OK)
                return rc;
            snprintf(ins, sizeof(ins),
                     "INSERT INTO main.%s(run%s) SELECT r.dst%s FROM src.%s x"
                     " JOIN temp.run_map r ON r.src = x.run"
                     " WHERE NOT EXISTS (SELECT 1 FROM main.%s WHERE run = r.dst)",
                     kept[i], cols, xcols, kept[i], kept[i]);
            if ((rc = run_sql(db, ins, e)) != COW_OK)
                return rc;
        }
    }
    if ((rc = run_sql(db,
                      "INSERT INTO main.findings(run, seq, rule, severity, title, evidence,"
                      " recommendation) SELECT r.dst, seq, rule, severity, title, evidence,"
                      " recommendation FROM src.findings x"
                      " JOIN temp.run_map r ON r.src = x.run AND r.findings;"
                      /* check verdicts: of runs that have none here, and of the
                       * hosts judged there that have no host verdict here */
                      "INSERT INTO main.checks(run, host, scope, limit_name, limit_value,"
                      " value, p, p_adjusted, verdict, method, correction, comparisons,"
                      " detail, runs, evaluated_at) SELECT r.dst, " CHECK_COLS
                      " FROM src.checks x JOIN temp.run_map r ON r.src = x.run AND r.checks"
                      " ORDER BY x.rowid;"
                      "CREATE TEMP TABLE host_new AS SELECT DISTINCT host FROM src.checks"
                      " WHERE run IS NULL AND host IS NOT NULL AND host NOT IN"
                      " (SELECT host FROM main.checks WHERE run IS NULL AND host IS NOT NULL);"
                      "INSERT INTO main.checks(run, host, scope, limit_name, limit_value,"
                      " value, p, p_adjusted, verdict, method, correction, comparisons,"
                      " detail, runs, evaluated_at) SELECT NULL, " CHECK_COLS
                      " FROM src.checks x WHERE x.run IS NULL AND x.host IN"
                      " (SELECT host FROM temp.host_new) ORDER BY x.rowid;"
                      "DROP TABLE temp.host_new;"
                      /* refusals: what was refused on the other host, once (a run that
                       * never landed has none: its label stays) */
                      "INSERT INTO main.refusals(run, label, path, line, parser, code,"
                      " reason, at) SELECT r.dst, coalesce(d.label, x.label), x.path, x.line,"
                      " x.parser, x.code, x.reason, x.at FROM src.refusals x"
                      " LEFT JOIN temp.run_map r ON r.src = x.run"
                      " LEFT JOIN main.runs d ON d.id = r.dst WHERE NOT EXISTS"
                      " (SELECT 1 FROM main.refusals y WHERE"
                      "  y.label = coalesce(d.label, x.label) AND y.path = x.path AND"
                      "  y.at = x.at AND y.reason = x.reason)",
                      e)) != COW_OK)
        return rc;
    ms->results = (long)one_int(db, "SELECT count(*) FROM temp.run_map WHERE results", NULL);
    ms->stale = (long)one_int(db,
                              "SELECT count(*) FROM temp.run_map r WHERE NOT r.results AND"
                              " EXISTS (SELECT 1 FROM main.analyses WHERE run = r.dst) AND"
                              " EXISTS (SELECT 1 FROM temp.file_map m JOIN src.files f"
                              "  ON f.id = m.src WHERE m.fresh AND f.run = r.src)",
                              NULL);
    return COW_OK;
}

/* Name the files refused as changed, to opt->on_refused. */
static int tell_refused(sqlite3 *db, const cow_merge_opts *opt, cow_err *e)
{
    sqlite3_stmt *q;
    int rc;

    if (opt->on_refused == NULL)
        return COW_OK;
    if (sqlite3_prepare_v2(db,
                           "SELECT d.label, f.path FROM temp.file_map m"
                           " JOIN src.files f ON f.id = m.src"
                           " JOIN temp.run_map r ON r.src = f.run"
                           " JOIN main.runs d ON d.id = r.dst WHERE m.refused ORDER BY f.id",
                           -1, &q, NULL) != SQLITE_OK)
        return fail(db, e, "preparing refused files");
    while ((rc = sqlite3_step(q)) == SQLITE_ROW)
        opt->on_refused(opt->ctx, (const char *)sqlite3_column_text(q, 0),
                        (const char *)sqlite3_column_text(q, 1));
    sqlite3_finalize(q);
    return rc == SQLITE_DONE ? COW_OK : fail(db, e, "reading refused files");
}

/* The input is data, never code: its version first (newer, older, none),
 * then every table this build has must be a table there with the same
 * columns (name, type, not null, key, hidden or generated), and no view or
 * trigger may be there that this build's schema does not hold as it is:
 * a planted view named like a table would run as code. */
static int check_input(sqlite3 *db, const char *in_path, cow_err *e)
{
    static const char *const odd_sql =
        "SELECT s.type || ' ' || s.name FROM src.sqlite_schema s"
        " WHERE s.type IN ('view', 'trigger') AND NOT EXISTS (SELECT 1 FROM"
        "  main.sqlite_schema m WHERE m.type = s.type AND m.name = s.name COLLATE NOCASE"
        "  AND m.sql IS s.sql)"
        " UNION ALL SELECT 'table ' || m.name || ' (missing, or not a plain table)'"
        " FROM main.sqlite_schema m WHERE m.type = 'table'"
        " AND m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND NOT EXISTS (SELECT 1 FROM"
        "  src.sqlite_schema s WHERE s.type = 'table' AND s.name = m.name COLLATE NOCASE"
        "  AND s.sql NOT LIKE 'CREATE VIRTUAL%')"
        " UNION ALL SELECT 'table ' || m.name || ' (other columns)' FROM main.sqlite_schema m"
        " WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND EXISTS"
        " (SELECT name, upper(type), \"notnull\", pk, hidden FROM pragma_table_xinfo(m.name, 'main')"
        "  EXCEPT SELECT name, upper(type), \"notnull\", pk, hidden"
        "  FROM pragma_table_xinfo(m.name, 'src')"
        "  UNION ALL SELECT name, upper(type), \"notnull\", pk, hidden"
        "  FROM pragma_table_xinfo(m.name, 'src')"
        "  EXCEPT SELECT name, upper(type), \"notnull\", pk, hidden"
        "  FROM pragma_table_xinfo(m.name, 'main'))"
        " LIMIT 1";
    int64_t v = one_int(db, "PRAGMA src.user_version", NULL);
    int64_t runs = one_int(db,
                           "SELECT count(*) FROM src.sqlite_schema WHERE type = 'table'"
                           " AND name IN ('runs', 'files', 'samples')",
                           NULL);
    sqlite3_stmt *q;
    int rc;

    if (v > cow_migration_count)
        return COW_FAIL(e, COW_EUSAGE,
                        "%s was written by a newer cowtail (schema %lld > %d, the newest "
                        "this build knows): upgrade cowtail and merge again",
                        in_path, (long long)v, cow_migration_count);
    if (v <= 0 && runs != 3)
        return COW_FAIL(e, COW_EUSAGE, "%s: not a cowtail database: name a database "
                        "that cowtail ingest wrote", in_path);
    if (v < cow_migration_count)
        return COW_FAIL(e, COW_EUSAGE,
                        "%s: schema version %lld, this cowtail writes %d: open it once "
                        "with this cowtail (cowtail runs --db %s) and merge again",
                        in_path, (long long)v, cow_migration_count, in_path);
    if (sqlite3_prepare_v2(db, odd_sql, -1, &q, NULL) != SQLITE_OK)
        return fail(db, e, "checking the input's schema");
    rc = sqlite3_step(q);
    if (rc == SQLITE_ROW)
        rc = COW_FAIL(e, COW_EUSAGE,
                      "%s is not a cowtail database of this version: %s is not what "
                      "cowtail writes (crafted or edited): merge a database as cowtail "
                      "ingest wrote it",
                      in_path, (const char *)sqlite3_column_text(q, 0));
    else if (rc == SQLITE_DONE)
        rc = COW_OK;
    else
        rc = fail(db, e, "checking the input's schema");
    sqlite3_finalize(q);
    return rc;
}

/* The progress budget: VM steps, counted in units of COW_MERGE_TICK, for
 * the whole merge of one input. Every statement here reads each row a
 * bounded number of times, so a real merge takes steps in proportion to
 * the two files' bytes: the samples' copy, the largest, took 664 k steps
 * for 17,034 rows of a 5 MB input (about 39 a row, under 1 a byte of the
 * samples), so 200 a byte plus 2e8 is far above any real merge; a runaway
 * statement (a loop a crafted file smuggled past the checks) is stopped. */
#define COW_MERGE_TICK 1000
#define COW_MERGE_STEPS_PER_BYTE 200
#define COW_MERGE_STEPS_MIN 200000000LL

typedef struct merge_budget {
    long long left;  /* ticks before the statement is interrupted */
    int spent;       /* the budget ended a statement */
} merge_budget;

static int on_progress(void *ctx)
{
    merge_budget *b = ctx;
    if (--b->left > 0)
        return 0;
    b->spent = 1;
    return 1;
}

static long long file_bytes(const char *path)
{
    struct stat sb;
    return path && stat(path, &sb) == 0 ? (long long)sb.st_size : 0;
}

/* "file:PATH?mode=ro", PATH percent-encoded but for the safe bytes;
 * sqlite3_free it. */
static char *readonly_uri(const char *path)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t n = strlen(path), i, k = 0;
    char *enc = sqlite3_malloc64(3 * n + 1), *uri;

    if (enc == NULL)
        return NULL;
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)path[i];
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            c == '/' || c == '.' || c == '_' || c == '-') {
            enc[k++] = (char)c;
        } else {
            enc[k++] = '%';
            enc[k++] = hex[c >> 4];
            enc[k++] = hex[c & 15];
        }
    }
    enc[k] = '\0';
    /* an absolute path after an empty authority: file:///a/b */
    uri = sqlite3_mprintf("file:%s%s?mode=ro", path[0] == '/' ? "//" : "", enc);
    sqlite3_free(enc);
    return uri;
}

/* Say what a failure means for the input: the budget spent, or a damaged
 * file (SQLite's corrupt or not-a-database; the input's quick_check says
 * which of the two files it is). */
static int explain(sqlite3 *db, const char *in_path, const merge_budget *b, int rc,
                   cow_err *e)
{
    int code = sqlite3_extended_errcode(db) & 0xff;
    char msg[sizeof(e->msg)];

    snprintf(msg, sizeof(msg), "%s", e->msg);
    if (b->spent)
        return COW_FAIL(e, COW_EUSAGE,
                        "%s: a statement ran past its budget; the file is not a cowtail "
                        "database or is crafted: merge a database as cowtail ingest wrote it",
                        in_path);
    if (code == SQLITE_CORRUPT || code == SQLITE_NOTADB)
        return COW_FAIL(e, COW_EUSAGE,
                        "%s is damaged (malformed) or not a cowtail database: %s: merge a "
                        "good copy (sqlite3 %s 'PRAGMA integrity_check' shows the damage)",
                        in_path, sqlite3_errmsg(db), in_path);
    return rc;
}

int store_merge(cow_store *out, const char *in_path, const cow_merge_opts *opt,
                cow_merge_stats *ms, cow_err *e)
{
    sqlite3 *db = out->db;
    sqlite3_stmt *q;
    struct stat sb;
    char *stem = NULL, *uri = NULL;
    merge_budget budget = {0, 0};
    int rc, was_defensive = 0, was_trusted = 1;

    memset(ms, 0, sizeof(*ms));
    /* ATTACH would create a missing file: refuse it first */
    if (stat(in_path, &sb) != 0 || !S_ISREG(sb.st_mode))
        return COW_FAIL(e, COW_EUSAGE, "%s: no such database file", in_path);
    /* the input read-only, its schema untrusted (no function a view or
     * trigger could call), the connection defensive, every step counted */
    if ((uri = readonly_uri(in_path)) == NULL)
        return COW_FAIL(e, COW_EINTERNAL, "merge: out of memory");
    budget.left = opt->budget_steps > 0 ? opt->budget_steps / COW_MERGE_TICK + 1
                  : (COW_MERGE_STEPS_MIN + COW_MERGE_STEPS_PER_BYTE *
                     (file_bytes(in_path) + file_bytes(out->path))) / COW_MERGE_TICK;
    sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, &was_defensive);
    sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, &was_trusted);
    sqlite3_progress_handler(db, COW_MERGE_TICK, on_progress, &budget);
    if (sqlite3_prepare_v2(db, "ATTACH DATABASE ?1 AS src", -1, &q, NULL) != SQLITE_OK) {
        rc = fail(db, e, "preparing attach");
        goto restore;
    }
    sqlite3_bind_text(q, 1, uri, -1, SQLITE_STATIC);
    rc = sqlite3_step(q);
    sqlite3_finalize(q);
    if (rc != SQLITE_DONE) {
        rc = COW_FAIL(e, COW_EUSAGE, "%s: cannot open: %s", in_path, sqlite3_errmsg(db));
        rc = explain(db, in_path, &budget, rc, e);
        goto restore;
    }
    stem = origin_stem(in_path);
    if ((rc = run_sql(db,
                      "BEGIN IMMEDIATE;"
                      "CREATE TEMP TABLE run_map(src INTEGER PRIMARY KEY, dst INTEGER,"
                      " fresh INTEGER, results INTEGER DEFAULT 0, findings INTEGER DEFAULT 0,"
                      " checks INTEGER DEFAULT 0);"
                      "CREATE TEMP TABLE file_map(src INTEGER PRIMARY KEY, dst INTEGER,"
                      " fresh INTEGER, complete INTEGER, refused INTEGER DEFAULT 0);"
                      "CREATE TEMP TABLE op_map(src INTEGER PRIMARY KEY, dst INTEGER)",
                      e)) != COW_OK) {
        rc = explain(db, in_path, &budget, rc, e);
        if (!sqlite3_get_autocommit(db))
            sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        goto detach;
    }
    /* checked inside the transaction: what is read is what was checked */
    if ((rc = check_input(db, in_path, e)) != COW_OK ||
        (rc = map_runs(db, stem, opt, ms, e)) != COW_OK ||
        (rc = map_files(db, in_path, opt->results_only, ms, e)) != COW_OK ||
        (rc = copy_rows(db, opt->results_only, ms, e)) != COW_OK ||
        (rc = copy_results(db, ms, e)) != COW_OK ||
        (rc = tell_refused(db, opt, e)) != COW_OK ||
        (rc = run_sql(db,
                      "DROP TABLE temp.run_map; DROP TABLE temp.file_map;"
                      " DROP TABLE temp.op_map; COMMIT",
                      e)) != COW_OK) {
        rc = explain(db, in_path, &budget, rc, e);
        if (!sqlite3_get_autocommit(db))
            sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    }
detach:
    sqlite3_progress_handler(db, 0, NULL, NULL);
    sqlite3_exec(db, "DETACH DATABASE src", NULL, NULL, NULL);
restore:
    sqlite3_progress_handler(db, 0, NULL, NULL);
    sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, was_trusted, NULL);
    sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, was_defensive, NULL);
    sqlite3_free(uri);
    free(stem);
    return rc;
}
