/* latcsv.c -- per-sample latency captures in CSV or TSV with a header.
 *
 * Exports cow_parser_latency_csv. The header names the columns (see
 * latcols.c for aliases and units); the delimiter is the first of tab,
 * comma, semicolon found in the header. Blank lines and lines starting
 * with '#' are skipped anywhere. Fields may be double-quoted ("" escapes a
 * quote inside; a quoted field cannot span lines). A row that cannot be
 * used is rejected with its line and reason; clock problems refuse the
 * whole file (latcols.c requirement 4). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats.h"
#include "text.h"
#include "latcols.h"
#include "mem.h"

/* More columns than this is not a latency capture. */
#define LATCSV_MAX_FIELDS 256
/* Samples handed to the sink at once. */
#define LATCSV_BATCH 4096

typedef struct field {
    const char *p;  /* first byte, inside quotes when quoted */
    size_t n;       /* length */
} field;

/* Split a line; returns the field count, or -1 for an unterminated quote
 * or too many fields. */
static int split(const char *p, size_t n, char delim, field *f, int max)
{
    size_t i = 0;
    int k = 0;

    for (;;) {
        if (k == max)
            return -1;
        if (i < n && p[i] == '"') {
            size_t j = ++i;
            for (;;) {
                if (j >= n)
                    return -1;
                if (p[j] == '"') {
                    if (j + 1 < n && p[j + 1] == '"') {
                        j += 2;
                        continue;
                    }
                    break;
                }
                j++;
            }
            f[k].p = p + i;
            f[k++].n = j - i;
            i = j + 1;
            while (i < n && p[i] != delim)
                i++; /* text after a closing quote is ignored */
        } else {
            const char *d = memchr(p + i, delim, n - i);
            size_t end = d ? (size_t)(d - p) : n;
            f[k].p = p + i;
            f[k++].n = end - i;
            i = end;
        }
        if (i >= n)
            return k;
        i++; /* skip the delimiter */
    }
}

static int skippable(const cow_line *ln)
{
    size_t i = 0;
    while (i < ln->n && (ln->p[i] == ' ' || ln->p[i] == '\t'))
        i++;
    return i == ln->n || ln->p[i] == '#';
}

static int sniff(const char *fname, const char *head, size_t n)
{
    latcols lc;
    field f[LATCSV_MAX_FIELDS];
    const char *p = head, *end = head + n;
    int k, i;

    /* first line that is not a comment */
    while (p < end && (*p == '#' || *p == '\n' || *p == '\r')) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl ? nl + 1 : end;
    }
    if (p + 3 <= end && (unsigned char)p[0] == 0xEF && (unsigned char)p[1] == 0xBB)
        p += 3;
    {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (len > 0 && p[len - 1] == '\r')
            len--;
        k = split(p, len, text_find_delim(p, len), f, LATCSV_MAX_FIELDS);
    }
    if (k < 2)
        return 0;
    latcols_init(&lc, NULL);
    for (i = 0; i < k; i++)
        latcols_add(&lc, i, f[i].p, f[i].n);
    latcols_release(&lc);   /* the columns' indexes stay */
    if (lc.lat_col < 0)
        return 0;
    (void)fname;
    return lc.time_col >= 0 ? 80 : 30;
}

typedef struct csvstate {
    cow_src *s;            /* input */
    cow_sink *k;           /* output */
    latcols lc;            /* column meanings */
    opnames ops;           /* interned op names */
    cow_sample batch[LATCSV_BATCH]; /* samples not yet handed over */
    size_t nbatch;         /* used entries of batch */
    long long rows;        /* samples accepted */
    long long rejected;    /* rows rejected */
    int nhead;             /* header field count */
    int need;              /* fields a row needs */
    char delim;            /* field separator */
} csvstate;

static int flush(csvstate *st, cow_err *e)
{
    int rc = COW_OK;
    if (st->nbatch > 0)
        rc = sink_samples(st->k, st->batch, st->nbatch, e);
    st->nbatch = 0;
    return rc;
}

static int reject(csvstate *st, const cow_line *ln, const char *why, cow_err *e)
{
    st->rejected++;
    return sink_reject(st->k, ln->no, why, ln->p, ln->n, e);
}

static int row(csvstate *st, const cow_line *ln, cow_err *e)
{
    field f[LATCSV_MAX_FIELDS];
    const char *why = NULL;
    cow_sample *smp;
    int k, rc;

    if (!ln->eol)
        return st->rejected++, sink_reject(st->k, ln->no,
                           "last line has no line end: possibly truncated, "
                           "not used", ln->p, ln->n, e);
    k = split(ln->p, ln->n, st->delim, f, LATCSV_MAX_FIELDS);
    if (k < 0)
        return reject(st, ln, "unterminated quote or too many fields", e);
    if (k < st->need)
        return reject(st, ln, k == 1 ? "not a data row (one field)"
                                     : "missing column", e);
    smp = &st->batch[st->nbatch];
    rc = latcols_time(&st->lc, f[st->lc.time_col].p, f[st->lc.time_col].n,
                      &smp->t_us, &why, e);
    if (rc == COW_EPARSE)
        return reject(st, ln, why, e);
    if (rc != COW_OK) {
        cow_err_at(e, st->s->name, ln->no, 0);
        return rc;
    }
    if (latcols_latency(&st->lc, f[st->lc.lat_col].p, f[st->lc.lat_col].n,
                        &smp->lat_us, &why) != COW_OK)
        return reject(st, ln, why, e);
    smp->alt_us = 0;
    if (st->lc.int_col >= 0) {
        int64_t lag;
        if (latcols_intended(&st->lc, st->lc.int_col < k ? f[st->lc.int_col].p : "",
                             st->lc.int_col < k ? f[st->lc.int_col].n : 0, smp->t_us,
                             smp->lat_us, &lag)) {
            smp->alt_us = -lag; /* the intended send, lag before */
            if (st->lc.o && st->lc.o->latency_from_intended) {
                /* latcols.c requirement 7: reply - intended */
                smp->t_us -= lag;
                smp->lat_us += (double)lag;
                smp->alt_us = lag;
            }
        }
    }
    smp->op = NULL;
    if (st->lc.op_col >= 0 && memchr(f[st->lc.op_col].p, '\0', f[st->lc.op_col].n))
        return reject(st, ln, "op holds a NUL byte: not text", e);
    if (st->lc.op_col >= 0 && f[st->lc.op_col].n > 0)
        smp->op = opnames_intern(&st->ops, f[st->lc.op_col].p, f[st->lc.op_col].n);
    st->rows++;
    if (++st->nbatch == LATCSV_BATCH)
        return flush(st, e);
    return COW_OK;
}

static int header(csvstate *st, const cow_line *ln, cow_err *e)
{
    field f[LATCSV_MAX_FIELDS];
    int i, rc;

    st->delim = text_find_delim(ln->p, ln->n);
    st->nhead = split(ln->p, ln->n, st->delim, f, LATCSV_MAX_FIELDS);
    if (st->nhead < 2) {
        cow_err_at(e, st->s->name, ln->no, 0);
        return COW_FAIL(e, COW_EPARSE,
                        "expected a header line naming the columns "
                        "(e.g. timestamp_us,latency_us,op)");
    }
    for (i = 0; i < st->nhead; i++)
        latcols_add(&st->lc, i, f[i].p, f[i].n);
    if ((rc = latcols_check(&st->lc, e)) != COW_OK) {
        cow_err_at(e, st->s->name, ln->no, 0);
        return rc;
    }
    st->need = st->lc.time_col > st->lc.lat_col ? st->lc.time_col : st->lc.lat_col;
    if (st->lc.op_col > st->need)
        st->need = st->lc.op_col;
    st->need++;
    return COW_OK;
}

static int parse(cow_src *s, const cow_parse_opts *o, cow_sink *k, cow_err *e)
{
    csvstate *st = xcalloc(1, sizeof(*st));
    cow_line ln;
    int rc = COW_OK, got, have_header = 0;

    st->s = s;
    st->k = k;
    latcols_init(&st->lc, o);
    while ((got = src_next_line(s, &ln, e)) == 1) {
        if (skippable(&ln))
            continue;
        rc = have_header ? row(st, &ln, e) : header(st, &ln, e);
        if (rc != COW_OK)
            goto done;
        have_header = 1;
    }
    if (got < 0) {
        rc = e->code;
        goto done;
    }
    if (!have_header) {
        cow_err_at(e, s->name, 0, 0);
        rc = COW_FAIL(e, COW_EPARSE, "empty file: no header and no samples");
        goto done;
    }
    if (st->rows == 0) {
        cow_err_at(e, s->name, 0, 0);
        rc = COW_FAIL(e, COW_EPARSE, st->rejected == 0
                      ? "header only: no data rows"
                      : "no data row could be used (%lld rejected)", st->rejected);
        goto done;
    }
    if (parser_too_many_rejects(st->rows, st->rejected)) {
        cow_err_at(e, s->name, 0, 0);
        rc = COW_FAIL(e, COW_EPARSE,
                      "%lld of %lld data lines rejected (more than 10%%): is "
                      "this really a latency capture? Nothing of it was loaded",
                      st->rejected, st->rows + st->rejected);
        goto done;
    }
    if ((rc = flush(st, e)) != COW_OK)
        goto done;
    if (st->lc.time_decided)
        rc = latcols_notes(&st->lc, k, e);
    if (rc == COW_OK && st->ops.n >= OPNAMES_MAX)
        rc = sink_note(k, "op", "more than 256 distinct values: not kept", e);
done:
    latcols_release(&st->lc);
    opnames_release(&st->ops);
    free(st);
    return rc;
}

const cow_parser cow_parser_latency_csv = {
    "latency-csv",
    "per-sample latency, CSV/TSV with a header (time + latency [+ op])",
    sniff,
    parse,
};
