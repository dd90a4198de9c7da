/* info.c -- INFO dumps (one, or a timed series) and CONFIG GET output.
 *
 * Exports cow_parser_redis_info ("redis-info"), cow_parser_redis_config
 * ("redis-config") and the stamp helpers of info.h.
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
 * Timestamp lines. After blanks and decoration ('#', '=', '-', '*', '>',
 * '[' before; '=', '-', '*', '<', ']' after) and an optional label
 * ("ts", "t", "time", "timestamp", "date", "at", any case, then ':', '='
 * or blanks: "# ts 2026-12-03T03:19:19Z"; after blanks the label counts
 * only when the rest is a stamp), the rest must be one of:
 *   - an epoch whose unit follows from its digit count: 9-10 s, 12-13 ms,
 *     15-16 us, 18-19 ns, or seconds with a fraction ("1738591331.532");
 *   - ISO 8601 / RFC 3339 ("2025-02-03T14:02:11.532Z", "2025-02-03
 *     14:02:11+01:00"; no zone = UTC);
 *   - `date` output: weekday (optional), month name, day, hh:mm:ss[.frac],
 *     optional AM/PM, year, and a zone that is UTC, GMT, Z or a numeric
 *     offset ("Mon Feb  3 14:02:11 UTC 2025", `date -R`). A named local
 *     zone (CET, PST...) is ambiguous: such a line is rejected with a
 *     reason, so use `date -u` or `date +%s%3N`.
 * Anything else is not a stamp. Stamps outside 1990..2100 are rejected.
 *
 * CONFIG GET (redis-config): the reply saved from redis-cli, either piped
 * (name and value on alternating lines; an empty value is an empty line)
 * or from a terminal (` 1) "name"` / ` 2) "value"`). Each pair lands as a
 * COW_REC_INFO with section "config", t_us 0, dump 0. */
#include "info.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "limits.h"
#include "mem.h"
#include "num.h"
#include "text.h"
#include "timeconv.h"
#include "formats.h"

/* INFO everything with every command listed is a few thousand lines; a
 * "dump" much bigger than this is not INFO output. */
#define INFO_MAX_DUMP_ROWS 200000
/* Real INFO has about 15 sections; more than this in one dump is not INFO. */
#define INFO_MAX_SECTIONS 256
/* server_time_usec vs a stamp line: more apart than this earns a note. */
#define INFO_CLOCK_SLACK_US (2 * COW_US_PER_S)
/* Longest section, event or config name we keep. */
#define INFO_NAME_MAX 128

/* ---------------------------------------------------------------- text */

static int lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool is_alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* ---------------------------------------------------------------- stamps */

bool info_epoch_parse(const char *p, size_t n, int64_t *us, const char **unit)
{
    size_t i, dot = n;
    int64_t v, x, frac = 0, scale = 100000;

    for (i = 0; i < n; i++) {
        if (p[i] == '.' && dot == n && i > 0)
            dot = i;
        else if (!is_digit(p[i]))
            return false;
    }
    if (dot == 0 || dot > 19 || !num_parse_i64(p, dot, &v))
        return false;
    if (dot < n) { /* seconds with a fraction */
        if (dot < 9 || dot > 10 || dot + 1 == n)
            return false;
        for (i = dot + 1; i < n && scale > 0; i++, scale /= 10)
            frac += (p[i] - '0') * scale;
        *unit = "s";
        x = v * COW_US_PER_S + frac;
    } else if (dot >= 9 && dot <= 10) {
        *unit = "s";
        x = v * COW_US_PER_S;
    } else if (dot >= 12 && dot <= 13) {
        *unit = "ms";
        x = v * 1000;
    } else if (dot >= 15 && dot <= 16) {
        *unit = "us";
        x = v;
    } else if (dot >= 18 && dot <= 19) {
        *unit = "ns";
        x = v / 1000;
    } else {
        return false;
    }
    if (x < COW_EPOCH_MIN_S * COW_US_PER_S || x > COW_EPOCH_MAX_S * COW_US_PER_S)
        return false;
    *us = x;
    return true;
}

/* Date parts collected from the words of a `date`-style stamp. */
typedef struct date_parts {
    int mon, day, year;      /* 0 while unseen */
    int h, mi, s, frac_us;   /* h < 0 while unseen */
    int ampm;                /* 0 none, 1 AM, 2 PM */
    int has_zone;            /* a zone word was seen */
    int off_s;               /* its offset, seconds east of UTC */
    int named_zone;          /* a named local zone (CET): ambiguous */
} date_parts;

static bool word_is_weekday(const char *w, size_t n)
{
    static const char *const full[] = {"monday", "tuesday", "wednesday",
        "thursday", "friday", "saturday", "sunday", NULL};
    size_t i, j;
    for (i = 0; full[i] != NULL; i++) {
        if (n != 3 && n != strlen(full[i]))
            continue;
        for (j = 0; j < n && lower((unsigned char)w[j]) == full[i][j]; j++)
            ;
        if (j == n)
            return true;
    }
    return false;
}

static int word_month(const char *w, size_t n)
{
    static const char *const full[] = {"january", "february", "march",
        "april", "may", "june", "july", "august", "september", "october",
        "november", "december"};
    size_t i, j;
    for (i = 0; i < 12; i++) {
        if (n != 3 && n != strlen(full[i]))
            continue;
        for (j = 0; j < n && lower((unsigned char)w[j]) == full[i][j]; j++)
            ;
        if (j == n)
            return (int)i + 1;
    }
    return 0;
}

/* "hh:mm:ss[.frac]" */
static bool word_time(const char *w, size_t n, date_parts *d)
{
    int64_t h, mi, s;
    size_t i;
    int scale = 100000, frac = 0;

    if (n < 8 || w[2] != ':' || w[5] != ':' || !num_parse_i64(w, 2, &h) ||
        !num_parse_i64(w + 3, 2, &mi) || !num_parse_i64(w + 6, 2, &s))
        return false;
    if (n > 8) {
        if (w[8] != '.' || n == 9)
            return false;
        for (i = 9; i < n; i++) {
            if (!is_digit(w[i]))
                return false;
            if (scale > 0) {
                frac += (w[i] - '0') * scale;
                scale /= 10;
            }
        }
    }
    if (h > 23 || mi > 59 || s > 60)
        return false;
    d->h = (int)h;
    d->mi = (int)mi;
    d->s = (int)s;
    d->frac_us = frac;
    return true;
}

/* One word of a date stamp; false when it cannot belong to one. */
static bool date_word(const char *w, size_t n, date_parts *d)
{
    char z[8];
    int64_t v;
    int m;
    size_t i;

    if (word_is_weekday(w, n))
        return true;
    if ((m = word_month(w, n)) != 0 && d->mon == 0) {
        d->mon = m;
        return true;
    }
    if (num_parse_i64(w, n, &v) && w[0] != '-' && w[0] != '+') {
        if (n <= 2 && d->day == 0 && v >= 1 && v <= 31)
            d->day = (int)v;
        else if (n == 4 && d->year == 0)
            d->year = (int)v;
        else
            return false;
        return true;
    }
    if (d->h < 0 && n >= 8 && w[2] == ':')
        return word_time(w, n, d);
    if (n == 2 && (text_prefix_ci(w, n, "am") || text_prefix_ci(w, n, "pm"))) {
        d->ampm = lower((unsigned char)w[0]) == 'a' ? 1 : 2;
        return true;
    }
    if (n < sizeof(z) && !d->has_zone) {
        memcpy(z, w, n);
        z[n] = '\0';
        if (strcmp(z, "UT") == 0 || time_parse_offset(z, &d->off_s)) {
            d->off_s = strcmp(z, "UT") == 0 ? 0 : d->off_s;
            d->has_zone = 1;
            return true;
        }
        for (i = 0; i < n && w[i] >= 'A' && w[i] <= 'Z'; i++)
            ;
        if (i == n && n >= 2 && n <= 5) {
            d->has_zone = 1;
            d->named_zone = 1;
            return true;
        }
    }
    return false;
}

static int date_stamp(const char *p, size_t n, int64_t *us, const char **why)
{
    date_parts d;
    size_t i = 0;

    memset(&d, 0, sizeof(d));
    d.h = -1;
    while (i < n) {
        size_t j;
        while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == ','))
            i++;
        for (j = i; j < n && p[j] != ' ' && p[j] != '\t' && p[j] != ','; j++)
            ;
        if (j > i && !date_word(p + i, j - i, &d))
            return 0;
        i = j;
    }
    if (d.mon == 0 || d.day == 0 || d.year == 0 || d.h < 0)
        return 0;
    if (d.day > time_month_days(d.year, d.mon)) {
        *why = "timestamp line with an impossible day of the month";
        return -1;
    }
    if (d.named_zone || !d.has_zone) {
        *why = d.named_zone
            ? "timestamp line in a named local zone: its offset is unknown; "
              "stamp with `date -u`, `date -R` or `date +%s%3N`"
            : "timestamp line without a zone: stamp with `date -u`, "
              "`date -R` or `date +%s%3N`";
        return -1;
    }
    if (d.ampm) {
        if (d.h < 1 || d.h > 12)
            return 0;
        d.h = d.h % 12 + (d.ampm == 2 ? 12 : 0);
    }
    if (d.year < 1990 || d.year >= 2100) {
        *why = "timestamp line outside the years 1990..2099";
        return -1;
    }
    *us = time_us_from_civil(d.year, d.mon, d.day, d.h, d.mi, d.s, d.frac_us) -
          (int64_t)d.off_s * COW_US_PER_S;
    return 1;
}

static bool is_lead_decor(char c)
{
    return c == '#' || c == '=' || c == '-' || c == '*' || c == '>' ||
           c == '[' || c == ' ' || c == '\t';
}

static bool is_tail_decor(char c)
{
    return c == '=' || c == '-' || c == '*' || c == '<' || c == ']' ||
           c == ' ' || c == '\t';
}

/* Skip "label:" / "label=" (see the header comment): 1 when one was
 * there, 2 for "label " (a label followed by blanks only), else 0. */
static int skip_label(const char **p, size_t *n)
{
    static const char *const labels[] = {"timestamp", "time", "date", "ts",
                                         "at", "t", NULL};
    size_t i, j;

    for (i = 0; labels[i] != NULL; i++) {
        size_t w = strlen(labels[i]);
        if (!text_prefix_ci(*p, *n, labels[i]))
            continue;
        for (j = w; j < *n && ((*p)[j] == ' ' || (*p)[j] == '\t'); j++)
            ;
        if (j < *n && ((*p)[j] == ':' || (*p)[j] == '=')) {
            *p += j + 1;
            *n -= j + 1;
            num_trim(p, n);
            return 1;
        }
        if (j > w && j < *n) {
            *p += j;
            *n -= j;
            return 2;
        }
    }
    return 0;
}

int info_stamp_parse(const char *p, size_t n, int64_t *us, const char **why)
{
    const char *unit, *iso_why = NULL, *p0;
    cow_iso iso;
    int label;
    int rc;
    size_t n0;

    text_trim(&p, &n);
    while (n > 0 && is_lead_decor(p[0])) {
        p++;
        n--;
    }
    while (n > 0 && is_tail_decor(p[n - 1]))
        n--;
    p0 = p;
    n0 = n;
    label = skip_label(&p, &n);
    if (label == 2) {
        /* "ts 2026-12-03T03:19:19Z": a label only when a stamp follows */
        int64_t v;
        const char *w = NULL;
        if (info_stamp_parse(p, n, &v, &w) == 1) {
            *us = v;
            return 1;
        }
        p = p0;
        n = n0;
        label = 0;
    }
    if (n == 0)
        return 0;
    if (info_epoch_parse(p, n, us, &unit))
        return 1;
    if (time_parse_iso(p, n, &iso, &iso_why)) {
        *us = time_iso_us(&iso);
        if (*us < COW_EPOCH_MIN_S * COW_US_PER_S ||
            *us > COW_EPOCH_MAX_S * COW_US_PER_S) {
            *why = "timestamp line outside the years 1990..2099";
            return -1;
        }
        return 1;
    }
    if (n >= 19 && p[4] == '-' && p[7] == '-' && p[13] == ':') {
        *why = iso_why;     /* ISO 8601 in shape: an impossible date or zone */
        return -1;
    }
    rc = date_stamp(p, n, us, why);
    if (rc == 0 && label && (is_digit(p[0]) || is_alpha(p[0]))) {
        *why = "timestamp label without a usable time: expected an epoch "
               "(10 digits s, 13 ms, 16 us, 19 ns), ISO 8601 or `date -u` output, "
               "e.g. '# ts=1796268000123' or '# ts 2026-12-03T03:19:19Z'";
        return -1;
    }
    return rc;
}

bool info_name_stamp(const char *fname, const char *prefix, int64_t *us)
{
    const char *base, *p, *slash, *unit;
    size_t i, n;

    if (fname == NULL)
        return false;
    slash = strrchr(fname, '/');
    base = slash ? slash + 1 : fname;
    if (prefix != NULL) {
        size_t w = strlen(prefix);
        if (!text_prefix_ci(base, strlen(base), prefix) ||
            (base[w] != '-' && base[w] != '_' && base[w] != '.'))
            return false;
        p = base + w + 1;
        for (n = 0; is_digit(p[n]); n++)
            ;
        if (p[n] != '\0' && p[n] != '.')
            return false;
        return info_epoch_parse(p, n, us, &unit);
    }
    for (i = 0; base[i] != '\0'; i += n ? n : 1) {
        for (n = 0; is_digit(base[i + n]); n++)
            ;
        if ((i == 0 || !is_digit(base[i - 1])) &&
            (n == 10 || n == 13 || n == 16 || n == 19) &&
            info_epoch_parse(base + i, n, us, &unit))
            return true;
    }
    return false;
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

/* "361.01M" -> bytes, powers of 1024 as INFO's bytesToHuman prints them. */
static bool info_human_size(const char *v, size_t n, double *out)
{
    static const char units[] = "BKMGTP";
    const char *u;
    double d;

    if (n < 2 || (u = strchr(units, v[n - 1])) == NULL ||
        !num_parse_double(v, n - 1, &d) || d < 0)
        return false;
    *out = d * pow(1024.0, (double)(u - units));
    return true;
}

/* The numeric meaning of an INFO value, NAN when it has none. */
static double info_value_num(const char *v, size_t n)
{
    double d;
    if (num_parse_double(v, n, &d))
        return d;
    if (n > 1 && v[n - 1] == '%' && num_parse_double(v, n - 1, &d))
        return d;
    if (info_human_size(v, n, &d))
        return d;
    return NAN;
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

/* Calls fn on each complete line of head (CR stripped); stops when fn
 * returns nonzero. A last line cut by the sniff window is skipped. */
static void each_head_line(const char *head, size_t n,
                           int (*fn)(void *arg, const char *p, size_t len),
                           void *arg)
{
    size_t i = 0;
    while (i < n) {
        const char *nl = memchr(head + i, '\n', n - i);
        const char *p = head + i;
        size_t len;
        if (nl == NULL)
            return;
        len = (size_t)(nl - p);
        text_trim(&p, &len);
        if (fn(arg, p, len))
            return;
        i = (size_t)(nl - head) + 1;
    }
}

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

    each_head_line(head, n, info_sniff_line, &f);
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

/* ---------------------------------------------------------------- config */

/* A CONFIG parameter name: lower case words joined by '-' ('.' and '_'
 * for module parameters). */
static bool config_is_name(const char *p, size_t n)
{
    size_t i;
    if (n == 0 || n >= INFO_NAME_MAX || !(p[0] >= 'a' && p[0] <= 'z'))
        return false;
    for (i = 0; i < n; i++)
        if (!(p[i] >= 'a' && p[i] <= 'z') && !is_digit(p[i]) && p[i] != '-' &&
            p[i] != '.' && p[i] != '_')
            return false;
    return true;
}

/* A terminal-shaped element ` 12) "text"`: unquotes into out (>= n + 1).
 * 1 when the line had that shape, 0 when it did not, -1 when it was
 * malformed (index without a quoted string). */
static int config_tty_elem(const char *p, size_t n, char *out, size_t *outn)
{
    size_t i = 0, j = 0;

    while (i < n && p[i] == ' ')
        i++;
    if (i >= n || !is_digit(p[i]))
        return 0;
    while (i < n && is_digit(p[i]))
        i++;
    if (i + 1 >= n || p[i] != ')' || p[i + 1] != ' ')
        return 0;
    i += 2;
    if (i >= n || p[i] != '"' || p[n - 1] != '"' || n - i < 2)
        return -1;
    for (i++; i < n - 1; i++) {
        if (p[i] == '\\' && i + 1 < n - 1)
            i++;
        out[j++] = p[i];
    }
    out[j] = '\0';
    *outn = j;
    return 1;
}

typedef struct config_ctx {
    cow_src *s;         /* input */
    cow_sink *k;        /* output */
    char name[INFO_NAME_MAX]; /* name waiting for its value */
    long name_line;     /* its line, 0 when no name is waiting */
    int tty;            /* the terminal shape was seen */
    long long good, bad; /* pairs kept, lines rejected */
    char *buf;          /* unquoted element */
    size_t cap;         /* its size */
} config_ctx;

static int config_value(config_ctx *c, const char *v, size_t n, cow_err *e)
{
    cow_rec r;
    char *t;
    int rc;

    t = xstrndup(v, n);
    r.kind = COW_REC_INFO;
    r.u.info.t_us = 0;
    r.u.info.dump = 0;
    r.u.info.section = "config";
    r.u.info.key = c->name;
    r.u.info.sub = NULL;
    r.u.info.text = t;
    r.u.info.num = info_value_num(t, n);
    r.u.info.line = c->name_line;
    rc = sink_emit(c->k, &r, e);
    free(t);
    c->name_line = 0;
    c->good++;
    return rc;
}

static int config_line(config_ctx *c, const cow_line *ln, cow_err *e)
{
    const char *p = ln->p;
    size_t n = ln->n;
    int tty;

    text_trim(&p, &n);
    c->buf = xgrow(c->buf, 1, n + 1, &c->cap);
    tty = config_tty_elem(p, n, c->buf, &n);
    if (tty < 0) {
        c->bad++;
        return sink_reject(c->k, ln->no, "numbered line without a quoted "
                           "string: not CONFIG GET output", ln->p, ln->n, e);
    }
    if (tty > 0) {
        c->tty = 1;
        p = c->buf;
    }
    if (c->name_line != 0)
        return config_value(c, p, n, e);
    if (n == 0 && !tty)
        return COW_OK; /* the blank line redis-cli prints for an empty reply */
    if (!config_is_name(p, n)) {
        c->bad++;
        return sink_reject(c->k, ln->no, "not a configuration parameter name "
                           "(CONFIG GET prints a name line, then its value)",
                           ln->p, ln->n, e);
    }
    memcpy(c->name, p, n);
    c->name[n] = '\0';
    c->name_line = ln->no;
    return COW_OK;
}

static int config_parse(cow_src *s, const cow_parse_opts *o, cow_sink *k, cow_err *e)
{
    config_ctx c;
    cow_line ln;
    int rc;

    (void)o;
    memset(&c, 0, sizeof(c));
    c.s = s;
    c.k = k;
    while ((rc = src_next_line(s, &ln, e)) == 1)
        if ((rc = config_line(&c, &ln, e)) != COW_OK)
            goto done;
    if (rc < 0)
        goto done;
    if (c.name_line != 0) {
        c.bad++;
        if ((rc = sink_reject(k, c.name_line, "parameter name without a value "
                              "line after it (the capture is cut?)", c.name,
                              strlen(c.name), e)) != COW_OK)
            goto done;
    }
    if ((rc = sink_note(k, "config_shape", c.tty ? "redis-cli terminal "
                        "(numbered, quoted)" : "redis-cli piped (name and value "
                        "on alternating lines)", e)) != COW_OK)
        goto done;
    if (c.good == 0 || parser_too_many_rejects(c.good, c.bad)) {
        cow_err_at(e, s->name, 0, 0);
        rc = COW_FAIL(e, COW_EPARSE, "%lld of %lld lines are not CONFIG GET "
                      "output: expected `redis-cli CONFIG GET '*'` saved to a "
                      "file", c.bad, c.good * 2 + c.bad);
    }
done:
    free(c.buf);
    return rc;
}

typedef struct config_sniffer {
    int lines, names, known, bad, tty; /* counts over the head */
} config_sniffer;

static int config_sniff_line(void *arg, const char *p, size_t n)
{
    static const char *const known[] = {"maxmemory", "appendonly", "save",
        "dbfilename", "latency-monitor-threshold", "repl-diskless-sync",
        "maxmemory-policy", "appendfsync", "dir", "port", "bind", "databases",
        "hz", "rdbcompression", "repl-timeout", "slowlog-log-slower-than",
        "disable-thp", "cluster-node-timeout", "protected-mode", NULL};
    config_sniffer *f = arg;
    char buf[INFO_NAME_MAX];
    size_t i, m = n;
    int tty = 0;

    if (n < sizeof(buf) && (tty = config_tty_elem(p, n, buf, &m)) > 0) {
        p = buf;
        n = m;
        f->tty++;
    }
    if ((f->lines++ & 1) != 0 || tty < 0)
        return 0; /* values may be anything */
    if (!config_is_name(p, n)) {
        f->bad++;
        return 0;
    }
    f->names++;
    for (i = 0; known[i] != NULL; i++)
        if (strlen(known[i]) == n && memcmp(p, known[i], n) == 0)
            f->known++;
    return 0;
}

static int config_sniff(const char *fname, const char *head, size_t n)
{
    config_sniffer f = {0, 0, 0, 0, 0};
    (void)fname;
    each_head_line(head, n, config_sniff_line, &f);
    if (f.bad > 0 || f.names == 0 || f.known == 0)
        return 0;
    if (f.names >= 4)
        return f.known >= 2 ? 90 : 75;
    return 60;
}

const cow_parser cow_parser_redis_config = {
    "redis-config",
    "CONFIG GET output saved from redis-cli (name/value lines)",
    config_sniff,
    config_parse
};
