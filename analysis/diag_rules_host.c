/* diag_rules_host.c -- the doctor's rules on the host and the inputs:
 * kernel settings, refused files, clocks that disagree, replica lag, and
 * the evidence the server itself gives without samples (its log, LATENCY).
 * Listed in diag_rules.c's table. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "boot.h"
#include "diag_rules_int.h"
#include "timeconv.h"

/* vm.swappiness above this lets the kernel swap the server's heap. */
#define SWAPPINESS_WARN 10

/* ----------------------------------------------------------- settings */

const char *diag_overcommit_advice(const cow_run_facts *x)
{
    if (!x->overcommit.known || isnan(x->overcommit.num))
        return "make sure vm.overcommit_memory=1 (not captured)";
    if (x->overcommit.num == 1)
        return "keep vm.overcommit_memory=1";
    if (x->overcommit.num == 2)
        return "set vm.overcommit_memory=1 (it is 2 here)";
    return "set vm.overcommit_memory=1 (it is 0 here)";
}

int rule_overcommit(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
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

static const struct cow_threshold swappiness = {
    DIAG_FACT(swappiness), DIAG_ABOVE, SWAPPINESS_WARN, 0,
    "vm.swappiness is ", ": under copy-on-write memory pressure the kernel may swap "
    "the server's heap",
    {{"vm.swappiness", DIAG_FACT(swappiness)}},
    "set vm.swappiness to 1 (or 0) on cache hosts, and keep memory "
    "headroom for copy-on-write"};

int rule_swappiness(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    /* a host without swap swaps nothing, whatever vm.swappiness says */
    if (r[i].swap_total.known && r[i].swap_total.num == 0)
        return 0;
    return diag_threshold_fire(&swappiness, r, n, i, f);
}

static const struct cow_threshold numa_balancing = {
    DIAG_FACT(numa), DIAG_ABOVE, 0, 0,
    "kernel.numa_balancing is on: page migrations add latency spikes", NULL,
    {{"kernel.numa_balancing", DIAG_FACT(numa)}},
    "sysctl kernel.numa_balancing=0 on dedicated cache hosts, and bind "
    "the server to one node (numactl) if it fits"};

int rule_numa_balancing(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    return diag_threshold_fire(&numa_balancing, r, n, i, f);
}

int rule_thp_always(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    (void)n;
    /* Redis warns "you have Transparent Huge Pages (THP) support enabled"
     * exactly when it read [always] at start: the log says what the host
     * files, when missing, do not */
    if (!diag_thp_is(&r[i].thp_enabled, "always") &&
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

int rule_ingest_refusals(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
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
int rule_clock_mismatch(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
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
 * run means the primary stalled or the link saturated. lag is the seconds
 * since the replica's last REPLCONF ACK, which it sends every second: 0
 * and 1 are a healthy link. */
#define REPLICA_LAG_WARN_S 2

static const struct cow_threshold replica_lag = {
    DIAG_FACT(replica_lag), DIAG_AT_LEAST, REPLICA_LAG_WARN_S, 0,
    "a replica lagged ", " s behind the primary (INFO slaveN lag)",
    {{"replica lag (s)", DIAG_FACT(replica_lag)}},
    "lag during a save means the primary stalled (fork, copy-on-write) "
    "or the replication link was saturated by the full sync; check the "
    "fork findings and repl-backlog-size"};

int rule_replica_lag(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    return diag_threshold_fire(&replica_lag, r, n, i, f);
}

/* ------------------------------------------------- evidence without samples */

/* A latency the built-in monitor recorded that is a stall by any measure
 * (the monitor is tuned for spikes of hundreds of ms). */
#define LATMON_SPIKE_MS 100.0

/* The server log's own copy-on-write figure, where no INFO says how large
 * the dataset is (cow_memory_headroom weighs it when INFO does). */
static const struct cow_threshold log_cow = {
    DIAG_FACT(cow_mb), DIAG_ABOVE, 0, DIAG_FACT(used_memory),
    "the server's log says a save's child used ", " MB of copy-on-write memory (no "
    "INFO to weigh it against used_memory)",
    {{"copy-on-write (log, MB)", DIAG_FACT(cow_mb)}},
    "every save needs that much free memory while it runs, and each "
    "copied page was a fault the server waited on: leave that headroom, "
    "save when writes are low or on a replica; capture INFO and latency "
    "samples next time to see what it cost the tail"};

int rule_log_cow(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    return diag_threshold_fire(&log_cow, r, n, i, f);
}

int rule_child_killed(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
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
             "find who killed it before blaming memory: the kernel's OOM killer "
             "leaves 'Out of memory: Killed process <pid>' in dmesg, and no kernel "
             "log is in this run; when it is the OOM killer, copy-on-write pushed "
             "memory past what the host has: leave headroom for it, %s, lower "
             "maxmemory. A save that did not finish left no new snapshot, and a "
             "replica waiting for it syncs again", diag_overcommit_advice(&r[i]));
    return 1;
}

static const struct cow_threshold latmon_thp = {
    DIAG_FACT(latmon_thp), DIAG_KNOWN, 0, 0,
    "the server's own LATENCY DOCTOR says anonymous huge pages back its heap", NULL,
    {{"LATENCY DOCTOR", DIAG_FACT(latmon_thp)}, {"AnonHugePages", DIAG_FACT(anon_huge)},
     {"THP enabled", DIAG_FACT(thp_enabled)}},
    "confirm with AnonHugePages in /proc/<server pid>/smaps_rollup during "
    "a save; on kernels before 5.8 a copy-on-write fault copies the whole "
    "2 MiB page: set THP to madvise (Redis >= 6.2's disable-thp yes then "
    "keeps it off for the server) and restart the server"};

int rule_latmon_thp(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    return diag_threshold_fire(&latmon_thp, r, n, i, f);
}

/* What a latency monitor event is and what to do about it, by its name
 * (the events of Redis's and Valkey's latency monitor): a command to
 * SLOWLOG, a fork to the fork findings, the AOF's writes and fsyncs to
 * the disk and appendfsync, the expire and eviction cycles to the keys
 * they free; "" for a name it does not know. */
static const struct {
    const char *prefix, *advice;
} latmon_advice[] = {
    {"command", "a command that blocked the server that long: read SLOWLOG GET for it "
                "(large keys deleted or expired, KEYS, big LRANGE/SMEMBERS) and whether it "
                "ran during a save"},
    {"fast-command", "an O(1) command that blocked the server that long waited on the "
                     "host (swap, CPU steal, a fault): read SLOWLOG GET and the host's "
                     "memory and CPU at that time"},
    {"fork", "the fork itself stalled the server that long: the fork findings weigh it "
             "against the samples; keep instances small, save on a replica or off-peak"},
    {"aof-fsync-always", "appendfsync always waited that long on the disk's fsync: a "
                         "slower disk or a save's child writing at the same time; use "
                         "appendfsync everysec, or give the AOF its own disk"},
    {"aof-write", "a write of the AOF blocked the server that long: the disk was busy "
                  "(often with a save's child or an AOF rewrite); set "
                  "no-appendfsync-on-rewrite yes or give the AOF its own disk"},
    {"aof-fstat", "the AOF's fstat blocked that long: the disk was saturated; check its "
                  "I/O during saves and rewrites"},
    {"aof-rename", "renaming the rewritten AOF blocked that long (closing the old file "
                   "frees it on the main thread): give the AOF its own disk or enable "
                   "lazyfree where the server supports it"},
    {"aof-rewrite-diff-write", "writing the rewrite's diff blocked that long: the disk "
                               "was busy; rewrite when writes are low"},
    {"expire-cycle", "the active expire cycle freed keys for that long: many keys "
                     "expiring at once or large ones; spread the TTLs and set "
                     "lazyfree-lazy-expire yes"},
    {"eviction", "evicting keys under maxmemory blocked that long: set "
                 "lazyfree-lazy-eviction yes, or leave headroom under maxmemory"},
    {"active-defrag", "active defragmentation ran that long: lower "
                      "active-defrag-cycle-max"},
};

static const char *latmon_event_advice(const char *event)
{
    size_t k;
    for (k = 0; k < sizeof(latmon_advice) / sizeof(latmon_advice[0]); k++) {
        size_t n = strlen(latmon_advice[k].prefix);
        if (strncmp(event, latmon_advice[k].prefix, n) == 0 &&
            (event[n] == ' ' || event[n] == '-' || event[n] == '\0'))
            return latmon_advice[k].advice;
    }
    return "";
}

int rule_latmon_spike(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    const char *advice;
    (void)n;
    if (!r[i].latmon_spike.known || !(r[i].latmon_spike.num >= LATMON_SPIKE_MS))
        return 0;
    advice = latmon_event_advice(r[i].latmon_spike.text);
    diag_title(f,
             "the server's latency monitor recorded a %.0f ms stall: %s",
             r[i].latmon_spike.num, r[i].latmon_spike.text);
    diag_evidence(f, "largest LATENCY event", r[i].latmon_spike.src, "%.0f ms, %s",
                  r[i].latmon_spike.num, r[i].latmon_spike.text);
    diag_advice(f, "%s",
             advice[0] ? advice
                       : "line its time up with the saves in the log: a fork or an AOF "
                         "fsync of that length stalls every client; the fork and "
                         "copy-on-write findings say which");
    return 1;
}
