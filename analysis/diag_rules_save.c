/* diag_rules_save.c -- the doctor's rules on what a save costs: huge
 * pages under copy-on-write, disk or diskless syncs and full resyncs,
 * overlapping and periodic forks, copy-on-write headroom. Listed in
 * diag_rules.c's table. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "boot.h"
#include "diag_rules_int.h"
#include "verdict.h"

/* COW above this fraction of the dataset is a memory headroom risk. */
#define COW_FRACTION_WARN 0.25
/* used + COW above this fraction of maxmemory risks eviction or OOM. */
#define COW_LIMIT_WARN 0.9
/* Kernels from 5.8 split a THP on a COW fault and copy 4 KiB. */
#define THP_SPLIT_KERNEL_MAJOR 5
#define THP_SPLIT_KERNEL_MINOR 8

/* ----------------------------------------------------------- THP */

/* Kernel version from INFO os ("Linux 6.1.0-18-amd64 x86_64"). */
static int kernel_version(const cow_fact *os, int *major, int *minor)
{
    const char *p;
    if (!os->known || (p = strstr(os->text, "Linux ")) == NULL)
        return 0;
    return sscanf(p + 6, "%d.%d", major, minor) == 2;
}

int rule_thp_backing(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
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

int rule_thp_not_backing(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    (void)n;
    if (!r[i].thp_enabled.known || diag_thp_is(&r[i].thp_enabled, "never"))
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
        /* why it is 0 depends on the setting: under madvise only memory
         * that asks gets huge pages, and the server does not ask (its
         * disable-thp acts on 'always' alone) */
        diag_fact(f, "disable-thp", &r[i].disable_thp);
        if (diag_thp_is(&r[i].thp_enabled, "always"))
            diag_advice(f,
                     "do not chase THP here: since Redis 6.2 disable-thp yes (the "
                     "default) turns THP off for the server without a log line. Look "
                     "at plain 4 KiB copy-on-write and the child's disk I/O");
        else
            diag_advice(f,
                     "do not chase THP here: under madvise only memory that asks for "
                     "huge pages gets them, and the server does not ask. Look at plain "
                     "4 KiB copy-on-write and the child's disk I/O");
    } else {
        /* only 'always' puts huge pages under a server that did not ask
         * (madvise, the recommended setting, needs the server to ask) */
        if (diag_thp_is(&r[i].thp_enabled, "always"))
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
    return x->worst.present && x->worst.kind == kind && diag_lifted(&x->worst);
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

/* Two runs' saves copied on write amounts COW_LOAD_RATIO or more apart:
 * their loads wrote unlike amounts (a read-only control against a writing
 * load), so their syncs do not compare. */
#define COW_LOAD_RATIO 4.0

static int same_write_load(const cow_run_facts *a, const cow_run_facts *b)
{
    double x = a->rdb_last_cow_size.num, y = b->rdb_last_cow_size.num;
    if (!a->rdb_last_cow_size.known || !b->rdb_last_cow_size.known || !(x > 0) || !(y > 0))
        return 1; /* not known: the host and the mode are all there is */
    return x < y ? y < COW_LOAD_RATIO * x : x < COW_LOAD_RATIO * y;
}

int rule_disk_vs_diskless(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    size_t j, other = n;
    if (!r[i].worst.present || r[i].worst.kind != COW_PHASE_SYNC_DISK)
        return 0;
    for (j = 0; j < n; j++)
        if (r[j].worst.present && r[j].worst.kind == COW_PHASE_SYNC_DISKLESS &&
            (r[i].host == NULL || r[j].host == NULL || strcmp(r[i].host, r[j].host) == 0) &&
            same_write_load(&r[i], &r[j]))
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
    diag_delta_evidence(f, &r[i].worst, L999);
    diag_evidence(f, "p99.9 delta (diskless run)", r[other].label, "%+.3f ms (%s)",
                  r[other].worst.delta_us[L999] / 1000,
                  boot_verdict_name(r[other].worst.verdict[L999]));
    diag_fact(f, "repl-diskless-sync", &r[i].diskless_sync);
    diag_fact(f, "attach-to-link-up disk", &r[i].repl_sync);
    diag_fact(f, "attach-to-link-up diskless", &r[other].repl_sync);
    sync_advice(&r[i], &r[other], f);
    return 1;
}

int rule_full_resyncs(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
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
    if (r[i].backlog_created.known && r[i].backlog_created.num > 0) {
        /* the backlog was made for this sync: a first sync, which no
         * backlog size turns into a partial one */
        diag_fact(f, "replication backlog created", &r[i].backlog_created);
        diag_advice(f,
                 "the primary created its replication backlog for this sync: a "
                 "replica's first sync is always a full one, whatever "
                 "repl-backlog-size says. Attach new replicas (autoscaling) off-peak, "
                 "or seed them from a replica; repl-backlog-size matters for the "
                 "reconnects after");
    } else
        diag_advice(f,
                 "size repl-backlog-size to cover the longest replica disconnect so "
                 "replicas resume with a partial sync; attach new replicas (autoscaling) "
                 "off-peak, or seed them from a replica");
    return 1;
}

/* ----------------------------------------------------------- forks */

int rule_overlapping_forks(const cow_run_facts *r, size_t n, size_t i,
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

int rule_cow_headroom(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
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
             "lower write throughput while it runs (`cowtail tradeoff` weighs a fork "
             "run against a forkless one)");
    return 1;
}

int rule_aof_still_forks(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    int forkless = (r[i].mode && strcmp(r[i].mode, "forkless") == 0) ||
                   diag_is_text(&r[i].bgsave_type, "forkless");
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

int rule_periodic_spikes(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
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
