/* timeconv.c -- calendar arithmetic without the C library's time zone. */
#include "timeconv.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "num.h"

/* Howard Hinnant's days_from_civil. */
int64_t time_days_from_civil(int64_t y, int m, int d)
{
    int64_t era, yoe, doy, doe;

    y -= m <= 2;
    era = (y >= 0 ? y : y - 399) / 400;
    yoe = y - era * 400;
    doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

int64_t time_us_from_civil(int y, int mon, int d, int h, int mi, int s, int us)
{
    int64_t days = time_days_from_civil(y, mon, d);
    return ((days * 86400) + h * 3600 + mi * 60 + s) * COW_US_PER_S + us;
}

static bool digits(const char *p, size_t n, int *out)
{
    int v = 0;
    size_t i;
    for (i = 0; i < n; i++) {
        if (p[i] < '0' || p[i] > '9')
            return false;
        v = v * 10 + (p[i] - '0');
    }
    *out = v;
    return true;
}

bool time_parse_offset(const char *s, int *off_s)
{
    size_t n = strlen(s);
    int hh = 0, mm = 0, sign;

    if (n == 0 || strcmp(s, "Z") == 0 || strcmp(s, "UTC") == 0 ||
        strcmp(s, "utc") == 0 || strcmp(s, "GMT") == 0) {
        *off_s = 0;
        return true;
    }
    if (s[0] != '+' && s[0] != '-')
        return false;
    sign = s[0] == '-' ? -1 : 1;
    if (n == 3 && digits(s + 1, 2, &hh))
        mm = 0;
    else if (n == 5 && digits(s + 1, 2, &hh) && digits(s + 3, 2, &mm))
        ;
    else if (n == 6 && s[3] == ':' && digits(s + 1, 2, &hh) &&
             digits(s + 4, 2, &mm))
        ;
    else
        return false;
    if (hh > 14 || mm > 59)
        return false;
    *off_s = sign * (hh * 3600 + mm * 60);
    return true;
}

static bool is_leap(int y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

int time_month_days(int y, int mon)
{
    static const int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (mon < 1 || mon > 12)
        return 0;
    if (mon == 2 && (y == 0 || is_leap(y)))
        return 29;
    return days[mon - 1];
}

static bool bad(const char **why, const char *msg)
{
    if (why)
        *why = msg;
    return false;
}

/* ".frac" at p[*i]: fills t->us and t->frac_digits, advances *i. */
static bool iso_fraction(const char *p, size_t n, size_t *i, cow_iso *t)
{
    int scale = 1000000;

    (*i)++;
    if (*i >= n || p[*i] < '0' || p[*i] > '9')
        return false;
    while (*i < n && p[*i] >= '0' && p[*i] <= '9') {
        if (scale > 1) {
            scale /= 10;
            t->us += (p[*i] - '0') * scale;
        }
        t->frac_digits++;
        (*i)++;
    }
    return true;
}

bool time_parse_iso(const char *p, size_t n, cow_iso *t, const char **why)
{
    const char *shape = "time stamp is not ISO 8601 (YYYY-MM-DDThh:mm:ss[.frac][+hh:mm])";
    size_t i = 19;
    char zone[8];

    memset(t, 0, sizeof(*t));
    if (n < 19 || p[4] != '-' || p[7] != '-' || (p[10] != 'T' && p[10] != ' ') ||
        p[13] != ':' || p[16] != ':' || !digits(p, 4, &t->y) ||
        !digits(p + 5, 2, &t->mon) || !digits(p + 8, 2, &t->d) ||
        !digits(p + 11, 2, &t->h) || !digits(p + 14, 2, &t->mi) ||
        !digits(p + 17, 2, &t->s))
        return bad(why, shape);
    if (t->mon < 1 || t->mon > 12)
        return bad(why, "impossible month (01..12)");
    if (t->d < 1 || t->d > time_month_days(t->y, t->mon))
        return bad(why, "impossible day of the month");
    if (t->h > 23 || t->mi > 59 || t->s > 59)
        return bad(why, "impossible time of day (hour, minute or second out of range)");
    if (i < n && (p[i] == '.' || p[i] == ',') && !iso_fraction(p, n, &i, t))
        return bad(why, shape);
    if (i == n)
        return true;
    if (n - i >= sizeof(zone))
        return bad(why, "time stamp has an unreadable zone offset");
    memcpy(zone, p + i, n - i);
    zone[n - i] = '\0';
    if (!time_parse_offset(zone, &t->off_s))
        return bad(why, "time stamp has an unreadable zone offset");
    t->has_zone = true;
    return true;
}

int64_t time_iso_us(const cow_iso *t)
{
    return time_us_from_civil(t->y, t->mon, t->d, t->h, t->mi, t->s, t->us) -
           (int64_t)t->off_s * COW_US_PER_S;
}

static bool epoch_in_range(double s)
{
    return s >= (double)COW_EPOCH_MIN_S && s < (double)COW_EPOCH_MAX_S;
}

bool time_parse_epoch(const char *p, size_t n, int64_t *us)
{
    static const double per_s[] = {1.0, 1e3, 1e6, 1e9};
    static const int64_t to_us_mul[] = {1000000, 1000, 1, 0};
    int64_t iv;
    double v;
    int i;

    if (num_parse_i64(p, n, &iv)) {
        for (i = 0; i < 4; i++)
            if (epoch_in_range((double)iv / per_s[i])) {
                *us = i < 3 ? iv * to_us_mul[i] : iv / 1000;
                return true;
            }
        return false;
    }
    if (!num_parse_double(p, n, &v))
        return false;
    for (i = 0; i < 4; i++)
        if (epoch_in_range(v / per_s[i])) {
            *us = (int64_t)llround(v / per_s[i] * 1e6);
            return true;
        }
    return false;
}

bool time_epoch_guess_us(double v, int64_t *us)
{
    static const double mult[] = {1e6, 1e3, 1.0, 1e-3};
    size_t i;

    for (i = 0; i < sizeof(mult) / sizeof(mult[0]); i++) {
        double x = v * mult[i];
        if (x >= (double)COW_EPOCH_MIN_S * 1e6 && x < (double)COW_EPOCH_MAX_S * 1e6) {
            *us = (int64_t)llround(x);
            return true;
        }
    }
    return false;
}

bool time_parse_iso8601(const char *p, size_t n, int64_t *us)
{
    cow_iso t;

    if (!time_parse_iso(p, n, &t, NULL))
        return false;
    *us = time_iso_us(&t);
    return true;
}

int time_month_from_abbr(const char *p)
{
    static const char names[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
    int i;
    for (i = 0; i < 12; i++)
        if (memcmp(p, names + 3 * i, 3) == 0)
            return i + 1;
    return 0;
}

void time_format_iso(int64_t us, char *out, size_t n)
{
    int64_t s = us >= 0 ? us / COW_US_PER_S : -((-us + 999999) / COW_US_PER_S);
    int64_t rem = us - s * COW_US_PER_S;
    int64_t days = s >= 0 ? s / 86400 : -((-s + 86399) / 86400);
    int64_t sod = s - days * 86400;
    /* civil_from_days */
    int64_t z = days + 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t y = yoe + era * 400;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    int64_t d = doy - (153 * mp + 2) / 5 + 1;
    int64_t m = mp < 10 ? mp + 3 : mp - 9;
    y += m <= 2;
    snprintf(out, n, "%04lld-%02lld-%02lldT%02lld:%02lld:%02lld.%03lldZ",
             (long long)y, (long long)m, (long long)d, (long long)(sod / 3600),
             (long long)(sod / 60 % 60), (long long)(sod % 60),
             (long long)(rem / 1000));
}

void time_format_iso_s(int64_t us, char *out, size_t n)
{
    char *dot;
    time_format_iso(us, out, n);
    if ((dot = strchr(out, '.')) != NULL && (size_t)(dot - out) + 2 <= n)
        memcpy(dot, "Z", 2);
}
