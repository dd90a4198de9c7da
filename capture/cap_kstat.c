/* cap_kstat.c -- the kernel's own account of the server's main thread and
 * of each fork child, for a local server: kstat.csv.
 *
 * Requirements:
 *  1. One row per task per sample:
 *       timestamp_us,task,pid,minflt,majflt,utime_us,stime_us,run_delay_us,read_bytes,write_bytes
 *     task "main" is the server's main thread (/proc/PID/task/PID: its
 *     stat, schedstat and io), "child" a fork child (/proc/CHILD: stat,
 *     schedstat, io). Counters are as the kernel keeps them (since the
 *     task began); times in us (stat's clock ticks through
 *     sysconf(_SC_CLK_TCK), schedstat's run-queue wait from ns). A value
 *     the kernel does not give (no schedstat, io not readable) is empty.
 *  2. Every 50 ms while a fork child exists, every second otherwise; the
 *     first row at the start, so that the rates before a save are known.
 *  3. What cannot be read is listed once (cap_missing); a task that ended
 *     between two reads gives no row. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cap_int.h"
#include "mem.h"

typedef struct kst {
    long long minflt, majflt, utime_us, stime_us, delay_us, rbytes, wbytes;
    int has_delay, has_io;
} kst;

/* stat: fields after the command's closing ')' (which may hold spaces):
 * state is field 3, minflt 10, majflt 12, utime 14, stime 15. */
static int parse_stat(const char *b, long tck, kst *k)
{
    const char *p = strrchr(b, ')');
    long long v[13];
    int i;
    if (p == NULL)
        return -1;
    p++;
    while (*p == ' ')
        p++;
    if (*p == '\0')
        return -1;
    p++; /* state */
    for (i = 0; i < 13; i++) {
        char *end;
        v[i] = strtoll(p, &end, 10);
        if (end == p)
            return -1;
        p = end;
    }
    /* v[0] is field 4 (ppid): minflt 10 -> v[6], majflt 12 -> v[8],
     * utime 14 -> v[10], stime 15 -> v[11] */
    k->minflt = v[6];
    k->majflt = v[8];
    k->utime_us = v[10] * 1000000 / tck;
    k->stime_us = v[11] * 1000000 / tck;
    return 0;
}

/* The three files of a task under dir ("/proc/1/task/1", "/proc/9"); 0, or
 * -1 when its stat is gone or unreadable (listed once through *warned). */
static int read_task(cap_ctx *c, const char *dir, long tck, kst *k, int *warned)
{
    char *path = xasprintf("%s/stat", dir), *b;
    memset(k, 0, sizeof(*k));
    if ((b = cap_slurp(path, NULL)) == NULL) {
        if (!(*warned & 1) && errno != ENOENT && errno != ESRCH)
            cap_missing(c, path, "%s", strerror(errno));
        *warned |= errno != ENOENT && errno != ESRCH;
        free(path);
        return -1;
    }
    if (parse_stat(b, tck, k) != 0) {
        if (!(*warned & 1))
            cap_missing(c, path, "not the kernel's stat line");
        *warned |= 1;
        free(b);
        free(path);
        return -1;
    }
    free(b);
    free(path);
    path = xasprintf("%s/schedstat", dir);
    if ((b = cap_slurp(path, NULL)) != NULL) {
        long long on, wait;
        if (sscanf(b, "%lld %lld", &on, &wait) == 2) {
            k->delay_us = wait / 1000;
            k->has_delay = 1;
        }
        free(b);
    } else if (!(*warned & 2) && errno != ENOENT && errno != ESRCH) {
        cap_missing(c, path, "%s (no run-queue wait)", strerror(errno));
        *warned |= 2;
    }
    free(path);
    path = xasprintf("%s/io", dir);
    if ((b = cap_slurp(path, NULL)) != NULL) {
        k->rbytes = cap_proc_field(b, "read_bytes");
        k->wbytes = cap_proc_field(b, "write_bytes");
        k->has_io = k->rbytes >= 0 && k->wbytes >= 0;
        free(b);
    } else if (!(*warned & 4) && errno != ENOENT && errno != ESRCH) {
        cap_missing(c, path, "%s (no disk I/O of the task)", strerror(errno));
        *warned |= 4;
    }
    free(path);
    return 0;
}

static void put_row(FILE *fp, int64_t ts, const char *task, long pid, const kst *k)
{
    fprintf(fp, "%lld,%s,%ld,%lld,%lld,%lld,%lld,", (long long)ts, task, pid, k->minflt,
            k->majflt, k->utime_us, k->stime_us);
    if (k->has_delay)
        fprintf(fp, "%lld", k->delay_us);
    fputc(',', fp);
    if (k->has_io)
        fprintf(fp, "%lld,%lld", k->rbytes, k->wbytes);
    else
        fputc(',', fp);
    fputc('\n', fp);
}

void *cap_kstat_main(void *arg)
{
    cap_ctx *c = arg;
    cow_err e = COW_ERR_INIT;
    FILE *fp = cap_create(c, "kstat.csv", &e);
    long tck = sysconf(_SC_CLK_TCK);
    int64_t next = cap_mono_ns(), last = 0;
    int wmain = 0, wchild = 0, first = 1;
    char *task_dir = xasprintf("/proc/%ld/task/%ld", c->pid, c->pid);

    if (fp == NULL) {
        cap_missing(c, "kstat.csv", "%s", e.msg);
        free(task_dir);
        return NULL;
    }
    if (tck <= 0)
        tck = 100;
    fprintf(fp, "timestamp_us,task,pid,minflt,majflt,utime_us,stime_us,run_delay_us,"
                "read_bytes,write_bytes\n");
    for (;;) {
        long ch = cap_child_of(c->pid);
        int64_t now = cap_mono_ns();
        if (first || ch > 0 || now - last >= 1000000000) {
            int64_t ts = cap_now_us(c);
            kst k;
            if (read_task(c, task_dir, tck, &k, &wmain) == 0)
                put_row(fp, ts, "main", c->pid, &k);
            if (ch > 0) {
                char *child_dir = xasprintf("/proc/%ld", ch);
                if (read_task(c, child_dir, tck, &k, &wchild) == 0)
                    put_row(fp, ts, "child", ch, &k);
                free(child_dir);
            }
            if (fflush(fp) != 0 || ferror(fp)) {
                cap_write_failed(c, "kstat.csv", errno);
                break;
            }
            last = now;
            first = 0;
        }
        next += 50000000;
        if (cap_sleep_until(c, next))
            break;
        if (next < cap_mono_ns())
            next = cap_mono_ns();
    }
    fclose(fp);
    free(task_dir);
    return NULL;
}
