/* run_pool.c -- per-run work on worker threads (run_pool.h).
 *
 * One mutex and one condition variable guard the shared state: an item
 * is a whole run's work (milliseconds at least), so it is rarely taken.
 * Results of items not yet used wait in a ring of 2 x workers slots:
 * workers only take items below the window's end, so two items in flight
 * never share a slot. Items arrive by app_stream_add (with a key the
 * worker is handed); app_pool_run adds them all at once. */
#include "run_pool.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app.h"
#include "mem.h"

int app_default_jobs(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

typedef struct slot {
    int ready;      /* work finished */
    int rc;         /* its result */
    cow_err e;      /* its error */
} slot;

typedef struct worker {
    app_stream *s;
    cow_store *rd;  /* this worker's connection */
    pthread_t th;
} worker;

struct app_stream {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    cow_store *st;  /* the caller's connection: serial work reads it */
    size_t n;       /* items added */
    int64_t *keys;  /* their keys */
    size_t kcap;
    size_t next;    /* the next item a worker takes */
    size_t used;    /* items handed to done */
    size_t nslot;
    slot *slots;    /* item i in slots[i % nslot] */
    int stop;
    int frc;        /* the failure that stopped it, returned again */
    cow_err fe;
    app_stream_work_fn work;
    void *ctx;
    worker *w;
    int nw;
};

static void *worker_main(void *arg)
{
    worker *w = arg;
    app_stream *s = w->s;

    pthread_mutex_lock(&s->mu);
    for (;;) {
        size_t i;
        int64_t key;
        cow_err e = COW_ERR_INIT;
        int rc;
        while (!s->stop && (s->next >= s->n || s->next >= s->used + s->nslot))
            pthread_cond_wait(&s->cv, &s->mu);
        if (s->stop)
            break;
        i = s->next++;
        key = s->keys[i];
        pthread_mutex_unlock(&s->mu);
        rc = s->work(w->rd, i, key, s->ctx, &e);
        pthread_mutex_lock(&s->mu);
        s->slots[i % s->nslot].rc = rc;
        s->slots[i % s->nslot].e = e;
        s->slots[i % s->nslot].ready = 1;
        pthread_cond_broadcast(&s->cv);
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

/* Start up to `workers` threads, each with its own reader. */
static void start_workers(app_stream *s, int workers)
{
    while (s->nw < workers) {
        worker *w = &s->w[s->nw];
        cow_err oe = COW_ERR_INIT;
        if (store_open_reader(s->st, &w->rd, &oe) != COW_OK)
            break; /* a database in memory: no other connection sees it */
        w->s = s;
        if (pthread_create(&w->th, NULL, worker_main, w) != 0) {
            store_close(w->rd);
            break;
        }
        s->nw++;
    }
}

app_stream *app_stream_start(cow_store *st, int workers, app_stream_work_fn work,
                             void *ctx)
{
    app_stream *s = xcalloc(1, sizeof(*s));
    cow_err none = COW_ERR_INIT;
    int maxw = workers > 1 ? workers : 1;

    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cv, NULL);
    s->st = st;
    s->frc = COW_OK;
    s->fe = none;
    s->nslot = 2 * (size_t)maxw;
    s->slots = xcalloc(s->nslot, sizeof(*s->slots));
    s->work = work;
    s->ctx = ctx;
    s->w = xcalloc((size_t)maxw, sizeof(*s->w));
    start_workers(s, workers);
    return s;
}

size_t app_stream_slots(const app_stream *s)
{
    return s->nslot;
}

void app_stream_add(app_stream *s, int64_t key)
{
    pthread_mutex_lock(&s->mu);
    s->keys = xgrow(s->keys, sizeof(*s->keys), s->n + 1, &s->kcap);
    s->keys[s->n++] = key;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
}

/* Item s->used is finished (by a worker, or here when there is none). */
static int take_ready(app_stream *s, int wait, int *rc, cow_err *we)
{
    slot *sl = &s->slots[s->used % s->nslot];

    if (s->nw == 0) { /* no worker: the calling thread works it */
        if (!wait)
            return 0;
        *we = (cow_err)COW_ERR_INIT;
        *rc = s->work(s->st, s->used, s->keys[s->used], s->ctx, we);
        return 1;
    }
    pthread_mutex_lock(&s->mu);
    while (wait && !sl->ready)
        pthread_cond_wait(&s->cv, &s->mu);
    if (!sl->ready) {
        pthread_mutex_unlock(&s->mu);
        return 0;
    }
    *rc = sl->rc;
    *we = sl->e;
    sl->ready = 0;
    pthread_mutex_unlock(&s->mu);
    return 1;
}

int app_stream_collect(app_stream *s, int all, app_pool_done_fn done, void *ctx,
                       cow_err *e)
{
    for (;;) {
        cow_err we;
        int wrc, rc;
        size_t n;
        if (s->frc != COW_OK) { /* stopped: nothing more is worked */
            *e = s->fe;
            return s->frc;
        }
        pthread_mutex_lock(&s->mu);
        n = s->n;
        pthread_mutex_unlock(&s->mu);
        if (s->used >= n || !take_ready(s, all, &wrc, &we))
            return COW_OK;
        rc = done(s->st, s->used, wrc, &we, ctx, e);
        pthread_mutex_lock(&s->mu);
        s->used++;
        if (rc != COW_OK) {
            s->stop = 1;
            s->frc = rc;
            s->fe = *e;
        }
        pthread_cond_broadcast(&s->cv);
        pthread_mutex_unlock(&s->mu);
        if (rc != COW_OK)
            return rc;
    }
}

void app_stream_stop(app_stream *s)
{
    int k;

    if (s == NULL)
        return;
    pthread_mutex_lock(&s->mu);
    s->stop = 1;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    for (k = 0; k < s->nw; k++) {
        pthread_join(s->w[k].th, NULL);
        store_close(s->w[k].rd);
    }
    pthread_cond_destroy(&s->cv);
    pthread_mutex_destroy(&s->mu);
    free(s->w);
    free(s->slots);
    free(s->keys);
    free(s);
}

/* app_pool_run's items carry no key: work is called by index. */
typedef struct by_index {
    app_pool_work_fn work;
    void *ctx;
} by_index;

static int index_work(cow_store *rd, size_t i, int64_t key, void *ctx, cow_err *e)
{
    by_index *b = ctx;
    (void)key;
    return b->work(rd, i, b->ctx, e);
}

int app_pool_run(cow_store *st, size_t n, int jobs, app_pool_work_fn work,
                 app_pool_done_fn done, void *ctx, cow_err *e)
{
    by_index b = {work, ctx};
    app_stream *s;
    size_t i;
    int rc;

    if (jobs <= 0)
        jobs = app_default_jobs();
    if (jobs > 1 && (size_t)jobs > n)
        jobs = (int)n;
    if (n < 2)
        jobs = 1;
    s = app_stream_start(st, jobs > 1 ? jobs : 0, index_work, &b);
    for (i = 0; i < n; i++)
        app_stream_add(s, (int64_t)i);
    rc = app_stream_collect(s, 1, done, ctx, e);
    app_stream_stop(s);
    return rc;
}
