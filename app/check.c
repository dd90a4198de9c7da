/* check.c -- thresholds and the evaluation of a run (check.h). */
#include "check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "boot.h"
#include "facts.h"
#include "pct.h"
#include "runstats.h"
#include "src.h"

const char *const app_th_keys[TH_COUNT] = {
    "max_p999_lift_ms", "max_p99_lift_ms", "max_p99_ms", "max_p999_ms",
    "max_cow_fraction", "max_fork_ms", "require_thp_off", "min_samples"};


int app_load_thresholds(const char *path, app_thresholds *t, cow_err *e)
{
    cow_src s;
    char *text = NULL;
    size_t n = 0;
    cJSON *root;
    const cJSON *it;
    int rc, k;

    memset(t, 0, sizeof(*t));
    if ((rc = src_open_file(&s, path, e)) != COW_OK)
        return rc;
    rc = src_read_all_max(&s, COW_MAX_META_FILE_BYTES, &text, &n, e);
    src_close(&s);
    if (rc != COW_OK)
        return rc;
    root = cJSON_ParseWithLength(text, n);
    free(text);
    if (!cJSON_IsObject(root)) {
        cJSON_Delete(root);
        cow_err_at(e, path, 0, 0);
        return COW_FAIL(e, COW_EPARSE, "thresholds must be a JSON object "
                        "(see schemas/thresholds.schema.json)");
    }
    for (it = root->child; it; it = it->next) {
        for (k = 0; k < TH_COUNT; k++)
            if (strcmp(it->string, app_th_keys[k]) == 0)
                break;
        if (k == TH_COUNT || (k == TH_THP ? !cJSON_IsBool(it) : !cJSON_IsNumber(it)) ||
            (k != TH_THP && it->valuedouble < 0)) {
            cow_err_at(e, path, 0, 0);
            rc = COW_FAIL(e, COW_EPARSE, k == TH_COUNT
                          ? "unknown key \"%s\" (see schemas/thresholds.schema.json)"
                          : "\"%s\" must be a %s", it->string,
                          k == TH_THP ? "boolean" : "non-negative number");
            cJSON_Delete(root);
            return rc;
        }
        t->set[k] = 1;
        t->v[k] = k == TH_THP ? cJSON_IsTrue(it) : it->valuedouble;
    }
    cJSON_Delete(root);
    return COW_OK;
}


/* Whole-run quantile: the estimate when a two-sided interval exists, else
 * the one-sided lower bound (so a thin tail fails only when even its
 * lower bound is over the limit). */
static double run_quantile(const double *v, size_t n, double q, int *bound)
{
    cow_qci ci;
    *bound = 0;
    if (n == 0 || pct_quantile_ci(v, n, q, 0.95, &ci, NULL) != COW_OK)
        return NAN;
    if (!ci.has_hi) {
        *bound = 1;
        return ci.has_lo ? ci.lo : NAN;
    }
    return pct_quantile(v, n, q, COW_PCT_LINEAR);
}

static void judge(app_verdict *x, double value, double limit, const char *unknown)
{
    x->value = value;
    if (isnan(value)) {
        x->state = 2;
        snprintf(x->note, sizeof(x->note), "%s", unknown);
    } else {
        x->state = value > limit;
    }
}

int app_check_run(cow_store *st, const cow_run_row *r, const app_thresholds *t,
                  app_verdict out[TH_COUNT], cow_err *e)
{
    cow_run_facts f;
    int64_t *ts = NULL;
    double *lat = NULL;
    size_t n = 0;
    int rc, k, bound;
    double v;

    for (k = 0; k < TH_COUNT; k++) {
        out[k].state = 2;
        out[k].value = NAN;
        out[k].note[0] = '\0';
    }
    if ((rc = facts_load(st, r, &f, e)) != COW_OK ||
        (rc = store_load_samples(st, r->id, &ts, &lat, &n, e)) != COW_OK)
        return rc;
    runstats_sort(lat, n);
    if (t->set[TH_P999_LIFT] || t->set[TH_P99_LIFT]) {
        int ks[2] = {TH_P999_LIFT, TH_P99_LIFT}, ls[2] = {3, 2}, j;
        for (j = 0; j < 2; j++) {
            app_verdict *x = &out[ks[j]];
            const cow_window_fact *w = &f.worst;
            if (!w->present) {
                snprintf(x->note, sizeof(x->note), "no window compared with a baseline");
                continue;
            }
            x->value = w->delta_us[ls[j]] / 1000;
            x->state = w->verdict[ls[j]] == COW_VERDICT_LIFT && x->value > t->v[ks[j]];
            snprintf(x->note, sizeof(x->note), "%s, 95%% CI %+.3f to %+.3f ms, %s",
                     w->label, w->lo_us[ls[j]] / 1000, w->hi_us[ls[j]] / 1000,
                     boot_verdict_symbol(w->verdict[ls[j]]));
        }
    }
    v = run_quantile(lat, n, 0.99, &bound) / 1000;
    judge(&out[TH_P99], v, t->v[TH_P99], "no samples");
    if (bound)
        snprintf(out[TH_P99].note, sizeof(out[TH_P99].note), "lower bound (n=%zu)", n);
    v = run_quantile(lat, n, 0.999, &bound) / 1000;
    judge(&out[TH_P999], v, t->v[TH_P999], "no samples");
    if (bound)
        snprintf(out[TH_P999].note, sizeof(out[TH_P999].note), "lower bound (n=%zu)", n);
    v = NAN;
    if (f.used_memory.known && f.used_memory.num > 0) {
        if (f.rdb_last_cow_size.known && f.rdb_last_cow_size.num >= 0)
            v = f.rdb_last_cow_size.num / f.used_memory.num;
        else if (f.cow_mb.known)
            v = f.cow_mb.num * 1048576 / f.used_memory.num;
    }
    judge(&out[TH_COW], v, t->v[TH_COW], "no COW size or used_memory captured");
    v = f.latest_fork_usec.known ? f.latest_fork_usec.num / 1000 : NAN;
    judge(&out[TH_FORK], v, t->v[TH_FORK], "no latest_fork_usec captured");
    if (f.anon_huge.known) {
        out[TH_THP].value = f.anon_huge.num;
        out[TH_THP].state = t->v[TH_THP] != 0 && f.anon_huge.num > 0;
        snprintf(out[TH_THP].note, sizeof(out[TH_THP].note), "AnonHugePages %.0f bytes",
                 f.anon_huge.num);
    } else {
        snprintf(out[TH_THP].note, sizeof(out[TH_THP].note), "no smaps captured");
    }
    out[TH_MIN_N].value = (double)n;
    out[TH_MIN_N].state = (double)n < t->v[TH_MIN_N];
    free(ts);
    free(lat);
    return COW_OK;
}

