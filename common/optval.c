/* optval.c -- strict option values (see optval.h). */
#include "optval.h"

#include <math.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "num.h"
#include "timeconv.h"
#include "units.h"

static int not_a(const char *opt, const char *arg, const char *what, cow_err *e)
{
    return COW_FAIL(e, COW_EUSAGE, "%s: '%s' is not %s", opt, arg, what);
}

int optval_int(const char *opt, const char *arg, int64_t lo, int64_t hi,
               int64_t *out, cow_err *e)
{
    int64_t v;

    if (!num_parse_i64(arg, strlen(arg), &v))
        return not_a(opt, arg, "an integer", e);
    if (v < lo || v > hi)
        return COW_FAIL(e, COW_EUSAGE, "%s: '%s' is out of range (expected %lld to %lld)",
                        opt, arg, (long long)lo, (long long)hi);
    *out = v;
    return COW_OK;
}

int optval_u64(const char *opt, const char *arg, uint64_t *out, cow_err *e)
{
    uint64_t v = 0;
    size_t i, n = strlen(arg);

    if (n > 0 && arg[0] == '-' && n > 1 && arg[1] >= '0' && arg[1] <= '9')
        return COW_FAIL(e, COW_EUSAGE, "%s: '%s' is negative (expected 0 to %llu)",
                        opt, arg, (unsigned long long)UINT64_MAX);
    if (n == 0 || n > COW_NUM_MAX_LEN)
        return not_a(opt, arg, "an integer", e);
    for (i = 0; i < n; i++) {
        unsigned d = (unsigned)(arg[i] - '0');
        if (d > 9)
            return not_a(opt, arg, "an integer", e);
        if (v > (UINT64_MAX - d) / 10)
            return COW_FAIL(e, COW_EUSAGE, "%s: '%s' is out of range (expected 0 to %llu)",
                            opt, arg, (unsigned long long)UINT64_MAX);
        v = v * 10 + d;
    }
    *out = v;
    return COW_OK;
}

int optval_double(const char *opt, const char *arg, double lo, double hi,
                  double *out, cow_err *e)
{
    double v;

    if (!num_parse_double(arg, strlen(arg), &v))
        return not_a(opt, arg, "a number", e);
    if (!(v >= lo && v <= hi))
        return COW_FAIL(e, COW_EUSAGE, "%s: '%s' is out of range (expected %g to %g)",
                        opt, arg, lo, hi);
    *out = v;
    return COW_OK;
}

/* The numeric prefix of arg: its length, or 0 when there is none. */
static size_t number_len(const char *arg)
{
    size_t i = 0;
    while ((arg[i] >= '0' && arg[i] <= '9') || arg[i] == '.')
        i++;
    return i;
}

int optval_duration_us(const char *opt, const char *arg, int64_t lo_us,
                       int64_t hi_us, int64_t *us, cow_err *e)
{
    static const struct { const char *unit; double us; } units[] = {
        {"ns", 1e-3}, {"us", 1}, {"ms", 1e3}, {"s", 1e6}, {"m", 60e6}, {"h", 3600e6}};
    const char *what = "a duration (a number and a unit: ns, us, ms, s, m, h)";
    size_t k, n = number_len(arg);
    double v, t;

    if (n == 0 || !num_parse_double(arg, n, &v))
        return not_a(opt, arg, what, e);
    for (k = 0; k < sizeof(units) / sizeof(units[0]); k++)
        if (strcmp(arg + n, units[k].unit) == 0)
            break;
    if (k == sizeof(units) / sizeof(units[0]))
        return not_a(opt, arg, what, e);
    t = v * units[k].us;
    if (t != floor(t))
        return COW_FAIL(e, COW_EUSAGE, "%s: '%s' is not a whole number of microseconds",
                        opt, arg);
    if (!(t >= (double)lo_us && t <= (double)hi_us))
        return COW_FAIL(e, COW_EUSAGE, "%s: '%s' is out of range (expected %lldus to %lldus)",
                        opt, arg, (long long)lo_us, (long long)hi_us);
    *us = (int64_t)t;
    return COW_OK;
}

int optval_size(const char *opt, const char *arg, uint64_t lo, uint64_t hi,
                uint64_t *bytes, cow_err *e)
{
    static const struct { const char *unit; uint64_t mul; } units[] = {
        {"", 1}, {"b", 1}, {"k", 1000}, {"m", 1000000}, {"g", 1000000000},
        {"kb", 1024}, {"mb", 1024 * 1024}, {"gb", 1024 * 1024 * 1024},
        {"kib", 1024}, {"mib", 1024 * 1024}, {"gib", 1024 * 1024 * 1024}};
    const char *what = "a size (bytes, or a number and k, m, g, kb, mb, gb)";
    size_t k, i, n = 0;
    uint64_t v = 0;

    while (arg[n] >= '0' && arg[n] <= '9')
        n++;
    if (n == 0 || n > COW_NUM_MAX_LEN)
        return not_a(opt, arg, what, e);
    for (k = 0; k < sizeof(units) / sizeof(units[0]); k++)
        if (strcasecmp(arg + n, units[k].unit) == 0)
            break;
    if (k == sizeof(units) / sizeof(units[0]))
        return not_a(opt, arg, what, e);
    for (i = 0; i < n; i++) {
        unsigned d = (unsigned)(arg[i] - '0');
        if (v > (UINT64_MAX - d) / 10)
            break;
        v = v * 10 + d;
    }
    if (i < n || v > UINT64_MAX / units[k].mul || v * units[k].mul < lo ||
        v * units[k].mul > hi)
        return COW_FAIL(e, COW_EUSAGE, "%s: '%s' is out of range (expected %llu to %llu bytes)",
                        opt, arg, (unsigned long long)lo, (unsigned long long)hi);
    *bytes = v * units[k].mul;
    return COW_OK;
}

int optval_instant_us(const char *opt, const char *arg, int64_t *us, cow_err *e)
{
    size_t n = strlen(arg);

    if (time_parse_iso8601(arg, n, us) || time_parse_epoch(arg, n, us))
        return COW_OK;
    return not_a(opt, arg, "an epoch (s, ms, us) or an ISO 8601 time that exists", e);
}

int optval_utc_offset(const char *opt, const char *arg, int *off_s, cow_err *e)
{
    if (time_parse_offset(arg, off_s))
        return COW_OK;
    return COW_FAIL(e, COW_EUSAGE, "%s: '%s' is not an offset like +02:00, -0500 or UTC "
                    "(zone names are not supported: give the offset in force during "
                    "the capture)", opt, arg);
}

int optval_time_unit(const char *opt, const char *arg, double *us, cow_err *e)
{
    if ((*us = unit_time_us(arg, strlen(arg))) > 0)
        return COW_OK;
    return not_a(opt, arg, "a time unit (ns, us, ms or s, also as nsec, usec, msec, "
                 "sec, nanos, micros, millis or written out)", e);
}

int optval_mem_unit(const char *opt, const char *arg, double *bytes, cow_err *e)
{
    if ((*bytes = unit_mem_bytes(arg)) > 0)
        return COW_OK;
    return not_a(opt, arg, "a memory unit (bytes, kB, MB or GB, powers of 1024; "
                 "also KiB, MiB, GiB, k, m, g)", e);
}
