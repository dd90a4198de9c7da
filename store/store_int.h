/* store_int.h -- what the store's files share and nobody else sees: the
 * connection struct, the prepared-statement enum (texts in store.c) and
 * the bind/column helpers. Only the files of store/ include this. */
#ifndef COW_STORE_STORE_INT_H
#define COW_STORE_STORE_INT_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include <sqlite3.h>
#include <stddef.h>

#include "err.h"
#include "mem.h"
#include "store.h"

/* Sample rows per multi-row INSERT: run and file are bound once (?1, ?2),
 * each row binds 4 values, so 512 rows bind 2,050 values (< 32,766).
 * Measured with bench/ingest.sh: 512 rows and 16 KiB pages cut the
 * writer's time by about a fifth against 64 rows and 4 KiB pages. */
#define STORE_ROW_BINDS 5
#define STORE_ROWS 512
/* INFO rows per multi-row INSERT (store_add_infos): 8 values a row. */
#define STORE_INFO_BINDS 8
#define STORE_INFO_ROWS 64

/* The prepared statements, st->stmt[SQL_...]; their texts are sql_text in
 * store.c. */
enum {
    SQL_RUN_FIND,
    SQL_RUN_ADD,
    SQL_RUN_META,
    SQL_FILE_SEEN,
    SQL_FILE_SIZE,
    SQL_FILE_ADD,
    SQL_FILE_END,
    SQL_OP_FIND,
    SQL_OP_ADD,
    SQL_SAMPLE_1,
    SQL_SAMPLE_N,
    SQL_REJECT,
    SQL_EVENT,
    SQL_INFO,
    SQL_INFO_N,
    SQL_STAT,
    SQL_MEM,
    SQL_LATMON,
    SQL_PROC,
    SQL_QUIET,
    SQL_LOAD_QUIET,
    SQL_INTERVAL,
    SQL_PCTL,
    SQL_RUNS,
    SQL_LOAD_SAMPLES,
    SQL_SAMPLE_BOUNDS,
    SQL_LOAD_PCTL,
    SQL_LOAD_PCTL_SERIES,
    SQL_LOAD_LAT,
    SQL_LOAD_EVENTS,
    SQL_LOAD_PRIMARY_EVENTS,
    SQL_HAS_SERVERS,
    SQL_LOAD_SERVER_EVENTS,
    SQL_LOAD_INFO,
    SQL_LOAD_CHILD_STAT,
    SQL_DEL_ANALYSIS,
    SQL_DEL_PHASES,
    SQL_DEL_QUANTILES,
    SQL_DEL_DELTAS,
    SQL_DEL_EXCEED,
    SQL_PUT_ANALYSIS,
    SQL_PUT_PHASE,
    SQL_PUT_QUANTILE,
    SQL_PUT_DELTA,
    SQL_PUT_EXCEED,
    SQL_FACT_INFO_LAST,
    SQL_FACT_INFO_MAX,
    SQL_FACT_INFO_AT,
    SQL_FACT_INFO_SUB_MAX,
    SQL_FACT_STAT_MAX,
    SQL_FACT_STAT_LAST,
    SQL_FACT_EVENT_COUNT,
    SQL_FACT_EVENT_MAX,
    SQL_FACT_LATMON,
    SQL_FACT_LATMON_THP,
    SQL_FACT_LATMON_SPIKE,
    SQL_FACT_LATMON_CMD,
    SQL_LOAD_MEM,
    SQL_LOAD_KSTAT,
    SQL_LOAD_CMDHIST,
    SQL_MEM_SOURCE,
    SQL_LOAD_INTERVALS,
    SQL_RES_ANALYSIS,
    SQL_RES_PHASES,
    SQL_RES_QUANTILES,
    SQL_RES_DELTAS,
    SQL_RES_EXCEED,
    SQL_DEL_FINDINGS,
    SQL_PUT_FINDING,
    SQL_LOAD_FINDINGS,
    SQL_ADD_REFUSAL,
    SQL_FACT_REFUSALS,
    SQL_BEGIN,
    SQL_COMMIT,
    SQL_ROLLBACK,
    SQL_COUNT
};

typedef struct opcache {
    const char *name;   /* the caller's pointer (interned by the parser) */
    char *copy;         /* our copy, to compare when the pointer differs */
    int64_t id;         /* ops.id */
} opcache;

/* Ad-hoc statements kept prepared (prep / unprep): at most this many. */
#define STORE_ADHOC 64

struct cow_store {
    sqlite3 *db;                 /* the connection */
    sqlite3_stmt *stmt[SQL_COUNT]; /* prepared statements */
    sqlite3_stmt *adhoc[STORE_ADHOC]; /* prep's, by their SQL text */
    int adhoc_busy[STORE_ADHOC]; /* handed out and not given back yet */
    int nadhoc;
    opcache *ops;                /* op name -> id, small */
    size_t nops, capops;
    int64_t seq_file;            /* file whose samples are being numbered */
    int64_t seq;                 /* last samples.seq given in that file */
    cow_store_wait_fn wait;      /* told when a lock makes us wait, or NULL */
    void *wait_ctx;              /* its argument */
    int busy_ms;                 /* how long a writer waits for another */
    char holder[128];            /* who held the lock when we gave up, or "" */
    int gave_up;                 /* the busy handler gave up (waited busy_ms) */
    int full;                    /* opened for reading on a full file system */
    char *path;                  /* database path, whole (owned): the wait
                                    notice, a second connection */
    int latency_from;            /* enum cow_latency_from: which reading
                                    the sample loads give */
    int64_t alt_run;             /* the run alt_max_us is of, or 0 */
    int64_t alt_max_us;          /* its largest |alt_us| */
};

/* "database is locked by pid N (name)..." (store.c). */
int store_busy_fail(cow_store *st, cow_err *e, const char *what);

/* Copy SQLite's message into e. */
static inline int sql_fail(cow_store *st, cow_err *e, const char *what)
{
    if (sqlite3_errcode(st->db) == SQLITE_BUSY)
        return store_busy_fail(st, e, what);
    if (sqlite3_errcode(st->db) == SQLITE_FULL || st->full)
        return COW_FAIL(e, COW_ESQL, "%s: %s: the file system of %s is full: free "
                        "space and try again (commands that only read still work)",
                        what, sqlite3_errmsg(st->db), st->path);
    return COW_FAIL(e, COW_ESQL, "%s: %s", what, sqlite3_errmsg(st->db));
}

/* Run a prepared statement that returns no rows. */
static inline int step_done(cow_store *st, sqlite3_stmt *q, cow_err *e, const char *what)
{
    int rc = sqlite3_step(q);
    sqlite3_reset(q);
    sqlite3_clear_bindings(q);
    if (rc != SQLITE_DONE)
        return sql_fail(st, e, what);
    return COW_OK;
}

/* NULL for a NULL string; the text must outlive the step. */
static inline void bind_text(sqlite3_stmt *q, int i, const char *s)
{
    if (s)
        sqlite3_bind_text(q, i, s, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(q, i);
}

/* NULL for NaN. */
static inline void bind_num(sqlite3_stmt *q, int i, double v)
{
    if (isnan(v))
        sqlite3_bind_null(q, i);
    else
        sqlite3_bind_double(q, i, v);
}

/* NULL for 0 (no time). */
static inline void bind_t(sqlite3_stmt *q, int i, int64_t t)
{
    if (t)
        sqlite3_bind_int64(q, i, t);
    else
        sqlite3_bind_null(q, i);
}

/* A REAL column, NaN for NULL. */
static inline double col_num(sqlite3_stmt *q, int i)
{
    return sqlite3_column_type(q, i) == SQLITE_NULL ? NAN : sqlite3_column_double(q, i);
}

/* A TEXT column as an owned string, NULL for NULL. */
static inline char *col_dup(sqlite3_stmt *q, int i)
{
    const unsigned char *s = sqlite3_column_text(q, i);
    return s ? xstrdup((const char *)s) : NULL;
}

/* Ad-hoc statements (run once per file or per run): prepared on first use
 * and kept by their SQL text (ingest runs the same ones for every file:
 * parsing them again was a few per cent of its writer's time); given back
 * with unprep, never sqlite3_finalize. A statement still handed out is
 * not handed out again (a nested use gets one of its own). */
static inline int prep(cow_store *st, const char *sql, sqlite3_stmt **q, cow_err *e)
{
    int i;

    for (i = 0; i < st->nadhoc; i++)
        if (!st->adhoc_busy[i] && strcmp(sqlite3_sql(st->adhoc[i]), sql) == 0) {
            st->adhoc_busy[i] = 1;
            *q = st->adhoc[i];
            return COW_OK;
        }
    if (sqlite3_prepare_v2(st->db, sql, -1, q, NULL) != SQLITE_OK)
        return sql_fail(st, e, "preparing a query");
    if (st->nadhoc < STORE_ADHOC) {
        st->adhoc_busy[st->nadhoc] = 1;
        st->adhoc[st->nadhoc++] = *q;
    }
    return COW_OK;
}

/* Give back what prep handed out (NULL is allowed): reset and kept, or
 * finalized when the cache was full. */
static inline void unprep(cow_store *st, sqlite3_stmt *q)
{
    int i;

    if (q == NULL)
        return;
    for (i = 0; i < st->nadhoc; i++)
        if (st->adhoc[i] == q) {
            sqlite3_reset(q);
            sqlite3_clear_bindings(q);
            st->adhoc_busy[i] = 0;
            return;
        }
    sqlite3_finalize(q);
}


/* A TEXT column, "" for NULL (valid until the next step). */
static inline const char *col_text(sqlite3_stmt *q, int i)
{
    const unsigned char *t = sqlite3_column_text(q, i);
    return t ? (const char *)t : "";
}

/* ------------------------------------------------ column tables
 * A row struct bound to a statement's parameters (and read back, in
 * store_results.c) by a table of its fields: where each is, its C type and
 * when it is NULL (store_cols.c). */
enum col_type {
    COL_INT,  /* int */
    COL_I64,  /* int64_t */
    COL_DBL,  /* double, never NULL */
    COL_NUM,  /* double, NULL for NaN */
    COL_TEXT, /* const char *, NULL for NULL */
    COL_T,    /* int64_t, NULL for 0 (no time) */
    COL_NZ,   /* long, NULL for 0 (not known) */
    COL_STEP, /* int64_t, NULL for 0 or INT64_MIN (a step not seen) */
    COL_STR0  /* const char *, "" for NULL */
};

typedef struct col_desc {
    size_t off;          /* offsetof the field */
    size_t size;         /* sizeof the field, checked against the type */
    enum col_type type;
} col_desc;

#define COL(row, field, type) {offsetof(row, field), sizeof(((row *)0)->field), type}
#define NCOLS(t) (sizeof(t) / sizeof((t)[0]))

/* The first entry of a column table whose field size is not its type's,
 * or n when all fit. */
size_t store_cols_bad(const col_desc *c, size_t n);

/* Bind row's fields by the column table c to parameters first, first + 1,
 * ... of q; COW_EINTERNAL (what named) when a field's size is not its
 * type's. */
int store_bind_cols(sqlite3_stmt *q, int first, const void *row, const col_desc *c, size_t n,
                    const char *what, cow_err *e);

#endif
