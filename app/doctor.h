/* doctor.h -- the doctor's use case: facts, rules, stored findings. */
#ifndef COW_APP_DOCTOR_H
#define COW_APP_DOCTOR_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "diag.h"
#include "err.h"
#include "store.h"

/* Gather facts, run the doctor's rules over rows[0..n) and store the
 * findings. *facts (when facts is not NULL) is the facts array, freed by
 * the caller; out is released with diag_release. */
int app_doctor(cow_store *st, cow_run_row *rows, size_t n, cow_findings *out,
               cow_run_facts **facts, cow_err *e);

/* One finding as JSON {rule, severity, run, title, evidence: [{metric,
 * value, source}], recommendation}; the caller deletes it. */
cJSON *app_finding_json(const cow_finding *f);

#endif
