/* redisconf.c -- redis.conf / valkey.conf files (parser "redis-conf").
 *
 * The server's own config syntax: one directive per line, `name args...`,
 * `#` comments and blank lines. Arguments are separated by blanks and may
 * be quoted: "..." with \n \r \t \b \a \\ \" \xHH escapes, or '...' with
 * \' only (as sdssplitargs reads them). Names are case-insensitive and are
 * kept in lower case. Each directive lands where CONFIG GET output goes (a
 * COW_REC_INFO with section "config", dump 0, t_us 0), so the doctor reads
 * either the same way:
 *  - the value is the arguments joined by one space, as CONFIG GET shows
 *    them ("save 3600 1" -> "3600 1");
 *  - several `save` lines add up ("3600 1 300 100"); `save ""` is empty;
 *  - another directive given twice: the last one counts, as in the server;
 *  - memory sizes become bytes in the number (1k = 1000, 1kb = 1024, m,
 *    mb, g, gb likewise), as CONFIG GET reports them;
 *  - `include PATH` is recorded (a note, and the key "include") but not
 *    followed: the capture tree is all that is read.
 * A line that is not a directive (unbalanced quotes, a name that is not
 * one) is rejected with the reason. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "formats.h"
#include "mem.h"
#include "text.h"

/* Directives kept per file; a real redis.conf has about 200. */
#define RC_MAX_DIRECTIVES 4096
/* Longest directive name. */
#define RC_NAME_MAX 64

typedef struct rc_dir {
    char name[RC_NAME_MAX];
    char *value;        /* arguments joined by one space */
    long line;          /* the line that set it (the last `save` line) */
} rc_dir;

typedef struct rc_state {
    rc_dir *v;
    size_t n, cap;
    char *args;         /* scratch: unquoted arguments */
    size_t capargs;
    long good, bad;     /* directives, rejected lines */
    char includes[400]; /* for the note */
} rc_state;

static int hexval(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Split p[0..n) into arguments joined by single spaces in out (>= n + 1),
 * the first one (the name) ending at *name_end. -1 on unbalanced quotes. */
static int split_args(const char *p, size_t n, char *out, size_t *name_end, size_t *nargs)
{
    size_t i = 0, o = 0;
    *nargs = 0;
    *name_end = 0;
    for (;;) {
        while (i < n && (p[i] == ' ' || p[i] == '\t'))
            i++;
        if (i >= n)
            break;
        if (*nargs > 0)
            out[o++] = ' ';
        if (p[i] == '"') {
            for (i++; i < n && p[i] != '"'; i++) {
                if (p[i] == '\\' && i + 1 < n) {
                    int h1, h2;
                    i++;
                    if (p[i] == 'x' && i + 2 < n && (h1 = hexval(p[i + 1])) >= 0 &&
                        (h2 = hexval(p[i + 2])) >= 0) {
                        out[o++] = (char)(h1 * 16 + h2);
                        i += 2;
                        continue;
                    }
                    out[o++] = p[i] == 'n' ? '\n' : p[i] == 'r' ? '\r' : p[i] == 't' ? '\t'
                             : p[i] == 'b' ? '\b' : p[i] == 'a' ? '\a' : p[i];
                } else {
                    out[o++] = p[i];
                }
            }
            if (i >= n || (i + 1 < n && p[i + 1] != ' ' && p[i + 1] != '\t'))
                return -1; /* no closing quote, or text glued to it */
            i++;
        } else if (p[i] == '\'') {
            for (i++; i < n && p[i] != '\''; i++) {
                if (p[i] == '\\' && i + 1 < n && p[i + 1] == '\'')
                    i++;
                out[o++] = p[i];
            }
            if (i >= n || (i + 1 < n && p[i + 1] != ' ' && p[i + 1] != '\t'))
                return -1;
            i++;
        } else {
            while (i < n && p[i] != ' ' && p[i] != '\t')
                out[o++] = p[i++];
        }
        if (*nargs == 0)
            *name_end = o;
        (*nargs)++;
    }
    out[o] = '\0';
    return 0;
}

static bool is_name(const char *p, size_t n)
{
    size_t i;
    if (n == 0 || n >= RC_NAME_MAX || !isalpha((unsigned char)p[0]))
        return false;
    for (i = 0; i < n; i++)
        if (!isalnum((unsigned char)p[i]) && p[i] != '-' && p[i] != '_' && p[i] != '.')
            return false;
    return true;
}

/* A number, or a memory size with a unit (bytes), else NAN. */
static double conf_num(const char *v)
{
    static const struct { const char *u; double m; } units[] = {
        {"k", 1e3}, {"kb", 1024.0}, {"m", 1e6}, {"mb", 1048576.0},
        {"g", 1e9}, {"gb", 1073741824.0}};
    char *end;
    double x;
    size_t i;

    if (*v == '\0' || isspace((unsigned char)*v))
        return NAN;
    x = strtod(v, &end);
    if (end == v || !isfinite(x))
        return NAN;
    if (*end == '\0')
        return x;
    for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
        if (strcasecmp(end, units[i].u) == 0)
            return x * units[i].m;
    return NAN;
}

static rc_dir *find(rc_state *st, const char *name)
{
    size_t i;
    for (i = 0; i < st->n; i++)
        if (strcmp(st->v[i].name, name) == 0)
            return &st->v[i];
    return NULL;
}

static int directive(rc_state *st, cow_sink *k, const cow_line *ln, cow_err *e)
{
    const char *p = ln->p;
    size_t n = ln->n, name_end, nargs, i;
    char name[RC_NAME_MAX];
    const char *val;
    rc_dir *d;

    text_trim(&p, &n);
    if (n == 0 || p[0] == '#')
        return COW_OK;
    st->args = xgrow(st->args, 1, n + 1, &st->capargs);
    if (split_args(p, n, st->args, &name_end, &nargs) != 0) {
        st->bad++;
        return sink_reject(k, ln->no, "unbalanced quotes: not a config directive",
                           ln->p, ln->n, e);
    }
    if (!is_name(st->args, name_end) || nargs < 2) {
        st->bad++;
        return sink_reject(k, ln->no, nargs < 2 ? "a directive needs a value "
                           "(name value...)" : "not a config directive name",
                           ln->p, ln->n, e);
    }
    for (i = 0; i < name_end; i++)
        name[i] = (char)tolower((unsigned char)st->args[i]);
    name[name_end] = '\0';
    val = st->args + name_end + 1;
    st->good++;
    if (strcmp(name, "include") == 0) {
        size_t used = strlen(st->includes);
        snprintf(st->includes + used, sizeof(st->includes) - used, "%s%s (line %ld)",
                 used ? ", " : "", val, ln->no);
    }
    d = find(st, name);
    if (d == NULL) {
        if (st->n >= RC_MAX_DIRECTIVES) {
            COW_FAIL(e, COW_ELIMIT, "more than %d directives: not a config file",
                     RC_MAX_DIRECTIVES);
            return COW_ELIMIT;
        }
        st->v = xgrow(st->v, sizeof(*st->v), st->n + 1, &st->cap);
        d = &st->v[st->n++];
        memset(d, 0, sizeof(*d));
        memcpy(d->name, name, name_end + 1);
    } else if (strcmp(name, "save") == 0 && d->value[0] != '\0' && val[0] != '\0') {
        /* save lines add up */
        size_t a = strlen(d->value), b = strlen(val);
        d->value = xrealloc(d->value, a + b + 2);
        d->value[a] = ' ';
        memcpy(d->value + a + 1, val, b + 1);
        d->line = ln->no;
        return COW_OK;
    }
    free(d->value);
    d->value = xstrdup(val);
    d->line = ln->no;
    return COW_OK;
}

static int flush(rc_state *st, cow_sink *k, cow_err *e)
{
    size_t i;
    int rc;
    for (i = 0; i < st->n; i++) {
        cow_rec r;
        memset(&r, 0, sizeof(r));
        r.kind = COW_REC_INFO;
        r.u.info.section = "config";
        r.u.info.key = st->v[i].name;
        r.u.info.text = st->v[i].value;
        r.u.info.num = strcmp(st->v[i].name, "save") == 0 ? NAN : conf_num(st->v[i].value);
        r.u.info.line = st->v[i].line;
        if ((rc = sink_emit(k, &r, e)) != COW_OK)
            return rc;
    }
    return COW_OK;
}

static int parse(cow_src *s, const cow_parse_opts *o, cow_sink *k, cow_err *e)
{
    rc_state st;
    cow_line ln;
    size_t i;
    int rc;

    (void)o;
    memset(&st, 0, sizeof(st));
    while ((rc = src_next_line(s, &ln, e)) == 1)
        if ((rc = directive(&st, k, &ln, e)) != COW_OK)
            break;
    if (rc < 0)
        rc = e->code;
    if (rc == COW_OK && (st.good == 0 || parser_too_many_rejects(st.good, st.bad))) {
        rc = COW_FAIL(e, COW_EPARSE, "%ld of %ld lines are not config directives "
                      "(name value...): not a redis.conf file", st.bad,
                      st.good + st.bad);
    }
    if (rc == COW_OK)
        rc = flush(&st, k, e);
    if (rc == COW_OK && st.includes[0])
        rc = sink_note(k, "include", st.includes[0] ? st.includes : "", e);
    if (rc == COW_OK && st.includes[0])
        rc = sink_note(k, "include_followed", "no: only the capture tree is read; "
                       "put the included file beside this one", e);
    if (rc != COW_OK && !e->path[0])
        cow_err_at(e, s->name, e->line, 0);
    for (i = 0; i < st.n; i++)
        free(st.v[i].value);
    free(st.v);
    free(st.args);
    return rc;
}

/* Directive lines whose names are known config parameters. */
static int sniff(const char *fname, const char *head, size_t n)
{
    static const char *const known[] = {"port", "bind", "save", "appendonly",
        "maxmemory", "maxmemory-policy", "dir", "dbfilename", "daemonize",
        "loglevel", "logfile", "databases", "repl-diskless-sync",
        "latency-monitor-threshold", "disable-thp", "protected-mode",
        "appendfsync", "replicaof", "slaveof", "requirepass", "tcp-backlog",
        "timeout", "supervised", "pidfile", "hz", "io-threads", "include", NULL};
    const char *p = head, *end = head + n;
    int lines = 0, good = 0, hits = 0, bad = 0;
    size_t i;

    while (p < end && lines < 200) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *q = p, *w;
        size_t len;
        if (nl == NULL)
            break; /* a line cut by the sniff window proves nothing */
        len = (size_t)(nl - p);
        p = nl + 1;
        while (len > 0 && (q[len - 1] == '\r' || q[len - 1] == ' ' || q[len - 1] == '\t'))
            len--;
        while (len > 0 && (*q == ' ' || *q == '\t')) {
            q++;
            len--;
        }
        if (len == 0 || *q == '#')
            continue;
        lines++;
        for (w = q; w < q + len && *w != ' ' && *w != '\t'; w++)
            ;
        if (w == q + len || !is_name(q, (size_t)(w - q))) {
            bad++;
            continue;
        }
        good++;
        for (i = 0; known[i]; i++)
            if (strlen(known[i]) == (size_t)(w - q) &&
                strncasecmp(q, known[i], (size_t)(w - q)) == 0)
                hits++;
    }
    if (good == 0 || hits == 0 || bad * 10 > good)
        return 0;
    if (fname && strstr(fname, ".conf") != NULL)
        return 92;
    return hits >= 3 ? 88 : hits >= 2 ? 70 : 0;
}

const cow_parser cow_parser_redis_conf = {
    "redis-conf",
    "redis.conf / valkey.conf files (directives; stored as CONFIG GET output)",
    sniff,
    parse,
};
