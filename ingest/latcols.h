/* latcols.h -- what a latency capture's columns mean, shared by the CSV and
 * JSON sample parsers.
 *
 *     latcols lc;
 *     latcols_init(&lc, opts);
 *     for each header name: latcols_add(&lc, index, name);
 *     if (latcols_check(&lc, path, line, e)) refuse;
 *     for each row: latcols_time(&lc, field, n, &t_us, &why) ...
 *
 * Column names are matched case-insensitively after stripping quotes, a
 * unit in parentheses or brackets ("latency (ms)", "lat[us]") and a unit
 * suffix (_ns _us _ms _s, also usec/msec/sec/nanos/micros/millis). */
#ifndef COW_INGEST_LATCOLS_H
#define COW_INGEST_LATCOLS_H

#include <stddef.h>
#include <stdint.h>

#include "parser.h"

enum latcol_role { LATCOL_NONE = 0, LATCOL_TIME, LATCOL_LAT, LATCOL_OP };

/* Clock sanity limits. A capture is one run: stamps may step back a
 * little when several connections write completion-ordered rows, but
 * not by more than this. */
#define LATCOLS_BACKWARDS_TOL_US (INT64_C(5) * 1000000)
/* Longer than this is not one run: probably two clocks mixed. */
#define LATCOLS_MAX_SPAN_US (INT64_C(31) * 86400 * 1000000)

/* The lag histogram: 16 bins per doubling from 1 us (4.4% wide) up to
 * LATCOLS_MAX_SPAN_US (2^42 us). */
#define LATCOLS_LAG_PER_OCTAVE 16
#define LATCOLS_LAG_BINS (1 + 42 * LATCOLS_LAG_PER_OCTAVE)

typedef struct latcols {
    const cow_parse_opts *o;   /* flags and run.json settings */
    int time_col, lat_col, op_col; /* column index, -1 if absent */
    int int_col;               /* intended send time (open-loop probes), -1 */
    double int_unit_us;        /* its unit from the header, 0 = the time's */
    char *int_name;            /* its name as written (owned), NULL until seen */
    long long int_n, int_bad;  /* intended times read / unreadable */
    long long int_late;        /* sent more than 1 ms after intended */
    long long int_moved;       /* samples moved to their intended send */
    long long int_ahead;       /* "intended" more than 1 ms after the send */
    double int_lag_sum_us, int_lag_max_us; /* send - intended */
    double int_colat_max_us;   /* reply - intended: latency without
                                  coordinated omission, its largest */
    long long int_lag_hist[LATCOLS_LAG_BINS]; /* lags by bin: 0 under 1 us,
                                  then LATCOLS_LAG_PER_OCTAVE per doubling
                                  (for the p99 the note reports) */
    int time_prio, lat_prio;   /* alias rank of the chosen columns */
    char *time_name;           /* column names as written, for messages */
    char *lat_name;            /* (owned, like int_name and dup_name) */
    double time_unit_us;       /* us per time unit from the header, 0 = unknown */
    double lat_unit_us;        /* us per latency unit, 0 = unknown */
    const char *lat_unit_from; /* "header", "--latency-unit" */
    int time_decided;          /* first stamp seen and the clock chosen */
    int time_iso;              /* stamps are ISO 8601 text */
    int time_epoch;            /* 1 epoch, 0 relative (anchored at t0) */
    double time_mult;          /* us per unit of the time column */
    int64_t first_us, last_us; /* span seen so far */
    int64_t max_us;            /* largest stamp so far */
    char time_how[128];        /* how the clock was decided, for the note */
    int dup_col, dup_of;       /* a column as good as a chosen one, -1 none */
    char *dup_name;            /* its name, for the refusal (owned) */
    long long nback;           /* steps back by more than LATCOLS_STEP_NOTE_US */
    int64_t worst_back_us;     /* the largest of them */
} latcols;

/* A step back in time larger than this is counted and named in a note
 * (completion-ordered rows step back by milliseconds, not seconds). */
#define LATCOLS_STEP_NOTE_US (INT64_C(1000000))

/* latcols_init zeroes lc; latcols_release frees the column names that
 * latcols_add kept (every latcols initialised must be released). */
void latcols_init(latcols *lc, const cow_parse_opts *o);
void latcols_release(latcols *lc);
/* Consider column idx named name[0..n). */
void latcols_add(latcols *lc, int idx, const char *name, size_t n);
/* Check that time and latency columns and the latency unit are known;
 * otherwise fill e with what to do (path/line set by the caller). */
int latcols_check(latcols *lc, cow_err *e);
/* Like latcols_check for files whose values are not latencies: only the
 * time column must be known. */
int latcols_check_time(latcols *lc, cow_err *e);
/* Convert a time field. Returns 0 and *t_us, or an error code: COW_EPARSE
 * for a bad field (a reject; *why set), COW_EUNIT/COW_ECLOCK for a problem
 * that refuses the whole file (e filled). */
int latcols_time(latcols *lc, const char *p, size_t n, int64_t *t_us,
                 const char **why, cow_err *e);
/* Same for a numeric time field already parsed (JSON numbers). */
int latcols_time_num(latcols *lc, double v, int64_t *t_us, const char **why,
                     cow_err *e);
/* An intended-send field of a sample already read (t_us its actual send,
 * lat_us its latency): counted in the int_* figures that latcols_notes
 * reports; never rejects the sample. 1 and *lag_us (send - intended) when
 * usable, else 0. */
int latcols_intended(latcols *lc, const char *p, size_t n, int64_t t_us,
                     double lat_us, int64_t *lag_us);
/* Convert a latency field: 0 and *lat_us, or COW_EPARSE with *why. */
int latcols_latency(const latcols *lc, const char *p, size_t n, double *lat_us,
                    const char **why);
/* Same for a number already parsed. */
int latcols_latency_num(const latcols *lc, double v, double *lat_us,
                        const char **why);
/* Emit notes saying which columns and clock were used. */
int latcols_notes(const latcols *lc, cow_sink *k, cow_err *e);
/* Fast path used by both parsers: parse a plain decimal number. */
int latcols_parse_number(const char *p, size_t n, double *v);

/* Interned op names: pointers stay valid until opnames_release. An op
 * column with more distinct values than this is not a command name (the
 * samples keep no op beyond it, and a note says so). */
#define OPNAMES_MAX 256
typedef struct opnames {
    char **names;       /* distinct names seen */
    size_t n, cap;      /* used and allocated */
} opnames;

const char *opnames_intern(opnames *t, const char *p, size_t n);
void opnames_release(opnames *t);

#endif
