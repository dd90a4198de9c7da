/* detect.c -- the table of formats, sniffing, and the reject policy.
 *
 * Each parser lives in its own file and exports one cow_parser; this file
 * only lists them. To add a format: write ingest/<format>.c with a sniff
 * and a parse function, declare its cow_parser in formats.h, add a row. */
#include "parser.h"

#include <stdio.h>
#include <string.h>

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
    NULL
};

const cow_parser *parser_detect(const char *fname, const char *head, size_t n)
{
    const cow_parser *best = NULL;
    int best_score = 0;
    size_t i;

    for (i = 0; parsers[i] != NULL; i++) {
        int score = parsers[i]->sniff(fname, head, n);
        if (score > best_score) {
            best_score = score;
            best = parsers[i];
        }
    }
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

/* Requirement: a file lands whole or not at all. A few bad lines (a
 * truncated last line, a stray comment) are rejected one by one; when more
 * than 10% of a file's data lines are bad (and more than 2 of them), the
 * file is most likely not what the parser thinks it is, and it is refused
 * whole so that a misread file never lands half-right. */
int parser_too_many_rejects(long long rows, long long rejected)
{
    return rejected > 2 && rejected * 10 > rows + rejected;
}

int parser_run(const cow_parser *p, cow_src *s, const cow_parse_opts *o,
               cow_sink *k, cow_err *e)
{
    char why[128];
    size_t i;
    int rc = p->parse(s, o, k, e);

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
