/* replsteps.c -- a replica's sync attempts and their steps (replsteps.h). */
#include "replsteps.h"

#include <math.h>
#include <string.h>

static void open_attempt(cow_repl_sync *s, int64_t t, long line)
{
    memset(s, 0, sizeof(*s));
    s->attach_us = t;
    s->resync_us = s->recv_us = s->recv_end_us = COW_REPL_NONE;
    s->flush_us = s->load_us = s->up_us = s->lost_us = COW_REPL_NONE;
    s->attach_line = line;
    s->outcome = COW_REPL_OPEN;
    s->bytes = NAN;
}

static double span_s(int64_t a, int64_t b)
{
    if (a == COW_REPL_NONE || b == COW_REPL_NONE)
        return NAN;
    return (double)(b - a) / 1e6;
}

static void close_attempt(cow_repl_sync *s)
{
    s->recv_end_us = s->flush_us != COW_REPL_NONE ? s->flush_us : s->load_us;
    if (s->recv_us == COW_REPL_NONE || s->recv_end_us < s->recv_us)
        s->recv_end_us = COW_REPL_NONE;
    s->attach_to_up_s = span_s(s->attach_us, s->up_us);
    s->wait_s = span_s(s->resync_us, s->recv_us);
    s->transfer_s = span_s(s->recv_us, s->recv_end_us);
    s->flush_s = span_s(s->flush_us, s->load_us);
    s->load_s = span_s(s->load_us, s->up_us);
}

size_t replsteps_find(const cow_event *ev, size_t n, cow_repl_sync *out, size_t cap)
{
    cow_repl_sync cur;
    int open = 0, started = 0; /* an attempt is open; it logged "sync started" */
    size_t k = 0, i;

#define EMIT()                  \
    do {                        \
        close_attempt(&cur);    \
        if (k < cap)            \
            out[k] = cur;       \
        k++;                    \
        open = 0;               \
    } while (0)

    for (i = 0; i < n; i++) {
        const cow_event *e = &ev[i];
        const char *kd = e->kind;
        if (kd == NULL || strncmp(kd, "repl_", 5) != 0)
            continue;
        if (strcmp(kd, "repl_link_lost") == 0) {
            if (open) {
                cur.lost_us = e->t_us;
                cur.outcome = COW_REPL_LOST;
                EMIT();
            }
            continue; /* after link up: the end of a link, not of an attempt */
        }
        if (strcmp(kd, "repl_connect") == 0 ||
            (strcmp(kd, "repl_sync_start") == 0 && open && started)) {
            if (open)
                EMIT();
        }
        if (!open) {
            open_attempt(&cur, e->t_us, e->line);
            open = 1;
            started = 0;
        }
        if (strcmp(kd, "repl_sync_start") == 0) {
            started = 1;
        } else if (strcmp(kd, "repl_full_resync") == 0) {
            cur.mode = 'F';
            cur.resync_us = e->t_us;
        } else if (strcmp(kd, "repl_partial_ok") == 0) {
            cur.mode = 'P';
            cur.resync_us = e->t_us;
            cur.up_us = e->t_us;
            cur.outcome = COW_REPL_UP;
            EMIT();
        } else if (strcmp(kd, "repl_receive") == 0) {
            if (cur.recv_us == COW_REPL_NONE) {
                cur.recv_us = e->t_us;
                cur.bytes = e->value;
            }
        } else if (strcmp(kd, "repl_flush") == 0) {
            if (cur.flush_us == COW_REPL_NONE)
                cur.flush_us = e->t_us;
        } else if (strcmp(kd, "repl_load") == 0) {
            if (cur.load_us == COW_REPL_NONE)
                cur.load_us = e->t_us;
        } else if (strcmp(kd, "repl_done") == 0) {
            cur.up_us = e->t_us;
            cur.outcome = COW_REPL_UP;
            EMIT();
        }
    }
    if (open)
        EMIT();
#undef EMIT
    return k;
}

const char *replsteps_outcome_name(cow_repl_outcome o)
{
    return o == COW_REPL_UP ? "up" : o == COW_REPL_LOST ? "lost" : "open";
}
