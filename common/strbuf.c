#include "strbuf.h"

#include <stdio.h>

#include "mem.h"

void sbuf_vadd(cow_sbuf *b, const char *fmt, va_list ap)
{
    va_list aq;
    int k;

    va_copy(aq, ap);
    k = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    if (k <= 0)
        return;
    b->s = xgrow(b->s, 1, b->n + (size_t)k + 1, &b->cap);
    vsnprintf(b->s + b->n, (size_t)k + 1, fmt, ap);
    b->n += (size_t)k;
}

void sbuf_add(cow_sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sbuf_vadd(b, fmt, ap);
    va_end(ap);
}

char *sbuf_take(cow_sbuf *b)
{
    char *s = b->s ? b->s : xstrdup("");
    b->s = NULL;
    b->n = b->cap = 0;
    return s;
}
