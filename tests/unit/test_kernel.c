/* test_kernel.c -- the kernel-side parsers: smaps, procfs, mem-series.
 *
 * Fixtures are in tests/data/kernel (README.md there says how each was
 * captured); most are real files from the build machine. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect.h"
#include "formats.h"
#include "minunit.h"
#include "parser.h"
#include "kfile.h"
#include "src.h"
#include "timeconv.h"

/* ============================================================ helpers */

static const char *data_dir(void)
{
    static char dir[512];
    const char *env = getenv("COW_TESTDATA");
    const char *f = __FILE__, *u;

    if (env != NULL)
        return env;
    u = strstr(f, "unit/test_kernel.c");
    snprintf(dir, sizeof(dir), "%.*sdata", u ? (int)(u - f) : 0, f);
    return dir;
}

static cow_parse_opts opts_for(const char *fname)
{
    cow_parse_opts o;
    memset(&o, 0, sizeof(o));
    o.fname = fname;
    return o;
}

/* Parse fixture fname with p; the collector receives the records. */
static int run_file(const cow_parser *p, const char *fname, cow_parse_opts *o,
                    collect *c, cow_err *e)
{
    char path[1024];
    cow_src s;
    cow_sink k = collect_sink(c);
    int rc;

    snprintf(path, sizeof(path), "%s/kernel/%s", data_dir(), fname);
    cow_err_clear(e);
    if ((rc = src_open_file(&s, path, e)) != COW_OK)
        return rc;
    o->fname = fname;
    rc = p->parse(&s, o, &k, e);
    src_close(&s);
    return rc;
}

static int run_text(const cow_parser *p, const char *fname, const char *text,
                    cow_parse_opts *o, collect *c, cow_err *e)
{
    cow_src s;
    cow_sink k = collect_sink(c);
    int rc;

    cow_err_clear(e);
    src_open_mem(&s, fname, text, strlen(text));
    o->fname = fname;
    rc = p->parse(&s, o, &k, e);
    src_close(&s);
    return rc;
}

/* Which parser the table picks for a fixture (name and first bytes). */
static const char *detect_file(const char *fname)
{
    char path[1024], head[COW_SNIFF_BYTES];
    FILE *fp;
    size_t n;
    const cow_parser *p;

    snprintf(path, sizeof(path), "%s/kernel/%s", data_dir(), fname);
    if ((fp = fopen(path, "rb")) == NULL)
        return "(missing)";
    n = fread(head, 1, sizeof(head), fp);
    fclose(fp);
    p = parser_detect(fname, head, n);
    return p ? p->name : "(none)";
}

static const cow_stat *stat_of(const collect *c, const char *source,
                               const char *key)
{
    size_t i;
    for (i = 0; i < c->n; i++) {
        const cow_stat *s = &c->recs[i].u.stat;
        if (c->recs[i].kind == COW_REC_STAT && strcmp(s->source, source) == 0 &&
            strcmp(s->key, key) == 0)
            return s;
    }
    return NULL;
}

static const char *note_of(const collect *c, const char *key)
{
    size_t i;
    for (i = 0; i < c->n; i++)
        if (c->recs[i].kind == COW_REC_NOTE &&
            strcmp(c->recs[i].u.note.key, key) == 0)
            return c->recs[i].u.note.value;
    return NULL;
}

#define KB(x) ((double)(x) * 1024.0)
/* num of a stat, NAN-safe and NULL-safe for CHECK_NEAR */
#define NUM(st) ((st) ? (st)->num : -1.0)

/* ============================================================= sniff */

static void detect_should_pick_the_kernel_parsers(void)
{
    static const struct { const char *file, *parser; } t[] = {
        {"redis_smaps_rollup-1796026504754.txt", "smaps"},
        {"thp_smaps.txt", "smaps"},
        {"redis_status.txt", "smaps"},
        {"rollup_series.txt", "smaps"},
        {"meminfo.1796026520", "procfs"},
        {"vmstat.txt", "procfs"},
        {"enabled", "procfs"},
        {"defrag", "procfs"},
        {"overcommit_memory", "procfs"},
        {"sysctl.txt", "procfs"},
        {"v1_memory.usage_in_bytes", "procfs"},
        {"v1_memory.limit_in_bytes", "procfs"},
        {"v1_memory.stat", "procfs"},
        {"memory.current", "procfs"},
        {"memory.max", "procfs"},
        {"memory.stat", "procfs"},
        {"memory.events", "procfs"},
        {"host_bundle.txt", "procfs"},
        {"head_bundle.txt", "procfs"},
        {"cgroup_usage.csv", "mem-series"},
        {"redis_rss.csv", "mem-series"},
        {"mem_badrows.csv", "mem-series"},
        {"rss_nounit.csv", "mem-series"},
    };
    size_t i;
    for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
        const char *got = detect_file(t[i].file);
        if (strcmp(got, t[i].parser) != 0)
            fprintf(stderr, "  %s detected as %s\n", t[i].file, got);
        CHECK_STR(got, t[i].parser);
    }
}

static void sniff_should_leave_latency_csv_and_maps_alone(void)
{
    static const char lat[] = "ts,latency_ms\n1738591331.000,0.21\n";
    static const char maps[] =
        "55d1c0e4c000-55d1c0e6d000 rw-p 00000000 00:00 0     [heap]\n"
        "7f3a40000000-7f3a80000000 rw-p 00000000 00:00 0\n";
    static const char info[] = "# Memory\r\nused_memory:1038336\r\n";
    static const char num[] = "1132462080\n";

    CHECK_INT(cow_parser_mem_series.sniff("lat.csv", lat, strlen(lat)), 0);
    CHECK_INT(cow_parser_procfs.sniff("lat.csv", lat, strlen(lat)), 0);
    CHECK_INT(cow_parser_smaps.sniff("maps", maps, strlen(maps)), 0);
    CHECK_INT(cow_parser_smaps.sniff("info.txt", info, strlen(info)), 0);
    CHECK_INT(cow_parser_procfs.sniff("info.txt", info, strlen(info)), 0);
    CHECK_INT(cow_parser_mem_series.sniff("info.txt", info, strlen(info)), 0);
    /* a file name helps only when the line fits it */
    CHECK_INT(cow_parser_smaps.sniff("repl-status.txt", "role:master\r\n", 13), 0);
    CHECK_INT(cow_parser_procfs.sniff("repl-status.txt", "role:master\r\n", 13), 0);
    /* seed 000's one grepped line is smaps_rollup's */
    CHECK(cow_parser_smaps.sniff("peak.txt", "AnonHugePages:         0 kB\n", 29) > 0);
    /* a lone number is only a cgroup file when its name says so */
    CHECK_INT(cow_parser_procfs.sniff("x.txt", num, strlen(num)), 0);
    CHECK(cow_parser_procfs.sniff("memory.current", num, strlen(num)) >= 80);
}

/* ============================================================= smaps */

static void smaps_rollup_should_give_bytes_per_field(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;
    cow_parse_opts o = opts_for(NULL);
    const cow_stat *s;

    collect_init(&c);
    CHECK_INT(run_file(&cow_parser_smaps, "redis_smaps_rollup-1796026504754.txt",
                       &o, &c, &e), COW_OK);
    CHECK_INT(collect_count(&c, COW_REC_STAT), 22);
    CHECK_INT(c.nrejects, 0);
    s = stat_of(&c, "smaps_rollup", "AnonHugePages");
    CHECK(s != NULL);
    CHECK_NEAR(NUM(s), 0, 0);
    CHECK_STR(s ? s->unit : NULL, "bytes");
    CHECK_STR(s ? s->text : NULL, "0 kB");
    /* the stamp in the name is epoch ms */
    CHECK_INT(s ? s->t_us : 0, INT64_C(1796026504754000));
    CHECK_NEAR(NUM(stat_of(&c, "smaps_rollup", "Rss")), KB(115272), 0);
    CHECK_NEAR(NUM(stat_of(&c, "smaps_rollup", "Private_Dirty")), KB(105816), 0);
    CHECK_INT(stat_of(&c, "smaps_rollup", "Locked") ? stat_of(&c, "smaps_rollup", "Locked")->line : 0, 23);
    CHECK(note_of(&c, "snapshot_time") != NULL &&
          strstr(note_of(&c, "snapshot_time"), "file name") != NULL);
    collect_free(&c);

    /* THP really backing a heap: 16 MiB of AnonHugePages; no stamp */
    collect_init(&c);
    CHECK_INT(run_file(&cow_parser_smaps, "thp_smaps_rollup.txt", &o, &c, &e), COW_OK);
    CHECK_NEAR(NUM(stat_of(&c, "smaps_rollup", "AnonHugePages")), 16777216.0, 0);
    CHECK_NEAR(NUM(stat_of(&c, "smaps_rollup", "Anonymous")), KB(16492), 0);
    CHECK_INT(stat_of(&c, "smaps_rollup", "Rss")->t_us, 0);
    CHECK(note_of(&c, "snapshot_time") != NULL &&
          strstr(note_of(&c, "snapshot_time"), "not placed in time") != NULL);
    collect_free(&c);
}

static void smaps_should_sum_mappings(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;
    cow_parse_opts o = opts_for(NULL);

    collect_init(&c);
    CHECK_INT(run_file(&cow_parser_smaps, "thp_smaps.txt", &o, &c, &e), COW_OK);
    CHECK_INT(c.nrejects, 0);
    /* sums checked against awk over the same file */
    CHECK_NEAR(NUM(stat_of(&c, "smaps", "mappings")), 26, 0);
    CHECK_NEAR(NUM(stat_of(&c, "smaps", "Rss")), KB(17720), 0);
    CHECK_NEAR(NUM(stat_of(&c, "smaps", "Size")), KB(20912), 0);
    CHECK_NEAR(NUM(stat_of(&c, "smaps", "Private_Dirty")), KB(16520), 0);
    CHECK_NEAR(NUM(stat_of(&c, "smaps", "AnonHugePages")), 16777216.0, 0);
    CHECK_NEAR(NUM(stat_of(&c, "smaps", "AnonHugePages_anon_rw")), 16777216.0, 0);
    CHECK_NEAR(NUM(stat_of(&c, "smaps", "THPeligible")), 1, 0);
    CHECK(stat_of(&c, "smaps", "THPeligible") &&
          stat_of(&c, "smaps", "THPeligible")->unit == NULL);
    CHECK_NEAR(NUM(stat_of(&c, "smaps", "VmFlags:hg")), 1, 0);
    CHECK_NEAR(NUM(stat_of(&c, "smaps", "VmFlags:nh")), 0, 0);
    CHECK(stat_of(&c, "smaps", "VmFlags") == NULL);
    CHECK_INT(stat_of(&c, "smaps", "Rss")->line, 1);
    collect_free(&c);
}

static void status_should_keep_numbers_and_text(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;
    cow_parse_opts o = opts_for(NULL);
    const cow_stat *s;

    collect_init(&c);
    CHECK_INT(run_file(&cow_parser_smaps, "redis_status.txt", &o, &c, &e), COW_OK);
    CHECK_INT(c.nrejects, 0);
    CHECK_NEAR(NUM(stat_of(&c, "status", "VmRSS")), KB(115272), 0);
    CHECK_NEAR(NUM(stat_of(&c, "status", "VmHWM")), KB(115272), 0);
    CHECK_NEAR(NUM(stat_of(&c, "status", "RssAnon")), KB(105816), 0);
    s = stat_of(&c, "status", "THP_enabled");
    CHECK_NEAR(NUM(s), 1, 0);
    CHECK(s && s->unit == NULL);
    s = stat_of(&c, "status", "State");
    CHECK(s && isnan(s->num));
    CHECK_STR(s ? s->text : NULL, "S (sleeping)");
    CHECK_STR(stat_of(&c, "status", "Name") ? stat_of(&c, "status", "Name")->text : NULL,
              "redis-server");
    collect_free(&c);
}

static void rollup_series_should_take_each_stamp(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;
    cow_parse_opts o = opts_for(NULL);
    size_t i, nrss = 0;
    int64_t t[3] = {0, 0, 0};

    collect_init(&c);
    CHECK_INT(run_file(&cow_parser_smaps, "rollup_series.txt", &o, &c, &e), COW_OK);
    CHECK_INT(collect_count(&c, COW_REC_STAT), 66);
    for (i = 0; i < c.n; i++)
        if (c.recs[i].kind == COW_REC_STAT && strcmp(c.recs[i].u.stat.key, "Rss") == 0 && nrss < 3)
            t[nrss++] = c.recs[i].u.stat.t_us;
    CHECK_INT(nrss, 3);
    CHECK_INT(t[0], INT64_C(1796026890606000));
    CHECK(t[1] > t[0] && t[2] > t[1]);
    collect_free(&c);
}

static void smaps_should_refuse_snapshots_without_stamps(void)
{
    static const char two[] =
        "56544bf50000-7ffca8d85000 ---p 00000000 00:00 0    [rollup]\n"
        "Rss:              115272 kB\n"
        "AnonHugePages:         0 kB\n"
        "56544bf50000-7ffca8d85000 ---p 00000000 00:00 0    [rollup]\n"
        "Rss:              115300 kB\n";
    collect c;
    cow_err e = COW_ERR_INIT;
    cow_parse_opts o = opts_for(NULL);

    collect_init(&c);
    CHECK_INT(run_text(&cow_parser_smaps, "smaps_rollup", two, &o, &c, &e), COW_EPARSE);
    CHECK_INT(e.line, 4);
    CHECK_STR(e.path, "smaps_rollup");
    CHECK(strstr(e.msg, "# t=") != NULL);
    collect_free(&c);
}

static void smaps_should_reject_bad_lines_not_crash(void)
{
    /* CRLF, a garbage line, a value that is not a number, a truncated
     * last line without its unit */
    static const char txt[] =
        "# t=2025-02-03T14:02:11Z\r\n"
        "56544bf50000-7ffca8d85000 ---p 00000000 00:00 0    [rollup]\r\n"
        "Rss:              115272 kB\r\n"
        "\r\n"
        "this is not smaps\r\n"
        "Private_Dirty:    105816 kB\r\n"
        "Private_Clean:    105816 kB\r\n"
        "Shared_Clean:    7164 kB\r\n"
        "Shared_Dirty:    0 kB\r\n"
        "Referenced:    115272 kB\r\n"
        "Anonymous:    105816 kB\r\n"
        "Swap:    0 kB\r\n"
        "SwapPss:    0 kB\r\n"
        "Locked:    0 kB\r\n"
        "AnonHugePages:    20";
    collect c;
    cow_err e = COW_ERR_INIT;
    cow_parse_opts o = opts_for(NULL);
    const cow_stat *s;

    collect_init(&c);
    CHECK_INT(run_text(&cow_parser_smaps, "smaps_rollup", txt, &o, &c, &e), COW_OK);
    CHECK_INT(c.nrejects, 2);
    CHECK_INT(collect_nth(&c, COW_REC_REJECT, 0)->u.reject.line, 5);
    CHECK_INT(collect_nth(&c, COW_REC_REJECT, 1)->u.reject.line, 15);
    s = stat_of(&c, "smaps_rollup", "Rss");
    CHECK_INT(s ? s->t_us : 0, time_us_from_civil(2025, 2, 3, 14, 2, 11, 0));
    CHECK_NEAR(NUM(s), KB(115272), 0);
    /* the cut line lost its " kB": rejected, not read as 20 bytes */
    CHECK(stat_of(&c, "smaps_rollup", "AnonHugePages") == NULL);
    collect_free(&c);
}

/* ============================================================ procfs */

static void meminfo_and_vmstat_should_give_bytes_and_counts(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;
    cow_parse_opts o = opts_for(NULL);
    const cow_stat *s;

    collect_init(&c);
    CHECK_INT(run_file(&cow_parser_procfs, "meminfo.1796026520", &o, &c, &e), COW_OK);
    CHECK_INT(collect_count(&c, COW_REC_STAT), 54);
    CHECK_INT(c.nrejects, 0);
    s = stat_of(&c, "meminfo", "MemTotal");
    CHECK_NEAR(NUM(s), KB(24683652), 0);
    CHECK_INT(s ? s->t_us : 0, INT64_C(1796026520000000));
    CHECK_NEAR(NUM(stat_of(&c, "meminfo", "VmallocTotal")), KB(34359738367LL), 0);
    CHECK_NEAR(NUM(stat_of(&c, "meminfo", "AnonHugePages")), 0, 0);
    CHECK_NEAR(NUM(stat_of(&c, "meminfo", "Active(anon)")), KB(1576), 0);
    s = stat_of(&c, "meminfo", "HugePages_Total");
    CHECK(s && s->unit == NULL && s->num == 0);
    collect_free(&c);

    collect_init(&c);
    CHECK_INT(run_file(&cow_parser_procfs, "vmstat.txt", &o, &c, &e), COW_OK);
    CHECK_INT(collect_count(&c, COW_REC_STAT), 192);
    CHECK_NEAR(NUM(stat_of(&c, "vmstat", "thp_fault_alloc")), 8, 0);
    CHECK_NEAR(NUM(stat_of(&c, "vmstat", "pgfault")), 2268093, 0);
    CHECK_STR(stat_of(&c, "vmstat", "nr_free_pages")->unit, "pages");
    CHECK(stat_of(&c, "vmstat", "nr_anon_transparent_hugepages")->unit == NULL);
    CHECK(stat_of(&c, "vmstat", "pgfault")->unit == NULL);
    collect_free(&c);
}

static void thp_and_sysctl_should_give_the_active_choice(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;
    cow_parse_opts o = opts_for(NULL);
    const cow_stat *s;

    collect_init(&c);
    CHECK_INT(run_file(&cow_parser_procfs, "enabled", &o, &c, &e), COW_OK);
    s = stat_of(&c, "thp", "enabled");
    CHECK_STR(s ? s->text : NULL, "madvise");
    CHECK(s && isnan(s->num));
    collect_free(&c);

    collect_init(&c);
    CHECK_INT(run_file(&cow_parser_procfs, "defrag", &o, &c, &e), COW_OK);
    CHECK_STR(stat_of(&c, "thp", "defrag") ? stat_of(&c, "thp", "defrag")->text : NULL,
              "madvise");
    collect_free(&c);

    /* seed 004: "[always]"; the key comes from the choices when the name
     * says nothing (only defrag offers "defer") */
    collect_init(&c);
    CHECK_INT(run_text(&cow_parser_procfs, "thp.txt",
                       "[always] madvise never\n"
                       "always defer defer+madvise madvise [never]\n",
                       &o, &c, &e), COW_OK);
    CHECK_STR(stat_of(&c, "thp", "enabled") ? stat_of(&c, "thp", "enabled")->text : NULL,
              "always");
    CHECK_STR(stat_of(&c, "thp", "defrag") ? stat_of(&c, "thp", "defrag")->text : NULL,
              "never");
    collect_free(&c);

    collect_init(&c);
    CHECK_INT(run_file(&cow_parser_procfs, "overcommit_memory", &o, &c, &e), COW_OK);
    s = stat_of(&c, "sysctl", "vm.overcommit_memory");
    CHECK_NEAR(NUM(s), 0, 0);
    CHECK_STR(s ? s->text : NULL, "0");
    collect_free(&c);

    collect_init(&c);
    CHECK_INT(run_file(&cow_parser_procfs, "sysctl.txt", &o, &c, &e), COW_OK);
    CHECK_INT(collect_count(&c, COW_REC_STAT), 5);
    CHECK_NEAR(NUM(stat_of(&c, "sysctl", "vm.overcommit_memory")), 0, 0);
    CHECK_NEAR(NUM(stat_of(&c, "sysctl", "vm.swappiness")), 60, 0);
    CHECK_NEAR(NUM(stat_of(&c, "sysctl", "net.core.somaxconn")), 4096, 0);
    collect_free(&c);

    /* sysctl.conf spelling and a multi-value sysctl */
    collect_init(&c);
    CHECK_INT(run_text(&cow_parser_procfs, "sysctl.conf",
                       "vm.overcommit_memory=1\n"
                       "net.ipv4.ip_local_port_range = 32768\t60999\n",
                       &o, &c, &e), COW_OK);
    CHECK_NEAR(NUM(stat_of(&c, "sysctl", "vm.overcommit_memory")), 1, 0);
    s = stat_of(&c, "sysctl", "net.ipv4.ip_local_port_range");
    CHECK(s && isnan(s->num));
    CHECK_STR(s ? s->text : NULL, "32768\t60999");
    collect_free(&c);
}

static void cgroup_files_should_be_keyed_by_file_name(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;
    cow_parse_opts o = opts_for(NULL);
    const cow_stat *s;

    collect_init(&c);
    CHECK_INT(run_file(&cow_parser_procfs, "memory.current", &o, &c, &e), COW_OK);
    CHECK_NEAR(NUM(stat_of(&c, "cgroup", "memory.current")), 1132462080.0, 0);
    collect_free(&c);

    collect_init(&c);
    CHECK_INT(run_file(&cow_parser_procfs, "memory.max", &o, &c, &e), COW_OK);
    s = stat_of(&c, "cgroup", "memory.max");
    CHECK(s && isnan(s->num));
    CHECK_STR(s ? s->text : NULL, "max");
    collect_free(&c);

    collect_init(&c);
    CHECK_INT(run_file(&cow_parser_procfs, "memory.stat", &o, &c, &e), COW_OK);
    s = stat_of(&c, "cgroup", "memory.stat:anon_thp");
    CHECK_NEAR(NUM(s), 746586112.0, 0);
    CHECK_STR(s ? s->unit : NULL, "bytes");
    s = stat_of(&c, "cgroup", "memory.stat:thp_fault_alloc");
    CHECK(s && s->unit == NULL && s->num == 356);
    collect_free(&c);

    collect_init(&c);
    CHECK_INT(run_file(&cow_parser_procfs, "memory.events", &o, &c, &e), COW_OK);
    CHECK_NEAR(NUM(stat_of(&c, "cgroup", "memory.events:max")), 2, 0);
    collect_free(&c);

    /* v1, real files; "memory.max_usage_in_bytes" is not "memory.max" */
    collect_init(&c);
    CHECK_INT(run_file(&cow_parser_procfs, "v1_memory.max_usage_in_bytes", &o, &c, &e), COW_OK);
    CHECK_NEAR(NUM(stat_of(&c, "cgroup", "memory.max_usage_in_bytes")), 2433871872.0, 0);
    collect_free(&c);

    collect_init(&c);
    CHECK_INT(run_file(&cow_parser_procfs, "v1_memory.limit_in_bytes", &o, &c, &e), COW_OK);
    s = stat_of(&c, "cgroup", "memory.limit_in_bytes");
    CHECK(s && isnan(s->num));  /* 9223372036854771712 = no limit */
    collect_free(&c);

    collect_init(&c);
    CHECK_INT(run_file(&cow_parser_procfs, "v1_memory.stat", &o, &c, &e), COW_OK);
    CHECK_NEAR(NUM(stat_of(&c, "cgroup", "memory.stat:rss_huge")), 0, 0);
    CHECK_NEAR(NUM(stat_of(&c, "cgroup", "memory.stat:total_rss")), 794132480.0, 0);
    CHECK(stat_of(&c, "cgroup", "memory.stat:total_pgfault")->unit == NULL);
    CHECK(isnan(NUM(stat_of(&c, "cgroup", "memory.stat:hierarchical_memory_limit"))));
    collect_free(&c);

    /* two values without a stamp between them: refused, with the line */
    collect_init(&c);
    CHECK_INT(run_text(&cow_parser_procfs, "memory.current",
                       "1132462080\n1132470000\n", &o, &c, &e), COW_EPARSE);
    CHECK_INT(e.line, 2);
    collect_free(&c);

    /* with stamps they are a (short) series */
    collect_init(&c);
    CHECK_INT(run_text(&cow_parser_procfs, "memory.current",
                       "# t=1738591331.000\n1132462080\n# t=1738591331.150\n"
                       "1132470000\n", &o, &c, &e), COW_OK);
    CHECK_INT(collect_count(&c, COW_REC_STAT), 2);
    CHECK_INT(collect_nth(&c, COW_REC_STAT, 1)->u.stat.t_us, INT64_C(1738591331150000));
    collect_free(&c);
}

static void bundle_should_split_sections(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;
    cow_parse_opts o = opts_for(NULL);
    const cow_stat *s;

    collect_init(&c);
    CHECK_INT(run_file(&cow_parser_procfs, "host_bundle.txt", &o, &c, &e), COW_OK);
    CHECK_INT(collect_count(&c, COW_REC_STAT), 7);
    CHECK_INT(c.nrejects, 0);
    s = stat_of(&c, "thp", "enabled");
    CHECK_STR(s ? s->text : NULL, "madvise");
    CHECK_INT(s ? s->t_us : 0, INT64_C(1796026890583000));
    CHECK_STR(stat_of(&c, "thp", "defrag") ? stat_of(&c, "thp", "defrag")->text : NULL,
              "madvise");
    s = stat_of(&c, "thp", "hpage_pmd_size");
    CHECK_NEAR(NUM(s), 2097152, 0);
    CHECK_STR(s ? s->unit : NULL, "bytes");
    CHECK_NEAR(NUM(stat_of(&c, "sysctl", "vm.overcommit_memory")), 0, 0);
    CHECK_NEAR(NUM(stat_of(&c, "sysctl", "vm.swappiness")), 60, 0);
    CHECK_NEAR(NUM(stat_of(&c, "cgroup", "memory.usage_in_bytes")), 2007384064.0, 0);
    CHECK(isnan(NUM(stat_of(&c, "cgroup", "memory.limit_in_bytes"))));
    collect_free(&c);

    collect_init(&c);
    CHECK_INT(run_file(&cow_parser_procfs, "head_bundle.txt", &o, &c, &e), COW_OK);
    CHECK_INT(collect_count(&c, COW_REC_STAT), 6);
    CHECK_NEAR(NUM(stat_of(&c, "meminfo", "MemFree")), KB(22373964), 0);
    CHECK_STR(stat_of(&c, "thp", "enabled") ? stat_of(&c, "thp", "enabled")->text : NULL,
              "madvise");
    collect_free(&c);

    /* "# /path" headers, a smaps_rollup section, a section we skip */
    collect_init(&c);
    CHECK_INT(run_text(&cow_parser_procfs, "capture.txt",
                       "# ts: 2025-02-03T14:02:11Z\n"
                       "# /proc/1/smaps_rollup\n"
                       "Rss:              115272 kB\n"
                       "AnonHugePages:      2048 kB\n"
                       "# /etc/hostname\n"
                       "redis-1\n"
                       "# /sys/kernel/mm/transparent_hugepage/enabled\n"
                       "[always] madvise never\n", &o, &c, &e), COW_OK);
    CHECK_NEAR(NUM(stat_of(&c, "smaps_rollup", "AnonHugePages")), KB(2048), 0);
    CHECK_STR(stat_of(&c, "thp", "enabled") ? stat_of(&c, "thp", "enabled")->text : NULL,
              "always");
    CHECK(note_of(&c, "skipped_sections") != NULL &&
          strstr(note_of(&c, "skipped_sections"), "/etc/hostname") != NULL);
    collect_free(&c);
}

static void stamps_should_follow_the_documented_forms(void)
{
    static const struct { const char *name; int ok; int64_t us; } t[] = {
        {"smaps_rollup-1738591331532.txt", 1, INT64_C(1738591331532000)},
        {"meminfo.1738591331", 1, INT64_C(1738591331000000)},
        {"meminfo.1738591331.532", 1, INT64_C(1738591331532000)},
        {"vmstat-1738591331532123.txt", 1, INT64_C(1738591331532123)},
        {"vmstat-1738591331532123456.txt", 1, INT64_C(1738591331532123)},
        {"host_20250203T140211Z_meminfo", 1, INT64_C(1738591331000000)},
        {"meminfo_2025-02-03T14-02-11.txt", 1, INT64_C(1738591331000000)},
        {"host_20250231T140211Z_meminfo", 0, 0},     /* 31 February */
        {"meminfo_2025-02-31T14-02-11.txt", 0, 0},
        {"host_20250203T240211Z_meminfo", 0, 0},
        {"smaps_rollup-1234.txt", 0, 0},
        {"meminfo", 0, 0},
    };
    size_t i;
    int64_t us;
    const char *why;

    for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
        us = 0;
        CHECK_INT(kfile_stamp_from_name(t[i].name, &us), t[i].ok);
        CHECK_INT(us, t[i].us);
    }
    CHECK_INT(kfile_stamp_line("# t=1738591331532", 17, 0, &us, &why), 1);
    CHECK_INT(us, INT64_C(1738591331532000));
    CHECK_INT(kfile_stamp_line("# ts: 1738591331", 16, 0, &us, &why), 1);
    CHECK_INT(kfile_stamp_line("2025-02-03T14:02:11+00:00", 25, 0, &us, &why), 1);
    CHECK_INT(us, INT64_C(1738591331000000));
    CHECK_INT(kfile_stamp_line("1738591331", 10, 0, &us, &why), 0);
    CHECK_INT(kfile_stamp_line("1738591331", 10, 1, &us, &why), 1);
    CHECK_INT(kfile_stamp_line("# t=yesterday", 13, 0, &us, &why), -1);
    CHECK_INT(kfile_stamp_line("# time spent 3s", 15, 0, &us, &why), 0);
}

static void procfs_should_refuse_what_it_cannot_read(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;
    cow_parse_opts o = opts_for(NULL);

    collect_init(&c);
    CHECK_INT(run_text(&cow_parser_procfs, "x.txt", "1132462080\n", &o, &c, &e),
              COW_EPARSE);
    CHECK_INT(e.line, 1);
    CHECK(strstr(e.msg, "keep their name") != NULL);
    collect_free(&c);

    collect_init(&c);
    CHECK_INT(run_text(&cow_parser_procfs, "meminfo", "", &o, &c, &e), COW_EPARSE);
    collect_free(&c);

    /* mostly garbage after a good first line: refused whole */
    collect_init(&c);
    CHECK_INT(run_text(&cow_parser_procfs, "meminfo",
                       "MemTotal: 1 kB\nfoo\nbar\nbaz\nqux\n", &o, &c, &e),
              COW_EPARSE);
    CHECK_INT(e.line, 2);
    collect_free(&c);

    /* the smaps parser hands other kernel files to procfs */
    collect_init(&c);
    CHECK_INT(run_file(&cow_parser_smaps, "meminfo.1796026520", &o, &c, &e), COW_EUSAGE);
    collect_free(&c);
}

/* ======================================================== mem-series */

static void mem_series_should_read_real_cgroup_samples(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;
    cow_parse_opts o = opts_for(NULL);
    const cow_rec *r;

    collect_init(&c);
    CHECK_INT(run_file(&cow_parser_mem_series, "cgroup_usage.csv", &o, &c, &e), COW_OK);
    CHECK_INT(collect_count(&c, COW_REC_MEM), 30);
    CHECK_INT(c.nrejects, 0);
    r = collect_nth(&c, COW_REC_MEM, 0);
    CHECK_INT(r->u.mem.t_us, INT64_C(1796026516039000));
    CHECK_NEAR(r->u.mem.bytes, 2256134144.0, 0);
    CHECK_STR(r->u.mem.what, "usage_in_bytes");
    /* sampled every ~150 ms */
    r = collect_nth(&c, COW_REC_MEM, 1);
    CHECK_INT(r->u.mem.t_us, INT64_C(1796026516189000));
    collect_free(&c);

    collect_init(&c);
    CHECK_INT(run_file(&cow_parser_mem_series, "redis_rss.csv", &o, &c, &e), COW_OK);
    CHECK_INT(collect_count(&c, COW_REC_MEM), 30);
    r = collect_nth(&c, COW_REC_MEM, 0);
    CHECK_INT(r->u.mem.t_us, INT64_C(1796026516039000));
    CHECK_NEAR(r->u.mem.bytes, KB(115272), 0);
    CHECK_STR(r->u.mem.what, "rss_kb");
    CHECK(note_of(&c, "time_column") != NULL &&
          strstr(note_of(&c, "time_column"), "epoch s") != NULL);
    collect_free(&c);
}

static void mem_series_should_reject_bad_rows(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;
    cow_parse_opts o = opts_for(NULL);
    const cow_rec *r;

    collect_init(&c);
    CHECK_INT(run_file(&cow_parser_mem_series, "mem_badrows.csv", &o, &c, &e), COW_OK);
    CHECK_INT(collect_count(&c, COW_REC_MEM), 20);
    /* "n/a" is a bad value; the empty cell of line 5 is a missing one */
    CHECK_INT(c.nrejects, 1);
    CHECK_INT(collect_nth(&c, COW_REC_REJECT, 0)->u.reject.line, 3);
    CHECK(strstr(collect_nth(&c, COW_REC_REJECT, 0)->u.reject.reason, "n/a") != NULL);
    CHECK(note_of(&c, "missing_values") != NULL &&
          strstr(note_of(&c, "missing_values"), "1 empty cells") != NULL);
    r = collect_nth(&c, COW_REC_MEM, 0);
    CHECK_NEAR(r->u.mem.bytes, 1060.5 * 1048576.0, 0);
    CHECK_STR(r->u.mem.what, "used (MB)");
    collect_free(&c);
}

static void mem_series_should_refuse_unknown_units_and_bad_clocks(void)
{
    collect c;
    cow_err e = COW_ERR_INIT;
    cow_parse_opts o = opts_for(NULL);

    collect_init(&c);
    CHECK_INT(run_file(&cow_parser_mem_series, "rss_nounit.csv", &o, &c, &e), COW_EUNIT);
    CHECK(strstr(e.msg, "mem_unit") != NULL);
    CHECK_INT(e.line, 1);
    collect_free(&c);

    collect_init(&c);
    o.mem_unit = "kB";
    CHECK_INT(run_file(&cow_parser_mem_series, "rss_nounit.csv", &o, &c, &e), COW_OK);
    CHECK_NEAR(collect_nth(&c, COW_REC_MEM, 0)->u.mem.bytes, KB(1200), 0);
    o.mem_unit = NULL;
    collect_free(&c);

    collect_init(&c);
    CHECK_INT(run_file(&cow_parser_mem_series, "mem_backwards.csv", &o, &c, &e), COW_ECLOCK);
    CHECK_INT(e.line, 4);
    CHECK(strstr(e.msg, "backwards") != NULL);
    collect_free(&c);

    collect_init(&c);
    CHECK_INT(run_file(&cow_parser_mem_series, "mem_relative.csv", &o, &c, &e), COW_ECLOCK);
    CHECK(strstr(e.msg, "t0") != NULL);
    collect_free(&c);

    collect_init(&c);
    o.t0_us = INT64_C(1738591331000000);
    o.has_t0 = 1;
    CHECK_INT(run_file(&cow_parser_mem_series, "mem_relative.csv", &o, &c, &e), COW_OK);
    CHECK_INT(collect_nth(&c, COW_REC_MEM, 1)->u.mem.t_us, INT64_C(1738591331150000));
    o.has_t0 = 0;
    collect_free(&c);

    /* relative without a unit: 0,150,300 could be ms or s */
    collect_init(&c);
    CHECK_INT(run_text(&cow_parser_mem_series, "m.csv",
                       "t,memory_current\n0,1\n150,2\n", &o, &c, &e), COW_EUNIT);
    collect_free(&c);

    collect_init(&c);
    CHECK_INT(run_file(&cow_parser_mem_series, "latency.csv", &o, &c, &e), COW_EPARSE);
    CHECK(strstr(e.msg, "latency") != NULL);
    collect_free(&c);
}

/* ============================================================== fuzz */

/* Mutated fixtures through all three parsers: no crash, no leak (ASan). */
static void parsers_should_survive_mutations(void)
{
    static const char *const files[] = {"thp_smaps.txt", "host_bundle.txt",
                                        "cgroup_usage.csv", "memory.stat"};
    const cow_parser *ps[] = {&cow_parser_smaps, &cow_parser_procfs,
                              &cow_parser_mem_series};
    char path[1024];
    char *buf = xmalloc(65536);
    unsigned seed = 12345;
    size_t f, n, i, round;
    FILE *fp;

    for (f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
        snprintf(path, sizeof(path), "%s/kernel/%s", data_dir(), files[f]);
        if ((fp = fopen(path, "rb")) == NULL)
            continue;
        n = fread(buf, 1, 65536, fp);
        fclose(fp);
        for (round = 0; round < 60; round++) {
            char *m = xmalloc(n + 1);
            size_t len = n;
            memcpy(m, buf, n);
            for (i = 0; i < 8; i++) {
                seed = seed * 1103515245u + 12345u;
                m[(seed >> 8) % n] = (char)(seed >> 16);
            }
            if (round % 3 == 0)
                len = (seed >> 4) % n;  /* cut anywhere */
            for (i = 0; i < 3; i++) {
                collect c;
                cow_err e = COW_ERR_INIT;
                cow_parse_opts o = opts_for(files[f]);
                cow_sink k;
                cow_src s;
                collect_init(&c);
                k = collect_sink(&c);
                src_open_mem(&s, files[f], m, len);
                (void)ps[i]->sniff(files[f], m, len);
                (void)ps[i]->parse(&s, &o, &k, &e);
                src_close(&s);
                collect_free(&c);
            }
            free(m);
        }
    }
    free(buf);
    CHECK(1);
}

/* khugepaged/defrag holds 0/1 (may khugepaged compact), not the THP
 * defrag policy; /proc/PID/ksm_stat lines appended to a smaps_rollup land
 * as "ksm" stats instead of refusing the snapshot. */
static void procfs_should_keep_khugepaged_defrag_and_ksm_fields_apart(void)
{
    cow_parse_opts o;
    collect c;
    cow_err e;
    const cow_stat *s;

    memset(&o, 0, sizeof(o));
    collect_init(&c);
    CHECK_INT(run_file(&cow_parser_procfs, "khugepaged_defrag", &o, &c, &e), COW_OK);
    CHECK(stat_of(&c, "thp", "defrag") == NULL);
    s = stat_of(&c, "thp", "khugepaged/defrag");
    CHECK(s && s->num == 1.0);
    collect_free(&c);
    collect_init(&c);
    CHECK_INT(run_file(&cow_parser_smaps, "redis_smaps_rollup_ksm-1796156200000.txt", &o,
                       &c, &e), COW_OK);
    CHECK_INT(c.nrejects, 0);
    s = stat_of(&c, "ksm", "ksm_merging_pages");
    CHECK(s && s->num == 0.0 && s->line == 26);
    s = stat_of(&c, "ksm", "ksm_merge_any");
    CHECK(s && strcmp(s->text, "no") == 0 && isnan(s->num));
    CHECK(stat_of(&c, "smaps_rollup", "Rss") != NULL || stat_of(&c, "smaps", "Rss") != NULL);
    collect_free(&c);
}

int main(void)
{
    RUN(detect_should_pick_the_kernel_parsers);
    RUN(procfs_should_keep_khugepaged_defrag_and_ksm_fields_apart);
    RUN(sniff_should_leave_latency_csv_and_maps_alone);
    RUN(smaps_rollup_should_give_bytes_per_field);
    RUN(smaps_should_sum_mappings);
    RUN(status_should_keep_numbers_and_text);
    RUN(rollup_series_should_take_each_stamp);
    RUN(smaps_should_refuse_snapshots_without_stamps);
    RUN(smaps_should_reject_bad_lines_not_crash);
    RUN(meminfo_and_vmstat_should_give_bytes_and_counts);
    RUN(thp_and_sysctl_should_give_the_active_choice);
    RUN(cgroup_files_should_be_keyed_by_file_name);
    RUN(bundle_should_split_sections);
    RUN(stamps_should_follow_the_documented_forms);
    RUN(procfs_should_refuse_what_it_cannot_read);
    RUN(mem_series_should_read_real_cgroup_samples);
    RUN(mem_series_should_reject_bad_rows);
    RUN(mem_series_should_refuse_unknown_units_and_bad_clocks);
    RUN(parsers_should_survive_mutations);
    return REPORT();
}
