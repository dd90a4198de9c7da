/* num.h -- strict number parsing: the whole field or an error.
 *
 * Like redis string2ll/string2d: no leading or trailing spaces (callers
 * trim), no empty field, overflow is an error, no locale. */
#ifndef COW_COMMON_NUM_H
#define COW_COMMON_NUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Longest field these accept; longer is not a number we expect. */
#define COW_NUM_MAX_LEN 64

/* true and *out set when p[0..n) is a decimal integer. */
bool num_parse_i64(const char *p, size_t n, int64_t *out);
/* true and *out set when p[0..n) is a finite decimal or exponent number. */
bool num_parse_double(const char *p, size_t n, double *out);
/* Trim ASCII blanks at both ends of [*p, *p + *n). */
void num_trim(const char **p, size_t *n);

#endif
