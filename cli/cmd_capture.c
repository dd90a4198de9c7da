/* cmd_capture.c -- `cowtail capture`: record a run against a live Redis or
 * Valkey server into a capture folder (capture/cap.h does the work). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "commands.h"
#include "optval.h"
#ifdef COW_WITH_CAPTURE
#include "cap.h"
#endif

const char *const cmd_capture_usage[] = {
    "usage: cowtail capture [--host H] [--port P | --socket PATH]",
    "                       [--user U --pass-env VAR] [--out DIR] [options]",
    "",
    "Record a run against a running Redis or Valkey server into DIR, in the",
    "layout cowtail ingest reads without a flag, and print the cowtail report",
    "command to run on it. Nothing is changed on the server unless --trigger,",
    "--load or --probe set asks for it: without them the capture only",
    "observes, which is what a production server needs.",
    "",
    "What it records (each on its own connection and thread, so polling never",
    "delays the probe):",
    "  latency.csv      the probe: one command (PING, or SET of one key with",
    "                   --probe set) on an open-loop schedule; per sample the",
    "                   actual send (timestamp_us), the round trip (latency_us)",
    "                   and the intended send (intended_us): reply - intended",
    "                   is the latency without coordinated omission, and what",
    "                   ingest reads by default. Requests are pipelined, so a",
    "                   server that answers nothing does not hold back the next",
    "                   one; a slot that cannot go within one period is a gap",
    "  probe-gaps.csv   slots not sent and why (late: this host ran the probe",
    "                   late; buffer: the server reads nothing; cap: 65536 wait)",
    "  stalls.csv       each period of 10 ms or more in which the server answered",
    "                   nothing while probe requests waited: start, length, how",
    "                   many waited",
    "  info.txt         INFO every --info-every, every 50 ms while a fork",
    "                   child exists, each after a '# ts=<epoch us>' line",
    "  config.txt       CONFIG GET * at the start (requirepass, masterauth and",
    "                   the TLS key passwords redacted)",
    "  latency-*.txt    LATENCY LATEST, HISTORY of every event, DOCTOR at the end",
    "  throughput.csv   the writers' SETs answered per 100 ms (with --load)",
    "When the server runs on this host (INFO process_id is a redis or valkey",
    "server here): smaps_rollup.txt and status.txt every second, every 200 ms",
    "while a fork child exists (the child's in *-child-PID.txt), memory.csv (RSS),",
    "memory-pss.csv (Pss of server + child), thp-*.txt, sysctl.txt, meminfo,",
    "vmstat and loadavg before and after, and the server's log from the start",
    "of the capture (redis.log; with --trigger replicaof, the replica's log",
    "from the trigger on, replica.log, and its INFO series, replica-info.txt).",
    "The server's /proc files need its user (or root); run as another user,",
    "the capture still reads the host files and the log when they are",
    "readable, and says what it skipped. run.json says what was captured and",
    "how, and lists everything that could not be read with the reason; the",
    "closing lines list them too.",
    "",
    "Every time stamp is one wall-clock reading taken at start plus",
    "CLOCK_MONOTONIC deltas. Ctrl-C, a lost connection or a server that dies",
    "end the capture early: every file written so far is kept, and run.json",
    "\"interrupted\" says what happened (a second Ctrl-C ends it at once,",
    "without the end dumps and run.json).",
    "",
    "Connection (no TLS: Debian 12's hiredis 0.14 has none; reach a TLS-only",
    "server through a local tunnel, e.g. stunnel or ssh -L 6380:host:6379):",
    "  --host H           server address (default 127.0.0.1)",
    "  --port P           port (default 6379)",
    "  --socket PATH      unix socket instead of host and port",
    "  --user U           ACL user for AUTH (with --pass-env)",
    "  --pass-env VAR     AUTH with the password in environment variable VAR",
    "                     (never on the command line, where ps shows it)",
    "Output:",
    "  --out DIR          capture folder (default ./cowtail-capture-<UTC time>);",
    "                     a folder that is not empty is refused unless --force",
    "  --force            write into a folder that is not empty",
    "  --scenario NAME    run.json scenario (default: the trigger's name)",
    "  --label NAME       run.json label (default: the folder's name)",
    "  --host-name NAME   run.json host, which check and report group runs by",
    "                     (default: this machine's name when the server runs",
    "                     here, else --host; give it through a tunnel)",
    "  -q, --quiet        only the closing lines",
    "Probe and polling:",
    "  --rate R           probe schedule: a period (2ms, 500us) or N/s",
    "                     (default 2ms = 500/s)",
    "  --probe ping|set   PING (default) or SET cowtail:probe:<pid> (deleted",
    "                     at the end)",
    "  --info-every D     INFO period (default 250ms)",
    "  --info-sections S  INFO argument (default all; with a trigger it must",
    "                     hold persistence, or give --duration)",
    "  --no-proc          do not read the server's /proc files",
    "Trigger and load (these change the server):",
    "  --trigger T        bgsave, bgrewriteaof, replicaof=HOST:PORT (the replica",
    "                     there is told REPLICAOF this server, and given its role",
    "                     back at the end; it must hold no keys of its own) or",
    "                     none (default)",
    "  --keep-replica     replicaof: leave the replica attached at the end",
    "  --at D             when to trigger (default 30s: 15,000 baseline samples at",
    "                     the default rate, what a p99 verdict's block test needs",
    "                     against a save of seconds; a shorter baseline often",
    "                     gives '?')",
    "  --after D          stop this long after the trigger's work is over, as",
    "                     INFO shows it (default 10s)",
    "  --duration D       stop at D at the latest (default: 60s without a",
    "                     trigger, else --at + 10 minutes + --after)",
    "  --load RATE        writer SETs per second in total, paced, on random",
    "                     existing keys: at the start SCAN gathers the names of",
    "                     up to --keys string keys, and only they are written",
    "                     (SET XX: no key is ever created). A server without",
    "                     keys is refused: load a data set on a test server",
    "                     first (e.g. redis-benchmark -t set -n 200000 -r 100000)",
    "  --load-op set|get  what the writers send (default set; get: a read-only",
    "                     control load)",
    "  --writers N        writer connections (default 2)",
    "  --keys N           at most N existing key names to write (default 100000)",
    "  --value-size N     bytes per value written (default 400)",
    "  --seed S           key and value choice (default 42)",
    "",
    "Exit codes: 0 captured (also when interrupted: run.json says so); 2 bad",
    "options, a folder that is not empty, or --load on a server without keys;",
    "3 the server cannot be reached or refuses AUTH, or the folder cannot be",
    "written.",
    NULL
};

#ifndef COW_WITH_CAPTURE
int cmd_capture(int argc, char **argv)
{
    int i;
    for (i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            cli_print_usage(stdout, cmd_capture_usage);
            return EXIT_OK;
        }
    cli_errorf("capture: this cowtail was built without capture (cmake "
               "-DCOWTAIL_CAPTURE=OFF); build it with -DCOWTAIL_CAPTURE=ON and "
               "libhiredis-dev installed");
    return EXIT_USAGE;
}
#else

/* s and tail as one shell word (single-quoted when it needs to be), so
 * the printed command can be pasted as it is. */
static void put_word(const char *s, const char *tail)
{
    const char *p;
    int plain = *s != '\0';
    for (p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
              (*p >= '0' && *p <= '9') || strchr("._/-+:@%", *p)))
            plain = 0;
    if (plain) {
        printf("%s%s", s, tail);
        return;
    }
    putchar('\'');
    for (p = s; *p; p++)
        if (*p == '\'')
            fputs("'\\''", stdout);
        else
            putchar(*p);
    printf("%s'", tail);
}

#define PL(n, one, many) ((n) == 1 ? (one) : (many))

/* The report command for the folder: its database (OUT.db) and report
 * (OUT-report) beside the folder, not in it, so that ingesting the folder
 * again never takes them for capture files, and the run does not join
 * runs of other captures in ./cowtail.db. The program as it was run when
 * that was a path (build/cowtail), else cowtail (on PATH). */
static void next_command(const char *out)
{
    char base[1100], *rp = NULL;
    size_t n;
    snprintf(base, sizeof(base), "%s", out);
    n = strlen(base);
    while (n > 1 && base[n - 1] == '/')
        base[--n] = '\0';
    if (strcmp(base, ".") == 0 || strcmp(base, "..") == 0 ||
        (n >= 2 && strcmp(base + n - 2, "/.") == 0) ||
        (n >= 3 && strcmp(base + n - 3, "/..") == 0) || strcmp(base, "/") == 0) {
        /* ./ has no name to put .db after: its full path has */
        if ((rp = realpath(out, NULL)) != NULL && strcmp(rp, "/") != 0)
            snprintf(base, sizeof(base), "%s", rp);
        free(rp);
    }
    printf("next: ");
    put_word(strchr(cli_program, '/') ? cli_program : "cowtail", "");
    fputs(" report --db ", stdout);
    put_word(base, ".db");
    fputs(" --out ", stdout);
    put_word(base, "-report");
    putchar(' ');
    put_word(base, "");
    putchar('\n');
}

static void print_line(void *ctx, const char *line)
{
    if (*(const int *)ctx)
        return;
    fprintf(stderr, "%s\n", line);
}

static int dur(const char *opt, const char *arg, int64_t lo, int64_t hi, int64_t *us)
{
    cow_err e = COW_ERR_INIT;
    if (optval_duration_us(opt, arg, lo, hi, us, &e) == COW_OK)
        return EXIT_OK;
    cli_errorf("%s (see 'cowtail help capture')", e.msg);
    return EXIT_USAGE;
}

/* --rate: "2ms" / "500us" (a period) or "500/s" / "500" (per second). */
static int rate_opt(const char *arg, int64_t *interval_us)
{
    size_t n = strlen(arg);
    double per_s;
    char buf[64];
    if (n > 2 && strcmp(arg + n - 2, "/s") == 0 && n < sizeof(buf)) {
        memcpy(buf, arg, n - 2);
        buf[n - 2] = '\0';
        if (cli_opt_double("capture", "--rate", buf, 0.1, 100000, &per_s) != EXIT_OK)
            return EXIT_USAGE;
        *interval_us = (int64_t)llround(1e6 / per_s);
        return EXIT_OK;
    }
    if (strspn(arg, "0123456789.") == n)
        return cli_opt_double("capture", "--rate", arg, 0.1, 100000, &per_s) != EXIT_OK
                   ? EXIT_USAGE
                   : (*interval_us = (int64_t)llround(1e6 / per_s), EXIT_OK);
    return dur("--rate", arg, 10, 10000000, interval_us);
}

int cmd_capture(int argc, char **argv)
{
    enum { O_HOST = 1000, O_PORT, O_SOCKET, O_USER, O_PASSENV, O_OUT, O_FORCE,
           O_RATE, O_PROBE, O_INFO_EVERY, O_INFO_SECT, O_NOPROC, O_TRIGGER, O_AT,
           O_AFTER, O_DURATION, O_LOAD, O_WRITERS, O_KEYS, O_VSIZE,
           O_SEED, O_SCEN, O_LABEL, O_LOADOP, O_HOSTNAME, O_KEEPREP };
    static const struct option opts[] = {
        {"host", required_argument, NULL, O_HOST},
        {"port", required_argument, NULL, O_PORT},
        {"socket", required_argument, NULL, O_SOCKET},
        {"user", required_argument, NULL, O_USER},
        {"pass-env", required_argument, NULL, O_PASSENV},
        {"out", required_argument, NULL, O_OUT},
        {"force", no_argument, NULL, O_FORCE},
        {"rate", required_argument, NULL, O_RATE},
        {"probe", required_argument, NULL, O_PROBE},
        {"info-every", required_argument, NULL, O_INFO_EVERY},
        {"info-sections", required_argument, NULL, O_INFO_SECT},
        {"no-proc", no_argument, NULL, O_NOPROC},
        {"trigger", required_argument, NULL, O_TRIGGER},
        {"keep-replica", no_argument, NULL, O_KEEPREP},
        {"at", required_argument, NULL, O_AT},
        {"after", required_argument, NULL, O_AFTER},
        {"duration", required_argument, NULL, O_DURATION},
        {"load", required_argument, NULL, O_LOAD},
        {"load-op", required_argument, NULL, O_LOADOP},
        {"writers", required_argument, NULL, O_WRITERS},
        {"keys", required_argument, NULL, O_KEYS},
        {"value-size", required_argument, NULL, O_VSIZE},
        {"seed", required_argument, NULL, O_SEED},
        {"scenario", required_argument, NULL, O_SCEN},
        {"label", required_argument, NULL, O_LABEL},
        {"host-name", required_argument, NULL, O_HOSTNAME},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    cap_opts o;
    cap_result r;
    cow_err e = COW_ERR_INIT;
    char rhost[CAP_HOST_MAX], outbuf[128];
    int c, quiet = 0;
    int64_t v;
    const char *passenv = NULL;

    cap_opts_init(&o);
    o.version = COW_VERSION;
    optind = 1;
    while ((c = cli_getopt(argc, argv, "qh", opts)) != -1) {
        switch (c) {
        case O_HOST: o.host = optarg; break;
        case O_PORT:
            if (cli_opt_int("capture", "--port", optarg, 1, 65535, &v) != EXIT_OK)
                return EXIT_USAGE;
            o.port = (int)v;
            break;
        case O_SOCKET: o.socket = optarg; break;
        case O_USER: o.user = optarg; break;
        case O_PASSENV: passenv = optarg; break;
        case O_OUT: o.out = optarg; break;
        case O_FORCE: o.force = 1; break;
        case O_RATE:
            if (rate_opt(optarg, &o.interval_us) != EXIT_OK)
                return EXIT_USAGE;
            break;
        case O_PROBE:
            if (strcmp(optarg, "ping") != 0 && strcmp(optarg, "set") != 0) {
                cli_errorf("--probe: '%s' is neither ping nor set (see 'cowtail help "
                           "capture')", optarg);
                return EXIT_USAGE;
            }
            o.probe_set = strcmp(optarg, "set") == 0;
            break;
        case O_INFO_EVERY:
            if (dur("--info-every", optarg, 10000, 3600000000, &o.info_every_us) != EXIT_OK)
                return EXIT_USAGE;
            if (o.info_fast_us > o.info_every_us)
                o.info_fast_us = o.info_every_us;
            break;
        case O_INFO_SECT: o.info_sections = optarg; break;
        case O_NOPROC: o.no_proc = 1; break;
        case O_TRIGGER:
            if (strcmp(optarg, "bgsave") == 0)
                o.trigger = CAP_TRIG_BGSAVE;
            else if (strcmp(optarg, "bgrewriteaof") == 0)
                o.trigger = CAP_TRIG_BGREWRITEAOF;
            else if (strcmp(optarg, "none") == 0)
                o.trigger = CAP_TRIG_NONE;
            else if (strncmp(optarg, "replicaof", 9) == 0 &&
                     (optarg[9] == '=' || optarg[9] == ' ' || optarg[9] == ':')) {
                if (cap_parse_hostport(optarg + 10, rhost, sizeof(rhost),
                                       &o.replica_port, &e) != COW_OK) {
                    cli_errorf("--trigger: %s (see 'cowtail help capture')", e.msg);
                    return EXIT_USAGE;
                }
                o.trigger = CAP_TRIG_REPLICAOF;
                o.replica_host = rhost;
            } else {
                cli_errorf("--trigger: '%s' is not bgsave, bgrewriteaof, "
                           "replicaof=HOST:PORT or none (see 'cowtail help capture')",
                           optarg);
                return EXIT_USAGE;
            }
            break;
        case O_KEEPREP: o.keep_replica = 1; break;
        case O_AT:
            if (dur("--at", optarg, 0, 86400000000, &o.at_us) != EXIT_OK)
                return EXIT_USAGE;
            break;
        case O_AFTER:
            if (dur("--after", optarg, 0, 86400000000, &o.after_us) != EXIT_OK)
                return EXIT_USAGE;
            break;
        case O_DURATION:
            if (dur("--duration", optarg, 100000, INT64_C(7) * 86400000000, &o.duration_us) != EXIT_OK)
                return EXIT_USAGE;
            break;
        case O_LOAD:
            if (cli_opt_double("capture", "--load", optarg, 1, 10000000, &o.load_rate) != EXIT_OK)
                return EXIT_USAGE;
            break;
        case O_LOADOP:
            if (strcmp(optarg, "set") != 0 && strcmp(optarg, "get") != 0) {
                cli_errorf("--load-op: '%s' is neither set nor get (see 'cowtail help "
                           "capture')", optarg);
                return EXIT_USAGE;
            }
            o.load_get = strcmp(optarg, "get") == 0;
            break;
        case O_WRITERS:
            if (cli_opt_int("capture", "--writers", optarg, 1, 64, &v) != EXIT_OK)
                return EXIT_USAGE;
            o.writers = (int)v;
            break;
        case O_KEYS:
            if (cli_opt_int("capture", "--keys", optarg, 1, INT64_C(1) << 40, &v) != EXIT_OK)
                return EXIT_USAGE;
            o.keys = v;
            break;
        case O_VSIZE:
            if (cli_opt_int("capture", "--value-size", optarg, 1, 64 << 20, &v) != EXIT_OK)
                return EXIT_USAGE;
            o.value_size = (int)v;
            break;
        case O_SEED:
            if (cli_opt_seed("capture", optarg, &o.seed) != EXIT_OK)
                return EXIT_USAGE;
            break;
        case O_SCEN: o.scenario = optarg; break;
        case O_LABEL: o.label = optarg; break;
        case O_HOSTNAME: o.host_name = optarg; break;
        case 'q': quiet = 1; break;
        case 'h': cli_print_usage(stdout, cmd_capture_usage); return EXIT_OK;
        default: return EXIT_USAGE;
        }
    }
    if (optind < argc) {
        cli_errorf("capture: unexpected argument '%s' (see 'cowtail help capture')",
                   argv[optind]);
        return EXIT_USAGE;
    }
    if (passenv) {
        o.pass = getenv(passenv);
        if (o.pass == NULL) {
            cli_errorf("capture: --pass-env %s: the environment variable %s is not set",
                       passenv, passenv);
            return EXIT_USAGE;
        }
    } else if (o.user) {
        cli_errorf("capture: --user needs --pass-env VAR (the password is read from the "
                   "environment)");
        return EXIT_USAGE;
    }
    if (o.trigger != CAP_TRIG_NONE && o.duration_us == 0 &&
        strstr(o.info_sections, "all") == NULL && strstr(o.info_sections, "everything") == NULL &&
        strstr(o.info_sections, "default") == NULL &&
        strstr(o.info_sections, "persistence") == NULL) {
        cli_errorf("capture: --info-sections '%s' has no persistence section, which tells "
                   "when the trigger's work is over: add it ('%s persistence', Redis 7 "
                   "and later) or give --duration", o.info_sections, o.info_sections);
        return EXIT_USAGE;
    }
    if (o.trigger == CAP_TRIG_REPLICAOF && o.socket) {
        cli_errorf("capture: --trigger replicaof needs --host and --port: a replica "
                   "cannot attach through a unix socket");
        return EXIT_USAGE;
    }
    if (o.keep_replica && o.trigger != CAP_TRIG_REPLICAOF) {
        cli_errorf("capture: --keep-replica is for --trigger replicaof=HOST:PORT only");
        return EXIT_USAGE;
    }
    if (o.out == NULL) {
        time_t now = time(NULL);
        struct tm tm;
        gmtime_r(&now, &tm);
        strftime(outbuf, sizeof(outbuf), "cowtail-capture-%Y%m%dT%H%M%SZ", &tm);
        o.out = outbuf;
    }
    o.say = print_line;
    o.say_ctx = &quiet;
    if (cap_run(&o, &r, &e) != COW_OK) {
        cli_errorf("capture: %s", e.msg);
        return cli_exit_for(e.code);
    }
    printf("captured %.1f s into %s: %lld probe %s (intended vs actual send: "
           "median %.0f us, p99 %.0f us, max %.0f us late; %lld more than 1 ms late), "
           "%lld INFO %s, %lld /proc %s%s\n",
           r.seconds, r.out, r.samples, PL(r.samples, "sample", "samples"), r.lag_p50_us,
           r.lag_p99_us, r.lag_max_us, r.late, r.info_polls, PL(r.info_polls, "poll", "polls"),
           r.proc_polls, PL(r.proc_polls, "poll", "polls"),
           r.local ? "" : o.no_proc ? " (--no-proc)"
           : r.host_local ? " (the server runs here but its /proc files cannot be read: "
                            "see below)"
           : " (the server is not on this host)");
    printf("probe round trip: min %.0f us, median %.0f us, p99 %.0f us; probe CPU %.2f%% "
           "of a core, the whole capture %.2f%%\n",
           r.rtt_min_us, r.rtt_p50_us, r.rtt_p99_us, r.probe_cpu_pct, r.total_cpu_pct);
    printf("probe health: %d %s, at most %lld waiting at once; %lld %s not sent "
           "(%lld late, %lld send buffer full, %lld at the cap of waiting requests); "
           "%lld %s (the server answered nothing for %.0f ms at most); %lld unanswered at "
           "the end\n", r.probe_conns, PL(r.probe_conns, "connection", "connections"),
           r.waiting_max, r.gaps_late + r.gaps_buffer + r.gaps_cap,
           PL(r.gaps_late + r.gaps_buffer + r.gaps_cap, "slot", "slots"), r.gaps_late,
           r.gaps_buffer, r.gaps_cap, r.stalls, PL(r.stalls, "stall", "stalls"),
           r.stall_max_ms, r.unanswered);
    if (r.host_busy)
        printf("host busy: %s; tail figures may be lower bounds of what clients saw\n",
               r.host_busy_why);
    if (r.load_ops > 0)
        printf("load: %lld %s answered\n", r.load_ops,
               o.load_get ? PL(r.load_ops, "GET", "GETs") : PL(r.load_ops, "SET", "SETs"));
    if (r.unreadable) {
        int i;
        printf("%d %s could not be read (run.json \"unreadable\" lists the same):\n",
               r.unreadable, PL(r.unreadable, "item", "items"));
        for (i = 0; i < r.unreadable; i++)
            printf("  %s: %s\n", r.miss[i].what, r.miss[i].why);
    }
    if (r.replica_after[0] && !r.replica_restore_failed)
        printf("replica: %s\n", r.replica_after);
    else if (r.replica_after[0])
        cli_errorf("capture: replica %s", r.replica_after);
    if (r.interrupted[0])
        printf("interrupted: %s (the files hold everything up to then; run.json says so)\n",
               r.interrupted);
    if (r.write_failed) {
        cli_errorf("capture: incomplete: the write to %s; the folder holds what was "
                   "written before it (run.json says \"complete\": false and what was "
                   "lost) and ingest reads that; free space in %s's file system and "
                   "capture again", r.write_why, r.out);
        cap_result_release(&r);
        return EXIT_IO;
    }
    cap_result_release(&r);
    next_command(r.out);
    return EXIT_OK;
}
#endif
