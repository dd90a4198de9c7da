/* text.c -- see text.h. */
#include "text.h"

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
