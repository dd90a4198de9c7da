/* cmd_check.c -- `cowtail check`: the fleet gate. Every run against the
 * limits of a thresholds file (schemas/thresholds.schema.json). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "boot.h"
#include "capture.h"
#include "cli.h"
#include "commands.h"
#include "facts.h"
#include "mem.h"
#include "pct.h"
#include "runstats.h"
#include "src.h"

const char *const cmd_check_usage[] = {
    "usage: cowtail check --thresholds FILE [--db FILE] [--json] [CAPTURE...]",
    "",
    "Evaluate every run (capture folders given are ingested first) against",
    "the limits in FILE (JSON; keys: max_p999_lift_ms, max_p99_lift_ms,",
    "max_p99_ms, max_p999_ms, max_cow_fraction, max_fork_ms,",
    "require_thp_off, min_samples; see schemas/thresholds.schema.json).",
    "Prints one line per run and check (or --json).",
    "",
    "exit: 0 every run passes; 1 a run fails; 2 unusable input (bad",
    "thresholds file, no runs); 3 database or file system error.",
    NULL
};

enum { TH_P999_LIFT, TH_P99_LIFT, TH_P99, TH_P999, TH_COW, TH_FORK, TH_THP, TH_MIN_N, TH_COUNT };

static const char *const th_keys[TH_COUNT] = {
    "max_p999_lift_ms", "max_p99_lift_ms", "max_p99_ms", "max_p999_ms",
    "max_cow_fraction", "max_fork_ms", "require_thp_off", "min_samples"};

typedef struct thresholds {
    int set[TH_COUNT];     /* key present */
    double v[TH_COUNT];    /* limit (bool as 0/1) */
} thresholds;

static int load_thresholds(const char *path, thresholds *t, cow_err *e)
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
    rc = src_read_all(&s, &text, &n, e);
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
            if (strcmp(it->string, th_keys[k]) == 0)
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

typedef struct verdict {
    int state;            /* 0 pass, 1 fail, 2 not applicable */
    double value;         /* measured, NaN if unknown */
    char note[160];       /* why n/a, or the detail */
} verdict;

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

static void judge(verdict *x, double value, double limit, const char *unknown)
{
    x->value = value;
    if (isnan(value)) {
        x->state = 2;
        snprintf(x->note, sizeof(x->note), "%s", unknown);
    } else {
        x->state = value > limit;
    }
}

static int evaluate(cow_store *st, const cow_run_row *r, const thresholds *t,
                    verdict out[TH_COUNT], cow_err *e)
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
            verdict *x = &out[ks[j]];
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

static const char *state_name(int s)
{
    return s == 0 ? "pass" : s == 1 ? "FAIL" : "n/a";
}

int cmd_check(int argc, char **argv)
{
    static const struct option opts[] = {
        {"db", required_argument, NULL, 'd'},
        {"thresholds", required_argument, NULL, 't'},
        {"json", no_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    const char *db = COW_DEFAULT_DB, *tpath = NULL;
    cow_store *st = NULL;
    cow_err e = COW_ERR_INIT;
    cow_run_row *rows = NULL;
    thresholds t;
    size_t n = 0, i;
    int c, json = 0, k, code = EXIT_OK, failed = 0;
    cJSON *out = NULL;

    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'd': db = optarg; break;
        case 't': tpath = optarg; break;
        case 'j': json = 1; break;
        case 'h': cli_print_usage(stdout, cmd_check_usage); return EXIT_OK;
        default: cli_print_usage(stderr, cmd_check_usage); return EXIT_USAGE;
        }
    }
    if (tpath == NULL) {
        cli_errorf("check: --thresholds FILE is required");
        return EXIT_USAGE;
    }
    if (load_thresholds(tpath, &t, &e) != COW_OK) {
        cli_error(&e);
        return EXIT_USAGE;
    }
    if (store_open(db, &st, &e) != COW_OK) {
        cli_error(&e);
        return EXIT_IO;
    }
    if (optind < argc) {
        code = app_ingest_quiet(st, argv + optind, argc - optind, json ? stderr : stdout);
        if (code == EXIT_USAGE || code == EXIT_IO) {
            store_close(st);
            return code;
        }
        code = EXIT_OK; /* rejected lines were reported; the gate goes on */
    }
    if (store_list_runs(st, &rows, &n, &e) != COW_OK) {
        cli_error(&e);
        store_close(st);
        return EXIT_IO;
    }
    if (n == 0) {
        cli_errorf("check: no runs in %s (give capture folders)", db);
        store_close(st);
        return EXIT_USAGE;
    }
    if (json)
        out = cJSON_CreateArray();
    else
        printf("%-32s %-18s %-5s %12s  %s\n", "run", "check", "", "value", "detail");
    for (i = 0; i < n; i++) {
        verdict v[TH_COUNT];
        int run_failed = 0;
        cJSON *ro = NULL, *cs = NULL;
        if (evaluate(st, &rows[i], &t, v, &e) != COW_OK) {
            cli_error(&e);
            code = EXIT_IO;
            break;
        }
        if (json) {
            ro = cJSON_CreateObject();
            cs = cJSON_CreateArray();
            cJSON_AddStringToObject(ro, "run", rows[i].label);
            if (rows[i].host)
                cJSON_AddStringToObject(ro, "host", rows[i].host);
            else
                cJSON_AddNullToObject(ro, "host");
        }
        for (k = 0; k < TH_COUNT; k++) {
            if (!t.set[k])
                continue;
            run_failed |= v[k].state == 1;
            if (json) {
                cJSON *x = cJSON_CreateObject();
                cJSON_AddStringToObject(x, "check", th_keys[k]);
                cJSON_AddStringToObject(x, "result", v[k].state == 0 ? "pass"
                                        : v[k].state == 1 ? "fail" : "n/a");
                if (isnan(v[k].value))
                    cJSON_AddNullToObject(x, "value");
                else
                    cJSON_AddNumberToObject(x, "value", v[k].value);
                cJSON_AddNumberToObject(x, "limit", t.v[k]);
                cJSON_AddStringToObject(x, "detail", v[k].note);
                cJSON_AddItemToArray(cs, x);
            } else {
                char val[32] = "-";
                if (!isnan(v[k].value))
                    snprintf(val, sizeof(val), "%.3f", v[k].value);
                printf("%-32s %-18s %-5s %12s  limit %g%s%s\n", rows[i].label, th_keys[k],
                       state_name(v[k].state), val, t.v[k], v[k].note[0] ? "; " : "",
                       v[k].note);
            }
        }
        failed += run_failed;
        if (json) {
            cJSON_AddStringToObject(ro, "result", run_failed ? "fail" : "pass");
            cJSON_AddItemToObject(ro, "checks", cs);
            cJSON_AddItemToArray(out, ro);
        }
    }
    if (json) {
        char *text = cJSON_Print(out);
        puts(text);
        free(text);
        cJSON_Delete(out);
    } else if (code == EXIT_OK) {
        printf("%zu run%s checked: %zu pass, %d fail\n", n, n == 1 ? "" : "s",
               n - (size_t)failed, failed);
    }
    store_free_runs(rows, n);
    store_close(st);
    if (code != EXIT_OK)
        return code;
    return failed ? EXIT_REJECTED : EXIT_OK;
}
