/* cmd_tradeoff.c -- `cowtail tradeoff`: fork vs forkless (or any two
 * modes from run.json "mode") over trials, the seed 003 table. */
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "commands.h"
#include "tradeoff_run.h"

const char *const cmd_tradeoff_usage[] = {
    "usage: cowtail tradeoff [--db FILE] [--scenario S] [--seed N] [--json] [RUN...]",
    "",
    "Compare the modes of the runs (run.json \"mode\": fork, forkless) over",
    "their trials, within one host and scenario (by default the group with",
    "two modes and the most runs; --scenario/--host or RUN... choose):",
    "COW (rdb_last_cow_size), memory growth (memory series) during the save",
    "and over the run, save wall time (server log stamps; INFO's whole",
    "seconds otherwise), writer throughput (throughput series; INFO",
    "total_commands_processed deltas otherwise) during the save and over the",
    "run, the worst round trip during the save and over the run with the",
    "samples it is the maximum of, and fork time. \"save\" is the first",
    "BGSAVE or forkless window (else the first fork window).",
    "Per mode: mean, min-max and the 95% t-interval of the mean; between",
    "modes: the ratio of means with a 95% Welch t-interval on the log scale.",
    "",
    "  --db FILE       database (default cowtail.db)",
    "  --scenario S    only runs of this scenario",
    "  --host H        only runs of this host",
    "  --seed N        accepted for older scripts (the intervals are deterministic)",
    "  --json          groups and ratios as JSON",
    NULL
};

static int print_json(const cow_tradeoff *t)
{
    cJSON *root = cJSON_CreateObject(), *gs = cJSON_CreateArray(), *rs = cJSON_CreateObject();
    size_t k;
    int m, code;
    for (k = 0; k < t->ngroups; k++) {
        cJSON *g = cJSON_CreateObject();
        cJSON_AddStringToObject(g, "mode", t->g[k].mode);
        cJSON_AddNumberToObject(g, "trials", (double)t->g[k].ntrials);
        for (m = 0; m < COW_TM_COUNT; m++) {
            const cow_trade_stat *s = &t->g[k].m[m];
            cJSON *x = cJSON_CreateObject();
            cJSON_AddNumberToObject(x, "n", (double)s->n);
            cli_json_num(x, "mean", s->mean);
            cli_json_num(x, "min", s->min);
            cli_json_num(x, "max", s->max);
            cli_json_num(x, "lo", s->lo);
            cli_json_num(x, "hi", s->hi);
            cJSON_AddItemToObject(g, tradeoff_metric_name(m), x);
        }
        cJSON_AddItemToArray(gs, g);
    }
    cJSON_AddItemToObject(root, "groups", gs);
    if (t->a >= 0) {
        cJSON_AddStringToObject(rs, "numerator", t->g[t->b].mode);
        cJSON_AddStringToObject(rs, "denominator", t->g[t->a].mode);
        for (m = 0; m < COW_TM_COUNT; m++) {
            cJSON *x = cJSON_CreateObject();
            cli_json_num(x, "ratio", t->ratio[m].ratio);
            cli_json_num(x, "lo", t->ratio[m].lo);
            cli_json_num(x, "hi", t->ratio[m].hi);
            cJSON_AddItemToObject(rs, tradeoff_metric_name(m), x);
        }
        cJSON_AddItemToObject(root, "ratio", rs);
    } else {
        cJSON_Delete(rs);
    }
    code = cli_print_json(root);
    cJSON_Delete(root);
    return code;
}

static void print_text(const cow_tradeoff *t, const cow_trial *tr, size_t n)
{
    size_t k, i;
    int m;
    printf("%-24s", "metric");
    for (k = 0; k < t->ngroups; k++)
        printf(" %-34s", t->g[k].mode);
    if (t->a >= 0)
        printf(" %s / %s", t->g[t->b].mode, t->g[t->a].mode);
    printf("\n%-24s", "");
    for (k = 0; k < t->ngroups; k++) {
        char h[64];
        snprintf(h, sizeof(h), "mean [95%% CI] (min-max), n=%zu", t->g[k].ntrials);
        printf(" %-34s", h);
    }
    printf("\n");
    for (m = 0; m < COW_TM_COUNT; m++) {
        printf("%-24s", tradeoff_metric_label(m));
        for (k = 0; k < t->ngroups; k++) {
            const cow_trade_stat *s = &t->g[k].m[m];
            char cell[96];
            if (s->n == 0)
                snprintf(cell, sizeof(cell), "-");
            else if (s->n == 1)
                snprintf(cell, sizeof(cell), "%.1f (1 trial)", s->mean);
            else
                snprintf(cell, sizeof(cell), "%.1f [%.1f, %.1f] (%.1f-%.1f)", s->mean,
                         s->lo, s->hi, s->min, s->max);
            printf(" %-34s", cell);
        }
        if (t->a >= 0) {
            const cow_trade_ratio *r = &t->ratio[m];
            if (isnan(r->ratio))
                printf(" -");
            else if (isnan(r->lo))
                printf(" x%.3f", r->ratio);
            else
                printf(" x%.3f [%.3f, %.3f]", r->ratio, r->lo, r->hi);
        }
        printf("\n");
    }
    printf("(ratio interval: Welch t on the log scale over trials; runs:");
    for (i = 0; i < n; i++)
        printf(" %s", app_tty(tr[i].label));
    printf(")\n");
}

/* Options into *db, *sel, *seed, *json; returns -1 to go on, else the
 * exit code. */
static int parse_args(int argc, char **argv, const char **db, app_tradeoff_sel *sel,
                      uint64_t *seed, int *json)
{
    static const struct option opts[] = {
        {"db", required_argument, NULL, 'd'},
        {"scenario", required_argument, NULL, 's'},
        {"host", required_argument, NULL, 'H'},
        {"seed", required_argument, NULL, 'S'},
        {"json", no_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    int c;

    memset(sel, 0, sizeof(*sel));
    optind = 1;
    while ((c = cli_getopt(argc, argv, "h", opts)) != -1) {
        switch (c) {
        case 'd': *db = optarg; break;
        case 's': sel->scenario = optarg; break;
        case 'H': sel->host = optarg; break;
        case 'S':
            if (cli_opt_seed(argv[0], optarg, seed) != EXIT_OK)
                return EXIT_USAGE;
            break;
        case 'j': *json = 1; break;
        case 'h': cli_print_usage(stdout, cmd_tradeoff_usage); return EXIT_OK;
        default: return EXIT_USAGE;
        }
    }
    sel->labels = argv + optind;
    sel->nlabels = argc - optind;
    return -1;
}

int cmd_tradeoff(int argc, char **argv)
{
    const char *db = COW_DEFAULT_DB;
    cow_store *st = NULL;
    cow_err e = COW_ERR_INIT;
    cow_run_row *rows = NULL;
    app_tradeoff_sel sel;
    app_tradeoff t;
    size_t n = 0;
    uint64_t seed = 1;
    int json = 0, code;

    if ((code = parse_args(argc, argv, &db, &sel, &seed, &json)) >= 0)
        return code;
    if ((code = cli_open_runs(db, &st, &rows, &n)) != EXIT_OK)
        return code;
    if (app_tradeoff_run(st, rows, n, &sel, seed, &t, &e) != COW_OK) {
        cli_error(&e);
        code = cli_exit_for(e.code);
    } else if (t.nt == 0) {
        cli_errorf("tradeoff: no run with a mode (set \"mode\": \"fork\" or "
                   "\"forkless\" in run.json)");
        code = EXIT_USAGE;
    } else if (json) {
        code = print_json(&t.t);
    } else {
        if (t.picked)
            printf("runs of host %s, scenario %s (the group with two modes and the most "
                   "runs; choose with --host/--scenario)\n", t.host ? app_tty(t.host) : "(none)",
                   t.scenario ? app_tty(t.scenario) : "(none)");
        print_text(&t.t, t.tr, t.nt);
    }
    app_tradeoff_release(&t);
    store_free_runs(rows, n);
    store_close(st);
    return code;
}
