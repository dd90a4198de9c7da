/* diag_window.c -- what the doctor's rules read from a comparison of a
 * window with its baseline (diag_rules_int.h): did the tail lift, did the
 * median move materially, and the evidence line of a delta; and how a
 * fact's text is matched. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "boot.h"
#include "diag_rules_int.h"
#include "verdict.h"

/* A significant median shift smaller than this fraction of the baseline
 * median is not called a lift of the whole distribution (a few stalls
 * move the median of 1,500 samples by microseconds). */
#define MEDIAN_MATERIAL 0.05
/* ... nor one smaller than this share of the tail's (p99) move: a 55%
 * move of a 33 us median is not material next to a 1.1 ms p99 lift. */
#define MEDIAN_TAIL_SHARE 0.10

const char *const diag_level_name[4] = {"p50", "p90", "p99", "p99.9"};

int diag_lifted(const cow_window_fact *w)
{
    return w->present && (w->verdict[L99] == COW_VERDICT_LIFT ||
                          w->verdict[L999] == COW_VERDICT_LIFT);
}

/* p50 moved significantly, by a material share of its baseline and of
 * the tail's move. */
int diag_median_moved(const cow_window_fact *w)
{
    return w->verdict[L50] == COW_VERDICT_LIFT &&
           w->delta_us[L50] >= MEDIAN_MATERIAL * w->base_us[L50] &&
           !(w->delta_us[L99] > 0 && w->delta_us[L50] < MEDIAN_TAIL_SHARE * w->delta_us[L99]);
}

/* p50's own interval shows a material rise: significant, and its lower
 * bound at least MEDIAN_MATERIAL of the baseline p50. */
int diag_median_material(const cow_window_fact *w)
{
    return w->verdict[L50] == COW_VERDICT_LIFT && !isnan(w->lo_us[L50]) &&
           w->lo_us[L50] >= MEDIAN_MATERIAL * w->base_us[L50];
}

/* The level that lifted most (p99.9 preferred), for titles. */
int diag_lift_level(const cow_window_fact *w)
{
    return w->verdict[L999] == COW_VERDICT_LIFT ? L999 : L99;
}

/* The comparison at level l as a structured field of the finding. */
void diag_delta_stat(cow_finding *f, const cow_window_fact *w, int l)
{
    cow_qstat *s;
    int k;
    for (k = 0; k < f->nqs; k++)
        if (f->qs[k].quantile == diag_level_name[l])
            return;
    if (f->nqs >= COW_MAX_QSTATS)
        return;
    s = &f->qs[f->nqs++];
    s->quantile = diag_level_name[l];
    snprintf(s->window, sizeof(s->window), "%s", w->label);
    s->n = w->n;
    s->base_n = w->base_n;
    s->n_eff = w->n_eff[l];
    s->n_eff_base = w->n_eff_base[l];
    s->method = w->method[l];
    s->verdict = w->verdict[l];
}

void diag_delta_evidence(cow_finding *f, const cow_window_fact *w, int l)
{
    char metric[48], ci[48];
    diag_delta_stat(f, w, l);
    snprintf(metric, sizeof(metric), "%s delta %s", diag_level_name[l], w->label);
    qcmp_format_bounds(w->method[l], w->verdict[l], w->lo_us[l], w->hi_us[l], ci,
                       sizeof(ci));
    diag_evidence(f, metric, "analysis",
                  "%+.3f ms (95%%: %s), %s by %s, n=%lld vs %lld, n_eff=%.0f vs %.0f",
                  w->delta_us[l] / 1000, ci, boot_verdict_name(w->verdict[l]),
                  qcmp_method_name(w->method[l]), (long long)w->n, (long long)w->base_n,
                  w->n_eff[l], w->n_eff_base[l]);
}

int diag_is_text(const cow_fact *v, const char *s)
{
    return v->known && strcasecmp(v->text, s) == 0;
}

/* THP's mode as set: the bracketed word of "always [madvise] never", or
 * the whole text when it names one mode. */
int diag_thp_is(const cow_fact *v, const char *mode)
{
    char want[24];
    if (!v->known)
        return 0;
    snprintf(want, sizeof(want), "[%s]", mode);
    return strcasecmp(v->text, mode) == 0 || strstr(v->text, want) != NULL;
}
