/* latmon_head.c -- what LATENCY output looks like before it is parsed
 * (latmon_int.h): header lines, DOCTOR's openers, event names, what a file
 * name says, and the sniffer that scores a file's head. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latmon_int.h"
#include "limits.h"
#include "num.h"
#include "text.h"
#include "timeconv.h"

/* ---------------------------------------------------------------- text */

/* An event name: a letter, then letters, digits, '-', '_' or '.'. */
bool lm_is_name(const char *p, size_t n)
{
    size_t i;
    if (n == 0 || n >= LM_NAME_MAX ||
        !((p[0] >= 'a' && p[0] <= 'z') || (p[0] >= 'A' && p[0] <= 'Z')))
        return false;
    for (i = 0; i < n; i++) {
        char c = p[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || lm_digit(c) ||
              c == '-' || c == '_' || c == '.' || c == '|'))
            return false;
    }
    return true;
}

static bool lm_is_decor(char c)
{
    return c == '=' || c == '-' || c == '#' || c == '*' || c == ' ' ||
           c == '\t' || c == '[' || c == ']' || c == ':';
}

/* What may stand before LATENCY on a header line: decoration only, or a
 * prompt ("$ ", "127.0.0.1:6379> "), or a redis-cli/valkey-cli command. */
static bool lm_header_prefix_ok(const char *p, size_t n)
{
    size_t i;
    while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t'))
        n--;
    for (i = 0; i < n && lm_is_decor(p[i]); i++)
        ;
    if (i == n)
        return true;
    if (p[n - 1] == '>' || p[n - 1] == '$')
        return true;
    for (i = 0; i + 9 <= n; i++)
        if (memcmp(p + i, "redis-cli", 9) == 0 ||
            (i + 10 <= n && memcmp(p + i, "valkey-cli", 10) == 0))
            return true;
    return false;
}

/* Header line? Returns its kind (LM_NONE when not a header) and copies a
 * HISTORY event into event ("" when none). */
lm_kind lm_header(const char *p, size_t n, char *event)
{
    size_t i, j, w;
    lm_kind kind;

    event[0] = '\0';
    for (i = 0; i + 8 <= n; i++)
        if (text_prefix_ci(p + i, n - i, "latency ") && (i == 0 || !lm_is_name(p + i - 1, 1)))
            break;
    if (i + 8 > n || !lm_header_prefix_ok(p, i))
        return LM_NONE;
    for (i += 8; i < n && p[i] == ' '; i++)
        ;
    if (text_prefix_ci(p + i, n - i, "latest"))
        kind = LM_LATEST, w = 6;
    else if (text_prefix_ci(p + i, n - i, "histogram"))
        kind = LM_HISTOGRAM, w = 9;
    else if (text_prefix_ci(p + i, n - i, "history"))
        kind = LM_HISTORY, w = 7;
    else if (text_prefix_ci(p + i, n - i, "doctor"))
        kind = LM_DOCTOR, w = 6;
    else
        return LM_NONE;
    i += w;
    if (i < n && !lm_is_decor(p[i]))
        return LM_NONE;
    while (i < n && p[i] == ' ')
        i++;
    if (kind == LM_HISTORY) {
        for (j = i; j < n && p[j] != ' ' && p[j] != '\t'; j++)
            ;
        if (j > i && lm_is_name(p + i, j - i)) {
            memcpy(event, p + i, j - i);
            event[j - i] = '\0';
            i = j;
        }
    }
    while (kind == LM_HISTOGRAM && i < n && !lm_is_decor(p[i])) {
        /* the commands asked for: "LATENCY HISTOGRAM set get" */
        for (j = i; j < n && p[j] != ' ' && p[j] != '\t'; j++)
            ;
        if (!lm_is_name(p + i, j - i))
            return LM_NONE;
        for (i = j; i < n && (p[i] == ' ' || p[i] == '\t'); i++)
            ;
    }
    for (; i < n; i++)
        if (!lm_is_decor(p[i]))
            return LM_NONE;
    return kind;
}

bool lm_doctor_opener(const char *p, size_t n)
{
    static const char *const openers[] = {"Dave, ", "I'm sorry, Dave",
        "Latency spikes are observed", "No latency spike was observed",
        "I have a few advices", "Here is some advice",
        "I have observed latency", NULL};
    size_t i;
    for (i = 0; openers[i] != NULL; i++)
        if (n >= strlen(openers[i]) && memcmp(p, openers[i], strlen(openers[i])) == 0)
            return true;
    return false;
}

bool lm_plausible_s(int64_t ts)
{
    return ts >= COW_EPOCH_MIN_S && ts <= COW_EPOCH_MAX_S;
}

/* Kind (and HISTORY event) named by the file: latency-history-fork.txt,
 * LATENCY_LATEST.out, doctor.txt. */
void lm_name_hints(lm_ctx *c, const char *fname)
{
    const char *base, *h;
    char low[256];
    size_t i, n;

    if (fname == NULL)
        return;
    base = strrchr(fname, '/');
    base = base ? base + 1 : fname;
    for (i = 0; base[i] && i + 1 < sizeof(low); i++)
        low[i] = (char)lm_lower((unsigned char)base[i]);
    low[i] = '\0';
    if (strstr(low, "doctor"))
        c->name_kind = LM_DOCTOR;
    else if (strstr(low, "latest"))
        c->name_kind = LM_LATEST;
    else if (strstr(low, "histogram"))
        c->name_kind = LM_HISTOGRAM;
    else if ((h = strstr(low, "history")) != NULL) {
        c->name_kind = LM_HISTORY;
        h = base + (h - low) + 7;
        /* "history-fork", "history_command"; never "history.txt": what
         * follows a dot is the file's extension, not an event */
        if (*h == '-' || *h == '_') {
            h++;
            for (n = 0; h[n] && h[n] != '.' && n + 1 < LM_NAME_MAX; n++)
                ;
            if (lm_is_name(h, n)) {
                memcpy(c->name_event, h, n);
                c->name_event[n] = '\0';
            }
        }
    }
}

/* ---------------------------------------------------------------- sniff */

static bool lm_known_event(const char *p, size_t n)
{
    static const char *const events[] = {"fork", "command", "fast-command",
        "aof-write", "aof-write-pending-fsync", "aof-write-active-child",
        "aof-write-alone", "aof-fsync-always", "aof-fstat", "aof-rename",
        "rdb-unlink-temp-file", "expire-cycle", "expire-del", "eviction-cycle",
        "eviction-del", "eviction-lazyfree", "active-defrag-cycle",
        "command-unblocking", "while-blocked-cron", "module-acquire-GIL", NULL};
    size_t i;
    for (i = 0; events[i] != NULL; i++)
        if (strlen(events[i]) == n && memcmp(p, events[i], n) == 0)
            return true;
    return false;
}

static bool lm_is_epoch_s(const char *p, size_t n)
{
    int64_t v;
    return n == 10 && num_parse_i64(p, n, &v) && lm_plausible_s(v);
}

bool lm_histogram_key(const char *p, size_t n)
{
    static const char key[] = "histogram_usec";
    size_t i = 0, j;

    for (;;) { /* "4) " prefixes of the terminal shape */
        while (i < n && p[i] == ' ')
            i++;
        for (j = i; j < n && p[j] >= '0' && p[j] <= '9'; j++)
            ;
        if (j == i || j + 1 >= n || p[j] != ')' || p[j + 1] != ' ')
            break;
        i = j + 2;
    }
    for (j = i; j < n && p[j] >= '0' && p[j] <= '9'; j++)
        ; /* RESP3's "2# " */
    if (j > i && j + 1 < n && p[j] == '#' && p[j + 1] == ' ')
        i = j + 2;
    p += i;
    n -= i;
    for (j = 0; j < n && p[j] != ' '; j++)
        ; /* the first word: RESP3 puts what follows on the line */
    n = j;
    if (n >= 2 && p[0] == '"' && p[n - 1] == '"')
        p++, n -= 2;
    return n == sizeof(key) - 1 && memcmp(p, key, n) == 0;
}

/* Score of one line of the head; pos = index among non-blank lines, prev =
 * the previous non-blank line. */
static int lm_sniff_line(const char *p, size_t n, size_t pos, const char *prev,
                         size_t prevn)
{
    char event[LM_NAME_MAX];
    const char *q;

    if (lm_header(p, n, event) != LM_NONE || lm_doctor_opener(p, n))
        return 95;
    if (pos >= 1 && pos <= 3 && lm_histogram_key(p, n))
        return 90;
    if (n > 8 && memcmp(p, "1) 1) \"", 7) == 0 &&
        (q = memchr(p + 7, '"', n - 7)) != NULL && lm_known_event(p + 7, (size_t)(q - p - 7)))
        return 90;
    if (n > 16 && memcmp(p, "1) 1) (integer) ", 16) == 0 && lm_is_epoch_s(p + 16, n - 16))
        return 80;
    if (n > 3 && (p[0] == '"' || memcmp(p, "[[\"", 3) == 0)) {
        size_t off = p[0] == '"' ? 1 : 3;
        q = memchr(p + off, '"', n - off);
        if (q && lm_known_event(p + off, (size_t)(q - p) - off) &&
            q + 12 <= p + n && q[1] == ',' && lm_is_epoch_s(q + 2, 10))
            return 90;
    }
    if (pos == 1 && prev != NULL && lm_known_event(prev, prevn) && lm_is_epoch_s(p, n))
        return 85;
    return 0;
}

int lm_sniff(const char *fname, const char *head, size_t n)
{
    lm_ctx hint;
    size_t i = 0, pos = 0, prevn = 0, epochs = 0, nums = 0;
    const char *prev = NULL;
    int best = 0, empty = 0;

    while (i < n) {
        const char *nl = memchr(head + i, '\n', n - i), *p = head + i;
        size_t len;
        int64_t v;
        if (nl == NULL)
            break;
        len = (size_t)(nl - p);
        text_trim(&p, &len);
        i = (size_t)(nl - head) + 1;
        if (len == 0)
            continue;
        if (pos < 4) {
            int sc = lm_sniff_line(p, len, pos, prev, prevn);
            best = sc > best ? sc : best;
        }
        empty |= (len == 2 && memcmp(p, "[]", 2) == 0) ||
                 (len == 13 && memcmp(p, "(empty array)", 13) == 0);
        if (num_parse_i64(p, len, &v))
            nums++, epochs += (pos % 2 == 0) && lm_is_epoch_s(p, len);
        pos++;
        prev = p;
        prevn = len;
    }
    if (best > 0)
        return best;
    memset(&hint, 0, sizeof(hint));
    lm_name_hints(&hint, fname);
    if (nums == pos && nums >= 2 && nums % 2 == 0 && epochs == nums / 2)
        return hint.name_kind == LM_HISTORY ? 85 : 40;
    if (empty && pos == 1 && hint.name_kind != LM_NONE)
        return 70;
    /* redis-cli prints an empty reply as an empty line when piped: only
     * the file name can say what it is. */
    if (pos == 0 && n <= 2 && hint.name_kind != LM_NONE)
        return 70;
    return 0;
}
