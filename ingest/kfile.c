/* kfile.c -- the kernel-file engine (kfile.h) that the "procfs" and
 * "smaps" parsers run: the records, and the loop that reads lines, keeps
 * the snapshot time, splits bundles into sections and hands each line to
 * the parser's handlers (kfile_ops). What kind of file a name and a first
 * line denote, the grammar the lines share and snapshot stamps are
 * kfile_grammar.c's. It
 * calls neither parser: procfs.c and smaps.c call it. What the files hold
 * and the records they give: procfs.c and smaps.c. */
#include "kfile.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "limits.h"
#include "mem.h"
#include "num.h"
#include "timeconv.h"

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
        return kfile_snapshot(f, line, f->sect[0] ? kfile_base_of(f->sect) : "file");
    }
    if (strlen(f->first_key) == n && memcmp(f->first_key, k, n) == 0)
        return kfile_snapshot(f, line, kfile_base_of(f->sect));
    return COW_OK;
}

/* Copy p[0..n) into a key buffer: false (too long) is the caller's reject. */
bool kfile_keycopy(char *dst, size_t cap, const char *pre, const char *p,
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

/* ======================================================== colon lines */

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
    if (!kfile_keycopy(key, sizeof(key), "", k, nk))
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

/* ============================================================== engine */

static const char *const kind_names[] = {
    "unknown", "bundle", "smaps_rollup", "smaps", "status", "meminfo",
    "vmstat", "cgroup one-value file", "cgroup memory.stat",
    "cgroup memory.events", "thp", "sysctl file", "sysctl list", "loadavg"};

/* Engine state around the kfile: what the notes will say. */
typedef struct engine {
    kfile f;              /* shared with the line handlers */
    const kfile_ops *ops; /* the parser's line handlers */
    int smaps_only;       /* parser "smaps": refuse other kinds */
    int decided;          /* the current section's kind is settled */
    int time_src;         /* 0 none, 1 file name, 2 stamp lines */
    long stamps;          /* stamp lines read */
    unsigned kinds;       /* bit per enum kfile_kind seen */
    char skipped[256];    /* sections we do not read, for the note */
} engine;

bool kfile_one_value_kind(enum kfile_kind k)
{
    return k == KF_CG_SINGLE || k == KF_SYSCTL_FILE || k == KF_THP;
}

static int start_section(engine *g, const char *path)
{
    kfile *f = &g->f;
    int rc = g->ops->flush(f);

    if (rc != COW_OK)
        return rc;
    snprintf(f->sect, sizeof(f->sect), "%s", path);
    f->kind = kfile_kind_of_name(path);
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

    f->kind = kfile_classify(f->sect, ln->p, ln->n, &score);
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

    if (kfile_section_header(ln->p, ln->n, path, sizeof(path)))
        return start_section(g, path);
    bare_ok = !kfile_one_value_kind(g->decided ? f->kind
                                         : kfile_kind_of_name(f->sect));
    st = kfile_stamp_line(ln->p, ln->n, bare_ok, &t, &why);
    if (st == -1)
        return kfile_reject(f, ln, why);
    if (st == 1) {
        if ((rc = g->ops->flush(f)) != COW_OK)
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
    return g->ops->line(f, ln);
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

    if ((rc = g->ops->flush(f)) != COW_OK)
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

int kfile_run(cow_src *s, const cow_parse_opts *o, cow_sink *k,
              const kfile_ops *ops, int smaps_only, cow_err *e)
{
    engine *g = xcalloc(1, sizeof(*g));
    kfile *f = &g->f;
    cow_line ln;
    long lines = 0;
    int rc;

    f->k = k;
    f->e = e;
    f->srcname = s->name;
    f->fname = o && o->fname ? o->fname : kfile_base_of(s->name);
    /* a longer name keeps its first KF_KEY_MAX - 1 bytes */
    snprintf(f->sect, sizeof(f->sect), "%.*s", (int)sizeof(f->sect) - 1,
             f->fname);
    g->ops = ops;
    g->smaps_only = smaps_only;
    if (kfile_stamp_from_name(f->fname, &f->t_us))
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
