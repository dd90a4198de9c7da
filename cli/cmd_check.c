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
    app_thresholds t;
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
    if (app_load_thresholds(tpath, &t, &e) != COW_OK) {
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
        app_verdict v[TH_COUNT];
        int run_failed = 0;
        cJSON *ro = NULL, *cs = NULL;
        if (app_check_run(st, &rows[i], &t, v, &e) != COW_OK) {
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
                cJSON_AddStringToObject(x, "check", app_th_keys[k]);
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
                printf("%-32s %-18s %-5s %12s  limit %g%s%s\n", rows[i].label, app_th_keys[k],
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
        int jc = cli_print_json(out);
        if (code == EXIT_OK)
            code = jc;
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
