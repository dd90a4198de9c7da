/* facts.h -- gather a run's facts for the doctor from the store (analysis
 * results, INFO, CONFIG, kernel files, log events, latency monitor). */
#ifndef COW_APP_FACTS_H
#define COW_APP_FACTS_H

#include "diag.h"
#include "phase.h"
#include "store.h"
#include "tradeoff.h"

/* rs's phases as analysis/ sees them (kind as enum cow_phase_kind, -1 for
 * a name it does not know; source borrowed from rs): an array of rs->nph,
 * caller frees. */
cow_phase *facts_phases(const cow_result_set *rs);

/* Fill f for run r (analysing it first when it never was). f borrows
 * r's strings. */
int facts_load(cow_store *st, const cow_run_row *r, cow_run_facts *f, cow_err *e);
/* Only the facts the gate reads (check.c: used_memory, rdb_last_cow_size,
 * the log's COW size, latest_fork_usec, AnonHugePages), by the same
 * queries as facts_load; every other field as memset leaves it. A run's
 * judgement is most of check's work beyond the ingest, and the doctor's
 * other thirty-odd facts (clock skews among them) were a fifth of it. */
int facts_load_gate(cow_store *st, const cow_run_row *r, cow_run_facts *f, cow_err *e);

/* Fill the trade-off metrics of run r (analysing it first when needed):
 * COW, memory growth and wall time of its first save, writer throughput
 * and worst round trip over the capture, fork time. */
int facts_trial(cow_store *st, const cow_run_row *r, cow_trial *t, cow_err *e);

/* Operations per second during phase w of run r: from the load writers'
 * throughput intervals (each counted by its share inside w), else INFO
 * total_commands_processed over the shortest span of polls that holds w,
 * else the mean of INFO instantaneous_ops_per_sec polled inside w; NaN
 * when none tells. *src names the source (static), NULL with NaN. */
/* facts_rate_in's *src for the load writers' own intervals */
#define FACTS_SRC_WRITERS "the load writers"

/* *paced 1 when the load writers' rate was the same (within 1%) in every
 * interval of the run outside window w (savewin_rate_steady), else 0. */
int facts_rate_paced_in(cow_store *st, const cow_run_row *r, const cow_phase *w, int *paced,
                        cow_err *e);
int facts_rate_in(cow_store *st, const cow_run_row *r, const cow_phase *w, double *ops_s,
                  const char **src, cow_err *e);

/* The (host, scenario) group of rows[0..n) that has runs of at least two
 * modes and the most such runs: modes are only comparable on one host
 * and one workload. Returns 0 and sets *host / *scenario (borrowed, may be
 * NULL for "not set") when one exists, -1 otherwise. */
int facts_tradeoff_group(const cow_run_row *rows, size_t n, const char **host,
                         const char **scenario);
/* 1 when run r belongs to that group. */
int facts_in_group(const cow_run_row *r, const char *host, const char *scenario);

/* 1 when two runs are trials of one experiment: same scenario, host and
 * mode (run.json). */
int facts_same_group(const cow_run_row *a, const cow_run_row *b);
/* Latencies of every run of like's group (whole runs), pooled and sorted:
 * *v (caller frees), *m values, *runs runs. */
int facts_pool_group(cow_store *st, const cow_run_row *rows, size_t n,
                     const cow_run_row *like, double **v, size_t *m, int *runs,
                     cow_err *e);
/* "scenario (mode, host)" with the parts run.json gave; the caller frees it. */
char *facts_group_name(const cow_run_row *r);

#endif
