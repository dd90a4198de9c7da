/* runstats.c -- per-phase statistics of a run (see runstats.h).
 *
 * Requirements:
 *  1. Every phase gets n, mean, min, max and the five quantiles with the
 *     binomial interval of each (pct.h), and its quantisation grid.
 *  2. Each fork/save window and each "after" phase is compared with the
 *     run's baseline at p50, p90, p99, p99.9: bootstrap delta, ratio,
 *     verdict (boot.h), and the exceedance of the baseline p99 / p99.9.
 *     Without a baseline (no samples before the first window) nothing is
 *     compared: the caller says so.
 *  3. The bootstrap seed of a comparison is o->seed mixed with the phase
 *     index, so adding a phase does not change another's numbers. The
 *     baseline's replicates at a level come from o->seed and the level
 *     alone, drawn once and shared by every phase compared with it
 *     (boot.h Requirement 9): the same whichever phase needs them first.
 *  4. Samples come in time order; each level's dependence (dep.h) gives
 *     its n_eff, which sets the interval's ranks and the thin flag; a
 *     level whose stalls are locked to the probe widens its interval by
 *     the phase's span over its samples (verdict.c Requirement 6); the
 *     whole run, whose span is open, shows no bound there.
 *  5. Exceedance of the baseline p99 / p99.9 is judged by the tail test
 *     of dep.h at that level (the threshold is estimated from the
 *     baseline, so "1% expected" alone overstates the evidence).
 *  6. o->phases_only: the run and each phase get n, mean, min and max
 *     (the samples assigned as for a full analysis), nothing else: what
 *     a judgement of the run against limits reads (app/check.c).
 *  7. A baseline that is not stationary. For each window, the baseline
 *     before it is compared with the quiet phase after it (the next
 *     between or after phase) and its first half with its second half,
 *     at p50 and p99, by verdict.h (dependence-aware, 2.5% each side); a
 *     comparison that says lift or drop with a change beyond the
 *     materiality margin (o->margin, verdict.h's defaults: 25% of the
 *     earlier value, 0.05 ms) means the baseline moved (cow_drift,
 *     unstable; a significant move within the margin is only `moved`: a
 *     p50 read from thousands of samples resolves a few us, and the
 *     sample runs' medians move that much between the baseline's halves).
 *     The window is then compared with the local baseline on both sides:
 *     the last k samples before it and the first k after it, k the
 *     smaller count, so that a drift that is linear over the three
 *     stretches gives the two sides' mean level the window's own; each
 *     side's dependence is read on its own series (across the step the
 *     pooled indicator reads as one slow swing: n_eff 15 of 691). A lift
 *     must exceed D = the baseline's movement at the level (7c), times
 *     the local baseline's value at the level, a drop fall below -D;
 *     else ? with why COW_QCMP_WHY_DRIFT (bench/README.md, "A
 *     baseline that moves": drifting healthy fleets failed check 15.0%,
 *     now 0.5%). check does the same with its limit as the margin
 *     (app/check.c Requirement 6). Without an after phase only the halves
 *     are compared and the window is compared with the baseline before.
 *  7a. A move within the margin still moves the reference: when the
 *     baseline moved (a significant move, material or not) but is not
 *     unstable, the window is compared with the baseline before it as
 *     always, and a lift or drop stands only if the local baseline on
 *     both sides confirms it beyond D (7c) (an intersection-union test,
 *     Berger 1982: each one-sided p the larger of the two tests', so the
 *     level stays 2.5% a side); else ? with why COW_QCMP_WHY_LOCAL. A 7x
 *     lift against a median that moved 2% between the baseline's halves
 *     stands; a window at the crest of a slow drift does not
 *     (bench/README.md, "A move within the margin": false lift + drop at
 *     the 20 s drift 64.9% -> 0.3% at p50, 33.4% -> 4.3% at p99).
 *  7b. The intervals of a phase around a moved baseline (the window, its
 *     baseline, the quiet phase after it) are widened by that movement
 *     on the ratio scale (verdict.h qcmp_level_ci_moved): a quantile of
 *     a process whose level moved by D within the stretches seen is not
 *     known closer than D (the 20 s drift's phase intervals covered
 *     20.1% at p50; widened, 96.8%; widened in quadrature with the
 *     sampling interval instead, 89.2%).
 *  7c. The movement D at a level is the largest significant move at the
 *     assessed level nearest it on the log (1 - q) scale (runstats_drift_rel:
 *     a median that tripled after a save says nothing of the tail), as a
 *     share of the larger of the two values (a rise to x3 and a fall to
 *     x1/3 are both 2/3; relative to the earlier value bgsave-t1's median
 *     x3 gave D = 2.07 and made its x10 window median ?).
 *  7d. The after phase as aftermath (runstats_window_drift): what
 *     follows a save, a sync or a rewrite is often its aftermath (a
 *     replica now fed, the rewrite's residual work). Where the window
 *     stands beyond both sides and the after phase lies nearer the
 *     baseline than the window (a step that decays), the after phase is
 *     judged on its own against the baseline and never used as a second
 *     baseline: the baseline's stability is read from its halves alone,
 *     and a lift must stand beyond their movement D (7c) against the
 *     baseline before, as when there is no after phase. Where the after
 *     phase is at or beyond the window's level (a ramp that goes on),
 *     7 and 7a stand: a slow drift cannot be told from a save by the
 *     baseline's halves alone (bench/README.md, "saves").
 */
#include "runstats.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A double's bits as an unsigned key in the same order: negative numbers
 * have every bit flipped, the others only the sign bit. */
static uint64_t sort_key(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof(u));
    return (u >> 63) ? ~u : u | ((uint64_t)1 << 63);
}

static double key_value(uint64_t k)
{
    uint64_t u = (k >> 63) ? k & ~((uint64_t)1 << 63) : ~k;
    double d;
    memcpy(&d, &u, sizeof(d));
    return d;
}

/* Least-significant-digit radix sort of the keys, 8 bits a pass; a pass
 * whose byte is the same in every key is skipped (latencies share their
 * top bytes). The order is the comparison order of the values (NaN
 * aside, which the parsers never let in), so the result is the sort
 * qsort gives. The keys live in v's own bytes (memcpy, no aliasing) and
 * one scratch array of n: extra memory n x 8 bytes. */
static void radix_sort(double *v, size_t n)
{
    size_t (*cnt)[256] = xcalloc(8, sizeof(*cnt));
    uint64_t *b = xmalloc(n * sizeof(*b)), k;
    size_t i, p;
    int in_v = 1; /* where the keys are now: v or b */

    for (i = 0; i < n; i++) {
        k = sort_key(v[i]);
        memcpy(&v[i], &k, sizeof(k));
        for (p = 0; p < 8; p++)
            cnt[p][(k >> (8 * p)) & 0xff]++;
    }
    for (p = 0; p < 8; p++) {
        size_t sum = 0, c, d;
        memcpy(&k, &v[0], sizeof(k));
        if (!in_v)
            k = b[0];
        if (cnt[p][(k >> (8 * p)) & 0xff] == n)
            continue;
        for (d = 0; d < 256; d++) {
            c = cnt[p][d];
            cnt[p][d] = sum;
            sum += c;
        }
        if (in_v) {
            for (i = 0; i < n; i++) {
                memcpy(&k, &v[i], sizeof(k));
                b[cnt[p][(k >> (8 * p)) & 0xff]++] = k;
            }
        } else {
            for (i = 0; i < n; i++) {
                k = b[i];
                memcpy(&v[cnt[p][(k >> (8 * p)) & 0xff]++], &k, sizeof(k));
            }
        }
        in_v = !in_v;
    }
    for (i = 0; i < n; i++) {
        if (in_v)
            memcpy(&k, &v[i], sizeof(k));
        else
            k = b[i];
        v[i] = key_value(k);
    }
    free(b);
    free(cnt);
}

void runstats_sort(double *v, size_t n)
{
    if (n > 256)
        radix_sort(v, n);
    else if (n > 1)
        qsort(v, n, sizeof(double), cmp_double);
}

size_t runstats_lower_bound(const int64_t *t, size_t n, int64_t key)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

double *runstats_slice_sorted(const int64_t *t_us, const double *lat_us,
                              size_t n, int64_t t0, int64_t t1, size_t *m)
{
    size_t a = runstats_lower_bound(t_us, n, t0), b = runstats_lower_bound(t_us, n, t1);
    double *v;
    if (b < a)
        b = a;
    *m = b - a;
    v = xmalloc((*m ? *m : 1) * sizeof(double));
    memcpy(v, lat_us + a, *m * sizeof(double));
    runstats_sort(v, *m);
    return v;
}

/* The samples' mean spacing in a phase (us); 0 when its span is open. */
static double probe_of(const cow_phase *p, size_t m)
{
    if (m == 0 || p->t0_us == INT64_MIN || p->t1_us == INT64_MAX || p->t1_us <= p->t0_us)
        return 0.0;
    return (double)(p->t1_us - p->t0_us) / (double)m;
}

/* Requirement 1; t is v in time order; probe_us: probe_of */
static int describe(const double *t, const double *v, size_t m, int method,
                    double probe_us, cow_phase_stats *ps, cow_err *e)
{
    int i, rc;
    if ((rc = pct_summary(v, m, method, &ps->sum, e)) != COW_OK)
        return rc;
    for (i = 0; i < COW_PCT_NLEVELS; i++) {
        dep_n_eff(t, v, m, pct_level(i), &ps->dep[i]); /* Requirement 4 */
        if ((rc = qcmp_level_ci(v, m, &ps->dep[i], pct_level(i), probe_us, &ps->ci[i],
                                e)) != COW_OK)
            return rc;
        ps->sum.thin[i] = ps->ci[i].thin;
    }
    memset(&ps->grid, 0, sizeof(ps->grid));
    if (m > 0 && (rc = pct_grid(v, m, &ps->grid, e)) != COW_OK)
        return rc;
    return COW_OK;
}

static uint64_t mix(uint64_t seed, uint64_t k)
{
    uint64_t z = seed + 0x9E3779B97F4A7C15ull * (k + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The baseline's bootstrap replicates at each delta level, drawn when a
 * comparison first needs them and shared by every phase compared with it
 * (boot.h Requirement 9; Requirement 2 here). */
typedef struct base_reps {
    double *v[COW_DELTA_LEVELS];
} base_reps;

static const int delta_levels[COW_DELTA_LEVELS] = {COW_P50, COW_P90, COW_P99, COW_P999};

static const double *base_reps_at(base_reps *br, const cow_group *base,
                                  const cow_phase_stats *bs, const cow_runstats_opts *o,
                                  int i)
{
    int l = delta_levels[i];
    if (br->v[i] == NULL) {
        br->v[i] = xmalloc((size_t)o->resamples * sizeof(double));
        /* a seed of its own: the same whichever phase asks first */
        boot_group_replicates(base->sorted, base->n, bs->dep[l].n_eff, pct_level(l),
                              mix(o->seed ^ 0xba5eba5eba5eba5eull, (uint64_t)i),
                              br->v[i], (size_t)o->resamples);
    }
    return br->v[i];
}

/* Requirement 2; bs and ps hold the two groups' dependence at every
 * level (describe), which the comparisons reuse */
static int beyond_moved(const cow_group *a, const cow_group *b, double q, double shift,
                        double rel, const cow_clusters *dep_a, const cow_clusters *dep_b,
                        const double *a_reps, const cow_qcmp_opts *o,
                        const cow_qcmp_margin *m, cow_qcmp *out, cow_err *e);

/* moved: the baseline moved (Requirement 7), base is the local one and a
 * change must exceed rel x its value */
static int compare(const cow_group *base, const cow_phase_stats *bs, base_reps *br,
                   const cow_group *ph, const cow_runstats_opts *o, uint64_t seed,
                   int moved, const cow_drift *d, cow_phase_stats *ps, cow_err *e)
{
    int i, rc;
    double t99, t999;

    for (i = 0; i < COW_DELTA_LEVELS; i++) {
        int l = delta_levels[i];
        cow_qcmp_opts qo = {o->resamples, mix(seed, (uint64_t)i), o->method};
        const double *ra = base->n > 0 && ph->n > 0 &&
                                   qcmp_uses_bootstrap(&bs->dep[l], &ps->dep[l], pct_level(l))
                               ? base_reps_at(br, base, bs, o, i) : NULL;
        rc = moved ? beyond_moved(base, ph, pct_level(l), 0.0, runstats_drift_rel(d, pct_level(l)),
                                  &bs->dep[l], &ps->dep[l],
                                  ra, &qo, o->margin, &ps->delta[i], e)
                   : qcmp_compute_dep(base, ph, pct_level(l), &bs->dep[l], &ps->dep[l], ra,
                                      0.0, &qo, o->margin, &ps->delta[i], e);
        if (rc != COW_OK)
            return rc;
    }
    t99 = pct_quantile(base->sorted, base->n, 0.99, o->method);
    t999 = pct_quantile(base->sorted, base->n, 0.999, o->method);
    if ((rc = pct_exceed(ph->sorted, ph->n, t99, 0.95, &ps->ex99, e)) != COW_OK ||
        (rc = pct_exceed(ph->sorted, ph->n, t999, 0.95, &ps->ex999, e)) != COW_OK)
        return rc;
    dep_tail_test(base, ph, 0.99, 0.0, &ps->ex99_test); /* Requirement 5 */
    dep_tail_test(base, ph, 0.999, 0.0, &ps->ex999_test);
    ps->has_delta = 1;
    return COW_OK;
}

/* Requirement 7 */
static int drift_one(const cow_group *a, const cow_group *b, double q, size_t k, int what,
                     const cow_qcmp_margin *m, const cow_qcmp_opts *o, cow_drift *out,
                     double *best, cow_err *e)
{
    double rel = m ? m->rel : COW_QCMP_MARGIN_REL, abs_us = m ? m->abs_us : COW_QCMP_MARGIN_ABS_US;
    double mg, score, big;
    int sig, rc;
    cow_qcmp c;

    if (a->n < 2 || b->n < 2)
        return COW_OK;
    if ((rc = qcmp_compute(a, b, q, 0.0, o, &c, e)) != COW_OK)
        return rc;
    if (!isfinite(c.delta))
        return COW_OK;
    out->assessed = 1;
    mg = fmax(fmax(rel, 0.0) * fabs(c.est_a), fmax(abs_us, 0.0));
    sig = c.verdict == COW_VERDICT_LIFT || c.verdict == COW_VERDICT_DROP;
    if (sig) {
        out->moved = 1;
        big = fmax(fabs(c.est_a), fabs(c.est_b)); /* a rise to x3 and a fall to
                                                     x1/3 move alike: 2/3 */
        if (big > 0) {
            out->rel = fmax(out->rel, fabs(c.delta) / big);
            out->rel_at[k] = fmax(out->rel_at[k], fabs(c.delta) / big);
        }
        if (fabs(c.delta) > mg)
            out->unstable = 1;
    }
    score = fabs(c.delta) / (mg > 0 ? mg : 1.0) + (sig ? 1e6 : 0.0);
    if (score > *best) {
        *best = score;
        out->what = what;
        out->q = q;
        out->a_us = c.est_a;
        out->b_us = c.est_b;
        out->margin_us = mg;
        out->p = c.p;
    }
    return COW_OK;
}

/* Requirement 7: the baseline's halves (out cleared, *best -1), then
 * (after not NULL) the baseline before against after, at each level */
static int drift_halves(const cow_group *before, const double *qs, size_t nq,
                        const cow_qcmp_margin *m, const cow_qcmp_opts *o, cow_drift *out,
                        double *best, cow_err *e)
{
    size_t h = before->n / 2, k;
    double *s1, *s2;
    cow_group g1, g2;
    int rc = COW_OK;

    memset(out, 0, sizeof(*out));
    out->q = out->a_us = out->b_us = out->margin_us = out->p = NAN;
    out->aft_q = out->aft_b_us = out->aft_w_us = out->aft_f_us = NAN;
    *best = -1.0;
    s1 = xmalloc((h ? h : 1) * sizeof(double));
    s2 = xmalloc((before->n - h + 1) * sizeof(double));
    if (h > 0) {
        memcpy(s1, before->time, h * sizeof(double));
        memcpy(s2, before->time + h, (before->n - h) * sizeof(double));
    }
    runstats_sort(s1, h);
    runstats_sort(s2, before->n - h);
    g1.time = before->time;
    g1.sorted = s1;
    g1.n = h;
    g2.time = before->time + h;
    g2.sorted = s2;
    g2.n = before->n - h;
    if (nq > COW_DRIFT_MAXQ)
        nq = COW_DRIFT_MAXQ;
    out->nq = nq;
    for (k = 0; k < nq && rc == COW_OK; k++) {
        out->at[k] = qs[k];
        rc = drift_one(&g1, &g2, qs[k], k, COW_DRIFT_HALVES, m, o, out, best, e);
    }
    free(s1);
    free(s2);
    return rc;
}

static int drift_after(const cow_group *before, const cow_group *after,
                       const cow_qcmp_margin *m, const cow_qcmp_opts *o, cow_drift *out,
                       double *best, cow_err *e)
{
    size_t k;
    int rc = COW_OK;

    for (k = 0; k < out->nq && rc == COW_OK; k++)
        rc = drift_one(before, after, out->at[k], k, COW_DRIFT_AFTER, m, o, out, best, e);
    return rc;
}

int runstats_drift(const cow_group *before, const cow_group *after, const double *qs,
                   size_t nq, const cow_qcmp_margin *m, const cow_qcmp_opts *o,
                   cow_drift *out, cow_err *e)
{
    double best;
    int rc = drift_halves(before, qs, nq, m, o, out, &best, e);
    if (rc == COW_OK && after != NULL)
        rc = drift_after(before, after, m, o, out, &best, e);
    return rc;
}

/* Requirement 7d: at the level where the window moved most from the
 * baseline (p50 or p99, on the log scale), the window beyond the after
 * phase's level and the after phase nearer the baseline than the window
 * (a step that decays). A step that stays (the after phase at the
 * window's level) is not read as aftermath even on a baseline whose
 * halves did not move: healthy fleets drifting over 20 s then failed
 * check 10% of the time (bench/README.md, "saves"). */
static int read_aftermath(const cow_group *before, const cow_group *window,
                          const cow_group *after, int method, cow_drift *out)
{
    static const double qs[2] = {0.5, 0.99};
    double best = -1.0, b = NAN, w = NAN, f = NAN, q = NAN;
    size_t k;

    if (before->n == 0 || window->n == 0 || after == NULL || after->n == 0)
        return 0;
    for (k = 0; k < 2; k++) {
        double vb = pct_quantile(before->sorted, before->n, qs[k], method);
        double vw = pct_quantile(window->sorted, window->n, qs[k], method);
        double m = vb > 0 && vw > 0 ? fabs(log(vw / vb)) : 0.0;
        if (m > best) {
            best = m;
            q = qs[k];
            b = vb;
            w = vw;
            f = pct_quantile(after->sorted, after->n, qs[k], method);
        }
    }
    if (!((w - b) * (w - f) > 0) || !(2 * fabs(f - b) < fabs(w - b)))
        return 0;
    out->aft_q = q;
    out->aft_b_us = b;
    out->aft_w_us = w;
    out->aft_f_us = f;
    return 1;
}

int runstats_window_drift(const cow_group *before, const cow_group *window,
                          const cow_group *after, const double *qs, size_t nq,
                          const cow_qcmp_margin *m, const cow_qcmp_opts *o, cow_drift *out,
                          cow_err *e)
{
    double best;
    int rc = drift_halves(before, qs, nq, m, o, out, &best, e);

    if (rc != COW_OK || after == NULL)
        return rc;
    out->aftermath = read_aftermath(before, window, after, o->method, out);
    if (!out->aftermath)
        rc = drift_after(before, after, m, o, out, &best, e);
    return rc;
}

double runstats_drift_rel(const cow_drift *d, double q)
{
    double best = INFINITY, rel = 0.0;
    size_t k;

    for (k = 0; d->moved && k < d->nq && k < COW_DRIFT_MAXQ; k++) {
        double dist = fabs(log1p(-d->at[k]) - log1p(-q));
        if (dist < best) {
            best = dist;
            rel = d->rel_at[k];
        }
    }
    return rel;
}

cow_group runstats_local_base(const cow_group *before, const cow_group *after, double **t,
                              double **s)
{
    size_t k = after != NULL && after->n < before->n ? after->n : before->n;
    size_t ka = after != NULL ? k : 0, m = k + ka;

    *t = xmalloc((m ? m : 1) * sizeof(double));
    if (k > 0)
        memcpy(*t, before->time + (before->n - k), k * sizeof(double));
    if (ka > 0)
        memcpy(*t + k, after->time, ka * sizeof(double));
    return runstats_group(*t, m, s);
}

cow_group runstats_group(const double *time, size_t n, double **sorted)
{
    cow_group g;
    *sorted = xmalloc((n ? n : 1) * sizeof(double));
    if (n > 0)
        memcpy(*sorted, time, n * sizeof(double));
    runstats_sort(*sorted, n);
    g.time = time;
    g.sorted = *sorted;
    g.n = n;
    return g;
}

/* Requirement 7: the local baseline's dependence at q from each side's
 * own series (the step between the sides is the movement, not serial
 * dependence: read across it, the indicator of the pooled series looks
 * like one slow swing), the more dependent side's, over the pooled count. */
static void local_dep(const cow_group *before, const cow_group *after, double q,
                      cow_clusters *out)
{
    size_t k = after->n < before->n ? after->n : before->n;
    const double *tb = before->time + (before->n - k);
    double *sb = NULL, *sa = NULL;
    cow_clusters db, da;

    if (k < before->n) {
        sb = xmalloc((k ? k : 1) * sizeof(double));
        memcpy(sb, tb, k * sizeof(double));
        runstats_sort(sb, k);
    }
    if (k < after->n) {
        sa = xmalloc((k ? k : 1) * sizeof(double));
        memcpy(sa, after->time, k * sizeof(double));
        runstats_sort(sa, k);
    }
    dep_n_eff(tb, sb ? sb : before->sorted, k, q, &db);
    dep_n_eff(after->time, sa ? sa : after->sorted, k, q, &da);
    *out = db.n_eff <= da.n_eff ? db : da;
    out->n = 2 * k;
    out->n_eff *= 2.0;
    free(sb);
    free(sa);
}

/* Requirement 7: a comparison beyond the baseline's own movement D (deps
 * NULL: each group's dependence computed here). */
static int beyond_moved(const cow_group *a, const cow_group *b, double q, double shift,
                        double rel, const cow_clusters *dep_a, const cow_clusters *dep_b,
                        const double *a_reps, const cow_qcmp_opts *o,
                        const cow_qcmp_margin *m, cow_qcmp *out, cow_err *e)
{
    double d = a->n > 0 ? rel * fabs(pct_quantile(a->sorted, a->n, q, o->method)) : 0.0;
    cow_qcmp dn;
    int rc;

#define CMP(s, x) (dep_a != NULL ? qcmp_compute_dep(a, b, q, dep_a, dep_b, a_reps, (s), o, m, (x), e) \
                                 : qcmp_compute_margin(a, b, q, (s), o, m, (x), e))
    if ((rc = CMP(shift + d, out)) != COW_OK)
        return rc;
    if (out->verdict == COW_VERDICT_LIFT || out->verdict == COW_VERDICT_NA ||
        (!(d > 0) && out->verdict == COW_VERDICT_UNSURE)) /* no movement here: its own ? */
        return COW_OK;
    if ((rc = CMP(shift - d, &dn)) != COW_OK)
        return rc;
    if (dn.verdict == COW_VERDICT_DROP) {
        *out = dn;
        return COW_OK;
    }
    /* the movement decided it only if the window, taken against the
     * baseline as it stands, would have been called: else the first
     * rule's own reason stands (a ? with too few samples is not a drift) */
    if (d > 0 && (rc = CMP(shift, &dn)) != COW_OK)
        return rc;
    if (d > 0 && dn.verdict == COW_VERDICT_UNSURE) {
        *out = dn;
        return COW_OK;
    }
#undef CMP
    out->verdict = COW_VERDICT_UNSURE;
    out->why = COW_QCMP_WHY_DRIFT;
    out->lo = out->hi = NAN;
    out->margin = d;
    return COW_OK;
}

/* Requirement 7a: the intersection-union test. out is the window against
 * the baseline before it; a lift stands only if the window also lies
 * beyond shift + D against the local baseline (a drop below shift - D),
 * D = rel x the local baseline's value at q; else ? with why
 * COW_QCMP_WHY_DRIFT. Each one-sided p is the larger of the two tests'
 * (p_up also where a fleet's adjustment could still read it). */
static int confirm_local(const cow_group *local, const cow_group *win, double q, double shift,
                         double rel, const cow_clusters *dl, const cow_clusters *dw,
                         const cow_qcmp_opts *o, const cow_qcmp_margin *m, cow_qcmp *out,
                         cow_err *e)
{
    double d = local->n > 0 ? rel * fabs(pct_quantile(local->sorted, local->n, q, o->method))
                            : 0.0;
    int lift = out->verdict == COW_VERDICT_LIFT, drop = out->verdict == COW_VERDICT_DROP;
    int held = 1, rc;
    cow_qcmp c;

    if (local->n == 0 || win->n == 0 || out->verdict == COW_VERDICT_NA)
        return COW_OK;
    if (lift || out->p_up <= 2 * COW_QCMP_ALPHA_SIDE) {
        if ((rc = qcmp_compute_dep(local, win, q, dl, dw, NULL, shift + d, o, m, &c, e)) !=
            COW_OK)
            return rc;
        out->p_up = fmax(out->p_up, c.p_up);
        held = !lift || c.verdict == COW_VERDICT_LIFT;
    }
    if (drop) {
        if ((rc = qcmp_compute_dep(local, win, q, dl, dw, NULL, shift - d, o, m, &c, e)) !=
            COW_OK)
            return rc;
        out->p_down = fmax(out->p_down, c.p_down);
        held = c.verdict == COW_VERDICT_DROP;
    }
    out->p = fmin(1.0, 2 * fmin(out->p_up, out->p_down));
    if (!held) {
        out->verdict = COW_VERDICT_UNSURE;
        out->why = COW_QCMP_WHY_LOCAL;
        out->lo = out->hi = NAN;
        out->margin = d;
    }
    return COW_OK;
}

void runstats_drift_text(const cow_drift *d, char *buf, size_t n)
{
    const char *a = d->what == COW_DRIFT_HALVES ? "in the baseline's first half"
                                                : "before the window";
    const char *b = d->what == COW_DRIFT_HALVES ? "in its second half" : "after it";
    if (!d->assessed || d->what == COW_DRIFT_NONE) {
        snprintf(buf, n, "%s", "");
        return;
    }
    snprintf(buf, n, "p%g %.3f ms %s, %.3f ms %s (%+.0f%%)", 100 * d->q, d->a_us / 1000, a,
             d->b_us / 1000, b, d->a_us != 0 ? 100 * (d->b_us - d->a_us) / d->a_us : 0.0);
}

int runstats_compare_window(const cow_group *before, const cow_group *window,
                            const cow_group *after, const cow_drift *d, double q,
                            double shift, const cow_qcmp_opts *o,
                            const cow_qcmp_margin *m, cow_qcmp *out, int *local,
                            cow_err *e)
{
    double *t, *s;
    cow_group g;
    int rc;

    cow_clusters da, db;

    if (d != NULL && d->aftermath) /* Requirement 7d */
        after = NULL;
    *local = d != NULL && d->unstable && after != NULL && after->n > 0;
    if (!*local && d != NULL && d->moved && (after == NULL || after->n == 0))
        return beyond_moved(before, window, q, shift, runstats_drift_rel(d, q), NULL, NULL,
                            NULL, o, m, out, e);
    if (!*local) {
        rc = qcmp_compute_margin(before, window, q, shift, o, m, out, e);
        if (rc != COW_OK || d == NULL || !d->moved || after == NULL || after->n == 0)
            return rc;
    }
    g = runstats_local_base(before, after, &t, &s);
    local_dep(before, after, q, &da);
    dep_n_eff(window->time, window->sorted, window->n, q, &db);
    rc = *local ? beyond_moved(&g, window, q, shift, runstats_drift_rel(d, q), &da, &db, NULL, o,
                               m, out, e)
                : confirm_local(&g, window, q, shift, runstats_drift_rel(d, q), &da, &db, o, m,
                                out, e);
    free(t);
    free(s);
    return rc;
}

int runstats_array_loader(void *ctx, int64_t t0_us, int64_t t1_us, double **v,
                          size_t *n, cow_err *e)
{
    const cow_array_samples *a = ctx;
    size_t i = runstats_lower_bound(a->t_us, a->n, t0_us);
    size_t j = runstats_lower_bound(a->t_us, a->n, t1_us);
    (void)e;
    if (t1_us == INT64_MAX)
        j = a->n;
    if (j < i)
        j = i;
    *n = j - i;
    *v = xmalloc((*n ? *n : 1) * sizeof(double));
    memcpy(*v, a->lat_us + i, *n * sizeof(double));
    return COW_OK;
}

/* A loaded phase: the group the analysis reads, and the arrays it owns. */
typedef struct owned_group {
    cow_group g;
    double *time, *sorted;
} owned_group;

/* Load [t0, t1) into og: time order and a sorted copy (group_free frees). */
static int load_group(cow_sample_loader load, void *ctx, int64_t t0, int64_t t1,
                      owned_group *og, cow_err *e)
{
    double *t = NULL, *v;
    size_t m = 0;
    int rc;

    memset(og, 0, sizeof(*og));
    if ((rc = load(ctx, t0, t1, &t, &m, e)) != COW_OK)
        return rc;
    v = xmalloc((m ? m : 1) * sizeof(double));
    if (m > 0) /* an empty phase may come back as NULL */
        memcpy(v, t, m * sizeof(double));
    runstats_sort(v, m);
    og->time = t;
    og->sorted = v;
    og->g.time = t;
    og->g.sorted = v;
    og->g.n = m;
    return COW_OK;
}

static void group_free(owned_group *og)
{
    free(og->time);
    free(og->sorted);
    memset(og, 0, sizeof(*og));
}

/* o->phases_only: n, mean, min and max of v, the quantiles and n_eff NaN */
static void counts_only(const double *v, size_t m, cow_phase_stats *ps)
{
    cow_pct_summary *s = &ps->sum;
    double sum = 0.0;
    size_t j;

    s->n = m;
    s->mean = s->min = s->max = NAN;
    for (j = 0; j < COW_PCT_NLEVELS; j++) {
        s->v[j] = NAN;
        ps->dep[j].n_eff = NAN;
    }
    for (j = 0; j < m; j++) {
        sum += v[j];
        if (j == 0 || v[j] < s->min)
            s->min = v[j];
        if (j == 0 || v[j] > s->max)
            s->max = v[j];
    }
    if (m > 0)
        s->mean = sum / (double)m;
}

/* Requirement 6 */
static int count_phases(const cow_phases *phases, cow_sample_loader load, void *ctx,
                        cow_runstats *out, cow_err *e)
{
    size_t i;
    int rc;

    for (i = 0; i <= phases->n; i++) { /* the whole run first, then each phase */
        const cow_phase *p = i > 0 ? &phases->v[i - 1] : NULL;
        double *v = NULL;
        size_t m = 0;
        if ((rc = load(ctx, p ? p->t0_us : INT64_MIN, p ? p->t1_us : INT64_MAX, &v, &m,
                       e)) != COW_OK)
            return rc;
        counts_only(v, m, p ? &out->ph[i - 1] : &out->all);
        free(v);
    }
    return COW_OK;
}

/* Requirement 7a: each level's verdict against the baseline before the
 * window confirmed against the local baseline on both sides. */
static int confirm_window(const cow_group *base, const cow_group *after, const cow_group *win,
                          const cow_runstats_opts *o, uint64_t seed, cow_phase_stats *ps,
                          cow_err *e)
{
    double *lt, *lsorted;
    cow_group local = runstats_local_base(base, after, &lt, &lsorted);
    int i, rc = COW_OK;

    for (i = 0; i < COW_DELTA_LEVELS && rc == COW_OK; i++) {
        int l = delta_levels[i];
        cow_qcmp_opts qo = {o->resamples, mix(seed, (uint64_t)i), o->method};
        cow_clusters dl;
        local_dep(base, after, pct_level(l), &dl);
        rc = confirm_local(&local, win, pct_level(l), 0.0, runstats_drift_rel(&ps->drift, pct_level(l)),
                           &dl, &ps->dep[l], &qo, o->margin, &ps->delta[i], e);
    }
    free(lt);
    free(lsorted);
    return rc;
}

/* Requirement 7: window i against the baseline before it, or against the
 * local baseline on both sides when the baseline moved around it. */
static int compare_window(const cow_phases *phases, size_t i, cow_sample_loader load,
                          void *ctx, const cow_group *base, const cow_phase_stats *bs,
                          base_reps *br, const cow_group *win, const cow_runstats_opts *o,
                          cow_phase_stats *ps, cow_err *e)
{
    static const double qs[COW_DRIFT_NLEVELS] = {0.5, 0.99};
    cow_qcmp_opts qo = {o->resamples, mix(o->seed ^ 0xd81f7ull, i), o->method};
    owned_group after;
    cow_phase_stats ls;
    base_reps lr;
    double *lt = NULL, *lsorted = NULL;
    cow_group local;
    size_t j, k;
    int rc;

    memset(&after, 0, sizeof(after));
    for (j = i + 1; j < phases->n; j++)
        if (phases->v[j].kind == COW_PHASE_BETWEEN || phases->v[j].kind == COW_PHASE_AFTER)
            break;
    if (j < phases->n &&
        (rc = load_group(load, ctx, phases->v[j].t0_us, phases->v[j].t1_us, &after, e)) !=
            COW_OK)
        return rc;
    rc = runstats_window_drift(base, win, after.g.n > 0 ? &after.g : NULL, qs,
                               COW_DRIFT_NLEVELS, o->margin, &qo, &ps->drift, e);
    if (rc == COW_OK && ps->drift.aftermath) /* Requirement 7d */
        group_free(&after);
    if (rc != COW_OK || !ps->drift.unstable || after.g.n == 0) {
        int halves = after.g.n == 0 && ps->drift.moved; /* 7d: their D */
        if (rc == COW_OK)
            rc = compare(base, bs, br, win, o, mix(o->seed, i), halves,
                         halves ? &ps->drift : NULL, ps, e);
        if (rc == COW_OK && ps->drift.moved && after.g.n > 0)
            rc = confirm_window(base, &after.g, win, o, mix(o->seed, i), ps, e);
        group_free(&after);
        return rc;
    }
    local = runstats_local_base(base, &after.g, &lt, &lsorted);
    memset(&ls, 0, sizeof(ls));
    memset(&lr, 0, sizeof(lr));
    rc = describe(local.time, local.sorted, local.n, o->method, 0.0, &ls, e);
    for (k = 0; rc == COW_OK && k < COW_PCT_NLEVELS; k++)
        local_dep(base, &after.g, pct_level((int)k), &ls.dep[k]);
    group_free(&after);
    if (rc == COW_OK)
        rc = compare(&local, &ls, &lr, win, o, mix(o->seed, i), 1, &ps->drift, ps, e);
    ps->local_base = 1;
    for (k = 0; k < COW_DELTA_LEVELS; k++)
        free(lr.v[k]);
    free(lt);
    free(lsorted);
    return rc;
}

/* Requirement 7b: the intervals of a window, its baseline and the quiet
 * phase after it widened by the largest movement of the baseline seen
 * around any window it belongs to. */
static void widen_moved(const cow_phases *phases, cow_runstats *rs)
{
    size_t i, j;
    int l;

    for (i = 0; i < rs->n; i++) {
        const cow_drift *d = &rs->ph[i].drift;
        size_t base = rs->ph[i].base >= 0 ? (size_t)rs->ph[i].base : rs->n;
        if (!d->moved)
            continue;
        for (j = i + 1; j < phases->n; j++)
            if (phases->v[j].kind == COW_PHASE_BETWEEN || phases->v[j].kind == COW_PHASE_AFTER)
                break;
        for (l = 0; l < COW_PCT_NLEVELS; l++) {
            double rel = runstats_drift_rel(d, pct_level(l));
            rs->ph[i].moved[l] = fmax(rs->ph[i].moved[l], rel);
            if (base < rs->n)
                rs->ph[base].moved[l] = fmax(rs->ph[base].moved[l], rel);
            if (j < phases->n)
                rs->ph[j].moved[l] = fmax(rs->ph[j].moved[l], rel);
        }
    }
    for (i = 0; i < rs->n; i++)
        for (l = 0; l < COW_PCT_NLEVELS; l++)
            qcmp_level_ci_moved(&rs->ph[i].ci[l], rs->ph[i].moved[l]);
}

int runstats_compute(const cow_phases *phases, const cow_runstats_opts *o,
                     cow_sample_loader load, void *ctx, cow_runstats *out,
                     cow_err *e)
{
    owned_group g, base;
    base_reps br;
    size_t i;
    int rc, ibase = -1;

    memset(&br, 0, sizeof(br));
    memset(&base, 0, sizeof(base));

    memset(out, 0, sizeof(*out));
    out->n = phases->n;
    out->ph = xcalloc(phases->n ? phases->n : 1, sizeof(cow_phase_stats));
    if (o->phases_only)
        return count_phases(phases, load, ctx, out, e);
    /* the whole run first, then one phase at a time */
    if ((rc = load_group(load, ctx, INT64_MIN, INT64_MAX, &g, e)) != COW_OK)
        return rc;
    rc = describe(g.g.time, g.g.sorted, g.g.n, o->method, 0.0, &out->all, e);
    group_free(&g);
    for (i = 0; rc == COW_OK && i < phases->n; i++) {
        const cow_phase *p = &phases->v[i];
        if ((rc = load_group(load, ctx, p->t0_us, p->t1_us, &g, e)) != COW_OK)
            break;
        rc = describe(g.g.time, g.g.sorted, g.g.n, o->method, probe_of(p, g.g.n),
                      &out->ph[i], e);
        if (rc == COW_OK && p->kind == COW_PHASE_BASELINE && base.g.n == 0 && g.g.n > 0) {
            base = g; /* kept: every window is compared with it */
            ibase = (int)i;
            continue;
        }
        if (rc == COW_OK && base.g.n > 0 && g.g.n > 0 && phase_is_window(p->kind)) {
            out->ph[i].base = ibase;
            rc = compare_window(phases, i, load, ctx, &base.g, &out->ph[ibase], &br, &g.g, o,
                                &out->ph[i], e);
        } else if (rc == COW_OK && base.g.n > 0 && g.g.n > 0 && p->kind == COW_PHASE_AFTER) {
            out->ph[i].base = ibase;
            rc = compare(&base.g, &out->ph[ibase], &br, &g.g, o, mix(o->seed, i), 0, NULL,
                         &out->ph[i], e);
        }
        group_free(&g);
    }
    if (rc == COW_OK)
        widen_moved(phases, out);
    group_free(&base);
    for (i = 0; i < COW_DELTA_LEVELS; i++)
        free(br.v[i]);
    return rc;
}

void runstats_release(cow_runstats *rs)
{
    free(rs->ph);
    memset(rs, 0, sizeof(*rs));
}
