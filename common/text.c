/* text.c -- see text.h. */
#include "text.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "num.h"

void text_trim(const char **p, size_t *n)
{
    size_t before;
    do {
        before = *n;
        num_trim(p, n);
        while (*n > 0 && (*p)[*n - 1] == '\r')
            (*n)--;
    } while (*n != before);
}

bool text_prefix_ci(const char *p, size_t n, const char *word)
{
    size_t i, w = strlen(word);
    if (n < w)
        return false;
    for (i = 0; i < w; i++) {
        char c = p[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != word[i])
            return false;
    }
    return true;
}

const char *text_find(const char *p, size_t n, const char *lit)
{
    size_t l = strlen(lit), i;
    if (l == 0)
        return p;
    for (i = 0; i + l <= n; i++)
        if (p[i] == lit[0] && memcmp(p + i, lit, l) == 0)
            return p + i;
    return NULL;
}

char text_find_delim(const char *p, size_t n)
{
    if (memchr(p, '\t', n))
        return '\t';
    if (memchr(p, ',', n))
        return ',';
    if (memchr(p, ';', n))
        return ';';
    return ',';
}

void text_pos_init(cow_textpos *tp, const char *text)
{
    tp->text = text;
    tp->off = 0;
    tp->line = 1;
    tp->col = 1;
}

void text_pos_at(cow_textpos *tp, size_t off, long *line, long *col)
{
    if (off < tp->off)
        text_pos_init(tp, tp->text);
    for (; tp->off < off; tp->off++) {
        if (tp->text[tp->off] == '\n') {
            tp->line++;
            tp->col = 1;
        } else {
            tp->col++;
        }
    }
    *line = tp->line;
    *col = tp->col;
}

void text_position(const char *text, size_t off, long *line, long *col)
{
    cow_textpos tp;
    text_pos_init(&tp, text);
    text_pos_at(&tp, off, line, col);
}

size_t text_utf8_len(const char *p, size_t n)
{
    const unsigned char *u = (const unsigned char *)p;
    size_t len, i;
    uint32_t cp;

    if (n == 0)
        return 0;
    if (u[0] < 0x80)
        return 1;
    if (u[0] >= 0xC2 && u[0] <= 0xDF)
        len = 2, cp = u[0] & 0x1Fu;
    else if (u[0] >= 0xE0 && u[0] <= 0xEF)
        len = 3, cp = u[0] & 0x0Fu;
    else if (u[0] >= 0xF0 && u[0] <= 0xF4)
        len = 4, cp = u[0] & 0x07u;
    else
        return 0;
    if (n < len)
        return 0;
    for (i = 1; i < len; i++) {
        if ((u[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (u[i] & 0x3Fu);
    }
    if ((len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
        (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
        return 0;
    return len;
}

size_t text_utf8_bad_at(const char *p, size_t n)
{
    size_t i = 0, j, want;
    while (i < n) {
        size_t len = text_utf8_len(p + i, n - i);
        unsigned char c = (unsigned char)p[i];
        if (len > 0) {
            i += len;
            continue;
        }
        /* invalid, unless a sequence the buffer's end cut short */
        want = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 && c <= 0xEF ? 3
             : c >= 0xC2 && c <= 0xDF ? 2 : 0;
        if (want == 0 || n - i >= want)
            return i;
        for (j = i + 1; j < n; j++)
            if (((unsigned char)p[j] & 0xC0) != 0x80)
                return i;
        return n;
    }
    return n;
}

bool text_is_utf8(const char *p, size_t n)
{
    return text_utf8_bad_at(p, n) == n;
}

void text_colname(const char *p, size_t n, char *out, size_t cap, char *unit,
                  size_t ucap)
{
    size_t i, k = 0;
    char *open, *close;
    const char *u;
    size_t un;

    unit[0] = '\0';
    for (i = 0; i < n && k + 1 < cap; i++)
        if (p[i] != '"' && p[i] != '\'')
            out[k++] = (char)tolower((unsigned char)p[i]);
    out[k] = '\0';
    if ((open = strpbrk(out, "([")) != NULL && (close = strpbrk(open, ")]")) != NULL) {
        u = open + 1;
        un = (size_t)(close - u);
        text_trim(&u, &un);
        snprintf(unit, ucap, "%.*s", (int)un, u);
        *open = '\0';
    }
    k = strlen(out);
    while (k > 0 && (out[k - 1] == ' ' || out[k - 1] == '\t'))
        out[--k] = '\0';
    for (i = 0; out[i]; i++)
        if (out[i] == ' ' || out[i] == '-' || out[i] == '.')
            out[i] = '_';
}
