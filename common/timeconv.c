/* timeconv.c -- calendar arithmetic without the C library's time zone. */
#include "timeconv.h"

#include <stdio.h>
#include <string.h>

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

bool time_parse_iso8601(const char *p, size_t n, int64_t *us)
{
    int y, mo, d, h, mi, s, frac = 0, scale = 1000000, off = 0;
    size_t i = 19;

    if (n < 19 || p[4] != '-' || p[7] != '-' || (p[10] != 'T' && p[10] != ' ') ||
        p[13] != ':' || p[16] != ':')
        return false;
    if (!digits(p, 4, &y) || !digits(p + 5, 2, &mo) || !digits(p + 8, 2, &d) ||
        !digits(p + 11, 2, &h) || !digits(p + 14, 2, &mi) ||
        !digits(p + 17, 2, &s))
        return false;
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60)
        return false;
    if (i < n && (p[i] == '.' || p[i] == ',')) {
        i++;
        if (i >= n || p[i] < '0' || p[i] > '9')
            return false;
        while (i < n && p[i] >= '0' && p[i] <= '9') {
            if (scale > 1) {
                scale /= 10;
                frac += (p[i] - '0') * scale;
            }
            i++;
        }
    }
    if (i < n) {
        char zone[8];
        if (n - i >= sizeof(zone))
            return false;
        memcpy(zone, p + i, n - i);
        zone[n - i] = '\0';
        if (!time_parse_offset(zone, &off))
            return false;
    }
    *us = time_us_from_civil(y, mo, d, h, mi, s, frac) - (int64_t)off * COW_US_PER_S;
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
