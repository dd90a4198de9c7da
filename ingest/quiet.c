/* quiet.c -- what an open-loop probe says of the time it could not turn
 * into samples: `cowtail capture`'s stalls.csv and probe-gaps.csv.
 *
 * Exports cow_parser_probe_quiet. Requirements:
 *  1. The file is known by its exact header, either
 *       start_us,length_us,waiting,ended     (stalls.csv: the server
 *         answered nothing for length_us from start_us while `waiting`
 *         requests waited; ended: reply, or end when the capture ended)
 *       intended_us,slots,length_us,reason   (probe-gaps.csv: `slots`
 *         slots from intended_us not sent; reason late, buffer or cap)
 *     and nothing else is read as one.
 *  2. Each row is one COW_REC_QUIET. Epoch stamps in us within 1990..2100,
 *     lengths and counts whole and not negative, the last field one of
 *     its words: anything else is a reject with the reason. */
#include <stdio.h>
#include <string.h>

#include "formats.h"
#include "num.h"
#include "timeconv.h"

static const char stall_head[] = "start_us,length_us,waiting,ended";
static const char gap_head[] = "intended_us,slots,length_us,reason";

/* 1 stalls, 2 gaps, 0 neither (requirement 1). */
static int which(const char *p, size_t n)
{
    if (n > 0 && p[n - 1] == '\r')
        n--;
    if (n == sizeof(stall_head) - 1 && memcmp(p, stall_head, n) == 0)
        return 1;
    if (n == sizeof(gap_head) - 1 && memcmp(p, gap_head, n) == 0)
        return 2;
    return 0;
}

static int sniff(const char *fname, const char *head, size_t n)
{
    const char *nl = memchr(head, '\n', n);
    (void)fname;
    return which(head, nl ? (size_t)(nl - head) : n) ? 95 : 0;
}

/* The row's four fields; NULL, or why it is not a row. */
static const char *row(int kind, const char *p, size_t n, cow_quiet *q)
{
    static const char *const stall_words[] = {"reply", "end", NULL};
    static const char *const gap_words[] = {"late", "buffer", "cap", NULL};
    const char *const *words = kind == 1 ? stall_words : gap_words;
    const char *f[4];
    size_t len[4], i, k = 0, at = 0;
    int64_t v[3];

    for (i = 0; i <= n && k < 4; i++)
        if (i == n || p[i] == ',') {
            f[k] = p + at;
            len[k++] = i - at;
            at = i + 1;
        }
    if (k != 4 || at <= n)
        return "not four fields";
    for (i = 0; i < 3; i++)
        if (!num_parse_i64(f[i], len[i], &v[i]) || v[i] < 0)
            return "not a whole number >= 0";
    if (v[0] < COW_EPOCH_MIN_S * 1000000 || v[0] > COW_EPOCH_MAX_S * 1000000)
        return "start is not an epoch in us (1990..2100)";
    for (i = 0; words[i]; i++)
        if (len[3] == strlen(words[i]) && memcmp(f[3], words[i], len[3]) == 0)
            break;
    if (words[i] == NULL)
        return kind == 1 ? "ended is neither reply nor end"
                         : "reason is not late, buffer or cap";
    q->kind = kind == 1 ? "stall" : "gap";
    q->t_us = v[0];
    q->dur_us = kind == 1 ? v[1] : v[2];
    q->n = kind == 1 ? v[2] : v[1];
    q->how = words[i];
    return NULL;
}

static int parse(cow_src *s, const cow_parse_opts *o, cow_sink *k, cow_err *e)
{
    cow_line ln;
    int got, kind = 0, rc = COW_OK;
    long long rows = 0;
    char note[128];

    (void)o;
    while (rc == COW_OK && (got = src_next_line(s, &ln, e)) == 1) {
        cow_rec r;
        const char *why;
        if (kind == 0) {
            if ((kind = which(ln.p, ln.n)) == 0) {
                cow_err_at(e, s->name, ln.no, 0);
                return COW_FAIL(e, COW_EPARSE, "the header is neither '%s' nor '%s': not "
                                "a probe's stalls or gaps file (name its parser with "
                                "--parser, or leave the file out)", stall_head, gap_head);
            }
            continue;
        }
        if (ln.n == 0)
            continue;
        memset(&r, 0, sizeof(r));
        r.kind = COW_REC_QUIET;
        r.u.quiet.line = ln.no;
        if ((why = row(kind, ln.p, ln.n, &r.u.quiet)) != NULL)
            rc = sink_reject(k, ln.no, why, ln.p, ln.n, e);
        else if ((rc = sink_emit(k, &r, e)) == COW_OK)
            rows++;
    }
    if (rc != COW_OK)
        return rc;
    if (got < 0)
        return e->code;
    snprintf(note, sizeof(note), "%lld %s", rows,
             kind == 2 ? "runs of probe slots not sent" :
             "periods in which the server answered nothing while probe requests waited");
    return sink_note(k, kind == 2 ? "probe gaps" : "stalls", note, e);
}

const cow_parser cow_parser_probe_quiet = {
    "probe-stalls",
    "cowtail capture's stalls.csv (the server answered nothing) and probe-gaps.csv "
    "(slots the probe did not send)",
    sniff, parse};
