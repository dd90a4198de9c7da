/* export_out.h -- `cowtail export`: where exported rows go, JSON lines
 * files (one per table) or ClickHouse's HTTP interface (batched INSERT ...
 * FORMAT TabSeparated), and the use case that sends them (app_export).
 *
 *     cow_xout *o = xout_jsonl(dir, &e)   or   xout_clickhouse(url, &e);
 *     xout_table(o, "deltas", &e);  xout_row(o, cols, v, n) ...;  xout_end(o, &e);
 *     xout_replace(o, version, &e);      ClickHouse: drop older versions
 *     xout_close(o);
 *
 * Rows are buffered up to XOUT_BATCH bytes per INSERT (or write). */
#ifndef COW_APP_EXPORT_OUT_H
#define COW_APP_EXPORT_OUT_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "store_fleet.h"

#define XOUT_BATCH (8u << 20)
#define XOUT_DATABASE "cowtail"

typedef struct cow_xout cow_xout;

int xout_jsonl(const char *dir, cow_xout **out, cow_err *e);
/* Connects, creates database `cowtail` and the tables of
 * schemas/clickhouse.sql when missing. */
int xout_clickhouse(const char *url, cow_xout **out, cow_err *e);
int xout_table(cow_xout *o, const char *table, cow_err *e);
/* A store_export_rows callback; ctx is the cow_xout. Nonzero on error
 * (the error is kept in the cow_xout, see xout_error). */
int xout_row(void *ctx, const char *const *cols, const cow_xval *v, int n);
int xout_end(cow_xout *o, cow_err *e);
/* ClickHouse: for every run exported by this process, delete the rows of
 * tables[] with an older export_version. No-op for JSON lines (the files
 * are rewritten whole). */
int xout_replace(cow_xout *o, const char *const *tables, int64_t version, cow_err *e);
/* The error a failed xout_row left. */
const cow_err *xout_error(const cow_xout *o);
long long xout_rows(const cow_xout *o);
void xout_close(cow_xout *o);

/* The export use case: every table of cow_export_tables (samples only
 * when asked) from st to one target, then the older versions dropped. */
typedef struct cow_export_opts {
    const char *clickhouse; /* URL of the HTTP interface, or NULL */
    const char *jsonl;      /* folder, or NULL (exactly one of the two) */
    int samples;            /* also the samples table */
    /* Called after each table with the rows it sent; may be NULL. */
    void (*on_table)(void *ctx, const char *table, long long rows);
    void *ctx;
} cow_export_opts;

typedef struct cow_export_result {
    long long rows;         /* rows sent over all tables */
    int64_t version;        /* the export_version they carry */
} cow_export_result;

int app_export(cow_store *st, const cow_export_opts *o, cow_export_result *r,
               cow_err *e);

#endif
