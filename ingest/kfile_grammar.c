/* kfile_grammar.c -- what the kernel-file engine (kfile.h, kfile.c) reads
 * in a name and a line, with no state: which file a name denotes, the
 * grammar of the lines (THP choice, sysctl, key-value, colon lines, smaps
 * fields and headers, loadavg), what kind a first line makes a file, and
 * snapshot stamps in names and lines. */
#include "kfile.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "limits.h"
#include "num.h"
#include "timeconv.h"

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

const char *kfile_base_of(const char *path)
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
int kfile_known_index(const char *path)
{
    const char *b = kfile_base_of(path);
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
    const char *b = kfile_base_of(name);
    if (strstr(name, "transparent_hugepage") != NULL)
        return true;
    return (strstr(b, "thp") != NULL || strstr(b, "hugepage") != NULL) &&
           (strstr(b, "enabled") != NULL || strstr(b, "defrag") != NULL);
}

enum kfile_kind kfile_kind_of_name(const char *name)
{
    int i;

    if (name == NULL || *name == '\0')
        return KF_UNKNOWN;
    if (strstr(name, "/proc/sys/") != NULL)
        return KF_SYSCTL_FILE;
    if (is_thp_path(name))
        return KF_THP;
    i = kfile_known_index(name);
    return i < 0 ? KF_UNKNOWN : known[i].kind;
}

/* Sysctl key for a one-value file: from a /proc/sys path, a dotted name,
 * or the table. false when the name says nothing. */
bool kfile_sysctl_key_of(const char *name, char *out, size_t cap)
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
    if (name == NULL || (k = kfile_known_index(name)) < 0 || !known[k].prefix)
        return false;
    /* "overcommit_memory" and "vm.overcommit_memory.txt" alike */
    snprintf(out, cap, "%s%s", known[k].prefix, known[k].name);
    return true;
}

const char *kfile_known_name(int i)
{
    return known[i].name;
}

/* ============================================================ grammars */

static bool is_word_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '(' || c == ')';
}

/* "always [madvise] never": choices separated by single blanks, exactly
 * one in brackets. The choice goes to *c / *nc. */
bool kfile_thp_choice(const char *p, size_t n, const char **c, size_t *nc)
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
bool kfile_sysctl_split(const char *p, size_t n, size_t *nk, const char **v,
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
bool kfile_keyval_split(const char *p, size_t n, size_t *nk, int64_t *v)
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
    enum kfile_kind nk_kind = kfile_kind_of_name(name);

    if (!kfile_split_colon(p, n, &k, &nk, &v, &nv, &kb))
        return KF_UNKNOWN;
    if (nk == 4 && memcmp(k, "Name", 4) == 0 && n > 5 && p[5] == '\t')
        return *score = 90, KF_STATUS;
    if (nk_kind == KF_SMAPS)  /* no header: a grep of the fields */
        nk_kind = KF_SMAPS_ROLLUP;
    /* the name helps only when the line fits it ("status" names many
     * things; INFO's "role:master" is not /proc/PID/status) */
    if ((nk_kind == KF_SMAPS_ROLLUP && kfile_is_smaps_field(k, nk)) ||
        (nk_kind == KF_STATUS && is_status_key(k, nk)) ||
        (nk_kind == KF_MEMINFO && (kb || is_meminfo_key(k, nk))))
        return *score = 80, nk_kind;
    if (nk == 8 && memcmp(k, "MemTotal", 8) == 0)
        return *score = 95, KF_MEMINFO;
    if (is_meminfo_key(k, nk) && !kfile_is_smaps_field(k, nk))
        return *score = 70, KF_MEMINFO;
    if (kfile_is_smaps_field(k, nk) && kb)
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
    enum kfile_kind nk_kind = kfile_kind_of_name(name);

    if (!kfile_keyval_split(p, n, &nk, &v))
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
bool kfile_loadavg_split(const char *p, size_t n, double v[6])
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

enum kfile_kind kfile_classify(const char *name, const char *p, size_t n,
                                int *score)
{
    double la[6];
    enum kfile_kind nk_kind = kfile_kind_of_name(name), kind;
    const char *c, *v;
    size_t nc, nk, nv;
    int64_t iv;

    *score = 0;
    if (kfile_is_smaps_header(p, n)) {
        *score = 90;
        return n >= 8 && memcmp(p + n - 8, "[rollup]", 8) == 0
                   ? KF_SMAPS_ROLLUP : KF_SMAPS;
    }
    if (kfile_thp_choice(p, n, &c, &nc))
        return *score = 95, KF_THP;
    if (kfile_loadavg_split(p, n, la))
        return *score = 90, KF_LOADAVG;
    if (kfile_sysctl_split(p, n, &nk, &v, &nv))
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

bool kfile_section_header(const char *p, size_t n, char *path, size_t cap)
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
    return path[0] == '/' || kfile_kind_of_name(path) != KF_UNKNOWN;
}

/* ================================================================ time */

static bool in_range(double s)
{
    return s >= (double)COW_EPOCH_MIN_S && s < (double)COW_EPOCH_MAX_S;
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

bool kfile_stamp_from_name(const char *name, int64_t *us)
{
    size_t n, i;

    if (name == NULL)
        return false;
    name = kfile_base_of(name);
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
            if (F > 0 && F <= 6 && time_parse_epoch(name + i, L + 1 + F, us))
                return true;
            if (time_parse_epoch(name + i, L, us))
                return true;
        }
    }
    return false;
}

static bool stamp_value(const char *p, size_t n, int64_t *us)
{
    num_trim(&p, &n);
    return time_parse_epoch(p, n, us) || time_parse_iso8601(p, n, us);
}

int kfile_stamp_line(const char *p, size_t n, int bare_ok, int64_t *us,
                      const char **why)
{
    static const char *const words[] = {"timestamp", "time", "ts", "t",
                                        "epoch", "date", "at", NULL};
    size_t i = 1, w;

    if (n > 0 && p[0] != '#')
        return (time_parse_iso8601(p, n, us) ||
                (bare_ok && time_parse_epoch(p, n, us))) ? 1 : 0;
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

/* ======================================================= smaps grammar */

static const char *const fields[] = {
    "Size", "KernelPageSize", "MMUPageSize", "Rss", "Pss", "Pss_Dirty",
    "Pss_Anon", "Pss_File", "Pss_Shmem", "Shared_Clean", "Shared_Dirty",
    "Private_Clean", "Private_Dirty", "Referenced", "Anonymous", "KSM",
    "LazyFree", "AnonHugePages", "ShmemPmdMapped", "FilePmdMapped",
    "Shared_Hugetlb", "Private_Hugetlb", "Swap", "SwapPss", "Locked",
    "THPeligible", "ProtectionKey", "VmFlags", NULL};

bool kfile_is_smaps_field(const char *key, size_t n)
{
    size_t i;
    for (i = 0; fields[i]; i++)
        if (strlen(fields[i]) == n && memcmp(fields[i], key, n) == 0)
            return true;
    return false;
}

/* Length of a run of lowercase hex digits at p. */
static size_t hexrun(const char *p, size_t n)
{
    size_t i = 0;
    while (i < n && (isdigit((unsigned char)p[i]) || (p[i] >= 'a' && p[i] <= 'f')))
        i++;
    return i;
}

/* "start-end perms ..." with perms [r-][w-][x-][ps]. */
bool kfile_is_smaps_header(const char *p, size_t n)
{
    size_t a = hexrun(p, n), b;
    const char *q;

    if (a == 0 || a >= n || p[a] != '-')
        return false;
    b = hexrun(p + a + 1, n - a - 1);
    if (b == 0 || a + 1 + b + 5 > n || p[a + 1 + b] != ' ')
        return false;
    q = p + a + 1 + b + 1;
    return (q[0] == 'r' || q[0] == '-') && (q[1] == 'w' || q[1] == '-') &&
           (q[2] == 'x' || q[2] == '-') && (q[3] == 'p' || q[3] == 's') &&
           (a + 1 + b + 5 == n || q[4] == ' ');
}
