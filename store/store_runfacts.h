/* store_runfacts.h -- the facts of a run as columns: one table names them
 * and types them once, and drives the SQLite columns (run_facts, migration
 * 017), `runs --json`, the export's columns (schemas/clickhouse.sql's
 * run_facts, JSON lines' fields). Each fact has its value and the
 * file:line it came from (NAME_src); NULL when the captures do not say.
 * A server's own facts (version, memory, fork, CONFIG...) are kept per
 * server of the run too (server_facts, migration 020: a primary and its
 * replicas), from the same table.
 *
 *     cow_fact v[COW_RF_COUNT];             filled by app/runfacts.c
 *     store_run_facts_put(st, run, v, &e);
 *     store_run_facts_get(st, run, v, &present, &e);
 *     cow_rf_cols[i].name, .type, .ch_type */
#ifndef COW_STORE_RUNFACTS_H
#define COW_STORE_RUNFACTS_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "fact.h"

typedef struct cow_store cow_store;

enum cow_rf_type { COW_RF_TEXT, COW_RF_INT };

enum cow_rf_id {
    RF_SERVER_KIND, RF_SERVER_VERSION, RF_ROLE, RF_KERNEL, RF_THP_ENABLED,
    RF_THP_DEFRAG, RF_ANON_HUGE, RF_USED_MEMORY, RF_MAXMEMORY, RF_KEYS,
    RF_OVERCOMMIT, RF_SWAPPINESS, RF_DISKLESS, RF_SAVE, RF_APPENDONLY,
    RF_FORK_USEC, RF_COW_BYTES, RF_PERSISTENCE,
    COW_RF_COUNT
};

typedef struct cow_rf_col {
    const char *name;    /* column (and JSON key); NAME_src its source */
    int type;            /* enum cow_rf_type: TEXT or INTEGER in SQLite */
    const char *ch_type; /* ClickHouse: Nullable(String) / Nullable(Int64) */
    const char *what;    /* one line, with the unit */
    int server;          /* 1: a server's own fact, per server too (server_facts);
                            0: the host's or the run's (run_facts only) */
} cow_rf_col;

/* COW_RF_COUNT rows, in enum cow_rf_id order. */
extern const cow_rf_col cow_rf_cols[COW_RF_COUNT];

/* "PREFIXname, PREFIXname_src, ..., PREFIXstored_at": every column of
 * run_facts but run, in the table's order. */
void store_run_facts_cols(char *buf, size_t cap, const char *prefix);
/* Replace run's row. v[i].known 0: NULL; an INT fact stores num rounded,
 * a TEXT fact text; src "" stores NULL. */
int store_run_facts_put(cow_store *st, int64_t run, const cow_fact v[COW_RF_COUNT],
                        cow_err *e);
/* Read run's row; *present 0 (and every v unknown) when it has none. */
int store_run_facts_get(cow_store *st, int64_t run, cow_fact v[COW_RF_COUNT],
                        int *present, cow_err *e);

/* Run `run`'s id, label, mode and host (the rest zero or unknown), one row
 * the caller frees with store_free_runs(*out, 1). */
struct cow_run_row;
int store_run_facts_row(cow_store *st, int64_t run, struct cow_run_row **out, cow_err *e);

/* The server's (not a fork child's) stat source/key as it was at t_us:
 * the last value stamped at or before it, else the first after it. */
int store_fact_stat_at(cow_store *st, int64_t run, const char *source, const char *key,
                       int64_t t_us, cow_fact *f, cow_err *e);

/* How a fact is read (store_server_fact): a, b the key. */
enum cow_sfact_how {
    COW_SF_INFO_LAST,    /* INFO / CONFIG field a, the last one */
    COW_SF_INFO_SUB_MAX, /* the largest sub-field b of INFO fields a* (db0 keys) */
    COW_SF_STAT_AT,      /* stat source a, key b at t_us (store_fact_stat_at) */
    COW_SF_EVENT_MAX,    /* the largest value of log event kind a */
    COW_SF_EVENT_FIRST   /* the first log event of kind a (server 0: the run's) */
};
/* A fact of server `server` (servers.seq) of run `run`, read from its own
 * files (a log: its pids' lines); server 0: the run's, the primary's side
 * as the doctor reads it (store_fact_info_last ...). */
int store_server_fact(cow_store *st, int64_t run, int server, int how, const char *a,
                      const char *b, int64_t t_us, cow_fact *f, cow_err *e);

/* server_facts: a server's own facts (cow_rf_cols[i].server), one row per
 * server of a run, the same columns as run_facts' (NAME, NAME_src) and
 * stored_at: "PREFIXname, PREFIXname_src, ..., PREFIXstored_at". */
void store_server_facts_cols(char *buf, size_t cap, const char *prefix);
/* Replace server `server`'s row of run `run` (v as store_run_facts_put;
 * the facts not of a server are not stored). */
int store_server_facts_put(cow_store *st, int64_t run, int server,
                           const cow_fact v[COW_RF_COUNT], cow_err *e);
int store_server_facts_get(cow_store *st, int64_t run, int server, cow_fact v[COW_RF_COUNT],
                           int *present, cow_err *e);
/* (store_clear_run_rows(st, "server_facts", run, e), store_answers.h,
 * removes a run's rows: its servers' seqs are settled again.) */

#endif
