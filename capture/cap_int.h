/* cap_int.h -- what the capture's threads share (private to capture/). */
#ifndef COW_CAPTURE_CAP_INT_H
#define COW_CAPTURE_CAP_INT_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <hiredis/hiredis.h>

#include "cap.h"

/* The probe's limits (cap_probe.c). */
#define CAP_PROBE_MAX_WAITING 65536  /* requests waiting for a reply: 131 s of
                                        a 2 ms probe, 1 MB of bookkeeping */
#define CAP_PROBE_MAX_REPLY (1 << 20) /* a reply to PING or SET is a few bytes */
#define CAP_PROBE_DEAD_S 60           /* no reply this long: a hung server */
#define CAP_PROBE_DRAIN_MS 1000       /* at the end, for the waiting replies */
#define CAP_STALL_MIN_US 10000        /* a quiet period shorter than this is
                                         not a stall (stalls.csv) */

/* What the INFO poller last saw (under ctx->mu). */
typedef struct cap_state {
    long long polls;            /* INFO replies parsed */
    int64_t poll_us;            /* when the last one was asked */
    int bgsave, aofrw, aofsched, modfork; /* *_in_progress, scheduled */
    long long forks;            /* total_forks */
    long pid;                   /* process_id */
} cap_state;

typedef struct cap_ctx {
    const cap_opts *o;
    char dir[1024];
    int64_t wall0_us;           /* CLOCK_REALTIME at start, epoch us */
    int64_t mono0_ns;           /* CLOCK_MONOTONIC at the same instant */
    atomic_int stop;            /* every thread ends when set */
    pthread_mutex_t mu;         /* guards what follows */
    char why[512];              /* the first interruption */
    cap_miss *miss;
    size_t nmiss;
    cap_state st;
    atomic_int child;           /* a fork child exists (INFO or /proc) */
    atomic_llong load_ops;      /* writer replies */
    int local;                  /* the server's /proc is here and readable */
    int host_local;             /* the server is on this host (or that cannot be
                                   ruled out): host files are read */
    char proc_why[600];         /* why /proc of the server is not read */
    long pid;                   /* its pid */
    /* probe results */
    long long samples, late, errors;
    long long probe_stamped;    /* replies timed by the kernel's receive stamp */
    long long gaps[3];          /* slots not sent: late, buffer, cap */
    long long stalls;           /* stalls.csv rows */
    long long stall_max_us;     /* the longest */
    size_t waiting_max;         /* most requests waiting at once */
    long long unanswered;       /* waiting when the capture ended */
    int probe_conns;            /* connections the probe used */
    int write_failed;           /* a write to the folder failed (sticky) */
    char write_why[512];        /* the first one: file and reason */
    float *lag, *rtt;           /* per sample, us */
    size_t nlag, caplag;
    long long stride;           /* every stride-th sample is kept */
    double probe_cpu_s;
    long long info_polls, proc_polls;
    char logpath[1200];         /* the server's log, "" when not readable */
    long long log_off, log_bytes; /* its size at start; bytes copied */
    char **pool;                /* --load: names of keys that existed at start */
    size_t *poollen, npool;
    int keepttl;                /* the server knows SET ... KEEPTTL (Redis 6+) */
    char rlogpath[1200];        /* replicaof: the replica's log, or "" */
    long long rlog_off;         /* its size when the trigger went */
} cap_ctx;

int64_t cap_mono_ns(void);
/* Epoch us of a monotonic reading. */
int64_t cap_wall_us(const cap_ctx *c, int64_t mono_ns);
int64_t cap_now_us(const cap_ctx *c);
/* CLOCK_REALTIME - CLOCK_MONOTONIC now (ns), read so that a preemption
 * between the clocks' readings does not move it. */
int64_t cap_wall_offset(void);
/* A kernel receive stamp (wall ns) as a monotonic instant (ns), given the
 * clocks' offset read before the data came (0: none) and at the read
 * (now_ns): when the wall clock stepped in between, the later of the two
 * (never early, late by at most the step), and no later than the read. */
int64_t cap_stamp_mono(int64_t wall_ns, int64_t off_before, int64_t off_now, int64_t now_ns);
/* The probe's slot for a send at now_ns (monotonic): the latest slot of the
 * grid intended_ns + k x period_ns (k >= 0) not after now_ns, so that no
 * request goes more than one period after its slot (the ones between are
 * gaps). */
int64_t cap_slot_at(int64_t intended_ns, int64_t now_ns, int64_t period_ns);
/* Sleep until mono_ns (absolute), waking early when stop is set; returns
 * 0, or 1 when stopped. */
int cap_sleep_until(cap_ctx *c, int64_t mono_ns);
/* The first caller's reason is kept; every thread stops. */
void cap_stop(cap_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cap_missing(cap_ctx *c, const char *what, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A write to the folder's file name failed with errno er: listed, the
 * capture ends (exit 1, run.json says what was lost). */
void cap_write_failed(cap_ctx *c, const char *name, int er);
/* Create (or, with --force, replace) a file of the capture folder. */
FILE *cap_create(cap_ctx *c, const char *name, cow_err *e);

/* A connection to the server (or to host:port), authenticated; NULL with
 * e naming the address on failure. tmo_ms: connect and command timeout. */
redisContext *cap_connect(const cap_opts *o, const char *host, int port,
                          const char *sock, int tmo_ms, cow_err *e);
/* "host:port" or the socket path, for messages. */
void cap_addr(const cap_opts *o, char *buf, size_t cap);

/* A field of an INFO reply ("key:value\r\n" lines): value into buf. */
int cap_info_field(const char *info, const char *key, char *buf, size_t cap);
long long cap_info_ll(const char *info, const char *key, long long dflt);

/* A writer thread's argument (it frees it). */
typedef struct writer_arg {
    cap_ctx *c;
    int idx;
} writer_arg;

/* Thread bodies (void *arg = cap_ctx *). */
void *cap_probe_main(void *arg);
void *cap_info_main(void *arg);
void *cap_replica_info_main(void *arg);
void *cap_proc_main(void *arg);
void *cap_kstat_main(void *arg);
void *cap_writer_main(void *arg);

/* A /proc file read whole (NUL-terminated, its length in *n when n is
 * not NULL); NULL with errno set. */
char *cap_slurp(const char *path, size_t *n);
/* The number after "Key:" in a /proc text read whole ("VmRSS:  123 kB"
 * -> 123, "write_bytes: 4096" -> 4096); -1 when the key is absent. */
long long cap_proc_field(const char *text, const char *key);
/* The first child of pid (its task pid's children file), or 0. */
long cap_child_of(long pid);

/* The server's log: at most this many bytes, for at most this long. */
#define CAP_LOG_MAX_BYTES (256LL << 20)
#define CAP_LOG_COPY_S 10
/* Open path for reading only when it is a regular file (O_NOFOLLOW,
 * O_NONBLOCK, then fstat): the fd and its stat, or -1 with the reason
 * listed under the path. */
struct stat;
int cap_open_regular(cap_ctx *c, const char *path, struct stat *sb);
/* Host files before/after (local servers): THP, sysctls, meminfo, vmstat,
 * loadavg; tag is "before" or "after". */
void cap_host_facts(cap_ctx *c, const char *tag);
/* Copy a file's bytes from offset into the folder as name: the bytes
 * copied (0: nothing logged, no file), or -1 (listed as unreadable). */
long long cap_copy_tail(cap_ctx *c, const char *src, long long offset, const char *name);

/* Write an INFO reply line by line; a line that is not INFO's own shape
 * ("# Name", "key:value", empty) is written as CAP_ESCAPED_KEY ":" and the
 * line, so that no reply can forge the capture's "# ts=" framing. Returns
 * how many lines were escaped. */
#define CAP_ESCAPED_KEY "cowtail_escaped_line"
size_t cap_put_reply_lines(FILE *fp, const char *s, size_t len);

/* A command's reply, NULL when none came within CAP_CMD_TMO_MS or a
 * signal came (cap_signal, set by cap_run.c's handler); cap_timed_out
 * tells the first from a lost connection. */
#define CAP_CMD_TMO_MS 10000
#define CAP_TIMEOUT_WHY "no reply within the deadline"
extern volatile sig_atomic_t cap_signal;
extern int cap_cmd_tmo_ms; /* cap_cmd's deadline: CAP_CMD_TMO_MS, less at the end */
redisReply *cap_cmd(redisContext *r, const char *fmt, ...);
/* The same with a deadline of tmo_ms and a stop flag (a thread's). */
redisReply *cap_cmd_within(redisContext *r, int tmo_ms, atomic_int *stop,
                           const char *fmt, ...);
bool cap_timed_out(const redisContext *r);

/* What INFO said of the server at the start. */
typedef struct srv_info {
    char role[32], version[48], name[32], tz[16], host[256];
    long pid;
} srv_info;

/* The trigger: when it was sent, when its work was over, its reply. */
typedef struct trig_state {
    int sent;
    int64_t sent_us, done_us, done_mono;
    int seen;                  /* a child (or sync) seen after the trigger */
    long long forks0;
    char reply[256];
    /* replicaof: the replica's role before REPLICAOF (its master, or none)
     * and what was done at the end to give it back */
    int rep_known;             /* the role was read before the trigger */
    char rep_master[300];      /* "" when it was a primary, else "HOST PORT" */
    char rep_after[1400];
    int rep_failed;
} trig_state;

/* cap_server.c: INFO at the start (role, version, pid), and whether the
 * server, its /proc files and this host's files are here (c->local,
 * c->host_local, listed as unreadable when not). */
int cap_server_facts(cap_ctx *c, redisContext *r, srv_info *si, cow_err *e);
/* replicaof: the replica's log from now on (c->rlogpath, c->rlog_off),
 * when the replica runs on this host. */
void cap_replica_log_start(cap_ctx *c, redisContext *rr);
/* cap_replica.c: before the capture, the replica's role into tg (the
 * master it follows, or none); COW_EUSAGE for a server holding keys of
 * its own that the sync would replace, COW_EIO when it cannot be read. */
int cap_replica_check(cap_ctx *c, trig_state *tg, cow_err *e);
/* At the end: give the replica its role back (REPLICAOF NO ONE, or its old
 * master) unless --keep-replica; what was done into tg->rep_after. */
void cap_replica_restore(cap_ctx *c, trig_state *tg);

/* cap_dump.c: whether a CONFIG parameter may hold a secret (a rule on its
 * name); */
bool cap_is_secret_param(const char *name);
/* blank the value of every secret parameter of a CONFIG GET
 * reply. */
void cap_redact_config(redisReply *rep);
/* Save a reply (freed here) flattened as the folder's file name; 0, or -1
 * listed as unreadable under what. */
int cap_dump(cap_ctx *c, redisContext *r, const char *name, const char *what,
             redisReply *rep);
/* LATENCY LATEST, HISTORY of each event, DOCTOR. */
void cap_latency_dumps(cap_ctx *c, redisContext *r);
void cap_histogram_dump(cap_ctx *c, redisContext *r, const char *name, const char *version);
/* The log file of the server behind r (pid; local: on this host), or ""
 * with the reason listed under what. */
void cap_find_log(cap_ctx *c, redisContext *r, long pid, int local, const char *what,
                  char *path, size_t cap);

/* cap_runjson.c: "bgsave", "bgrewriteaof", "replicaof" or "none". */
const char *cap_trig_name(int t);
/* Create run.json at the start, CAP_RUNJSON_RESERVE bytes that say the
 * capture did not finish, so that the account has its room on a file
 * system that fills later; cap_write_runjson overwrites it in place. */
#define CAP_RUNJSON_RESERVE 32768
void cap_reserve_runjson(cap_ctx *c);
/* Write run.json from the capture's state and its result. */
void cap_write_runjson(cap_ctx *c, const srv_info *si, const trig_state *tg,
                       cap_result *res, double total_cpu_s, int64_t end_us);

#endif
