/* clilat.c -- `redis-cli --latency` and `--latency-history` output.
 *
 * Exports cow_parser_cli_latency ("redis-cli-latency"); see formats.md §5.
 *
 * redis-cli pings in a loop and prints the running figures of the current
 * interval after every sample; with --latency-history it closes an interval
 * with " -- %.2f seconds range". Shapes accepted (any mix):
 *   terminal  "min: 0, max: 1, avg: 0.11 (1341 samples)", rewritten in
 *             place after ESC[0G ESC[2K, the range appended to the last one
 *   piped     "0 1 0.11 1341" (one line per sample), range on its own line
 *   --csv     "0,1,0.11,1341"
 *   --json    {"min": 0, "max": 1, "avg": 0.11, "count": 1341}
 * One COW_REC_INTERVAL per closed interval, from the last figures before
 * its range marker: min/max/avg converted from milliseconds to
 * microseconds, count = samples, dur_s = the printed range, t_us = the
 * interval's END. Figures after the last range marker (a capture that was
 * stopped, or plain --latency, which prints no range) form a last interval
 * whose length is estimated as count * (avg + 10 ms), redis-cli sleeping
 * 10 ms between pings; a note says so.
 *
 * The output carries no clock. Intervals are laid end to end from the run's
 * start: the --t0 flag / run.json "t0" (o->t0_us) when given, else an epoch
 * stamp in the file name (10/13/16/19 digits, e.g.
 * latency-history-1738591331.txt), else the header of a script(1)
 * typescript on the first line ("Script started on 2026-12-03
 * 06:53:28+00:00 [...]", util-linux 2.35+; older "Script started on Thu 03
 * Dec 2026 06:53:28 AM UTC", which must name UTC or an offset); without any
 * of these the file is refused, and the message names `cowtail capture`,
 * which writes a clocked capture. script(1)'s header and "Script done on"
 * trailer lines are skipped.
 * redis-cli measures with mstime(), so every latency is whole milliseconds
 * (sub-millisecond round trips read as 0); a note says so. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "num.h"
#include "text.h"
#include "timeconv.h"
#include "formats.h"
#include "stamp.h"

/* redis-cli sleeps this long between two pings (LATENCY_SAMPLE_RATE). */
#define CLILAT_SLEEP_MS 10.0
/* avg is printed with %.2f: allow that rounding when checking min<=avg<=max. */
#define CLILAT_AVG_SLACK 0.006

typedef struct clilat_fig {
    int64_t min_ms, max_ms;  /* whole milliseconds, as printed */
    double avg_ms;           /* mean, %.2f */
    int64_t count;           /* samples so far in the interval */
    long line;               /* input line */
} clilat_fig;

typedef struct clilat_ctx {
    cow_src *s;              /* input */
    cow_sink *k;             /* output */
    int64_t start_us;        /* start of the current interval */
    int has_last;            /* last holds the current interval's figures */
    clilat_fig last;         /* latest figures of the current interval */
    long long good, bad;     /* lines accepted, lines rejected */
    long long intervals;     /* records emitted */
    int estimated;           /* an interval length was estimated */
    int shapes;              /* bit set of shapes seen (1 tty, 2 raw, 4 csv, 8 json) */
} clilat_ctx;

/* ---------------------------------------------------------------- matching */

/* Match s[0..n) against pat, where '\1' stands for an unsigned integer and
 * '\2' for an unsigned decimal; every other byte must match exactly. The
 * numbers go to ints[] / dbls[] in order. */
static bool clilat_match(const char *s, size_t n, const char *pat,
                         int64_t *ints, double *dbls)
{
    size_t i = 0, ni = 0, nd = 0;

    for (; *pat; pat++) {
        if (*pat == '\1' || *pat == '\2') {
            size_t j = i;
            while (j < n && ((s[j] >= '0' && s[j] <= '9') ||
                             (*pat == '\2' && s[j] == '.')))
                j++;
            if (j == i)
                return false;
            if (*pat == '\1' ? !num_parse_i64(s + i, j - i, &ints[ni++])
                             : !num_parse_double(s + i, j - i, &dbls[nd++]))
                return false;
            i = j;
        } else if (i >= n || s[i++] != *pat) {
            return false;
        }
    }
    return i == n;
}

/* A terminal copy of a run stopped with Ctrl-C ends in "^C" (and the
 * tty shape in a bare "^C" line): not part of the figures. */
static void strip_interrupt(const char *p, size_t *n)
{
    if (*n >= 2 && p[*n - 2] == '^' && p[*n - 1] == 'C')
        *n -= 2;
    while (*n > 0 && p[*n - 1] == ' ')
        (*n)--;
}

/* Figures in any of the four shapes; the shape's bit goes to *shape. */
static bool clilat_figures(const char *p, size_t n, clilat_fig *f, int *shape)
{
    static const struct { const char *pat; int bit; } pats[] = {
        {"min: \1, max: \1, avg: \2 (\1 samples)", 1},
        {"\1 \1 \2 \1", 2},
        {"\1,\1,\2,\1", 4},
        {"{\"min\": \1, \"max\": \1, \"avg\": \2, \"count\": \1}", 8},
    };
    int64_t v[3];
    double d[1];
    size_t i;

    for (i = 0; i < sizeof(pats) / sizeof(pats[0]); i++)
        if (clilat_match(p, n, pats[i].pat, v, d)) {
            f->min_ms = v[0];
            f->max_ms = v[1];
            f->avg_ms = d[0];
            f->count = v[2];
            *shape = pats[i].bit;
            return true;
        }
    return false;
}

/* ---------------------------------------------------------------- output */

static int clilat_emit(clilat_ctx *c, const clilat_fig *f, double dur_s, cow_err *e)
{
    cow_rec r;

    /* Laid end to end, the intervals must stay inside the capture era: an
     * interval (estimated as count x (avg + 10 ms), or a range line) that
     * would end after 2100 is not one of a capture's. Checked before the
     * conversion so a huge length never overflows the clock. */
    if (!(dur_s * 1e6 <= (double)(COW_EPOCH_MAX_S * COW_US_PER_S - c->start_us))) {
        cow_err_at(e, c->s->name, f->line, 0);
        return COW_FAIL(e, COW_EPARSE, "an interval of %.6g s (%lld samples) "
                        "laid after the ones before it would end after 2100: "
                        "not redis-cli --latency output of one capture (check "
                        "the sample counts and the '-- N seconds range' lines)",
                        dur_s, (long long)f->count);
    }
    c->start_us += (int64_t)llround(dur_s * 1e6);
    r.kind = COW_REC_INTERVAL;
    r.u.interval.t_us = c->start_us;
    r.u.interval.dur_s = dur_s;
    r.u.interval.min_us = (double)f->min_ms * 1000.0;
    r.u.interval.max_us = (double)f->max_ms * 1000.0;
    r.u.interval.avg_us = f->avg_ms * 1000.0;
    r.u.interval.count = f->count;
    r.u.interval.op = "PING";
    r.u.interval.line = f->line;
    c->intervals++;
    c->has_last = 0;
    return sink_emit(c->k, &r, e);
}

/* Close the current interval without a range marker (see header). */
static int clilat_emit_estimated(clilat_ctx *c, cow_err *e)
{
    const clilat_fig *f = &c->last;
    double dur_s = (double)f->count * (f->avg_ms + CLILAT_SLEEP_MS) / 1000.0;
    char note[256];
    int rc;

    if (!c->estimated) {
        c->estimated = 1;
        snprintf(note, sizeof(note), "line %ld: figures without a ' -- N "
                 "seconds range' line after them (plain --latency, or a stopped "
                 "capture): that interval's length is estimated as count x "
                 "(avg + 10 ms) = %.2f s", f->line, dur_s);
        if ((rc = sink_note(c->k, "interval_estimated", note, e)) != COW_OK)
            return rc;
    }
    return clilat_emit(c, f, dur_s, e);
}

static int clilat_reject(clilat_ctx *c, const cow_line *ln, const char *why,
                         cow_err *e)
{
    c->bad++;
    return sink_reject(c->k, ln->no, why, ln->p, ln->n, e);
}

/* ---------------------------------------------------------------- lines */

static int clilat_take_figures(clilat_ctx *c, const cow_line *ln,
                               const clilat_fig *f, cow_err *e)
{
    int rc;

    if (f->count < 1 || f->min_ms > f->max_ms ||
        f->avg_ms + CLILAT_AVG_SLACK < (double)f->min_ms ||
        f->avg_ms - CLILAT_AVG_SLACK > (double)f->max_ms)
        return clilat_reject(c, ln, "figures are inconsistent (need count >= 1 "
                             "and min <= avg <= max)", e);
    if (!ln->eol && c->has_last && f->count != c->last.count + 1)
        return clilat_reject(c, ln, "the last line has no line end and its "
                             "sample count does not follow on: it is cut off", e);
    if (c->has_last && f->count <= c->last.count &&
        (rc = clilat_emit_estimated(c, e)) != COW_OK)
        return rc; /* the count started again: a new run without a marker */
    c->last = *f;
    c->last.line = ln->no;
    c->has_last = 1;
    c->good++;
    return COW_OK;
}

static int clilat_take_range(clilat_ctx *c, const cow_line *ln, double dur_s,
                             cow_err *e)
{
    if (!c->has_last)
        return clilat_reject(c, ln, "' -- seconds range' line without figures "
                             "before it", e);
    if (!(dur_s > 0))
        return clilat_reject(c, ln, "interval of zero seconds", e);
    c->good++;
    return clilat_emit(c, &c->last, dur_s, e);
}

/* One piece of a line between escape sequences. */
static int clilat_piece(clilat_ctx *c, const cow_line *ln, const char *p,
                        size_t n, cow_err *e)
{
    const char *dash;
    clilat_fig f;
    int64_t unused[1];
    double dur[1];
    int shape = 0, rc;

    text_trim(&p, &n);
    strip_interrupt(p, &n);
    if (n == 0)
        return COW_OK;
    if (clilat_match(p, n, "-- \2 seconds range", unused, dur))
        return clilat_take_range(c, ln, dur[0], e);
    /* terminal shape: "min: ... (N samples) -- 1.00 seconds range" */
    dash = n > 4 ? strstr(p, " -- ") : NULL;
    if (dash != NULL && dash < p + n) {
        size_t head = (size_t)(dash - p);
        if ((rc = clilat_piece(c, ln, p, head, e)) != COW_OK)
            return rc;
        return clilat_piece(c, ln, dash + 1, n - head - 1, e);
    }
    if (!clilat_figures(p, n, &f, &shape))
        return clilat_reject(c, ln, ln->eol ? "not redis-cli --latency output "
                             "(expected 'min max avg count' figures or a "
                             "' -- N seconds range' line)"
                             : "the last line has no line end and does not "
                               "parse: it is cut off", e);
    c->shapes |= shape;
    f.line = ln->no;
    return clilat_take_figures(c, ln, &f, e);
}

/* A physical line: terminal captures hold many rewrites, each after
 * ESC[0G ESC[2K; any CSI escape sequence separates pieces. */
static int clilat_line(clilat_ctx *c, const cow_line *ln, cow_err *e)
{
    char *buf;
    size_t i = 0, start = 0;
    int rc = COW_OK;

    /* Work on a NUL-terminated copy: pieces are searched with strstr. */
    buf = xstrndup(ln->p, ln->n);
    while (i <= ln->n && rc == COW_OK) {
        if (i == ln->n || (buf[i] == '\x1b' && i + 1 < ln->n && buf[i + 1] == '[')) {
            size_t j = i + 2;
            buf[i < ln->n ? i : ln->n] = '\0';
            rc = clilat_piece(c, ln, buf + start, i - start, e);
            if (i == ln->n)
                break;
            while (j < ln->n && !((buf[j] >= '@' && buf[j] <= '~')))
                j++;
            i = start = j + 1;
            continue;
        }
        i++;
    }
    free(buf);
    return rc;
}

/* ---------------------------------------------------------------- parse */

/* script(1)'s "Script started on TIME [...]" (1, *us set when us is not
 * NULL; -1 with *why when its time cannot be used) or "Script done on"
 * (1); 0 for any other line. */
static int script_header(const cow_line *ln, int64_t *us, const char **why)
{
    static const char started[] = "Script started on ", done[] = "Script done on ";
    const char *p = ln->p, *end;
    size_t n = ln->n;
    int st;

    if (n >= sizeof(done) - 1 && memcmp(p, done, sizeof(done) - 1) == 0)
        return us ? 0 : 1;
    if (n < sizeof(started) - 1 || memcmp(p, started, sizeof(started) - 1) != 0)
        return 0;
    if (us == NULL)
        return 1;
    p += sizeof(started) - 1;
    n -= sizeof(started) - 1;
    end = memchr(p, '[', n); /* util-linux 2.35+: [COMMAND=... TERM=...] */
    if (end != NULL)
        n = (size_t)(end - p);
    st = info_stamp_parse(p, n, us, why);
    if (st == 0) {
        *why = "not a time cowtail reads";
        return -1;
    }
    return st;
}

static int clilat_notes(clilat_ctx *c, const char *clock, cow_err *e)
{
    static const char *const names[] = {"terminal", "piped", "--csv", "--json"};
    char shapes[96] = "";
    int i, rc;

    for (i = 0; i < 4; i++)
        if (c->shapes & (1 << i))
            snprintf(shapes + strlen(shapes), sizeof(shapes) - strlen(shapes),
                     "%s%s", shapes[0] ? ", " : "", names[i]);
    if ((rc = sink_note(c->k, "clilat_shape", shapes, e)) != COW_OK ||
        (rc = sink_note(c->k, "clilat_clock", clock, e)) != COW_OK)
        return rc;
    return sink_note(c->k, "latency_resolution", "whole milliseconds: redis-cli "
                     "times PING with mstime(), so sub-millisecond round trips "
                     "read as 0 and min/max are quantised to 1 ms", e);
}

static int clilat_parse(cow_src *s, const cow_parse_opts *o, cow_sink *k, cow_err *e)
{
    clilat_ctx c;
    cow_line ln;
    const char *clock;
    int rc;

    memset(&c, 0, sizeof(c));
    c.s = s;
    c.k = k;
    if (o != NULL && o->has_t0) {
        c.start_us = o->t0_us;
        clock = "intervals laid end to end from t0 (--t0 / run.json)";
    } else if (o != NULL && info_name_stamp(o->fname, NULL, &c.start_us)) {
        clock = "intervals laid end to end from the stamp in the file name";
    } else {
        const char *why = NULL;
        int st = 0;
        if ((rc = src_next_line(s, &ln, e)) < 0)
            return rc;
        if (rc == 1 && (st = script_header(&ln, &c.start_us, &why)) > 0) {
            clock = "intervals laid end to end from the script(1) typescript's "
                    "start (its header line)";
        } else {
            cow_err_at(e, s->name, 1, 0);
            if (st < 0)
                return COW_FAIL(e, COW_EUNIT, "the script(1) header's time cannot be "
                                "used (%s): give the start time with --t0", why);
            return COW_FAIL(e, COW_EUNIT, "redis-cli --latency output carries no "
                            "clock: give the start time of the run with --t0 (or "
                            "\"t0\" in run.json), put an epoch stamp in the file "
                            "name (e.g. latency-history-1738591331.txt), or record it "
                            "with script(1), whose header holds the start; `cowtail "
                            "capture` records a clocked probe of its own");
        }
    }
    while ((rc = src_next_line(s, &ln, e)) == 1)
        if (script_header(&ln, NULL, NULL) == 0 && (rc = clilat_line(&c, &ln, e)) != COW_OK)
            return rc;
    if (rc < 0)
        return rc;
    if (c.has_last && (rc = clilat_emit_estimated(&c, e)) != COW_OK)
        return rc;
    if (c.intervals == 0 || parser_too_many_rejects(c.good, c.bad)) {
        cow_err_at(e, s->name, 0, 0);
        return COW_FAIL(e, COW_EPARSE, "%lld of %lld lines are not redis-cli "
                        "--latency output: expected lines such as '0 1 0.11 99' "
                        "or 'min: 0, max: 1, avg: 0.11 (99 samples)'",
                        c.bad, c.good + c.bad);
    }
    return clilat_notes(&c, clock, e);
}

/* ---------------------------------------------------------------- sniff */

static int clilat_sniff(const char *fname, const char *head, size_t n)
{
    size_t i = 0, j, figs = 0, ranges = 0, other = 0;
    const char *dash;
    int shape, tty = 0;
    clilat_fig f;
    int64_t unused[1];
    double dur[1];

    (void)fname;
    for (i = 0; i + 12 <= n && !tty; i++)
        tty = memcmp(head + i, "\x1b[0G\x1b[2Kmin: ", 12) == 0;
    i = 0;
    while (i < n) {
        const char *nl = memchr(head + i, '\n', n - i), *p = head + i;
        size_t len;
        if (nl == NULL)
            break;
        len = (size_t)(nl - p);
        text_trim(&p, &len);
        i = (size_t)(nl - head) + 1;
        strip_interrupt(p, &len);
        if (len == 0)
            continue;
        dash = NULL;
        for (j = 0; j + 4 <= len && dash == NULL; j++)
            if (memcmp(p + j, " -- ", 4) == 0)
                dash = p + j;
        if (clilat_match(p, len, "-- \2 seconds range", unused, dur))
            ranges++;
        else if (dash != NULL && clilat_figures(p, (size_t)(dash - p), &f, &shape) &&
                 clilat_match(dash + 1, len - (size_t)(dash + 1 - p),
                              "-- \2 seconds range", unused, dur))
            figs++, ranges++;   /* a clean copy of the terminal */
        else if (clilat_figures(p, len, &f, &shape))
            figs++;
        else
            other++;
    }
    if (tty)
        return 95;
    if (figs == 0 || other > 0)
        return 0;
    if (ranges > 0)
        return 95;
    return 70;
}

const cow_parser cow_parser_cli_latency = {
    "redis-cli-latency",
    "redis-cli --latency / --latency-history output (terminal, piped, csv, json)",
    clilat_sniff,
    clilat_parse
};
