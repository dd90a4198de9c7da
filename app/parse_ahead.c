/* parse_ahead.c -- worker threads parse files into bounded buffers of
 * copied records; the writer replays them in file order (parse_ahead.h).
 *
 * A file's records go into chunks of AHEAD_CHUNK bytes: each item is a tag
 * and a size, then a cow_rec with its strings copied behind it, or a batch
 * of samples. A worker fills a chunk privately and publishes it whole; the
 * writer frees a chunk once replayed. Op names are interned once for the
 * whole ingest (the store caches them by pointer), so a name's pointer
 * stays valid and unique until ahead_stop. One mutex and one condition
 * variable guard the shared state: chunks are large, so it is rarely
 * taken. */
#include "parse_ahead.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mem.h"
#include "src.h"
#include "timeconv.h"

#define AHEAD_CHUNK (256u << 10)
#define ALIGN8(n) (((n) + 7u) & ~(size_t)7u)

enum { ITEM_REC = 1, ITEM_SAMPLES = 2 };

typedef struct item {
    uint32_t tag;
    uint32_t size;           /* bytes of the item, header included, aligned */
} item;

typedef struct chunk {
    struct chunk *next;
    size_t used, cap;
    max_align_t data[];      /* items */
} chunk;

typedef struct job {
    cow_ahead_file *f;
    size_t idx;              /* its place in the ingest order */
    int head_ready, done, cancel;
    cow_ahead_head head;
    chunk *first, *last;     /* published, not yet replayed */
    size_t bytes;            /* their size */
    chunk *cur;              /* being filled by the worker */
    int rc;                  /* parser result */
    cow_err e;
    char sha[65];
    const char *last_op, *last_copy; /* worker's one-entry op cache */
    struct cow_ahead *a;
} job;

struct cow_ahead {
    job *jobs;
    size_t n, next;
    size_t cur;              /* the file the writer is on */
    size_t bytes, limit;     /* published, not replayed, over all files */
    pthread_t *th;
    int nth;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int stop;
    cow_ahead_detect detect;
    char **names;            /* interned op names, freed at stop */
    size_t nnames, capnames;
};

/* The pipeline's copy of an op name (under the lock). */
static const char *intern(cow_ahead *a, const char *s)
{
    size_t i;
    const char *r;
    pthread_mutex_lock(&a->mu);
    for (i = 0; i < a->nnames; i++)
        if (strcmp(a->names[i], s) == 0)
            break;
    if (i == a->nnames) {
        a->names = xgrow(a->names, sizeof(*a->names), a->nnames + 1, &a->capnames);
        a->names[a->nnames++] = xstrdup(s);
    }
    r = a->names[i];
    pthread_mutex_unlock(&a->mu);
    return r;
}

static const char *op_copy(job *j, const char *op)
{
    if (op == NULL)
        return NULL;
    if (j->last_op != op || strcmp(j->last_copy, op) != 0) {
        j->last_copy = intern(j->a, op);
        j->last_op = op;
    }
    return j->last_copy;
}

/* Publish the chunk being filled; wait while the file holds its budget. */
static int publish(job *j)
{
    cow_ahead *a = j->a;
    int cancel;

    pthread_mutex_lock(&a->mu);
    if (j->cur) {
        if (j->last)
            j->last->next = j->cur;
        else
            j->first = j->cur;
        j->last = j->cur;
        j->bytes += j->cur->cap;
        a->bytes += j->cur->cap;
        j->cur = NULL;
        pthread_cond_broadcast(&a->cv);
    }
    /* a file's own budget, and all files' together: jobs x budget; the
     * file the writer waits for is never held back by the others */
    while (!j->cancel && !a->stop &&
           (j->bytes >= AHEAD_BUDGET || (j->idx != a->cur && a->bytes >= a->limit)))
        pthread_cond_wait(&a->cv, &a->mu);
    cancel = j->cancel || a->stop;
    pthread_mutex_unlock(&a->mu);
    return cancel;
}

/* Room for an item of size bytes in the current chunk; NULL: cancelled. */
static item *reserve(job *j, size_t size)
{
    item *it;
    if (j->cur && j->cur->used + size > j->cur->cap && publish(j))
        return NULL;
    if (j->cur == NULL) {
        size_t cap = size > AHEAD_CHUNK ? size : AHEAD_CHUNK;
        j->cur = xmalloc(sizeof(chunk) + cap);
        j->cur->next = NULL;
        j->cur->used = 0;
        j->cur->cap = cap;
    }
    it = (item *)((char *)j->cur->data + j->cur->used);
    j->cur->used += size;
    it->size = (uint32_t)size;
    return it;
}

/* The string fields of a record, and how long each is (reject text has a
 * length, the others are NUL terminated). Returns how many. */
static int rec_strings(cow_rec *r, const char ***s)
{
    int n = 0;
    switch ((enum cow_rec_kind)r->kind) {
    case COW_REC_SAMPLE: s[n++] = &r->u.sample.op; break;
    case COW_REC_EVENT:
        s[n++] = &r->u.event.kind;
        s[n++] = &r->u.event.unit;
        s[n++] = &r->u.event.text;
        break;
    case COW_REC_INFO:
        s[n++] = &r->u.info.section;
        s[n++] = &r->u.info.key;
        s[n++] = &r->u.info.sub;
        s[n++] = &r->u.info.text;
        break;
    case COW_REC_STAT:
        s[n++] = &r->u.stat.source;
        s[n++] = &r->u.stat.key;
        s[n++] = &r->u.stat.text;
        s[n++] = &r->u.stat.unit;
        break;
    case COW_REC_MEM: s[n++] = &r->u.mem.what; break;
    case COW_REC_LATMON:
        s[n++] = &r->u.latmon.kind;
        s[n++] = &r->u.latmon.event;
        s[n++] = &r->u.latmon.text;
        break;
    case COW_REC_INTERVAL: s[n++] = &r->u.interval.op; break;
    case COW_REC_PCTL:
        s[n++] = &r->u.pctl.source;
        s[n++] = &r->u.pctl.op;
        break;
    case COW_REC_REJECT: s[n++] = &r->u.reject.reason; break; /* text: below */
    case COW_REC_NOTE:
        s[n++] = &r->u.note.key;
        s[n++] = &r->u.note.value;
        break;
    case COW_REC_QUIET:
        s[n++] = &r->u.quiet.kind;
        s[n++] = &r->u.quiet.how;
        break;
    case COW_REC_PROC:
        s[n++] = &r->u.proc.roles;
        s[n++] = &r->u.proc.version;
        break;
    }
    return n;
}

static int q_emit(void *ctx, const cow_rec *r, cow_err *e)
{
    job *j = ctx;
    cow_rec copy = *r;
    const char **s[5];
    size_t size = ALIGN8(sizeof(item)) + ALIGN8(sizeof(cow_rec)), len[5], tlen = 0;
    int ns = rec_strings(&copy, s), k;
    item *it;
    char *p;

    for (k = 0; k < ns; k++) {
        len[k] = *s[k] ? strlen(*s[k]) + 1 : 0;
        size += len[k];
    }
    if (copy.kind == COW_REC_REJECT && copy.u.reject.text) {
        tlen = copy.u.reject.n;
        size += tlen + 1;
    }
    size = ALIGN8(size);
    if ((it = reserve(j, size)) == NULL)
        return COW_FAIL(e, COW_EDUP, "stopped");
    it->tag = ITEM_REC;
    p = (char *)it + ALIGN8(sizeof(item)) + ALIGN8(sizeof(cow_rec));
    for (k = 0; k < ns; k++)
        if (*s[k]) {
            memcpy(p, *s[k], len[k]);
            *s[k] = p;
            p += len[k];
        }
    if (copy.kind == COW_REC_REJECT && copy.u.reject.text) {
        memcpy(p, r->u.reject.text, tlen);
        p[tlen] = '\0';
        copy.u.reject.text = p;
    }
    memcpy((char *)it + ALIGN8(sizeof(item)), &copy, sizeof(copy));
    return COW_OK;
}

static int q_samples(void *ctx, const cow_sample *s, size_t n, cow_err *e)
{
    job *j = ctx;
    size_t size = ALIGN8(sizeof(item)) + ALIGN8(sizeof(size_t)) + n * sizeof(cow_sample), i;
    cow_sample *out;
    item *it;

    if ((it = reserve(j, ALIGN8(size))) == NULL)
        return COW_FAIL(e, COW_EDUP, "stopped");
    it->tag = ITEM_SAMPLES;
    *(size_t *)((char *)it + ALIGN8(sizeof(item))) = n;
    out = (cow_sample *)((char *)it + ALIGN8(sizeof(item)) + ALIGN8(sizeof(size_t)));
    for (i = 0; i < n; i++) {
        out[i] = s[i];
        out[i].op = op_copy(j, s[i].op);
    }
    return COW_OK;
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* Open, detect and parse one file (a worker). */
static void work(cow_ahead *a, job *j)
{
    cow_ahead_head h;
    cow_parse_opts o = j->f->opts;
    cow_src src;
    cow_sink sink;
    struct stat sb;
    const char *head;
    size_t nhead;
    int rc = COW_OK, cancel;

    memset(&h, 0, sizeof(h));
    h.e = (cow_err)COW_ERR_INIT;
    j->e = (cow_err)COW_ERR_INIT;
    if (j->f->skip) {
        memset(&src, 0, sizeof(src));
        goto ready;
    }
    o.fname = base_name(j->f->path);
    if ((h.rc = src_open_file(&src, j->f->path, &h.e)) != COW_OK)
        goto ready;
    if (stat(j->f->path, &sb) == 0)
        o.mtime_us = (int64_t)sb.st_mtime * COW_US_PER_S;
    h.mtime_us = o.mtime_us;
    h.size = src.size;
    if ((h.rc = src_peek(&src, &head, &nhead, &h.e)) != COW_OK)
        goto ready;
    a->detect(j->f, o.fname, head, nhead, &h);
ready:
    pthread_mutex_lock(&a->mu);
    j->head = h;
    j->head_ready = 1;
    cancel = j->cancel; /* read under the lock: ahead_drop sets it */
    pthread_cond_broadcast(&a->cv);
    pthread_mutex_unlock(&a->mu);
    if (!j->f->skip && h.rc == COW_OK && h.parser && !cancel) {
        sink.emit = q_emit;
        sink.emit_samples = q_samples;
        sink.ctx = j;
        rc = parser_run(h.parser, &src, &o, &sink, &j->e);
        if (rc == COW_OK)
            src_sha256(&src, j->sha);
        publish(j);
    }
    if (!j->f->skip)
        src_close(&src);
    pthread_mutex_lock(&a->mu);
    j->rc = rc;
    j->done = 1;
    pthread_cond_broadcast(&a->cv);
    pthread_mutex_unlock(&a->mu);
}

static void *worker(void *arg)
{
    cow_ahead *a = arg;
    pthread_mutex_lock(&a->mu);
    while (!a->stop && a->next < a->n) {
        job *j = &a->jobs[a->next++];
        pthread_mutex_unlock(&a->mu);
        work(a, j);
        pthread_mutex_lock(&a->mu);
    }
    pthread_mutex_unlock(&a->mu);
    return NULL;
}

cow_ahead *ahead_start(cow_ahead_file *files, size_t n, int jobs, cow_ahead_detect detect)
{
    cow_ahead *a = xcalloc(1, sizeof(*a));
    size_t i;

    a->n = n;
    a->jobs = xcalloc(n ? n : 1, sizeof(job));
    a->detect = detect;
    a->limit = (size_t)jobs * AHEAD_BUDGET;
    for (i = 0; i < n; i++) {
        a->jobs[i].f = &files[i];
        a->jobs[i].idx = i;
        a->jobs[i].a = a;
    }
    pthread_mutex_init(&a->mu, NULL);
    pthread_cond_init(&a->cv, NULL);
    a->th = xcalloc((size_t)jobs, sizeof(pthread_t));
    for (a->nth = 0; a->nth < jobs; a->nth++)
        if (pthread_create(&a->th[a->nth], NULL, worker, a) != 0)
            break;
    if (a->nth == 0) {
        ahead_stop(a);
        return NULL;
    }
    return a;
}

void ahead_head(cow_ahead *a, size_t i, cow_ahead_head *h)
{
    job *j = &a->jobs[i];
    pthread_mutex_lock(&a->mu);
    a->cur = i;
    pthread_cond_broadcast(&a->cv);
    while (!j->head_ready)
        pthread_cond_wait(&a->cv, &a->mu);
    *h = j->head;
    pthread_mutex_unlock(&a->mu);
}

/* Free what file i still holds (the lock is held). */
static void release(job *j)
{
    chunk *c = j->first, *next;
    for (; c; c = next) {
        next = c->next;
        free(c);
    }
    j->first = j->last = NULL;
    j->a->bytes -= j->bytes;
    j->bytes = 0;
    pthread_cond_broadcast(&j->a->cv);
}

int ahead_replay(cow_ahead *a, size_t i, cow_sink *sink, char sha[65], cow_err *e)
{
    job *j = &a->jobs[i];
    int rc = COW_OK;

    pthread_mutex_lock(&a->mu);
    a->cur = i;
    pthread_cond_broadcast(&a->cv);
    for (;;) {
        chunk *c;
        size_t off;
        while (j->first == NULL && !j->done)
            pthread_cond_wait(&a->cv, &a->mu);
        if (j->first == NULL)
            break;
        c = j->first;
        pthread_mutex_unlock(&a->mu);
        for (off = 0; off < c->used && rc == COW_OK;) {
            const item *it = (const item *)((const char *)c->data + off);
            const char *body = (const char *)it + ALIGN8(sizeof(item));
            if (it->tag == ITEM_REC) {
                rc = sink_emit(sink, (const cow_rec *)body, e);
            } else {
                size_t n = *(const size_t *)body;
                rc = sink_samples(sink, (const cow_sample *)(body + ALIGN8(sizeof(size_t))),
                                  n, e);
            }
            off += it->size;
        }
        pthread_mutex_lock(&a->mu);
        j->first = c->next;
        if (j->first == NULL)
            j->last = NULL;
        j->bytes -= c->cap;
        a->bytes -= c->cap;
        free(c);
        pthread_cond_broadcast(&a->cv);
        if (rc != COW_OK) { /* the store failed: the parser need not go on */
            j->cancel = 1;
            while (!j->done)
                pthread_cond_wait(&a->cv, &a->mu);
            release(j);
            pthread_mutex_unlock(&a->mu);
            return rc;
        }
    }
    rc = j->rc;
    if (rc != COW_OK)
        *e = j->e;
    else
        memcpy(sha, j->sha, 65);
    pthread_mutex_unlock(&a->mu);
    return rc;
}

void ahead_drop(cow_ahead *a, size_t i)
{
    job *j = &a->jobs[i];
    pthread_mutex_lock(&a->mu);
    a->cur = i;
    j->cancel = 1;
    pthread_cond_broadcast(&a->cv);
    while (!j->done)
        pthread_cond_wait(&a->cv, &a->mu);
    release(j);
    pthread_mutex_unlock(&a->mu);
}

void ahead_stop(cow_ahead *a)
{
    size_t i;
    int k;
    if (a == NULL)
        return;
    pthread_mutex_lock(&a->mu);
    a->stop = 1;
    pthread_cond_broadcast(&a->cv);
    pthread_mutex_unlock(&a->mu);
    for (k = 0; k < a->nth; k++)
        pthread_join(a->th[k], NULL);
    for (i = 0; i < a->n; i++) {
        release(&a->jobs[i]);
        free(a->jobs[i].cur);
    }
    for (i = 0; i < a->nnames; i++)
        free(a->names[i]);
    free(a->names);
    free(a->th);
    free(a->jobs);
    pthread_mutex_destroy(&a->mu);
    pthread_cond_destroy(&a->cv);
    free(a);
}
