/* util.c -- printing helpers shared by the subcommands. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "inputs.h"
#include "label.h"
#include "mem.h"
#include "optval.h"
#include "termsafe.h"


void cli_error(const cow_err *e)
{
    char buf[1200];
    cow_err_format(e, buf, sizeof(buf));
    fprintf(stderr, "cowtail: %s\n", buf);
}

void cli_errorf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("cowtail: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* ------------------------------------------------ what app/ says (app_sink) */

static void sink_say(void *ctx, const char *text)
{
    (void)ctx;
    fputs(text, stdout);
}

static void sink_error(void *ctx, const char *line)
{
    (void)ctx;
    fprintf(stderr, "cowtail: %s\n", line);
}

/* "\r  path: N records..." on the terminal, erased when the file is done;
 * written around the filter (its escapes are its own), the path made safe */
static void sink_progress(void *ctx, const char *path, long long rows)
{
    FILE *tty = term_raw_stderr();
    (void)ctx;
    if (path) {
        char *safe = label_safe(path, COW_LABEL_TERM);
        fflush(stderr);
        fprintf(tty, "\r  %s: %lld records...", safe, rows);
        free(safe);
    } else {
        fprintf(tty, "\r\033[K");
    }
    fflush(tty);
}

void cli_sink_install(void)
{
    app_sink s = {sink_say, sink_error, NULL, NULL};
    if (isatty(2))
        s.progress = sink_progress;
    app_set_sink(&s);
}

void cli_print_totals(FILE *fp, const cow_ingest_totals *tot)
{
    fprintf(fp, "ingested %ld file%s into %ld run%s: %lld records, %lld rejected "
           "lines; %ld refused, %ld already ingested, %ld not recognised\n",
           tot->files_ok, tot->files_ok == 1 ? "" : "s", tot->runs,
           tot->runs == 1 ? "" : "s", tot->rows, tot->rejected, tot->files_refused,
           tot->files_dup, tot->files_skipped);
}

int cli_print_inputs(FILE *fp, cow_store *st, char **paths, int npaths, int64_t since_s)
{
    cow_err e = COW_ERR_INIT;
    app_inputs in;
    size_t i;
    if (app_inputs_of_ingest(st, paths, npaths, since_s, &in, &e) != COW_OK) {
        cli_error(&e);
        return EXIT_IO;
    }
    if (in.n > 0)
        fprintf(fp, "files that did not land whole (cowtail rejects lists them again):\n");
    for (i = 0; i < in.n; i++) {
        char *line = app_input_line(&in.v[i], APP_ANSWER_TERM);
        fprintf(fp, "  %s\n", line);
        free(line);
    }
    app_inputs_release(&in);
    return EXIT_OK;
}

void cli_print_usage(FILE *fp, const char *const *usage)
{
    for (; *usage; usage++)
        fprintf(fp, "%s\n", *usage);
}

int cli_exit_for(int code)
{
    switch ((enum cow_code)code) {
    case COW_OK: return EXIT_OK;
    case COW_EPARSE:
    case COW_EUNIT:
    case COW_ECLOCK:
    case COW_ELIMIT:
    case COW_EUSAGE: return EXIT_USAGE;
    case COW_EDUP: return EXIT_OK;
    case COW_EIO:
    case COW_ESQL: return EXIT_IO;
    case COW_EINTERNAL: return EXIT_INTERNAL;
    }
    return EXIT_INTERNAL;
}

int cli_finish_stdout(int code)
{
    fflush(stderr);
    if (fflush(stdout) != 0 || ferror(stdout) ||
        fflush(term_raw_stdout()) != 0 || ferror(term_raw_stdout())) {
        fprintf(stderr, "cowtail: cannot write output: %s\n", strerror(errno));
        return code ? code : EXIT_IO;
    }
    return code;
}

static int store_open_as(const char *db, int read_only, cow_store **st)
{
    const char *env = getenv("COWTAIL_LOCK_TIMEOUT");
    cow_err e = COW_ERR_INIT;
    int64_t us = 0;

    *st = NULL;
    if (env != NULL &&
        optval_duration_us("COWTAIL_LOCK_TIMEOUT", env, 1000, (int64_t)24 * 3600 * 1000000,
                           &us, &e) != COW_OK) {
        cli_error(&e);
        return EXIT_USAGE;
    }
    if ((read_only ? store_open_read : store_open_wait)(db, app_store_wait, NULL,
                                                       (int)(us / 1000), st, &e) != COW_OK) {
        cli_error(&e);
        return EXIT_IO;
    }
    return EXIT_OK;
}

int cli_store_open(const char *db, cow_store **st)
{
    return store_open_as(db, 0, st);
}

int cli_open_runs(const char *db, cow_store **st, cow_run_row **rows, size_t *n)
{
    cow_err e = COW_ERR_INIT;
    int code;

    *st = NULL;
    *rows = NULL;
    *n = 0;
    if (strcmp(db, ":memory:") != 0 && access(db, F_OK) != 0) {
        cli_errorf("%s: no such database: load captures first (cowtail ingest "
                   "--db %s CAPTURE...)", db, db);
        return EXIT_USAGE;
    }
    if ((code = store_open_as(db, 1, st)) != EXIT_OK)
        return code;
    if (store_list_runs(*st, rows, n, &e) != COW_OK) {
        cli_error(&e);
        store_close(*st);
        *st = NULL;
        return EXIT_IO;
    }
    if (store_is_full(*st))
        cli_errorf("%s: its file system is full: reading without writing "
                   "(what analyze and doctor find is shown, not stored)", db);
    return EXIT_OK;
}

void cli_print_parsers(FILE *fp)
{
    const cow_parser *const *p;
    fprintf(fp, "\nformats (recognised from the content; --parser NAME forces one):\n");
    for (p = parser_list(); *p; p++)
        fprintf(fp, "  %-20s %s\n", (*p)->name, (*p)->what);
    fprintf(fp, "\nwrappers peeled off every line (and said so in the output):\n"
                "  docker compose logs 'name  | ', docker/kubectl -t RFC 3339 stamps (also\n"
                "  with ' | '), kubectl --prefix '[pod/...]', journalctl -o short-iso and\n"
                "  syslog 'Mon DD HH:MM:SS host ident[pid]: '; redis-cli and shell prompts,\n"
                "  replies (OK) and command echoes of terminal transcripts. A zoned\n"
                "  stamp in front of a server log line settles the log's zone.\n");
}

int cli_print_json(const struct cJSON *j)
{
    char *text = cJSON_Print(j);
    if (text == NULL) {
        cli_errorf("out of memory formatting JSON");
        return EXIT_INTERNAL;
    }
    puts(text);
    free(text);
    return EXIT_OK;
}

int cli_find_runs(const char *cmd, const cow_run_row *rows, size_t n, char **labels,
                  int nlabels, cow_run_row **found, size_t *nfound)
{
    size_t i;
    int a, code = EXIT_OK;

    *found = xcalloc(nlabels > 0 ? (size_t)nlabels : 1, sizeof(**found));
    *nfound = 0;
    for (a = 0; a < nlabels; a++) {
        for (i = 0; i < n && strcmp(rows[i].label, labels[a]) != 0; i++)
            ;
        if (i < n) {
            (*found)[(*nfound)++] = rows[i];
        } else {
            cli_errorf("%s: no run labelled '%s' (see cowtail runs)", cmd, app_tty(labels[a]));
            code = EXIT_USAGE;
        }
    }
    return code;
}

int cli_select_runs(const char *cmd, const cow_run_row *rows, size_t n, char **labels,
                    int nlabels, cow_run_row **sel, size_t *nsel)
{
    cow_run_row *found;
    size_t nfound, i;
    int a, code = cli_find_runs(cmd, rows, n, labels, nlabels, &found, &nfound);

    free(found);
    *sel = xcalloc(n ? n : 1, sizeof(**sel));
    *nsel = 0;
    for (i = 0; i < n; i++) {
        int want = nlabels == 0;
        for (a = 0; a < nlabels; a++)
            want |= strcmp(rows[i].label, labels[a]) == 0;
        if (want)
            (*sel)[(*nsel)++] = rows[i];
    }
    return code;
}

void cli_json_num(struct cJSON *o, const char *k, double v)
{
    if (isnan(v) || isinf(v))
        cJSON_AddNullToObject(o, k);
    else
        cJSON_AddNumberToObject(o, k, v);
}

void cli_json_qcmp(struct cJSON *o, const cow_qcmp *d)
{
    cli_json_num(o, "n_eff_base", d->dep_a.n_eff);
    cli_json_num(o, "n_eff", d->dep_b.n_eff);
    cli_json_num(o, "p_up", d->p_up);
    cli_json_num(o, "p_down", d->p_down);
    cli_json_num(o, "p", d->p);
    cli_json_num(o, "test_level", d->method == COW_QCMP_TAIL ? d->test.level : NAN);
}

const char *cli_program = "cowtail";
