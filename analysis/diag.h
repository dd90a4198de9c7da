/* diag.h -- `cowtail doctor`: rules that explain a tail-latency lift from
 * the facts of each run, with the evidence they used and what to change.
 *
 *     cow_run_facts f[n];            filled by the caller from the store
 *     cow_findings out;
 *     diag_run(f, n, &out);
 *     out.v[i].rule, .severity, .run, .title, .ev[], .advice
 *     diag_release(&out);
 *
 * Rules are one small function each, listed in diag_rules.c's table with a
 * stable snake_case id (documented in the README). A rule sees every run
 * (some compare runs: disk vs diskless sync, read-only control), and fires
 * for the run it is evaluating. Pure: no I/O. */
#ifndef COW_ANALYSIS_DIAG_H
#define COW_ANALYSIS_DIAG_H

#include <stddef.h>
#include <stdint.h>

#include "clock.h"
#include "fact.h"
#include "cmdhist.h"
#include "kacct.h"
#include "phase.h"

enum cow_severity { COW_SEV_INFO = 0, COW_SEV_WARN, COW_SEV_CRIT };

/* The window of a run that lifted the tail most, against the baseline. */
typedef struct cow_window_fact {
    int present;          /* 1 when a window was compared with a baseline */
    char label[32];       /* "sync-disk#1" */
    int kind;             /* enum cow_phase_kind */
    int64_t n, base_n;    /* samples in the window and the baseline */
    double delta_us[4];   /* p50, p90, p99, p99.9 deltas (bootstrap) */
    double lo_us[4], hi_us[4]; /* their 95% intervals */
    int verdict[4];       /* enum cow_verdict of each */
    double base_us[4];    /* baseline quantiles */
    double value_us[4];   /* window quantiles */
    int thin[4];          /* tail too thin at that level */
    double n_eff_base[4]; /* effective samples of the baseline at each level */
    double n_eff[4];      /* and of the window (NaN: older analysis) */
    int method[4];        /* enum cow_qcmp_method that decided (verdict.h) */
    double p_up[4];       /* one-sided p-value of the lift */
    double max_us;        /* worst sample in the window */
    int overlap;          /* overlaps another fork window */
} cow_window_fact;

/* Windows of a run remembered for comparing runs of one host. */
#define COW_FACT_WINDOWS 16
/* Files with a mismatched clock remembered per run. */
#define COW_FACT_SKEWS 4

typedef struct cow_run_facts {
    const char *label;    /* run label */
    const char *scenario; /* run.json scenario, or NULL */
    const char *mode;     /* fork / forkless, or NULL */
    const char *host;     /* run.json host, or NULL */
    int64_t samples;      /* latency samples */
    int analysed;         /* `cowtail analyze` results exist */
    int nwindows;         /* fork/save windows */
    int noverlap;         /* windows marked overlapping */
    int nsaves;           /* bgsave windows */
    int nlifted;          /* windows with a p99 or p99.9 lift */
    double save_period_s; /* median gap between bgsave starts, NaN if < 3 */
    int thin_p999;        /* p99.9 of baseline or window from < 3,688
                             effective samples (n_eff, dep.h) */
    int64_t base_n;       /* baseline samples */
    cow_window_fact worst;/* the window that lifted the tail most */
    int has_sync_disk, has_sync_diskless; /* such windows exist */
    /* INFO and CONFIG (last values) */
    cow_fact latest_fork_usec, used_memory, maxmemory, rdb_last_cow_size,
        aof_last_cow_size, sync_full, os, version, bgsave_type, lm_threshold,
        diskless_sync, disable_thp, appendonly;
    /* kernel side */
    cow_fact anon_huge;   /* AnonHugePages of the server (max over snapshots) */
    cow_fact anonymous;   /* Anonymous of the server */
    cow_fact thp_enabled, overcommit, swappiness, numa;
    cow_fact swap_total;  /* /proc/meminfo SwapTotal (bytes; 0: the host has no swap) */
    cow_fact thp_split;   /* /proc/vmstat thp_split_pmd's rise over the capture */
    /* server log */
    cow_fact warn_thp, warn_overcommit, full_resync, cow_mb;
    /* "Replication backlog created" lines: the primary had no backlog, so
     * those syncs were its replicas' first, which are always full */
    cow_fact backlog_created;
    /* "Starting BGSAVE for SYNC" lines: one fork each, however many
     * replicas it serves */
    cow_fact sync_forks;
    /* the log's save / transfer / rewrite children killed by a signal or
     * ended in error (num = count, src the first) */
    cow_fact child_killed;
    /* built-in latency monitor */
    cow_fact latmon_fork; /* LATENCY HISTORY fork rows with a latency */
    cow_fact latmon_none; /* DOCTOR texts saying no spike was observed */
    cow_fact latmon_thp;  /* DOCTOR's own huge-page advice (text: its line) */
    cow_fact latmon_spike;/* the largest LATENCY LATEST/HISTORY latency (ms) */
    /* ingest: files refused whole (num = count, text = first reason) */
    cow_fact refused;
    /* percentile-only sources (no samples): the run's reported p99.9 (num
     * in us, text "0.295 ms, memtier Totals") and the requests behind it
     * (0 when the tool does not say) */
    cow_fact reported_p999;
    int64_t reported_n;
    /* replication: worst replica lag (s) seen in INFO during a window */
    cow_fact replica_lag;
    /* other runs of the same host whose windows overlap this run's */
    int host_overlaps;
    const char *host_overlap_with; /* one of them (its label, borrowed) */
    /* absolute fork/save windows, for the cross-run overlap test */
    int64_t win_t0[COW_FACT_WINDOWS], win_t1[COW_FACT_WINDOWS];
    int nwin;
    /* clocks: files whose span lies hours from the samples' (clock.h),
     * the first COW_FACT_SKEWS of nskews */
    cow_clock_skew skews[COW_FACT_SKEWS];
    int nskews;
    /* a server log's zone: found not to match the samples (log_zone = 1:
     * clocks 'mismatch'), or assumed UTC while a whole-hour offset would
     * place more of its window stamps inside the samples' span (2: text
     * the log, num the offset, log_in0 / log_in of the stamps inside) */
    int log_zone;
    cow_fact log_clock;   /* text: the evidence; src: the log; num: offset s */
    size_t log_in0, log_in;
    /* the first replica sync attempt that reached link up, from the
     * replica's own log: num attach-to-link-up in s, text it and its parts,
     * src the replica and log line (known 0 without one) */
    cow_fact repl_sync;
    /* the latest fork against the samples in flight while it ran: the fork
     * took fork_dur_us (fork_dur) and ended at the log's "started"
     * stamp of window fork_window; fork_inflight_n samples were sent
     * before it ended and answered after it began, the longest of them
     * fork_inflight_max_us, sent fork_inflight_sent_us after the fork
     * began (negative: before); run_max_us is the run's worst sample */
    int fork_inflight;       /* 1 when all of this is known */
    cow_fact fork_dur;       /* the fork time used: latest_fork_usec, else the
                                LATENCY HISTORY fork row at the window (us) */
    char fork_window[32];
    int64_t fork_inflight_n;
    double fork_dur_us, fork_inflight_max_us, fork_inflight_sent_us, run_max_us;
    /* after the fork, in its window: fork_after_n samples sent after the
     * fork ended took at least fork_after_min_us (half the fork: as slow as
     * its stall), the last of them answered fork_after_span_us after the
     * fork ended (0 and NaN when none) */
    int64_t fork_after_n;
    double fork_after_min_us, fork_after_span_us;
    /* the kernel's own account of the latest fork window (kacct.h;
     * capture's kstat.csv): kstat.known when there is one, src the file
     * and the lines of the window's ends */
    cow_fact kstat;
    cow_kacct kacct;
    /* the server's own per-command latency (LATENCY HISTOGRAM, cmdhist.h) */
    cow_cmdhist cmdhist;
    /* the longest command the server's latency monitor recorded in the
     * latest fork window (event command or fast-command): num ms, text the
     * event, src file:line; win_cmd_at_s its stamp from the window's start
     * (s, stamps are whole seconds) */
    cow_fact win_cmd;
    double win_cmd_at_s;
    /* memory series: growth during the first window */
    double mem_growth_bytes; /* NaN when no series covers a window */
    char mem_src[200];    /* file of the series */
    /* the baseline around a window moved materially (runstats.h
     * Requirement 7): how, and the first such window ("" when none) */
    char unstable[200];
    char unstable_in[32];
    int nunstable;        /* windows with such a baseline */
} cow_run_facts;

#define COW_MAX_EVIDENCE 8

/* Every text of a finding is a heap string of any length (a 2,000-byte
 * label or path is kept whole), owned by the finding: diag_release frees
 * them. */
typedef struct cow_evidence {
    char *metric;         /* e.g. "latest_fork_usec" */
    char *value;          /* as shown */
    char *src;            /* file:line, or "analysis" ("" when none) */
} cow_evidence;

/* A quantile comparison a finding rests on, for --json: how many samples
 * (and effective samples) stood behind it and which rule decided. */
#define COW_MAX_QSTATS 4

typedef struct cow_qstat {
    const char *quantile; /* "p99.9" */
    char window[32];      /* window label */
    int64_t n, base_n;    /* samples in the window and the baseline */
    double n_eff, n_eff_base; /* effective samples (NaN: older analysis) */
    int method;           /* enum cow_qcmp_method (verdict.h) */
    int verdict;          /* enum cow_verdict */
} cow_qstat;

typedef struct cow_finding {
    const char *rule;     /* stable id, e.g. "tail_only_lift" */
    int severity;         /* enum cow_severity */
    char *run;            /* run label */
    char *title;          /* one line (never NULL once the rule fired) */
    cow_evidence ev[COW_MAX_EVIDENCE]; /* what it used */
    int nev;
    cow_qstat qs[COW_MAX_QSTATS]; /* quantile comparisons used */
    int nqs;
    char *advice;         /* what to change or check */
} cow_finding;

typedef struct cow_findings {
    cow_finding *v;       /* in run order, then rule-table order */
    size_t n, cap;
} cow_findings;

/* One rule: fills f and returns 1 when it fires for runs[i]. */
typedef int (*cow_rule_fn)(const cow_run_facts *runs, size_t n, size_t i,
                           cow_finding *f);

typedef struct cow_rule {
    const char *id;       /* stable snake_case id */
    int severity;         /* default severity (a rule may raise it) */
    cow_rule_fn fn;       /* predicate + evidence + advice */
    const char *what;     /* one line for the README and --rules */
} cow_rule;

/* Count, for each run, the other runs of the same host whose windows
 * overlap its own in time (several instances saving at once). */
void diag_host_overlaps(cow_run_facts *runs, size_t n);

/* The fork time the kernel's account weighs (ms, NAN unknown), and the
 * cause it supports as one phrase (heap string; NULL when it has no
 * account or blames the fork alone): diag_rules_kernel.c, read by the
 * finding and the answer alike. */
double diag_kernel_fork_ms(const cow_run_facts *x);
char *diag_kernel_cause(const cow_run_facts *x);
/* A command the latency monitor recorded in the latest fork window as the
 * cause (heap phrase, NULL when it is not one): it blocked the server 1.5
 * times as long as the fork or more (one about as long is BGSAVE itself,
 * which the monitor times fork included) and for at least half the
 * window's worst sample (diag_rules_cmd.c, read by the finding and the answer alike). */
char *diag_command_cause(const cow_run_facts *x);

/* The rule table, terminated by a NULL id. */
const cow_rule *diag_rules(void);
void diag_run(const cow_run_facts *runs, size_t n, cow_findings *out);
void diag_release(cow_findings *f);
const char *diag_severity_name(int s);
/* Helpers for rules (diag_evidence.c): add one evidence line; the text of
 * every finding is a heap string of any length, owned by the finding. */
void diag_evidence(cow_finding *f, const char *metric, const char *src,
                   const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void diag_fact(cow_finding *f, const char *metric, const cow_fact *v);
/* Set or append to the title and the advice (heap strings, any length). */
void diag_title(cow_finding *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void diag_title_add(cow_finding *f, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void diag_advice(cow_finding *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void diag_advice_add(cow_finding *f, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Free one finding's strings (diag_release frees them all). */
void diag_finding_free(cow_finding *f);

#endif
