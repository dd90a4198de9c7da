/* memseries.c -- memory time series CSV (parser "mem-series"): a harness
 * sampling memory.current, RSS or used_memory every so often (seed 003:
 * every 150 ms through the save). Exports cow_parser_mem_series only.
 *
 *     timestamp_ms,memory_current        ts,rss_kb
 *     1738591331532,1132462080           1738591331.532,1105920
 *
 * Each data row gives one COW_REC_MEM per memory column: t_us, bytes, and
 * what = the column name as written ("memory_current", "rss_kb").
 *
 * Requirements:
 *  1. The header names a time column and at least one memory column; a
 *     latency column (latency, lat, rtt, duration, elapsed, value ...)
 *     means the file is a latency capture, not ours (sniff 0, parse
 *     refuses). Other columns are ignored and named in a note.
 *  2. Memory unit from the name: suffix _bytes _b _kb _kib _mb _mib _gb
 *     _gib, or "(MB)" / "[kB]". k/M/G are binary (1024-based), as the
 *     kernel and Redis print them. Without a unit, bytes only when the name
 *     says so (memory.current, memory.peak, used_memory...); else
 *     cow_parse_opts.mem_unit (run.json "mem_unit"); else refused.
 *  3. Time, decided on the first row: ISO 8601 text; a number with a unit
 *     (name suffix _s _ms _us _ns, "(ms)", or --time-unit) is epoch when it
 *     lands in 1990..2100, else relative to t0; a number without a unit is
 *     epoch s/ms/us/ns by magnitude, else relative with no unit: refused
 *     (0,150,300 could be ms or s). Relative times need t0 (run.json "t0").
 *  4. Time going backwards, or an epoch series leaving 1990..2100, refuses
 *     the file (mixed clocks, seed 003): such a series must not be plotted.
 *  5. A row with a missing field, a non-numeric or negative memory value,
 *     or an unreadable time is rejected with a reason. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats.h"
#include "mem.h"
#include "strbuf.h"
#include "text.h"
#include "num.h"
#include "timeconv.h"
#include "units.h"

/* Columns beyond this are not a memory series we expect. */
#define MS_MAX_COLS 32
/* Memory columns kept per row. */
#define MS_MAX_MEM 8

enum ms_role { MS_OTHER = 0, MS_TIME, MS_MEM, MS_LAT };

typedef struct ms_col {
    const char *p;     /* field start (in the current line) */
    size_t n;          /* field length */
} ms_col;

typedef struct ms_state {
    const cow_parse_opts *o;    /* options (t0, units) */
    cow_sink *k;                /* output */
    cow_err *e;                 /* error */
    const char *srcname;        /* input name for e->path */
    char delim;                 /* field separator */
    int ncols;                  /* header fields */
    int time_col;               /* index of the time column */
    char *time_name;            /* its name as written (owned), NULL until seen */
    double time_unit_us;        /* us per time unit, 0 = unknown */
    int unit_from_opt;          /* time_unit_us came from --time-unit */
    int nmem;                   /* memory columns */
    int mem_col[MS_MAX_MEM];    /* their indexes */
    char *mem_name[MS_MAX_MEM]; /* their names as written (owned) */
    double mem_mult[MS_MAX_MEM];   /* bytes per unit */
    char ignored[256];          /* other column names, for the note */
    int decided;                /* clock chosen on the first row */
    int iso;                    /* time is ISO 8601 text */
    int epoch;                  /* 1 epoch, 0 relative to t0 */
    double mult;                /* us per time unit */
    char how[128];              /* how the clock was chosen, for the note */
    int64_t last_us;            /* previous stamp */
    long last_line;             /* its line */
    long rows, rejects;         /* good rows, rejected lines */
    long first_reject;          /* line of the first reject */
    long mem_seen[MS_MAX_MEM];  /* values per memory column (empty = missing) */
    long missing;               /* empty memory cells */
} ms_state;

/* ============================================================ columns */

static const struct { const char *name; double us; } time_units[] = {
    {"s", 1e6}, {"sec", 1e6}, {"secs", 1e6}, {"seconds", 1e6},
    {"ms", 1e3}, {"msec", 1e3}, {"millis", 1e3}, {"us", 1}, {"usec", 1},
    {"micros", 1}, {"ns", 1e-3}, {"nsec", 1e-3}, {"nanos", 1e-3}};

static double time_unit_of(const char *u)
{
    size_t i;
    for (i = 0; i < sizeof(time_units) / sizeof(time_units[0]); i++)
        if (strcmp(time_units[i].name, u) == 0)
            return time_units[i].us;
    return 0;
}

static bool in_list(const char *const *l, const char *s)
{
    for (; *l; l++)
        if (strcmp(*l, s) == 0)
            return true;
    return false;
}

/* Split a trailing "_unit" off base when it is one of the given kind. */
static double suffix_unit(char *base, double (*of)(const char *))
{
    char *us = strrchr(base, '_');
    double m;
    if (us == NULL || us == base || (m = of(us + 1)) == 0)
        return 0;
    *us = '\0';
    return m;
}

static bool is_latency_name(const char *b)
{
    static const char *const lat[] = {
        "latency", "lat", "rtt", "round_trip", "roundtrip", "response_time",
        "resp_time", "service_time", "duration", "elapsed", "took", "value",
        NULL};
    return in_list(lat, b) || strstr(b, "latency") != NULL ||
           strncmp(b, "lat_", 4) == 0;
}

static bool is_time_name(const char *b)
{
    static const char *const t[] = {
        "t", "time", "ts", "timestamp", "epoch", "unix_time", "unixtime",
        "datetime", "date", "when", "wall", "wallclock", "clock", "sec",
        "seconds", "t_epoch", "time_epoch", NULL};
    return in_list(t, b);
}

static bool is_mem_name(const char *b)
{
    static const char *const exact[] = {"current", "peak", "used", "usage",
                                        "bytes", "size", NULL};
    return in_list(exact, b) || strstr(b, "mem") != NULL ||
           strstr(b, "rss") != NULL || strstr(b, "usage") != NULL ||
           strstr(b, "bytes") != NULL || strstr(b, "anon") != NULL ||
           strstr(b, "cow") != NULL || strstr(b, "heap") != NULL ||
           strstr(b, "dirty") != NULL;
}

/* Names whose unit is bytes by definition (cgroup files, Redis INFO). */
static bool says_bytes(const char *b)
{
    static const char *const l[] = {
        "memory_current", "memory_peak", "current", "peak", "used_memory",
        "used_memory_rss", "used_memory_peak", "rdb_last_cow_size",
        "current_cow_size", "memory_usage_in", "usage_in", "max_usage_in",
        "memory_max_usage_in", NULL};
    return in_list(l, b) || strstr(b, "bytes") != NULL;
}

/* Role of one header field; *mult is us (time) or bytes (memory) per
 * unit, 0 when the name gives none. */
static enum ms_role col_role(const char *p, size_t n, double *mult)
{
    char b[64], u[32], bt[64];
    double m;

    text_colname(p, n, b, sizeof(b), u, sizeof(u));
    *mult = 0;
    if (is_latency_name(b))
        return MS_LAT;
    memcpy(bt, b, sizeof(bt));
    m = u[0] ? time_unit_of(u) : suffix_unit(bt, time_unit_of);
    if (is_latency_name(bt))
        return MS_LAT;  /* "lat_ms", "elapsed_s" */
    if (is_time_name(bt)) {
        *mult = m;
        return MS_TIME;
    }
    m = u[0] ? unit_mem_bytes(u) : suffix_unit(b, unit_mem_bytes);
    if (m > 0 || is_mem_name(b)) {
        *mult = m > 0 ? m : says_bytes(b) ? 1 : 0;
        return MS_MEM;
    }
    return MS_OTHER;
}

/* ============================================================= fields */

/* Split into at most max fields, trimmed and unquoted; returns the count
 * (max + 1 when there are more). */
static int split(const char *p, size_t n, char d, ms_col *f, int max)
{
    size_t i = 0;
    int k = 0;

    for (;;) {
        const char *s = p + i, *e = memchr(s, d, n - i);
        size_t len = e ? (size_t)(e - s) : n - i;
        if (k == max)
            return max + 1;
        num_trim(&s, &len);
        if (len >= 2 && s[0] == '"' && s[len - 1] == '"') {
            s++;
            len -= 2;
        }
        f[k].p = s;
        f[k++].n = len;
        if (e == NULL)
            return k;
        i = (size_t)(e - p) + 1;
    }
}

/* ============================================================== header */

static int fail_at(ms_state *m, long line, int code, const char *msg)
{
    COW_FAIL(m->e, code, "%s", msg);
    cow_err_at(m->e, m->srcname, line, 0);
    return code;
}

static void add_col(ms_state *m, int i, const ms_col *c, enum ms_role r,
                    double mult)
{
    size_t l;

    if (r == MS_TIME && m->time_col < 0) {
        m->time_col = i;
        m->time_unit_us = mult;
        m->time_name = xstrndup(c->p, c->n);
    } else if (r == MS_MEM && m->nmem < MS_MAX_MEM) {
        m->mem_col[m->nmem] = i;
        m->mem_mult[m->nmem] = mult;
        m->mem_name[m->nmem++] = xstrndup(c->p, c->n);
    } else {
        l = strlen(m->ignored);
        snprintf(m->ignored + l, sizeof(m->ignored) - l, "%s%.*s",
                 l ? ", " : "", (int)c->n, c->p);
    }
}

static int header(ms_state *m, const cow_line *ln)
{
    ms_col c[MS_MAX_COLS];
    double mult;
    int i, j;
    char msg[512];

    m->delim = text_find_delim(ln->p, ln->n);
    m->ncols = split(ln->p, ln->n, m->delim, c, MS_MAX_COLS);
    if (m->ncols > MS_MAX_COLS)
        return fail_at(m, ln->no, COW_ELIMIT, "more than 32 columns: not a "
                       "memory time series");
    m->time_col = -1;
    for (i = 0; i < m->ncols; i++) {
        enum ms_role r = col_role(c[i].p, c[i].n, &mult);
        if (r == MS_LAT)
            return fail_at(m, ln->no, COW_EPARSE, "this CSV has a latency "
                           "column: it is a latency capture (parser "
                           "latency-csv), not a memory series");
        add_col(m, i, &c[i], r, mult);
    }
    if (m->time_col < 0 || m->nmem == 0)
        return fail_at(m, ln->no, COW_EPARSE, m->nmem == 0
                       ? "no memory column (expected e.g. bytes, "
                         "memory_current, rss_kb or 'used (MB)')"
                       : "no time column (expected t, ts, timestamp, epoch "
                         "or time, e.g. timestamp_ms): samples cannot be "
                         "lined up with the save without one");
    for (j = 0; j < m->nmem; j++)
        if (m->mem_mult[j] == 0) {
            if (m->o && m->o->mem_unit && (mult = unit_mem_bytes(m->o->mem_unit)) > 0) {
                m->mem_mult[j] = mult;
                continue;
            }
            snprintf(msg, sizeof(msg), "memory column '%s' has no unit: "
                     "rename it (e.g. %s_kb, %s_bytes or '%s (MB)') or set "
                     "\"mem_unit\" in run.json (bytes, kB, MB, GB)",
                     m->mem_name[j], m->mem_name[j], m->mem_name[j],
                     m->mem_name[j]);
            return fail_at(m, ln->no, COW_EUNIT, msg);
        }
    if (m->time_unit_us == 0 && m->o && m->o->time_unit) {
        m->time_unit_us = unit_time_us(m->o->time_unit, strlen(m->o->time_unit));
        m->unit_from_opt = 1;
    }
    return COW_OK;
}

/* =============================================================== clock */

static bool in_epoch(double us)
{
    return us >= (double)COW_EPOCH_MIN_S * 1e6 && us < (double)COW_EPOCH_MAX_S * 1e6;
}

/* Requirement 3: choose the clock from the first stamp. */
static int decide(ms_state *m, const ms_col *c, long line, const char **why)
{
    static const double mags[] = {1e6, 1e3, 1.0, 1e-3};
    static const char *const names[] = {"s", "ms", "us", "ns"};
    char msg[400];
    int64_t us;
    double v;
    int i;

    if (time_parse_iso8601(c->p, c->n, &us)) {
        m->iso = m->epoch = m->decided = 1;
        snprintf(m->how, sizeof(m->how), "ISO 8601 text");
        return COW_OK;
    }
    if (!num_parse_double(c->p, c->n, &v)) {
        *why = "time is neither a number nor ISO 8601";
        return COW_EPARSE;
    }
    if (v < 0)
        return fail_at(m, line, COW_ECLOCK, "first time stamp is negative: a "
                       "monotonic clock was probably mixed with a wall clock; "
                       "record one wall-clock epoch and add monotonic deltas");
    if (m->time_unit_us > 0) {
        m->mult = m->time_unit_us;
        m->epoch = in_epoch(v * m->mult);
        snprintf(m->how, sizeof(m->how), "%s, %g us per unit (from %s)",
                 m->epoch ? "epoch" : "relative to t0", m->mult,
                 m->unit_from_opt ? "--time-unit" : "the column name");
    } else {
        for (i = 0; i < 4 && !m->epoch; i++)
            if (in_epoch(v * mags[i])) {
                m->mult = mags[i];
                m->epoch = 1;
                snprintf(m->how, sizeof(m->how), "epoch %s (by magnitude)",
                         names[i]);
            }
        if (!m->epoch) {
            snprintf(msg, sizeof(msg), "time column '%s' is relative (first "
                     "value %.17g) and has no unit: rename it (e.g. %s_s or "
                     "%s_ms) or pass --time-unit", m->time_name, v,
                     m->time_name, m->time_name);
            return fail_at(m, line, COW_EUNIT, msg);
        }
    }
    if (!m->epoch && !(m->o && m->o->has_t0)) {
        snprintf(msg, sizeof(msg), "time column '%s' is relative: it needs an "
                 "anchor, set \"t0\" in run.json (or --t0)", m->time_name);
        return fail_at(m, line, COW_ECLOCK, msg);
    }
    m->decided = 1;
    return COW_OK;
}

/* Microseconds of a numeric stamp; integers stay exact (epoch us/ns
 * exceed a double's 53 bits). */
static bool num_to_us(const ms_col *c, double mult, int64_t *us)
{
    int64_t iv;
    double v;

    if (num_parse_i64(c->p, c->n, &iv) && iv >= 0 && iv < INT64_MAX / 1000000) {
        *us = mult >= 1 ? iv * (int64_t)mult : iv / (int64_t)llround(1 / mult);
        return true;
    }
    if (!num_parse_double(c->p, c->n, &v) || v < 0 || v * mult > 9e18)
        return false;
    *us = (int64_t)llround(v * mult);
    return true;
}

/* 0 and *us; COW_EPARSE with *why (reject); other codes refuse (e set). */
static int time_of(ms_state *m, const ms_col *c, long line, int64_t *us,
                   const char **why)
{
    int rc;

    if (!m->decided && (rc = decide(m, c, line, why)) != COW_OK)
        return rc;
    if (m->iso) {
        if (time_parse_iso8601(c->p, c->n, us))
            return COW_OK;
        *why = "time is not ISO 8601 like the first row";
        return COW_EPARSE;
    }
    if (!num_to_us(c, m->mult, us)) {
        *why = "time is not a non-negative number";
        return COW_EPARSE;
    }
    if (!m->epoch) {
        /* relative stamp + anchor: check before adding (overflow), then
         * the sum like an epoch stamp */
        if (*us > INT64_MAX - m->o->t0_us || !in_epoch((double)(*us + m->o->t0_us))) {
            *why = "relative time puts this row outside 1990..2100 from t0";
            return COW_EPARSE;
        }
        *us += m->o->t0_us;
        return COW_OK;
    }
    if (!in_epoch((double)*us))
        return fail_at(m, line, COW_ECLOCK, "this time stamp is far from the "
                       "epoch the series started with (outside 1990..2100): "
                       "two clocks are mixed in one column");
    return COW_OK;
}

/* ================================================================ rows */

static int reject(ms_state *m, const cow_line *ln, const char *why)
{
    m->rejects++;
    if (m->first_reject == 0)
        m->first_reject = ln->no;
    return sink_reject(m->k, ln->no, why, ln->p, ln->n, m->e);
}

static int emit_row(ms_state *m, int64_t t, const double *bytes)
{
    cow_rec r;
    int j, rc;

    for (j = 0; j < m->nmem; j++) {
        if (isnan(bytes[j]))
            continue; /* a missing value */
        r.kind = COW_REC_MEM;
        r.u.mem.t_us = t;
        r.u.mem.bytes = bytes[j];
        r.u.mem.what = m->mem_name[j];
        if ((rc = sink_emit(m->k, &r, m->e)) != COW_OK)
            return rc;
    }
    m->rows++;
    return COW_OK;
}

static int row(ms_state *m, const cow_line *ln)
{
    ms_col c[MS_MAX_COLS + 1];
    double bytes[MS_MAX_MEM], v;
    const char *why = NULL;
    char msg[200], ts[40], prev[40];
    int64_t t;
    int j, rc;

    if (split(ln->p, ln->n, m->delim, c, MS_MAX_COLS) != m->ncols) {
        snprintf(msg, sizeof(msg), "expected %d fields like the header", m->ncols);
        return reject(m, ln, msg);
    }
    rc = time_of(m, &c[m->time_col], ln->no, &t, &why);
    if (rc == COW_EPARSE)
        return reject(m, ln, why);
    if (rc != COW_OK)
        return rc;
    for (j = 0; j < m->nmem; j++) {
        const ms_col *f = &c[m->mem_col[j]];
        const char *cp = f->p;
        size_t cn = f->n;
        num_trim(&cp, &cn);
        if (cn == 0) {
            /* an empty cell is a missing value (no fork child yet) */
            bytes[j] = NAN;
            m->missing++;
            continue;
        }
        if (!num_parse_double(f->p, f->n, &v) || v < 0) {
            snprintf(msg, sizeof(msg), "%s '%.*s' is not a non-negative number",
                     m->mem_name[j], (int)(f->n > 40 ? 40 : f->n), f->p);
            return reject(m, ln, msg);
        }
        bytes[j] = v * m->mem_mult[j];
    }
    for (j = 0; j < m->nmem; j++)
        m->mem_seen[j] += !isnan(bytes[j]);
    if (m->rows > 0 && t < m->last_us) {
        time_format_iso(t, ts, sizeof(ts));
        time_format_iso(m->last_us, prev, sizeof(prev));
        snprintf(msg, sizeof(msg), "time goes backwards: %s after %s at line "
                 "%ld; the series mixes clocks or was joined out of order",
                 ts, prev, m->last_line);
        return fail_at(m, ln->no, COW_ECLOCK, msg);
    }
    m->last_us = t;
    m->last_line = ln->no;
    return emit_row(m, t, bytes);
}

/* ============================================================== parse */

/* sink_note of the text of b (emptied). */
static int note_sbuf(ms_state *m, const char *key, cow_sbuf *b)
{
    char *text = sbuf_take(b);
    int rc = sink_note(m->k, key, text, m->e);

    free(text);
    return rc;
}

static int notes(ms_state *m)
{
    char buf[96];
    cow_sbuf b = {NULL, 0, 0};
    int j, rc;

    for (j = 0; j < m->nmem; j++)
        if (m->mem_seen[j] > 0)
            sbuf_add(&b, "%s%s (x%.0f bytes)", b.n ? ", " : "", m->mem_name[j],
                     m->mem_mult[j]);
    if ((rc = note_sbuf(m, "memory_columns", &b)) != COW_OK)
        return rc;
    for (j = 0; j < m->nmem; j++)
        if (m->mem_seen[j] == 0)
            sbuf_add(&b, "%s%s", b.n ? ", " : "", m->mem_name[j]);
    if (b.n > 0) {
        sbuf_add(&b, " (empty throughout)");
        if ((rc = note_sbuf(m, "dropped_columns", &b)) != COW_OK)
            return rc;
    }
    if (m->missing > 0) {
        snprintf(buf, sizeof(buf), "%ld empty cells (missing values, not errors)",
                 m->missing);
        if ((rc = sink_note(m->k, "missing_values", buf, m->e)) != COW_OK)
            return rc;
    }
    sbuf_add(&b, "%s: %s", m->time_name ? m->time_name : "", m->how);
    if ((rc = note_sbuf(m, "time_column", &b)) != COW_OK)
        return rc;
    if (m->ignored[0] && (rc = sink_note(m->k, "ignored_columns", m->ignored,
                                         m->e)) != COW_OK)
        return rc;
    return COW_OK;
}

static int finish(ms_state *m, long lines)
{
    char msg[200];

    if (m->ncols == 0)
        return fail_at(m, lines, COW_EPARSE, "empty file: expected a header "
                       "such as timestamp_ms,memory_current");
    if (m->rows == 0 && m->rejects == 0)
        return fail_at(m, lines, COW_EPARSE, "no data rows after the header");
    if (parser_too_many_rejects(m->rows, m->rejects)) {
        snprintf(msg, sizeof(msg), "%ld of %ld rows were rejected (first at "
                 "line %ld): this does not look like a memory series",
                 m->rejects, m->rows + m->rejects, m->first_reject);
        return fail_at(m, m->first_reject, COW_EPARSE, msg);
    }
    return notes(m);
}

static int parse_lines(ms_state *m, cow_src *s, cow_err *e)
{
    cow_line ln;
    long lines = 0;
    int rc;

    while ((rc = src_next_line(s, &ln, e)) == 1) {
        const char *p = ln.p;
        size_t n = ln.n;
        lines = ln.no;
        num_trim(&p, &n);
        if (n == 0 || p[0] == '#')
            continue;
        rc = m->ncols == 0 ? header(m, &ln) : row(m, &ln);
        if (rc != COW_OK)
            return rc;
    }
    if (rc == -1)
        return e->code;
    return finish(m, lines);
}

static int parse(cow_src *s, const cow_parse_opts *o, cow_sink *k, cow_err *e)
{
    ms_state m;
    int rc, j;

    memset(&m, 0, sizeof(m));
    m.o = o;
    m.k = k;
    m.e = e;
    m.srcname = s->name;
    rc = parse_lines(&m, s, e);
    free(m.time_name);
    for (j = 0; j < m.nmem; j++)
        free(m.mem_name[j]);
    return rc;
}

/* ============================================================== sniff */

static int sniff(const char *fname, const char *head, size_t n)
{
    const char *p = head, *end = head + n;
    ms_col c[MS_MAX_COLS + 1];
    int k, i, ntime = 0, nmem = 0, known = 1;
    double mult;

    (void)fname;
    if (n >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0)
        p += 3;
    while (p < end && (*p == '#' || *p == '\n' || *p == '\r')) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl ? nl + 1 : end;
    }
    {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (len > 0 && p[len - 1] == '\r')
            len--;
        k = split(p, len, text_find_delim(p, len), c, MS_MAX_COLS);
    }
    if (k < 2 || k > MS_MAX_COLS)
        return 0;
    for (i = 0; i < k; i++)
        switch (col_role(c[i].p, c[i].n, &mult)) {
        case MS_LAT: return 0;
        case MS_TIME: ntime++; break;
        case MS_MEM: nmem++; known &= mult > 0; break;
        case MS_OTHER: break;
        }
    if (nmem == 0)
        return 0;
    if (ntime == 0)
        return 30;
    return known ? 90 : 75;
}

const cow_parser cow_parser_mem_series = {
    "mem-series",
    "memory time series CSV: a time column and memory columns "
    "(memory_current, rss_kb, used_memory ...)",
    sniff,
    parse,
};
