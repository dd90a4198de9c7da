/* runfacts.h -- the facts of a run as columns (store_runfacts.h), made
 * from what the doctor gathered (facts.h) and kept in run_facts. */
#ifndef COW_APP_RUNFACTS_H
#define COW_APP_RUNFACTS_H

#include "diag.h"
#include "store.h"
#include "store_runfacts.h"

/* v[COW_RF_COUNT] of run r, whose doctor's facts are f. */
int app_run_facts(cow_store *st, const cow_run_row *r, const cow_run_facts *f,
                  cow_fact v[COW_RF_COUNT], cow_err *e);
/* The same, stored (replacing r's row; the caller holds a transaction). */
int app_run_facts_store(cow_store *st, const cow_run_row *r, const cow_run_facts *f,
                        cow_err *e);

#endif
