/* answer.h -- one answer per run, decided once and read by every output:
 * what happened (the window that moved the tail most: kind, start,
 * length), how sure (the tail verdict with its estimate and bound), the
 * cause the evidence supports (fork time, copy-on-write size and its
 * share of used_memory, THP really backing the heap or not, disk or
 * diskless transfer, a killed child), the gate's result when limits were
 * given, and what to do.
 *
 *     app_answers a;
 *     app_answers_build(st, rows, n, facts, &findings, fleet_or_NULL, th_or_NULL, &a, e);
 *     for (i = 0; i < a.nsay; i++) {
 *         char *line = app_answer_line(&a.v[a.order[i]], APP_ANSWER_MD); ... free(line); }
 *     a.nquiet runs had nothing to say (a.quiet_* say why)
 *     app_answers_release(&a);
 *
 * `doctor` prints the lines, summary.md (and the other report outputs)
 * write them: neither decides anything of its own. */
#ifndef COW_APP_ANSWER_H
#define COW_APP_ANSWER_H

#include <stddef.h>
#include <stdint.h>

#include "check.h"
#include "diag.h"
#include "err.h"
#include "quant.h"
#include "store.h"

/* THP as the capture shows it. */
enum app_thp {
    APP_THP_UNKNOWN = 0, /* no THP file, no smaps */
    APP_THP_NOT_BACKING, /* enabled, but AnonHugePages 0 in the server */
    APP_THP_BACKING,     /* huge pages back the server's heap */
    APP_THP_OFF          /* THP 'never' */
};

/* The full sync's transfer, when the window is one. */
enum app_xfer { APP_XFER_NONE = 0, APP_XFER_DISK, APP_XFER_DISKLESS };

/* The gate, when limits were given (report --thresholds, check). */
enum app_gate { APP_GATE_NONE = 0, APP_GATE_PASS, APP_GATE_FAIL };

/* Why a run had nothing to say (counted, not listed). */
enum app_quiet {
    APP_QUIET_NO = 0,     /* it has something to say */
    APP_QUIET_FLAT,       /* windows compared, no change shown (~) */
    APP_QUIET_UNSURE,     /* windows compared, too few samples to tell (?) */
    APP_QUIET_NO_WINDOW,  /* samples but no fork/save/sync window */
    APP_QUIET_NO_SAMPLES, /* no latency samples and no log evidence */
    APP_QUIET_COUNT
};

/* What a window cost the clients, measured (answer.c): what the answer
 * line states as facts and the answer table's cells print. */
typedef struct app_impact {
    double base_p99_ms;     /* the baseline's p99 (the threshold of slow), NaN */
    double stall_ms;        /* the longest time no reply came while a request
                               was outstanding, in the window: the probe's
                               own stall record where it has one (the one
                               analyze lists), else from the samples; NaN */
    double stall_at_s;      /* where it began, s after the window opened */
    double base_stall_ms;   /* the baseline's own longest, NaN */
    double tput_before;     /* ops/s in the baseline, NaN */
    double tput_during;     /* ops/s in the window, NaN */
    double tput_loss_pct;   /* 100 (1 - during / before), NaN */
    const char *tput_src;   /* where the rates come from (static), or NULL */
    int tput_paced;         /* the load writers ran at one fixed rate through
                               the baseline: throughput falls only when the
                               server falls behind (facts_rate_paced_in) */
    long long slow, n;      /* window samples beyond base_p99_ms, and all */
} app_impact;

/* "100000 -> 99819/s (-0%)" (arrow "->" or the table's), with ", a paced
 * load" when x->tput_paced; NULL when no throughput was measured. */
char *app_impact_tput_text(const app_impact *x, const char *arrow);

/* Nothing measured: every number NaN, counts 0. */
app_impact app_impact_none(void);

typedef struct app_answer {
    const char *run;      /* label (borrowed from the run row) */
    int64_t run_id;
    int synthetic;        /* run.json says a generator made it: every output
                             marks the run (app_answer_badge) */
    int say;              /* 1: listed; 0: counted in its quiet reason */
    int crit;             /* a critical finding fired for the run */
    int quiet;            /* enum app_quiet */
    /* what happened: the window whose tail rose most (not "after") */
    int has_window;
    char *window;         /* "bgsave#1" (owned) */
    char *moved;          /* how the baseline moved around it, when it
                             was unstable: "p99 0.977 ms before the
                             window, 3.812 ms after it (+290%)" (owned),
                             or NULL */
    char *kind;           /* its phase kind: "bgsave", "sync-diskless" (owned) */
    int64_t t0_us;        /* its start, UTC epoch us */
    int64_t len_us;       /* its length */
    int nwindows;         /* fork/save/sync windows in the run */
    int log_only;         /* no samples: the window is the log's longest */
    /* how sure: p99.9 of the window against the baseline */
    cow_quant base;       /* baseline p99.9 */
    cow_quant win;        /* window p99.9 */
    cow_quant delta;      /* window - baseline (q NaN), bounds as decided */
    int verdict;          /* enum cow_verdict (boot.h) */
    const char *method;   /* "bootstrap" / "tail-test" (static), or NULL */
    /* when p99.9 could not tell (or showed no change), what did show a
     * rise: a p99 lift (its delta and window), else a finding's title
     * (fork_is_the_cost, full_lift, tail_only_lift); such a run is listed,
     * not counted quiet */
    cow_quant shown_delta;  /* the p99 delta, bounds as decided */
    char *shown_in;         /* its window (owned), or NULL: no p99 lift */
    char *shown_finding;    /* the finding's title (owned), or NULL */
    double both_ms;       /* the delta's reference when the window was
                             judged against the baseline on both sides
                             (its p99.9 there, ms), else NaN */
    double median_ms;     /* the baseline's p50: a lower bound of base or
                             win below it was dropped (quant_floor), NaN */
    double worst_ms;      /* worst sample in the window, NaN */
    app_impact impact;    /* the window's measured cost (app_impact_none: none) */
    double run_worst_ms;  /* worst sample of the run (what the timeline
                             rings), NaN */
    char *run_worst_in;   /* the phase that holds it (owned), or NULL */
    /* the cause the evidence supports (NaN / 0: not known) */
    double fork_ms;       /* latest_fork_usec, or LATENCY HISTORY fork */
    double cow_mb;        /* copy-on-write of the save (INFO or the log) */
    double cow_pct_used;  /* cow_mb as % of used_memory */
    int thp;              /* enum app_thp */
    int xfer;             /* enum app_xfer */
    int child_killed;     /* the log says a fork child was killed or failed */
    int latmon_thp;       /* LATENCY DOCTOR says huge pages back the heap */
    double latmon_spike_ms; /* a LATENCY stall of 100 ms or more, NaN */
    char *cause;          /* one phrase naming the cause (owned), or NULL */
    /* the probe's own lateness, when its samples carry an intended send
     * (ingest's "intended send" note): an open-loop probe */
    int probe_known;      /* 1: the run's samples had intended sends */
    long long probe_n, probe_late; /* samples with one; sent > 1 ms late */
    double probe_p99_ms, probe_max_ms; /* send - intended (p99 NaN: older note) */
    int probe_from_intended; /* latency read from the intended send */
    /* a run without latency samples that holds other evidence: listed,
     * with what it holds (never "nothing to report") */
    int held;             /* 1: no samples, but findings, intervals or series */
    int held_findings, held_warnings; /* its findings, and those of warning or worse */
    long long held_intervals;   /* latency intervals (redis-cli, hiccup logs) */
    double held_interval_max_ms; /* their worst, NaN */
    long long held_mem;   /* memory polls */
    long long held_tput;  /* throughput intervals of the load writers */
    /* the gate */
    int gate;             /* enum app_gate: every limit */
    int gate_lift;        /* enum app_gate: the max_p999_lift_ms limit alone
                             (what the fleet chart colours) */
    char *gate_why;       /* the failed limits, or for a pass the limits its
                             estimate exceeds without the gate showing it
                             (owned), or NULL */
    /* what to do: the advice of the finding that explains the run best */
    char *todo;           /* owned, or NULL */
    const char *todo_rule;/* its rule id (static), or NULL */
} app_answer;

typedef struct app_answers {
    app_answer *v;        /* one per run, run order */
    size_t n;
    size_t nsay;          /* runs with something to say */
    size_t *order;        /* their indices in v, in the order to show them:
                             failed gates first, then critical findings,
                             then the largest p99.9 rise (nsay entries) */
    size_t nquiet[APP_QUIET_COUNT]; /* the others, by reason */
} app_answers;

/* Decide the answer of every run rows[0..n) (analysed and doctored:
 * facts[i] the doctor's facts of rows[i], fs its findings; NULL: none) and,
 * when fc and th are given (fc judged the same rows), the gate's result. */
int app_answers_build(cow_store *st, const cow_run_row *rows, size_t n,
                      const cow_run_facts *facts, const cow_findings *fs,
                      const app_fleet_check *fc, const app_thresholds *th,
                      app_answers *out, cow_err *e);
void app_answers_release(app_answers *a);

/* Where a line goes: Markdown (escaped, `code`) or a terminal. */
enum app_answer_sink { APP_ANSWER_TERM = 0, APP_ANSWER_MD };

/* A ?'s reason for a table cell: its binding part ("the block test needs
 * 10000 baseline samples (20 blocks of 500), has 501"), else why itself
 * (borrowed from why). */
const char *app_why_short(const char *why);

/* The p99.9 cells of a table row, read against each other: the delta's
 * own reference ("15.066 (both sides)" when the window was judged against
 * the baseline on both sides, else the baseline before it), and the delta
 * with its bound and a ?'s short reason (app_why_short). Each returns buf
 * (COW_QUANT_FMT_MAX bytes). */
const char *app_answer_base_cell(const app_answer *a, char *buf, size_t n);
const char *app_answer_delta_cell(const app_answer *a, char *buf, size_t n);

/* What showed a rise the p99.9 verdict could not: "p90 lift +0.214
 * [+0.168, +0.255] ms in bgsave#1", else the finding's title; NULL when
 * neither (caller frees). */
char *app_answer_shown(const app_answer *a);

/* The run's one line (caller frees), e.g.
 * "bgsave-t2: bgsave at 2026-11-30 12:04:01 UTC for 3.1 s: p99.9 lift
 * +7.301 ms (>= +0.125), 1.045 -> 8.346 ms; cause: fork 21 ms, COW 147 MB
 * (97% of used_memory), THP not backing; do: ..." */
char *app_answer_line(const app_answer *a, int sink);
/* A send lag at or above this p99 (ms) makes the answer warn that the
 * probe itself was late. */
#define APP_PROBE_LATE_MS 1.0
/* Read the run's probe lag back from ingest's "intended send" note into
 * a->probe_* (probe_known 0 when the run has none). */
int app_probe_lag(cow_store *st, int64_t run, app_answer *a, cow_err *e);
/* 1 when the probe's own send lag (latency read from the actual send)
 * reached APP_PROBE_LATE_MS at p99 (an older note without p99: more than
 * 1% of samples over 1 ms late): the answer warns. */
int app_probe_was_late(const app_answer *a);
/* The one line counting the quiet runs (caller frees), NULL when none;
 * the runs that cannot tell are named, each with its reason (a baseline
 * that moved, stalls locked to the probe) or "too few samples". */
char *app_answer_quiet_line(const app_answers *a, int sink);
/* Why one quiet run has nothing to report, as one phrase (caller frees),
 * NULL when it has something to say: the per-run form of the quiet line. */
char *app_answer_quiet_text(const app_answer *a);
/* What a held run (no samples, other evidence) holds, as one phrase:
 * "2 findings (1 of warning or worse), 40 latency intervals (worst
 * 1800.0 ms), a memory series of 120 polls" (caller frees); NULL when
 * a->held is 0. */
char *app_answer_held_text(const app_answer *a);
/* The legend printed once under the list: lift, drop, ~, ?, >=. */
const char *app_answer_legend(int sink);
/* The mark set beside a run's name wherever the report names it
 * ("SYNTHETIC": run.json says a generator made it, not a server), or NULL
 * for a real capture (static). */
const char *app_answer_badge(const app_answer *a);
/* What the mark means, one sentence (static): the report prints it once,
 * under the answer, when some run carries it. */
const char *app_answer_badge_note(void);

/* The window whose p99.9 rose most against its baseline (not an "after"
 * phase): its p99.9 delta row in rs, or NULL. The one choice the headline,
 * the answers and the workbook read. */
const cow_delta_row *app_worst_window(const cow_result_set *rs);

/* The run's own median that makes a lower bound uninformative
 * (quant_floor): the p50 of the worst window's baseline, else of the
 * baseline phase; NaN when neither is stored. Every table of the report
 * floors its quantiles with it, so one quantile reads one way. */
double app_floor_us(const cow_result_set *rs);

/* The copy-on-write each window's child reported in the server log
 * ("RDB: N MB of memory used by copy-on-write", "Fork CoW for RDB: ...
 * peak N MB"): mb[i] for phase i of ph (NaN when its log says nothing),
 * matched by the child's pid, else by time inside the window. */
int app_window_cow(cow_store *st, const cow_run_row *r, const cow_phases *ph, double *mb,
                   cow_err *e);

/* A stored quantile row (n samples behind it) as the one struct. */
cow_quant app_quant_row(const cow_quantile_row *q, int64_t n);
/* A stored delta row as the one struct (bounds as the verdict left them). */
cow_quant app_quant_delta(const cow_delta_row *d);
/* A stored verdict name ("lift", "flat", "unsure", ...) in the legend's
 * words, the one vocabulary of every table: lift / drop / ~ / ? / n/a. */
const char *app_verdict_shown(const char *stored);
/* How a stored delta row was decided, in words: "bootstrap 95% interval",
 * "exact tail test (one bound)", or "-" for an older analysis. */
const char *app_delta_method(const cow_delta_row *d);

#endif
