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
#include "store_runfacts.h"

enum app_triage_attr {
    /* each from the run's facts (run_facts column in brackets) */
    TRI_VERSION,     /* server and version, "redis 7.0.15" (server_kind, server_version) */
    TRI_KERNEL,      /* kernel release (kernel_release) */
    TRI_THP_MODE,    /* THP enabled (thp_enabled) */
    TRI_THP_HEAP,    /* AnonHugePages > 0 at the first window's start: yes / no
                        (anon_huge_bytes) */
    TRI_OVERCOMMIT,  /* vm.overcommit_memory (vm_overcommit_memory) */
    TRI_DISKLESS,    /* repl-diskless-sync (repl_diskless_sync) */
    TRI_DATASET,     /* used_memory in a power-of-two bucket (used_memory) */
    TRI_KEYS,        /* keys of the largest keyspace db, a power-of-ten bucket (keys) */
    TRI_HOST,        /* run.json host (runs.host) */
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

/* Run r's values from its stored facts (run_facts, store_runfacts.h), or,
 * for a run without a row (a database from before them), the same facts
 * made now (runfacts.h) and not stored. */
int app_triage_load(cow_store *st, const cow_run_row *r, app_triage_facts *f, cow_err *e);
/* Run r's values from its facts v (the host from r). */
void app_triage_of(const cow_run_row *r, const cow_fact v[COW_RF_COUNT], app_triage_facts *f);

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

#endif
