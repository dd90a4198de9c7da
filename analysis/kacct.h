/* kacct.h -- the kernel's own account of a save window (capture's
 * kstat.csv as cow_kstat_row readings): the main thread's page faults,
 * system time and run-queue wait in the window against their rates
 * before it, and the fork children's I/O; and the causes it supports,
 * weighed in one place (kacct_causes) for the doctor's finding and the
 * answer's cause alike. Pure. */
#ifndef COW_ANALYSIS_KACCT_H
#define COW_ANALYSIS_KACCT_H

#include <stddef.h>
#include <stdint.h>

#include "kstat.h"

typedef struct cow_kacct {
    int known;            /* the main thread's readings cover the window */
    double win_s;         /* the window's length, s */
    int has_before;       /* and at least KACCT_BEFORE_MIN_S before it */
    double before_s;      /* the length of that stretch, s */
    /* the main thread, in the window */
    double minflt, majflt, stime_ms, delay_ms;
    /* per second before the window (NAN without has_before) */
    double minflt_rate0, stime_rate0_ms, delay_rate0_ms;
    /* in the window beyond what the rate before gives (>= 0; the whole
     * amount without has_before) */
    double minflt_x, stime_x_ms, delay_x_ms;
    /* the fork children that ran in it: their own counters summed (NAN
     * when no child was read) */
    int children;
    double child_write_bytes, child_read_bytes, child_cpu_ms;
    long line0, line1;    /* kstat.csv lines of the readings at its ends */
} cow_kacct;

/* Readings needed before the window for a rate: at least this long. */
#define KACCT_BEFORE_MIN_S 1.0

/* The account of [t0_us, t1_us] from rows (time order, main and child
 * readings mixed). out->known 0 when the main thread's readings do not
 * bracket the window. */
void kacct_window(const cow_kstat_row *rows, size_t n, int64_t t0_us, int64_t t1_us,
                  cow_kacct *out);

/* What the account can blame, and how much of the main thread's time it
 * took (ms): copy-on-write (system time beyond its rate before, while
 * minor faults rose at least KACCT_FAULT_RATIO times and by at least
 * KACCT_FAULT_MIN), CPU contention (run-queue wait beyond its rate
 * before, at least KACCT_WAIT_SHARE of the window and KACCT_WAIT_MIN_MS)
 * and the fork (its own duration, when at least 10 ms: a shorter one
 * stalls no one). */
#define KACCT_FAULT_RATIO 3.0
#define KACCT_FAULT_MIN 1000.0
#define KACCT_WAIT_SHARE 0.05
#define KACCT_WAIT_MIN_MS 20.0
#define KACCT_FORK_MIN_MS 10.0

enum cow_kcause { KC_COW = 0, KC_CPU, KC_FORK, KC_COUNT };

typedef struct cow_kcauses {
    int n;                    /* material causes, strongest first */
    int kind[KC_COUNT];       /* enum cow_kcause */
    double ms[KC_COUNT];      /* the main thread's time each took */
} cow_kcauses;

/* The material causes of k, strongest first; fork_ms NAN when unknown. */
void kacct_causes(const cow_kacct *k, double fork_ms, cow_kcauses *out);

/* The cause as one phrase, "copy-on-write: the main thread took 40,244
 * minor faults ... ; also CPU contention, ...; the fork, 12.3 ms", a heap
 * string; NULL when nothing is material or the fork comes first (the fork
 * findings say it). fork_worst: the run's worst sample was in flight
 * while the fork ran, which the fork's mention says (the tail's top is
 * the fork's even where the other costs took more time). */
char *kacct_cause_text(const cow_kacct *k, double fork_ms, int fork_worst);

/* One line of what the account says of the main thread and the children,
 * whatever is material (heap string), for the finding's title and
 * evidence. */
char *kacct_faults_text(const cow_kacct *k);
char *kacct_wait_text(const cow_kacct *k);
char *kacct_child_text(const cow_kacct *k); /* NULL without a child */

#endif
