/* calibration.c -- Monte Carlo of the verdict rules through the analysis
 * code the CLI uses (verdict.h for `analyze` / `diff`, fleet.h for
 * `check`), under the null and under a real stall lift.
 *
 *     calibration [--reps N] [--resamples R] [--seed S] [--quick] [--check]
 *                 [--real | --drift | --after | --saves | --stalls | --null]
 *
 * --stalls, --null: the default run's stall-lift or null table alone.
 * --saves: a sustained tail shift (synthetic bodies and nulls) and the
 * same on real probes (the bundled steady captures, block-resampled; run
 * from the source tree); COW_CAL_WHY=1 prints, for the first reps of the
 * real cells, which rule decided and its reason (verdict.h qcmp_why_text).
 *
 * Cells: (n_base, n_window) x q in {0.99, 0.999} x process (i.i.d.
 * lognormal, Pareto a=2, AR(1) on the log scale phi 0.5 / 0.9, stall
 * bursts of 1% of samples with mean length 10 / 50). Per cell: today's
 * rule (plain percentile bootstrap, n samples) and the new rule: false
 * lift+drop rate, share of ?, share decided by the interval and that
 * interval's coverage, each with its Monte-Carlo standard error.
 * Alternatives: stall share 0.5% -> 2%, stalls lognormal around 10x the
 * median: the share called lift, beside the power of an oracle that knows
 * which samples are stalls (the ceiling of any rule at that error rate,
 * computed exactly). Fleets: healthy fleets of 50 runs
 * through check's decision (fleet.h), old rule and Holm.
 * --quick runs a few cells (the ctest regression); --check exits 1 when
 * a target is missed (with --quick: all but the p99 power target, which
 * 1503 vs 691 does not meet). Fixed seeds: the output is reproducible. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "boot.h"
#include "dep.h"
#include "fleet.h"
#include "pct.h"
#include "rng.h"
#include "runstats.h"
#include "tradeoff.h"
#include "verdict.h"

static int cmp_dbl(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

#define MU 5.298317366548036 /* log(200 us): median 0.2 ms */
#define SIGMA 0.5
#define STALL_X 10.0         /* stalls: lognormal around 10x the median */

enum proc { P_IID, P_PARETO, P_AR5, P_AR9, P_BURST10, P_BURST50, P_NPROC };
static const char *const proc_name[P_NPROC] = {
    "iid-lognormal", "pareto-2", "ar1-0.5", "ar1-0.9", "burst-10", "burst-50"};

typedef struct opts {
    int reps, resamples, quick, check, only_real;
    int drift_proc; /* --drift-proc K: only fleets of process K (0 drift, 1 the
                       i.i.d. control; -1 both), to run the two side by side */
    uint64_t seed;
} opts;

/* One series of n samples, time order, into x. stall: share of iid stalls
 * (alternative), used when p == P_IID. */
static void gen(cow_rng *r, int p, size_t n, double stall, double *x)
{
    size_t i;
    double y = 0, phi = p == P_AR5 ? 0.5 : 0.9;
    double len = p == P_BURST10 ? 10.0 : 50.0;
    double a = 0.01 / (0.99 * len); /* normal -> stall: 1% in stalls */
    int in = 0;

    if (p == P_AR5 || p == P_AR9)
        y = rng_normal(r);
    if (p == P_BURST10 || p == P_BURST50)
        in = rng_uniform(r) < 0.01;
    for (i = 0; i < n; i++) {
        switch (p) {
        case P_PARETO:
            x[i] = 100.0 / sqrt(rng_uniform(r));
            break;
        case P_AR5:
        case P_AR9:
            y = phi * y + sqrt(1 - phi * phi) * rng_normal(r);
            x[i] = exp(MU + SIGMA * y);
            break;
        case P_BURST10:
        case P_BURST50:
            in = in ? rng_uniform(r) >= 1.0 / len : rng_uniform(r) < a;
            x[i] = exp(MU + (in ? log(STALL_X) : 0) + SIGMA * rng_normal(r));
            break;
        default:
            x[i] = exp(MU + (rng_uniform(r) < stall ? log(STALL_X) : 0) +
                       SIGMA * rng_normal(r));
        }
    }
}

/* True quantile of the i.i.d. lognormal with stall share s. */
static double phi_cdf(double z) { return 0.5 * erfc(-z / sqrt(2.0)); }
static double true_q(double s, double q)
{
    double lo = 0, hi = 30, mid;
    int i;
    for (i = 0; i < 200; i++) {
        mid = 0.5 * (lo + hi);
        double f = (1 - s) * phi_cdf((mid - MU) / SIGMA) +
                   s * phi_cdf((mid - MU - log(STALL_X)) / SIGMA);
        if (f < q)
            lo = mid;
        else
            hi = mid;
    }
    return exp(0.5 * (lo + hi));
}

typedef struct tally {
    long reps, old_false, old_cover, new_false, unsure, boot, boot_cover;
    long old_lift, new_lift, flat;
    double neff_ratio;
} tally;

typedef struct sample {
    double *t, *s;
    size_t n;
} sample;

static void sample_make(sample *x, size_t n)
{
    x->t = malloc(n * sizeof(double));
    x->s = malloc(n * sizeof(double));
    x->n = n;
}

static void sample_sort(sample *x)
{
    memcpy(x->s, x->t, x->n * sizeof(double));
    runstats_sort(x->s, x->n);
}

/* One comparison: old rule and new rule, against the true delta. */
static void judge(const sample *a, const sample *b, double q, double truth,
                  const opts *o, uint64_t seed, tally *t)
{
    cow_group ga = {a->t, a->s, a->n}, gb = {b->t, b->s, b->n};
    cow_qcmp_opts qo = {o->resamples, seed, COW_PCT_LINEAR};
    cow_boot_result old;
    cow_qcmp c;
    cow_err e = COW_ERR_INIT;

    boot_quantile_delta(a->s, a->n, b->s, b->n, q, o->resamples, seed, &old, &e);
    qcmp_compute(&ga, &gb, q, 0.0, &qo, &c, &e);
    t->reps++;
    t->old_false += old.verdict == COW_VERDICT_LIFT || old.verdict == COW_VERDICT_DROP;
    t->old_lift += old.verdict == COW_VERDICT_LIFT;
    t->old_cover += old.delta_lo <= truth && truth <= old.delta_hi;
    t->new_false += c.verdict == COW_VERDICT_LIFT || c.verdict == COW_VERDICT_DROP;
    t->new_lift += c.verdict == COW_VERDICT_LIFT;
    t->unsure += c.verdict == COW_VERDICT_UNSURE;
    t->flat += c.verdict == COW_VERDICT_FLAT;
    if (c.method == COW_QCMP_BOOT) {
        t->boot++;
        t->boot_cover += c.lo <= truth && truth <= c.hi;
    }
    t->neff_ratio += c.dep_a.n_eff / (double)a->n;
}

static double pc(long k, long n) { return n ? 100.0 * (double)k / (double)n : NAN; }
static double se(long k, long n)
{
    double p = n ? (double)k / (double)n : 0;
    return n ? 100.0 * sqrt(p * (1 - p) / (double)n) : NAN;
}

static const size_t sizes[][2] = {{705, 1708}, {1503, 691}, {1000, 1000},
                                  {5000, 5000}, {20000, 20000}, {10000, 2000},
                                  {15000, 3750}};
static const double levels[2] = {0.99, 0.999};

static int missed = 0;

static void null_cells(const opts *o)
{
    size_t si, nsz = sizeof(sizes) / sizeof(sizes[0]);
    int p, li, rep;

    printf("## Null (nothing changed): false lift+drop, ?, interval coverage\n\n");
    printf("| n_base | n_window | q | process | reps | today false %% | today cover %% |"
           " new false %% ± se | new lift %% | new ? %% | new ~ %% | interval used %% |"
           " interval cover %% ± se | n_eff/n |\n");
    printf("|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (si = 0; si < nsz; si++)
        for (p = 0; p < P_NPROC; p++) {
            tally t[2];
            sample a, b;
            cow_rng r;
            if (o->quick && !((si == 0 && (p == P_IID || p == P_BURST10)) ||
                              (si == 3 && (p == P_AR9))))
                continue;
            memset(t, 0, sizeof(t));
            sample_make(&a, sizes[si][0]);
            sample_make(&b, sizes[si][1]);
            rng_seed(&r, o->seed, 1000 + si * 10 + (size_t)p);
            for (rep = 0; rep < o->reps; rep++) {
                gen(&r, p, a.n, 0, a.t);
                gen(&r, p, b.n, 0, b.t);
                sample_sort(&a);
                sample_sort(&b);
                for (li = 0; li < 2; li++)
                    judge(&a, &b, levels[li], 0.0, o, o->seed + (uint64_t)rep, &t[li]);
            }
            for (li = 0; li < 2; li++) {
                tally *x = &t[li];
                double fp = pc(x->new_false, x->reps), fse = se(x->new_false, x->reps);
                double cv = pc(x->boot_cover, x->boot), cse = se(x->boot_cover, x->boot);
                printf("| %zu | %zu | %g | %s | %ld | %.1f | %.1f | %.1f ± %.1f | %.1f | %.1f |"
                       " %.1f | %.1f | %.1f ± %.1f | %.2f |\n",
                       a.n, b.n, levels[li], proc_name[p], x->reps,
                       pc(x->old_false, x->reps), pc(x->old_cover, x->reps), fp, fse,
                       pc(x->new_lift, x->reps), pc(x->unsure, x->reps),
                       pc(x->flat, x->reps), pc(x->boot, x->reps), cv, cse,
                       x->neff_ratio / (double)x->reps);
                if (fp > 5.0 + 2 * fse)
                    missed |= 1;
                if (x->boot > 0 && cv < 93.0)
                    missed |= 2;
            }
            free(a.t); free(a.s); free(b.t); free(b.s);
            fflush(stdout);
        }
}

/* analyze's decision for a window with the quiet stretch after it
 * (runstats.h Requirement 7): the baseline's stability at p50 and p99,
 * then the window against the baseline before it or, when that moved,
 * against the local baseline on both sides beyond its movement. */
static void window_verdict(const sample *a, const sample *b, const sample *af, double q,
                           double shift, const cow_qcmp_margin *lim, uint64_t seed,
                           const opts *o, cow_qcmp *c, cow_drift *d, int *local)
{
    static const double dq[COW_DRIFT_NLEVELS] = {0.5, 0.99};
    cow_group ga = {a->t, a->s, a->n}, gb = {b->t, b->s, b->n}, gf = {af->t, af->s, af->n};
    cow_qcmp_opts qo = {o->resamples, seed, COW_PCT_LINEAR};
    cow_err e = COW_ERR_INIT;

    if (lim != NULL) /* check: the limit's level, the limit as the margin */
        runstats_window_drift(&ga, &gb, af->n ? &gf : NULL, &q, 1, lim, &qo, d, &e);
    else
        runstats_window_drift(&ga, &gb, af->n ? &gf : NULL, dq, COW_DRIFT_NLEVELS, NULL, &qo, d,
                              &e);
    runstats_compare_window(&ga, &gb, af->n ? &gf : NULL, d, q, shift, &qo, NULL, c, local, &e);
}

/* ---------- processes real probes see (one contiguous series each) ---------- */

/* Probe every 2 ms. Processes: AR(1) on the log scale; the median moved
 * by a sinusoid of the log (+-15%) with a 2 s period or a 20 s drift; a
 * 10 ms stall every 0.5 s (locked to the probe: 250 probes) or every
 * 0.5013 s (drifting against it), a probe sent into a stall waiting it
 * out; a Pareto alpha 1.2 body; whole-millisecond values (median 0.8 ms,
 * rounded up: redis-cli's). The baseline is the first n_base samples,
 * the window the n_window after them, as in a run. */
enum rproc { R_IID, R_AR5, R_AR9, R_SINE, R_DRIFT, R_LOCK, R_UNLOCK, R_PARETO12, R_TIES,
             R_NPROC };
static const char *const rproc_name[R_NPROC] = {
    "iid-lognormal", "ar1-0.5", "ar1-0.9", "sine-2s", "drift-20s", "stall-locked",
    "stall-0.5013s", "pareto-1.2", "whole-ms"};

#define PROBE_US 2000.0

static void rgen(cow_rng *r, int p, size_t n, double *x)
{
    double y = rng_normal(r), ph = rng_uniform(r), a = log(1.15);
    double period = p == R_LOCK ? 500000.0 : 501300.0, t0 = rng_uniform(r) * period;
    size_t i;

    for (i = 0; i < n; i++) {
        double t = (double)i * PROBE_US, body = exp(MU + SIGMA * rng_normal(r));
        switch (p) {
        case R_AR5:
        case R_AR9: {
            double phi = p == R_AR5 ? 0.5 : 0.9;
            y = phi * y + sqrt(1 - phi * phi) * rng_normal(r);
            x[i] = exp(MU + SIGMA * y);
            break;
        }
        case R_SINE:
        case R_DRIFT:
            x[i] = body * exp(a * sin(2 * M_PI * (ph + t / (p == R_SINE ? 2e6 : 2e7))));
            break;
        case R_LOCK:
        case R_UNLOCK: {
            double into = fmod(t + t0, period); /* time since the stall began */
            x[i] = body + (into < 10000.0 ? 10000.0 - into : 0.0);
            break;
        }
        case R_PARETO12:
            x[i] = 100.0 * pow(rng_uniform(r), -1.0 / 1.2);
            break;
        case R_TIES:
            x[i] = 1000.0 * ceil(body * 4.0 / 1000.0); /* median 0.8 ms */
            break;
        default:
            x[i] = body;
        }
    }
}

/* The process's quantiles over its random phase: 400 stretches of 10,000
 * (--quick: 30). */
static void rtruth(int p, const double *qs, int nq, int quick, double *out)
{
    enum { CH = 10000 };
    const int NCH = quick ? 30 : 400;
    double *v = malloc((size_t)CH * (size_t)NCH * sizeof(double));
    cow_rng r;
    int c, k;

    rng_seed(&r, 99, 77 + (uint64_t)p);
    for (c = 0; c < NCH; c++)
        rgen(&r, p, CH, v + (size_t)c * CH);
    runstats_sort(v, (size_t)CH * (size_t)NCH);
    for (k = 0; k < nq; k++)
        out[k] = pct_quantile(v, (size_t)CH * (size_t)NCH, qs[k], COW_PCT_LINEAR);
    free(v);
}

typedef struct rtally {
    long reps, lift, drop, unsure, flat, boot, boot_cover, ci, ci_cover, ci_n, moved, unstable;
    double neff_a, neff_b;
} rtally;

static const struct rcell {
    int p;
    size_t na, nb;
    int quick;
} rcells[] = {
    {R_IID, 3000, 1500, 0},     {R_AR9, 1500, 700, 1},    {R_AR9, 5000, 5000, 0},
    {R_AR5, 3000, 1500, 0},     {R_AR5, 50000, 300, 0},   {R_SINE, 3000, 1500, 1},
    {R_DRIFT, 3000, 1500, 0},   {R_LOCK, 5000, 5000, 1},  {R_LOCK, 50000, 300, 0},
    {R_UNLOCK, 5000, 5000, 0},  {R_PARETO12, 3000, 1500, 0}, {R_TIES, 3000, 1500, 0},
};
static const double rlevels[3] = {0.5, 0.99, 0.999};

/* One phase's interval (what analyze prints) against the true value. */
static void phase_ci(const sample *x, double q, double truth, double moved, rtally *t)
{
    cow_clusters d;
    cow_qci ci;
    cow_err e = COW_ERR_INIT;

    dep_n_eff(x->t, x->s, x->n, q, &d);
    if (qcmp_level_ci(x->s, x->n, &d, q, PROBE_US, &ci, &e) != COW_OK)
        return;
    qcmp_level_ci_moved(&ci, moved);
    t->ci_n++;
    if (ci.has_lo && ci.has_hi) {
        t->ci++;
        t->ci_cover += ci.lo <= truth && truth <= ci.hi;
    }
}

static void real_cells(const opts *o)
{
    size_t ci, nc = sizeof(rcells) / sizeof(rcells[0]);
    int li, rep;

    printf("\n## Processes real probes see (null; baseline then window, one series)\n\n");
    printf("| process | n_base | n_window | q | reps | false lift %% | false drop %% |"
           " false %% ± se | ? %% | ~ %% | interval used %% | interval cover %% |"
           " phase CI printed %% | phase CI cover %% ± se | n_eff/n base, window |"
           " base moved %% | unstable %% |\n");
    printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (ci = 0; ci < nc; ci++) {
        const struct rcell *c = &rcells[ci];
        rtally t[3];
        double truth[3], *all;
        size_t nf = c->na < 5000 ? c->na : 5000; /* the quiet stretch after */
        sample a, b, af;
        cow_rng r;
        if (o->quick && !c->quick)
            continue;
        memset(t, 0, sizeof(t));
        rtruth(c->p, rlevels, 3, o->quick, truth);
        sample_make(&a, c->na);
        sample_make(&b, c->nb);
        sample_make(&af, nf);
        all = malloc((c->na + c->nb + nf) * sizeof(double));
        rng_seed(&r, o->seed, 5000 + ci);
        for (rep = 0; rep < o->reps; rep++) {
            rgen(&r, c->p, c->na + c->nb + nf, all);
            memcpy(a.t, all, c->na * sizeof(double));
            memcpy(b.t, all + c->na, c->nb * sizeof(double));
            memcpy(af.t, all + c->na + c->nb, nf * sizeof(double));
            sample_sort(&a);
            sample_sort(&b);
            sample_sort(&af);
            for (li = 0; li < 3; li++) {
                cow_qcmp q;
                cow_drift d;
                int local;
                rtally *x = &t[li];
                window_verdict(&a, &b, &af, rlevels[li], 0.0, NULL, o->seed + (uint64_t)rep, o,
                               &q, &d, &local);
                x->moved += d.moved;
                x->unstable += d.unstable;
                x->reps++;
                x->lift += q.verdict == COW_VERDICT_LIFT;
                x->drop += q.verdict == COW_VERDICT_DROP;
                x->unsure += q.verdict == COW_VERDICT_UNSURE;
                x->flat += q.verdict == COW_VERDICT_FLAT;
                if (q.method == COW_QCMP_BOOT && q.verdict != COW_VERDICT_UNSURE) {
                    x->boot++;
                    x->boot_cover += q.lo <= 0 && 0 <= q.hi;
                }
                x->neff_a += q.dep_a.n_eff / (double)a.n;
                x->neff_b += q.dep_b.n_eff / (double)b.n;
                phase_ci(&a, rlevels[li], truth[li], runstats_drift_rel(&d, rlevels[li]), x);
                phase_ci(&b, rlevels[li], truth[li], runstats_drift_rel(&d, rlevels[li]), x);
            }
        }
        for (li = 0; li < 3; li++) {
            rtally *x = &t[li];
            long f = x->lift + x->drop;
            double fp = pc(f, x->reps), fse = se(f, x->reps);
            double cv = pc(x->ci_cover, x->ci), cse = se(x->ci_cover, x->ci);
            printf("| %s | %zu | %zu | %g | %ld | %.1f | %.1f | %.1f ± %.1f | %.1f | %.1f |"
                   " %.1f | %.1f | %.1f | %.1f ± %.1f | %.2f, %.2f | %.1f | %.1f |\n",
                   rproc_name[c->p], c->na, c->nb, rlevels[li], x->reps,
                   pc(x->lift, x->reps), pc(x->drop, x->reps), fp, fse,
                   pc(x->unsure, x->reps), pc(x->flat, x->reps), pc(x->boot, x->reps),
                   pc(x->boot_cover, x->boot), pc(x->ci, x->ci_n), cv, cse,
                   x->neff_a / (double)x->reps, x->neff_b / (double)x->reps,
                   pc(x->moved, x->reps), pc(x->unstable, x->reps));
            if (fp > 5.0 + 2 * fse)
                missed |= 64;
            if (x->ci > 0 && cv + 2 * cse < 93.0)
                missed |= 128;
        }
        free(all);
        free(a.t); free(a.s); free(b.t); free(b.s); free(af.t); free(af.s);
        fflush(stdout);
    }
}

/* A cell's start: two empty tallies, samples of na and nb, and the cell's
 * own random stream. */
static void cell_begin(const opts *o, size_t na, size_t nb, uint64_t stream, tally t[2],
                       sample *a, sample *b, cow_rng *r)
{
    memset(t, 0, 2 * sizeof(*t));
    sample_make(a, na);
    sample_make(b, nb);
    rng_seed(r, o->seed, stream);
}

/* One repetition judged at both levels, the truth being no change. */
static void judge_null(sample *a, sample *b, const opts *o, int rep, tally t[2])
{
    int li;
    sample_sort(a);
    sample_sort(b);
    for (li = 0; li < 2; li++)
        judge(a, b, levels[li], 0.0, o, o->seed + (uint64_t)rep, &t[li]);
}

/* A cell's end: its samples freed, its rows out. */
static void cell_end(sample *a, sample *b)
{
    free(a->t); free(a->s); free(b->t); free(b->s);
    fflush(stdout);
}

/* Equivalence at the margin: the window's values x 1.25, so every
 * quantile moved by exactly the default margin (25% of the baseline's);
 * a `~` there is wrong, and must be at most 2.5% (verdict.c Req. 7). */
static void margin_cells(const opts *o)
{
    static const size_t ms[][2] = {{3000, 1500}, {1503, 691}, {5000, 5000}};
    size_t si, i;
    int li, rep;

    printf("\n## Equivalence at the margin (i.i.d. lognormal, window x %.2f: the change"
           " equals the margin)\n\n", 1.0 + COW_QCMP_MARGIN_REL);
    printf("| n_base | n_window | q | reps | ~ %% ± se (wrong) | lift %% | ? %% |\n");
    printf("|---:|---:|---:|---:|---:|---:|---:|\n");
    for (si = 0; si < 3; si++) {
        tally t[2];
        sample a, b;
        cow_rng r;
        if (o->quick && si != 0)
            continue;
        cell_begin(o, ms[si][0], ms[si][1], 6000 + si, t, &a, &b, &r);
        for (rep = 0; rep < o->reps; rep++) {
            gen(&r, P_IID, a.n, 0, a.t);
            gen(&r, P_IID, b.n, 0, b.t);
            for (i = 0; i < b.n; i++)
                b.t[i] *= 1.0 + COW_QCMP_MARGIN_REL;
            judge_null(&a, &b, o, rep, t);
        }
        for (li = 0; li < 2; li++) {
            tally *x = &t[li];
            double fp = pc(x->flat, x->reps), fse = se(x->flat, x->reps);
            printf("| %zu | %zu | %g | %ld | %.1f ± %.1f | %.1f | %.1f |\n", a.n, b.n,
                   levels[li], x->reps, fp, fse, pc(x->new_lift, x->reps),
                   pc(x->unsure, x->reps));
            if (fp > 100 * COW_QCMP_ALPHA_SIDE + 2 * fse)
                missed |= 256;
        }
        cell_end(&a, &b);
    }
}

/* log P(X = k), X ~ Binomial(n, p) */
static double lbinom(size_t k, size_t n, double p)
{
    return lgamma((double)n + 1) - lgamma((double)k + 1) - lgamma((double)(n - k) + 1) +
           (double)k * log(p) + (double)(n - k) * log1p(-p);
}

/* Power of the oracle that knows which samples are stalls (stall counts
 * Sa ~ Bin(na, pa), Sb ~ Bin(nb, pb)): the conditional test of Sb given
 * S = Sa + Sb against Binomial(S, nb / N), one-sided at alpha -- the
 * uniformly most powerful unbiased test of two binomial shares when
 * randomized, Fisher's exact test's binomial form when not. No rule that
 * sees only latencies can beat it at its level. */
static double oracle_power(size_t na, size_t nb, double pa, double pb, double alpha,
                           int randomized)
{
    double pi = (double)nb / (double)(na + nb), ma = (double)na * pa, mb = (double)nb * pb;
    double sa_sd = sqrt(ma * (1 - pa)), sb_sd = sqrt(mb * (1 - pb)), pw = 0;
    size_t a0 = ma > 12 * sa_sd ? (size_t)(ma - 12 * sa_sd) : 0;
    size_t a1 = (size_t)(ma + 12 * sa_sd + 10), b0 = mb > 12 * sb_sd ? (size_t)(mb - 12 * sb_sd) : 0;
    size_t b1 = (size_t)(mb + 12 * sb_sd + 10), sa, sb, s, j;

    if (a1 > na) a1 = na;
    if (b1 > nb) b1 = nb;
    for (s = a0 + b0; s <= a1 + b1; s++) {
        /* critical count c: reject when Sb > c, and with probability g at
         * Sb == c (randomized) */
        double tail = 0, g = 0, pc;
        size_t c = s + 1;
        for (j = s + 1; j-- > 0;) {
            pc = exp(lbinom(j, s, pi));
            if (tail + pc > alpha) {
                g = randomized ? (alpha - tail) / pc : 0;
                c = j;
                break;
            }
            tail += pc;
        }
        for (sb = s > a1 ? s - a1 : 0; sb <= s && sb <= b1; sb++) {
            double w;
            sa = s - sb;
            if (sa < a0 || sb < b0)
                continue;
            w = sb > c ? 1.0 : sb == c ? g : 0.0;
            if (w > 0)
                pw += w * exp(lbinom(sa, na, pa) + lbinom(sb, nb, pb));
        }
    }
    return 100.0 * pw;
}

static void alt_cells(const opts *o)
{
    size_t si, nsz = sizeof(sizes) / sizeof(sizes[0]);
    int li, rep;

    printf("\n## Stall lift (stall share 0.5%% -> 2%%, stalls ~10x median, i.i.d.)\n\n");
    printf("| n_base | n_window | q | true delta us | reps | today lift %% |"
           " new lift %% ± se | new ? %% | new ~ %% | interval used %% | interval cover %% |"
           " oracle 2.5%% exact / randomized | oracle 5%% exact / randomized |\n");
    printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (si = 0; si < nsz; si++) {
        tally t[2];
        sample a, b;
        cow_rng r;
        if (o->quick && si != 1)
            continue;
        cell_begin(o, sizes[si][0], sizes[si][1], 2000 + si, t, &a, &b, &r);
        for (rep = 0; rep < o->reps; rep++) {
            gen(&r, P_IID, a.n, 0.005, a.t);
            gen(&r, P_IID, b.n, 0.02, b.t);
            sample_sort(&a);
            sample_sort(&b);
            for (li = 0; li < 2; li++)
                judge(&a, &b, levels[li],
                      true_q(0.02, levels[li]) - true_q(0.005, levels[li]), o,
                      o->seed + (uint64_t)rep, &t[li]);
        }
        for (li = 0; li < 2; li++) {
            tally *x = &t[li];
            double lp = pc(x->new_lift, x->reps);
            printf("| %zu | %zu | %g | %.0f | %ld | %.1f | %.1f ± %.1f | %.1f | %.1f | %.1f | %.1f |"
                   " %.1f / %.1f | %.1f / %.1f |\n",
                   a.n, b.n, levels[li],
                   true_q(0.02, levels[li]) - true_q(0.005, levels[li]), x->reps,
                   pc(x->old_lift, x->reps), lp, se(x->new_lift, x->reps),
                   pc(x->unsure, x->reps), pc(x->flat, x->reps), pc(x->boot, x->reps),
                   pc(x->boot_cover, x->boot),
                   oracle_power(a.n, b.n, 0.005, 0.02, 0.025, 0),
                   oracle_power(a.n, b.n, 0.005, 0.02, 0.025, 1),
                   oracle_power(a.n, b.n, 0.005, 0.02, 0.05, 0),
                   oracle_power(a.n, b.n, 0.005, 0.02, 0.05, 1));
            /* targets: p99.9 lift in >= 60% at 5000 vs 5000 and >= 30% at
             * 1503 vs 691 (bit 4); p99 in >= 90% at both (bit 8) */
            if ((si == 3 || si == 1) && li == 1 && lp < (si == 3 ? 60.0 : 30.0))
                missed |= 4;
            if ((si == 3 || si == 1) && li == 0 && lp < 90.0)
                missed |= 8;
            if (x->boot > 0 && pc(x->boot_cover, x->boot) < 93.0)
                missed |= 2;
        }
        cell_end(&a, &b);
    }
}

/* 1 when the fleet's correction (method) fails any of its n p-values */
static int fleet_fails(const double *p, int n, int method)
{
    int fail[100], k;
    fleet_adjust(p, (size_t)n, method, 0.05, NULL, fail);
    for (k = 0; k < n && !fail[k]; k++)
        ;
    return k < n;
}

/* Healthy fleets: 50 runs, limits p99.9 lift 0.5 ms, p99 lift 0.2 ms. */
static void fleets(const opts *o)
{
    static const size_t fs[][2] = {{1000, 1000}, {705, 1708}};
    const int nfleet = o->quick ? 20 : 200, nrun = 50;
    const double lim[2] = {200.0, 500.0}; /* p99, p99.9 (us) */
    size_t fi;
    int f, k, li, nsel;

    printf("\n## Healthy fleets (%d runs each, limits max_p99_lift_ms 0.2, "
           "max_p999_lift_ms 0.5, median 1 ms)\n\n", nrun);
    printf("| n_base | n_window | fleets | today fail %% | Holm fail %% ± se | BH fail %% |\n");
    printf("|---:|---:|---:|---:|---:|---:|\n");
    for (fi = 0; fi < 2; fi++) {
        long old_fail = 0, holm_fail = 0, bh_fail = 0;
        sample a, b;
        cow_rng r;
        if (o->quick && fi == 1)
            continue;
        sample_make(&a, fs[fi][0]);
        sample_make(&b, fs[fi][1]);
        rng_seed(&r, o->seed, 3000 + fi);
        for (f = 0; f < nfleet; f++) {
            double p[100];
            int old = 0;
            nsel = 0;
            for (k = 0; k < nrun; k++) {
                size_t i;
                gen(&r, P_IID, a.n, 0, a.t);
                gen(&r, P_IID, b.n, 0, b.t);
                for (i = 0; i < a.n; i++) /* median 1 ms */
                    a.t[i] *= 5;
                for (i = 0; i < b.n; i++)
                    b.t[i] *= 5;
                sample_sort(&a);
                sample_sort(&b);
                for (li = 0; li < 2; li++) {
                    cow_group ga = {a.t, a.s, a.n}, gb = {b.t, b.s, b.n};
                    cow_qcmp_opts qo = {o->resamples, o->seed + (uint64_t)(f * nrun + k), 0};
                    cow_boot_result ob;
                    cow_qcmp c;
                    cow_err e = COW_ERR_INIT;
                    boot_quantile_delta(a.s, a.n, b.s, b.n, levels[li], o->resamples,
                                        qo.seed, &ob, &e);
                    old |= ob.verdict == COW_VERDICT_LIFT && ob.delta > lim[li];
                    qcmp_compute(&ga, &gb, levels[li], lim[li], &qo, &c, &e);
                    p[nsel++] = c.p_up;
                }
            }
            old_fail += old;
            holm_fail += fleet_fails(p, nsel, COW_FLEET_HOLM);
            bh_fail += fleet_fails(p, nsel, COW_FLEET_BH);
        }
        printf("| %zu | %zu | %d | %.1f | %.1f ± %.1f | %.1f |\n", a.n, b.n, nfleet,
               pc(old_fail, nfleet), pc(holm_fail, nfleet), se(holm_fail, nfleet),
               pc(bh_fail, nfleet));
        if (pc(holm_fail, nfleet) > 5.0 + 2 * se(holm_fail, nfleet))
            missed |= 16;
        free(a.t); free(a.s); free(b.t); free(b.s);
        fflush(stdout);
    }
}

/* Healthy fleets that drift (check, app/check.c Requirement 6): 50 runs,
 * each a baseline of 3,000 samples, a window of 1,500 and 3,000 after it,
 * median 1 ms moved by +-15% over a 20 s period (or not: i.i.d.), a
 * probe every 2 ms; limits p99 lift 0.2 ms, p99.9 lift 0.5 ms, Holm over
 * the fleet's 100 comparisons. before: against the baseline before the
 * window alone (the rule before); now: check's rule. */
static void drift_fleets(const opts *o)
{
    /* --quick: 20 fleets (fewer when fewer replicates are asked, as the
     * sanitizer build's smoke run does) */
    const int nfleet = o->quick ? (o->reps < 20 ? o->reps : 20) : o->reps, nrun = 50;
    const double lim[2] = {200.0, 500.0};
    const size_t na = 3000, nb = 1500, nf = 3000;
    static const int procs[2] = {R_DRIFT, R_IID};
    int pi, f, k, li;

    printf("\n## Healthy fleets that drift (%d runs each, %zu / %zu / %zu after, limits "
           "max_p99_lift_ms 0.2, max_p999_lift_ms 0.5, median 1 ms, Holm)\n\n", nrun, na, nb, nf);
    printf("| process | fleets | before: fail %% | now: fail %% ± se | runs moved %% (p99, p99.9) |"
           " runs judged locally %% |\n");
    printf("|---|---:|---:|---:|---:|---:|\n");
    for (pi = 0; pi < 2; pi++) {
        long old_fail = 0, new_fail = 0, moved[2] = {0, 0}, local_n = 0, runs = 0;
        double *all;
        sample a, b, af;
        cow_rng r;
        if ((o->quick && pi == 1) || (o->drift_proc >= 0 && o->drift_proc != pi))
            continue;
        all = malloc((na + nb + nf) * sizeof(double));
        sample_make(&a, na);
        sample_make(&b, nb);
        sample_make(&af, nf);
        rng_seed(&r, o->seed, 7000 + (uint64_t)pi);
        for (f = 0; f < nfleet; f++) {
            double p_old[100], p_new[100];
            int nsel = 0;
            for (k = 0; k < nrun; k++) {
                size_t i;
                rgen(&r, procs[pi], na + nb + nf, all);
                for (i = 0; i < na + nb + nf; i++) /* median 1 ms */
                    all[i] *= 5;
                memcpy(a.t, all, na * sizeof(double));
                memcpy(b.t, all + na, nb * sizeof(double));
                memcpy(af.t, all + na + nb, nf * sizeof(double));
                sample_sort(&a);
                sample_sort(&b);
                sample_sort(&af);
                runs++;
                for (li = 0; li < 2; li++) {
                    cow_group ga = {a.t, a.s, a.n}, gb = {b.t, b.s, b.n};
                    uint64_t seed = o->seed + (uint64_t)(f * nrun + k);
                    cow_qcmp_opts qo = {o->resamples, seed, COW_PCT_LINEAR};
                    cow_qcmp_margin m = {0.0, lim[li]};
                    cow_qcmp c;
                    cow_drift d;
                    cow_err e = COW_ERR_INIT;
                    int local;
                    qcmp_compute(&ga, &gb, levels[li], lim[li], &qo, &c, &e);
                    p_old[nsel] = c.p_up;
                    window_verdict(&a, &b, &af, levels[li], lim[li], &m, seed, o, &c, &d, &local);
                    p_new[nsel++] = c.p_up;
                    moved[li] += d.moved;
                    local_n += local;
                }
            }
            old_fail += fleet_fails(p_old, nsel, COW_FLEET_HOLM);
            new_fail += fleet_fails(p_new, nsel, COW_FLEET_HOLM);
        }
        printf("| %s | %d | %.1f | %.1f ± %.1f | %.1f, %.1f | %.1f |\n", rproc_name[procs[pi]],
               nfleet, pc(old_fail, nfleet), pc(new_fail, nfleet), se(new_fail, nfleet),
               pc(moved[0], runs), pc(moved[1], runs), pc(local_n, 2 * runs));
        if (pc(new_fail, nfleet) > 5.0 + 2 * se(new_fail, nfleet))
            missed |= 16;
        free(all);
        free(a.t); free(a.s); free(b.t); free(b.s); free(af.t); free(af.s);
        fflush(stdout);
    }
}

/* Stall lift with a quiet stretch after the window (as a run has): the
 * power of analyze's rule with the baseline's stability judged. */
static void alt_after_cells(const opts *o)
{
    static const size_t as[][2] = {{1503, 691}, {5000, 5000}};
    size_t si;
    int li, rep;

    printf("\n## Stall lift with a quiet stretch after the window (0.5%% -> 2%% -> 0.5%%)\n\n");
    printf("| n_base | n_window | n_after | q | reps | lift %% ± se | ? %% | ~ %% | base moved %% |"
           " judged locally %% |\n");
    printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (si = 0; si < 2; si++) {
        long lift[2] = {0, 0}, uns[2] = {0, 0}, flat[2] = {0, 0}, mv[2] = {0, 0}, loc[2] = {0, 0};
        sample a, b, af;
        cow_rng r;
        if (o->quick)
            continue;
        sample_make(&a, as[si][0]);
        sample_make(&b, as[si][1]);
        sample_make(&af, as[si][0]);
        rng_seed(&r, o->seed, 2000 + (si == 0 ? 1 : 3)); /* the stall-lift cells' seeds */
        for (rep = 0; rep < o->reps; rep++) {
            gen(&r, P_IID, a.n, 0.005, a.t);
            gen(&r, P_IID, b.n, 0.02, b.t);
            gen(&r, P_IID, af.n, 0.005, af.t);
            sample_sort(&a);
            sample_sort(&b);
            sample_sort(&af);
            for (li = 0; li < 2; li++) {
                cow_qcmp c;
                cow_drift d;
                int local;
                window_verdict(&a, &b, &af, levels[li], 0.0, NULL, o->seed + (uint64_t)rep, o,
                               &c, &d, &local);
                lift[li] += c.verdict == COW_VERDICT_LIFT;
                uns[li] += c.verdict == COW_VERDICT_UNSURE;
                flat[li] += c.verdict == COW_VERDICT_FLAT;
                mv[li] += d.moved;
                loc[li] += local;
            }
        }
        for (li = 0; li < 2; li++)
            printf("| %zu | %zu | %zu | %g | %d | %.1f ± %.1f | %.1f | %.1f | %.1f | %.1f |\n",
                   a.n, b.n, af.n, levels[li], o->reps, pc(lift[li], o->reps),
                   se(lift[li], o->reps), pc(uns[li], o->reps), pc(flat[li], o->reps),
                   pc(mv[li], o->reps), pc(loc[li], o->reps));
        free(a.t); free(a.s); free(b.t); free(b.s); free(af.t); free(af.s);
        fflush(stdout);
    }
}

/* The verdicts of one cell at one level: what analyze decided, and how
 * many of its lifts and drops the block test decided. */
typedef struct vtally {
    long lift, drop, uns, flat, blk;
} vtally;

static void vtally_add(vtally *t, const cow_qcmp *c)
{
    t->lift += c->verdict == COW_VERDICT_LIFT;
    t->drop += c->verdict == COW_VERDICT_DROP;
    t->uns += c->verdict == COW_VERDICT_UNSURE;
    t->flat += c->verdict == COW_VERDICT_FLAT;
    t->blk += c->method == COW_QCMP_BLOCK &&
              (c->verdict == COW_VERDICT_LIFT || c->verdict == COW_VERDICT_DROP);
}

/* ---------- saves: a sustained tail shift, and the nulls it must not see ---------- */

/* A save's window: every sample's upper half stretched on the log scale,
 * z -> z c for z > 0, c = 1 + ln(f) / (SIGMA z_0.99), so the p99 is f x
 * the baseline's and the median is unchanged (f = 3: p99.9 x 4.3). The
 * body is i.i.d. or AR(1) 0.3 on z; front-30% stretches only the
 * window's first 30% (f x 3 there: copy-on-write is heaviest while the
 * child is young), the window's p99 then about x4. Nulls: a two-state Markov-modulated
 * server (busy x3 for about 50 probes, 5% of the time), Poisson GC-like
 * stalls (one every 2 s on average, 2-30 ms, a probe sent into one
 * waits it out), a slow random walk of the median (about 10% over
 * 10,000 probes). The aftermath is 1.5 x the baseline's p99. */
enum sproc { S_IID, S_AR3, S_FRONT, S_MARKOV, S_GC, S_WALK, S_NPROC };
static const char *const sproc_name[S_NPROC] = {"iid-lognormal", "ar1-0.3", "front-30%-ar1-0.3",
                                                "markov-busy", "gc-stalls-2-30ms", "walk-median"};
#define Z99 2.3263478740408408

typedef struct sstate {
    double y, walk, stall_left;
    int busy;
} sstate;

static void sgen(cow_rng *r, int p, sstate *st, size_t n, double f, double *x)
{
    double c = f > 1 ? 1.0 + log(f) / (SIGMA * Z99) : 1.0;
    size_t i;

    for (i = 0; i < n; i++) {
        double z = rng_normal(r), m = MU;
        if (p == S_AR3 || p == S_FRONT) {
            st->y = 0.3 * st->y + sqrt(1 - 0.09) * z;
            z = st->y;
        }
        if (z > 0 && (p != S_FRONT || (double)i < 0.3 * (double)n))
            z *= c;
        if (p == S_MARKOV) {
            double u = rng_uniform(r);
            st->busy = st->busy ? u >= 0.02 : u < 0.02 * 0.05 / 0.95;
            m += st->busy ? log(3.0) : 0;
        }
        if (p == S_WALK) {
            st->walk += 0.001 * rng_normal(r);
            m += st->walk;
        }
        x[i] = exp(m + SIGMA * z);
        if (p == S_GC) {
            if (st->stall_left <= 0 && rng_uniform(r) < 1.0 / 1000.0)
                st->stall_left = 2000.0 + 28000.0 * rng_uniform(r);
            if (st->stall_left > 0) {
                x[i] += st->stall_left;
                st->stall_left -= PROBE_US;
            }
        }
    }
}

static void save_cells(const opts *o)
{
    static const size_t ss[][3] = {{10000, 2000, 5000}, {1500, 700, 1500}};
    size_t si;
    int p, f, aft, li, rep;

    printf("\n## Saves: a sustained tail shift (p99 x3, median unchanged) and the nulls it "
           "must not see (analyze's decision, with the aftermath after the window)\n\n");
    printf("| process | p99 x | aftermath | n_base | n_window | q | reps | lift %% ± se |"
           " drop %% | ? %% | ~ %% | by blocks %% | oracle lift %% |\n");
    printf("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    if (o->quick) { /* --saves runs them; ctest's --quick does not */
        printf("(not in --quick: calibration --saves)\n");
        return;
    }
    for (si = 0; si < 2; si++)
        for (p = 0; p < S_NPROC; p++)
            for (f = 1; f <= 3; f += 2)
                for (aft = 0; aft < 2; aft++) {
                    vtally t[2];
                    long orc[2] = {0, 0};
                    sample a, b, af;
                    cow_rng r;
                    sstate st;
                    if (f == 3 && p > S_FRONT)
                        continue; /* the effect on the two bodies; the rest are nulls */
                    if (f == 1 && aft == 1)
                        continue;
                    memset(t, 0, sizeof(t));
                    sample_make(&a, ss[si][0]);
                    sample_make(&b, ss[si][1]);
                    sample_make(&af, ss[si][2]);
                    rng_seed(&r, o->seed, 7000 + si * 100 + (size_t)p * 10 + (size_t)f + (size_t)aft);
                    for (rep = 0; rep < o->reps; rep++) {
                        memset(&st, 0, sizeof(st));
                        sgen(&r, p, &st, a.n, 1.0, a.t);
                        sgen(&r, p, &st, b.n, p == S_FRONT && f > 1 ? 3.0 * f : (double)f, b.t);
                        sgen(&r, p, &st, af.n, aft ? 1.5 : 1.0, af.t);
                        sample_sort(&a);
                        sample_sort(&b);
                        sample_sort(&af);
                        for (li = 0; li < 2; li++) {
                            cow_qcmp c;
                            cow_drift d;
                            int local;
                            size_t kb = 0, i;
                            window_verdict(&a, &b, &af, levels[li], 0.0, NULL,
                                           o->seed + (uint64_t)rep, o, &c, &d, &local);
                            vtally_add(&t[li], &c);
                            /* the oracle knows the samples are independent and the
                             * baseline's true tail: window beyond the true quantile,
                             * binomial at 2.5% one-sided */
                            for (i = 0; i < b.n; i++)
                                kb += b.t[i] > exp(MU + SIGMA * (li ? 3.090232306167813 : Z99));
                            orc[li] += dep_binom_sf(kb, b.n, 1.0 - levels[li]) <= 0.025;
                        }
                    }
                    for (li = 0; li < 2; li++) {
                        const vtally *x = &t[li];
                        double lp = pc(x->lift, o->reps), fl = pc(x->lift + x->drop, o->reps);
                        double fs = se(x->lift + x->drop, o->reps);
                        printf("| %s | %d | %s | %zu | %zu | %g | %d | %.1f ± %.1f | %.1f | %.1f |"
                               " %.1f | %.1f | %.1f |\n",
                               sproc_name[p], f, aft ? "1.5x" : "none", a.n, b.n, levels[li],
                               o->reps, lp, se(x->lift, o->reps), pc(x->drop, o->reps),
                               pc(x->uns, o->reps), pc(x->flat, o->reps), pc(x->blk, o->reps),
                               pc(orc[li], o->reps));
                        if (f == 1 && fl > 5.0 + 2 * fs)
                            missed |= 64;
                        /* power: p99 x3 >= 80% at 10,000 / 2,000, >= 60% at 1,500 / 700 */
                        if (f == 3 && li == 0 && lp < (si == 0 ? 80.0 : 60.0))
                            missed |= 8;
                    }
                    free(a.t); free(a.s); free(b.t); free(b.s); free(af.t); free(af.s);
                    fflush(stdout);
                }
}

/* ---------- saves on real probes: the bundled steady captures, block-resampled ---------- */

/* The latency column (us) of a capture CSV "timestamp_us,latency_us,...";
 * NULL when the file cannot be read. */
static double *load_capture(const char *path, size_t *n)
{
    FILE *fp = fopen(path, "r");
    char line[512];
    double *v = NULL;
    size_t cap = 0;
    *n = 0;
    if (fp == NULL)
        return NULL;
    while (fgets(line, sizeof(line), fp) != NULL) {
        char *c = strchr(line, ',');
        double x;
        if (c == NULL || sscanf(c + 1, "%lf", &x) != 1 || !(x > 0))
            continue; /* the header, or a line without a latency */
        if (*n == cap) {
            cap = cap ? 2 * cap : 8192;
            v = realloc(v, cap * sizeof(double));
        }
        v[(*n)++] = x;
    }
    fclose(fp);
    return v;
}

#define RC_BLOCK 500 /* 1 s of a probe every 2 ms: the real dependence kept */

/* n samples of blocks of RC_BLOCK consecutive probes of one capture, each
 * at a random offset: its own dependence within a block, its own level
 * throughout (blocks of different servers would be a change). */
static void rc_fill(cow_rng *r, const double *cap, size_t ncap, size_t n, double *x)
{
    size_t i = 0;
    while (i < n) {
        size_t off = (size_t)rng_below(r, (uint64_t)(ncap - RC_BLOCK)), k;
        for (k = 0; k < RC_BLOCK && i < n; k++)
            x[i++] = cap[off + k];
    }
}

/* A save on real probes: the window's samples above the captures' median
 * m stretched on the log scale, x -> m (x / m)^c, c so that the window's
 * own p99 becomes f times the capture's p99 (the median unchanged). The
 * exponent is read from the window drawn, not from the capture: a window
 * drawn without one of the capture's slow episodes has a p99 below the
 * capture's, and the capture's exponent gave it 1.5-2x only. */
static void rc_stretch(double *x, size_t n, double m, double p99, double f)
{
    double *s = malloc(n * sizeof(double)), pw, c;
    size_t i;
    memcpy(s, x, n * sizeof(double));
    runstats_sort(s, n);
    pw = pct_quantile(s, n, 0.99, COW_PCT_LINEAR);
    free(s);
    if (!(pw > m * 1.01))
        pw = m * 1.01;
    c = log(f * p99 / m) / log(pw / m);
    for (i = 0; i < n; i++)
        if (x[i] > m)
            x[i] = m * pow(x[i] / m, c);
}

static void realcap_cells(const opts *o)
{
    static const char *const files[] = {"samples/steady/latency.csv",
                                        "samples/fleet/cache-a/steady/latency.csv",
                                        "samples/fleet/cache-e/steady/latency.csv"};
    static const size_t ss[][3] = {{10000, 2000, 5000}, {1500, 700, 1500}};
    double *cap[3], m[3], p99[3];
    size_t ncap[3], si;
    int nc = 0, i, f, li, rep;

    printf("\n## Saves on real probes: the bundled steady captures (Redis 7.0, a probe every "
           "2 ms, no event), each rep from one of them, block-resampled in blocks of %d "
           "consecutive probes; the window stretched so that its p99 is f x the capture's "
           "(median unchanged)\n\n", RC_BLOCK);
    for (i = 0; i < 3; i++) {
        double *sorted;
        cap[nc] = load_capture(files[i], &ncap[nc]);
        if (cap[nc] == NULL || ncap[nc] <= 2 * RC_BLOCK) {
            free(cap[nc]);
            continue;
        }
        sorted = malloc(ncap[nc] * sizeof(double));
        memcpy(sorted, cap[nc], ncap[nc] * sizeof(double));
        runstats_sort(sorted, ncap[nc]);
        m[nc] = pct_quantile(sorted, ncap[nc], 0.5, COW_PCT_LINEAR);
        p99[nc] = pct_quantile(sorted, ncap[nc], 0.99, COW_PCT_LINEAR);
        printf("%s: %zu probes, median %.3f ms, p99 %.3f ms\n", files[i], ncap[nc],
               m[nc] / 1000, p99[nc] / 1000);
        free(sorted);
        nc++;
    }
    if (nc == 0) {
        printf("(skipped: run from the source tree, which holds samples/)\n");
        return;
    }
    printf("\n");
    printf("| p99 x | n_base | n_window | q | reps | lift %% ± se | drop %% | ? %% | ~ %% |"
           " by blocks %% |\n");
    printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (si = 0; si < 2; si++)
        for (f = 1; f <= 3; f += 2) {
            vtally t[2];
            sample a, b, af;
            cow_rng r;
            memset(t, 0, sizeof(t));
            sample_make(&a, ss[si][0]);
            sample_make(&b, ss[si][1]);
            sample_make(&af, ss[si][2]);
            rng_seed(&r, o->seed, 7500 + si * 10 + (size_t)f);
            for (rep = 0; rep < o->reps; rep++) {
                int k = (int)rng_below(&r, (uint64_t)nc);
                rc_fill(&r, cap[k], ncap[k], a.n, a.t);
                rc_fill(&r, cap[k], ncap[k], b.n, b.t);
                rc_fill(&r, cap[k], ncap[k], af.n, af.t);
                if (f > 1)
                    rc_stretch(b.t, b.n, m[k], p99[k], (double)f);
                sample_sort(&a);
                sample_sort(&b);
                sample_sort(&af);
                for (li = 0; li < 2; li++) {
                    cow_qcmp c;
                    cow_drift d;
                    int local;
                    window_verdict(&a, &b, &af, levels[li], 0.0, NULL, o->seed + (uint64_t)rep,
                                   o, &c, &d, &local);
                    vtally_add(&t[li], &c);
                    if (rep < 3 && getenv("COW_CAL_WHY") != NULL) { /* what decided a ? */
                        char why[256];
                        qcmp_why_text(&c, 0, why, sizeof(why));
                        fprintf(stderr, "f %d n %zu q %g: %s %s\n", f, a.n, levels[li],
                                qcmp_method_name(c.method), why);
                    }
                }
            }
            for (li = 0; li < 2; li++) {
                const vtally *x = &t[li];
                double fl = pc(x->lift + x->drop, o->reps);
                printf("| %d | %zu | %zu | %g | %d | %.1f ± %.1f | %.1f | %.1f | %.1f | %.1f |\n",
                       f, a.n, b.n, levels[li], o->reps, pc(x->lift, o->reps),
                       se(x->lift, o->reps), pc(x->drop, o->reps), pc(x->uns, o->reps),
                       pc(x->flat, o->reps), pc(x->blk, o->reps));
                if (f == 1 && fl > 5.0 + 2 * se(x->lift + x->drop, o->reps))
                    missed |= 64;
            }
            free(a.t); free(a.s); free(b.t); free(b.s); free(af.t); free(af.s);
            fflush(stdout);
        }
    for (i = 0; i < nc; i++)
        free(cap[i]);
}

/* Today's ratio interval, for comparison: percentile bootstrap of the
 * trials (each replicate resamples both groups' trials), 999 replicates. */
static int boot_ratio_covers(const double *a, const double *b, int n, double truth,
                             cow_rng *r)
{
    enum { R = 999 };
    double rep[R], ma, mb;
    int i, j;
    for (i = 0; i < R; i++) {
        ma = mb = 0;
        for (j = 0; j < n; j++) {
            ma += a[rng_below(r, (uint64_t)n)];
            mb += b[rng_below(r, (uint64_t)n)];
        }
        rep[i] = mb / ma;
    }
    qsort(rep, R, sizeof(double), cmp_dbl);
    return rep[24] <= truth && truth <= rep[974];
}

/* Trade-off: ratio of two modes' means over 7 + 7 trials. */
static void trade(const opts *o)
{
    static const double cv[4] = {0.05, 0.15, 0.30, 0.50};
    const int n = 7, reps = o->quick ? 200 : 4 * o->reps;
    int c, rep, j;

    printf("\n## Trade-off ratio, %d + %d trials (means 100 and 85, lognormal trials)\n\n", n, n);
    printf("| trial CV | reps | today (bootstrap) cover %% | Welch t on logs cover %% ± se |\n");
    printf("|---:|---:|---:|---:|\n");
    for (c = 0; c < (o->quick ? 3 : 4); c++) {
        cow_rng r;
        long old = 0, neu = 0;
        double s = sqrt(log(1 + cv[c] * cv[c])), truth = 0.85;
        rng_seed(&r, o->seed, 4000 + (uint64_t)c);
        for (rep = 0; rep < reps; rep++) {
            double a[7], b[7];
            cow_trade_ratio t;
            for (j = 0; j < n; j++) {
                a[j] = 100 * exp(s * rng_normal(&r) - s * s / 2);
                b[j] = 85 * exp(s * rng_normal(&r) - s * s / 2);
            }
            tradeoff_ratio(a, (size_t)n, b, (size_t)n, &t);
            neu += t.lo <= truth && truth <= t.hi;
            old += boot_ratio_covers(a, b, n, truth, &r);
        }
        printf("| %.2f | %d | %.1f | %.1f ± %.1f |\n", cv[c], reps, pc(old, reps),
               pc(neu, reps), se(neu, reps));
        if (pc(neu, reps) < 93.0)
            missed |= 32;
    }
}

int main(int argc, char **argv)
{
    opts o = {1000, 999, 0, 0, 0, -1, 20261201};
    int i;
    clock_t c0 = clock();

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
            o.reps = atoi(argv[++i]);
        else if (strcmp(argv[i], "--resamples") == 0 && i + 1 < argc)
            o.resamples = atoi(argv[++i]);
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            o.seed = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--quick") == 0)
            o.quick = 1;
        else if (strcmp(argv[i], "--check") == 0)
            o.check = 1;
        else if (strcmp(argv[i], "--real") == 0)
            o.only_real = 1;
        else if (strcmp(argv[i], "--drift") == 0)
            o.only_real = 2;
        else if (strcmp(argv[i], "--after") == 0)
            o.only_real = 3;
        else if (strcmp(argv[i], "--stalls") == 0)
            o.only_real = 5;
        else if (strcmp(argv[i], "--null") == 0)
            o.only_real = 6;
        else if (strcmp(argv[i], "--saves") == 0)
            o.only_real = 4;
        else if (strcmp(argv[i], "--drift-proc") == 0 && i + 1 < argc)
            o.drift_proc = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: calibration [--reps N] [--resamples R] [--seed S]"
                            " [--quick] [--check] [--real] [--drift [--drift-proc K]] [--after] [--saves]"
                            " [--stalls] [--null]\n");
            return 2;
        }
    }
    if (o.reps < 1 || o.resamples < 1) {
        fprintf(stderr, "calibration: --reps and --resamples must be positive\n");
        return 2;
    }
    printf("calibration: %d reps per cell, R = %d, seed %llu\n\n", o.reps, o.resamples,
           (unsigned long long)o.seed);
    if (o.only_real == 5 || o.only_real == 6) { /* one table of the default run */
        if (o.only_real == 5)
            alt_cells(&o);
        else
            null_cells(&o);
        printf("\ncpu %.1f s\n", (double)clock() / CLOCKS_PER_SEC);
        return 0;
    }
    if (o.only_real == 4) {
        save_cells(&o);
        realcap_cells(&o);
        printf("\ncpu %.1f s; code %d\n", (double)(clock() - c0) / CLOCKS_PER_SEC, missed);
        return o.check && missed ? 1 : 0;
    }
    if (o.only_real >= 2) {
        if (o.only_real == 2)
            drift_fleets(&o);
        alt_after_cells(&o);
        printf("\ncpu %.1f s; code %d\n", (double)(clock() - c0) / CLOCKS_PER_SEC, missed);
        return o.check && missed ? 1 : 0;
    }
    if (o.only_real) {
        real_cells(&o);
        margin_cells(&o);
        printf("\ncpu %.1f s; code %d\n", (double)(clock() - c0) / CLOCKS_PER_SEC, missed);
        return o.check && missed ? 1 : 0;
    }
    null_cells(&o);
    alt_cells(&o);
    real_cells(&o);
    margin_cells(&o);
    fleets(&o);
    drift_fleets(&o);
    alt_after_cells(&o);
    save_cells(&o);
    if (!o.quick)
        realcap_cells(&o);
    trade(&o);
    printf("\ncpu %.1f s; targets %s (code %d: 1 null false rate, 2 coverage, 4 p99.9 "
           "power, 8 p99 power, 16 fleets, 32 trade-off, 64 real-process false rate, 128 real-process phase interval "
           "coverage, 256 ~ at the margin)\n", (double)(clock() - c0) / CLOCKS_PER_SEC,
           missed ? "MISSED" : "met", missed);
    /* --quick is the regression bar: null, coverage, p99.9 power and fleets
     * on its few cells; the p99 power target (8) is not met at 1503 vs 691
     * (bench/README.md) and is reported, not enforced, there */
    return o.check && (missed & (o.quick ? ~8 : ~0)) ? 1 : 0;
}
