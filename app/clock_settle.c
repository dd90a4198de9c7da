/* clock_settle.c -- after a run's files landed: settle the clock of each
 * server log whose zone is not known yet (see cli.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "app.h"
#include "mem.h"
#include "timeconv.h"

static void fmt_off(long off, char *buf, size_t n)
{
    long a = off < 0 ? -off : off;
    snprintf(buf, n, "UTC%c%02ld:%02ld", off < 0 ? '-' : '+', a / 3600, a / 60 % 60);
}

int app_log_zone_doubt(cow_store *st, int64_t run, int64_t file, long *off_s,
                       size_t *k0, size_t *k, int *doubt, cow_err *e)
{
    int64_t *t = NULL, t_first = 0, t_last = 0;
    size_t ns = 0;
    int rc, nsamples = 0;

    *doubt = 0;
    if ((rc = store_window_starts(st, file, &t, &ns, e)) != COW_OK ||
        (rc = store_sample_bounds(st, run, &nsamples, &t_first, &t_last, e)) != COW_OK) {
        free(t);
        return rc;
    }
    *doubt = nsamples > 0 && clock_hour_better(t, ns, t_first, t_last, off_s, k0, k);
    free(t);
    return COW_OK;
}

/* Infer the offset of one log from its pairs; else check its windows
 * against the samples. Records the outcome in the clocks table. */
static int settle_one(cow_store *st, int64_t run, int64_t file, cow_err *e)
{
    cow_clock_pair *p = NULL;
    double *d = NULL, *tol = NULL;
    int64_t *t = NULL, t_first = 0, t_last = 0;
    size_t n = 0, i, agree = 0, ns = 0, k0 = 0, k = 0;
    int nsamples = 0;
    long off = 0, which;
    char ev[400], z[48];
    int rc, doubt = 0, zoned = 0;

    /* a log whose lines carry their own zone is settled by them: its
     * times are UTC already (the note the parser left says so) */
    if ((rc = store_file_zoned(st, file, &zoned, e)) != COW_OK)
        return rc;
    if (zoned)
        return store_clock_set(st, run, file, "zoned", 0, 0,
                               "settled by the zoned stamps of its lines", e);
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
        (rc = store_sample_bounds(st, run, &nsamples, &t_first, &t_last, e)) != COW_OK) {
        free(t);
        return rc;
    }
    if (nsamples > 0 && clock_hour_guess(t, ns, t_first, t_last, &off)) {
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
    if ((rc = app_log_zone_doubt(st, run, file, &off, &k0, &k, &doubt, e)) != COW_OK)
        return rc;
    if (doubt) {
        fmt_off(off, z, sizeof(z));
        snprintf(ev, sizeof(ev), "UTC assumed: no --log-tz / run.json log_tz and no "
                 "pair of a UTC source and a log line; but %s would place %zu of "
                 "the log's window stamps inside the samples' span instead of %zu: "
                 "give --log-tz if the log is in local time", z, k, k0);
        return store_clock_set(st, run, file, "assumed", 1, 0, ev, e);
    }
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
    store_free_clocks(rows, nrows);
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
            if (rows[i].file == files[j] && strcmp(rows[i].decided, "given") != 0 &&
                strcmp(rows[i].decided, "zoned") != 0) {
                if (strcmp(rows[i].decided, "mismatch") == 0) {
                    app_errorf("%s: %s", app_tty(rows[i].path), app_tty(rows[i].evidence));
                    *mismatch = 1;
                }
                else if (!quiet)
                    app_say("  clock: %s: %s %s\n", app_tty(rows[i].path),
                           strcmp(rows[i].decided, "inferred") == 0 ? "local time is"
                                                                  : "local time:",
                           app_tty(rows[i].evidence));
            }
    store_free_clocks(rows, nrows);
    free(files);
    return COW_OK;
}

/* "a.csv" or "a.csv .. b.csv" when the first and last sample differ. */
static void ref_name(const char *first, const char *last, char *out, size_t cap)
{
    if (strcmp(first, last) == 0)
        snprintf(out, cap, "%s", first);
    else
        snprintf(out, cap, "%.75s .. %.75s", first, last);
}

int app_clock_skews(cow_store *st, int64_t run, cow_clock_skew **v, size_t *n,
                    cow_err *e)
{
    cow_file_span *sp = NULL;
    size_t nsp = 0, i, cap = 0;
    int64_t r0 = 0, r1 = 0;
    char first[512], last[512], ref[160];
    int rc, info_ref = 0, nsamples = 0;

    *v = NULL;
    *n = 0;
    if ((rc = store_sample_bounds(st, run, &nsamples, &r0, &r1, e)) != COW_OK ||
        (rc = store_file_spans(st, run, &sp, &nsp, e)) != COW_OK)
        return rc;
    if (nsamples > 0) {
        if ((rc = store_sample_files(st, run, first, last, sizeof(first), e)) != COW_OK) {
            store_free_spans(sp, nsp);
            return rc;
        }
        ref_name(first, last, ref, sizeof(ref));
    } else {
        /* no samples: the server's INFO clock is the reference */
        first[0] = last[0] = '\0';
        for (i = 0; i < nsp; i++) {
            if (strcmp(sp[i].parser, "redis-info") != 0)
                continue;
            if (!info_ref) {
                r0 = sp[i].t0_us;
                r1 = sp[i].t1_us;
                snprintf(first, sizeof(first), "%s", sp[i].path);
            }
            r0 = sp[i].t0_us < r0 ? sp[i].t0_us : r0;
            r1 = sp[i].t1_us > r1 ? sp[i].t1_us : r1;
            snprintf(last, sizeof(last), "%s", sp[i].path);
            info_ref = 1;
        }
        if (!info_ref) {
            store_free_spans(sp, nsp);
            return COW_OK;
        }
        ref_name(first, last, ref, sizeof(ref));
    }
    for (i = 0; i < nsp; i++) {
        cow_clock_skew k;
        if (info_ref && strcmp(sp[i].parser, "redis-info") == 0)
            continue;
        memset(&k, 0, sizeof(k));
        k.kind = clock_skew(r0, r1, sp[i].t0_us, sp[i].t1_us, &k.off_s, &k.gap_s);
        if (k.kind == COW_SKEW_NONE)
            continue;
        snprintf(k.file, sizeof(k.file), "%.159s", sp[i].path);
        snprintf(k.ref, sizeof(k.ref), "%s", ref);
        k.ref_info = info_ref;
        k.f0_us = sp[i].t0_us;
        k.f1_us = sp[i].t1_us;
        k.r0_us = r0;
        k.r1_us = r1;
        *v = xgrow(*v, sizeof(**v), *n + 1, &cap);
        (*v)[(*n)++] = k;
    }
    store_free_spans(sp, nsp);
    return COW_OK;
}

void app_skew_text(const cow_clock_skew *k, char *out, size_t cap)
{
    char f0[40], f1[40], r0[40], r1[40], off[96], gap[40];
    time_format_iso_s(k->f0_us, f0, sizeof(f0));
    time_format_iso_s(k->f1_us, f1, sizeof(f1));
    time_format_iso_s(k->r0_us, r0, sizeof(r0));
    time_format_iso_s(k->r1_us, r1, sizeof(r1));
    clock_skew_offset_text(k, off, sizeof(off));
    if (k->gap_s >= 86400)
        snprintf(gap, sizeof(gap), "%.1f days", k->gap_s / 86400);
    else
        snprintf(gap, sizeof(gap), "%ld h %02ld min", (long)k->gap_s / 3600,
                 (long)k->gap_s / 60 % 60);
    snprintf(out, cap, "%s (%s .. %s) lies %s from %s (%s .. %s): likely offset %s",
             k->file, f0, f1, gap, k->ref, r0, r1, off);
}

int app_note_skews(cow_store *st, int64_t run, int quiet, cow_err *e)
{
    cow_clock_skew *k = NULL;
    size_t n = 0, i;
    char line[1024];
    int rc;

    if (quiet)
        return COW_OK;
    if ((rc = app_clock_skews(st, run, &k, &n, e)) != COW_OK)
        return rc;
    for (i = 0; i < n; i++) {
        app_skew_text(&k[i], line, sizeof(line));
        app_say("  clock: %s; its stamps are kept as they are (cowtail doctor: "
               "clock_mismatch)\n", line);
    }
    free(k);
    return COW_OK;
}
