/* kstat.h -- one reading of the kernel's account of a task (capture's
 * kstat.csv, ingest/kstat.c): what the store gives back and the analysis
 * reads (analysis/kacct.h). Plain data. */
#ifndef COW_COMMON_KSTAT_H
#define COW_COMMON_KSTAT_H

#include <stdint.h>

typedef struct cow_kstat_row {
    int64_t t_us;          /* when it was read, epoch us */
    long pid;              /* the task (a child's counters start at its fork) */
    int child;             /* 0 the server's main thread, 1 a fork child */
    /* counters since the task began; NAN when the reading lacks one */
    double minflt, majflt; /* page faults, minor and major */
    double cpu_us;         /* user + system time */
    double stime_us;       /* of which system (the kernel: faults) */
    double delay_us;       /* time runnable but waiting on a run queue */
    double read_bytes, write_bytes; /* storage I/O */
    long line;             /* kstat.csv line */
} cow_kstat_row;

#endif
