/* store_checks.h -- the checks table (schemas/010_checks.sql): what
 * `cowtail check` decided, per run and per host, kept for export.
 *
 *     cow_check_row v[n] = {...};
 *     store_checks_replace(st, v, n, &e);   one transaction
 */
#ifndef COW_STORE_STORE_CHECKS_H
#define COW_STORE_STORE_CHECKS_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "store.h"

typedef struct cow_check_row {
    int64_t run;            /* runs.id; 0 for a host's pooled judgement */
    const char *host;       /* NULL when unknown */
    const char *scope;      /* "run" / "host" */
    const char *limit_name; /* key of the thresholds file */
    double limit_value;
    double value, p, p_adj; /* NaN: NULL */
    const char *verdict;    /* pass / fail / n/a */
    const char *method;     /* NULL: none */
    const char *correction; /* holm / bh */
    int64_t comparisons;    /* the family's size */
    const char *detail;
    int64_t runs;           /* runs behind the judgement */
    int64_t evaluated_us;   /* UTC epoch microseconds */
} cow_check_row;

/* Replace every row of the checks table by v[0..n): a check judges every
 * run of the database, so the rows of an earlier check all go. One
 * transaction: the table holds one check or the other, never a mix. */
int store_checks_replace(cow_store *st, const cow_check_row *v, size_t n, cow_err *e);

#endif
