/* redislog.c -- Redis / Valkey server log files ("redis-log").
 *
 * Exports one symbol, cow_parser_redis_log (declared in formats.h). It turns
 * a server log into COW_REC_EVENT records: one per line that marks a fork,
 * save, COW report, sync step, AOF rewrite step, forkless save step, kernel
 * warning or start/stop. Every other well-formed line is skipped (it is not
 * an error); lines without the log prefix (the ASCII-art logo, crash
 * reports, multi-line messages) are skipped and counted in a note.
 *
 * Line grammars accepted (reference/formats.md §1.1-1.4):
 *
 *   pid:R DD Mon YYYY HH:MM:SS.mmm L msg        Redis >= 5.0, Valkey (legacy)
 *   pid:R DD Mon HH:MM:SS.mmm L msg             Redis 3.x / 4.x (no year)
 *   [pid] DD Mon HH:MM:SS.mmm L msg             Redis <= 2.8
 *   pid:R YYYY-MM-DDTHH:MM:SS.mmm+hh:mm L msg   Valkey 8.1+ iso8601 stamps
 *   pid:R 1738587731532 L msg                   Valkey 8.1+ millisecond stamps
 *   pid=N role=R timestamp="T" level=V message="msg"   Valkey 8.1+ logfmt
 *                                               (T is any of the stamps above)
 *   pid:signal-handler (unix_seconds) msg       any version, from a signal handler
 *   Mon DD HH:MM:SS host redis[pid]: msg        syslog-enabled yes: the message
 *                                               alone, stamp and pid from syslog
 *
 * Time: legacy stamps are the server's local time with no zone. They are
 * shifted to UTC with o->tz_off_s (UTC, with a note, when no zone was
 * given). Iso8601 stamps with an offset, millisecond stamps and
 * signal-handler stamps carry their own zone. Stamps without a year take
 * o->log_year, or the year of the run's own time (run.json start_epoch_us
 * or t0: each line in the year nearest it), or the year of the file's
 * mtime, said to be a guess (see year_init), else the
 * file is refused with COW_EUNIT. A zone-qualified stamp that the line
 * source peeled off the line (`docker logs -t`, `kubectl logs --timestamps`,
 * `journalctl -o short-iso`; common/prefix.h) settles the zone (the
 * offset between it and the line's local stamp, to the quarter hour) and
 * the year; the line keeps its own millisecond stamp. A line whose stamp is impossible, or more
 * than RL_BACKSTEP_S before the previous line, is rejected.
 *
 * The line grammar is redislog_line.c's; the event kinds, and the messages
 * that make them, are listed in redislog_msg.c's table.
 *
 * Valkey 8 says PRIMARY/primary and Redis <= 4.0 said SLAVE/slave where
 * Redis 5-7 say MASTER/master and REPLICA/replica; messages are matched
 * after rewriting those words (normalize), so one table serves all. The
 * event text is always the message as written. */
#include "parser.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "limits.h"
#include "mem.h"
#include "num.h"
#include "prefix.h"
#include "text.h"
#include "timeconv.h"
#include "formats.h"
#include "redislog_int.h"

/* Logs are written in order, parent and children appending to one file,
 * so stamps only go back when the clock is stepped or two logs were
 * concatenated. A little slack covers NTP slews and the whole-second
 * signal-handler stamps. */
#define RL_BACKSTEP_S 60
/* Processes told apart in one log (servers and their children). */
/* Sniffing looks at this many lines of the head at most. */
#define RL_SNIFF_LINES 64

/* ===================================================== parse state ====== */

struct rl_state;
static void proc_seen(struct rl_state *st, long pid, char role);

typedef struct rl_state {
    const cow_parse_opts *o;  /* user/run.json settings */
    cow_sink *k;              /* where records go */
    const char *name;         /* file name for errors */
    int64_t prev_us;          /* stamp of the last accepted ordered line */
    long prev_line;           /* its line number */
    bool has_prev;            /* prev_us is set */
    bool tz_noted;            /* the log_tz note was emitted */
    struct rl_proc {          /* processes that wrote lines (growable) */
        long pid;
        char roles[5];        /* role letters seen: M, S, C, X */
        long parent;          /* for a child: the pid that forked it */
        long port;            /* "Running mode=..., port=N" */
        long line;            /* its first line */
        bool replica;         /* logged replica-side lines */
        bool server;          /* logged a startup line */
        char version[64];     /* from the startup line */
    } *procs;
    int nprocs;
    size_t capprocs;
    int *pid_slot;            /* open-addressing table: index+1 into procs, 0 free */
    size_t npid_slot;         /* its size (a power of two, at most half full) */
    bool tzcheck_noted;       /* the log_tz_check note was emitted */
    int64_t prefix_off;       /* zone (s east) settled by prefix stamps */
    bool sig_pending;         /* a signal-handler line awaits its next line */
    int64_t sig_utc_us;       /* its UTC stamp */
    long sig_line, sig_pid;   /* its line and pid */
    int64_t sig_prev_us;      /* the local stamp before it */
    long sig_prev_line;       /* and its line */
    int year_src;             /* 0 unknown yet, 1 given, 2 from mtime, 3 from
                                 the run's own time (run.json, --t0) */
    int year;                 /* given: current year; mtime / run: its year */
    int year_mon;             /* given: last month seen; mtime / run: its month */
    int year_day;             /* given: last day of that month seen */
    long nlog;                /* well-formed log lines */
    long nraw;                /* lines without the log prefix (skipped) */
    long nbin;                /* of which not text (NUL, invalid UTF-8) */
    long first_bin;           /* line of the first of them */
    long nrej;                /* rejected lines */
    long nevents;             /* events emitted */
    long first_rej_line;      /* line of the first reject */
    char first_rej[160];      /* its reason */
    int seen;                 /* enum rl_layout | enum rl_stamp_kind bits */
    char why[200];            /* reason buffer for formatted rejects */
    char *text;               /* NUL-terminated copy of the message */
    size_t captext;           /* its capacity */
    char *norm;               /* the message with words normalized */
    size_t capnorm;           /* its capacity */
} rl_state;

static size_t pid_hash(long pid, size_t size)
{
    return ((unsigned long)pid * 2654435761UL) & (size - 1);
}

/* The slot of pid in the table (its entry, or the free slot where it goes). */
static size_t pid_slot_of(const rl_state *st, long pid)
{
    size_t h = pid_hash(pid, st->npid_slot);
    while (st->pid_slot[h] != 0 && st->procs[st->pid_slot[h] - 1].pid != pid)
        h = (h + 1) & (st->npid_slot - 1);
    return h;
}

/* The process's entry, added when new: a day of "save 60" forks 1,440
 * children, each writes lines, and a replica started after them must
 * still be found (a table of 64 lost it). */
static int proc_find(rl_state *st, long pid)
{
    size_t h, i;

    if (st->npid_slot == 0 || (size_t)st->nprocs * 2 >= st->npid_slot) {
        size_t size = st->npid_slot ? st->npid_slot * 2 : 64;
        free(st->pid_slot);
        st->pid_slot = xcalloc(size, sizeof(*st->pid_slot));
        st->npid_slot = size;
        for (i = 0; i < (size_t)st->nprocs; i++)
            st->pid_slot[pid_slot_of(st, st->procs[i].pid)] = (int)i + 1;
    }
    h = pid_slot_of(st, pid);
    if (st->pid_slot[h] != 0)
        return st->pid_slot[h] - 1;
    st->procs = xgrow(st->procs, sizeof(*st->procs), (size_t)st->nprocs + 1, &st->capprocs);
    memset(&st->procs[st->nprocs], 0, sizeof(st->procs[0]));
    st->procs[st->nprocs].pid = pid;
    st->pid_slot[h] = st->nprocs + 1;
    return st->nprocs++;
}

/* What a line of pid says about who the process is: its port (the
 * startup banner's "Running mode=standalone, port=N."), a replica's
 * replication lines, a startup line, the line the process first wrote. */
static void proc_line(rl_state *st, long pid, long line, const char *msg, size_t n)
{
    static const char *const replica_lines[] = {
        "MASTER <-> REPLICA sync", "MASTER <-> SLAVE sync", "PRIMARY <-> REPLICA sync",
        "Connecting to MASTER", "Connecting to PRIMARY", "Before turning into a replica",
        "MASTER <-> REPLICA", NULL};
    char buf[200];
    const char *p;
    size_t i;
    int k;

    if (pid <= 0 || (k = proc_find(st, pid)) < 0)
        return;
    if (st->procs[k].line == 0)
        st->procs[k].line = line;
    n = n < sizeof(buf) - 1 ? n : sizeof(buf) - 1;
    memcpy(buf, msg, n);
    buf[n] = '\0';
    if (strstr(buf, "Running mode=") && (p = strstr(buf, "port=")) != NULL) {
        long v = strtol(p + 5, NULL, 10);
        if (v > 0 && v < 65536)
            st->procs[k].port = v;
    }
    if (strstr(buf, "just started") || strstr(buf, "Server started, Redis version"))
        st->procs[k].server = true;
    for (i = 0; replica_lines[i]; i++)
        if (strstr(buf, replica_lines[i]))
            st->procs[k].replica = true;
}

/* One COW_REC_PROC per process that wrote lines (at the end of the log). */
static int procs_emit(rl_state *st, cow_err *e)
{
    cow_rec r;
    int i, rc;

    for (i = 0; i < st->nprocs; i++) {
        /* a child only named ("saving started by pid N") that wrote no
         * line of its own has nothing to attribute: 160,000 of them made
         * as many processes for the analysis to place */
        if (st->procs[i].line == 0)
            continue;
        memset(&r, 0, sizeof(r));
        r.kind = COW_REC_PROC;
        r.u.proc.pid = st->procs[i].pid;
        r.u.proc.roles = st->procs[i].roles;
        r.u.proc.parent = st->procs[i].parent;
        r.u.proc.replica = st->procs[i].replica;
        r.u.proc.server = st->procs[i].server;
        r.u.proc.port = st->procs[i].port;
        r.u.proc.version = st->procs[i].version[0] ? st->procs[i].version : NULL;
        r.u.proc.line = st->procs[i].line;
        if ((rc = sink_emit(st->k, &r, e)) != COW_OK)
            return rc;
    }
    return COW_OK;
}

static void proc_seen(rl_state *st, long pid, char role)
{
    int i;
    if (pid <= 0 || (i = proc_find(st, pid)) < 0 || role == 0 ||
        strchr(st->procs[i].roles, role) != NULL)
        return;
    if (strlen(st->procs[i].roles) < sizeof(st->procs[i].roles) - 1)
        strncat(st->procs[i].roles, &role, 1);
}

/* "Background saving started by pid N": N is a child of the line's pid. */
static void proc_child(rl_state *st, long parent, double child)
{
    int i;
    if (child > 0 && child < 1e9 && (i = proc_find(st, (long)child)) >= 0)
        st->procs[i].parent = parent;
}

/* A log two servers wrote into (a primary and a replica sharing a file):
 * which pid is which, and which children each forked. The events keep
 * their pid; the analysis takes windows from the primary's. */
static int procs_note(rl_state *st, cow_err *e)
{
    char buf[600];
    size_t o = 0;
    int i, j, servers = 0;

    for (i = 0; i < st->nprocs; i++)
        servers += st->procs[i].parent == 0 &&
                   (strchr(st->procs[i].roles, 'M') || strchr(st->procs[i].roles, 'S'));
    if (servers < 2)
        return COW_OK;
    o += (size_t)snprintf(buf, sizeof(buf), "%d server processes wrote this log "
                          "(lines split per pid; windows from the primary's):", servers);
    for (i = 0; i < st->nprocs && o < sizeof(buf); i++) {
        const char *r = st->procs[i].roles;
        if (st->procs[i].parent != 0 || !(strchr(r, 'M') || strchr(r, 'S')))
            continue;
        o += (size_t)snprintf(buf + o, sizeof(buf) - o, " pid %ld (%s)",
                              st->procs[i].pid, strchr(r, 'S') ? "replica" : "primary");
        for (j = 0; j < st->nprocs && o < sizeof(buf); j++)
            if (st->procs[j].parent == st->procs[i].pid)
                o += (size_t)snprintf(buf + o, sizeof(buf) - o, ", child %ld",
                                      st->procs[j].pid);
        if (o < sizeof(buf))
            o += (size_t)snprintf(buf + o, sizeof(buf) - o, ";");
    }
    if (o > 0 && o < sizeof(buf) && buf[o - 1] == ';')
        buf[o - 1] = '\0';
    return sink_note(st->k, "servers", buf, e);
}

static int reject(rl_state *st, const cow_line *ln, const char *why, cow_err *e)
{
    size_t n = strlen(why);

    if (st->nrej++ == 0) {   /* kept for the refusal message, cut to fit */
        st->first_rej_line = ln->no;
        n = n < sizeof(st->first_rej) ? n : sizeof(st->first_rej) - 1;
        memcpy(st->first_rej, why, n);
        st->first_rej[n] = '\0';
    }
    return sink_reject(st->k, ln->no, why, ln->p, ln->n, e);
}

/* ===================================================== time ============= */

static void civil_of_us(int64_t us, int *y, int *mon)
{
    char iso[40];
    time_format_iso(us, iso, sizeof(iso));
    *y = atoi(iso);          /* "YYYY-MM-..." written by us: safe */
    *mon = atoi(iso + 5);
}

/* Settle where the year of year-less stamps comes from (once): given,
 * else the run's own time, else the mtime. From the
 * mtime, a line dated after the mtime's month must be from the year before
 * (the file was last written after it); a log spanning more than a year
 * cannot be placed this way and then needs --log-year. */
static int year_init(rl_state *st, long line, int mon, cow_err *e)
{
    char note[200], iso[40];
    int64_t local;

    if (st->o->log_year > 0) {
        st->year_src = 1;
        st->year = st->o->log_year;
        st->year_mon = mon;
        snprintf(note, sizeof(note), "%d for the first dated line (given); "
                 "later lines roll over to the next year after December",
                 st->year);
        return sink_note(st->k, "log_year", note, e);
    }
    if (st->o->run_time_us > 0) {
        local = st->o->run_time_us +
                (st->o->has_tz ? (int64_t)st->o->tz_off_s * COW_US_PER_S : 0);
        civil_of_us(local, &st->year, &st->year_mon);
        st->year_src = 3;
        time_format_iso(st->o->run_time_us, iso, sizeof(iso));
        snprintf(note, sizeof(note), "%d from the run's own time (%s, %s): each "
                 "line in the year that puts it nearest", st->year,
                 st->o->run_time_src ? st->o->run_time_src : "run.json", iso);
        return sink_note(st->k, "log_year", note, e);
    }
    if (st->o->mtime_us > 0) {
        local = st->o->mtime_us +
                (st->o->has_tz ? (int64_t)st->o->tz_off_s * COW_US_PER_S : 0);
        civil_of_us(local, &st->year, &st->year_mon);
        st->year_src = 2;
        time_format_iso(st->o->mtime_us, iso, sizeof(iso));
        snprintf(note, sizeof(note), "%d from the file's modification time "
                 "(%s); lines dated after month %d taken as %d",
                 st->year, iso, st->year_mon, st->year - 1);
        return sink_note(st->k, "log_year", note, e);
    }
    COW_FAIL(e, COW_EUNIT, "log lines carry no year (Redis <= 4.0 format) and "
             "the file's date is unknown: give the year of the first line with "
             "--log-year or the run.json key \"log_year\"");
    cow_err_at(e, st->name, line, 0);
    return COW_EUNIT;
}

static int year_of(rl_state *st, int mon, int day)
{
    int back;
    if (st->year_src == 2)
        return mon > st->year_mon ? st->year - 1 : st->year;
    if (st->year_src == 3) /* nearest the run's month: Dec lines of a January run
                              are the year before, Jan lines of a December one
                              the year after */
        return mon - st->year_mon > 6 ? st->year - 1
               : st->year_mon - mon > 6 ? st->year + 1 : st->year;
    /* given year: the next year when the date steps back by more than a
     * week (31 Dec -> 1 Jan, or Nov -> Jan across a quiet December); a
     * line a little out of order (31 Jan after 1 Feb) keeps the year */
    back = ((st->year_mon - mon) * 31 + (st->year_day - day));
    if (st->year_day > 0 && back > 7) {
        st->year++;
        st->year_mon = mon;
        st->year_day = day;
    } else if (back < 0 || st->year_day == 0) {
        st->year_mon = mon;
        st->year_day = day;
    }
    return st->year;
}

static int tz_note(rl_state *st, cow_err *e)
{
    char note[120];
    int off = st->o->tz_off_s, a = off < 0 ? -off : off;

    st->tz_noted = true;
    if (!st->o->has_tz)
        return sink_note(st->k, "log_tz",
                         "UTC assumed (no --log-tz / run.json log_tz)", e);
    snprintf(note, sizeof(note), "local time taken as UTC%c%02d:%02d (given)",
             off < 0 ? '-' : '+', a / 3600, a / 60 % 60);
    return sink_note(st->k, "log_tz", note, e);
}

/* A local stamp on a line whose prefix carried a zoned stamp (docker logs
 * -t, journalctl -o short-iso): the prefix settles the zone (the offset
 * between the two, to the quarter hour zones come in) and the year, and the
 * line keeps its own millisecond stamp. Noted once per zone. */
static int stamp_from_prefix(rl_state *st, const cow_line *ln, rl_stamp *ts,
                             int64_t *t, const char **why, cow_err *e)
{
    int64_t local, off;
    int y = ts->y, mon, a;
    char note[200];

    if (ts->kind == STAMP_NOYEAR) {
        civil_of_us(ln->pre.t_us, &y, &mon);
        if (ts->mon == 12 && mon == 1)
            y--;
        else if (ts->mon == 1 && mon == 12)
            y++;
        if (ts->d > time_month_days(y, ts->mon)) {
            *why = "29 Feb does not exist in the year of the line's prefix stamp";
            return COW_OK;
        }
    }
    local = time_us_from_civil(y, ts->mon, ts->d, ts->h, ts->mi, ts->s,
                               ts->ms * 1000);
    off = (local - ln->pre.t_us) / COW_US_PER_S;
    off = (off >= 0 ? off + 450 : off - 450) / 900 * 900;
    *t = local - off * COW_US_PER_S;
    if (*t < COW_EPOCH_MIN_S * COW_US_PER_S || *t > COW_EPOCH_MAX_S * COW_US_PER_S) {
        *why = "time stamp outside 1990..2100";
        return COW_OK;
    }
    if (st->tz_noted && st->prefix_off == off)
        return COW_OK;
    st->tz_noted = true;
    st->prefix_off = off;
    a = (int)(off < 0 ? -off : off);
    snprintf(note, sizeof(note), "local time is UTC%c%02d:%02d from line %ld "
             "on, settled by the zoned stamps of the line prefixes%s",
             off < 0 ? '-' : '+', a / 3600, a / 60 % 60, ln->no,
             st->o->has_tz ? " (the zone given is not used)" : "");
    return sink_note(st->k, "log_tz", note, e);
}

/* UTC epoch us of a line's stamp in *t; *why set (and COW_OK returned)
 * when the line must be rejected. */
static int stamp_utc(rl_state *st, const cow_line *ln, rl_stamp *ts,
                     int64_t *t, const char **why, cow_err *e)
{
    int rc;

    *why = NULL;
    if (ln->pre.has_t && (ts->kind == STAMP_CIVIL || ts->kind == STAMP_NOYEAR))
        return stamp_from_prefix(st, ln, ts, t, why, e);
    if (ts->kind == STAMP_ISO || ts->kind == STAMP_MS || ts->kind == STAMP_SECS) {
        *t = ts->abs_us;
        if (*t < COW_EPOCH_MIN_S * COW_US_PER_S || *t > COW_EPOCH_MAX_S * COW_US_PER_S)
            *why = "time stamp outside 1990..2100";
        return COW_OK;
    }
    if (ts->kind == STAMP_NOYEAR) {
        if (st->year_src == 0 && (rc = year_init(st, ln->no, ts->mon, e)) != COW_OK)
            return rc;
        ts->y = year_of(st, ts->mon, ts->d);
        if (ts->d > time_month_days(ts->y, ts->mon)) {
            snprintf(st->why, sizeof(st->why), "29 Feb does not exist in %d "
                     "(the year this line was given)", ts->y);
            *why = st->why;
            return COW_OK;
        }
    }
    if (!st->tz_noted && (rc = tz_note(st, e)) != COW_OK)
        return rc;
    *t = time_us_from_civil(ts->y, ts->mon, ts->d, ts->h, ts->mi, ts->s,
                            ts->ms * 1000) -
         (int64_t)(st->o->has_tz ? st->o->tz_off_s : 0) * COW_US_PER_S;
    if (*t < COW_EPOCH_MIN_S * COW_US_PER_S || *t > COW_EPOCH_MAX_S * COW_US_PER_S)
        *why = "time stamp outside 1990..2100";
    return COW_OK;
}

/* Signal-handler stamps are UTC seconds while the other lines are local
 * time: they are kept out of the ordering check. Without a zone given, a
 * signal-handler line between two local lines names the log's offset: the
 * one offset on the zone grid (15 min) that puts the UTC stamp between
 * its neighbours. Each such line becomes a "utc_stamp" event (also so
 * that its UTC events are not shifted when the zone is settled later)
 * whose value is that offset in seconds, or NaN when the neighbours do
 * not settle it; settled when the next local line is read. */
static int utc_stamp_emit(rl_state *st, int64_t next_us, long next_line, cow_err *e)
{
    cow_rec r;
    char text[200];
    long lo, hi, off, found = 0, n = 0;

    if (!st->sig_pending)
        return COW_OK;
    st->sig_pending = false;
    /* local = utc + off; utc stamp truncated to the second */
    lo = (long)((st->sig_prev_us - st->sig_utc_us) / COW_US_PER_S) - 2;
    hi = next_line ? (long)((next_us - st->sig_utc_us) / COW_US_PER_S) + 1
                   : lo + 2 * 14 * 3600; /* no next line: unbounded above */
    for (off = -14 * 3600; off <= 14 * 3600; off += 900)
        if (off >= lo && off <= hi) {
            found = off;
            n++;
        }
    if (st->o->has_tz) {
        /* stamps were shifted by the zone given: the one found is what
         * the given zone is off by */
        long guess = st->o->tz_off_s + found, a = guess < 0 ? -guess : guess;
        if (n != 1 || !next_line || found == 0 || st->tzcheck_noted)
            return COW_OK;
        st->tzcheck_noted = true;
        snprintf(text, sizeof(text), "line %ld: the signal-handler stamp (UTC) "
                 "falls between lines %ld and %ld only if the log's local time "
                 "is UTC%c%02ld:%02ld, not the zone given; check --log-tz",
                 st->sig_line, st->sig_prev_line, next_line, guess < 0 ? '-' : '+',
                 a / 3600, a / 60 % 60);
        return sink_note(st->k, "log_tz_check", text, e);
    }
    if (next_line)
        snprintf(text, sizeof(text), "signal-handler stamp of line %ld between "
                 "the local stamps of lines %ld and %ld", st->sig_line,
                 st->sig_prev_line, next_line);
    else
        snprintf(text, sizeof(text), "signal-handler stamp of line %ld after "
                 "the local stamp of line %ld", st->sig_line, st->sig_prev_line);
    memset(&r, 0, sizeof(r));
    r.kind = COW_REC_EVENT;
    r.u.event.t_us = st->sig_utc_us;
    r.u.event.kind = "utc_stamp";
    r.u.event.pid = st->sig_pid;
    r.u.event.value = n == 1 && next_line ? (double)found : NAN;
    r.u.event.unit = "s";
    r.u.event.text = text;
    r.u.event.line = st->sig_line;
    st->nevents++;
    return sink_emit(st->k, &r, e);
}

static int signal_seen(rl_state *st, const rl_line *l, const cow_line *ln,
                       int64_t t, cow_err *e)
{
    int rc;
    if (!st->has_prev)
        return COW_OK;
    if ((rc = utc_stamp_emit(st, 0, 0, e)) != COW_OK)
        return rc;
    st->sig_pending = true;
    st->sig_utc_us = t;
    st->sig_line = ln->no;
    st->sig_pid = l->pid;
    st->sig_prev_us = st->prev_us;
    st->sig_prev_line = st->prev_line;
    return COW_OK;
}

/* Word spellings of other generations and their Redis 5-7 equivalent. */
static const char *const spell[][2] = {
    {"PRIMARY", "MASTER"}, {"primary", "master"}, {"SLAVE", "REPLICA"},
    {"Slave", "Replica"},  {"slave", "replica"},
};

/* st->norm = message with spell[] rewritten; st->text = message as is. */
static void normalize(rl_state *st, const char *m, size_t n)
{
    size_t i = 0, o = 0, w, nw;

    st->text = xgrow(st->text, 1, n + 1, &st->captext);
    memcpy(st->text, m, n);
    st->text[n] = '\0';
    st->norm = xgrow(st->norm, 1, 2 * n + 1, &st->capnorm);
    while (i < n) {
        for (w = 0; w < sizeof(spell) / sizeof(spell[0]); w++) {
            nw = strlen(spell[w][0]);
            if (n - i >= nw && memcmp(m + i, spell[w][0], nw) == 0)
                break;
        }
        if (w < sizeof(spell) / sizeof(spell[0])) {
            memcpy(st->norm + o, spell[w][1], strlen(spell[w][1]));
            o += strlen(spell[w][1]);
            i += strlen(spell[w][0]);
        } else {
            st->norm[o++] = m[i++];
        }
    }
    st->norm[o] = '\0';
}

static int emit_event(rl_state *st, const rl_line *l, const cow_line *ln,
                      int64_t t, const char *kind, double v, const char *unit,
                      const char *text, cow_err *e)
{
    cow_rec r;

    r.kind = COW_REC_EVENT;
    r.u.event.t_us = t;
    r.u.event.kind = kind;
    r.u.event.pid = l->pid;
    r.u.event.value = v;
    r.u.event.unit = unit;
    r.u.event.text = text;
    r.u.event.line = ln->no;
    st->nevents++;
    return sink_emit(st->k, &r, e);
}

/* "version=7.0.15," or "Redis version 2.8.19": the version token. */
static int emit_version(rl_state *st, const rl_line *l, const cow_line *ln,
                        int64_t t, cow_err *e)
{
    const char *p = strstr(st->text, "version");
    char ver[64];
    size_t n = 0;
    int k;

    if (p == NULL)
        return COW_OK;
    p += 7;
    if (*p == '=' || *p == ' ')
        p++;
    while (p[n] != '\0' && p[n] != ',' && p[n] != ' ' && n + 1 < sizeof(ver))
        n++;
    if (n == 0)
        return COW_OK;
    memcpy(ver, p, n);
    ver[n] = '\0';
    if (l->pid > 0 && (k = proc_find(st, l->pid)) >= 0)
        snprintf(st->procs[k].version, sizeof(st->procs[k].version), "%s", ver);
    return emit_event(st, l, ln, t, "version", NAN, NULL, ver, e);
}

/* Match the message against rules[]; emit, reject or skip. */
static int line_events(rl_state *st, const rl_line *l, const cow_line *ln,
                       int64_t t, cow_err *e)
{
    const rl_rule *r;
    const char *unit, *kind;
    double v;
    int rc;

    normalize(st, l->msg, l->nmsg);
    if ((r = rl_rule_find(st->norm)) == NULL)
        return COW_OK;
    if (!rl_rule_value(r, st->norm, &v, &unit)) {
        snprintf(st->why, sizeof(st->why), "'%s' line without the number it "
                 "should carry (cut short or an unknown variant)", r->kind);
        return reject(st, ln, st->why, e);
    }
    if (unit != NULL && strcmp(unit, "MB") == 0 &&
        v * 1024.0 * 1024.0 > COW_MAX_MEM_BYTES) {
        snprintf(st->why, sizeof(st->why), "'%s' line with %.17g MB: memory "
                 "beyond 2^50 bytes (1 PiB) is not a real host", r->kind, v);
        return reject(st, ln, st->why, e);
    }
    kind = l->level == '-' && r->kind_verbose ? r->kind_verbose : r->kind;
    if (r->unit && strcmp(r->unit, "pid") == 0)
        proc_child(st, l->pid, v);
    if ((rc = emit_event(st, l, ln, t, kind, v, unit, st->text, e)) != COW_OK)
        return rc;
    return r->val == V_VERSION ? emit_version(st, l, ln, t, e) : COW_OK;
}

/* ===================================================== driver =========== */

/* One log line with the prefix: time, order, events. */
static int line_take(rl_state *st, rl_line *l, const cow_line *ln, cow_err *e)
{
    const char *why;
    int64_t t;
    int rc;

    if ((rc = stamp_utc(st, ln, &l->ts, &t, &why, e)) != COW_OK)
        return rc;
    if (why != NULL)
        return reject(st, ln, why, e);
    if (l->layout == LAYOUT_SIGNAL) {
        if ((rc = signal_seen(st, l, ln, t, e)) != COW_OK)
            return rc;
    } else if (st->has_prev && t < st->prev_us - RL_BACKSTEP_S * COW_US_PER_S) {
        snprintf(st->why, sizeof(st->why), "time stamp is %.0f s before line "
                 "%ld: the clock was stepped or two logs were concatenated "
                 "(split the file)",
                 (double)(st->prev_us - t) / 1e6, st->prev_line);
        return reject(st, ln, st->why, e);
    } else {
        if ((rc = utc_stamp_emit(st, t, ln->no, e)) != COW_OK)
            return rc;
        st->prev_us = t;
        st->prev_line = ln->no;
        st->has_prev = true;
    }
    return line_events(st, l, ln, t, e);
}

static int line_one(rl_state *st, const cow_line *ln, cow_err *e)
{
    rl_line l;
    const char *why;

    switch (rl_line_parse(ln->p, ln->n, &l, &why)) {
    case LN_RAW:
        if (rl_syslog_line(ln, &l))
            break;
        st->nraw += ln->n > 0;
        if (memchr(ln->p, '\0', ln->n) || !text_is_utf8(ln->p, ln->n)) {
            if (st->nbin++ == 0)
                st->first_bin = ln->no;
        }
        return COW_OK;
    case LN_BAD:
        if (ln->eol)
            return reject(st, ln, why, e);
        snprintf(st->why, sizeof(st->why), "the last line has no line end: "
                 "the write was cut short (%s)", why);
        return reject(st, ln, st->why, e);
    case LN_OK:
        break;
    }
    st->nlog++;
    st->seen |= l.layout | l.ts.kind;
    proc_seen(st, l.pid, l.role);
    proc_line(st, l.pid, ln->no, l.msg, l.nmsg);
    if (!ln->eol)
        return reject(st, ln, "the last line has no line end: the write was "
                      "cut short, so the line is not used", e);
    return line_take(st, &l, ln, e);
}

static int notes_final(rl_state *st, cow_err *e)
{
    static const struct { int bit; const char *what; } names[] = {
        {LAYOUT_LEGACY, "pid:role"}, {LAYOUT_V2, "[pid] (Redis <= 2.8)"},
        {LAYOUT_LOGFMT, "logfmt"}, {LAYOUT_SIGNAL, "signal-handler"},
        {LAYOUT_SYSLOG, "syslog messages (stamp and pid from the syslog prefix)"},
        {STAMP_CIVIL, "DD Mon YYYY local"}, {STAMP_NOYEAR, "DD Mon local, no year"},
        {STAMP_ISO, "iso8601"}, {STAMP_MS, "epoch ms"}, {STAMP_SECS, "epoch s"},
    };
    char buf[300];
    size_t i, o = 0;
    int rc;

    buf[0] = '\0';
    for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (st->seen & names[i].bit)
            o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%s",
                                  o ? ", " : "", names[i].what);
    if ((rc = sink_note(st->k, "log_format", buf, e)) != COW_OK)
        return rc;
    /* every stamp carried its own zone (iso8601 with an offset, epoch
     * stamps): the log needs no zone, and no "UTC assumed" is true of it */
    if (!st->tz_noted && (st->seen & (STAMP_ISO | STAMP_MS | STAMP_SECS)) &&
        !(st->seen & (STAMP_CIVIL | STAMP_NOYEAR)) &&
        (rc = sink_note(st->k, "log_tz", "none needed: settled by the zoned stamps of "
                        "its lines (iso8601 with an offset, or epoch stamps)", e)) != COW_OK)
        return rc;
    if (st->nraw == 0)
        return COW_OK;
    snprintf(buf, sizeof(buf), "%ld lines without the log prefix skipped "
             "(startup logo, crash report, multi-line message)", st->nraw);
    return sink_note(st->k, "raw_lines", buf, e);
}

/* Whole-file verdicts once every line was read. */
static int file_verdict(rl_state *st, cow_err *e)
{
    if (st->nlog == 0) {
        COW_FAIL(e, COW_EPARSE, "not a Redis/Valkey log: line 1 %s", st->nrej
                 ? "and every later line lack a usable log prefix"
                 : "does not start like '4711:M 03 Feb 2025 14:02:11.532 * "
                   "...' (nor does any later line)");
        cow_err_at(e, st->name, 1, 0);
        return COW_EPARSE;
    }
    if (parser_too_many_rejects(st->nlog, st->nbin)) {
        COW_FAIL(e, COW_EPARSE, "binary data from line %ld on (%ld lines that "
                 "are not text, %ld log lines): not a server log; the file is "
                 "refused whole", st->first_bin, st->nbin, st->nlog);
        cow_err_at(e, st->name, st->first_bin, 0);
        return COW_EPARSE;
    }
    if (parser_too_many_rejects(st->nlog, st->nrej)) {
        COW_FAIL(e, COW_EPARSE, "%ld of %ld log lines rejected, first at "
                 "line %ld: %s; the file is refused whole", st->nrej,
                 st->nlog + st->nrej, st->first_rej_line, st->first_rej);
        cow_err_at(e, st->name, st->first_rej_line, 0);
        return COW_EPARSE;
    }
    return notes_final(st, e);
}

static int rl_parse(cow_src *s, const cow_parse_opts *o, cow_sink *k, cow_err *e)
{
    rl_state st;
    cow_line ln;
    int rc;

    memset(&st, 0, sizeof(st));
    st.o = o;
    st.k = k;
    st.name = s->name;
    while ((rc = src_next_line(s, &ln, e)) == 1)
        if ((rc = line_one(&st, &ln, e)) != COW_OK)
            break;
    if (rc == 0)
        rc = utc_stamp_emit(&st, 0, 0, e);
    if (rc == 0)
        rc = procs_note(&st, e);
    if (rc == 0)
        rc = procs_emit(&st, e);
    if (rc == 0)
        rc = file_verdict(&st, e);
    else if (rc < 0)
        rc = e->code ? e->code : COW_EIO;
    free(st.text);
    free(st.norm);
    free(st.procs);
    free(st.pid_slot);
    return rc;
}

/* ===================================================== sniff ============ */

/* Sees the head as written (parser_detect passes it unpeeled): the prefix
 * tells a syslog line of the server from one of another program. */
static int rl_sniff(const char *fname, const char *head, size_t n)
{
    size_t at = 0, end, len, skip, server = 0;
    int lines = 0;
    cow_prefix pf;
    rl_line l;
    const char *why;

    while (at < n && lines++ < RL_SNIFF_LINES) {
        for (end = at; end < n && head[end] != '\n'; end++)
            ;
        if (end == n)   /* a line cut by the sniff window proves nothing */
            break;
        len = end - at;
        if (len > 0 && head[at + len - 1] == '\r')
            len--;
        skip = prefix_peel(head + at, len, &pf);
        if (rl_line_parse(head + at + skip, len - skip, &l, &why) == LN_OK)
            return 95;
        /* syslog-enabled yes: the server's messages alone after syslog's prefix */
        server += skip > 0 && pf.ident_server && (pf.has_t || pf.mon > 0);
        at = end + 1;
    }
    if (server >= 2)
        return 90;
    /* Content first: a name alone only lets the user hear why it failed. */
    if (fname != NULL && strstr(fname, ".log") != NULL &&
        (strstr(fname, "redis") != NULL || strstr(fname, "valkey") != NULL))
        return 10;
    return 0;
}

const cow_parser cow_parser_redis_log = {
    "redis-log",
    "Redis/Valkey server log: fork, BGSAVE, CoW, sync, AOF rewrite events",
    rl_sniff,
    rl_parse,
};
