/* runfacts.h -- the facts of a run as columns (store_runfacts.h), read
 * from the store as the doctor reads them, and kept in run_facts (and a
 * server's own facts per server, server_facts): stored
 * when a run's files have landed (ingest), refreshed when the doctor
 * runs; `check`'s triage, `runs --json` and the export read the stored row.
 *
 *     app_run_facts_landed(st, run_id, &e);        ingest, after a run's files
 *     app_run_facts(st, &row, v, &e);              made now, not stored */
#ifndef COW_APP_RUNFACTS_H
#define COW_APP_RUNFACTS_H

#include <stddef.h>

#include "store.h"
#include "store_runfacts.h"

/* v[COW_RF_COUNT] of run r (r->id and r->mode are read), from the store. */
int app_run_facts(cow_store *st, const cow_run_row *r, cow_fact v[COW_RF_COUNT], cow_err *e);
/* Run r's facts and its servers', stored (replacing r's rows; the caller
 * holds a transaction). */
int app_run_facts_store(cow_store *st, const cow_run_row *r, cow_err *e);
/* Run `run`'s facts made and stored in a transaction of their own. */
int app_run_facts_landed(cow_store *st, int64_t run, cow_err *e);

/* "Linux 6.1.0-18-amd64 x86_64" (INFO os) -> "6.1.0-18-amd64", cut at n. */
void app_kernel_release(const char *os, char *buf, size_t n);

#endif
