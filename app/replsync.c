/* replsync.c -- each replica's sync attempts (replsync.h). */
#include "replsync.h"

#include <stdlib.h>
#include <string.h>

#include "mem.h"

int app_replica_syncs(cow_store *st, int64_t run, app_replsyncs *out, cow_err *e)
{
    cow_server_row *sv = NULL;
    size_t ns = 0, i, cap = 0;
    int rc;

    memset(out, 0, sizeof(*out));
    if ((rc = store_run_servers(st, run, &sv, &ns, e)) != COW_OK)
        return rc;
    for (i = 0; i < ns && rc == COW_OK; i++) {
        cow_event_set ev;
        app_replica *r;
        if (strcmp(sv[i].role, "replica") != 0)
            continue;
        if ((rc = store_load_server_events(st, run, sv[i].seq, &ev, e)) != COW_OK)
            break;
        if (ev.n > 0) {
            cow_repl_sync *v = xmalloc(ev.n * sizeof(*v));
            size_t k = replsteps_find(ev.v, ev.n, v, ev.n);
            if (k == 0) {
                free(v);
            } else {
                out->r = xgrow(out->r, sizeof(*out->r), out->n + 1, &cap);
                r = &out->r[out->n++];
                r->seq = sv[i].seq;
                r->pid = sv[i].pid;
                r->port = sv[i].port;
                r->v = v;
                r->n = k;
            }
        }
        store_free_events(&ev);
    }
    free(sv);
    if (rc != COW_OK)
        app_replsyncs_release(out);
    return rc;
}

void app_replsyncs_release(app_replsyncs *s)
{
    size_t i;
    for (i = 0; i < s->n; i++)
        free(s->r[i].v);
    free(s->r);
    memset(s, 0, sizeof(*s));
}

const cow_repl_sync *app_replsyncs_first_up(const app_replsyncs *s,
                                            const app_replica **who)
{
    size_t i, k;
    for (i = 0; i < s->n; i++)
        for (k = 0; k < s->r[i].n; k++)
            if (s->r[i].v[k].outcome == COW_REPL_UP) {
                if (who)
                    *who = &s->r[i];
                return &s->r[i].v[k];
            }
    return NULL;
}
