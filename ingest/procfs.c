/* procfs.c -- /proc/meminfo, /proc/vmstat, cgroup v1/v2 memory files, THP
 * sysfs files, sysctls and bundles of them; and the engine shared with
 * smaps.c. Exports cow_parser_procfs and the procfs_* / kfile_* helpers of
 * procfs.h.
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
#include "procfs.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "formats.h"
#include "limits.h"
#include "mem.h"
#include "num.h"
#include "smaps.h"
#include "timeconv.h"

/* A v1 limit at or above this is the kernel's "unlimited" (PAGE_COUNTER_MAX
 * pages, printed as 9223372036854771712 on x86-64). */
#define KF_V1_UNLIMITED 4611686018427387904.0

/* ================================================================ names */

static const struct {
    const char *name;       /* base name as the kernel spells it */
    enum kfile_kind kind;   /* what it holds */
    const char *prefix;     /* sysctl: dotted prefix of the key */
} known[] = {
    {"smaps_rollup", KF_SMAPS_ROLLUP, NULL},
    {"smaps", KF_SMAPS, NULL},
    {"status", KF_STATUS, NULL},
    {"meminfo", KF_MEMINFO, NULL},
    {"vmstat", KF_VMSTAT, NULL},
    {"memory.current", KF_CG_SINGLE, NULL},
    {"memory.peak", KF_CG_SINGLE, NULL},
    {"memory.max", KF_CG_SINGLE, NULL},
    {"memory.high", KF_CG_SINGLE, NULL},
    {"memory.low", KF_CG_SINGLE, NULL},
    {"memory.min", KF_CG_SINGLE, NULL},
    {"memory.swap.current", KF_CG_SINGLE, NULL},
    {"memory.swap.peak", KF_CG_SINGLE, NULL},
    {"memory.swap.max", KF_CG_SINGLE, NULL},
    {"memory.usage_in_bytes", KF_CG_SINGLE, NULL},
    {"memory.max_usage_in_bytes", KF_CG_SINGLE, NULL},
    {"memory.limit_in_bytes", KF_CG_SINGLE, NULL},
    {"memory.soft_limit_in_bytes", KF_CG_SINGLE, NULL},
    {"memory.failcnt", KF_CG_SINGLE, NULL},
    {"memory.memsw.usage_in_bytes", KF_CG_SINGLE, NULL},
    {"memory.memsw.max_usage_in_bytes", KF_CG_SINGLE, NULL},
    {"memory.memsw.limit_in_bytes", KF_CG_SINGLE, NULL},
    {"memory.stat", KF_CG_STAT, NULL},
    {"memory.events", KF_CG_EVENTS, NULL},
    {"memory.events.local", KF_CG_EVENTS, NULL},
    {"loadavg", KF_LOADAVG, NULL},
    {"hpage_pmd_size", KF_THP, NULL},
    {"shmem_enabled", KF_THP, NULL},
    {"overcommit_memory", KF_SYSCTL_FILE, "vm."},
    {"overcommit_ratio", KF_SYSCTL_FILE, "vm."},
    {"overcommit_kbytes", KF_SYSCTL_FILE, "vm."},
    {"swappiness", KF_SYSCTL_FILE, "vm."},
    {"max_map_count", KF_SYSCTL_FILE, "vm."},
    {"min_free_kbytes", KF_SYSCTL_FILE, "vm."},
    {"zone_reclaim_mode", KF_SYSCTL_FILE, "vm."},
    {"dirty_ratio", KF_SYSCTL_FILE, "vm."},
    {"dirty_background_ratio", KF_SYSCTL_FILE, "vm."},
    {"numa_balancing", KF_SYSCTL_FILE, "kernel."},
    {"somaxconn", KF_SYSCTL_FILE, "net.core."},
};
#define NKNOWN (sizeof(known) / sizeof(known[0]))

static const char *base_of(const char *path)
{
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

/* name occurs in s as a word: not glued to letters or digits on the left,
 * and on the right followed by the end, '.', '-', ' ', or '_' + digit
 * (so "memory.max" does not match "memory.max_usage_in_bytes"). */
static bool has_word(const char *s, const char *name)
{
    size_t ln = strlen(name);
    const char *p = s;

    while ((p = strstr(p, name)) != NULL) {
        char r = p[ln];
        bool left = p == s || !isalnum((unsigned char)p[-1]);
        bool right = r == '\0' || r == '.' || r == '-' || r == ' ' ||
                     (r == '_' && isdigit((unsigned char)p[ln + 1]));
        if (left && right)
            return true;
        p++;
    }
    return false;
}

/* Index in known[] of the longest name found in path's base name, or -1. */
static int known_index(const char *path)
{
    const char *b = base_of(path);
    size_t i, best_len = 0;
    int best = -1;

    for (i = 0; i < NKNOWN; i++) {
        size_t ln = strlen(known[i].name);
        if (ln > best_len && has_word(b, known[i].name)) {
            best = (int)i;
            best_len = ln;
        }
    }
    return best;
}

static bool is_thp_path(const char *name)
{
    const char *b = base_of(name);
    if (strstr(name, "transparent_hugepage") != NULL)
        return true;
    return (strstr(b, "thp") != NULL || strstr(b, "hugepage") != NULL) &&
           (strstr(b, "enabled") != NULL || strstr(b, "defrag") != NULL);
}

enum kfile_kind procfs_kind_of_name(const char *name)
{
    int i;

    if (name == NULL || *name == '\0')
        return KF_UNKNOWN;
    if (strstr(name, "/proc/sys/") != NULL)
        return KF_SYSCTL_FILE;
    if (is_thp_path(name))
        return KF_THP;
    i = known_index(name);
    return i < 0 ? KF_UNKNOWN : known[i].kind;
}

/* Sysctl key for a one-value file: from a /proc/sys path, a dotted name,
 * or the table. false when the name says nothing. */
static bool sysctl_key_of(const char *name, char *out, size_t cap)
{
    const char *ps = name ? strstr(name, "/proc/sys/") : NULL;
    size_t i;
    int k;

    if (ps != NULL) {
        snprintf(out, cap, "%s", ps + strlen("/proc/sys/"));
        for (i = 0; out[i]; i++)
            if (out[i] == '/')
                out[i] = '.';
        return out[0] != '\0';
    }
    if (name == NULL || (k = known_index(name)) < 0 || !known[k].prefix)
        return false;
    /* "overcommit_memory" and "vm.overcommit_memory.txt" alike */
    snprintf(out, cap, "%s%s", known[k].prefix, known[k].name);
    return true;
}

/* ============================================================ grammars */

static bool is_word_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '(' || c == ')';
}

/* "always [madvise] never": choices separated by single blanks, exactly
 * one in brackets. The choice goes to *c / *nc. */
static bool thp_choice(const char *p, size_t n, const char **c, size_t *nc)
{
    size_t i = 0, brackets = 0;

    if (n == 0)
        return false;
    while (i < n) {
        size_t j = i;
        int br = p[i] == '[';
        while (j < n && p[j] != ' ')
            j++;
        if (br) {
            if (j - i < 3 || p[j - 1] != ']')
                return false;
            *c = p + i + 1;
            *nc = j - i - 2;
            brackets++;
        }
        for (size_t q = i + (size_t)br; q < j - (size_t)br; q++)
            if (!isalnum((unsigned char)p[q]) && p[q] != '_' && p[q] != '+')
                return false;
        i = j + 1;
    }
    return brackets == 1;
}

/* "vm.overcommit_memory = 1" or "vm.swappiness=60". */
static bool sysctl_split(const char *p, size_t n, size_t *nk, const char **v,
                         size_t *nv)
{
    size_t i = 0, dots = 0;

    while (i < n && (isalnum((unsigned char)p[i]) || p[i] == '_' ||
                     p[i] == '.' || p[i] == '-' || p[i] == '/')) {
        dots += p[i] == '.';
        i++;
    }
    if (i == 0 || dots == 0 || !isalpha((unsigned char)p[0]))
        return false;
    *nk = i;
    while (i < n && (p[i] == ' ' || p[i] == '\t'))
        i++;
    if (i >= n || p[i] != '=')
        return false;
    i++;
    while (i < n && (p[i] == ' ' || p[i] == '\t'))
        i++;
    *v = p + i;
    *nv = n - i;
    return true;
}

/* "name value": a key of word characters, blanks, an integer. */
static bool keyval_split(const char *p, size_t n, size_t *nk, int64_t *v)
{
    size_t i = 0, j;

    while (i < n && (isalnum((unsigned char)p[i]) || p[i] == '_' || p[i] == '.'))
        i++;
    if (i == 0 || i >= n || (p[i] != ' ' && p[i] != '\t'))
        return false;
    *nk = i;
    j = i;
    while (j < n && (p[j] == ' ' || p[j] == '\t'))
        j++;
    return num_parse_i64(p + j, n - j, v);
}

bool kfile_split_colon(const char *p, size_t n, const char **key, size_t *nk,
                       const char **val, size_t *nv, int *kb)
{
    const char *c = memchr(p, ':', n);
    size_t i;

    if (c == NULL || c == p)
        return false;
    for (i = 0; p + i < c; i++)
        if (!is_word_char(p[i]))
            return false;
    *key = p;
    *nk = (size_t)(c - p);
    *val = c + 1;
    *nv = n - *nk - 1;
    num_trim(val, nv);
    *kb = *nv >= 3 && memcmp(*val + *nv - 3, " kB", 3) == 0;
    if (*kb) {
        *nv -= 3;
        num_trim(val, nv);
    }
    return true;
}

static bool is_meminfo_key(const char *k, size_t n)
{
    static const char *const keys[] = {
        "MemTotal", "MemFree", "MemAvailable", "Buffers", "Cached",
        "SwapCached", "Active", "Inactive", "SwapTotal", "SwapFree",
        "Dirty", "AnonPages", "Mapped", "Shmem", "Slab", "CommitLimit",
        "Committed_AS", "HugePages_Total", "HugePages_Free", "Hugepagesize",
        "ShmemHugePages", "FileHugePages", "PageTables", NULL};
    size_t i;
    for (i = 0; keys[i]; i++)
        if (strlen(keys[i]) == n && memcmp(keys[i], k, n) == 0)
            return true;
    return false;
}

static bool is_status_key(const char *k, size_t n)
{
    return (n > 2 && (memcmp(k, "Vm", 2) == 0 || memcmp(k, "Rss", 3) == 0)) ||
           (n == 11 && memcmp(k, "THP_enabled", 11) == 0) ||
           (n == 4 && (memcmp(k, "Tgid", 4) == 0));
}

/* ====================================================== classification */

static enum kfile_kind classify_colon(const char *name, const char *p,
                                      size_t n, int *score)
{
    const char *k, *v;
    size_t nk, nv;
    int kb;
    enum kfile_kind nk_kind = procfs_kind_of_name(name);

    if (!kfile_split_colon(p, n, &k, &nk, &v, &nv, &kb))
        return KF_UNKNOWN;
    if (nk == 4 && memcmp(k, "Name", 4) == 0 && n > 5 && p[5] == '\t')
        return *score = 90, KF_STATUS;
    if (nk_kind == KF_SMAPS)  /* no header: a grep of the fields */
        nk_kind = KF_SMAPS_ROLLUP;
    /* the name helps only when the line fits it ("status" names many
     * things; INFO's "role:master" is not /proc/PID/status) */
    if ((nk_kind == KF_SMAPS_ROLLUP && smaps_is_field(k, nk)) ||
        (nk_kind == KF_STATUS && is_status_key(k, nk)) ||
        (nk_kind == KF_MEMINFO && (kb || is_meminfo_key(k, nk))))
        return *score = 80, nk_kind;
    if (nk == 8 && memcmp(k, "MemTotal", 8) == 0)
        return *score = 95, KF_MEMINFO;
    if (is_meminfo_key(k, nk) && !smaps_is_field(k, nk))
        return *score = 70, KF_MEMINFO;
    if (smaps_is_field(k, nk) && kb)
        return *score = 50, KF_SMAPS_ROLLUP;
    if (is_status_key(k, nk))
        return *score = 60, KF_STATUS;
    return KF_UNKNOWN;
}

static enum kfile_kind classify_keyval(const char *name, const char *p,
                                       size_t n, int *score)
{
    size_t nk;
    int64_t v;
    enum kfile_kind nk_kind = procfs_kind_of_name(name);

    if (!keyval_split(p, n, &nk, &v))
        return KF_UNKNOWN;
    if (nk_kind == KF_CG_STAT || nk_kind == KF_CG_EVENTS || nk_kind == KF_VMSTAT)
        return *score = 85, nk_kind;
    if (nk == 13 && memcmp(p, "nr_free_pages", 13) == 0)
        return *score = 95, KF_VMSTAT;
    if ((nk == 5 && memcmp(p, "cache", 5) == 0) ||
        (nk == 4 && memcmp(p, "anon", 4) == 0))
        return *score = 80, KF_CG_STAT;
    if (nk == 3 && memcmp(p, "low", 3) == 0)
        return *score = 60, KF_CG_EVENTS;
    if (nk > 3 && (memcmp(p, "nr_", 3) == 0 || memcmp(p, "pg", 2) == 0))
        return *score = 60, KF_VMSTAT;
    return KF_UNKNOWN;
}

/* "0.52 0.58 0.59 2/618 12345": three load averages, running/threads,
 * the last pid; v[0..5] filled. */
static bool loadavg_split(const char *p, size_t n, double v[6])
{
    char buf[128], *q, *end;
    int i;

    if (n == 0 || n >= sizeof(buf))
        return false;
    memcpy(buf, p, n);
    buf[n] = '\0';
    q = buf;
    for (i = 0; i < 3; i++) {
        v[i] = strtod(q, &end);
        if (end == q || *end != ' ' || !isfinite(v[i]) || v[i] < 0 ||
            memchr(q, '.', (size_t)(end - q)) == NULL)
            return false;
        q = end + 1;
    }
    v[3] = strtod(q, &end);
    if (end == q || *end != '/' || v[3] < 0)
        return false;
    q = end + 1;
    v[4] = strtod(q, &end);
    if (end == q || *end != ' ' || v[4] < v[3])
        return false;
    q = end + 1;
    v[5] = strtod(q, &end);
    return end != q && *end == '\0' && v[5] >= 0;
}

enum kfile_kind procfs_classify(const char *name, const char *p, size_t n,
                                int *score)
{
    double la[6];
    enum kfile_kind nk_kind = procfs_kind_of_name(name), kind;
    const char *c, *v;
    size_t nc, nk, nv;
    int64_t iv;

    *score = 0;
    if (smaps_is_header(p, n)) {
        *score = 90;
        return n >= 8 && memcmp(p + n - 8, "[rollup]", 8) == 0
                   ? KF_SMAPS_ROLLUP : KF_SMAPS;
    }
    if (thp_choice(p, n, &c, &nc))
        return *score = 95, KF_THP;
    if (loadavg_split(p, n, la))
        return *score = 90, KF_LOADAVG;
    if (sysctl_split(p, n, &nk, &v, &nv))
        return *score = 90, KF_SYSCTL_LIST;
    if ((kind = classify_colon(name, p, n, score)) != KF_UNKNOWN)
        return kind;
    if ((kind = classify_keyval(name, p, n, score)) != KF_UNKNOWN)
        return kind;
    if ((nk_kind == KF_CG_SINGLE || nk_kind == KF_SYSCTL_FILE ||
         nk_kind == KF_THP) &&
        (num_parse_i64(p, n, &iv) || (n == 3 && memcmp(p, "max", 3) == 0) ||
         nk_kind == KF_SYSCTL_FILE))
        return *score = 85, nk_kind;
    return KF_UNKNOWN;
}

bool procfs_section_header(const char *p, size_t n, char *path, size_t cap)
{
    const char *a = NULL;
    size_t na = 0;

    if (n > 6 && memcmp(p, "== ", 3) == 0 && memcmp(p + n - 3, " ==", 3) == 0) {
        a = p + 3;
        na = n - 6;
    } else if (n > 8 && memcmp(p, "==> ", 4) == 0 &&
               memcmp(p + n - 4, " <==", 4) == 0) {
        a = p + 4;
        na = n - 8;
    } else if (n > 3 && p[0] == '#' && p[1] == ' ' && p[2] == '/') {
        a = p + 2;
        na = n - 2;
    }
    if (a == NULL)
        return false;
    num_trim(&a, &na);
    if (na == 0 || na >= cap || memchr(a, ' ', na) != NULL)
        return false;
    memcpy(path, a, na);
    path[na] = '\0';
    /* "== Memory ==" is not a path; a path starts with '/' or names a file */
    return path[0] == '/' || procfs_kind_of_name(path) != KF_UNKNOWN;
}

/* ================================================================ time */

static bool in_range(double s)
{
    return s >= (double)COW_EPOCH_MIN_S && s < (double)COW_EPOCH_MAX_S;
}

bool procfs_epoch_us(const char *p, size_t n, int64_t *us)
{
    static const double per_s[] = {1.0, 1e3, 1e6, 1e9};
    static const int64_t to_us_mul[] = {1000000, 1000, 1, 0};
    int64_t iv;
    double v;
    int i;

    if (num_parse_i64(p, n, &iv)) {
        for (i = 0; i < 4; i++)
            if (in_range((double)iv / per_s[i])) {
                *us = i < 3 ? iv * to_us_mul[i] : iv / 1000;
                return true;
            }
        return false;
    }
    if (!num_parse_double(p, n, &v))
        return false;
    for (i = 0; i < 4; i++)
        if (in_range(v / per_s[i])) {
            *us = (int64_t)llround(v / per_s[i] * 1e6);
            return true;
        }
    return false;
}

/* "20250203T140211" (+ optional Z) at p: ISO 8601's basic format, read
 * by the one ISO 8601 parser once written in the extended one. */
static bool compact_iso(const char *p, size_t n, int64_t *us)
{
    char tmp[20];

    if (n < 15 || p[8] != 'T')
        return false;
    snprintf(tmp, sizeof(tmp), "%.4s-%.2s-%.2sT%.2s:%.2s:%.2s", p, p + 4, p + 6, p + 9,
             p + 11, p + 13);
    return time_parse_iso8601(tmp, 19, us) && in_range((double)*us / 1e6);
}

/* "2025-02-03T14:02:11Z" or, file-name safe, "2025-02-03T14-02-11". */
static bool dashed_iso(const char *p, size_t n, int64_t *us)
{
    char tmp[24];
    if (n < 19)
        return false;
    memcpy(tmp, p, 19);
    tmp[19] = '\0';
    if (tmp[13] == '-' && tmp[16] == '-')
        tmp[13] = tmp[16] = ':';
    return time_parse_iso8601(tmp, 19, us);
}

bool procfs_stamp_from_name(const char *name, int64_t *us)
{
    size_t n, i;

    if (name == NULL)
        return false;
    name = base_of(name);
    n = strlen(name);
    for (i = 0; i < n; i++) {
        size_t L = 0;
        if (!isdigit((unsigned char)name[i]) ||
            (i > 0 && isdigit((unsigned char)name[i - 1])))
            continue;
        while (i + L < n && isdigit((unsigned char)name[i + L]))
            L++;
        if (L == 8 && compact_iso(name + i, n - i, us))
            return true;
        if (L == 4 && dashed_iso(name + i, n - i, us))
            return true;
        if (L >= 9 && L <= 19) {
            size_t F = 0;
            /* "1738591331.532" */
            if (L == 10 && i + L + 1 < n && name[i + L] == '.')
                while (i + L + 1 + F < n && isdigit((unsigned char)name[i + L + 1 + F]))
                    F++;
            if (F > 0 && F <= 6 && procfs_epoch_us(name + i, L + 1 + F, us))
                return true;
            if (procfs_epoch_us(name + i, L, us))
                return true;
        }
    }
    return false;
}

static bool stamp_value(const char *p, size_t n, int64_t *us)
{
    num_trim(&p, &n);
    return procfs_epoch_us(p, n, us) || time_parse_iso8601(p, n, us);
}

int procfs_stamp_line(const char *p, size_t n, int bare_ok, int64_t *us,
                      const char **why)
{
    static const char *const words[] = {"timestamp", "time", "ts", "t",
                                        "epoch", "date", "at", NULL};
    size_t i = 1, w;

    if (n > 0 && p[0] != '#')
        return (time_parse_iso8601(p, n, us) ||
                (bare_ok && procfs_epoch_us(p, n, us))) ? 1 : 0;
    while (i < n && p[i] == ' ')
        i++;
    for (w = 0; words[w]; w++) {
        size_t lw = strlen(words[w]), j = i + lw;
        if (n - i < lw || strncasecmp(p + i, words[w], lw) != 0)
            continue;
        while (j < n && p[j] == ' ')
            j++;
        if (j < n && (p[j] == '=' || p[j] == ':'))
            j++;
        else if (j == i + lw || j >= n || !isdigit((unsigned char)p[j]))
            continue;
        if (stamp_value(p + j, n - j, us))
            return 1;
        *why = "stamp line whose value is neither an epoch (s, ms, us, ns "
               "between 1990 and 2100) nor an ISO 8601 time";
        return -1;
    }
    return 0;
}

/* ============================================================ emitting */

int kfile_stat(kfile *f, const char *source, const char *key, const char *p,
               size_t n, double num, const char *unit, long line)
{
    f->txt = xgrow(f->txt, 1, n + 1, &f->txtcap);
    memcpy(f->txt, p, n);
    f->txt[n] = '\0';
    f->rows++;
    return sink_stat(f->k, f->t_us, source, key, f->txt, num, unit, line, f->e);
}

int kfile_reject(kfile *f, const cow_line *ln, const char *reason)
{
    f->rejects++;
    if (f->first_reject == 0)
        f->first_reject = ln->no;
    return sink_reject(f->k, ln->no, reason, ln->p, ln->n, f->e);
}

int kfile_snapshot(kfile *f, long line, const char *what)
{
    if (f->snaps > 0 && !f->stamped) {
        COW_FAIL(f->e, COW_EPARSE,
                 "a second %s snapshot starts here (the first began at line "
                 "%ld) with no stamp line between them, so they cannot be "
                 "told apart in time; put '# t=<epoch>' (e.g. the output of "
                 "date +%%s%%3N) before each snapshot, or split the file",
                 what, f->snap_line);
        cow_err_at(f->e, f->srcname, line, 0);
        return f->e->code;
    }
    f->snaps++;
    f->stamped = 0;
    f->snap_line = line;
    return COW_OK;
}

int kfile_key_seen(kfile *f, const char *k, size_t n, long line)
{
    if (f->header_snaps)
        return COW_OK;
    if (f->first_key[0] == '\0') {
        snprintf(f->first_key, sizeof(f->first_key), "%.*s", (int)n, k);
        return kfile_snapshot(f, line, f->sect[0] ? base_of(f->sect) : "file");
    }
    if (strlen(f->first_key) == n && memcmp(f->first_key, k, n) == 0)
        return kfile_snapshot(f, line, base_of(f->sect));
    return COW_OK;
}

/* Copy p[0..n) into a key buffer: false (too long) is the caller's reject. */
static bool keycopy(char *dst, size_t cap, const char *pre, const char *p,
                    size_t n)
{
    size_t lp = strlen(pre);
    if (lp + n + 1 > cap)
        return false;
    memcpy(dst, pre, lp);
    memcpy(dst + lp, p, n);
    dst[lp + n] = '\0';
    return true;
}

/* ======================================================= line handlers */

/* Fields that always carry " kB": smaps ones but THPeligible and
 * ProtectionKey; meminfo ones but the HugePages_ counts (a cut last line
 * would otherwise read as bytes). status has both kinds. */
static bool wants_kb(const kfile *f, const char *k, size_t nk)
{
    if (f->kind == KF_SMAPS_ROLLUP || f->kind == KF_SMAPS)
        return !(nk == 11 && memcmp(k, "THPeligible", 11) == 0) &&
               !(nk == 13 && memcmp(k, "ProtectionKey", 13) == 0);
    if (f->kind == KF_MEMINFO)
        return !(nk > 10 && memcmp(k, "HugePages_", 10) == 0);
    return false;
}

int kfile_colon_line(kfile *f, const cow_line *ln, const char *source,
                     int text_ok)
{
    const char *k, *v;
    size_t nk, nv;
    int kb, rc;
    int64_t iv;
    char key[KF_KEY_MAX];
    double num = NAN;
    const char *end = ln->p + ln->n;

    if (!kfile_split_colon(ln->p, ln->n, &k, &nk, &v, &nv, &kb))
        return kfile_reject(f, ln, "expected 'Key:   value kB'");
    if (!keycopy(key, sizeof(key), "", k, nk))
        return kfile_reject(f, ln, "field name too long");
    if (num_parse_i64(v, nv, &iv))
        num = kb ? (double)iv * 1024.0 : (double)iv;
    else if (!text_ok || kb)
        return kfile_reject(f, ln, "value is not an integer");
    if (kb && num > COW_MAX_MEM_BYTES)
        return kfile_reject(f, ln, "memory beyond 2^50 bytes (1 PiB): not a "
                                   "real host");
    if (!kb && wants_kb(f, k, nk))
        return kfile_reject(f, ln, ln->eol ? "value without its ' kB' unit"
                                           : "last line cut short (no ' kB')");
    if ((rc = kfile_key_seen(f, k, nk, ln->no)) != COW_OK)
        return rc;
    return kfile_stat(f, source, key, v, (size_t)(end - v), num,
                      kb ? "bytes" : NULL, ln->no);
}

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

    if (!keyval_split(ln->p, ln->n, &nk, &v))
        return kfile_reject(f, ln, "expected 'name value' with an integer value");
    if (f->kind == KF_CG_STAT)
        pre = "memory.stat:";
    else if (f->kind == KF_CG_EVENTS)
        pre = (ki = known_index(f->sect)) >= 0 &&
              strcmp(known[ki].name, "memory.events.local") == 0
                  ? "memory.events.local:" : "memory.events:";
    if (!keycopy(key, sizeof(key), pre, ln->p, nk))
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
    const char *b = base_of(f->sect);

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

    if (!thp_choice(ln->p, ln->n, &c, &nc))
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
        if (!sysctl_key_of(f->sect, key, sizeof(key)))
            return kfile_reject(f, ln, "cannot tell which sysctl this value "
                                       "belongs to from the file name");
        src = "sysctl";
    } else {
        ki = known_index(f->sect);
        snprintf(key, sizeof(key), "%s", ki >= 0 ? known[ki].name : "memory");
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

    if (!sysctl_split(ln->p, ln->n, &nk, &v, &nv))
        return kfile_reject(f, ln, "expected 'name = value' as sysctl -a prints it");
    if (!keycopy(key, sizeof(key), "", ln->p, nk))
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

    if (!loadavg_split(ln->p, ln->n, v))
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

/* ============================================================== engine */

static const char *const kind_names[] = {
    "unknown", "bundle", "smaps_rollup", "smaps", "status", "meminfo",
    "vmstat", "cgroup one-value file", "cgroup memory.stat",
    "cgroup memory.events", "thp", "sysctl file", "sysctl list", "loadavg"};

/* Engine state around the kfile: what the notes will say. */
typedef struct engine {
    kfile f;              /* shared with the line handlers */
    int smaps_only;       /* parser "smaps": refuse other kinds */
    int decided;          /* the current section's kind is settled */
    int time_src;         /* 0 none, 1 file name, 2 stamp lines */
    long stamps;          /* stamp lines read */
    unsigned kinds;       /* bit per enum kfile_kind seen */
    char skipped[256];    /* sections we do not read, for the note */
} engine;

static bool one_value_kind(enum kfile_kind k)
{
    return k == KF_CG_SINGLE || k == KF_SYSCTL_FILE || k == KF_THP;
}

static int start_section(engine *g, const char *path)
{
    kfile *f = &g->f;
    int rc = smaps_flush(f);

    if (rc != COW_OK)
        return rc;
    snprintf(f->sect, sizeof(f->sect), "%s", path);
    f->kind = procfs_kind_of_name(path);
    f->in_bundle = 1;
    f->first_key[0] = '\0';
    f->snaps = 0;
    f->map_open = f->header_snaps = 0;
    f->last_start = 0;
    g->decided = f->kind != KF_UNKNOWN;
    return COW_OK;
}

static int decide(engine *g, const cow_line *ln)
{
    kfile *f = &g->f;
    int score;

    f->kind = procfs_classify(f->sect, ln->p, ln->n, &score);
    g->decided = 1;
    if (f->kind != KF_UNKNOWN)
        return COW_OK;
    if (f->in_bundle) {
        size_t l = strlen(g->skipped);
        snprintf(g->skipped + l, sizeof(g->skipped) - l, "%s%s",
                 l ? ", " : "", f->sect);
        return COW_OK;
    }
    COW_FAIL(f->e, COW_EPARSE,
             "not a kernel file cowtail reads (expected smaps, smaps_rollup, "
             "status, meminfo, vmstat, a cgroup memory file, a THP sysfs file "
             "or sysctl values); one-value files such as memory.current must "
             "keep their name");
    cow_err_at(f->e, f->srcname, ln->no, 0);
    return f->e->code;
}

static int check_kind(engine *g, long line)
{
    kfile *f = &g->f;

    g->kinds |= 1u << f->kind;
    if (!g->smaps_only || f->kind == KF_SMAPS_ROLLUP || f->kind == KF_SMAPS ||
        f->kind == KF_STATUS || f->kind == KF_UNKNOWN)
        return COW_OK;
    COW_FAIL(f->e, COW_EUSAGE, "this is a %s file, not smaps/status: read it "
             "with parser procfs", kind_names[f->kind]);
    cow_err_at(f->e, f->srcname, line, 0);
    return f->e->code;
}

/* One non-blank line, right-trimmed. */
static int engine_line(engine *g, const cow_line *ln)
{
    kfile *f = &g->f;
    char path[KF_KEY_MAX];
    const char *why = NULL;
    int64_t t;
    int rc, st, bare_ok;

    if (procfs_section_header(ln->p, ln->n, path, sizeof(path)))
        return start_section(g, path);
    bare_ok = !one_value_kind(g->decided ? f->kind
                                         : procfs_kind_of_name(f->sect));
    st = procfs_stamp_line(ln->p, ln->n, bare_ok, &t, &why);
    if (st == -1)
        return kfile_reject(f, ln, why);
    if (st == 1) {
        if ((rc = smaps_flush(f)) != COW_OK)
            return rc;
        f->t_us = t;
        f->stamped = 1;
        g->time_src = 2;
        g->stamps++;
        return COW_OK;
    }
    if (ln->p[0] == '#') {
        f->comments++;
        return COW_OK;
    }
    if (!g->decided) {
        if ((rc = decide(g, ln)) != COW_OK)
            return rc;
        if ((rc = check_kind(g, ln->no)) != COW_OK)
            return rc;
    }
    return dispatch(f, ln);
}

static int engine_notes(engine *g)
{
    kfile *f = &g->f;
    char buf[512], iso[40];
    size_t i, l = 0;
    int rc;

    buf[0] = '\0';
    for (i = 2; i < sizeof(kind_names) / sizeof(kind_names[0]); i++)
        if (g->kinds & (1u << i))
            l += (size_t)snprintf(buf + l, sizeof(buf) - l, "%s%s",
                                  l ? ", " : "", kind_names[i]);
    if ((rc = sink_note(f->k, "kernel_file", buf, f->e)) != COW_OK)
        return rc;
    if (g->time_src == 2)
        snprintf(buf, sizeof(buf), "from %ld stamp line(s)", g->stamps);
    else if (g->time_src == 1) {
        time_format_iso(f->t_us, iso, sizeof(iso));
        snprintf(buf, sizeof(buf), "from the file name: %s", iso);
    } else
        snprintf(buf, sizeof(buf), "not placed in time: no stamp in the file "
                 "name (e.g. meminfo-<epoch_ms>.txt) and no '# t=<epoch>' line");
    if ((rc = sink_note(f->k, "snapshot_time", buf, f->e)) != COW_OK)
        return rc;
    if (f->comments > 0) {
        snprintf(buf, sizeof(buf), "%ld '#' line(s) ignored", f->comments);
        if ((rc = sink_note(f->k, "comment_lines", buf, f->e)) != COW_OK)
            return rc;
    }
    if (g->skipped[0] != '\0') {
        snprintf(buf, sizeof(buf), "%ld line(s) in sections not read: %s",
                 f->skipped, g->skipped);
        if ((rc = sink_note(f->k, "skipped_sections", buf, f->e)) != COW_OK)
            return rc;
    }
    return COW_OK;
}

static int engine_finish(engine *g, long lines)
{
    kfile *f = &g->f;
    int rc;

    if ((rc = smaps_flush(f)) != COW_OK)
        return rc;
    if (f->rows == 0 && f->rejects == 0) {
        COW_FAIL(f->e, COW_EPARSE, "no values found: the file is empty or "
                 "holds only comments and stamps%s", g->decided ? "" :
                 " (a file holding one number is read only when its name "
                 "says what it is, e.g. memory.current or overcommit_memory: "
                 "keep their name)");
        cow_err_at(f->e, f->srcname, lines, 0);
        return f->e->code;
    }
    if (parser_too_many_rejects(f->rows, f->rejects)) {
        COW_FAIL(f->e, COW_EPARSE, "%ld of %ld lines were not understood "
                 "(first at line %ld): is this really a %s file?", f->rejects,
                 f->rejects + f->rows, f->first_reject, kind_names[f->kind]);
        cow_err_at(f->e, f->srcname, f->first_reject, 0);
        return f->e->code;
    }
    return engine_notes(g);
}

int procfs_run(cow_src *s, const cow_parse_opts *o, cow_sink *k,
               int smaps_only, cow_err *e)
{
    engine *g = xcalloc(1, sizeof(*g));
    kfile *f = &g->f;
    cow_line ln;
    long lines = 0;
    int rc;

    f->k = k;
    f->e = e;
    f->srcname = s->name;
    f->fname = o && o->fname ? o->fname : base_of(s->name);
    /* a longer name keeps its first KF_KEY_MAX - 1 bytes */
    snprintf(f->sect, sizeof(f->sect), "%.*s", (int)sizeof(f->sect) - 1,
             f->fname);
    g->smaps_only = smaps_only;
    if (procfs_stamp_from_name(f->fname, &f->t_us))
        g->time_src = 1;
    while ((rc = src_next_line(s, &ln, e)) == 1) {
        lines = ln.no;
        while (ln.n > 0 && (ln.p[ln.n - 1] == ' ' || ln.p[ln.n - 1] == '\t'))
            ln.n--;
        if (ln.n == 0)
            continue;
        if ((rc = engine_line(g, &ln)) != COW_OK)
            break;
    }
    if (rc == 0)
        rc = engine_finish(g, lines);
    else if (rc == -1)
        rc = e->code;
    free(f->txt);
    free(g);
    return rc;
}

/* ============================================================== parser */

static int sniff_line(const char *fname, const char *p, size_t n)
{
    int score;
    enum kfile_kind kind = procfs_classify(fname, p, n, &score);

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
    int bare_ok = !one_value_kind(procfs_kind_of_name(fname));

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
        if (procfs_section_header(q, len, path, sizeof(path)))
            return procfs_kind_of_name(path) != KF_UNKNOWN ? 95 : 60;
        if (procfs_stamp_line(q, len, bare_ok, &t, &why) != 0 || q[0] == '#')
            continue;
        return sniff_line(fname, q, len);
    }
    return 0;
}

static int parse(cow_src *s, const cow_parse_opts *o, cow_sink *k, cow_err *e)
{
    return procfs_run(s, o, k, 0, e);
}

const cow_parser cow_parser_procfs = {
    "procfs",
    "/proc/meminfo, /proc/vmstat, cgroup memory files, THP sysfs files, "
    "sysctls (also bundled behind '== /path ==' headers)",
    sniff,
    parse,
};
