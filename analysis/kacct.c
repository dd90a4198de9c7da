/* kacct.c -- the kernel's own account of a save window (kacct.h).
 *
 * Requirements:
 *  1. A counter's value at a time is the linear interpolation of the main
 *     thread's two readings around it (readings 50 ms apart while a child
 *     lives, a second otherwise); before the first or after the last
 *     reading it is unknown, and so is the account.
 *  2. The rate before the window runs from the first reading to the
 *     window's start, when that is at least KACCT_BEFORE_MIN_S long; the
 *     excess is the window's amount less rate x length, never below 0.
 *  3. A child counts when it has a reading inside the window (or up to
 *     one reading interval, 1 s, after its end: a save's child outlives
 *     the window by its exit); its last reading stands for its life
 *     (its counters start at its fork), summed over children.
 *  4. Causes are material by the thresholds of kacct.h and ranked by the
 *     main thread's time each took; a tie keeps the order copy-on-write,
 *     CPU, fork.
 *  5. A main-thread counter that falls across the window belongs to
 *     another task (the server restarted): the account is unknown. */
#include "kacct.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

/* The value of the main thread's field at t (requirement 1): NAN when
 * unknown; *line the reading at or after t. */
static double at(const cow_kstat_row *r, size_t n, int64_t t, size_t off, long *line)
{
    const cow_kstat_row *a = NULL, *b = NULL;
    size_t i;
    for (i = 0; i < n; i++) {
        if (r[i].child)
            continue;
        if (r[i].t_us <= t)
            a = &r[i];
        if (r[i].t_us >= t) {
            b = &r[i];
            break;
        }
    }
    if (a == NULL || b == NULL)
        return NAN;
    if (line)
        *line = b->line;
    {
        double va = *(const double *)((const char *)a + off);
        double vb = *(const double *)((const char *)b + off);
        if (b->t_us == a->t_us)
            return vb;
        return va + (vb - va) * (double)(t - a->t_us) / (double)(b->t_us - a->t_us);
    }
}

static double excess(double in, double rate, double len_s)
{
    double x = isnan(rate) ? in : in - rate * len_s;
    return x > 0 ? x : 0;
}

void kacct_window(const cow_kstat_row *r, size_t n, int64_t t0, int64_t t1, cow_kacct *k)
{
    int64_t first = 0;
    size_t i;
    double f0, f1, m0, m1, s0, s1, d0, d1;

    memset(k, 0, sizeof(*k));
    k->minflt_rate0 = k->stime_rate0_ms = k->delay_rate0_ms = NAN;
    k->child_write_bytes = k->child_read_bytes = k->child_cpu_ms = NAN;
    k->delay_ms = NAN;
    if (t1 <= t0)
        return;
    f0 = at(r, n, t0, offsetof(cow_kstat_row, minflt), &k->line0);
    f1 = at(r, n, t1, offsetof(cow_kstat_row, minflt), &k->line1);
    m0 = at(r, n, t0, offsetof(cow_kstat_row, majflt), NULL);
    m1 = at(r, n, t1, offsetof(cow_kstat_row, majflt), NULL);
    s0 = at(r, n, t0, offsetof(cow_kstat_row, stime_us), NULL);
    s1 = at(r, n, t1, offsetof(cow_kstat_row, stime_us), NULL);
    d0 = at(r, n, t0, offsetof(cow_kstat_row, delay_us), NULL);
    d1 = at(r, n, t1, offsetof(cow_kstat_row, delay_us), NULL);
    if (isnan(f0) || isnan(f1) || isnan(s0) || isnan(s1))
        return;
    /* a counter that falls is another task's (a restarted server, a new
     * pid): no account of this window (requirement 5) */
    if (f1 < f0 || s1 < s0 || (!isnan(d0) && !isnan(d1) && d1 < d0))
        return;
    k->known = 1;
    k->win_s = (double)(t1 - t0) / 1e6;
    k->minflt = f1 - f0;
    k->majflt = m1 - m0;
    k->stime_ms = (s1 - s0) / 1000;
    if (!isnan(d0) && !isnan(d1))
        k->delay_ms = (d1 - d0) / 1000;
    for (i = 0; i < n && first == 0; i++)
        if (!r[i].child)
            first = r[i].t_us;
    if (first > 0 && (double)(t0 - first) / 1e6 >= KACCT_BEFORE_MIN_S) {
        double len = (double)(t0 - first) / 1e6;
        double ff = at(r, n, first, offsetof(cow_kstat_row, minflt), NULL);
        double sf = at(r, n, first, offsetof(cow_kstat_row, stime_us), NULL);
        double df = at(r, n, first, offsetof(cow_kstat_row, delay_us), NULL);
        k->has_before = 1;
        k->before_s = len;
        k->minflt_rate0 = (f0 - ff) / len;
        k->stime_rate0_ms = (s0 - sf) / 1000 / len;
        if (!isnan(df) && !isnan(d0))
            k->delay_rate0_ms = (d0 - df) / 1000 / len;
    }
    k->minflt_x = excess(k->minflt, k->minflt_rate0, k->win_s);
    k->stime_x_ms = excess(k->stime_ms, k->stime_rate0_ms, k->win_s);
    k->delay_x_ms = isnan(k->delay_ms) ? NAN : excess(k->delay_ms, k->delay_rate0_ms, k->win_s);

    /* the children (requirement 3): the last reading of each pid seen in
     * the window or within a second after it */
    for (i = 0; i < n; i++) {
        size_t j, last = i;
        int seen = 0;
        if (!r[i].child)
            continue;
        for (j = 0; j < i; j++)
            if (r[j].child && r[j].pid == r[i].pid)
                break;
        if (j < i)
            continue; /* this pid was counted at its first reading */
        for (j = i; j < n; j++) {
            if (!r[j].child || r[j].pid != r[i].pid)
                continue;
            if (r[j].t_us >= t0 && r[j].t_us <= t1 + 1000000)
                seen = 1;
            last = j;
        }
        if (!seen)
            continue;
        if (k->children++ == 0)
            k->child_write_bytes = k->child_read_bytes = k->child_cpu_ms = 0;
        if (!isnan(r[last].write_bytes))
            k->child_write_bytes += r[last].write_bytes;
        if (!isnan(r[last].read_bytes))
            k->child_read_bytes += r[last].read_bytes;
        if (!isnan(r[last].cpu_us))
            k->child_cpu_ms += r[last].cpu_us / 1000;
    }
}

static int cow_material(const cow_kacct *k)
{
    return k->known && k->minflt_x >= KACCT_FAULT_MIN &&
           (!k->has_before || k->minflt / k->win_s >= KACCT_FAULT_RATIO * k->minflt_rate0);
}

static int cpu_material(const cow_kacct *k)
{
    return k->known && !isnan(k->delay_x_ms) && k->delay_x_ms >= KACCT_WAIT_MIN_MS &&
           k->delay_x_ms >= KACCT_WAIT_SHARE * k->win_s * 1000;
}

void kacct_causes(const cow_kacct *k, double fork_ms, cow_kcauses *out)
{
    int i, j;
    memset(out, 0, sizeof(*out));
    if (cow_material(k)) {
        out->kind[out->n] = KC_COW;
        out->ms[out->n++] = k->stime_x_ms;
    }
    if (cpu_material(k)) {
        out->kind[out->n] = KC_CPU;
        out->ms[out->n++] = k->delay_x_ms;
    }
    if (!isnan(fork_ms) && fork_ms >= KACCT_FORK_MIN_MS) {
        out->kind[out->n] = KC_FORK;
        out->ms[out->n++] = fork_ms;
    }
    for (i = 1; i < out->n; i++) /* strongest first, ties in the order above */
        for (j = i; j > 0 && out->ms[j] > out->ms[j - 1]; j--) {
            double m = out->ms[j];
            int t = out->kind[j];
            out->ms[j] = out->ms[j - 1];
            out->kind[j] = out->kind[j - 1];
            out->ms[j - 1] = m;
            out->kind[j - 1] = t;
        }
}

/* 41200 -> "41,200" */
static void grouped(cow_sbuf *b, double v)
{
    char d[32];
    int n, i;
    snprintf(d, sizeof(d), "%.0f", v < 0 ? 0 : v);
    n = (int)strlen(d);
    for (i = 0; i < n; i++) {
        if (i > 0 && (n - i) % 3 == 0)
            sbuf_add(b, ",");
        sbuf_add(b, "%c", d[i]);
    }
}

static void bytes(cow_sbuf *b, double v)
{
    if (v >= 1e9)
        sbuf_add(b, "%.2f GB", v / 1e9);
    else if (v >= 1e6)
        sbuf_add(b, "%.1f MB", v / 1e6);
    else
        sbuf_add(b, "%.0f kB", v / 1e3);
}

static void faults(cow_sbuf *b, const cow_kacct *k)
{
    sbuf_add(b, "the main thread took ");
    grouped(b, k->minflt);
    sbuf_add(b, " minor faults in %.1f s (", k->win_s);
    grouped(b, k->minflt / k->win_s);
    sbuf_add(b, "/s");
    if (k->has_before) {
        sbuf_add(b, ", against ");
        grouped(b, k->minflt_rate0);
        sbuf_add(b, "/s before");
    }
    sbuf_add(b, ") and %.0f ms of system time", k->stime_ms);
    if (k->has_before)
        sbuf_add(b, " (%.0f ms beyond its rate before)", k->stime_x_ms);
}

static void wait(cow_sbuf *b, const cow_kacct *k)
{
    sbuf_add(b, "the main thread waited %.0f ms on the run queue in %.1f s", k->delay_ms,
             k->win_s);
    if (k->has_before && !isnan(k->delay_rate0_ms))
        sbuf_add(b, " (%.0f ms/s, against %.0f ms/s before)", k->delay_ms / k->win_s,
                 k->delay_rate0_ms);
}

char *kacct_faults_text(const cow_kacct *k)
{
    cow_sbuf b = {0};
    if (k->known)
        faults(&b, k);
    return sbuf_take(&b);
}

char *kacct_wait_text(const cow_kacct *k)
{
    cow_sbuf b = {0};
    if (k->known && !isnan(k->delay_ms))
        wait(&b, k);
    return sbuf_take(&b);
}

char *kacct_child_text(const cow_kacct *k)
{
    cow_sbuf b = {0};
    if (!k->known || k->children == 0)
        return NULL;
    sbuf_add(&b, "the fork child%s wrote ", k->children == 1 ? "" : "ren");
    bytes(&b, k->child_write_bytes);
    sbuf_add(&b, " to storage and used %.0f ms of CPU", k->child_cpu_ms);
    return sbuf_take(&b);
}

/* The strongest cause in full (first), the others short. */
static void one(cow_sbuf *b, int kind, const cow_kacct *k, double fork_ms, int first,
                int fork_worst)
{
    switch (kind) {
    case KC_COW:
        if (first) {
            sbuf_add(b, "copy-on-write: ");
            faults(b, k);
            return;
        }
        sbuf_add(b, "copy-on-write, ");
        grouped(b, k->minflt);
        sbuf_add(b, " minor faults");
        if (k->has_before) {
            sbuf_add(b, " (");
            grouped(b, k->minflt / k->win_s);
            sbuf_add(b, "/s against ");
            grouped(b, k->minflt_rate0);
            sbuf_add(b, "/s before)");
        }
        return;
    case KC_CPU:
        if (first) {
            sbuf_add(b, "CPU contention: ");
            wait(b, k);
            return;
        }
        sbuf_add(b, "CPU contention, %.0f ms on the run queue", k->delay_ms);
        if (k->has_before && !isnan(k->delay_rate0_ms))
            sbuf_add(b, " (%.0f ms/s against %.0f ms/s before)", k->delay_ms / k->win_s,
                     k->delay_rate0_ms);
        return;
    default:
        sbuf_add(b, first ? "the fork: it took %.1f ms" : "the fork, %.1f ms", fork_ms);
        if (fork_worst)
            sbuf_add(b, ", which the run's worst sample waited out");
        return;
    }
}

char *kacct_cause_text(const cow_kacct *k, double fork_ms, int fork_worst)
{
    cow_kcauses c;
    cow_sbuf b = {0};
    int i;
    kacct_causes(k, fork_ms, &c);
    if (c.n == 0 || c.kind[0] == KC_FORK)
        return NULL; /* the fork alone: the fork findings say it */
    one(&b, c.kind[0], k, fork_ms, 1, fork_worst);
    for (i = 1; i < c.n; i++) {
        sbuf_add(&b, i == 1 ? "; also " : "; ");
        one(&b, c.kind[i], k, fork_ms, 0, fork_worst);
    }
    return sbuf_take(&b);
}
