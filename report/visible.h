/* visible.h -- the one helper every renderer of report/ passes a label
 * (or any text from a capture) through before it escapes it for its own
 * format: label_safe's rules for the sink (control characters as \xNN,
 * invalid UTF-8 as U+FFFD), and the invisible format controls that
 * reorder or hide text shown as \uXXXX:
 *
 *     U+200B-200D  zero-width space, non-joiner, joiner
 *     U+200E-200F  left-to-right and right-to-left marks
 *     U+202A-202E  bidi embeddings and overrides
 *     U+2066-2069  bidi isolates
 *     U+FEFF       zero-width no-break space (a BOM inside text)
 *
 * so a run labelled "abc\u202Efed" cannot pose as another one in
 * summary.md, index.html or the workbook. */
#ifndef COW_REPORT_VISIBLE_H
#define COW_REPORT_VISIBLE_H

#include "label.h"

/* A heap copy of s (NULL is taken as "") safe for sink and with every
 * invisible control above shown as \uXXXX; caller frees. */
char *report_visible(const char *s, enum cow_label_sink sink);

/* 1 when the code point is one of the invisible controls above. */
int report_is_invisible(unsigned cp);

#endif
