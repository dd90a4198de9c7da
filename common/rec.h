/* rec.h -- the typed records parsers emit and the store keeps.
 *
 * All times are UTC epoch microseconds; 0 in t_us means "not placed in
 * time" (a snapshot without a stamp). Strings in a record are borrowed:
 * whoever receives a record copies what it keeps before returning. */
#ifndef COW_COMMON_REC_H
#define COW_COMMON_REC_H

#include <stddef.h>
#include <stdint.h>

enum cow_rec_kind {
    COW_REC_SAMPLE = 1, /* one measured request latency */
    COW_REC_EVENT,      /* a server/harness event: save start, COW, sync... */
    COW_REC_INFO,       /* one INFO field (or sub-field) at an instant */
    COW_REC_STAT,       /* a kernel-side value: smaps, meminfo, THP, sysctl */
    COW_REC_MEM,        /* one point of a memory time series */
    COW_REC_LATMON,     /* LATENCY LATEST/HISTORY/DOCTOR content */
    COW_REC_INTERVAL,   /* per-interval min/max/avg/count (--latency-history) */
    COW_REC_PCTL,       /* a percentile from a percentile-only source */
    COW_REC_REJECT,     /* a rejected input line */
    COW_REC_NOTE,       /* what the parser recognised or assumed */
    COW_REC_PROC,       /* a process that wrote a server log, and who it is */
    COW_REC_QUIET       /* a probe's stall (no reply) or gap (slots not sent) */
};

typedef struct cow_sample {
    int64_t t_us;       /* request start (or completion), epoch us */
    double lat_us;      /* round-trip latency in microseconds */
    const char *op;     /* command name, or NULL */
    int64_t alt_us;     /* the shift to the sample's other reading (us):
                           t_us + alt_us, lat_us - alt_us; > 0 when read
                           from the intended send (the other: the actual
                           send), < 0 when read from the actual send, 0
                           when no intended send is known */
} cow_sample;

typedef struct cow_event {
    int64_t t_us;       /* epoch us */
    const char *kind;   /* stable snake_case id, e.g. "bgsave_start" */
    long pid;           /* process that logged it, 0 if unknown */
    double value;       /* measured value, NAN if none */
    const char *unit;   /* unit of value ("MB", "s", "us"...), or NULL */
    const char *text;   /* the original line or message */
    long line;          /* input line, 0 if n/a */
} cow_event;

typedef struct cow_info {
    int64_t t_us;        /* when the dump was taken, 0 if unknown */
    int dump;            /* 0-based index of the dump within the file */
    const char *section; /* "Persistence", ... as written (compare without
                            case); "" before any header, "config" for
                            CONFIG GET output */
    const char *key;     /* field name, e.g. "rdb_last_cow_size" or "db0" */
    const char *sub;     /* sub-field ("keys" of db0), or NULL */
    const char *text;    /* value as written */
    double num;          /* numeric value, NAN when not numeric */
    long line;           /* input line */
} cow_info;

typedef struct cow_stat {
    int64_t t_us;        /* snapshot time, 0 if unknown */
    const char *source;  /* "smaps_rollup", "smaps", "meminfo", "vmstat",
                            "cgroup", "thp", "sysctl", "status" */
    const char *key;     /* field, e.g. "AnonHugePages", "enabled" */
    const char *text;    /* value as written (THP: the bracketed choice) */
    double num;          /* numeric value in base unit (bytes for kB), or NAN */
    const char *unit;    /* "bytes", "pages", NULL */
    long line;           /* input line */
} cow_stat;

typedef struct cow_mem {
    int64_t t_us;        /* epoch us */
    double bytes;        /* memory in bytes */
    const char *what;    /* series name, e.g. "memory.current", "rss" */
} cow_mem;

typedef struct cow_latmon {
    int64_t t_us;        /* event time (LATENCY HISTORY/LATEST), 0 if none */
    const char *kind;    /* "latest", "history", "doctor" */
    const char *event;   /* monitor event name ("fork", "command"), or NULL */
    double lat_ms;       /* latency of that sample / latest, NAN if none */
    double max_ms;       /* all-time max (LATEST), NAN if none */
    const char *text;    /* DOCTOR text, or NULL */
    int none_observed;   /* 1 when DOCTOR said no spike was observed */
    long line;           /* input line */
} cow_latmon;

typedef struct cow_interval {
    int64_t t_us;        /* interval end (redis-cli, memtier) or start
                            (throughput-csv), epoch us: each parser says */
    double dur_s;        /* interval length, seconds */
    double min_us, max_us, avg_us; /* latency figures in microseconds; NaN
                            when the source has none (throughput series, a
                            memtier second with no requests) */
    int64_t count;       /* samples (or operations) in the interval */
    const char *op;      /* command, or NULL */
    long line;           /* input line */
} cow_interval;

typedef struct cow_pctl {
    const char *source;  /* "memtier", "redis-benchmark", "hdr" */
    const char *op;      /* command or "totals", or NULL */
    int64_t t_us;        /* when known, else 0 */
    double q;            /* quantile as a percentage, e.g. 99.9 */
    double value_us;     /* latency at q in microseconds */
    int64_t count;       /* samples at or below value_us when the source
                            says (HdrHistogram TotalCount), else the total
                            behind the distribution, 0 if unknown */
    long line;           /* input line */
} cow_pctl;

typedef struct cow_reject {
    long line;           /* 1-based input line */
    const char *reason;  /* why, phrased for the user */
    const char *text;    /* the line (the sink keeps an excerpt) */
    size_t n;            /* length of text */
} cow_reject;

typedef struct cow_note {
    const char *key;     /* e.g. "time_unit", "latency_column" */
    const char *value;   /* e.g. "epoch ms (by magnitude)" */
} cow_note;

/* One process that wrote lines into a server log (emitted once per pid,
 * at the end of the file): what the lines say about who it is. */
typedef struct cow_proc {
    long pid;            /* the lines' pid */
    const char *roles;   /* role letters its lines carried (M, S, C, X), ""
                            when the layout has none */
    long parent;         /* the pid that forked it ("started by pid N"), 0 */
    int replica;         /* logged replica-side lines (MASTER <-> REPLICA
                            sync, Connecting to MASTER, turning into a
                            replica) */
    int server;          /* logged a startup line (version=..., just started) */
    long port;           /* "Running mode=..., port=N", 0 if not logged */
    const char *version; /* from the startup line, or NULL */
    long line;           /* its first line */
} cow_proc;

/* A period a probe reports of itself (`cowtail capture`'s stalls.csv and
 * probe-gaps.csv): a stall, in which the server answered nothing while
 * requests waited, or a gap, slots the probe did not send. */
typedef struct cow_quiet {
    const char *kind;    /* "stall" or "gap" */
    int64_t t_us;        /* start, epoch us */
    int64_t dur_us;      /* length */
    int64_t n;           /* stall: requests waiting at its end; gap: slots */
    const char *how;     /* stall: "reply" or "end" (the capture ended
                            first); gap: "late", "buffer" or "cap" */
    long line;           /* input line */
} cow_quiet;

typedef struct cow_rec {
    int kind;            /* enum cow_rec_kind */
    union {
        cow_sample sample;
        cow_event event;
        cow_info info;
        cow_stat stat;
        cow_mem mem;
        cow_latmon latmon;
        cow_interval interval;
        cow_pctl pctl;
        cow_reject reject;
        cow_note note;
        cow_proc proc;
        cow_quiet quiet;
    } u;
} cow_rec;

#endif
