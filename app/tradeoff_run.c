/* tradeoff_run.c -- runs into trials into a comparison (tradeoff_run.h). */
#include "tradeoff_run.h"

#include <stdlib.h>
#include <string.h>

#include "facts.h"
#include "mem.h"

static int same(const char *want, const char *have)
{
    return want == NULL || (have != NULL && strcmp(want, have) == 0);
}

static int selected(const cow_run_row *r, const app_tradeoff_sel *sel, const char *host,
                    const char *scenario)
{
    int want = sel->nlabels == 0, a;
    for (a = 0; a < sel->nlabels; a++)
        want |= strcmp(r->label, sel->labels[a]) == 0;
    return want && r->mode != NULL && r->samples > 0 && same(scenario, r->scenario) &&
           same(host, r->host);
}

int app_tradeoff_run(cow_store *st, const cow_run_row *rows, size_t n,
                     const app_tradeoff_sel *sel, uint64_t seed, app_tradeoff *out,
                     cow_err *e)
{
    size_t i;
    int rc;

    memset(out, 0, sizeof(*out));
    out->host = sel->host;
    out->scenario = sel->scenario;
    out->tr = xcalloc(n ? n : 1, sizeof(*out->tr));
    if (sel->nlabels == 0 && sel->scenario == NULL && sel->host == NULL)
        out->picked = facts_tradeoff_group(rows, n, &out->host, &out->scenario) == 0;
    for (i = 0; i < n; i++) {
        if (!selected(&rows[i], sel, out->host, out->scenario))
            continue;
        if ((rc = facts_trial(st, &rows[i], &out->tr[out->nt], e)) != COW_OK)
            return rc;
        out->nt++;
    }
    if (out->nt == 0)
        return COW_OK;
    return tradeoff_compute(out->tr, out->nt, seed, &out->t, e);
}

void app_tradeoff_release(app_tradeoff *t)
{
    free(t->tr);
    memset(t, 0, sizeof(*t));
}
