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
/* The first of tab, comma, semicolon present in a header line (',' if
 * none). */
char text_find_delim(const char *p, size_t n);
/* A header field as a column name: lower case, quotes dropped, a unit in
 * "(...)" or "[...]" moved (lower case, blanks trimmed) to unit, trailing
 * blanks dropped, blanks, '-' and '.' turned into '_'. "Latency (ms)" ->
 * "latency" + "ms"; "\"t-rel.s\"" -> "t_rel_s" + "". */
void text_colname(const char *p, size_t n, char *out, size_t cap, char *unit,
                  size_t ucap);
/* 1-based line and column of byte offset off in text. */
void text_position(const char *text, size_t off, long *line, long *col);

#endif
