/* fuzz_parser.c -- LLVMFuzzerTestOneInput over every parser (see fuzz.h).
 *
 * One target for all formats, looping over parser_list(), so a parser
 * added to ingest/detect.c is fuzzed and replayed without touching this
 * file. libFuzzer runs one parser per process ($COW_FUZZ_PARSER, or
 * -DCOW_FUZZ_PARSER=name at compile time) so coverage feedback stays on
 * that parser; the replay runs all of them on every corpus file.
 * $COW_FUZZ_SKIP=text lets fuzzing go on past a known, open invariant bug
 * whose message contains text (see fz_die).
 *
 * Invariants (a parser that breaks one is wrong even if it does not crash):
 *   1. sniff scores are 0..100; parser_detect returns NULL or a table row.
 *   2. strings that rec.h does not call optional are non-NULL and
 *      NUL-terminated (strlen runs over them, so ASan sees a bad pointer).
 *   3. line fields are within the input: rejects 1..lines, others 0..lines.
 *   4. t_us is 0 or within 1990..2100 (COW_EPOCH_MIN_S..MAX_S).
 *   5. latencies and sizes are finite and >= 0 (NAN only where rec.h says
 *      "NAN if none", and in interval min/avg/max, which memtier.c leaves
 *      NAN when a run printed none); quantiles are 0..100; counts >= 0.
 *   6. parse returns COW_OK or an error code with e filled: same code, a
 *      message, the path, and a line within 0..lines+1.
 *   7. when the sink fails, the parser stops emitting and returns the
 *      sink's code (sink.h: "a parser stops at the first sink error"). */
#include "fuzz.h"
#include "fuzz_meta.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parser.h"
#include "timeconv.h"

const char *cow_fuzz_input_name = "(libFuzzer input)";

/* Plausible file names: several parsers read a kind or a stamp from the
 * name (procfs "memory.current", info "info-<ms>.txt", memtier
 * "_FULL_RUN_1.hgrm"), and the full-options pass picks the one the parser
 * under test likes best for this input. */
static const char *const fz_names[] = {
    "latency.csv", "probe.jsonl", "latency.tsv", "redis.log", "valkey.log",
    "smaps", "smaps_rollup", "redis_smaps_rollup-1796026504754.txt",
    "meminfo", "meminfo.1796026520", "vmstat", "status", "sysctl.txt",
    "memory.current", "memory.peak", "memory.max", "memory.stat",
    "memory.events", "memory.limit_in_bytes", "memory.usage_in_bytes",
    "enabled", "defrag", "overcommit_memory", "rss.csv", "mem.csv",
    "info.txt", "info-1796026562885.txt", "config-get-all.txt",
    "latency-history-fork.txt", "latency-latest.txt", "latency-doctor.txt",
    "latency-history.txt", "cli-latency.txt", "rbench.csv", "rbench.txt",
    "memtier.json", "memtier_FULL_RUN_1.hgrm", "out_command_run_2_SET.hgrm",
    "hdr.hgrm", "capture.txt",
};
#define FZ_NNAMES (sizeof(fz_names) / sizeof(fz_names[0]))

/* What one parse pass knows while checking records. */
typedef struct fz_pass {
    const cow_parser *p;   /* parser under test */
    const char *what;      /* "empty opts", "full opts", "failing sink" */
    long nlines;           /* lines in the input, as src_next_line counts */
    size_t nrecs;          /* records seen so far */
    long long fail_at;     /* record index at which the sink fails, -1 never */
    int failed;            /* the sink has failed once */
} fz_pass;

static void fz_die(const fz_pass *f, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Report a broken invariant and abort, unless $COW_FUZZ_SKIP (a substring
 * of the message, e.g. "event.t_us") says to keep going past a bug that is
 * known and open, so that fuzzing can find the next one. */
static void fz_die(const fz_pass *f, int line, const char *fmt, ...)
{
    const char *skip = getenv("COW_FUZZ_SKIP");
    char msg[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (skip != NULL && skip[0] != '\0' && strstr(msg, skip) != NULL)
        return;
    fprintf(stderr, "fuzz_parser.c:%d: invariant broken: parser %s (%s), "
            "record %zu, input %s: %s\n", line, f && f->p ? f->p->name : "-",
            f ? f->what : "-", f ? f->nrecs : 0, cow_fuzz_input_name, msg);
    abort();
}

#define FZ_CHECK(f, cond, ...) \
    do { if (!(cond)) fz_die((f), __LINE__, __VA_ARGS__); } while (0)

/* Invariant 2: a required string; strlen touches every byte. */
static void fz_str(const fz_pass *f, const char *s, const char *field)
{
    FZ_CHECK(f, s != NULL, "%s is NULL", field);
    if (s != NULL)
        FZ_CHECK(f, strlen(s) < COW_MAX_LINE_BYTES + 1024u, "%s is implausibly long", field);
}

static void fz_str_opt(const fz_pass *f, const char *s, const char *field)
{
    if (s != NULL)
        fz_str(f, s, field);
}

/* Invariant 4. */
static void fz_time(const fz_pass *f, int64_t t_us, const char *field)
{
    FZ_CHECK(f, t_us == 0 || (t_us >= COW_EPOCH_MIN_S * COW_US_PER_S &&
                              t_us <= COW_EPOCH_MAX_S * COW_US_PER_S),
             "%s = %lld is neither 0 nor within 1990..2100", field, (long long)t_us);
}

/* Invariant 5: a non-negative finite figure; nan_ok when "NAN if none". */
static void fz_pos(const fz_pass *f, double v, int nan_ok, const char *field)
{
    if (nan_ok && isnan(v))
        return;
    FZ_CHECK(f, isfinite(v) && v >= 0, "%s = %g is not finite and >= 0", field, v);
}

/* Invariant 3. */
static void fz_line(const fz_pass *f, long line, long min, const char *field)
{
    FZ_CHECK(f, line >= min && line <= f->nlines, "%s = %ld outside %ld..%ld",
             field, line, min, f->nlines);
}

static void fz_check_sample(const fz_pass *f, const cow_sample *s)
{
    fz_time(f, s->t_us, "sample.t_us");
    fz_pos(f, s->lat_us, 0, "sample.lat_us");
    fz_str_opt(f, s->op, "sample.op");
}

static void fz_check_rec(const fz_pass *f, const cow_rec *r)
{
    switch ((enum cow_rec_kind)r->kind) {
    case COW_REC_SAMPLE:
        fz_check_sample(f, &r->u.sample);
        break;
    case COW_REC_EVENT:
        fz_time(f, r->u.event.t_us, "event.t_us");
        fz_str(f, r->u.event.kind, "event.kind");
        FZ_CHECK(f, r->u.event.pid >= 0, "event.pid = %ld", r->u.event.pid);
        FZ_CHECK(f, !isinf(r->u.event.value), "event.value is infinite");
        fz_str_opt(f, r->u.event.unit, "event.unit");
        fz_str_opt(f, r->u.event.text, "event.text");
        fz_line(f, r->u.event.line, 0, "event.line");
        break;
    case COW_REC_INFO:
        fz_time(f, r->u.info.t_us, "info.t_us");
        FZ_CHECK(f, r->u.info.dump >= 0, "info.dump = %d", r->u.info.dump);
        fz_str_opt(f, r->u.info.section, "info.section");
        fz_str(f, r->u.info.key, "info.key");
        fz_str_opt(f, r->u.info.sub, "info.sub");
        fz_str(f, r->u.info.text, "info.text");
        FZ_CHECK(f, !isinf(r->u.info.num), "info.num is infinite");
        fz_line(f, r->u.info.line, 0, "info.line");
        break;
    case COW_REC_STAT:
        fz_time(f, r->u.stat.t_us, "stat.t_us");
        fz_str(f, r->u.stat.source, "stat.source");
        fz_str(f, r->u.stat.key, "stat.key");
        fz_str_opt(f, r->u.stat.text, "stat.text");
        FZ_CHECK(f, !isinf(r->u.stat.num), "stat.num is infinite");
        fz_str_opt(f, r->u.stat.unit, "stat.unit");
        fz_line(f, r->u.stat.line, 0, "stat.line");
        break;
    case COW_REC_MEM:
        fz_time(f, r->u.mem.t_us, "mem.t_us");
        fz_pos(f, r->u.mem.bytes, 0, "mem.bytes");
        fz_str(f, r->u.mem.what, "mem.what");
        break;
    case COW_REC_LATMON:
        fz_time(f, r->u.latmon.t_us, "latmon.t_us");
        fz_str(f, r->u.latmon.kind, "latmon.kind");
        fz_str_opt(f, r->u.latmon.event, "latmon.event");
        fz_pos(f, r->u.latmon.lat_ms, 1, "latmon.lat_ms");
        fz_pos(f, r->u.latmon.max_ms, 1, "latmon.max_ms");
        fz_str_opt(f, r->u.latmon.text, "latmon.text");
        fz_line(f, r->u.latmon.line, 0, "latmon.line");
        break;
    case COW_REC_INTERVAL:
        fz_time(f, r->u.interval.t_us, "interval.t_us");
        fz_pos(f, r->u.interval.dur_s, 0, "interval.dur_s");
        /* memtier.c: NAN when the run printed no latency (rec.h is silent) */
        fz_pos(f, r->u.interval.min_us, 1, "interval.min_us");
        fz_pos(f, r->u.interval.max_us, 1, "interval.max_us");
        fz_pos(f, r->u.interval.avg_us, 1, "interval.avg_us");
        FZ_CHECK(f, r->u.interval.count >= 0, "interval.count < 0");
        fz_str_opt(f, r->u.interval.op, "interval.op");
        fz_line(f, r->u.interval.line, 0, "interval.line");
        break;
    case COW_REC_PCTL:
        fz_str(f, r->u.pctl.source, "pctl.source");
        fz_str_opt(f, r->u.pctl.op, "pctl.op");
        fz_time(f, r->u.pctl.t_us, "pctl.t_us");
        FZ_CHECK(f, r->u.pctl.q >= 0 && r->u.pctl.q <= 100, "pctl.q = %g", r->u.pctl.q);
        fz_pos(f, r->u.pctl.value_us, 0, "pctl.value_us");
        FZ_CHECK(f, r->u.pctl.count >= 0, "pctl.count < 0");
        fz_line(f, r->u.pctl.line, 0, "pctl.line");
        break;
    case COW_REC_REJECT: {
        size_t i;
        unsigned sum = 0;
        fz_line(f, r->u.reject.line, 1, "reject.line");
        fz_str(f, r->u.reject.reason, "reject.reason");
        FZ_CHECK(f, r->u.reject.reason == NULL || r->u.reject.reason[0] != '\0',
                 "reject.reason is empty");
        FZ_CHECK(f, r->u.reject.n == 0 || r->u.reject.text != NULL,
                 "reject.text is NULL with n = %zu", r->u.reject.n);
        for (i = 0; r->u.reject.text && i < r->u.reject.n; i++) /* ASan: text[0..n) is readable */
            sum += (unsigned char)r->u.reject.text[i];
        FZ_CHECK(f, sum != ~0u, "unreachable");
        break;
    }
    case COW_REC_NOTE:
        fz_str(f, r->u.note.key, "note.key");
        fz_str(f, r->u.note.value, "note.value");
        break;
    case COW_REC_QUIET:
        fz_str(f, r->u.quiet.kind, "quiet.kind");
        fz_time(f, r->u.quiet.t_us, "quiet.t_us");
        FZ_CHECK(f, r->u.quiet.dur_us >= 0, "quiet.dur_us < 0");
        FZ_CHECK(f, r->u.quiet.n >= 0, "quiet.n < 0");
        fz_str_opt(f, r->u.quiet.how, "quiet.how");
        fz_line(f, r->u.quiet.line, 1, "quiet.line");
        break;
    case COW_REC_PROC:
        FZ_CHECK(f, r->u.proc.pid > 0, "proc.pid %ld", r->u.proc.pid);
        fz_str_opt(f, r->u.proc.roles, "proc.roles");
        fz_str_opt(f, r->u.proc.version, "proc.version");
        FZ_CHECK(f, r->u.proc.port >= 0 && r->u.proc.port < 65536, "proc.port %ld",
                 r->u.proc.port);
        fz_line(f, r->u.proc.line, 0, "proc.line");
        break;
    default:
        fz_die(f, __LINE__, "unknown record kind %d", r->kind);
    }
}

/* Invariant 7: count the record, and fail at f->fail_at. */
static int fz_take(fz_pass *f, cow_err *e)
{
    FZ_CHECK(f, !f->failed, "record emitted after the sink failed");
    if (f->fail_at >= 0 && (long long)f->nrecs == f->fail_at) {
        f->failed = 1;
        return COW_FAIL(e, COW_ESQL, "fuzz: the sink refuses record %zu", f->nrecs);
    }
    f->nrecs++;
    return COW_OK;
}

static int fz_emit(void *ctx, const cow_rec *r, cow_err *e)
{
    fz_pass *f = ctx;
    fz_check_rec(f, r);
    return fz_take(f, e);
}

static int fz_emit_samples(void *ctx, const cow_sample *s, size_t n, cow_err *e)
{
    fz_pass *f = ctx;
    size_t i;
    int rc;

    FZ_CHECK(f, n == 0 || s != NULL, "sample batch of %zu at NULL", n);
    for (i = 0; i < n; i++) {
        fz_check_sample(f, &s[i]);
        if ((rc = fz_take(f, e)) != COW_OK)
            return rc;
    }
    return COW_OK;
}

static long fz_count_lines(const uint8_t *data, size_t size)
{
    cow_err e = COW_ERR_INIT;
    cow_line ln;
    cow_src s;
    long n = 0;

    src_open_mem(&s, "count", data, size);
    while (src_next_line(&s, &ln, &e) == 1)
        n = ln.no;
    src_close(&s);
    return n;
}

static uint64_t fz_hash(const uint8_t *data, size_t size)
{
    uint64_t h = 1469598103934665603u; /* FNV-1a */
    size_t i;
    for (i = 0; i < size; i++)
        h = (h ^ data[i]) * 1099511628211u;
    return h;
}

/* One parse; returns how many records the sink took. */
static size_t fz_parse(fz_pass *f, const cow_parse_opts *o, int batch,
                       const uint8_t *data, size_t size)
{
    cow_err e = COW_ERR_INIT;
    cow_sink k;
    cow_src s;
    int rc;

    k.emit = fz_emit;
    k.emit_samples = batch ? fz_emit_samples : NULL;
    k.ctx = f;
    src_open_mem(&s, "fuzz-input", data, size);
    rc = parser_run(f->p, &s, o, &k, &e);
    src_close(&s);

    /* Invariant 6. */
    FZ_CHECK(f, rc >= COW_OK && rc <= COW_EINTERNAL, "parse returned %d", rc);
    if (f->failed) {
        FZ_CHECK(f, rc == COW_ESQL, "the sink failed but parse returned %d (%s)",
                 rc, e.msg);
        return f->nrecs;
    }
    if (rc != COW_OK) {
        FZ_CHECK(f, e.code == rc, "parse returned %d but e.code is %d", rc, e.code);
        FZ_CHECK(f, e.msg[0] != '\0', "error %d without a message", rc);
        FZ_CHECK(f, e.path[0] != '\0', "error without e->path: %s", e.msg);
        FZ_CHECK(f, e.line >= 0 && e.line <= f->nlines + 1,
                 "error line %ld outside 0..%ld: %s", e.line, f->nlines + 1, e.msg);
    }
    return f->nrecs;
}

/* The file name among fz_names that p's sniff scores highest on this head. */
static const char *fz_best_name(const cow_parser *p, const char *head, size_t n)
{
    const char *best = fz_names[0];
    int best_score = -1;
    size_t i;

    for (i = 0; i < FZ_NNAMES; i++) {
        int score = p->sniff(fz_names[i], head, n);
        if (score > best_score) {
            best_score = score;
            best = fz_names[i];
        }
    }
    return best;
}

/* Invariant 1. */
static void fz_detect(const uint8_t *data, size_t size)
{
    const cow_parser *const *list = parser_list();
    size_t n = size < COW_SNIFF_BYTES ? size : COW_SNIFF_BYTES;
    const char *head = (const char *)data;
    const cow_parser *got;
    size_t i, j;

    for (j = 0; j < FZ_NNAMES; j += 7) {
        got = parser_detect(fz_names[j], head, n);
        for (i = 0; got && list[i] && list[i] != got; i++)
            ;
        FZ_CHECK(NULL, got == NULL || list[i] == got,
                 "parser_detect returned a parser not in the table");
    }
    for (i = 0; list[i] != NULL; i++) {
        int score = list[i]->sniff("", head, n);
        FZ_CHECK(NULL, score >= 0 && score <= 100, "%s sniff scored %d",
                 list[i]->name, score);
    }
}

static void fz_one(const cow_parser *p, const uint8_t *data, size_t size,
                   long nlines, uint64_t h)
{
    size_t n = size < COW_SNIFF_BYTES ? size : COW_SNIFF_BYTES;
    cow_parse_opts o;
    fz_pass f;
    size_t got;

    memset(&f, 0, sizeof(f));
    f.p = p;
    f.nlines = nlines;
    f.fail_at = -1;
    memset(&o, 0, sizeof(o));
    f.what = "empty opts";
    fz_parse(&f, &o, 0, data, size);

    o.time_unit = "ms";
    o.latency_unit = "us";
    o.mem_unit = "kB";
    o.t0_us = INT64_C(1714521600) * COW_US_PER_S;   /* 2024-05-01T00:00:00Z */
    o.has_t0 = 1;
    o.tz_off_s = 2 * 3600;
    o.has_tz = 1;
    o.log_year = 2024;
    o.mtime_us = INT64_C(1717200000) * COW_US_PER_S; /* 2024-06-01 */
    o.fname = fz_best_name(p, (const char *)data, n);
    f.nrecs = 0;
    f.what = "full opts";
    got = fz_parse(&f, &o, 1, data, size);

    if (got > 0) {
        f.nrecs = 0;
        f.fail_at = (long long)(h % got);
        f.what = "failing sink";
        fz_parse(&f, &o, (int)(h >> 32) & 1, data, size);
    }
}

#define FZ_STR2(x) #x
#define FZ_STR(x) FZ_STR2(x)

/* The parser named by -DCOW_FUZZ_PARSER=name or $COW_FUZZ_PARSER, or NULL
 * for all of them. */
static const cow_parser *fz_selected(void)
{
    static int done;
    static const cow_parser *only;
    const char *name;

    if (done)
        return only;
    done = 1;
#ifdef COW_FUZZ_PARSER
    name = FZ_STR(COW_FUZZ_PARSER);
#else
    name = getenv("COW_FUZZ_PARSER");
#endif
    if (name != NULL && name[0] != '\0' && strcmp(name, "all") != 0) {
        only = parser_by_name(name);
        if (only == NULL) {
            fprintf(stderr, "fuzz_parser: no parser named '%s' (COW_FUZZ_PARSER)\n",
                    name);
            exit(2);
        }
    }
    return only;
}

static int fz_parsers(const cow_parser *only, const uint8_t *data, size_t size);

/* The run.json, thresholds or tree-walk target named by $COW_FUZZ_PARSER,
 * or NULL. */
static const char *fz_meta_selected(void)
{
    const char *name = getenv("COW_FUZZ_PARSER");
    const char *const *m;
    for (m = fz_meta_names(); name && *m; m++)
        if (strcmp(*m, name) == 0)
            return *m;
    return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *meta = fz_meta_selected();
    const cow_parser *only;

    if (meta != NULL) {
        fz_meta_run(meta, data, size);
        return 0;
    }
    if (cow_fuzz_input_name != NULL) { /* replay: corpus/<target>/FILE */
        const char *const *m;
        for (m = fz_meta_names(); *m; m++) {
            char dir[64];
            snprintf(dir, sizeof(dir), "/%s/", *m);
            if (strstr(cow_fuzz_input_name, dir) != NULL) {
                fz_meta_run(*m, data, size);
                return 0;
            }
        }
    }
    only = fz_selected();
    return fz_parsers(only, data, size);
}

static int fz_parsers(const cow_parser *only, const uint8_t *data, size_t size)
{
    const cow_parser *const *list = parser_list();
    long nlines = fz_count_lines(data, size);
    uint64_t h = fz_hash(data, size);
    size_t i;

    fz_detect(data, size);
    if (only != NULL) {
        fz_one(only, data, size, nlines, h);
        return 0;
    }
    for (i = 0; list[i] != NULL; i++)
        fz_one(list[i], data, size, nlines, h);
    return 0;
}
