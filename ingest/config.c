/* config.c -- CONFIG GET output (cow_parser_redis_config, "redis-config").
 *
 * The reply saved from redis-cli, either piped (name and value on
 * alternating lines; an empty value is an empty line) or from a terminal
 * (` 1) "name"` / ` 2) "value"`). Each pair lands as a COW_REC_INFO with
 * section "config", t_us 0, dump 0 and the value's number (infoval.h). */
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "text.h"
#include "formats.h"
#include "infoval.h"

/* Longest config name we keep. */
#define CONFIG_NAME_MAX 128

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* A CONFIG parameter name: lower case words joined by '-' ('.' and '_'
 * for module parameters). */
static bool config_is_name(const char *p, size_t n)
{
    size_t i;
    if (n == 0 || n >= CONFIG_NAME_MAX || !(p[0] >= 'a' && p[0] <= 'z'))
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
    char name[CONFIG_NAME_MAX]; /* name waiting for its value */
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
    char buf[CONFIG_NAME_MAX];
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
    parser_each_head_line(head, n, config_sniff_line, &f);
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
