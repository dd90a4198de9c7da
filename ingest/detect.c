/* detect.c -- the table of formats, sniffing, and running a parser (the
 * reject policy every parser applies: parser.c).
 *
 * Each parser lives in its own file and exports one cow_parser; this file
 * only lists them. To add a format: write ingest/<format>.c with a sniff
 * and a parse function, declare its cow_parser in formats.h, add a row. */
#include "parser.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "prefix.h"
#include "text.h"
#include "formats.h"

static const cow_parser *const parsers[] = {
    &cow_parser_latency_csv,
    &cow_parser_latency_json,
    &cow_parser_rbench_csv,
    &cow_parser_rbench_text,
    &cow_parser_memtier_json,
    &cow_parser_hgrm,
    &cow_parser_redis_log,
    &cow_parser_smaps,
    &cow_parser_procfs,
    &cow_parser_mem_series,
    &cow_parser_redis_info,
    &cow_parser_redis_config,
    &cow_parser_redis_conf,
    &cow_parser_latency_monitor,
    &cow_parser_cli_latency,
    &cow_parser_throughput_csv,
    &cow_parser_probe_quiet,
    &cow_parser_kstat,
    &cow_parser_memtier_text,
    &cow_parser_transcript,
    NULL
};

/* The head with the line prefixes of prefix.h peeled off each line and
 * transcript prompts and echoes emptied, as the parsers will see it (a NUL-terminated heap copy; *m its length). */
static char *head_peeled(const char *head, size_t n, size_t *m)
{
    char *out = xmalloc(n + 1);
    size_t at = 0, o = 0;
    cow_prefix pf;

    while (at < n) {
        const char *nl = memchr(head + at, '\n', n - at);
        size_t len = nl ? (size_t)(nl - (head + at)) : n - at;
        size_t skip = prefix_peel(head + at, len, &pf), keep = len - skip;
        const char *cmd, *l = head + at + skip;
        size_t ncmd, len2 = keep;

        if (len2 > 0 && l[len2 - 1] == '\r')
            len2--;
        if (nl != NULL && len2 > 0 &&
            (prefix_prompt(l, len2, &cmd, &ncmd) || prefix_echo(l, len2)))
            keep = 0;   /* a transcript's prompt or echo: no parser reads it */
        memcpy(out + o, l, keep);
        o += keep;
        if (nl != NULL)
            out[o++] = '\n';
        at += len + (nl != NULL);
    }
    out[o] = '\0';
    *m = o;
    return out;
}

const cow_parser *parser_detect(const char *fname, const char *head, size_t n)
{
    const cow_parser *best = NULL;
    int best_score = 0;
    size_t i, m;
    char *peeled = head_peeled(head, n, &m);

    for (i = 0; parsers[i] != NULL; i++) {
        /* the transcript splitter looks for the prompts the others skip,
         * the log sniffer at the syslog idents */
        int score = parsers[i] == &cow_parser_transcript ||
                            parsers[i] == &cow_parser_redis_log
                        ? parsers[i]->sniff(fname, head, n)
                        : parsers[i]->sniff(fname, peeled, m);
        if (score > best_score) {
            best_score = score;
            best = parsers[i];
        }
    }
    free(peeled);
    return best;
}

const cow_parser *parser_by_name(const char *name)
{
    size_t i;
    for (i = 0; parsers[i] != NULL; i++)
        if (strcmp(parsers[i]->name, name) == 0)
            return parsers[i];
    return NULL;
}

const cow_parser *const *parser_list(void)
{
    return parsers;
}

/* What the source peeled off or skipped (common/prefix.h), as notes. */
static int wrapper_notes(const cow_parser *p, const cow_src *s, cow_sink *k, cow_err *e)
{
    char what[300], note[400];
    int rc = COW_OK;

    if (s->prompts > 0) {
        snprintf(note, sizeof(note), "%ld prompt, reply or command echo lines "
                 "of a terminal transcript skipped", s->prompts);
        rc = sink_note(k, "transcript", note, e);
    }
    if (rc != COW_OK || s->peeled == 0)
        return rc;
    snprintf(note, sizeof(note), "%ld lines: %s%s", s->peeled,
             prefix_describe(s->peel_kinds, what, sizeof(what)),
             s->stamped > 0 && p == &cow_parser_redis_log
                 ? "; their zoned stamps settle the log's zone and year"
                 : "");
    return sink_note(k, "prefix_peeled", note, e);
}

int parser_run(const cow_parser *p, cow_src *s, const cow_parse_opts *o,
               cow_sink *k, cow_err *e)
{
    char why[128];
    size_t i;
    cow_parse_opts oo;
    int rc;

    if (o != NULL)
        oo = *o;
    else
        memset(&oo, 0, sizeof(oo));
    oo.detect = parser_detect;   /* a transcript's sections: see parser.h */
    rc = p->parse(s, &oo, k, e);

    if (rc == COW_OK)
        rc = wrapper_notes(p, s, k, e);
    if (rc != COW_OK || s->nlong == 0)
        return rc;
    if (s->nlong > COW_SRC_MAX_LONG) {
        cow_err_at(e, s->name, s->long_no[0], 0);
        return COW_FAIL(e, COW_ELIMIT,
                        "%zu lines longer than %u MiB (the line limit): this "
                        "is not a text capture", s->nlong, COW_MAX_LINE_BYTES >> 20);
    }
    snprintf(why, sizeof(why), "line longer than %u MiB (the line limit): "
             "skipped", COW_MAX_LINE_BYTES >> 20);
    for (i = 0; i < s->nlong && rc == COW_OK; i++)
        rc = sink_reject(k, s->long_no[i], why, "", 0, e);
    return rc;
}

const char *parser_why_unknown(const char *head, size_t n)
{
    if (n == 0)
        return "empty file (0 bytes): nothing to read";
    if (memchr(head, '\0', n) != NULL)
        return "binary data (NUL bytes) where a text capture was expected";
    if (memchr(head, '\n', n) == NULL && memchr(head, '\r', n) != NULL)
        return "line ends are CR only (classic Mac text): convert them with "
               "tr '\\r' '\\n'";
    if (!text_is_utf8(head, n))
        return "not UTF-8 text: convert it (e.g. iconv -f latin1 -t utf-8)";
    return NULL;
}
