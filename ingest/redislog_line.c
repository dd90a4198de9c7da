/* redislog_line.c -- the server log's line grammar (redislog_int.h): the
 * layouts and stamps listed at the top of redislog.c, one line at a time,
 * with no state. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"
#include "prefix.h"
#include "redislog_int.h"
#include "timeconv.h"

/* Longest pid we accept (10 digits covers any pid_t). */
#define RL_PID_DIGITS 10
/* Longest millisecond stamp (16 digits is far beyond year 2100). */
#define RL_MS_DIGITS 16

/* true when p[at..at+cnt) are digits inside n bytes; their value in *out. */
static bool dig(const char *p, size_t n, size_t at, size_t cnt, int *out)
{
    int v = 0;
    size_t i;

    if (at + cnt > n)
        return false;
    for (i = at; i < at + cnt; i++) {
        if (p[i] < '0' || p[i] > '9')
            return false;
        v = v * 10 + (p[i] - '0');
    }
    *out = v;
    return true;
}

/* "HH:MM:SS.mmm" at p[at]; fills ts. */
static enum rl_verdict clock_parse(const char *p, size_t n, size_t at,
                                   rl_stamp *ts, const char **why)
{
    if (!dig(p, n, at, 2, &ts->h) || at + 2 >= n || p[at + 2] != ':' ||
        !dig(p, n, at + 3, 2, &ts->mi) || at + 5 >= n || p[at + 5] != ':' ||
        !dig(p, n, at + 6, 2, &ts->s) || at + 8 >= n || p[at + 8] != '.' ||
        !dig(p, n, at + 9, 3, &ts->ms)) {
        *why = "time of day is not HH:MM:SS.mmm (line cut short?)";
        return LN_BAD;
    }
    if (ts->h > 23 || ts->mi > 59 || ts->s > 59) {
        *why = "impossible time of day (hour, minute or second out of range)";
        return LN_BAD;
    }
    return LN_OK;
}

static enum rl_verdict date_check(const rl_stamp *ts, const char **why)
{
    if (ts->mon < 1 || ts->mon > 12) {
        *why = "month is not one of Jan..Dec / 01..12";
        return LN_BAD;
    }
    if (ts->d < 1 || ts->d > time_month_days(ts->y, ts->mon)) {
        *why = "impossible day of the month";
        return LN_BAD;
    }
    return LN_OK;
}

/* "DD Mon YYYY HH:MM:SS.mmm" or "DD Mon HH:MM:SS.mmm"; *used = its length. */
static enum rl_verdict civil_parse(const char *p, size_t n, rl_stamp *ts,
                                   size_t *used, const char **why)
{
    size_t at;
    enum rl_verdict v;

    if (n < 7 || !dig(p, n, 0, 2, &ts->d) || p[2] != ' ' || p[6] != ' ') {
        *why = "time stamp is not 'DD Mon [YYYY] HH:MM:SS.mmm'";
        return LN_BAD;
    }
    ts->mon = time_month_from_abbr(p + 3);
    if (n > 9 && p[9] == ':') {
        ts->kind = STAMP_NOYEAR;
        ts->y = 0;
        at = 7;
    } else if (dig(p, n, 7, 4, &ts->y) && n > 11 && p[11] == ' ') {
        ts->kind = STAMP_CIVIL;
        at = 12;
    } else {
        *why = "time stamp is not 'DD Mon [YYYY] HH:MM:SS.mmm'";
        return LN_BAD;
    }
    if ((v = clock_parse(p, n, at, ts, why)) != LN_OK)
        return v;
    *used = at + 12;
    if (ts->kind == STAMP_CIVIL && ts->y < 1970) {
        *why = "year before 1970";
        return LN_BAD;
    }
    return date_check(ts, why);
}

/* "YYYY-MM-DDTHH:MM:SS.mmm[+hh:mm|Z]" in p[0..n) (one token), read by the
 * program's one ISO 8601 parser. Without a zone the stamp is local civil
 * time like the legacy one. */
static enum rl_verdict iso_parse(const char *p, size_t n, rl_stamp *ts,
                                 const char **why)
{
    cow_iso t;

    if (!time_parse_iso(p, n, &t, why))
        return LN_BAD;
    ts->y = t.y;
    ts->mon = t.mon;
    ts->d = t.d;
    ts->h = t.h;
    ts->mi = t.mi;
    ts->s = t.s;
    ts->ms = t.us / 1000;
    ts->kind = t.has_zone ? STAMP_ISO : STAMP_CIVIL;
    ts->abs_us = t.has_zone ? time_iso_us(&t) : 0;
    return LN_OK;
}

static bool all_digits(const char *p, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (p[i] < '0' || p[i] > '9')
            return false;
    return n > 0;
}

/* An absolute stamp: epoch seconds (scale 1000000) or ms (scale 1000). */
static enum rl_verdict epoch_parse(const char *p, size_t n, int64_t scale,
                                   rl_stamp *ts, const char **why)
{
    int64_t v;

    if (n > RL_MS_DIGITS || !num_parse_i64(p, n, &v)) {
        *why = "epoch time stamp is not a number";
        return LN_BAD;
    }
    if (v / (COW_US_PER_S / scale) < COW_EPOCH_MIN_S ||
        v / (COW_US_PER_S / scale) > COW_EPOCH_MAX_S) {
        *why = "epoch time stamp outside 1990..2100 (wrong unit?)";
        return LN_BAD;
    }
    ts->kind = scale == 1000 ? STAMP_MS : STAMP_SECS;
    ts->abs_us = v * scale;
    return LN_OK;
}

/* Any stamp the legacy layout or logfmt can carry, in the token p[0..n). */
static enum rl_verdict token_stamp(const char *p, size_t n, rl_stamp *ts,
                                   const char **why)
{
    size_t used = 0;
    enum rl_verdict v;

    if (n > 4 && p[4] == '-')
        return iso_parse(p, n, ts, why);
    if (all_digits(p, n))
        return epoch_parse(p, n, 1000, ts, why);
    if ((v = civil_parse(p, n, ts, &used, why)) != LN_OK)
        return v;
    if (used != n) {
        *why = "unexpected text after the time stamp";
        return LN_BAD;
    }
    return LN_OK;
}

/* "L msg" after the stamp: level character, space, message. */
static enum rl_verdict level_msg(const char *p, size_t n, size_t at,
                                 rl_line *l, const char **why)
{
    if (at >= n || p[at] != ' ' || at + 1 >= n ||
        strchr(".-*#", p[at + 1]) == NULL || p[at + 1] == '\0') {
        *why = "no level character ('.', '-', '*' or '#') after the time stamp "
               "(line cut short?)";
        return LN_BAD;
    }
    l->level = p[at + 1];
    at += 2;
    if (at < n && p[at] == ' ')
        at++;
    else if (at < n) {
        *why = "no space after the level character";
        return LN_BAD;
    }
    l->msg = p + at;
    l->nmsg = n - at;
    return LN_OK;
}

/* Leading pid digits; their count (0 when none or too many). */
static size_t pid_parse(const char *p, size_t n, long *pid)
{
    size_t i = 0;
    long v = 0;

    while (i < n && i <= RL_PID_DIGITS && p[i] >= '0' && p[i] <= '9')
        v = v * 10 + (p[i++] - '0');
    if (i == 0 || i > RL_PID_DIGITS)
        return 0;
    *pid = v;
    return i;
}

/* The stamp that follows "pid:R " or "[pid] " at p[at]. */
static enum rl_verdict stamp_at(const char *p, size_t n, size_t at,
                                rl_line *l, const char **why)
{
    size_t used = 0, end = at;
    enum rl_verdict v;

    if (n - at > 4 && p[at + 4] == '-') {   /* iso8601: one token */
        while (end < n && p[end] != ' ')
            end++;
        if ((v = iso_parse(p + at, end - at, &l->ts, why)) != LN_OK)
            return v;
        return level_msg(p, n, end, l, why);
    }
    while (end < n && p[end] >= '0' && p[end] <= '9')
        end++;
    if (end - at > 3 && (end == n || p[end] == ' ')) {   /* epoch ms */
        if ((v = epoch_parse(p + at, end - at, 1000, &l->ts, why)) != LN_OK)
            return v;
        return level_msg(p, n, end, l, why);
    }
    if ((v = civil_parse(p + at, n - at, &l->ts, &used, why)) != LN_OK)
        return v;
    return level_msg(p, n, at + used, l, why);
}

/* "pid:signal-handler (secs) msg" after "pid:" at p[at]. */
static enum rl_verdict signal_line(const char *p, size_t n, size_t at,
                                   rl_line *l, const char **why)
{
    static const char tag[] = "signal-handler (";
    size_t end;
    enum rl_verdict v;

    at += sizeof(tag) - 1;
    for (end = at; end < n && p[end] != ')'; end++)
        ;
    if (end >= n) {
        *why = "signal-handler line without its closing ')' (line cut short?)";
        return LN_BAD;
    }
    if ((v = epoch_parse(p + at, end - at, COW_US_PER_S, &l->ts, why)) != LN_OK)
        return v;
    l->layout = LAYOUT_SIGNAL;
    l->role = 0;
    l->level = 0;
    end++;
    if (end < n && p[end] == ' ')
        end++;
    l->msg = p + end;
    l->nmsg = n - end;
    return LN_OK;
}

static enum rl_verdict legacy_line(const char *p, size_t n, rl_line *l,
                                   const char **why)
{
    size_t at = pid_parse(p, n, &l->pid);

    if (at == 0 || at >= n || p[at] != ':')
        return LN_RAW;
    at++;
    if (n - at >= 16 && memcmp(p + at, "signal-handler (", 16) == 0)
        return signal_line(p, n, at, l, why);
    if (at + 1 >= n || strchr("MSCX", p[at]) == NULL || p[at] == '\0' ||
        p[at + 1] != ' ')
        return LN_RAW;
    l->layout = LAYOUT_LEGACY;
    l->role = p[at];
    if (at + 2 >= n) {
        *why = "line ends after the role character (cut short?)";
        return LN_BAD;
    }
    return stamp_at(p, n, at + 2, l, why);
}

static enum rl_verdict v2_line(const char *p, size_t n, rl_line *l,
                               const char **why)
{
    size_t at = pid_parse(p + 1, n - 1, &l->pid);

    if (at == 0 || at + 2 >= n || p[at + 1] != ']' || p[at + 2] != ' ')
        return LN_RAW;
    l->layout = LAYOUT_V2;
    l->role = 0;
    return stamp_at(p, n, at + 3, l, why);
}

/* One key=value of logfmt at p[*at]; value unquoted. false at the end. */
static bool logfmt_field(const char *p, size_t n, size_t *at, const char **k,
                         size_t *nk, const char **v, size_t *nv, bool *closed)
{
    size_t i = *at, j;

    while (i < n && p[i] == ' ')
        i++;
    for (j = i; j < n && p[j] != '=' && p[j] != ' '; j++)
        ;
    if (j >= n || p[j] != '=')
        return false;
    *k = p + i;
    *nk = j - i;
    j++;
    *closed = true;
    if (j < n && p[j] == '"') {
        /* Valkey replaces '"' inside values by '\'', so the next quote ends it */
        for (i = ++j; j < n && p[j] != '"'; j++)
            ;
        *closed = j < n;
        *v = p + i;
        *nv = j - i;
        *at = j < n ? j + 1 : j;
        return true;
    }
    for (i = j; j < n && p[j] != ' '; j++)
        ;
    *v = p + i;
    *nv = j - i;
    *at = j;
    return true;
}

static bool tok_is(const char *p, size_t n, const char *s)
{
    return n == strlen(s) && memcmp(p, s, n) == 0;
}

static char logfmt_level(const char *v, size_t nv)
{
    if (tok_is(v, nv, "debug"))
        return '.';
    if (tok_is(v, nv, "info") || tok_is(v, nv, "verbose"))
        return '-';
    if (tok_is(v, nv, "notice"))
        return '*';
    if (tok_is(v, nv, "warning"))
        return '#';
    return 0;
}

static char logfmt_role(const char *v, size_t nv)
{
    if (tok_is(v, nv, "primary"))
        return 'M';
    if (tok_is(v, nv, "replica"))
        return 'S';
    if (tok_is(v, nv, "RDB/AOF"))
        return 'C';
    if (tok_is(v, nv, "sentinel"))
        return 'X';
    return 0;
}

static enum rl_verdict logfmt_line(const char *p, size_t n, rl_line *l,
                                   const char **why)
{
    const char *k, *v, *stamp = NULL;
    size_t nk, nv, at = 0, nstamp = 0;
    bool closed, have_pid = false, have_msg = false;

    l->layout = LAYOUT_LOGFMT;
    l->role = 0;
    l->level = 0;
    while (logfmt_field(p, n, &at, &k, &nk, &v, &nv, &closed)) {
        if (tok_is(k, nk, "pid"))
            have_pid = pid_parse(v, nv, &l->pid) == nv && nv > 0;
        else if (tok_is(k, nk, "role"))
            l->role = logfmt_role(v, nv);
        else if (tok_is(k, nk, "timestamp"))
            stamp = v, nstamp = nv;
        else if (tok_is(k, nk, "level"))
            l->level = logfmt_level(v, nv);
        else if (tok_is(k, nk, "message")) {
            if (!closed) {
                *why = "logfmt message has no closing quote (line cut short?)";
                return LN_BAD;
            }
            l->msg = v;
            l->nmsg = nv;
            have_msg = true;
        }
    }
    if (!have_pid || stamp == NULL || l->level == 0 || !have_msg) {
        *why = "logfmt line lacks one of pid=, timestamp=, level=, message=";
        return LN_BAD;
    }
    return token_stamp(stamp, nstamp, &l->ts, why);
}

/* Classify one line (without its end) and split it into *l. */
enum rl_verdict rl_line_parse(const char *p, size_t n, rl_line *l,
                                  const char **why)
{
    memset(l, 0, sizeof(*l));
    *why = NULL;
    if (n == 0)
        return LN_RAW;
    if (p[0] == '[')
        return v2_line(p, n, l, why);
    if (n > 4 && memcmp(p, "pid=", 4) == 0)
        return logfmt_line(p, n, l, why);
    if (p[0] >= '0' && p[0] <= '9')
        return legacy_line(p, n, l, why);
    return LN_RAW;
}

/* syslog-enabled yes: the server's message alone after "Jul  7 21:31:57
 * host redis-server[812]: " (or a journal line): the prefix gives the
 * stamp (local time without a year, or a zoned journal stamp) and pid. */
bool rl_syslog_line(const cow_line *ln, rl_line *l)
{
    const cow_prefix *pf = &ln->pre;

    if (!pf->ident_server || ln->n == 0 || !(pf->has_t || pf->mon > 0))
        return false;
    memset(l, 0, sizeof(*l));
    l->layout = LAYOUT_SYSLOG;
    l->pid = pf->pid;
    l->msg = ln->p;
    l->nmsg = ln->n;
    if (pf->has_t) {
        l->ts.kind = STAMP_ISO;
        l->ts.abs_us = pf->t_us;
    } else {
        l->ts.kind = STAMP_NOYEAR;
        l->ts.mon = pf->mon;
        l->ts.d = pf->d;
        l->ts.h = pf->h;
        l->ts.mi = pf->mi;
        l->ts.s = pf->s;
    }
    return true;
}
