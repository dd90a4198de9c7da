/* cap.h -- record a run against a live Redis or Valkey server into a
 * capture folder that `cowtail ingest` reads without a flag.
 *
 *     cap_opts o;
 *     cap_opts_init(&o);
 *     o.host = "127.0.0.1"; o.port = 6379; o.out = "run1"; ...
 *     cap_result r;
 *     rc = cap_run(&o, &r, &e);      COW_OK: the folder is complete (or
 *                                    interrupted: r.interrupted says why)
 *     ... print r ...
 *     cap_result_release(&r);
 *
 * Threads, each with its own connection, so nothing delays the probe:
 * the probe (one command on an open-loop schedule), the INFO poller (it
 * also decides when the trigger's work is done), the /proc poller (local
 * servers only), the writers (--load). The main thread sends the trigger
 * and waits. Every time stamp is one CLOCK_REALTIME reading taken at start
 * plus CLOCK_MONOTONIC deltas: two clocks are never subtracted.
 *
 * Nothing is changed on the server unless a trigger or a load is asked
 * for; files are only written inside o.out. This library prints nothing:
 * progress goes through o.say (may be NULL). */
#ifndef COW_CAPTURE_CAP_H
#define COW_CAPTURE_CAP_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

enum cap_trigger { CAP_TRIG_NONE = 0, CAP_TRIG_BGSAVE, CAP_TRIG_BGREWRITEAOF,
                   CAP_TRIG_REPLICAOF };

typedef struct cap_opts {
    const char *host;          /* server address (default 127.0.0.1) */
    int port;                  /* default 6379 */
    const char *socket;        /* unix socket path instead of host:port */
    int no_proc;               /* do not read the server's /proc files */
    const char *user;          /* AUTH user (ACL), or NULL */
    const char *pass;          /* AUTH password, or NULL */
    const char *out;           /* capture folder to create or fill */
    int force;                 /* write into a non-empty out */
    int64_t interval_us;       /* probe period (default 2000) */
    int probe_set;             /* probe with SET of one small key, not PING */
    int64_t info_every_us;     /* INFO period (default 250 ms) */
    int64_t info_fast_us;      /* INFO period while a fork child lives (50 ms) */
    const char *info_sections; /* INFO argument (default "all") */
    int trigger;               /* enum cap_trigger */
    const char *replica_host;  /* replicaof: the replica told to attach */
    int replica_port;
    int keep_replica;          /* replicaof: leave the replica attached (the
                                  default gives it back its role at the end) */
    int64_t at_us;             /* trigger time from start (default 10 s) */
    int64_t after_us;          /* keep going this long after the work ends */
    int64_t duration_us;       /* hard limit (0 = trigger: at + 10 min + after;
                                  none: 60 s) */
    double load_rate;          /* writer SETs per second in total (0 = none) */
    int load_get;              /* the writers GET instead (a read-only control) */
    int writers;               /* writer connections (default 2) */
    long long keys;            /* --load: at most this many existing key
                                  names gathered by SCAN at start (default
                                  100000); only they are written, with SET XX */
    int value_size;            /* bytes per value written (default 400) */
    uint64_t seed;             /* key and value choice */
    const char *scenario;      /* run.json scenario (default: the trigger) */
    const char *label;         /* run.json label, or NULL (the folder name) */
    const char *host_name;     /* run.json host, or NULL (this machine's name
                                  for a local server, else host) */
    const char *version;       /* cowtail version for run.json */
    /* progress lines ("probe: connected ..."); NULL: silent */
    void (*say)(void *ctx, const char *line);
    void *say_ctx;
} cap_opts;

/* Something that could not be read, and why (run.json "unreadable"). */
typedef struct cap_miss {
    char what[160];
    char why[640];
} cap_miss;

typedef struct cap_result {
    char out[1024];            /* the folder written */
    int64_t start_us;          /* wall-clock epoch at start */
    double seconds;            /* how long it ran */
    long long samples;         /* probe samples written */
    long long late;            /* sent more than 1 ms after their intended time */
    double lag_p50_us, lag_p99_us, lag_max_us; /* actual - intended send */
    double rtt_min_us, rtt_p50_us, rtt_p99_us; /* probe round trips */
    long long gaps_late, gaps_buffer, gaps_cap; /* slots not sent, by reason
                                  (probe-gaps.csv) */
    long long stalls;          /* periods the server answered nothing (stalls.csv) */
    double stall_max_ms;       /* the longest */
    long long waiting_max;     /* most probe requests waiting at once */
    long long unanswered;      /* probe requests waiting when it ended */
    int probe_conns;           /* connections the probe used */
    double load1_before, load1_after; /* this host's 1-minute load average */
    int cpus;                  /* this host's online CPUs */
    int host_busy;             /* this host's own evidence says the probe
                                  was held back (never the server's stall) */
    char host_busy_why[256];   /* that evidence, or "" */
    int write_failed;          /* a write to the folder failed: exit 1 */
    char write_why[512];       /* which file and why */
    double probe_cpu_pct;      /* probe thread CPU, % of one core */
    double total_cpu_pct;      /* the whole capture's CPU, % of one core */
    long long info_polls;      /* INFO dumps written */
    long long proc_polls;      /* /proc snapshots written */
    int local;                 /* the server runs on this host, /proc read */
    int host_local;            /* it runs here (or that cannot be ruled out):
                                  host files were read */
    char proc_why[600];        /* "" or why its /proc files were not read */
    long server_pid;
    char role[32];             /* INFO role */
    char server[64];           /* "redis 7.0.15" */
    int64_t trigger_us;        /* trigger sent (epoch), 0 if none */
    int64_t work_start_us, work_end_us; /* fork child seen / work over */
    long long load_ops;        /* writer SETs answered */
    int unreadable;            /* entries of run.json "unreadable" */
    cap_miss *miss;            /* those entries (cap_result_release frees) */
    char replica_after[1400];  /* replicaof: what was done with the replica at
                                  the end ("" for other triggers) */
    int replica_restore_failed; /* the replica could not be given its role back */
    char interrupted[512];     /* "" or what ended the capture early */
    int signal;                /* SIGINT/SIGTERM that ended it, or 0 */
} cap_result;

void cap_opts_init(cap_opts *o);

/* Run the capture. COW_OK when the folder was written (r->interrupted may
 * still say it ended early: the files are complete up to that point and
 * run.json says so); an error (nothing or little written) otherwise:
 * COW_EUSAGE for a non-empty folder without force, COW_EIO for a server
 * that cannot be reached (the message names host and port) or a folder
 * that cannot be written. SIGINT and SIGTERM stop it cleanly. */
int cap_run(const cap_opts *o, cap_result *r, cow_err *e);

/* Free what cap_run allocated in r (r->miss). */
void cap_result_release(cap_result *r);

/* Room for a host name and its NUL: a DNS name is at most 253 bytes
 * (RFC 1035); cap_parse_hostport refuses a longer one, never cuts it. */
#define CAP_HOST_MAX 256

/* Parse "HOST:PORT" (also "[v6]:PORT"); host is copied into hbuf (hcap
 * bytes, CAP_HOST_MAX will do; a longer host is COW_EUSAGE). */
int cap_parse_hostport(const char *s, char *hbuf, size_t hcap, int *port, cow_err *e);

#endif
