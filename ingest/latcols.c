/* latcols.c -- column roles, units and clocks for latency captures.
 *
 * Requirements:
 *  1. A column's role comes from its name (aliases below, first alias
 *     wins when several columns match); its unit from a suffix or a unit
 *     written in the header. A latency without a known unit refuses the
 *     file: guessing ms vs us silently is the worst possible error.
 *  2. The clock is decided on the first stamp: ISO 8601 text; a number
 *     whose unit is known (header or --time-unit) is epoch when it falls in
 *     1990..2100, else relative; a number without a unit is epoch s/ms/us/ns
 *     by magnitude, else relative with an unknown unit (refused).
 *  3. Relative stamps need an anchor (--t0 / run.json "t0"), else refused.
 *  4. Clock problems refuse the file: a negative stamp (typically a
 *     monotonic clock subtracted from a wall clock), an epoch outside
 *     1990..2100, time running back by more than LATCOLS_BACKWARDS_TOL_US,
 *     a span longer than LATCOLS_MAX_SPAN_US.
 *  5. A bad latency (not a number, NaN, inf, negative) is a reject.
 *  6. An intended-send column (intended, intended_send, scheduled, as
 *     `cowtail capture` and other open-loop probes write it) is the time
 *     the sample was meant to go, on the time column's clock and unit
 *     (unless its name gives one). It never moves a sample: a note says
 *     how late the sends were (mean, largest, how many more than 1 ms)
 *     and the largest latency read from the intended send (reply -
 *     intended, without coordinated omission). Unreadable values and
 *     intended times more than 1 ms after the actual send (not the same
 *     clock) are counted in the note, not rejected.
 *  7. With latency_from_intended (--latency-from intended, run.json
 *     "latency_from"), a sample whose intended send was read is placed at
 *     it and its latency is reply - intended (latency + lag); the note
 *     says so. Samples without a usable intended time keep their send. */
#include "latcols.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "limits.h"
#include "mem.h"
#include "num.h"
#include "text.h"
#include "timeconv.h"
#include "units.h"

/* Aliases in order of preference. */
static const char *const time_aliases[] = {
    "timestamp", "ts", "time", "t", "epoch", "unix_time", "unixtime",
    "start", "start_time", "send_time", "sent", "datetime", "date", "when",
    "wall", "wallclock", "clock", NULL};
static const char *const lat_aliases[] = {
    "latency", "lat", "rtt", "round_trip", "roundtrip", "response_time",
    "resp_time", "service_time", "duration", "elapsed", "took", "value", NULL};
static const char *const intended_aliases[] = {
    "intended", "intended_send", "intended_time", "scheduled",
    "scheduled_time", "intended_start", NULL};
static const char *const op_aliases[] = {
    "op", "cmd", "command", "operation", "opname", "type", "request", NULL};

static int alias_rank(const char *const *list, const char *base)
{
    int i;
    for (i = 0; list[i] != NULL; i++)
        if (strcmp(list[i], base) == 0)
            return i + 1;
    return 0;
}

void latcols_init(latcols *lc, const cow_parse_opts *o)
{
    memset(lc, 0, sizeof(*lc));
    lc->o = o;
    lc->time_col = lc->lat_col = lc->op_col = lc->int_col = -1;
    lc->dup_col = lc->dup_of = -1;
}

void latcols_release(latcols *lc)
{
    free(lc->time_name);
    free(lc->lat_name);
    free(lc->int_name);
    free(lc->dup_name);
    lc->time_name = lc->lat_name = lc->int_name = lc->dup_name = NULL;
}

/* A column name kept whole in *dst (the old one freed). */
static void keep_name(char **dst, const char *name, size_t n)
{
    free(*dst);
    *dst = xstrndup(name, n);
}

/* A kept name for a message: "" before the column is seen. */
static const char *nm(const char *s)
{
    return s ? s : "";
}

/* Column idx has the same role and rank as column of: which one is meant
 * cannot be known, so latcols_check refuses the file. */
static void note_dup(latcols *lc, int idx, int of, const char *name, size_t n)
{
    if (lc->dup_col >= 0)
        return;
    lc->dup_col = idx;
    lc->dup_of = of;
    keep_name(&lc->dup_name, name, n);
}

/* The column name into out (text_colname) with its unit in us: from "(...)"
 * or "[...]", else from a trailing "_unit" (removed); 0 when none. */
static double split_name(const char *name, size_t n, char *out, size_t cap)
{
    char unit[32], *us;
    double u;

    text_colname(name, n, out, cap, unit, sizeof(unit));
    if (unit[0] && (u = unit_time_us(unit, strlen(unit))) > 0)
        return u;
    us = strrchr(out, '_');
    if (us != NULL && us != out && (u = unit_time_us(us + 1, strlen(us + 1))) > 0) {
        *us = '\0';
        return u;
    }
    return 0;
}

void latcols_add(latcols *lc, int idx, const char *name, size_t n)
{
    char base[64];
    double u = split_name(name, n, base, sizeof(base));
    int r;

    if ((r = alias_rank(time_aliases, base)) > 0 && lc->time_col >= 0 &&
        r == lc->time_prio)
        note_dup(lc, idx, lc->time_col, name, n);
    else if ((r = alias_rank(lat_aliases, base)) > 0 && lc->lat_col >= 0 &&
             r == lc->lat_prio)
        note_dup(lc, idx, lc->lat_col, name, n);
    if ((r = alias_rank(time_aliases, base)) > 0 &&
        (lc->time_col < 0 || r < lc->time_prio)) {
        lc->time_col = idx;
        lc->time_prio = r;
        lc->time_unit_us = u;
        keep_name(&lc->time_name, name, n);
    } else if ((r = alias_rank(lat_aliases, base)) > 0 &&
               (lc->lat_col < 0 || r < lc->lat_prio)) {
        lc->lat_col = idx;
        lc->lat_prio = r;
        lc->lat_unit_us = u;
        lc->lat_unit_from = "the column name";
        keep_name(&lc->lat_name, name, n);
    } else if (alias_rank(op_aliases, base) > 0 && lc->op_col < 0) {
        lc->op_col = idx;
    } else if (alias_rank(intended_aliases, base) > 0 && lc->int_col < 0) {
        lc->int_col = idx; /* requirement 6 */
        lc->int_unit_us = u;
        keep_name(&lc->int_name, name, n);
    }
}

int latcols_check(latcols *lc, cow_err *e)
{
    const cow_parse_opts *o = lc->o;

    if (lc->dup_col >= 0)
        return COW_FAIL(e, COW_EPARSE,
                        "columns %d and %d ('%s') both look like the %s column: "
                        "which one is meant cannot be known; rename or drop one",
                        lc->dup_of + 1, lc->dup_col + 1, nm(lc->dup_name),
                        lc->dup_of == lc->time_col ? "time" : "latency");
    if (lc->lat_col < 0)
        return COW_FAIL(e, COW_EPARSE,
                        "no latency column (expected one named latency, lat, "
                        "rtt, duration, elapsed or value, with a unit suffix "
                        "such as latency_us)");
    if (lc->time_col < 0)
        return COW_FAIL(e, COW_EPARSE,
                        "no time column (expected one named timestamp, ts, "
                        "time, t or epoch, e.g. timestamp_us): samples cannot "
                        "be lined up with server events without one");
    if (lc->lat_unit_us == 0 && o && o->latency_unit) {
        lc->lat_unit_us = unit_time_us(o->latency_unit, strlen(o->latency_unit));
        lc->lat_unit_from = "--latency-unit / run.json latency_unit";
    }
    if (lc->lat_unit_us == 0)
        return COW_FAIL(e, COW_EUNIT,
                        "latency column '%s' has no unit: rename it (e.g. "
                        "%s_ms or '%s (us)'), pass --latency-unit ms|us|ns|s, "
                        "or set \"latency_unit\" in run.json",
                        nm(lc->lat_name), nm(lc->lat_name), nm(lc->lat_name));
    if (lc->time_unit_us == 0 && o && o->time_unit)
        lc->time_unit_us = unit_time_us(o->time_unit, strlen(o->time_unit));
    return COW_OK;
}

int latcols_check_time(latcols *lc, cow_err *e)
{
    if (lc->time_col < 0)
        return COW_FAIL(e, COW_EPARSE,
                        "no time column (expected one named timestamp, ts, "
                        "time, t or epoch, e.g. timestamp_us)");
    if (lc->time_unit_us == 0 && lc->o && lc->o->time_unit)
        lc->time_unit_us = unit_time_us(lc->o->time_unit, strlen(lc->o->time_unit));
    return COW_OK;
}

static int in_epoch(double us)
{
    return us >= (double)COW_EPOCH_MIN_S * 1e6 && us < (double)COW_EPOCH_MAX_S * 1e6;
}

/* 1 when the file's own date says v (epoch us) is a wall clock: the file
 * was last written no earlier than an hour before v and within a week
 * after it (a capture's file is written while it runs). */
static int monotonic_ruled_out(const latcols *lc, double v)
{
    double m = lc->o ? (double)lc->o->mtime_us : 0;
    return m > 0 && m >= v - 3600e6 && m <= v + 7 * 86400e6;
}

/* Requirement 2: choose the clock from the first stamp v. */
static int decide(latcols *lc, double v, cow_err *e)
{
    static const double mags[] = {1e6, 1e3, 1.0, 1e-3};
    static const char *const names[] = {"s", "ms", "us", "ns"};
    size_t i;

    if (v < 0)
        return COW_FAIL(e, COW_ECLOCK,
                        "first time stamp in '%s' is negative (%.17g): this "
                        "usually means a monotonic clock reading was mixed "
                        "with a wall clock; record one wall-clock epoch at "
                        "start and add monotonic deltas to it",
                        nm(lc->time_name), v);
    if (lc->time_unit_us > 0) {
        lc->time_mult = lc->time_unit_us;
        lc->time_epoch = in_epoch(v * lc->time_mult);
        snprintf(lc->time_how, sizeof(lc->time_how), "%s, unit from %s",
                 lc->time_epoch ? "epoch" : "relative",
                 lc->o && lc->o->time_unit ? "--time-unit" : "the header");
    } else {
        for (i = 0; i < 4; i++)
            if (in_epoch(v * mags[i]))
                break;
        if (i == 4)
            return COW_FAIL(e, COW_EUNIT,
                            "time column '%s' starts at %.17g, which is not an "
                            "epoch in s, ms, us or ns: for relative times name "
                            "the unit (e.g. t_s, elapsed_ms) or pass "
                            "--time-unit, and give the start with --t0 or "
                            "run.json \"t0\"",
                            nm(lc->time_name), v);
        /* epoch microseconds by magnitude are also what CLOCK_MONOTONIC
         * reads in nanoseconds after 7 to 47 days of uptime: a 12 s
         * capture became 11,998 s in 2024. Taken as epoch only when the
         * file was written within a week after that first stamp. */
        if (i == 2 && !monotonic_ruled_out(lc, v))
            return COW_FAIL(e, COW_EUNIT,
                            "time column '%s' has no unit and starts at %.17g: "
                            "epoch microseconds, or a monotonic clock in "
                            "nanoseconds (%.1f days of uptime)? Name the unit "
                            "(%s_us for epoch microseconds; %s_ns with --t0 for "
                            "a monotonic clock) or pass --time-unit us|ns",
                            nm(lc->time_name), v, v / 1e9 / 86400, nm(lc->time_name),
                            nm(lc->time_name));
        lc->time_mult = mags[i];
        lc->time_epoch = 1;
        snprintf(lc->time_how, sizeof(lc->time_how),
                 "epoch %s (by magnitude)", names[i]);
    }
    if (!lc->time_epoch && !(lc->o && lc->o->has_t0))
        return COW_FAIL(e, COW_EUNIT,
                        "time column '%s' holds relative times (first %.17g): "
                        "give the wall-clock start with --t0 EPOCH or run.json "
                        "\"t0\"",
                        nm(lc->time_name), v);
    lc->time_decided = 1;
    return COW_OK;
}

/* Requirement 4: checks on every stamp. */
static int check_clock(latcols *lc, int64_t t, cow_err *e)
{
    if (t < (int64_t)COW_EPOCH_MIN_S * COW_US_PER_S ||
        t >= (int64_t)COW_EPOCH_MAX_S * COW_US_PER_S)
        return COW_FAIL(e, COW_ECLOCK,
                        "time stamp outside 1990..2100 after conversion (%lld "
                        "us): the clock or unit changed mid-file, or a "
                        "monotonic clock was mixed with a wall clock",
                        (long long)t);
    if (lc->last_us != 0 && t < lc->last_us - LATCOLS_STEP_NOTE_US) {
        lc->nback++;
        if (lc->last_us - t > lc->worst_back_us)
            lc->worst_back_us = lc->last_us - t;
    }
    if (lc->max_us != 0 && t < lc->max_us - LATCOLS_BACKWARDS_TOL_US)
        return COW_FAIL(e, COW_ECLOCK,
                        "time runs backwards by %.3f s (more than %lld s "
                        "tolerated): two captures concatenated, or a clock "
                        "step; split the file or fix the clock",
                        (double)(lc->max_us - t) / 1e6,
                        (long long)(LATCOLS_BACKWARDS_TOL_US / COW_US_PER_S));
    if (lc->first_us == 0 || t < lc->first_us)
        lc->first_us = t;
    if (t > lc->max_us)
        lc->max_us = t;
    lc->last_us = t;
    if (lc->max_us - lc->first_us > LATCOLS_MAX_SPAN_US)
        return COW_FAIL(e, COW_ECLOCK,
                        "capture spans more than %lld days: not one run; "
                        "check the time unit (--time-unit) or split the file",
                        (long long)(LATCOLS_MAX_SPAN_US / COW_US_PER_S / 86400));
    return COW_OK;
}

int latcols_time_num(latcols *lc, double v, int64_t *t_us, const char **why,
                     cow_err *e)
{
    int rc;
    double us;

    if (lc->time_iso) {
        *why = "time is not an ISO 8601 stamp like the rows before it";
        return COW_EPARSE;
    }
    if (!lc->time_decided && (rc = decide(lc, v, e)) != COW_OK)
        return rc;
    if (v < 0)
        return COW_FAIL(e, COW_ECLOCK,
                        "negative time stamp %.17g: a monotonic clock mixed "
                        "with a wall clock?", v);
    us = v * lc->time_mult;
    if (!lc->time_epoch)
        us += (double)lc->o->t0_us;
    if (!(us > -9e18 && us < 9e18)) /* llround of more is undefined */
        us = -1;
    *t_us = (int64_t)llround(us);
    return check_clock(lc, *t_us, e);
}

int latcols_parse_number(const char *p, size_t n, double *v)
{
    /* Requirement: fast for plain integers, strict for everything. */
    if (n > 0 && n <= 18) {
        size_t i;
        int64_t x = 0;
        for (i = 0; i < n; i++) {
            unsigned d = (unsigned)(p[i] - '0');
            if (d > 9)
                break;
            x = x * 10 + d;
        }
        if (i == n) {
            *v = (double)x;
            return 1;
        }
    }
    return num_parse_double(p, n, v);
}

int latcols_time(latcols *lc, const char *p, size_t n, int64_t *t_us,
                 const char **why, cow_err *e)
{
    double v;

    num_trim(&p, &n);
    if (n == 0) {
        *why = "empty time field";
        return COW_EPARSE;
    }
    if (!lc->time_decided || lc->time_iso) {
        int64_t us;
        if (n >= 19 && p[4] == '-' && time_parse_iso8601(p, n, &us)) {
            if (!lc->time_decided) {
                lc->time_decided = lc->time_iso = lc->time_epoch = 1;
                snprintf(lc->time_how, sizeof(lc->time_how), "ISO 8601 text");
            }
            *t_us = us;
            return check_clock(lc, us, e);
        }
        if (lc->time_iso) {
            *why = "time is not an ISO 8601 stamp like the rows before it";
            return COW_EPARSE;
        }
    }
    if (!latcols_parse_number(p, n, &v)) {
        *why = "time is not a number";
        return COW_EPARSE;
    }
    return latcols_time_num(lc, v, t_us, why, e);
}

int latcols_intended(latcols *lc, const char *p, size_t n, int64_t t_us,
                     double lat_us, int64_t *lag_us)
{
    double v, us, lag;

    num_trim(&p, &n);
    if (lc->time_iso || !lc->time_decided || n == 0 ||
        !latcols_parse_number(p, n, &v) || !isfinite(v)) {
        lc->int_bad++;
        return 0;
    }
    us = v * (lc->int_unit_us > 0 ? lc->int_unit_us : lc->time_mult);
    if (!lc->time_epoch)
        us += (double)lc->o->t0_us;
    lag = (double)t_us - us;
    if (lag < -1000.0 || lag > (double)LATCOLS_MAX_SPAN_US) {
        lc->int_ahead += lag < 0;
        lc->int_bad += lag > 0;
        return 0;
    }
    if (lag < 0)
        lag = 0; /* rounding of the two stamps */
    lc->int_n++;
    lc->int_lag_sum_us += lag;
    if (lag > lc->int_lag_max_us)
        lc->int_lag_max_us = lag;
    if (lag > 1000.0)
        lc->int_late++;
    {
        int b = lag < 1.0 ? 0 : 1 + (int)floor(LATCOLS_LAG_PER_OCTAVE * log2(lag));
        lc->int_lag_hist[b < LATCOLS_LAG_BINS ? b : LATCOLS_LAG_BINS - 1]++;
    }
    if (lag + lat_us > lc->int_colat_max_us)
        lc->int_colat_max_us = lag + lat_us;
    *lag_us = (int64_t)llround(lag);
    if (lc->o && lc->o->latency_from_intended)
        lc->int_moved++;
    return 1;
}

int latcols_latency_num(const latcols *lc, double v, double *lat_us,
                        const char **why)
{
    if (!isfinite(v)) {
        *why = "latency is not finite";
        return COW_EPARSE;
    }
    if (v < 0) {
        *why = "negative latency";
        return COW_EPARSE;
    }
    *lat_us = v * lc->lat_unit_us;
    if (*lat_us > COW_MAX_LATENCY_US) {
        *why = "latency over an hour: not a command's latency (wrong unit? "
               "a stuck probe?)";
        return COW_EPARSE;
    }
    return COW_OK;
}

int latcols_latency(const latcols *lc, const char *p, size_t n, double *lat_us,
                    const char **why)
{
    double v;

    num_trim(&p, &n);
    if (n == 0) {
        *why = "empty latency field";
        return COW_EPARSE;
    }
    if (!latcols_parse_number(p, n, &v)) {
        *why = (n >= 3 && (strncasecmp(p, "nan", 3) == 0 ||
                           strncasecmp(p, "inf", 3) == 0 ||
                           strncasecmp(p, "-inf", 4) == 0))
                   ? "latency is NaN or infinite"
                   : "latency is not a number";
        return COW_EPARSE;
    }
    return latcols_latency_num(lc, v, lat_us, why);
}

/* The p99 of the send lag from its histogram: the upper edge of the bin
 * that holds it (never above the largest lag seen). */
static double lag_p99(const latcols *lc)
{
    long long need = (long long)ceil(0.99 * (double)lc->int_n), seen = 0;
    int b;
    if (lc->int_n == 0)
        return 0.0;
    for (b = 0; b < LATCOLS_LAG_BINS; b++) {
        seen += lc->int_lag_hist[b];
        if (seen >= need) {
            double edge = b == 0 ? 1.0 : exp2((double)b / LATCOLS_LAG_PER_OCTAVE);
            return edge < lc->int_lag_max_us ? edge : lc->int_lag_max_us;
        }
    }
    return lc->int_lag_max_us;
}

/* sink_note of value (a heap string, consumed). */
static int note_own(cow_sink *k, const char *key, char *value, cow_err *e)
{
    int rc = sink_note(k, key, value, e);

    free(value);
    return rc;
}

int latcols_notes(const latcols *lc, cow_sink *k, cow_err *e)
{
    char buf[160];
    int rc;

    if ((rc = note_own(k, "time", xasprintf("'%s' (%s)", nm(lc->time_name), lc->time_how),
                       e)) != COW_OK)
        return rc;
    if ((rc = note_own(k, "latency", xasprintf("'%s' in %s (unit from %s)", nm(lc->lat_name),
             lc->lat_unit_us == 1e-3 ? "ns" : lc->lat_unit_us == 1.0 ? "us"
             : lc->lat_unit_us == 1e3 ? "ms" : "s", lc->lat_unit_from), e)) != COW_OK)
        return rc;
    if (lc->int_col >= 0) {
        char more[160] = "";
        if (lc->int_bad || lc->int_ahead)
            snprintf(more, sizeof(more), "; not used: %lld unreadable, %lld more than "
                     "1 ms after the actual send (another clock?)", lc->int_bad,
                     lc->int_ahead);
        /* app/probe.c reads this sentence back: keep its numbers' order */
        if ((rc = note_own(k, "intended send", xasprintf("'%s': %lld samples sent %.1f us "
                 "after their intended time on average, p99 %.1f us, at most %.1f us, %lld "
                 "more than 1 ms late; "
                 "latency from the intended send (no coordinated omission) at most "
                 "%.1f us%s%s", nm(lc->int_name), lc->int_n,
                 lc->int_n ? lc->int_lag_sum_us / (double)lc->int_n : 0.0,
                 lag_p99(lc), lc->int_lag_max_us, lc->int_late, lc->int_colat_max_us, more,
                 lc->int_moved ? "; samples placed at their intended send and "
                 "their latency read from it (--latency-from intended)" : ""), e)) != COW_OK)
            return rc;
    }
    if (lc->nback == 0)
        return rc;
    snprintf(buf, sizeof(buf), "went back by more than %lld s %lld times "
             "(largest %.3f s): a clock stepped or rows out of order",
             (long long)(LATCOLS_STEP_NOTE_US / COW_US_PER_S), lc->nback,
             (double)lc->worst_back_us / 1e6);
    return sink_note(k, "time steps", buf, e);
}

const char *opnames_intern(opnames *t, const char *p, size_t n)
{
    size_t i;
    /* compare lengths first: p may hold a NUL, and strncmp would stop
     * there and let names[i][n] read past a shorter stored name */
    for (i = 0; i < t->n; i++)
        if (strlen(t->names[i]) == n && memcmp(t->names[i], p, n) == 0)
            return t->names[i];
    if (memchr(p, '\0', n) != NULL)
        return NULL; /* not a name: no op is kept for the sample */
    if (t->n >= OPNAMES_MAX)
        return NULL;
    t->names = xgrow(t->names, sizeof(char *), t->n + 1, &t->cap);
    t->names[t->n] = xstrndup(p, n);
    return t->names[t->n++];
}

void opnames_release(opnames *t)
{
    size_t i;
    for (i = 0; i < t->n; i++)
        free(t->names[i]);
    free(t->names);
    memset(t, 0, sizeof(*t));
}
