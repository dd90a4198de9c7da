/* prefix.h -- the wrappers that container platforms and log collectors put
 * in front of each line of a program's output, peeled off before a parser
 * sees the line.
 *
 *     cow_prefix pf;
 *     size_t skip = prefix_peel(line, n, &pf);   line + skip is the program's text
 *
 * Recognised (any combination, outermost first):
 *
 *   compose   `docker compose logs`: "redis-1  | ", "redis_1     | "
 *   kube      `kubectl logs --prefix`: "[pod/redis-0/redis] "
 *   stamp     `docker logs -t`, `kubectl logs --timestamps`, `docker compose
 *             logs -t`: an RFC 3339 stamp with its zone ("2026-08-31T03:46:15
 *             .123456789Z ", "...+00:00 "), also followed by "| "
 *   journal   `journalctl -o short-iso` and rsyslog high-precision lines:
 *             an RFC 3339 stamp, then "host ident[pid]: "
 *   syslog    classic syslog: "Jul  7 21:31:57 host redis-server[812]: "
 *             (no zone, no year: not a clock)
 *
 * A stamp with a zone is an absolute instant (pf.has_t, pf.t_us): a parser
 * of a log whose own stamps are local time may take it as the line's clock.
 * Nothing is peeled unless text follows the prefix, so a line holding only
 * a stamp (an INFO series' dump marker) stays as it is. */
#ifndef COW_COMMON_PREFIX_H
#define COW_COMMON_PREFIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum cow_prefix_kind {
    COW_PFX_COMPOSE = 1,
    COW_PFX_KUBE = 2,
    COW_PFX_STAMP = 4,
    COW_PFX_JOURNAL = 8,
    COW_PFX_SYSLOG = 16
};

/* How deep prefixes nest at most (compose + stamp + journal is three). */
#define COW_PFX_MAX_DEPTH 4

typedef struct cow_prefix {
    int kinds;       /* enum cow_prefix_kind bits peeled from this line */
    int has_t;       /* t_us holds a zone-qualified stamp of the line */
    int64_t t_us;    /* UTC epoch us */
    int mon, d, h, mi, s; /* a syslog stamp (local time, no year), mon 0 if none */
    long pid;        /* the ident's [pid] of a syslog/journal line, 0 if none */
    int ident_server;/* that ident is a Redis/Valkey/KeyDB server ("redis-server",
                        "nextcloud.redis-server", "valkey"): its message is the
                        server's, possibly without the server's own prefix
                        (syslog-enabled yes) */
} cow_prefix;

/* Terminal transcripts: a redis-cli prompt line ("127.0.0.1:6379> info",
 * "10.1.1.228:7001[2]> config get *", "redis 127.0.0.1:6379> ", "not
 * connected> ") or a shell prompt running a client ("$ redis-cli --latency",
 * "# valkey-cli info", "user@host:~$ redis-cli ...", or a bare "$" ending
 * the session). true when the line is
 * one; the command typed (possibly empty) in *cmd, *ncmd. */
bool prefix_prompt(const char *p, size_t n, const char **cmd, size_t *ncmd);
/* What a transcript shows between outputs and that no parser reads: a
 * reply "OK", redis-cli's "(1.00s)" timing line, "^C", or the echo of a
 * typed command ("debug sleep 1", "latency latest", "info", "config get
 * maxmemory"). Not "save": a CONFIG GET name. */
bool prefix_echo(const char *p, size_t n);

/* Bytes of prefixes at the start of p[0..n) (0 when none); what was peeled
 * goes to *pf (always written). */
size_t prefix_peel(const char *p, size_t n, cow_prefix *pf);
/* "compose service, RFC 3339 stamp" for a set of kinds, into buf. */
const char *prefix_describe(int kinds, char *buf, size_t n);

#endif
