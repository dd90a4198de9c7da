/* msg.c -- error lines on stderr, in the one form every command uses. */
#include <stdarg.h>
#include <stdio.h>

#include "app.h"

void app_error(const cow_err *e)
{
    char buf[1200];
    cow_err_format(e, buf, sizeof(buf));
    fprintf(stderr, "cowtail: %s\n", buf);
}

void app_verrorf(const char *fmt, va_list ap)
{
    fputs("cowtail: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void app_errorf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    app_verrorf(fmt, ap);
    va_end(ap);
}
