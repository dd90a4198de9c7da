/* edges.c -- which samples a window holds, measured: a run of timed
 * probes (send time and latency, as latency.csv gives them) cut into
 * baseline, window and after by time, each phase's samples assigned by
 * three rules, then judged as analyze judges a window (runstats_drift,
 * runstats_compare_window):
 *
 *     edges [--reps N] [--resamples R] [--seed S] [--quick]
 *
 *   overlap     the rule before: [send, send + latency) overlaps the
 *               window (both edges' requests in flight are the window's)
 *   send        send time in the phase (analyze --assign send)
 *   completion  send + latency in the phase: phase_keep_in_flight, the
 *               code analyze, report and check use (phase.h)
 *
 * The probe is cowtail capture's (cap_probe.c Requirement 1): one
 * request at a time on a 2 ms grid, a late reply makes the next request
 * go as soon as it arrives. Cells: a Pareto alpha 1.2 body, smallest
 * latency 100 us and 250 us (null: false lift + drop) and a lognormal body with 10 ms stalls in the
 * window only (power: lift). Fixed seeds: the output is reproducible. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "phase.h"
#include "rng.h"
#include "runstats.h"
#include "verdict.h"

#define PROBE_US 2000.0
#define MU 5.298317366548036 /* log(200 us): median 0.2 ms */
#define SIGMA 0.5

enum rule { RULE_OVERLAP, RULE_SEND, RULE_COMPLETION, NRULES };
static const char *const rule_name[NRULES] = {"overlap (before)", "send", "completion"};
enum proc { P_PARETO12, P_STALL, NPROCS };
static const char *const proc_name[NPROCS] = {"pareto-1.2 (null)",
                                              "lognormal + 10 ms stalls in the window"};

static const struct cell {
    int p;
    size_t na, nb;
    double scale;  /* Pareto: the smallest latency (us) */
    double stall;  /* share of the window's probes that meet a stall */
} cells[] = {
    {P_PARETO12, 3000, 1500, 100, 0},
    {P_PARETO12, 3000, 1500, 250, 0},
    {P_STALL, 5000, 5000, 0, 0.002},
    {P_STALL, 1503, 691, 0, 0.01},
};
static const double levels[3] = {0.5, 0.99, 0.999};

/* One run: n probes, send times t (us) and latencies lat. */
static void gen(cow_rng *r, const struct cell *c, size_t n, int64_t *t, double *lat)
{
    double done = 0;
    size_t i;

    for (i = 0; i < n; i++) {
        double slot = (double)i * PROBE_US, send = slot > done ? slot : done, x;
        if (c->p == P_PARETO12) {
            x = c->scale * pow(rng_uniform(r), -1.0 / 1.2);
        } else {
            x = exp(MU + SIGMA * rng_normal(r));
            if (i >= c->na && i < c->na + c->nb && rng_uniform(r) < c->stall)
                x += 10000.0 * exp(0.3 * rng_normal(r));
        }
        t[i] = (int64_t)floor(send);
        lat[i] = x;
        done = (double)t[i] + x;
    }
}

static int overlaps(int64_t t, double lat, int64_t t0, int64_t t1)
{
    return t < t1 && (t >= t0 || (double)(t0 - t) < lat);
}

/* Phase i's latencies by rule into out (time order); how many. */
static size_t assign(int rule, const cow_phases *ph, size_t i, const int64_t *t,
                     const double *lat, size_t n, double *out)
{
    const cow_phase *p = &ph->v[i];
    size_t k, m = 0;

    if (rule == RULE_COMPLETION) {
        memcpy(out, lat, n * sizeof(double));
        return phase_keep_in_flight(ph, i, t, out, n);
    }
    for (k = 0; k < n; k++) {
        int in;
        if (rule == RULE_SEND)
            in = t[k] >= p->t0_us && t[k] < p->t1_us;
        else if (phase_is_window(p->kind))
            in = overlaps(t[k], lat[k], p->t0_us, p->t1_us);
        else
            in = t[k] >= p->t0_us && t[k] < p->t1_us &&
                 !overlaps(t[k], lat[k], ph->v[1].t0_us, ph->v[1].t1_us);
        if (in)
            out[m++] = lat[k];
    }
    return m;
}

typedef struct tally {
    long reps, lift, drop;
} tally;

static double pc(long k, long n) { return n ? 100.0 * (double)k / (double)n : NAN; }
static double se(long k, long n)
{
    double p = n ? (double)k / (double)n : 0;
    return n ? 100.0 * sqrt(p * (1 - p) / (double)n) : NAN;
}

int main(int argc, char **argv)
{
    int reps = 1000, resamples = 999, quick = 0, rep, li, ru;
    uint64_t seed = 20261203;
    size_t ci, nc = sizeof(cells) / sizeof(cells[0]);
    clock_t c0 = clock();

    for (li = 1; li < argc; li++) {
        if (strcmp(argv[li], "--reps") == 0 && li + 1 < argc)
            reps = atoi(argv[++li]);
        else if (strcmp(argv[li], "--resamples") == 0 && li + 1 < argc)
            resamples = atoi(argv[++li]);
        else if (strcmp(argv[li], "--seed") == 0 && li + 1 < argc)
            seed = strtoull(argv[++li], NULL, 10);
        else if (strcmp(argv[li], "--quick") == 0)
            quick = 1;
        else {
            fprintf(stderr, "usage: edges [--reps N] [--resamples R] [--seed S] [--quick]\n");
            return 2;
        }
    }
    if (reps < 1 || resamples < 1) {
        fprintf(stderr, "edges: --reps and --resamples must be positive\n");
        return 2;
    }
    printf("edges: %d reps per cell, R = %d, seed %llu\n\n", reps, resamples,
           (unsigned long long)seed);
    printf("| process | scale us | n_base | n_window | rule | q | reps | lift %% | drop %% |"
           " false or power %% ± se |\n|---|---:|---:|---:|---|---:|---:|---:|---:|---:|\n");
    for (ci = 0; ci < nc; ci++) {
        const struct cell *c = &cells[ci];
        size_t nf = c->na < 5000 ? c->na : 5000, n = c->na + c->nb + nf;
        int64_t *t = malloc(n * sizeof(int64_t));
        double *lat = malloc(n * sizeof(double)), *buf[3][2];
        tally x[NRULES][3];
        cow_phase v[3];
        cow_phases ph = {v, 3, 3};
        cow_rng r;
        int k;

        if (quick && ci > 0)
            break;
        memset(x, 0, sizeof(x));
        for (k = 0; k < 3; k++) {
            buf[k][0] = malloc(n * sizeof(double));
            buf[k][1] = malloc(n * sizeof(double));
        }
        rng_seed(&r, seed, 100 + ci);
        for (rep = 0; rep < reps; rep++) {
            gen(&r, c, n, t, lat);
            memset(v, 0, sizeof(v));
            v[0].kind = COW_PHASE_BASELINE;
            v[0].t0_us = t[0];
            v[0].t1_us = (int64_t)((double)c->na * PROBE_US);
            v[1].kind = COW_PHASE_BGSAVE;
            v[1].t0_us = v[0].t1_us;
            v[1].t1_us = (int64_t)((double)(c->na + c->nb) * PROBE_US);
            v[2].kind = COW_PHASE_AFTER;
            v[2].t0_us = v[1].t1_us;
            v[2].t1_us = t[n - 1] + 1;
            for (ru = 0; ru < NRULES; ru++) {
                static const double dq[COW_DRIFT_NLEVELS] = {0.5, 0.99};
                cow_group g[3];
                cow_qcmp_opts qo = {resamples, seed + (uint64_t)rep, COW_PCT_LINEAR};
                cow_err e = COW_ERR_INIT;
                cow_drift d;
                for (k = 0; k < 3; k++) {
                    size_t m = assign(ru, &ph, (size_t)k, t, lat, n, buf[k][0]);
                    memcpy(buf[k][1], buf[k][0], m * sizeof(double));
                    runstats_sort(buf[k][1], m);
                    g[k].time = buf[k][0];
                    g[k].sorted = buf[k][1];
                    g[k].n = m;
                }
                memset(&d, 0, sizeof(d));
                runstats_drift(&g[0], &g[2], dq, COW_DRIFT_NLEVELS, NULL, &qo, &d, &e);
                for (li = 0; li < 3; li++) {
                    cow_qcmp q;
                    int local = 0;
                    runstats_compare_window(&g[0], &g[1], &g[2], &d, levels[li], 0.0, &qo,
                                            NULL, &q, &local, &e);
                    x[ru][li].reps++;
                    x[ru][li].lift += q.verdict == COW_VERDICT_LIFT;
                    x[ru][li].drop += q.verdict == COW_VERDICT_DROP;
                }
            }
        }
        for (ru = 0; ru < NRULES; ru++)
            for (li = 0; li < 3; li++) {
                tally *y = &x[ru][li];
                long f = c->p == P_PARETO12 ? y->lift + y->drop : y->lift;
                printf("| %s | %g | %zu | %zu | %s | %g | %ld | %.1f | %.1f | %.1f ± %.1f |\n",
                       proc_name[c->p], c->scale, c->na, c->nb, rule_name[ru], levels[li], y->reps,
                       pc(y->lift, y->reps), pc(y->drop, y->reps), pc(f, y->reps),
                       se(f, y->reps));
            }
        fflush(stdout);
        for (k = 0; k < 3; k++) {
            free(buf[k][0]);
            free(buf[k][1]);
        }
        free(t);
        free(lat);
    }
    printf("\ncpu %.1f s\n", (double)(clock() - c0) / CLOCKS_PER_SEC);
    return 0;
}
