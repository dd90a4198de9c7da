/* writer.c -- background sample writer (see writer.h).
 *
 * A ring of WRITER_SLOTS batches guarded by one mutex and two condition
 * variables. The first error the writer meets is kept and returned by every
 * later push/sync, so the parser stops soon after a failed insert. */
#include "writer.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"

/* Batches in flight: 64 (6 MiB, touched only as far as a file fills
 * them) let either thread run on for about 100 ms while the other waits
 * for a core on a shared machine; with 4 the two stalled each other
 * (bench/README.md, "Ingest"). */
#define WRITER_SLOTS 64
/* Samples per slot (the parsers hand over batches of up to 4096). */
#define WRITER_BATCH 4096

typedef struct slot {
    cow_sample s[WRITER_BATCH]; /* the batch */
    size_t n;                   /* samples in it */
} slot;

struct cow_writer {
    cow_store *st;            /* destination, owned by the thread between syncs */
    int64_t run, file;        /* ids for every sample */
    pthread_t th;             /* the writer thread */
    pthread_mutex_t mu;       /* guards everything below */
    pthread_cond_t not_empty; /* a batch is waiting, or stop */
    pthread_cond_t not_full;  /* a slot is free, or everything landed */
    slot *slots;              /* the ring */
    size_t head, count;       /* next to write, batches waiting */
    int busy;                 /* the thread is writing a batch */
    int stop;                 /* asked to end */
    int rc;                   /* first error, COW_OK if none */
    cow_err err;              /* its details */
};

static void *loop(void *arg)
{
    cow_writer *w = arg;

    pthread_mutex_lock(&w->mu);
    for (;;) {
        slot *sl;
        cow_err e = COW_ERR_INIT;
        int rc;

        while (w->count == 0 && !w->stop)
            pthread_cond_wait(&w->not_empty, &w->mu);
        if (w->count == 0 && w->stop)
            break;
        sl = &w->slots[w->head];
        w->busy = 1;
        pthread_mutex_unlock(&w->mu);
        rc = w->rc == COW_OK ? store_add_samples(w->st, w->run, w->file, sl->s,
                                                 sl->n, &e)
                             : COW_OK;
        pthread_mutex_lock(&w->mu);
        if (rc != COW_OK && w->rc == COW_OK) {
            w->rc = rc;
            w->err = e;
        }
        w->busy = 0;
        w->head = (w->head + 1) % WRITER_SLOTS;
        w->count--;
        /* a parser waiting on a full ring resumes at half (not at every
         * freed slot: each wake-up took the core from this thread for one
         * batch, hundreds of times a second), writer_sync at empty */
        if (w->count <= WRITER_SLOTS / 2)
            pthread_cond_broadcast(&w->not_full);
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

cow_writer *writer_start(cow_store *st, int64_t run, int64_t file)
{
    cow_writer *w = xcalloc(1, sizeof(*w));
    w->st = st;
    w->run = run;
    w->file = file;
    w->slots = xmalloc(WRITER_SLOTS * sizeof(slot));
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->not_empty, NULL);
    pthread_cond_init(&w->not_full, NULL);
    if (pthread_create(&w->th, NULL, loop, w) != 0) {
        pthread_mutex_destroy(&w->mu);
        pthread_cond_destroy(&w->not_empty);
        pthread_cond_destroy(&w->not_full);
        free(w->slots);
        free(w);
        return NULL;
    }
    return w;
}

static int fail(cow_writer *w, cow_err *e)
{
    if (e)
        *e = w->err;
    return w->rc;
}

int writer_push(cow_writer *w, const cow_sample *s, size_t n, cow_err *e)
{
    while (n > 0) {
        size_t take = n < WRITER_BATCH ? n : WRITER_BATCH;
        slot *sl;

        pthread_mutex_lock(&w->mu);
        while (w->count == WRITER_SLOTS && w->rc == COW_OK)
            pthread_cond_wait(&w->not_full, &w->mu);
        if (w->rc != COW_OK) {
            int rc = fail(w, e);
            pthread_mutex_unlock(&w->mu);
            return rc;
        }
        sl = &w->slots[(w->head + w->count) % WRITER_SLOTS];
        pthread_mutex_unlock(&w->mu);
        /* This slot is not the writer's until count says so. */
        memcpy(sl->s, s, take * sizeof(*s));
        sl->n = take;
        pthread_mutex_lock(&w->mu);
        w->count++;
        pthread_cond_signal(&w->not_empty);
        pthread_mutex_unlock(&w->mu);
        s += take;
        n -= take;
    }
    return COW_OK;
}

int writer_sync(cow_writer *w, cow_err *e)
{
    int rc;
    pthread_mutex_lock(&w->mu);
    while (w->count > 0 || w->busy)
        pthread_cond_wait(&w->not_full, &w->mu);
    rc = w->rc == COW_OK ? COW_OK : fail(w, e);
    pthread_mutex_unlock(&w->mu);
    return rc;
}

int writer_stop(cow_writer *w, cow_err *e)
{
    int rc;
    if (w == NULL)
        return COW_OK;
    rc = writer_sync(w, e);
    pthread_mutex_lock(&w->mu);
    w->stop = 1;
    pthread_cond_signal(&w->not_empty);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->th, NULL);
    pthread_mutex_destroy(&w->mu);
    pthread_cond_destroy(&w->not_empty);
    pthread_cond_destroy(&w->not_full);
    free(w->slots);
    free(w);
    return rc;
}
