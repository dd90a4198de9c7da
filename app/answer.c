/* answer.c -- one answer per run (answer.h). */
#include "answer.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "facts.h"
#include "impact.h"
#include "boot.h"
#include "label.h"
#include "mem.h"
#include "strbuf.h"
#include "phase.h"
#include "store_answers.h"
#include "timeconv.h"

cow_quant app_quant_row(const cow_quantile_row *q, int64_t n)
{
    if (q == NULL)
        return quant_make(NAN, NAN, NAN, NAN, n, NAN);
    return quant_make(q->q, q->value_us, q->lo_us, q->hi_us, n, q->n_eff);
}

cow_quant app_quant_delta(const cow_delta_row *d)
{
    cow_quant r;
    if (d == NULL)
        return quant_make(NAN, NAN, NAN, NAN, -1, NAN);
    r = quant_make(NAN, d->delta_us, d->lo_us, d->hi_us, -1, d->n_eff_phase);
    if (d->verdict != NULL && strcmp(d->verdict, "n/a") == 0)
        r.est_us = NAN;
    if (d->why != NULL) /* a ? with its reason (019_drift.sql) */
        snprintf(r.why, sizeof(r.why), "%s", d->why);
    return r;
}

/* ------------------------------------------------------- growing text */

/* s made safe for the sink (label.h), appended */
static void sb_text(cow_sbuf *b, const char *s, int sink)
{
    char *t = label_safe(s ? s : "", sink == APP_ANSWER_MD ? COW_LABEL_MD : COW_LABEL_TERM);
    sbuf_add(b, "%s", t);
    free(t);
}

/* ------------------------------------------------------- the decision */

const cow_delta_row *app_worst_window(const cow_result_set *rs)
{
    const cow_delta_row *best = NULL;
    size_t i;
    for (i = 0; i < rs->nd; i++) {
        const cow_phase_row *p = store_result_phase(rs, rs->d[i].phase);
        if (fabs(rs->d[i].q - 0.999) > 1e-9 || p == NULL ||
            phase_kind_from_name(p->kind) == COW_PHASE_AFTER)
            continue;
        if (best == NULL || rs->d[i].delta_us > best->delta_us)
            best = &rs->d[i];
    }
    return best;
}

double app_floor_us(const cow_result_set *rs)
{
    const cow_delta_row *d = app_worst_window(rs);
    const cow_quantile_row *q = NULL;
    size_t i;
    if (d != NULL)
        q = store_result_quantile(rs, d->base, 0.5);
    for (i = 0; q == NULL && i < rs->nph; i++)
        if (phase_kind_from_name(rs->ph[i].kind) == COW_PHASE_BASELINE)
            q = store_result_quantile(rs, rs->ph[i].idx, 0.5);
    return q != NULL ? q->value_us : NAN;
}

/* The rules whose advice answers "what to do", most specific first: a
 * cause the evidence supports before a symptom, a symptom before a host
 * setting. Each with the short phrase naming the cause. */
static const struct {
    const char *rule;
    const char *cause;
    int measure; /* about the measurement, not the run: its advice is
                    never the run's "Do" (a forkless save's "no fork
                    recorded" is no cause of anything) */
} todo_rank[] = {
    {"save_child_killed", "a fork child killed or failed (who killed it: no kernel log)", 0},
    {"command_in_save", "", 0},        /* diag_command_cause(): a command, not the save */
    {"kernel_account", "", 0},         /* diag_kernel_cause(): the kernel's own account */
    {"slowness_outlasts_fork", "", 0}, /* after_fork(): not the fork, the fork also */
    {"fork_is_the_cost", "the fork itself: the server stood still while it ran", 0},
    {"thp_backing_heap", "huge pages backing the heap", 0},
    {"latency_doctor_thp", "huge pages backing the heap (the server's LATENCY DOCTOR)", 0},
    {"slow_fork", "a slow fork", 0},
    {"full_lift", "contention for CPU or disk (p50 moved too)", 0},
    {"overlapping_forks", "saves overlapping each other", 0},
    {"periodic_save_spikes", "every periodic save", 0},
    {"aof_rewrite_still_forks", "the AOF rewrite's fork", 0},
    {"fork_not_the_cost", "", 0}, /* worded by the copy-on-write share: after_fork() */
    {"readonly_control_flat", "write-driven copy-on-write", 0},
    {"cow_memory_headroom", NULL, 0},
    {"log_cow", NULL, 0},
    {"latency_spike", NULL, 0},
    {"disk_vs_diskless_sync", NULL, 0},
    {"overcommit_memory", NULL, 0},
    {"clock_mismatch", NULL, 1},
    {"ingest_refusals", NULL, 1},
    {"monitor_blind_spot", NULL, 1},
    {"tail_only_lift", NULL, 1},
};
#define NRANK (sizeof(todo_rank) / sizeof(todo_rank[0]))

/* Copy-on-write at least this share of used_memory is a cause worth
 * naming; below it the time after the fork went elsewhere. */
#define COW_CAUSE_MIN_PCT 25.0

/* The cause when the fork is cleared (fork_not_the_cost: the lift is
 * larger than the fork could explain, or the fork was too short to stall
 * anyone): decided by the copy-on-write share alone, so runs with the
 * same evidence read the same. */
static char *after_fork(const app_answer *a)
{
    cow_sbuf b = {0};
    /* a rise no larger than the fork: the fork may be part of it
       (diag_rules_lift.c fork_not_the_cost) */
    const char *nf = !isnan(a->fork_ms) && !(a->delta.est_us > a->fork_ms * 1000)
                         ? "not the fork alone" : "not the fork";
    if (isnan(a->cow_pct_used))
        sbuf_add(&b, "what the save does after the fork (copy-on-write, the child's "
                   "I/O), %s", nf);
    else if (a->cow_pct_used >= COW_CAUSE_MIN_PCT)
        sbuf_add(&b, "copy-on-write and the child's I/O after the fork, %s", nf);
    else
        sbuf_add(&b, "the child's I/O or the host after the fork, %s "
                   "(copy-on-write only %.0f%% of used_memory)", nf, a->cow_pct_used);
    if (!isnan(a->fork_ms) && a->fork_ms >= 10) /* long enough to stall: named too */
        sbuf_add(&b, "; also the fork (%.1f ms)", a->fork_ms);
    return sbuf_take(&b);
}

static int has_word(const char *s, const char *w)
{
    return s != NULL && strstr(s, w) != NULL;
}

/* The advice's first sentence (up to ". "), the whole of it otherwise:
 * the line says what to do first; the Findings say the rest. */
static char *first_sentence(const char *s)
{
    const char *dot = strstr(s, ". ");
    return dot ? xstrndup(s, (size_t)(dot - s)) : xstrdup(s);
}

/* The failed limits of a run, "p999_ms 12.300 (limit 10), ..." */
static char *gate_text(const app_thresholds *t, const app_verdict *v)
{
    cow_sbuf b = {0};
    int k;
    for (k = 0; k < TH_COUNT; k++) {
        if (!t->set[k] || v[k].state != APP_FAIL)
            continue;
        sbuf_add(&b, "%s%s ", b.n ? ", " : "", app_th_keys[k]);
        if (isnan(v[k].value))
            sbuf_add(&b, "?");
        else
            sbuf_add(&b, "%.3f", v[k].value);
        sbuf_add(&b, " (limit %g", t->v[k]);
        if (!isnan(v[k].p))
            sbuf_add(&b, "; raw p %.3g, adjusted p %.3g", v[k].p, v[k].p_adj);
        sbuf_add(&b, ")");
    }
    return b.s;
}

/* A passing run whose estimate lies over a limit the gate could not show
 * it exceeds, in words that agree with the run's verdict: "max_p999_lift_ms
 * 59.598 over 20: the excess is not shown at the gate's level (raw p
 * 0.057, adjusted p 1)"; on a run whose verdict is a lift, the lift limit
 * says the lift is shown and its size over the limit is not. NULL when
 * there is none. */
static char *gate_near(const app_thresholds *t, const app_verdict *v, int verdict)
{
    cow_sbuf b = {0};
    int k;
    for (k = 0; k < TH_COUNT; k++) {
        if (!t->set[k] || v[k].state != APP_PASS || isnan(v[k].p) || isnan(v[k].value) ||
            !(v[k].value > t->v[k]))
            continue;
        if (k == TH_P999_LIFT && verdict == COW_VERDICT_LIFT)
            sbuf_add(&b, "%sthe lift is shown, its size over the limit is not: %s %.3f over "
                         "%g (raw p %.3g, adjusted p %.3g)",
                     b.n ? ", " : "", app_th_keys[k], v[k].value, t->v[k], v[k].p, v[k].p_adj);
        else
            sbuf_add(&b, "%s%s %.3f over %g: the excess is not shown at the gate's level "
                         "(raw p %.3g, adjusted p %.3g)",
                     b.n ? ", " : "", app_th_keys[k], v[k].value, t->v[k], v[k].p, v[k].p_adj);
    }
    return b.s;
}

int app_window_cow(cow_store *st, const cow_run_row *r, const cow_phases *ph, double *mb,
                   cow_err *e)
{
    cow_event_set ev;
    size_t i, k;
    int rc;
    for (i = 0; i < ph->n; i++)
        mb[i] = NAN;
    if ((rc = store_load_events(st, r->id, &ev, e)) != COW_OK)
        return rc;
    for (k = 0; k < ev.n; k++) {
        const cow_event *v = &ev.v[k];
        size_t hit = ph->n;
        if (v->kind == NULL || (strcmp(v->kind, "cow_rdb") != 0 &&
                                strcmp(v->kind, "cow_aof") != 0 &&
                                strcmp(v->kind, "cow_module") != 0) || isnan(v->value))
            continue;
        for (i = 0; i < ph->n && hit == ph->n; i++)
            if (phase_is_window(ph->v[i].kind) && v->pid > 0 && ph->v[i].child_pid == v->pid)
                hit = i;
        for (i = 0; i < ph->n && hit == ph->n; i++)
            if (phase_is_window(ph->v[i].kind) && v->t_us >= ph->v[i].t0_us &&
                v->t_us <= ph->v[i].t1_us)
                hit = i;
        if (hit < ph->n && (isnan(mb[hit]) || v->value > mb[hit]))
            mb[hit] = v->value;
    }
    store_free_events(&ev);
    return COW_OK;
}

/* A run without samples (a server log, LATENCY output): its windows as
 * the log gives them (made now, not stored: analyze stores runs with
 * samples), the longest described, with no verdict. */
static int log_window(cow_store *st, const cow_run_row *r, app_answer *a, cow_err *e)
{
    cow_runstats_opts o = {COW_PCT_LINEAR, 1, 1, 1, NULL};
    app_analysis an;
    const cow_phase *best = NULL;
    size_t i;
    int rc = app_analyze_compute(st, r, &o, 0, &an, e);
    if (rc == COW_ECLOCK) { /* the log's clock in doubt: no window to describe */
        app_analysis_release(&an);
        return COW_OK;
    }
    if (rc != COW_OK) {
        app_analysis_release(&an);
        return rc;
    }
    a->nwindows = 0; /* counted here, whether or not they were stored */
    for (i = 0; i < an.ph.n; i++) {
        const cow_phase *p = &an.ph.v[i];
        if (!phase_is_window(p->kind))
            continue;
        a->nwindows++;
        if (best == NULL || p->t1_us - p->t0_us > best->t1_us - best->t0_us)
            best = p;
    }
    if (best != NULL) {
        a->has_window = 1;
        a->log_only = 1;
        a->window = xstrdup(best->label);
        a->kind = xstrdup(phase_kind_name(best->kind));
        a->t0_us = best->t0_us;
        a->len_us = best->t1_us - best->t0_us;
    }
    app_analysis_release(&an);
    return COW_OK;
}

/* A window whose p99.9 could not tell (or showed no change) may still show
 * a lift lower down: the largest lift of any window (not "after") at the
 * highest of p99, p90 and p50 that has one, into a->shown_delta (its q
 * set) / a->shown_in; 0 when none did. */
static int lower_lift(const cow_result_set *rs, app_answer *a)
{
    static const double levels[] = {0.99, 0.9, 0.5};
    const cow_delta_row *best = NULL;
    size_t i, l;
    for (l = 0; l < sizeof(levels) / sizeof(levels[0]) && best == NULL; l++)
        for (i = 0; i < rs->nd; i++) {
            const cow_delta_row *d = &rs->d[i];
            const cow_phase_row *p = store_result_phase(rs, d->phase);
            if (fabs(d->q - levels[l]) > 1e-9 || p == NULL ||
                phase_kind_from_name(p->kind) == COW_PHASE_AFTER ||
                boot_verdict_of(d->verdict) != COW_VERDICT_LIFT)
                continue;
            if (best == NULL || d->delta_us > best->delta_us)
                best = d;
        }
    if (best == NULL)
        return 0;
    a->shown_delta = app_quant_delta(best);
    a->shown_delta.q = best->q;
    a->shown_in = xstrdup(store_result_phase(rs, best->phase)->label);
    return 1;
}

int app_probe_was_late(const app_answer *a)
{
    return a->probe_known && !a->probe_from_intended &&
           ((!isnan(a->probe_p99_ms) && a->probe_p99_ms >= APP_PROBE_LATE_MS) ||
            (isnan(a->probe_p99_ms) && a->probe_late * 100 > a->probe_n));
}

int app_probe_lag(cow_store *st, int64_t run, app_answer *a, cow_err *e)
{
    char *notes = NULL, *seg, *q, *b;
    long long n = 0, late = 0;
    double mean, p99 = NAN, mx;
    int rc;
    a->probe_known = 0;
    if ((rc = store_file_note(st, run, "intended send '", &notes, e)) != COW_OK ||
        notes == NULL)
        return rc;
    seg = strstr(notes, "intended send '");
    q = seg ? strstr(seg, " samples sent ") : NULL;
    if (q != NULL) {
        char *end = strstr(q, "; intended send '"); /* a later note of the kind */
        for (b = q; b > seg && b[-1] != ' '; b--)
            ;
        if (sscanf(b, "%lld samples sent %lf us after their intended time on average, "
                      "p99 %lf us, at most %lf us, %lld more",
                   &n, &mean, &p99, &mx, &late) == 5 ||
            (p99 = NAN, sscanf(b, "%lld samples sent %lf us after their intended time on "
                                  "average, at most %lf us, %lld more",
                               &n, &mean, &mx, &late) == 4)) {
            a->probe_known = n > 0;
            a->probe_n = n;
            a->probe_late = late;
            a->probe_p99_ms = p99 / 1000;
            a->probe_max_ms = mx / 1000;
            q = strstr(q, "(--latency-from intended)");
            a->probe_from_intended = q != NULL && (end == NULL || q < end);
            /* report --latency-from reads the other reading of what ingest stored */
            if (store_latency_from(st) != COW_FROM_STORED)
                a->probe_from_intended = store_latency_from(st) == COW_FROM_INTENDED;
        }
    }
    free(notes);
    return COW_OK;
}

/* What a run without latency samples holds besides them: its findings,
 * latency intervals, memory and throughput series. */
static int held(cow_store *st, const cow_run_row *r, const cow_findings *fs, app_answer *a,
                cow_err *e)
{
    int64_t *t = NULL;
    double *dur = NULL, *cnt = NULL, *mx = NULL, *v = NULL;
    size_t n = 0, j;
    int rc;
    a->held_interval_max_ms = NAN;
    for (j = 0; fs != NULL && j < fs->n; j++)
        if (strcmp(fs->v[j].run, r->label) == 0) {
            a->held_findings++;
            a->held_warnings += fs->v[j].severity >= COW_SEV_WARN;
        }
    if ((rc = store_load_intervals(st, r->id, 0, &t, &dur, &cnt, &mx, &n, e)) == COW_OK) {
        a->held_intervals = (long long)n;
        for (j = 0; j < n; j++)
            if (!isnan(mx[j]) && (isnan(a->held_interval_max_ms) ||
                                  mx[j] / 1000 > a->held_interval_max_ms))
                a->held_interval_max_ms = mx[j] / 1000;
    }
    free(t);
    free(dur);
    free(cnt);
    free(mx);
    t = NULL;
    dur = cnt = mx = NULL;
    if (rc == COW_OK && (rc = store_load_intervals(st, r->id, 1, &t, &dur, &cnt, &mx, &n, e)) ==
                            COW_OK)
        a->held_tput = (long long)n;
    free(t);
    free(dur);
    free(cnt);
    free(mx);
    t = NULL;
    if (rc == COW_OK && (rc = store_load_mem(st, r->id, &t, &v, &n, e)) == COW_OK)
        a->held_mem = (long long)n;
    free(t);
    free(v);
    a->held = a->held_findings > 0 || a->held_intervals > 0 || a->held_mem > 0 ||
              a->held_tput > 0;
    return rc;
}

app_impact app_impact_none(void)
{
    app_impact x;
    memset(&x, 0, sizeof(x));
    x.base_p99_ms = x.stall_ms = x.stall_at_s = x.base_stall_ms = NAN;
    x.tput_before = x.tput_during = x.tput_loss_pct = NAN;
    return x;
}

/* The phase of rs.ph at idx as analysis sees it, from ph (facts_phases). */
static const cow_phase *phase_at(const cow_result_set *rs, const cow_phase *ph, int idx)
{
    size_t j;
    for (j = 0; j < rs->nph; j++)
        if (rs->ph[j].idx == idx)
            return &ph[j];
    return NULL;
}

/* The samples phase k holds by the rule analyze assigns them (in flight,
 * phase_holds: completed in it, each request in one phase), not by send
 * time, so a count is the phase's n; *lat / *t owned by the caller. */
static int phase_samples(cow_store *st, int64_t run, const cow_result_set *rs, const cow_phases *ph,
                         size_t k, double **lat, int64_t **t, size_t *n, cow_err *e)
{
    double max_lat = -1;
    size_t i, m = 0;
    int rc;
    for (i = 0; i < rs->nph; i++)
        if (rs->ph[i].max_us > max_lat) /* the run's longest latency (NaN: none) */
            max_lat = rs->ph[i].max_us;
    rc = store_load_range(st, run, phase_first_send(&ph->v[k], max_lat), rs->ph[k].t1_us, lat,
                          t, n, e);
    for (i = 0; rc == COW_OK && i < *n; i++)
        if (phase_holds(ph, k, (*t)[i], (*lat)[i])) {
            (*t)[m] = (*t)[i];
            (*lat)[m++] = (*lat)[i];
        }
    *n = rc == COW_OK ? m : 0;
    return rc;
}

/* The longest of the probe's own stall records (capture's stalls.csv:
 * the server answered nothing while requests it had sent waited) that
 * overlap [t0, t1): *ms and *at_us, left as they are when none does. */
static void recorded_stall(const cow_quiet_row *q, size_t nq, int64_t t0, int64_t t1,
                           double *ms, double *at_us)
{
    int64_t best = -1, at = 0;
    size_t i;
    for (i = 0; i < nq; i++)
        if (!q[i].gap && q[i].t_us < t1 && q[i].t_us + q[i].dur_us > t0 && q[i].dur_us > best) {
            best = q[i].dur_us;
            at = q[i].t_us;
        }
    if (best >= 0) {
        *ms = (double)best / 1000;
        if (at_us != NULL)
            *at_us = (double)at;
    }
}

/* The window's samples: the longest stall, where it began, and those
 * beyond thr_us; the baseline's own longest stall beside it. A stall is
 * the probe's own record where the run has one in that phase (the
 * figure analyze lists: from the oldest request actually sent), else it
 * is read from the samples (impact.c). */
static int window_impact(cow_store *st, int64_t run, const cow_result_set *rs,
                         const cow_phase_row *w, const cow_phase_row *b, double thr_us,
                         app_impact *x, cow_err *e)
{
    double *lat = NULL, at;
    int64_t *t = NULL;
    cow_quiet_row *q = NULL;
    size_t n = 0, nq = 0, i, kw = rs->nph, kb = rs->nph;
    cow_phases ph = {facts_phases(rs), rs->nph, rs->nph};
    int rc = COW_OK;

    for (i = 0; i < rs->nph; i++) {
        if (rs->ph[i].idx == w->idx)
            kw = i;
        if (b != NULL && rs->ph[i].idx == b->idx)
            kb = i;
    }
    if ((rc = store_load_quiet(st, run, &q, &nq, e)) != COW_OK) {
        free(ph.v);
        return rc;
    }
    if (kw < rs->nph && (rc = phase_samples(st, run, rs, &ph, kw, &lat, &t, &n, e)) == COW_OK &&
        n > 0) {
        x->stall_ms = impact_longest_stall_at(t, lat, n, &at) / 1000;
        recorded_stall(q, nq, w->t0_us, w->t1_us, &x->stall_ms, &at);
        x->stall_at_s = (at - (double)w->t0_us) / 1e6;
        x->slow = (long long)impact_count_above(lat, n, thr_us);
        x->n = (long long)n;
    }
    free(lat);
    free(t);
    lat = NULL;
    t = NULL;
    if (rc == COW_OK && kb < rs->nph &&
        (rc = phase_samples(st, run, rs, &ph, kb, &lat, &t, &n, e)) == COW_OK && n > 0) {
        x->base_stall_ms = impact_longest_stall(t, lat, n) / 1000;
        recorded_stall(q, nq, b->t0_us, b->t1_us, &x->base_stall_ms, NULL);
    }
    free(lat);
    free(t);
    free(ph.v);
    free(q);
    return rc;
}

static int throughput(cow_store *st, const cow_run_row *r, const cow_result_set *rs,
                      const cow_delta_row *d, app_impact *x, cow_err *e)
{
    cow_phase *ph = facts_phases(rs);
    const cow_phase *b = phase_at(rs, ph, d->base), *w = phase_at(rs, ph, d->phase);
    const char *s1 = NULL, *s2 = NULL;
    int rc = COW_OK;
    if (b != NULL && w != NULL && (rc = facts_rate_in(st, r, b, &x->tput_before, &s1, e)) == COW_OK)
        rc = facts_rate_in(st, r, w, &x->tput_during, &s2, e);
    if (rc == COW_OK && w != NULL && s1 != NULL && strcmp(s1, FACTS_SRC_WRITERS) == 0)
        rc = facts_rate_paced_in(st, r, w, &x->tput_paced, e); /* w lives in ph */
    free(ph);
    /* both from one source, or neither is shown */
    if (rc == COW_OK && s1 != NULL && s2 != NULL && strcmp(s1, s2) == 0 && x->tput_before > 0) {
        x->tput_src = s1;
        x->tput_loss_pct = 100 * (1 - x->tput_during / x->tput_before);
    } else {
        x->tput_before = x->tput_during = NAN;
        x->tput_paced = 0;
    }
    return rc;
}

/* What the window cost the clients, measured from its samples and the
 * throughput series (a->impact). */
static int measure_impact(cow_store *st, const cow_run_row *r, const cow_result_set *rs,
                          const cow_delta_row *d, app_impact *x, cow_err *e)
{
    const cow_phase_row *w = store_result_phase(rs, d->phase), *b = store_result_phase(rs, d->base);
    const cow_quantile_row *b99 = store_result_quantile(rs, d->base, 0.99);
    int rc = COW_OK;
    x->base_p99_ms = b99 ? b99->value_us / 1000 : NAN;
    if (w != NULL)
        rc = window_impact(st, r->id, rs, w, b, b99 ? b99->value_us : NAN, x, e);
    if (rc == COW_OK)
        rc = throughput(st, r, rs, d, x, e);
    return rc;
}

static int one(cow_store *st, const cow_run_row *r, const cow_run_facts *f,
               const cow_findings *fs, app_answer *a, cow_err *e)
{
    cow_result_set rs;
    const cow_delta_row *d;
    size_t j, k, best = NRANK;
    int rc, crit = 0, forkless;
    char *kc = NULL; /* the kernel account's cause (diag_kernel_cause) */
    char *cc = NULL; /* a command's (diag_command_cause) */

    a->run = r->label;
    a->run_id = r->id;
    a->synthetic = r->synthetic;
    a->verdict = COW_VERDICT_NA;
    a->base = a->win = a->delta = a->shown_delta = quant_make(NAN, NAN, NAN, NAN, -1, NAN);
    a->worst_ms = a->run_worst_ms = a->fork_ms = a->cow_mb = a->cow_pct_used = a->latmon_spike_ms = NAN;
    a->both_ms = a->median_ms = NAN;
    a->impact = app_impact_none();
    if ((rc = store_load_results(st, r->id, &rs, e)) != COW_OK)
        return rc;
    for (j = 0; j < rs.nph; j++) {
        a->nwindows += phase_is_window(phase_kind_from_name(rs.ph[j].kind));
        if (rs.ph[j].n > 0 && !isnan(rs.ph[j].max_us) &&
            (isnan(a->run_worst_ms) || rs.ph[j].max_us / 1000 > a->run_worst_ms)) {
            a->run_worst_ms = rs.ph[j].max_us / 1000;
            free(a->run_worst_in);
            a->run_worst_in = xstrdup(rs.ph[j].label);
        }
    }
    if ((d = app_worst_window(&rs)) != NULL) {
        const cow_phase_row *w = store_result_phase(&rs, d->phase), *b = store_result_phase(&rs, d->base);
        a->has_window = 1;
        a->window = xstrdup(w->label);
        a->kind = xstrdup(w->kind);
        if (w->unstable != NULL && w->unstable[0])
            a->moved = xstrdup(w->unstable);
        a->t0_us = w->t0_us;
        a->len_us = w->t1_us - w->t0_us;
        a->worst_ms = w->max_us / 1000;
        double floor_us = app_floor_us(&rs);
        a->base = app_quant_row(store_result_quantile(&rs, d->base, 0.999), b ? b->n : -1);
        a->win = app_quant_row(store_result_quantile(&rs, d->phase, 0.999), w->n);
        /* a lower bound under the baseline's median bounds nothing */
        a->median_ms = floor_us / 1000;
        quant_floor(&a->base, floor_us);
        quant_floor(&a->win, floor_us);
        a->delta = app_quant_delta(d);
        a->both_ms = d->local_base ? d->base_us / 1000 : NAN;
        a->verdict = boot_verdict_of(d->verdict);
        a->method = d->method && strcmp(d->method, "tail-test") == 0 ? "tail-test"
                                                                      : "bootstrap";
        if (a->verdict != COW_VERDICT_LIFT && a->verdict != COW_VERDICT_DROP)
            lower_lift(&rs, a);
        if ((rc = measure_impact(st, r, &rs, d, &a->impact, e)) != COW_OK) {
            store_free_results(&rs);
            return rc;
        }
        if (phase_kind_from_name(w->kind) == COW_PHASE_SYNC_DISK)
            a->xfer = APP_XFER_DISK;
        else if (phase_kind_from_name(w->kind) == COW_PHASE_SYNC_DISKLESS)
            a->xfer = APP_XFER_DISKLESS;
    }
    store_free_results(&rs);
    if (d == NULL && r->samples == 0 && (rc = log_window(st, r, a, e)) != COW_OK)
        return rc;
    forkless = a->kind != NULL && phase_kind_from_name(a->kind) == COW_PHASE_FORKLESS;
    a->probe_p99_ms = a->probe_max_ms = NAN;
    if (r->samples > 0 && (rc = app_probe_lag(st, r->id, a, e)) != COW_OK)
        return rc;

    /* the evidence */
    if (f != NULL) {
        if (!forkless && f->latest_fork_usec.known && f->latest_fork_usec.num > 0)
            a->fork_ms = f->latest_fork_usec.num / 1000;
        if (a->kind != NULL && phase_kind_from_name(a->kind) == COW_PHASE_AOF_REWRITE &&
            f->aof_last_cow_size.known)
            a->cow_mb = f->aof_last_cow_size.num / 1048576;
        else if (forkless)
            ; /* no fork, no copy-on-write */
        else if (f->rdb_last_cow_size.known && f->rdb_last_cow_size.num > 0)
            a->cow_mb = f->rdb_last_cow_size.num / 1048576;
        else if (f->cow_mb.known)
            a->cow_mb = f->cow_mb.num;
        if (!isnan(a->cow_mb) && f->used_memory.known && f->used_memory.num > 0)
            a->cow_pct_used = 100 * a->cow_mb * 1048576 / f->used_memory.num;
        if (f->thp_enabled.known && has_word(f->thp_enabled.text, "[never]"))
            a->thp = APP_THP_OFF;
        else if (f->anon_huge.known && f->anon_huge.num > 0)
            a->thp = APP_THP_BACKING;
        else if (f->anon_huge.known)
            a->thp = APP_THP_NOT_BACKING;
        a->child_killed = f->child_killed.known && f->child_killed.num > 0;
        a->latmon_thp = f->latmon_thp.known;
        if (f->latmon_spike.known && f->latmon_spike.num >= 100)
            a->latmon_spike_ms = f->latmon_spike.num;
    }

    /* the finding that explains the run best, and its advice; a forkless
     * save has no fork to blame or clear, and a fork that is only "poor"
     * (info) is not named the cause. "Do" comes from the finding that
     * names the cause; without one, from a finding about the run's own
     * evidence, never from one about the measurement. */
    for (j = 0; fs != NULL && j < fs->n; j++) {
        const cow_finding *x = &fs->v[j];
        if (strcmp(x->run, r->label) != 0)
            continue;
        crit |= x->severity == COW_SEV_CRIT;
        /* the AOF rewrite's fork is the answer's cause only for the
         * rewrite's own window (a rewrite before the capture explains no
         * forkless save's lift) */
        if (strcmp(x->rule, "aof_rewrite_still_forks") == 0 &&
            (a->kind == NULL || phase_kind_from_name(a->kind) != COW_PHASE_AOF_REWRITE))
            continue;
        if (strcmp(x->rule, "kernel_account") == 0 && (f == NULL || forkless ||
                                                      (kc = diag_kernel_cause(f)) == NULL))
            continue; /* an account that blames nothing, or the fork alone */
        if (strcmp(x->rule, "command_in_save") == 0 &&
            (f == NULL || (cc == NULL && (cc = diag_command_cause(f)) == NULL)))
            continue; /* a command shorter than the fork or the window's worst */
        if ((forkless && (strcmp(x->rule, "fork_not_the_cost") == 0 ||
                          strcmp(x->rule, "slowness_outlasts_fork") == 0 ||
                          strcmp(x->rule, "fork_is_the_cost") == 0)) ||
            (strcmp(x->rule, "slow_fork") == 0 && x->severity < COW_SEV_WARN))
            continue;
        for (k = 0; k < best; k++)
            if (strcmp(x->rule, todo_rank[k].rule) == 0) {
                if (todo_rank[k].measure)
                    break;
                best = k;
                free(a->todo);
                a->todo = first_sentence(x->advice);
                a->todo_rule = todo_rank[k].rule;
                break;
            }
    }
    if (best < NRANK && strcmp(todo_rank[best].rule, "command_in_save") == 0) {
        a->cause = cc;
        cc = NULL;
    } else if (best < NRANK && strcmp(todo_rank[best].rule, "kernel_account") == 0) {
        a->cause = kc;
        kc = NULL;
    } else if (best < NRANK && todo_rank[best].cause != NULL)
        a->cause = todo_rank[best].cause[0] ? xstrdup(todo_rank[best].cause)
                                            : after_fork(a);
    else if (forkless && (a->verdict == COW_VERDICT_LIFT || a->shown_in != NULL))
        a->cause = xstrdup("the forkless save's own work inside the server (no fork, "
                           "no copy-on-write)");
    free(kc);
    free(cc);

    /* a finding that shows the rise the p99.9 verdict could not: the
     * fork was the stall, or a lift below p99.9 */
    for (j = 0; fs != NULL && j < fs->n && a->shown_in == NULL && a->has_window &&
                a->verdict != COW_VERDICT_LIFT && a->verdict != COW_VERDICT_DROP;
         j++)
        if (strcmp(fs->v[j].run, r->label) == 0 &&
            (strcmp(fs->v[j].rule, "fork_is_the_cost") == 0 ||
             strcmp(fs->v[j].rule, "slowness_outlasts_fork") == 0 ||
             strcmp(fs->v[j].rule, "full_lift") == 0 ||
             strcmp(fs->v[j].rule, "tail_only_lift") == 0))
            a->shown_finding = xstrdup(fs->v[j].title);

    /* something to say? (a probe that was itself late is: its figures
     * understate what clients saw) */
    if (a->verdict == COW_VERDICT_LIFT || a->verdict == COW_VERDICT_DROP || crit ||
        a->child_killed || a->shown_in != NULL || a->shown_finding != NULL ||
        app_probe_was_late(a))
        a->say = 1;
    /* evidence without samples: the log's copy-on-write, the latency
     * monitor's own stalls or huge-page advice */
    if (r->samples == 0 && f != NULL &&
        (!isnan(a->cow_mb) || a->latmon_thp || !isnan(a->latmon_spike_ms)))
        a->say = 1;
    /* nothing with evidence is called empty */
    if (r->samples == 0 && (rc = held(st, r, fs, a, e)) != COW_OK)
        return rc;
    if (a->held)
        a->say = 1;
    a->crit = crit;
    if (a->say)
        a->quiet = APP_QUIET_NO;
    else if (a->has_window)
        a->quiet = a->verdict == COW_VERDICT_FLAT ? APP_QUIET_FLAT : APP_QUIET_UNSURE;
    else if (r->samples > 0)
        a->quiet = APP_QUIET_NO_WINDOW;
    else
        a->quiet = APP_QUIET_NO_SAMPLES;
    return COW_OK;
}

/* Show order: a failed gate, then a critical finding, then the larger
 * p99.9 rise, then run order. */
static const app_answer *sort_base;
static int by_urgency(const void *x, const void *y)
{
    const app_answer *a = &sort_base[*(const size_t *)x], *b = &sort_base[*(const size_t *)y];
    double da = isnan(a->delta.est_us) ? -INFINITY : a->delta.est_us;
    double db = isnan(b->delta.est_us) ? -INFINITY : b->delta.est_us;
    if ((a->gate == APP_GATE_FAIL) != (b->gate == APP_GATE_FAIL))
        return a->gate == APP_GATE_FAIL ? -1 : 1;
    if (a->crit != b->crit)
        return a->crit ? -1 : 1;
    if (da != db)
        return da > db ? -1 : 1;
    return *(const size_t *)x < *(const size_t *)y ? -1 : 1;
}

static int answers_save(cow_store *st, const app_answers *as, cow_err *e);

int app_answers_build(cow_store *st, const cow_run_row *rows, size_t n,
                      const cow_run_facts *facts, const cow_findings *fs,
                      const app_fleet_check *fc, const app_thresholds *th,
                      app_answers *out, cow_err *e)
{
    size_t i, k;
    int rc;
    memset(out, 0, sizeof(*out));
    out->v = xcalloc(n ? n : 1, sizeof(*out->v));
    out->n = n;
    for (i = 0; i < n; i++) {
        app_answer *a = &out->v[i];
        if ((rc = one(st, &rows[i], facts ? &facts[i] : NULL, fs, a, e)) != COW_OK) {
            app_answers_release(out);
            return rc;
        }
        if (fc != NULL && th != NULL && i < fc->n) {
            a->gate = fc->failed[i] ? APP_GATE_FAIL : APP_GATE_PASS;
            if (th->set[TH_P999_LIFT])
                a->gate_lift = fc->v[i][TH_P999_LIFT].state == APP_FAIL ? APP_GATE_FAIL
                                                                        : APP_GATE_PASS;
            if (fc->failed[i]) {
                a->gate_why = gate_text(th, fc->v[i]);
                a->say = 1;
                a->quiet = APP_QUIET_NO;
            } else {
                a->gate_why = gate_near(th, fc->v[i], a->verdict);
            }
        }
        if (a->say)
            out->nsay++;
        else
            out->nquiet[a->quiet]++;
    }
    out->order = xcalloc(out->nsay ? out->nsay : 1, sizeof(size_t));
    for (i = 0, k = 0; i < n; i++)
        if (out->v[i].say)
            out->order[k++] = i;
    sort_base = out->v; /* qsort has no context argument; built on one thread */
    qsort(out->order, out->nsay, sizeof(size_t), by_urgency);
    sort_base = NULL;
    /* kept as decided (table answers), for the export */
    if ((rc = answers_save(st, out, e)) != COW_OK)
        app_answers_release(out);
    return rc;
}

void app_answers_release(app_answers *a)
{
    size_t i;
    for (i = 0; a->v != NULL && i < a->n; i++) {
        free(a->v[i].window);
        free(a->v[i].moved);
        free(a->v[i].kind);
        free(a->v[i].cause);
        free(a->v[i].gate_why);
        free(a->v[i].todo);
        free(a->v[i].shown_in);
        free(a->v[i].run_worst_in);
        free(a->v[i].shown_finding);
    }
    free(a->v);
    free(a->order);
    memset(a, 0, sizeof(*a));
}

/* ------------------------------------------------------- the words */

static const char *verdict_word(int v)
{
    switch (v) {
    case COW_VERDICT_LIFT: return "lift";
    case COW_VERDICT_DROP: return "drop";
    case COW_VERDICT_FLAT: return "~";
    case COW_VERDICT_UNSURE: return "?";
    default: return "n/a";
    }
}

const char *app_verdict_shown(const char *stored)
{
    return verdict_word(boot_verdict_of(stored));
}

const char *app_delta_method(const cow_delta_row *d)
{
    if (d->method == NULL)
        return "-";
    if (strcmp(d->method, "tail-test") == 0)
        return "exact tail test (one bound)";
    if (strcmp(d->method, "bootstrap") == 0)
        return "bootstrap 95% interval";
    return d->method;
}

/* The facts that need no sampling argument, from the probe's own record
 * and the throughput series: "; the server answered nothing for 23.8 ms
 * at +0.6 s (the baseline's longest wait 0.9 ms); 117 of
 * 798 requests slower than the baseline's p99 0.489 ms; throughput 20000
 * -> 4354/s (-78%)". */
static void impact_facts(cow_sbuf *b, const app_impact *x)
{
    if (!isnan(x->stall_ms) && x->stall_ms > 0) {
        sbuf_add(b, "; the server answered nothing for %.1f ms at %+.1f s", 
                 x->stall_ms, x->stall_at_s);
        if (!isnan(x->base_stall_ms))
            sbuf_add(b, " (the baseline's longest wait %.1f ms)", x->base_stall_ms);
    }
    if (x->n > 0 && !isnan(x->base_p99_ms))
        sbuf_add(b, "; %lld of %lld probes (%.1f%%) slower than the baseline's p99 %.3f ms",
                 x->slow, x->n, 100.0 * (double)x->slow / (double)x->n, x->base_p99_ms);
    if (!isnan(x->tput_before)) {
        char *t = app_impact_tput_text(x, "->");
        sbuf_add(b, "; throughput %s", t);
        if (x->tput_paced)
            sbuf_add(b, ": the writers ran at a fixed rate, so throughput falls only when the "
                        "server falls behind them; the latency above is the cost");
        free(t);
    }
}

char *app_impact_tput_text(const app_impact *x, const char *arrow)
{
    if (isnan(x->tput_before))
        return NULL;
    return xasprintf("%.0f %s %.0f/s (%+.0f%%%s)", x->tput_before, arrow, x->tput_during,
                     -x->tput_loss_pct, x->tput_paced ? ", a paced load" : "");
}

char *app_answer_shown(const app_answer *a)
{
    cow_sbuf b = {0};
    char q[COW_QUANT_FMT_MAX];
    if (a->shown_in == NULL)
        return a->shown_finding != NULL ? xstrdup(a->shown_finding) : NULL;
    sbuf_add(&b, "p%g lift %s ms in %s", 100 * a->shown_delta.q,
             quant_format(&a->shown_delta, COW_QF_SIGNED | COW_QF_INTERVAL, q, sizeof(q)),
             a->shown_in);
    return sbuf_take(&b);
}

char *app_answer_line(const app_answer *a, int sink)
{
    cow_sbuf b = {0};
    char q1[COW_QUANT_FMT_MAX], q2[COW_QUANT_FMT_MAX], q3[COW_QUANT_FMT_MAX];
    const char *bold = sink == APP_ANSWER_MD ? "**" : "";
    int any = 0;

    if (sink == APP_ANSWER_MD)
        sbuf_add(&b, "**");
    sb_text(&b, a->run, sink);
    sbuf_add(&b, "%s: ", bold);
    if (a->has_window) {
        char when[40];
        time_format_iso_s(a->t0_us, when, sizeof(when));
        sb_text(&b, a->kind, sink);
        if (a->log_only) {
            sbuf_add(&b, " at %s for %.1f s", when, (double)a->len_us / 1e6);
            if (a->nwindows > 1)
                sbuf_add(&b, " (the longest of %d windows)", a->nwindows);
            sbuf_add(&b, ": no latency samples, so no tail verdict");
        } else {
            char both[48] = "";
            if (!isnan(a->both_ms)) /* the reference the delta was taken against */
                snprintf(both, sizeof(both), " (both sides of the window: %.3f ms)",
                         a->both_ms);
            sbuf_add(&b, " at %s for %.1f s: p99.9 %s ms%s -> %s ms: %s%s%s", when,
                   (double)a->len_us / 1e6, quant_format(&a->base, 0, q2, sizeof(q2)), both,
                   quant_format(&a->win, 0, q3, sizeof(q3)), bold, verdict_word(a->verdict),
                   bold);
            if (a->verdict != COW_VERDICT_NA)
                sbuf_add(&b, " %s ms", quant_format(&a->delta, COW_QF_SIGNED | COW_QF_INTERVAL,
                                                   q1, sizeof(q1)));
            if (a->shown_in != NULL) {
                char *sh = app_answer_shown(a);
                sbuf_add(&b, "; but ");
                sb_text(&b, sh, sink);
                free(sh);
            } else if (a->shown_finding != NULL) {
                sbuf_add(&b, "; but ");
                sb_text(&b, a->shown_finding, sink);
            }
        }
        /* the window's worst, named so; the run's (what the timeline
         * rings) beside it when it lies elsewhere */
        if (!isnan(a->worst_ms))
            sbuf_add(&b, "; worst sample in the window %.1f ms", a->worst_ms);
        if (!isnan(a->worst_ms) && a->run_worst_in != NULL &&
            a->run_worst_ms > a->worst_ms) {
            sbuf_add(&b, " (worst of the run %.1f ms, in ", a->run_worst_ms);
            sb_text(&b, a->run_worst_in, sink);
            sbuf_add(&b, ")");
        }
        impact_facts(&b, &a->impact);
    } else if (a->held) {
        sbuf_add(&b, "no latency samples, so no tail verdict");
    } else if (a->nwindows == 0) {
        sbuf_add(&b, "no fork, save or sync window");
    } else {
        sbuf_add(&b, "%d window%s, no baseline to compare with", a->nwindows,
               a->nwindows == 1 ? "" : "s");
    }
    sbuf_add(&b, ". ");
    /* the probe itself late: what clients saw was worse than this */
    if (app_probe_was_late(a))
        sbuf_add(&b, "%sWarning%s: the probe itself was sent late (a probe that waits "
                   "for each reply waits out the server's stalls; a busy host delays "
                   "it too): tail figures read from the actual send are lower bounds "
                   "of what clients saw. ", bold, bold);
    if (a->probe_known) {
        sbuf_add(&b, "Probe: sent late by ");
        if (!isnan(a->probe_p99_ms))
            sbuf_add(&b, "p99 %.3f ms, ", a->probe_p99_ms);
        sbuf_add(&b, "at most %.3f ms, %lld of %lld samples more than 1 ms late; latency "
                   "read from the %s. ", a->probe_max_ms, a->probe_late, a->probe_n,
               a->probe_from_intended ? "intended send (no coordinated omission)"
                                      : "actual send (--latency-from intended reads it "
                                        "from the intended one)");
    }
    /* the evidence */
    if (!isnan(a->fork_ms)) {
        sbuf_add(&b, "%sfork %.1f ms", any++ ? ", " : "Evidence: ", a->fork_ms);
    }
    if (!isnan(a->cow_mb)) {
        sbuf_add(&b, "%scopy-on-write %.0f MB", any++ ? ", " : "Evidence: ", a->cow_mb);
        if (!isnan(a->cow_pct_used))
            sbuf_add(&b, " (%.0f%% of used_memory)", a->cow_pct_used);
    }
    if (a->thp != APP_THP_UNKNOWN)
        sbuf_add(&b, "%s%s", any++ ? ", " : "Evidence: ",
               a->thp == APP_THP_BACKING ? "huge pages back the heap"
               : a->thp == APP_THP_OFF   ? "THP never"
                                         : "THP not backing the heap");
    if (a->xfer != APP_XFER_NONE)
        sbuf_add(&b, "%s%s transfer", any++ ? ", " : "Evidence: ",
               a->xfer == APP_XFER_DISK ? "disk" : "diskless");
    if (a->child_killed)
        sbuf_add(&b, "%sa fork child was killed or failed", any++ ? ", " : "Evidence: ");
    if (a->latmon_thp)
        sbuf_add(&b, "%sLATENCY DOCTOR reports huge pages", any++ ? ", " : "Evidence: ");
    if (!isnan(a->latmon_spike_ms))
        sbuf_add(&b, "%sa %.0f ms stall in LATENCY", any++ ? ", " : "Evidence: ",
               a->latmon_spike_ms);
    if (any)
        sbuf_add(&b, ". ");
    if (a->held) { /* what a run without samples holds, after its evidence */
        char *h = app_answer_held_text(a);
        sbuf_add(&b, "It holds %s. ", h);
        free(h);
    }
    if (a->cause != NULL) {
        sbuf_add(&b, "Cause: ");
        sb_text(&b, a->cause, sink);
        sbuf_add(&b, ". ");
    }
    if (a->gate == APP_GATE_FAIL) {
        sbuf_add(&b, "Gate: %sfails%s ", bold, bold);
        sb_text(&b, a->gate_why, sink);
        sbuf_add(&b, ". ");
    } else if (a->gate == APP_GATE_PASS && a->gate_why != NULL) {
        sbuf_add(&b, "Gate: passes, not shown over a limit its estimate exceeds: ");
        sb_text(&b, a->gate_why, sink);
        sbuf_add(&b, ". ");
    } else if (a->gate == APP_GATE_PASS) {
        sbuf_add(&b, "Gate: passes. ");
    }
    if (a->todo != NULL) {
        sbuf_add(&b, "Do: ");
        sb_text(&b, a->todo, sink);
        sbuf_add(&b, ".");
    }
    while (b.n > 0 && b.s[b.n - 1] == ' ')
        b.s[--b.n] = '\0';
    return sbuf_take(&b);
}

char *app_answer_held_text(const app_answer *a)
{
    cow_sbuf b = {0};
    const char *sep = "";
    if (!a->held)
        return NULL;
    if (a->held_findings > 0) {
        sbuf_add(&b, "%d finding%s", a->held_findings, a->held_findings == 1 ? "" : "s");
        if (a->held_warnings > 0)
            sbuf_add(&b, " (%d of warning or worse)", a->held_warnings);
        sep = ", ";
    }
    if (a->held_intervals > 0) {
        sbuf_add(&b, "%s%lld latency interval%s", sep, a->held_intervals,
                 a->held_intervals == 1 ? "" : "s");
        if (!isnan(a->held_interval_max_ms))
            sbuf_add(&b, " (worst %.1f ms)", a->held_interval_max_ms);
        sep = ", ";
    }
    if (a->held_tput > 0) {
        sbuf_add(&b, "%s%lld throughput interval%s", sep, a->held_tput,
                 a->held_tput == 1 ? "" : "s");
        sep = ", ";
    }
    if (a->held_mem > 0)
        sbuf_add(&b, "%sa memory series of %lld poll%s", sep, a->held_mem,
                 a->held_mem == 1 ? "" : "s");
    return sbuf_take(&b);
}

/* Why a run that compared its windows cannot tell: the delta's reason
 * (quant.h: a baseline that moved, stalls locked to the probe), else too
 * few samples. */
static const char *unsure_why(const app_answer *a)
{
    return a->delta.why[0] != '\0' ? a->delta.why : "too few samples in the window";
}

const char *app_answer_base_cell(const app_answer *a, char *buf, size_t n)
{
    if (!isnan(a->both_ms))
        snprintf(buf, n, "%.3f (both sides)", a->both_ms);
    else
        quant_format(&a->base, 0, buf, n);
    return buf;
}

const char *app_answer_delta_cell(const app_answer *a, char *buf, size_t n)
{
    cow_quant dq = a->delta; /* the cell gives the reason's binding part */
    snprintf(dq.why, sizeof(dq.why), "%s", app_why_short(a->delta.why));
    return quant_format(&dq, COW_QF_SIGNED | COW_QF_INTERVAL, buf, n);
}

const char *app_why_short(const char *why)
{
    const char *b = why ? strstr(why, "; the block test needs ") : NULL;
    return b != NULL ? b + 2 : why;
}

/* The rule behind a run's ?, for naming the runs of one rule together (the
 * numbers stay in each run's own line): a baseline too short for the
 * block test, else the reason itself. */
static const char *unsure_rule(const app_answer *a)
{
    const char *w = unsure_why(a);
    if (strstr(w, "the block test needs ") != NULL && strstr(w, " baseline samples") != NULL)
        return "a baseline too short for a tail verdict: each run's section gives the "
               "samples it has and the block test needs";
    return w;
}

char *app_answer_quiet_text(const app_answer *a)
{
    static const char *const why[APP_QUIET_COUNT] = {
        NULL, "its windows did not move p99.9 (~)", NULL,
        "no fork, save or sync window to compare the baseline with",
        "no latency samples and no log evidence"};
    cow_sbuf b = {0};
    if (a->say || a->quiet <= 0 || a->quiet >= APP_QUIET_COUNT)
        return NULL;
    if (a->quiet == APP_QUIET_UNSURE)
        sbuf_add(&b, "nothing to report: cannot tell whether p99.9 moved (?: %s)",
                 unsure_why(a));
    else
        sbuf_add(&b, "nothing to report: %s", why[a->quiet]);
    return sbuf_take(&b);
}

/* The runs that cannot tell, named, those of one reason together:
 * "aof-rewrite, fullsync-disk (a change within the baseline's own movement around the
 * window)". At most 8 names a reason, then how many more. */
static void unsure_names(cow_sbuf *b, const app_answers *a)
{
    size_t i, j, named, more;
    const char *sep = ": ";
    for (i = 0; i < a->n; i++) {
        const app_answer *x = &a->v[i];
        int first = 1;
        if (x->say || x->quiet != APP_QUIET_UNSURE)
            continue;
        for (j = 0; j < i && first; j++)   /* its reason already listed */
            if (!a->v[j].say && a->v[j].quiet == APP_QUIET_UNSURE &&
                strcmp(unsure_rule(&a->v[j]), unsure_rule(x)) == 0)
                first = 0;
        if (!first)
            continue;
        sbuf_add(b, "%s", sep);
        sep = "; ";
        for (j = i, named = 0, more = 0; j < a->n; j++) {
            const app_answer *y = &a->v[j];
            if (y->say || y->quiet != APP_QUIET_UNSURE ||
                strcmp(unsure_rule(y), unsure_rule(x)) != 0)
                continue;
            if (named < 8)
                sbuf_add(b, "%s%s", named++ ? ", " : "", y->run);
            else
                more++;
        }
        if (more)
            sbuf_add(b, " and %zu more", more);
        sbuf_add(b, " (%s)", unsure_rule(x));
    }
}

char *app_answer_quiet_line(const app_answers *a, int sink)
{
    static const char *const why[APP_QUIET_COUNT] = {
        NULL,
        "show no change (~)",
        "cannot tell (?)",
        "have no fork, save or sync window",
        "have no latency samples and no other evidence",
    };
    cow_sbuf b = {0};
    size_t total = 0, k, shown = 0;
    for (k = 1; k < APP_QUIET_COUNT; k++)
        total += a->nquiet[k];
    if (total == 0)
        return NULL;
    sbuf_add(&b, "%zu %s nothing to report: ", total,
           a->nsay ? (total == 1 ? "other run has" : "other runs have")
                   : (total == 1 ? "run has" : "runs have"));
    for (k = 1; k < APP_QUIET_COUNT; k++) {
        if (!a->nquiet[k])
            continue;
        sbuf_add(&b, "%s%zu %s", shown++ ? "; " : "", a->nquiet[k], why[k]);
        if (k == APP_QUIET_UNSURE)
            unsure_names(&b, a);
    }
    sbuf_add(&b, ".");
    for (k = 0, shown = 0; k < a->n && shown < 8; k++) /* the story of a ? */
        if (!a->v[k].say && a->v[k].quiet == APP_QUIET_UNSURE && a->v[k].moved != NULL)
        {
            sbuf_add(&b, "%s", shown++ ? "; " : " Where the baseline itself moved: ");
            sb_text(&b, a->v[k].run, sink);
            sbuf_add(&b, ": ");
            sb_text(&b, a->v[k].moved, sink);
        }
    if (shown)
        sbuf_add(&b, ".");
    if (sink == APP_ANSWER_MD && a->nquiet[APP_QUIET_UNSURE])
        sbuf_add(&b, " Their estimates are in the Headline table.");
    return sbuf_take(&b);
}

const char *app_answer_legend(int sink)
{
    if (sink == APP_ANSWER_MD)
        return "How to read these: `lift` / `drop`: the window's p99.9 is higher / lower "
               "than the baseline's, a call that is wrong at most 5% of the time when "
               "nothing changed; `~`: the 95% interval of the difference holds zero, no "
               "change shown; `?`: too few samples to tell either way (or, with the reason "
               "beside it, a baseline whose own movement around the window was as large). A delta shows its "
               "95% interval `[lo, hi]`, or the one bound the exact tail test can give "
               "(`>= +b`: it rose by at least b). A quantile shown as a number alone has a "
               "two-sided 95% interval; shown as `x (>= b)`: x is the estimate, and too "
               "few samples lie beyond it for an upper bound; with 95% confidence the true value is at least b; where the baseline moved around a window, the intervals of the phases around it are widened by that movement. Latencies in ms.";
    return "How to read these: lift / drop: the window's p99.9 is higher / lower than "
           "the baseline's, a call that is wrong at most 5% of the time when nothing "
           "changed; ~: the 95% interval of the difference holds zero, no change shown; "
           "?: too few samples to tell either way (or, with the reason beside it, a "
           "baseline whose own movement around the window was as large). A delta shows its 95% interval "
           "[lo, hi], or the one bound the exact tail test can give (>= +b: it rose by "
           "at least b). A quantile shown as a number alone has a two-sided 95% "
           "interval; shown as x (>= b): x is the estimate, and too few samples lie "
           "beyond it for an upper bound; with 95% confidence the true value is at least b; where the baseline moved around a window, the intervals of the phases around it are widened by that movement. Latencies in ms.";
}

const char *app_answer_badge(const app_answer *a)
{
    return a->synthetic ? "SYNTHETIC" : NULL;
}

const char *app_answer_badge_note(void)
{
    return "SYNTHETIC: the run's run.json says a generator made its files (\"synthetic\": "
           "true), not a server: an example of the shape, not an incident.";
}

/* ------------------------------------------------------- kept */

static const char *const quiet_names[APP_QUIET_COUNT] = {
    NULL, "flat", "unsure", "no-window", "no-samples"};
static const char *const thp_names[] = {"unknown", "not-backing", "backing", "off"};

/* Each answer of as as a row of table answers (store_answers.h), in one
 * transaction. */
static int answers_save(cow_store *st, const app_answers *as, cow_err *e)
{
    size_t i;
    int rc;

    if ((rc = store_begin(st, e)) != COW_OK)
        return rc;
    for (i = 0; rc == COW_OK && i < as->n; i++) {
        const app_answer *a = &as->v[i];
        char *line = app_answer_line(a, APP_ANSWER_TERM);
        cow_answer_row r;
        memset(&r, 0, sizeof(r));
        r.run = a->run_id;
        r.say = a->say;
        r.quiet = a->quiet > 0 && a->quiet < APP_QUIET_COUNT ? quiet_names[a->quiet] : NULL;
        r.line = line;
        if (a->has_window) {
            r.window = a->window;
            r.kind = a->kind;
            r.t0_us = a->t0_us;
            r.len_us = a->len_us;
        }
        r.nwindows = a->nwindows;
        r.verdict = a->has_window ? boot_verdict_name(a->verdict) : NULL;
        r.method = a->method;
        r.base_p999_us = a->base.est_us;
        r.window_p999_us = a->win.est_us;
        r.delta_us = a->delta.est_us;
        r.delta_lo_us = a->delta.lo_us;
        r.delta_hi_us = a->delta.hi_us;
        r.worst_us = a->worst_ms * 1000;
        r.fork_ms = a->fork_ms;
        r.cow_mb = a->cow_mb;
        r.cow_pct_used = a->cow_pct_used;
        r.thp = a->thp >= 0 && a->thp <= APP_THP_OFF ? thp_names[a->thp] : NULL;
        r.transfer = a->xfer == APP_XFER_DISK       ? "disk"
                     : a->xfer == APP_XFER_DISKLESS ? "diskless" : NULL;
        r.cause = a->cause;
        r.gate = a->gate == APP_GATE_PASS ? "pass" : a->gate == APP_GATE_FAIL ? "fail" : NULL;
        r.gate_why = a->gate_why;
        r.todo = a->todo;
        r.todo_rule = a->todo_rule;
        rc = store_put_answer(st, &r, e);
        free(line);
    }
    if (rc != COW_OK) {
        store_rollback(st);
        return rc;
    }
    return store_commit(st, e);
}
