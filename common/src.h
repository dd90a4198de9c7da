/* src.h -- a byte source read line by line, from a file or from memory.
 *
 *     cow_src s;
 *     if (src_open_file(&s, path, &e)) ...;      or src_open_mem(&s, name, buf, n)
 *     while ((rc = src_next_line(&s, &ln, &e)) == 1) { ... ln.p, ln.n, ln.no ... }
 *     src_close(&s);
 *
 * Lines come without their end (LF, CRLF or a lone final CR is stripped); a
 * UTF-8 byte order mark at the very start is skipped. ln.eol is 0 for a last
 * line that ended without a newline (a possibly truncated write). Container
 * and collector prefixes (prefix.h) are peeled off each line, what was
 * peeled is in ln.pre and counted in the source (src.peeled). Terminal
 * transcript lines (a redis-cli or shell prompt, a reply "OK", a command's
 * echo: prefix_prompt, prefix_echo) are skipped and counted (src.prompts)
 * unless src.keep_prompts is set; line numbers still count them. A source
 * set raw (src.raw = 1) keeps every line as it is. Every byte
 * read is fed to a SHA-256, so the file's digest is known after one pass.
 * Lines point into the source's buffer and are valid until the next call.
 *
 * A line longer than COW_MAX_LINE_BYTES (limits.h) is not returned: its
 * bytes are skipped to the next line end, in bounded memory, and its
 * number is kept in long_no[] for the caller to report as a rejected line
 * (src_long_lines), so the good lines around it still land. */
#ifndef COW_COMMON_SRC_H
#define COW_COMMON_SRC_H

#include <stddef.h>
#include <stdio.h>

#include "err.h"
#include "prefix.h"
#include "limits.h"
#include "sha256.h"

/* Line numbers of overlong lines kept per file; more refuse the file. */
#define COW_SRC_MAX_LONG 64

typedef struct cow_line {
    const char *p;  /* first byte of the line (not NUL terminated) */
    size_t n;       /* length without the line end */
    long no;        /* 1-based line number */
    int eol;        /* 1 if a line end followed, 0 at an unterminated end */
    cow_prefix pre; /* prefixes peeled off the line (pre.kinds 0 if none) */
} cow_line;

typedef struct cow_src {
    char name[512];      /* path or name shown in errors */
    FILE *fp;            /* file backend, NULL for memory */
    const char *mem;     /* memory backend data */
    size_t memlen;       /* memory backend size */
    char *buf;           /* file backend buffer */
    size_t cap;          /* buffer capacity */
    size_t beg, end;     /* unread bytes are buf[beg..end) */
    int eof;             /* no more bytes to read from the backend */
    long line;           /* lines returned so far */
    long long offset;    /* bytes consumed so far */
    long long size;      /* total size when known, else -1 */
    cow_sha256 sha;      /* digest of every byte read */
    int raw;             /* 1: do not peel line prefixes nor skip prompts */
    int keep_prompts;    /* 1: return prompt and echo lines too */
    long prompts;        /* prompt and echo lines skipped */
    long peeled;         /* lines that had a prefix peeled */
    long stamped;        /* of them, lines whose prefix held a zoned stamp */
    int peel_kinds;      /* enum cow_prefix_kind bits seen */
    long long_no[COW_SRC_MAX_LONG]; /* numbers of skipped overlong lines */
    size_t nlong;        /* overlong lines skipped (may exceed the array) */
} cow_src;

/* Open a file; on failure e names the path and the OS reason. */
int src_open_file(cow_src *s, const char *path, cow_err *e);
/* Read from memory that the caller keeps alive until src_close. */
void src_open_mem(cow_src *s, const char *name, const void *data, size_t n);
/* 1: a line in *ln; 0: end of input; -1: error in e. */
int src_next_line(cow_src *s, cow_line *ln, cow_err *e);
/* Look at up to the next 64 KiB without consuming them (*p valid until the
 * next read). A leading BOM is included. */
int src_peek(cow_src *s, const char **p, size_t *n, cow_err *e);
/* Read everything left into one NUL-terminated heap string (caller frees).
 * Used by formats that are not line based (JSON arrays). More than
 * COW_MAX_WHOLE_FILE_BYTES is COW_ELIMIT, refused before reading when the
 * size is known. */
int src_read_all(cow_src *s, char **out, size_t *n, cow_err *e);
/* The same with a smaller limit of max bytes (run.json, thresholds). */
int src_read_all_max(cow_src *s, size_t max, char **out, size_t *n, cow_err *e);
/* Hex SHA-256 of a whole file, read in one pass without parsing. */
int src_file_sha256(const char *path, char hex[65], cow_err *e);
/* Hex SHA-256 of all bytes read so far; call after reading to the end. */
void src_sha256(cow_src *s, char hex[65]);
void src_close(cow_src *s);

#endif
