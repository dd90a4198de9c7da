/* cmd_diff.c -- `cowtail diff`: scenario against scenario across runs
 * (seed 000: steady vs disk full sync vs diskless full sync). */
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "boot.h"
#include "cli.h"
#include "commands.h"
#include "mem.h"
#include "pct.h"
#include "runstats.h"

const char *const cmd_diff_usage[] = {
    "usage: cowtail diff [--db FILE] [options] BASE RUN...",
    "",
    "Compare runs with a base run (e.g. steady) at p50, p90, p99, p99.9: each",
    "run's samples inside its fork/save/sync windows (the whole run when it",
    "has none, or with --whole) against all samples of BASE. Prints n and",
    "honest quantiles per run, then the bootstrap 95% interval of each",
    "difference, the ratio and the verdict (lift, ~, drop), and the",
    "difference of the maxima (no interval). --json: an array of delta",
    "objects (base, run, phase, base_n, n, quantile, base_us, value_us,",
    "delta_us, ci_low_us, ci_high_us, ratio, verdict, thin).",
    "",
    "  --db FILE       database (default cowtail.db)",
    "  --whole         use every sample of each run, not only its windows",
    "  --resamples N   bootstrap resamples (default 9999)",
    "  --seed S        bootstrap seed (default 1)",
    "  --json          results as JSON",
    NULL
};

static const double levels[4] = {0.5, 0.9, 0.99, 0.999};
static const char *const lnames[4] = {"p50", "p90", "p99", "p99.9"};
static const char *const lnames_json[4] = {"p50", "p90", "p99", "p999"};

static void jnum(cJSON *o, const char *k, double v)
{
    if (isnan(v) || isinf(v))
        cJSON_AddNullToObject(o, k);
    else
        cJSON_AddNumberToObject(o, k, v);
}

/* One delta object: the keys of `cowtail analyze --json` deltas, plus
 * which runs and how many samples. */
static cJSON *delta_json(const char *base, const char *run, int windows, size_t nb,
                         size_t n, const char *quantile, double base_us, double value_us,
                         double delta, double lo, double hi, double ratio,
                         const char *verdict, int thin)
{
    cJSON *x = cJSON_CreateObject();
    cJSON_AddStringToObject(x, "base", base);
    cJSON_AddStringToObject(x, "run", run);
    cJSON_AddStringToObject(x, "phase", windows ? "windows" : "whole");
    cJSON_AddNumberToObject(x, "base_n", (double)nb);
    cJSON_AddNumberToObject(x, "n", (double)n);
    cJSON_AddStringToObject(x, "quantile", quantile);
    jnum(x, "base_us", base_us);
    jnum(x, "value_us", value_us);
    jnum(x, "delta_us", delta);
    jnum(x, "ci_low_us", lo);
    jnum(x, "ci_high_us", hi);
    jnum(x, "ratio", ratio);
    cJSON_AddStringToObject(x, "verdict", verdict);
    cJSON_AddBoolToObject(x, "thin", thin);
    return x;
}

/* Sorted latencies of a run: its windows, or all. Caller frees. */
static double *run_values(cow_store *st, const cow_run_row *r, int whole,
                          size_t *m, int *windows, cow_err *e)
{
    int64_t *t = NULL;
    double *lat = NULL, *out;
    size_t n = 0, i, k = 0;
    cow_result_set rs;

    *m = 0;
    *windows = 0;
    if (store_load_samples(st, r->id, &t, &lat, &n, e) != COW_OK)
        return NULL;
    memset(&rs, 0, sizeof(rs));
    if (!whole && store_load_results(st, r->id, &rs, e) == COW_OK && !rs.analysed &&
        n > 0) {
        store_free_results(&rs);
        if (app_analyze_run(st, r, e) != COW_OK ||
            store_load_results(st, r->id, &rs, e) != COW_OK) {
            free(t);
            free(lat);
            return NULL;
        }
    }
    out = xmalloc((n ? n : 1) * sizeof(double));
    for (i = 0; i < rs.nph; i++) {
        const char *kind = rs.ph[i].kind;
        size_t a, b;
        if (!(strcmp(kind, "bgsave") == 0 || strncmp(kind, "sync-", 5) == 0 ||
              strcmp(kind, "aof-rewrite") == 0 || strcmp(kind, "forkless") == 0))
            continue;
        (*windows)++;
        for (a = 0; a < n && t[a] < rs.ph[i].t0_us; a++)
            ;
        for (b = a; b < n && t[b] < rs.ph[i].t1_us; b++)
            out[k++] = lat[b];
    }
    if (*windows == 0) {
        memcpy(out, lat, n * sizeof(double));
        k = n;
    }
    store_free_results(&rs);
    free(t);
    free(lat);
    runstats_sort(out, k);
    *m = k;
    return out;
}

static const cow_run_row *find(const cow_run_row *rows, size_t n, const char *label)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (strcmp(rows[i].label, label) == 0)
            return &rows[i];
    return NULL;
}

static void honest(const double *v, size_t m, double q, char *buf, size_t n)
{
    cow_qci ci;
    if (m == 0 || pct_quantile_ci(v, m, q, 0.95, &ci, NULL) != COW_OK) {
        snprintf(buf, n, "-");
        return;
    }
    if (!ci.has_hi)
        snprintf(buf, n, ">=%.3f", ci.has_lo ? ci.lo / 1000 : 0);
    else
        snprintf(buf, n, "%.3f", pct_quantile(v, m, q, COW_PCT_LINEAR) / 1000);
}

/* What every compared run is measured against. */
typedef struct diff_base {
    const char *label;   /* base run */
    const double *v;     /* its sorted latencies */
    size_t n;
    int resamples;       /* bootstrap R */
    uint64_t seed;       /* bootstrap seed */
} diff_base;

/* One run against the base: four quantiles and the maximum, printed or
 * appended to out (JSON). */
static int compare_run(const diff_base *b, const char *run, const double *v, size_t m,
                       int windows, cJSON *out, cow_err *e)
{
    char b1[32], b2[32];
    int l, rc;

    if (out == NULL) {
        printf("\n%s: %zu samples (%s)\n", run, m, windows ? "inside its windows" : "whole run");
        printf("  %-6s %12s %12s %11s  %-22s %-7s %s\n", "", "base (ms)", "run (ms)",
               "delta", "95% CI", "ratio", "verdict");
    }
    for (l = 0; l < 4; l++) {
        cow_boot_result d;
        if ((rc = boot_quantile_delta(b->v, b->n, v, m, levels[l], b->resamples,
                                      b->seed + (uint64_t)l, &d, e)) != COW_OK)
            return rc;
        if (out != NULL) {
            cJSON_AddItemToArray(out, delta_json(b->label, run, windows, b->n, m,
                                                 lnames_json[l], d.est_a, d.est_b, d.delta,
                                                 d.delta_lo, d.delta_hi, d.ratio,
                                                 boot_verdict_name(d.verdict), d.thin));
        } else {
            char ci[48], ratio[16] = "";
            honest(b->v, b->n, levels[l], b1, sizeof(b1));
            honest(v, m, levels[l], b2, sizeof(b2));
            snprintf(ci, sizeof(ci), "[%+.3f, %+.3f]", d.delta_lo / 1000, d.delta_hi / 1000);
            if (!isnan(d.ratio))
                snprintf(ratio, sizeof(ratio), "x%.2f", d.ratio);
            printf("  %-6s %12s %12s %+11.3f  %-22s %-7s %s%s\n", lnames[l], b1, b2,
                   d.delta / 1000, ci, ratio, boot_verdict_symbol(d.verdict),
                   d.thin ? "  (thin tail)" : "");
        }
    }
    if (m > 0 && b->n > 0) {
        /* the maximum: a plain difference; no interval (a bootstrap of the
         * maximum only resamples the few largest values) */
        double bmax = b->v[b->n - 1], vmax = v[m - 1];
        if (out != NULL)
            cJSON_AddItemToArray(out, delta_json(b->label, run, windows, b->n, m, "max",
                                                 bmax, vmax, vmax - bmax, NAN, NAN,
                                                 vmax / bmax, "n/a", 1));
        else
            printf("  %-6s %12.3f %12.3f %+11.3f  %-22s x%-6.2f %s\n", "max", bmax / 1000,
                   vmax / 1000, (vmax - bmax) / 1000, "(no interval)", vmax / bmax, "");
    }
    return COW_OK;
}

int cmd_diff(int argc, char **argv)
{
    static const struct option opts[] = {
        {"db", required_argument, NULL, 'd'},
        {"whole", no_argument, NULL, 'w'},
        {"resamples", required_argument, NULL, 'R'},
        {"seed", required_argument, NULL, 's'},
        {"json", no_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    const char *db = COW_DEFAULT_DB;
    cow_store *st = NULL;
    cow_err e = COW_ERR_INIT;
    cow_run_row *rows = NULL;
    size_t n = 0, nb = 0;
    double *base = NULL;
    int c, whole = 0, json = 0, resamples = COW_BOOT_RESAMPLES, a, code = EXIT_OK, wb;
    uint64_t seed = 1;
    cJSON *out = NULL;
    diff_base ctx;

    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'd': db = optarg; break;
        case 'w': whole = 1; break;
        case 'R':
            resamples = atoi(optarg);
            if (resamples < 99 || resamples > COW_BOOT_MAX_RESAMPLES) {
                cli_errorf("--resamples %s: expected 99 to %d", optarg,
                           COW_BOOT_MAX_RESAMPLES);
                return EXIT_USAGE;
            }
            break;
        case 's': seed = strtoull(optarg, NULL, 10); break;
        case 'j': json = 1; break;
        case 'h': cli_print_usage(stdout, cmd_diff_usage); return EXIT_OK;
        default: cli_print_usage(stderr, cmd_diff_usage); return EXIT_USAGE;
        }
    }
    if (argc - optind < 2) {
        cli_errorf("diff: give a base run and at least one run to compare");
        cli_print_usage(stderr, cmd_diff_usage);
        return EXIT_USAGE;
    }
    if ((code = cli_open_runs(db, &st, &rows, &n)) != EXIT_OK)
        return code;
    for (a = optind; a < argc; a++)
        if (find(rows, n, argv[a]) == NULL) {
            cli_errorf("diff: no run labelled '%s' (see cowtail runs)", argv[a]);
            code = EXIT_USAGE;
        }
    if (code == EXIT_OK)
        base = run_values(st, find(rows, n, argv[optind]), 1, &nb, &wb, &e);
    if (code == EXIT_OK && base == NULL) {
        cli_error(&e);
        code = EXIT_IO;
    }
    if (json)
        out = cJSON_CreateArray();
    else if (code == EXIT_OK)
        printf("base %s: %zu samples (whole run); seed %" PRIu64 ", %d resamples\n",
               argv[optind], nb, seed, resamples);
    ctx.label = argv[optind];
    ctx.v = base;
    ctx.n = nb;
    ctx.resamples = resamples;
    ctx.seed = seed;
    for (a = optind + 1; code == EXIT_OK && a < argc; a++) {
        size_t m = 0;
        int windows = 0;
        double *v = run_values(st, find(rows, n, argv[a]), whole, &m, &windows, &e);
        if (v == NULL) {
            cli_error(&e);
            code = EXIT_IO;
            break;
        }
        if (compare_run(&ctx, argv[a], v, m, windows, out, &e) != COW_OK) {
            cli_error(&e);
            code = EXIT_INTERNAL;
        }
        free(v);
    }
    if (out) {
        char *text = cJSON_Print(out);
        if (code == EXIT_OK)
            puts(text);
        free(text);
        cJSON_Delete(out);
    } else if (code == EXIT_OK) {
        printf("\n>= : too few samples for a two-sided 95%% interval at that quantile; "
               "shown is the one-sided lower bound\n");
    }
    free(base);
    store_free_runs(rows, n);
    store_close(st);
    return code;
}
