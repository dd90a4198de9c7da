/* verdict.c -- a quantile's verdict with a stated error rate (verdict.h).
 *
 * Requirements:
 *  1. n_eff of each group at q from dep_n_eff(); the bootstrap draws with
 *     it (boot.h Requirement 8).
 *  2. Interval when both n_eff (1 - q) >= COW_QCMP_MIN_TAIL, else the tail
 *     test: lift when p_up <= 2.5%, drop when p_down <= 2.5%, else ?.
 *  3. Tail-test bounds invert the test: for a lift, the largest shift s
 *     the test still rejects at 2.5% ("delta >= s"); for a drop, the
 *     smallest (delta <= s). Bisection on s: p_up grows with s. The test
 *     is about the tail beyond the pooled level, not the quantile itself,
 *     so the bound is capped at the point estimate (never "delta >= x"
 *     with x above the delta printed beside it).
 *  4. Point estimates use the caller's quantile method; replicates are
 *     type 7 (boot.h).
 *  5. The bootstrap is run only when it decides (Requirement 2): a
 *     comparison the tail test decides has the point estimates and the
 *     ratio, and no bootstrap interval of the delta or of the ratio (an
 *     interval not calibrated there is not shown).
 *  6. Stalls locked to the probe (dep.c Requirement 6) in either group at
 *     q: the level's value within a run is set by where the stalls fall
 *     against the probes, which no count within the run measures; the
 *     verdict is ? with that reason (why, period), and the phase's
 *     interval at q has no bound (qcmp_level_ci). */
#include "verdict.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pct.h"

const char *qcmp_method_name(int m)
{
    return m == COW_QCMP_TAIL ? "tail-test" : "bootstrap";
}

int qcmp_method_of(const char *name)
{
    return name != NULL && strcmp(name, "tail-test") == 0 ? COW_QCMP_TAIL : COW_QCMP_BOOT;
}

void qcmp_format_bounds(int method, int verdict, double lo_us, double hi_us,
                        char *buf, size_t n)
{
    if (verdict == COW_VERDICT_NA)
        snprintf(buf, n, "-");
    else if (verdict == COW_VERDICT_UNSURE)
        snprintf(buf, n, "cannot tell");
    else if (method == COW_QCMP_TAIL && verdict == COW_VERDICT_LIFT)
        snprintf(buf, n, ">= %+.3f", lo_us / 1000.0);
    else if (method == COW_QCMP_TAIL && verdict == COW_VERDICT_DROP)
        snprintf(buf, n, "<= %+.3f", hi_us / 1000.0);
    else
        snprintf(buf, n, "[%+.3f, %+.3f]", lo_us / 1000.0, hi_us / 1000.0);
}

/* Requirement 3: the bound s where the one-sided test just rejects. */
static double invert(const cow_group *a, const cow_group *b,
                     const cow_tailplan *plan, double shift, int up)
{
    double lo = shift, hi, mid;
    cow_tailtest t;
    int i;

    hi = b->sorted[b->n - 1] - a->sorted[0];
    if (!up) {
        lo = b->sorted[0] - a->sorted[a->n - 1];
        hi = shift;
    }
    for (i = 0; i < 50 && hi - lo > 1e-9 * (fabs(hi) + fabs(lo) + 1); i++) {
        mid = 0.5 * (lo + hi);
        dep_tail_test_plan(a, b, plan, mid, &t);
        if (up ? t.p_up <= COW_QCMP_ALPHA_SIDE : !(t.p_down <= COW_QCMP_ALPHA_SIDE))
            lo = mid;
        else
            hi = mid;
    }
    return up ? lo : hi;
}

int qcmp_level_ci(const double *sorted, size_t n, const cow_clusters *d, double q,
                  cow_qci *out, cow_err *e)
{
    int rc = pct_quantile_ci_m(sorted, n, d->n_eff, q, 0.95, out, e);
    if (rc == COW_OK && d->locked) { /* Requirement 6 */
        out->has_lo = out->has_hi = 0;
        out->lo_rank = out->hi_rank = 0;
        out->lo = -INFINITY;
        out->hi = INFINITY;
    }
    return rc;
}

void qcmp_why_text(int why, double period, double probe_s, char *buf, size_t n)
{
    if (why != COW_QCMP_WHY_LOCKED)
        snprintf(buf, n, "%s", "");
    else if (probe_s > 0)
        snprintf(buf, n, "stalls every %.3f s, locked to the probe", period * probe_s);
    else
        snprintf(buf, n, "stalls every %.0f samples, locked to the probe", period);
}

int qcmp_compute(const cow_group *a, const cow_group *b, double q,
                 double shift, const cow_qcmp_opts *o, cow_qcmp *out,
                 cow_err *e)
{
    cow_clusters da, db;

    dep_n_eff(a->time, a->sorted, a->n, q, &da); /* Requirement 1 */
    dep_n_eff(b->time, b->sorted, b->n, q, &db);
    return qcmp_compute_dep(a, b, q, &da, &db, NULL, shift, o, out, e);
}

int qcmp_uses_bootstrap(const cow_clusters *dep_a, const cow_clusters *dep_b, double q)
{
    return fmin(dep_a->n_eff, dep_b->n_eff) * (1.0 - q) >= COW_QCMP_MIN_TAIL;
}

int qcmp_compute_dep(const cow_group *a, const cow_group *b, double q,
                     const cow_clusters *dep_a, const cow_clusters *dep_b,
                     const double *a_reps, double shift, const cow_qcmp_opts *o,
                     cow_qcmp *out, cow_err *e)
{
    int rc, boot = qcmp_uses_bootstrap(dep_a, dep_b, q); /* Requirement 2 */
    cow_tailplan plan;

    memset(out, 0, sizeof(*out));
    out->q = q;
    out->shift = shift;
    out->na = a->n;
    out->nb = b->n;
    out->dep_a = *dep_a;
    out->dep_b = *dep_b;
    /* Requirement 5: replicates only where the bootstrap decides */
    if (!boot)
        rc = boot_quantile_delta_est(a->sorted, a->n, out->dep_a.n_eff, b->sorted, b->n,
                                     out->dep_b.n_eff, q, shift, o->resamples, o->seed,
                                     &out->boot, e);
    else if (a_reps != NULL)
        rc = boot_quantile_delta_ma(a->sorted, a->n, out->dep_a.n_eff, a_reps, b->sorted,
                                    b->n, out->dep_b.n_eff, q, shift, o->resamples,
                                    o->seed, &out->boot, e);
    else
        rc = boot_quantile_delta_m(a->sorted, a->n, out->dep_a.n_eff, b->sorted, b->n,
                                   out->dep_b.n_eff, q, shift, o->resamples, o->seed,
                                   &out->boot, e);
    if (rc != COW_OK)
        return rc;
    out->est_a = out->est_b = out->delta = out->lo = out->hi = NAN;
    out->p_up = out->p_down = out->p = NAN;
    out->verdict = COW_VERDICT_NA;
    out->method = COW_QCMP_BOOT;
    if (a->n == 0 || b->n == 0)
        return COW_OK;
    out->est_a = pct_quantile(a->sorted, a->n, q, o->method); /* Requirement 4 */
    out->est_b = pct_quantile(b->sorted, b->n, q, o->method);
    out->delta = out->est_b - out->est_a;
    if (dep_a->locked || dep_b->locked) { /* Requirement 6 */
        out->verdict = COW_VERDICT_UNSURE;
        out->why = COW_QCMP_WHY_LOCKED;
        out->period = dep_a->locked ? dep_a->period : dep_b->period;
        return COW_OK;
    }
    if (boot) {
        out->lo = out->boot.delta_lo;
        out->hi = out->boot.delta_hi;
        out->p_up = out->boot.p_up;
        out->p_down = out->boot.p_down;
        out->verdict = out->lo > shift ? COW_VERDICT_LIFT
                     : out->hi < shift ? COW_VERDICT_DROP : COW_VERDICT_FLAT;
    } else {
        out->method = COW_QCMP_TAIL;
        out->thin = 1;
        dep_tail_plan(a->n, b->n, q, &plan);
        dep_tail_test_plan(a, b, &plan, shift, &out->test);
        out->p_up = out->test.p_up;
        out->p_down = out->test.p_down;
        if (out->p_up <= COW_QCMP_ALPHA_SIDE) {
            out->verdict = COW_VERDICT_LIFT;
            out->lo = fmin(invert(a, b, &plan, shift, 1), fmax(out->delta, shift));
            out->hi = INFINITY;
        } else if (out->p_down <= COW_QCMP_ALPHA_SIDE) {
            out->verdict = COW_VERDICT_DROP;
            out->lo = -INFINITY;
            out->hi = fmax(invert(a, b, &plan, shift, 0), fmin(out->delta, shift));
        } else {
            out->verdict = COW_VERDICT_UNSURE;
        }
    }
    out->p = fmin(1.0, 2.0 * fmin(out->p_up, out->p_down));
    return COW_OK;
}
