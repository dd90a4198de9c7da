/* label.h -- making a label (a run's name, a folder path, a host) safe for
 * the place it is written to.
 *
 * Labels come from folder names and run.json, so they may hold any bytes:
 * control characters, invalid UTF-8, Markdown or HTML syntax, slashes.
 * Each sink has one function here, and every writer goes through it:
 *
 *     char *t = label_safe(run->label, COW_LABEL_TERM);   printf("%s", t);
 *     free(t);
 *
 * Every sink gets valid UTF-8 (each invalid byte becomes U+FFFD, the
 * replacement character) and no control characters (shown as \xNN, so
 * ESC[2J cannot clear a terminal nor make a chart part of an xlsx not
 * well-formed). File names are made unique by the report (label_file_stem
 * gives the stem; collisions get a suffix there). */
#ifndef COW_COMMON_LABEL_H
#define COW_COMMON_LABEL_H

#include <stddef.h>

enum cow_label_sink {
    COW_LABEL_TERM,   /* terminal and plain text: control chars as \xNN */
    COW_LABEL_TEXT,   /* a whole text stream: like TERM but keeps \n, \t */
    COW_LABEL_XLSX,   /* any part of an xlsx (cells, chart XML), cairo
                         text: like TEXT (\n and \t are legal XML) */
    COW_LABEL_MD      /* Markdown table cell or heading: also escaped */
};

/* Longest file name stem label_file_stem writes (file systems allow 255
 * bytes per name; room is left for a prefix, a suffix and ".png"). */
#define COW_LABEL_STEM_MAX 120

/* A heap copy of s (NULL is taken as "") safe for the sink; caller frees. */
char *label_safe(const char *s, enum cow_label_sink sink);
/* The same for the n bytes at s (which may hold NULs, shown as \x00);
 * *outn (may be NULL) gets the length of the result. */
char *label_safe_n(const char *s, size_t n, enum cow_label_sink sink,
                   size_t *outn);
/* Bytes at the end of s[0..n) that begin a UTF-8 sequence the end cut
 * short (0..3): a stream filter keeps them for the next chunk. */
size_t label_utf8_tail(const char *s, size_t n);

/* A file name stem for s in out (cap > COW_LABEL_STEM_MAX): ASCII
 * letters, digits, '-', '.' and '_' kept, every other byte run becomes
 * one '_', no leading '.', cut at COW_LABEL_STEM_MAX bytes with a hash of
 * the whole label appended when cut, so long labels that share a prefix
 * still differ. Different labels can map to one stem ("a b", "a/b"):
 * callers that need unique names add a suffix. */
void label_file_stem(const char *s, char *out, size_t cap);
/* The same stem as a new string (at most COW_LABEL_STEM_MAX bytes and
 * its NUL); the caller frees it. */
char *label_stem_new(const char *s);

#endif
