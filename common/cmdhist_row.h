/* cmdhist_row.h -- one row of a LATENCY HISTOGRAM (ingest/latmon.c, stats
 * source "latency-histogram"): what the store gives back and the analysis
 * reads (analysis/cmdhist.h). Plain data. */
#ifndef COW_COMMON_CMDHIST_ROW_H
#define COW_COMMON_CMDHIST_ROW_H

#include <stdint.h>

typedef struct cow_cmdhist_row {
    char *file;            /* the file it came from (owned) */
    char *cmd;             /* the command (owned) */
    int64_t bound_us;      /* the bucket's bound, us; 0 for the calls row */
    double n;              /* calls at or below the bound (the calls row:
                              all the command's calls) */
    long line;             /* input line */
} cow_cmdhist_row;

#endif
