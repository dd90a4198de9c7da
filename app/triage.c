/* triage.c -- what the failing runs share (triage.h).
 *
 * Requirements:
 *  1. Counts, not guesses: every judged run counts once per attribute,
 *     under its value or under "unknown".
 *  2. The order says how strongly an attribute separates failing from
 *     passing runs: the largest (share among failing - share among
 *     passing) of its values; deterministic ties. */
#include "triage.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "runfacts.h"

const char *const app_triage_keys[TRI_COUNT] = {
    "server_version", "kernel_release", "thp_mode", "thp_backs_heap",
    "vm_overcommit_memory", "repl_diskless_sync", "dataset_size", "keys", "host"};
const char *const app_triage_names[TRI_COUNT] = {
    "server version", "kernel release", "THP mode", "THP backs the heap",
    "vm.overcommit_memory", "repl-diskless-sync", "dataset (used_memory)",
    "keys (largest db)", "host"};

void app_triage_bucket(double bytes, char *buf, size_t n)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    double lo = 1;
    int u = 0;

    if (isnan(bytes) || bytes < 0) {
        snprintf(buf, n, APP_TRIAGE_UNKNOWN);
        return;
    }
    if (bytes < 1) {
        snprintf(buf, n, "0 B");
        return;
    }
    while (lo * 2 <= bytes)
        lo *= 2;
    while (lo >= 1024 && u < 5) {
        lo /= 1024;
        u++;
    }
    /* [lo, 2 lo) in unit u; 512-1024 MiB is written 512 MiB-1 GiB */
    if (lo * 2 >= 1024 && u < 5)
        snprintf(buf, n, "%.0f %s-1 %s", lo, unit[u], unit[u + 1]);
    else
        snprintf(buf, n, "%.0f-%.0f %s", lo, lo * 2, unit[u]);
}

void app_triage_bucket10(double count, char *buf, size_t n)
{
    static const char *const si[] = {"", "k", "M", "G", "T", "P"};
    double lo = 1;
    int e = 0;

    if (isnan(count) || count < 0) {
        snprintf(buf, n, APP_TRIAGE_UNKNOWN);
        return;
    }
    if (count < 1) {
        snprintf(buf, n, "0");
        return;
    }
    while (lo * 10 <= count && e < 17) {
        lo *= 10;
        e++;
    }
    /* [10^e, 10^(e+1)): "100k-1M" */
    snprintf(buf, n, "%.0f%s-%.0f%s", pow(10, e % 3), si[e / 3], pow(10, (e + 1) % 3),
             si[(e + 1) / 3]);
}

static void put(app_triage_facts *f, int a, const cow_fact *x, const char *text)
{
    snprintf(f->v[a], sizeof(f->v[a]), "%.63s",
             x->known && text && text[0] ? text : APP_TRIAGE_UNKNOWN);
}

void app_triage_of(const cow_run_row *r, const cow_fact v[COW_RF_COUNT], app_triage_facts *f)
{
    const cow_fact *x;
    cow_fact host;
    char buf[128];

    memset(f, 0, sizeof(*f));
    snprintf(buf, sizeof(buf), "%.20s %.60s", v[RF_SERVER_KIND].text,
             v[RF_SERVER_VERSION].text);
    put(f, TRI_VERSION, &v[RF_SERVER_VERSION], buf);
    put(f, TRI_KERNEL, &v[RF_KERNEL], v[RF_KERNEL].text);
    put(f, TRI_THP_MODE, &v[RF_THP_ENABLED], v[RF_THP_ENABLED].text);
    x = &v[RF_ANON_HUGE];
    put(f, TRI_THP_HEAP, x, isnan(x->num) ? NULL : x->num > 0 ? "yes" : "no");
    x = &v[RF_OVERCOMMIT];
    snprintf(buf, sizeof(buf), "%.0f", x->num);
    put(f, TRI_OVERCOMMIT, x, isnan(x->num) ? NULL : buf);
    put(f, TRI_DISKLESS, &v[RF_DISKLESS], v[RF_DISKLESS].text);
    x = &v[RF_USED_MEMORY];
    app_triage_bucket(x->known ? x->num : NAN, buf, sizeof(buf));
    put(f, TRI_DATASET, x, buf);
    x = &v[RF_KEYS];
    app_triage_bucket10(x->known ? x->num : NAN, buf, sizeof(buf));
    put(f, TRI_KEYS, x, buf);
    memset(&host, 0, sizeof(host));
    host.known = r->host != NULL;
    put(f, TRI_HOST, &host, r->host);
}

int app_triage_load(cow_store *st, const cow_run_row *r, app_triage_facts *f, cow_err *e)
{
    cow_fact v[COW_RF_COUNT];
    int present, rc;

    if ((rc = store_run_facts_get(st, r->id, v, &present, e)) != COW_OK)
        return rc;
    /* a database from before run_facts: the same facts, made now */
    if (!present && (rc = app_run_facts(st, r, v, e)) != COW_OK)
        return rc;
    app_triage_of(r, v, f);
    return COW_OK;
}

static int cmp_value(const void *a, const void *b)
{
    const app_triage_value *x = a, *y = b;
    if (x->separation != y->separation)
        return x->separation < y->separation ? 1 : -1;
    if (x->failing != y->failing)
        return x->failing < y->failing ? 1 : -1;
    return strcmp(x->value, y->value);
}

static int cmp_row(const void *a, const void *b)
{
    const app_triage_row *x = a, *y = b;
    if (x->separation != y->separation)
        return x->separation < y->separation ? 1 : -1;
    return (x->attr > y->attr) - (x->attr < y->attr);
}

void app_triage_rank(const app_triage_facts *f, const int *failed, size_t n,
                     app_triage *out)
{
    size_t i, j;
    int a;

    memset(out, 0, sizeof(*out));
    for (i = 0; i < n; i++) {
        out->failing += failed[i] != 0;
        out->passing += failed[i] == 0;
    }
    if (out->failing == 0)
        return;
    for (a = 0; a < TRI_COUNT; a++) {
        app_triage_row *r = &out->a[a];
        size_t cap = 0;
        r->attr = a;
        for (i = 0; i < n; i++) {
            for (j = 0; j < r->nv; j++)
                if (strcmp(r->v[j].value, f[i].v[a]) == 0)
                    break;
            if (j == r->nv) {
                r->v = xgrow(r->v, sizeof(*r->v), r->nv + 1, &cap);
                memset(&r->v[j], 0, sizeof(r->v[j]));
                snprintf(r->v[j].value, sizeof(r->v[j].value), "%s", f[i].v[a]);
                r->nv++;
            }
            if (failed[i])
                r->v[j].failing++;
            else
                r->v[j].passing++;
        }
        r->separation = -INFINITY;
        for (j = 0; j < r->nv; j++) {
            app_triage_value *v = &r->v[j];
            v->separation = (double)v->failing / out->failing -
                            (out->passing ? (double)v->passing / out->passing : 0);
            if (v->separation > r->separation)
                r->separation = v->separation;
        }
        qsort(r->v, r->nv, sizeof(*r->v), cmp_value);
    }
    out->nattr = TRI_COUNT;
    qsort(out->a, TRI_COUNT, sizeof(out->a[0]), cmp_row);
}

void app_triage_release(app_triage *t)
{
    int a;
    for (a = 0; a < TRI_COUNT; a++)
        free(t->a[a].v);
    memset(t, 0, sizeof(*t));
}
