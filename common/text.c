/* text.c -- see text.h. */
#include "text.h"

#include <ctype.h>
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

void text_position(const char *text, size_t off, long *line, long *col)
{
    size_t i;
    *line = 1;
    *col = 1;
    for (i = 0; i < off; i++) {
        if (text[i] == '\n') {
            (*line)++;
            *col = 1;
        } else {
            (*col)++;
        }
    }
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
