/* parser.h -- the parser interface and the table of known formats.
 *
 * Each format is one cow_parser row: a sniff function that looks at the
 * file name and the first bytes and returns a confidence 0..100, and a
 * parse function that reads a cow_src to the end and emits records to a
 * sink. A parse function returns COW_OK when the file may land (rejected
 * lines were emitted as COW_REC_REJECT), or an error code with e filled
 * (path and line set) when the whole file must be refused.
 *
 *     const cow_parser *p = parser_detect(name, head, nhead);
 *     if (p) rc = parser_run(p, &src, &opts, &sink, &e);
 *     else why = parser_why_unknown(head, nhead);
 */
#ifndef COW_INGEST_PARSER_H
#define COW_INGEST_PARSER_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "src.h"
#include "sink.h"

/* How many leading bytes sniffers see. */
#define COW_SNIFF_BYTES 4096

/* What the user (flags) or run.json settles that a file cannot say. */
typedef struct cow_parse_opts {
    const char *time_unit;    /* "s","ms","us","ns" for unitless time columns, or NULL */
    const char *latency_unit; /* "s","ms","us","ns" for unitless latency, or NULL */
    int64_t t0_us;            /* anchor for relative time columns */
    int has_t0;               /* t0_us is set */
    int latency_from_intended; /* --latency-from intended: a sample with an
                                  intended send (latcols.c requirement 7) is
                                  placed there, its latency reply - intended */
    int tz_off_s;             /* server log zone, seconds east of UTC */
    int has_tz;               /* tz_off_s was given (else UTC is assumed) */
    int log_year;             /* year for logs without one, 0 = unknown */
    int64_t mtime_us;         /* file modification time, 0 if unknown */
    int64_t run_time_us;      /* a time the run is known to lie near (run.json
                                 start_epoch_us of a capture, else t0): the
                                 year of a log whose lines carry none; 0 unknown */
    const char *run_time_src; /* where it came from, for the note */
    const char *fname;        /* base name of the file (stamps in names) */
    const char *mem_unit;     /* "bytes","kB","MB","GB" for a memory column
                                 whose name has no unit (run.json mem_unit), or NULL */
    int info_unplaced;        /* several INFO dumps without a time are kept
                                 unplaced (t=0), in their order, with a
                                 note, not refused: a terminal transcript's
                                 INFO replies (an older server has no
                                 server_time_usec) */
    /* How a parser that holds other formats' outputs (a terminal
     * transcript) recognises each one: set by parser_run to parser_detect,
     * so no parser calls back into the table that lists it. NULL: the
     * parser reads its own format only. */
    const struct cow_parser *(*detect)(const char *fname, const char *head,
                                       size_t n);
} cow_parse_opts;

typedef struct cow_parser {
    const char *name;   /* stable id shown to users, e.g. "latency-csv" */
    const char *what;   /* one line: what files this reads */
    int (*sniff)(const char *fname, const char *head, size_t n);
    int (*parse)(cow_src *s, const cow_parse_opts *o, cow_sink *k, cow_err *e);
} cow_parser;

/* Best parser for a file, or NULL when nothing recognises it. Sniffers see
 * the head with line prefixes peeled, as the parsers will. */
const cow_parser *parser_detect(const char *fname, const char *head, size_t n);
/* Parser by its name, or NULL. */
const cow_parser *parser_by_name(const char *name);
/* The table, NULL terminated (for help output). */
const cow_parser *const *parser_list(void);

/* p->parse, then notes of the line prefixes the source peeled off and the
 * transcript lines it skipped (common/prefix.h), and one COW_REC_REJECT per
 * line the source skipped for being longer than COW_MAX_LINE_BYTES (so the
 * rest of the file lands); more such lines than the source keeps refuse
 * the file (COW_ELIMIT). */
int parser_run(const cow_parser *p, cow_src *s, const cow_parse_opts *o,
               cow_sink *k, cow_err *e);

/* Why no parser could read a file whose first bytes are head[0..n), when
 * the bytes themselves say it (empty, binary, CR-only line ends, not
 * UTF-8); NULL when it is text that is simply not a known format. */
const char *parser_why_unknown(const char *head, size_t n);

/* Whole-file refusal policy for rejected lines: true when a file with
 * `rows` good data lines and `rejected` bad ones must be refused whole.
 * Each parser applies it (returning COW_EPARSE) at the end of its file,
 * counting what it considers data lines. */
int parser_too_many_rejects(long long rows, long long rejected);

/* For a sniffer: calls fn on each complete line of head[0..n) (blanks and
 * CR trimmed); stops when fn returns nonzero. A last line cut by the sniff
 * window is skipped. */
void parser_each_head_line(const char *head, size_t n,
                           int (*fn)(void *arg, const char *p, size_t len),
                           void *arg);

#endif
