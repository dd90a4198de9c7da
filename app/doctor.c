/* doctor.c -- gather facts, run the doctor's rules and store the findings
 * (doctor.h). Facts come from the store (facts.c), rules are pure
 * (analysis/diag_rules.c). */
#include "doctor.h"
#include "runfacts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "facts.h"
#include "verdict.h"
#include "mem.h"

static void num_or_null(cJSON *o, const char *k, double v)
{
    if (isnan(v) || isinf(v))
        cJSON_AddNullToObject(o, k);
    else
        cJSON_AddNumberToObject(o, k, v);
}

cJSON *app_finding_json(const cow_finding *f)
{
    cJSON *o = cJSON_CreateObject(), *ev = cJSON_CreateArray(), *qs;
    int k;
    cJSON_AddStringToObject(o, "rule", f->rule);
    cJSON_AddStringToObject(o, "severity", diag_severity_name(f->severity));
    cJSON_AddStringToObject(o, "run", f->run);
    cJSON_AddStringToObject(o, "title", f->title);
    for (k = 0; k < f->nev; k++) {
        cJSON *x = cJSON_CreateObject();
        cJSON_AddStringToObject(x, "metric", f->ev[k].metric);
        cJSON_AddStringToObject(x, "value", f->ev[k].value);
        cJSON_AddStringToObject(x, "source", f->ev[k].src);
        cJSON_AddItemToArray(ev, x);
    }
    cJSON_AddItemToObject(o, "evidence", ev);
    qs = cJSON_AddArrayToObject(o, "quantiles");
    for (k = 0; k < f->nqs; k++) {
        const cow_qstat *s = &f->qs[k];
        cJSON *x = cJSON_CreateObject();
        cJSON_AddStringToObject(x, "quantile", s->quantile);
        cJSON_AddStringToObject(x, "window", s->window);
        cJSON_AddNumberToObject(x, "n", (double)s->n);
        cJSON_AddNumberToObject(x, "n_base", (double)s->base_n);
        num_or_null(x, "n_eff", s->n_eff);
        num_or_null(x, "n_eff_base", s->n_eff_base);
        cJSON_AddStringToObject(x, "method", qcmp_method_name(s->method));
        cJSON_AddStringToObject(x, "verdict", boot_verdict_name(s->verdict));
        cJSON_AddItemToArray(qs, x);
    }
    cJSON_AddStringToObject(o, "recommendation", f->advice);
    return o;
}

static int store_findings(cow_store *st, const cow_run_row *rows, size_t nrows,
                          const cow_findings *fs, cow_err *e)
{
    size_t i, j;
    int rc;

    if ((rc = store_begin(st, e)) != COW_OK)
        return rc;
    for (i = 0; i < nrows; i++) {
        int seq = 0;
        if ((rc = store_clear_findings(st, rows[i].id, e)) != COW_OK)
            goto fail;
        for (j = 0; j < fs->n; j++) {
            const cow_finding *f = &fs->v[j];
            cJSON *o;
            char *ev;
            if (strcmp(f->run, rows[i].label) != 0)
                continue;
            o = app_finding_json(f);
            ev = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(o, "evidence"));
            if (ev == NULL) {
                cJSON_Delete(o);
                rc = COW_FAIL(e, COW_EINTERNAL, "out of memory printing evidence");
                goto fail;
            }
            rc = store_put_finding(st, rows[i].id, seq++, f->rule,
                                   diag_severity_name(f->severity), f->title, ev,
                                   f->advice, e);
            free(ev);
            cJSON_Delete(o);
            if (rc != COW_OK)
                goto fail;
        }
    }
    return store_commit(st, e);
fail:
    store_rollback(st);
    return rc;
}

int app_doctor(cow_store *st, cow_run_row *rows, size_t n, cow_findings *out,
               cow_run_facts **facts_out, cow_err *e)
{
    cow_run_facts *facts = xcalloc(n ? n : 1, sizeof(*facts));
    size_t i;
    int rc = COW_OK;

    for (i = 0; rc == COW_OK && i < n; i++)
        rc = facts_load(st, &rows[i], &facts[i], e);
    if (rc == COW_OK) {
        diag_host_overlaps(facts, n);
        diag_run(facts, n, out);
        rc = store_findings(st, rows, n, out, e);
    }
    /* the facts as columns (run_facts), refreshed: ingest stored them when
     * the run's files landed; a database from before run_facts has none */
    if (rc == COW_OK && (rc = store_begin(st, e)) == COW_OK) {
        for (i = 0; rc == COW_OK && i < n; i++)
            rc = app_run_facts_store(st, &rows[i], e);
        if (rc == COW_OK)
            rc = store_commit(st, e);
        else
            store_rollback(st);
    }
    if (rc != COW_OK || facts_out == NULL)
        free(facts);
    else
        *facts_out = facts;
    return rc;
}

