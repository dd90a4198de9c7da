/* err.c -- cow_err helpers. */
#include "err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int cow_err_set(cow_err *e, int code, const char *where, int where_line,
                const char *fmt, ...)
{
    va_list ap;

    if (e == NULL)
        return code;
    e->code = code;
    e->where = where;
    e->where_line = where_line;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
    va_end(ap);
    return code;
}

void cow_err_at(cow_err *e, const char *path, long line, long col)
{
    if (e == NULL)
        return;
    if (path != NULL)
        snprintf(e->path, sizeof(e->path), "%s", path);
    e->line = line;
    e->col = col;
}

void cow_err_clear(cow_err *e)
{
    if (e == NULL)
        return;
    memset(e, 0, sizeof(*e));
}

const char *cow_strerror(int code)
{
    switch ((enum cow_code)code) {
    case COW_OK: return "ok";
    case COW_EPARSE: return "malformed input";
    case COW_EUNIT: return "unit or clock cannot be known";
    case COW_ECLOCK: return "impossible time stamps";
    case COW_ELIMIT: return "limit exceeded";
    case COW_EIO: return "input/output error";
    case COW_ESQL: return "database error";
    case COW_EDUP: return "already ingested";
    case COW_EUSAGE: return "unusable request";
    case COW_EINTERNAL: return "internal error";
    }
    return "unknown error";
}

void cow_err_format(const cow_err *e, char *out, size_t n)
{
    if (e->path[0] && e->line > 0 && e->col > 0)
        snprintf(out, n, "%s:%ld:%ld: %s", e->path, e->line, e->col, e->msg);
    else if (e->path[0] && e->line > 0)
        snprintf(out, n, "%s:%ld: %s", e->path, e->line, e->msg);
    else if (e->path[0])
        snprintf(out, n, "%s: %s", e->path, e->msg);
    else
        snprintf(out, n, "%s", e->msg[0] ? e->msg : cow_strerror(e->code));
}
