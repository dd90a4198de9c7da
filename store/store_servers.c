/* store_servers.c -- the servers of a run (migration 009): what the files
 * say about the server they came from (INFO identity, CONFIG port, the
 * processes of a log), and the servers and file links app/servers.c
 * settles from it. Statements run once per run: prepared per call. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "store_int.h"

static cow_srv_obs *obs_add(cow_srv_obs **v, size_t *n, size_t *cap, int64_t file,
                            int kind)
{
    cow_srv_obs *o;
    *v = xgrow(*v, sizeof(**v), *n + 1, cap);
    o = &(*v)[(*n)++];
    memset(o, 0, sizeof(*o));
    o->file = file;
    o->kind = kind;
    return o;
}

static int64_t col_i64(sqlite3_stmt *q, int i)
{
    return sqlite3_column_type(q, i) == SQLITE_NULL ? 0 : sqlite3_column_int64(q, i);
}

/* The files of the run. */
static int load_files(cow_store *st, int64_t run, cow_srv_file **f, size_t *nf,
                      cow_err *e)
{
    sqlite3_stmt *q = NULL;
    size_t cap = 0;
    int rc;

    if ((rc = prep(st,
        "SELECT f.id, f.path, f.parser, EXISTS (SELECT 1 FROM stats s WHERE"
        " s.file = f.id AND s.source IN ('smaps_rollup', 'smaps', 'status'))"
        " FROM files f WHERE f.run = ?1 ORDER BY f.id", &q, e)) != COW_OK)
        return rc;
    sqlite3_bind_int64(q, 1, run);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        cow_srv_file *x;
        *f = xgrow(*f, sizeof(**f), *nf + 1, &cap);
        x = &(*f)[(*nf)++];
        x->file = sqlite3_column_int64(q, 0);
        x->path = xstrdup(col_text(q, 1));
        snprintf(x->parser, sizeof(x->parser), "%s", col_text(q, 2));
        x->proc_stats = sqlite3_column_int(q, 3);
    }
    unprep(st, q);
    return rc == SQLITE_DONE ? COW_OK : sql_fail(st, e, "reading the run's files");
}

int store_server_inputs(cow_store *st, int64_t run, cow_srv_file **f, size_t *nf,
                        cow_srv_obs **o, size_t *no, cow_err *e)
{
    sqlite3_stmt *q = NULL;
    size_t cap = 0;
    int rc;

    *f = NULL;
    *o = NULL;
    *nf = *no = 0;
    if ((rc = load_files(st, run, f, nf, e)) != COW_OK)
        goto fail;
    /* INFO: one identity per distinct (run_id, role, process_id, tcp_port)
     * of a file, with how many dumps said it */
    if ((rc = prep(st,
        "SELECT file, rid, role, pid, port, ver, count(*) FROM"
        " (SELECT file, dump, max(CASE WHEN key = 'run_id' THEN text END) AS rid,"
        "  max(CASE WHEN key = 'role' THEN text END) AS role,"
        "  max(CASE WHEN key = 'process_id' THEN num END) AS pid,"
        "  max(CASE WHEN key = 'tcp_port' THEN num END) AS port,"
        "  coalesce(max(CASE WHEN key = 'valkey_version' THEN text END),"
        "   max(CASE WHEN key = 'redis_version' THEN text END)) AS ver"
        "  FROM info WHERE run = ?1 AND sub IS NULL AND coalesce(section, '') != 'config'"
        "  AND key IN ('run_id', 'role', 'process_id', 'tcp_port', 'redis_version',"
        "  'valkey_version') GROUP BY file, dump)"
        " GROUP BY file, rid, role, pid, port ORDER BY file, min(dump)", &q, e)) != COW_OK)
        goto fail;
    sqlite3_bind_int64(q, 1, run);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        cow_srv_obs *x = obs_add(o, no, &cap, sqlite3_column_int64(q, 0), COW_OBS_INFO);
        snprintf(x->run_id, sizeof(x->run_id), "%s", col_text(q, 1));
        snprintf(x->role, sizeof(x->role), "%s", col_text(q, 2));
        x->pid = col_i64(q, 3);
        x->port = col_i64(q, 4);
        snprintf(x->version, sizeof(x->version), "%s", col_text(q, 5));
        x->dumps = sqlite3_column_int64(q, 6);
    }
    unprep(st, q);
    if (rc != SQLITE_DONE)
        goto sql;
    /* CONFIG GET output and redis.conf: the port */
    if ((rc = prep(st,
        "SELECT file, max(num) FROM info WHERE run = ?1 AND section = 'config'"
        " AND key = 'port' AND num > 0 GROUP BY file ORDER BY file", &q, e)) != COW_OK)
        goto fail;
    sqlite3_bind_int64(q, 1, run);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW)
        obs_add(o, no, &cap, sqlite3_column_int64(q, 0), COW_OBS_CONFIG)->port =
            sqlite3_column_int64(q, 1);
    unprep(st, q);
    if (rc != SQLITE_DONE)
        goto sql;
    /* logs: each process that wrote lines */
    if ((rc = prep(st,
        "SELECT file, pid, roles, parent, replica, server, port, version FROM procs"
        " WHERE run = ?1 ORDER BY file, line", &q, e)) != COW_OK)
        goto fail;
    sqlite3_bind_int64(q, 1, run);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        cow_srv_obs *x = obs_add(o, no, &cap, sqlite3_column_int64(q, 0), COW_OBS_LOG);
        x->pid = sqlite3_column_int64(q, 1);
        snprintf(x->roles, sizeof(x->roles), "%s", col_text(q, 2));
        x->parent = col_i64(q, 3);
        x->replica = sqlite3_column_int(q, 4);
        x->server = sqlite3_column_int(q, 5);
        x->port = col_i64(q, 6);
        snprintf(x->version, sizeof(x->version), "%s", col_text(q, 7));
    }
    unprep(st, q);
    if (rc != SQLITE_DONE)
        goto sql;
    return COW_OK;
sql:
    rc = sql_fail(st, e, "reading what the files say about their servers");
fail:
    store_free_srv_files(*f, *nf);
    free(*o);
    *f = NULL;
    *o = NULL;
    *nf = *no = 0;
    return rc;
}

static int run_stmt(cow_store *st, const char *sql, int64_t run, cow_err *e)
{
    sqlite3_stmt *q = NULL;
    int rc;
    if ((rc = prep(st, sql, &q, e)) != COW_OK)
        return rc;
    sqlite3_bind_int64(q, 1, run);
    rc = sqlite3_step(q);
    unprep(st, q);
    return rc == SQLITE_DONE ? COW_OK : sql_fail(st, e, "replacing the run's servers");
}

int store_put_servers(cow_store *st, int64_t run, const cow_server_row *v, size_t n,
                      const cow_server_link *l, size_t nl, cow_err *e)
{
    sqlite3_stmt *q = NULL;
    size_t i;
    int rc;

    if ((rc = run_stmt(st, "DELETE FROM server_files WHERE run = ?1", run, e)) != COW_OK ||
        (rc = run_stmt(st, "DELETE FROM servers WHERE run = ?1", run, e)) != COW_OK)
        return rc;
    if ((rc = prep(st, "INSERT INTO servers(run, seq, role, pid, port, version, run_id,"
                   " how) VALUES(?1,?2,?3,?4,?5,?6,?7,?8)", &q, e)) != COW_OK)
        return rc;
    for (i = 0; i < n && rc == COW_OK; i++) {
        sqlite3_bind_int64(q, 1, run);
        sqlite3_bind_int(q, 2, v[i].seq);
        bind_text(q, 3, v[i].role);
        if (v[i].pid > 0)
            sqlite3_bind_int64(q, 4, v[i].pid);
        if (v[i].port > 0)
            sqlite3_bind_int64(q, 5, v[i].port);
        bind_text(q, 6, v[i].version[0] ? v[i].version : NULL);
        bind_text(q, 7, v[i].run_id[0] ? v[i].run_id : NULL);
        bind_text(q, 8, v[i].how);
        rc = step_done(st, q, e, "adding a server");
    }
    unprep(st, q);
    if (rc != COW_OK)
        return rc;
    if ((rc = prep(st, "INSERT INTO server_files(run, file, server, pid, how)"
                   " VALUES(?1,?2,?3,?4,?5)", &q, e)) != COW_OK)
        return rc;
    for (i = 0; i < nl && rc == COW_OK; i++) {
        sqlite3_bind_int64(q, 1, run);
        sqlite3_bind_int64(q, 2, l[i].file);
        sqlite3_bind_int(q, 3, l[i].server);
        sqlite3_bind_int64(q, 4, l[i].pid);
        bind_text(q, 5, l[i].how);
        rc = step_done(st, q, e, "linking a file to its server");
    }
    unprep(st, q);
    return rc;
}

int store_run_servers(cow_store *st, int64_t run, cow_server_row **v, size_t *n,
                      cow_err *e)
{
    sqlite3_stmt *q = NULL;
    size_t cap = 0;
    int rc;

    *v = NULL;
    *n = 0;
    if ((rc = prep(st,
        "SELECT s.seq, s.role, s.pid, s.port, s.version, s.run_id, s.how,"
        " (SELECT count(DISTINCT x.file) FROM server_files x WHERE x.run = s.run"
        "  AND x.server = s.seq) FROM servers s WHERE s.run = ?1 ORDER BY s.seq",
        &q, e)) != COW_OK)
        return rc;
    sqlite3_bind_int64(q, 1, run);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        cow_server_row *s;
        *v = xgrow(*v, sizeof(**v), *n + 1, &cap);
        s = &(*v)[(*n)++];
        memset(s, 0, sizeof(*s));
        s->seq = sqlite3_column_int(q, 0);
        snprintf(s->role, sizeof(s->role), "%s", col_text(q, 1));
        s->pid = col_i64(q, 2);
        s->port = col_i64(q, 3);
        snprintf(s->version, sizeof(s->version), "%s", col_text(q, 4));
        snprintf(s->run_id, sizeof(s->run_id), "%s", col_text(q, 5));
        snprintf(s->how, sizeof(s->how), "%s", col_text(q, 6));
        s->files = sqlite3_column_int64(q, 7);
    }
    unprep(st, q);
    if (rc == SQLITE_DONE)
        return COW_OK;
    free(*v);
    *v = NULL;
    *n = 0;
    return sql_fail(st, e, "reading the run's servers");
}

int store_server_files(cow_store *st, int64_t run, char ***paths, int **server,
                       size_t *n, cow_err *e)
{
    sqlite3_stmt *q = NULL;
    size_t c1 = 0, c2 = 0, i;
    int rc;

    *paths = NULL;
    *server = NULL;
    *n = 0;
    if ((rc = prep(st,
        "SELECT DISTINCT CASE WHEN r.path IS NOT NULL AND r.path != '.' AND"
        " substr(f.path, 1, length(r.path) + 1) = r.path || '/'"
        " THEN ltrim(substr(f.path, length(r.path) + 2), '/') ELSE f.path END,"
        " x.server, f.id FROM server_files x JOIN files f ON f.id = x.file"
        " JOIN runs r ON r.id = x.run WHERE x.run = ?1 ORDER BY x.server, f.id",
        &q, e)) != COW_OK)
        return rc;
    sqlite3_bind_int64(q, 1, run);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        *paths = xgrow(*paths, sizeof(char *), *n + 1, &c1);
        *server = xgrow(*server, sizeof(int), *n + 1, &c2);
        (*paths)[*n] = xstrdup(col_text(q, 0));
        (*server)[(*n)++] = sqlite3_column_int(q, 1);
    }
    unprep(st, q);
    if (rc == SQLITE_DONE)
        return COW_OK;
    for (i = 0; i < *n; i++)
        free((*paths)[i]);
    free(*paths);
    free(*server);
    *paths = NULL;
    *server = NULL;
    *n = 0;
    return sql_fail(st, e, "reading the servers' files");
}

void store_free_srv_files(cow_srv_file *f, size_t n)
{
    for (size_t i = 0; f != NULL && i < n; i++)
        free(f[i].path);
    free(f);
}
