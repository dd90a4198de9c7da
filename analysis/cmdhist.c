/* cmdhist.c -- slow commands from LATENCY HISTOGRAM (cmdhist.h).
 *
 * Requirements:
 *  1. A file's rows give, per command, its calls and cumulative counts at
 *     rising bounds. With a file whose name holds "start" and another, the
 *     latter minus the former, command by command and bound by bound (a
 *     bound missing from one snapshot holds that snapshot's count at the
 *     largest bound below it: empty buckets are not printed), is what ran
 *     in between; else the last file, since the counters were reset.
 *  2. A command's slowest bucket is its largest bound whose count rose
 *     over the bound before it; over_n counts the calls beyond the largest
 *     bound at or below COW_CMDHIST_SLOW_US, or beyond half the first bound
 *     above it when that is larger (a bucket covers (bound / 2, bound]:
 *     each covers twice the one before). A command is slow when its
 *     slowest bucket passes COW_CMDHIST_SLOW_US.
 *  3. BGSAVE, BGREWRITEAOF, SYNC and PSYNC are left out (their time is the
 *     fork). The slowest COW_CMDHIST_MAX are kept, by slowest bucket, then
 *     by over_n. */
#include "cmdhist.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static int fork_cmd(const char *c)
{
    return strcasecmp(c, "bgsave") == 0 || strcasecmp(c, "bgrewriteaof") == 0 ||
           strcasecmp(c, "sync") == 0 || strcasecmp(c, "psync") == 0;
}

/* The rows [*lo, *hi) of command cmd in file f (rows of one command are
 * contiguous: its calls row, then its buckets). */
static int find_cmd(const cow_cmdhist_row *rows, size_t n, const char *f, const char *cmd,
                    size_t *lo, size_t *hi)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (rows[i].bound_us == 0 && strcmp(rows[i].file, f) == 0 &&
            strcmp(rows[i].cmd, cmd) == 0) {
            *lo = i;
            for (*hi = i + 1; *hi < n && rows[*hi].bound_us > 0 && strcmp(rows[*hi].file, f) == 0;
                 (*hi)++)
                ;
            return 1;
        }
    return 0;
}

/* Cumulative count at bound b of the buckets [lo+1, hi): the count of the
 * largest bound <= b, 0 below the first. */
static double cum_at(const cow_cmdhist_row *rows, size_t lo, size_t hi, double b)
{
    double v = 0;
    size_t i;
    for (i = lo + 1; i < hi && (double)rows[i].bound_us <= b; i++)
        v = rows[i].n;
    return v;
}

static void consider(cow_cmdhist *out, const cow_cmdslow *s)
{
    size_t i, at;
    if (s->top_us <= COW_CMDHIST_SLOW_US)
        return;
    for (at = 0; at < out->n; at++)
        if (s->top_us > out->v[at].top_us ||
            (s->top_us == out->v[at].top_us && s->over_n > out->v[at].over_n))
            break;
    if (at >= COW_CMDHIST_MAX)
        return;
    if (out->n < COW_CMDHIST_MAX)
        out->n++;
    for (i = out->n - 1; i > at; i--)
        out->v[i] = out->v[i - 1];
    out->v[at] = *s;
}

void cmdhist_summarise(const cow_cmdhist_row *rows, size_t n, cow_cmdhist *out)
{
    const char *start = NULL, *end = NULL;
    size_t i;

    memset(out, 0, sizeof(*out));
    for (i = 0; i < n; i++) { /* Requirement 1 */
        const char *base = strrchr(rows[i].file, '/');
        base = base ? base + 1 : rows[i].file;
        if (strstr(base, "start") != NULL)
            start = start ? start : rows[i].file;
        else
            end = rows[i].file;
    }
    if (end == NULL) { /* a start snapshot alone: since the reset */
        end = start;
        start = NULL;
    }
    if (end == NULL)
        return;
    out->during = start != NULL;
    snprintf(out->file, sizeof(out->file), "%s", end);
    for (i = 0; i < n; i++) {
        size_t lo, hi, slo = 0, shi = 0, j;
        int has_start;
        double prev = 0, at_over = 0;
        cow_cmdslow s;
        if (rows[i].bound_us != 0 || strcmp(rows[i].file, end) != 0)
            continue;
        find_cmd(rows, n, end, rows[i].cmd, &lo, &hi);
        out->ncmds++;
        out->known = 1;
        if (fork_cmd(rows[i].cmd)) /* Requirement 3 */
            continue;
        has_start = start != NULL && find_cmd(rows, n, start, rows[i].cmd, &slo, &shi);
        memset(&s, 0, sizeof(s));
        snprintf(s.cmd, sizeof(s.cmd), "%s", rows[i].cmd);
        s.line = rows[i].line;
        s.calls = rows[lo].n - (has_start ? rows[slo].n : 0);
        if (s.calls <= 0)
            continue;
        for (j = lo + 1; j < hi; j++) { /* Requirement 2 */
            double b = (double)rows[j].bound_us;
            double c = rows[j].n - (has_start ? cum_at(rows, slo, shi, b) : 0);
            if (c > prev)
                s.top_us = b;
            if (b <= COW_CMDHIST_SLOW_US) {
                s.over_us = b;
                at_over = c;
            }
            prev = c;
        }
        { /* a bucket covers (bound / 2, bound]: the first above the line
           * starts at half its bound, a tighter floor when no bound lies
           * between */
            double first_above = 0;
            for (j = lo + 1; j < hi && first_above == 0; j++)
                if ((double)rows[j].bound_us > COW_CMDHIST_SLOW_US)
                    first_above = (double)rows[j].bound_us;
            if (first_above / 2 > s.over_us)
                s.over_us = first_above / 2;
        }
        s.over_n = s.calls - at_over;
        consider(out, &s);
    }
}
