/* cmd_analyze.c -- `cowtail analyze`: phases, quantiles with honest
 * intervals, bootstrap deltas against the baseline; stored and printed.
 *
 * Text output is for people (ms, benchstat-style verdicts, caveats that
 * hold); --json is for scripts (µs, the keys documented in the README). */
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "analyze.h"
#include "answer.h"
#include "cli.h"
#include "commands.h"
#include "mem.h"
#include "phase.h"
#include "quant.h"
#include "runstats.h"
#include "timeconv.h"

const char *const cmd_analyze_usage[] = {
    "usage: cowtail analyze [--db FILE] [options] [RUN...]",
    "",
    "Cut each run (default: all) into phases from its server log or INFO",
    "polls (baseline, bgsave#N, sync-disk#N, sync-diskless#N, aof-rewrite#N,",
    "forkless#N, between, after), compute p50/p90/p99/p99.9/p99.99 per phase",
    "with a distribution-free 95% interval, and compare every window with",
    "the baseline: the difference and the ratio with a verdict that is wrong",
    "at most 5% of the time when nothing changed (lift / ~ / drop, or ? =",
    "cannot tell), from a bootstrap interval using each group's n_eff",
    "(samples corrected for serial dependence) where that is calibrated,",
    "else from an exact tail test (one-sided bound); and how many samples",
    "pass the baseline's p99 and p99.9, with the tail test's p-value.",
    "--method applies to the deltas' point estimates too. Results are",
    "stored (phases, quantiles, deltas, exceed tables) and printed.",
    "",
    "  --db FILE          database (default cowtail.db)",
    "  --resamples N      bootstrap resamples (default 9999)",
    "  --seed S           bootstrap seed (default 1; printed with results)",
    "  --method M         quantile definition: linear (Hyndman-Fan type 7,",
    "                     numpy's default) or nearest (nearest rank)",
    "  --assign RULE      which samples a window holds: in-flight (default: a",
    "                     request that completed in it, send + latency in",
    "                     [t0, t1): one in flight when it opens joins it, one",
    "                     in flight when it closes leaves it; the baseline",
    "                     keeps only samples completed in no window) or send",
    "                     (by send time alone, for comparison)",
    "  --json             print results as JSON (see README)",
    "  --thresholds FILE  the materiality margin of a thresholds file",
    "                     (margin_rel, margin_ms; defaults 0.25 and 0.05): ~",
    "                     from the tail test, and a baseline that moved",
    "  --jobs N           analyse N runs at once (default: one per core); one",
    "                     writer stores them in run order: the database and",
    "                     the output are the same for every N",
    CLI_LATENCY_FROM_HELP,
    "",
    "A quantile whose two-sided 95% interval cannot be finite with the",
    "samples at hand (p99 needs n >= 368, p99.9 n >= 3,688, p99.99",
    "n >= 36,887) is shown as its estimate with the one-sided lower bound",
    "beside it, e.g. 12.300 (>= 1.563), never as if it were known.",
    NULL
};

typedef struct analyze_opts {
    cow_runstats_opts rs;   /* method, resamples, seed */
    int json;               /* --json */
    int by_send;            /* --assign send: by send time alone */
    int jobs;               /* --jobs */
    int latency_from;       /* --latency-from: enum cow_latency_from */
    cow_qcmp_margin margin; /* --thresholds: its margin (rs.margin points here) */
} analyze_opts;

/* ------------------------------------------------------------- text */

static const char *ms(double us, char *buf, size_t n)
{
    if (isnan(us))
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "%.3f", us / 1000.0);
    return buf;
}

/* A quantile as every output shows it (quant.h): the estimate, and the
 * bound beside it when the samples allow only one. */
static const char *quant(const cow_phase_stats *ps, int level, int *footnote,
                         char *buf, size_t n)
{
    const cow_qci *ci = &ps->ci[level];
    cow_quant q = quant_make(ci->q, ps->sum.n ? ps->sum.v[level] : NAN,
                             ci->has_lo ? ci->lo : NAN, ci->has_hi ? ci->hi : NAN,
                             (int64_t)ps->sum.n, ps->dep[level].n_eff);
    if (ps->sum.n > 0 && !quant_two_sided(&q))
        *footnote = 1;
    return quant_format(&q, 0, buf, n);
}

static void print_phase_table(const cow_phases *ph, const cow_runstats *rs,
                              int64_t t0, int *footnote)
{
    size_t i;
    int l;
    char b[6][COW_QUANT_FMT_MAX];

    printf("  %-18s %-17s %8s %9s %9s %17s %18s %18s %9s\n", "phase (ms)",
           "window (s)", "n", "p50", "p90", "p99", "p99.9", "p99.99", "max");
    for (i = 0; i <= ph->n; i++) {
        const cow_phase_stats *ps = i < ph->n ? &rs->ph[i] : &rs->all;
        char win[40], *name;
        if (i < ph->n) {
            const cow_phase *p = &ph->v[i];
            snprintf(win, sizeof(win), "%.3f-%.3f", (double)(p->t0_us - t0) / 1e6,
                     (double)(p->t1_us - t0) / 1e6);
            int l2, moved = 0;
            for (l2 = 0; l2 < COW_PCT_NLEVELS; l2++)
                moved |= ps->moved[l2] > 0;
            name = xasprintf("%s%s%s%s", p->label, p->overlap ? " (overlap)" : "",
                             p->open ? " (open)" : "", moved ? " *" : "");
        } else {
            snprintf(win, sizeof(win), "all");
            name = xstrdup("whole run");
        }
        printf("  %-18s %-17s %8zu", name, win, ps->sum.n);
        free(name);
        for (l = 0; l < COW_PCT_NLEVELS; l++)
            printf(" %*s", l >= COW_P999 ? 18 : l == COW_P99 ? 17 : 9,
                   quant(ps, l, footnote, b[l], sizeof(b[l])));
        printf(" %9s\n", ms(ps->sum.max, b[5], sizeof(b[5])));
    }
    for (i = 0; i < ph->n; i++) { /* runstats.h Requirement 7b */
        for (l = 0; l < COW_PCT_NLEVELS && !(rs->ph[i].moved[l] > 0); l++)
            ;
        if (l < COW_PCT_NLEVELS) {
            printf("  * intervals widened by the baseline's own movement around the window "
                   "(see below): the quantile of a process whose level moved is not known "
                   "closer than that movement\n");
            break;
        }
    }
}

static void print_deltas(const cow_phases *ph, const cow_runstats *rs,
                         const analyze_opts *o)
{
    static const char *const names[COW_DELTA_LEVELS] = {"p50", "p90", "p99", "p99.9"};
    static const char *const xn[2] = {"p99:  ", "p99.9:"};
    size_t i;
    int l, k;

    for (i = 0; i < ph->n; i++) {
        const cow_phase_stats *ps = &rs->ph[i];
        const cow_tailtest *xt[2] = {&ps->ex99_test, &ps->ex999_test};
        const cow_exceed *xv[2] = {&ps->ex99, &ps->ex999};
        if (!ps->has_delta)
            continue;
        printf("  %s vs %s (ms, 95%%, %d resamples, seed %" PRIu64 "; n_eff = samples "
               "corrected for serial dependence):\n", ph->v[i].label,
               ps->local_base ? "the baseline on both sides" : ph->v[ps->base].label,
               o->rs.resamples, o->rs.seed);
        for (l = 0; l < COW_DELTA_LEVELS; l++) {
            const cow_qcmp *d = &ps->delta[l];
            char ratio[48] = "", ci[COW_QUANT_FMT_MAX];
            cow_quant dq = quant_make(NAN, d->delta, d->lo, d->hi, (int64_t)d->nb,
                                      d->dep_b.n_eff);
            if (!isnan(d->boot.ratio))
                snprintf(ratio, sizeof(ratio), "x%.2f", d->boot.ratio);
            if (d->verdict == COW_VERDICT_NA)
                dq.est_us = NAN;
            if (d->verdict == COW_VERDICT_UNSURE) /* the probe interval: span over samples */
                qcmp_why_text(d,
                              d->nb ? (double)(ph->v[i].t1_us - ph->v[i].t0_us) / 1e6 /
                                          (double)d->nb : 0.0, dq.why, sizeof(dq.why));
            quant_format(&dq, COW_QF_SIGNED | COW_QF_INTERVAL, ci, sizeof(ci));
            printf("    %-6s %-32s %-7s %-5s n_eff %.0f/%.0f  %s", names[l], ci, ratio,
                   boot_verdict_symbol(d->verdict),
                   d->dep_a.n_eff, d->dep_b.n_eff, qcmp_method_name(d->method));
            if (d->method == COW_QCMP_TAIL)
                printf(" (beyond pooled p%.2f: %zu vs %zu samples, tau %.1f, p=%.3g)",
                       100 * d->test.level, d->test.ka, d->test.kb, d->test.tau, d->p);
            printf("\n");
        }
        for (k = 0; k < 2; k++)
            /* the threshold named is the one counted against (the baseline
             * on both sides of the window when it moved), printed beside it */
            printf("    beyond baseline %s %.3f ms: %zu of %zu (%.2f%%, 95%% CI %.2f-%.2f%%); "
                   "more than the baseline has: p=%.3g (tail test, tau %.1f)\n",
                   xn[k], xv[k]->threshold / 1000, xv[k]->count, xv[k]->n, 100 * xv[k]->p,
                   100 * xv[k]->lo, 100 * xv[k]->hi, xt[k]->p_up, xt[k]->tau);
    }
}

/* A run without samples: its windows as the log (or INFO) gives them,
 * with the copy-on-write each window's child reported (mb[i], NaN: none). */
static void print_windows(const cow_phases *ph, const double *mb)
{
    size_t i;
    int any = 0;
    for (i = 0; i < ph->n; i++) {
        const cow_phase *p = &ph->v[i];
        char t0[40], cow[32];
        if (!phase_is_window(p->kind))
            continue;
        if (!any++)
            printf("  %-18s %-24s %10s %8s  %-5s %s\n", "window", "start (UTC)",
                   "length (s)", "COW (MB)", "from", "notes");
        time_format_iso(p->t0_us, t0, sizeof(t0));
        if (isnan(mb[i]))
            snprintf(cow, sizeof(cow), "-");
        else
            snprintf(cow, sizeof(cow), "%.0f", mb[i]);
        printf("  %-18s %-24s %10.3f %8s  %-5s %s%s%s\n", p->label, t0,
               (double)(p->t1_us - p->t0_us) / 1e6, cow, p->source ? p->source : "-",
               p->failed ? "ended in error or killed " : "", p->open ? "open (no end seen) " : "",
               p->overlap ? "overlaps another" : "");
    }
}

/* open: the run's samples carry their intended send and latency is read
 * from it (app_probe_lag), so a stall holds back no request. */
static void print_caveats(const cow_phases *ph, const cow_runstats *rs, int footnote,
                          int open)
{
    size_t i;
    int windows = 0, baseline = 0, coarse = 0;
    double step = 0;

    for (i = 0; i < ph->n; i++) {
        windows += phase_is_window(ph->v[i].kind);
        baseline += ph->v[i].kind == COW_PHASE_BASELINE && rs->ph[i].sum.n > 0;
    }
    if (rs->all.grid.coarse) {
        coarse = 1;
        step = rs->all.grid.step;
    }
    if (footnote)
        printf("  %s Read the maximum and the exceedance counts too.\n",
               quant_format_legend());
    if (windows == 0)
        printf("  no fork/save window found (no save lines in a server log, no "
               "INFO rdb_bgsave_in_progress/aof_rewrite_in_progress polls): the "
               "whole run is baseline\n");
    else if (!baseline)
        printf("  no samples before the first window: nothing to compare with "
               "(compare runs with cowtail diff)\n");
    for (i = 0; i < ph->n; i++) { /* runstats.h Requirement 7 */
        char moved[200];
        runstats_drift_text(&rs->ph[i].drift, moved, sizeof(moved));
        if (rs->ph[i].drift.unstable)
            printf("  the baseline is not stationary around %s: %s; %s; the intervals "
                   "of the phases around it are widened by that movement\n",
                   ph->v[i].label, moved,
                   rs->ph[i].local_base
                       ? "that window is compared with the baseline on both sides "
                         "of it, and a change smaller than the baseline's own "
                         "movement is '?'"
                       : "its verdicts read the baseline before it");
        else if (rs->ph[i].drift.moved && rs->ph[i].has_delta)
            printf("  the baseline moved around %s, by less than the materiality margin "
                   "(%.3f ms): %s; the intervals of the phases around it are widened by "
                   "that movement, and a lift or drop stands only if it also holds "
                   "against the baseline on both sides beyond it\n",
                   ph->v[i].label, rs->ph[i].drift.margin_us / 1000, moved);
    }
    if (coarse)
        printf("  latencies sit on a %.3f ms grid (e.g. redis-cli --latency reports "
               "whole ms): lifts smaller than that cannot show\n", step / 1000.0);
    if (windows > 0 && baseline)
        printf("  verdicts: lift/drop are wrong at most 5%% of the time when nothing "
               "changed; intervals use n_eff (clustered slow samples count once); "
               "with few effective samples beyond a quantile an exact tail test "
               "decides and '?' means cannot tell; %s\n",
               open ? "latency is read from each request's intended send, so the time "
                      "a stall held a request back counts (no coordinated omission)"
                    : "a closed-loop probe waits out each stall, so stalls are "
                      "under-counted (coordinated omission)");
}

/* The replicas' sync attempts: one line per attempt with its durations,
 * then its steps' stamps. */
static const char *secs(double s, char *buf, size_t n)
{
    if (isnan(s))
        return "-";
    snprintf(buf, n, "%.3f s", s);
    return buf;
}

static const char *mode_name(char m)
{
    return m == 'F' ? "full" : m == 'P' ? "partial" : "-";
}

static void print_step(const char *name, int64_t t, int *first)
{
    char b[40];
    if (t == COW_REPL_NONE)
        return;
    time_format_iso(t, b, sizeof(b));
    printf("%s%s %s", *first ? "      " : ", ", name, b);
    *first = 0;
}

static void print_replica_syncs(const app_replsyncs *rs)
{
    size_t i, k;
    for (i = 0; i < rs->n; i++) {
        const app_replica *r = &rs->r[i];
        char pid[24] = "?", port[24] = "?";
        if (r->pid > 0)
            snprintf(pid, sizeof(pid), "%lld", (long long)r->pid);
        if (r->port > 0)
            snprintf(port, sizeof(port), "%lld", (long long)r->port);
        printf("  replica sync (replica pid %s, port %s; from its own log):\n", pid, port);
        printf("    %-7s %-7s %-7s %14s %9s %9s %9s %9s\n", "attempt", "resync", "outcome",
               "attach-to-up", "wait", "transfer", "flush", "load");
        for (k = 0; k < r->n; k++) {
            const cow_repl_sync *s = &r->v[k];
            char b[5][24];
            int first = 1;
            printf("    #%-6zu %-7s %-7s %14s %9s %9s %9s %9s\n", k + 1, mode_name(s->mode),
                   replsteps_outcome_name(s->outcome),
                   secs(s->attach_to_up_s, b[0], sizeof(b[0])),
                   secs(s->wait_s, b[1], sizeof(b[1])),
                   secs(s->transfer_s, b[2], sizeof(b[2])),
                   secs(s->flush_s, b[3], sizeof(b[3])), secs(s->load_s, b[4], sizeof(b[4])));
            print_step("attach", s->attach_us, &first);
            print_step("resync", s->resync_us, &first);
            print_step("transfer", s->recv_us, &first);
            print_step("flush", s->flush_us, &first);
            print_step("load", s->load_us, &first);
            print_step(s->mode == 'P' ? "up" : "link up", s->up_us, &first);
            print_step("link lost", s->lost_us, &first);
            printf("\n");
        }
    }
    if (rs->n)
        printf("    wait: resync to transfer start (the primary preparing the RDB); "
               "transfer: to the flush (or load)\n");
}

/* ------------------------------------------------------------- JSON */

static void rawint(cJSON *o, const char *k, long long v)
{
    char buf[32];
    snprintf(buf, sizeof(buf), "%lld", v);
    cJSON_AddRawToObject(o, k, buf);
}

static void json_stamp(cJSON *o, const char *k, int64_t t)
{
    char b[40];
    if (t == COW_REPL_NONE) {
        cJSON_AddNullToObject(o, k);
        return;
    }
    time_format_iso(t, b, sizeof(b));
    cJSON_AddStringToObject(o, k, b);
}

static void json_secs(cJSON *o, const char *k, double v)
{
    char b[40];
    if (isnan(v)) {
        cJSON_AddNullToObject(o, k);
        return;
    }
    snprintf(b, sizeof(b), "%.6f", v); /* to the microsecond, no trailing zeros */
    if (strchr(b, '.')) {
        char *z = b + strlen(b) - 1;
        while (*z == '0')
            *z-- = '\0';
        if (*z == '.')
            *z = '\0';
    }
    cJSON_AddRawToObject(o, k, b);
}

/* replica_syncs: one object per attempt of each replica. */
static cJSON *json_replica_syncs(const app_replsyncs *rs)
{
    cJSON *arr = cJSON_CreateArray();
    size_t i, k;
    for (i = 0; i < rs->n; i++)
        for (k = 0; k < rs->r[i].n; k++) {
            const app_replica *r = &rs->r[i];
            const cow_repl_sync *s = &r->v[k];
            cJSON *o = cJSON_CreateObject(), *st = cJSON_CreateObject();
            rawint(o, "server", r->seq);
            if (r->pid > 0)
                rawint(o, "pid", r->pid);
            else
                cJSON_AddNullToObject(o, "pid");
            if (r->port > 0)
                rawint(o, "port", r->port);
            else
                cJSON_AddNullToObject(o, "port");
            rawint(o, "attempt", (long long)(k + 1));
            if (s->mode)
                cJSON_AddStringToObject(o, "resync", mode_name(s->mode));
            else
                cJSON_AddNullToObject(o, "resync");
            cJSON_AddStringToObject(o, "outcome", replsteps_outcome_name(s->outcome));
            json_stamp(st, "attach", s->attach_us);
            json_stamp(st, "resync", s->resync_us);
            json_stamp(st, "transfer_start", s->recv_us);
            json_stamp(st, "transfer_end", s->recv_end_us);
            json_stamp(st, "flush", s->flush_us);
            json_stamp(st, "load", s->load_us);
            json_stamp(st, "link_up", s->up_us);
            json_stamp(st, "link_lost", s->lost_us);
            cJSON_AddItemToObject(o, "steps", st);
            rawint(o, "attach_line", s->attach_line);
            if (isnan(s->bytes))
                cJSON_AddNullToObject(o, "bytes");
            else
                rawint(o, "bytes", (long long)s->bytes);
            json_secs(o, "attach_to_link_up_s", s->attach_to_up_s);
            json_secs(o, "wait_s", s->wait_s);
            json_secs(o, "transfer_s", s->transfer_s);
            json_secs(o, "flush_s", s->flush_s);
            json_secs(o, "load_s", s->load_s);
            cJSON_AddItemToArray(arr, o);
        }
    return arr;
}

/* Flat quantile keys the README documents: p50_us ... p9999_us. */
static const char *const flat_keys[COW_PCT_NLEVELS] = {"p50_us", "p90_us", "p99_us",
                                                       "p999_us", "p9999_us"};
static const char *const delta_names[COW_DELTA_LEVELS] = {"p50", "p90", "p99", "p999"};

static cJSON *json_stats(const cow_phase_stats *ps)
{
    cJSON *o = cJSON_CreateObject(), *qs = cJSON_CreateArray();
    int l;
    rawint(o, "n", (long long)ps->sum.n);
    cli_json_num(o, "mean_us", ps->sum.mean);
    cli_json_num(o, "min_us", ps->sum.min);
    cli_json_num(o, "max_us", ps->sum.max);
    for (l = 0; l < COW_PCT_NLEVELS; l++)
        cli_json_num(o, flat_keys[l], ps->sum.v[l]);
    cli_json_num(o, "grid_us", ps->grid.step);
    for (l = 0; l < COW_PCT_NLEVELS; l++) {
        cJSON *q = cJSON_CreateObject();
        cli_json_num(q, "q", pct_level(l));
        cli_json_num(q, "value_us", ps->sum.v[l]);
        cli_json_num(q, "lo_us", ps->ci[l].has_lo ? ps->ci[l].lo : NAN);
        cli_json_num(q, "hi_us", ps->ci[l].has_hi ? ps->ci[l].hi : NAN);
        cJSON_AddBoolToObject(q, "thin", ps->sum.thin[l]);
        cli_json_num(q, "n_eff", ps->ci[l].n_eff);
        rawint(q, "n_needed", (long long)ps->ci[l].n_needed);
        cJSON_AddItemToArray(qs, q);
    }
    cJSON_AddItemToObject(o, "quantiles", qs);
    return o;
}

/* The verdict keys analyze's JSON gives each delta (README, "JSON"). */
static void verdict_json(cJSON *dj, const cow_qcmp *d)
{
    cli_json_num(dj, "ci_low_us", d->lo);
    cli_json_num(dj, "ci_high_us", d->hi);
    cli_json_num(dj, "ratio", d->boot.ratio);
    cli_json_num(dj, "ratio_low", d->boot.ratio_lo);
    cli_json_num(dj, "ratio_high", d->boot.ratio_hi);
    cJSON_AddStringToObject(dj, "verdict", boot_verdict_name(d->verdict));
    cJSON_AddBoolToObject(dj, "thin", d->thin);
    cJSON_AddStringToObject(dj, "method", qcmp_method_name(d->method));
    cli_json_num(dj, "n_base", (double)d->na);
    cli_json_num(dj, "n", (double)d->nb);
    cli_json_qcmp(dj, d);
}

/* "baseline", "during", "between", "after" */
static const char *phase_role(int kind)
{
    if (phase_is_window(kind))
        return "during";
    return kind == COW_PHASE_BASELINE ? "baseline"
         : kind == COW_PHASE_AFTER ? "after" : "between";
}

static cJSON *json_run(const char *label, const cow_phases *ph, const cow_runstats *rs,
                       const analyze_opts *o)
{
    cJSON *r = cJSON_CreateObject(), *arr = cJSON_CreateArray();
    cJSON *ds = cJSON_CreateArray(), *xs = cJSON_CreateArray();
    size_t i;
    int l;

    cJSON_AddStringToObject(r, "label", label);
    rawint(r, "seed", (long long)o->rs.seed);
    rawint(r, "resamples", o->rs.resamples);
    cJSON_AddStringToObject(r, "method", app_method_name(o->rs.method));
    cJSON_AddStringToObject(r, "assign", o->by_send ? "send" : "in-flight");
    cJSON_AddItemToObject(r, "all", json_stats(&rs->all));
    for (i = 0; i < ph->n; i++) {
        const cow_phase *p = &ph->v[i];
        cJSON *po = json_stats(&rs->ph[i]);
        cJSON_AddStringToObject(po, "phase", phase_role(p->kind));
        cJSON_AddStringToObject(po, "label", p->label);
        cJSON_AddStringToObject(po, "kind", phase_kind_id(p->kind));
        rawint(po, "t0_us", p->t0_us);
        rawint(po, "t1_us", p->t1_us);
        cJSON_AddStringToObject(po, "source", p->source ? p->source : "");
        cJSON_AddBoolToObject(po, "overlap", p->overlap);
        cJSON_AddBoolToObject(po, "open", p->open);
        if (rs->ph[i].drift.unstable) {
            char moved[200];
            runstats_drift_text(&rs->ph[i].drift, moved, sizeof(moved));
            cJSON_AddStringToObject(po, "unstable_baseline", moved);
        }
        if (rs->ph[i].drift.moved) /* Requirement 7a-b: the movement at p50, p99 */
            cJSON_AddNumberToObject(po, "baseline_moved_rel", rs->ph[i].drift.rel);
        cJSON_AddItemToArray(arr, po);
        if (!rs->ph[i].has_delta)
            continue;
        for (l = 0; l < COW_DELTA_LEVELS; l++) {
            const cow_qcmp *d = &rs->ph[i].delta[l];
            cJSON *dj = cJSON_CreateObject();
            cJSON_AddStringToObject(dj, "phase", p->label);
            cJSON_AddStringToObject(dj, "baseline", ph->v[rs->ph[i].base].label);
            cJSON_AddStringToObject(dj, "quantile", delta_names[l]);
            cli_json_num(dj, "base_us", d->est_a);
            cli_json_num(dj, "value_us", d->est_b);
            cli_json_num(dj, "delta_us", d->delta);
            verdict_json(dj, d);
            if (rs->ph[i].local_base) /* runstats.h Requirement 7 */
                cJSON_AddBoolToObject(dj, "both_sides", 1);
            if (d->verdict == COW_VERDICT_UNSURE) {
                char *why = qcmp_why(d, d->nb ? (double)(p->t1_us - p->t0_us) / 1e6 /
                                                    (double)d->nb : 0.0);
                cJSON_AddStringToObject(dj, "why", why ? why : "");
                free(why);
            }
            cJSON_AddItemToArray(ds, dj);
        }
        {
            const cow_exceed *xv[2] = {&rs->ph[i].ex99, &rs->ph[i].ex999};
            const cow_tailtest *xt[2] = {&rs->ph[i].ex99_test, &rs->ph[i].ex999_test};
            static const char *const qn[2] = {"p99", "p999"};
            int k;
            for (k = 0; k < 2; k++) {
                cJSON *x = cJSON_CreateObject();
                cJSON_AddStringToObject(x, "phase", p->label);
                cJSON_AddStringToObject(x, "baseline_quantile", qn[k]);
                cli_json_num(x, "threshold_us", xv[k]->threshold);
                rawint(x, "n", (long long)xv[k]->n);
                rawint(x, "count", (long long)xv[k]->count);
                cli_json_num(x, "share", xv[k]->p);
                cli_json_num(x, "ci_low", xv[k]->lo);
                cli_json_num(x, "ci_high", xv[k]->hi);
                cli_json_num(x, "p_more", xt[k]->p_up);
                cli_json_num(x, "tau", xt[k]->tau);
                cJSON_AddStringToObject(x, "test", "tail-test");
                cJSON_AddItemToArray(xs, x);
            }
        }
    }
    cJSON_AddItemToObject(r, "phases", arr);
    cJSON_AddItemToObject(r, "deltas", ds);
    cJSON_AddItemToObject(r, "exceedance", xs);
    return r;
}

/* The whole-run percentiles percentile-only tools printed. */
static cJSON *json_reported(const app_reported *rep)
{
    cJSON *arr = cJSON_CreateArray();
    size_t i;

    for (i = 0; i < rep->n; i++) {
        const cow_pctl_row *p = &rep->v[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "source", p->source);
        cJSON_AddStringToObject(o, "file", p->file);
        if (p->op[0])
            cJSON_AddStringToObject(o, "op", p->op);
        else
            cJSON_AddNullToObject(o, "op");
        cli_json_num(o, "q", p->q);
        cli_json_num(o, "value_us", p->value_us);
        if (p->count > 0)
            rawint(o, "count", (long long)p->count);
        else
            cJSON_AddNullToObject(o, "count");
        cJSON_AddItemToArray(arr, o);
    }
    return arr;
}

static void print_reported(const app_reported *rep)
{
    const char *file = "";
    size_t i;

    if (rep->n == 0)
        return;
    printf("  reported percentiles (as the tools printed them: no interval, no "
           "bootstrap), ms:\n");
    printf("  %-18s %-14s %8s %12s %10s\n", "source", "op", "q", "value", "count");
    for (i = 0; i < rep->n; i++) {
        const cow_pctl_row *p = &rep->v[i];
        char cnt[32];
        if (strcmp(file, p->file) != 0)
            printf("  %s\n", app_tty(file = p->file));
        if (p->count > 0)
            snprintf(cnt, sizeof(cnt), "%lld", (long long)p->count);
        else
            snprintf(cnt, sizeof(cnt), "-");
        printf("  %-18s %-14s %8g %12.3f %10s\n", p->source, p->op[0] ? p->op : "-",
               p->q, p->value_us / 1000.0, cnt);
    }
}

/* The stalls listed one line each; the others are counted (--json lists
 * every one): a save can hold hundreds. */
#define STALLS_SHOWN 10

static int by_dur_desc(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return a < b ? 1 : a > b ? -1 : 0;
}

/* The probe's stalls, the STALLS_SHOWN longest one line each in time
 * order ("the server answered nothing for D ms at +T s"), the rest
 * counted; its gaps summed by reason. */
static void print_quiet(const app_analysis *a)
{
    static const char *const why[] = {"late", "buffer", "cap"};
    static const char *const says[] = {
        "the probe itself ran late (this host)", "the send buffer was full (the "
        "server read nothing)", "65536 requests already waited"};
    long long slots[3] = {0, 0, 0};
    size_t i, k, nst = 0, shown = 0, rest = 0;
    int64_t *dur = malloc((a->nquiet ? a->nquiet : 1) * sizeof(int64_t)), cut = 0, rest_max = 0;
    for (i = 0; dur != NULL && i < a->nquiet; i++)
        if (!a->quiet[i].gap)
            dur[nst++] = a->quiet[i].dur_us;
    if (dur != NULL && nst > STALLS_SHOWN) {
        qsort(dur, nst, sizeof(int64_t), by_dur_desc);
        cut = dur[STALLS_SHOWN - 1];
    }
    free(dur);
    for (i = 0; i < a->nquiet; i++) {
        const cow_quiet_row *q = &a->quiet[i];
        if (q->gap) {
            for (k = 0; k < 3; k++)
                slots[k] += strcmp(q->how, why[k]) == 0 ? q->n : 0;
            continue;
        }
        if (q->dur_us < cut || shown == STALLS_SHOWN) { /* ties at the cut: the first */
            rest++;
            rest_max = q->dur_us > rest_max ? q->dur_us : rest_max;
            continue;
        }
        shown++;
        printf("  stall: the server answered nothing for %.1f ms at %+.1f s (%lld probe "
               "%s waiting%s)\n", (double)q->dur_us / 1000.0,
               (double)(q->t_us - a->t_first_us) / 1e6, (long long)q->n,
               q->n == 1 ? "request" : "requests",
               strcmp(q->how, "end") == 0 ? "; still none when the capture ended" : "");
    }
    if (rest > 0)
        printf("  stalls: %zu more, each %.1f ms or shorter (analyze --json lists every "
               "one)\n", rest, (double)rest_max / 1000.0);
    for (k = 0; k < 3; k++)
        if (slots[k] > 0)
            printf("  probe gap: %lld %s not sent: %s\n", slots[k],
                   slots[k] == 1 ? "slot" : "slots", says[k]);
}

/* stalls: [{start_us, length_us, waiting, ended}], gaps: [{...}]. */
static cJSON *json_quiet(const app_analysis *a, int gaps)
{
    cJSON *arr = cJSON_CreateArray();
    size_t i;
    for (i = 0; i < a->nquiet; i++) {
        const cow_quiet_row *q = &a->quiet[i];
        cJSON *o;
        if (q->gap != gaps)
            continue;
        o = cJSON_CreateObject();
        rawint(o, "start_us", (long long)q->t_us);
        rawint(o, "length_us", (long long)q->dur_us);
        rawint(o, gaps ? "slots" : "waiting", (long long)q->n);
        cJSON_AddStringToObject(o, gaps ? "reason" : "ended", q->how);
        cJSON_AddItemToArray(arr, o);
    }
    return arr;
}

/* ------------------------------------------------------------- driver */

/* What printing the runs in order needs. */
typedef struct print_ctx {
    const analyze_opts *o;
    cow_store *st;          /* the store, for a log-only run's evidence */
    cJSON *out;             /* --json: the array */
    int refused;            /* a run's log clock did not match */
} print_ctx;

/* Print run r's stored results a (text or into out); a run refused for
 * its log's clock is said and skipped, any other failure stops. */
static int analyze_print(const cow_run_row *r, const app_analysis *a, int rc,
                         const cow_err *we, void *ctx, cow_err *e)
{
    print_ctx *p = ctx;
    const analyze_opts *o = p->o;
    int footnote = 0;

    if (rc != COW_OK) {
        *e = *we;
        if (rc != COW_ECLOCK)
            return rc;
        cli_error(we); /* that run only: go on with the others */
        p->refused = 1;
        return COW_OK;
    }
    if (o->json) {
        cJSON *jr = json_run(r->label, &a->ph, &a->rs, o);
        cJSON_AddItemToObject(jr, "reported_percentiles", json_reported(&a->rep));
        cJSON_AddItemToObject(jr, "replica_syncs", json_replica_syncs(&a->repl));
        cJSON_AddItemToObject(jr, "stalls", json_quiet(a, 0));
        cJSON_AddItemToObject(jr, "probe_gaps", json_quiet(a, 1));
        cJSON_AddItemToArray(p->out, jr);
    } else {
        char t0[40];
        time_format_iso(a->t_first_us, t0, sizeof(t0));
        printf("run %s: %zu samples from %s; %zu phases\n", app_tty(r->label), a->n,
               a->n ? t0 : "-", a->ph.n);
        if (a->n > 0) {
            print_phase_table(&a->ph, &a->rs, a->t_first_us, &footnote);
            print_deltas(&a->ph, &a->rs, o);
            app_answer pa;
            memset(&pa, 0, sizeof(pa));
            if (app_probe_lag(p->st, r->id, &pa, e) != COW_OK)
                return e->code;
            print_caveats(&a->ph, &a->rs, footnote, pa.probe_known && pa.probe_from_intended);
        } else {
            printf("  no latency samples: %s\n", a->rep.n
                   ? "only the percentiles the tools reported"
                   : a->ph.n ? "no quantiles; the windows the server log gives:"
                             : "nothing to analyse");
            double *mb = calloc(a->ph.n ? a->ph.n : 1, sizeof(double));
            if (mb == NULL || app_window_cow(p->st, r, &a->ph, mb, e) != COW_OK) {
                free(mb);
                return mb == NULL ? COW_FAIL(e, COW_EINTERNAL, "out of memory") : e->code;
            }
            print_windows(&a->ph, mb);
            free(mb);
        }
        print_reported(&a->rep);
        print_replica_syncs(&a->repl);
        print_quiet(a);
        printf("\n");
    }
    return COW_OK;
}

/* Options into *db and *o; returns -1 to go on, else the exit code. */
static int parse_args(int argc, char **argv, const char **db, analyze_opts *o)
{
    static const struct option opts[] = {
        {"db", required_argument, NULL, 'd'},
        {"resamples", required_argument, NULL, 'R'},
        {"seed", required_argument, NULL, 's'},
        {"method", required_argument, NULL, 'm'},
        {"json", no_argument, NULL, 'j'},
        {"assign", required_argument, NULL, 'a'},
        {"jobs", required_argument, NULL, 'J'},
        CLI_OPT_LATENCY_FROM,
        {"thresholds", required_argument, NULL, 't'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    app_thresholds th;
    cow_err e = COW_ERR_INIT;
    int c;

    memset(o, 0, sizeof(*o));
    o->rs.method = COW_PCT_LINEAR;
    o->rs.resamples = COW_BOOT_RESAMPLES;
    o->rs.seed = 1;
    optind = 1;
    while ((c = cli_getopt(argc, argv, "h", opts)) != -1) {
        switch (c) {
        case 'd': *db = optarg; break;
        case 'R':
            if (cli_opt_resamples(argv[0], optarg, &o->rs.resamples) != EXIT_OK)
                return EXIT_USAGE;
            break;
        case 's':
            if (cli_opt_seed(argv[0], optarg, &o->rs.seed) != EXIT_OK)
                return EXIT_USAGE;
            break;
        case 'm':
            if (strcmp(optarg, "linear") == 0)
                o->rs.method = COW_PCT_LINEAR;
            else if (strcmp(optarg, "nearest") == 0)
                o->rs.method = COW_PCT_NEAREST;
            else {
                cli_errorf("--method: '%s' is not linear or nearest (see 'cowtail help "
                           "analyze')", optarg);
                return EXIT_USAGE;
            }
            break;
        case 'j': o->json = 1; break;
        case 'a':
            if (strcmp(optarg, "send") == 0 || strcmp(optarg, "in-flight") == 0) {
                o->by_send = strcmp(optarg, "send") == 0;
                break;
            }
            cli_errorf("--assign %s: expected in-flight or send", optarg);
            return EXIT_USAGE;
        case 'J':
            if (cli_opt_jobs(argv[0], optarg, &o->jobs) != EXIT_OK)
                return EXIT_USAGE;
            break;
        case 'I':
            if (cli_opt_latency_from(argv[0], optarg, &o->latency_from) != EXIT_OK)
                return EXIT_USAGE;
            break;
        case 't':
            if (app_load_thresholds(optarg, &th, &e) != COW_OK) {
                cli_error(&e);
                return EXIT_USAGE;
            }
            o->margin = th.margin;
            o->rs.margin = &o->margin;
            break;
        case 'h': cli_print_usage(stdout, cmd_analyze_usage); return EXIT_OK;
        default: return EXIT_USAGE;
        }
    }
    return -1;
}

int cmd_analyze(int argc, char **argv)
{
    const char *db = COW_DEFAULT_DB;
    analyze_opts o;
    cow_store *st = NULL;
    cow_err e = COW_ERR_INIT;
    cow_run_row *rows = NULL, *sel = NULL;
    size_t n = 0, nsel = 0;
    cJSON *out = NULL;
    print_ctx pc;
    int code;

    if ((code = parse_args(argc, argv, &db, &o)) >= 0)
        return code;
    if ((code = cli_open_runs(db, &st, &rows, &n)) != EXIT_OK)
        return code;
    store_set_latency_from(st, o.latency_from);
    code = cli_select_runs("analyze", rows, n, argv + optind, argc - optind, &sel, &nsel);
    if (o.json)
        out = cJSON_CreateArray();
    pc.o = &o;
    pc.st = st;
    pc.out = out;
    pc.refused = 0;
    if (code == EXIT_OK &&
        app_analyze_each(st, sel, nsel, 0, &o.rs, o.by_send, o.jobs, analyze_print, &pc,
                         &e) != COW_OK) {
        cli_error(&e);
        code = cli_exit_for(e.code);
        if (code == EXIT_OK)
            code = EXIT_INTERNAL;
    }
    if (out) {
        int jc = cli_print_json(out);
        if (code == EXIT_OK)
            code = jc;
        cJSON_Delete(out);
    }
    free(sel);
    store_free_runs(rows, n);
    store_close(st);
    return code == EXIT_OK && pc.refused ? EXIT_REJECTED : code;
}
