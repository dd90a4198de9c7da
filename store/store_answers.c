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
    sqlite3_bind_int(q, 2, a->say);
    bind_text(q, 3, a->quiet);
    bind_text(q, 4, a->line ? a->line : "");
    bind_text(q, 5, a->window);
    bind_text(q, 6, a->kind);
    if (a->window) {
        sqlite3_bind_int64(q, 7, a->t0_us);
        sqlite3_bind_int64(q, 8, a->len_us);
    }
    sqlite3_bind_int(q, 9, a->nwindows);
    bind_text(q, 10, a->verdict);
    bind_text(q, 11, a->method);
    bind_num(q, 12, a->base_p999_us);
    bind_num(q, 13, a->window_p999_us);
    bind_num(q, 14, a->delta_us);
    bind_num(q, 15, a->delta_lo_us);
    bind_num(q, 16, a->delta_hi_us);
    bind_num(q, 17, a->worst_us);
    bind_num(q, 18, a->fork_ms);
    bind_num(q, 19, a->cow_mb);
    bind_num(q, 20, a->cow_pct_used);
    bind_text(q, 21, a->thp);
    bind_text(q, 22, a->transfer);
    bind_text(q, 23, a->cause);
    bind_text(q, 24, a->gate);
    bind_text(q, 25, a->gate_why);
    bind_text(q, 26, a->todo);
    bind_text(q, 27, a->todo_rule);
    gettimeofday(&tv, NULL);
    sqlite3_bind_int64(q, 28, (int64_t)tv.tv_sec * 1000000 + tv.tv_usec);
    rc = sqlite3_step(q);
    unprep(st, q);
    return rc == SQLITE_DONE ? COW_OK : sql_fail(st, e, "storing a run's answer");
}


/* A step's time: NULL when not seen. */
static void bind_step(sqlite3_stmt *q, int i, int64_t t)
{
    bind_t(q, i, t == INT64_MIN ? 0 : t);
}

int store_put_repl_sync(cow_store *st, const cow_repl_sync_row *s, cow_err *e)
{
    sqlite3_stmt *q;
    int rc;

    if ((rc = prep(st,
                   "INSERT OR REPLACE INTO repl_syncs(run, server, attempt, pid, port,"
                   " attach_line, mode, outcome, attach_us, resync_us, recv_us, recv_end_us,"
                   " flush_us, load_us, up_us, lost_us, bytes, attach_to_up_s, wait_s,"
                   " transfer_s, flush_s, load_s) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9,"
                   " ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22)",
                   &q, e)) != COW_OK)
        return rc;
    sqlite3_bind_int64(q, 1, s->run);
    sqlite3_bind_int(q, 2, s->server);
    sqlite3_bind_int(q, 3, s->attempt);
    bind_t(q, 4, s->pid);
    bind_t(q, 5, s->port);
    bind_t(q, 6, s->attach_line);
    bind_text(q, 7, s->mode);
    bind_text(q, 8, s->outcome);
    bind_step(q, 9, s->attach_us);
    bind_step(q, 10, s->resync_us);
    bind_step(q, 11, s->recv_us);
    bind_step(q, 12, s->recv_end_us);
    bind_step(q, 13, s->flush_us);
    bind_step(q, 14, s->load_us);
    bind_step(q, 15, s->up_us);
    bind_step(q, 16, s->lost_us);
    bind_num(q, 17, s->bytes);
    bind_num(q, 18, s->attach_to_up_s);
    bind_num(q, 19, s->wait_s);
    bind_num(q, 20, s->transfer_s);
    bind_num(q, 21, s->flush_s);
    bind_num(q, 22, s->load_s);
    rc = sqlite3_step(q);
    unprep(st, q);
    return rc == SQLITE_DONE ? COW_OK : sql_fail(st, e, "storing a replica sync");
}


int store_put_window(cow_store *st, const cow_window_row *w, cow_err *e)
{
    sqlite3_stmt *q;
    int rc;

    if ((rc = prep(st,
                   "INSERT OR REPLACE INTO windows(run, idx, kind, label, t0_us, t1_us, fork_us,"
                   " child_pid, source, overlap, open, failed)"
                   " VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
                   &q, e)) != COW_OK)
        return rc;
    sqlite3_bind_int64(q, 1, w->run);
    sqlite3_bind_int(q, 2, w->idx);
    bind_text(q, 3, w->kind);
    bind_text(q, 4, w->label ? w->label : "");
    sqlite3_bind_int64(q, 5, w->t0_us);
    sqlite3_bind_int64(q, 6, w->t1_us);
    bind_t(q, 7, w->fork_us);
    bind_t(q, 8, w->child_pid);
    bind_text(q, 9, w->source);
    sqlite3_bind_int(q, 10, w->overlap);
    sqlite3_bind_int(q, 11, w->open);
    sqlite3_bind_int(q, 12, w->failed);
    rc = sqlite3_step(q);
    unprep(st, q);
    return rc == SQLITE_DONE ? COW_OK : sql_fail(st, e, "storing a window");
}
