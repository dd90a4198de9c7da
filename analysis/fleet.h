/* fleet.h -- multiplicity control over a fleet gate's comparisons.
 *
 *     double p[m] = {...};  int fail[m];  double adj[m];
 *     size_t fam = fleet_adjust(p, m, COW_FLEET_HOLM, 0.05, adj, fail);
 *
 * Holm (1979) controls the family-wise error rate: the chance that any
 * healthy comparison fails is at most alpha, whatever their number and
 * dependence. Benjamini-Hochberg (1995) controls the false discovery
 * rate (expected share of failures that are false) under independence or
 * positive dependence; it fails more and is meant for large fleets where
 * some failures are expected. NaN p-values (no test) are left out of the
 * family: adj NaN, fail 0. Pure. */
#ifndef COW_ANALYSIS_FLEET_H
#define COW_ANALYSIS_FLEET_H

#include <stddef.h>

#include "dep.h"

enum cow_fleet_method {
    COW_FLEET_HOLM = 0, /* family-wise error (default of `check`) */
    COW_FLEET_BH,       /* false discovery rate (--fdr) */
    COW_FLEET_NONE      /* each comparison alone (documentation, tests) */
};

/* Adjusted p-values into adj (may be NULL) and fail[i] = adj <= alpha.
 * Returns the number of comparisons in the family (finite p). */
size_t fleet_adjust(const double *p, size_t m, int method, double alpha,
                    double *adj, int *fail);

/* One-sided p-value that quantile q of a run exceeds limit: the samples
 * above limit, counted in clusters (dep.h), against Binomial(n_eff, 1-q):
 * under "the quantile is at most limit" at most a share 1 - q lies above.
 * x_time in time order, sorted the same values; NaN when n == 0. */
double fleet_quantile_p(const double *x_time, const double *sorted, size_t n,
                        double q, double limit, double *n_eff);

/* "holm", "bh", "none" */
const char *fleet_method_name(int method);

#endif
