/* parser.c -- what every parser applies itself (parser.h), apart from the
 * table of formats (detect.c), so that a parser calls no file that lists
 * it. */
#include "parser.h"

#include <string.h>

#include "text.h"

/* Requirement: a file lands whole or not at all. A few bad lines (a
 * truncated last line, a stray comment) are rejected one by one; when more
 * than 10% of a file's data lines are bad (and more than 2 of them), the
 * file is most likely not what the parser thinks it is, and it is refused
 * whole so that a misread file never lands half-right. */
int parser_too_many_rejects(long long rows, long long rejected)
{
    return rejected > 2 && rejected * 10 > rows + rejected;
}

void parser_each_head_line(const char *head, size_t n,
                           int (*fn)(void *arg, const char *p, size_t len),
                           void *arg)
{
    size_t i = 0;
    while (i < n) {
        const char *nl = memchr(head + i, '\n', n - i);
        const char *p = head + i;
        size_t len;
        if (nl == NULL)
            return;
        len = (size_t)(nl - p);
        text_trim(&p, &len);
        if (fn(arg, p, len))
            return;
        i = (size_t)(nl - head) + 1;
    }
}
