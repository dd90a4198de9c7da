/* fleet.c -- Holm and Benjamini-Hochberg adjusted p-values (fleet.h).
 *
 * With the finite p-values sorted, p(1) <= ... <= p(m):
 *   Holm: adj(i) = max over j <= i of min(1, (m - j + 1) p(j))
 *   BH:   adj(i) = min over j >= i of min(1, m p(j) / j)
 * and a comparison fails when its adjusted value is <= alpha; both are
 * the step-down / step-up procedures written as adjusted p-values
 * (Wright 1992), so the decision does not depend on alpha being fixed
 * in advance. */
#include "fleet.h"

#include <math.h>
#include <stdlib.h>

#include "mem.h"

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
