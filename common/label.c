/* label.c -- see label.h. */
#include "label.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "text.h"

typedef struct lbuf {
    char *p;      /* output, NUL terminated */
    size_t n;     /* bytes used */
    size_t cap;   /* bytes allocated */
} lbuf;

static void put(lbuf *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap)
        b->p = xgrow(b->p, 1, b->n + n + 1, &b->cap);
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
}

/* Markdown characters that change a table cell or start markup inside a
 * line ('#' only starts a heading at the start of a line, where a label
 * never is; "&lt;" shows as text). */
static int md_special(unsigned char c)
{
    return c != '\0' && strchr("\\`*_[]<>|~", c) != NULL;
}

char *label_safe_n(const char *s, size_t n, enum cow_label_sink sink,
                   size_t *outn)
{
    lbuf b = {NULL, 0, 0};
    size_t i = 0;

    put(&b, "", 0);
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        size_t len = text_utf8_len(s + i, n - i);
        char hex[8];
        if ((sink == COW_LABEL_TEXT || sink == COW_LABEL_XLSX) &&
            (c == '\n' || c == '\t')) { /* legal in XML, meant in text */
            put(&b, s + i, 1);
            i++;
        } else if (len == 0) {
            put(&b, "\xEF\xBF\xBD", 3); /* U+FFFD for one invalid byte */
            i++;
        } else if (c < 0x20 || c == 0x7F) {
            snprintf(hex, sizeof(hex), "\\x%02X", c);
            put(&b, hex, 4);
            i++;
        } else if (len == 2 && c == 0xC2 && (unsigned char)s[i + 1] < 0xA0) {
            snprintf(hex, sizeof(hex), "\\x%02X", (unsigned char)s[i + 1]);
            put(&b, hex, 4); /* C1 controls (U+0080..U+009F) */
            i += 2;
        } else if (sink == COW_LABEL_MD && md_special(c)) {
            put(&b, "\\", 1);
            put(&b, s + i, 1);
            i++;
        } else {
            put(&b, s + i, len);
            i += len;
        }
    }
    if (outn)
        *outn = b.n;
    return b.p;
}

char *label_safe(const char *s, enum cow_label_sink sink)
{
    return label_safe_n(s ? s : "", s ? strlen(s) : 0, sink, NULL);
}

size_t label_utf8_tail(const char *s, size_t n)
{
    size_t k;
    for (k = 1; k <= 3 && k <= n; k++) {
        unsigned char c = (unsigned char)s[n - k];
        size_t want = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 && c <= 0xEF ? 3
                    : c >= 0xC2 && c <= 0xDF ? 2 : 0;
        if ((c & 0xC0) == 0x80)
            continue; /* a continuation byte: look further back */
        return want > k ? k : 0;
    }
    return 0;
}

void label_file_stem(const char *s, char *out, size_t cap)
{
    size_t i, k = 0, n = s ? strlen(s) : 0, max = COW_LABEL_STEM_MAX;
    uint32_t h = 2166136261u; /* FNV-1a of the whole label */
    int gap = 0;

    if (cap <= max)
        max = cap - 1;
    for (i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    for (i = 0; i < n && k < max; i++) {
        unsigned char c = (unsigned char)s[i];
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                 (c >= '0' && c <= '9') || c == '-' || c == '_' ||
                 (c == '.' && k > 0);
        if (ok) {
            out[k++] = (char)c;
            gap = 0;
        } else if (!gap && k > 0) {
            out[k++] = '_';
            gap = 1;
        }
    }
    while (k > 0 && out[k - 1] == '_')
        k--;
    if (i < n && max > 10) { /* cut: keep the labels apart by a hash */
        if (k > max - 9)
            k = max - 9;
        snprintf(out + k, cap - k, "-%08x", (unsigned)h);
        return;
    }
    if (k == 0)
        out[k++] = '_';
    out[k] = '\0';
}

char *label_stem_new(const char *s)
{
    char *out = xmalloc(COW_LABEL_STEM_MAX + 1);

    label_file_stem(s, out, COW_LABEL_STEM_MAX + 1);
    return out;
}
