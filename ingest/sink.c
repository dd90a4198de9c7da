/* sink.c -- helpers over cow_sink. */
#include "sink.h"

#include <stddef.h>
#include <string.h>

int sink_emit(cow_sink *k, const cow_rec *r, cow_err *e)
{
    return k->emit(k->ctx, r, e);
}

int sink_samples(cow_sink *k, const cow_sample *s, size_t n, cow_err *e)
{
    size_t i;
    int rc;

    if (k->emit_samples)
        return k->emit_samples(k->ctx, s, n, e);
    for (i = 0; i < n; i++) {
        cow_rec r;
        r.kind = COW_REC_SAMPLE;
        r.u.sample = s[i];
        if ((rc = k->emit(k->ctx, &r, e)) != COW_OK)
            return rc;
    }
    return COW_OK;
}

int sink_reject(cow_sink *k, long line, const char *reason, const char *text,
                size_t n, cow_err *e)
{
    cow_rec r;
    r.kind = COW_REC_REJECT;
    r.u.reject.line = line;
    r.u.reject.reason = reason;
    r.u.reject.text = text;
    r.u.reject.n = n;
    return k->emit(k->ctx, &r, e);
}

int sink_note(cow_sink *k, const char *key, const char *value, cow_err *e)
{
    cow_rec r;
    r.kind = COW_REC_NOTE;
    r.u.note.key = key;
    r.u.note.value = value;
    return k->emit(k->ctx, &r, e);
}

int sink_stat(cow_sink *k, int64_t t_us, const char *source, const char *key,
              const char *text, double num, const char *unit, long line,
              cow_err *e)
{
    cow_rec r;
    memset(&r, 0, sizeof(r));
    r.kind = COW_REC_STAT;
    r.u.stat.t_us = t_us;
    r.u.stat.source = source;
    r.u.stat.key = key;
    r.u.stat.text = text;
    r.u.stat.num = num;
    r.u.stat.unit = unit;
    r.u.stat.line = line;
    return k->emit(k->ctx, &r, e);
}
