/* diag_evidence.c -- what the doctor's rules (diag_rules.c) cite: one
 * evidence line of a finding, from a formatted value or a gathered fact
 * (diag.h). */
#include "diag.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"

/* A heap string from fmt and ap, appended to *dst when append (else
 * replacing it). */
__attribute__((format(printf, 3, 0)))
static void put(char **dst, int append, const char *fmt, va_list ap)
{
    va_list aq;
    size_t old = append && *dst ? strlen(*dst) : 0;
    int k;
    va_copy(aq, ap);
    k = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    if (k < 0)
        k = 0;
    if (!append) {
        free(*dst);
        *dst = NULL;
    }
    *dst = xrealloc(*dst, old + (size_t)k + 1);
    vsnprintf(*dst + old, (size_t)k + 1, fmt, ap);
}

static char *dup_of(const char *s)
{
    return xstrdup(s ? s : "");
}

void diag_title(cow_finding *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    put(&f->title, 0, fmt, ap);
    va_end(ap);
}

void diag_title_add(cow_finding *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    put(&f->title, 1, fmt, ap);
    va_end(ap);
}

void diag_advice(cow_finding *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    put(&f->advice, 0, fmt, ap);
    va_end(ap);
}

void diag_advice_add(cow_finding *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    put(&f->advice, 1, fmt, ap);
    va_end(ap);
}

void diag_finding_free(cow_finding *f)
{
    int k;
    free(f->run);
    free(f->title);
    free(f->advice);
    for (k = 0; k < f->nev; k++) {
        free(f->ev[k].metric);
        free(f->ev[k].value);
        free(f->ev[k].src);
    }
    f->run = f->title = f->advice = NULL;
    f->nev = 0;
}

void diag_evidence(cow_finding *f, const char *metric, const char *src,
                   const char *fmt, ...)
{
    cow_evidence *v;
    va_list ap;
    if (f->nev >= COW_MAX_EVIDENCE)
        return;
    v = &f->ev[f->nev++];
    v->metric = dup_of(metric);
    v->src = dup_of(src);
    v->value = NULL;
    va_start(ap, fmt);
    put(&v->value, 0, fmt, ap);
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
