/* diag_rules_cmd.c -- the doctor's rule on the server's own per-command
 * latency (LATENCY HISTOGRAM, cmdhist.h): commands that ran slower than
 * 10 ms stop every client as long as a fork does. Listed in
 * diag_rules.c's table. */
#include <stdio.h>

#include "diag_rules_int.h"

/* "268.4 ms" or "1.07 s" */
static void dur(char *b, size_t n, double us)
{
    if (us >= 1e6)
        snprintf(b, n, "%.2f s", us / 1e6);
    else
        snprintf(b, n, "%.1f ms", us / 1000);
}

int rule_slow_command(const cow_run_facts *r, size_t n, size_t i, cow_finding *f)
{
    const cow_cmdhist *h = &r[i].cmdhist;
    char top[32], over[32], src[240];
    size_t k;
    (void)n;
    if (!h->known || h->n == 0)
        return 0;
    dur(top, sizeof(top), h->v[0].top_us);
    dur(over, sizeof(over), h->v[0].over_us);
    diag_title(f, "%s took over %s on the server itself %s (%.0f of %.0f calls, up to %s)%s%s",
               h->v[0].cmd, over, h->during ? "during the run" : "since its counters were reset",
               h->v[0].over_n, h->v[0].calls, top, h->n > 1 ? "; also " : "",
               h->n > 1 ? h->v[1].cmd : "");
    for (k = 0; k < h->n; k++) {
        const cow_cmdslow *s = &h->v[k];
        dur(top, sizeof(top), s->top_us);
        dur(over, sizeof(over), s->over_us);
        snprintf(src, sizeof(src), "%.200s:%ld", h->file, s->line);
        diag_evidence(f, s->cmd, src, "%.0f of %.0f calls took over %s (LATENCY HISTOGRAM's "
                      "bucket bound), the slowest up to %s", s->over_n, s->calls, over, top);
    }
    diag_advice(f, "a command runs on the server's one main thread: while it runs no other "
                "client is answered, as during a fork. SLOWLOG GET 32 names the calls and "
                "their arguments; replace KEYS with SCAN, DEL of large keys with UNLINK, and "
                "whole reads of large collections (HGETALL, SMEMBERS, LRANGE 0 -1) with their "
                "SCAN forms%s", h->during ? "" : "; LATENCY HISTOGRAM counts since the server "
                "started or CONFIG RESETSTAT, so these may predate the run");
    return 1;
}
