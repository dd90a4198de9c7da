/* triage.h -- what the failing runs of a fleet share that the passing
 * ones do not: per attribute (server version, kernel, THP...), how many
 * failing and how many passing runs have each value.
 *
 *     app_triage_facts f[n];  int failed[n];
 *     app_triage_load(st, &rows[i], &f[i], &e);      per run
 *     app_triage tr;
 *     app_triage_rank(f, failed, n, &tr);            pure
 *     tr.a[0] separates failing from passing best
 *     app_triage_release(&tr);
 *
 * The ranking (README "check"): a value's separation is its share among
 * the failing runs minus its share among the passing runs; an attribute's
 * is the largest of its values'. Attributes in decreasing separation (ties
 * in the order of enum app_triage_attr), values likewise (ties: more
 * failing runs, then the value's text). A value the captures do not give
 * is "unknown" and ranks like any other. */
#ifndef COW_APP_TRIAGE_H
#define COW_APP_TRIAGE_H

#include <stddef.h>

#include "err.h"
#include "store.h"

enum app_triage_attr {
    TRI_VERSION,     /* server and version, "redis 7.0.15" (INFO) */
    TRI_KERNEL,      /* kernel release (INFO os) */
    TRI_THP_MODE,    /* /sys/kernel/mm/transparent_hugepage/enabled */
    TRI_THP_HEAP,    /* AnonHugePages > 0 in the server's smaps: yes / no */
    TRI_OVERCOMMIT,  /* vm.overcommit_memory */
    TRI_DISKLESS,    /* repl-diskless-sync (CONFIG) */
    TRI_DATASET,     /* used_memory in a power-of-two bucket */
    TRI_KEYS,        /* keys of the largest keyspace db, a power-of-ten bucket */
    TRI_HOST,        /* run.json host */
    TRI_COUNT
};

/* Stable keys (JSON) and names (text), in enum order. */
extern const char *const app_triage_keys[TRI_COUNT];
extern const char *const app_triage_names[TRI_COUNT];

#define APP_TRIAGE_UNKNOWN "unknown"

/* One run's values, "unknown" when the captures do not say. */
typedef struct app_triage_facts {
    char v[TRI_COUNT][64];
} app_triage_facts;

/* Read run r's values from the store (INFO, CONFIG, kernel files). */
int app_triage_load(cow_store *st, const cow_run_row *r, app_triage_facts *f, cow_err *e);

/* "128-256 MiB" for a used_memory of 151 MiB; "unknown" for NaN or < 0. */
void app_triage_bucket(double bytes, char *buf, size_t n);
/* "100k-1M" for 300,000 keys; "0" for none; "unknown" for NaN or < 0. */
void app_triage_bucket10(double count, char *buf, size_t n);

typedef struct app_triage_value {
    char value[64];
    int failing, passing;   /* runs with this value */
    double separation;      /* failing/F - passing/P */
} app_triage_value;

typedef struct app_triage_row {
    int attr;               /* enum app_triage_attr */
    double separation;      /* the largest of its values' */
    app_triage_value *v;    /* owned, ranked */
    size_t nv;
} app_triage_row;

typedef struct app_triage {
    int failing, passing;   /* runs */
    app_triage_row a[TRI_COUNT]; /* ranked; empty (nattr 0) when no run fails */
    int nattr;
} app_triage;

/* Rank the attributes of runs f[0..n), failed[i] != 0 for a failing run. */
void app_triage_rank(const app_triage_facts *f, const int *failed, size_t n,
                     app_triage *out);
void app_triage_release(app_triage *t);

/* "Linux 6.1.0-18-amd64 x86_64" (INFO os) -> "6.1.0-18-amd64", cut at n. */
void app_kernel_release(const char *os, char *buf, size_t n);

#endif
