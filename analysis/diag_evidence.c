/* diag_evidence.c -- what the doctor's rules (diag_rules.c) cite: one
 * evidence line of a finding, from a formatted value or a gathered fact
 * (diag.h). */
#include "diag.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

void diag_evidence(cow_finding *f, const char *metric, const char *src,
                   const char *fmt, ...)
{
    cow_evidence *v;
    va_list ap;
    if (f->nev >= COW_MAX_EVIDENCE)
        return;
    v = &f->ev[f->nev++];
    snprintf(v->metric, sizeof(v->metric), "%s", metric);
    snprintf(v->src, sizeof(v->src), "%s", src ? src : "");
    va_start(ap, fmt);
    vsnprintf(v->value, sizeof(v->value), fmt, ap);
    va_end(ap);
}

void diag_fact(cow_finding *f, const char *metric, const cow_fact *v)
{
    if (!v->known)
        return;
    if (!isnan(v->num) && v->text[0] == '\0')
        diag_evidence(f, metric, v->src, "%.17g", v->num);
    else
        diag_evidence(f, metric, v->src, "%s", v->text);
}
