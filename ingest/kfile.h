/* kfile.h -- the kernel-file engine (kfile.c) under the parsers "smaps"
 * (smaps.c) and "procfs" (procfs.c): what kind of file a name and a first
 * line denote, the grammar of their lines, snapshot stamps, and the
 * per-file state the line handlers share.
 *
 * Both parsers run the same engine, kfile_run(); it reads lines, keeps the
 * snapshot time, splits bundles into sections and hands each line to the
 * parser's handlers (kfile_ops). smaps.c owns the smaps / smaps_rollup /
 * status handlers, procfs.c the rest (and calls smaps.c's for those kinds
 * in a bundle). kfile.c calls neither. Nothing here is used outside
 * ingest/. */
#ifndef COW_INGEST_KFILE_H
#define COW_INGEST_KFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parser.h"

/* What a file (or a bundle section) is. */
enum kfile_kind {
    KF_UNKNOWN = 0,   /* not a kernel file we read */
    KF_BUNDLE,        /* several files behind "== /path ==" style headers */
    KF_SMAPS_ROLLUP,  /* /proc/PID/smaps_rollup (or a grep of one) */
    KF_SMAPS,         /* /proc/PID/smaps: per-mapping fields, summed */
    KF_STATUS,        /* /proc/PID/status */
    KF_MEMINFO,       /* /proc/meminfo */
    KF_VMSTAT,        /* /proc/vmstat */
    KF_CG_SINGLE,     /* one-value cgroup file: memory.current, ... */
    KF_CG_STAT,       /* cgroup memory.stat (v1 or v2) */
    KF_CG_EVENTS,     /* cgroup v2 memory.events */
    KF_THP,           /* THP sysfs file: bracketed choice or one integer */
    KF_SYSCTL_FILE,   /* one /proc/sys file holding one value */
    KF_SYSCTL_LIST,   /* "vm.overcommit_memory = 1" lines (sysctl -a) */
    KF_LOADAVG        /* /proc/loadavg: "0.52 0.58 0.59 2/618 12345" */
};

/* Distinct smaps field names summed per snapshot; a real kernel prints
 * about 25, so more means this is not smaps. */
#define KF_SMAPS_MAX_FIELDS 64
/* Longest key or section path kept. */
#define KF_KEY_MAX 256
/* Longest smaps field name, NUL included: the kernel's are under 20
 * bytes ("Private_Hugetlb"); a longer one is a rejected line, never cut. */
#define KF_SMAPS_NAME_MAX 48

typedef struct smaps_sum {
    char name[KF_SMAPS_NAME_MAX]; /* field name as written */
    double kb;              /* sum over mappings (raw value, kB or count) */
    int has_kb;             /* the field carried a " kB" unit */
} smaps_sum;

/* State of one kernel file being parsed. */
typedef struct kfile {
    cow_sink *k;                /* where records go */
    cow_err *e;                 /* error of the whole parse */
    const char *srcname;        /* input name for e->path */
    const char *fname;          /* base name from the options, or NULL */
    int64_t t_us;               /* current snapshot time, 0 if unknown */
    int stamped;                /* a stamp was read since the last snapshot */
    int snaps;                  /* snapshots started without a fresh stamp */
    enum kfile_kind kind;       /* kind of the current section */
    int in_bundle;              /* the file is a bundle of sections */
    char sect[KF_KEY_MAX];      /* section path (bundle) or file name */
    char first_key[64];         /* first key of the current snapshot */
    long snap_line;             /* line where the current snapshot began */
    int header_snaps;           /* snapshots begin at headers ([rollup]),
                                   not at a repeated first key */
    long rows, rejects;         /* good records and rejected lines */
    long first_reject;          /* line of the first reject, 0 if none */
    long comments;              /* '#' lines that were neither stamp nor header */
    long skipped;               /* lines of bundle sections we do not read */
    /* smaps (full) accumulation, see smaps.c */
    smaps_sum sums[KF_SMAPS_MAX_FIELDS]; /* per-field sums of this snapshot */
    int nsums;                  /* used entries of sums */
    long mappings;              /* mapping headers in this snapshot */
    long hg, nh;                /* mappings with VmFlags hg / nh */
    double ahp_anon_rw_kb;      /* AnonHugePages over anonymous rw-p mappings */
    int cur_anon_rw;            /* the current mapping is anonymous rw-p */
    int map_open;               /* a mapping header was seen, fields follow */
    uint64_t last_start;        /* start address of the previous mapping */
    char *txt;                  /* scratch for NUL-terminated text */
    size_t txtcap;              /* its capacity */
} kfile;

/* ---- classification ------------------------------------------------ */

/* Kind of a file from its (base or full) name alone, KF_UNKNOWN if the
 * name says nothing. Only one-value files need this; others use it as a
 * hint. */
enum kfile_kind kfile_kind_of_name(const char *name);
/* Kind from the first meaningful line and the name; *score 0..100 says
 * how sure (90+ = the content alone is unmistakable). */
enum kfile_kind kfile_classify(const char *name, const char *p, size_t n,
                                int *score);
/* true when p[0..n) is a bundle section header; the path goes to path. */
bool kfile_section_header(const char *p, size_t n, char *path, size_t cap);

/* ---- time ------------------------------------------------------------ */

/* A stamp in a file name: a 10/13/16/19-digit epoch, "20250203T140211Z"
 * or an ISO 8601 date-time. false when none. */
bool kfile_stamp_from_name(const char *name, int64_t *us);
/* A stamp line: "# t=...", "# ts: ...", "# time ...", an ISO 8601 line,
 * or (bare_ok) a bare epoch number. 1 = stamp in *us; 0 = not a stamp;
 * -1 = a "# t=" line whose value is not a time (*why set). */
int kfile_stamp_line(const char *p, size_t n, int bare_ok, int64_t *us,
                      const char **why);

/* ---- helpers for the line handlers ---------------------------------- */

/* Emit one COW_REC_STAT at the current snapshot time. key and text are
 * copied as needed; text is p[0..n). */
int kfile_stat(kfile *f, const char *source, const char *key, const char *p,
               size_t n, double num, const char *unit, long line);
/* Emit a reject for line ln with reason. */
int kfile_reject(kfile *f, const cow_line *ln, const char *reason);
/* Note that key k[0..n) was read at line; when it equals the first key of
 * the snapshot a new snapshot begins, which needs a fresh stamp. */
int kfile_key_seen(kfile *f, const char *k, size_t n, long line);
/* Start a snapshot at line (one that has no repeating first key, e.g. a
 * smaps_rollup header); refuses a second one without a stamp between. */
int kfile_snapshot(kfile *f, long line, const char *what);
/* Split "Key:  value[ kB]": key, value text (trimmed) and whether " kB"
 * ended it. false when there is no ':' or no key. */
bool kfile_split_colon(const char *p, size_t n, const char **key, size_t *nk,
                       const char **val, size_t *nv, int *kb);

/* A "Key:  value[ kB]" line as one stat of source: kB -> bytes (unit
 * "bytes"), a bare integer -> num with no unit; any other value is a
 * reject, or (text_ok) kept as text with num NAN. Repeated first keys
 * start new snapshots (kfile_key_seen). */
int kfile_colon_line(kfile *f, const cow_line *ln, const char *source,
                     int text_ok);

/* ---- grammar shared by classification and the line handlers -------- */

/* Base name of a path (after the last '/'). */
const char *kfile_base_of(const char *path);
/* Index of the longest known kernel file name in path's base name, or -1;
 * its name. */
int kfile_known_index(const char *path);
const char *kfile_known_name(int i);
/* The sysctl key a file name stands for ("overcommit_memory" ->
 * "vm.overcommit_memory"); false when the name is no known sysctl file. */
bool kfile_sysctl_key_of(const char *name, char *out, size_t cap);
/* The bracketed choice of a THP file ("always [madvise] never"). */
bool kfile_thp_choice(const char *p, size_t n, const char **c, size_t *nc);
/* "key = value" (sysctl -a) or "key=value" (sysctl.conf). */
bool kfile_sysctl_split(const char *p, size_t n, size_t *nk, const char **v,
                        size_t *nv);
/* "key value" with an integer value (vmstat, memory.stat, memory.events). */
bool kfile_keyval_split(const char *p, size_t n, size_t *nk, int64_t *v);
/* "0.52 0.58 0.59 2/618 12345": three loads, running, total, last pid. */
bool kfile_loadavg_split(const char *p, size_t n, double v[6]);
/* pre followed by p[0..n) into dst, NUL-terminated; false when too long. */
bool kfile_keycopy(char *dst, size_t cap, const char *pre, const char *p, size_t n);
/* A kind whose file holds one value (a bare number is not a stamp there). */
bool kfile_one_value_kind(enum kfile_kind k);
/* true when key[0..n) is a field name smaps or smaps_rollup prints. */
bool kfile_is_smaps_field(const char *key, size_t n);
/* true when p[0..n) is a smaps mapping header "start-end perms offset ...". */
bool kfile_is_smaps_header(const char *p, size_t n);

/* ---- the engine ------------------------------------------------------- */

/* A parser's line handlers: line for one non-blank, non-stamp line of the
 * current section (f->kind), flush at the end of a snapshot. */
typedef struct kfile_ops {
    int (*line)(kfile *f, const cow_line *ln);
    int (*flush)(kfile *f);
} kfile_ops;

/* Read s through ops. With smaps_only, a file that is not smaps /
 * smaps_rollup / status is refused (parser "smaps"). */
int kfile_run(cow_src *s, const cow_parse_opts *o, cow_sink *k,
              const kfile_ops *ops, int smaps_only, cow_err *e);

#endif
