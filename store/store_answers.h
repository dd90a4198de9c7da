/* store_answers.h -- what the report decides per run, kept for the export:
 * the answer of each run (app/answer.c decides it; table answers) and each
 * replica's sync attempts (app/replsync.c; table repl_syncs) and the windows
 * a judgement reads (table windows), migration 020.
 *
 *     store_put_answer(st, &row, &e);               replaces the run's
 *     store_clear_run_rows(st, "repl_syncs", run, &e);  store_put_repl_sync(st, &s, &e); */
#ifndef COW_STORE_ANSWERS_H
#define COW_STORE_ANSWERS_H

#include <stdint.h>

#include "err.h"

typedef struct cow_store cow_store;

/* Strings borrowed (NULL: NULL); numbers NaN: NULL; times 0: NULL. */
typedef struct cow_answer_row {
    int64_t run;
    int say;
    const char *quiet, *line;
    const char *window, *kind;
    int64_t t0_us, len_us;
    int nwindows;
    const char *verdict, *method;
    double base_p999_us, window_p999_us, delta_us, delta_lo_us, delta_hi_us, worst_us;
    double fork_ms, cow_mb, cow_pct_used;
    const char *thp, *transfer, *cause, *gate, *gate_why, *todo, *todo_rule;
} cow_answer_row;

/* Remove run's rows of table (server_facts, repl_syncs or windows), before
 * storing them again. */
int store_clear_run_rows(cow_store *st, const char *table, int64_t run, cow_err *e);

/* Replace run a->run's answer (the caller holds a transaction or not). */
int store_put_answer(cow_store *st, const cow_answer_row *a, cow_err *e);

/* One sync attempt of replica `server` (times INT64_MIN or 0: not seen). */
typedef struct cow_repl_sync_row {
    int64_t run;
    int server, attempt;
    int64_t pid, port;             /* 0: unknown */
    long attach_line;              /* 0: unknown */
    const char *mode, *outcome;    /* mode NULL: unknown */
    int64_t attach_us, resync_us, recv_us, recv_end_us, flush_us, load_us, up_us, lost_us;
    double bytes, attach_to_up_s, wait_s, transfer_s, flush_s, load_s;
} cow_repl_sync_row;


/* A window of run `run` (table windows): phase idx of the run's phases. */
typedef struct cow_window_row {
    int64_t run;
    int idx;
    const char *kind, *label, *source; /* source NULL: NULL */
    int64_t t0_us, t1_us, fork_us;     /* fork_us 0: NULL */
    long child_pid;                    /* 0: NULL */
    int overlap, open, failed;
} cow_window_row;

int store_put_window(cow_store *st, const cow_window_row *w, cow_err *e);
int store_put_repl_sync(cow_store *st, const cow_repl_sync_row *s, cow_err *e);

#endif
