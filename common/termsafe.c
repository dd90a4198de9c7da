/* termsafe.c -- the terminal filter in front of stdout and stderr
 * (termsafe.h). */
#define _GNU_SOURCE /* fopencookie */
#include "termsafe.h"

#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "label.h"
#include "mem.h"

/* Labels, paths and reasons reach stdout and stderr from many printf
 * calls; rather than trusting each one, main() puts a filter in front of
 * both streams (term_safe_streams): every byte goes through
 * label_safe_n(COW_LABEL_TEXT), so a control character in a folder name
 * is shown as \xNN (ESC[2J cannot clear the screen) and invalid UTF-8 as
 * U+FFFD. A UTF-8 sequence split between two writes is held back until
 * its end arrives. */
typedef struct safe_stream {
    FILE *real;       /* the stream written to */
    char tail[4];     /* start of a UTF-8 sequence cut by the last write */
    size_t ntail;     /* its length (0..3) */
} safe_stream;

static safe_stream safe_out, safe_err;

static ssize_t safe_write(void *cookie, const char *buf, size_t n)
{
    safe_stream *ss = cookie;
    size_t all = ss->ntail + n, keep, outn;
    char *joined = xmalloc(all ? all : 1), *out;
    int ok;

    memcpy(joined, ss->tail, ss->ntail);
    memcpy(joined + ss->ntail, buf, n);
    keep = label_utf8_tail(joined, all);
    out = label_safe_n(joined, all - keep, COW_LABEL_TEXT, &outn);
    memcpy(ss->tail, joined + all - keep, keep);
    ss->ntail = keep;
    ok = fwrite(out, 1, outn, ss->real) == outn && fflush(ss->real) == 0;
    free(out);
    free(joined);
    return ok ? (ssize_t)n : -1;
}

static int safe_close(void *cookie)
{
    safe_stream *ss = cookie;
    if (ss->ntail > 0) /* a sequence the output ended in the middle of */
        fputs("\xEF\xBF\xBD", ss->real);
    ss->ntail = 0;
    return fflush(ss->real);
}

static FILE *safe_wrap(safe_stream *ss, FILE *real, int mode)
{
    cookie_io_functions_t io = {NULL, safe_write, NULL, safe_close};
    FILE *fp;

    ss->real = real;
    ss->ntail = 0;
    if ((fp = fopencookie(ss, "w", io)) == NULL)
        return real;
    setvbuf(fp, NULL, mode, BUFSIZ);
    return fp;
}

void term_safe_streams(void)
{
    FILE *out = safe_wrap(&safe_out, stdout, _IOFBF);
    FILE *err = safe_wrap(&safe_err, stderr, _IOLBF);
    stdout = out;
    stderr = err;
}

FILE *term_raw_stderr(void)
{
    return safe_err.real ? safe_err.real : stderr;
}

FILE *term_raw_stdout(void)
{
    return safe_out.real ? safe_out.real : stdout;
}
