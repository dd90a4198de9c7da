/* info.c -- INFO dumps, one or a timed series (cow_parser_redis_info,
 * "redis-info").
 *
 * INFO (formats.md §2). Every "key:value" line becomes a COW_REC_INFO with
 * the section of the "# Name" header above it (as written, e.g.
 * "Persistence"; "" for fields before any header, as in the output of
 * `redis-cli info persistence | grep cow`), the value as written and a
 * number when the value is numeric: plain numbers, a trailing '%' stripped
 * (used_memory_peak_perc), human sizes converted to bytes (361.01M =
 * 361.01 * 1024^2; 0B = 0), else NAN. Composite values (dbN, slaveN,
 * listenerN, cmdstat_*, errorstat_*, latency_percentiles_usec_*) also land
 * as one record per "k=v" part with sub = k (key stays "db0"). `dump` is the
 * 0-based index of the dump within the file.
 *
 * Dumps. A new dump starts at a timestamp line, at "# Server" once the
 * current dump has content, or at a section header already seen in the
 * current dump (a series of `INFO persistence`). A dump is placed in time
 * by, in this order: its server_time_usec (R6.2+; a note is emitted when a
 * stamp line or file-name stamp disagrees by more than 2 s), the timestamp
 * line before it, the file name (info-<epoch>.txt, info_<epoch>.txt, only
 * for a file holding one dump). A single dump with none of these gets
 * t_us = 0 and a note; a series with an unplaceable dump is refused
 * (COW_EUNIT) with a message naming the ways to stamp it. A change of
 * run_id (or of process_id when there is no run_id) between dumps is
 * reported as a "restart" note: counters start again there.
 *
 * What counts as a timestamp line is decided in stamp.c; what a value means
 * as a number in infoval.c. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "limits.h"
#include "src.h"
#include "mem.h"
#include "num.h"
#include "text.h"
#include "timeconv.h"
#include "formats.h"
#include "infoval.h"
#include "stamp.h"

/* INFO everything with every command listed is a few thousand lines; a
 * "dump" much bigger than this is not INFO output. */
#define INFO_MAX_DUMP_ROWS 200000
/* Real INFO has about 15 sections; more than this in one dump is not INFO. */
#define INFO_MAX_SECTIONS 256
/* server_time_usec vs a stamp line: more apart than this earns a note. */
#define INFO_CLOCK_SLACK_US (2 * COW_US_PER_S)
/* Longest section or event name we keep. */
#define INFO_NAME_MAX 128

/* ---------------------------------------------------------------- text */

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool is_alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
/* ---------------------------------------------------------------- values */

/* Keys whose values are identifiers that may look like numbers. */
static bool info_is_text_key(const char *key)
{
    static const char *const keys[] = {"run_id", "master_replid",
        "master_replid2", "redis_build_id", "redis_git_sha1", NULL};
    size_t i;
    for (i = 0; keys[i] != NULL; i++)
        if (strcmp(key, keys[i]) == 0)
            return true;
    return false;
}
static bool prefix_then_digits(const char *key, const char *prefix)
{
    size_t w = strlen(prefix), i;
    if (strncmp(key, prefix, w) != 0 || key[w] == '\0')
        return false;
    for (i = w; key[i] != '\0'; i++)
        if (!is_digit(key[i]))
            return false;
    return true;
}

static bool info_is_composite(const char *key, const char *val)
{
    if (strchr(val, '=') == NULL)
        return false;
    return prefix_then_digits(key, "db") || prefix_then_digits(key, "slave") ||
           prefix_then_digits(key, "listener") ||
           strncmp(key, "cmdstat_", 8) == 0 ||
           strncmp(key, "errorstat_", 10) == 0 ||
           strncmp(key, "latency_percentiles_usec_", 25) == 0;
}

static bool info_is_key(const char *p, size_t n)
{
    size_t i;
    if (n == 0 || n > 256)
        return false;
    for (i = 0; i < n; i++) {
        char c = p[i];
        if (!is_alpha(c) && !is_digit(c) && c != '_' && c != '|' && c != '-' &&
            c != '.')
            return false;
    }
    return true;
}

/* "# Name": one word starting with a letter, as INFO and module sections
 * print it ("# 1738591331532" is a stamp, not a section). */
static bool info_is_header(const char *p, size_t n)
{
    size_t i;
    if (n < 3 || p[0] != '#' || p[1] != ' ' || n - 2 >= INFO_NAME_MAX ||
        !is_alpha(p[2]))
        return false;
    for (i = 2; i < n; i++)
        if (!is_alpha(p[i]) && !is_digit(p[i]) && p[i] != '_')
            return false;
    return true;
}

/* ---------------------------------------------------------------- dumps */

typedef struct info_row {
    long no;          /* input line */
    size_t off;       /* text at bytes + off, NUL terminated */
    size_t klen;      /* field: key length (value at off + klen + 1); header: 0 */
    int is_header;    /* 1 for "# Name" (text is the name) */
} info_row;

typedef struct info_dump {
    char *bytes;          /* copies of the dump's lines */
    size_t nbytes, capbytes;
    info_row *rows;       /* headers and fields, in input order */
    size_t nrows, caprows;
    size_t hdr[INFO_MAX_SECTIONS]; /* row indexes of the headers */
    size_t nhdr;          /* headers seen */
    long first_line;      /* first content line */
    int has_stamp;        /* a timestamp line precedes the dump */
    int64_t stamp_us;     /* its instant */
    long stamp_line;      /* its line */
    int has_server;       /* server_time_usec was seen */
    int64_t server_us;    /* its value */
    char run_id[48];      /* run_id, "" when absent */
    int64_t pid;          /* process_id, -1 when absent */
} info_dump;

typedef struct info_ctx {
    cow_src *s;           /* input (for its name) */
    cow_sink *k;          /* where records go */
    info_dump d;          /* the dump being read */
    int closed;           /* d is complete: a stamp line followed it */
    int pend;             /* a stamp is waiting for its dump */
    int64_t pend_us;      /* that stamp */
    long pend_line;       /* its line */
    int ndumps;           /* dumps emitted */
    int by_server, by_stamp, by_name; /* how emitted dumps were placed */
    int has_name;         /* the file name holds a stamp */
    int64_t name_us;      /* that stamp */
    int has_prev;         /* a previous dump was emitted */
    char prev_run_id[48]; /* its run_id */
    int64_t prev_pid;     /* its process_id */
    int64_t prev_t_us;    /* its instant */
    long long good, bad;  /* accepted and rejected lines */
    long long fields;     /* key:value lines kept */
    char *scratch;        /* composite values split in place */
    size_t capscratch;    /* its size */
    int unplaced_ok;      /* cow_parse_opts.info_unplaced */
    int noted_unplaced;   /* its note was given */
} info_ctx;

static void dump_reset(info_dump *d)
{
    d->nbytes = 0;
    d->nrows = 0;
    d->nhdr = 0;
    d->first_line = 0;
    d->has_stamp = 0;
    d->has_server = 0;
    d->run_id[0] = '\0';
    d->pid = -1;
}

static size_t dump_copy(info_dump *d, const char *p, size_t n)
{
    size_t off = d->nbytes;
    d->bytes = xgrow(d->bytes, 1, d->nbytes + n + 1, &d->capbytes);
    memcpy(d->bytes + off, p, n);
    d->bytes[off + n] = '\0';
    d->nbytes += n + 1;
    return off;
}

static int dump_add(info_ctx *c, long no, const char *p, size_t n, size_t klen,
                    int is_header, cow_err *e)
{
    info_dump *d = &c->d;
    info_row *r;

    if (d->nrows >= INFO_MAX_DUMP_ROWS) {
        cow_err_at(e, c->s->name, no, 0);
        return COW_FAIL(e, COW_ELIMIT, "INFO dump longer than %d lines: this is "
                        "not INFO output, or dumps lack '# Server' headers",
                        INFO_MAX_DUMP_ROWS);
    }
    if (d->nrows == 0)
        d->first_line = no;
    d->rows = xgrow(d->rows, sizeof(*d->rows), d->nrows + 1, &d->caprows);
    r = &d->rows[d->nrows++];
    r->no = no;
    r->klen = klen;
    r->is_header = is_header;
    r->off = dump_copy(d, p, n);
    if (!is_header)
        d->bytes[r->off + klen] = '\0'; /* split key and value at the ':' */
    return COW_OK;
}

static int info_emit(info_ctx *c, int64_t t_us, const char *section,
                     const char *key, const char *sub, const char *text,
                     long line, cow_err *e)
{
    cow_rec r;
    r.kind = COW_REC_INFO;
    r.u.info.t_us = t_us;
    r.u.info.dump = c->ndumps;
    r.u.info.section = section;
    r.u.info.key = key;
    r.u.info.sub = sub;
    r.u.info.text = text;
    r.u.info.num = info_is_text_key(key) ? NAN : info_value_num(text, strlen(text));
    r.u.info.line = line;
    return sink_emit(c->k, &r, e);
}

/* The k=v parts of a composite value, each as its own record. */
static int info_emit_parts(info_ctx *c, int64_t t_us, const char *section,
                           const char *key, const char *val, long line,
                           cow_err *e)
{
    size_t n = strlen(val);
    char *p, *part, *next;
    int rc;

    c->scratch = xgrow(c->scratch, 1, n + 1, &c->capscratch);
    memcpy(c->scratch, val, n + 1);
    for (part = c->scratch; part != NULL; part = next) {
        char *eq;
        next = strchr(part, ',');
        if (next)
            *next++ = '\0';
        eq = strchr(part, '=');
        if (eq == NULL || eq == part) {
            c->bad++;
            rc = sink_reject(c->k, line, "composite INFO value has a part "
                             "without 'name=value'; the other parts were kept",
                             val, n, e);
            if (rc)
                return rc;
            continue;
        }
        *eq = '\0';
        p = eq + 1;
        if ((rc = info_emit(c, t_us, section, key, part, p, line, e)) != COW_OK)
            return rc;
    }
    return COW_OK;
}

static int info_note(info_ctx *c, const char *key, cow_err *e, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int info_note(info_ctx *c, const char *key, cow_err *e, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    return sink_note(c->k, key, buf, e);
}

/* Where the dump sits in time; COW_EUNIT when it cannot be placed. */
static int info_place(info_ctx *c, int more, int64_t *t_us, cow_err *e)
{
    info_dump *d = &c->d;
    int single = c->ndumps == 0 && !more;
    int rc = COW_OK;

    if (d->has_server) {
        int64_t other = d->has_stamp ? d->stamp_us : c->name_us;
        *t_us = d->server_us;
        c->by_server++;
        if ((d->has_stamp || (single && c->has_name)) &&
            llabs(other - d->server_us) > INFO_CLOCK_SLACK_US)
            rc = info_note(c, "info_clock", e, "dump %d (line %ld): "
                           "server_time_usec is %.3f s away from the %s; "
                           "server_time_usec was used", c->ndumps, d->first_line,
                           (double)(d->server_us - other) / 1e6,
                           d->has_stamp ? "timestamp line" : "file-name stamp");
    } else if (d->has_stamp) {
        *t_us = d->stamp_us;
        c->by_stamp++;
    } else if (single && c->has_name) {
        *t_us = c->name_us;
        c->by_name++;
    } else if (single) {
        *t_us = 0;
        rc = info_note(c, "info_time", e, "the INFO dump has no "
                       "server_time_usec (Server section, Redis 6.2+), no "
                       "timestamp line and no stamp in its file name: it is "
                       "kept unplaced (t=0)");
    } else if (c->unplaced_ok && c->by_server == 0 && c->by_stamp == 0) {
        /* a transcript's replies without a time: in their order (the dump
         * index), none placed in time */
        *t_us = 0;
        if (!c->noted_unplaced) {
            c->noted_unplaced = 1;
            rc = info_note(c, "info_time", e, "INFO dumps without server_time_usec "
                           "(Server section, Redis 6.2+) or a timestamp line, from dump "
                           "%d (line %ld) on: kept unplaced (t=0) in the order they came, "
                           "so the last one gives the run's values and none is a point "
                           "of a series in time", c->ndumps, d->first_line);
        }
    } else {
        cow_err_at(e, c->s->name, d->first_line, 0);
        return COW_FAIL(e, COW_EUNIT, "INFO dump %d of a series cannot be "
                        "placed in time: it has no server_time_usec (Server "
                        "section, Redis 6.2+) and no timestamp line before it; put a line such "
                        "as '# ts=<epoch ms>', `date -u` output or an ISO 8601 "
                        "time before each dump, or save each dump as "
                        "info-<epoch_ms>.txt", c->ndumps);
    }
    return rc;
}

static int info_check_restart(info_ctx *c, int64_t t_us, cow_err *e)
{
    info_dump *d = &c->d;
    int rc = COW_OK;

    if (c->has_prev) {
        if (d->run_id[0] && c->prev_run_id[0] && strcmp(d->run_id, c->prev_run_id))
            rc = info_note(c, "restart", e, "dump %d (line %ld): run_id changed "
                           "from %.12s to %.12s: the server restarted, counters "
                           "start again", c->ndumps, d->first_line,
                           c->prev_run_id, d->run_id);
        else if ((!d->run_id[0] || !c->prev_run_id[0]) && d->pid >= 0 &&
                 c->prev_pid >= 0 && d->pid != c->prev_pid)
            rc = info_note(c, "restart", e, "dump %d (line %ld): process_id "
                           "changed from %lld to %lld: the server restarted, "
                           "counters start again", c->ndumps, d->first_line,
                           (long long)c->prev_pid, (long long)d->pid);
        if (rc == COW_OK && t_us != 0 && c->prev_t_us != 0 && t_us < c->prev_t_us)
            rc = info_note(c, "time_backwards", e, "dump %d (line %ld) is "
                           "%.3f s earlier than the dump before it",
                           c->ndumps, d->first_line,
                           (double)(c->prev_t_us - t_us) / 1e6);
    }
    c->has_prev = 1;
    memcpy(c->prev_run_id, d->run_id, sizeof(c->prev_run_id));
    c->prev_pid = d->pid;
    c->prev_t_us = t_us;
    return rc;
}

/* Emit the dump being read; more = another dump follows. */
static int info_flush(info_ctx *c, int more, cow_err *e)
{
    info_dump *d = &c->d;
    const char *section = "";
    int64_t t_us = 0;
    size_t i;
    int rc;

    if (d->nrows == 0)
        return COW_OK;
    if ((rc = info_place(c, more, &t_us, e)) != COW_OK ||
        (rc = info_check_restart(c, t_us, e)) != COW_OK)
        return rc;
    for (i = 0; i < d->nrows; i++) {
        const info_row *r = &d->rows[i];
        const char *key = d->bytes + r->off, *val;
        if (r->is_header) {
            section = key;
            continue;
        }
        val = key + r->klen + 1;
        if ((rc = info_emit(c, t_us, section, key, NULL, val, r->no, e)) != COW_OK)
            return rc;
        if (info_is_composite(key, val) &&
            (rc = info_emit_parts(c, t_us, section, key, val, r->no, e)) != COW_OK)
            return rc;
    }
    c->ndumps++;
    dump_reset(d);
    c->closed = 0;
    return COW_OK;
}

/* Start a new dump before this content line when the line says so. */
static int info_maybe_split(info_ctx *c, const char *name, cow_err *e)
{
    info_dump *d = &c->d;
    size_t i;
    int split = c->closed;

    if (!split && name != NULL && d->nrows > 0) {
        split = strcmp(name, "Server") == 0;
        for (i = 0; i < d->nhdr && !split; i++)
            split = strcmp(d->bytes + d->rows[d->hdr[i]].off, name) == 0;
    }
    if (split) {
        int rc = info_flush(c, 1, e);
        if (rc)
            return rc;
    }
    if (d->nrows == 0 && c->pend) {
        d->has_stamp = 1;
        d->stamp_us = c->pend_us;
        d->stamp_line = c->pend_line;
        c->pend = 0;
    }
    return COW_OK;
}

static int info_header(info_ctx *c, const cow_line *ln, const char *p, size_t n,
                       cow_err *e)
{
    char name[INFO_NAME_MAX];
    int rc;

    memcpy(name, p + 2, n - 2);
    name[n - 2] = '\0';
    if ((rc = info_maybe_split(c, name, e)) != COW_OK)
        return rc;
    if (c->d.nhdr >= INFO_MAX_SECTIONS) {
        cow_err_at(e, c->s->name, ln->no, 0);
        return COW_FAIL(e, COW_ELIMIT, "more than %d sections in one INFO "
                        "dump: this is not INFO output", INFO_MAX_SECTIONS);
    }
    c->d.hdr[c->d.nhdr++] = c->d.nrows;
    c->good++;
    return dump_add(c, ln->no, name, n - 2, 0, 1, e);
}

/* Remember the fields that place the dump and tell restarts. */
static void info_watch(info_dump *d, const char *key, size_t klen,
                       const char *v, size_t vn)
{
    int64_t x;
    if (klen == 16 && memcmp(key, "server_time_usec", 16) == 0 &&
        num_parse_i64(v, vn, &x) && x > 0) {
        d->has_server = 1;
        d->server_us = x;
    } else if (klen == 6 && memcmp(key, "run_id", 6) == 0 &&
               vn < sizeof(d->run_id)) {
        memcpy(d->run_id, v, vn);
        d->run_id[vn] = '\0';
    } else if (klen == 10 && memcmp(key, "process_id", 10) == 0 &&
               num_parse_i64(v, vn, &x)) {
        d->pid = x;
    }
}

/* Why the value of key k[0..kn) cannot be real (limits.h), NULL if it
 * can: no counter reaches 2^53, no host has 2^50 bytes of memory, no fork
 * takes an hour, and server_time_usec is a stamp in 1990..2100. */
static const char *info_impossible(const char *k, size_t kn, const char *v,
                                   size_t vn)
{
    char key[INFO_NAME_MAX];
    double d = info_value_num(v, vn);

    if (isnan(d))
        return NULL;
    snprintf(key, sizeof(key), "%.*s", (int)kn, k);
    if (strcmp(key, "server_time_usec") == 0 &&
        (d < (double)COW_EPOCH_MIN_S * 1e6 || d >= (double)COW_EPOCH_MAX_S * 1e6))
        return "server_time_usec outside 1990..2100: not a wall clock";
    if (strstr(key, "fork_usec") && d > COW_MAX_LATENCY_US)
        return "a fork that took more than an hour: not a real value";
    if ((strstr(key, "memory") || strstr(key, "cow_size") || strstr(key, "rss")) &&
        !strstr(key, "perc") && !strstr(key, "ratio") && d > COW_MAX_MEM_BYTES)
        return "memory beyond 2^50 bytes (1 PiB): not a real host";
    if (fabs(d) > 9007199254740992.0)
        return "value beyond 2^53: no INFO counter gets there";
    return NULL;
}

static int info_reject(info_ctx *c, const cow_line *ln, const char *why, cow_err *e)
{
    c->bad++;
    return sink_reject(c->k, ln->no, why, ln->p, ln->n, e);
}

static int info_field(info_ctx *c, const cow_line *ln, const char *p, size_t n,
                      cow_err *e)
{
    const char *colon = memchr(p, ':', n), *why;
    size_t klen;
    int rc;

    if (colon == NULL || !info_is_key(p, (size_t)(colon - p)))
        return info_reject(c, ln, "not an INFO line: expected '# Section', "
                           "'key:value' or a timestamp line such as "
                           "'# ts=1796268000123' (epoch ms), "
                           "'# ts 2026-12-03T03:19:19Z' or `date -u` output", e);
    klen = (size_t)(colon - p);
    if (klen + 1 < n && (p[klen + 1] == ' ' || p[klen + 1] == '\t'))
        return info_reject(c, ln, "not an INFO field (INFO values never start "
                           "with a blank): probably a message from redis-cli", e);
    if (!ln->eol)
        return info_reject(c, ln, "the last line has no line end, so its value "
                           "may be cut off: it was left out", e);
    if ((why = info_impossible(p, klen, colon + 1, n - klen - 1)) != NULL)
        return info_reject(c, ln, why, e);
    if ((rc = info_maybe_split(c, NULL, e)) != COW_OK)
        return rc;
    info_watch(&c->d, p, klen, colon + 1, n - klen - 1);
    c->good++;
    c->fields++;
    return dump_add(c, ln->no, p, n, klen, 0, e);
}

static int info_stamp(info_ctx *c, const cow_line *ln, int64_t us, cow_err *e)
{
    int rc = COW_OK;
    if (c->pend)
        rc = info_note(c, "info_stamp", e, "the timestamp line at line %ld is "
                       "followed by no INFO dump (an empty capture?)", c->pend_line);
    c->pend = 1;
    c->pend_us = us;
    c->pend_line = ln->no;
    if (c->d.nrows > 0)
        c->closed = 1;
    c->good++;
    return rc;
}

static int info_line(info_ctx *c, const cow_line *ln, cow_err *e)
{
    const char *p = ln->p, *why = NULL;
    size_t n = ln->n;
    int64_t us;
    int st;

    text_trim(&p, &n);
    if (n == 0)
        return COW_OK;
    if (info_is_header(p, n))
        return info_header(c, ln, p, n, e);
    st = info_stamp_parse(p, n, &us, &why);
    if (st > 0)
        return info_stamp(c, ln, us, e);
    if (st < 0)
        return info_reject(c, ln, why, e);
    return info_field(c, ln, p, n, e);
}

static int info_summary(info_ctx *c, cow_err *e)
{
    if (c->pend)
        return info_note(c, "info_stamp", e, "the timestamp line at line %ld "
                         "is followed by no INFO dump", c->pend_line);
    if (c->ndumps == 0)
        return COW_OK;
    return info_note(c, "info_dumps", e, "%d INFO dump%s; placed by "
                     "server_time_usec: %d, timestamp line: %d, file name: %d",
                     c->ndumps, c->ndumps == 1 ? "" : "s", c->by_server,
                     c->by_stamp, c->by_name);
}

static int info_parse(cow_src *s, const cow_parse_opts *o, cow_sink *k, cow_err *e)
{
    info_ctx c;
    cow_line ln;
    int rc;

    memset(&c, 0, sizeof(c));
    c.s = s;
    c.k = k;
    dump_reset(&c.d);
    c.has_name = info_name_stamp(o ? o->fname : NULL, "info", &c.name_us);
    c.unplaced_ok = o != NULL && o->info_unplaced;
    while ((rc = src_next_line(s, &ln, e)) == 1)
        if ((rc = info_line(&c, &ln, e)) != COW_OK)
            goto done;
    if (rc < 0)
        goto done;
    if ((rc = info_flush(&c, 0, e)) != COW_OK || (rc = info_summary(&c, e)) != COW_OK)
        goto done;
    if (c.fields == 0) {
        cow_err_at(e, s->name, 1, 0);
        rc = COW_FAIL(e, COW_EPARSE, "no INFO fields found: expected the output "
                      "of `redis-cli INFO` ('# Section' headers, 'key:value' lines)");
    } else if (parser_too_many_rejects(c.good, c.bad)) {
        cow_err_at(e, s->name, 0, 0);
        rc = COW_FAIL(e, COW_EPARSE, "%lld of %lld lines are not INFO lines: "
                      "this does not look like INFO output", c.bad, c.good + c.bad);
    }
done:
    free(c.d.bytes);
    free(c.d.rows);
    free(c.scratch);
    return rc;
}

/* ---------------------------------------------------------------- sniff */

typedef struct info_sniffer {
    int headers, known, fields, other; /* line counts by kind */
    int sure;                          /* "# Server" or a *_version field */
} info_sniffer;

static int info_sniff_line(void *arg, const char *p, size_t n)
{
    static const char *const known[] = {"redis_version:", "valkey_version:",
        "server_time_usec:", "run_id:", "used_memory:", "rdb_last_cow_size:",
        "rdb_bgsave_in_progress:", "latest_fork_usec:", "aof_last_cow_size:",
        "rdb_last_bgsave_time_sec:", "current_cow_size:", "used_memory_rss:",
        "connected_clients:", "role:", "total_forks:", "redis_mode:", NULL};
    info_sniffer *f = arg;
    const char *colon;
    int64_t us;
    const char *why;
    size_t i;

    if (n == 0)
        return 0;
    if (info_is_header(p, n)) {
        f->headers++;
        f->sure |= n == 8 && memcmp(p, "# Server", 8) == 0;
        return 0;
    }
    f->sure |= (n > 14 && memcmp(p, "redis_version:", 14) == 0) ||
               (n > 15 && memcmp(p, "valkey_version:", 15) == 0);
    for (i = 0; known[i] != NULL; i++)
        if (n >= strlen(known[i]) && memcmp(p, known[i], strlen(known[i])) == 0)
            f->known++;
    colon = memchr(p, ':', n);
    if (colon && info_is_key(p, (size_t)(colon - p)))
        f->fields++;
    else if (info_stamp_parse(p, n, &us, &why) == 0)
        f->other++;
    return 0;
}

static int info_sniff(const char *fname, const char *head, size_t n)
{
    info_sniffer f = {0, 0, 0, 0, 0};
    const char *base;

    parser_each_head_line(head, n, info_sniff_line, &f);
    if (f.fields == 0 || f.other * 4 > f.fields)
        return 0;
    if (f.sure || (f.headers > 0 && f.known > 0))
        return 95;
    if (f.known >= 2 || (f.known == 1 && f.fields <= 3))
        return 90;
    base = fname ? strrchr(fname, '/') : NULL;
    base = base ? base + 1 : fname;
    if (base && text_prefix_ci(base, strlen(base), "info") && f.headers > 0)
        return 70;
    return 0;
}

const cow_parser cow_parser_redis_info = {
    "redis-info",
    "INFO dumps from redis-cli/valkey-cli, one or a timed series",
    info_sniff,
    info_parse
};

int64_t info_peek_server_time(const char *path)
{
    static const char key[] = "server_time_usec:";
    cow_err e = COW_ERR_INIT;
    cow_src s;
    const char *p, *hit;
    size_t n;
    int64_t us = 0;

    if (src_open_file(&s, path, &e) != COW_OK)
        return 0;
    if (src_peek(&s, &p, &n, &e) == COW_OK && (hit = text_find(p, n, key)) != NULL &&
        (hit == p || hit[-1] == '\n')) {
        const char *d = hit + sizeof(key) - 1, *end = p + n;
        while (d < end && *d >= '0' && *d <= '9' && us < INT64_MAX / 10 - 10)
            us = us * 10 + (*d++ - '0');
        if (d == hit + sizeof(key) - 1 || (d < end && *d != '\r' && *d != '\n'))
            us = 0;
    }
    src_close(&s);
    return us;
}
