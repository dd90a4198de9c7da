/* store_fleet.h -- the store's side of a fleet: combining per-host databases
 * (store_merge) and reading the rows that leave SQLite (store_export_*).
 *
 *     cow_merge_stats ms;
 *     store_merge(out, "hostB.db", &opt, &ms, &e);   one transaction per input
 *
 *     store_export_rows(st, "deltas", version, row_cb, ctx, &e);
 *
 * Merge identity (README "Fleet"): a run is the same run when it has the
 * same label and the same host; a run whose label is taken by a run of
 * another host comes in as "HOST/label" (the input's file name stands in
 * for an unknown host). A file is already there when the same run holds a
 * file with the same name (last path component) and SHA-256; one with the
 * same name and another SHA-256 is refused, as ingest refuses it. */
#ifndef COW_STORE_STORE_FLEET_H
#define COW_STORE_STORE_FLEET_H

#include <stdint.h>

#include "err.h"
#include "store.h"

typedef struct cow_merge_opts {
    int results_only;  /* leave samples behind (files marked partial) */
    /* Called once per input run: its label, the label it has in OUT, and
     * whether the run is new in OUT. May be NULL. */
    void (*on_run)(void *ctx, const char *src_label, const char *dst_label,
                   int is_new);
    void *ctx;
    /* Called per input file refused: the run here already holds a file
     * of its name with other bytes (ingest's rule: grown or changed since
     * one of them was ingested). Its rows stay out. May be NULL. */
    void (*on_refused)(void *ctx, const char *label, const char *path);
    /* VM steps the merge of one input may take before it is stopped as a
     * runaway; 0: the default, from the two files' sizes (merge.c). */
    long long budget_steps;
} cow_merge_opts;

typedef struct cow_merge_stats {
    long runs_new, runs_existing, runs_renamed;
    long files_new;        /* files copied */
    long files_skipped;    /* already in OUT */
    long files_refused;    /* same name in the same run, other bytes: left out */
    long files_completed;  /* in OUT as partial, samples brought now */
    long long samples;     /* sample rows copied */
    long results;          /* runs whose results (phases...) were copied */
    long stale;            /* runs that got new files but kept OUT's results */
} cow_merge_stats;

/* Merge the database at in_path into out. The input is read-only data:
 * refused (COW_EUSAGE, nothing merged, the message names the file and says
 * what to do) when it is not a cowtail database of the same schema version
 * (older, newer, none), when a table merge reads is a view, has other
 * columns, or a view or trigger this build does not write is there, when
 * it is damaged, or when a statement runs past the step budget. */
int store_merge(cow_store *out, const char *in_path, const cow_merge_opts *opt,
                cow_merge_stats *ms, cow_err *e);

/* A value of an exported row. */
typedef enum { COW_XNULL, COW_XINT, COW_XREAL, COW_XTEXT } cow_xtype;
typedef struct cow_xval {
    cow_xtype type;
    int64_t i;
    double d;
    const char *s;   /* valid during the callback */
    size_t n;        /* bytes of s */
} cow_xval;

/* The tables that leave SQLite, in export order; samples last. */
extern const char *const cow_export_tables[];

/* Call row() for every row of export table `table` (a name from
 * cow_export_tables), each with the columns named by cols[0..ncols). Every
 * row starts with host (text, '' when unknown), run (the run label) and
 * export_version (the given version). row() returns 0 to go on. */
typedef int (*cow_xrow_fn)(void *ctx, const char *const *cols, const cow_xval *v,
                           int ncols);
int store_export_rows(cow_store *st, const char *table, int64_t version,
                      cow_xrow_fn row, void *ctx, cow_err *e);
/* The export mark, table COW_EXPORT_MARK: sent after every other table
 * landed, one row per run (host, run, export_version, tables: the tables
 * sent, comma-separated). A version without its mark is incomplete: an
 * export interrupted half-way leaves none, and a query reads the newest
 * marked version. */
#define COW_EXPORT_MARK "exports"
int store_export_mark(cow_store *st, int64_t version, const char *tables, cow_xrow_fn row,
                      void *ctx, cow_err *e);

#endif
