/* check.c -- thresholds and the evaluation of a run (check.h).
 *
 * Requirements:
 *  1. A latency limit is a one-sided test. Lift limits: every window
 *     compared with the run's baseline by verdict.h with the limit as the
 *     shift (p_up: "lift above the limit"); the window with the smallest
 *     p-value speaks for the run (ties: the larger delta), never the one
 *     that happened to be lifted first. Whole-run quantile limits:
 *     fleet_quantile_p().
 *  2. The fleet's correction (Holm, or BH with --fdr) runs over every run
 *     x latency limit: app_check_correct().
 *  3. Missing data fail closed unless the limit says "missing": "pass".
 *  4. A window and the baseline hold the samples analyze gives them (in
 *     flight: phase_holds, phase.h), not those sent in their span.
 *  5. Nothing is analysed or stored, and a stored analysis is not read:
 *     the phases are made for the judgement (app_judged_phases), so a
 *     verdict depends on the run's input and the limits alone.
 *  6. A baseline that moved (runstats.h Requirement 7) is reported, not
 *     failed on: for a lift limit at q, the baseline before each window
 *     is compared at q with its own second half and with the quiet phase
 *     after the window; when one of them moved by more than the limit
 *     (significantly, 2.5% each side), the window is judged against the
 *     local baseline on both sides (runstats_compare_window) and the
 *     detail says the baseline moved. A drift alone then cannot fail the
 *     run (bench/README.md, "Healthy fleets that drift"). When it moved
 *     significantly but by less than the limit, the window's p is the
 *     larger of the test against the baseline before and the one against
 *     the local baseline beyond that movement (runstats.h Requirement 7a),
 *     and the detail says so. */
#include "check.h"
#include "jsonstrict.h"
#include "reported.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "analyze.h"
#include "boot.h"
#include "facts.h"
#include "fleet.h"
#include "mem.h"
#include "pct.h"
#include "phase.h"
#include "runstats.h"
#include "src.h"
#include "verdict.h"

const char *const app_th_keys[TH_COUNT] = {
    "max_p999_lift_ms", "max_p99_lift_ms", "max_p99_ms", "max_p999_ms",
    "max_cow_fraction", "max_fork_ms", "require_thp_off", "min_samples"};


/* The line of top-level key `key` in the thresholds text ("key" then ':');
 * 1 when it is spelt with escapes (the error still names the key). */
static long key_line(const char *text, size_t n, const char *key)
{
    size_t klen = strlen(key), i, j;
    long line = 1;

    for (i = 0; i < n; i++) {
        if (text[i] == '\n')
            line++;
        else if (text[i] == '"' && i + klen + 1 < n && memcmp(text + i + 1, key, klen) == 0 &&
                 text[i + klen + 1] == '"') {
            for (j = i + klen + 2; j < n && strchr(" \t\r\n", text[j]) != NULL; j++)
                ;
            if (j < n && text[j] == ':')
                return line;
        }
    }
    return 1;
}

/* A value that is a duration in ms (margin_ms, max_*_ms) must stay finite
 * and non-negative in us; other numbers must be finite and non-negative. */
static int bad_number(const char *key, double v)
{
    size_t n = strlen(key);
    double scale = n > 3 && strcmp(key + n - 3, "_ms") == 0 ? 1000 : 1;
    return !(v >= 0) || !isfinite(v * scale);
}

int app_load_thresholds(const char *path, app_thresholds *t, cow_err *e)
{
    cow_src s;
    char *text = NULL;
    size_t n = 0;
    cJSON *root;
    const cJSON *it;
    int rc, k;

    memset(t, 0, sizeof(*t));
    t->margin.rel = COW_QCMP_MARGIN_REL;
    t->margin.abs_us = COW_QCMP_MARGIN_ABS_US;
    if ((rc = src_open_file(&s, path, e)) != COW_OK)
        return rc;
    rc = src_read_all_max(&s, COW_MAX_META_FILE_BYTES, &text, &n, e);
    src_close(&s);
    if (rc != COW_OK)
        return rc;
    root = cJSON_ParseWithLength(text, n);
    if (!cJSON_IsObject(root)) {
        free(text);
        cJSON_Delete(root);
        cow_err_at(e, path, 1, 0);
        return COW_FAIL(e, COW_EPARSE, "thresholds must be a JSON object "
                        "(see schemas/thresholds.schema.json)");
    }
    /* a limit named twice, or 1e999 (infinite: every value passes) */
    rc = json_strict_check(text, n, path, 1, e);
    if (rc != COW_OK) {
        free(text);
        cJSON_Delete(root);
        return rc;
    }
    for (it = root->child; it; it = it->next) {
        const cJSON *lim = it;
        int mp = 0;
        if (strcmp(it->string, "margin_rel") == 0 || strcmp(it->string, "margin_ms") == 0) {
            if (!cJSON_IsNumber(it) || bad_number(it->string, it->valuedouble)) {
                cow_err_at(e, path, key_line(text, n, it->string), 0);
                rc = COW_FAIL(e, COW_EPARSE, "\"%s\" must be a non-negative number "
                              "(finite in us) (see schemas/thresholds.schema.json)",
                              it->string);
                free(text);
                cJSON_Delete(root);
                return rc;
            }
            if (it->string[7] == 'r')
                t->margin.rel = it->valuedouble;
            else
                t->margin.abs_us = it->valuedouble * 1000;
            continue;
        }
        for (k = 0; k < TH_COUNT; k++)
            if (strcmp(it->string, app_th_keys[k]) == 0)
                break;
        if (k < TH_COUNT && cJSON_IsObject(it)) { /* {"limit": x, "missing": "pass"} */
            const cJSON *ms = cJSON_GetObjectItemCaseSensitive(it, "missing"), *c;
            lim = cJSON_GetObjectItemCaseSensitive(it, "limit");
            for (c = it->child; c; c = c->next)
                if (strcmp(c->string, "limit") != 0 && strcmp(c->string, "missing") != 0)
                    lim = NULL;
            if (ms != NULL && !(cJSON_IsString(ms) && (strcmp(ms->valuestring, "pass") == 0 ||
                                                      strcmp(ms->valuestring, "fail") == 0)))
                lim = NULL;
            mp = ms != NULL && lim != NULL && strcmp(ms->valuestring, "pass") == 0;
            if (lim == NULL) {
                cow_err_at(e, path, key_line(text, n, it->string), 0);
                free(text);
                rc = COW_FAIL(e, COW_EPARSE, "\"%s\": an object takes \"limit\" and "
                              "\"missing\" (\"pass\" or \"fail\") only", it->string);
                cJSON_Delete(root);
                return rc;
            }
        }
        if (k == TH_COUNT || (k == TH_THP ? !cJSON_IsBool(lim) : !cJSON_IsNumber(lim)) ||
            (k != TH_THP && bad_number(it->string, lim->valuedouble))) {
            cow_err_at(e, path, key_line(text, n, it->string), 0);
            free(text);
            rc = COW_FAIL(e, COW_EPARSE, k == TH_COUNT
                          ? "unknown key \"%s\" (see schemas/thresholds.schema.json)"
                          : "\"%s\" must be a %s", it->string,
                          k == TH_THP ? "boolean" : "non-negative, finite number (in us)");
            cJSON_Delete(root);
            return rc;
        }
        t->set[k] = 1;
        t->v[k] = k == TH_THP ? cJSON_IsTrue(lim) : lim->valuedouble;
        t->missing_pass[k] = mp;
    }
    free(text);
    cJSON_Delete(root);
    return COW_OK;
}


void app_check_missing(app_verdict *x, const app_thresholds *t, int k, const char *what)
{
    x->state = t->missing_pass[k] ? APP_PASS : APP_FAIL;
    snprintf(x->note, sizeof(x->note), "%s: cannot judge %s%s", what, app_th_keys[k],
             t->missing_pass[k] ? " (\"missing\": \"pass\")" : "");
}

static void judge(app_verdict *x, const app_thresholds *t, int k, double value,
                  const char *unknown)
{
    x->value = value;
    if (isnan(value))
        app_check_missing(x, t, k, unknown);
    else
        x->state = value > t->v[k] ? APP_FAIL : APP_PASS;
}

/* A phase's samples: time order (borrowed from lat) and a sorted copy,
 * which *own owns (the caller frees it). */
static cow_group slice(const int64_t *ts, const double *lat, size_t n, int64_t t0,
                       int64_t t1, double **own)
{
    cow_group g;
    *own = runstats_slice_sorted(ts, lat, n, t0, t1, &g.n);
    g.sorted = *own;
    /* no offset from a NULL array when the phase is empty */
    g.time = g.n > 0 ? lat + runstats_lower_bound(ts, n, t0) : g.sorted;
    return g;
}

double app_longest(const double *lat, size_t n)
{
    double m = 0.0;
    size_t i;
    for (i = 0; i < n; i++)
        if (lat[i] > m)
            m = lat[i];
    return m;
}

cow_group app_phase_group(const cow_phases *ph, size_t i, const int64_t *ts,
                          const double *lat, size_t n, double longest, double **time,
                          double **sorted)
{
    const cow_phase *p = &ph->v[i];
    size_t a = runstats_lower_bound(ts, n, phase_first_send(p, longest));
    size_t b = runstats_lower_bound(ts, n, p->t1_us), j, m = 0;

    if (b < a)
        b = a;
    *time = xmalloc((b > a ? b - a : 1) * sizeof(double));
    for (j = a; j < b; j++)
        if (phase_holds(ph, i, ts[j], lat[j]))
            (*time)[m++] = lat[j];
    return runstats_group(*time, m, sorted);
}

/* A lift limit over every window of the run compared with its baseline
 * (Requirement 4: their samples as analyze assigns them): the window
 * with the smallest p-value of "lift above the limit" speaks for the run
 * (not the one that happened to be lifted first). */
static int lift_check(const cow_result_set *rs, const int64_t *ts, const double *lat,
                      size_t n, double q, const app_thresholds *t, int k,
                      const cow_runstats_opts *ro, app_verdict *x, cow_err *e)
{
    const cow_phase_row *base = NULL;
    cow_phases ph = {facts_phases(rs), rs->nph, rs->nph};
    cow_group gb = {NULL, NULL, 0};
    double *gb_time = NULL, *gb_own = NULL, best_p = INFINITY, best_d = -INFINITY;
    double longest = app_longest(lat, n);
    size_t i;
    int rc = COW_OK, found = 0;

    for (i = 0; i < rs->nph && base == NULL; i++)
        if (phase_kind_from_name(rs->ph[i].kind) == COW_PHASE_BASELINE && rs->ph[i].n > 0)
            base = &rs->ph[i];
    if (base != NULL)
        gb = app_phase_group(&ph, (size_t)(base - rs->ph), ts, lat, n, longest, &gb_time,
                             &gb_own);
    for (i = 0; base != NULL && i < rs->nph && rc == COW_OK; i++) {
        const cow_phase_row *p = &rs->ph[i];
        cow_qcmp_opts qo = {ro->resamples, ro->seed + (uint64_t)i, COW_PCT_LINEAR};
        cow_qcmp_margin lim = {0.0, t->v[k] * 1000};
        cow_group gw, ga = {NULL, NULL, 0};
        double *gw_time, *gw_own, *ga_time = NULL, *ga_own = NULL;
        cow_drift d;
        cow_qcmp c;
        size_t j;
        int local = 0;
        if (!phase_is_window(phase_kind_from_name(p->kind)) || p->n == 0)
            continue;
        gw = app_phase_group(&ph, i, ts, lat, n, longest, &gw_time, &gw_own);
        for (j = i + 1; j < rs->nph; j++) /* Requirement 6: the quiet phase after it */
            if (phase_kind_from_name(rs->ph[j].kind) == COW_PHASE_BETWEEN ||
                phase_kind_from_name(rs->ph[j].kind) == COW_PHASE_AFTER)
                break;
        if (j < rs->nph)
            ga = app_phase_group(&ph, j, ts, lat, n, longest, &ga_time, &ga_own);
        if (gw.n > 0)
            rc = runstats_window_drift(&gb, &gw, ga.n > 0 ? &ga : NULL, &q, 1, &lim, &qo, &d,
                                       e);
        if (gw.n > 0 && rc == COW_OK &&
            (rc = runstats_compare_window(&gb, &gw, ga.n > 0 ? &ga : NULL, &d, q,
                                          t->v[k] * 1000, &qo, NULL, &c, &local, e)) == COW_OK &&
            (c.p_up < best_p || (c.p_up == best_p && c.delta > best_d))) {
            char ci[48], moved[240] = "";
            found = 1;
            best_p = c.p_up;
            best_d = c.delta;
            x->value = c.delta / 1000;
            x->p = c.p_up;
            x->method = qcmp_method_name(c.method);
            x->n = (double)c.nb;
            x->n_eff = c.dep_b.n_eff;
            if (c.method == COW_QCMP_BOOT)
                snprintf(ci, sizeof(ci), "95%% CI %+.3f to %+.3f ms", c.lo / 1000,
                         c.hi / 1000);
            else
                snprintf(ci, sizeof(ci), "tail test beyond pooled p%.2f", 100 * c.test.level);
            if (d.unstable) {
                char dt[160];
                runstats_drift_text(&d, dt, sizeof(dt));
                snprintf(moved, sizeof(moved), ", unstable baseline: %s%s", dt,
                         local ? ", judged against the baseline on both sides" : "");
            } else if (d.moved && ga.n > 0) { /* runstats.h Requirement 7a */
                char dt[160];
                runstats_drift_text(&d, dt, sizeof(dt));
                snprintf(moved, sizeof(moved), ", baseline moved within the limit: %s, "
                         "p the larger of before and both sides", dt);
            }
            snprintf(x->note, sizeof(x->note), "%s, %s, n %zu/%zu, n_eff %.0f/%.0f%s",
                     p->label, ci, c.na, c.nb, c.dep_a.n_eff, c.dep_b.n_eff, moved);
        }
        free(gw_time);
        free(gw_own);
        free(ga_time);
        free(ga_own);
    }
    free(gb_time);
    free(gb_own);
    free(ph.v);
    if (rc == COW_OK && !found)
        app_check_missing(x, t, k, base == NULL ? "no baseline samples"
                                                : "no window with samples");
    else if (rc == COW_OK)
        x->state = APP_PASS; /* the fleet's correction decides */
    return rc;
}

/* A whole-run quantile limit: fails when the quantile is significantly
 * above it (after the fleet's correction). */
static void quantile_check(const int64_t *ts, const double *lat, size_t n, double q,
                           const app_thresholds *t, int k, app_verdict *x)
{
    cow_group g;
    double *own;
    if (n == 0) {
        app_check_missing(x, t, k, "no samples");
        return;
    }
    g = slice(ts, lat, n, INT64_MIN, INT64_MAX, &own);
    g.n = n;
    x->value = pct_quantile(g.sorted, n, q, COW_PCT_LINEAR) / 1000;
    x->p = fleet_quantile_p(g.time, g.sorted, n, q, t->v[k] * 1000, &x->n_eff);
    x->method = "binomial";
    x->n = (double)n;
    x->state = APP_PASS;
    snprintf(x->note, sizeof(x->note), "n %zu, n_eff %.0f", n, x->n_eff);
    free(own);
}

/* A run without samples: max_p99_ms / max_p999_ms judge the percentiles
 * its benchmark tool reported (the overall op, else the worst command),
 * named in the detail; they are the tool's point figures, not intervals. */
static int reported_limits(cow_store *st, const cow_run_row *r, const app_thresholds *t,
                           app_verdict out[TH_COUNT], cow_err *e)
{
    static const struct { int k; double q; } lim[] = {{TH_P99, 99}, {TH_P999, 99.9}};
    app_reported rep;
    size_t j;
    int rc;

    if ((rc = app_load_reported(st, r->id, &rep, e)) != COW_OK)
        return rc;
    for (j = 0; j < sizeof(lim) / sizeof(lim[0]); j++) {
        const cow_pctl_row *p = app_reported_at(&rep, lim[j].q);
        app_verdict *x = &out[lim[j].k];
        const char *base;
        if (!t->set[lim[j].k])
            continue;
        if (p == NULL) {
            judge(x, t, lim[j].k, NAN, rep.n ? "no samples, and no reported "
                  "percentile at this q" : "no samples");
            continue;
        }
        judge(x, t, lim[j].k, p->value_us / 1000, "");
        x->method = "reported";
        x->n = p->count > 0 ? (double)app_reported_total(&rep, p) : NAN;
        base = strrchr(p->file, '/') ? strrchr(p->file, '/') + 1 : p->file;
        snprintf(x->note, sizeof(x->note), "reported by %s (%.60s%s%.40s), not measured here",
                 p->source, base, p->op[0] ? ", " : "", p->op);
    }
    app_reported_release(&rep);
    return COW_OK;
}

void app_check_clear(app_verdict out[TH_COUNT])
{
    int k;
    for (k = 0; k < TH_COUNT; k++) {
        out[k].state = APP_NA;
        out[k].value = out[k].p = out[k].p_adj = out[k].n = out[k].n_eff = NAN;
        out[k].method = NULL;
        out[k].note[0] = '\0';
    }
}

static int judge_run(cow_store *st, const cow_run_row *r, const cow_run_facts *f,
                     const cow_result_set *rsp, const int64_t *ts, const double *lat,
                     size_t n, const app_thresholds *t, app_verdict out[TH_COUNT],
                     cow_err *e);

int app_check_run(cow_store *st, const cow_run_row *r, const app_thresholds *t,
                  app_verdict out[TH_COUNT], cow_err *e)
{
    cow_run_facts f;
    cow_result_set rs;
    app_run_samples all = {NULL, NULL, 0};
    int64_t *ts = NULL;
    double *lat = NULL;
    int rc;

    app_check_clear(out);
    memset(&rs, 0, sizeof(rs));
    /* Requirement 5: the facts a judgement reads (INFO, smaps, log
     * events; judge_run) depend on no analysis, and only they are read */
    if ((rc = facts_load_gate(st, r, &f, e)) != COW_OK ||
        (rc = store_load_samples(st, r->id, &ts, &lat, &all.n, e)) != COW_OK)
        return rc;
    all.t_us = ts;
    all.lat_us = lat;
    if ((rc = app_judged_phases(st, r, &all, &rs, e)) == COW_OK)
        rc = judge_run(st, r, &f, &rs, ts, lat, all.n, t, out, e);
    store_free_results(&rs);
    free(ts);
    free(lat);
    return rc;
}

static int judge_run(cow_store *st, const cow_run_row *r, const cow_run_facts *f,
                     const cow_result_set *rsp, const int64_t *ts, const double *lat,
                     size_t n, const app_thresholds *t, app_verdict out[TH_COUNT],
                     cow_err *e)
{
    cow_runstats_opts ro = {COW_PCT_LINEAR, COW_BOOT_RESAMPLES, 1, 0, NULL};
    int rc = COW_OK;
    double v;

    if (rsp->analysed) {
        ro.seed = rsp->seed;
        ro.resamples = rsp->resamples;
    }
    if (t->set[TH_P999_LIFT])
        rc = lift_check(rsp, ts, lat, n, 0.999, t, TH_P999_LIFT, &ro, &out[TH_P999_LIFT], e);
    if (rc == COW_OK && t->set[TH_P99_LIFT])
        rc = lift_check(rsp, ts, lat, n, 0.99, t, TH_P99_LIFT, &ro, &out[TH_P99_LIFT], e);
    if (t->set[TH_P99])
        quantile_check(ts, lat, n, 0.99, t, TH_P99, &out[TH_P99]);
    if (t->set[TH_P999])
        quantile_check(ts, lat, n, 0.999, t, TH_P999, &out[TH_P999]);
    /* no samples: the percentiles a benchmark tool reported, as points */
    if (rc == COW_OK && n == 0 && (t->set[TH_P99] || t->set[TH_P999]))
        rc = reported_limits(st, r, t, out, e);
    v = NAN;
    if (f->used_memory.known && f->used_memory.num > 0) {
        if (f->rdb_last_cow_size.known && f->rdb_last_cow_size.num >= 0)
            v = f->rdb_last_cow_size.num / f->used_memory.num;
        else if (f->cow_mb.known)
            v = f->cow_mb.num * 1048576 / f->used_memory.num;
    }
    judge(&out[TH_COW], t, TH_COW, v, "no COW size or used_memory captured");
    v = f->latest_fork_usec.known ? f->latest_fork_usec.num / 1000 : NAN;
    judge(&out[TH_FORK], t, TH_FORK, v, "no latest_fork_usec captured");
    if (f->anon_huge.known) {
        out[TH_THP].value = f->anon_huge.num;
        out[TH_THP].state = t->v[TH_THP] != 0 && f->anon_huge.num > 0;
        snprintf(out[TH_THP].note, sizeof(out[TH_THP].note), "AnonHugePages %.0f bytes",
                 f->anon_huge.num);
    } else if (t->v[TH_THP] != 0) {
        app_check_missing(&out[TH_THP], t, TH_THP, "no smaps captured");
    } else {
        out[TH_THP].state = APP_PASS;
        snprintf(out[TH_THP].note, sizeof(out[TH_THP].note), "no smaps captured");
    }
    out[TH_MIN_N].value = (double)n;
    out[TH_MIN_N].state = (double)n < t->v[TH_MIN_N];
    return rc;
}

size_t app_check_correct(app_verdict (*v)[TH_COUNT], size_t n, const app_thresholds *t,
                         int method)
{
    size_t cells = n * TH_COUNT + 1, i, m;
    double *p = xmalloc(cells * sizeof(double)), *adj = xmalloc(cells * sizeof(double));
    int *fail = xmalloc(cells * sizeof(int));
    int k;

    for (i = 0; i < n; i++)
        for (k = 0; k < TH_COUNT; k++)
            p[i * TH_COUNT + (size_t)k] = t->set[k] ? v[i][k].p : NAN;
    m = fleet_adjust(p, n * TH_COUNT, method, APP_CHECK_ALPHA, adj, fail);
    for (i = 0; i < n; i++)
        for (k = 0; k < TH_COUNT; k++)
            if (!isnan(p[i * TH_COUNT + (size_t)k])) {
                v[i][k].p_adj = adj[i * TH_COUNT + (size_t)k];
                v[i][k].state = fail[i * TH_COUNT + (size_t)k] ? APP_FAIL : APP_PASS;
            }
    free(p);
    free(adj);
    free(fail);
    return m;
}

int app_check_failed(const app_verdict v[TH_COUNT], const app_thresholds *t)
{
    int k, failed = 0;
    for (k = 0; k < TH_COUNT; k++)
        failed |= t->set[k] && v[k].state == APP_FAIL;
    return failed;
}

void app_failing_limits(const app_thresholds *t, const app_verdict *v, char *buf,
                           size_t n)
{
    size_t used = 0;
    int k;
    buf[0] = '\0';
    for (k = 0; k < TH_COUNT && used < n; k++) {
        char val[32] = "?";
        if (!t->set[k] || v[k].state != APP_FAIL)
            continue;
        if (!isnan(v[k].value))
            snprintf(val, sizeof(val), "%.3f", v[k].value);
        used += (size_t)snprintf(buf + used, n - used, "%s%s %s (limit %g", used ? ", " : "",
                                 app_th_keys[k], val, t->v[k]);
        if (used < n && !isnan(v[k].p))
            used += (size_t)snprintf(buf + used, n - used, "; raw p %.3g, adjusted p %.3g",
                                     v[k].p, v[k].p_adj);
        if (used < n)
            used += (size_t)snprintf(buf + used, n - used, ")");
    }
}
