/* diag_rules_cmd.c -- the doctor's rule on the server's own per-command
 * latency (LATENCY HISTOGRAM, cmdhist.h): commands that ran slower than
 * 10 ms stop every client as long as a fork does. Listed in
 * diag_rules.c's table. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag_rules_int.h"
#include "strbuf.h"

/* "268.4 ms" or "1.07 s" */
static void dur(char *b, size_t n, double us)
{
    if (us >= 1e6)
        snprintf(b, n, "%.2f s", us / 1e6);
    else
        snprintf(b, n, "%.1f ms", us / 1000);
}

int rule_slow_command(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    const cow_cmdhist *h = &r[i].cmdhist;
    char top[32], over[32], src[240];
    size_t k;
    (void)n;
    if (!h->known || h->n == 0)
        return 0;
    dur(top, sizeof(top), h->v[0].top_us);
    dur(over, sizeof(over), h->v[0].over_us);
    diag_title(f, "%s took over %s on the server itself %s (%.0f of %.0f calls, up to %s)%s%s",
               h->v[0].cmd, over, h->during ? "during the run" : "since its counters were reset",
               h->v[0].over_n, h->v[0].calls, top, h->n > 1 ? "; also " : "",
               h->n > 1 ? h->v[1].cmd : "");
    for (k = 0; k < h->n; k++) {
        const cow_cmdslow *s = &h->v[k];
        dur(top, sizeof(top), s->top_us);
        dur(over, sizeof(over), s->over_us);
        snprintf(src, sizeof(src), "%.200s:%ld", h->file, s->line);
        diag_evidence(f, s->cmd, src, "%.0f of %.0f calls took over %s (LATENCY HISTOGRAM's "
                      "bucket bound), the slowest up to %s", s->over_n, s->calls, over, top);
    }
    diag_advice(f, "a command runs on the server's one main thread: while it runs no other "
                "client is answered, as during a fork. SLOWLOG GET 32 names the calls and "
                "their arguments; replace KEYS with SCAN, DEL of large keys with UNLINK, and "
                "whole reads of large collections (HGETALL, SMEMBERS, LRANGE 0 -1) with their "
                "SCAN forms%s", h->during ? "" : "; LATENCY HISTOGRAM counts since the server "
                "started or CONFIG RESETSTAT, so these may predate the run");
    return 1;
}

/* The latency monitor's shortest recorded command that can stall clients
 * as a fork does (ms). */
#define CMD_IN_SAVE_MIN_MS 10.0
#define CMD_OVER_FORK 1.5

/* The window's worst sample (us), when the worst window is the fork's. */
static double window_worst_us(const cow_run_facts *x)
{
    if (x->worst.present && x->fork_window[0] && strcmp(x->worst.label, x->fork_window) == 0)
        return x->worst.max_us;
    return NAN;
}

/* The latency monitor stamps an event in whole seconds: the second it lies
 * in, from the window's start, "0-1 s" */
static void stamp_span(const cow_run_facts *x, char *b, size_t n)
{
    double a = x->win_cmd_at_s < 0 ? 0 : x->win_cmd_at_s;
    snprintf(b, n, "%.1f-%.1f s", a, x->win_cmd_at_s + 1 < 0.1 ? 0.1 : x->win_cmd_at_s + 1);
}

/* A command of 10 ms or more, and longer than the fork by half: the
 * latency monitor times BGSAVE (and the command that starts a rewrite or a
 * sync) as a command, fork included, so one about as long as the fork is
 * the fork's own. */
static int command_in_save(const cow_run_facts *x)
{
    double fork_ms = diag_kernel_fork_ms(x);
    return x->win_cmd.known && x->win_cmd.num >= CMD_IN_SAVE_MIN_MS &&
           (isnan(fork_ms) || x->win_cmd.num > CMD_OVER_FORK * fork_ms);
}

/* "keys" when LATENCY HISTOGRAM names one slow command of the run */
static const char *histogram_command(const cow_run_facts *x)
{
    return x->cmdhist.known && x->cmdhist.n > 0 ? x->cmdhist.v[0].cmd : NULL;
}

char *diag_command_cause(const cow_run_facts *x)
{
    double fork_ms = diag_kernel_fork_ms(x), worst_us = window_worst_us(x);
    const char *cmd = histogram_command(x);
    cow_sbuf b = {0};

    char when[48];

    if (!command_in_save(x) || isnan(worst_us) || x->win_cmd.num * 1000 < worst_us / 2)
        return NULL;
    stamp_span(x, when, sizeof(when));
    sbuf_add(&b, "a slow command");
    if (cmd != NULL)
        sbuf_add(&b, " (%s, the run's slowest by LATENCY HISTOGRAM)", cmd);
    sbuf_add(&b, " blocked the server %.0f ms, %s into the save (its latency monitor)",
             x->win_cmd.num, when);
    if (!isnan(fork_ms) && fork_ms >= 10) /* long enough to stall: named too */
        sbuf_add(&b, "; also the fork (%.1f ms)", fork_ms);
    return sbuf_take(&b);
}

int rule_command_in_save(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    const cow_run_facts *x = &r[i];
    double fork_ms = diag_kernel_fork_ms(x), worst_us = window_worst_us(x);
    const char *cmd = histogram_command(x);
    char *cause, when[48];
    (void)n;
    if (!command_in_save(x))
        return 0;
    stamp_span(x, when, sizeof(when));
    cause = diag_command_cause(x);
    if (cause != NULL)
        diag_title(f, "a command, not the save, made %s's worst wait: %s", x->fork_window,
                   cause);
    else
        diag_title(f, "a command blocked the server %.0f ms inside %s (%s into it); the "
                   "window's worst wait is longer: not the command alone", x->win_cmd.num,
                   x->fork_window, when);
    free(cause);
    diag_evidence(f, "latency monitor's command event", x->win_cmd.src, "%.0f ms (%s), "
                  "stamped %s from the window's start (whole seconds)", x->win_cmd.num,
                  x->win_cmd.text, when);
    if (!isnan(fork_ms))
        diag_evidence(f, "fork", x->fork_dur.known ? x->fork_dur.src : x->latest_fork_usec.src,
                      "%.1f ms", fork_ms);
    if (!isnan(worst_us))
        diag_evidence(f, "window's worst sample", "", "%.1f ms", worst_us / 1000);
    if (cmd != NULL)
        diag_evidence(f, "slowest command of the run", x->cmdhist.file, "%s: %.0f calls over "
                      "%.1f ms (LATENCY HISTOGRAM)", cmd, x->cmdhist.v[0].over_n,
                      x->cmdhist.v[0].over_us / 1000);
    diag_advice(f, "SLOWLOG GET 32 names the call and its arguments; keep such commands out "
                "of save windows (replace KEYS with SCAN, DEL of large keys with UNLINK), "
                "then judge the save again without them");
    return 1;
}
