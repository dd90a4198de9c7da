/* diag_rules_lift.c -- the doctor's rules on the lift itself (the tail
 * alone or the whole distribution, a thin tail), on whether the fork call
 * is the cost, on controls and on the built-in latency monitor. Listed in
 * diag_rules.c's table. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "boot.h"
#include "diag_rules_int.h"
#include "verdict.h"

/* Redis's own LATENCY DOCTOR bands for fork rate = used_memory / fork
 * time: below 10 GB/s "terrible", below 25 "poor" (latency.c). */
#define FORK_RATE_TERRIBLE_GBS 10.0
#define FORK_RATE_POOR_GBS 25.0
/* The fork call is "not the cost" when the tail lift is at least this many
 * times the fork time (seed 000: 1.7 ms fork, 8 ms lift). */
#define FORK_VS_LIFT_FACTOR 2.0

/* ----------------------------------------------------------- the lift */

int rule_tail_only_lift(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    const cow_window_fact *w = &r[i].worst;
    int l;
    (void)n;
    if (!diag_lifted(w) || diag_median_moved(w))
        return 0;
    l = diag_lift_level(w);
    {
        char ci[48], ci50[48];
        qcmp_format_bounds(w->method[l], w->verdict[l], w->lo_us[l], w->hi_us[l], ci,
                           sizeof(ci));
        qcmp_format_bounds(w->method[L50], w->verdict[L50], w->lo_us[L50], w->hi_us[L50],
                           ci50, sizeof(ci50));
        /* "p50 did not move" only when p50's own interval says so: a
         * significant rise whose lower bound is a material share of the
         * baseline p50 is a move, however small next to the tail's */
        if (diag_median_material(w))
            diag_title(f, "%s rose %.3f ms (95%%: %s) during %s; p50 rose too, but far "
                       "less (%+.3f ms, 95%%: %s)", diag_level_name[l], w->delta_us[l] / 1000, ci,
                       w->label, w->delta_us[L50] / 1000, ci50);
        else
            diag_title(f, "%s rose %.3f ms (95%%: %s) during %s while p50 did not move "
                       "materially (%+.3f ms, 95%%: %s)", diag_level_name[l], w->delta_us[l] / 1000,
                       ci, w->label, w->delta_us[L50] / 1000, ci50);
    }
    diag_delta_evidence(f, w, L50);
    diag_delta_evidence(f, w, L99);
    diag_delta_evidence(f, w, L999);
    diag_advice(f,
             "averages and p50 hide this: put p99.9 next to fork/save/sync events "
             "on the dashboard; the other findings say which cause the evidence "
             "supports");
    return 1;
}

int rule_full_lift(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    const cow_window_fact *w = &r[i].worst;
    (void)n;
    if (!diag_lifted(w) || !diag_median_moved(w))
        return 0;
    diag_title(f,
             "the whole distribution moved during %s: p50 %+.3f ms, p99 %+.3f ms, "
             "p99.9 %+.3f ms", w->label, w->delta_us[L50] / 1000,
             w->delta_us[L99] / 1000, w->delta_us[L999] / 1000);
    diag_delta_evidence(f, w, L50);
    diag_delta_evidence(f, w, L999);
    diag_advice(f,
             "a median that moves points at contention for CPU or disk (the "
             "child competes with the server for cores and I/O), not only at "
             "copy-on-write faults: check CPU steal and disk utilisation during "
             "the save, and pin the server away from the child if you can");
    return 1;
}

/* No samples, only a benchmark tool's p99.9: thin when the tool says it
 * came from fewer requests than a two-sided interval would need. */
static int thin_reported(const cow_run_facts *r, cow_finding *f)
{
    if (r->samples > 0 || !r->reported_p999.known || r->reported_n <= 0 ||
        r->reported_n >= 3688)
        return 0;
    diag_title(f,
             "the benchmark tool's p99.9 (%s) comes from %lld requests: with fewer "
             "than 3,688 it is close to the maximum, not a stable tail figure",
             r->reported_p999.text, (long long)r->reported_n);
    diag_fact(f, "reported p99.9", &r->reported_p999);
    diag_evidence(f, "requests behind it", r->reported_p999.src, "%lld",
                  (long long)r->reported_n);
    diag_advice(f,
             "run the benchmark longer (or at a higher rate) so that the p99.9 "
             "rests on at least 3,688 requests per phase, or capture per-request "
             "latencies");
    return 1;
}

int rule_thin_tail(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    (void)n;
    if (!r[i].worst.present || !r[i].thin_p999)
        return thin_reported(&r[i], f);
    diag_title(f,
             "p99.9 rests on %lld baseline and %lld window samples (%.0f, %.0f "
             "effective): below 3,688 effective, no finite 95%% bound%s",
             (long long)r[i].base_n, (long long)r[i].worst.n,
             r[i].worst.n_eff_base[L999], r[i].worst.n_eff[L999],
             r[i].base_n < 1000 || r[i].worst.n < 1000
                 ? "; below 1,000, an interpolation of the two largest" : "");
    diag_evidence(f, "baseline samples", "analysis", "%lld", (long long)r[i].base_n);
    diag_evidence(f, "window samples", "analysis", "%lld", (long long)r[i].worst.n);
    diag_evidence(f, "effective samples (baseline, window)", "analysis", "%.0f, %.0f",
                  r[i].worst.n_eff_base[L999], r[i].worst.n_eff[L999]);
    diag_delta_stat(f, &r[i].worst, L999);
    diag_advice(f,
             "the p99.9 verdict is the exact tail test's (lift/drop wrong at most 5%% "
             "of the time, ? when it cannot tell); read the maximum and the "
             "exceedance counts too, or capture longer / probe faster: serially "
             "dependent samples need more than 3,688 to carry 3,688 effective ones");
    return 1;
}

/* ----------------------------------------------------------- fork cost */

/* The fork is not the cost when the tail rose by more than the fork could
 * explain (FORK_VS_LIFT_FACTOR times its duration), or when the fork was
 * too short to stall anyone (under FORK_STALL_MIN_US, fork_is_the_cost's
 * own floor) and the tail rose by more than the fork lasted: one rule, so
 * runs with the same evidence get the same cause (a 4.1 ms fork under a
 * 7.3 ms lift and a 4.6 ms fork under 9.7 ms alike). A rise no larger than
 * the fork (5.1 ms under 1.7 ms) the fork alone can make: a request sent
 * as it began waits it out, and p99.9 of 700 samples is one of them. */
#define FORK_STALL_MIN_US 10000.0   /* a fork shorter than 10 ms stalls no one */

/* The fork's stall explains a window's excess only when the slowness ends
 * with it: FORK_OUTLAST_MIN_N samples or more sent after the fork ended as
 * slow as its stall (half of it), more than twice those that waited it
 * out, over FORK_OUTLAST_MIN_US or more after it, are not the fork's (a
 * 49.9 ms fork followed by 7 s of 40-85 ms medians). */
#define FORK_OUTLAST_MIN_N 10
#define FORK_OUTLAST_MIN_US 1000000.0

static int slowness_outlasts_fork(const cow_run_facts *x)
{
    return x->fork_inflight && x->fork_dur_us >= FORK_STALL_MIN_US &&
           x->fork_after_n >= FORK_OUTLAST_MIN_N &&
           x->fork_after_n > 2 * x->fork_inflight_n &&
           x->fork_after_span_us >= FORK_OUTLAST_MIN_US;
}

int rule_slowness_outlasts_fork(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    const cow_run_facts *x = &r[i];
    const cow_window_fact *w = &x->worst;
    (void)n;
    if (!slowness_outlasts_fork(x))
        return 0;
    char p50[96] = "";
    if (w->present && !isnan(w->value_us[0]) && !isnan(w->base_us[0]))
        snprintf(p50, sizeof(p50), " (the window's p50 %.3f ms, the baseline's %.3f ms)",
                 w->value_us[0] / 1000, w->base_us[0] / 1000);
    diag_title(f, "the slowness outlasts the fork: the fork of %s took %.1f ms, and %lld "
               "samples sent after it ended took %.3f ms or more, the last %.1f s after "
               "it%s: the fork itself is not the cost (it is also there: %lld sample%s "
               "waited it out)",
               x->fork_window[0] ? x->fork_window : "the latest save", x->fork_dur_us / 1000,
               (long long)x->fork_after_n, x->fork_after_min_us / 1000,
               x->fork_after_span_us / 1e6, p50, (long long)x->fork_inflight_n,
               x->fork_inflight_n == 1 ? "" : "s");
    diag_fact(f, "fork time", x->fork_dur.known ? &x->fork_dur : &x->latest_fork_usec);
    diag_evidence(f, "samples as slow as the fork after it", "analysis",
                  "%lld at >= %.3f ms, the last answered %.3f s after the fork ended",
                  (long long)x->fork_after_n, x->fork_after_min_us / 1000,
                  x->fork_after_span_us / 1e6);
    diag_evidence(f, "samples in flight during the fork", "analysis", "%lld",
                  (long long)x->fork_inflight_n);
    if (w->present && !isnan(w->value_us[0]))
        diag_evidence(f, "p50 of the window", w->label, "%.3f ms (baseline %.3f ms)",
                      w->value_us[0] / 1000, w->base_us[0] / 1000);
    diag_advice(f,
             "look at what the save does after the fork: copy-on-write faults "
             "while the server writes to pages the child still shares, the child's "
             "disk I/O (a diskless sync removes the disk part) and CPU contention "
             "between the child and the server");
    return 1;
}

int rule_fork_not_the_cost(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    const cow_window_fact *w = &r[i].worst;
    double fork_us = r[i].latest_fork_usec.num;
    static const double level_q[4] = {0.5, 0.9, 0.99, 0.999};
    double on;
    int l, larger, many;
    (void)n;
    if (slowness_outlasts_fork(&r[i])) /* slowness_outlasts_fork says it */
        return 0;
    if (!diag_lifted(w) || !r[i].latest_fork_usec.known || isnan(fork_us) ||
        w->kind == COW_PHASE_FORKLESS)
        return 0;
    l = diag_lift_level(w);
    larger = w->delta_us[l] >= FORK_VS_LIFT_FACTOR * fork_us;
    /* the lifted quantile rests on more of the window's largest samples than
       were in flight while the fork ran (type 7: x[floor((n - 1) q)] and
       above): the fork alone cannot have made it */
    on = w->n > 0 ? (double)w->n - floor((double)(w->n - 1) * level_q[l]) : 0;
    many = r[i].fork_inflight && on > (double)r[i].fork_inflight_n;
    if (!larger && !(fork_us < FORK_STALL_MIN_US && (w->delta_us[l] > fork_us || many)))
        return 0;
    if (!larger && !(w->delta_us[l] > fork_us))
        diag_title(f,
                 "the fork call took %.3f ms, too short to stall a client for long "
                 "(under %.0f ms), and %lld sample%s in flight while it ran, while "
                 "%s rose %.3f ms, a quantile of the window's %.0f largest samples: the "
                 "fork alone cannot have made it", fork_us / 1000, FORK_STALL_MIN_US / 1000,
                 (long long)r[i].fork_inflight_n, r[i].fork_inflight_n == 1 ? " was" : "s were",
                 diag_level_name[l], w->delta_us[l] / 1000, on);
    else if (larger)
        diag_title(f,
                 "the fork call took %.3f ms but %s rose %.3f ms: the fork itself is "
                 "not the cost", fork_us / 1000, diag_level_name[l], w->delta_us[l] / 1000);
    else
        diag_title(f,
                 "the fork call took %.3f ms, too short to stall a client for long "
                 "(under %.0f ms), while %s rose %.3f ms: the fork itself is not the "
                 "cost", fork_us / 1000, FORK_STALL_MIN_US / 1000, diag_level_name[l],
                 w->delta_us[l] / 1000);
    diag_fact(f, "latest_fork_usec", &r[i].latest_fork_usec);
    diag_delta_evidence(f, w, l);
    diag_advice(f,
             "look at what the save does after the fork: copy-on-write faults "
             "while the server writes to pages the child still shares, and the "
             "child's disk I/O (a diskless sync removes the disk part)");
    return 1;
}

/* The fork itself was the stall: samples in flight while it ran waited
 * out a material part of it (the counterpart of fork_not_the_cost). */
#define FORK_WAIT_SHARE 0.5         /* "waited it out": at least half of it */

int rule_fork_is_the_cost(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    const cow_run_facts *x = &r[i];
    int worst;
    (void)n;
    if (!x->fork_inflight || x->fork_inflight_n == 0 || !(x->fork_dur_us >= FORK_STALL_MIN_US) ||
        !(x->fork_inflight_max_us >= FORK_WAIT_SHARE * x->fork_dur_us) ||
        slowness_outlasts_fork(x)) /* not the fork's: slowness_outlasts_fork says so */
        return 0;
    worst = !isnan(x->run_max_us) && x->fork_inflight_max_us >= x->run_max_us;
    f->severity = worst ? COW_SEV_WARN : COW_SEV_INFO;
    diag_title(f, "the fork itself was the stall: the fork of %s took %.1f ms, and %lld "
               "sample%s in flight while it ran, the longest %.1f ms (sent %.1f ms %s the "
               "fork began)%s", x->fork_window[0] ? x->fork_window : "the latest save",
               x->fork_dur_us / 1000,
               (long long)x->fork_inflight_n, x->fork_inflight_n == 1 ? "" : "s",
               x->fork_inflight_max_us / 1000, fabs(x->fork_inflight_sent_us) / 1000,
               x->fork_inflight_sent_us < 0 ? "before" : "after",
               worst ? ": the run's worst sample is among them"
                     : ": the run's worst sample came later");
    diag_fact(f, x->fork_dur.known && x->fork_dur.src[0] && x->latest_fork_usec.known &&
                     strcmp(x->fork_dur.src, x->latest_fork_usec.src) == 0
                     ? "latest_fork_usec" : "fork time",
              x->fork_dur.known ? &x->fork_dur : &x->latest_fork_usec);
    diag_evidence(f, "samples in flight during the fork", "analysis", "%lld",
                  (long long)x->fork_inflight_n);
    diag_evidence(f, "longest of them", "analysis", "%.3f ms, sent %.3f ms %s the fork began",
                  x->fork_inflight_max_us / 1000, fabs(x->fork_inflight_sent_us) / 1000,
                  x->fork_inflight_sent_us < 0 ? "before" : "after");
    diag_evidence(f, "worst sample of the run", "analysis", "%.3f ms", x->run_max_us / 1000);
    diag_advice(f, "keep instances small, save on a replica or off-peak, %s. A fork copies the server's page tables and stops "
                "it meanwhile, so its time grows with the resident set (about 10-20 ms per "
                "GB on bare metal, more in a virtual machine); huge pages make the page "
                "tables 512x smaller and the fork faster, at a cost during the save (see "
                "the THP findings)", diag_overcommit_advice(x));
    return 1;
}

int rule_slow_fork(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    double fork_us = r[i].latest_fork_usec.num, mem = r[i].used_memory.num, rate;
    (void)n;
    if (!r[i].latest_fork_usec.known || !r[i].used_memory.known || isnan(fork_us) ||
        isnan(mem) || fork_us <= 0 || mem <= 0)
        return 0;
    rate = (mem / (1024.0 * 1024 * 1024)) / (fork_us / 1e6);
    if (rate >= FORK_RATE_POOR_GBS)
        return 0;
    if (rate < FORK_RATE_TERRIBLE_GBS)
        f->severity = COW_SEV_WARN;
    else
        f->severity = COW_SEV_INFO;
    diag_title(f,
             "fork rate %.2f GB/s (%s): %.1f ms to fork %.0f MB of used_memory",
             rate, rate < FORK_RATE_TERRIBLE_GBS ? "terrible" : "poor",
             fork_us / 1000, mem / 1048576);
    diag_fact(f, "latest_fork_usec", &r[i].latest_fork_usec);
    diag_fact(f, "used_memory", &r[i].used_memory);
    /* the fork's time follows the page tables, so a small server that
     * forks slowly points at the host, not at its size (overcommit decides
     * whether a fork fails, not how long it takes) */
    if (mem >= 1024.0 * 1024 * 1024)
        diag_advice(f,
                 "a fork copies the page tables: expect 10-20 ms per GB on bare "
                 "metal, more in a virtual machine (some hypervisors are far "
                 "slower); prefer smaller instances, or huge pages for a faster "
                 "fork (see the THP findings), and check the hypervisor");
    else
        diag_advice(f,
                 "a fork copies the page tables: expect 10-20 ms per GB on bare "
                 "metal, so %.0f MB should fork in a few ms: look at the host, not "
                 "the server's size (a virtual machine's hypervisor, a busy host's "
                 "load average, memory pressure)", mem / 1048576);
    return 1;
}

/* ----------------------------------------------------------- controls */

static int is_readonly(const cow_run_facts *x)
{
    const char *s = x->scenario ? x->scenario : x->label;
    return strstr(s, "read") != NULL;
}

int rule_readonly_control(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    size_t j, other = n;
    /* "flat" is the control's own verdict: an interval that holds zero
     * ("~"), never a "?" (a tail that may well have risen) */
    if (!is_readonly(&r[i]) || !r[i].worst.present || diag_lifted(&r[i].worst) ||
        r[i].worst.verdict[L999] != COW_VERDICT_FLAT)
        return 0;
    /* the write run to set it against: one of the same window kind (a
     * sync against a sync) when there is one */
    for (j = 0; j < n; j++)
        if (j != i && !is_readonly(&r[j]) && diag_lifted(&r[j].worst) &&
            (other == n || (r[j].worst.kind == r[i].worst.kind &&
                            r[other].worst.kind != r[i].worst.kind)))
            other = j;
    if (other == n)
        return 0;
    diag_title(f,
             "the read-only control stayed flat (p99.9 %+.3f ms, %s) while %s "
             "lifted (%+.3f ms): the cost is write-driven copy-on-write",
             r[i].worst.delta_us[L999] / 1000,
             boot_verdict_symbol(r[i].worst.verdict[L999]), r[other].label,
             r[other].worst.delta_us[L999] / 1000);
    diag_delta_evidence(f, &r[i].worst, L999);
    diag_evidence(f, "p99.9 delta (write run)", r[other].label, "%+.3f ms",
                  r[other].worst.delta_us[L999] / 1000);
    diag_advice(f,
             "copy-on-write only costs when the server writes to pages the child "
             "still shares: save when writes are low, move saves to a replica, "
             "or use a forkless save");
    return 1;
}

/* ----------------------------------------------------------- monitor */

int rule_monitor_blind_spot(const cow_run_facts *r, size_t n, size_t i,
                              cow_finding *f)
{
    const cow_window_fact *w = &r[i].worst;
    double thr = r[i].lm_threshold.num;
    int none = r[i].latmon_none.known && r[i].latmon_none.num > 0;
    /* a forkless save has no fork to record: an empty fork history is
     * no blind spot there */
    int empty = r[i].latmon_fork.known && r[i].latmon_fork.num == 0 &&
                r[i].worst.kind != COW_PHASE_FORKLESS;
    int off = r[i].lm_threshold.known && !isnan(thr) && thr == 0;
    int above;
    int l;
    (void)n;
    if (!diag_lifted(w))
        return 0;
    l = diag_lift_level(w);
    above = r[i].lm_threshold.known && !isnan(thr) && thr > 0 &&
            thr * 1000 > w->value_us[l];
    if (!none && !empty && !off && !above)
        return 0;
    diag_title(f,
             "Redis's latency monitor %s while %s rose %.3f ms",
             off ? "was off (latency-monitor-threshold 0)"
                 : none ? "reported no spike" : above ? "threshold is above the spike"
                 : "recorded no fork event",
             diag_level_name[l], w->delta_us[l] / 1000);
    diag_delta_evidence(f, w, l);
    diag_fact(f, "latency-monitor-threshold", &r[i].lm_threshold);
    diag_fact(f, "LATENCY HISTORY fork rows", &r[i].latmon_fork);
    if (none) /* cited only when DOCTOR said it */
        diag_fact(f, "DOCTOR 'no spike observed'", &r[i].latmon_none);
    diag_advice(f,
             "LATENCY DOCTOR only sees events above latency-monitor-threshold "
             "(0 = off) and is tuned for spikes of hundreds of ms: measure "
             "client-side percentiles yourself, or set the threshold just above "
             "your normal p99 (CONFIG SET latency-monitor-threshold <ms>)");
    return 1;
}

/* The baseline around a window moved by more than the materiality margin
 * (runstats.h Requirement 7): the window was judged against the baseline
 * on both sides, and a change within that movement is `?`. */
int rule_unstable_baseline(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    (void)n;
    if (r[i].nunstable == 0)
        return 0;
    diag_title(f, "the baseline is not stationary around %s: %s", r[i].unstable_in,
               r[i].unstable);
    diag_evidence(f, "baseline moved", "analysis", "%s", r[i].unstable);
    diag_evidence(f, "windows with such a baseline", "analysis", "%d of %d",
                  r[i].nunstable, r[i].nwindows);
    diag_advice(f,
             "the window was compared with the baseline on both sides of it, and a "
             "change no larger than the baseline's own movement is '?': capture "
             "longer before and after the save on a steady load, or find what else "
             "changed (load, another job, the save's aftermath)");
    return 1;
}
