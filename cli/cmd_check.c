/* cmd_check.c -- `cowtail check`: the fleet gate. Every run against the
 * limits of a thresholds file (schemas/thresholds.schema.json). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "boot.h"
#include "capture.h"
#include "cli.h"
#include "commands.h"
#include "facts.h"
#include "mem.h"
#include "pct.h"
#include "fleet.h"
#include "runstats.h"
#include "src.h"
#include "store.h"
#include "verdict.h"

const char *const cmd_check_usage[] = {
    "usage: cowtail check --thresholds FILE [--db FILE] [--json] [--fdr] [CAPTURE...]",
    "",
    "Evaluate every run (capture folders given are ingested first) against",
    "the limits in FILE (JSON; keys: max_p999_lift_ms, max_p99_lift_ms,",
    "max_p99_ms, max_p999_ms, max_cow_fraction, max_fork_ms,",
    "require_thp_off, min_samples; see schemas/thresholds.schema.json).",
    "A limit may be {\"limit\": x, \"missing\": \"pass\"}: a run without",
    "the data it needs then passes; by default it fails.",
    "Limits on latency (lifts, whole-run quantiles) are tests: each has a",
    "one-sided p-value of \"over the limit\" and fails when its p-value,",
    "adjusted over every run and such limit (Holm: family-wise 5%; --fdr:",
    "Benjamini-Hochberg, false discovery rate 5%), is <= 0.05.",
    "Prints one line per run and check (or --json).",
    "",
    "exit: 0 every run passes; 1 a run fails; 2 unusable input (bad",
    "thresholds file, no runs); 3 database or file system error.",
    NULL
};

enum { TH_P999_LIFT, TH_P99_LIFT, TH_P99, TH_P999, TH_COW, TH_FORK, TH_THP, TH_MIN_N, TH_COUNT };

static const char *const th_keys[TH_COUNT] = {
    "max_p999_lift_ms", "max_p99_lift_ms", "max_p99_ms", "max_p999_ms",
    "max_cow_fraction", "max_fork_ms", "require_thp_off", "min_samples"};

typedef struct thresholds {
    int set[TH_COUNT];     /* key present */
    double v[TH_COUNT];    /* limit (bool as 0/1) */
    int missing_pass[TH_COUNT]; /* "missing": "pass": no data is a pass */
} thresholds;

static int load_thresholds(const char *path, thresholds *t, cow_err *e)
{
    cow_src s;
    char *text = NULL;
    size_t n = 0;
    cJSON *root;
    const cJSON *it;
    int rc, k;

    memset(t, 0, sizeof(*t));
    if ((rc = src_open_file(&s, path, e)) != COW_OK)
        return rc;
    rc = src_read_all(&s, &text, &n, e);
    src_close(&s);
    if (rc != COW_OK)
        return rc;
    root = cJSON_ParseWithLength(text, n);
    free(text);
    if (!cJSON_IsObject(root)) {
        cJSON_Delete(root);
        cow_err_at(e, path, 0, 0);
        return COW_FAIL(e, COW_EPARSE, "thresholds must be a JSON object "
                        "(see schemas/thresholds.schema.json)");
    }
    for (it = root->child; it; it = it->next) {
        const cJSON *lim = it;
        int mp = 0;
        for (k = 0; k < TH_COUNT; k++)
            if (strcmp(it->string, th_keys[k]) == 0)
                break;
        if (k < TH_COUNT && cJSON_IsObject(it)) { /* {"limit": x, "missing": "pass"} */
            const cJSON *ms = cJSON_GetObjectItemCaseSensitive(it, "missing");
            const cJSON *c;
            lim = cJSON_GetObjectItemCaseSensitive(it, "limit");
            for (c = it->child; c; c = c->next)
                if (strcmp(c->string, "limit") != 0 && strcmp(c->string, "missing") != 0)
                    lim = NULL;
            if (ms != NULL && !(cJSON_IsString(ms) && (strcmp(ms->valuestring, "pass") == 0 ||
                                                      strcmp(ms->valuestring, "fail") == 0)))
                lim = NULL;
            mp = ms != NULL && strcmp(ms->valuestring, "pass") == 0;
            if (lim == NULL) {
                cow_err_at(e, path, 0, 0);
                rc = COW_FAIL(e, COW_EPARSE, "\"%s\": an object takes \"limit\" and "
                              "\"missing\" (\"pass\" or \"fail\") only", it->string);
                cJSON_Delete(root);
                return rc;
            }
        }
        if (k == TH_COUNT || (k == TH_THP ? !cJSON_IsBool(lim) : !cJSON_IsNumber(lim)) ||
            (k != TH_THP && lim->valuedouble < 0)) {
            cow_err_at(e, path, 0, 0);
            rc = COW_FAIL(e, COW_EPARSE, k == TH_COUNT
                          ? "unknown key \"%s\" (see schemas/thresholds.schema.json)"
                          : "\"%s\" must be a %s", it->string,
                          k == TH_THP ? "boolean" : "non-negative number");
            cJSON_Delete(root);
            return rc;
        }
        t->set[k] = 1;
        t->v[k] = k == TH_THP ? cJSON_IsTrue(lim) : lim->valuedouble;
        t->missing_pass[k] = mp;
    }
    cJSON_Delete(root);
    return COW_OK;
}

typedef struct verdict {
    int state;            /* 0 pass, 1 fail, 2 not applicable */
    double value;         /* measured, NaN if unknown */
    double p;             /* one-sided p-value of "over the limit"; NaN
                             for a check without sampling error */
    double p_adj;         /* after the fleet's correction */
    const char *method;   /* bootstrap / tail-test / binomial, or NULL */
    double n, n_eff;      /* samples behind p, and their effective number */
    char note[200];       /* why n/a, or the detail */
} verdict;

/* No data for a set limit: fail closed unless it says "missing": "pass". */
static void missing(verdict *x, const thresholds *t, int k, const char *what)
{
    x->state = t->missing_pass[k] ? 0 : 1;
    snprintf(x->note, sizeof(x->note), "%s: cannot judge %s%s", what, th_keys[k],
             t->missing_pass[k] ? " (\"missing\": \"pass\")" : "");
}

static void judge(verdict *x, const thresholds *t, int k, double value,
                  const char *unknown)
{
    x->value = value;
    if (isnan(value))
        missing(x, t, k, unknown);
    else
        x->state = value > t->v[k];
}

static int is_window_kind(const char *kind)
{
    return strcmp(kind, "bgsave") == 0 || strncmp(kind, "sync-", 5) == 0 ||
           strcmp(kind, "aof-rewrite") == 0 || strcmp(kind, "forkless") == 0;
}

/* Index of the first sample at or after t (samples in time order). */
static size_t at(const int64_t *ts, size_t n, int64_t t)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ts[mid] < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* A phase's samples: time order (borrowed from lat) and a sorted copy. */
static cow_group slice(const int64_t *ts, const double *lat, size_t n, int64_t t0,
                       int64_t t1)
{
    size_t a = at(ts, n, t0), b = at(ts, n, t1);
    double *v;
    cow_group g;
    if (b < a)
        b = a;
    v = xmalloc((b - a ? b - a : 1) * sizeof(double));
    memcpy(v, lat + a, (b - a) * sizeof(double));
    runstats_sort(v, b - a);
    g.time = lat + a;
    g.sorted = v;
    g.n = b - a;
    return g;
}

/* A lift limit over every window of the run compared with its baseline:
 * the window with the smallest p-value of "lift above the limit" speaks
 * for the run (not the one that happened to be lifted first). */
static int lift_check(const cow_result_set *rs, const int64_t *ts, const double *lat,
                      size_t n, double q, const thresholds *t, int k,
                      const cow_runstats_opts *ro, verdict *x, cow_err *e)
{
    const cow_phase_row *base = NULL;
    cow_group gb = {NULL, NULL, 0};
    double best_p = INFINITY, best_d = -INFINITY;
    size_t i;
    int rc = COW_OK, found = 0;

    for (i = 0; i < rs->nph && base == NULL; i++)
        if (strcmp(rs->ph[i].kind, "baseline") == 0 && rs->ph[i].n > 0)
            base = &rs->ph[i];
    if (base != NULL)
        gb = slice(ts, lat, n, base->t0_us, base->t1_us);
    for (i = 0; base != NULL && i < rs->nph && rc == COW_OK; i++) {
        const cow_phase_row *p = &rs->ph[i];
        cow_qcmp_opts qo = {ro->resamples, ro->seed + (uint64_t)i, COW_PCT_LINEAR};
        cow_group gw;
        cow_qcmp c;
        if (!is_window_kind(p->kind) || p->n == 0)
            continue;
        gw = slice(ts, lat, n, p->t0_us, p->t1_us);
        if (gw.n > 0 && (rc = qcmp_compute(&gb, &gw, q, t->v[k] * 1000, &qo, &c, e)) == COW_OK &&
            (c.p_up < best_p || (c.p_up == best_p && c.delta > best_d))) {
            char ci[48];
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
            snprintf(x->note, sizeof(x->note), "%s, %s, n %zu/%zu, n_eff %.0f/%.0f",
                     p->label, ci, c.na, c.nb, c.dep_a.n_eff, c.dep_b.n_eff);
        }
        free((double *)gw.sorted);
    }
    free((double *)gb.sorted);
    if (rc == COW_OK && !found)
        missing(x, t, k, base == NULL ? "no baseline samples" : "no window with samples");
    else if (rc == COW_OK)
        x->state = 0; /* the fleet's correction decides */
    return rc;
}

/* A whole-run quantile limit: fails when the quantile is significantly
 * above it (after the fleet's correction). */
static void quantile_check(const int64_t *ts, const double *lat, size_t n, double q,
                           const thresholds *t, int k, verdict *x)
{
    cow_group g;
    if (n == 0) {
        missing(x, t, k, "no samples");
        return;
    }
    g = slice(ts, lat, n, INT64_MIN, INT64_MAX);
    g.n = n;
    x->value = pct_quantile(g.sorted, n, q, COW_PCT_LINEAR) / 1000;
    x->p = fleet_quantile_p(g.time, g.sorted, n, q, t->v[k] * 1000, &x->n_eff);
    x->method = "binomial";
    x->n = (double)n;
    x->state = 0;
    snprintf(x->note, sizeof(x->note), "n %zu, n_eff %.0f", n, x->n_eff);
    free((double *)g.sorted);
}

static int evaluate(cow_store *st, const cow_run_row *r, const thresholds *t,
                    verdict out[TH_COUNT], cow_err *e)
{
    cow_run_facts f;
    cow_result_set rs;
    cow_runstats_opts ro = {COW_PCT_LINEAR, COW_BOOT_RESAMPLES, 1};
    int64_t *ts = NULL;
    double *lat = NULL;
    size_t n = 0;
    int rc, k;
    double v;

    for (k = 0; k < TH_COUNT; k++) {
        out[k].state = 2;
        out[k].value = out[k].p = out[k].p_adj = out[k].n = out[k].n_eff = NAN;
        out[k].method = NULL;
        out[k].note[0] = '\0';
    }
    memset(&rs, 0, sizeof(rs));
    if ((rc = facts_load(st, r, &f, e)) != COW_OK ||
        (rc = store_load_results(st, r->id, &rs, e)) != COW_OK ||
        (rc = store_load_samples(st, r->id, &ts, &lat, &n, e)) != COW_OK) {
        store_free_results(&rs);
        return rc;
    }
    if (rs.analysed) {
        ro.seed = rs.seed;
        ro.resamples = rs.resamples;
    }
    if (t->set[TH_P999_LIFT])
        rc = lift_check(&rs, ts, lat, n, 0.999, t, TH_P999_LIFT, &ro, &out[TH_P999_LIFT], e);
    if (rc == COW_OK && t->set[TH_P99_LIFT])
        rc = lift_check(&rs, ts, lat, n, 0.99, t, TH_P99_LIFT, &ro, &out[TH_P99_LIFT], e);
    if (t->set[TH_P99])
        quantile_check(ts, lat, n, 0.99, t, TH_P99, &out[TH_P99]);
    if (t->set[TH_P999])
        quantile_check(ts, lat, n, 0.999, t, TH_P999, &out[TH_P999]);
    v = NAN;
    if (f.used_memory.known && f.used_memory.num > 0) {
        if (f.rdb_last_cow_size.known && f.rdb_last_cow_size.num >= 0)
            v = f.rdb_last_cow_size.num / f.used_memory.num;
        else if (f.cow_mb.known)
            v = f.cow_mb.num * 1048576 / f.used_memory.num;
    }
    judge(&out[TH_COW], t, TH_COW, v, "no COW size or used_memory captured");
    v = f.latest_fork_usec.known ? f.latest_fork_usec.num / 1000 : NAN;
    judge(&out[TH_FORK], t, TH_FORK, v, "no latest_fork_usec captured");
    if (f.anon_huge.known) {
        out[TH_THP].value = f.anon_huge.num;
        out[TH_THP].state = t->v[TH_THP] != 0 && f.anon_huge.num > 0;
        snprintf(out[TH_THP].note, sizeof(out[TH_THP].note), "AnonHugePages %.0f bytes",
                 f.anon_huge.num);
    } else if (t->v[TH_THP] != 0) {
        missing(&out[TH_THP], t, TH_THP, "no smaps captured");
    } else {
        out[TH_THP].state = 0;
        snprintf(out[TH_THP].note, sizeof(out[TH_THP].note), "no smaps captured");
    }
    out[TH_MIN_N].value = (double)n;
    out[TH_MIN_N].state = (double)n < t->v[TH_MIN_N];
    store_free_results(&rs);
    free(ts);
    free(lat);
    return rc;
}

static const char *state_name(int s)
{
    return s == 0 ? "pass" : s == 1 ? "FAIL" : "n/a";
}

/* The fleet's correction over every run x statistical check: a check
 * with a p-value fails when its adjusted p-value is <= COW_CHECK_ALPHA. */
#define COW_CHECK_ALPHA 0.05

static size_t correct(verdict (*v)[TH_COUNT], size_t n, const thresholds *t, int method)
{
    size_t cells = n * TH_COUNT + 1, i, m;
    double *p = xmalloc(cells * sizeof(double)), *adj = xmalloc(cells * sizeof(double));
    int *fail = xmalloc(cells * sizeof(int));
    int k;

    for (i = 0; i < n; i++)
        for (k = 0; k < TH_COUNT; k++)
            p[i * TH_COUNT + (size_t)k] = t->set[k] ? v[i][k].p : NAN;
    m = fleet_adjust(p, n * TH_COUNT, method, COW_CHECK_ALPHA, adj, fail);
    for (i = 0; i < n; i++)
        for (k = 0; k < TH_COUNT; k++)
            if (!isnan(p[i * TH_COUNT + (size_t)k])) {
                v[i][k].p_adj = adj[i * TH_COUNT + (size_t)k];
                v[i][k].state = fail[i * TH_COUNT + (size_t)k];
            }
    free(p);
    free(adj);
    free(fail);
    return m;
}

static void json_num(cJSON *o, const char *k, double v)
{
    if (isnan(v) || isinf(v))
        cJSON_AddNullToObject(o, k);
    else
        cJSON_AddNumberToObject(o, k, v);
}

int cmd_check(int argc, char **argv)
{
    static const struct option opts[] = {
        {"db", required_argument, NULL, 'd'},
        {"thresholds", required_argument, NULL, 't'},
        {"json", no_argument, NULL, 'j'},
        {"fdr", no_argument, NULL, 'f'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    const char *db = COW_DEFAULT_DB, *tpath = NULL;
    cow_store *st = NULL;
    cow_err e = COW_ERR_INIT;
    cow_run_row *rows = NULL;
    thresholds t;
    size_t n = 0, i, m = 0;
    int c, json = 0, k, code = EXIT_OK, failed = 0, method = COW_FLEET_HOLM;
    cJSON *out = NULL;
    verdict (*v)[TH_COUNT] = NULL;

    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'd': db = optarg; break;
        case 't': tpath = optarg; break;
        case 'j': json = 1; break;
        case 'f': method = COW_FLEET_BH; break;
        case 'h': cli_print_usage(stdout, cmd_check_usage); return EXIT_OK;
        default: cli_print_usage(stderr, cmd_check_usage); return EXIT_USAGE;
        }
    }
    if (tpath == NULL) {
        cli_errorf("check: --thresholds FILE is required");
        return EXIT_USAGE;
    }
    if (load_thresholds(tpath, &t, &e) != COW_OK) {
        cli_error(&e);
        return EXIT_USAGE;
    }
    if (store_open(db, &st, &e) != COW_OK) {
        cli_error(&e);
        return EXIT_IO;
    }
    if (optind < argc) {
        code = cli_ingest_quiet(st, argv + optind, argc - optind, json ? stderr : stdout);
        if (code == EXIT_USAGE || code == EXIT_IO) {
            store_close(st);
            return code;
        }
        code = EXIT_OK; /* rejected lines were reported; the gate goes on */
    }
    if (store_list_runs(st, &rows, &n, &e) != COW_OK) {
        cli_error(&e);
        store_close(st);
        return EXIT_IO;
    }
    if (n == 0) {
        cli_errorf("check: no runs in %s (give capture folders)", db);
        store_close(st);
        return EXIT_USAGE;
    }
    v = xcalloc(n, sizeof(*v));
    for (i = 0; i < n; i++)
        if (evaluate(st, &rows[i], &t, v[i], &e) != COW_OK) {
            cli_error(&e);
            code = EXIT_IO;
            n = i;
            break;
        }
    m = correct(v, n, &t, method);
    if (json)
        out = cJSON_CreateArray();
    else
        printf("%-32s %-18s %-5s %12s  %s\n", "run", "check", "", "value", "detail");
    for (i = 0; i < n; i++) {
        int run_failed = 0;
        cJSON *ro = NULL, *cs = NULL;
        if (json) {
            ro = cJSON_CreateObject();
            cs = cJSON_CreateArray();
            cJSON_AddStringToObject(ro, "run", rows[i].label);
            if (rows[i].host)
                cJSON_AddStringToObject(ro, "host", rows[i].host);
            else
                cJSON_AddNullToObject(ro, "host");
        }
        for (k = 0; k < TH_COUNT; k++) {
            const verdict *x = &v[i][k];
            if (!t.set[k])
                continue;
            run_failed |= x->state == 1;
            if (json) {
                cJSON *o = cJSON_CreateObject();
                cJSON_AddStringToObject(o, "check", th_keys[k]);
                cJSON_AddStringToObject(o, "result", x->state == 0 ? "pass"
                                        : x->state == 1 ? "fail" : "n/a");
                json_num(o, "value", x->value);
                cJSON_AddNumberToObject(o, "limit", t.v[k]);
                cJSON_AddStringToObject(o, "detail", x->note);
                if (x->method != NULL)
                    cJSON_AddStringToObject(o, "method", x->method);
                else
                    cJSON_AddNullToObject(o, "method");
                json_num(o, "n", x->n);
                json_num(o, "n_eff", x->n_eff);
                json_num(o, "p", x->p);
                json_num(o, "p_adjusted", x->p_adj);
                cJSON_AddStringToObject(o, "correction", fleet_method_name(method));
                cJSON_AddNumberToObject(o, "comparisons", (double)m);
                cJSON_AddItemToArray(cs, o);
            } else {
                char val[32] = "-", pv[64] = "";
                if (!isnan(x->value))
                    snprintf(val, sizeof(val), "%.3f", x->value);
                if (!isnan(x->p))
                    snprintf(pv, sizeof(pv), "; p %.3g, %s-adjusted %.3g", x->p,
                             method == COW_FLEET_BH ? "BH" : "Holm", x->p_adj);
                printf("%-32s %-18s %-5s %12s  limit %g%s%s%s\n", rows[i].label, th_keys[k],
                       state_name(x->state), val, t.v[k], x->note[0] ? "; " : "",
                       x->note, pv);
            }
        }
        failed += run_failed;
        if (json) {
            cJSON_AddStringToObject(ro, "result", run_failed ? "fail" : "pass");
            cJSON_AddItemToObject(ro, "checks", cs);
            cJSON_AddItemToArray(out, ro);
        }
    }
    if (json) {
        char *text = cJSON_Print(out);
        puts(text);
        free(text);
        cJSON_Delete(out);
    } else if (code == EXIT_OK) {
        printf("%zu run%s checked: %zu pass, %d fail\n", n, n == 1 ? "" : "s",
               n - (size_t)failed, failed);
        printf("%s over %zu comparisons (runs x limits with a sampling error): a limit "
               "fails when its adjusted p-value is <= %.2f; the others compare the "
               "value with the limit\n",
               method == COW_FLEET_BH ? "Benjamini-Hochberg (false discovery rate)"
                                      : "Holm (family-wise error)", m, COW_CHECK_ALPHA);
    }
    free(v);
    store_free_runs(rows, n);
    store_close(st);
    if (code != EXIT_OK)
        return code;
    return failed ? EXIT_REJECTED : EXIT_OK;
}
