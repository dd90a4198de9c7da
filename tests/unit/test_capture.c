/* test_capture.c -- the capture room's pure helpers (capture/cap_int.h):
 * HOST:PORT parsing, INFO field reading, and the safety classes that need
 * no server: secrets redacted by a rule, INFO framing that a reply cannot
 * forge, the server's log copied only from a regular file. The live parts run against
 * real servers in tests/e2e/capture_live.sh. */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cap_int.h"
#include "minunit.h"

static void hostport_should_take_names_v4_and_v6(void)
{
    char h[64];
    int port = 0;
    cow_err e = COW_ERR_INIT;

    CHECK_INT(cap_parse_hostport("127.0.0.1:7302", h, sizeof(h), &port, &e), COW_OK);
    CHECK_STR(h, "127.0.0.1");
    CHECK_INT(port, 7302);
    CHECK_INT(cap_parse_hostport("replica-1.example:6379", h, sizeof(h), &port, &e), COW_OK);
    CHECK_STR(h, "replica-1.example");
    CHECK_INT(cap_parse_hostport("[::1]:6380", h, sizeof(h), &port, &e), COW_OK);
    CHECK_STR(h, "::1");
    CHECK_INT(port, 6380);
    CHECK_INT(cap_parse_hostport("host", h, sizeof(h), &port, &e), COW_EUSAGE);
    CHECK_INT(cap_parse_hostport(":6379", h, sizeof(h), &port, &e), COW_EUSAGE);
    CHECK_INT(cap_parse_hostport("h:0", h, sizeof(h), &port, &e), COW_EUSAGE);
    CHECK_INT(cap_parse_hostport("h:65536", h, sizeof(h), &port, &e), COW_EUSAGE);
    CHECK_INT(cap_parse_hostport("h:12x", h, sizeof(h), &port, &e), COW_EUSAGE);
    CHECK(strstr(e.msg, "port") != NULL);
    CHECK_INT(cap_parse_hostport("[::1]6380", h, sizeof(h), &port, &e), COW_EUSAGE);
}

static void info_fields_should_match_whole_keys(void)
{
    const char *info = "# Persistence\r\nrdb_bgsave_in_progress:1\r\n"
                       "rdb_bgsave_in_progress_x:7\r\naof_rewrite_in_progress:0\r\n"
                       "role:master\r\ntotal_forks:12\r\n";
    char v[16];
    CHECK_INT(cap_info_ll(info, "rdb_bgsave_in_progress", -1), 1);
    CHECK_INT(cap_info_ll(info, "aof_rewrite_in_progress", -1), 0);
    CHECK_INT(cap_info_ll(info, "total_forks", -1), 12);
    CHECK_INT(cap_info_ll(info, "module_fork_in_progress", -1), -1); /* absent */
    CHECK_INT(cap_info_ll(info, "rdb_bgsave", -1), -1);              /* a prefix */
    CHECK(cap_info_field(info, "role", v, sizeof(v)));
    CHECK_STR(v, "master");                                           /* no \r */
    CHECK(cap_info_field(info, "role", v, 4));
    CHECK_STR(v, "mas");                                              /* cut */
}

/* Redis 7 and Valkey 8 parameters that hold a secret, and ones that do not. */
static void secrets_should_be_redacted_by_rule(void)
{
    static const char *const secret[] = {
        "requirepass", "masterauth", "primaryauth", "tls-key-file-pass",
        "tls-client-key-file-pass", "sentinel-pass", "aclfile", "acl-pubsub-default",
        "tls-key-file", "tls-client-key-file", "MASTERAUTH", "cluster-announce-auth",
        "some-future-secret", NULL};
    static const char *const plain[] = {
        "maxmemory", "save", "appendfsync", "repl-diskless-sync", "masteruser",
        "primaryuser", "tls-port", "tls-cert-file", "logfile", "dir", "hz",
        "latency-monitor-threshold", NULL};
    size_t i;
    redisReply *rep = calloc(1, sizeof(*rep)), *el[4];
    for (i = 0; secret[i]; i++) {
        if (!cap_is_secret_param(secret[i]))
            fprintf(stderr, "  not redacted: %s\n", secret[i]);
        CHECK(cap_is_secret_param(secret[i]));
    }
    for (i = 0; plain[i]; i++) {
        if (cap_is_secret_param(plain[i]))
            fprintf(stderr, "  redacted: %s\n", plain[i]);
        CHECK(!cap_is_secret_param(plain[i]));
    }
    /* a CONFIG GET reply: primaryauth blanked, maxmemory kept */
    for (i = 0; i < 4; i++) {
        el[i] = calloc(1, sizeof(*el[i]));
        el[i]->type = REDIS_REPLY_STRING;
    }
    el[0]->str = strdup("primaryauth");
    el[1]->str = strdup("hunter2");
    el[2]->str = strdup("maxmemory");
    el[3]->str = strdup("100");
    for (i = 0; i < 4; i++)
        el[i]->len = strlen(el[i]->str);
    rep->type = REDIS_REPLY_ARRAY;
    rep->elements = 4;
    rep->element = calloc(4, sizeof(redisReply *));
    memcpy(rep->element, el, sizeof(el));
    cap_redact_config(rep);
    CHECK(strstr(el[1]->str, "hunter2") == NULL);
    CHECK(strstr(el[1]->str, "redacted") != NULL);
    CHECK_STR(el[3]->str, "100");
    freeReplyObject(rep);
}

/* A reply's lines that are not INFO's own shape are escaped: none can be a
 * "# ts=" poll line, an epoch, ISO 8601 or a header-less stamp. */
static void info_reply_should_not_forge_a_poll(void)
{
    const char reply[] = "# Server\r\nredis_version:7.0.15\r\n# ts=1796268000123\r\n"
                         "  # ts=1796268000123\r\n1796268000123\r\n"
                         "ts=2026-12-03T03:19:19Z\r\n2026-12-03T03:19:19Z\r\n"
                         "Sun Dec  6 19:29:39 UTC 2026\r\n\r\n# Persistence\r\n"
                         "cmdstat_client|list:calls=1\r\nrdb_bgsave_in_progress:0";
    char *buf = NULL, *line, *save = NULL;
    size_t len = 0, esc;
    int plain = 0, escaped = 0;
    FILE *fp = open_memstream(&buf, &len);
    esc = cap_put_reply_lines(fp, reply, sizeof(reply) - 1);
    fclose(fp);
    CHECK_INT((long)esc, 6);
    CHECK(strstr(buf, "rdb_bgsave_in_progress:0\n") != NULL); /* the last line ends */
    for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (strncmp(line, CAP_ESCAPED_KEY ":", sizeof(CAP_ESCAPED_KEY)) == 0)
            escaped++;
        else
            plain++;
        CHECK(strncmp(line, "# ts", 4) != 0);
        CHECK(line[0] != '1' && line[0] != '2' && line[0] != ' ');
    }
    CHECK_INT(escaped, 6);
    CHECK_INT(plain, 6);
    free(buf);
}

static cap_ctx *test_ctx(const char *dir, cap_opts *o)
{
    cap_ctx *c = calloc(1, sizeof(*c));
    memset(o, 0, sizeof(*o));
    c->o = o;
    snprintf(c->dir, sizeof(c->dir), "%s", dir);
    pthread_mutex_init(&c->mu, NULL);
    return c;
}

/* A signal is the reason a capture stopped, even when a thread whose read
 * it cut short stops it first (e2e_capture_safety_signal under load:
 * "INFO connection lost: interrupted" in run.json). */
static void stop_should_name_the_signal_whoever_stops_first(void)
{
    cap_opts o;
    cap_ctx *c = test_ctx("/nonexistent", &o);
    c->mono0_ns = cap_mono_ns();
    cap_signal = SIGTERM;
    cap_stop(c, "INFO connection lost: %s", "interrupted");
    cap_signal = 0;
    CHECK(strncmp(c->why, "interrupted by SIGTERM after ", 29) == 0);
    cap_stop(c, "later: %s", "ignored");
    CHECK(strncmp(c->why, "interrupted by SIGTERM", 22) == 0);
    CHECK(atomic_load(&c->stop) == 1);
    free(c);
}

/* The server's log copied only when it is a regular file: a FIFO (no
 * writer: a plain open would block) and /dev/zero (never ends) are skipped
 * at once and listed; a regular file is copied from the offset. */
static void log_should_be_copied_only_from_a_regular_file(void)
{
    char dir[] = "/tmp/cowtail_capXXXXXX", *fifo, *reg, *copied;
    cap_opts o;
    cap_ctx *c;
    struct timespec t0, t1;
    FILE *fp;
    struct stat sb;

    CHECK(mkdtemp(dir) != NULL);
    c = test_ctx(dir, &o);
    fifo = malloc(strlen(dir) + 16);
    reg = malloc(strlen(dir) + 16);
    copied = malloc(strlen(dir) + 16);
    sprintf(fifo, "%s/fifo", dir);
    sprintf(reg, "%s/log", dir);
    sprintf(copied, "%s/out.log", dir);
    CHECK_INT(mkfifo(fifo, 0600), 0);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    CHECK_INT(cap_copy_tail(c, fifo, 0, "out.log"), -1);
    CHECK_INT(cap_copy_tail(c, "/dev/zero", 0, "out.log"), -1);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    CHECK(t1.tv_sec - t0.tv_sec < 2);
    CHECK(stat(copied, &sb) != 0); /* nothing written */
    CHECK_INT((long)c->nmiss, 2);
    CHECK(strstr(c->miss[0].why, "not a regular file") != NULL);
    fp = fopen(reg, "w");
    fputs("old\nnew line\n", fp);
    fclose(fp);
    CHECK_INT(cap_copy_tail(c, reg, 4, "out.log"), 9);
    CHECK(stat(copied, &sb) == 0 && sb.st_size == 9);
    unlink(fifo);
    unlink(reg);
    unlink(copied);
    rmdir(dir);
    free(fifo);
    free(reg);
    free(copied);
    free(c->miss);
    free(c);
}

/* A wall clock that steps forward 0.5 ms while a reply is on its way (as
 * some virtual machines' do ten times a second): the stamp, taken before
 * or after the step, never reads earlier than the reply came. */
static void stamp_should_not_read_early_across_a_wall_clock_step(void)
{
    const int64_t off = INT64_C(1700000000) * 1000000000, step = 500000;
    const int64_t arrive = 10000000000; /* mono ns the reply came */
    const int64_t now = arrive + 15000000;
    int64_t rt;

    /* no step: the stamp is the arrival */
    CHECK_INT(cap_stamp_mono(arrive + off, off, off, now), arrive);
    /* stamped before the step, read after it: the offset before is right */
    CHECK_INT(cap_stamp_mono(arrive + off, off, off + step, now), arrive);
    /* stamped after the step: late by at most the step, never early */
    rt = cap_stamp_mono(arrive + off + step, off, off + step, now);
    CHECK(rt >= arrive && rt <= arrive + step);
    /* a step backwards, either side */
    rt = cap_stamp_mono(arrive + off, off, off - step, now);
    CHECK(rt >= arrive && rt <= arrive + step);
    CHECK_INT(cap_stamp_mono(arrive + off - step, off, off - step, now), arrive);
    /* no offset before (the first read): the one read now */
    CHECK_INT(cap_stamp_mono(arrive + off, 0, off, now), arrive);
    /* never later than the read */
    CHECK_INT(cap_stamp_mono(now + off, off, off + step, now - step), now - step);
    /* the offset read now is the clocks' own, within a millisecond */
    {
        struct timespec a;
        int64_t o = cap_wall_offset(), m = cap_mono_ns();
        clock_gettime(CLOCK_REALTIME, &a);
        rt = (int64_t)a.tv_sec * 1000000000 + a.tv_nsec - m;
        CHECK(llabs((long long)(rt - o)) < 1000000);
    }
}

static void slot_should_never_be_a_period_behind_the_send(void)
{
    const int64_t per = 2000000, at = 5000000000;
    /* on time or late by less than a period: its own slot */
    CHECK_INT(cap_slot_at(at, at - 7, per), at);
    CHECK_INT(cap_slot_at(at, at, per), at);
    CHECK_INT(cap_slot_at(at, at + per - 1, per), at);
    /* preempted past its slot before the send stamp: the latest slot not
     * after the stamp, the ones between are gaps */
    CHECK_INT(cap_slot_at(at, at + per, per), at + per);
    CHECK_INT(cap_slot_at(at, at + 5 * per / 2, per), at + 2 * per);
    for (int64_t late = 0; late < 20 * per; late += per / 3)
        CHECK(at + late - cap_slot_at(at, at + late, per) < per);
}

int main(void)
{
    RUN(hostport_should_take_names_v4_and_v6);
    RUN(stop_should_name_the_signal_whoever_stops_first);
    RUN(info_fields_should_match_whole_keys);
    RUN(secrets_should_be_redacted_by_rule);
    RUN(info_reply_should_not_forge_a_poll);
    RUN(log_should_be_copied_only_from_a_regular_file);
    RUN(stamp_should_not_read_early_across_a_wall_clock_step);
    RUN(slot_should_never_be_a_period_behind_the_send);
    return REPORT();
}
