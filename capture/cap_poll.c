/* cap_poll.c -- what is polled besides the probe: INFO, the server's /proc
 * files, and the host's files before and after.
 *
 * Requirements:
 *  1. info.txt: per poll a line "# ts=<epoch us>" (the instant INFO was
 *     sent) and the reply as the server wrote it; every info_every, every
 *     info_fast while a fork child exists (rdb_bgsave_in_progress,
 *     aof_rewrite_in_progress, module_fork_in_progress, or a child in
 *     /proc).
 *  2. Local servers: every second, every 200 ms while a child exists, the
 *     server's smaps_rollup and status (series files with "# ts=" lines,
 *     smaps_rollup.txt and status.txt), each fork child's
 *     (smaps_rollup-child-<pid>.txt, status-child-<pid>.txt), memory.csv (VmRSS) and memory-pss.csv (Pss of the
 *     server plus its child: it grows by the pages copied on write; a
 *     snapshot during which the child appeared or left is taken again).
 *  3. What cannot be read is listed (cap_missing) once, with the reason. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cap_int.h"
#include "mem.h"

/* Whether an INFO reply's line is one the server writes: empty, a section
 * header "# Name", or "key:value" with a key of INFO's characters that
 * starts with a letter. Anything else (a "# ts=" line, an epoch, ISO 8601,
 * `date -u` output) could pass for the capture's own framing. */
static bool info_line_plain(const char *p, size_t n)
{
    size_t i;
    if (n > 0 && p[n - 1] == '\r')
        n--;
    if (n == 0)
        return true;
    if (n >= 3 && p[0] == '#' && p[1] == ' ' && isalpha((unsigned char)p[2])) {
        for (i = 3; i < n; i++)
            if (!isalnum((unsigned char)p[i]) && p[i] != '_')
                return false;
        return true;
    }
    if (!isalpha((unsigned char)p[0]))
        return false;
    for (i = 1; i < n && p[i] != ':'; i++)
        if (!isalnum((unsigned char)p[i]) && p[i] != '_' && p[i] != '|' &&
            p[i] != '-' && p[i] != '.')
            return false;
    return i < n && (i + 1 == n || (p[i + 1] != ' ' && p[i + 1] != '\t'));
}

size_t cap_put_reply_lines(FILE *fp, const char *s, size_t len)
{
    size_t at = 0, escaped = 0;
    while (at < len) {
        const char *p = s + at, *nl = memchr(p, '\n', len - at);
        size_t n = nl ? (size_t)(nl - p) : len - at;
        if (!info_line_plain(p, n)) {
            /* the framing is the capture's: such a line becomes a field the
             * ingest keeps as text, never a stamp or a header */
            fputs(CAP_ESCAPED_KEY ":", fp);
            while (n > 0 && (*p == ' ' || *p == '\t')) {
                p++;
                n--;
            }
            escaped++;
        }
        fwrite(p, 1, n, fp);
        fputc('\n', fp);
        at += (nl ? (size_t)(nl - (s + at)) + 1 : len - at);
    }
    return escaped;
}

/* One INFO poll into its series file (requirement 1): the "# ts=" line,
 * then the reply line by line, ending in a newline; a line of the reply
 * that is not INFO's own shape is escaped (cap_put_reply_lines). */
static int put_info(cap_ctx *c, FILE *fp, const char *name, int64_t ts_us,
                    const redisReply *rep)
{
    fprintf(fp, "# ts=%lld\n", (long long)ts_us);
    cap_put_reply_lines(fp, rep->str, rep->len);
    if (fflush(fp) != 0 || ferror(fp)) {
        cap_write_failed(c, name, errno);
        return -1;
    }
    return 0;
}

void *cap_info_main(void *arg)
{
    cap_ctx *c = arg;
    const cap_opts *o = c->o;
    cow_err e = COW_ERR_INIT;
    redisContext *r = cap_connect(o, o->host, o->port, o->socket, 10000, &e);
    FILE *fp;
    int64_t next = cap_mono_ns();
    long timeouts = 0;

    if (r == NULL) {
        cap_stop(c, "INFO: %s", e.msg);
        return NULL;
    }
    if ((fp = cap_create(c, "info.txt", &e)) == NULL) {
        cap_stop(c, "INFO: %s", e.msg);
        redisFree(r);
        return NULL;
    }
    for (;;) {
        int64_t t = cap_mono_ns();
        redisReply *rep = cap_cmd_within(r, CAP_CMD_TMO_MS, &c->stop, "INFO %s",
                                         o->info_sections);
        int child;
        if (rep == NULL && atomic_load(&c->stop))
            break;
        if (rep == NULL && cap_timed_out(r)) {
            /* no reply in 10 s: a stalled server, not a dead one (the probe
             * shows the stall); a new connection, and the poll is missed */
            cow_err e2 = COW_ERR_INIT;
            redisFree(r);
            timeouts++;
            if ((r = cap_connect(o, o->host, o->port, o->socket, 10000, &e2)) == NULL) {
                cap_stop(c, "INFO: after a poll timed out: %s", e2.msg);
                break;
            }
            continue;
        }
        if (rep == NULL) {
            cap_stop(c, "INFO connection lost: %s", r->errstr[0] ? r->errstr : "no reply");
            break;
        }
        if (rep->type != REDIS_REPLY_STRING) {
            cap_stop(c, "INFO %s refused: %s", o->info_sections,
                     rep->type == REDIS_REPLY_ERROR ? rep->str : "not a text reply");
            freeReplyObject(rep);
            break;
        }
        if (put_info(c, fp, "info.txt", cap_wall_us(c, t), rep) != 0) {
            freeReplyObject(rep);
            break;
        }
        pthread_mutex_lock(&c->mu);
        c->st.polls++;
        c->st.poll_us = cap_wall_us(c, t);
        c->st.bgsave = (int)cap_info_ll(rep->str, "rdb_bgsave_in_progress", 0);
        c->st.aofrw = (int)cap_info_ll(rep->str, "aof_rewrite_in_progress", 0);
        c->st.aofsched = (int)cap_info_ll(rep->str, "aof_rewrite_scheduled", 0);
        c->st.modfork = (int)cap_info_ll(rep->str, "module_fork_in_progress", 0);
        c->st.forks = cap_info_ll(rep->str, "total_forks", c->st.forks);
        child = c->st.bgsave || c->st.aofrw || c->st.modfork;
        pthread_mutex_unlock(&c->mu);
        freeReplyObject(rep);
        c->info_polls++;
        if (child)
            atomic_store(&c->child, 1);
        else if (!c->local)
            atomic_store(&c->child, 0);
        next += (atomic_load(&c->child) ? o->info_fast_us : o->info_every_us) * 1000;
        if (next < cap_mono_ns())
            next = cap_mono_ns();
        if (cap_sleep_until(c, next))
            break;
    }
    if (timeouts)
        cap_missing(c, "INFO polls", "%ld polls had no reply within 10 s (the server "
                    "stalled): info.txt has a gap there", timeouts);
    if (!c->write_failed && (fflush(fp) != 0 || ferror(fp)))
        cap_write_failed(c, "info.txt", errno);
    fclose(fp);
    if (r)
        redisFree(r);
    return NULL;
}

/* Read a whole small file into a malloc'd string; NULL with errno. */
char *cap_slurp(const char *path, size_t *n)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    size_t cap = 8192, len = 0;
    char *b;
    if (fd < 0)
        return NULL;
    b = xmalloc(cap);
    for (;;) {
        ssize_t k;
        if (len + 1 >= cap)
            b = xrealloc(b, cap *= 2);
        k = read(fd, b + len, cap - len - 1);
        if (k < 0) {
            int er = errno;
            if (er == EINTR)
                continue;
            free(b);
            close(fd);
            errno = er;
            return NULL;
        }
        if (k == 0)
            break;
        len += (size_t)k;
    }
    close(fd);
    b[len] = '\0';
    if (n)
        *n = len;
    return b;
}

long cap_child_of(long pid)
{
    char path[96], *b;
    long ch = 0;
    snprintf(path, sizeof(path), "/proc/%ld/task/%ld/children", pid, pid);
    if ((b = cap_slurp(path, NULL)) != NULL) {
        ch = strtol(b, NULL, 10);
        free(b);
    }
    return ch;
}

long long cap_proc_field(const char *text, const char *key)
{
    size_t n = strlen(key);
    const char *p = text;
    while (p && *p) {
        if (strncmp(p, key, n) == 0 && p[n] == ':')
            return strtoll(p + n + 1, NULL, 10);
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    return -1;
}

typedef struct series {
    char name[64];
    FILE *fp;
    int failed;      /* the missing entry was made */
} series;

/* Append "# ts=" and the file at path to the series s. */
static char *snap(cap_ctx *c, series *s, const char *path, int64_t ts)
{
    cow_err e = COW_ERR_INIT;
    char *b;
    size_t n;
    if ((b = cap_slurp(path, &n)) == NULL) {
        if (!s->failed && errno != ENOENT && errno != ESRCH)
            cap_missing(c, path, "%s", strerror(errno));
        s->failed |= errno != ENOENT && errno != ESRCH;
        return NULL;
    }
    if (s->fp == NULL && !s->failed && (s->fp = cap_create(c, s->name, &e)) == NULL) {
        cap_missing(c, s->name, "%s", e.msg);
        s->failed = 1;
    }
    if (s->fp) {
        fprintf(s->fp, "# ts=%lld\n", (long long)ts);
        fwrite(b, 1, n, s->fp);
        fflush(s->fp);
    }
    return b;
}

static void close_series(cap_ctx *c, series *s)
{
    if (s->fp && (fflush(s->fp) != 0 || ferror(s->fp)))
        cap_write_failed(c, s->name, errno);
    if (s->fp)
        fclose(s->fp);
}

void *cap_proc_main(void *arg)
{
    cap_ctx *c = arg;
    series sm = {"smaps_rollup.txt", NULL, 0}, st = {"status.txt", NULL, 0},
           csm = {"", NULL, 0}, cst = {"", NULL, 0};
    long cur_child = 0;
    cow_err e = COW_ERR_INIT;
    FILE *rss = cap_create(c, "memory.csv", &e), *pss = NULL;
    int64_t next = cap_mono_ns(), last;
    char path[128];

    if (rss == NULL || (pss = cap_create(c, "memory-pss.csv", &e)) == NULL) {
        cap_missing(c, "memory.csv", "%s", e.msg);
        if (rss)
            fclose(rss);
        return NULL;
    }
    fprintf(rss, "timestamp_us,rss_bytes\n");
    fprintf(pss, "timestamp_us,pss_bytes\n");
    for (;;) {
        int64_t ts = cap_now_us(c);
        char *a, *b, *ca = NULL;
        long ch, ch2;
        int tries;

        for (tries = 0; tries < 3; tries++) {
            ch = cap_child_of(c->pid);
            snprintf(path, sizeof(path), "/proc/%ld/smaps_rollup", c->pid);
            a = snap(c, &sm, path, ts);
            if (ch > 0 && ch != cur_child) {
                /* a new child: series files of its own */
                close_series(c, &csm);
                close_series(c, &cst);
                memset(&csm, 0, sizeof(csm));
                memset(&cst, 0, sizeof(cst));
                snprintf(csm.name, sizeof(csm.name), "smaps_rollup-child-%ld.txt", ch);
                snprintf(cst.name, sizeof(cst.name), "status-child-%ld.txt", ch);
                cur_child = ch;
            }
            if (ch > 0) {
                snprintf(path, sizeof(path), "/proc/%ld/smaps_rollup", ch);
                ca = snap(c, &csm, path, ts);
                snprintf(path, sizeof(path), "/proc/%ld/status", ch);
                free(snap(c, &cst, path, ts));
            }
            ch2 = cap_child_of(c->pid);
            if (ch2 == ch || tries == 2)
                break;
            free(a);
            free(ca);
            ca = NULL;
        }
        snprintf(path, sizeof(path), "/proc/%ld/status", c->pid);
        b = snap(c, &st, path, ts);
        if (a == NULL && b == NULL && kill((pid_t)c->pid, 0) != 0 && errno == ESRCH) {
            cap_stop(c, "the server process %ld is gone", c->pid);
            break;
        }
        if (b && cap_proc_field(b, "VmRSS") >= 0)
            fprintf(rss, "%lld,%lld\n", (long long)ts, cap_proc_field(b, "VmRSS") * 1024);
        if (a && cap_proc_field(a, "Pss") >= 0 && (ch == 0 || ca) && ch2 == ch)
            fprintf(pss, "%lld,%lld\n", (long long)ts,
                    (cap_proc_field(a, "Pss") + (ca ? cap_proc_field(ca, "Pss") : 0)) * 1024);
        fflush(rss);
        fflush(pss);
        free(a);
        free(b);
        free(ca);
        c->proc_polls++;
        if (ch > 0)
            atomic_store(&c->child, 1);
        else {
            int info_child;
            pthread_mutex_lock(&c->mu);
            info_child = c->st.bgsave || c->st.aofrw || c->st.modfork;
            pthread_mutex_unlock(&c->mu);
            atomic_store(&c->child, info_child);
        }
        /* the next snapshot in 1 s, or 200 ms once a child exists: look
         * for one every 50 ms (a save can be shorter than a second) */
        last = cap_mono_ns();
        for (;;) {
            int64_t now;
            next += 50000000;
            if (cap_sleep_until(c, next))
                goto out;
            now = cap_mono_ns();
            if (next < now)
                next = now;
            if (now - last >= 1000000000 ||
                ((atomic_load(&c->child) || cap_child_of(c->pid) > 0) &&
                 now - last >= 200000000))
                break;
        }
    }
out:
    close_series(c, &sm);
    close_series(c, &st);
    close_series(c, &csm);
    close_series(c, &cst);
    if (fflush(rss) || fflush(pss) || ferror(rss) || ferror(pss))
        cap_write_failed(c, "memory.csv", errno);
    fclose(rss);
    fclose(pss);
    return NULL;
}

/* Copy a one-line (or small) file into the folder, with a stamp line when
 * ts is not 0. */
static void host_file(cap_ctx *c, const char *src, const char *name, int64_t ts)
{
    cow_err e = COW_ERR_INIT;
    FILE *fp;
    char *b;
    size_t n;
    if ((b = cap_slurp(src, &n)) == NULL) {
        cap_missing(c, src, "%s", strerror(errno));
        return;
    }
    if ((fp = cap_create(c, name, &e)) == NULL) {
        cap_missing(c, name, "%s", e.msg);
        free(b);
        return;
    }
    if (ts)
        fprintf(fp, "# ts=%lld\n", (long long)ts);
    fwrite(b, 1, n, fp);
    if (fclose(fp) != 0)
        cap_missing(c, name, "write error");
    free(b);
}

void cap_host_facts(cap_ctx *c, const char *tag)
{
    static const char *const sysctls[] = {
        "vm.overcommit_memory", "vm.overcommit_ratio", "vm.swappiness",
        "vm.max_map_count", "vm.min_free_kbytes", "vm.zone_reclaim_mode",
        "vm.dirty_ratio", "vm.dirty_background_ratio", "kernel.numa_balancing",
        "net.core.somaxconn", NULL};
    int64_t ts = cap_now_us(c);
    char name[64];
    size_t i;

    if (strcmp(tag, "before") == 0) {
        cow_err e = COW_ERR_INIT;
        FILE *fp;
        host_file(c, "/sys/kernel/mm/transparent_hugepage/enabled", "thp-enabled.txt", 0);
        host_file(c, "/sys/kernel/mm/transparent_hugepage/defrag", "thp-defrag.txt", 0);
        if ((fp = cap_create(c, "sysctl.txt", &e)) == NULL) {
            cap_missing(c, "sysctl.txt", "%s", e.msg);
        } else {
            for (i = 0; sysctls[i]; i++) {
                char path[128], *b, *p;
                snprintf(path, sizeof(path), "/proc/sys/%s", sysctls[i]);
                for (p = path + 10; *p; p++)
                    if (*p == '.')
                        *p = '/';
                if ((b = cap_slurp(path, NULL)) == NULL) {
                    if (errno != ENOENT)
                        cap_missing(c, path, "%s", strerror(errno));
                    continue;
                }
                b[strcspn(b, "\n")] = '\0';
                fprintf(fp, "%s = %s\n", sysctls[i], b);
                free(b);
            }
            fclose(fp);
        }
    }
    snprintf(name, sizeof(name), "meminfo-%s.txt", tag);
    host_file(c, "/proc/meminfo", name, ts);
    snprintf(name, sizeof(name), "vmstat-%s.txt", tag);
    host_file(c, "/proc/vmstat", name, ts);
    snprintf(name, sizeof(name), "loadavg-%s.txt", tag);
    host_file(c, "/proc/loadavg", name, ts);
}

int cap_open_regular(cap_ctx *c, const char *path, struct stat *sb)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        cap_missing(c, path, "%s%s", strerror(errno),
                    errno == ELOOP ? " (a symbolic link: cowtail reads the server's "
                    "log only as a regular file; copy it into the capture folder "
                    "yourself)" : "");
        return -1;
    }
    if (fstat(fd, sb) != 0 || !S_ISREG(sb->st_mode)) {
        cap_missing(c, path, "not a regular file (a FIFO, a device or a socket): "
                    "cowtail does not read it, as it could block or never end; point "
                    "the server's logfile at a file, or copy the log yourself");
        close(fd);
        return -1;
    }
    return fd;
}

long long cap_copy_tail(cap_ctx *c, const char *src, long long offset, const char *name)
{
    cow_err e = COW_ERR_INIT;
    struct stat sb;
    int fd = cap_open_regular(c, src, &sb);
    FILE *out = NULL;
    char buf[65536];
    ssize_t k;
    long long total = 0;
    int64_t deadline = cap_mono_ns() + (int64_t)CAP_LOG_COPY_S * 1000000000LL;

    if (fd < 0)
        return -1;
    /* a log rotated or truncated since the start is copied whole */
    if (sb.st_size >= offset)
        lseek(fd, (off_t)offset, SEEK_SET);
    while ((k = read(fd, buf, sizeof(buf))) > 0) {
        if (out == NULL && (out = cap_create(c, name, &e)) == NULL) {
            cap_missing(c, name, "%s", e.msg);
            close(fd);
            return -1;
        }
        if (fwrite(buf, 1, (size_t)k, out) != (size_t)k) {
            cap_write_failed(c, name, errno);
            break;
        }
        total += (long long)k;
        if (total >= CAP_LOG_MAX_BYTES || cap_mono_ns() > deadline) {
            cap_missing(c, name, "cut after %lld bytes (%s): the server's log %s grew "
                        "faster than it could be copied, or is larger than cowtail "
                        "copies; the rest is in %s", total,
                        total >= CAP_LOG_MAX_BYTES ? "the byte cap" : "the deadline",
                        src, src);
            break;
        }
    }
    close(fd); /* nothing logged during the capture: no empty file */
    if (out && fclose(out) != 0) {
        cap_write_failed(c, name, errno);
        return -1;
    }
    return total;
}

/* replicaof: the replica's INFO series (replica-info.txt, which ingest
 * gives to the replica by its name), at the primary's pace. A replica that
 * cannot be polled is listed as unreadable; the capture goes on. */
void *cap_replica_info_main(void *arg)
{
    cap_ctx *c = arg;
    const cap_opts *o = c->o;
    cow_err e = COW_ERR_INIT;
    redisContext *r = cap_connect(o, o->replica_host, o->replica_port, NULL, 10000, &e);
    FILE *fp;
    int64_t next = cap_mono_ns();
    char what[300];

    snprintf(what, sizeof(what), "INFO of the replica %s:%d", o->replica_host,
             o->replica_port);
    if (r == NULL) {
        cap_missing(c, what, "%s", e.msg);
        return NULL;
    }
    if ((fp = cap_create(c, "replica-info.txt", &e)) == NULL) {
        cap_missing(c, what, "%s", e.msg);
        redisFree(r);
        return NULL;
    }
    for (;;) {
        int64_t t = cap_mono_ns();
        redisReply *rep = cap_cmd_within(r, CAP_CMD_TMO_MS, &c->stop, "INFO %s",
                                         o->info_sections);
        if (rep == NULL && atomic_load(&c->stop))
            break;
        if (rep == NULL || rep->type != REDIS_REPLY_STRING) {
            cap_missing(c, what, "stopped: %s", rep == NULL ? r->errstr
                        : rep->type == REDIS_REPLY_ERROR ? rep->str : "not a text reply");
            if (rep)
                freeReplyObject(rep);
            break;
        }
        if (put_info(c, fp, "replica-info.txt", cap_wall_us(c, t), rep) != 0) {
            freeReplyObject(rep);
            break;
        }
        freeReplyObject(rep);
        next += (atomic_load(&c->child) ? o->info_fast_us : o->info_every_us) * 1000;
        if (next < cap_mono_ns())
            next = cap_mono_ns();
        if (cap_sleep_until(c, next))
            break;
    }
    if (!c->write_failed && (fflush(fp) != 0 || ferror(fp)))
        cap_write_failed(c, "replica-info.txt", errno);
    fclose(fp);
    redisFree(r);
    return NULL;
}
