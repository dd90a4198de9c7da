/* capture.h -- find the runs in the paths a user gives, and read run.json.
 *
 *     cow_capture c;
 *     capture_init(&c);
 *     capture_add_path(&c, "samples/", &e);   a folder, a tree or a file
 *     for each c.runs[i]: c.runs[i].label, .dir, .files[j]
 *     capture_release(&c);
 *
 * A folder that holds files is one run; its label is its path relative to
 * the folder given (the folder given itself is labelled by its base name).
 * Hidden files, run.json, thresholds.json (the fleet gate's limits),
 * README files and databases are not capture files. Files are
 * listed in name order, runs in label order, so ingest order is stable. */
#ifndef COW_INGEST_CAPTURE_H
#define COW_INGEST_CAPTURE_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

/* A folder holding a file of this name is skipped with everything below
 * it (tooling or generators kept beside captures). */
#define COW_CAPTURE_IGNORE ".cowtailignore"

/* Nesting deeper than this is a loop or a mistake. */
#define CAPTURE_MAX_DEPTH 16

typedef struct cow_runjson {
    char *label;        /* "label" */
    char *scenario;     /* "scenario" */
    char *mode;         /* "mode": fork / forkless */
    char *host;         /* "host" */
    long trial;         /* "trial", -1 if absent */
    char *log_tz;       /* "log_tz": "+02:00", "UTC" */
    int log_year;       /* "log_year", 0 if absent */
    char *time_unit;    /* "time_unit" */
    char *latency_unit; /* "latency_unit" */
    char *mem_unit;     /* "mem_unit": bytes, kB, MB, GB */
    int64_t t0_us;      /* "t0": epoch s/ms/us or ISO 8601 */
    int has_t0;         /* t0 given */
    char *text;         /* the file verbatim */
} cow_runjson;

typedef struct cow_capture_run {
    char *label;        /* default label: relative path */
    char *dir;          /* folder path */
    char **files;       /* capture file paths, sorted */
    size_t nfiles;
    cow_runjson meta;   /* run.json content (zeroed when absent) */
    int has_meta;       /* run.json was present */
} cow_capture_run;

typedef struct cow_capture {
    cow_capture_run *runs; /* discovered runs */
    size_t n, cap;
} cow_capture;

void capture_init(cow_capture *c);
/* Add the runs below path (a capture folder, a tree, or a single file,
 * whose run is its folder). Errors: path unreadable, bad run.json. */
int capture_add_path(cow_capture *c, const char *path, cow_err *e);
void capture_release(cow_capture *c);

/* Parse run.json text (path for messages). Fills r (caller releases). */
int runjson_parse(const char *path, const char *text, size_t n, cow_runjson *r,
                  cow_err *e);
void runjson_release(cow_runjson *r);

#endif
