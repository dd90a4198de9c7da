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
#include "diff.h"
#include "quant.h"

const char *const cmd_diff_usage[] = {
    "usage: cowtail diff [--db FILE] [options] BASE RUN...",
    "",
    "Compare runs with a base run (e.g. steady) at p50, p90, p99, p99.9: each",
    "run's samples inside its fork/save/sync windows (the whole run when it",
    "has none, or with --whole) against all samples of BASE. Prints n and",
    "honest quantiles per run, then the bootstrap 95% interval of each",
    "difference (or the exact tail test's one-sided bound), the ratio and",
    "the verdict (lift, ~, drop, ? = cannot tell), n_eff (samples corrected",
    "for serial dependence), and the difference of the maxima (no",
    "interval). A sample inside two overlapping windows counts once.",
    "--json: an array of delta objects (base, run, phase, base_n, n,",
    "quantile, base_us, value_us, delta_us, ci_low_us, ci_high_us, ratio,",
    "verdict, thin, method, n_eff_base, n_eff, p_up, p_down, p, test_level).",
    "",
    "  --db FILE       database (default cowtail.db)",
    "  --whole         use every sample of each run, not only its windows",
    "  --resamples N   bootstrap resamples (default 9999)",
    "  --seed S        bootstrap seed (default 1)",
    "  --json          results as JSON",
    NULL
};

static const char *const lnames[APP_DIFF_LEVELS] = {"p50", "p90", "p99", "p99.9"};
static const char *const lnames_json[APP_DIFF_LEVELS] = {"p50", "p90", "p99", "p999"};

/* One delta object: the keys of `cowtail analyze --json` deltas, plus
 * which runs and how many samples. */
static cJSON *delta_json(const app_diff_base *b, const app_diff_row *r, const char *quantile,
                         double base_us, double value_us, double delta, double lo,
                         double hi, double ratio, const char *verdict, int thin,
                         const cow_qcmp *d)
{
    cJSON *x = cJSON_CreateObject();
    cJSON_AddStringToObject(x, "base", b->label);
    cJSON_AddStringToObject(x, "run", r->run);
    cJSON_AddStringToObject(x, "phase", r->windows ? "windows" : "whole");
    cJSON_AddNumberToObject(x, "base_n", (double)b->n);
    cJSON_AddNumberToObject(x, "n", (double)r->n);
    cJSON_AddStringToObject(x, "quantile", quantile);
    cli_json_num(x, "base_us", base_us);
    cli_json_num(x, "value_us", value_us);
    cli_json_num(x, "delta_us", delta);
    cli_json_num(x, "ci_low_us", lo);
    cli_json_num(x, "ci_high_us", hi);
    cli_json_num(x, "ratio", ratio);
    cJSON_AddStringToObject(x, "verdict", verdict);
    cJSON_AddBoolToObject(x, "thin", thin);
    if (d != NULL) {
        cJSON_AddStringToObject(x, "method", qcmp_method_name(d->method));
        cli_json_qcmp(x, d);
    }
    return x;
}

static const char *const rnames[APP_DIFF_REPORTED] = {"p50", "p90", "p99", "p999", "max"};

/* Reported percentiles: delta objects with phase "reported", n the tools'
 * counts, no interval and verdict n/a. */
static void add_reported_json(cJSON *out, const app_diff_base *b, const app_diff_row *r)
{
    int l;
    for (l = 0; l < APP_DIFF_REPORTED; l++) {
        const cow_pctl_row *pb = &r->rep_base[l], *pr = &r->rep_run[l];
        cJSON *x;
        if (!r->rep_has[l])
            continue;
        x = delta_json(b, r, rnames[l], pb->value_us, pr->value_us,
                       pr->value_us - pb->value_us,
                       r->rep_ci[l] ? r->rep_lo_us[l] : NAN,
                       r->rep_ci[l] ? r->rep_hi_us[l] : NAN,
                       pr->value_us / pb->value_us,
                       boot_verdict_name(r->rep_verdict[l]), 0, NULL);
        cJSON_ReplaceItemInObject(x, "phase", cJSON_CreateString("reported"));
        cJSON_ReplaceItemInObject(x, "base_n", cJSON_CreateNumber((double)r->rep_base_n[l]));
        cJSON_ReplaceItemInObject(x, "n", cJSON_CreateNumber((double)r->rep_run_n[l]));
        cJSON_AddStringToObject(x, "base_source", pb->source);
        cJSON_AddStringToObject(x, "source", pr->source);
        cJSON_AddItemToArray(out, x);
    }
}

static void print_reported(const app_diff_row *r)
{
    int l;

    printf("  reported percentiles (the tools' figures: no bootstrap from "
           "percentiles; an interval only where both are HdrHistogram tables,\n"
           "  from their counts)\n");
    printf("  %-6s %12s %12s %11s  %-22s %-7s %-7s %s\n", "", "base (ms)", "run (ms)",
           "delta", "95% CI (counts)", "ratio", "verdict", "from");
    for (l = 0; l < APP_DIFF_REPORTED; l++) {
        const cow_pctl_row *pb = &r->rep_base[l], *pr = &r->rep_run[l];
        char ci[48] = "(none)";
        if (!r->rep_has[l])
            continue;
        if (r->rep_ci[l])
            snprintf(ci, sizeof(ci), "[%+.3f, %+.3f]", r->rep_lo_us[l] / 1000,
                     r->rep_hi_us[l] / 1000);
        printf("  %-6s %12.3f %12.3f %+11.3f  %-22s x%-6.2f %-7s %s %s / %s %s\n", rnames[l],
               pb->value_us / 1000, pr->value_us / 1000,
               (pr->value_us - pb->value_us) / 1000, ci, pr->value_us / pb->value_us,
               r->rep_ci[l] ? boot_verdict_symbol(r->rep_verdict[l]) : "n/a",
               pb->source, pb->op[0] ? pb->op : "-", pr->source, pr->op[0] ? pr->op : "-");
    }
}

static void add_json(cJSON *out, const app_diff_base *b, const app_diff_row *r)
{
    int l;
    if (r->reported)
        add_reported_json(out, b, r);
    if (r->n == 0 || b->n == 0)
        return;
    for (l = 0; l < APP_DIFF_LEVELS; l++) {
        const cow_qcmp *d = &r->d[l];
        cJSON_AddItemToArray(out, delta_json(b, r, lnames_json[l], d->est_a, d->est_b,
                                             d->delta, d->lo, d->hi, d->boot.ratio,
                                             boot_verdict_name(d->verdict), d->thin, d));
    }
    if (r->has_max)
        cJSON_AddItemToArray(out, delta_json(b, r, "max", r->base_max_us, r->run_max_us,
                                             r->run_max_us - r->base_max_us, NAN, NAN,
                                             r->run_max_us / r->base_max_us, "n/a", 1,
                                             NULL));
}

static void print_text(const app_diff_row *r)
{
    char b1[COW_QUANT_FMT_MAX], b2[COW_QUANT_FMT_MAX];
    int l;

    printf("\n%s: %zu samples (%s)\n", r->run, r->n,
           r->windows ? "inside its windows" : "whole run");
    if (r->reported)
        print_reported(r);
    if (r->n == 0 || r->d[0].boot.na == 0)
        return;
    printf("  %-6s %20s %20s  %-30s %-7s %-7s %s\n", "", "base (ms)", "run (ms)",
           "delta (95%)", "ratio", "verdict", "n_eff base/run, method");
    for (l = 0; l < APP_DIFF_LEVELS; l++) {
        const cow_qcmp *d = &r->d[l];
        char ci[COW_QUANT_FMT_MAX], ratio[16] = "";
        cow_quant dq = quant_make(NAN, d->delta, d->lo, d->hi, (int64_t)d->nb, d->dep_b.n_eff);
        if (d->verdict == COW_VERDICT_NA)
            dq.est_us = NAN;
        if (d->verdict == COW_VERDICT_UNSURE) /* runs have no one probe interval */
            qcmp_why_text(d, 0.0, dq.why, sizeof(dq.why));
        quant_format(&dq, COW_QF_SIGNED | COW_QF_INTERVAL, ci, sizeof(ci));
        if (!isnan(d->boot.ratio))
            snprintf(ratio, sizeof(ratio), "x%.2f", d->boot.ratio);
        printf("  %-6s %20s %20s  %-30s %-7s %-7s %.0f/%.0f %s\n", lnames[l],
               quant_format(&r->base_q[l], 0, b1, sizeof(b1)),
               quant_format(&r->run_q[l], 0, b2, sizeof(b2)), ci, ratio,
               boot_verdict_symbol(d->verdict), d->dep_a.n_eff, d->dep_b.n_eff,
               qcmp_method_name(d->method));
    }
    if (r->has_max)
        printf("  %-6s %20.3f %20.3f  %+-30.3f x%-6.2f %s\n", "max",
               r->base_max_us / 1000, r->run_max_us / 1000,
               (r->run_max_us - r->base_max_us) / 1000, r->run_max_us / r->base_max_us,
               "(no interval)");
}

typedef struct diff_opts {
    const char *db;     /* --db */
    int whole;          /* --whole */
    int json;           /* --json */
    int resamples;      /* --resamples */
    uint64_t seed;      /* --seed */
} diff_opts;

/* Options into *o; returns -1 to go on, else the exit code. */
static int parse_args(int argc, char **argv, diff_opts *o)
{
    static const struct option opts[] = {
        {"db", required_argument, NULL, 'd'},
        {"whole", no_argument, NULL, 'w'},
        {"resamples", required_argument, NULL, 'R'},
        {"seed", required_argument, NULL, 's'},
        {"json", no_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    int c;

    o->db = COW_DEFAULT_DB;
    o->whole = o->json = 0;
    o->resamples = COW_BOOT_RESAMPLES;
    o->seed = 1;
    optind = 1;
    while ((c = cli_getopt(argc, argv, "h", opts)) != -1) {
        switch (c) {
        case 'd': o->db = optarg; break;
        case 'w': o->whole = 1; break;
        case 'R':
            if (cli_opt_resamples(argv[0], optarg, &o->resamples) != EXIT_OK)
                return EXIT_USAGE;
            break;
        case 's':
            if (cli_opt_seed(argv[0], optarg, &o->seed) != EXIT_OK)
                return EXIT_USAGE;
            break;
        case 'j': o->json = 1; break;
        case 'h': cli_print_usage(stdout, cmd_diff_usage); return EXIT_OK;
        default: return EXIT_USAGE;
        }
    }
    if (argc - optind < 2) {
        cli_errorf("diff: give a base run and at least one run to compare (see "
                   "'cowtail help diff')");
        fprintf(stderr, "%s\n", cmd_diff_usage[0]);
        return EXIT_USAGE;
    }
    return -1;
}

/* Compare sel[1..nsel) with sel[0] and print. */
static int diff_runs(cow_store *st, const cow_run_row *sel, size_t nsel, const diff_opts *o)
{
    cow_err e = COW_ERR_INIT;
    app_diff_base base;
    cJSON *out = NULL;
    size_t i;
    int code = EXIT_OK;

    if (app_diff_base_load(st, &sel[0], o->resamples, o->seed, &base, &e) != COW_OK) {
        cli_error(&e);
        app_diff_base_release(&base);
        return cli_exit_for(e.code);
    }
    if (o->json)
        out = cJSON_CreateArray();
    else
        printf("base %s: %zu samples (whole run); seed %" PRIu64 ", %d resamples\n",
               base.label, base.n, o->seed, o->resamples);
    for (i = 1; code == EXIT_OK && i < nsel; i++) {
        app_diff_row r;
        if (app_diff_run(st, &base, &sel[i], o->whole, &r, &e) != COW_OK) {
            cli_error(&e);
            code = cli_exit_for(e.code);
        } else if (out) {
            add_json(out, &base, &r);
        } else {
            print_text(&r);
        }
    }
    if (out && code == EXIT_OK)
        code = cli_print_json(out);
    else if (code == EXIT_OK)
        printf("\n%s\n", quant_format_legend());
    cJSON_Delete(out);
    app_diff_base_release(&base);
    return code;
}

int cmd_diff(int argc, char **argv)
{
    diff_opts o;
    cow_store *st = NULL;
    cow_run_row *rows = NULL, *sel = NULL;
    size_t n = 0, nsel = 0;
    int code;

    if ((code = parse_args(argc, argv, &o)) >= 0)
        return code;
    if ((code = cli_open_runs(o.db, &st, &rows, &n)) != EXIT_OK)
        return code;
    if ((code = cli_find_runs("diff", rows, n, argv + optind, argc - optind, &sel, &nsel)) ==
        EXIT_OK)
        code = diff_runs(st, sel, nsel, &o);
    free(sel);
    store_free_runs(rows, n);
    store_close(st);
    return code;
}
