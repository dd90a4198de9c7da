/* visible.c -- labels shown with their invisible controls (visible.h).
 * Exports report_visible and report_is_invisible. */
#include "visible.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"

int report_is_invisible(unsigned cp)
{
    return (cp >= 0x200B && cp <= 0x200F) || (cp >= 0x202A && cp <= 0x202E) ||
           (cp >= 0x2066 && cp <= 0x2069) || cp == 0xFEFF;
}

char *report_visible(const char *s, enum cow_label_sink sink)
{
    char *t = label_safe(s, sink), *out;
    size_t n = strlen(t), i, o = 0;
    /* label_safe gave valid UTF-8: every control is a 3-byte sequence,
     * shown as 6 bytes ("\u202E"), so 2n + 1 always holds the result */
    out = xmalloc(2 * n + 1);
    for (i = 0; i < n;) {
        const unsigned char *p = (const unsigned char *)t + i;
        if (p[0] >= 0xE0 && p[0] < 0xF0 && i + 2 < n) {
            unsigned cp = ((unsigned)(p[0] & 0x0F) << 12) | ((unsigned)(p[1] & 0x3F) << 6) |
                          (unsigned)(p[2] & 0x3F);
            if (report_is_invisible(cp)) {
                o += (size_t)snprintf(out + o, 2 * n + 1 - o, "\\u%04X", cp);
                i += 3;
                continue;
            }
        }
        out[o++] = t[i++];
    }
    out[o] = '\0';
    free(t);
    return out;
}
