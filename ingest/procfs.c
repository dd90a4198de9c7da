/* procfs.c -- /proc/meminfo, /proc/vmstat, cgroup v1/v2 memory files, THP
 * sysfs files, sysctls and bundles of them: the line handlers of those
 * kinds and cow_parser_procfs, run by the kernel-file engine (kfile.c),
 * which also runs smaps.c's handlers for the smaps kinds of a bundle.
 *
 * Records are COW_REC_STAT at the snapshot time (0 = not placed in time):
 *
 *   source   key                          num / unit
 *   meminfo  "MemTotal", "AnonHugePages"  kB lines -> bytes "bytes";
 *                                         HugePages_* counts, unit NULL
 *   vmstat   "pgfault", "thp_split_pmd"   counts (unit NULL); nr_* gauges
 *                                         "pages" (nr_*hugepages: NULL)
 *   cgroup   file name of a one-value     bytes ("memory.failcnt": count);
 *            file: "memory.current",      "max", or a v1 limit >= 2^62
 *            "memory.max", "memory.       (the kernel's "no limit"), ->
 *            limit_in_bytes" ...          num NAN, text as written
 *   cgroup   "memory.stat:anon", "memory. bytes; counters (pg*, thp_*,
 *            stat:total_rss_huge" ...     workingset_*, ...) unit NULL
 *   cgroup   "memory.events:oom_kill"     counts
 *   thp      "enabled", "defrag",         text = the bracketed choice,
 *            "shmem_enabled", "hugepages- num NAN; integer files
 *            2048kB/enabled", "khugepaged/ (hpage_pmd_size, khugepaged/..)
 *            defrag" ...                  num = value; a "defrag" file holding
 *                                         0/1 is khugepaged/defrag
 *   sysctl   "vm.overcommit_memory" ...   num when the value is one integer,
 *                                         else NAN; text as written
 *
 * One-value files (memory.current, overcommit_memory, ...) are recognised
 * by their name, the others by content first. Sysctls come as `sysctl -a`
 * lines ("vm.swappiness = 60", also "key=value" as in sysctl.conf) or as a
 * file named like the /proc/sys file ("overcommit_memory", also
 * "vm.overcommit_memory").
 *
 * Bundle form: several files in one, each after a header line naming it:
 *     == /sys/kernel/mm/transparent_hugepage/enabled ==
 *     ==> /proc/meminfo <==          (the headers of head/tail with files)
 *     # /proc/sys/vm/overcommit_memory
 * A section's kind comes from its path, else from its first line; sections
 * we do not read are skipped and counted in a note.
 *
 * Snapshot time: a stamp line ("# t=<epoch s|ms|us|ns>", "# ts: ...", an
 * ISO 8601 line, or a bare epoch number where the file itself holds no
 * bare numbers) applies to what follows; else a stamp in the file name
 * (meminfo.1738591331, smaps_rollup-1738591331532.txt, ..._20250203T140211Z);
 * else t_us = 0 and a note says so. A file may hold a series of snapshots
 * (e.g. `while :; do date +%s%3N; cat /proc/meminfo; done`), but each one
 * after the first needs a stamp line before it: two snapshots at the same
 * time cannot be told apart, so such a file is refused. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats.h"
#include "kfile.h"
#include "num.h"
#include "smaps.h"

/* A v1 limit at or above this is the kernel's "unlimited" (PAGE_COUNTER_MAX
 * pages, printed as 9223372036854771712 on x86-64). */
#define KF_V1_UNLIMITED 4611686018427387904.0

/* ======================================================= line handlers */

/* vmstat: nr_* are gauges in pages, except those counting huge pages or
 * pins; everything else counts events. */
static const char *vmstat_unit(const char *k)
{
    if (strncmp(k, "nr_", 3) != 0 || strstr(k, "hugepages") != NULL ||
        strstr(k, "foll_pin") != NULL)
        return NULL;
    return "pages";
}

/* memory.stat: event counters (not bytes), v1 and v2 spellings. */
static bool cg_is_counter(const char *k)
{
    static const char *const pre[] = {"pg", "pswp", "thp_", "workingset_",
                                      "zswpin", "zswpout", "zswpwb", "numa_",
                                      "oom", NULL};
    size_t i;
    if (strncmp(k, "total_", 6) == 0)
        k += 6;
    for (i = 0; pre[i]; i++)
        if (strncmp(k, pre[i], strlen(pre[i])) == 0)
            return true;
    return false;
}

static int line_keyval(kfile *f, const cow_line *ln)
{
    size_t nk;
    int64_t v;
    char key[KF_KEY_MAX];
    const char *src, *unit = NULL, *pre = "", *val;
    double num;
    int rc, ki;

    if (!kfile_keyval_split(ln->p, ln->n, &nk, &v))
        return kfile_reject(f, ln, "expected 'name value' with an integer value");
    if (f->kind == KF_CG_STAT)
        pre = "memory.stat:";
    else if (f->kind == KF_CG_EVENTS)
        pre = (ki = kfile_known_index(f->sect)) >= 0 &&
              strcmp(kfile_known_name(ki), "memory.events.local") == 0
                  ? "memory.events.local:" : "memory.events:";
    if (!kfile_keycopy(key, sizeof(key), pre, ln->p, nk))
        return kfile_reject(f, ln, "name too long");
    if ((rc = kfile_key_seen(f, ln->p, nk, ln->no)) != COW_OK)
        return rc;
    num = (double)v;
    src = f->kind == KF_VMSTAT ? "vmstat" : "cgroup";
    if (f->kind == KF_VMSTAT)
        unit = vmstat_unit(key);
    else if (f->kind == KF_CG_STAT && !cg_is_counter(key + strlen(pre))) {
        unit = "bytes";
        if (strstr(key, "_limit") != NULL && num >= KF_V1_UNLIMITED)
            num = NAN;
    }
    val = ln->p + nk;
    while (*val == ' ' || *val == '\t')
        val++;
    return kfile_stat(f, src, key, val, (size_t)(ln->p + ln->n - val), num,
                      unit, ln->no);
}

/* The blank-separated list p[0..n) offers choice w (bracketed or not). */
static bool has_choice(const char *p, size_t n, const char *w)
{
    size_t lw = strlen(w), i = 0;

    while (i < n) {
        size_t j = i;
        while (j < n && p[j] != ' ')
            j++;
        if ((j - i == lw && memcmp(p + i, w, lw) == 0) ||
            (j - i == lw + 2 && p[i] == '[' && memcmp(p + i + 1, w, lw) == 0))
            return true;
        i = j + 1;
    }
    return false;
}

/* Key of a THP file: the path below transparent_hugepage/ when known
 * ("hugepages-2048kB/enabled"), else what the choices say (only defrag
 * offers "defer", only shmem_enabled "within_size"), else the name. */
static void thp_key(const kfile *f, const char *p, size_t n, char *out,
                    size_t cap)
{
    const char *t = strstr(f->sect, "transparent_hugepage/");
    const char *b = kfile_base_of(f->sect);

    if (t != NULL && t[21] != '\0')
        snprintf(out, cap, "%s", t + 21);
    else if (strstr(f->sect, "khugepaged") != NULL && strstr(b, "defrag") != NULL)
        snprintf(out, cap, "khugepaged/defrag");
    else if (p != NULL && has_choice(p, n, "defer"))
        snprintf(out, cap, "defrag");
    else if (p != NULL && has_choice(p, n, "within_size"))
        snprintf(out, cap, "shmem_enabled");
    else if (strstr(b, "shmem_enabled") != NULL)
        snprintf(out, cap, "shmem_enabled");
    else if (strstr(b, "hpage_pmd_size") != NULL)
        snprintf(out, cap, "hpage_pmd_size");
    else if (strstr(b, "defrag") != NULL)
        snprintf(out, cap, "defrag");
    else if (p != NULL || strstr(b, "enabled") != NULL)
        snprintf(out, cap, "enabled");
    else
        out[0] = '\0';
}

static int line_thp(kfile *f, const cow_line *ln, const char *key)
{
    const char *c;
    size_t nc;
    int rc;

    if (!kfile_thp_choice(ln->p, ln->n, &c, &nc))
        return kfile_reject(f, ln, "expected the THP choices with the active "
                                   "one in brackets, e.g. 'always [madvise] never'");
    if ((rc = kfile_key_seen(f, key, strlen(key), ln->no)) != COW_OK)
        return rc;
    return kfile_stat(f, "thp", key, c, nc, NAN, NULL, ln->no);
}

/* One-value files: cgroup memory.current..., /proc/sys files, THP files
 * (bracketed choice or an integer). A second value needs a stamp. */
static int line_single(kfile *f, const cow_line *ln)
{
    char key[KF_KEY_MAX];
    const char *src = "cgroup", *unit = NULL;
    int64_t iv;
    int isnum = num_parse_i64(ln->p, ln->n, &iv), rc, ki;
    double num = isnum ? (double)iv : NAN;

    if (f->kind == KF_THP) {
        thp_key(f, memchr(ln->p, '[', ln->n) ? ln->p : NULL, ln->n, key,
                sizeof(key));
        if (key[0] == '\0')
            return kfile_reject(f, ln, "a THP value but the file name does not "
                                       "say which THP file it came from");
        if (memchr(ln->p, '[', ln->n) != NULL)
            return line_thp(f, ln, key);
        if (!isnum)
            return kfile_reject(f, ln, "THP file value is not an integer");
        /* "defrag" holding 0/1 is khugepaged/defrag (whether khugepaged
         * may compact), not the defrag policy, which is a bracketed choice */
        if (strcmp(key, "defrag") == 0)
            snprintf(key, sizeof(key), "khugepaged/defrag");
        src = "thp";
        unit = strcmp(key, "hpage_pmd_size") == 0 ? "bytes" : NULL;
    } else if (f->kind == KF_SYSCTL_FILE) {
        if (!kfile_sysctl_key_of(f->sect, key, sizeof(key)))
            return kfile_reject(f, ln, "cannot tell which sysctl this value "
                                       "belongs to from the file name");
        src = "sysctl";
    } else {
        ki = kfile_known_index(f->sect);
        snprintf(key, sizeof(key), "%s", ki >= 0 ? kfile_known_name(ki) : "memory");
        if (!isnum && !(ln->n == 3 && memcmp(ln->p, "max", 3) == 0))
            return kfile_reject(f, ln, "expected an integer (bytes) or 'max'");
        unit = strstr(key, "failcnt") ? NULL : "bytes";
        if (strstr(key, "limit") != NULL && num >= KF_V1_UNLIMITED)
            num = NAN;
    }
    if ((rc = kfile_snapshot(f, ln->no, key)) != COW_OK)
        return rc;
    return kfile_stat(f, src, key, ln->p, ln->n, num, unit, ln->no);
}

static int line_sysctl(kfile *f, const cow_line *ln)
{
    size_t nk, nv;
    const char *v;
    char key[KF_KEY_MAX];
    int64_t iv;
    int rc;

    if (!kfile_sysctl_split(ln->p, ln->n, &nk, &v, &nv))
        return kfile_reject(f, ln, "expected 'name = value' as sysctl -a prints it");
    if (!kfile_keycopy(key, sizeof(key), "", ln->p, nk))
        return kfile_reject(f, ln, "sysctl name too long");
    if ((rc = kfile_key_seen(f, ln->p, nk, ln->no)) != COW_OK)
        return rc;
    return kfile_stat(f, "sysctl", key, v, nv,
                      num_parse_i64(v, nv, &iv) ? (double)iv : NAN, NULL, ln->no);
}

/* One /proc/loadavg line: a snapshot of load1/5/15, running, threads,
 * last_pid (source "loadavg"). */
static int line_loadavg(kfile *f, const cow_line *ln)
{
    static const char *const keys[6] = {"load1", "load5", "load15", "running",
                                        "threads", "last_pid"};
    double v[6];
    char txt[40];
    int i, rc;

    if (!kfile_loadavg_split(ln->p, ln->n, v))
        return kfile_reject(f, ln, "expected /proc/loadavg: three load averages, "
                                   "running/threads and the last pid");
    if ((rc = kfile_snapshot(f, ln->no, "loadavg")) != COW_OK)
        return rc;
    for (i = 0; i < 6; i++) {
        int len = snprintf(txt, sizeof(txt), i < 3 ? "%.2f" : "%.0f", v[i]);
        if ((rc = kfile_stat(f, "loadavg", keys[i], txt, (size_t)len, v[i], NULL,
                             ln->no)) != COW_OK)
            return rc;
    }
    return COW_OK;
}

static int dispatch(kfile *f, const cow_line *ln)
{
    switch (f->kind) {
    case KF_SMAPS_ROLLUP:
    case KF_SMAPS:
    case KF_STATUS:
        return smaps_line(f, ln);
    case KF_MEMINFO:
        return kfile_colon_line(f, ln, "meminfo", 0);
    case KF_VMSTAT:
    case KF_CG_STAT:
    case KF_CG_EVENTS:
        return line_keyval(f, ln);
    case KF_CG_SINGLE:
    case KF_SYSCTL_FILE:
    case KF_THP:
        return line_single(f, ln);
    case KF_SYSCTL_LIST:
        return line_sysctl(f, ln);
    case KF_LOADAVG:
        return line_loadavg(f, ln);
    case KF_UNKNOWN:
    case KF_BUNDLE:
        break;
    }
    f->skipped++;
    return COW_OK;
}

/* ============================================================== parser */

static int sniff_line(const char *fname, const char *p, size_t n)
{
    int score;
    enum kfile_kind kind = kfile_classify(fname, p, n, &score);

    if (kind == KF_SMAPS_ROLLUP || kind == KF_SMAPS || kind == KF_STATUS)
        return 0;
    return kind == KF_UNKNOWN ? 0 : score;
}

/* The first line that is not blank, a comment or a stamp decides. */
static int sniff(const char *fname, const char *head, size_t n)
{
    const char *p = head, *end = head + n, *why;
    char path[KF_KEY_MAX];
    int64_t t;
    int bare_ok = !kfile_one_value_kind(kfile_kind_of_name(fname));

    if (n >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0)
        p += 3;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        const char *q = p;
        while (len > 0 && (q[len - 1] == '\r' || q[len - 1] == ' ' ||
                           q[len - 1] == '\t'))
            len--;
        p = nl ? nl + 1 : end;
        if (len == 0)
            continue;
        if (kfile_section_header(q, len, path, sizeof(path)))
            return kfile_kind_of_name(path) != KF_UNKNOWN ? 95 : 60;
        if (kfile_stamp_line(q, len, bare_ok, &t, &why) != 0 || q[0] == '#')
            continue;
        return sniff_line(fname, q, len);
    }
    return 0;
}

static int parse(cow_src *s, const cow_parse_opts *o, cow_sink *k, cow_err *e)
{
    static const kfile_ops ops = {dispatch, smaps_flush};
    return kfile_run(s, o, k, &ops, 0, e);
}

const cow_parser cow_parser_procfs = {
    "procfs",
    "/proc/meminfo, /proc/vmstat, cgroup memory files, THP sysfs files, "
    "sysctls (also bundled behind '== /path ==' headers)",
    sniff,
    parse,
};
