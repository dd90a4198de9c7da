/* num.c -- strict number parsing (see num.h). */
#include "num.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

bool num_parse_i64(const char *p, size_t n, int64_t *out)
{
    size_t i = 0;
    int neg = 0;
    uint64_t v = 0;

    if (n == 0 || n > COW_NUM_MAX_LEN)
        return false;
    if (p[0] == '-' || p[0] == '+') {
        neg = p[0] == '-';
        i = 1;
        if (n == 1)
            return false;
    }
    for (; i < n; i++) {
        unsigned d = (unsigned)(p[i] - '0');
        if (d > 9)
            return false;
        if (v > (UINT64_MAX - d) / 10)
            return false;
        v = v * 10 + d;
    }
    if (neg) {
        if (v > (uint64_t)INT64_MAX + 1)
            return false;
        *out = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
    } else {
        if (v > (uint64_t)INT64_MAX)
            return false;
        *out = (int64_t)v;
    }
    return true;
}

bool num_parse_double(const char *p, size_t n, double *out)
{
    char tmp[COW_NUM_MAX_LEN + 1];
    char *end;
    double v;
    size_t i;
    int digits = 0;

    if (n == 0 || n > COW_NUM_MAX_LEN)
        return false;
    /* Only digits, sign, point and exponent: strtod would also take
     * "inf", "nan", hex floats and leading blanks. */
    for (i = 0; i < n; i++) {
        char c = p[i];
        if (c >= '0' && c <= '9')
            digits = 1;
        else if (c != '.' && c != '-' && c != '+' && c != 'e' && c != 'E')
            return false;
    }
    if (!digits)
        return false;
    memcpy(tmp, p, n);
    tmp[n] = '\0';
    errno = 0;
    v = strtod(tmp, &end);
    if (end != tmp + n || errno == ERANGE || !isfinite(v))
        return false;
    *out = v;
    return true;
}

void num_trim(const char **p, size_t *n)
{
    while (*n > 0 && (**p == ' ' || **p == '\t')) {
        (*p)++;
        (*n)--;
    }
    while (*n > 0 && ((*p)[*n - 1] == ' ' || (*p)[*n - 1] == '\t'))
        (*n)--;
}
