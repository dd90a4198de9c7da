/* cmd_runs.c -- `cowtail runs`: list the runs in the database.
 *
 * The --json form is an array of objects with the stable keys documented
 * in the README: label, scenario, mode, host, trial, synthetic, files, samples,
 * rejected, events (kind -> count), info_dumps, smaps_snapshots, clock,
 * servers (role, pid, port, version, run_id, files, paths, how, facts),
 * ingested_on, facts (store_runfacts.h's columns: value and src each),
 * t_first_us, t_last_us. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "commands.h"
#include "mem.h"
#include "store_runfacts.h"
#include "timeconv.h"

const char *const cmd_runs_usage[] = {
    "usage: cowtail runs [--db FILE] [--json]",
    "",
    "List the runs in the database: label, files, samples, rejected lines,",
    "server events, servers (primaries+replicas, e.g. 1+1r) and the time",
    "span of the samples.",
    "",
    "  --db FILE   database (default cowtail.db)",
    "  --json      an array of objects with keys label, scenario, mode, host,",
    "              trial, synthetic (run.json says a generator made it),",
    "              files, samples, rejected, events (an object: event",
    "              kind -> count), info_dumps, smaps_snapshots, clock (how",
    "              each server log's zone was settled), servers (each role,",
    "              pid, port, version, run_id, files, paths, how, facts: its",
    "              own, as facts below), ingested_on",
    "              (the machine that ingested it, not its host), facts (what",
    "              the doctor reads, stored at ingest: each fact's value and",
    "              src, its file:line), t_first_us, t_last_us",
    "              (null when unknown), phases (labels of the last analysis,",
    "              null when never analysed); see the README",
    NULL
};

static void add_str(cJSON *o, const char *k, const char *v)
{
    if (v)
        cJSON_AddStringToObject(o, k, v);
    else
        cJSON_AddNullToObject(o, k);
}

/* Integers go in as raw text: cJSON prints doubles, and epoch microseconds
 * have 16 digits that must come out exact. */
static void add_int(cJSON *o, const char *k, long long v, int known)
{
    char buf[32];
    if (known) {
        snprintf(buf, sizeof(buf), "%lld", v);
        cJSON_AddRawToObject(o, k, buf);
    } else {
        cJSON_AddNullToObject(o, k);
    }
}

static void facts_json(cJSON *o, const cow_fact v[COW_RF_COUNT], int present, int per_server);

/* events (kind -> count), info_dumps, smaps_snapshots, clock and servers
 * (with their facts) of run r */
static int add_extras(cow_store *st, const cow_run_row *r, cJSON *o, cow_err *e)
{
    cow_run_extras x;
    cow_clock_row *c = NULL;
    cow_server_row *sv = NULL;
    char **paths = NULL;
    int *pserver = NULL;
    size_t nc = 0, ns = 0, np = 0, i, j;
    cJSON *ev, *cl, *sa, *pa;
    int rc;

    if ((rc = store_run_extras(st, r->id, &x, e)) != COW_OK)
        return rc;
    if ((rc = store_clock_list(st, r->id, &c, &nc, e)) != COW_OK ||
        (rc = store_run_servers(st, r->id, &sv, &ns, e)) != COW_OK ||
        (rc = store_server_files(st, r->id, &paths, &pserver, &np, e)) != COW_OK) {
        free(sv);
        store_free_clocks(c, nc);
        store_free_extras(&x);
        return rc;
    }
    ev = cJSON_AddObjectToObject(o, "events");
    for (i = 0; i < x.nkinds; i++)
        add_int(ev, x.kinds[i].kind, x.kinds[i].count, 1);
    add_int(o, "info_dumps", x.info_dumps, 1);
    add_int(o, "smaps_snapshots", x.smaps_snapshots, 1);
    cl = cJSON_AddArrayToObject(o, "clock");
    for (i = 0; i < nc; i++) {
        cJSON *k = cJSON_CreateObject();
        add_str(k, "file", c[i].path);
        add_str(k, "decided", c[i].decided);
        add_int(k, "offset_s", c[i].off_s, c[i].has_off);
        add_str(k, "evidence", c[i].evidence);
        cJSON_AddItemToArray(cl, k);
    }
    sa = cJSON_AddArrayToObject(o, "servers");
    for (i = 0; i < ns; i++) {
        cJSON *k = cJSON_CreateObject();
        add_str(k, "role", sv[i].role);
        add_int(k, "pid", sv[i].pid, sv[i].pid > 0);
        add_int(k, "port", sv[i].port, sv[i].port > 0);
        add_str(k, "version", sv[i].version[0] ? sv[i].version : NULL);
        add_str(k, "run_id", sv[i].run_id[0] ? sv[i].run_id : NULL);
        add_int(k, "files", sv[i].files, 1);
        pa = cJSON_AddArrayToObject(k, "paths");
        for (j = 0; j < np; j++)
            if (pserver[j] == sv[i].seq)
                cJSON_AddItemToArray(pa, cJSON_CreateString(paths[j]));
        add_str(k, "how", sv[i].how);
        {   /* its own facts (server_facts) */
            cow_fact v[COW_RF_COUNT];
            int present;
            if ((rc = store_server_facts_get(st, r->id, sv[i].seq, v, &present, e)) != COW_OK) {
                cJSON_AddItemToArray(sa, k);
                break;
            }
            facts_json(k, v, present, 1);
        }
        cJSON_AddItemToArray(sa, k);
    }
    for (j = 0; j < np; j++)
        free(paths[j]);
    free(paths);
    free(pserver);
    free(sv);
    store_free_clocks(c, nc);
    store_free_extras(&x);
    return rc;
}

/* o's "facts": one key per column of run_facts (per_server: of
 * server_facts; store_runfacts.h) with its value and source, null when
 * unknown; null when there is no row (!present). */
static void facts_json(cJSON *o, const cow_fact v[COW_RF_COUNT], int present, int per_server)
{
    cJSON *f;
    int i;

    if (!present) {
        cJSON_AddNullToObject(o, "facts");
        return;
    }
    f = cJSON_AddObjectToObject(o, "facts");
    for (i = 0; i < COW_RF_COUNT; i++) {
        cJSON *k;
        if (per_server && !cow_rf_cols[i].server)
            continue;
        if (!v[i].known) {
            cJSON_AddNullToObject(f, cow_rf_cols[i].name);
            continue;
        }
        k = cJSON_AddObjectToObject(f, cow_rf_cols[i].name);
        if (cow_rf_cols[i].type == COW_RF_INT)
            cJSON_AddNumberToObject(k, "value", v[i].num);
        else
            cJSON_AddStringToObject(k, "value", v[i].text);
        add_str(k, "src", v[i].src[0] ? v[i].src : NULL);
    }
}

/* "facts": what the doctor reads (run_facts); null when the run has no
 * row (a database made before them, until the doctor runs). */
static int add_facts(cow_store *st, const cow_run_row *r, cJSON *o, cow_err *e)
{
    cow_fact v[COW_RF_COUNT];
    int present;

    if (store_run_facts_get(st, r->id, v, &present, e) != COW_OK)
        return e->code ? e->code : COW_ESQL;
    facts_json(o, v, present, 0);
    return COW_OK;
}

static int print_json(cow_store *st, const cow_run_row *rows, size_t n)
{
    cJSON *arr = cJSON_CreateArray();
    cow_err e = COW_ERR_INIT;
    size_t i;
    int code;

    for (i = 0; i < n; i++) {
        const cow_run_row *r = &rows[i];
        cJSON *o = cJSON_CreateObject();
        add_str(o, "label", r->label);
        add_str(o, "scenario", r->scenario);
        add_str(o, "mode", r->mode);
        add_str(o, "host", r->host);
        add_int(o, "trial", r->trial, r->trial >= 0);
        cJSON_AddBoolToObject(o, "synthetic", r->synthetic);
        add_int(o, "files", r->files, 1);
        add_int(o, "samples", r->samples, 1);
        add_int(o, "rejected", r->rejected, 1);
        if (add_extras(st, r, o, &e) != COW_OK) {
            cli_error(&e);
            cJSON_Delete(o);
            cJSON_Delete(arr);
            return cli_exit_for(e.code);
        }
        add_str(o, "ingested_on", r->ingested_on);
        if (add_facts(st, r, o, &e) != COW_OK) {
            cli_error(&e);
            cJSON_Delete(o);
            cJSON_Delete(arr);
            return cli_exit_for(e.code);
        }
        add_int(o, "t_first_us", r->t_first_us, r->samples > 0);
        add_int(o, "t_last_us", r->t_last_us, r->samples > 0);
        if (r->phases) {
            cJSON *ph = cJSON_CreateArray();
            char *copy = xstrdup(r->phases), *tok, *save = NULL;
            for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
                cJSON_AddItemToArray(ph, cJSON_CreateString(tok));
            free(copy);
            cJSON_AddItemToObject(o, "phases", ph);
        } else {
            cJSON_AddNullToObject(o, "phases");
        }
        cJSON_AddItemToArray(arr, o);
    }
    code = cli_print_json(arr);
    cJSON_Delete(arr);
    return code;
}

/* "1+1r": the run's primaries and replicas ("-" when no server file). */
static int servers_cell(cow_store *st, const cow_run_row *r, char *buf, size_t cap)
{
    cow_err e = COW_ERR_INIT;
    cow_server_row *sv = NULL;
    size_t ns = 0, i, nrep = 0;
    if (store_run_servers(st, r->id, &sv, &ns, &e) != COW_OK) {
        cli_error(&e);
        return cli_exit_for(e.code);
    }
    for (i = 0; i < ns; i++)
        nrep += strcmp(sv[i].role, "replica") == 0;
    if (ns == 0)
        snprintf(buf, cap, "-");
    else if (nrep > 0)
        snprintf(buf, cap, "%zu+%zur", ns - nrep, nrep);
    else
        snprintf(buf, cap, "%zu", ns);
    free(sv);
    return EXIT_OK;
}

static int print_table(cow_store *st, const cow_run_row *rows, size_t n)
{
    size_t i;
    int code;
    printf("%-28s %5s %9s %8s %7s %7s  %-24s %9s  %s\n", "label", "files", "samples",
           "rejected", "events", "servers", "first sample (UTC)", "span s", "phases");
    for (i = 0; i < n; i++) {
        const cow_run_row *r = &rows[i];
        char first[40] = "-";
        char span[32] = "-";
        char srv[32];
        if ((code = servers_cell(st, r, srv, sizeof(srv))) != EXIT_OK)
            return code;
        if (r->samples > 0) {
            time_format_iso(r->t_first_us, first, sizeof(first));
            snprintf(span, sizeof(span), "%.3f",
                     (double)(r->t_last_us - r->t_first_us) / 1e6);
        }
        printf("%-28s %5lld %9lld %8lld %7lld %7s  %-24s %9s  %s\n", app_tty(r->label),
               (long long)r->files, (long long)r->samples,
               (long long)r->rejected, (long long)r->events, srv, first, span,
               r->phases ? r->phases : "(not analysed)");
    }
    if (n == 0)
        printf("(no runs: load captures with cowtail ingest PATH)\n");
    return EXIT_OK;
}

int cmd_runs(int argc, char **argv)
{
    static const struct option opts[] = {
        CLI_OPT_DB, CLI_OPT_JSON, CLI_OPT_HELP,
        {NULL, 0, NULL, 0}};
    cli_shared sh = {COW_DEFAULT_DB, NULL, 0, 0, COW_FROM_STORED};
    cow_store *st = NULL;
    cow_run_row *rows = NULL;
    size_t n = 0;
    int c, code;

    optind = 1;
    while ((c = cli_getopt(argc, argv, "h", opts)) != -1)
        if ((code = cli_shared_opt(c, argv[0], cmd_runs_usage, &sh)) != CLI_OPT_NEXT)
            return code;
    if (optind < argc) {
        cli_errorf("runs: unexpected argument '%s'", argv[optind]);
        return EXIT_USAGE;
    }
    if ((code = cli_open_runs(sh.db, &st, &rows, &n)) != EXIT_OK)
        return code;
    code = sh.json ? print_json(st, rows, n) : print_table(st, rows, n);
    store_free_runs(rows, n);
    store_close(st);
    return code;
}
