/* prefix.c -- container and collector line prefixes (see prefix.h). */
#include "prefix.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "timeconv.h"

/* Longest compose service name, pod path, host or ident taken as one. */
#define PFX_MAX_NAME 128

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool is_name(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) ||
           c == '_' || c == '-' || c == '.';
}

/* "name  | " (compose pads names to one width); the payload may be empty. */
static size_t peel_compose(const char *p, size_t n)
{
    size_t i = 0, j;

    while (i < n && i < PFX_MAX_NAME && is_name(p[i]))
        i++;
    if (i == 0 || i >= n || p[i] != ' ')
        return 0;
    for (j = i; j < n && p[j] == ' '; j++)
        ;
    if (j >= n || p[j] != '|')
        return 0;
    j++;
    if (j == n)
        return j;
    return p[j] == ' ' ? j + 1 : 0;
}

/* "[pod/redis-0/redis] " */
static size_t peel_kube(const char *p, size_t n)
{
    size_t i;
    bool slash = false;

    if (n < 4 || p[0] != '[')
        return 0;
    for (i = 1; i < n && i < PFX_MAX_NAME && p[i] != ']'; i++) {
        if (p[i] == '/')
            slash = true;
        else if (!is_name(p[i]))
            return 0;
    }
    if (!slash || i + 1 >= n || p[i] != ']' || p[i + 1] != ' ')
        return 0;
    return i + 2;
}

/* An RFC 3339 stamp with a zone and the blanks after it; 0 when the token
 * is not one or carries no zone. */
static size_t peel_stamp(const char *p, size_t n, int64_t *t)
{
    size_t end = 0, i = 19;

    if (n < 21 || !is_digit(p[0]) || p[4] != '-' || p[10] != 'T')
        return 0;
    while (end < n && p[end] != ' ' && p[end] != '\t')
        end++;
    if (end == n)          /* a stamp alone on its line is not a prefix */
        return 0;
    if (p[i] == '.' || p[i] == ',')
        for (i++; i < end && is_digit(p[i]); i++)
            ;
    if (i >= end)          /* no zone: not an instant */
        return 0;
    if (!time_parse_iso8601(p, end, t))
        return 0;
    while (end < n && (p[end] == ' ' || p[end] == '\t'))
        end++;
    if (end + 1 < n && p[end] == '|' && p[end + 1] == ' ')
        end += 2;
    return end;
}

/* "host ident[pid]: " after a syslog or journal stamp. A bare "ident: "
 * counts only for a Redis/Valkey ident, so a message that happens to read
 * "word word: ..." is not eaten. */
static size_t peel_host_ident(const char *p, size_t n, cow_prefix *pf)
{
    size_t h = 0, i, id0, c;
    char ident[PFX_MAX_NAME + 1];
    long pid = 0;
    bool server;

    while (h < n && h < PFX_MAX_NAME && p[h] != ' ')
        h++;
    if (h == 0 || h >= n || p[h] != ' ')
        return 0;
    id0 = h + 1;
    for (i = id0; i < n && i - id0 < PFX_MAX_NAME && p[i] != ' ' &&
                  p[i] != '[' && p[i] != ':'; i++)
        ;
    if (i == id0 || i >= n)
        return 0;
    memcpy(ident, p + id0, i - id0);
    ident[i - id0] = '\0';
    for (c = 0; ident[c]; c++)
        if (ident[c] >= 'A' && ident[c] <= 'Z')
            ident[c] = (char)(ident[c] - 'A' + 'a');
    server = strstr(ident, "redis") != NULL || strstr(ident, "valkey") != NULL ||
             strstr(ident, "keydb") != NULL;
    if (p[i] == '[') {
        size_t d = i + 1;
        while (d < n && is_digit(p[d]) && d - i < 11)
            pid = pid * 10 + (p[d++] - '0');
        if (d == i + 1 || d + 2 > n || p[d] != ']' || p[d + 1] != ':')
            return 0;
        i = d + 2;
    } else if (p[i] == ':' && server) {
        i++;
    } else {
        return 0;
    }
    if (i < n && p[i] == ' ')
        i++;
    if (i >= n)
        return 0;
    if (pf != NULL) {
        pf->pid = pid;
        pf->ident_server = server;
    }
    return i;
}

/* "Jul  7 21:31:57 host ident[pid]: " */
static size_t peel_syslog(const char *p, size_t n, cow_prefix *pf)
{
    size_t rest;

    if (n < 17 || p[3] != ' ' || time_month_from_abbr(p) == 0 ||
        !(p[4] == ' ' || is_digit(p[4])) || !is_digit(p[5]) || p[6] != ' ' ||
        !is_digit(p[7]) || !is_digit(p[8]) || p[9] != ':' || !is_digit(p[10]) ||
        !is_digit(p[11]) || p[12] != ':' ||
        !is_digit(p[13]) || !is_digit(p[14]) || p[15] != ' ')
        return 0;
    rest = peel_host_ident(p + 16, n - 16, pf);
    if (rest == 0)
        return 0;
    pf->mon = time_month_from_abbr(p);
    pf->d = (p[4] == ' ' ? 0 : p[4] - '0') * 10 + (p[5] - '0');
    pf->h = (p[7] - '0') * 10 + (p[8] - '0');
    pf->mi = (p[10] - '0') * 10 + (p[11] - '0');
    pf->s = (p[13] - '0') * 10 + (p[14] - '0');
    return 16 + rest;
}

size_t prefix_peel(const char *p, size_t n, cow_prefix *pf)
{
    size_t at = 0, k;
    int depth;
    int64_t t;

    memset(pf, 0, sizeof(*pf));
    for (depth = 0; depth < COW_PFX_MAX_DEPTH && at < n; depth++) {
        if (!(pf->kinds & COW_PFX_COMPOSE) &&
            (k = peel_compose(p + at, n - at)) > 0) {
            pf->kinds |= COW_PFX_COMPOSE;
        } else if (!(pf->kinds & COW_PFX_KUBE) &&
                   (k = peel_kube(p + at, n - at)) > 0) {
            pf->kinds |= COW_PFX_KUBE;
        } else if (!(pf->kinds & (COW_PFX_STAMP | COW_PFX_JOURNAL)) &&
                   (k = peel_stamp(p + at, n - at, &t)) > 0) {
            size_t j = peel_host_ident(p + at + k, n - at - k, pf);
            pf->kinds |= j ? COW_PFX_JOURNAL : COW_PFX_STAMP;
            pf->has_t = 1;
            pf->t_us = t;
            k += j;
        } else if (!(pf->kinds & COW_PFX_SYSLOG) &&
                   (k = peel_syslog(p + at, n - at, pf)) > 0) {
            pf->kinds |= COW_PFX_SYSLOG;
        } else {
            break;
        }
        at += k;
    }
    return at;
}

/* "host:port" or "host:port[db]" then "> ": a redis-cli prompt. */
static size_t prompt_cli(const char *p, size_t n)
{
    size_t i = 0, colon = 0, digits = 0;

    if (n >= 6 && memcmp(p, "redis ", 6) == 0)   /* redis-cli <= 2.8 */
        i = 6;
    if (n - i >= 14 && memcmp(p + i, "not connected>", 14) == 0)
        return i + 14;
    for (; i < n && i < PFX_MAX_NAME && (is_name(p[i]) || p[i] == ':' ||
                                          p[i] == '/'); i++) {
        if (p[i] == ':') {
            colon = i;
            digits = 0;
        } else if (is_digit(p[i])) {
            digits++;
        }
    }
    /* host:port (digits after the last colon) or a unix socket path */
    if (i == 0 || !((colon > 0 && digits > 0 && digits == i - colon - 1) ||
                    p[0] == '/'))
        return 0;
    if (i < n && p[i] == '[') {
        size_t d = i + 1;
        while (d < n && is_digit(p[d]))
            d++;
        if (d == i + 1 || d >= n || p[d] != ']')
            return 0;
        i = d + 1;
    }
    if (i >= n || p[i] != '>')
        return 0;
    return i + 1;
}

/* true when the word at p is a client program (redis-cli, valkey-cli,
 * possibly with a path or after sudo / docker exec ...). */
static bool runs_client(const char *p, size_t n)
{
    static const char *const names[] = {"redis-cli", "valkey-cli"};
    size_t i, k, len;

    for (k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
        len = strlen(names[k]);
        for (i = 0; i + len <= n; i++)
            if (memcmp(p + i, names[k], len) == 0 &&
                (i == 0 || p[i - 1] == ' ' || p[i - 1] == '/') &&
                (i + len == n || p[i + len] == ' '))
                return true;
    }
    return false;
}

bool prefix_prompt(const char *p, size_t n, const char **cmd, size_t *ncmd)
{
    size_t i = prompt_cli(p, n), j;

    if (i == 0) {
        /* a shell prompt: "$ ", "# ", "% " alone or after "user@host:dir" */
        for (j = 0; j < n && j < PFX_MAX_NAME && p[j] != ' '; j++)
            ;
        if (j == 0 || !(p[j - 1] == '$' || p[j - 1] == '#' || p[j - 1] == '%'))
            return false;
        /* "$" alone, or "user@host:~$"; not "used_memory_peak_perc:39.42%" */
        if (j > 1 && (strchr("$#%", p[0]) != NULL || memchr(p, '@', j) == NULL))
            return false;
        if (j < n && !runs_client(p + j + 1, n - j - 1))
            return false;   /* a bare prompt ends a session: no command */
        i = j;
    }
    while (i < n && p[i] == ' ')
        i++;
    *cmd = p + i;
    *ncmd = n - i;
    return true;
}

/* case-insensitive, but one case throughout ("LATENCY LATEST", "latency
 * latest"; not "Latency" starting a sentence of LATENCY DOCTOR's text) */
static bool word_is(const char *p, size_t n, const char *w)
{
    size_t i, len = strlen(w);
    bool up = n > 0 && p[0] >= 'A' && p[0] <= 'Z';

    if (n < len || (n > len && p[len] != ' '))
        return false;
    for (i = 0; i < len; i++)
        if (p[i] != (up ? (char)(w[i] - 'a' + 'A') : w[i]))
            return false;
    return true;
}

bool prefix_echo(const char *p, size_t n)
{
    static const char *const alone[] = {"info", "ping", "bgsave",
                                        "bgrewriteaof"};
    static const char *const with_arg[] = {"info", "debug", "latency",
                                           "config", "client", "slowlog"};
    size_t i;

    while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\r'))
        n--;
    /* every echo below starts with a letter, '(' or '^': a data line (a
     * digit first, most often) is no echo, without the word compares */
    if (n == 0 || !((p[0] >= 'a' && p[0] <= 'z') || (p[0] >= 'A' && p[0] <= 'Z') ||
                    p[0] == '(' || p[0] == '^'))
        return false;
    if ((n == 2 && memcmp(p, "OK", 2) == 0) || (n == 2 && memcmp(p, "^C", 2) == 0))
        return true;
    if (n >= 4 && p[0] == '(' && p[n - 2] == 's' && p[n - 1] == ')') {
        for (i = 1; i < n - 2 && (is_digit(p[i]) || p[i] == '.'); i++)
            ;
        if (i == n - 2 && i > 1)
            return true;
    }
    for (i = 0; i < sizeof(alone) / sizeof(alone[0]); i++)
        if (n == strlen(alone[i]) && word_is(p, n, alone[i]))
            return true;
    for (i = 0; i < sizeof(with_arg) / sizeof(with_arg[0]); i++) {
        size_t len = strlen(with_arg[i]);
        if (n > len + 1 && word_is(p, n, with_arg[i]) &&
            ((p[len + 1] >= 'a' && p[len + 1] <= 'z') ||
             (p[len + 1] >= 'A' && p[len + 1] <= 'Z')))
            return true;
    }
    return false;
}

const char *prefix_describe(int kinds, char *buf, size_t n)
{
    static const struct { int bit; const char *what; } names[] = {
        {COW_PFX_COMPOSE, "compose service 'name | '"},
        {COW_PFX_KUBE, "kubectl --prefix '[pod/...]'"},
        {COW_PFX_STAMP, "RFC 3339 stamp (docker logs -t / kubectl --timestamps)"},
        {COW_PFX_JOURNAL, "journal 'stamp host ident[pid]:' (journalctl -o short-iso)"},
        {COW_PFX_SYSLOG, "syslog 'Mon DD HH:MM:SS host ident[pid]:'"},
    };
    size_t i, o = 0;

    if (n == 0)
        return buf;
    buf[0] = '\0';
    for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if ((kinds & names[i].bit) && o < n)
            o += (size_t)snprintf(buf + o, n - o, "%s%s", o ? ", " : "",
                                  names[i].what);
    return buf;
}
