/* verdict.c -- a quantile's verdict with a stated error rate (verdict.h).
 *
 * Requirements:
 *  1. n_eff of each group at q from dep_n_eff(); the bootstrap draws with
 *     it (boot.h Requirement 8).
 *  2. Interval when both n_eff (1 - q) >= COW_QCMP_MIN_TAIL (and no lock,
 *     Requirement 6), else the tail
 *     test: lift when p_up <= 2.5%, drop when p_down <= 2.5%, else ?.
 *  3. Tail-test bounds invert the test: for a lift, the largest shift s
 *     the test still rejects at 2.5% ("delta >= s"); for a drop, the
 *     smallest (delta <= s). Bisection on s: p_up grows with s. The test
 *     is about the tail beyond the pooled level, not the quantile itself:
 *     when the inverted bound reaches the point estimate (the tail moved
 *     more than this quantile did), what the test shows about the
 *     quantile is only that it moved past the shift, and the bound is the
 *     shift ("+1.719 (>= +0.000)", never "delta >= x" with x at or above
 *     the delta printed beside it: capped at the estimate, bgsave-t1's
 *     p99.9 read "+1.719 (>= +1.719)", as if the estimate were certain).
 *  4. Point estimates use the caller's quantile method; replicates are
 *     type 7 (boot.h).
 *  5. The bootstrap is run only when it decides (Requirement 2): a
 *     comparison the tail test decides has the point estimates and the
 *     ratio, and no bootstrap interval of the delta or of the ratio (an
 *     interval not calibrated there is not shown).
 *  8. Under "nothing changed" the window has the baseline's dependence
 *     (the argument of dep.c Requirement 4b): below COW_DEP_BULK a
 *     comparison reads the window's n_eff as n_b / lrv of the baseline
 *     (out->dep_b carries it), not from the window's own indicator. A
 *     window whose latency rises for a stretch and falls back (a fork's
 *     copy-on-write) is the change under test, not dependence: read
 *     from its own indicator, forkless/fork-t5's bgsave window had
 *     n_eff 17 of 809 at p50 and its +16% median was `?`. The phase's
 *     own interval keeps the phase's own n_eff.
 *  7. Equivalence (two one-sided tests, Schuirmann 1987): when the tail
 *     test calls neither lift nor drop, its lower bound L (the largest s
 *     with p_up(s) <= 2.5%) and upper bound U (the smallest s with
 *     p_down(s) <= 2.5%) are found by bisection; with the margin
 *     m = max(rel x the baseline's value, abs_us) (cow_qcmp_margin;
 *     qcmp_compute_margin, the defaults elsewhere) the
 *     verdict is `~` when shift - m < L and U < shift + m: each side's
 *     "the change is at least m" rejected at 2.5%, so a `~` is wrong at
 *     most 2.5% of the time when the change is m or more. [L, U] is
 *     printed. Defaults 25% and 0.05 ms: at i.i.d. 3,000 vs 1,500, p99,
 *     bench/README.md gives the share of ~. Only where the test reads
 *     the level itself, N (1 - q) >= COW_TAIL_MIN_K pooled samples
 *     beyond it: below that it reads a lower pooled level (p99.1 for a
 *     p99.9 at 1,503 vs 691), whose change under a scale change is
 *     smaller than the p99.9's, and a ~ there was wrong in 7.3% of runs
 *     whose p99.9 moved by exactly the margin.
 *  6. Stalls locked to the probe (dep.c Requirement 6) in either group at
 *     q: the level's value within a run is set by where the stalls fall
 *     against the probes, which no count within the run measures
 *     (the order-statistic interval covered 35% of runs): a probe sent
 *     d later into a stall waits d less, and the stalls' offset against
 *     the probes ranges over one probe interval, so the phase's interval
 *     at q is widened by the probe interval on both sides (qcmp_level_ci;
 *     no bound where the interval is not known), and the bootstrap does
 *     not decide. The tail test
 *     still does (more of the window's samples beyond the pooled top
 *     than its share is a lift wherever the stalls fall), with its
 *     one-sided bound; when it cannot tell, the verdict is ? with the
 *     reason (why, period) and never ~.
 *  9. A sustained shift (blocktest.h): at q >= COW_QCMP_BLOCK_Q, where
 *     the bootstrap's interval holds the shift or the tail test rejects
 *     neither side, the block test decides at 2.5% a side: lift with the
 *     bound it still rejects at (block_bound), drop with the shift as
 *     bound. The pooled tail test reads one long slowdown as one or two
 *     clusters (a real 8 s BGSAVE: 0 vs 99 samples beyond the pooled
 *     p98.90, tau 36.6, p = 0.23); the blocks read the window's spread
 *     from the baseline alone; a baseline too short for the blocks is read
     by its own stretches as long as the window (blocktest.c Requirement
     7: a real 3.6 s BGSAVE's p99.9 10.7 -> 32.0 ms, ? before, a lift
     >= +12.3 ms). Its error rate is the calibration's (bench/
 *     README.md): it adds to the others' where they could not tell. */
#include "verdict.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pct.h"
#include "strbuf.h"

const char *qcmp_method_name(int m)
{
    return m == COW_QCMP_TAIL ? "tail-test" : m == COW_QCMP_BLOCK ? "block-test" : "bootstrap";
}

int qcmp_method_of(const char *name)
{
    if (name != NULL && strcmp(name, "tail-test") == 0)
        return COW_QCMP_TAIL;
    return name != NULL && strcmp(name, "block-test") == 0 ? COW_QCMP_BLOCK : COW_QCMP_BOOT;
}

void qcmp_format_bounds(int method, int verdict, double lo_us, double hi_us,
                        char *buf, size_t n)
{
    if (verdict == COW_VERDICT_NA)
        snprintf(buf, n, "-");
    else if (verdict == COW_VERDICT_UNSURE)
        snprintf(buf, n, "cannot tell");
    /* a bound the test proved beyond zero but that rounds to it reads as
     * no change at three decimals ("at least +0.000"): "> 0" says it */
    else if (method != COW_QCMP_BOOT && verdict == COW_VERDICT_LIFT && lo_us < 0.5)
        snprintf(buf, n, "> 0");
    else if (method != COW_QCMP_BOOT && verdict == COW_VERDICT_LIFT)
        snprintf(buf, n, ">= %+.3f", lo_us / 1000.0);
    else if (method != COW_QCMP_BOOT && verdict == COW_VERDICT_DROP && hi_us > -0.5)
        snprintf(buf, n, "< 0");
    else if (method != COW_QCMP_BOOT && verdict == COW_VERDICT_DROP)
        snprintf(buf, n, "<= %+.3f", hi_us / 1000.0);
    else
        snprintf(buf, n, "[%+.3f, %+.3f]", lo_us / 1000.0, hi_us / 1000.0);
}

/* The shift in [lo, hi] where the one-sided test (up: p_up, else p_down)
 * turns from rejecting to not, to 1e-9 relative in at most 50 halvings. */
static double bisect(const cow_group *a, const cow_group *b, const cow_tailplan *plan,
                     double lo, double hi, int up)
{
    cow_tailtest t;
    double mid;
    int i;

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

/* Requirement 7: within [lo, hi], the largest s with p_up(s) <= alpha
 * (up) or the smallest with p_down(s) <= alpha; p_up grows with s and
 * p_down falls. lo rejects (up) / hi rejects (down) by the caller's
 * bracket; NaN when the far end does not reject either. */
static double bound_in(const cow_group *a, const cow_group *b, const cow_tailplan *plan,
                       double lo, double hi, int up)
{
    cow_tailtest t;

    dep_tail_test_plan(a, b, plan, up ? lo : hi, &t);
    if (!(up ? t.p_up <= COW_QCMP_ALPHA_SIDE : t.p_down <= COW_QCMP_ALPHA_SIDE))
        return NAN;
    return bisect(a, b, plan, lo, hi, up);
}

/* Requirement 3: the bound s where the one-sided test just rejects. */
static double invert(const cow_group *a, const cow_group *b,
                     const cow_tailplan *plan, double shift, int up)
{
    double lo = shift, hi;

    hi = b->sorted[b->n - 1] - a->sorted[0];
    if (!up) {
        lo = b->sorted[0] - a->sorted[a->n - 1];
        hi = shift;
    }
    return bisect(a, b, plan, lo, hi, up);
}

int qcmp_level_ci(const double *sorted, size_t n, const cow_clusters *d, double q,
                  double probe_us, cow_qci *out, cow_err *e)
{
    int rc = pct_quantile_ci_m(sorted, n, d->n_eff, q, 0.95, out, e);
    if (rc == COW_OK && d->locked && probe_us > 0) { /* Requirement 6 */
        out->lo -= probe_us;
        out->hi += probe_us;
    } else if (rc == COW_OK && d->locked) {
        out->has_lo = out->has_hi = 0;
        out->lo_rank = out->hi_rank = 0;
        out->lo = -INFINITY;
        out->hi = INFINITY;
    }
    return rc;
}

void qcmp_level_ci_moved(cow_qci *ci, double rel)
{
    double f;

    if (!(rel > 0))
        return;
    f = rel < 1 ? 1.0 / (1.0 - rel) : INFINITY; /* the move's own ratio */
    if (ci->has_lo && ci->lo > 0)
        ci->lo /= f;
    if (ci->has_hi && ci->hi > 0) {
        ci->hi *= f;
        if (!isfinite(ci->hi)) {
            ci->has_hi = 0;
            ci->hi_rank = 0;
        }
    }
}

/* The numbers of a tail-level ? the first rule left undecided: the tail
 * test's counts, then why the block test did not decide (the baseline or
 * window it would need, or the baseline's own stretches it did not pass). */
static void why_tests(const cow_qcmp *d, cow_sbuf *b)
{
    const cow_blocktest *k = &d->block;
    double p = fmin(1.0, 2.0 * fmin(d->test.p_up, d->test.p_down)); /* as analyze prints it */
    if (d->method == COW_QCMP_TAIL)
    {
        double tau = d->test.tau >= 1 ? d->test.tau : 1; /* clustered samples count once */
        sbuf_add(b, "the tail test: %zu vs %zu samples beyond the pooled p%.2f, as %.1f vs "
                    "%.1f independent ones (clusters of %.1f%s), p=%.2g", d->test.ka, d->test.kb,
                 100 * d->test.level, (double)d->test.ka / tau, (double)d->test.kb / tau, tau,
                 d->test.tau_floor ? ", the baseline's own dependence: too few to see them" : "", p);
    }
    else
        sbuf_add(b, "the bootstrap's interval holds %+.3f", d->shift / 1000);
    if (d->q < COW_QCMP_BLOCK_Q)
        return;
    if (!k->ran && k->need_n > k->na && k->need_n == (size_t)COW_BLOCK_STRETCHES * k->nb)
        sbuf_add(b, "; the block test needs a baseline %d times the window's length (%zu "
                    "samples), has %zu", COW_BLOCK_STRETCHES, k->need_n, k->na);
    else if (!k->ran && k->need_n > k->na && k->need_n == (size_t)COW_BLOCK_MIN * k->len)
        sbuf_add(b, "; the block test needs %zu baseline samples (%d blocks of %zu), has %zu",
                 k->need_n, COW_BLOCK_MIN, k->len, k->na);
    else if (!k->ran && k->need_n > k->na)
        sbuf_add(b, "; the block test needs %zu baseline samples to hold %d clusters beyond its "
                    "p%g, has %zu (with %zu)", k->need_n, COW_BLOCK_MIN_CLUSTERS, 100 * d->q,
                 k->na, k->clusters);
    else if (!k->ran && k->need_nb > k->nb)
        sbuf_add(b, "; the block test needs %zu window samples, has %zu", k->need_nb, k->nb);
    else if (!k->ran)
        sbuf_add(b, "; the block test needs %d baseline samples beyond p%g in %d clusters, "
                    "has %zu in %zu", COW_BLOCK_MIN_K, 100 * d->q, COW_BLOCK_MIN_CLUSTERS,
                 k->k_a, k->clusters);
    else if (k->route == COW_BLOCK_ROUTE_STRETCH)
        sbuf_add(b, "; the block test needs %zu baseline samples, has %zu: against the "
                    "baseline's own %zu stretches as long as the window, which reach %.1f%% "
                    "beyond its p%g, the window %.1f%% (stretch p=%.2g)",
                 k->need_n, k->na, k->blocks, 100 * k->span_hi, 100 * d->q,
                 k->nb ? 100.0 * (double)k->k_b / (double)k->nb : 0.0,
                 d->delta >= d->shift ? k->p_up : k->p_down);
    else
        sbuf_add(b, "; the baseline's own stretches as long as the window reach %.1f%% "
                    "beyond its p%g, the window %.1f%% (block p=%.2g)",
                 100 * k->span_hi, 100 * d->q,
                 k->nb ? 100.0 * (double)k->k_b / (double)k->nb : 0.0,
                 d->delta >= d->shift ? k->p_up : k->p_down);
    if (!k->ran && k->nb > 0 && k->na < (size_t)COW_STRETCH_MIN * k->nb)
        sbuf_add(b, "; read against its own stretches as long as the window, it needs a baseline %d times "
                    "the window's length (%zu samples), has %zu", COW_STRETCH_MIN,
                 (size_t)COW_STRETCH_MIN * k->nb, k->na);
}

void qcmp_why_text(const cow_qcmp *d, double probe_s, char *buf, size_t n)
{
    char *s = qcmp_why(d, probe_s);
    snprintf(buf, n, "%s", s ? s : "");
    free(s);
}

char *qcmp_why(const cow_qcmp *d, double probe_s)
{
    cow_sbuf b = {0};
    /* the change itself: a drift's delta was tested against shift + its
     * margin (runstats.c beyond_moved), so its shift is taken back */
    double base = d->why == COW_QCMP_WHY_DRIFT && d->margin > 0 ? d->shift - d->margin : d->shift;
    if (d->verdict != COW_VERDICT_UNSURE)
        return NULL;
    if (d->why == COW_QCMP_WHY_DRIFT && !(d->margin > 0))
        sbuf_add(&b, "%+.3f ms, and no change (~) is said while the baseline moved around the "
                     "window", (d->delta - d->shift) / 1000);
    else if (d->why == COW_QCMP_WHY_DRIFT && fabs(d->delta - base) <= d->margin)
        sbuf_add(&b, "a change of %+.3f ms, within the baseline's own movement of %.3f ms "
                     "around the window", (d->delta - base) / 1000, d->margin / 1000);
    else if (d->why == COW_QCMP_WHY_DRIFT) { /* beyond it as estimated, the test says why not */
        sbuf_add(&b, "%+.3f ms, beyond the baseline's own movement of %.3f ms as estimated "
                     "but not shown to be: ", (d->delta - base) / 1000, d->margin / 1000);
        why_tests(d, &b);
    }
    else if (d->why == COW_QCMP_WHY_LOCAL && d->margin > 0)
        sbuf_add(&b, "%+.3f ms against the baseline before the window, not confirmed beyond "
                     "%.3f ms against the baseline on both sides of it",
                 (d->delta - d->shift) / 1000, d->margin / 1000);
    else if (d->why == COW_QCMP_WHY_LOCAL)
        sbuf_add(&b, "%+.3f ms against the baseline before the window, not confirmed against "
                     "the baseline on both sides of it", (d->delta - d->shift) / 1000);
    else if (d->why == COW_QCMP_WHY_LOCKED && probe_s > 0)
        sbuf_add(&b, "stalls every %.3f s, locked to the probe", d->period * probe_s);
    else if (d->why == COW_QCMP_WHY_LOCKED)
        sbuf_add(&b, "stalls every %.0f samples, locked to the probe", d->period);
    else
        why_tests(d, &b);
    return sbuf_take(&b);
}

static void equivalence(const cow_group *a, const cow_group *b, const cow_tailplan *plan,
                        double shift, const cow_qcmp_margin *mg, cow_qcmp *out)
{
    double rel = mg ? mg->rel : COW_QCMP_MARGIN_REL, m, lo, hi;
    double abs_us = mg ? mg->abs_us : COW_QCMP_MARGIN_ABS_US;

    if (rel < 0 || abs_us < 0 || !isfinite(out->est_a) ||
        (double)(a->n + b->n) * (1.0 - out->q) < COW_TAIL_MIN_K)
        return;
    m = fmax(rel * fabs(out->est_a), abs_us);
    if (!(m > 0))
        return;
    out->margin = m;
    /* the test is cheap to fail: both sides at the margin first */
    lo = bound_in(a, b, plan, shift - m, shift, 1);
    if (isnan(lo))
        return;
    hi = bound_in(a, b, plan, shift, shift + m, 0);
    if (isnan(hi))
        return;
    out->verdict = COW_VERDICT_FLAT;
    out->lo = lo;
    out->hi = hi;
}

static int compute_dep(const cow_group *a, const cow_group *b, double q,
                       const cow_clusters *dep_a, const cow_clusters *dep_b,
                       const double *a_reps, double shift, const cow_qcmp_opts *o,
                       const cow_qcmp_margin *mg, cow_qcmp *out, cow_err *e);

int qcmp_compute_margin(const cow_group *a, const cow_group *b, double q,
                        double shift, const cow_qcmp_opts *o,
                        const cow_qcmp_margin *m, cow_qcmp *out, cow_err *e)
{
    cow_clusters da, db;

    dep_n_eff(a->time, a->sorted, a->n, q, &da); /* Requirement 1 */
    dep_n_eff(b->time, b->sorted, b->n, q, &db);
    return compute_dep(a, b, q, &da, &db, NULL, shift, o, m, out, e);
}

int qcmp_compute(const cow_group *a, const cow_group *b, double q,
                 double shift, const cow_qcmp_opts *o, cow_qcmp *out,
                 cow_err *e)
{
    return qcmp_compute_margin(a, b, q, shift, o, NULL, out, e);
}

/* Requirement 8: b's dependence as a comparison with a reads it. */
static cow_clusters as_compared(const cow_clusters *dep_a, const cow_clusters *dep_b,
                                double q)
{
    cow_clusters d = *dep_b;
    if (q < COW_DEP_BULK && d.n > 0 && dep_a->n > 0 && dep_a->lrv >= 1.0) {
        d.lrv = dep_a->lrv;
        d.n_eff = (double)d.n / dep_a->lrv;
    }
    return d;
}

int qcmp_uses_bootstrap(const cow_clusters *dep_a, const cow_clusters *dep_b, double q)
{
    cow_clusters db = as_compared(dep_a, dep_b, q);
    return fmin(dep_a->n_eff, db.n_eff) * (1.0 - q) >= COW_QCMP_MIN_TAIL &&
           !dep_a->locked && !dep_b->locked; /* Requirement 6 */
}

int qcmp_compute_dep(const cow_group *a, const cow_group *b, double q,
                     const cow_clusters *dep_a, const cow_clusters *dep_b,
                     const double *a_reps, double shift, const cow_qcmp_opts *o,
                     const cow_qcmp_margin *m, cow_qcmp *out, cow_err *e)
{
    return compute_dep(a, b, q, dep_a, dep_b, a_reps, shift, o, m, out, e);
}

/* Requirement 9: where the first rule could not tell at a tail level,
 * the window against the baseline's own blocks; 1 when it decided. */
static int by_blocks(const cow_group *a, const cow_group *b, double q, double run,
                     double shift, cow_qcmp *out)
{
    if (q < COW_QCMP_BLOCK_Q)
        return 0;
    block_test(a, b, q, shift, run, &out->block);
    if (!out->block.ran)
        return 0;
    if (out->block.p_up <= COW_QCMP_ALPHA_SIDE && out->block.above_all && out->delta > shift) {
        out->verdict = COW_VERDICT_LIFT;
        out->lo = block_bound(a, b, q, run, shift, out->delta, COW_QCMP_ALPHA_SIDE);
        if (!(out->lo >= shift && out->lo < out->delta))
            out->lo = shift;
        out->hi = INFINITY;
    } else if (out->block.p_down <= COW_QCMP_ALPHA_SIDE && out->block.below_all &&
               out->delta < shift) {
        out->verdict = COW_VERDICT_DROP;
        out->lo = -INFINITY;
        out->hi = shift;
    } else
        return 0;
    out->method = COW_QCMP_BLOCK;
    out->thin = 1;
    out->p_up = out->block.p_up;
    out->p_down = out->block.p_down;
    return 1;
}

static int compute_dep(const cow_group *a, const cow_group *b, double q,
                       const cow_clusters *dep_a, const cow_clusters *dep_b,
                       const double *a_reps, double shift, const cow_qcmp_opts *o,
                       const cow_qcmp_margin *mg, cow_qcmp *out, cow_err *e)
{
    int rc, boot = qcmp_uses_bootstrap(dep_a, dep_b, q); /* Requirement 2 */
    cow_tailplan plan;

    memset(out, 0, sizeof(*out));
    out->q = q;
    out->shift = shift;
    out->margin = NAN;
    out->na = a->n;
    out->nb = b->n;
    out->dep_a = *dep_a;
    out->dep_b = as_compared(dep_a, dep_b, q); /* Requirement 8 */
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
    if (boot) {
        out->lo = out->boot.delta_lo;
        out->hi = out->boot.delta_hi;
        out->p_up = out->boot.p_up;
        out->p_down = out->boot.p_down;
        out->verdict = out->lo > shift ? COW_VERDICT_LIFT
                     : out->hi < shift ? COW_VERDICT_DROP : COW_VERDICT_FLAT;
        if (out->verdict == COW_VERDICT_FLAT)
            by_blocks(a, b, q, dep_a->run, shift, out); /* Requirement 9 */
    } else {
        out->method = COW_QCMP_TAIL;
        out->thin = 1;
        dep_tail_plan(a->n, b->n, q, &plan);
        dep_tail_test_plan(a, b, &plan, shift, &out->test);
        out->p_up = out->test.p_up;
        out->p_down = out->test.p_down;
        if (out->p_up <= COW_QCMP_ALPHA_SIDE) {
            out->verdict = COW_VERDICT_LIFT;
            out->lo = invert(a, b, &plan, shift, 1);
            if (!(out->lo < out->delta)) /* Requirement 3 */
                out->lo = shift;
            out->hi = INFINITY;
        } else if (out->p_down <= COW_QCMP_ALPHA_SIDE) {
            out->verdict = COW_VERDICT_DROP;
            out->lo = -INFINITY;
            out->hi = invert(a, b, &plan, shift, 0);
            if (!(out->hi > out->delta))
                out->hi = shift;
        } else if (by_blocks(a, b, q, dep_a->run, shift, out)) { /* Requirement 9 */
        } else if (dep_a->locked || dep_b->locked) { /* Requirement 6 */
            out->verdict = COW_VERDICT_UNSURE;
            out->why = COW_QCMP_WHY_LOCKED;
            out->period = dep_a->locked ? dep_a->period : dep_b->period;
        } else {
            out->verdict = COW_VERDICT_UNSURE;
            equivalence(a, b, &plan, shift, mg, out); /* Requirement 7 */
        }
    }
    out->p = fmin(1.0, 2.0 * fmin(out->p_up, out->p_down));
    return COW_OK;
}
