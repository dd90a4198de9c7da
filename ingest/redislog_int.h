/* redislog_int.h -- what the server log's files share (private to
 * ingest/): the line grammar (redislog_line.c) and the table of messages
 * that are events (redislog_msg.c); redislog.c holds the parse state, the
 * clock and the driver. */
#ifndef COW_INGEST_REDISLOG_INT_H
#define COW_INGEST_REDISLOG_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "src.h"

enum rl_layout {
    LAYOUT_LEGACY = 1,  /* pid:R stamp L msg */
    LAYOUT_V2 = 2,      /* [pid] stamp L msg */
    LAYOUT_LOGFMT = 4,  /* pid=N role=R timestamp="T" level=V message="m" */
    LAYOUT_SIGNAL = 8,  /* pid:signal-handler (secs) msg */
    LAYOUT_SYSLOG = 512 /* a bare message after a syslog/journal prefix */
};

enum rl_stamp_kind {
    STAMP_CIVIL = 16,   /* local civil time with year */
    STAMP_NOYEAR = 32,  /* local civil time, year unknown */
    STAMP_ISO = 64,     /* iso8601 with an offset: absolute */
    STAMP_MS = 128,     /* epoch milliseconds: absolute */
    STAMP_SECS = 256    /* epoch seconds (signal handler): absolute */
};

typedef struct rl_stamp {
    int kind;           /* enum rl_stamp_kind */
    int y, mon, d;      /* civil date (y = 0 for STAMP_NOYEAR) */
    int h, mi, s, ms;   /* civil time of day */
    int64_t abs_us;     /* UTC epoch us for the absolute kinds */
} rl_stamp;

typedef struct rl_line {
    int layout;         /* enum rl_layout */
    long pid;           /* writing process */
    char role;          /* 'M','S','C','X', 0 when the layout has none */
    char level;         /* '.','-','*','#', 0 for signal-handler lines */
    rl_stamp ts;        /* the stamp as written */
    const char *msg;    /* message (not NUL terminated) */
    size_t nmsg;        /* its length */
} rl_line;

enum rl_verdict {
    LN_RAW,             /* no log prefix: logo, crash report, not a log */
    LN_OK,              /* a well-formed log line */
    LN_BAD              /* has the prefix but the stamp or layout is broken */
};

/* Classify one line (without its end) and split it into *l; *why says
 * what is broken for LN_BAD. */
enum rl_verdict rl_line_parse(const char *p, size_t n, rl_line *l, const char **why);
/* syslog-enabled yes: the message alone after a syslog or journal prefix
 * (ln->pre), which gives the stamp and the pid; false when it is not one. */
bool rl_syslog_line(const cow_line *ln, rl_line *l);

enum rl_val {
    V_NONE,        /* no value */
    V_AFTER,       /* number right after the prefix */
    V_AFTER_HAS,   /* number right after the `has` text */
    V_LEAD,        /* number at the start; no number = no match */
    V_PEAK,        /* "peak N MB" of a Fork CoW line */
    V_LAST,        /* the last number of the message */
    V_TARGET,      /* BGSAVE for SYNC target: unit "disk" or "socket" */
    V_VERSION      /* server_start + version */
};

typedef struct rl_rule {
    const char *prefix;       /* message starts with this */
    const char *has;          /* and contains this, or NULL */
    const char *kind;         /* event id */
    const char *kind_verbose; /* id at verbose level ('-'), or NULL */
    int val;                  /* enum rl_val */
    const char *unit;         /* unit of the value, or NULL */
} rl_rule;

/* The first row of the table whose message matches norm (the message with
 * the words of other generations rewritten), or NULL. */
const rl_rule *rl_rule_find(const char *norm);
/* The value of a matched rule; false when the line lacks it. */
bool rl_rule_value(const rl_rule *r, const char *s, double *v, const char **unit);

#endif
