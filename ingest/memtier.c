/* memtier.c -- memtier_benchmark --json-out-file output (formats.md §7.1).
 *
 * Exports cow_parser_memtier_json ("memtier-json"). The file is one JSON
 * document written at the end of the run, so it is read whole and parsed
 * with cJSON. Records (source "memtier"):
 *
 *   COW_REC_PCTL      whole run: t_us = 0, op = the command object's name
 *                     ("Sets", "Gets", "Waits", "Totals", "Zadds"...), q from
 *                     the "Percentile Latencies" keys ("p99.90" -> 99.9),
 *                     plus q = 0 / 100 from "Min Latency" / "Max Latency"
 *                     unless the map has them; count = the object's Count.
 *                     Per second: the same keys of each "Time-Serie" entry,
 *                     with t_us = that second's end (so t_us != 0).
 *   COW_REC_INTERVAL  one per "Time-Serie" second: t_us = end of the second
 *                     (run start + offset + 1 s, clipped at the finish time),
 *                     dur_s, count, min/avg/max in us (NAN when absent).
 *                     A second with no completed operation has no entry in
 *                     the file; it is emitted with count 0 and NAN latencies,
 *                     because a server stall must show as a hole, not vanish.
 *   COW_REC_STAT      "<op>:count", "<op>:ops_per_sec", "<op>:avg_latency_us",
 *                     "<op>:kb_per_sec"; "config:<key>" and "run:<key>" for
 *                     the "configuration" and "run information" scalars.
 *   COW_REC_NOTE      run start, interrupted runs, skipped parts, NaN fixes.
 *
 * With --run-count N the stats objects are "BEST RUN RESULTS", "WORST RUN
 * RESULTS", "AGGREGATED AVERAGE RESULTS (N runs)" and "RUN #k RESULTS"; their
 * ops are prefixed "best:", "worst:", "avg:", "run<k>:" ("best:Sets").
 *
 * Latencies are milliseconds ("Time unit": "MILLISECONDS"); another unit name
 * is honoured when it is one of SECONDS/MILLISECONDS/MICROSECONDS/NANOSECONDS,
 * else --latency-unit decides, else the file is refused. Input line numbers
 * of values are found by seeking their keys forward in document order in
 * an index of every key, unescaped (cJSON keeps no positions; a raw-text
 * search missed "\u0070" and rescanned the rest of the file per key). */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "formats.h"
#include "memtier_int.h"
#include "jsonstrict.h"
#include "mem.h"
#include "num.h"
#include "timeconv.h"
#include "units.h"

#define MT_SOURCE "memtier"
/* Longest op label kept ("run12:Zadds"). */
#define MT_MAX_OP 128
/* A Time-Serie longer than a year of seconds is not a benchmark. */
#define MT_MAX_SECONDS (366L * 86400L)

/* Forward-only cursor over the document's keys that gives line numbers. */
typedef struct mtpos {
    const cow_jkeys *keys; /* every key of the document */
    size_t ord;            /* the search resumes at this key */
    long line;             /* line of the last key found */
} mtpos;

typedef struct mt {
    cow_sink *k;              /* output */
    const cow_parse_opts *o;  /* flags */
    const char *path;         /* file name for errors */
    mtpos pos;                /* line finder */
    double us_per_unit;       /* latency unit of this stats object */
    int64_t start_us;         /* run start, 0 if unknown */
    int64_t finish_us;        /* run finish, 0 if unknown */
    char op[MT_MAX_OP];       /* current op label */
    long rows, rejects;       /* records from values, rejected values */
    int no_start_noted;       /* the "no run start" note was given */
} mt;

/* ------------------------------------------------------------------ */
/* Text helpers: NaN words, positions                                  */
/* ------------------------------------------------------------------ */

static int word_at(const char *b, size_t n, size_t i, const char *w)
{
    size_t m = strlen(w);
    return i + m <= n && memcmp(b + i, w, m) == 0 &&
           (i + m == n || !isalnum((unsigned char)b[i + m]));
}

/* JSON text walked a byte at a time: 1 when b[*i] belongs to a string
 * (its quotes included; *i steps over the byte an escape covers), so the
 * caller looks only at the bytes outside strings. */
static int in_string(const char *b, size_t *i, int *in_str)
{
    if (*in_str) {
        if (b[*i] == '\\')
            (*i)++;
        else if (b[*i] == '"')
            *in_str = 0;
        return 1;
    }
    if (b[*i] == '"') {
        *in_str = 1;
        return 1;
    }
    return 0;
}

/* memtier before 2.1.2 printed NaN as nan / -nan, which is not JSON.
 * Overwrite those bare words (outside strings) in place with JSON of the
 * same length -- "-nan" -> "null", "nan" -> "[] " -- so that cJSON's end
 * pointer still maps to the original line:col; both read as "no value".
 * Returns how many were replaced. */
static int fix_nan(char *b, size_t n)
{
    size_t i;
    int in_str = 0, fixed = 0;

    for (i = 0; i < n; i++) {
        if (in_string(b, &i, &in_str)) {
            continue;
        } else if (b[i] == '-' && (word_at(b, n, i + 1, "nan") ||
                                   word_at(b, n, i + 1, "inf"))) {
            memcpy(b + i, "null", 4);
            i += 3;
            fixed++;
        } else if ((i == 0 || !isalnum((unsigned char)b[i - 1])) &&
                   (word_at(b, n, i, "nan") || word_at(b, n, i, "inf"))) {
            memcpy(b + i, "[] ", 3);
            i += 2;
            fixed++;
        }
    }
    return fixed;
}

/* Line of the next key equal to key; the cursor moves past it. When
 * there is none the cursor stays and its line is returned. */
static long pos_seek(mtpos *ps, const char *key)
{
    long line = json_keys_seek(ps->keys, key, &ps->ord);
    if (line > 0)
        ps->line = line;
    return ps->line;
}

static void line_col(const char *b, const char *at, long *line, long *col)
{
    const char *p;
    *line = 1;
    *col = 1;
    for (p = b; p < at; p++) {
        if (*p == '\n')
            ++*line, *col = 1;
        else
            ++*col;
    }
}

/* ------------------------------------------------------------------ */
/* Emit helpers                                                        */
/* ------------------------------------------------------------------ */

static int num_of(const cJSON *o, const char *key, double *v)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsNumber(it))
        return 0;
    *v = it->valuedouble;
    return 1;
}

static int emit_stat(mt *m, const char *key, const char *text, double num,
                     const char *unit, long line, cow_err *e)
{
    return sink_stat(m->k, 0, MT_SOURCE, key, text, num, unit, line, e);
}

/* STAT "<op>:<what>" from a numeric member, when present. */
static int op_stat(mt *m, const cJSON *cmd, const char *member, const char *what,
                   double mult, const char *unit, cow_err *e)
{
    char key[MT_MAX_OP + 32], text[64];
    double v;

    if (!num_of(cmd, member, &v))
        return COW_OK;
    snprintf(key, sizeof(key), "%s:%s", m->op, what);
    snprintf(text, sizeof(text), "%.15g", v);
    return emit_stat(m, key, text, v * mult, unit, m->pos.line, e);
}

static int emit_pctl(mt *m, double q, double value, int64_t t_us, int64_t count,
                     long line, cow_err *e)
{
    cow_rec r;
    memset(&r, 0, sizeof(r));
    r.kind = COW_REC_PCTL;
    r.u.pctl.source = MT_SOURCE;
    r.u.pctl.op = m->op;
    r.u.pctl.t_us = t_us;
    r.u.pctl.q = q;
    r.u.pctl.value_us = value * m->us_per_unit;
    r.u.pctl.count = count;
    r.u.pctl.line = line;
    m->rows++;
    return sink_emit(m->k, &r, e);
}

/* A value that cannot be used: a reject naming its place in the JSON. */
static int bad_value(mt *m, const char *where, const char *key, long line,
                     const char *why, cow_err *e)
{
    char text[256];
    snprintf(text, sizeof(text), "%s/%s/%s", m->op, where, key);
    m->rejects++;
    return sink_reject(m->k, line > 0 ? line : 1, why, text, strlen(text), e);
}

/* ------------------------------------------------------------------ */
/* Percentile maps and the per-second series                           */
/* ------------------------------------------------------------------ */

/* "p99.90": 1.234 members of obj -> PCTL. *has100 set when p100 came. */
static int pct_map(mt *m, const cJSON *obj, const char *where, int64_t t_us,
                   int64_t count, int *has100, cow_err *e)
{
    const cJSON *it;
    double seen[64];
    int nseen = 0, i, rc = COW_OK;

    cJSON_ArrayForEach(it, obj) {
        const char *key = it->string;
        double q;
        long line;
        int dup = 0;
        if (key == NULL || key[0] != 'p' ||
            !num_parse_double(key + 1, strlen(key + 1), &q) || q < 0 || q > 100)
            continue; /* Count, Min Latency, "Histogram log format"... */
        line = pos_seek(&m->pos, key);
        for (i = 0; i < nseen; i++)
            dup |= seen[i] == q;
        if (dup) {
            rc = bad_value(m, where, key, line, "percentile key repeated "
                           "(memtier cuts keys to 6 characters, so p99.99 and "
                           "p99.999 collide): the first one was kept", e);
        } else if (!cJSON_IsNumber(it)) {
            rc = bad_value(m, where, key, line, "percentile value is not a "
                           "number (NaN in memtier's output)", e);
        } else {
            if (nseen < 64)
                seen[nseen++] = q;
            *has100 |= q == 100;
            rc = emit_pctl(m, q, it->valuedouble, t_us, count, line, e);
        }
        if (rc != COW_OK)
            return rc;
    }
    return rc;
}

static int emit_interval(mt *m, int64_t sec, int64_t count, const cJSON *v,
                         long line, int64_t *end_us, cow_err *e)
{
    int64_t beg = m->start_us + sec * COW_US_PER_S;
    int64_t end = beg + COW_US_PER_S;
    double x;
    cow_rec r;

    if (m->finish_us > beg && m->finish_us < end)
        end = m->finish_us; /* the last, partial second */
    memset(&r, 0, sizeof(r));
    r.kind = COW_REC_INTERVAL;
    r.u.interval.t_us = end;
    r.u.interval.dur_s = (double)(end - beg) / 1e6;
    r.u.interval.min_us = v && num_of(v, "Min Latency", &x) ? x * m->us_per_unit : NAN;
    r.u.interval.max_us = v && num_of(v, "Max Latency", &x) ? x * m->us_per_unit : NAN;
    r.u.interval.avg_us = v && num_of(v, "Average Latency", &x) ? x * m->us_per_unit : NAN;
    r.u.interval.count = count;
    r.u.interval.op = m->op;
    r.u.interval.line = line;
    *end_us = end;
    m->rows++;
    return sink_emit(m->k, &r, e);
}

/* One "<sec>": {...} entry; *next is the second expected next. */
static int series_entry(mt *m, const cJSON *v, int64_t *next, cow_err *e)
{
    int64_t sec, t_end;
    double cnt;
    long line = pos_seek(&m->pos, v->string);
    int rc, has100 = 0;

    if (!num_parse_i64(v->string, strlen(v->string), &sec) || sec < 0 ||
        sec > MT_MAX_SECONDS)
        return bad_value(m, "Time-Serie", v->string, line,
                         "key is not a second offset since the run start", e);
    /* no longer than the run says it lasted ("Start time" to "Finish
     * time", the last second partial): a key of 31000000 in a 5 s run
     * would fill 31 M seconds with empty intervals */
    if (m->finish_us > m->start_us && m->start_us > 0 &&
        sec > (m->finish_us - m->start_us) / 1000000 + 1)
        return bad_value(m, "Time-Serie", v->string, line,
                         "second beyond the run's own length (its \"Runtime\" start "
                         "to finish)", e);
    if (sec < *next)
        return bad_value(m, "Time-Serie", v->string, line,
                         "second repeated or out of order", e);
    if (!cJSON_IsObject(v) || !num_of(v, "Count", &cnt) || cnt < 0)
        return bad_value(m, "Time-Serie", v->string, line,
                         "entry has no \"Count\"", e);
    for (; *next < sec; ++*next) /* seconds in which nothing completed */
        if ((rc = emit_interval(m, *next, 0, NULL, line, &t_end, e)) != COW_OK)
            return rc;
    *next = sec + 1;
    if ((rc = emit_interval(m, sec, (int64_t)cnt, v, line, &t_end, e)) != COW_OK)
        return rc;
    return pct_map(m, v, "Time-Serie", t_end, (int64_t)cnt, &has100, e);
}

static int series(mt *m, const cJSON *ts, cow_err *e)
{
    const cJSON *v;
    int64_t next = 0;
    long line;
    int rc;

    if (ts == NULL)
        return COW_OK;
    line = pos_seek(&m->pos, "Time-Serie");
    if (!cJSON_IsObject(ts))
        return bad_value(m, "Time-Serie", "", line, "not an object", e);
    if (m->start_us == 0) {
        if (m->no_start_noted++)
            return COW_OK;
        return sink_note(m->k, "time_serie", "not loaded: the file has no run "
                         "start (\"Runtime\"/\"Start time\"); give it with --t0 "
                         "or run.json \"t0\"", e);
    }
    cJSON_ArrayForEach(v, ts)
        if ((rc = series_entry(m, v, &next, e)) != COW_OK)
            return rc;
    return COW_OK;
}

/* ------------------------------------------------------------------ */
/* Stats objects                                                       */
/* ------------------------------------------------------------------ */

/* The command's totals as STATs; the average only when it has samples
 * (without any it prints 0.000 or nan). */
static int command_stats(mt *m, const cJSON *cmd, double cnt, cow_err *e)
{
    int rc;

    if ((rc = op_stat(m, cmd, "Count", "count", 1, NULL, e)) ||
        (rc = op_stat(m, cmd, "Ops/sec", "ops_per_sec", 1, "ops/s", e)) ||
        (rc = op_stat(m, cmd, "KB/sec", "kb_per_sec", 1, "KB/s", e)) || cnt <= 0)
        return rc;
    /* "Latency" is the older name of the same mean */
    return op_stat(m, cmd, cJSON_GetObjectItemCaseSensitive(cmd, "Average Latency")
                   ? "Average Latency" : "Latency", "avg_latency_us",
                   m->us_per_unit, "us", e);
}

/* "Sets": {"Count": ..., "Percentile Latencies": {...}, "Time-Serie": ...} */
static int command(mt *m, const cJSON *cmd, cow_err *e)
{
    const cJSON *pl = cJSON_GetObjectItemCaseSensitive(cmd, "Percentile Latencies");
    double cnt = 0, x;
    int rc, has100 = 0;

    pos_seek(&m->pos, cmd->string);
    (void)num_of(cmd, "Count", &cnt);
    if ((rc = command_stats(m, cmd, cnt, e)) != COW_OK)
        return rc;
    if ((rc = series(m, cJSON_GetObjectItemCaseSensitive(cmd, "Time-Serie"), e)))
        return rc;
    if (cnt <= 0) /* percentiles and min/max print 0.000 without samples */
        return COW_OK;
    if (cJSON_IsObject(pl)) {
        pos_seek(&m->pos, "Percentile Latencies");
        if ((rc = pct_map(m, pl, "Percentile Latencies", 0, (int64_t)cnt, &has100, e)))
            return rc;
    }
    if (num_of(cmd, "Min Latency", &x) &&
        (rc = emit_pctl(m, 0, x, 0, (int64_t)cnt, m->pos.line, e)) != COW_OK)
        return rc;
    if (!has100 && num_of(cmd, "Max Latency", &x))
        return emit_pctl(m, 100, x, 0, (int64_t)cnt, m->pos.line, e);
    return COW_OK;
}

static double unit_by_name(const char *u)
{
    static const struct { const char *name; double us; } t[] = {
        {"MILLISECONDS", 1e3}, {"MICROSECONDS", 1}, {"NANOSECONDS", 1e-3},
        {"SECONDS", 1e6}, {"ms", 1e3}, {"us", 1}, {"ns", 1e-3}, {"s", 1e6},
    };
    size_t i;
    for (i = 0; u && i < sizeof(t) / sizeof(t[0]); i++)
        if (strcmp(u, t[i].name) == 0)
            return t[i].us;
    return 0;
}

/* Epoch ms member -> us; 0 when absent; -1 when absurd. */
static int64_t epoch_ms(const cJSON *rt, const char *key)
{
    double v;
    if (!num_of(rt, key, &v))
        return 0;
    if (v < (double)COW_EPOCH_MIN_S * 1e3 || v > (double)COW_EPOCH_MAX_S * 1e3)
        return -1;
    return (int64_t)llround(v * 1e3);
}

/* The line of a key inside the Runtime object starting at line rt (the
 * position cursor is not moved: the members are read in any order). */
static long rt_line(mt *m, long rt, const char *key)
{
    mtpos ps = m->pos;
    long line = pos_seek(&ps, key);
    return line > 0 ? line : rt;
}

/* "Runtime": start/finish and the latency unit. */
static int runtime(mt *m, const cJSON *rt, cow_err *e)
{
    const cJSON *u = cJSON_GetObjectItemCaseSensitive(rt, "Time unit");
    const cJSON *intr = cJSON_GetObjectItemCaseSensitive(rt, "Interrupted");
    const cJSON *status = cJSON_GetObjectItemCaseSensitive(rt, "Benchmark completion status");
    long line = rt ? pos_seek(&m->pos, "Runtime") : m->pos.line;
    char iso[40], note[MT_MAX_OP + 48];
    int rc;

    /* "Time unit" is absent before 2.x: memtier has always printed ms */
    m->us_per_unit = cJSON_IsString(u) ? unit_by_name(u->valuestring) : 1e3;
    if (m->us_per_unit == 0 && m->o && m->o->latency_unit)
        m->us_per_unit = unit_time_us(m->o->latency_unit, strlen(m->o->latency_unit));
    if (m->us_per_unit == 0) {
        cow_err_at(e, m->path, line, 0);
        return COW_FAIL(e, COW_EUNIT, "\"Time unit\": \"%.40s\" is not a unit "
                        "cowtail knows: pass --latency-unit ms|us|ns|s or set "
                        "\"latency_unit\" in run.json", u->valuestring);
    }
    m->start_us = epoch_ms(rt, "Start time");
    m->finish_us = epoch_ms(rt, "Finish time");
    if (m->start_us < 0 && !(m->o && m->o->has_t0)) {
        cow_err_at(e, m->path, rt_line(m, line, "Start time"), 0);
        return COW_FAIL(e, COW_ECLOCK, "\"Start time\" is not epoch milliseconds "
                        "between 1990 and 2100: give the run start with --t0 or "
                        "run.json \"t0\"");
    }
    if (m->start_us < 0)
        m->start_us = 0;
    if (m->finish_us < 0) {
        /* an interrupted run writes "Finish time": 0 and a negative
         * "Total duration": only the end of the last second is unknown */
        m->finish_us = 0;
        if ((rc = bad_value(m, "Runtime", "Finish time", rt_line(m, line, "Finish time"),
                            "\"Finish time\" is not epoch milliseconds between "
                            "1990 and 2100 (memtier writes 0 for an interrupted "
                            "run): ignored; the start and every figure are kept", e)) != COW_OK)
            return rc;
    }
    if (m->start_us == 0 && m->o && m->o->has_t0)
        m->start_us = m->o->t0_us;
    if (m->finish_us < m->start_us)
        m->finish_us = 0;
    if (m->start_us != 0) {
        time_format_iso(m->start_us, iso, sizeof(iso));
        snprintf(note, sizeof(note), "%s%s", m->op, iso);
        if ((rc = sink_note(m->k, "run_start", note, e)) != COW_OK)
            return rc;
    }
    if ((cJSON_IsString(intr) && strcmp(intr->valuestring, "true") == 0) ||
        (cJSON_IsString(status) && strncmp(status->valuestring, "INTERRUPTED", 11) == 0))
        return sink_note(m->k, "interrupted", "memtier says the run was "
                         "interrupted (\"Interrupted\": \"true\" or \"INTERRUPTED\" status): figures cover "
                         "a partial run", e);
    return COW_OK;
}

/* One stats object ("ALL STATS", "RUN #2 RESULTS", ...); pfx labels ops. */
static int stats(mt *m, const cJSON *st, const char *pfx, cow_err *e)
{
    const cJSON *it;
    int rc, skipped = 0;

    snprintf(m->op, sizeof(m->op), "%s", pfx);
    if ((rc = runtime(m, cJSON_GetObjectItemCaseSensitive(st, "Runtime"), e)))
        return rc;
    cJSON_ArrayForEach(it, st) {
        if (cJSON_IsObject(it) && cJSON_GetObjectItemCaseSensitive(it, "Count")) {
            snprintf(m->op, sizeof(m->op), "%s%s", pfx, it->string);
            if ((rc = command(m, it, e)) != COW_OK)
                return rc;
        } else if (strcmp(it->string, "Runtime") != 0) {
            skipped++; /* histogram arrays, "Active Clients" */
        }
    }
    if (skipped) {
        char note[128];
        snprintf(note, sizeof(note), "%s%d members not loaded (cumulative "
                 "histogram arrays, \"Active Clients\")", pfx, skipped);
        return sink_note(m->k, "skipped", note, e);
    }
    return COW_OK;
}

const char *memtier_stats_prefix(const char *name, char *buf, size_t n)
{
    int k;
    if (strcmp(name, "ALL STATS") == 0)
        return "";
    if (strcmp(name, "BEST RUN RESULTS") == 0)
        return "best:";
    if (strcmp(name, "WORST RUN RESULTS") == 0)
        return "worst:";
    if (strncmp(name, "AGGREGATED AVERAGE RESULTS", 26) == 0)
        return "avg:";
    if (sscanf(name, "RUN #%d RESULTS", &k) == 1 && k > 0) {
        snprintf(buf, n, "run%d:", k);
        return buf;
    }
    return NULL;
}

/* "configuration" and "run information": scalar members as STATs. */
static int settings(mt *m, const cJSON *obj, const char *pfx, cow_err *e)
{
    const cJSON *it;
    char key[160], text[64];
    int rc;

    if (!cJSON_IsObject(obj))
        return COW_OK;
    cJSON_ArrayForEach(it, obj) {
        long line = pos_seek(&m->pos, it->string);
        snprintf(key, sizeof(key), "%s:%s", pfx, it->string);
        if (cJSON_IsNumber(it)) {
            snprintf(text, sizeof(text), "%.15g", it->valuedouble);
            rc = emit_stat(m, key, text, it->valuedouble, NULL, line, e);
        } else if (cJSON_IsString(it)) {
            rc = emit_stat(m, key, it->valuestring, NAN, NULL, line, e);
        } else {
            continue;
        }
        if (rc != COW_OK)
            return rc;
    }
    return COW_OK;
}

static int walk(mt *m, const cJSON *root, cow_err *e)
{
    const cJSON *it;
    char buf[32];
    int rc, nstats = 0;

    if ((rc = settings(m, cJSON_GetObjectItemCaseSensitive(root, "configuration"),
                       "config", e)) ||
        (rc = settings(m, cJSON_GetObjectItemCaseSensitive(root, "run information"),
                       "run", e)))
        return rc;
    cJSON_ArrayForEach(it, root) {
        const char *pfx = memtier_stats_prefix(it->string, buf, sizeof(buf));
        if (pfx == NULL || !cJSON_IsObject(it))
            continue;
        nstats++;
        pos_seek(&m->pos, it->string);
        if ((rc = stats(m, it, pfx, e)) != COW_OK)
            return rc;
    }
    if (nstats == 0) {
        cow_err_at(e, m->path, 1, 0);
        return COW_FAIL(e, COW_EPARSE, "no \"ALL STATS\" or \"... RUN RESULTS\" "
                        "object: not a memtier_benchmark --json-out-file output");
    }
    return COW_OK;
}

/* ------------------------------------------------------------------ */
/* Parser entry points                                                 */
/* ------------------------------------------------------------------ */

/* 1 when the text stops inside a string or with brackets still open:
 * what a file cut short by a killed writer looks like. */
static int cut_short(const char *b, size_t n)
{
    size_t i;
    long depth = 0;
    int in_str = 0;

    for (i = 0; i < n; i++) {
        if (in_string(b, &i, &in_str)) {
            continue;
        } else if (b[i] == '{' || b[i] == '[') {
            depth++;
        } else if (b[i] == '}' || b[i] == ']') {
            depth--;
        }
    }
    return in_str || depth > 0;
}

/* Refuse with the line:col of cJSON's end pointer. */
static int refuse_json(mt *m, const char *buf, size_t n, const char *end,
                       cow_err *e)
{
    long line, col;

    if (end == NULL || end < buf || end > buf + n)
        end = buf + n;
    line_col(buf, end, &line, &col);
    cow_err_at(e, m->path, line, col);
    return COW_FAIL(e, COW_EPARSE, cut_short(buf, n)
                    ? "JSON ends early: the file is truncated (was memtier still "
                      "running, or killed?)"
                    : "not valid JSON here: is this a memtier_benchmark "
                      "--json-out-file output?");
}

static int mt_parse(cow_src *s, const cow_parse_opts *o, cow_sink *k,
                    cow_err *e)
{
    char *buf = NULL, *doc;
    size_t n = 0;
    const char *end = NULL;
    cJSON *root = NULL;
    cow_jkeys keys = {NULL, 0};
    int rc, fixed;
    mt m;

    memset(&m, 0, sizeof(m));
    m.k = k;
    m.o = o;
    m.path = s->name;
    m.us_per_unit = 1e3;
    if (src_read_all(s, &buf, &n, e) != COW_OK)
        return e->code;
    doc = buf;
    if (n >= 3 && memcmp(doc, "\xEF\xBB\xBF", 3) == 0)
        doc += 3, n -= 3;
    if (strlen(doc) != n) {
        long line, col;
        line_col(doc, doc + strlen(doc), &line, &col);
        cow_err_at(e, s->name, line, col);
        rc = COW_FAIL(e, COW_EPARSE, "NUL byte inside the JSON: the file is "
                      "damaged (a crash while writing?)");
        goto out;
    }
    fixed = fix_nan(doc, n);
    root = cJSON_ParseWithLengthOpts(doc, n + 1, &end, 1);
    if (root == NULL || !cJSON_IsObject(root)) {
        rc = refuse_json(&m, doc, n, root ? doc : end, e);
        goto out;
    }
    if ((rc = json_strict_check(doc, n, s->name, 1, e)) != COW_OK)
        goto out;
    json_keys_index(doc, n, &keys);
    m.pos.keys = &keys;
    m.pos.ord = 0;
    m.pos.line = 1;
    rc = fixed ? sink_note(k, "nan", "bare nan/-nan values (memtier < 2.1.2) "
                           "read as missing", e) : COW_OK;
    if (rc == COW_OK)
        rc = walk(&m, root, e);
    if (rc == COW_OK && m.rows == 0) {
        cow_err_at(e, s->name, 1, 0);
        rc = COW_FAIL(e, COW_EPARSE, "no latency figures in the file (no command "
                      "with a count and percentiles): nothing to load");
    } else if (rc == COW_OK && parser_too_many_rejects(m.rows, m.rejects)) {
        cow_err_at(e, s->name, m.pos.line, 0);
        rc = COW_FAIL(e, COW_EPARSE, "%ld of %ld latency values are unusable: "
                      "the file is not a memtier output cowtail understands",
                      m.rejects, m.rows + m.rejects);
    }
out:
    json_keys_free(&keys);
    cJSON_Delete(root);
    free(buf);
    return rc;
}

static int lit_at(const char *p, size_t n, const char *lit)
{
    size_t m = strlen(lit);
    return n >= m && memcmp(p, lit, m) == 0;
}

static int mt_sniff(const char *fname, const char *head, size_t n)
{
    const char *p = head, *end = head + n;
    int top = 0;
    size_t i;

    (void)fname;
    while (p < end && isspace((unsigned char)*p))
        p++;
    if (p == end || *p != '{')
        return 0;
    for (i = 0; i < n; i++) {
        if (head[i] != '"')
            continue;
        if (lit_at(head + i, n - i, "\"configuration\"") ||
            lit_at(head + i, n - i, "\"run information\""))
            top |= 1;
        if (lit_at(head + i, n - i, "\"ALL STATS\"") ||
            lit_at(head + i, n - i, "\"Percentile Latencies\"") ||
            lit_at(head + i, n - i, "\"key_pattern\"") ||
            lit_at(head + i, n - i, "\"Format version\""))
            top |= 2;
    }
    return top == 3 ? 95 : top ? 60 : 0;
}

const cow_parser cow_parser_memtier_json = {
    "memtier-json",
    "memtier_benchmark --json-out-file output (1.4 .. 2.3 shapes)",
    mt_sniff,
    mt_parse,
};
