/* timeline_bench.c -- the timeline chart of a 10,000,000-sample run, from
 * samples in memory to a PNG: the part of `cowtail report` beyond reading
 * the samples. Prints the median of RUNS runs of the reduction and of the
 * whole chart (reduce + layout + draw + write).
 *
 *     timeline_bench [N] [RUNS] [OUT.png]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chart_data.h"
#include "chart_layout.h"
#include "mem.h"
#include "png.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? (size_t)atol(argv[1]) : 10000000u, i;
    int runs = argc > 2 ? atoi(argv[2]) : 5, r;
    const char *out = argc > 3 ? argv[3] : "timeline_bench.png";
    int64_t *t = xmalloc(n * sizeof(int64_t));
    double *lat = xmalloc(n * sizeof(double));
    double *red_s = xmalloc((size_t)runs * sizeof(double));
    double *all_s = xmalloc((size_t)runs * sizeof(double));
    uint64_t x = 88172645463325252ull;
    cow_err e = COW_ERR_INIT;

    /* a 2 ms probe over n samples with a save window in the middle */
    for (i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        t[i] = INT64_C(1738591331000000) + (int64_t)i * 2000;
        lat[i] = 80 + (double)(x % 300) + ((x >> 20) % 1000 == 0 ? 5000 : 0);
        if (i > n / 2 && i < n / 2 + n / 50 && (x >> 40) % 50 == 0)
            lat[i] += 20000;
    }
    for (r = 0; r < runs; r++) {
        cow_reduce_opts ro;
        cow_colred red;
        cow_chart *c;
        cow_style st;
        double t0 = now_s(), t1;
        memset(&ro, 0, sizeof(ro));
        ro.q = 0.99;
        ro.min_n = 300;
        if (chart_reduce_columns(t, lat, n, t[0], t[n - 1] + 1, 1400, &ro, &red, &e)) {
            fprintf(stderr, "reduce: %s\n", e.msg);
            return 1;
        }
        t1 = now_s();
        c = chart_new("Latency over time: bench");
        chart_axis_set(&c->x, COW_AXIS_TIME, "time", "s");
        c->x.origin_us = t[0];
        chart_axis_set(&c->y, COW_AXIS_LINEAR, "latency", "us");
        chart_add_band(c, "min-max", red.t_s, red.min_us, red.max_us, red.ncol);
        chart_add_line(c, "rolling p99", red.t_s, red.q_us, red.ncol);
        chart_add_span(c, (double)(n / 2) * 0.002, (double)(n / 2 + n / 50) * 0.002, "BGSAVE");
        chart_style_defaults(&st, 1);
        if (chart_write_png(c, &st, out, 1600, 900, &e)) {
            fprintf(stderr, "png: %s\n", e.msg);
            return 1;
        }
        chart_free(c);
        chart_colred_release(&red);
        red_s[r] = t1 - t0;
        all_s[r] = now_s() - t0;
    }
    qsort(red_s, (size_t)runs, sizeof(double), cmp);
    qsort(all_s, (size_t)runs, sizeof(double), cmp);
    printf("timeline of %zu samples: reduce %.3f s, reduce+layout+draw+PNG %.3f s "
           "(median of %d)\n", n, red_s[runs / 2], all_s[runs / 2], runs);
    free(t);
    free(lat);
    free(red_s);
    free(all_s);
    return 0;
}
