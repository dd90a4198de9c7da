/* fleet.c -- Holm and Benjamini-Hochberg adjusted p-values (fleet.h).
 *
 * With the finite p-values sorted, p(1) <= ... <= p(m):
 *   Holm: adj(i) = max over j <= i of min(1, (m - j + 1) p(j))
 *   BH:   adj(i) = min over j >= i of min(1, m p(j) / j)
 * and a comparison fails when its adjusted value is <= alpha; both are
 * the step-down / step-up procedures written as adjusted p-values
 * (Wright 1992), so the decision does not depend on alpha being fixed
 * in advance.
 *
 * fleet_quantile_p: with tau the variance inflation of the exceedance
 * count at level q (dep.h; under "the quantile is at the limit" that is
 * the dependence that matters, and a limit far below the data would make
 * one cluster of the whole run), the count
 * above the limit over tau is compared with Binomial(n / tau, 1 - q),
 * its upper tail I_{1-q}(x, m - x + 1) taken at real x and m. */
#include "fleet.h"

#include <math.h>
#include <stdlib.h>

#include "mem.h"
#include "pct.h"

double fleet_quantile_p(const double *x_time, const double *sorted, size_t n,
                        double q, double limit, double *n_eff)
{
    cow_clusters d, c;
    double tau, x, m;

    if (n == 0) {
        *n_eff = NAN;
        return NAN;
    }
    dep_n_eff(x_time, sorted, n, q, &d);
    dep_clusters(x_time, n, limit, d.run, &c);
    tau = d.tau;
    *n_eff = (double)n / tau;
    /* the count above the limit in effective samples, against
     * Binomial(n_eff, 1 - q), through the incomplete beta so that both
     * may be fractional */
    x = (double)c.k / tau;
    m = (double)n / tau;
    if (x <= 0)
        return 1.0;
    return pct_betainc(1.0 - q, x, m - x + 1.0);
}

const char *fleet_method_name(int method)
{
    return method == COW_FLEET_BH ? "bh" : method == COW_FLEET_NONE ? "none" : "holm";
}

typedef struct pv {
    double p;
    size_t i;
} pv;

static int cmp_pv(const void *pa, const void *pb)
{
    const pv *a = pa, *b = pb;
    if (a->p != b->p)
        return (a->p > b->p) - (a->p < b->p);
    return (a->i > b->i) - (a->i < b->i);
}

size_t fleet_adjust(const double *p, size_t m, int method, double alpha,
                    double *adj, int *fail)
{
    pv *ix = xmalloc((m ? m : 1) * sizeof(pv));
    size_t k = 0, i;
    double *a = xmalloc((m ? m : 1) * sizeof(double)), run;

    for (i = 0; i < m; i++) {
        a[i] = NAN;
        if (!isnan(p[i])) {
            ix[k].p = p[i];
            ix[k++].i = i;
        }
    }
    qsort(ix, k, sizeof(pv), cmp_pv);
    if (method == COW_FLEET_BH) {
        run = 1.0;
        for (i = k; i-- > 0;) {
            double v = fmin(1.0, (double)k * ix[i].p / (double)(i + 1));
            run = fmin(run, v);
            a[ix[i].i] = run;
        }
    } else {
        run = 0.0;
        for (i = 0; i < k; i++) {
            double v = method == COW_FLEET_NONE
                           ? ix[i].p : fmin(1.0, (double)(k - i) * ix[i].p);
            run = method == COW_FLEET_NONE ? v : fmax(run, v);
            a[ix[i].i] = run;
        }
    }
    for (i = 0; i < m; i++) {
        if (adj)
            adj[i] = a[i];
        if (fail)
            fail[i] = !isnan(a[i]) && a[i] <= alpha;
    }
    free(a);
    free(ix);
    return k;
}
