/* cmd_doctor.c -- `cowtail doctor`: explain each run's tail with evidence.
 *
 * Facts come from the store (app/facts.c), rules are pure (analysis/
 * diag_rules.c). Findings are stored (findings table) and printed as text
 * or, with --json, as an array of {rule, severity, run, title, evidence:
 * [{metric, value, source}], recommendation}. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "answer.h"
#include "cli.h"
#include "commands.h"
#include "diag.h"
#include "doctor.h"
#include "facts.h"

const char *const cmd_doctor_usage[] = {
    "usage: cowtail doctor [--db FILE] [--json] [--rules] [RUN...]",
    "",
    "Explain the tail latency of each run (default: all) with evidence:",
    "which cause the captures support, which they rule out, what to change.",
    "Runs not yet analysed are analysed first (defaults of cowtail analyze).",
    "Some rules compare runs with each other (disk vs diskless full sync, a",
    "read-only control): give them together. The text opens with one line",
    "per run that has something to say (its window, the p99.9 verdict with",
    "estimate and bound, the evidence, the cause, what to do), the others",
    "counted, then each run's findings with their evidence.",
    "",
    "  --db FILE   database (default cowtail.db)",
    "  --json      an array of findings: rule, severity, run, title,",
    "              evidence [{metric, value, source}], quantiles [{quantile,",
    "              window, n, n_base, n_eff, n_eff_base, method, verdict}]",
    "              (the comparisons the finding rests on), recommendation",
    "  --rules     list the rules (id, severity, what) and exit",
    NULL
};

/* The answer per run first (answer.h decided it), then each run's findings. */
static void print_answers(const app_answers *a)
{
    size_t i;
    char *line;
    printf("What happened, run by run:\n");
    for (i = 0; i < a->nsay; i++) {
        line = app_answer_line(&a->v[a->order[i]], APP_ANSWER_TERM);
        printf("  %s\n", line);
        free(line);
    }
    if ((line = app_answer_quiet_line(a, APP_ANSWER_TERM)) != NULL) {
        printf("  %s\n", line);
        free(line);
    }
    printf("%s\n\n", app_answer_legend(APP_ANSWER_TERM));
}

static void print_text(const cow_findings *fs, const cow_run_facts *facts, size_t n)
{
    size_t i, j;
    for (i = 0; i < n; i++) {
        int any = 0;
        printf("run %s\n", app_tty(facts[i].label));
        for (j = 0; j < fs->n; j++) {
            const cow_finding *f = &fs->v[j];
            int k;
            if (strcmp(f->run, facts[i].label) != 0)
                continue;
            any = 1;
            printf("  [%s] %s: %s\n", diag_severity_name(f->severity), f->rule, f->title);
            for (k = 0; k < f->nev; k++)
                printf("      %-28s %s%s%s%s\n", f->ev[k].metric, f->ev[k].value,
                       f->ev[k].src[0] ? "  (" : "", f->ev[k].src,
                       f->ev[k].src[0] ? ")" : "");
            printf("      -> %s\n", f->advice);
        }
        if (!any)
            printf("  nothing to report%s\n",
                   facts[i].samples == 0 ? " (no latency samples)" : "");
        printf("\n");
    }
}

static void print_json(const cow_findings *fs, int *code)
{
    cJSON *arr = cJSON_CreateArray();
    size_t i;
    for (i = 0; i < fs->n; i++)
        cJSON_AddItemToArray(arr, app_finding_json(&fs->v[i]));
    *code = cli_print_json(arr);
    cJSON_Delete(arr);
}

/* Options into *db and *json; returns -1 to go on, else the exit code. */
static int parse_args(int argc, char **argv, const char **db, int *json)
{
    static const struct option opts[] = {
        CLI_OPT_DB, CLI_OPT_JSON,
        {"rules", no_argument, NULL, 'r'},
        CLI_OPT_HELP,
        {NULL, 0, NULL, 0}};
    cli_shared sh = {*db, NULL, *json, 0, COW_FROM_STORED};
    int c, code;

    optind = 1;
    while ((c = cli_getopt(argc, argv, "h", opts)) != -1) {
        if (c == 'r') {
            const cow_rule *r;
            for (r = diag_rules(); r->id; r++)
                printf("%-26s %-8s %s\n", r->id, diag_severity_name(r->severity), r->what);
            return EXIT_OK;
        }
        if ((code = cli_shared_opt(c, argv[0], cmd_doctor_usage, &sh)) != CLI_OPT_NEXT)
            return code;
    }
    *db = sh.db;
    *json = sh.json;
    return -1;
}

int cmd_doctor(int argc, char **argv)
{
    const char *db = COW_DEFAULT_DB;
    cow_store *st = NULL;
    cow_err e = COW_ERR_INIT;
    cow_run_row *rows = NULL, *sel = NULL;
    cow_run_facts *facts = NULL;
    cow_findings fs;
    size_t n = 0, nsel = 0;
    int json = 0, code;

    if ((code = parse_args(argc, argv, &db, &json)) >= 0)
        return code;
    if ((code = cli_open_runs(db, &st, &rows, &n)) != EXIT_OK)
        return code;
    code = cli_select_runs("doctor", rows, n, argv + optind, argc - optind, &sel, &nsel);
    memset(&fs, 0, sizeof(fs));
    if (code == EXIT_OK && app_doctor(st, sel, nsel, &fs, &facts, &e) != COW_OK) {
        cli_error(&e);
        code = cli_exit_for(e.code);
    } else if (code == EXIT_OK && json) {
        print_json(&fs, &code);
    } else if (code == EXIT_OK) {
        app_answers a;
        if (app_answers_build(st, sel, nsel, facts, &fs, NULL, NULL, &a, &e) != COW_OK) {
            cli_error(&e);
            code = cli_exit_for(e.code);
        } else {
            print_answers(&a);
            print_text(&fs, facts, nsel);
            app_answers_release(&a);
        }
    }
    diag_release(&fs);
    free(facts);
    free(sel);
    store_free_runs(rows, n);
    store_close(st);
    return code;
}
