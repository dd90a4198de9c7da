/* diag_rules.c -- the doctor's rules: one function each, one table.
 *
 * Each rule reads the facts of every run (cow_run_facts, diag.h) and fires
 * for run i, citing the values it used and the file:line they came from.
 * Thresholds are named constants with the reason next to them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "boot.h"
#include "diag.h"
#include "timeconv.h"
#include "verdict.h"

/* Redis's own LATENCY DOCTOR bands for fork rate = used_memory / fork
 * time: below 10 GB/s "terrible", below 25 "poor" (latency.c). */
#define FORK_RATE_TERRIBLE_GBS 10.0
#define FORK_RATE_POOR_GBS 25.0
/* The fork call is "not the cost" when the tail lift is at least this many
 * times the fork time (seed 000: 1.7 ms fork, 8 ms lift). */
#define FORK_VS_LIFT_FACTOR 2.0
/* COW above this fraction of the dataset is a memory headroom risk. */
#define COW_FRACTION_WARN 0.25
/* used + COW above this fraction of maxmemory risks eviction or OOM. */
#define COW_LIMIT_WARN 0.9
/* vm.swappiness above this lets the kernel swap the server's heap. */
#define SWAPPINESS_WARN 10
/* A significant median shift smaller than this fraction of the baseline
 * median is not called a lift of the whole distribution (a few stalls
 * move the median of 1,500 samples by microseconds). */
#define MEDIAN_MATERIAL 0.05
/* ... nor one smaller than this share of the tail's (p99) move: a 55%
 * move of a 33 us median is not material next to a 1.1 ms p99 lift. */
#define MEDIAN_TAIL_SHARE 0.10
/* Kernels from 5.8 split a THP on a COW fault and copy 4 KiB. */
#define THP_SPLIT_KERNEL_MAJOR 5
#define THP_SPLIT_KERNEL_MINOR 8

enum { L50 = 0, L90 = 1, L99 = 2, L999 = 3 };

static const char *const lname[4] = {"p50", "p90", "p99", "p99.9"};

static int lifted(const cow_window_fact *w)
{
    return w->present && (w->verdict[L99] == COW_VERDICT_LIFT ||
                          w->verdict[L999] == COW_VERDICT_LIFT);
}

/* p50 moved significantly, by a material share of its baseline and of
 * the tail's move. */
static int median_moved(const cow_window_fact *w)
{
    return w->verdict[L50] == COW_VERDICT_LIFT &&
           w->delta_us[L50] >= MEDIAN_MATERIAL * w->base_us[L50] &&
           !(w->delta_us[L99] > 0 && w->delta_us[L50] < MEDIAN_TAIL_SHARE * w->delta_us[L99]);
}

/* p50's own interval shows a material rise: significant, and its lower
 * bound at least MEDIAN_MATERIAL of the baseline p50. */
static int median_material(const cow_window_fact *w)
{
    return w->verdict[L50] == COW_VERDICT_LIFT && !isnan(w->lo_us[L50]) &&
           w->lo_us[L50] >= MEDIAN_MATERIAL * w->base_us[L50];
}

/* The level that lifted most (p99.9 preferred), for titles. */
static int lift_level(const cow_window_fact *w)
{
    return w->verdict[L999] == COW_VERDICT_LIFT ? L999 : L99;
}

/* The comparison at level l as a structured field of the finding. */
static void delta_stat(cow_finding *f, const cow_window_fact *w, int l)
{
    cow_qstat *s;
    int k;
    for (k = 0; k < f->nqs; k++)
        if (f->qs[k].quantile == lname[l])
            return;
    if (f->nqs >= COW_MAX_QSTATS)
        return;
    s = &f->qs[f->nqs++];
    s->quantile = lname[l];
    snprintf(s->window, sizeof(s->window), "%s", w->label);
    s->n = w->n;
    s->base_n = w->base_n;
    s->n_eff = w->n_eff[l];
    s->n_eff_base = w->n_eff_base[l];
    s->method = w->method[l];
    s->verdict = w->verdict[l];
}

static void delta_evidence(cow_finding *f, const cow_window_fact *w, int l)
{
    char metric[48], ci[48];
    delta_stat(f, w, l);
    snprintf(metric, sizeof(metric), "%s delta %s", lname[l], w->label);
    qcmp_format_bounds(w->method[l], w->verdict[l], w->lo_us[l], w->hi_us[l], ci,
                       sizeof(ci));
    diag_evidence(f, metric, "analysis",
                  "%+.3f ms (95%%: %s), %s by %s, n=%lld vs %lld, n_eff=%.0f vs %.0f",
                  w->delta_us[l] / 1000, ci, boot_verdict_name(w->verdict[l]),
                  qcmp_method_name(w->method[l]), (long long)w->n, (long long)w->base_n,
                  w->n_eff[l], w->n_eff_base[l]);
}

static int is_text(const cow_fact *v, const char *s)
{
    return v->known && strcasecmp(v->text, s) == 0;
}

/* THP's mode as set: the bracketed word of "always [madvise] never", or
 * the whole text when it names one mode. */
static int thp_is(const cow_fact *v, const char *mode)
{
    char want[24];
    if (!v->known)
        return 0;
    snprintf(want, sizeof(want), "[%s]", mode);
    return strcasecmp(v->text, mode) == 0 || strstr(v->text, want) != NULL;
}

/* ----------------------------------------------------------- the lift */

static int tail_only_lift(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    const cow_window_fact *w = &r[i].worst;
    int l;
    (void)n;
    if (!lifted(w) || median_moved(w))
        return 0;
    l = lift_level(w);
    {
        char ci[48], ci50[48];
        qcmp_format_bounds(w->method[l], w->verdict[l], w->lo_us[l], w->hi_us[l], ci,
                           sizeof(ci));
        qcmp_format_bounds(w->method[L50], w->verdict[L50], w->lo_us[L50], w->hi_us[L50],
                           ci50, sizeof(ci50));
        /* "p50 did not move" only when p50's own interval says so: a
         * significant rise whose lower bound is a material share of the
         * baseline p50 is a move, however small next to the tail's */
        if (median_material(w))
            diag_title(f, "%s rose %.3f ms (95%%: %s) during %s; p50 rose too, but far "
                       "less (%+.3f ms, 95%%: %s)", lname[l], w->delta_us[l] / 1000, ci,
                       w->label, w->delta_us[L50] / 1000, ci50);
        else
            diag_title(f, "%s rose %.3f ms (95%%: %s) during %s while p50 did not move "
                       "materially (%+.3f ms, 95%%: %s)", lname[l], w->delta_us[l] / 1000,
                       ci, w->label, w->delta_us[L50] / 1000, ci50);
    }
    delta_evidence(f, w, L50);
    delta_evidence(f, w, L99);
    delta_evidence(f, w, L999);
    diag_advice(f,
             "averages and p50 hide this: put p99.9 next to fork/save/sync events "
             "on the dashboard; the other findings say which cause the evidence "
             "supports");
    return 1;
}

static int full_lift(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    const cow_window_fact *w = &r[i].worst;
    (void)n;
    if (!lifted(w) || !median_moved(w))
        return 0;
    diag_title(f,
             "the whole distribution moved during %s: p50 %+.3f ms, p99 %+.3f ms, "
             "p99.9 %+.3f ms", w->label, w->delta_us[L50] / 1000,
             w->delta_us[L99] / 1000, w->delta_us[L999] / 1000);
    delta_evidence(f, w, L50);
    delta_evidence(f, w, L999);
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

static int thin_tail(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
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
    delta_stat(f, &r[i].worst, L999);
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
 * own floor): one rule, so runs with the same evidence get the same cause
 * (a 4.1 ms fork under a 7.3 ms lift and a 4.6 ms fork under 9.7 ms alike). */
#define FORK_STALL_MIN_US 10000.0   /* a fork shorter than 10 ms stalls no one */

static int fork_not_the_cost(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    const cow_window_fact *w = &r[i].worst;
    double fork_us = r[i].latest_fork_usec.num;
    int l, larger;
    (void)n;
    if (!lifted(w) || !r[i].latest_fork_usec.known || isnan(fork_us) ||
        w->kind == COW_PHASE_FORKLESS)
        return 0;
    l = lift_level(w);
    larger = w->delta_us[l] >= FORK_VS_LIFT_FACTOR * fork_us;
    if (!larger && !(fork_us < FORK_STALL_MIN_US))
        return 0;
    if (larger)
        diag_title(f,
                 "the fork call took %.3f ms but %s rose %.3f ms: the fork itself is "
                 "not the cost", fork_us / 1000, lname[l], w->delta_us[l] / 1000);
    else
        diag_title(f,
                 "the fork call took %.3f ms, too short to stall a client for long "
                 "(under %.0f ms), while %s rose %.3f ms: the fork itself is not the "
                 "cost", fork_us / 1000, FORK_STALL_MIN_US / 1000, lname[l],
                 w->delta_us[l] / 1000);
    diag_fact(f, "latest_fork_usec", &r[i].latest_fork_usec);
    delta_evidence(f, w, l);
    diag_advice(f,
             "look at what the save does after the fork: copy-on-write faults "
             "while the server writes to pages the child still shares, and the "
             "child's disk I/O (a diskless sync removes the disk part)");
    return 1;
}

/* The fork itself was the stall: samples in flight while it ran waited
 * out a material part of it (the counterpart of fork_not_the_cost). */
#define FORK_WAIT_SHARE 0.5         /* "waited it out": at least half of it */

static int fork_is_the_cost(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    const cow_run_facts *x = &r[i];
    int worst;
    (void)n;
    if (!x->fork_inflight || x->fork_inflight_n == 0 || !(x->fork_dur_us >= FORK_STALL_MIN_US) ||
        !(x->fork_inflight_max_us >= FORK_WAIT_SHARE * x->fork_dur_us))
        return 0;
    worst = !isnan(x->run_max_us) && x->fork_inflight_max_us >= x->run_max_us;
    f->severity = worst ? COW_SEV_WARN : COW_SEV_INFO;
    diag_title(f, "the fork itself was the stall: the fork of %s took %.1f ms, and %lld "
               "sample%s in flight waited it out, up to %.1f ms (sent %.1f ms %s the fork "
               "began)%s", x->fork_window[0] ? x->fork_window : "the latest save",
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
    diag_advice(f, "keep instances small, save on a replica or off-peak, keep "
                "vm.overcommit_memory=1. A fork copies the server's page tables and stops "
                "it meanwhile, so its time grows with the resident set (about 10-20 ms per "
                "GB on bare metal, more in a virtual machine); huge pages make the page "
                "tables 512x smaller and the fork faster, at a cost during the save (see "
                "the THP findings)");
    return 1;
}

static int slow_fork(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
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
    diag_advice(f,
             "fork copies the page tables: expect 10-20 ms per GB on bare metal; "
             "slower forks come from virtual machines (some hypervisors are far "
             "slower), huge resident sets, or memory overcommit checks. Keep "
             "vm.overcommit_memory=1, prefer smaller instances, check the "
             "hypervisor");
    return 1;
}

/* ----------------------------------------------------------- THP */

/* Kernel version from INFO os ("Linux 6.1.0-18-amd64 x86_64"). */
static int kernel_version(const cow_fact *os, int *major, int *minor)
{
    const char *p;
    if (!os->known || (p = strstr(os->text, "Linux ")) == NULL)
        return 0;
    return sscanf(p + 6, "%d.%d", major, minor) == 2;
}

static int thp_backing(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    int major = 0, minor = 0, split;
    (void)n;
    if (!r[i].anon_huge.known || !(r[i].anon_huge.num > 0))
        return 0;
    split = kernel_version(&r[i].os, &major, &minor) &&
            (major > THP_SPLIT_KERNEL_MAJOR ||
             (major == THP_SPLIT_KERNEL_MAJOR && minor >= THP_SPLIT_KERNEL_MINOR));
    f->severity = split ? COW_SEV_WARN : COW_SEV_CRIT;
    diag_title(f,
             "transparent huge pages back %.1f MB of the server's heap%s",
             r[i].anon_huge.num / 1048576,
             split ? " (kernel copies 4 KiB per COW fault, not 2 MiB)"
                   : ": every write after the fork can copy 2 MiB instead of 4 KiB");
    diag_fact(f, "AnonHugePages", &r[i].anon_huge);
    diag_fact(f, "THP enabled", &r[i].thp_enabled);
    diag_fact(f, "os", &r[i].os);
    diag_fact(f, "disable-thp", &r[i].disable_thp);
    if (split) {
        /* weigh what never would cost instead of advising it bare */
        diag_fact(f, "latest_fork_usec", &r[i].latest_fork_usec);
        diag_fact(f, "thp_split_pmd (vmstat)", &r[i].thp_split);
        char split_txt[96] = "", fork_txt[96], tail_txt[128] = "";
        if (r[i].thp_split.known && r[i].thp_split.num > 0)
            snprintf(split_txt, sizeof(split_txt), " (this capture: %.0f huge pages split, "
                     "thp_split_pmd)", r[i].thp_split.num);
        if (r[i].latest_fork_usec.known && r[i].latest_fork_usec.num > 0)
            snprintf(fork_txt, sizeof(fork_txt), "this run's fork took %.1f ms",
                     r[i].latest_fork_usec.num / 1000);
        else
            snprintf(fork_txt, sizeof(fork_txt), "no fork time in this capture");
        if (r[i].worst.present && !isnan(r[i].worst.delta_us[L999]))
            snprintf(tail_txt, sizeof(tail_txt), " (here p99.9 %+.3f ms during %s, %s)",
                     r[i].worst.delta_us[L999] / 1000, r[i].worst.label,
                     boot_verdict_name(r[i].worst.verdict[L999]));
        diag_advice(f,
                    "weigh it before turning THP off: on this kernel (>= 5.8) a "
                    "copy-on-write fault on a huge page splits it and copies 4 KiB%s, so "
                    "the 512x story does not apply, and huge pages keep the page tables "
                    "512x smaller, so the fork is faster (%s). THP 'never' (echo never > "
                    "/sys/kernel/mm/transparent_hugepage/enabled, or Redis >= 6.2's "
                    "disable-thp yes) makes the fork slower; keep huge pages if the "
                    "tail during the save is acceptable%s, and compare a capture with "
                    "THP never (fork time, copy-on-write MB, p99.9 during the save, "
                    "thp_split_pmd in /proc/vmstat) before changing it",
                    split_txt, fork_txt, tail_txt);
    } else {
        diag_advice(f,
                    "set THP to madvise or never (echo madvise > "
                    "/sys/kernel/mm/transparent_hugepage/enabled, and in the boot "
                    "parameters), or keep Redis >= 6.2's disable-thp yes: on kernels "
                    "before 5.8 a copy-on-write fault copies the whole 2 MiB page, the "
                    "512x amplification; the fork gets slower without huge pages (page "
                    "tables 512x larger), which costs far less here");
    }
    return 1;
}

static int thp_not_backing(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    (void)n;
    if (!r[i].thp_enabled.known || thp_is(&r[i].thp_enabled, "never"))
        return 0;
    if (r[i].anon_huge.known && r[i].anon_huge.num > 0)
        return 0;
    if (r[i].anon_huge.known) {
        diag_title(f,
                 "THP is '%s' system-wide but AnonHugePages is 0 in the server: "
                 "huge pages are not backing the heap, so they are not the cause",
                 r[i].thp_enabled.text);
        diag_fact(f, "THP enabled", &r[i].thp_enabled);
        diag_fact(f, "AnonHugePages", &r[i].anon_huge);
        diag_fact(f, "disable-thp", &r[i].disable_thp);
        diag_advice(f,
                 "do not chase THP here: since Redis 6.2 disable-thp yes (the "
                 "default) turns THP off for the server without a log line. Look "
                 "at plain 4 KiB copy-on-write and the child's disk I/O");
    } else {
        /* only 'always' puts huge pages under a server that did not ask
         * (madvise, the recommended setting, needs the server to ask) */
        if (thp_is(&r[i].thp_enabled, "always"))
            f->severity = COW_SEV_WARN;
        diag_title(f,
                 "THP is '%s' system-wide and nothing says whether it backs the "
                 "server's heap", r[i].thp_enabled.text);
        diag_fact(f, "THP enabled", &r[i].thp_enabled);
        diag_fact(f, "warn_thp log lines", &r[i].warn_thp);
        diag_advice(f,
                 "read AnonHugePages in /proc/<server pid>/smaps_rollup during a "
                 "save before blaming THP: a missing THP warning in the log proves "
                 "nothing since Redis 6.2 (disable-thp)");
    }
    return 1;
}

/* ----------------------------------------------------------- sync */

static int sync_lifted(const cow_run_facts *x, int kind)
{
    return x->worst.present && x->worst.kind == kind && lifted(&x->worst);
}

/* The advice follows what the two captures show: diskless is advised
 * when the disk sync lifted the tail and the diskless one did not; the
 * replicas' attach-to-link-up times, when both are known, are weighed
 * too (a diskless transfer includes building the snapshot, so it can
 * take longer while the disk mode's child writes to disk). */
static void sync_advice(const cow_run_facts *disk, const cow_run_facts *less,
                        cow_finding *f)
{
    if (sync_lifted(disk, COW_PHASE_SYNC_DISK) &&
        !sync_lifted(less, COW_PHASE_SYNC_DISKLESS))
        diag_advice(f,
                 "repl-diskless-sync yes streams the snapshot to the replica's "
                 "socket instead of writing it to disk first: no disk I/O competing "
                 "with the server, and here the tail stayed flat with it. It is a "
                 "config value (CONFIG SET), no root needed");
    else
        diag_advice(f,
                 "these captures do not show diskless sync sparing the tail (disk "
                 "%s, diskless %s at p99.9): choose the mode on other grounds (disk "
                 "I/O on the host, the replica's load time, sync time)",
                 boot_verdict_name(disk->worst.verdict[L999]),
                 boot_verdict_name(less->worst.verdict[L999]));
    if (!disk->repl_sync.known || !less->repl_sync.known ||
        isnan(disk->repl_sync.num) || isnan(less->repl_sync.num))
        return;
    /* the sync times */
    diag_advice_add(f, "; attach to link up took %.3f s on disk and "
                    "%.3f s diskless here%s", disk->repl_sync.num, less->repl_sync.num,
                    less->repl_sync.num > 1.1 * disk->repl_sync.num /* 10%: material */
                        ? ", so diskless costs sync time: the fork child lives for the "
                          "whole transfer" : "");
}

static int disk_vs_diskless(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    size_t j, other = n;
    if (!r[i].worst.present || r[i].worst.kind != COW_PHASE_SYNC_DISK)
        return 0;
    for (j = 0; j < n; j++)
        if (r[j].worst.present && r[j].worst.kind == COW_PHASE_SYNC_DISKLESS &&
            (r[i].host == NULL || r[j].host == NULL || strcmp(r[i].host, r[j].host) == 0))
            other = j;
    if (other == n)
        return 0;
    if (sync_lifted(&r[i], COW_PHASE_SYNC_DISK) &&
        !sync_lifted(&r[other], COW_PHASE_SYNC_DISKLESS)) {
        f->severity = COW_SEV_WARN;
        diag_title(f,
                 "the disk-based full sync lifted p99.9 by %.3f ms; the diskless "
                 "one (%s) did not (%+.3f ms, %s)", r[i].worst.delta_us[L999] / 1000,
                 r[other].label, r[other].worst.delta_us[L999] / 1000,
                 boot_verdict_symbol(r[other].worst.verdict[L999]));
    } else {
        diag_title(f,
                 "full sync: disk p99.9 %+.3f ms (%s), diskless (%s) %+.3f ms (%s)",
                 r[i].worst.delta_us[L999] / 1000,
                 boot_verdict_symbol(r[i].worst.verdict[L999]), r[other].label,
                 r[other].worst.delta_us[L999] / 1000,
                 boot_verdict_symbol(r[other].worst.verdict[L999]));
    }
    delta_evidence(f, &r[i].worst, L999);
    diag_evidence(f, "p99.9 delta (diskless run)", r[other].label, "%+.3f ms (%s)",
                  r[other].worst.delta_us[L999] / 1000,
                  boot_verdict_name(r[other].worst.verdict[L999]));
    diag_fact(f, "repl-diskless-sync", &r[i].diskless_sync);
    diag_fact(f, "attach-to-link-up disk", &r[i].repl_sync);
    diag_fact(f, "attach-to-link-up diskless", &r[other].repl_sync);
    sync_advice(&r[i], &r[other], f);
    return 1;
}

static int full_resyncs(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    double k = 0;
    (void)n;
    if (r[i].sync_full.known && !isnan(r[i].sync_full.num))
        k = r[i].sync_full.num;
    if (r[i].full_resync.known && r[i].full_resync.num > k)
        k = r[i].full_resync.num;
    if (k <= 0)
        return 0;
    if (r[i].sync_forks.known && r[i].sync_forks.num > 0)
        /* one fork per "Starting BGSAVE for SYNC" line: a transfer can
         * serve several replicas at once */
        diag_title(f, "%.0f full resync%s, served by %.0f fork%s of the primary (one per "
                   "'Starting BGSAVE for SYNC' line)", k, k == 1 ? "" : "s",
                   r[i].sync_forks.num, r[i].sync_forks.num == 1 ? "" : "s");
    else
        diag_title(f, "%.0f full resync%s: each needs a snapshot, a fork of the primary, "
                   "unless replicas share one", k, k == 1 ? "" : "s");
    diag_fact(f, "sync_full", &r[i].sync_full);
    diag_fact(f, "full resync log lines", &r[i].full_resync);
    diag_fact(f, "Starting BGSAVE for SYNC lines", &r[i].sync_forks);
    diag_advice(f,
             "size repl-backlog-size to cover the longest replica disconnect so "
             "replicas resume with a partial sync; attach new replicas (autoscaling) "
             "off-peak, or seed them from a replica");
    return 1;
}

/* ----------------------------------------------------------- controls */

static int is_readonly(const cow_run_facts *x)
{
    const char *s = x->scenario ? x->scenario : x->label;
    return strstr(s, "read") != NULL;
}

static int readonly_control(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    size_t j, other = n;
    if (!is_readonly(&r[i]) || !r[i].worst.present || lifted(&r[i].worst))
        return 0;
    for (j = 0; j < n; j++)
        if (j != i && !is_readonly(&r[j]) && lifted(&r[j].worst))
            other = j;
    if (other == n)
        return 0;
    diag_title(f,
             "the read-only control stayed flat (p99.9 %+.3f ms, %s) while %s "
             "lifted (%+.3f ms): the cost is write-driven copy-on-write",
             r[i].worst.delta_us[L999] / 1000,
             boot_verdict_symbol(r[i].worst.verdict[L999]), r[other].label,
             r[other].worst.delta_us[L999] / 1000);
    delta_evidence(f, &r[i].worst, L999);
    diag_evidence(f, "p99.9 delta (write run)", r[other].label, "%+.3f ms",
                  r[other].worst.delta_us[L999] / 1000);
    diag_advice(f,
             "copy-on-write only costs when the server writes to pages the child "
             "still shares: save when writes are low, move saves to a replica, "
             "or use a forkless save");
    return 1;
}

/* ----------------------------------------------------------- monitor */

static int monitor_blind_spot(const cow_run_facts *r, size_t n, size_t i,
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
    if (!lifted(w))
        return 0;
    l = lift_level(w);
    above = r[i].lm_threshold.known && !isnan(thr) && thr > 0 &&
            thr * 1000 > w->value_us[l];
    if (!none && !empty && !off && !above)
        return 0;
    diag_title(f,
             "Redis's latency monitor %s while %s rose %.3f ms",
             off ? "was off (latency-monitor-threshold 0)"
                 : none ? "reported no spike" : above ? "threshold is above the spike"
                 : "recorded no fork event",
             lname[l], w->delta_us[l] / 1000);
    delta_evidence(f, w, l);
    diag_fact(f, "latency-monitor-threshold", &r[i].lm_threshold);
    diag_fact(f, "LATENCY HISTORY fork rows", &r[i].latmon_fork);
    diag_fact(f, "DOCTOR 'no spike observed'", &r[i].latmon_none);
    diag_advice(f,
             "LATENCY DOCTOR only sees events above latency-monitor-threshold "
             "(0 = off) and is tuned for spikes of hundreds of ms: measure "
             "client-side percentiles yourself, or set the threshold just above "
             "your normal p99 (CONFIG SET latency-monitor-threshold <ms>)");
    return 1;
}

/* ----------------------------------------------------------- forks */

static int overlapping_forks(const cow_run_facts *r, size_t n, size_t i,
                             cow_finding *f)
{
    (void)n;
    if (r[i].noverlap == 0 && r[i].host_overlaps == 0)
        return 0;
    if (r[i].noverlap > 0)
        diag_title(f,
                 "%d fork/save windows overlap (an RDB save next to an AOF rewrite, "
                 "or a sync during a save)", r[i].noverlap);
    else
        diag_title(f,
                 "this run's save overlaps a save of %s on the same host %s: several "
                 "instances forked at once", r[i].host_overlap_with, r[i].host);
    diag_evidence(f, "overlapping windows", "analysis", "%d", r[i].noverlap);
    diag_evidence(f, "same-host runs saving at once", "analysis", "%d",
                  r[i].host_overlaps);
    diag_advice(f,
             "one child at a time can fork, so one waits and the cost stacks: "
             "space save points away from auto-aof-rewrite, and avoid BGSAVE "
             "during replica attaches");
    return 1;
}

static int cow_headroom(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    double cow = NAN, used = r[i].used_memory.num, max = r[i].maxmemory.num, frac;
    const char *src = NULL;
    (void)n;
    if (r[i].rdb_last_cow_size.known && r[i].rdb_last_cow_size.num > 0) {
        cow = r[i].rdb_last_cow_size.num;
        src = "rdb_last_cow_size";
    } else if (r[i].cow_mb.known && r[i].cow_mb.num > 0) {
        cow = r[i].cow_mb.num * 1048576;
        src = "Fork CoW peak (log)";
    } else if (!isnan(r[i].mem_growth_bytes) && r[i].mem_growth_bytes > 0) {
        cow = r[i].mem_growth_bytes;
        src = "memory series growth";
    }
    if (isnan(cow) || !r[i].used_memory.known || !(used > 0))
        return 0;
    frac = cow / used;
    if (frac < COW_FRACTION_WARN &&
        !(r[i].maxmemory.known && max > 0 && (used + cow) > COW_LIMIT_WARN * max))
        return 0;
    diag_title(f,
             "copy-on-write took %.0f MB during the save, %.0f%% of used_memory%s",
             cow / 1048576, 100 * frac,
             r[i].maxmemory.known && max > 0 ? " (see maxmemory)" : "");
    diag_evidence(f, src, strcmp(src, "memory series growth") == 0 ? r[i].mem_src
                  : strcmp(src, "rdb_last_cow_size") == 0 ? r[i].rdb_last_cow_size.src
                  : r[i].cow_mb.src, "%.0f bytes", cow);
    diag_fact(f, "used_memory", &r[i].used_memory);
    diag_fact(f, "maxmemory", &r[i].maxmemory);
    diag_advice(f,
             "leave headroom for copy-on-write (up to the whole dataset under "
             "heavy writes). When memory is the constraint, Valkey 9.2's forkless "
             "save keeps memory nearly flat, at the cost of a longer save and "
             "lower write throughput while it runs (see the trade-off table)");
    return 1;
}

static int aof_still_forks(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    int forkless = (r[i].mode && strcmp(r[i].mode, "forkless") == 0) ||
                   is_text(&r[i].bgsave_type, "forkless");
    (void)n;
    if (!forkless || !r[i].aof_last_cow_size.known || !(r[i].aof_last_cow_size.num > 0))
        return 0;
    diag_title(f,
             "AOF rewrite still forks with forkless save on: aof_last_cow_size "
             "%.1f MB", r[i].aof_last_cow_size.num / 1048576);
    diag_fact(f, "aof_last_cow_size", &r[i].aof_last_cow_size);
    diag_fact(f, "rdb_last_bgsave_type", &r[i].bgsave_type);
    diag_advice(f,
             "forkless-infrastructure-enabled only changes RDB snapshots; if AOF "
             "rewrites are the stall, tune auto-aof-rewrite-percentage/min-size "
             "or schedule BGREWRITEAOF off-peak");
    return 1;
}

static int periodic_spikes(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    (void)n;
    if (r[i].nsaves < 3 || r[i].nlifted < 2 || isnan(r[i].save_period_s))
        return 0;
    diag_title(f,
             "the tail lifts at %d of %d saves, which come every %.0f s: the "
             "spikes are the save schedule", r[i].nlifted, r[i].nsaves,
             r[i].save_period_s);
    diag_evidence(f, "save period (s)", "analysis", "%.1f", r[i].save_period_s);
    diag_evidence(f, "saves with a lift", "analysis", "%d of %d", r[i].nlifted,
                  r[i].nsaves);
    diag_advice(f,
             "check the save points (CONFIG GET save): move snapshots to a "
             "replica, save less often, or off-peak");
    return 1;
}

/* The baseline around a window moved by more than the materiality margin
 * (runstats.h Requirement 7): the window was judged against the baseline
 * on both sides, and a change within that movement is `?`. */
static int unstable_baseline(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
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

/* ----------------------------------------------------------- settings */

static int overcommit(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    int bad = r[i].overcommit.known && !isnan(r[i].overcommit.num) &&
              r[i].overcommit.num != 1;
    int warned = r[i].warn_overcommit.known && r[i].warn_overcommit.num > 0;
    (void)n;
    if (!bad && !warned)
        return 0;
    diag_title(f,
             "vm.overcommit_memory is %s: a fork of a large server can fail or "
             "stall", r[i].overcommit.known ? r[i].overcommit.text : "not 1");
    diag_fact(f, "vm.overcommit_memory", &r[i].overcommit);
    diag_fact(f, "overcommit warnings in the log", &r[i].warn_overcommit);
    diag_advice(f,
             "sysctl vm.overcommit_memory=1 (and in /etc/sysctl.conf), as the "
             "server's own startup warning says");
    return 1;
}

static int swappiness(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    (void)n;
    if (!r[i].swappiness.known || !(r[i].swappiness.num > SWAPPINESS_WARN))
        return 0;
    diag_title(f,
             "vm.swappiness is %.0f: under copy-on-write memory pressure the "
             "kernel may swap the server's heap", r[i].swappiness.num);
    diag_fact(f, "vm.swappiness", &r[i].swappiness);
    diag_advice(f,
             "set vm.swappiness to 1 (or 0) on cache hosts, and keep memory "
             "headroom for copy-on-write");
    return 1;
}

static int numa_balancing(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    (void)n;
    if (!r[i].numa.known || !(r[i].numa.num > 0))
        return 0;
    diag_title(f,
             "kernel.numa_balancing is on: page migrations add latency spikes");
    diag_fact(f, "kernel.numa_balancing", &r[i].numa);
    diag_advice(f,
             "sysctl kernel.numa_balancing=0 on dedicated cache hosts, and bind "
             "the server to one node (numactl) if it fits");
    return 1;
}

static int thp_always(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    (void)n;
    /* Redis warns "you have Transparent Huge Pages (THP) support enabled"
     * exactly when it read [always] at start: the log says what the host
     * files, when missing, do not */
    if (!thp_is(&r[i].thp_enabled, "always") &&
        (r[i].thp_enabled.known || !r[i].warn_thp.known || !(r[i].warn_thp.num > 0)))
        return 0;
    diag_title(f, r[i].thp_enabled.known
             ? "transparent_hugepage/enabled is 'always' on this host"
             : "the server warned that THP is enabled ('always') when it started");
    diag_fact(f, "THP enabled", &r[i].thp_enabled);
    diag_fact(f, "THP warnings in the log", &r[i].warn_thp);
    diag_advice(f,
             "'madvise' or 'never' is the recommended setting for Redis/Valkey "
             "hosts, even when the server disables THP for itself");
    return 1;
}

static int ingest_refusals(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    (void)n;
    if (!r[i].refused.known || !(r[i].refused.num > 0))
        return 0;
    diag_title(f,
             "%.0f file%s of this run %s refused at ingest%s: %s", r[i].refused.num,
             r[i].refused.num == 1 ? "" : "s", r[i].refused.num == 1 ? "was" : "were",
             strstr(r[i].refused.text, "clock") || strstr(r[i].refused.text, "time")
                 ? " (clock problem)" : "", r[i].refused.text);
    diag_fact(f, "refused files", &r[i].refused);
    diag_advice(f,
             "nothing of a refused file is analysed: fix it as the message says "
             "(for a clock problem: one wall-clock epoch at start plus monotonic "
             "deltas) and ingest it again");
    return 1;
}

/* "+02:00" for an offset in seconds. */
static void zone_text(long off, char *out, size_t cap)
{
    long a = off < 0 ? -off : off;
    snprintf(out, cap, "%c%02ld:%02ld", off < 0 ? '-' : '+', a / 3600, a / 60 % 60);
}

static const char *base_name(const char *p)
{
    const char *b = strrchr(p, '/');
    return b ? b + 1 : p;
}

/* Files of a run that do not share the samples' clock, and a server log
 * whose zone does not match (or may not match) the samples. */
static int clock_mismatch(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    const cow_run_facts *x = &r[i];
    char z[48], a[40], b[40], off[96];
    size_t used;
    int k;

    (void)n;
    if (x->nskews == 0 && x->log_zone == 0)
        return 0;
    diag_title(f, "%s", "");
    if (x->log_zone != 0) {
        zone_text((long)x->log_clock.num, z, sizeof(z));
        if (x->log_zone == 1)
            diag_title(f,
                     "%s: the log's windows fall outside the samples' span, as if "
                     "its local time were UTC%.6s: the run is not analysed",
                     base_name(x->log_clock.src), z);
        else
            diag_title(f,
                     "%s: UTC assumed for the log (no UTC pair), but UTC%.6s would "
                     "place %zu of its window stamps inside the samples' span "
                     "instead of %zu", base_name(x->log_clock.src), z, x->log_in,
                     x->log_in0);
        diag_evidence(f, "log zone", x->log_clock.src, "%s", x->log_zone == 1
                      ? "does not match the samples" : "assumed UTC");
        diag_evidence(f, "likely zone", x->log_clock.src, "UTC%s", z);
        if (x->log_zone == 2)
            diag_evidence(f, "window stamps inside the samples", x->log_clock.src,
                          "%zu as read, %zu at UTC%s", x->log_in0, x->log_in, z);
    }
    if (x->nskews > 0) {
        const cow_clock_skew *s0 = &x->skews[0];
        zone_text(s0->off_s, z, sizeof(z));
        used = strlen(f->title);
        diag_title_add(f,
                 "%s%d file%s not on the %s clock: %s lies %.1f h from %s "
                 "(likely offset %.6s)", used ? "; " : "", x->nskews,
                 x->nskews == 1 ? "" : "s", s0->ref_info ? "INFO series'" : "samples'", base_name(s0->file), s0->gap_s / 3600,
                 base_name(s0->ref), s0->kind == COW_SKEW_OTHER ? "none" : z);
    }
    for (k = 0; k < x->nskews && k < COW_FACT_SKEWS && f->nev + 3 <= COW_MAX_EVIDENCE; k++) {
        const cow_clock_skew *s = &x->skews[k];
        time_format_iso_s(s->f0_us, a, sizeof(a));
        time_format_iso_s(s->f1_us, b, sizeof(b));
        diag_evidence(f, "file span", s->file, "%s .. %s", a, b);
        time_format_iso_s(s->r0_us, a, sizeof(a));
        time_format_iso_s(s->r1_us, b, sizeof(b));
        diag_evidence(f, s->ref_info ? "INFO series' span" : "samples' span", s->ref,
                      "%s .. %s", a, b);
        clock_skew_offset_text(s, off, sizeof(off));
        diag_evidence(f, "likely offset", s->file, "%s", off);
    }
    if (x->log_zone != 0 && x->nskews == 0)
        diag_advice(f,
                 "give the log's zone with --log-tz %s (or run.json log_tz) and "
                 "ingest the folder again: nothing is reloaded, the log's events "
                 "move to UTC%s", z, x->log_zone == 2 ? " (if the log is UTC, "
                 "give --log-tz +00:00 to say so)" : "");
    else
        diag_advice(f,
                 "the samples' clock (without samples, the INFO series') is the "
                 "reference: a file stamped in local time "
                 "or by a host whose clock is off is laid hours away from the "
                 "windows; write its stamps in UTC (or fix that host's clock) and "
                 "ingest it again with --replace%s",
                 x->log_zone != 0 ? "; for the log, give --log-tz" : "");
    return 1;
}

/* A replica lagging this much (INFO slaveN lag, whole seconds) during a
 * run means the primary stalled or the link saturated. */
#define REPLICA_LAG_WARN_S 1

static int replica_lag(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    (void)n;
    if (!r[i].replica_lag.known || !(r[i].replica_lag.num >= REPLICA_LAG_WARN_S))
        return 0;
    diag_title(f,
             "a replica lagged %.0f s behind the primary (INFO slaveN lag)",
             r[i].replica_lag.num);
    diag_fact(f, "replica lag (s)", &r[i].replica_lag);
    diag_advice(f,
             "lag during a save means the primary stalled (fork, copy-on-write) "
             "or the replication link was saturated by the full sync; check the "
             "fork findings and repl-backlog-size");
    return 1;
}

/* ------------------------------------------------- evidence without samples */

/* A latency the built-in monitor recorded that is a stall by any measure
 * (the monitor is tuned for spikes of hundreds of ms). */
#define LATMON_SPIKE_MS 100.0

/* The server log's own copy-on-write figure, where no INFO says how large
 * the dataset is (cow_memory_headroom weighs it when INFO does). */
static int log_cow(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    (void)n;
    if (!r[i].cow_mb.known || !(r[i].cow_mb.num > 0) || r[i].used_memory.known)
        return 0;
    diag_title(f,
             "the server's log says a save's child used %.0f MB of copy-on-write "
             "memory (no INFO to weigh it against used_memory)", r[i].cow_mb.num);
    diag_fact(f, "copy-on-write (log, MB)", &r[i].cow_mb);
    diag_advice(f,
             "every save needs that much free memory while it runs, and each "
             "copied page was a fault the server waited on: leave that headroom, "
             "save when writes are low or on a replica; capture INFO and latency "
             "samples next time to see what it cost the tail");
    return 1;
}

static int child_killed(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    (void)n;
    if (!r[i].child_killed.known || !(r[i].child_killed.num > 0))
        return 0;
    diag_title(f,
             "%.0f fork child%s of the server %s killed or ended in error (%s)",
             r[i].child_killed.num, r[i].child_killed.num == 1 ? "" : "ren",
             r[i].child_killed.num == 1 ? "was" : "were", r[i].child_killed.text);
    diag_fact(f, "killed or failed children", &r[i].child_killed);
    diag_advice(f,
             "signal 9 during a save is usually the kernel's OOM killer (dmesg: "
             "'Out of memory: Killed process'): copy-on-write pushed memory past "
             "what the host has. Leave headroom for copy-on-write, keep "
             "vm.overcommit_memory=1, lower maxmemory; a save that did not finish "
             "left no new snapshot, and a replica waiting for it syncs again");
    return 1;
}

static int latmon_thp(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    (void)n;
    if (!r[i].latmon_thp.known)
        return 0;
    diag_title(f,
             "the server's own LATENCY DOCTOR says anonymous huge pages back its "
             "heap");
    diag_fact(f, "LATENCY DOCTOR", &r[i].latmon_thp);
    diag_fact(f, "AnonHugePages", &r[i].anon_huge);
    diag_fact(f, "THP enabled", &r[i].thp_enabled);
    diag_advice(f,
             "confirm with AnonHugePages in /proc/<server pid>/smaps_rollup during "
             "a save; on kernels before 5.8 a copy-on-write fault copies the whole "
             "2 MiB page: set THP to madvise (Redis >= 6.2's disable-thp yes then "
             "keeps it off for the server) and restart the server");
    return 1;
}

static int latmon_spike(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    int command;
    (void)n;
    if (!r[i].latmon_spike.known || !(r[i].latmon_spike.num >= LATMON_SPIKE_MS))
        return 0;
    command = strncmp(r[i].latmon_spike.text, "command", 7) == 0 ||
              strncmp(r[i].latmon_spike.text, "fast-command", 12) == 0;
    diag_title(f,
             "the server's latency monitor recorded a %.0f ms stall: %s",
             r[i].latmon_spike.num, r[i].latmon_spike.text);
    diag_evidence(f, "largest LATENCY event", r[i].latmon_spike.src, "%.0f ms, %s",
                  r[i].latmon_spike.num, r[i].latmon_spike.text);
    diag_advice(f, "%s",
             command ? "a command that blocked the server that long: read SLOWLOG GET "
                       "for it (large keys deleted or expired, KEYS, big LRANGE/SMEMBERS) "
                       "and whether it ran during a save"
                     : "line its time up with the saves in the log: a fork or an AOF "
                       "fsync of that length stalls every client; the fork and "
                       "copy-on-write findings say which");
    return 1;
}

static const cow_rule rules[] = {
    {"tail_only_lift", COW_SEV_WARN, tail_only_lift,
     "p99/p99.9 lifted significantly while p50 stayed flat"},
    {"full_lift", COW_SEV_WARN, full_lift,
     "p50 lifted too: the whole distribution moved"},
    {"thin_tail", COW_SEV_INFO, thin_tail,
     "p99.9 quoted from too few samples for an interval (or, without samples, "
     "a tool's p99.9 from fewer than 3,688 requests)"},
    {"fork_not_the_cost", COW_SEV_INFO, fork_not_the_cost,
     "latest_fork_usec is small next to the measured lift"},
    {"fork_is_the_cost", COW_SEV_WARN, fork_is_the_cost,
     "samples in flight while the fork ran waited it out (warning when the run's worst "
     "sample is among them)"},
    {"slow_fork", COW_SEV_WARN, slow_fork,
     "fork rate (used_memory / fork time) below 25 GB/s"},
    {"thp_backing_heap", COW_SEV_CRIT, thp_backing,
     "AnonHugePages > 0 in the server: THP amplifies copy-on-write"},
    {"thp_not_backing_heap", COW_SEV_INFO, thp_not_backing,
     "THP on system-wide but not (or not known to be) backing the heap"},
    {"disk_vs_diskless_sync", COW_SEV_INFO, disk_vs_diskless,
     "disk and diskless full syncs compared"},
    {"full_resyncs", COW_SEV_INFO, full_resyncs,
     "full resynchronisations counted"},
    {"readonly_control_flat", COW_SEV_INFO, readonly_control,
     "a read-only control stayed flat while a write run lifted"},
    {"monitor_blind_spot", COW_SEV_WARN, monitor_blind_spot,
     "a measured lift the built-in latency monitor did not see"},
    {"overlapping_forks", COW_SEV_WARN, overlapping_forks,
     "fork/save windows overlap, or runs of one host saved at once"},
    {"cow_memory_headroom", COW_SEV_WARN, cow_headroom,
     "copy-on-write large next to the dataset or the memory limit"},
    {"aof_rewrite_still_forks", COW_SEV_WARN, aof_still_forks,
     "AOF rewrite forks even with forkless save"},
    {"periodic_save_spikes", COW_SEV_WARN, periodic_spikes,
     "tail lifts at each of several periodic saves"},
    {"unstable_baseline", COW_SEV_WARN, unstable_baseline,
     "the baseline moved materially around a window (before against after, or its halves)"},
    {"overcommit_memory", COW_SEV_WARN, overcommit,
     "vm.overcommit_memory is not 1 (or the server warned)"},
    {"swappiness_high", COW_SEV_INFO, swappiness, "vm.swappiness above 10"},
    {"numa_balancing_on", COW_SEV_INFO, numa_balancing,
     "kernel.numa_balancing is on"},
    {"thp_always", COW_SEV_INFO, thp_always,
     "transparent_hugepage/enabled is always"},
    {"ingest_refusals", COW_SEV_WARN, ingest_refusals,
     "files of the run were refused at ingest (clock, unit, bad lines)"},
    {"clock_mismatch", COW_SEV_WARN, clock_mismatch,
     "files of one run hours apart, or a server log's zone that does not "
     "match the samples"},
    {"replica_lag", COW_SEV_INFO, replica_lag,
     "a replica lagged a second or more (INFO slaveN lag)"},
    {"log_cow", COW_SEV_WARN, log_cow,
     "the server log's copy-on-write size, where no INFO gives used_memory"},
    {"save_child_killed", COW_SEV_WARN, child_killed,
     "a save, transfer or rewrite child was killed by a signal or ended in error"},
    {"latency_doctor_thp", COW_SEV_WARN, latmon_thp,
     "the server's LATENCY DOCTOR says anonymous huge pages back the heap"},
    {"latency_spike", COW_SEV_WARN, latmon_spike,
     "LATENCY LATEST/HISTORY recorded a stall of 100 ms or more"},
    {NULL, 0, NULL, NULL}
};

const cow_rule *diag_rules(void)
{
    return rules;
}
