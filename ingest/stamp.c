/* stamp.c -- what counts as a time stamp, for the INFO, LATENCY and
 * redis-cli parsers (stamp.h).
 *
 * Timestamp lines. After blanks and decoration ('#', '=', '-', '*', '>',
 * '[' before; '=', '-', '*', '<', ']' after) and an optional label
 * ("ts", "t", "time", "timestamp", "date", "at", any case, then ':', '='
 * or blanks: "# ts 2026-12-03T03:19:19Z"; after blanks the label counts
 * only when the rest is a stamp), the rest must be one of:
 *   - an epoch whose unit follows from its digit count: 9-10 s, 12-13 ms,
 *     15-16 us, 18-19 ns, or seconds with a fraction ("1738591331.532");
 *   - ISO 8601 / RFC 3339 ("2025-02-03T14:02:11.532Z", "2025-02-03
 *     14:02:11+01:00"; no zone = UTC);
 *   - `date` output: weekday (optional), month name, day, hh:mm:ss[.frac],
 *     optional AM/PM, year, and a zone that is UTC, GMT, Z or a numeric
 *     offset ("Mon Feb  3 14:02:11 UTC 2025", `date -R`). A named local
 *     zone (CET, PST...) is ambiguous: such a line is rejected with a
 *     reason, so use `date -u` or `date +%s%3N`.
 * Anything else is not a stamp. Stamps outside 1990..2100 are rejected. */
#include "stamp.h"

#include <string.h>

#include "num.h"
#include "text.h"
#include "timeconv.h"

/* ---------------------------------------------------------------- text */

static int lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool is_alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* ---------------------------------------------------------------- stamps */

bool info_epoch_parse(const char *p, size_t n, int64_t *us, const char **unit)
{
    size_t i, dot = n;
    int64_t v, x, frac = 0, scale = 100000;

    for (i = 0; i < n; i++) {
        if (p[i] == '.' && dot == n && i > 0)
            dot = i;
        else if (!is_digit(p[i]))
            return false;
    }
    if (dot == 0 || dot > 19 || !num_parse_i64(p, dot, &v))
        return false;
    if (dot < n) { /* seconds with a fraction */
        if (dot < 9 || dot > 10 || dot + 1 == n)
            return false;
        for (i = dot + 1; i < n && scale > 0; i++, scale /= 10)
            frac += (p[i] - '0') * scale;
        *unit = "s";
        x = v * COW_US_PER_S + frac;
    } else if (dot >= 9 && dot <= 10) {
        *unit = "s";
        x = v * COW_US_PER_S;
    } else if (dot >= 12 && dot <= 13) {
        *unit = "ms";
        x = v * 1000;
    } else if (dot >= 15 && dot <= 16) {
        *unit = "us";
        x = v;
    } else if (dot >= 18 && dot <= 19) {
        *unit = "ns";
        x = v / 1000;
    } else {
        return false;
    }
    if (x < COW_EPOCH_MIN_S * COW_US_PER_S || x > COW_EPOCH_MAX_S * COW_US_PER_S)
        return false;
    *us = x;
    return true;
}

/* Date parts collected from the words of a `date`-style stamp. */
typedef struct date_parts {
    int mon, day, year;      /* 0 while unseen */
    int h, mi, s, frac_us;   /* h < 0 while unseen */
    int ampm;                /* 0 none, 1 AM, 2 PM */
    int has_zone;            /* a zone word was seen */
    int off_s;               /* its offset, seconds east of UTC */
    int named_zone;          /* a named local zone (CET): ambiguous */
} date_parts;

static bool word_is_weekday(const char *w, size_t n)
{
    static const char *const full[] = {"monday", "tuesday", "wednesday",
        "thursday", "friday", "saturday", "sunday", NULL};
    size_t i, j;
    for (i = 0; full[i] != NULL; i++) {
        if (n != 3 && n != strlen(full[i]))
            continue;
        for (j = 0; j < n && lower((unsigned char)w[j]) == full[i][j]; j++)
            ;
        if (j == n)
            return true;
    }
    return false;
}

static int word_month(const char *w, size_t n)
{
    static const char *const full[] = {"january", "february", "march",
        "april", "may", "june", "july", "august", "september", "october",
        "november", "december"};
    size_t i, j;
    for (i = 0; i < 12; i++) {
        if (n != 3 && n != strlen(full[i]))
            continue;
        for (j = 0; j < n && lower((unsigned char)w[j]) == full[i][j]; j++)
            ;
        if (j == n)
            return (int)i + 1;
    }
    return 0;
}

/* "hh:mm:ss[.frac]" */
static bool word_time(const char *w, size_t n, date_parts *d)
{
    int64_t h, mi, s;
    size_t i;
    int scale = 100000, frac = 0;

    if (n < 8 || w[2] != ':' || w[5] != ':' || !num_parse_i64(w, 2, &h) ||
        !num_parse_i64(w + 3, 2, &mi) || !num_parse_i64(w + 6, 2, &s))
        return false;
    if (n > 8) {
        if (w[8] != '.' || n == 9)
            return false;
        for (i = 9; i < n; i++) {
            if (!is_digit(w[i]))
                return false;
            if (scale > 0) {
                frac += (w[i] - '0') * scale;
                scale /= 10;
            }
        }
    }
    if (h > 23 || mi > 59 || s > 60)
        return false;
    d->h = (int)h;
    d->mi = (int)mi;
    d->s = (int)s;
    d->frac_us = frac;
    return true;
}

/* One word of a date stamp; false when it cannot belong to one. */
static bool date_word(const char *w, size_t n, date_parts *d)
{
    char z[8];
    int64_t v;
    int m;
    size_t i;

    if (word_is_weekday(w, n))
        return true;
    if ((m = word_month(w, n)) != 0 && d->mon == 0) {
        d->mon = m;
        return true;
    }
    if (num_parse_i64(w, n, &v) && w[0] != '-' && w[0] != '+') {
        if (n <= 2 && d->day == 0 && v >= 1 && v <= 31)
            d->day = (int)v;
        else if (n == 4 && d->year == 0)
            d->year = (int)v;
        else
            return false;
        return true;
    }
    if (d->h < 0 && n >= 8 && w[2] == ':')
        return word_time(w, n, d);
    if (n == 2 && (text_prefix_ci(w, n, "am") || text_prefix_ci(w, n, "pm"))) {
        d->ampm = lower((unsigned char)w[0]) == 'a' ? 1 : 2;
        return true;
    }
    if (n < sizeof(z) && !d->has_zone) {
        memcpy(z, w, n);
        z[n] = '\0';
        if (strcmp(z, "UT") == 0 || time_parse_offset(z, &d->off_s)) {
            d->off_s = strcmp(z, "UT") == 0 ? 0 : d->off_s;
            d->has_zone = 1;
            return true;
        }
        for (i = 0; i < n && w[i] >= 'A' && w[i] <= 'Z'; i++)
            ;
        if (i == n && n >= 2 && n <= 5) {
            d->has_zone = 1;
            d->named_zone = 1;
            return true;
        }
    }
    return false;
}

static int date_stamp(const char *p, size_t n, int64_t *us, const char **why)
{
    date_parts d;
    size_t i = 0;

    memset(&d, 0, sizeof(d));
    d.h = -1;
    while (i < n) {
        size_t j;
        while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == ','))
            i++;
        for (j = i; j < n && p[j] != ' ' && p[j] != '\t' && p[j] != ','; j++)
            ;
        if (j > i && !date_word(p + i, j - i, &d))
            return 0;
        i = j;
    }
    if (d.mon == 0 || d.day == 0 || d.year == 0 || d.h < 0)
        return 0;
    if (d.day > time_month_days(d.year, d.mon)) {
        *why = "timestamp line with an impossible day of the month";
        return -1;
    }
    if (d.named_zone || !d.has_zone) {
        *why = d.named_zone
            ? "timestamp line in a named local zone: its offset is unknown; "
              "stamp with `date -u`, `date -R` or `date +%s%3N`"
            : "timestamp line without a zone: stamp with `date -u`, "
              "`date -R` or `date +%s%3N`";
        return -1;
    }
    if (d.ampm) {
        if (d.h < 1 || d.h > 12)
            return 0;
        d.h = d.h % 12 + (d.ampm == 2 ? 12 : 0);
    }
    if (d.year < 1990 || d.year >= 2100) {
        *why = "timestamp line outside the years 1990..2099";
        return -1;
    }
    *us = time_us_from_civil(d.year, d.mon, d.day, d.h, d.mi, d.s, d.frac_us) -
          (int64_t)d.off_s * COW_US_PER_S;
    return 1;
}

static bool is_lead_decor(char c)
{
    return c == '#' || c == '=' || c == '-' || c == '*' || c == '>' ||
           c == '[' || c == ' ' || c == '\t';
}

static bool is_tail_decor(char c)
{
    return c == '=' || c == '-' || c == '*' || c == '<' || c == ']' ||
           c == ' ' || c == '\t';
}

/* Skip "label:" / "label=" (see the header comment): 1 when one was
 * there, 2 for "label " (a label followed by blanks only), else 0. */
static int skip_label(const char **p, size_t *n)
{
    static const char *const labels[] = {"timestamp", "time", "date", "ts",
                                         "at", "t", NULL};
    size_t i, j;

    for (i = 0; labels[i] != NULL; i++) {
        size_t w = strlen(labels[i]);
        if (!text_prefix_ci(*p, *n, labels[i]))
            continue;
        for (j = w; j < *n && ((*p)[j] == ' ' || (*p)[j] == '\t'); j++)
            ;
        if (j < *n && ((*p)[j] == ':' || (*p)[j] == '=')) {
            *p += j + 1;
            *n -= j + 1;
            num_trim(p, n);
            return 1;
        }
        if (j > w && j < *n) {
            *p += j;
            *n -= j;
            return 2;
        }
    }
    return 0;
}

int info_stamp_parse(const char *p, size_t n, int64_t *us, const char **why)
{
    const char *unit, *iso_why = NULL, *p0;
    cow_iso iso;
    int label;
    int rc;
    size_t n0;

    text_trim(&p, &n);
    while (n > 0 && is_lead_decor(p[0])) {
        p++;
        n--;
    }
    while (n > 0 && is_tail_decor(p[n - 1]))
        n--;
    p0 = p;
    n0 = n;
    label = skip_label(&p, &n);
    if (label == 2) {
        /* "ts 2026-12-03T03:19:19Z": a label only when a stamp follows */
        int64_t v;
        const char *w = NULL;
        if (info_stamp_parse(p, n, &v, &w) == 1) {
            *us = v;
            return 1;
        }
        p = p0;
        n = n0;
        label = 0;
    }
    if (n == 0)
        return 0;
    if (info_epoch_parse(p, n, us, &unit))
        return 1;
    if (time_parse_iso(p, n, &iso, &iso_why)) {
        *us = time_iso_us(&iso);
        if (*us < COW_EPOCH_MIN_S * COW_US_PER_S ||
            *us > COW_EPOCH_MAX_S * COW_US_PER_S) {
            *why = "timestamp line outside the years 1990..2099";
            return -1;
        }
        return 1;
    }
    if (n >= 19 && p[4] == '-' && p[7] == '-' && p[13] == ':') {
        *why = iso_why;     /* ISO 8601 in shape: an impossible date or zone */
        return -1;
    }
    rc = date_stamp(p, n, us, why);
    if (rc == 0 && label && (is_digit(p[0]) || is_alpha(p[0]))) {
        *why = "timestamp label without a usable time: expected an epoch "
               "(10 digits s, 13 ms, 16 us, 19 ns), ISO 8601 or `date -u` output, "
               "e.g. '# ts=1796268000123' or '# ts 2026-12-03T03:19:19Z'";
        return -1;
    }
    return rc;
}

bool info_name_stamp(const char *fname, const char *prefix, int64_t *us)
{
    const char *base, *p, *slash, *unit;
    size_t i, n;

    if (fname == NULL)
        return false;
    slash = strrchr(fname, '/');
    base = slash ? slash + 1 : fname;
    if (prefix != NULL) {
        size_t w = strlen(prefix);
        if (!text_prefix_ci(base, strlen(base), prefix) ||
            (base[w] != '-' && base[w] != '_' && base[w] != '.'))
            return false;
        p = base + w + 1;
        for (n = 0; is_digit(p[n]); n++)
            ;
        if (p[n] != '\0' && p[n] != '.')
            return false;
        return info_epoch_parse(p, n, us, &unit);
    }
    for (i = 0; base[i] != '\0'; i += n ? n : 1) {
        for (n = 0; is_digit(base[i + n]); n++)
            ;
        if ((i == 0 || !is_digit(base[i - 1])) &&
            (n == 10 || n == 13 || n == 16 || n == 19) &&
            info_epoch_parse(base + i, n, us, &unit))
            return true;
    }
    return false;
}
