/* verdict.h -- one quantile of a phase against its baseline, decided with
 * a stated error rate: the dependence-aware bootstrap interval where it is
 * calibrated, the exact cluster-count tail test where it is not.
 *
 *     cow_group a = {base_time, base_sorted, na}, b = {...};
 *     cow_qcmp c;
 *     if (qcmp_compute(&a, &b, 0.999, 0.0, &opts, &c, e)) return e->code;
 *     c.verdict (lift / ~ / drop / ?), c.method, c.delta, c.lo, c.hi,
 *     c.dep_a.n_eff, c.p_up ...
 *
 * The rule (numbers from bench/calibration, see bench/README.md): the
 * bootstrap interval (boot.h, with each group's n_eff from dep.h) is used
 * when both groups have n_eff (1 - q) >= COW_QCMP_MIN_TAIL; its verdict is
 * lift / drop when the 95% interval excludes the shift, `~` otherwise.
 * (20: the measured boundary; below it the type-7 tail estimate's bias and
 * the bootstrap's blindness beyond each group's maximum break coverage.)
 * Below that the verdict is the two one-sided tail tests of dep.h at
 * 2.5% each: lift or drop with a one-sided bound; `~` when both bounds
 * of the delta (the tests inverted) lie within the materiality margin
 * (equivalence, two one-sided tests); else `?` ("cannot tell with this
 * many samples"). Pure; allocates only scratch. */
#ifndef COW_ANALYSIS_VERDICT_H
#define COW_ANALYSIS_VERDICT_H

#include <stddef.h>
#include <stdint.h>

#include "blocktest.h"
#include "boot.h"
#include "dep.h"
#include "err.h"
#include "pct.h"

/* Effective samples expected beyond q, in each group, for the interval. */
#define COW_QCMP_MIN_TAIL 20.0
/* Each one-sided test's level (two-sided 5%). */
#define COW_QCMP_ALPHA_SIDE COW_TAIL_ALPHA

enum cow_qcmp_method {
    COW_QCMP_BOOT = 0,  /* dependence-aware percentile bootstrap */
    COW_QCMP_TAIL,      /* exact cluster-count tail test */
    COW_QCMP_BLOCK      /* the window against the baseline's own blocks
                           (blocktest.h): a sustained tail shift */
};

/* Levels from which the block test is tried where the others could not
 * tell (Requirement 9). */
#define COW_QCMP_BLOCK_Q 0.9

/* The tail test's materiality margin (Requirement 7): a change smaller
 * than max(COW_QCMP_MARGIN_REL x the baseline's value, the absolute
 * margin) is not material. */
#define COW_QCMP_MARGIN_REL 0.25
#define COW_QCMP_MARGIN_ABS_US 50.0

typedef struct cow_qcmp_opts {
    int resamples;      /* bootstrap R */
    uint64_t seed;      /* bootstrap seed */
    int method;         /* enum cow_pct_method of the point estimates */
} cow_qcmp_opts;

/* A materiality margin other than the defaults (qcmp_compute_margin). */
typedef struct cow_qcmp_margin {
    double rel;         /* share of the baseline's value; negative: no
                           equivalence (the tail test never says ~) */
    double abs_us;      /* in us */
} cow_qcmp_margin;

typedef struct cow_qcmp {
    double q;           /* level */
    double shift;       /* the delta tested against (0: any change) */
    size_t na, nb;      /* samples */
    cow_clusters dep_a; /* dependence of a at q: dep_a.n_eff */
    cow_clusters dep_b; /* same for b */
    int method;         /* enum cow_qcmp_method that decided */
    cow_boot_result boot; /* bootstrap: estimates and ratio always; its
                           intervals only when method == COW_QCMP_BOOT */
    cow_tailtest test;  /* tail test (method == COW_QCMP_TAIL only) */
    cow_blocktest block;/* the block test, when it was tried (q >=
                           COW_QCMP_BLOCK_Q and the first rule could not
                           tell): block.ran 0 with block.need_n > 0 says
                           how long a baseline it needed */
    double est_a, est_b;/* point estimates by opts.method */
    double delta;       /* est_b - est_a */
    double lo, hi;      /* BOOT: 95% interval; TAIL: one-sided bound (lo
                           for lift, hi for drop, the other infinite);
                           NaN when the verdict is ? or n/a */
    double p_up;        /* one-sided p-value of delta > shift */
    double p_down;      /* one-sided p-value of delta < shift */
    double p;           /* two-sided: min(1, 2 min(p_up, p_down)) */
    int verdict;        /* enum cow_verdict */
    int thin;           /* decided by a test, not an interval */
    double margin;      /* TAIL: the materiality margin used (us); a ~
                           from the tail test has lo and hi within
                           shift -+ margin (Requirement 7); NaN: none */
    int why;            /* enum cow_qcmp_why: a ? decided before any test */
    double period;      /* COW_QCMP_WHY_LOCKED: the stalls' period in
                           samples (dep.h cow_clusters.period) */
} cow_qcmp;

enum cow_qcmp_why {
    COW_QCMP_WHY_NONE = 0,
    COW_QCMP_WHY_LOCKED,  /* stalls recur locked to the probe (dep.c
                             Requirement 6): no interval, verdict ? */
    COW_QCMP_WHY_DRIFT,   /* the baseline moved around the window by more
                             than the change (runstats.h Requirement 7) */
    COW_QCMP_WHY_LOCAL    /* a lift or drop against the baseline before the
                             window that the baseline on both sides of it
                             did not confirm (runstats.h Requirement 7a) */
};

/* The distribution-free interval of one phase's quantile q as analyze
 * prints it: pct_quantile_ci_m with d's n_eff; when d says the stalls
 * are locked to the probe (Requirement 6), widened by probe_us (the
 * samples' spacing in time) on both sides, or without any bound when
 * probe_us <= 0 (not known). */
int qcmp_level_ci(const double *sorted, size_t n, const cow_clusters *d, double q,
                  double probe_us, cow_qci *out, cow_err *e);

/* An interval of a phase whose baseline moved around it by rel (its
 * largest move relative to the larger value, runstats.h Requirement 7b)
 * widened by that move's own ratio f = 1 / (1 - rel) on both sides: lo /
 * f, hi x f (no upper bound when rel >= 1). rel <= 0: unchanged. */
void qcmp_level_ci_moved(cow_qci *ci, double rel);

/* Why d is ?, with the numbers the deciding rule compared ("" when d is
 * not ?): COW_QCMP_WHY_LOCKED "stalls every 0.500 s, locked to the probe"
 * (probe_s: the samples' spacing, <= 0 not known: the period in samples);
 * COW_QCMP_WHY_DRIFT "a change of +0.200 ms, within the baseline's own
 * movement of 0.370 ms around the window", or "+23.005 ms, beyond the
 * baseline's own movement of 9.100 ms as estimated but not shown to be:
 * the tail test: ..." (the test of the change beyond it, as below);
 * COW_QCMP_WHY_LOCAL "+2.310 ms against the baseline before the window,
 * not confirmed against the baseline on both sides of it";
 * otherwise the tail test's counts and why the block test did not decide
 * ("the tail test: 0 vs 18 samples beyond the pooled p98.61, p=1; the
 * block test needs 5000 baseline samples (20 blocks of 250), has 501"). */
void qcmp_why_text(const cow_qcmp *d, double probe_s, char *buf, size_t n);
/* The same, whole (caller frees); NULL when the verdict is not ? or out
 * of memory. */
char *qcmp_why(const cow_qcmp *d, double probe_s);

int qcmp_compute(const cow_group *a, const cow_group *b, double q,
                 double shift, const cow_qcmp_opts *o, cow_qcmp *out,
                 cow_err *e);

/* qcmp_compute with the materiality margin m (NULL: the defaults), as a
 * thresholds file may set it. */
int qcmp_compute_margin(const cow_group *a, const cow_group *b, double q,
                        double shift, const cow_qcmp_opts *o,
                        const cow_qcmp_margin *m, cow_qcmp *out, cow_err *e);

/* qcmp_compute_margin with each group's dependence at q already known
 * (what dep_n_eff(.., q, ..) gave for that group), as runstats has it,
 * and a's bootstrap replicates at q when it has them
 * (boot_group_replicates with dep_a->n_eff and R = o->resamples; NULL:
 * drawn from o->seed). */
int qcmp_compute_dep(const cow_group *a, const cow_group *b, double q,
                     const cow_clusters *dep_a, const cow_clusters *dep_b,
                     const double *a_reps, double shift, const cow_qcmp_opts *o,
                     const cow_qcmp_margin *m, cow_qcmp *out, cow_err *e);
/* 1 when qcmp_compute_dep decides by the bootstrap (and reads a_reps):
 * both groups' n_eff (1 - q) >= COW_QCMP_MIN_TAIL (Requirement 2). */
int qcmp_uses_bootstrap(const cow_clusters *dep_a, const cow_clusters *dep_b, double q);

/* The delta's bounds as printed, in ms from us: "[+0.010, +0.200]" for
 * an interval, ">= +0.420" / "<= -0.100" for a tail-test lift / drop,
 * "cannot tell" for ?, "-" for n/a. */
void qcmp_format_bounds(int method, int verdict, double lo_us, double hi_us,
                        char *buf, size_t n);

/* enum cow_qcmp_method from its name (NULL or unknown: bootstrap) */
int qcmp_method_of(const char *name);

/* "bootstrap" / "tail-test" */
const char *qcmp_method_name(int m);

#endif
