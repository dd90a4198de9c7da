/* cmdhist.h -- the server's own per-command latency (LATENCY HISTOGRAM,
 * Redis 7+): the commands that ran slower than COW_CMDHIST_SLOW_US, each
 * with how slow and how many, since the counters were reset or, when the
 * run holds the capture's snapshot from its start
 * (latency-histogram-start.txt) and one from its end, during the run.
 * Commands whose time is a fork's (BGSAVE, BGREWRITEAOF, SYNC, PSYNC) are
 * left out: their latency is the fork, which the fork's own findings
 * state. Pure. */
#ifndef COW_ANALYSIS_CMDHIST_H
#define COW_ANALYSIS_CMDHIST_H

#include <stddef.h>

#include "cmdhist_row.h"

/* A call slower than this is a slow command (10 ms). */
#define COW_CMDHIST_SLOW_US 10000
#define COW_CMDHIST_MAX 4

typedef struct cow_cmdslow {
    char cmd[64];
    double calls;          /* its calls (in the run, when during) */
    double top_us;         /* the bound of its slowest bucket: each call
                              took at most this */
    double over_us;        /* over_n's calls took longer than this (a
                              bound at or below COW_CMDHIST_SLOW_US, or
                              half the first bound above it) */
    double over_n;         /* calls that took longer than over_us */
    long line;             /* its calls row's line */
} cow_cmdslow;

typedef struct cow_cmdhist {
    int known;             /* a histogram with at least one command */
    int during;            /* the difference of a start and an end snapshot */
    size_t ncmds;          /* commands in it */
    size_t n;              /* slow commands, slowest first */
    cow_cmdslow v[COW_CMDHIST_MAX];
    char file[200];        /* the (end) snapshot's file */
} cow_cmdhist;

/* rows: by file, in each file in its order (calls row, then its buckets). */
void cmdhist_summarise(const cow_cmdhist_row *rows, size_t n, cow_cmdhist *out);

#endif
