/* diag_threshold.c -- the skeleton of the doctor's threshold rules
 * (diag_rules_int.h): one fact weighed against a limit, then a fixed
 * title, the facts cited and the advice. */
#include <stdio.h>

#include "diag_rules_int.h"

_Static_assert(offsetof(cow_run_facts, label) == 0,
               "DIAG_FACT() 0 means none: no cow_fact may come first");

static const cow_fact *fact_at(const cow_run_facts *x, size_t off)
{
    return (const cow_fact *)(const void *)((const char *)x + off);
}

int diag_threshold_fire(const struct cow_threshold *t, const cow_run_facts *runs,
                        size_t n, size_t i, cow_finding *f)
{
    const cow_run_facts *x = &runs[i];
    const cow_fact *v = fact_at(x, t->fact);
    int k;
    (void)n;
    if (!v->known)
        return 0;
    if ((t->test == DIAG_ABOVE && !(v->num > t->limit)) ||
        (t->test == DIAG_AT_LEAST && !(v->num >= t->limit)))
        return 0;
    if (t->silent_if_known != 0 && fact_at(x, t->silent_if_known)->known)
        return 0;
    if (t->title_after != NULL)
        diag_title(f, "%s%.0f%s", t->title, v->num, t->title_after);
    else
        diag_title(f, "%s", t->title);
    for (k = 0; k < DIAG_MAX_CITES && t->cite[k].metric != NULL; k++)
        diag_fact(f, t->cite[k].metric, fact_at(x, t->cite[k].fact));
    diag_advice(f, "%s", t->advice);
    return 1;
}
