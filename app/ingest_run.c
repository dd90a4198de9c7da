/* ingest_run.c -- the ingest driver: capture discovery -> parser -> sink
 * (ingest_sink.c) -> store, one transaction per file, one line said per
 * file; runs of one label told apart by ingest_labels.c.
 *
 * Policies applied here, per file:
 *  - the file lands whole or not at all (one transaction);
 *  - a file whose SHA-256 already landed in the same run adds nothing;
 *  - too many rejected lines refuse the file: each parser applies
 *    parser_too_many_rejects itself, since only it knows what a data line
 *    is (most lines of a server log are not events, and not errors);
 *  - the first rejects are printed as file:line: reason, all are stored. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"
#include "formats.h"
#include "app.h"
#include "ingest_int.h"
#include "label.h"
#include "mem.h"
#include "parse_ahead.h"
#include "runfacts.h"
#include "servers.h"
#include "text.h"
#include "timeconv.h"
#include "writer.h"

/* Files with the same bytes as another file of the run are copies from
 * this size up (below it, two empty replies or one-value files coincide). */
#define COPY_MIN_BYTES 256

/* Parse options from run.json, overridden by flags. */
static int make_opts(const cow_capture_run *r, const cow_ingest_flags *fl,
                     cow_parse_opts *o, cow_err *e)
{
    memset(o, 0, sizeof(*o));
    o->time_unit = fl->time_unit ? fl->time_unit : r->meta.time_unit;
    o->latency_unit = fl->latency_unit ? fl->latency_unit : r->meta.latency_unit;
    {
        /* what a client felt runs from the intended send: the default
         * wherever one is known (a sample without one keeps its send) */
        const char *from = fl->latency_from ? fl->latency_from
                           : r->meta.latency_from ? r->meta.latency_from : "intended";
        if (from && strcmp(from, "intended") != 0 && strcmp(from, "send") != 0)
            return COW_FAIL(e, COW_EUSAGE, "run.json \"latency_from\" is '%s': "
                            "expected \"send\" or \"intended\"", from);
        o->latency_from_intended = from && strcmp(from, "intended") == 0;
    }
    o->mem_unit = fl->mem_unit ? fl->mem_unit : r->meta.mem_unit;
    o->log_year = fl->log_year ? fl->log_year : r->meta.log_year;
    if (fl->has_t0) {
        o->t0_us = fl->t0_us;
        o->has_t0 = 1;
    } else {
        o->t0_us = r->meta.t0_us;
        o->has_t0 = r->meta.has_t0;
    }
    if (r->meta.start_us > 0) {
        o->run_time_us = r->meta.start_us;
        o->run_time_src = "run.json start_epoch_us";
    } else if (o->has_t0) {
        o->run_time_us = o->t0_us;
        o->run_time_src = fl->has_t0 ? "--t0" : "run.json t0";
    } else {
        /* no run.json time: the server's own clock in an INFO dump of the run */
        size_t i;
        for (i = 0; i < r->nfiles && o->run_time_us == 0; i++)
            if ((o->run_time_us = info_peek_server_time(r->files[i])) > 0)
                o->run_time_src = "INFO server_time_usec";
    }
    if (fl->has_log_tz) {
        o->tz_off_s = fl->log_tz_s;
        o->has_tz = 1;
    } else if (r->meta.log_tz) {
        if (!time_parse_offset(r->meta.log_tz, &o->tz_off_s))
            return COW_FAIL(e, COW_EUSAGE,
                            "log time zone '%s' is not an offset like +02:00, "
                            "-0500 or UTC (zone names are not supported: give "
                            "the offset in force during the capture)", r->meta.log_tz);
        o->has_tz = 1;
    }
    return COW_OK;
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* Short name of why a file was refused, for the refusals table. */
static const char *refusal_code(int code)
{
    switch ((enum cow_code)code) {
    case COW_ECLOCK: return "clock";
    case COW_EUNIT: return "unit";
    case COW_ELIMIT: return "limit";
    case COW_EPARSE: return "parse";
    case COW_OK:
    case COW_EIO:
    case COW_ESQL:
    case COW_EDUP:
    case COW_EUSAGE:
    case COW_EINTERNAL: break;
    }
    return "other";
}

enum file_outcome { FILE_OK, FILE_DUP, FILE_REFUSED, FILE_SKIPPED, FILE_FATAL };

/* The run row of r (created inside the file's transaction when new). */
static int ensure_run(cow_store *st, const cow_capture_run *r,
                      const cow_ingest_flags *fl, int64_t *run_id, cow_err *e)
{
    cow_run_meta m;
    if (*run_id != 0)
        return COW_OK;
    memset(&m, 0, sizeof(m));
    m.label = fl->label ? fl->label : r->label;
    m.path = r->dir;
    m.scenario = r->meta.scenario;
    m.mode = r->meta.mode;
    m.host = r->meta.host;
    m.trial = r->meta.trial;
    m.meta = r->meta.text;
    m.synthetic = r->has_meta ? r->meta.synthetic : -1;
    return store_run_upsert(st, &m, run_id, e);
}

/* A parser refused the file: roll it back, say so, and keep the refusal
 * (outside the transaction) for the doctor. */
static int refuse_file(cow_store *st, const cow_capture_run *r,
                       const cow_ingest_flags *fl, const char *path,
                       const char *fname, const cow_parser *p, cow_err *e,
                       int64_t *run_id, cow_ingest_totals *tot)
{
    cow_err re = COW_ERR_INIT;
    int rc;
    if (!e->path[0])
        cow_err_at(e, path, e->line, e->col);
    store_rollback(st);
    *run_id = 0; /* the run may have been created in this transaction */
    app_say("  %-28s refused (%s): nothing of it was loaded\n", app_tty(fname), p->name);
    rc = store_add_refusal(st, 0, fl->label ? fl->label : r->label, path, e->line,
                           p->name, refusal_code(e->code), e->msg, &re);
    app_error(e);
    tot->files_refused++;
    if (rc != COW_OK) {
        /* the doctor would not know of the refusal: a database error */
        app_error(&re);
        return FILE_FATAL;
    }
    return FILE_REFUSED;
}

/* Record a file that did not land (refused before a parser ran, or not
 * recognised: code "unrecognised"), once per file (the store replaces an
 * earlier row), so that `rejects` and the report name it. FILE_FATAL
 * when the database cannot record it, else outcome. */
static int record_input(cow_store *st, const cow_capture_run *r, const cow_ingest_flags *fl,
                        const char *path, const char *parser, const char *code,
                        const char *reason, int outcome)
{
    cow_err re = COW_ERR_INIT;
    if (store_add_refusal(st, 0, fl->label ? fl->label : r->label, path, 0, parser, code,
                          reason, &re) != COW_OK) {
        app_error(&re);
        return FILE_FATAL;
    }
    return outcome;
}

/* Where a file's records come from: its own source, read on this thread,
 * or a worker of parse_ahead.c that reads it ahead (--jobs). */
typedef struct fileread {
    cow_src src;          /* ahead == NULL */
    cow_ahead *ahead;
    size_t idx;           /* the file's index in the ahead pipeline */
} fileread;

static void close_file(fileread *fr)
{
    if (fr->ahead)
        ahead_drop(fr->ahead, fr->idx);
    else
        src_close(&fr->src);
}

/* The file is already in the run: roll back what was begun for it. */
static int duplicate_file(cow_store *st, fileread *fr, const char *fname,
                          const cow_ingest_flags *fl, cow_ingest_totals *tot)
{
    store_rollback(st); /* the run held the file: it exists */
    if (!fl->quiet)
        app_say("  %-28s already ingested (same SHA-256): nothing added\n", app_tty(fname));
    close_file(fr);
    tot->files_dup++;
    return FILE_DUP;
}

/* Run the parser (or replay what a worker parsed) into the store through
 * the sink; the background writer is stopped (and its error kept) before
 * returning. sha: the file's digest when COW_OK. */
static int parse_file(const cow_parser *p, fileread *fr, const cow_parse_opts *o,
                      storesink *k, char sha[65], cow_err *e)
{
    cow_sink sink;
    int rc;

    store_sink_wire(k, &sink);
    if (fr->ahead) {
        rc = ahead_replay(fr->ahead, fr->idx, &sink, sha, e);
    } else {
        rc = parser_run(p, &fr->src, o, &sink, e);
        if (rc == COW_OK)
            src_sha256(&fr->src, sha);
    }
    return store_sink_finish(k, rc, e);
}

/* One line per landed file: what was recognised and what landed. */
static void print_landed(const char *fname, const cow_parser *p, const storesink *k)
{
    app_say("  %-28s %-18s %lld %s, %lld rejected%s%s%s\n", app_tty(fname), p->name, k->rows,
            k->samples == k->rows ? "samples" : "records", k->rejected,
            k->notes[0] ? "  [" : "", app_tty(k->notes), k->notes[0] ? "]" : "");
}

/* Why a file is not a capture file at all: empty, or binary (a NUL byte
 * among its first bytes). 0 and why[0] == 0 when it may be text. */
static int not_text(const char *head, size_t n, char *why, size_t cap)
{
    const char *nul;
    why[0] = '\0';
    if (n == 0) { /* not st_size: /proc files say 0 */
        snprintf(why, cap, "empty file");
        return 1;
    }
    if ((nul = memchr(head, '\0', n)) != NULL) {
        snprintf(why, cap, "not text: NUL byte at offset %zu", (size_t)(nul - head));
        return 1;
    }
    return 0;
}

/* For a file no parser recognises: say so when its first bytes are not
 * UTF-8 (a binary or a legacy-encoded file), naming line and column. */
static void not_utf8(const char *head, size_t n, char *why, size_t cap)
{
    size_t bad = text_utf8_bad_at(head, n), i, col = 1;
    long line = 1;
    if (bad == n)
        return;
    for (i = 0; i < bad; i++) { /* columns count characters, not bytes */
        if (head[i] == '\n') {
            line++;
            col = 1;
        } else if (((unsigned char)head[i] & 0xC0) != 0x80) {
            col++;
        }
    }
    snprintf(why, cap, "not text: invalid UTF-8 at line %ld, column %zu: convert it "
             "(e.g. iconv -f latin1 -t utf-8) or force a parser with --parser NAME",
             line, col);
}

/* The parser for a file from its first bytes (NULL: none). A parser that
 * recognises the file reads it, and rejects its bad lines (a NUL inside a
 * field, binary data after a valid start) with their line numbers. Only a
 * file none recognises is explained: *empty (an error: a capture that
 * wrote nothing), CR-only line ends (*unk: refused with the fix), or not
 * text (why: skipped with where it stops being text). The parse-ahead
 * workers call this too, so both paths decide alike. */
static const cow_parser *detect_head(const char *fname, const char *forced,
                                     const char *head, size_t nhead, char *why,
                                     size_t cap, const char **unk, int *empty)
{
    size_t sniff = nhead < COW_SNIFF_BYTES ? nhead : COW_SNIFF_BYTES;
    const cow_parser *p = forced ? parser_by_name(forced)
                          : nhead > 0 ? parser_detect(fname, head, sniff) : NULL;
    *unk = NULL;
    *empty = p == NULL && nhead == 0;
    why[0] = '\0';
    if (p == NULL && !*empty && not_text(head, nhead, why, cap) == 0)
        not_utf8(head, nhead, why, cap);
    if (p == NULL && !*empty && !why[0])
        *unk = parser_why_unknown(head, sniff);
    return p;
}

/* Open the file and find its parser (see detect_head). */
static int open_file(fileread *fr, const char *path, const char *forced,
                     cow_parse_opts *o, const cow_parser **p, char *why, size_t cap,
                     const char **unk, int *empty, long long *size, cow_err *e)
{
    const char *head;
    size_t nhead;
    struct stat sb;
    int rc;

    o->fname = base_name(path);
    if (fr->ahead) {
        cow_ahead_head h;
        ahead_head(fr->ahead, fr->idx, &h);
        if (h.rc != COW_OK) {
            *e = h.e;
            return h.rc;
        }
        o->mtime_us = h.mtime_us;
        *size = h.size;
        *p = h.parser;
        snprintf(why, cap, "%s", h.why);
        *unk = h.unk;
        *empty = h.empty;
        return COW_OK;
    }
    if ((rc = src_open_file(&fr->src, path, e)) != COW_OK)
        return rc;
    if (stat(path, &sb) == 0)
        o->mtime_us = (int64_t)sb.st_mtime * COW_US_PER_S;
    *size = fr->src.size;
    if ((rc = src_peek(&fr->src, &head, &nhead, e)) != COW_OK)
        return rc;
    *p = detect_head(o->fname, forced, head, nhead, why, cap, unk, empty);
    return COW_OK;
}

/* The parse-ahead workers' detection: detect_head for one file. */
static void ahead_detect(const cow_ahead_file *f, const char *fname, const char *head,
                         size_t nhead, cow_ahead_head *h)
{
    h->parser = detect_head(fname, f->forced, head, nhead, h->why, sizeof(h->why),
                            &h->unk, &h->empty);
}

/* Records of this file carry their own time: a copy would count twice. */
static int timed_by_content(const cow_parser *p, const storesink *k)
{
    return k->samples > 0 || strcmp(p->name, "mem-series") == 0 ||
           strcmp(p->name, "throughput-csv") == 0 || strcmp(p->name, "redis-log") == 0;
}

/* A file as shown: its path below the run's folder (info/info-1.txt). */
static const char *shown_name(const cow_capture_run *r, const char *path)
{
    size_t n = strlen(r->dir);
    if (strncmp(path, r->dir, n) != 0 || strcmp(r->dir, ".") == 0)
        return base_name(path);
    while (path[n] == '/')
        n++;
    return path + n;
}

/* Ingest one file of a run. *run_id is created on first use. */
static int ingest_file(cow_store *st, const cow_capture_run *r, size_t fi,
                       fileread *fr, const cow_parse_opts *o0,
                       const cow_ingest_flags *fl, int64_t *run_id,
                       cow_ingest_totals *tot)
{
    cow_err e = COW_ERR_INIT;
    cow_parse_opts o = *o0;
    const cow_parser *p = NULL;
    const char *unk = NULL;
    long long size = 0;
    int empty = 0;
    storesink k;
    char sha[65];
    const char *path = r->files[fi];
    const char *fname = shown_name(r, path);
    char old_sha[65], copy[512] = "";
    int64_t old_id = 0;
    int replaced = 0, old_copy = 0;
    const char *forced = fl->parser ? fl->parser : r->parsers[fi];
    char why[160];
    int rc, seen = 0, had_samples = 0;

    memset(&k, 0, sizeof(k));
    why[0] = '\0';
    if (open_file(fr, path, forced, &o, &p, why, sizeof(why), &unk, &empty, &size,
                  &e) != COW_OK) {
        app_error(&e);
        close_file(fr);
        tot->files_refused++;
        return record_input(st, r, fl, path, forced, "unreadable", e.msg, FILE_REFUSED);
    }
    if (p == NULL && empty) {
        cow_err_at(&e, path, 0, 0);
        COW_FAIL(&e, COW_EPARSE, "empty file (0 bytes): nothing to read");
        app_say("  %-28s skipped: empty file (0 bytes): nothing to read\n", app_tty(fname));
        app_error(&e);
        close_file(fr);
        tot->files_refused++;
        return record_input(st, r, fl, path, NULL, "empty", e.msg, FILE_REFUSED);
    }
    if (p == NULL && unk) {
        cow_err_at(&e, path, 0, 0);
        COW_FAIL(&e, COW_EPARSE, "%s", unk);
        app_say("  %-28s refused: %s\n", app_tty(fname), app_tty(unk));
        app_error(&e);
        close_file(fr);
        tot->files_refused++;
        return record_input(st, r, fl, path, NULL, "parse", e.msg, FILE_REFUSED);
    }
    if (p == NULL) {
        const char *skip = why[0] ? why : "no parser recognises it (force one with "
                                          "--parser NAME; see cowtail help ingest)";
        if (!fl->quiet)
            app_say("  %-28s skipped: %s\n", app_tty(fname), skip);
        close_file(fr);
        tot->files_skipped++;
        return record_input(st, r, fl, path, NULL, "unrecognised", skip, FILE_SKIPPED);
    }
    if ((rc = store_begin(st, &e)) != COW_OK ||
        (rc = ensure_run(st, r, fl, run_id, &e)) != COW_OK)
        goto fatal;
    k.st = st;
    k.run = *run_id;
    k.path = path;
    k.progress = app_shows_progress();
    /* A file of this name already in the run: the same bytes add nothing;
     * other bytes are refused unless --replace (then its rows go, in this
     * transaction, and the new bytes land). */
    if ((rc = store_file_named(st, k.run, fname, &old_id, old_sha, &seen, &e)) != COW_OK)
        goto fatal;
    if (seen) {
        cow_err he = COW_ERR_INIT;
        if (src_file_sha256(path, sha, &he) == COW_OK && strcmp(sha, old_sha) == 0)
            return duplicate_file(st, fr, fname, fl, tot);
        if (!fl->replace) {
            store_rollback(st);
            app_say("  %-28s refused: changed since it was ingested\n", app_tty(fname));
            app_errorf("%s: changed since it was ingested: remove the run or use "
                       "--replace", app_tty(path));
            close_file(fr);
            tot->files_refused++;
            return record_input(st, r, fl, path, p->name, "changed",
                                "changed since it was ingested (the earlier bytes are "
                                "kept): remove the run or ingest with --replace",
                                FILE_REFUSED);
        }
        if ((rc = store_file_replaced(st, old_id, &e)) != COW_OK ||
            (rc = store_file_delete(st, old_id, &e)) != COW_OK)
            goto fatal;
        replaced = 1;
    }
    /* A file already in this run is told apart before parsing when a file
     * of the same size is there (hash it first); otherwise the digest taken
     * while parsing is checked at the end. */
    if ((rc = store_file_size_seen(st, k.run, (int64_t)size, &seen, &e)) != COW_OK)
        goto fatal;
    if (seen) {
        cow_err he = COW_ERR_INIT;
        /* unreadable here: parsing it below says why */
        if (src_file_sha256(path, sha, &he) != COW_OK)
            seen = 0;
        else if ((rc = store_file_seen(st, k.run, sha, fname, &seen, &e)) != COW_OK)
            goto fatal;
        if (seen)
            return duplicate_file(st, fr, fname, fl, tot);
    }
    /* a run that holds no samples yet cannot hold a copy of this file's
     * (store_sample_copy below, a pass over the run's samples) */
    if ((rc = store_run_has_samples(st, k.run, &had_samples, &e)) != COW_OK ||
        (rc = store_file_begin(st, k.run, path, (int64_t)size, p->name,
                               &k.file, &e)) != COW_OK)
        goto fatal;
    rc = parse_file(p, fr, &o, &k, sha, &e);
    if (rc == COW_ESQL || rc == COW_EIO)
        goto fatal;
    if (rc != COW_OK) {
        close_file(fr);
        return refuse_file(st, r, fl, path, fname, p, &e, run_id, tot);
    }
    if ((rc = store_file_seen(st, k.run, sha, fname, &seen, &e)) != COW_OK)
        goto fatal;
    /* the same bytes under another name: a copy, counted once. Only for
     * files whose records carry their own time (samples, series, logs):
     * two snapshots that happen to be equal are two observations when
     * their names place them in time, and tiny files (two empty LATENCY
     * replies) legitimately coincide. */
    if (!seen && timed_by_content(p, &k) &&
        (rc = store_file_copy(st, k.run, k.file, sha, COPY_MIN_BYTES, copy,
                              sizeof(copy), &old_copy, &e)) != COW_OK)
        goto fatal;
    if (!seen && copy[0]) {
        store_rollback(st);
        if (!fl->quiet)
            app_say("  %-28s a copy of %s%s (same SHA-256): not ingested again\n",
                   app_tty(fname), app_tty(copy), old_copy ? " as it was before --replace" : "");
        close_file(fr);
        tot->files_dup++;
        return FILE_DUP;
    }
    if (seen)
        return duplicate_file(st, fr, fname, fl, tot);
    /* the same samples in other bytes (CRLF, other columns or quoting, a
     * row more or less): a copy too, identified by its rows */
    if (k.samples > 0 && had_samples) {
        char *twin = NULL;
        int64_t same, total = k.samples;
        if ((rc = store_sample_copy(st, k.run, k.file, &twin, &same, &e)) != COW_OK)
            goto fatal;
        if (twin != NULL && same >= total) {
            /* every row: a copy, as one in the same bytes */
            store_rollback(st);
            if (!fl->quiet)
                app_say("  %-28s a copy of %s (the same %lld samples in other bytes): "
                        "not ingested again\n", app_tty(fname), app_tty(twin),
                        (long long)total);
            free(twin);
            close_file(fr);
            tot->files_dup++;
            return FILE_DUP;
        }
        if (twin != NULL && same * 10 >= total * 9) {
            /* nearly: a row more or less; which rows are right is the
             * operator's call */
            store_rollback(st);
            app_say("  %-28s refused: %lld of its %lld samples are those of %s\n",
                    app_tty(fname), (long long)same, (long long)total, app_tty(twin));
            app_errorf("%s: %lld of its %lld samples are those of %s (a near-copy): not "
                       "ingested, or they would count twice; keep one of the two, or give "
                       "another client's capture its own run", app_tty(path),
                       (long long)same, (long long)total, app_tty(twin));
            free(twin);
            close_file(fr);
            tot->files_refused++;
            return FILE_REFUSED;
        }
        free(twin);
    }
    /* the file lands: a refusal of it from an earlier ingest is void, and
     * so is the run's stored analysis (made without this file) */
    if ((rc = store_file_end(st, k.file, sha, k.rows, k.rejected, k.notes, &e)) != COW_OK ||
        (rc = store_analysis_drop(st, k.run, &e)) != COW_OK ||
        (rc = store_clear_refusal(st, fl->label ? fl->label : r->label, path, &e)) != COW_OK ||
        (rc = store_commit(st, &e)) != COW_OK)
        goto fatal;
    if (!fl->quiet)
        print_landed(fname, p, &k);
    if (replaced && !fl->quiet)
        app_say("  %-28s (replaces what was ingested under that name)\n", "");
    if (k.rejected > SHOW_REJECTS)
        app_errorf("%s: %lld more rejected lines: cowtail rejects --run '%s' --file '%s'",
                   app_tty(path), k.rejected - SHOW_REJECTS,
                   app_tty(fl->label ? fl->label : r->label), app_tty(fname));
    close_file(fr);
    tot->files_ok++;
    tot->rows += k.rows;
    tot->rejected += k.rejected;
    return FILE_OK;
fatal:
    store_rollback(st);
    if (!e.path[0])
        cow_err_at(&e, path, 0, 0);
    app_error(&e);
    close_file(fr);
    return FILE_FATAL;
}

/* Was this file named on the command line (not found by a walk)? */
static int named(char **paths, int npaths, const char *file)
{
    int a;
    for (a = 0; a < npaths; a++)
        if (strcmp(paths[a], file) == 0)
            return 1;
    return 0;
}

/* --jobs: the files of every run, in ingest order, for parse_ahead.c. */
static cow_ahead *start_ahead(const cow_capture *cap, const cow_ingest_flags *fl,
                              cow_ahead_file **files)
{
    size_t i, j, n = 0, k = 0;
    int jobs = fl->jobs > 0 ? fl->jobs : app_default_jobs();
    cow_ahead *a;

    *files = NULL;
    for (i = 0; i < cap->n; i++)
        n += cap->runs[i].nfiles;
    /* one file: parsing ahead would only add a copy of every record */
    if (jobs <= 1 || n < 2)
        return NULL;
    *files = xcalloc(n, sizeof(**files));
    for (i = 0; i < cap->n; i++) {
        const cow_capture_run *r = &cap->runs[i];
        cow_parse_opts o;
        cow_err e = COW_ERR_INIT;
        int bad = make_opts(r, fl, &o, &e) != COW_OK;
        for (j = 0; j < r->nfiles; j++, k++) {
            (*files)[k].path = r->files[j];
            (*files)[k].opts = o;
            (*files)[k].skip = bad;
            (*files)[k].forced = fl->parser ? fl->parser : r->parsers[j];
        }
    }
    a = ahead_start(*files, n, jobs, ahead_detect);
    if (a == NULL) {
        free(*files);
        *files = NULL;
    }
    return a;
}

int app_ingest_paths(cow_store *st, char **paths, int npaths,
                     const cow_ingest_flags *fl, cow_ingest_totals *tot)
{
    cow_capture cap;
    cow_err e = COW_ERR_INIT;
    cow_ahead *ahead = NULL;
    cow_ahead_file *files = NULL;
    size_t i, j, next = 0;
    int a, code = EXIT_OK;

    memset(tot, 0, sizeof(*tot));
    capture_init(&cap);
    cap.follow_symlinks = fl->follow_symlinks;
    for (a = 0; a < npaths; a++) {
        if (capture_add_path(&cap, paths[a], &e) != COW_OK) {
            app_error(&e);
            capture_release(&cap);
            return EXIT_USAGE;
        }
    }
    /* --host over run.json's "host": before the labels, which a host keeps apart */
    for (i = 0; fl->host && i < cap.n; i++) {
        free(cap.runs[i].meta.host);
        cap.runs[i].meta.host = xstrdup(fl->host);
    }
    if (ingest_unique_labels(st, &cap, &e) != COW_OK) {
        app_error(&e);
        capture_release(&cap);
        return EXIT_IO;
    }
    for (i = 0; i < cap.nnotes && !fl->quiet; i++)
        app_say("note: %s\n", app_tty(cap.notes[i]));
    for (i = 0; i < cap.nproblems; i++) {
        app_errorf("%s", app_tty(cap.problems[i]));
        code = EXIT_REJECTED;
    }
    if (fl->label && cap.n > 1) {
        app_errorf("--label names one run, but the paths hold %zu runs", cap.n);
        capture_release(&cap);
        return EXIT_USAGE;
    }
    if (fl->parser && parser_by_name(fl->parser) == NULL) {
        app_errorf("--parser %s: no such parser (see cowtail help ingest)", fl->parser);
        capture_release(&cap);
        return EXIT_USAGE;
    }
    ahead = start_ahead(&cap, fl, &files);
    for (i = 0; i < cap.n; i++) {
        const cow_capture_run *r = &cap.runs[i];
        cow_parse_opts o;
        int64_t run_id = 0, last_run = 0;
        int touched = 0;

        if (make_opts(r, fl, &o, &e) != COW_OK) {
            cow_err_at(&e, r->dir, 0, 0);
            app_error(&e);
            code = EXIT_USAGE;
            if (ahead)
                for (j = 0; j < r->nfiles; j++)
                    ahead_drop(ahead, next++);
            continue;
        }
        if (!fl->quiet) {
            app_say("run %s (%s)\n", app_tty(fl->label ? fl->label : r->label), app_tty(r->dir));
            for (j = 0; j < r->njoined; j++)
                app_say("  joined: %s/ (no latency capture, primary log or "
                       "run.json of its own)\n", app_tty(r->joined[j]));
            if (r->meta.interrupted)
                app_say("  capture interrupted: %s (run.json): the files end there\n",
                       r->meta.interrupted);
        }
        for (j = 0; j < r->nfiles; j++) {
            fileread fr;
            int out;
            memset(&fr, 0, sizeof(fr));
            fr.ahead = ahead;
            fr.idx = next++;
            out = ingest_file(st, r, j, &fr, &o, fl, &run_id, tot);
            if (run_id != 0)
                last_run = run_id;
            if (out == FILE_FATAL) {
                ahead_stop(ahead);
                free(files);
                capture_release(&cap);
                return EXIT_IO;
            }
            if (out == FILE_OK)
                touched = 1;
            if (out == FILE_REFUSED && code == EXIT_OK)
                code = EXIT_REJECTED;
            if ((out == FILE_SKIPPED || out == FILE_REFUSED) && named(paths, npaths, r->files[j])) {
                app_errorf("%s: named on the command line, but nothing of it "
                           "landed", app_tty(r->files[j]));
                code = code == EXIT_OK ? EXIT_REJECTED : code;
            }
        }
        tot->runs += touched;
        if (last_run != 0) {
            int mismatch = 0;
            if (app_settle_clocks(st, last_run, &o, fl->quiet, &mismatch, &e) != COW_OK ||
                app_note_skews(st, last_run, fl->quiet, &e) != COW_OK ||
                app_settle_servers(st, last_run, r, fl->quiet, &e) != COW_OK ||
                app_run_facts_landed(st, last_run, &e) != COW_OK ||
                (fl->run_landed && fl->run_landed(fl->landed_ctx, st, last_run, &e) != COW_OK)) {
                app_error(&e);
                ahead_stop(ahead);
                free(files);
                capture_release(&cap);
                return EXIT_IO;
            }
            if (mismatch && code == EXIT_OK)
                code = EXIT_REJECTED;
        }
    }
    ahead_stop(ahead);
    free(files);
    if (tot->rejected > 0 && code == EXIT_OK)
        code = EXIT_REJECTED;
    capture_release(&cap);
    return code;
}

int app_ingest_quiet(cow_store *st, char **paths, int npaths, int jobs,
                     cow_ingest_totals *tot)
{
    cow_ingest_flags fl;
    memset(&fl, 0, sizeof(fl));
    fl.quiet = 1;
    fl.jobs = jobs;
    return app_ingest_paths(st, paths, npaths, &fl, tot);
}
