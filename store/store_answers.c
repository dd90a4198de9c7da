/* store_answers.c -- answers and replica sync attempts (store_answers.h). */
#include "store_answers.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

#include "store_int.h"

int store_clear_run_rows(cow_store *st, const char *table, int64_t run, cow_err *e)
{
    static const char *const tables[] = {"server_facts", "repl_syncs", "windows"};
    char sql[96];
    sqlite3_stmt *q;
    size_t i;
    int rc;

    for (i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
        if (strcmp(tables[i], table) == 0)
            break;
    if (i == sizeof(tables) / sizeof(tables[0]))
        return COW_FAIL(e, COW_EINTERNAL, "no run rows to clear in '%s'", table);
    snprintf(sql, sizeof(sql), "DELETE FROM %s WHERE run = ?1", tables[i]);
    if ((rc = prep(st, sql, &q, e)) != COW_OK)
        return rc;
    sqlite3_bind_int64(q, 1, run);
    rc = sqlite3_step(q);
    unprep(st, q);
    return rc == SQLITE_DONE ? COW_OK : sql_fail(st, e, "clearing a run's rows");
}

/* The answers columns ?2.. (?1 run; t0_us, len_us and decided_at bound
 * apart: the first two only with a window). */
static const col_desc answer_cols[] = {
    COL(cow_answer_row, say, COL_INT),          COL(cow_answer_row, quiet, COL_TEXT),
    COL(cow_answer_row, line, COL_STR0),        COL(cow_answer_row, window, COL_TEXT),
    COL(cow_answer_row, kind, COL_TEXT)};
static const col_desc answer_cols2[] = {
    COL(cow_answer_row, nwindows, COL_INT),     COL(cow_answer_row, verdict, COL_TEXT),
    COL(cow_answer_row, method, COL_TEXT),      COL(cow_answer_row, base_p999_us, COL_NUM),
    COL(cow_answer_row, window_p999_us, COL_NUM), COL(cow_answer_row, delta_us, COL_NUM),
    COL(cow_answer_row, delta_lo_us, COL_NUM),  COL(cow_answer_row, delta_hi_us, COL_NUM),
    COL(cow_answer_row, worst_us, COL_NUM),     COL(cow_answer_row, fork_ms, COL_NUM),
    COL(cow_answer_row, cow_mb, COL_NUM),       COL(cow_answer_row, cow_pct_used, COL_NUM),
    COL(cow_answer_row, thp, COL_TEXT),         COL(cow_answer_row, transfer, COL_TEXT),
    COL(cow_answer_row, cause, COL_TEXT),       COL(cow_answer_row, gate, COL_TEXT),
    COL(cow_answer_row, gate_why, COL_TEXT),    COL(cow_answer_row, todo, COL_TEXT),
    COL(cow_answer_row, todo_rule, COL_TEXT)};

/* Prepare sql, bind run to ?1 and row's columns from ?2 by c, step it. */
static int put_by_cols(cow_store *st, const char *sql, int64_t run, const void *row,
                       const col_desc *c, size_t n, const char *what, cow_err *e)
{
    sqlite3_stmt *q;
    int rc;

    if ((rc = prep(st, sql, &q, e)) != COW_OK)
        return rc;
    sqlite3_bind_int64(q, 1, run);
    if ((rc = store_bind_cols(q, 2, row, c, n, what, e)) == COW_OK)
        rc = sqlite3_step(q) == SQLITE_DONE ? COW_OK : sql_fail(st, e, what);
    unprep(st, q);
    return rc;
}

int store_put_answer(cow_store *st, const cow_answer_row *a, cow_err *e)
{
    sqlite3_stmt *q;
    struct timeval tv;
    int rc;

    if ((rc = prep(st,
                   "INSERT OR REPLACE INTO answers(run, say, quiet, line, window_label, kind, t0_us,"
                   " len_us, nwindows, verdict, method, base_p999_us, window_p999_us,"
                   " delta_us, delta_lo_us, delta_hi_us, worst_us, fork_ms, cow_mb,"
                   " cow_pct_used, thp, transfer, cause, gate, gate_why, todo, todo_rule,"
                   " decided_at) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12,"
                   " ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26,"
                   " ?27, ?28)",
                   &q, e)) != COW_OK)
        return rc;
    sqlite3_bind_int64(q, 1, a->run);
    if ((rc = store_bind_cols(q, 2, a, answer_cols, NCOLS(answer_cols), "storing a run's answer",
                              e)) == COW_OK &&
        (rc = store_bind_cols(q, 9, a, answer_cols2, NCOLS(answer_cols2),
                              "storing a run's answer", e)) == COW_OK) {
        if (a->window) {
            sqlite3_bind_int64(q, 7, a->t0_us);
            sqlite3_bind_int64(q, 8, a->len_us);
        }
        gettimeofday(&tv, NULL);
        sqlite3_bind_int64(q, 28, (int64_t)tv.tv_sec * 1000000 + tv.tv_usec);
        rc = sqlite3_step(q) == SQLITE_DONE ? COW_OK
                                            : sql_fail(st, e, "storing a run's answer");
    }
    unprep(st, q);
    return rc;
}

static const col_desc repl_sync_cols[] = {
    COL(cow_repl_sync_row, server, COL_INT),       COL(cow_repl_sync_row, attempt, COL_INT),
    COL(cow_repl_sync_row, pid, COL_T),            COL(cow_repl_sync_row, port, COL_T),
    COL(cow_repl_sync_row, attach_line, COL_NZ),   COL(cow_repl_sync_row, mode, COL_TEXT),
    COL(cow_repl_sync_row, outcome, COL_TEXT),     COL(cow_repl_sync_row, attach_us, COL_STEP),
    COL(cow_repl_sync_row, resync_us, COL_STEP),   COL(cow_repl_sync_row, recv_us, COL_STEP),
    COL(cow_repl_sync_row, recv_end_us, COL_STEP), COL(cow_repl_sync_row, flush_us, COL_STEP),
    COL(cow_repl_sync_row, load_us, COL_STEP),     COL(cow_repl_sync_row, up_us, COL_STEP),
    COL(cow_repl_sync_row, lost_us, COL_STEP),     COL(cow_repl_sync_row, bytes, COL_NUM),
    COL(cow_repl_sync_row, attach_to_up_s, COL_NUM), COL(cow_repl_sync_row, wait_s, COL_NUM),
    COL(cow_repl_sync_row, transfer_s, COL_NUM),   COL(cow_repl_sync_row, flush_s, COL_NUM),
    COL(cow_repl_sync_row, load_s, COL_NUM)};

int store_put_repl_sync(cow_store *st, const cow_repl_sync_row *s, cow_err *e)
{
    return put_by_cols(st,
                       "INSERT OR REPLACE INTO repl_syncs(run, server, attempt, pid, port,"
                       " attach_line, mode, outcome, attach_us, resync_us, recv_us, recv_end_us,"
                       " flush_us, load_us, up_us, lost_us, bytes, attach_to_up_s, wait_s,"
                       " transfer_s, flush_s, load_s) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9,"
                       " ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22)",
                       s->run, s, repl_sync_cols, NCOLS(repl_sync_cols),
                       "storing a replica sync", e);
}

static const col_desc window_cols[] = {
    COL(cow_window_row, idx, COL_INT),        COL(cow_window_row, kind, COL_TEXT),
    COL(cow_window_row, label, COL_STR0),     COL(cow_window_row, t0_us, COL_I64),
    COL(cow_window_row, t1_us, COL_I64),      COL(cow_window_row, fork_us, COL_T),
    COL(cow_window_row, child_pid, COL_NZ),   COL(cow_window_row, source, COL_TEXT),
    COL(cow_window_row, overlap, COL_INT),    COL(cow_window_row, open, COL_INT),
    COL(cow_window_row, failed, COL_INT)};

int store_put_window(cow_store *st, const cow_window_row *w, cow_err *e)
{
    return put_by_cols(st,
                       "INSERT OR REPLACE INTO windows(run, idx, kind, label, t0_us, t1_us,"
                       " fork_us, child_pid, source, overlap, open, failed)"
                       " VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
                       w->run, w, window_cols, NCOLS(window_cols), "storing a window", e);
}
