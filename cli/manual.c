/* manual.c -- the help texts that belong to no single command (exit
 * status, environment, files) and the man page, cowtail.1, rendered in
 * roff from the very arrays `cowtail help` prints: the build writes the
 * page with `cowtail help --roff`, so help and page cannot drift.
 *
 * A usage array is plain text with two shapes the renderer knows:
 *
 *     "  --db FILE          database (default cowtail.db)"   an item: 2-4
 *     "                     continued here"                  spaces, a term,
 *                                                            2+ spaces, text
 *     "Any other line"                                        running text
 *
 * An empty line ends a paragraph. Exports cli_help_* arrays and
 * cli_print_roff(). */
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* ============================================================ texts ===== */

const char *const cli_exit_usage[] = {
    "exit status:",
    "  0   ok: everything landed (check: every run passes)",
    "  1   some input rejected: lines rejected or files refused (check: a",
    "      run fails a threshold)",
    "  2   usage error or unusable input: bad option or value, missing path,",
    "      bad run.json or thresholds file, no runs",
    "  3   file system or database error",
    "  4   internal error (a bug)",
    NULL
};

const char *const cli_env_usage[] = {
    "environment:",
    "  SQLITE_TMPDIR, TMPDIR   where SQLite keeps its temporary files (large",
    "                          sorts); default /var/tmp, /usr/tmp, /tmp",
    "  COWTAIL_LOCK_TIMEOUT    how long a command that writes the database waits",
    "                          for another writer (a duration: 30s, 2m; default",
    "                          10m) before it gives up naming the process",
    "cowtail reads no other variable: TZ and the locale change nothing (every",
    "instant is read and printed in UTC, numbers in the C locale).",
    NULL
};

const char *const cli_files_usage[] = {
    "files beside the captures (see also cowtail help ingest):",
    "  run.json          what the files cannot say (JSON object): label,",
    "                    scenario, mode (fork or forkless), host, trial,",
    "                    log_tz, log_year, time_unit, latency_unit, mem_unit,",
    "                    t0; each ingest option of the same name overrides it",
    "  thresholds.json   the limits of check and report --thresholds (JSON",
    "                    object, every key optional): max_p999_lift_ms,",
    "                    max_p99_lift_ms, max_p99_ms, max_p999_ms,",
    "                    max_cow_fraction, max_fork_ms, require_thp_off,",
    "                    min_samples",
    "  .cowtailignore    a folder holding this file is skipped with",
    "                    everything below it",
    "  cowtail.db        the default database (SQLite, --db FILE)",
    "  .cowtail-report   written by report into its output folder: a folder",
    "                    without it is not overwritten unless --force",
    "Hidden files, README*, run.json, thresholds.json and database files are",
    "never read as captures. Latency captures name their columns in a header",
    "(time, latency, op) with the unit as a suffix (_ns, _us, _ms, _s); a",
    "latency without a unit is refused rather than guessed.",
    NULL
};

/* ============================================================= roff ===== */

/* One UTF-8 sequence at p as a code point; *len its length (1 when bad). */
static unsigned utf8_at(const unsigned char *p, int *len)
{
    if (p[0] >= 0xf0 && (p[1] & 0xc0) == 0x80 && (p[2] & 0xc0) == 0x80 &&
        (p[3] & 0xc0) == 0x80) {
        *len = 4;
        return (unsigned)(p[0] & 7) << 18 | (unsigned)(p[1] & 63) << 12 |
               (unsigned)(p[2] & 63) << 6 | (unsigned)(p[3] & 63);
    }
    if (p[0] >= 0xe0 && (p[1] & 0xc0) == 0x80 && (p[2] & 0xc0) == 0x80) {
        *len = 3;
        return (unsigned)(p[0] & 15) << 12 | (unsigned)(p[1] & 63) << 6 |
               (unsigned)(p[2] & 63);
    }
    if (p[0] >= 0xc0 && (p[1] & 0xc0) == 0x80) {
        *len = 2;
        return (unsigned)(p[0] & 31) << 6 | (unsigned)(p[1] & 63);
    }
    *len = 1;
    return 0xfffd;
}

/* Text s[0..n) escaped for roff: backslashes, option dashes (\-), a
 * leading dot or quote, non-ASCII as \[uXXXX]. */
static void roff_text(FILE *fp, const char *s, size_t n)
{
    size_t i;
    int len;

    if (n > 0 && (s[0] == '.' || s[0] == '\''))
        fputs("\\&", fp);
    for (i = 0; i < n; i += (size_t)len) {
        unsigned char c = (unsigned char)s[i];
        len = 1;
        if (c == '\\')
            fputs("\\e", fp);
        else if (c == '-' && (i == 0 || strchr(" ([`'-/=|", s[i - 1]) != NULL))
            fputs("\\-", fp);
        else if (c >= 0x80)
            fprintf(fp, "\\[u%04X]", utf8_at((const unsigned char *)s + i, &len));
        else
            fputc(c, fp);
    }
}

static size_t indent_of(const char *s)
{
    size_t i = 0;
    while (s[i] == ' ')
        i++;
    return i;
}

/* The length of an item's term ("--db FILE") when line is an item, else 0. */
static size_t term_len(const char *line)
{
    size_t in = indent_of(line);
    const char *gap;

    if (in < 2 || in > 4 || line[in] == '\0')
        return 0;
    gap = strstr(line + in, "  ");
    return gap ? (size_t)(gap - line) - in : 0;
}

/* One usage array as roff. The first line "usage: cowtail X ..." becomes
 * the synopsis when skip_usage is 0 and is left out otherwise. */
static void roff_usage(FILE *fp, const char *const *u)
{
    int in_item = 0;

    for (; *u; u++) {
        const char *line = *u;
        size_t t = term_len(line), in = indent_of(line);

        if (strncmp(line, "usage: ", 7) == 0) {
            fputs(".PP\n.B ", fp);
            roff_text(fp, line + 7, strlen(line + 7));
            fputs("\n.PP\n", fp);
            in_item = 0;
        } else if (line[0] == '\0') {
            fputs(".PP\n", fp);
            in_item = 0;
        } else if (t > 0) {
            fputs(".TP\n.B ", fp);
            roff_text(fp, line + in, t);
            fputc('\n', fp);
            in += t + indent_of(line + in + t);
            roff_text(fp, line + in, strlen(line + in));
            fputc('\n', fp);
            in_item = 1;
        } else if (in > 0 && in_item) {
            roff_text(fp, line + in, strlen(line + in));
            fputc('\n', fp);
        } else {
            if (in_item)
                fputs(".PP\n", fp);
            in_item = 0;
            if (in > 0)
                fputs(".br\n", fp);
            roff_text(fp, line + in, strlen(line + in));
            fputc('\n', fp);
        }
    }
}

/* A section from a usage array whose first line ("exit status:") is the
 * heading already written. */
static void roff_section(FILE *fp, const char *title, const char *const *u)
{
    fprintf(fp, ".SH %s\n", title);
    roff_usage(fp, u + 1);
}

static void roff_formats(FILE *fp)
{
    const cow_parser *const *p;

    fputs(".SH FILE FORMATS\n"
          "Each capture file is recognised from its content (and, for single-value\n"
          "files, its name);\n.B \\-\\-parser\n.I NAME\nforces one. The formats:\n", fp);
    for (p = parser_list(); *p; p++) {
        fputs(".TP\n.B ", fp);
        roff_text(fp, (*p)->name, strlen((*p)->name));
        fputc('\n', fp);
        roff_text(fp, (*p)->what, strlen((*p)->what));
        fputc('\n', fp);
    }
    fputs(".PP\n", fp);
    roff_usage(fp, cli_files_usage);
}

void cli_print_roff(FILE *fp, const cow_command *cmds, const char *const *intro)
{
    const cow_command *c;

    fprintf(fp, ".\\\" cowtail.1 -- written by `cowtail help --roff` from the help texts.\n"
                ".TH COWTAIL 1 \"\" \"cowtail %s\" \"User Commands\"\n"
                ".nh\n.ad l\n"
                ".SH NAME\n"
                "cowtail \\- analyse Redis and Valkey fork and copy\\-on\\-write tail latency\n"
                ".SH SYNOPSIS\n"
                ".B cowtail\n.I command\n[\\fIoptions\\fR] [\\fIargs\\fR]\n.br\n"
                ".B cowtail help\n[\\fIcommand\\fR|\\fBformats\\fR]\n.br\n"
                ".B cowtail \\-\\-version\n"
                ".SH DESCRIPTION\n", COW_VERSION);
    roff_usage(fp, intro + 1);
    fputs(".SH COMMANDS\n", fp);
    for (c = cmds; c->name; c++) {
        fprintf(fp, ".SS %s\n", c->name);
        roff_text(fp, c->summary, strlen(c->summary));
        fputc('\n', fp);
        roff_usage(fp, c->usage);
    }
    roff_formats(fp);
    roff_section(fp, "EXIT STATUS", cli_exit_usage);
    roff_section(fp, "ENVIRONMENT", cli_env_usage);
    fputs(".SH SEE ALSO\n"
          ".BR sqlite3 (1),\n.BR redis\\-cli (1),\n.BR valkey\\-cli (1).\n"
          "The README and the raw formats reference are installed in\n"
          ".I share/doc/cowtail\nunder the installation prefix.\n", fp);
}
