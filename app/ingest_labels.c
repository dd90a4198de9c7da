/* ingest_labels.c -- the label-clash policy of the ingest (ingest_int.h):
 * two runs under one label in a batch, or one label already in the
 * database from another host, become two runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "ingest_int.h"
#include "mem.h"

/* A run is its folder in the batch plus its host, not its label: two
 * runs of one label (run.json says the same "label" on two hosts) stay
 * two. The later one is renamed label@host, or label~N, and it is said. */
int ingest_unique_labels(cow_store *st, cow_capture *cap, cow_err *e)
{
    size_t i, j;
    for (i = 0; i < cap->n; i++) {
        cow_capture_run *r = &cap->runs[i];
        const char *host = r->meta.host ? r->meta.host : "";
        char *dbhost, *label;
        int clash = 0, found, rc, n = 2;

        for (j = 0; j < i && !clash; j++)
            clash = strcmp(cap->runs[j].label, r->label) == 0;
        if (!clash) {
            /* an earlier ingest of another host under this label */
            if ((rc = store_run_owner(st, r->label, &dbhost, &found, e)) != COW_OK)
                return rc;
            clash = found && dbhost[0] && strcmp(dbhost, host) != 0;
            free(dbhost);
        }
        if (!clash)
            continue;
        label = xmalloc(strlen(r->label) + strlen(host) + 24);
        if (host[0])
            sprintf(label, "%s@%s", r->label, host);
        else
            sprintf(label, "%s~%d", r->label, n);
        for (;;) {
            for (j = 0, clash = 0; j < cap->n && !clash; j++)
                clash = j != i && strcmp(cap->runs[j].label, label) == 0;
            if (!clash)
                break;
            sprintf(label, "%s%s%s~%d", r->label, host[0] ? "@" : "", host, n++);
        }
        app_say("note: another run is labelled '%s' too: the one in %s%s%s is "
               "labelled '%s'\n", app_tty(r->label), app_tty(r->dir),
               host[0] ? " on host " : "", app_tty(host), app_tty(label));
        free(r->label);
        r->label = label;
    }
    return COW_OK;
}
