/* cmd_rejects.c -- `cowtail rejects`: every rejected line and refused
 * file, with file:line and the reason. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "commands.h"

const char *const cmd_rejects_usage[] = {
    "usage: cowtail rejects [--db FILE] [--run LABEL] [--file NAME] [--json]",
    "",
    "List every line ingest rejected, every file it refused whole and every",
    "file no parser recognised, as file:line: reason (refused files say",
    "'refused', unrecognised ones 'not recognised'), by run, file and line.",
    "",
    "  --db FILE     database (default cowtail.db)",
    "  --run LABEL   only this run",
    "  --file NAME   only this file (its path, or its name below the run)",
    "  --json        an array of objects: run, file, line (null when",
    "                unknown), reason, excerpt (the line's start, null for a",
    "                refused file), refused (true for a file refused whole),",
    "                not_recognised (true for a file no parser recognised)",
    NULL
};

typedef struct rej_out {
    cJSON *arr;  /* --json, else NULL */
    long n;      /* rows seen */
} rej_out;

static int one(void *ctx, const cow_reject_row *r)
{
    rej_out *o = ctx;
    const char *what;
    o->n++;
    if (o->arr) {
        cJSON *j = cJSON_CreateObject();
        char buf[32];
        cJSON_AddStringToObject(j, "run", r->label);
        cJSON_AddStringToObject(j, "file", r->path);
        if (r->line > 0) {
            snprintf(buf, sizeof(buf), "%lld", (long long)r->line);
            cJSON_AddRawToObject(j, "line", buf);
        } else {
            cJSON_AddNullToObject(j, "line");
        }
        cJSON_AddStringToObject(j, "reason", r->reason);
        if (r->excerpt)
            cJSON_AddStringToObject(j, "excerpt", r->excerpt);
        else
            cJSON_AddNullToObject(j, "excerpt");
        cJSON_AddBoolToObject(j, "refused", r->refused);
        cJSON_AddBoolToObject(j, "not_recognised",
                              r->code != NULL && strcmp(r->code, "unrecognised") == 0);
        cJSON_AddItemToArray(o->arr, j);
        return 0;
    }
    what = r->refused ? "refused: "
           : r->code != NULL && strcmp(r->code, "unrecognised") == 0 ? "not recognised: "
                                                                      : "";
    if (r->line > 0)
        printf("%s:%lld: %s%s\n", app_tty(r->path), (long long)r->line, what,
               app_tty(r->reason));
    else
        printf("%s: %s%s\n", app_tty(r->path), what, app_tty(r->reason));
    return 0;
}

int cmd_rejects(int argc, char **argv)
{
    static const struct option opts[] = {
        CLI_OPT_DB,
        {"run", required_argument, NULL, 'r'},
        {"file", required_argument, NULL, 'f'},
        CLI_OPT_JSON, CLI_OPT_HELP,
        {NULL, 0, NULL, 0}};
    cli_shared sh = {COW_DEFAULT_DB, NULL, 0, 0, COW_FROM_STORED};
    const char *run = NULL, *file = NULL;
    cow_store *st = NULL;
    cow_run_row *rows = NULL;
    cow_err e = COW_ERR_INIT;
    rej_out o = {NULL, 0};
    size_t n = 0, i;
    int c, code, found;

    optind = 1;
    while ((c = cli_getopt(argc, argv, "h", opts)) != -1) {
        switch (c) {
        case 'r': run = optarg; break;
        case 'f': file = optarg; break;
        default:
            if ((code = cli_shared_opt(c, argv[0], cmd_rejects_usage, &sh)) != CLI_OPT_NEXT)
                return code;
        }
    }
    if (optind < argc) {
        cli_errorf("rejects: unexpected argument '%s'", argv[optind]);
        return EXIT_USAGE;
    }
    if ((code = cli_open_runs(sh.db, &st, &rows, &n)) != EXIT_OK)
        return code;
    for (i = 0, found = run == NULL; i < n && !found; i++)
        found = strcmp(rows[i].label, run) == 0;
    store_free_runs(rows, n);
    if (!found) {
        cli_errorf("rejects: no run labelled '%s' (see cowtail runs)", app_tty(run));
        store_close(st);
        return EXIT_USAGE;
    }
    if (sh.json)
        o.arr = cJSON_CreateArray();
    if (store_list_rejects(st, run, file, one, &o, &e) != COW_OK) {
        cli_error(&e);
        code = cli_exit_for(e.code);
    } else if (o.arr) {
        code = cli_print_json(o.arr);
    } else if (o.n == 0) {
        printf("(nothing rejected%s%s%s%s)\n", run ? " in run " : "", run ? run : "",
               file ? " for " : "", file ? file : "");
    }
    cJSON_Delete(o.arr);
    store_close(st);
    return code;
}
