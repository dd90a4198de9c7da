/* collect.h -- a sink that keeps every record in memory, for parser tests.
 *
 *     collect c; collect_init(&c);
 *     cow_sink k = collect_sink(&c);
 *     rc = parser->parse(&src, &opts, &k, &e);
 *     ... c.recs[i].kind, c.recs[i].u.event.kind, c.nsamples ...
 *     collect_free(&c);
 *
 * Strings in collected records are copies owned by the collector. Samples
 * are kept both as records (kind COW_REC_SAMPLE) and counted in nsamples. */
#ifndef COW_TESTS_COLLECT_H
#define COW_TESTS_COLLECT_H

#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "sink.h"

typedef struct collect {
    cow_rec *recs;     /* every record, in order */
    size_t n, cap;     /* used and allocated */
    char **strs;       /* copied strings, freed by collect_free */
    size_t nstr, capstr;
    size_t nsamples, nrejects, nnotes; /* counts by kind */
} collect;

static inline void collect_init(collect *c) { memset(c, 0, sizeof(*c)); }

static inline const char *collect_dup(collect *c, const char *s, size_t n)
{
    char *d;
    if (s == NULL)
        return NULL;
    d = xstrndup(s, n);
    c->strs = xgrow(c->strs, sizeof(char *), c->nstr + 1, &c->capstr);
    c->strs[c->nstr++] = d;
    return d;
}
#define COLLECT_DUP(c, s) collect_dup((c), (s), (s) ? strlen(s) : 0)

static inline int collect_emit(void *ctx, const cow_rec *r, cow_err *e)
{
    collect *c = ctx;
    cow_rec *d;
    (void)e;
    c->recs = xgrow(c->recs, sizeof(cow_rec), c->n + 1, &c->cap);
    d = &c->recs[c->n++];
    *d = *r;
    switch ((enum cow_rec_kind)r->kind) {
    case COW_REC_SAMPLE: c->nsamples++;
        d->u.sample.op = COLLECT_DUP(c, r->u.sample.op); break;
    case COW_REC_EVENT:
        d->u.event.kind = COLLECT_DUP(c, r->u.event.kind);
        d->u.event.unit = COLLECT_DUP(c, r->u.event.unit);
        d->u.event.text = COLLECT_DUP(c, r->u.event.text); break;
    case COW_REC_INFO:
        d->u.info.section = COLLECT_DUP(c, r->u.info.section);
        d->u.info.key = COLLECT_DUP(c, r->u.info.key);
        d->u.info.sub = COLLECT_DUP(c, r->u.info.sub);
        d->u.info.text = COLLECT_DUP(c, r->u.info.text); break;
    case COW_REC_STAT:
        d->u.stat.source = COLLECT_DUP(c, r->u.stat.source);
        d->u.stat.key = COLLECT_DUP(c, r->u.stat.key);
        d->u.stat.text = COLLECT_DUP(c, r->u.stat.text);
        d->u.stat.unit = COLLECT_DUP(c, r->u.stat.unit); break;
    case COW_REC_MEM: d->u.mem.what = COLLECT_DUP(c, r->u.mem.what); break;
    case COW_REC_LATMON:
        d->u.latmon.kind = COLLECT_DUP(c, r->u.latmon.kind);
        d->u.latmon.event = COLLECT_DUP(c, r->u.latmon.event);
        d->u.latmon.text = COLLECT_DUP(c, r->u.latmon.text); break;
    case COW_REC_INTERVAL: d->u.interval.op = COLLECT_DUP(c, r->u.interval.op); break;
    case COW_REC_PCTL:
        d->u.pctl.source = COLLECT_DUP(c, r->u.pctl.source);
        d->u.pctl.op = COLLECT_DUP(c, r->u.pctl.op); break;
    case COW_REC_REJECT: c->nrejects++;
        d->u.reject.reason = COLLECT_DUP(c, r->u.reject.reason);
        d->u.reject.text = collect_dup(c, r->u.reject.text, r->u.reject.n); break;
    case COW_REC_NOTE: c->nnotes++;
        d->u.note.key = COLLECT_DUP(c, r->u.note.key);
        d->u.note.value = COLLECT_DUP(c, r->u.note.value); break;
    case COW_REC_QUIET:
        d->u.quiet.kind = COLLECT_DUP(c, r->u.quiet.kind);
        d->u.quiet.how = COLLECT_DUP(c, r->u.quiet.how); break;
    case COW_REC_PROC:
        d->u.proc.roles = COLLECT_DUP(c, r->u.proc.roles);
        d->u.proc.version = COLLECT_DUP(c, r->u.proc.version); break;
    }
    return 0;
}

static inline cow_sink collect_sink(collect *c)
{
    cow_sink k;
    k.emit = collect_emit;
    k.emit_samples = NULL;
    k.ctx = c;
    return k;
}

/* The i-th record of a kind, or NULL. */
static inline const cow_rec *collect_nth(const collect *c, int kind, size_t i)
{
    size_t j;
    for (j = 0; j < c->n; j++)
        if (c->recs[j].kind == kind && i-- == 0)
            return &c->recs[j];
    return NULL;
}

static inline size_t collect_count(const collect *c, int kind)
{
    size_t j, k = 0;
    for (j = 0; j < c->n; j++)
        k += c->recs[j].kind == kind;
    return k;
}

static inline void collect_free(collect *c)
{
    size_t i;
    for (i = 0; i < c->nstr; i++)
        free(c->strs[i]);
    free(c->strs);
    free(c->recs);
    memset(c, 0, sizeof(*c));
}

#endif
