/* err.h -- error codes and the error struct that knows where input is bad.
 *
 * Fallible functions return int (COW_OK == 0) and take a cow_err * last.
 * COW_FAIL() fills the struct and returns the code, so an error fits on
 * one line:
 *
 *     return COW_FAIL(e, COW_EPARSE, "expected integer after '%s'", key);
 *
 * Callers that know the input position fill e->path / e->line before or
 * after (cow_err_at). Libraries never print: the CLI formats the struct
 * with cow_err_format(). */
#ifndef COW_COMMON_ERR_H
#define COW_COMMON_ERR_H

#include <stddef.h>

enum cow_code {
    COW_OK = 0,      /* success */
    COW_EPARSE,      /* malformed input the user can fix */
    COW_EUNIT,       /* a unit or clock cannot be known: needs a flag */
    COW_ECLOCK,      /* time stamps are impossible or inconsistent */
    COW_ELIMIT,      /* a named limit was exceeded */
    COW_EIO,         /* file system error */
    COW_ESQL,        /* SQLite error */
    COW_EDUP,        /* already ingested: nothing to do */
    COW_EUSAGE,      /* caller passed something unusable */
    COW_EINTERNAL    /* a bug */
};

typedef struct cow_err {
    int code;           /* enum cow_code */
    char path[512];     /* input file, "" if none */
    long line;          /* 1-based input line, 0 if n/a */
    long col;           /* 1-based column, 0 if n/a */
    const char *where;  /* __FILE__ of the code that noticed */
    int where_line;     /* __LINE__ of the code that noticed */
    char msg[512];      /* what is wrong and what to do */
} cow_err;

#define COW_ERR_INIT {0, "", 0, 0, NULL, 0, ""}

#define COW_FAIL(e, code, ...) \
    cow_err_set((e), (code), __FILE__, __LINE__, __VA_ARGS__)

/* Fill e (which may be NULL) and return code. */
int cow_err_set(cow_err *e, int code, const char *where, int where_line,
                const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Record the input position of an error already set. */
void cow_err_at(cow_err *e, const char *path, long line, long col);

/* Reset to COW_OK. */
void cow_err_clear(cow_err *e);

/* Static description of a code. */
const char *cow_strerror(int code);

/* "path:line:col: msg" (parts that are unknown are left out) into out. */
void cow_err_format(const cow_err *e, char *out, size_t n);

#endif
