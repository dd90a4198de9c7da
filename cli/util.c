/* util.c -- printing helpers shared by the subcommands. */
#define _GNU_SOURCE /* fopencookie */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "label.h"
#include "mem.h"

/* ------------------------------------------------ terminal-safe streams */

/* Labels, paths and reasons reach stdout and stderr from many printf
 * calls; rather than trusting each one, main() puts a filter in front of
 * both streams (cli_safe_streams): every byte goes through
 * label_safe_n(COW_LABEL_TEXT), so a control character in a folder name
 * is shown as \xNN (ESC[2J cannot clear the screen) and invalid UTF-8 as
 * U+FFFD. A UTF-8 sequence split between two writes is held back until
 * its end arrives. */
typedef struct safe_stream {
    FILE *real;       /* the stream written to */
    char tail[4];     /* start of a UTF-8 sequence cut by the last write */
    size_t ntail;     /* its length (0..3) */
} safe_stream;

static safe_stream safe_out, safe_err;

static ssize_t safe_write(void *cookie, const char *buf, size_t n)
{
    safe_stream *ss = cookie;
    size_t all = ss->ntail + n, keep, outn;
    char *joined = xmalloc(all ? all : 1), *out;
    int ok;

    memcpy(joined, ss->tail, ss->ntail);
    memcpy(joined + ss->ntail, buf, n);
    keep = label_utf8_tail(joined, all);
    out = label_safe_n(joined, all - keep, COW_LABEL_TEXT, &outn);
    memcpy(ss->tail, joined + all - keep, keep);
    ss->ntail = keep;
    ok = fwrite(out, 1, outn, ss->real) == outn && fflush(ss->real) == 0;
    free(out);
    free(joined);
    return ok ? (ssize_t)n : -1;
}

static int safe_close(void *cookie)
{
    safe_stream *ss = cookie;
    if (ss->ntail > 0) /* a sequence the output ended in the middle of */
        fputs("\xEF\xBF\xBD", ss->real);
    ss->ntail = 0;
    return fflush(ss->real);
}

static FILE *safe_wrap(safe_stream *ss, FILE *real, int mode)
{
    cookie_io_functions_t io = {NULL, safe_write, NULL, safe_close};
    FILE *fp;

    ss->real = real;
    ss->ntail = 0;
    if ((fp = fopencookie(ss, "w", io)) == NULL)
        return real;
    setvbuf(fp, NULL, mode, BUFSIZ);
    return fp;
}

void cli_safe_streams(void)
{
    FILE *out = safe_wrap(&safe_out, stdout, _IOFBF);
    FILE *err = safe_wrap(&safe_err, stderr, _IOLBF);
    stdout = out;
    stderr = err;
}

FILE *cli_raw_stderr(void)
{
    return safe_err.real ? safe_err.real : stderr;
}

void cli_error(const cow_err *e)
{
    char buf[1200];
    cow_err_format(e, buf, sizeof(buf));
    fprintf(stderr, "cowtail: %s\n", buf);
}

void cli_errorf(const char *fmt, ...)
{
    va_list ap;
    fputs("cowtail: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
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
        (safe_out.real && (fflush(safe_out.real) != 0 || ferror(safe_out.real)))) {
        fprintf(stderr, "cowtail: cannot write output: %s\n", strerror(errno));
        return code ? code : EXIT_IO;
    }
    return code;
}

int cli_open_runs(const char *db, cow_store **st, cow_run_row **rows, size_t *n)
{
    cow_err e = COW_ERR_INIT;

    *st = NULL;
    *rows = NULL;
    *n = 0;
    if (strcmp(db, ":memory:") != 0 && access(db, F_OK) != 0) {
        cli_errorf("%s: no such database: load captures first (cowtail ingest "
                   "--db %s CAPTURE...)", db, db);
        return EXIT_USAGE;
    }
    if (store_open(db, st, &e) != COW_OK || store_list_runs(*st, rows, n, &e) != COW_OK) {
        cli_error(&e);
        store_close(*st);
        *st = NULL;
        return EXIT_IO;
    }
    return EXIT_OK;
}

void cli_print_parsers(FILE *fp)
{
    const cow_parser *const *p;
    fprintf(fp, "\nformats (recognised from the content; --parser NAME forces one):\n");
    for (p = parser_list(); *p; p++)
        fprintf(fp, "  %-20s %s\n", (*p)->name, (*p)->what);
}
