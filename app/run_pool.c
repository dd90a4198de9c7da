/* run_pool.c -- per-run work on worker threads (run_pool.h).
 *
 * One mutex and one condition variable guard the shared state: an item
 * is a whole run's work (milliseconds at least), so it is rarely taken.
 * Results of items not yet used wait in a ring of 2 x workers slots:
 * workers only take items below the window's end, so two items in flight
 * never share a slot. */
#include "run_pool.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "mem.h"

typedef struct slot {
    int ready;      /* work finished */
    int rc;         /* its result */
    cow_err e;      /* its error */
} slot;

typedef struct pool {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    size_t n;
    size_t next;    /* the next item a worker takes */
    size_t end;     /* workers take items below this */
    size_t nslot;
    slot *slots;    /* item i in slots[i % nslot] */
    int stop;
    app_pool_work_fn work;
    void *ctx;
} pool;

typedef struct worker {
    pool *p;
    cow_store *rd;  /* this worker's connection */
    pthread_t th;
} worker;

static void *worker_main(void *arg)
{
    worker *w = arg;
    pool *p = w->p;

    pthread_mutex_lock(&p->mu);
    for (;;) {
        size_t i;
        cow_err e = COW_ERR_INIT;
        int rc;
        while (!p->stop && p->next < p->n && p->next >= p->end)
            pthread_cond_wait(&p->cv, &p->mu);
        if (p->stop || p->next >= p->n)
            break;
        i = p->next++;
        pthread_mutex_unlock(&p->mu);
        rc = p->work(w->rd, i, p->ctx, &e);
        pthread_mutex_lock(&p->mu);
        p->slots[i % p->nslot].rc = rc;
        p->slots[i % p->nslot].e = e;
        p->slots[i % p->nslot].ready = 1;
        pthread_cond_broadcast(&p->cv);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

static int run_serial(cow_store *st, size_t n, app_pool_work_fn work,
                      app_pool_done_fn done, void *ctx, cow_err *e)
{
    size_t i;
    int rc;

    for (i = 0; i < n; i++) {
        cow_err we = COW_ERR_INIT;
        int wrc = work(st, i, ctx, &we);
        if ((rc = done(st, i, wrc, &we, ctx, e)) != COW_OK)
            return rc;
    }
    return COW_OK;
}

int app_pool_run(cow_store *st, size_t n, int jobs, app_pool_work_fn work,
                 app_pool_done_fn done, void *ctx, cow_err *e)
{
    pool p;
    worker *w;
    size_t i;
    int nw = 0, k, started, rc = COW_OK;

    if (jobs <= 0)
        jobs = app_default_jobs();
    if (jobs > 1 && (size_t)jobs > n)
        jobs = (int)n;
    if (jobs <= 1 || n < 2)
        return run_serial(st, n, work, done, ctx, e);
    w = xcalloc((size_t)jobs, sizeof(*w));
    for (k = 0; k < jobs; k++) {
        cow_err oe = COW_ERR_INIT;
        if (store_open_reader(st, &w[nw].rd, &oe) != COW_OK)
            break; /* a database in memory: no other connection sees it */
        nw++;
    }
    if (nw == 0) {
        free(w);
        return run_serial(st, n, work, done, ctx, e);
    }
    memset(&p, 0, sizeof(p));
    pthread_mutex_init(&p.mu, NULL);
    pthread_cond_init(&p.cv, NULL);
    p.n = n;
    p.nslot = 2 * (size_t)nw;
    p.end = p.nslot;
    p.slots = xcalloc(p.nslot, sizeof(*p.slots));
    p.work = work;
    p.ctx = ctx;
    for (k = 0; k < nw; k++) {
        w[k].p = &p;
        if (pthread_create(&w[k].th, NULL, worker_main, &w[k]) != 0)
            break;
    }
    started = k;
    for (k = started; k < nw; k++)
        store_close(w[k].rd);
    nw = started;
    if (nw == 0) /* no thread at all: the calling thread does it */
        rc = run_serial(st, n, work, done, ctx, e);
    for (i = 0; nw > 0 && i < n; i++) {
        slot *s = &p.slots[i % p.nslot];
        cow_err we;
        int wrc;
        pthread_mutex_lock(&p.mu);
        while (!s->ready)
            pthread_cond_wait(&p.cv, &p.mu);
        wrc = s->rc;
        we = s->e;
        pthread_mutex_unlock(&p.mu);
        rc = done(st, i, wrc, &we, ctx, e);
        pthread_mutex_lock(&p.mu);
        s->ready = 0;
        p.end = i + 1 + p.nslot;
        if (rc != COW_OK)
            p.stop = 1;
        pthread_cond_broadcast(&p.cv);
        pthread_mutex_unlock(&p.mu);
        if (rc != COW_OK)
            break;
    }
    for (k = 0; k < nw; k++) {
        pthread_join(w[k].th, NULL);
        store_close(w[k].rd);
    }
    pthread_cond_destroy(&p.cv);
    pthread_mutex_destroy(&p.mu);
    free(p.slots);
    free(w);
    return rc;
}
