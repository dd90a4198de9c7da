/* latmon_int.h -- what the LATENCY parser's files share (private to
 * ingest/): the section state of latmon.c, and what latmon_head.c
 * recognises in a line, a file name or a file's head. */
#ifndef COW_INGEST_LATMON_INT_H
#define COW_INGEST_LATMON_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parser.h"

/* One LATENCY reply is at most 160 samples per event (LATENCY_TS_LEN) over
 * a few dozen events; a section far longer is not LATENCY output. */
#define LM_MAX_LINES 100000
/* Longest event name kept (module events included). */
#define LM_NAME_MAX 64

typedef enum lm_kind { LM_NONE, LM_LATEST, LM_HISTORY, LM_DOCTOR, LM_HISTOGRAM } lm_kind;

typedef struct lm_line {
    long no;          /* input line */
    size_t off, n;    /* text in the section's bytes (NUL terminated) */
    int eol;          /* 0 for an unterminated last line */
    int echo;         /* a transcript's prompt or command echo ("info",
                         "ping" alone): data in a HISTOGRAM (command names),
                         skipped in the other replies */
} lm_line;

typedef struct lm_leaf {
    int is_str;               /* 1 name, 0 integer */
    int64_t num;              /* integer value */
    char str[LM_NAME_MAX];    /* name */
    size_t li;                /* index of its line in the section */
} lm_leaf;

typedef struct lm_ctx {
    cow_src *s;               /* input */
    cow_sink *k;              /* output */
    lm_kind kind;             /* section kind from its header, LM_NONE */
    char event[LM_NAME_MAX];  /* HISTORY event from the header, or "" */
    long header_line;         /* header line, 0 when none */
    char *bytes;              /* section lines, copied */
    size_t nbytes, capbytes;
    lm_line *lines;           /* section lines */
    size_t nlines, caplines;
    lm_leaf *leaves;          /* leaves of a LATEST/HISTORY section */
    size_t nleaves, capleaves;
    lm_kind name_kind;        /* kind named by the file name */
    char name_event[LM_NAME_MAX]; /* event named by the file name */
    long long good, bad;      /* records emitted, lines rejected */
    long long lines_ok;       /* lines that held usable content */
    int noted_valkey;         /* the 5-number note was emitted */
    int noted_noevent;        /* the unknown-event note was emitted */
    int doctor_event_hit;     /* the last DOCTOR event line read whole */
    int nsections;            /* sections parsed so far */
    char seen[256];           /* what was recognised, for the final note */
} lm_ctx;

static inline int lm_lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static inline bool lm_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* An event name: a letter, then letters, digits, '-', '_' or '.'. */
bool lm_is_name(const char *p, size_t n);
/* Header line? Returns its kind (LM_NONE when not a header) and copies a
 * HISTORY event into event ("" when none). */
lm_kind lm_header(const char *p, size_t n, char *event);
/* The first words of a LATENCY DOCTOR reply. */
/* A line that is LATENCY HISTOGRAM's "histogram_usec" key (piped, quoted
 * or with the terminal's "4) " prefixes). */
bool lm_histogram_key(const char *p, size_t n);
bool lm_doctor_opener(const char *p, size_t n);
/* An epoch in seconds within the years cowtail accepts. */
bool lm_plausible_s(int64_t ts);
/* Kind (and HISTORY event) named by the file: c->name_kind, c->name_event. */
void lm_name_hints(lm_ctx *c, const char *fname);
/* The parser's sniff (cow_parser): how surely head is LATENCY output. */
int lm_sniff(const char *fname, const char *head, size_t n);

#endif
