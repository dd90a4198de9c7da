/* smaps.c -- /proc/PID/smaps_rollup, /proc/PID/smaps and /proc/PID/status.
 * Exports cow_parser_smaps and the line handlers of smaps.h, which the
 * kernel-file engine (kfile.c) runs for it and for procfs.c; time stamps,
 * bundles and snapshot series are handled there.
 *
 * Records are COW_REC_STAT at the snapshot time:
 *
 *   source        key                     num / unit
 *   smaps_rollup  each field: "Rss",      kB -> bytes, unit "bytes";
 *                 "AnonHugePages" ...     unitless fields raw, unit NULL
 *   smaps         each field summed over  as above; "THPeligible" sums to
 *                 the mappings of one     the number of eligible mappings;
 *                 snapshot                ProtectionKey is an id, not summed
 *   smaps         "mappings"              number of mappings
 *   smaps         "VmFlags:hg", "VmFlags: mappings with MADV_HUGEPAGE /
 *                 nh"                     MADV_NOHUGEPAGE
 *   smaps         "AnonHugePages_anon_rw" AnonHugePages over private
 *                                         writable anonymous mappings (rw-p
 *                                         without a file, [heap], [anon:..])
 *                                         -- the heap THP really backs
 *   status        every field: "VmRSS",   kB -> bytes; an integer -> num;
 *                 "VmHWM", "RssAnon",     anything else ("S (sleeping)")
 *                 "THP_enabled" ...       text only, num NAN
 *
 * Field names are keys, never positions (kernels reorder them). A summed
 * smaps snapshot is emitted at its end: a stamp line, a mapping whose start
 * address goes back (a second snapshot), a bundle section or end of file;
 * its records carry the line of the snapshot's first mapping header. */
#include "smaps.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "formats.h"
#include "limits.h"
#include "num.h"

/* Start address, and whether the mapping is private writable anonymous
 * memory (rw-p; no file, [heap] or [anon:name]). The header is valid. */
static uint64_t header_start(const char *p, size_t n, int *anon_rw)
{
    uint64_t v = 0;
    size_t i, field = 0;

    for (i = 0; i < n && p[i] != '-'; i++)
        v = v * 16 + (uint64_t)(isdigit((unsigned char)p[i]) ? p[i] - '0'
                                                             : p[i] - 'a' + 10);
    /* skip start-end, perms, offset, dev, inode */
    for (i = 0; i < n && field < 5; field++) {
        while (i < n && p[i] != ' ')
            i++;
        while (i < n && p[i] == ' ')
            i++;
    }
    *anon_rw = memcmp((const char *)memchr(p, ' ', n) + 1, "rw-p", 4) == 0 &&
               (i >= n || (n - i == 6 && memcmp(p + i, "[heap]", 6) == 0) ||
                (n - i > 6 && memcmp(p + i, "[anon:", 6) == 0));
    return v;
}

/* ================================================================ sums */

static smaps_sum *sum_slot(kfile *f, const char *k, size_t n)
{
    int i;
    for (i = 0; i < f->nsums; i++)
        if (strlen(f->sums[i].name) == n && memcmp(f->sums[i].name, k, n) == 0)
            return &f->sums[i];
    if (f->nsums == KF_SMAPS_MAX_FIELDS || n >= KF_SMAPS_NAME_MAX)
        return NULL;
    memcpy(f->sums[f->nsums].name, k, n);
    f->sums[f->nsums].name[n] = '\0';
    f->sums[f->nsums].kb = 0;
    f->sums[f->nsums].has_kb = -1;
    return &f->sums[f->nsums++];
}

static int emit_sum(kfile *f, const char *key, double v, int kb)
{
    char txt[64];
    snprintf(txt, sizeof(txt), kb ? "%.0f kB" : "%.0f", v);
    return kfile_stat(f, "smaps", key, txt, strlen(txt),
                      kb ? v * 1024.0 : v, kb ? "bytes" : NULL, f->snap_line);
}

int smaps_flush(kfile *f)
{
    int i, rc = COW_OK;

    if (f->kind != KF_SMAPS || f->mappings == 0)
        return COW_OK;
    for (i = 0; i < f->nsums && rc == COW_OK; i++)
        rc = emit_sum(f, f->sums[i].name, f->sums[i].kb, f->sums[i].has_kb == 1);
    if (rc == COW_OK)
        rc = emit_sum(f, "mappings", (double)f->mappings, 0);
    if (rc == COW_OK)
        rc = emit_sum(f, "VmFlags:hg", (double)f->hg, 0);
    if (rc == COW_OK)
        rc = emit_sum(f, "VmFlags:nh", (double)f->nh, 0);
    if (rc == COW_OK)
        rc = emit_sum(f, "AnonHugePages_anon_rw", f->ahp_anon_rw_kb, 1);
    f->nsums = 0;
    f->mappings = f->hg = f->nh = 0;
    f->ahp_anon_rw_kb = 0;
    f->map_open = 0;
    return rc;
}

/* ============================================================ handlers */

static int header(kfile *f, const cow_line *ln)
{
    int rollup = ln->n >= 8 && memcmp(ln->p + ln->n - 8, "[rollup]", 8) == 0;
    int anon_rw, rc;
    uint64_t start;

    if (f->kind == KF_SMAPS_ROLLUP) {
        if (!rollup)
            return kfile_reject(f, ln, "a per-mapping header inside "
                                       "smaps_rollup (expected '[rollup]')");
        f->header_snaps = 1;
        f->rows++;
        return kfile_snapshot(f, ln->no, "smaps_rollup");
    }
    if (rollup)
        return kfile_reject(f, ln, "a '[rollup]' header inside a full smaps "
                                   "file: split smaps and smaps_rollup");
    start = header_start(ln->p, ln->n, &anon_rw);
    if (f->mappings > 0 && start < f->last_start &&
        (rc = smaps_flush(f)) != COW_OK)
        return rc;
    if (f->mappings == 0 && (rc = kfile_snapshot(f, ln->no, "smaps")) != COW_OK)
        return rc;
    f->mappings++;
    f->map_open = 1;
    f->cur_anon_rw = anon_rw;
    f->last_start = start;
    f->rows++;
    return COW_OK;
}

static void vmflags(kfile *f, const char *p, size_t n)
{
    size_t i;
    for (i = 0; i + 1 < n; i++)
        if ((i == 0 || p[i - 1] == ' ') && (i + 2 == n || p[i + 2] == ' ')) {
            f->hg += p[i] == 'h' && p[i + 1] == 'g';
            f->nh += p[i] == 'n' && p[i + 1] == 'h';
        }
}

static int field(kfile *f, const cow_line *ln)
{
    const char *k, *v;
    size_t nk, nv;
    int kb;
    int64_t iv;
    smaps_sum *s;

    if (!f->map_open)
        return kfile_reject(f, ln, "smaps field before any mapping header");
    if (!kfile_split_colon(ln->p, ln->n, &k, &nk, &v, &nv, &kb))
        return kfile_reject(f, ln, "expected a mapping header or 'Field:  value kB'");
    if (nk == 7 && memcmp(k, "VmFlags", 7) == 0) {
        vmflags(f, v, nv);
        f->rows++;
        return COW_OK;
    }
    if (nk == 13 && memcmp(k, "ProtectionKey", 13) == 0) {
        f->rows++;
        return COW_OK;  /* an id: a sum would mean nothing */
    }
    if (!num_parse_i64(v, nv, &iv) || iv < 0)
        return kfile_reject(f, ln, "smaps value is not a count");
    if (kb && (double)iv * 1024.0 > COW_MAX_MEM_BYTES)
        return kfile_reject(f, ln, "memory beyond 2^50 bytes (1 PiB): not a "
                                   "real process");
    if (!kb && !(nk == 11 && memcmp(k, "THPeligible", 11) == 0))
        return kfile_reject(f, ln, ln->eol ? "value without its ' kB' unit"
                                           : "last line cut short (no ' kB')");
    if ((s = sum_slot(f, k, nk)) == NULL)
        return kfile_reject(f, ln, nk >= KF_SMAPS_NAME_MAX
                                       ? "smaps field name too long: is this really smaps?"
                                       : "too many distinct smaps field names: is "
                                         "this really smaps?");
    f->rows++;
    s->kb += (double)iv;
    if (s->has_kb < 0)
        s->has_kb = kb;
    if (f->cur_anon_rw && nk == 13 && memcmp(k, "AnonHugePages", 13) == 0)
        f->ahp_anon_rw_kb += (double)iv;
    return COW_OK;
}

/* /proc/PID/ksm_stat lines appended to a snapshot (Linux 6.1+:
 * "ksm_rmap_items 0", "ksm_merge_any: no"), and any other ksm_* counter:
 * stored as "ksm" stats, a count or the text as written. */
static bool ksm_line(kfile *f, const cow_line *ln, int *rc)
{
    const char *v;
    size_t nk = 0, nv;
    int64_t iv;
    char key[64];

    if (ln->n < 5 || memcmp(ln->p, "ksm_", 4) != 0)
        return false;
    while (nk < ln->n && nk + 1 < sizeof(key) && ln->p[nk] != ':' &&
           ln->p[nk] != ' ' && ln->p[nk] != '\t')
        nk++;
    memcpy(key, ln->p, nk);
    key[nk] = '\0';
    v = ln->p + nk + (nk < ln->n && ln->p[nk] == ':');
    nv = ln->n - (size_t)(v - ln->p);
    while (nv > 0 && (*v == ' ' || *v == '\t'))
        v++, nv--;
    while (nv > 0 && (v[nv - 1] == ' ' || v[nv - 1] == '\r'))
        nv--;
    if (nv == 0) {
        *rc = kfile_reject(f, ln, "KSM field without a value");
        return true;
    }
    f->rows++;
    *rc = kfile_stat(f, "ksm", key, v, nv,
                     num_parse_i64(v, nv, &iv) ? (double)iv : NAN,
                     nv > 3 && memcmp(v + nv - 3, " kB", 3) == 0 ? "bytes" : NULL,
                     ln->no);
    return true;
}

int smaps_line(kfile *f, const cow_line *ln)
{
    int rc;

    if (ksm_line(f, ln, &rc))
        return rc;
    if (f->kind == KF_STATUS)
        return kfile_colon_line(f, ln, "status", 1);
    if (kfile_is_smaps_header(ln->p, ln->n))
        return header(f, ln);
    if (f->kind == KF_SMAPS_ROLLUP)
        return kfile_colon_line(f, ln, "smaps_rollup", 0);
    return field(f, ln);
}

/* ============================================================== parser */

/* Next non-blank line after p (for telling smaps from /proc/PID/maps). */
static bool next_is_field(const char *p, const char *end)
{
    const char *k, *v;
    size_t nk, nv;
    int kb;
    const char *nl;

    while (p < end && (*p == '\n' || *p == '\r'))
        p++;
    nl = memchr(p, '\n', (size_t)(end - p));
    if (nl == NULL)
        return false;  /* cut: be conservative */
    return kfile_split_colon(p, (size_t)(nl - p), &k, &nk, &v, &nv, &kb) &&
           kfile_is_smaps_field(k, nk);
}

static int sniff(const char *fname, const char *head, size_t n)
{
    const char *p = head, *end = head + n, *why;
    char path[KF_KEY_MAX];
    int64_t t;
    int score;

    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p)), *q = p;
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        enum kfile_kind kind;
        while (len > 0 && (q[len - 1] == '\r' || q[len - 1] == ' '))
            len--;
        p = nl ? nl + 1 : end;
        if (len == 0 || kfile_stamp_line(q, len, 1, &t, &why) != 0 ||
            q[0] == '#')
            continue;
        if (kfile_section_header(q, len, path, sizeof(path)))
            return 0;  /* bundles belong to "procfs" */
        kind = kfile_classify(fname, q, len, &score);
        if (kind == KF_SMAPS && !next_is_field(p, end))
            return 0;  /* /proc/PID/maps has headers only */
        return kind == KF_SMAPS_ROLLUP || kind == KF_SMAPS ||
               kind == KF_STATUS ? score : 0;
    }
    return 0;
}

static int parse(cow_src *s, const cow_parse_opts *o, cow_sink *k, cow_err *e)
{
    static const kfile_ops ops = {smaps_line, smaps_flush};
    return kfile_run(s, o, k, &ops, 1, e);
}

const cow_parser cow_parser_smaps = {
    "smaps",
    "/proc/PID/smaps_rollup, /proc/PID/smaps (summed) and /proc/PID/status",
    sniff,
    parse,
};
