/* mem.h -- allocation that never returns NULL.
 *
 * Running out of memory is not an input error: trying to recover from it
 * is futile in a batch tool, so these print one line and abort. */
#ifndef COW_COMMON_MEM_H
#define COW_COMMON_MEM_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
/* Grow an array of elem-sized items to hold at least need items; *cap is
 * updated geometrically. Returns the (possibly moved) array. */
void *xgrow(void *p, size_t elem, size_t need, size_t *cap);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* printf into a new string of the length it needs: never cut. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
