/* clock_settle.c -- after a run's files landed: settle the clock of each
 * server log whose zone is not known yet (see cli.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "app.h"

static void fmt_off(long off, char *buf, size_t n)
{
    long a = off < 0 ? -off : off;
    snprintf(buf, n, "UTC%c%02ld:%02ld", off < 0 ? '-' : '+', a / 3600, a / 60 % 60);
}

/* Infer the offset of one log from its pairs; else check its windows
 * against the samples. Records the outcome in the clocks table. */
static int settle_one(cow_store *st, int64_t run, int64_t file, cow_err *e)
{
    cow_clock_pair *p = NULL;
    double *d = NULL, *tol = NULL;
    int64_t *t = NULL, t_first = 0, t_last = 0;
    size_t n = 0, i, agree = 0, ns = 0;
    int any = 0;
    long off = 0, which;
    char ev[400], z[48];
    int rc;

    if ((rc = store_clock_pairs(st, run, file, &p, &n, e)) != COW_OK)
        return rc;
    d = malloc((n ? n : 1) * sizeof(double));
    tol = malloc((n ? n : 1) * sizeof(double));
    if (d == NULL || tol == NULL) {
        free(p);
        free(d);
        free(tol);
        return COW_FAIL(e, COW_EINTERNAL, "out of memory");
    }
    for (i = 0; i < n; i++) {
        d[i] = p[i].d_s;
        tol[i] = p[i].tol_s;
    }
    which = clock_decide(d, tol, n, &off, &agree);
    if (which >= 0) {
        fmt_off(off, z, sizeof(z));
        snprintf(ev, sizeof(ev), "%s, from %s%s", z, p[which].what,
                 agree > 1 ? " (and more pairs agree)" : "");
        free(p);
        free(d);
        free(tol);
        if (off != 0 && (rc = store_clock_shift(st, file, (int64_t)off * 1000000, e)) != COW_OK)
            return rc;
        return store_clock_set(st, run, file, "inferred", 1, off, ev, e);
    }
    free(p);
    free(d);
    free(tol);
    if ((rc = store_window_starts(st, file, &t, &ns, e)) != COW_OK ||
        (rc = store_sample_span(st, run, &any, &t_first, &t_last, e)) != COW_OK) {
        free(t);
        return rc;
    }
    if (any && clock_hour_guess(t, ns, t_first, t_last, &off)) {
        free(t);
        fmt_off(off, z, sizeof(z));
        snprintf(ev, sizeof(ev), "no pair of a UTC source and a log line names "
                 "the same instant, and the log's windows fall outside the "
                 "samples' span, as if its local time were %s: give the zone "
                 "with --log-tz %c%02ld:%02ld (or run.json log_tz) and ingest again",
                 z, off < 0 ? '-' : '+', (off < 0 ? -off : off) / 3600,
                 (off < 0 ? -off : off) / 60 % 60);
        return store_clock_set(st, run, file, "mismatch", 1, off, ev, e);
    }
    free(t);
    return store_clock_set(st, run, file, "assumed", 1, 0,
                           "UTC assumed: no --log-tz / run.json log_tz and no "
                           "pair of a UTC source and a log line", e);
}

int app_settle_clocks(cow_store *st, int64_t run, const cow_parse_opts *o,
                      int quiet, int *mismatch, cow_err *e)
{
    int64_t *files = NULL;
    size_t n = 0, i, j, nrows = 0;
    cow_clock_row *rows = NULL;
    int rc;

    if ((rc = store_clock_pending(st, run, o->has_tz, &files, &n, e)) != COW_OK)
        return rc;
    if (n == 0) {
        free(files);
        return COW_OK;
    }
    /* a zone given now for a log settled before: undo what was applied */
    if (o->has_tz && (rc = store_clock_list(st, run, &rows, &nrows, e)) != COW_OK) {
        free(files);
        return rc;
    }
    if ((rc = store_begin(st, e)) != COW_OK) {
        free(files);
        return rc;
    }
    for (i = 0; rc == COW_OK && i < n; i++) {
        if (o->has_tz) {
            char z[48], ev[80];
            long applied = 0;
            int had = 0; /* parsed before, without this zone */
            for (j = 0; j < nrows; j++)
                if (rows[j].file == files[i]) {
                    had = 1;
                    if (strcmp(rows[j].decided, "inferred") == 0)
                        applied = rows[j].off_s;
                }
            fmt_off(o->tz_off_s, z, sizeof(z));
            snprintf(ev, sizeof(ev), "%s (given)", z);
            if (had && o->tz_off_s != applied)
                rc = store_clock_shift(st, files[i],
                                       (int64_t)(o->tz_off_s - applied) * 1000000, e);
            if (rc == COW_OK)
                rc = store_clock_set(st, run, files[i], "given", 1, o->tz_off_s, ev, e);
        } else {
            rc = settle_one(st, run, files[i], e);
        }
    }
    free(rows);
    rows = NULL;
    nrows = 0;
    if (rc != COW_OK) {
        store_rollback(st);
        free(files);
        return rc;
    }
    if ((rc = store_commit(st, e)) != COW_OK ||
        (rc = store_clock_list(st, run, &rows, &nrows, e)) != COW_OK) {
        free(files);
        return rc;
    }
    for (i = 0; i < nrows; i++)
        for (j = 0; j < n; j++)
            if (rows[i].file == files[j] && strcmp(rows[i].decided, "given") != 0) {
                if (strcmp(rows[i].decided, "mismatch") == 0) {
                    app_errorf("%s: %s", rows[i].path, rows[i].evidence);
                    *mismatch = 1;
                }
                else if (!quiet)
                    printf("  clock: %s: %s %s\n", rows[i].path,
                           strcmp(rows[i].decided, "inferred") == 0 ? "local time is"
                                                                  : "local time:",
                           rows[i].evidence);
            }
    free(rows);
    free(files);
    return COW_OK;
}
