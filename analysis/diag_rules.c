/* diag_rules.c -- the doctor's rules: one table, one row per rule (id,
 * severity, what it checks, the function). The functions are in
 * diag_rules_lift.c, diag_rules_save.c and diag_rules_host.c, one each.
 *
 * Each rule reads the facts of every run (cow_run_facts, diag.h) and fires
 * for run i, citing the values it used and the file:line they came from.
 * Thresholds are named constants with the reason next to them. */
#include <stddef.h>

#include "diag_rules_int.h"

static const cow_rule rules[] = {
    {"tail_only_lift", COW_SEV_WARN, rule_tail_only_lift,
     "p99/p99.9 lifted significantly while p50 stayed flat"},
    {"full_lift", COW_SEV_WARN, rule_full_lift,
     "p50 lifted too: the whole distribution moved"},
    {"thin_tail", COW_SEV_INFO, rule_thin_tail,
     "p99.9 quoted from too few samples for an interval (or, without samples, "
     "a tool's p99.9 from fewer than 3,688 requests)"},
    {"fork_not_the_cost", COW_SEV_INFO, rule_fork_not_the_cost,
     "latest_fork_usec is small next to the measured lift"},
    {"kernel_account", COW_SEV_WARN, rule_kernel_account,
     "the kernel's account of the latest fork window (capture's kstat.csv): copy-on-write "
     "faults, run-queue wait or the fork, the strongest first, with the numbers"},
    {"slow_command", COW_SEV_WARN, rule_slow_command,
     "commands the server itself timed over 10 ms (LATENCY HISTOGRAM), the slowest first"},
    {"command_in_save", COW_SEV_WARN, rule_command_in_save,
     "the server's latency monitor recorded a command of 10 ms or more, and 1.5 times the "
     "fork or more, inside the latest fork window: the cause when it lasted half the "
     "window's worst sample"},
    {"slowness_outlasts_fork", COW_SEV_WARN, rule_slowness_outlasts_fork,
     "samples as slow as the fork's stall go on for a second or more after it: not the fork's"},
    {"fork_is_the_cost", COW_SEV_WARN, rule_fork_is_the_cost,
     "samples in flight while the fork ran waited it out (warning when the run's worst "
     "sample is among them)"},
    {"slow_fork", COW_SEV_WARN, rule_slow_fork,
     "fork rate (used_memory / fork time) below 25 GB/s"},
    {"thp_backing_heap", COW_SEV_CRIT, rule_thp_backing,
     "AnonHugePages > 0 in the server: THP amplifies copy-on-write"},
    {"thp_not_backing_heap", COW_SEV_INFO, rule_thp_not_backing,
     "THP on system-wide but not (or not known to be) backing the heap"},
    {"disk_vs_diskless_sync", COW_SEV_INFO, rule_disk_vs_diskless,
     "disk and diskless full syncs compared"},
    {"full_resyncs", COW_SEV_INFO, rule_full_resyncs,
     "full resynchronisations counted"},
    {"readonly_control_flat", COW_SEV_INFO, rule_readonly_control,
     "a read-only control stayed flat while a write run lifted"},
    {"monitor_blind_spot", COW_SEV_WARN, rule_monitor_blind_spot,
     "a measured lift the built-in latency monitor did not see"},
    {"overlapping_forks", COW_SEV_WARN, rule_overlapping_forks,
     "fork/save windows overlap, or runs of one host saved at once"},
    {"cow_memory_headroom", COW_SEV_WARN, rule_cow_headroom,
     "copy-on-write large next to the dataset or the memory limit"},
    {"aof_rewrite_still_forks", COW_SEV_WARN, rule_aof_still_forks,
     "AOF rewrite forks even with forkless save"},
    {"periodic_save_spikes", COW_SEV_WARN, rule_periodic_spikes,
     "tail lifts at each of several periodic saves"},
    {"unstable_baseline", COW_SEV_WARN, rule_unstable_baseline,
     "the baseline moved materially around a window (before against after, or its halves)"},
    {"overcommit_memory", COW_SEV_WARN, rule_overcommit,
     "vm.overcommit_memory is not 1 (or the server warned)"},
    {"swappiness_high", COW_SEV_INFO, rule_swappiness, "vm.swappiness above 10"},
    {"numa_balancing_on", COW_SEV_INFO, rule_numa_balancing,
     "kernel.numa_balancing is on"},
    {"thp_always", COW_SEV_INFO, rule_thp_always,
     "transparent_hugepage/enabled is always"},
    {"ingest_refusals", COW_SEV_WARN, rule_ingest_refusals,
     "files of the run were refused at ingest (clock, unit, bad lines)"},
    {"clock_mismatch", COW_SEV_WARN, rule_clock_mismatch,
     "files of one run hours apart, or a server log's zone that does not "
     "match the samples"},
    {"replica_lag", COW_SEV_INFO, rule_replica_lag,
     "a replica lagged a second or more (INFO slaveN lag)"},
    {"log_cow", COW_SEV_WARN, rule_log_cow,
     "the server log's copy-on-write size, where no INFO gives used_memory"},
    {"save_child_killed", COW_SEV_WARN, rule_child_killed,
     "a save, transfer or rewrite child was killed by a signal or ended in error"},
    {"latency_doctor_thp", COW_SEV_WARN, rule_latmon_thp,
     "the server's LATENCY DOCTOR says anonymous huge pages back the heap"},
    {"latency_spike", COW_SEV_WARN, rule_latmon_spike,
     "LATENCY LATEST/HISTORY recorded a stall of 100 ms or more"},
    {NULL, 0, NULL, NULL}
};

const cow_rule *diag_rules(void)
{
    return rules;
}
