/* cmd_check.c -- `cowtail check`: the fleet gate. Every run against the
 * limits of a thresholds file (schemas/thresholds.schema.json). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
    "Prints one line per run and check; then every host (run.json host)",
    "with two runs or more, judged once on its runs pooled (baselines with",
    "baselines, windows with windows; hosts x latency limits corrected as a",
    "family of their own); then the triage: what the failing runs share",
    "that the passing ones do not (server version, kernel, THP mode and",
    "whether THP backs the heap, vm.overcommit_memory, repl-diskless-sync,",
    "dataset size, keys, host), as failing/passing runs per value, attributes",
    "ordered by the largest share of a value among failing runs minus its",
    "share among passing runs. The verdicts replace the database's checks",
    "table (cowtail export sends it). check neither reads nor stores an",
    "analysis: each run is judged on phases made for it as a default",
    "analysis makes them (analyze and report store the full analysis), so",
    "a verdict depends on the run's input and FILE alone. Capture folders",
    "given are judged run by run as they land, beside the ingest.",
    "",
    "  --thresholds FILE  the limits (required; report --thresholds reads the",
    "                     same file the same way)",
    "  --db FILE          database (default cowtail.db)",
    "  --json             an object: runs [{run, host, result, checks [{check,",
    "                     result, value, limit, detail, p, p_adjusted...}]],",
    "                     hosts [{host, runs, result, checks}], triage",
    "                     [{attribute, separation, values [{value, failing,",
    "                     passing}]}]",
    "  --fdr              adjust the p-values by Benjamini-Hochberg (false",
    "                     discovery rate) instead of Holm (family-wise)",
    CLI_JOBS_HELP,
    CLI_LATENCY_FROM_HELP,
    "",
    "exit: 0 every run and host passes; 1 a run or a host fails; 2 unusable",
    "input (bad thresholds file, no runs); 3 database or file system error.",
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

static cJSON *checks_json(const app_thresholds *t, const app_verdict *v, int method,
                          size_t m)
{
    cJSON *cs = cJSON_CreateArray();
    int k;

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
    return cs;
}

static void json_str(cJSON *o, const char *k, const char *s)
{
    if (s)
        cJSON_AddStringToObject(o, k, s);
    else
        cJSON_AddNullToObject(o, k);
}

/* {"runs": [...], "hosts": [...], "triage": [...], ...} */
static cJSON *fleet_json(const cow_run_row *rows, const app_thresholds *t,
                         const app_fleet_check *fc)
{
    cJSON *out = cJSON_CreateObject(), *runs = cJSON_CreateArray(),
          *hosts = cJSON_CreateArray(), *tri = cJSON_CreateArray();
    size_t i, j;
    int a;

    for (i = 0; i < fc->n; i++) {
        cJSON *ro = cJSON_CreateObject();
        cJSON_AddStringToObject(ro, "run", rows[i].label);
        json_str(ro, "host", rows[i].host);
        cJSON_AddStringToObject(ro, "result", fc->failed[i] ? "fail" : "pass");
        cJSON_AddItemToObject(ro, "checks", checks_json(t, fc->v[i], fc->method, fc->m));
        cJSON_AddItemToArray(runs, ro);
    }
    for (i = 0; i < fc->nh; i++) {
        cJSON *ho = cJSON_CreateObject(), *hr = cJSON_CreateArray();
        cJSON_AddStringToObject(ho, "host", fc->h[i].host);
        for (j = 0; j < fc->h[i].nruns; j++)
            cJSON_AddItemToArray(hr, cJSON_CreateString(rows[fc->h[i].runs[j]].label));
        cJSON_AddItemToObject(ho, "runs", hr);
        cJSON_AddStringToObject(ho, "result", fc->hfailed[i] ? "fail" : "pass");
        cJSON_AddItemToObject(ho, "checks", checks_json(t, fc->hv[i], fc->method, fc->mh));
        cJSON_AddItemToArray(hosts, ho);
    }
    for (a = 0; a < fc->tri.nattr; a++) {
        const app_triage_row *r = &fc->tri.a[a];
        cJSON *ao = cJSON_CreateObject(), *vs = cJSON_CreateArray();
        cJSON_AddStringToObject(ao, "attribute", app_triage_keys[r->attr]);
        cJSON_AddStringToObject(ao, "name", app_triage_names[r->attr]);
        cJSON_AddNumberToObject(ao, "separation", r->separation);
        for (j = 0; j < r->nv; j++) {
            cJSON *vo = cJSON_CreateObject();
            cJSON_AddStringToObject(vo, "value", r->v[j].value);
            cJSON_AddNumberToObject(vo, "failing", r->v[j].failing);
            cJSON_AddNumberToObject(vo, "passing", r->v[j].passing);
            cJSON_AddNumberToObject(vo, "separation", r->v[j].separation);
            cJSON_AddItemToArray(vs, vo);
        }
        cJSON_AddItemToObject(ao, "values", vs);
        cJSON_AddItemToArray(tri, ao);
    }
    cJSON_AddStringToObject(out, "correction", fleet_method_name(fc->method));
    cJSON_AddNumberToObject(out, "comparisons", (double)fc->m);
    cJSON_AddNumberToObject(out, "failing", fc->nfailed);
    cJSON_AddNumberToObject(out, "passing", (double)fc->n - fc->nfailed);
    cJSON_AddItemToObject(out, "runs", runs);
    cJSON_AddNumberToObject(out, "host_comparisons", (double)fc->mh);
    cJSON_AddItemToObject(out, "hosts", hosts);
    cJSON_AddItemToObject(out, "triage", tri);
    return out;
}

static void verdict_text(const char *label, const app_thresholds *t, const app_verdict *v,
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
            snprintf(pv, sizeof(pv), "; raw p %.3g, %s-adjusted p %.3g", v[k].p,
                     method == COW_FLEET_BH ? "BH" : "Holm", v[k].p_adj);
        printf("%-32s %-18s %-5s %12s  limit %g%s%s%s\n", app_tty(label), app_th_keys[k],
               state_name(v[k].state), val, t->v[k], v[k].note[0] ? "; " : "", v[k].note,
               pv);
    }
}

static const char *method_text(int method)
{
    return method == COW_FLEET_BH ? "Benjamini-Hochberg (false discovery rate)"
                                  : "Holm (family-wise error)";
}

static void hosts_text(const app_thresholds *t, const app_fleet_check *fc)
{
    size_t i;
    if (fc->nh == 0) {
        printf("hosts: none has two runs or more; each run above is its host's judgement\n");
        return;
    }
    printf("%-32s %-18s %-5s %12s  %s\n", "host (runs pooled)", "check", "", "value",
           "detail");
    for (i = 0; i < fc->nh; i++) {
        char *label = xasprintf("%s (%zu runs)", fc->h[i].host, fc->h[i].nruns);
        verdict_text(label, t, fc->hv[i], fc->method);
        free(label);
    }
    printf("%s over %zu comparisons (hosts x latency limits), a family of its own: a host "
           "with several runs is judged once, baselines pooled with baselines and windows "
           "with windows\n", method_text(fc->method), fc->mh);
}

/* At most this many values of an attribute on its text line. */
#define TRIAGE_SHOWN 6

static void triage_text(const app_triage *tr)
{
    int a;
    if (tr->failing == 0) {
        printf("triage: no run fails\n");
        return;
    }
    printf("triage: what the %d failing run%s share%s that the %d passing do not "
           "(runs per value, failing/passing; attributes by separation: the largest share "
           "of a value among failing runs minus its share among passing runs)\n",
           tr->failing, tr->failing == 1 ? "" : "s", tr->failing == 1 ? "s" : "",
           tr->passing);
    for (a = 0; a < tr->nattr; a++) {
        const app_triage_row *r = &tr->a[a];
        size_t j;
        int rf = 0, rp = 0;
        printf("  %-22s %+.2f ", app_triage_names[r->attr], r->separation);
        for (j = 0; j < r->nv; j++) {
            if (j < TRIAGE_SHOWN) {
                printf("%s %s %d/%d", j ? "," : "", app_tty(r->v[j].value), r->v[j].failing,
                       r->v[j].passing);
                continue;
            }
            rf += r->v[j].failing;
            rp += r->v[j].passing;
        }
        if (r->nv > TRIAGE_SHOWN)
            printf(", %zu more value%s %d/%d", r->nv - TRIAGE_SHOWN,
                   r->nv - TRIAGE_SHOWN == 1 ? "" : "s", rf, rp);
        printf("\n");
    }
}

/* Evaluate and print every run and host; *failed counts the runs and
 * hosts that fail. */
static int check_runs(cow_store *st, const cow_run_row *rows, size_t n,
                      const app_thresholds *t, int json, int method, int jobs,
                      const app_prejudged *pre, int *failed, int *hfailed, size_t *nhosts)
{
    cow_err e = COW_ERR_INIT;
    app_fleet_check fc;
    size_t i;
    int code = EXIT_OK;

    if (app_check_fleet(st, rows, n, t, method, jobs, pre, &fc, &e) != COW_OK ||
        app_check_save(st, rows, t, &fc, &e) != COW_OK) {
        cli_error(&e);
        code = EXIT_IO;
    }
    *failed = fc.nfailed;
    *hfailed = fc.nhfailed;
    *nhosts = fc.nh;
    if (json) {
        cJSON *out = fleet_json(rows, t, &fc);
        int jc = cli_print_json(out);
        if (code == EXIT_OK)
            code = jc;
        cJSON_Delete(out);
        app_check_fleet_release(&fc);
        return code;
    }
    printf("%-32s %-18s %-5s %12s  %s\n", "run", "check", "", "value", "detail");
    for (i = 0; i < fc.n; i++)
        verdict_text(rows[i].label, t, fc.v[i], method);
    if (code == EXIT_OK) {
        printf("%s over %zu comparisons (runs x latency limits): a latency limit fails "
               "when its adjusted p-value is <= %.2f; the other limits compare the "
               "value with the limit\n", method_text(method), fc.m, APP_CHECK_ALPHA);
        hosts_text(t, &fc);
        triage_text(&fc.tri);
    }
    app_check_fleet_release(&fc);
    return code;
}

/* Options; returns -1 to go on, else the exit code. */
static int parse_args(int argc, char **argv, const char **db, const char **tpath,
                      int *json, int *method, int *jobs, int *from)
{
    static const struct option opts[] = {
        CLI_OPT_DB, CLI_OPT_THRESHOLDS, CLI_OPT_JSON,
        {"fdr", no_argument, NULL, 'f'},
        CLI_OPT_JOBS, CLI_OPT_LATENCY_FROM, CLI_OPT_HELP,
        {NULL, 0, NULL, 0}};
    cli_shared sh = {*db, *tpath, *json, *jobs, COW_FROM_STORED};
    int c, code;

    optind = 1;
    while ((c = cli_getopt(argc, argv, "h", opts)) != -1) {
        if (c == 'f')
            *method = COW_FLEET_BH;
        else if ((code = cli_shared_opt(c, argv[0], cmd_check_usage, &sh)) != CLI_OPT_NEXT)
            return code;
    }
    *db = sh.db;
    *tpath = sh.thresholds;
    *json = sh.json;
    *jobs = sh.jobs;
    *from = sh.latency_from;
    if (*tpath == NULL) {
        cli_errorf("check: --thresholds FILE is required (see 'cowtail help check')");
        return EXIT_USAGE;
    }
    return -1;
}

/* Open db, ingest the capture folders given (judging each run against t
 * as it lands: pre), list the runs. */
static int open_runs(const char *db, char **paths, int npaths, int json, int jobs, int from,
                     const app_thresholds *t, app_prejudged *pre, cow_store **st,
                     cow_run_row **rows, size_t *n)
{
    cow_err e = COW_ERR_INIT;
    int code;

    if ((code = cli_store_open(db, st)) != EXIT_OK)
        return code;
    store_set_latency_from(*st, from);
    if (npaths > 0) {
        cow_ingest_totals tot;
        int64_t since = (int64_t)time(NULL);
        int pc;
        code = app_check_ingest(*st, paths, npaths, jobs, t, &tot, pre);
        cli_print_totals(json ? stderr : stdout, &tot);
        if ((pc = cli_print_inputs(json ? stderr : stdout, *st, paths, npaths, since)) !=
                EXIT_OK && code != EXIT_USAGE)
            code = pc;
        app_prejudged_index(pre);
        if (code == EXIT_USAGE || code == EXIT_IO)
            return code;
        /* rejected lines were reported; the gate goes on */
    }
    if (store_list_runs_brief(*st, rows, n, &e) != COW_OK) { /* the gate counts */
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
    app_prejudged pre;
    size_t n = 0;
    size_t nhosts = 0;
    int json = 0, jobs = 0, code, failed = 0, hfailed = 0, method = COW_FLEET_HOLM;
    int from = COW_FROM_STORED;

    if ((code = parse_args(argc, argv, &db, &tpath, &json, &method, &jobs, &from)) >= 0)
        return code;
    if (app_load_thresholds(tpath, &t, &e) != COW_OK) {
        cli_error(&e);
        return EXIT_USAGE;
    }
    memset(&pre, 0, sizeof(pre));
    code = open_runs(db, argv + optind, argc - optind, json, jobs, from, &t, &pre, &st, &rows,
                     &n);
    if (code == EXIT_OK)
        code = check_runs(st, rows, n, &t, json, method, jobs, &pre, &failed, &hfailed,
                          &nhosts);
    if (code == EXIT_OK && !json) {
        printf("%zu run%s checked: %zu pass, %d fail", n, n == 1 ? "" : "s",
               n - (size_t)failed, failed);
        if (nhosts > 0)
            printf("; %zu host%s judged on pooled runs: %zu pass, %d fail", nhosts,
                   nhosts == 1 ? "" : "s", nhosts - (size_t)hfailed, hfailed);
        printf("\n");
    }
    app_prejudged_release(&pre);
    store_free_runs(rows, n);
    store_close(st);
    if (code != EXIT_OK)
        return code;
    return failed || hfailed ? EXIT_REJECTED : EXIT_OK;
}
