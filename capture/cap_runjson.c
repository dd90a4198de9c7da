/* cap_runjson.c -- the capture folder's run.json (cap_int.h): what was
 * captured, how, and what could not be read (requirement 5 of cap_run.c). */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cap_int.h"
#include "outfile.h"

const char *cap_trig_name(int t)
{
    switch (t) {
    case CAP_TRIG_BGSAVE: return "bgsave";
    case CAP_TRIG_BGREWRITEAOF: return "bgrewriteaof";
    case CAP_TRIG_REPLICAOF: return "replicaof";
    default: return "none";
    }
}

static void iso(int64_t us, char *buf, size_t cap)
{
    time_t s = (time_t)(us / 1000000);
    struct tm tm;
    gmtime_r(&s, &tm);
    snprintf(buf, cap, "%04d-%02d-%02dT%02d:%02d:%02d.%06lldZ", tm.tm_year + 1900,
             tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
             (long long)(us % 1000000));
}

/* A number rounded to 0.1 (figures in us and %), or null. */
static cJSON *num_or_null(double v)
{
    char buf[64];
    if (!isfinite(v))
        return cJSON_CreateNull();
    snprintf(buf, sizeof(buf), "%.1f", v);
    return cJSON_CreateRaw(buf);
}

/* An integer written whole (cJSON would print an epoch in us as 1.79e+15). */
static void add_int(cJSON *o, const char *key, long long v)
{
    char buf[32];
    snprintf(buf, sizeof(buf), "%lld", v);
    cJSON_AddRawToObject(o, key, buf);
}


/* The reserved run.json (cap_reserve_runjson) overwritten in place, so that
 * a full file system still gets the account; 0, or -1 when there is none. */
static int put_runjson(cap_ctx *c, const char *text)
{
    char *path = outfile_join(c->dir, "run.json");
    int fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
    size_t n = strlen(text), at = 0;
    int rc = 0;
    free(path);
    if (fd < 0)
        return -1;
    while (at < n) {
        ssize_t k = write(fd, text + at, n - at);
        if (k <= 0) {
            rc = -1;
            break;
        }
        at += (size_t)k;
    }
    if (rc == 0 && (write(fd, "\n", 1) != 1 || ftruncate(fd, (off_t)n + 1) != 0))
        rc = -1;
    if (close(fd) != 0)
        rc = -1;
    return rc;
}

void cap_reserve_runjson(cap_ctx *c)
{
    static const char head[] = "{\"complete\": false, \"lost\": \"the capture did not "
                               "finish: cowtail ended before it wrote this file\"}\n";
    cow_err e = COW_ERR_INIT;
    FILE *fp = cap_create(c, "run.json", &e);
    size_t i;
    if (fp == NULL) {
        cap_missing(c, "run.json", "%s", e.msg);
        return;
    }
    fputs(head, fp);
    for (i = sizeof(head) - 1; i < CAP_RUNJSON_RESERVE; i++)
        fputc(i % 80 == 79 ? '\n' : ' ', fp);
    if (fclose(fp) != 0)
        cap_write_failed(c, "run.json", errno);
}


void cap_write_runjson(cap_ctx *c, const srv_info *si, const trig_state *tg,
                          cap_result *res, double total_cpu_s, int64_t end_us)
{
    const cap_opts *o = c->o;
    cJSON *j = cJSON_CreateObject(), *cap, *p, *x, *a;
    char buf[128], addr[600];
    cow_err e = COW_ERR_INIT;
    FILE *fp;
    char *text;
    size_t i;

    if (o->label)
        cJSON_AddStringToObject(j, "label", o->label);
    cJSON_AddStringToObject(j, "scenario", o->scenario ? o->scenario : cap_trig_name(o->trigger));
    cJSON_AddStringToObject(j, "mode", "fork");
    cJSON_AddStringToObject(j, "host", si->host);
    if (c->host_local)
        cJSON_AddStringToObject(j, "log_tz", si->tz);
    cJSON_AddNullToObject(j, "t0");
    /* the probe is open loop: what a client felt runs from the intended send */
    cJSON_AddStringToObject(j, "latency_from", "intended");
    snprintf(buf, sizeof(buf), "%s %s", si->name, si->version);
    cJSON_AddStringToObject(j, "server", buf);
    add_int(j, "start_epoch_us", (long long)c->wall0_us);
    iso(c->wall0_us, buf, sizeof(buf));
    cJSON_AddStringToObject(j, "start_utc", buf);
    if (c->why[0])
        cJSON_AddStringToObject(j, "interrupted", c->why);
    else
        cJSON_AddNullToObject(j, "interrupted");
    /* a failed write (a full disk): what landed is kept, what was lost said */
    cJSON_AddBoolToObject(j, "complete", !c->write_failed);
    if (c->write_failed) {
        char lost[700];
        snprintf(lost, sizeof(lost), "everything after the failed write to %s: that file "
                 "ends there and the capture stopped", c->write_why);
        cJSON_AddStringToObject(j, "lost", lost);
    } else {
        cJSON_AddNullToObject(j, "lost");
    }

    cap = cJSON_AddObjectToObject(j, "capture");
    cJSON_AddStringToObject(cap, "made_by", "cowtail capture");
    cJSON_AddStringToObject(cap, "cowtail_version", o->version ? o->version : "");
    cap_addr(o, addr, sizeof(addr));
    cJSON_AddStringToObject(cap, "address", addr);
    if (o->socket)
        cJSON_AddStringToObject(cap, "socket", o->socket);
    else {
        cJSON_AddStringToObject(cap, "server_host", o->host);
        cJSON_AddNumberToObject(cap, "port", o->port);
    }
    cJSON_AddStringToObject(cap, "role", si->role);
    add_int(cap, "server_pid", (long long)si->pid);
    cJSON_AddBoolToObject(cap, "local", c->host_local);
    cJSON_AddBoolToObject(cap, "proc_files", c->local);
    if (!c->local)
        cJSON_AddStringToObject(cap, "proc_files_why", c->proc_why);
    cJSON_AddBoolToObject(cap, "host_files", c->host_local);
    add_int(cap, "end_epoch_us", (long long)end_us);
    snprintf(buf, sizeof(buf), "%.6f", res->seconds);
    cJSON_AddRawToObject(cap, "seconds", buf);
    cJSON_AddItemToObject(cap, "cpu_pct_of_core", num_or_null(res->total_cpu_pct));
    (void)total_cpu_s;

    p = cJSON_AddObjectToObject(cap, "probe");
    cJSON_AddStringToObject(p, "command", o->probe_set ? "SET" : "PING");
    add_int(p, "interval_us", (long long)o->interval_us);
    cJSON_AddStringToObject(p, "schedule", "open loop: sample i is meant to go at "
                            "start + i x interval and goes then, pipelined on one "
                            "connection whatever the server answers; a slot that cannot "
                            "go within one interval is a gap (probe-gaps.csv), never "
                            "sent in a burst");
    cJSON_AddStringToObject(p, "clock", "one CLOCK_REALTIME reading at start plus "
                            "CLOCK_MONOTONIC deltas");
    /* the reply's time: when it reached the socket where the kernel says */
    cJSON_AddStringToObject(p, "reply_time", c->probe_stamped == (long long)res->samples &&
                            res->samples > 0 ? "kernel receive stamp (SO_TIMESTAMPNS)"
                            : c->probe_stamped > 0 ? "kernel receive stamp, else the read"
                            : "the read");
    add_int(p, "replies_kernel_stamped", c->probe_stamped);
    add_int(p, "samples", (long long)res->samples);
    add_int(p, "errors", (long long)c->errors);
    cJSON_AddNumberToObject(p, "late_over_1ms", (double)res->late);
    x = cJSON_AddObjectToObject(p, "send_lag_us");
    cJSON_AddItemToObject(x, "p50", num_or_null(res->lag_p50_us));
    cJSON_AddItemToObject(x, "p99", num_or_null(res->lag_p99_us));
    cJSON_AddItemToObject(x, "max", num_or_null(res->lag_max_us));
    x = cJSON_AddObjectToObject(p, "round_trip_us");
    cJSON_AddItemToObject(x, "min", num_or_null(res->rtt_min_us));
    cJSON_AddItemToObject(x, "p50", num_or_null(res->rtt_p50_us));
    cJSON_AddItemToObject(x, "p99", num_or_null(res->rtt_p99_us));
    cJSON_AddItemToObject(p, "cpu_pct_of_core", num_or_null(res->probe_cpu_pct));
    x = cJSON_AddObjectToObject(p, "health");
    add_int(x, "connections", res->probe_conns);
    add_int(x, "waiting_max", res->waiting_max);
    add_int(x, "waiting_cap", CAP_PROBE_MAX_WAITING);
    add_int(x, "unanswered_at_end", res->unanswered);
    a = cJSON_AddObjectToObject(x, "gaps");
    add_int(a, "late", res->gaps_late);
    add_int(a, "buffer", res->gaps_buffer);
    add_int(a, "cap", res->gaps_cap);
    add_int(x, "stalls", res->stalls);
    add_int(x, "stall_min_us", CAP_STALL_MIN_US);
    cJSON_AddItemToObject(x, "stall_max_ms", num_or_null(res->stall_max_ms));
    cJSON_AddItemToObject(x, "loadavg_1m_before", isfinite(res->load1_before)
                          ? cJSON_CreateNumber(res->load1_before) : cJSON_CreateNull());
    cJSON_AddItemToObject(x, "loadavg_1m_after", isfinite(res->load1_after)
                          ? cJSON_CreateNumber(res->load1_after) : cJSON_CreateNull());
    add_int(x, "cpus", res->cpus);
    cJSON_AddBoolToObject(x, "host_busy", res->host_busy);
    if (res->host_busy)
        cJSON_AddStringToObject(x, "host_busy_why", res->host_busy_why);

    x = cJSON_AddObjectToObject(cap, "info");
    cJSON_AddStringToObject(x, "sections", o->info_sections);
    add_int(x, "every_us", (long long)o->info_every_us);
    add_int(x, "every_us_with_child", (long long)o->info_fast_us);
    add_int(x, "polls", (long long)res->info_polls);
    x = cJSON_AddObjectToObject(cap, "proc");
    cJSON_AddNumberToObject(x, "every_us", 1000000);
    cJSON_AddNumberToObject(x, "every_us_with_child", 200000);
    add_int(x, "polls", (long long)res->proc_polls);

    if (c->logpath[0]) {
        x = cJSON_AddObjectToObject(cap, "server_log");
        cJSON_AddStringToObject(x, "path", c->logpath);
        add_int(x, "from_byte", (long long)c->log_off);
        add_int(x, "bytes", (long long)c->log_bytes);
        cJSON_AddStringToObject(x, "file", c->log_bytes > 0 ? "redis.log"
                                : c->log_bytes == 0 ? "none: nothing was logged during "
                                "the capture" : "none: see unreadable");
    }
    x = cJSON_AddObjectToObject(cap, "trigger");
    cJSON_AddStringToObject(x, "kind", cap_trig_name(o->trigger));
    if (o->trigger != CAP_TRIG_NONE) {
        add_int(x, "at_us", (long long)o->at_us);
        add_int(x, "after_us", (long long)o->after_us);
        if (o->trigger == CAP_TRIG_REPLICAOF) {
            snprintf(buf, sizeof(buf), "%s:%d", o->replica_host, o->replica_port);
            cJSON_AddStringToObject(x, "replica", buf);
            cJSON_AddStringToObject(x, "replica_role_before", !tg->rep_known ? "unknown"
                                    : tg->rep_master[0] ? tg->rep_master : "primary");
            if (tg->rep_after[0])
                cJSON_AddStringToObject(x, "replica_at_end", tg->rep_after);
            else
                cJSON_AddNullToObject(x, "replica_at_end");
        }
        if (tg->sent) {
            add_int(x, "sent_epoch_us", (long long)tg->sent_us);
            cJSON_AddStringToObject(x, "reply", tg->reply);
        } else {
            cJSON_AddNullToObject(x, "sent_epoch_us");
        }
        if (tg->done_us)
            add_int(x, "done_epoch_us", (long long)tg->done_us);
        else
            cJSON_AddNullToObject(x, "done_epoch_us");
    }
    if (o->load_rate > 0) {
        x = cJSON_AddObjectToObject(cap, "load");
        cJSON_AddNumberToObject(x, "rate_per_s", o->load_rate);
        cJSON_AddStringToObject(x, "command", o->load_get ? "GET" : "SET");
        cJSON_AddNumberToObject(x, "writers", o->writers);
        add_int(x, "keys_max", (long long)o->keys);
        add_int(x, "keys", (long long)c->npool);
        cJSON_AddStringToObject(x, "keys_from", "SCAN of the keys that existed at the "
                                "start (string keys); written with SET XX, so no key is "
                                "created");
        cJSON_AddNumberToObject(x, "value_size", o->value_size);
        snprintf(buf, sizeof(buf), "%llu", (unsigned long long)o->seed);
        cJSON_AddRawToObject(x, "seed", buf);
        add_int(x, "ops", (long long)res->load_ops);
    }
    a = cJSON_AddArrayToObject(cap, "unreadable");
    for (i = 0; i < c->nmiss; i++) {
        cJSON *m = cJSON_CreateObject();
        cJSON_AddStringToObject(m, "what", c->miss[i].what);
        cJSON_AddStringToObject(m, "why", c->miss[i].why);
        cJSON_AddItemToArray(a, m);
    }
    text = cJSON_Print(j);
    if (text && put_runjson(c, text) != 0 && (fp = cap_create(c, "run.json", &e)) != NULL) {
        fputs(text, fp);
        fputc('\n', fp);
        fclose(fp);
    }
    free(text);
    cJSON_Delete(j);
}
