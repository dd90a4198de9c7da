/* text.h -- small text helpers every parser needs: trimming a line, a
 * case-insensitive prefix, the separator of a delimited header, and the
 * line:column of a byte offset (for parsers that read a file whole). */
#ifndef COW_COMMON_TEXT_H
#define COW_COMMON_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* Trim blanks at both ends and every trailing CR: a terminal capture of
 * CRLF text (through `script`) ends its lines in "\r\r\n", and the line
 * source strips only one. */
void text_trim(const char **p, size_t *n);
/* true when p[0..n) starts with the lower-case ASCII word, ignoring case. */
bool text_prefix_ci(const char *p, size_t n, const char *word);
/* The first occurrence of lit within p[0..n) (a line, not NUL-terminated:
 * never strstr on one), or NULL. */
const char *text_find(const char *p, size_t n, const char *lit);
/* The first of tab, comma, semicolon present in a header line (',' if
 * none). */
char text_find_delim(const char *p, size_t n);
/* A header field as a column name: lower case, quotes dropped, a unit in
 * "(...)" or "[...]" moved (lower case, blanks trimmed) to unit, trailing
 * blanks dropped, blanks, '-' and '.' turned into '_'. "Latency (ms)" ->
 * "latency" + "ms"; "\"t-rel.s\"" -> "t_rel_s" + "". */
void text_colname(const char *p, size_t n, char *out, size_t cap, char *unit,
                  size_t ucap);
/* 1-based line and column of byte offset off in text. Linear in off:
 * callers that ask for many offsets in one text use text_pos_init and
 * text_pos_at, which resume from the last offset asked for. */
void text_position(const char *text, size_t off, long *line, long *col);

typedef struct cow_textpos {
    const char *text;  /* the text */
    size_t off;        /* offset reached so far */
    long line, col;    /* 1-based position of off */
} cow_textpos;

void text_pos_init(cow_textpos *tp, const char *text);
/* Position of off; linear over a run of growing offsets (a smaller offset
 * than the last one restarts from the beginning). */
void text_pos_at(cow_textpos *tp, size_t off, long *line, long *col);

/* Bytes in the valid UTF-8 sequence at p[0..n) (1..4), 0 if invalid
 * (overlong, surrogate, beyond U+10FFFF or cut short). */
size_t text_utf8_len(const char *p, size_t n);
/* Offset of the first byte of p[0..n) that is not valid UTF-8, or n when
 * all is, allowing a sequence cut by the end of the buffer (a head read
 * of a longer file). */
size_t text_utf8_bad_at(const char *p, size_t n);
/* true when text_utf8_bad_at finds nothing. */
bool text_is_utf8(const char *p, size_t n);

#endif
