/* store_checks.c -- the checks table (store_checks.h). */
#include "store_checks.h"

#include "store_int.h"

int store_checks_replace(cow_store *st, const cow_check_row *v, size_t n, cow_err *e)
{
    sqlite3_stmt *q = NULL;
    size_t i;
    int rc;

    if ((rc = store_begin(st, e)) != COW_OK)
        return rc;
    if (sqlite3_exec(st->db, "DELETE FROM checks", NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(st->db,
                           "INSERT INTO checks(run, host, scope, limit_name, limit_value,"
                           " value, p, p_adjusted, verdict, method, correction, comparisons,"
                           " detail, runs, evaluated_at)"
                           " VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15)",
                           -1, &q, NULL) != SQLITE_OK) {
        rc = sql_fail(st, e, "storing the checks");
        store_rollback(st);
        return rc;
    }
    for (i = 0; i < n && rc == COW_OK; i++) {
        const cow_check_row *c = &v[i];
        if (c->run > 0)
            sqlite3_bind_int64(q, 1, c->run);
        else
            sqlite3_bind_null(q, 1);
        bind_text(q, 2, c->host);
        bind_text(q, 3, c->scope);
        bind_text(q, 4, c->limit_name);
        sqlite3_bind_double(q, 5, c->limit_value);
        bind_num(q, 6, c->value);
        bind_num(q, 7, c->p);
        bind_num(q, 8, c->p_adj);
        bind_text(q, 9, c->verdict);
        bind_text(q, 10, c->method);
        bind_text(q, 11, c->correction);
        sqlite3_bind_int64(q, 12, c->comparisons);
        bind_text(q, 13, c->detail ? c->detail : "");
        sqlite3_bind_int64(q, 14, c->runs);
        sqlite3_bind_int64(q, 15, c->evaluated_us);
        if (sqlite3_step(q) != SQLITE_DONE)
            rc = sql_fail(st, e, "storing a check");
        sqlite3_reset(q);
        sqlite3_clear_bindings(q);
    }
    sqlite3_finalize(q);
    if (rc != COW_OK) {
        store_rollback(st);
        return rc;
    }
    return store_commit(st, e);
}
