/* msg.c -- where app/ speaks: the one sink (app.h: app_sink) that cli/
 * registers. A use case never writes to stdout or stderr itself (the test
 * app_quiet greps app/ for it); without a sink nothing is shown. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "app.h"
#include "label.h"
#include "mem.h"
#include "strbuf.h"

static app_sink sink; /* set once, before any use case runs */

void app_set_sink(const app_sink *s)
{
    if (s)
        sink = *s;
    else
        sink = (app_sink){0};
}

/* fmt formatted into a fresh string */
__attribute__((format(printf, 1, 0)))
static char *vformat(const char *fmt, va_list ap)
{
    cow_sbuf b = {0};
    sbuf_vadd(&b, fmt, ap);
    return sbuf_take(&b);
}

void app_say(const char *fmt, ...)
{
    va_list ap;
    char *text;

    if (!sink.say)
        return;
    va_start(ap, fmt);
    text = vformat(fmt, ap);
    va_end(ap);
    sink.say(sink.ctx, text);
    free(text);
}

void app_verrorf(const char *fmt, va_list ap)
{
    char *line;

    if (!sink.error)
        return;
    line = vformat(fmt, ap);
    sink.error(sink.ctx, line);
    free(line);
}

void app_errorf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    app_verrorf(fmt, ap);
    va_end(ap);
}

const char *app_tty(const char *s)
{
    /* one ring for every thread would race: each thread has its own */
    static _Thread_local char *ring[APP_TTY_RING];
    static _Thread_local unsigned next;
    unsigned k = next++ % APP_TTY_RING;
    free(ring[k]);
    ring[k] = label_safe(s ? s : "", COW_LABEL_TERM);
    return ring[k];
}

void app_error(const cow_err *e)
{
    char buf[1200];
    cow_err c = *e;
    /* the file's name is the input's: one line, whatever it holds */
    snprintf(c.path, sizeof(c.path), "%s", app_tty(e->path));
    e = &c;
    cow_err_format(e, buf, sizeof(buf));
    app_errorf("%s", buf);
}

int app_shows_progress(void)
{
    return sink.progress != NULL;
}

void app_progress(const char *path, long long rows)
{
    if (sink.progress)
        sink.progress(sink.ctx, path, rows);
}

void app_store_wait(void *ctx, const char *path, const char *holder, int timeout_ms)
{
    char t[48];
    (void)ctx;
    store_timeout_text(timeout_ms, t, sizeof(t));
    if (holder[0])
        app_errorf("%s: locked by %s: waiting for it, up to %s", path, holder, t);
    else
        app_errorf("%s: locked by another writer (another cowtail ingest or "
                   "report?): waiting for it, up to %s", path, t);
}
