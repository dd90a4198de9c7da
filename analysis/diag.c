/* diag.c -- the rule engine: every rule of diag_rules.c's table on every
 * run. The rules build their findings with diag_evidence.c; this file
 * calls the table, and nothing of it calls back here. */
#include "diag.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"

const char *diag_severity_name(int s)
{
    switch (s) {
    case COW_SEV_CRIT: return "critical";
    case COW_SEV_WARN: return "warning";
    default: return "info";
    }
}

void diag_run(const cow_run_facts *runs, size_t n, cow_findings *out)
{
    const cow_rule *r;
    size_t i;

    memset(out, 0, sizeof(*out));
    for (i = 0; i < n; i++) {
        for (r = diag_rules(); r->id != NULL; r++) {
            cow_finding f;
            memset(&f, 0, sizeof(f));
            f.rule = r->id;
            f.severity = r->severity;
            f.run = xstrdup(runs[i].label ? runs[i].label : "");
            if (!r->fn(runs, n, i, &f)) {
                diag_finding_free(&f);
                continue;
            }
            if (f.title == NULL)
                f.title = xstrdup(r->what);
            if (f.advice == NULL)
                f.advice = xstrdup("");
            out->v = xgrow(out->v, sizeof(cow_finding), out->n + 1, &out->cap);
            out->v[out->n++] = f;
        }
    }
}

void diag_host_overlaps(cow_run_facts *runs, size_t n)
{
    size_t i, j;
    int a, b;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            int hit = 0;
            if (i == j || runs[i].host == NULL || runs[j].host == NULL ||
                strcmp(runs[i].host, runs[j].host) != 0)
                continue;
            for (a = 0; a < runs[i].nwin && !hit; a++)
                for (b = 0; b < runs[j].nwin && !hit; b++)
                    hit = runs[i].win_t0[a] < runs[j].win_t1[b] &&
                          runs[j].win_t0[b] < runs[i].win_t1[a];
            if (hit) {
                runs[i].host_overlaps++;
                runs[i].host_overlap_with = runs[j].label;
            }
        }
}

void diag_release(cow_findings *f)
{
    size_t i;
    for (i = 0; i < f->n; i++)
        diag_finding_free(&f->v[i]);
    free(f->v);
    memset(f, 0, sizeof(*f));
}
