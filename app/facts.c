/* facts.c -- the store -> cow_run_facts bridge for the doctor. */
#include "facts.h"
#include "reported.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot.h"
#include "app.h"
#include "mem.h"
#include "runstats.h"
#include "verdict.h"
#include "replsync.h"
#include "savewin.h"

cow_phase *facts_phases(const cow_result_set *rs)
{
    cow_phase *ph = xcalloc(rs->nph ? rs->nph : 1, sizeof(*ph));
    size_t i;
    for (i = 0; i < rs->nph; i++) {
        const cow_phase_row *p = &rs->ph[i];
        ph[i].kind = phase_kind_from_name(p->kind);
        snprintf(ph[i].label, sizeof(ph[i].label), "%s", p->label ? p->label : "");
        ph[i].t0_us = p->t0_us;
        ph[i].t1_us = p->t1_us;
        ph[i].fork_us = p->fork_us;
        ph[i].child_pid = p->child_pid;
        ph[i].source = p->source;
        ph[i].overlap = p->overlap;
        ph[i].open = p->open;
        ph[i].failed = p->failed;
    }
    return ph;
}

static int level_of(double q)
{
    if (fabs(q - 0.5) < 1e-9) return 0;
    if (fabs(q - 0.9) < 1e-9) return 1;
    if (fabs(q - 0.99) < 1e-9) return 2;
    if (fabs(q - 0.999) < 1e-9) return 3;
    return -1;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Windows, the worst one, save periodicity; ph[i] is rs->ph[i]'s phase. */
static void windows(const cow_result_set *rs, const cow_phase *ph, cow_run_facts *f)
{
    size_t i, ns = 0;
    int64_t starts[256];
    double best = -INFINITY;
    int best_phase = -1;
    double best_p = INFINITY;
    size_t best_i = 0;

    for (i = 0; i < rs->nph; i++) {
        const cow_phase_row *p = &rs->ph[i];
        if (!phase_is_window(ph[i].kind))
            continue;
        f->nwindows++;
        f->noverlap += p->overlap;
        if (f->nwin < COW_FACT_WINDOWS) {
            f->win_t0[f->nwin] = p->t0_us;
            f->win_t1[f->nwin++] = p->t1_us;
        }
        if (ph[i].kind == COW_PHASE_BGSAVE) {
            f->nsaves++;
            if (ns < 256)
                starts[ns++] = p->t0_us;
        }
        f->has_sync_disk |= ph[i].kind == COW_PHASE_SYNC_DISK;
        f->has_sync_diskless |= ph[i].kind == COW_PHASE_SYNC_DISKLESS;
        if (p->unstable != NULL && f->nunstable++ == 0) { /* 019_drift.sql */
            snprintf(f->unstable, sizeof(f->unstable), "%s", p->unstable);
            snprintf(f->unstable_in, sizeof(f->unstable_in), "%s", p->label);
        }
    }
    /* per window: lifted? The worst is the one with the strongest evidence
     * of a p99.9 lift (smallest p-value), then the largest delta: not the
     * first that happened to be called lifted */
    for (i = 0; i < rs->nph; i++) {
        const cow_phase_row *p = &rs->ph[i];
        size_t j;
        int lift = 0;
        double d999 = NAN, p999 = NAN;
        if (!phase_is_window(ph[i].kind))
            continue;
        for (j = 0; j < rs->nd; j++) {
            const cow_delta_row *d = &rs->d[j];
            int l = level_of(d->q);
            if (d->phase != p->idx)
                continue;
            if ((l == 2 || l == 3) && boot_verdict_of(d->verdict) == COW_VERDICT_LIFT)
                lift = 1;
            if (l == 3) {
                d999 = d->delta_us;
                p999 = isnan(d->p_up) ? 1.0 : d->p_up;
            }
        }
        f->nlifted += lift;
        if (isnan(d999))
            continue;
        if (p999 < best_p || (p999 == best_p && d999 > best)) {
            best = d999;
            best_p = p999;
            best_phase = p->idx;
            best_i = i;
        }
    }
    if (ns >= 3) {
        int64_t gaps[255];
        for (i = 1; i < ns; i++)
            gaps[i - 1] = starts[i] - starts[i - 1];
        qsort(gaps, ns - 1, sizeof(int64_t), cmp_i64);
        f->save_period_s = (double)gaps[(ns - 1) / 2] / 1e6;
    }
    if (best_phase >= 0) {
        cow_window_fact *w = &f->worst;
        const cow_phase_row *p = store_result_phase(rs, best_phase), *b = NULL;
        w->present = 1;
        snprintf(w->label, sizeof(w->label), "%s", p->label);
        w->kind = ph[best_i].kind;
        w->n = p->n;
        w->max_us = p->max_us;
        w->overlap = p->overlap;
        for (i = 0; i < rs->nd; i++) {
            const cow_delta_row *d = &rs->d[i];
            int l = level_of(d->q);
            if (d->phase != best_phase || l < 0)
                continue;
            w->delta_us[l] = d->delta_us;
            w->lo_us[l] = d->lo_us;
            w->hi_us[l] = d->hi_us;
            w->verdict[l] = boot_verdict_of(d->verdict);
            w->base_us[l] = d->base_us;
            w->value_us[l] = d->value_us;
            w->thin[l] = d->thin;
            w->n_eff_base[l] = d->n_eff_base;
            w->n_eff[l] = d->n_eff_phase;
            w->method[l] = qcmp_method_of(d->method);
            w->p_up[l] = d->p_up;
            b = store_result_phase(rs, d->base);
        }
        if (b != NULL) {
            w->base_n = b->n;
            f->base_n = b->n;
        }
        {
            double nb = isnan(w->n_eff_base[3]) ? (double)w->base_n : w->n_eff_base[3];
            double nw = isnan(w->n_eff[3]) ? (double)w->n : w->n_eff[3];
            f->thin_p999 = nb < 3688 || nw < 3688; /* effective samples */
        }
    }
}

/* Growth of the memory series over the save window (analysis/savewin.c);
 * *run_bytes (when not NULL) gets the growth over the whole series. */
static int memory(cow_store *st, const cow_run_row *r, const cow_phase *ph, size_t nph,
                  cow_run_facts *f, double *run_bytes, cow_err *e)
{
    int64_t *t = NULL;
    double *b = NULL;
    size_t n = 0;
    int rc, w;

    f->mem_growth_bytes = NAN;
    if (run_bytes)
        *run_bytes = NAN;
    if ((w = savewin_pick(ph, nph)) < 0 && run_bytes == NULL)
        return COW_OK;
    if ((rc = store_load_mem(st, r->id, &t, &b, &n, e)) != COW_OK)
        return rc;
    if (w >= 0)
        f->mem_growth_bytes = savewin_growth(t, b, n, &ph[w], NULL);
    if (run_bytes)
        *run_bytes = savewin_growth_all(b, n);
    if (!isnan(f->mem_growth_bytes))
        snprintf(f->mem_src, sizeof(f->mem_src), "memory series, %s", ph[w].label);
    free(t);
    free(b);
    return COW_OK;
}

/* A counter since server start (sync_full) as what happened in the
 * capture: its rise from the first poll to the last; unknown with fewer
 * than two polls (one dump counts the server's whole life, not the run). */
static int counter_rise(cow_store *st, const cow_run_row *r, const char *key, cow_fact *f,
                        cow_err *e)
{
    int64_t *t = NULL;
    double *v = NULL;
    size_t n = 0;
    int rc;

    if (!f->known)
        return COW_OK;
    if ((rc = store_load_info_series(st, r->id, key, &t, &v, &n, e)) != COW_OK)
        return rc;
    if (n < 2 || v[n - 1] < v[0]) { /* a restart resets it: not a rise either */
        f->known = 0;
        f->num = NAN;
    } else {
        f->num = v[n - 1] - v[0];
        snprintf(f->text, sizeof(f->text), "rose %.0f over the capture (%.0f -> %.0f)",
                 f->num, v[0], v[n - 1]);
    }
    free(t);
    free(v);
    return COW_OK;
}

/* The fork time of the latest fork window is its own (phase.c,
 * Requirement 9): the first latest_fork_usec poll after its child's start
 * line and before the next window opened; the last poll of the run is
 * another fork's when
 * it came before this one or after the next, and is not used. */
static int own_fork(cow_store *st, const cow_run_row *r, int64_t fork_us, int64_t until_us,
                    cow_run_facts *f, cow_err *e)
{
    cow_fact v;
    int rc;

    if (fork_us <= 0)
        return COW_OK;
    if ((rc = store_fact_info_at(st, r->id, "latest_fork_usec", fork_us, until_us, &v, e)) !=
        COW_OK)
        return rc;
    f->latest_fork_usec = v; /* unknown when the event holds none (fork_inflight
                                then reads LATENCY HISTORY's fork) */
    return COW_OK;
}

/* "waited it out": half the fork (diag_rules_lift.c's FORK_WAIT_SHARE) */
#define FORK_WAIT_SHARE_APP 0.5

/* The samples in flight while the latest fork ran (diag.h): the fork
 * ended at fork_end_us (the log's "started" stamp) and took
 * latest_fork_usec. */
static int fork_inflight(cow_store *st, const cow_run_row *r, int64_t fork_end_us,
                         int64_t window_end_us, cow_run_facts *f, cow_err *e)
{
    double *lat = NULL;
    int64_t *t = NULL, start;
    size_t n = 0, i;
    int rc;

    if (fork_end_us <= 0 || r->samples == 0)
        return COW_OK;
    if (f->latest_fork_usec.known && f->latest_fork_usec.num > 0)
        f->fork_dur = f->latest_fork_usec;
    else if ((rc = store_fact_latmon_fork_near(st, r->id, fork_end_us, &f->fork_dur, e)) !=
             COW_OK)
        return rc;
    if (!f->fork_dur.known || !(f->fork_dur.num > 0))
        return COW_OK;
    f->fork_dur_us = f->fork_dur.num;
    start = fork_end_us - (int64_t)f->fork_dur_us;
    /* a sample answered after the fork began was sent at most a minute before */
    if ((rc = store_load_range(st, r->id, start - 60000000, fork_end_us, &lat, &t, &n, e)) !=
        COW_OK)
        return rc;
    f->fork_inflight = 1;
    f->fork_inflight_max_us = NAN;
    f->fork_inflight_sent_us = NAN;
    for (i = 0; i < n; i++) {
        if (!(t[i] < fork_end_us && (double)t[i] + lat[i] > (double)start))
            continue;
        f->fork_inflight_n++;
        if (isnan(f->fork_inflight_max_us) || lat[i] > f->fork_inflight_max_us) {
            f->fork_inflight_max_us = lat[i];
            f->fork_inflight_sent_us = (double)(t[i] - start);
        }
    }
    free(lat);
    free(t);
    /* what came after it in its window: as slow as the fork's stall */
    f->fork_after_min_us = FORK_WAIT_SHARE_APP * f->fork_dur_us;
    f->fork_after_span_us = NAN;
    if (window_end_us <= fork_end_us)
        return COW_OK;
    lat = NULL;
    t = NULL;
    if ((rc = store_load_range(st, r->id, fork_end_us, window_end_us, &lat, &t, &n, e)) !=
        COW_OK)
        return rc;
    for (i = 0; i < n; i++) {
        if (t[i] < fork_end_us || !(lat[i] >= f->fork_after_min_us))
            continue;
        f->fork_after_n++;
        if (isnan(f->fork_after_span_us) ||
            (double)(t[i] - fork_end_us) + lat[i] > f->fork_after_span_us)
            f->fork_after_span_us = (double)(t[i] - fork_end_us) + lat[i];
    }
    free(lat);
    free(t);
    return COW_OK;
}

/* Results of r, analysing it first when it never was. */
static int results(cow_store *st, const cow_run_row *r, cow_result_set *rs, cow_err *e)
{
    int rc = store_load_results(st, r->id, rs, e);
    if (rc == COW_OK && !rs->analysed && r->samples > 0) {
        store_free_results(rs);
        if ((rc = app_analyze_run(st, r, e)) == COW_OK)
            rc = store_load_results(st, r->id, rs, e);
    }
    return rc;
}

/* Writer throughput over the capture (*ops_s) and during window w (*in_s,
 * when w is not NULL): the throughput intervals, else the server's own
 * command counter over the INFO series (every command, the probe's too). */
static int throughput(cow_store *st, const cow_run_row *r, const cow_phase *w,
                      double *ops_s, double *in_s, cow_err *e)
{
    int64_t *ti = NULL;
    double *dur = NULL, *cnt = NULL, *mx = NULL;
    size_t n = 0;
    int rc;

    if ((rc = store_load_intervals(st, r->id, 1, &ti, &dur, &cnt, &mx, &n, e)) != COW_OK)
        return rc;
    *ops_s = savewin_rate(dur, cnt, n);
    *in_s = w ? savewin_rate_in(ti, dur, cnt, n, w) : NAN;
    free(ti);
    free(dur);
    free(cnt);
    free(mx);
    if (!isnan(*ops_s))
        return COW_OK;
    ti = NULL;
    cnt = NULL;
    if ((rc = store_load_info_series(st, r->id, "total_commands_processed", &ti, &cnt,
                                     &n, e)) == COW_OK) {
        *ops_s = savewin_counter_rate(ti, cnt, n);
        *in_s = w ? savewin_counter_rate_in(ti, cnt, n, w) : NAN;
    }
    free(ti);
    free(cnt);
    return rc;
}

/* Mean of the INFO samples of key polled inside window w, NaN when none. */
static int info_mean_in(cow_store *st, const cow_run_row *r, const char *key,
                        const cow_phase *w, double *mean, cow_err *e)
{
    int64_t *t = NULL;
    double *v = NULL, sum = 0;
    size_t n = 0, i, k = 0;
    int rc = store_load_info_series(st, r->id, key, &t, &v, &n, e);
    for (i = 0; rc == COW_OK && i < n; i++)
        if (t[i] >= w->t0_us && t[i] <= w->t1_us && !isnan(v[i])) {
            sum += v[i];
            k++;
        }
    *mean = k ? sum / (double)k : NAN;
    free(t);
    free(v);
    return rc;
}

int facts_rate_paced_in(cow_store *st, const cow_run_row *r, const cow_phase *w, int *paced,
                        cow_err *e)
{
    int64_t *ti = NULL;
    double *dur = NULL, *cnt = NULL, *mx = NULL;
    size_t n = 0;
    int rc = store_load_intervals(st, r->id, 1, &ti, &dur, &cnt, &mx, &n, e);

    *paced = rc == COW_OK && savewin_rate_steady(ti, dur, cnt, n, w, 0.01);
    free(ti);
    free(dur);
    free(cnt);
    free(mx);
    return rc;
}

int facts_rate_in(cow_store *st, const cow_run_row *r, const cow_phase *w, double *ops_s,
                  const char **src, cow_err *e)
{
    int64_t *ti = NULL;
    double *dur = NULL, *cnt = NULL, *mx = NULL;
    size_t n = 0;
    int rc;

    *ops_s = NAN;
    *src = NULL;
    if ((rc = store_load_intervals(st, r->id, 1, &ti, &dur, &cnt, &mx, &n, e)) == COW_OK) {
        *ops_s = savewin_rate_in(ti, dur, cnt, n, w);
        *src = FACTS_SRC_WRITERS;
    }
    free(ti);
    free(dur);
    free(cnt);
    free(mx);
    if (rc != COW_OK || !isnan(*ops_s))
        return rc;
    ti = NULL;
    cnt = NULL;
    if ((rc = store_load_info_series(st, r->id, "total_commands_processed", &ti, &cnt, &n,
                                     e)) == COW_OK) {
        *ops_s = savewin_counter_rate_in(ti, cnt, n, w);
        *src = "INFO total_commands_processed";
    }
    free(ti);
    free(cnt);
    if (rc != COW_OK || !isnan(*ops_s))
        return rc;
    rc = info_mean_in(st, r, "instantaneous_ops_per_sec", w, ops_s, e);
    *src = isnan(*ops_s) ? NULL : "INFO instantaneous_ops_per_sec";
    return rc;
}

/* The metrics the stored phases give: memory growth (save and run), save
 * time, worst round trip (save and run, with their n), throughput (save
 * and run). */
static int trial_phases(cow_store *st, const cow_run_row *r, cow_trial *t, cow_err *e)
{
    cow_result_set rs;
    cow_run_facts f;
    cow_phase *ph;
    double worst = NAN, run_bytes;
    size_t i;
    int rc, w;

    if ((rc = results(st, r, &rs, e)) != COW_OK)
        return rc;
    ph = facts_phases(&rs);
    w = savewin_pick(ph, rs.nph);
    memset(&f, 0, sizeof(f));
    rc = memory(st, r, ph, rs.nph, &f, &run_bytes, e);
    if (rc == COW_OK) {
        t->v[COW_TM_MEM_MB] = f.mem_growth_bytes / 1048576;
        t->v[COW_TM_MEM_RUN_MB] = run_bytes / 1048576;
    }
    for (i = 0; i < rs.nph; i++)
        if (!isnan(rs.ph[i].max_us) && (isnan(worst) || rs.ph[i].max_us > worst))
            worst = rs.ph[i].max_us;
    t->v[COW_TM_WORST_MS] = worst / 1000;
    t->v[COW_TM_N_RUN] = (double)r->samples;
    if (w >= 0) {
        t->v[COW_TM_WORST_SAVE_MS] = rs.ph[w].max_us / 1000;
        t->v[COW_TM_N_SAVE] = (double)rs.ph[w].n;
    }
    t->v[COW_TM_SAVE_S] = savewin_seconds(ph, rs.nph);
    if (rc == COW_OK)
        rc = throughput(st, r, w >= 0 ? &ph[w] : NULL, &t->v[COW_TM_TPUT],
                        &t->v[COW_TM_TPUT_SAVE], e);
    free(ph);
    store_free_results(&rs);
    return rc;
}

int facts_trial(cow_store *st, const cow_run_row *r, cow_trial *t, cow_err *e)
{
    cow_fact v;
    int rc, m, forkless = r->mode && strcmp(r->mode, "forkless") == 0;

    t->label = r->label;
    t->mode = r->mode;
    for (m = 0; m < COW_TM_COUNT; m++)
        t->v[m] = NAN;
    if ((rc = trial_phases(st, r, t, e)) != COW_OK)
        return rc;
    if ((rc = store_fact_info_last(st, r->id, "rdb_last_cow_size", &v, e)) != COW_OK)
        return rc;
    if (v.known)
        t->v[COW_TM_COW_MB] = v.num / 1048576;
    if (isnan(t->v[COW_TM_SAVE_S])) {
        if ((rc = store_fact_info_last(st, r->id, "rdb_last_bgsave_time_sec", &v, e)) != COW_OK)
            return rc;
        if (v.known && v.num >= 0)
            t->v[COW_TM_SAVE_S] = v.num;
    }
    if (!forkless) {
        if ((rc = store_fact_info_last(st, r->id, "latest_fork_usec", &v, e)) != COW_OK)
            return rc;
        if (v.known)
            t->v[COW_TM_FORK_MS] = v.num / 1000;
    }
    return COW_OK;
}

static int same(const char *a, const char *b)
{
    return (a == NULL && b == NULL) || (a && b && strcmp(a, b) == 0);
}

int facts_same_group(const cow_run_row *a, const cow_run_row *b)
{
    return same(a->scenario, b->scenario) && same(a->host, b->host) &&
           same(a->mode, b->mode);
}

int facts_in_group(const cow_run_row *r, const char *host, const char *scenario)
{
    return r->mode != NULL && r->samples > 0 && same(r->host, host) &&
           same(r->scenario, scenario);
}

int facts_tradeoff_group(const cow_run_row *rows, size_t n, const char **host,
                         const char **scenario)
{
    size_t i, j, best_runs = 0;
    int found = -1;
    for (i = 0; i < n; i++) {
        size_t runs = 0;
        int modes2 = 0;
        if (rows[i].mode == NULL || rows[i].samples == 0)
            continue;
        for (j = 0; j < n; j++)
            if (facts_in_group(&rows[j], rows[i].host, rows[i].scenario)) {
                runs++;
                modes2 |= strcmp(rows[j].mode, rows[i].mode) != 0;
            }
        if (modes2 && runs > best_runs) {
            best_runs = runs;
            *host = rows[i].host;
            *scenario = rows[i].scenario;
            found = 0;
        }
    }
    return found;
}

/* A run's reported p99.9 (percentile-only sources), for the doctor. */
static int reported_facts(cow_store *st, const cow_run_row *r, cow_run_facts *f,
                          cow_err *e)
{
    app_reported rep;
    const cow_pctl_row *p;
    const char *base;
    int rc;

    if ((rc = app_load_reported(st, r->id, &rep, e)) != COW_OK)
        return rc;
    if ((p = app_reported_at(&rep, 99.9)) != NULL) {
        base = strrchr(p->file, '/') ? strrchr(p->file, '/') + 1 : p->file;
        f->reported_p999.known = 1;
        f->reported_p999.num = p->value_us;
        snprintf(f->reported_p999.text, sizeof(f->reported_p999.text),
                 "%.3f ms, %s %.40s", p->value_us / 1000, p->source, p->op);
        snprintf(f->reported_p999.src, sizeof(f->reported_p999.src), "%.180s:%ld",
                 base, p->line);
        f->reported_n = p->count;
    }
    app_reported_release(&rep);
    return COW_OK;
}

/* Files off the samples' clock, and the server logs' zones. */
static int clock_facts(cow_store *st, const cow_run_row *r, cow_run_facts *f,
                       cow_err *e)
{
    cow_clock_skew *k = NULL;
    cow_clock_row *rows = NULL;
    size_t n = 0, nrows = 0, i;
    int rc;

    if ((rc = app_clock_skews(st, r->id, &k, &n, e)) != COW_OK)
        return rc;
    for (i = 0; i < n && i < COW_FACT_SKEWS; i++)
        f->skews[i] = k[i];
    f->nskews = (int)n;
    free(k);
    if ((rc = store_clock_list(st, r->id, &rows, &nrows, e)) != COW_OK)
        return rc;
    for (i = 0; i < nrows && f->log_zone == 0 && rc == COW_OK; i++) {
        long off = 0;
        int doubt = 0;
        if (strcmp(rows[i].decided, "mismatch") == 0) {
            f->log_zone = 1;
            off = rows[i].off_s;
        } else if (strcmp(rows[i].decided, "assumed") == 0) {
            rc = app_log_zone_doubt(st, r->id, rows[i].file, &off, &f->log_in0,
                                    &f->log_in, &doubt, e);
            if (doubt)
                f->log_zone = 2;
        }
        if (f->log_zone != 0) {
            f->log_clock.known = 1;
            f->log_clock.num = (double)off;
            snprintf(f->log_clock.text, sizeof(f->log_clock.text), "%s",
                     rows[i].decided);
            snprintf(f->log_clock.src, sizeof(f->log_clock.src), "%.199s", rows[i].path);
        }
    }
    store_free_clocks(rows, nrows);
    return rc;
}

static void part(char *buf, size_t n, const char *name, double s)
{
    size_t k = strlen(buf);
    if (!isnan(s) && k < n)
        snprintf(buf + k, n - k, ", %s %.3f s", name, s);
}

/* The first replica sync that reached link up (replsync.h). */
static int repl_sync_fact(cow_store *st, const cow_run_row *r, cow_run_facts *f,
                          cow_err *e)
{
    app_replsyncs rs;
    const app_replica *who = NULL;
    const cow_repl_sync *s;
    int rc;

    if ((rc = app_replica_syncs(st, r->id, &rs, e)) != COW_OK)
        return rc;
    s = app_replsyncs_first_up(&rs, &who);
    if (s != NULL && !isnan(s->attach_to_up_s)) {
        f->repl_sync.known = 1;
        f->repl_sync.num = s->attach_to_up_s;
        snprintf(f->repl_sync.text, sizeof(f->repl_sync.text), "%.3f s", s->attach_to_up_s);
        part(f->repl_sync.text, sizeof(f->repl_sync.text), "wait", s->wait_s);
        part(f->repl_sync.text, sizeof(f->repl_sync.text), "transfer", s->transfer_s);
        part(f->repl_sync.text, sizeof(f->repl_sync.text), "flush", s->flush_s);
        part(f->repl_sync.text, sizeof(f->repl_sync.text), "load", s->load_s);
        snprintf(f->repl_sync.src, sizeof(f->repl_sync.src),
                 "the replica's log (pid %lld, port %lld), line %ld", (long long)who->pid,
                 (long long)who->port, s->attach_line);
    }
    app_replsyncs_release(&rs);
    return COW_OK;
}

/* The kernel's account of the latest fork window [t0_us, t1_us]
 * (analysis/kacct.h), from the run's kstat.csv readings. */
static int kernel_account(cow_store *st, const cow_run_row *r, int64_t t0_us, int64_t t1_us,
                          cow_run_facts *f, cow_err *e)
{
    cow_kstat_row *rows = NULL;
    char *path = NULL;
    size_t n = 0;
    int rc;

    if (t1_us <= t0_us)
        return COW_OK;
    if ((rc = store_load_kstat(st, r->id, &rows, &n, &path, e)) != COW_OK)
        return rc;
    kacct_window(rows, n, t0_us, t1_us, &f->kacct);
    if (f->kacct.known) {
        f->kstat.known = 1;
        f->kstat.num = NAN;
        snprintf(f->kstat.text, sizeof(f->kstat.text), "%s", f->fork_window);
        snprintf(f->kstat.src, sizeof(f->kstat.src), "%s:%ld-%ld", path, f->kacct.line0,
                 f->kacct.line1);
    }
    free(rows);
    free(path);
    return COW_OK;
}

/* The longest command the latency monitor recorded in the latest fork
 * window [t0_us, t1_us]. */
static int window_command(cow_store *st, const cow_run_row *r, int64_t t0_us, int64_t t1_us,
                          cow_run_facts *f, cow_err *e)
{
    int64_t at = 0;
    int rc;

    f->win_cmd_at_s = NAN;
    if (t1_us <= t0_us)
        return COW_OK;
    if ((rc = store_fact_latmon_cmd(st, r->id, t0_us, t1_us, &f->win_cmd, &at, e)) != COW_OK)
        return rc;
    if (f->win_cmd.known)
        f->win_cmd_at_s = (double)(at - t0_us) / 1e6;
    return COW_OK;
}

/* The server's own per-command latency (LATENCY HISTOGRAM). */
static int command_latency(cow_store *st, const cow_run_row *r, cow_run_facts *f, cow_err *e)
{
    cow_cmdhist_row *rows = NULL;
    size_t n = 0;
    int rc = store_load_cmdhist(st, r->id, &rows, &n, e);

    if (rc == COW_OK)
        cmdhist_summarise(rows, n, &f->cmdhist);
    store_free_cmdhist(rows, n);
    return rc;
}

/* The log's fork children that were killed or ended in error: the count
 * over every such event kind, the first one's text and file:line. */
static int child_killed_fact(cow_store *st, const cow_run_row *r, cow_run_facts *f,
                             cow_err *e)
{
    static const char *const kinds[] = {"bgsave_killed", "bgsave_error",
                                        "rdb_transfer_killed", "rdb_transfer_error",
                                        "sync_bgsave_error", "aof_rewrite_killed",
                                        "aof_rewrite_error"};
    size_t k;
    int rc;
    memset(&f->child_killed, 0, sizeof(f->child_killed));
    f->child_killed.known = 1;
    f->child_killed.num = 0;
    for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
        cow_fact one;
        memset(&one, 0, sizeof(one));
        if ((rc = store_fact_event_count(st, r->id, kinds[k], &one, e)) != COW_OK)
            return rc;
        if (!(one.num > 0))
            continue;
        if (f->child_killed.num == 0) {
            snprintf(f->child_killed.text, sizeof(f->child_killed.text), "%s%s%.60s",
                     kinds[k], one.text[0] ? ": " : "", one.text);
            snprintf(f->child_killed.src, sizeof(f->child_killed.src), "%s", one.src);
        }
        f->child_killed.num += one.num;
    }
    return COW_OK;
}

int facts_load(cow_store *st, const cow_run_row *r, cow_run_facts *f, cow_err *e)
{
    cow_result_set rs;
    cow_phase *ph;
    int64_t fork_end_us = 0, fork_until_us = INT64_MAX, fork_window_end_us = 0,
            fork_window_t0_us = 0;
    int rc;

    memset(f, 0, sizeof(*f));
    f->label = r->label;
    f->scenario = r->scenario;
    f->mode = r->mode;
    f->host = r->host;
    f->samples = r->samples;
    f->save_period_s = NAN;
    if ((rc = results(st, r, &rs, e)) != COW_OK)
        return rc;
    f->analysed = rs.analysed;
    f->run_max_us = NAN;
    {   /* the latest fork's window, and the run's worst sample */
        size_t k;
        for (k = 0; k < rs.nph; k++) {
            if (!isnan(rs.ph[k].max_us) && (isnan(f->run_max_us) || rs.ph[k].max_us > f->run_max_us))
                f->run_max_us = rs.ph[k].max_us;
            if (rs.ph[k].fork_us > 0 && rs.ph[k].fork_us > fork_end_us) {
                fork_end_us = rs.ph[k].fork_us;
                fork_window_end_us = rs.ph[k].t1_us;
                fork_window_t0_us = rs.ph[k].t0_us;
                snprintf(f->fork_window, sizeof(f->fork_window), "%s", rs.ph[k].label);
            }
        }
    }
    {   /* the fork window's own fork ends where the next window opens */
        size_t k;
        for (k = 0; fork_end_us > 0 && k < rs.nph; k++)
            if (phase_is_window(phase_kind_from_name(rs.ph[k].kind)) &&
                rs.ph[k].t0_us > fork_end_us && rs.ph[k].t0_us < fork_until_us)
                fork_until_us = rs.ph[k].t0_us;
    }
    ph = facts_phases(&rs);
    windows(&rs, ph, f);
    rc = memory(st, r, ph, rs.nph, f, NULL, e);
    free(ph);
    store_free_results(&rs);
    if (rc != COW_OK)
        return rc;
    if ((rc = reported_facts(st, r, f, e)) != COW_OK)
        return rc;
#define INFO(field, key) \
    do { if ((rc = store_fact_info_last(st, r->id, key, &f->field, e)) != COW_OK) return rc; } while (0)
    INFO(latest_fork_usec, "latest_fork_usec");
    INFO(used_memory, "used_memory");
    INFO(maxmemory, "maxmemory");
    INFO(aof_last_cow_size, "aof_last_cow_size");
    INFO(sync_full, "sync_full");
    INFO(os, "os");
    INFO(bgsave_type, "rdb_last_bgsave_type");
    INFO(lm_threshold, "latency-monitor-threshold");
    INFO(diskless_sync, "repl-diskless-sync");
    INFO(disable_thp, "disable-thp");
    INFO(appendonly, "appendonly");
    INFO(version, "valkey_version");
    if (!f->version.known)
        INFO(version, "redis_version");
#undef INFO
    if ((rc = own_fork(st, r, fork_end_us, fork_until_us, f, e)) != COW_OK ||
        (rc = counter_rise(st, r, "sync_full", &f->sync_full, e)) != COW_OK)
        return rc;
    if ((rc = store_fact_info_last(st, r->id, "rdb_last_cow_size", &f->rdb_last_cow_size, e)) ||
        (rc = store_fact_stat_max(st, r->id, "smaps_rollup", "AnonHugePages", 0, &f->anon_huge, e)) ||
        (rc = store_fact_stat_max(st, r->id, "smaps_rollup", "Anonymous", 0, &f->anonymous, e)) ||
        (rc = store_fact_stat_last(st, r->id, "thp", "enabled", &f->thp_enabled, e)) ||
        (rc = store_fact_stat_last(st, r->id, "sysctl", "vm.overcommit_memory", &f->overcommit, e)) ||
        (rc = store_fact_stat_last(st, r->id, "sysctl", "vm.swappiness", &f->swappiness, e)) ||
        (rc = store_fact_stat_last(st, r->id, "meminfo", "SwapTotal", &f->swap_total, e)) ||
        (rc = store_fact_stat_last(st, r->id, "sysctl", "kernel.numa_balancing", &f->numa, e)) ||
        (rc = store_fact_event_count(st, r->id, "warn_thp", &f->warn_thp, e)) ||
        (rc = store_fact_event_count(st, r->id, "warn_overcommit", &f->warn_overcommit, e)) ||
        (rc = store_fact_event_count(st, r->id, "full_resync", &f->full_resync, e)) ||
        (rc = store_fact_event_count(st, r->id, "repl_backlog_created", &f->backlog_created, e)) ||
        (rc = store_fact_event_count(st, r->id, "sync_bgsave_start", &f->sync_forks, e)) ||
        (rc = store_fact_event_max(st, r->id, "cow_rdb", &f->cow_mb, e)) ||
        (rc = store_fact_latmon(st, r->id, "history", &f->latmon_fork, e)) ||
        (rc = store_fact_latmon(st, r->id, "doctor_none", &f->latmon_none, e)) ||
        (rc = store_fact_latmon_thp(st, r->id, &f->latmon_thp, e)) ||
        (rc = store_fact_stat_rise(st, r->id, "vmstat", "thp_split_pmd", &f->thp_split, e)) ||
        (rc = store_fact_latmon_spike(st, r->id, &f->latmon_spike, e)) ||
        (rc = store_fact_refusals(st, r->label, &f->refused, e)) ||
        (rc = store_fact_info_sub_max(st, r->id, "slave", "lag", &f->replica_lag, e)))
        return rc;
    if (!f->anon_huge.known &&
        (rc = store_fact_stat_max(st, r->id, "smaps", "AnonHugePages", 0, &f->anon_huge, e)))
        return rc;
    if ((rc = child_killed_fact(st, r, f, e)) != COW_OK ||
        (rc = fork_inflight(st, r, fork_end_us, fork_window_end_us, f, e)) != COW_OK)
        return rc;
    if ((rc = repl_sync_fact(st, r, f, e)) != COW_OK ||
        (rc = kernel_account(st, r, fork_window_t0_us, fork_window_end_us, f, e)) != COW_OK ||
        (rc = window_command(st, r, fork_window_t0_us, fork_window_end_us, f, e)) != COW_OK ||
        (rc = command_latency(st, r, f, e)) != COW_OK)
        return rc;
    return clock_facts(st, r, f, e);
}

int facts_load_gate(cow_store *st, const cow_run_row *r, cow_run_facts *f, cow_err *e)
{
    int rc;

    memset(f, 0, sizeof(*f));
    f->label = r->label;
    f->samples = r->samples;
    if ((rc = store_fact_info_last(st, r->id, "latest_fork_usec", &f->latest_fork_usec, e)) ||
        (rc = store_fact_info_last(st, r->id, "used_memory", &f->used_memory, e)) ||
        (rc = store_fact_info_last(st, r->id, "rdb_last_cow_size", &f->rdb_last_cow_size, e)) ||
        (rc = store_fact_stat_max(st, r->id, "smaps_rollup", "AnonHugePages", 0, &f->anon_huge, e)) ||
        (rc = store_fact_event_max(st, r->id, "cow_rdb", &f->cow_mb, e)))
        return rc;
    if (!f->anon_huge.known &&
        (rc = store_fact_stat_max(st, r->id, "smaps", "AnonHugePages", 0, &f->anon_huge, e)))
        return rc;
    return COW_OK;
}

/* Latencies of every run like `like`, pooled and sorted (caller frees). */
int facts_pool_group(cow_store *st, const cow_run_row *rows, size_t n,
                     const cow_run_row *like, double **v, size_t *m, int *runs,
                     cow_err *e)
{
    size_t i, cap = 0;
    int rc;

    *v = NULL;
    *m = 0;
    *runs = 0;
    for (i = 0; i < n; i++) {
        double *lat;
        size_t k;
        if (!facts_same_group(&rows[i], like) || rows[i].samples == 0)
            continue;
        if ((rc = store_load_latencies(st, rows[i].id, INT64_MIN, INT64_MAX, &lat, &k,
                                       e)) != COW_OK)
            return rc;
        *v = xgrow(*v, sizeof(double), *m + k, &cap);
        memcpy(*v + *m, lat, k * sizeof(double));
        *m += k;
        (*runs)++;
        free(lat);
    }
    runstats_sort(*v, *m);
    return COW_OK;
}


char *facts_group_name(const cow_run_row *r)
{
    return xasprintf("%s%s%s%s%s%s", r->scenario ? r->scenario : r->label,
             r->mode || r->host ? " (" : "", r->mode ? r->mode : "",
             r->mode && r->host ? ", " : "", r->host ? r->host : "",
             r->mode || r->host ? ")" : "");
}
