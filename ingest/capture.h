/* capture.h -- find the runs in the paths a user gives, and read run.json.
 *
 *     cow_capture c;
 *     capture_init(&c);
 *     capture_add_path(&c, "samples/", &e);   a folder, a tree or a file
 *     for each c.runs[i]: c.runs[i].label, .dir, .files[j]
 *     capture_release(&c);
 *
 * A run is one experiment or incident: a folder that holds a per-request
 * latency capture (or a benchmark tool's latency output), a primary's
 * server log or a run.json. Folders below it that hold none of these join
 * it, at any depth (info/, smaps_child/, proc/, a replica/ holding only a
 * replica's log and INFO); they are listed in .joined. A folder given with
 * no run anywhere below it is one run as a whole. Folders that are not
 * below any run and have runs below them keep their own files as a run of
 * their own. A run's label is its path relative to the folder given (the
 * folder given itself is labelled by its base name) unless run.json names
 * it.
 *
 * The walk never leaves the tree: entries are looked at with lstat;
 * symbolic links are skipped (and said so) unless follow_symlinks is set,
 * and then never lead outside the folder given nor into /proc, /sys or
 * /dev; only regular files are listed; loops, unreadable folders and
 * files and a bad run.json are reported in .problems and skipped while
 * the rest of the batch is kept. Hidden files, run.json, thresholds.json
 * (the fleet gate's limits), README files and databases are not capture
 * files. Files are listed in name order, runs in label order, so ingest
 * order is stable. */
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

/* One "files" entry of run.json: files matching glob (relative to the
 * run's folder, or a base name) get this role and/or parser. */
typedef struct cow_filemap {
    char *glob;
    const char *role;   /* "primary", "replica" or NULL (static strings) */
    const char *parser; /* parser name or NULL (the parser table's) */
} cow_filemap;

typedef struct cow_runjson {
    char *label;        /* "label" */
    char *scenario;     /* "scenario" */
    char *mode;         /* "mode": fork / forkless */
    char *host;         /* "host" */
    long trial;         /* "trial", -1 if absent */
    char *log_tz;       /* "log_tz": "+02:00", "UTC" */
    int log_year;       /* "log_year", 0 if absent */
    char *time_unit;    /* "time_unit" */
    char *latency_from; /* "latency_from": "send" or "intended" */
    char *latency_unit; /* "latency_unit" */
    char *mem_unit;     /* "mem_unit": bytes, kB, MB, GB */
    int64_t t0_us;      /* "t0": epoch s/ms/us or ISO 8601 */
    int has_t0;         /* t0 given */
    char *interrupted;  /* "interrupted": why the capture ended early
                           (cowtail capture), NULL when null or absent */
    int64_t start_us;   /* "start_epoch_us": when the capture began, 0 */
    int synthetic;      /* "synthetic": 1 when true (a generator made the
                           files, not a server), 0 when false or absent */
    cow_filemap *files; /* "files": {"glob": {"role": .., "parser": ..}} */
    size_t nfiles;
    char *text;         /* the file verbatim */
} cow_runjson;

typedef struct cow_capture_run {
    char *label;        /* default label: relative path */
    char *dir;          /* folder path */
    char *rel;          /* folder path within the batch (identity) */
    char **files;       /* capture file paths, sorted */
    const char **roles; /* per file: "primary", "replica" or NULL (unknown) */
    const char **parsers; /* per file: parser forced by run.json, or NULL */
    size_t nfiles;
    char **joined;      /* folders (relative to dir) that joined this run */
    size_t njoined;
    cow_runjson meta;   /* run.json content (zeroed when absent) */
    int has_meta;       /* run.json was present */
} cow_capture_run;

typedef struct cow_capture {
    cow_capture_run *runs; /* discovered runs */
    size_t n, cap;
    int follow_symlinks;   /* set before capture_add_path: follow links
                              that stay inside the tree */
    char **notes;          /* "path: what was skipped" (not errors) */
    size_t nnotes;
    char **problems;       /* "path: why it was skipped" (exit 1) */
    size_t nproblems;
} cow_capture;

void capture_init(cow_capture *c);
/* Add the runs below path (a capture folder, a tree, or a single file,
 * whose run is its folder). Errors: path unreadable or not a folder nor a
 * regular file; everything below it that cannot be read is a problem. */
int capture_add_path(cow_capture *c, const char *path, cow_err *e);
void capture_release(cow_capture *c);
void capture_release_run(cow_capture_run *r);

/* Parse run.json text (path for messages). Fills r (caller releases). */
int runjson_parse(const char *path, const char *text, size_t n, cow_runjson *r,
                  cow_err *e);
void runjson_release(cow_runjson *r);

/* Role of a file from its name: "replica" for replica* names, else NULL. */
const char *capture_role_from_name(const char *relpath);
/* Role run.json's "files" give a file of run r (relpath below r's
 * folder): "primary", "replica" or NULL. */
const char *capture_declared_role(const cow_capture_run *r, const char *relpath);

#endif
