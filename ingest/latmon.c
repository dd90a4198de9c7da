/* latmon.c -- LATENCY LATEST / HISTORY / DOCTOR as saved from redis-cli.
 *
 * Exports cow_parser_latency_monitor ("redis-latency"); see formats.md §4.
 *
 * A file holds one reply, or several separated by header lines such as
 * "=== LATENCY DOCTOR ===", "--- latency history fork ---",
 * "$ redis-cli -p 6379 LATENCY LATEST" or "127.0.0.1:6379> latency doctor"
 * (decoration, a shell or redis-cli prompt, then LATENCY and the
 * subcommand, HISTORY with its event). A reply without a header is
 * recognised by its content (DOCTOR's sentences; a name first = LATEST;
 * a number first = HISTORY), and an empty reply by the file name
 * (latency-history-<event>.txt, ...latest..., ...doctor...).
 *
 * Reply shapes, all flattened into a list of leaves (event names and
 * integers) and then grouped by their known sizes, because the piped shape
 * cannot show array boundaries (formats.md §4.7):
 *   piped (raw)   one leaf per line
 *   terminal      "1) 1) \"fork\"", "   2) (integer) 1738587731", "(empty array)"
 *   --csv         "\"fork\",1738587731,41,52" on one line
 *   --json        [["fork",1738587731,41,52]], [[1738587731,41]], []
 *
 * Records (COW_REC_LATMON):
 *   latest   one per event: t_us = time of the latest spike, lat_ms =
 *            latest, max_ms = all-time max. Redis/Valkey <= 8.0 print 3
 *            numbers after the name, Valkey 8.1+ 5 (sum and count are not
 *            kept; a note says so).
 *   history  one per sample: t_us, lat_ms. The event comes from the header
 *            or the file name (NULL and a note when neither says).
 *   doctor   one for the whole text (event NULL, none_observed = 1 when it
 *            says no spike was observed), then one per "N. event: ..."
 *            line with lat_ms = the average and max_ms = the worst.
 * LATENCY HISTOGRAM (Redis 7+, Valkey: per command, the calls and a
 * cumulative count of calls at or below each power-of-two bound in us)
 * gives COW_REC_STAT records, source "latency-histogram", key the
 * command: text "calls" with num the calls, then one per bucket with text
 * the bound in us and num the calls at or below it (unit "calls"). An
 * entry whose bounds do not rise, whose counts fall or pass its calls is
 * rejected whole. Known by a header ("LATENCY HISTOGRAM [cmd ...]"), the
 * file name (latency-histogram*.txt) or its "histogram_usec" key; the
 * piped and terminal shapes are read, of RESP2 and of RESP3 (redis-cli -3:
 * "set calls 301" piped, "1# \"set\" => " in a terminal; lm_words).
 * An empty LATEST or HISTORY reply ("(empty array)", "[]", an empty line or
 * nothing under its header) still lands as one record of its kind with
 * lat_ms = NAN, max_ms = NAN and t_us = 0: NAN latency means "the monitor
 * had nothing for this event", which matters (seed 000: the monitor missed
 * a measured lift). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "num.h"
#include "prefix.h"
#include "text.h"
#include "timeconv.h"
#include "formats.h"
#include "latmon_int.h"

/* ---------------------------------------------------------------- output */

static int lm_emit(lm_ctx *c, int64_t t_us, const char *kind, const char *event,
                   double lat_ms, double max_ms, const char *text, int none,
                   long line, cow_err *e)
{
    cow_rec r;
    r.kind = COW_REC_LATMON;
    r.u.latmon.t_us = t_us;
    r.u.latmon.kind = kind;
    r.u.latmon.event = event;
    r.u.latmon.lat_ms = lat_ms;
    r.u.latmon.max_ms = max_ms;
    r.u.latmon.text = text;
    r.u.latmon.none_observed = none;
    r.u.latmon.line = line;
    c->good++;
    return sink_emit(c->k, &r, e);
}

static int lm_reject(lm_ctx *c, size_t li, cow_err *e, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int lm_reject(lm_ctx *c, size_t li, cow_err *e, const char *fmt, ...)
{
    char why[256];
    va_list ap;
    const lm_line *l = &c->lines[li];

    va_start(ap, fmt);
    vsnprintf(why, sizeof(why), fmt, ap);
    va_end(ap);
    c->bad++;
    return sink_reject(c->k, l->no, why, c->bytes + l->off, l->n, e);
}

static void lm_seen(lm_ctx *c, const char *what)
{
    size_t used = strlen(c->seen);
    if (used + strlen(what) + 3 < sizeof(c->seen))
        snprintf(c->seen + used, sizeof(c->seen) - used, "%s%s",
                 used ? ", " : "", what);
}

/* ---------------------------------------------------------------- leaves */

static void lm_leaf_add(lm_ctx *c, int is_str, int64_t v, const char *p,
                        size_t n, size_t li)
{
    lm_leaf *f;
    c->leaves = xgrow(c->leaves, sizeof(*c->leaves), c->nleaves + 1, &c->capleaves);
    f = &c->leaves[c->nleaves++];
    f->is_str = is_str;
    f->num = v;
    f->li = li;
    f->str[0] = '\0';
    if (is_str) {
        memcpy(f->str, p, n);
        f->str[n] = '\0';
    }
}

/* One scalar as text: a name or an integer; NULL or a reason. */
static const char *lm_scalar(lm_ctx *c, const char *p, size_t n, int quoted,
                             size_t li)
{
    int64_t v;
    if (!quoted && num_parse_i64(p, n, &v)) {
        lm_leaf_add(c, 0, v, NULL, 0, li);
        return NULL;
    }
    if (lm_is_name(p, n)) {
        lm_leaf_add(c, 1, 0, p, n, li);
        return NULL;
    }
    return "not part of a LATENCY reply (expected an event name or an integer)";
}

/* --json: brackets, commas, quoted names and integers. */
static const char *lm_json(lm_ctx *c, const char *p, size_t n, size_t li)
{
    size_t i = 0, j;
    const char *why;

    while (i < n) {
        char ch = p[i];
        if (ch == '[' || ch == ']' || ch == ',' || ch == ' ') {
            i++;
            continue;
        }
        if (ch == '"') {
            for (j = i + 1; j < n && p[j] != '"'; j++)
                ;
            if (j >= n)
                return "unterminated string in a --json reply";
            if ((why = lm_scalar(c, p + i + 1, j - i - 1, 1, li)) != NULL)
                return why;
            i = j + 1;
            continue;
        }
        for (j = i; j < n && (lm_digit(p[j]) || p[j] == '-'); j++)
            ;
        if (j == i)
            return "not a --json LATENCY reply";
        if ((why = lm_scalar(c, p + i, j - i, 0, li)) != NULL)
            return why;
        i = j;
    }
    return NULL;
}

/* --csv: one line, comma separated, names double-quoted. */
static const char *lm_csv(lm_ctx *c, const char *p, size_t n, size_t li)
{
    size_t i = 0, j;
    const char *why;

    while (i <= n) {
        int quoted = i < n && p[i] == '"';
        if (quoted) {
            for (j = i + 1; j < n && p[j] != '"'; j++)
                ;
            if (j >= n || (j + 1 < n && p[j + 1] != ','))
                return "malformed --csv LATENCY reply";
            why = lm_scalar(c, p + i + 1, j - i - 1, 1, li);
            j++;
        } else {
            for (j = i; j < n && p[j] != ','; j++)
                ;
            why = lm_scalar(c, p + i, j - i, 0, li);
        }
        if (why != NULL)
            return why;
        i = j + 1;
    }
    return NULL;
}

/* Terminal shape: strips "1) " prefixes; "(integer) N" or "\"name\"". */
static const char *lm_tty(lm_ctx *c, const char *p, size_t n, size_t li, int *empty)
{
    size_t i = 0, j;
    int prefixes = 0;

    for (;;) {
        while (i < n && p[i] == ' ')
            i++;
        for (j = i; j < n && lm_digit(p[j]); j++)
            ;
        if (j == i || j + 1 >= n || p[j] != ')' || p[j + 1] != ' ')
            break;
        i = j + 2;
        prefixes++;
    }
    p += i;
    n -= i;
    if (n == 13 && memcmp(p, "(empty array)", 13) == 0) {
        *empty = 1;
        return NULL;
    }
    if (n == 19 && memcmp(p, "(empty list or set)", 19) == 0) {
        *empty = 1;
        return NULL;
    }
    if (n >= 7 && memcmp(p, "(error)", 7) == 0)
        return "redis-cli printed an error instead of the reply";
    if (n > 10 && memcmp(p, "(integer) ", 10) == 0)
        return lm_scalar(c, p + 10, n - 10, 0, li);
    if (prefixes > 0 && n >= 2 && p[0] == '"' && p[n - 1] == '"')
        return lm_scalar(c, p + 1, n - 2, 1, li);
    return prefixes > 0 ? "numbered line that is not part of a LATENCY reply" : "";
}

static const char *lm_leaves(lm_ctx *c, size_t li, int *empty);

/* RESP3's "12#": digits and a '#' */
static bool lm_count_marker(const char *p, size_t n)
{
    size_t k;
    if (n < 2 || p[n - 1] != '#')
        return false;
    for (k = 0; k + 1 < n; k++)
        if (!lm_digit(p[k]))
            return false;
    return true;
}

/* A HISTOGRAM line of RESP3 (redis-cli -3): piped, a map level's names
 * and integers on one line ("set calls 301", "histogram_usec 1 259",
 * "2 283"); in a terminal, "1# \"set\" => ", "1# \"calls\" => (integer)
 * 301", "1# (integer) 1 => (integer) 259". Either way the words, without
 * the "N#" markers, "=>" and "(integer)", are the piped RESP2 leaves in
 * the same order. NULL when fine, else a reason. */
static const char *lm_words(lm_ctx *c, size_t li, int *empty)
{
    const char *p = c->bytes + c->lines[li].off, *why;
    size_t n = c->lines[li].n, i = 0, j;

    text_trim(&p, &n);
    if (n == 0)
        return NULL;
    for (j = 0; j < n && lm_digit(p[j]); j++)
        ;
    if (memchr(p, ' ', n) == NULL || (j > 0 && j < n && p[j] == ')') || p[0] == '(' ||
        p[0] == '[') /* one word, "1) ...", "(error)", --json: the RESP2 shapes */
        return lm_leaves(c, li, empty);
    while (i < n) {
        size_t w;
        while (i < n && p[i] == ' ')
            i++;
        for (j = i; j < n && p[j] != ' '; j++)
            ;
        w = j - i;
        if (w == 0)
            break;
        if ((w == 2 && memcmp(p + i, "=>", 2) == 0) ||
            (w == 9 && memcmp(p + i, "(integer)", 9) == 0) || lm_count_marker(p + i, w)) {
            i = j;
            continue;
        }
        if (w >= 2 && p[i] == '"' && p[j - 1] == '"')
            why = lm_scalar(c, p + i + 1, w - 2, 1, li);
        else
            why = lm_scalar(c, p + i, w, 0, li);
        if (why != NULL)
            return why;
        i = j;
    }
    return NULL;
}

/* The leaves of one line; NULL when fine, else a reason. */
static const char *lm_leaves(lm_ctx *c, size_t li, int *empty)
{
    const char *p = c->bytes + c->lines[li].off, *why;
    size_t n = c->lines[li].n;

    text_trim(&p, &n);
    if (n == 0)
        return NULL;
    if (n == 2 && memcmp(p, "[]", 2) == 0) {
        *empty = 1;
        return NULL;
    }
    if (p[0] == '[')
        return lm_json(c, p, n, li);
    if ((why = lm_tty(c, p, n, li, empty)) == NULL || why[0] != '\0')
        return why;
    if ((n >= 4 && memcmp(p, "ERR ", 4) == 0) ||
        (n >= 9 && memcmp(p, "Could not", 9) == 0))
        return "redis-cli printed an error instead of the reply";
    if (p[0] == '"' || memchr(p, ',', n) != NULL)
        return lm_csv(c, p, n, li);
    return lm_scalar(c, p, n, 0, li);
}

/* ---------------------------------------------------------------- sections */

static int lm_latest(lm_ctx *c, cow_err *e)
{
    size_t i = 0, j;
    int rc;

    while (i < c->nleaves) {
        const lm_leaf *f = &c->leaves[i];
        size_t cnt;
        if (!f->is_str) {
            if ((rc = lm_reject(c, f->li, e, "LATENCY LATEST: a number where "
                                "an event name was expected")) != COW_OK)
                return rc;
            i++;
            continue;
        }
        for (j = i + 1; j < c->nleaves && !c->leaves[j].is_str; j++)
            ;
        cnt = j - i - 1;
        if (cnt != 3 && cnt != 5)
            rc = lm_reject(c, f->li, e, "LATENCY LATEST entry for '%s' has %zu "
                           "numbers, expected 3 (Redis) or 5 (Valkey 8.1+)",
                           f->str, cnt);
        else if (!lm_plausible_s(f[1].num) || f[2].num < 0 || f[3].num < 0)
            rc = lm_reject(c, f[1].li, e, "LATENCY LATEST entry for '%s': time "
                           "or latency out of range", f->str);
        else {
            rc = lm_emit(c, f[1].num * COW_US_PER_S, "latest", f->str,
                         (double)f[2].num, (double)f[3].num, NULL, 0,
                         c->lines[f->li].no, e);
            if (rc == COW_OK && cnt == 5 && !c->noted_valkey) {
                c->noted_valkey = 1;
                rc = sink_note(c->k, "latency_latest", "Valkey 8.1+ shape (sum "
                               "and count per event): sum and count are not kept", e);
            }
        }
        if (rc)
            return rc;
        i = j;
    }
    return COW_OK;
}

static int lm_history(lm_ctx *c, const char *event, cow_err *e)
{
    size_t i = 0;
    int rc;

    while (i < c->nleaves) {
        const lm_leaf *f = &c->leaves[i];
        if (f->is_str)
            rc = lm_reject(c, f->li, e, "LATENCY HISTORY holds time/latency "
                           "pairs only, not names");
        else if (i + 1 >= c->nleaves || f[1].is_str)
            rc = lm_reject(c, f->li, e, "LATENCY HISTORY: a time stamp without "
                           "its latency");
        else if (!lm_plausible_s(f->num) || f[1].num < 0) {
            rc = lm_reject(c, f->li, e, "LATENCY HISTORY: %lld is not a "
                           "plausible epoch second, or the latency is negative",
                           (long long)f->num);
            i++; /* the pair goes as a whole */
        } else {
            rc = lm_emit(c, f->num * COW_US_PER_S, "history", event,
                         (double)f[1].num, NAN, NULL, 0, c->lines[f->li].no, e);
            i++;
        }
        if (rc)
            return rc;
        i++;
    }
    return COW_OK;
}

/* LATENCY HISTOGRAM: name, "calls", N, "histogram_usec", then (bound,
 * count) pairs until the next name. */
static int lm_histogram(lm_ctx *c, cow_err *e)
{
    size_t i = 0, j;
    int rc = COW_OK;

    while (i < c->nleaves && rc == COW_OK) {
        const lm_leaf *f = &c->leaves[i];
        const char *why = NULL;
        int64_t calls, prev_b = 0, prev_n = 0;
        for (j = i + 1; j < c->nleaves && !c->leaves[j].is_str; j++)
            ; /* j: the next name ("calls") */
        if (!f->is_str || j != i + 1 || j + 2 >= c->nleaves || strcmp(c->leaves[j].str, "calls") != 0 ||
            c->leaves[j + 1].is_str || !c->leaves[j + 2].is_str ||
            strcmp(c->leaves[j + 2].str, "histogram_usec") != 0) {
            rc = lm_reject(c, f->li, e, "LATENCY HISTOGRAM: expected a command name, "
                           "\"calls\", its count and \"histogram_usec\"");
            for (i++; i < c->nleaves && !(c->leaves[i].is_str &&
                                         strcmp(c->leaves[i].str, "calls") != 0 &&
                                         strcmp(c->leaves[i].str, "histogram_usec") != 0);
                 i++)
                ;
            continue;
        }
        calls = c->leaves[j + 1].num;
        for (j += 3; j < c->nleaves && !c->leaves[j].is_str; j += 2) {
            const lm_leaf *b = &c->leaves[j];
            if (j + 1 >= c->nleaves || c->leaves[j + 1].is_str)
                why = "a bucket's bound without its count";
            else if (b->num <= prev_b || c->leaves[j + 1].num < prev_n ||
                     c->leaves[j + 1].num > calls)
                why = "the bounds must rise and the counts (cumulative) rise to the calls";
            if (why != NULL)
                break;
            prev_b = b->num;
            prev_n = c->leaves[j + 1].num;
        }
        if (why == NULL && calls < 0)
            why = "a negative count of calls";
        if (why != NULL) {
            rc = lm_reject(c, f->li, e, "LATENCY HISTOGRAM entry for '%s': %s", f->str, why);
            while (j < c->nleaves && !c->leaves[j].is_str)
                j++;
            i = j;
            continue;
        }
        rc = sink_stat(c->k, 0, "latency-histogram", f->str, "calls", (double)calls,
                       "calls", c->lines[f->li].no, e);
        for (j = i + 4; rc == COW_OK && j < c->nleaves && !c->leaves[j].is_str; j += 2) {
            char bound[24];
            snprintf(bound, sizeof(bound), "%lld", (long long)c->leaves[j].num);
            rc = sink_stat(c->k, 0, "latency-histogram", f->str, bound,
                           (double)c->leaves[j + 1].num, "calls",
                           c->lines[c->leaves[j].li].no, e);
        }
        c->good++;
        i = j;
    }
    return rc;
}

/* Tokenise every line of a LATEST/HISTORY section into leaves. */
static int lm_tokens(lm_ctx *c, lm_kind kind, int *empty, int *bad, cow_err *e)
{
    size_t li;
    int rc;

    c->nleaves = 0;
    for (li = 0; li < c->nlines; li++) {
        size_t before = c->nleaves;
        const char *why = kind == LM_HISTOGRAM ? lm_words(c, li, empty)
                                               : lm_leaves(c, li, empty);
        if (why == NULL && !c->lines[li].eol && c->nleaves > before)
            why = "the last line has no line end, so it may be cut off";
        if (why == NULL && (c->nleaves > before || *empty))
            c->lines_ok++;
        if (why != NULL) {
            c->nleaves = before;
            *bad = 1;
            if ((rc = lm_reject(c, li, e, "%s", why)) != COW_OK)
                return rc;
        }
    }
    return COW_OK;
}

static const char *lm_history_event(lm_ctx *c, cow_err *e, int *rc)
{
    *rc = COW_OK;
    if (c->event[0])
        return c->event;
    if (c->name_event[0])
        return c->name_event;
    if (!c->noted_noevent) {
        c->noted_noevent = 1;
        *rc = sink_note(c->k, "latency_history_event", "LATENCY HISTORY without "
                        "an event name: add a header line such as '=== LATENCY "
                        "HISTORY fork ===' or name the file "
                        "latency-history-<event>.txt", e);
    }
    return NULL;
}

static int lm_replies(lm_ctx *c, lm_kind kind, cow_err *e)
{
    int empty = 0, bad = 0, rc;
    const char *event = NULL;
    char what[LM_NAME_MAX + 16];

    if ((rc = lm_tokens(c, kind, &empty, &bad, e)) != COW_OK)
        return rc;
    if (kind == LM_HISTORY && (event = lm_history_event(c, e, &rc)) == NULL && rc)
        return rc;
    snprintf(what, sizeof(what), "%s%s%s",
             kind == LM_LATEST ? "latest" : kind == LM_HISTOGRAM ? "histogram" : "history",
             event ? " " : "", event ? event : "");
    lm_seen(c, what);
    if (kind == LM_HISTOGRAM) {
        if (c->nleaves == 0 && !bad) {
            c->lines_ok++;
            return sink_note(c->k, "latency_histogram", "an empty LATENCY HISTOGRAM: "
                             "no command ran since the counters were reset, or "
                             "latency-tracking is off", e);
        }
        return lm_histogram(c, e);
    }
    if (c->nleaves == 0 && !bad) {
        long line = c->nlines ? c->lines[0].no : c->header_line;
        c->lines_ok++;
        return lm_emit(c, 0, kind == LM_LATEST ? "latest" : "history", event,
                       NAN, NAN, NULL, 0, line, e);
    }
    return kind == LM_LATEST ? lm_latest(c, e) : lm_history(c, event, e);
}

/* "N. event: K latency spikes (average Ams, mean deviation Dms, period P
 * sec). Worst all time event Wms." as LATENCY DOCTOR prints it. */
static int lm_doctor_event(lm_ctx *c, const char *line, long no, cow_err *e)
{
    char ev[LM_NAME_MAX];
    int idx, spikes, used = 0;
    unsigned long avg, mdev, worst;
    double period;

    if (sscanf(line, "%d. %63[^:]: %d latency spikes (average %lums, mean "
               "deviation %lums, period %lf sec). Worst all time event %lums.%n",
               &idx, ev, &spikes, &avg, &mdev, &period, &worst, &used) != 7 ||
        used == 0 || !lm_is_name(ev, strlen(ev))) {
        c->doctor_event_hit = 0;
        return COW_OK;
    }
    c->doctor_event_hit = 1;
    return lm_emit(c, 0, "doctor", ev, (double)avg, (double)worst, line, 0, no, e);
}

/* "N. ": the start of a numbered DOCTOR line (a wrapped "40.1\n2 sec)" is
 * not one) */
static int lm_numbered(const char *p, size_t n)
{
    size_t i = 0;
    while (i < n && lm_digit(p[i]))
        i++;
    return i > 0 && i + 1 < n && p[i] == '.' && p[i + 1] == ' ';
}

/* An event line of DOCTOR at line index li, with the lines a terminal
 * wrapped it onto (up to a blank line or the next "N." line) joined: as
 * wrapped at a space (joined with one), else cut mid-word (joined with
 * none). */
static int lm_doctor_joined(lm_ctx *c, size_t li, size_t last, cow_err *e)
{
    size_t k, len = 0, end = li;
    char *soft, *hard;
    int rc, pass;

    for (k = li; k <= last; k++) {
        const char *p = c->bytes + c->lines[k].off;
        size_t n = c->lines[k].n;
        text_trim(&p, &n);
        if (k > li && (n == 0 || lm_numbered(p, n) || p[0] == '-'))
            break;
        len += n + 1;
        end = k;
    }
    soft = xmalloc(len + 1);
    hard = xmalloc(len + 1);
    for (pass = 0; pass < 2; pass++) {
        char *o = pass == 0 ? soft : hard;
        for (k = li; k <= end; k++) {
            const char *p = c->bytes + c->lines[k].off;
            size_t n = c->lines[k].n;
            text_trim(&p, &n);
            if (k > li && pass == 0)
                *o++ = ' ';
            memcpy(o, p, n);
            o += n;
        }
        *o = '\0';
    }
    rc = lm_doctor_event(c, soft, c->lines[li].no, e);
    if (rc == COW_OK && !c->doctor_event_hit && end > li)
        rc = lm_doctor_event(c, hard, c->lines[li].no, e);
    free(soft);
    free(hard);
    return rc;
}

/* Lower-cased copy with every run of blanks and line ends made one space,
 * so a sentence wrapped over lines is still found. */
static char *lm_flat(const char *t)
{
    char *out = xmalloc(strlen(t) + 1), *o = out;
    int space = 0;
    for (; *t; t++) {
        if (*t == ' ' || *t == '\n' || *t == '\t' || *t == '\r') {
            space = 1;
            continue;
        }
        if (space && o != out)
            *o++ = ' ';
        space = 0;
        *o++ = (char)lm_lower((unsigned char)*t);
    }
    *o = '\0';
    return out;
}

static int lm_doctor(lm_ctx *c, cow_err *e)
{
    size_t li, first = c->nlines, last = 0, len = 0;
    char *text, *flat;
    int none, disabled, rc;
    long no;

    for (li = 0; li < c->nlines; li++) {
        const char *p = c->bytes + c->lines[li].off;
        size_t n = c->lines[li].n;
        text_trim(&p, &n);
        if (n == 0)
            continue;
        if (first == c->nlines)
            first = li;
        last = li;
    }
    lm_seen(c, "doctor");
    if (first == c->nlines)
        return sink_note(c->k, "latency_doctor", "LATENCY DOCTOR section is "
                         "empty", e);
    c->lines_ok += (long long)(last - first + 1);
    for (li = first; li <= last; li++)
        len += c->lines[li].n + 1;
    text = xmalloc(len + 1);
    text[0] = '\0';
    for (li = first, len = 0; li <= last; li++) {
        const char *p = c->bytes + c->lines[li].off;
        size_t n = c->lines[li].n;
        while (n > 0 && p[n - 1] == '\r')
            n--;
        memcpy(text + len, p, n);
        len += n;
        text[len++] = li < last ? '\n' : '\0';
    }
    text[len] = '\0';
    flat = lm_flat(text);
    none = strstr(flat, "no latency spike was observed") != NULL;
    disabled = strstr(flat, "latency monitoring is disabled") != NULL;
    free(flat);
    no = c->lines[first].no;
    rc = lm_emit(c, 0, "doctor", NULL, NAN, NAN, text, none, no, e);
    free(text);
    if (rc == COW_OK && disabled)
        rc = sink_note(c->k, "latency_monitor", "disabled: LATENCY DOCTOR says "
                       "latency-monitor-threshold is 0, so nothing was recorded", e);
    for (li = first; li <= last && rc == COW_OK; li++) {
        const char *p = c->bytes + c->lines[li].off;
        size_t n = c->lines[li].n;
        text_trim(&p, &n);
        if (n > 3 && lm_numbered(p, n))
            rc = lm_doctor_joined(c, li, last, e);
    }
    return rc;
}

/* A "histogram_usec" key within the few lines after li. */
static bool lm_histogram_ahead(const lm_ctx *c, size_t li)
{
    size_t k;
    for (k = li; k < c->nlines && k < li + 6; k++) {
        const char *p = c->bytes + c->lines[k].off;
        size_t n = c->lines[k].n;
        text_trim(&p, &n);
        if (lm_histogram_key(p, n))
            return true;
    }
    return false;
}

/* Outside a HISTOGRAM a transcript's prompt and echo lines are not part of
 * the reply: dropped, and counted as the source counts those it skips. */
static void lm_drop_echoes(lm_ctx *c)
{
    size_t li, k = 0;
    for (li = 0; li < c->nlines; li++) {
        if (c->lines[li].echo) {
            c->s->prompts++;
            continue;
        }
        c->lines[k++] = c->lines[li];
    }
    c->nlines = k;
}

/* Kind of a section without a header, from its first non-blank line. */
static lm_kind lm_infer(lm_ctx *c)
{
    size_t li;
    for (li = 0; li < c->nlines; li++) {
        const char *p = c->bytes + c->lines[li].off;
        size_t n = c->lines[li].n;
        int empty = 0;
        text_trim(&p, &n);
        if (n == 0)
            continue;
        if (lm_doctor_opener(p, n))
            return LM_DOCTOR;
        c->nleaves = 0;
        if (lm_leaves(c, li, &empty) != NULL)
            return c->name_kind != LM_NONE ? c->name_kind : LM_LATEST;
        if (c->nleaves > 0)
            return c->leaves[0].is_str ? LM_LATEST : LM_HISTORY;
        if (empty)
            return c->name_kind;
    }
    return c->name_kind;
}

static bool lm_all_blank(const lm_ctx *c)
{
    size_t li;
    for (li = 0; li < c->nlines; li++) {
        const char *p = c->bytes + c->lines[li].off;
        size_t n = c->lines[li].n;
        text_trim(&p, &n);
        if (n > 0)
            return false;
    }
    return true;
}

/* Parse and emit the section read so far, then start a new one; more = a
 * header line follows. */
static int lm_section_end(lm_ctx *c, int more, cow_err *e)
{
    lm_kind kind = c->kind;
    int rc = COW_OK;

    if (kind == LM_NONE && (c->name_kind == LM_HISTOGRAM || lm_histogram_ahead(c, 0)))
        kind = LM_HISTOGRAM;
    if (kind != LM_HISTOGRAM)
        lm_drop_echoes(c);
    if (c->header_line == 0 && lm_all_blank(c)) {
        /* Blank lines before the first header are spacing; a file that is
         * only a blank line is a piped empty reply. */
        if (more || c->nsections > 0 || c->nlines == 0) {
            c->nlines = 0;
            c->nbytes = 0;
            return COW_OK;
        }
    }
    c->nsections++;
    if (kind == LM_NONE)
        kind = lm_infer(c);
    if (kind == LM_NONE) {
        cow_err_at(e, c->s->name, c->nlines ? c->lines[0].no : 1, 0);
        return COW_FAIL(e, COW_EPARSE, "an empty LATENCY reply, but nothing "
                        "says whether it is LATEST or HISTORY: add a header line "
                        "such as '=== LATENCY HISTORY fork ===' or name the file "
                        "latency-history-<event>.txt");
    }
    if (kind == LM_DOCTOR)
        rc = lm_doctor(c, e);
    else
        rc = lm_replies(c, kind, e);
    c->nlines = 0;
    c->nbytes = 0;
    c->kind = LM_NONE;
    c->event[0] = '\0';
    c->header_line = 0;
    return rc;
}

static int lm_line_in(lm_ctx *c, const cow_line *ln, cow_err *e)
{
    char event[LM_NAME_MAX];
    lm_kind kind;
    lm_line *l;
    const char *p = ln->p;
    size_t n = ln->n;
    int rc;

    text_trim(&p, &n);
    if ((kind = lm_header(p, n, event)) != LM_NONE) {
        if ((rc = lm_section_end(c, 1, e)) != COW_OK)
            return rc;
        c->kind = kind;
        memcpy(c->event, event, sizeof(c->event));
        c->header_line = ln->no;
        return COW_OK;
    }
    if (c->nlines >= LM_MAX_LINES) {
        cow_err_at(e, c->s->name, ln->no, 0);
        return COW_FAIL(e, COW_ELIMIT, "LATENCY section longer than %d lines: "
                        "this is not LATENCY output", LM_MAX_LINES);
    }
    c->lines = xgrow(c->lines, sizeof(*c->lines), c->nlines + 1, &c->caplines);
    c->bytes = xgrow(c->bytes, 1, c->nbytes + ln->n + 1, &c->capbytes);
    l = &c->lines[c->nlines++];
    l->no = ln->no;
    l->off = c->nbytes;
    l->n = ln->n;
    l->eol = ln->eol;
    {
        const char *cmd;
        size_t ncmd;
        l->echo = n > 0 && (prefix_prompt(p, n, &cmd, &ncmd) || prefix_echo(p, n));
    }
    memcpy(c->bytes + c->nbytes, ln->p, ln->n);
    c->bytes[c->nbytes + ln->n] = '\0';
    c->nbytes += ln->n + 1;
    return COW_OK;
}

static int lm_parse(cow_src *s, const cow_parse_opts *o, cow_sink *k, cow_err *e)
{
    lm_ctx c;
    cow_line ln;
    int rc;

    memset(&c, 0, sizeof(c));
    c.s = s;
    c.k = k;
    /* transcript lines are told apart here: "info" alone is a command
     * name in a HISTOGRAM (lm_line.echo) */
    s->keep_prompts = 1;
    lm_name_hints(&c, o ? o->fname : NULL);
    while ((rc = src_next_line(s, &ln, e)) == 1)
        if ((rc = lm_line_in(&c, &ln, e)) != COW_OK)
            goto done;
    if (rc < 0 || (rc = lm_section_end(&c, 0, e)) != COW_OK)
        goto done;
    if (c.good == 0 && c.bad == 0) {
        cow_err_at(e, s->name, 1, 0);
        rc = COW_FAIL(e, COW_EPARSE, "empty file: expected redis-cli output of "
                      "LATENCY LATEST, LATENCY HISTORY <event> or LATENCY DOCTOR");
    } else if (c.good == 0 || parser_too_many_rejects(c.lines_ok, c.bad)) {
        cow_err_at(e, s->name, 0, 0);
        rc = COW_FAIL(e, COW_EPARSE, "%lld lines are not LATENCY output (%lld "
                      "records read): this does not look like redis-cli LATENCY "
                      "LATEST/HISTORY/DOCTOR output", c.bad, c.good);
    } else {
        rc = sink_note(k, "latency_sections", c.seen, e);
    }
done:
    free(c.bytes);
    free(c.lines);
    free(c.leaves);
    return rc;
}

const cow_parser cow_parser_latency_monitor = {
    "redis-latency",
    "LATENCY LATEST / HISTORY / DOCTOR / HISTOGRAM output saved from redis-cli",
    lm_sniff,
    lm_parse
};
