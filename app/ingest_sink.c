/* ingest_sink.c -- the sink a parser emits into during ingest
 * (ingest_int.h): records to the store in the file's transaction, latency
 * samples through a writer thread (writer.c), INFO records in multi-row
 * batches; counts rows and rejects, says the first rejects and the
 * progress of a big file. This is where a parser meets the store (they
 * never see each other). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app.h"
#include "ingest_int.h"
#include "mem.h"
#include "writer.h"

/* INFO records held for one multi-row insert (store_add_infos), their
 * strings copied into arena. */
#define INFO_BATCH 64
#define INFO_ARENA (32u << 10)

struct infobuf {
    cow_info v[INFO_BATCH];
    size_t n;
    char arena[INFO_ARENA];
    size_t used;
};
typedef struct infobuf infobuf;

static void progress(storesink *k)
{
    time_t now;
    if (!k->progress)
        return;
    now = time(NULL);
    if (now != k->last_progress) {
        k->last_progress = now;
        app_progress(k->path, k->rows);
    }
}

/* Store the INFO records held (the store must be this thread's). */
static int flush_info(storesink *k, cow_err *e)
{
    int rc = COW_OK;
    if (k->info != NULL && k->info->n > 0)
        rc = store_add_infos(k->st, k->run, k->file, k->info->v, k->info->n, e);
    if (k->info != NULL)
        k->info->n = k->info->used = 0;
    return rc;
}

/* A copy of s (NULL stays NULL) in b's arena; NULL when it is full. */
static const char *keep(infobuf *b, const char *s, int *full)
{
    size_t n;
    char *d;
    if (s == NULL || *full)
        return NULL;
    n = strlen(s) + 1;
    if (n > INFO_ARENA - b->used) {
        *full = 1;
        return NULL;
    }
    d = b->arena + b->used;
    memcpy(d, s, n);
    b->used += n;
    return d;
}

/* Hold an INFO record for a multi-row insert: its lines come by the
 * thousand, and one statement per line was most of the writer's time on
 * them. *held = 0 when it did not fit (then it is stored on its own). */
static int hold_info(storesink *k, const cow_info *v, int *held, cow_err *e)
{
    infobuf *b;
    cow_info c;
    size_t mark;
    int full = 0, rc;

    if (k->info == NULL)
        k->info = xcalloc(1, sizeof(*k->info));
    b = k->info;
    if (b->n == INFO_BATCH && (rc = flush_info(k, e)) != COW_OK)
        return rc;
    for (;;) {
        mark = b->used;
        c = *v;
        c.section = keep(b, v->section, &full);
        c.key = keep(b, v->key, &full);
        c.sub = keep(b, v->sub, &full);
        c.text = keep(b, v->text, &full);
        if (!full)
            break;
        b->used = mark;
        if (b->n == 0) { /* larger than the arena: on its own */
            *held = 0;
            return COW_OK;
        }
        if ((rc = flush_info(k, e)) != COW_OK)
            return rc;
        full = 0;
    }
    b->v[b->n++] = c;
    *held = 1;
    return COW_OK;
}

static int emit(void *ctx, const cow_rec *r, cow_err *e)
{
    storesink *k = ctx;
    int rc, held = 0;

    /* The store is the writer's until it has caught up. */
    if (k->w && (rc = writer_sync(k->w, e)) != COW_OK)
        return rc;
    if (r->kind == COW_REC_INFO) {
        if ((rc = hold_info(k, &r->u.info, &held, e)) != COW_OK)
            return rc;
        if (held) {
            if ((++k->rows & 0xffff) == 0)
                progress(k);
            return COW_OK;
        }
    }
    if (r->kind != COW_REC_NOTE && (rc = flush_info(k, e)) != COW_OK)
        return rc;
    if (r->kind == COW_REC_NOTE) {
        size_t used = strlen(k->notes);
        snprintf(k->notes + used, sizeof(k->notes) - used, "%s%s %s",
                 used ? "; " : "", r->u.note.key, r->u.note.value);
        return COW_OK;
    }
    if (r->kind == COW_REC_SAMPLE)
        return store_add_samples(k->st, k->run, k->file, &r->u.sample, 1, e) ||
               (k->rows++, k->samples++, 0);
    if ((rc = store_add_rec(k->st, k->run, k->file, r, e)) != COW_OK)
        return rc;
    if (r->kind == COW_REC_PROC) {
        /* who wrote the log (for app/servers.c): not one of its records */
    } else if (r->kind == COW_REC_REJECT) {
        if (k->rejected++ < SHOW_REJECTS)
            app_errorf("%s:%ld: %s", app_tty(k->path), r->u.reject.line,
                       app_tty(r->u.reject.reason));
    } else {
        k->rows++;
    }
    if ((k->rows & 0xffff) == 0)
        progress(k);
    return COW_OK;
}

static int emit_samples(void *ctx, const cow_sample *s, size_t n, cow_err *e)
{
    storesink *k = ctx;
    int rc;

    if (k->info != NULL && k->info->n > 0 &&
        ((k->w && (rc = writer_sync(k->w, e)) != COW_OK) ||
         (rc = flush_info(k, e)) != COW_OK))
        return rc;
    if (k->w == NULL)
        k->w = writer_start(k->st, k->run, k->file);
    rc = k->w ? writer_push(k->w, s, n, e)
              : store_add_samples(k->st, k->run, k->file, s, n, e);
    if (rc == COW_OK) {
        long long before = k->rows;
        k->rows += (long long)n;
        k->samples += (long long)n;
        if ((before >> 16) != (k->rows >> 16))
            progress(k);
    }
    return rc;
}

void store_sink_wire(storesink *k, cow_sink *sink)
{
    sink->emit = emit;
    sink->emit_samples = emit_samples;
    sink->ctx = k;
}

int store_sink_finish(storesink *k, int rc, cow_err *e)
{
    cow_err we = COW_ERR_INIT;
    int wrc = writer_stop(k->w, &we);

    k->w = NULL;
    if (wrc != COW_OK && rc == COW_OK) {
        rc = wrc;
        *e = we;
    }
    /* the INFO records still held land with the file (or go with it) */
    if (rc == COW_OK)
        rc = flush_info(k, e);
    free(k->info);
    k->info = NULL;
    if (k->progress && k->last_progress)
        app_progress(NULL, 0);
    return rc;
}
