/* infoval.c -- the numeric meaning of an INFO or CONFIG GET value
 * (infoval.h): plain numbers, a trailing '%' stripped, human sizes
 * converted to bytes (361.01M = 361.01 * 1024^2; 0B = 0), else NAN. */
#include "infoval.h"

#include <math.h>
#include <string.h>

#include "num.h"

/* "361.01M" -> bytes, powers of 1024 as INFO's bytesToHuman prints them. */
static bool info_human_size(const char *v, size_t n, double *out)
{
    static const char units[] = "BKMGTP";
    const char *u;
    double d;

    if (n < 2 || (u = strchr(units, v[n - 1])) == NULL ||
        !num_parse_double(v, n - 1, &d) || d < 0)
        return false;
    *out = d * pow(1024.0, (double)(u - units));
    return true;
}

/* The numeric meaning of an INFO value, NAN when it has none. */
double info_value_num(const char *v, size_t n)
{
    double d;
    if (num_parse_double(v, n, &d))
        return d;
    if (n > 1 && v[n - 1] == '%' && num_parse_double(v, n - 1, &d))
        return d;
    if (info_human_size(v, n, &d))
        return d;
    return NAN;
}
