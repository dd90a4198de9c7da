/* A growing NUL-terminated string: text built piece by piece without a
 * fixed-size buffer (finding texts, answers, chart dumps). */
#ifndef COW_STRBUF_H
#define COW_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

typedef struct cow_sbuf {
    char *s;          /* text, NUL-terminated; NULL while empty */
    size_t n, cap;    /* used / allocated */
} cow_sbuf;

/* Append printf-style text (aborts on memory exhaustion, as mem.h does). */
void sbuf_add(cow_sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sbuf_vadd(cow_sbuf *b, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
/* The text, owned by the caller ("" when nothing was added); b is empty after. */
char *sbuf_take(cow_sbuf *b);

#endif
