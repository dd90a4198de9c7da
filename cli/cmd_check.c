/* cmd_check.c -- `cowtail check`: the fleet gate. Every run against the
 * limits of a thresholds file (schemas/thresholds.schema.json). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "check.h"
#include "cli.h"
#include "commands.h"
#include "fleet.h"
#include "mem.h"

const char *const cmd_check_usage[] = {
    "usage: cowtail check --thresholds FILE [--db FILE] [--json] [--fdr] [--jobs N]",
    "                     [CAPTURE...]",
    "",
    "Evaluate every run (capture folders given are ingested first) against",
    "the limits in FILE (JSON; keys: max_p999_lift_ms, max_p99_lift_ms,",
    "max_p99_ms, max_p999_ms, max_cow_fraction, max_fork_ms,",
    "require_thp_off, min_samples; see schemas/thresholds.schema.json).",
    "A limit may be {\"limit\": x, \"missing\": \"pass\"}: a run without",
    "the data it needs then passes; by default it fails.",
    "Latency limits (lifts, whole-run quantiles) are tests: each has a",
    "one-sided p-value of \"over the limit\" and fails when that p-value,",
    "adjusted over every run and latency limit (Holm: family-wise 5%;",
    "--fdr: Benjamini-Hochberg, false discovery rate 5%), is <= 0.05.",
    "Prints one line per run and check (or --json).",
    "",
    "  --thresholds FILE  the limits (required; report --thresholds reads the",
    "                     same file the same way)",
    "  --db FILE          database (default cowtail.db)",
    "  --json             an array, one object per run: run, host, result,",
    "                     checks [{check, result, value, limit, detail}]",
    "  --fdr              adjust the p-values by Benjamini-Hochberg (false",
    "                     discovery rate) instead of Holm (family-wise)",
    CLI_JOBS_HELP,
    "",
    "exit: 0 every run passes; 1 a run fails; 2 unusable input (bad",
    "thresholds file, no runs); 3 database or file system error.",
    NULL
};

static const char *state_name(int s)
{
    return s == APP_PASS ? "pass" : s == APP_FAIL ? "FAIL" : "n/a";
}

static void json_num(cJSON *o, const char *k, double v)
{
    if (isnan(v) || isinf(v))
        cJSON_AddNullToObject(o, k);
    else
        cJSON_AddNumberToObject(o, k, v);
}

static cJSON *run_json(const cow_run_row *r, const app_thresholds *t,
                       const app_verdict *v, int failed, int method, size_t m)
{
    cJSON *ro = cJSON_CreateObject(), *cs = cJSON_CreateArray();
    int k;

    cJSON_AddStringToObject(ro, "run", r->label);
    if (r->host)
        cJSON_AddStringToObject(ro, "host", r->host);
    else
        cJSON_AddNullToObject(ro, "host");
    for (k = 0; k < TH_COUNT; k++) {
        cJSON *x;
        if (!t->set[k])
            continue;
        x = cJSON_CreateObject();
        cJSON_AddStringToObject(x, "check", app_th_keys[k]);
        cJSON_AddStringToObject(x, "result", v[k].state == APP_PASS ? "pass"
                                : v[k].state == APP_FAIL ? "fail" : "n/a");
        if (isnan(v[k].value))
            cJSON_AddNullToObject(x, "value");
        else
            cJSON_AddNumberToObject(x, "value", v[k].value);
        cJSON_AddNumberToObject(x, "limit", t->v[k]);
        cJSON_AddStringToObject(x, "detail", v[k].note);
        if (v[k].method != NULL)
            cJSON_AddStringToObject(x, "method", v[k].method);
        else
            cJSON_AddNullToObject(x, "method");
        json_num(x, "n", v[k].n);
        json_num(x, "n_eff", v[k].n_eff);
        json_num(x, "p", v[k].p);
        json_num(x, "p_adjusted", v[k].p_adj);
        cJSON_AddStringToObject(x, "correction", fleet_method_name(method));
        cJSON_AddNumberToObject(x, "comparisons", (double)m);
        cJSON_AddItemToArray(cs, x);
    }
    cJSON_AddStringToObject(ro, "result", failed ? "fail" : "pass");
    cJSON_AddItemToObject(ro, "checks", cs);
    return ro;
}

static void run_text(const cow_run_row *r, const app_thresholds *t, const app_verdict *v,
                     int method)
{
    int k;
    for (k = 0; k < TH_COUNT; k++) {
        char val[32] = "-", pv[64] = "";
        if (!t->set[k])
            continue;
        if (!isnan(v[k].value))
            snprintf(val, sizeof(val), "%.3f", v[k].value);
        if (!isnan(v[k].p))
            snprintf(pv, sizeof(pv), "; p %.3g, %s-adjusted %.3g", v[k].p,
                     method == COW_FLEET_BH ? "BH" : "Holm", v[k].p_adj);
        printf("%-32s %-18s %-5s %12s  limit %g%s%s%s\n", r->label, app_th_keys[k],
               state_name(v[k].state), val, t->v[k], v[k].note[0] ? "; " : "", v[k].note,
               pv);
    }
}

/* Evaluate and print every run; *failed counts the runs that fail. */
static int check_runs(cow_store *st, const cow_run_row *rows, size_t n,
                      const app_thresholds *t, int json, int method, int *failed)
{
    cow_err e = COW_ERR_INIT;
    cJSON *out = json ? cJSON_CreateArray() : NULL;
    app_verdict (*v)[TH_COUNT] = xcalloc(n ? n : 1, sizeof(*v));
    size_t i, m;
    int k, code = EXIT_OK;

    for (i = 0; i < n; i++)
        if (app_check_run(st, &rows[i], t, v[i], &e) != COW_OK) {
            cli_error(&e);
            code = EXIT_IO;
            n = i;
            break;
        }
    m = app_check_correct(v, n, t, method);
    if (!json)
        printf("%-32s %-18s %-5s %12s  %s\n", "run", "check", "", "value", "detail");
    for (i = 0; i < n; i++) {
        int run_failed = 0;
        for (k = 0; k < TH_COUNT; k++)
            run_failed |= t->set[k] && v[i][k].state == APP_FAIL;
        *failed += run_failed;
        if (json)
            cJSON_AddItemToArray(out, run_json(&rows[i], t, v[i], run_failed, method, m));
        else
            run_text(&rows[i], t, v[i], method);
    }
    if (!json && code == EXIT_OK)
        printf("%s over %zu comparisons (runs x latency limits): a latency limit fails "
               "when its adjusted p-value is <= %.2f; the other limits compare the "
               "value with the limit\n",
               method == COW_FLEET_BH ? "Benjamini-Hochberg (false discovery rate)"
                                      : "Holm (family-wise error)", m, APP_CHECK_ALPHA);
    if (json) {
        int jc = cli_print_json(out);
        if (code == EXIT_OK)
            code = jc;
        cJSON_Delete(out);
    }
    free(v);
    return code;
}

/* Options; returns -1 to go on, else the exit code. */
static int parse_args(int argc, char **argv, const char **db, const char **tpath,
                      int *json, int *method, int *jobs)
{
    static const struct option opts[] = {
        {"db", required_argument, NULL, 'd'},
        {"thresholds", required_argument, NULL, 't'},
        {"json", no_argument, NULL, 'j'},
        {"fdr", no_argument, NULL, 'f'},
        {"jobs", required_argument, NULL, 'J'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    int c;

    optind = 1;
    while ((c = cli_getopt(argc, argv, "h", opts)) != -1) {
        switch (c) {
        case 'd': *db = optarg; break;
        case 't': *tpath = optarg; break;
        case 'j': *json = 1; break;
        case 'f': *method = COW_FLEET_BH; break;
        case 'J':
            if (cli_opt_jobs("check", optarg, jobs) != EXIT_OK)
                return EXIT_USAGE;
            break;
        case 'h': cli_print_usage(stdout, cmd_check_usage); return EXIT_OK;
        default: return EXIT_USAGE;
        }
    }
    if (*tpath == NULL) {
        cli_errorf("check: --thresholds FILE is required (see 'cowtail help check')");
        return EXIT_USAGE;
    }
    return -1;
}

/* Open db, ingest the capture folders given, list the runs. */
static int open_runs(const char *db, char **paths, int npaths, int json, int jobs,
                     cow_store **st, cow_run_row **rows, size_t *n)
{
    cow_err e = COW_ERR_INIT;
    int code;

    if ((code = cli_store_open(db, st)) != EXIT_OK)
        return code;
    if (npaths > 0) {
        code = app_ingest_quiet(*st, paths, npaths, jobs, json ? stderr : stdout);
        if (code == EXIT_USAGE || code == EXIT_IO)
            return code;
        /* rejected lines were reported; the gate goes on */
    }
    if (store_list_runs(*st, rows, n, &e) != COW_OK) {
        cli_error(&e);
        return EXIT_IO;
    }
    if (*n == 0) {
        cli_errorf("check: no runs in %s (give capture folders)", db);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

int cmd_check(int argc, char **argv)
{
    const char *db = COW_DEFAULT_DB, *tpath = NULL;
    cow_store *st = NULL;
    cow_err e = COW_ERR_INIT;
    cow_run_row *rows = NULL;
    app_thresholds t;
    size_t n = 0;
    int json = 0, jobs = 0, code, failed = 0, method = COW_FLEET_HOLM;

    if ((code = parse_args(argc, argv, &db, &tpath, &json, &method, &jobs)) >= 0)
        return code;
    if (app_load_thresholds(tpath, &t, &e) != COW_OK) {
        cli_error(&e);
        return EXIT_USAGE;
    }
    code = open_runs(db, argv + optind, argc - optind, json, jobs, &st, &rows, &n);
    if (code == EXIT_OK)
        code = check_runs(st, rows, n, &t, json, method, &failed);
    if (code == EXIT_OK && !json)
        printf("%zu run%s checked: %zu pass, %d fail\n", n, n == 1 ? "" : "s",
               n - (size_t)failed, failed);
    store_free_runs(rows, n);
    store_close(st);
    if (code != EXIT_OK)
        return code;
    return failed ? EXIT_REJECTED : EXIT_OK;
}
