/* capture.c -- capture folders and trees (see capture.h): the safe walk,
 * and the runs assembled from what it found; run.json is runjson.c's. */
#include "capture.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mem.h"
#include "parser.h"
#include "text.h"
#include "src.h"

void capture_init(cow_capture *c)
{
    memset(c, 0, sizeof(*c));
}

static int cmp_run(const void *a, const void *b)
{
    return strcmp(((const cow_capture_run *)a)->label,
                  ((const cow_capture_run *)b)->label);
}

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && strcmp(s + n - m, tail) == 0;
}

/* Not capture files: hidden files, run.json, READMEs, and databases (a
 * cowtail.db left in a capture folder). */
static int is_capture_name(const char *name)
{
    if (name[0] == '.')
        return 0;
    if (ends_with(name, ".db") || ends_with(name, ".db-wal") ||
        ends_with(name, ".db-shm") || ends_with(name, ".sqlite") ||
        ends_with(name, ".db-journal"))
        return 0;
    if (strcmp(name, "run.json") == 0 || strcmp(name, "thresholds.json") == 0)
        return 0;
    if (strncasecmp(name, "README", 6) == 0)
        return 0;
    return 1;
}

static char *join(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    char *s = xmalloc(na + nb + 2);
    memcpy(s, a, na);
    if (na > 0 && a[na - 1] != '/')
        s[na++] = '/';
    memcpy(s + na, b, nb + 1);
    return s;
}

static const char *base_name(const char *path)
{
    size_t n = strlen(path);
    const char *p;
    while (n > 1 && path[n - 1] == '/')
        n--;
    for (p = path + n; p > path && p[-1] != '/'; p--)
        ;
    return p;
}

/* Label for the folder given: its base name without a trailing slash. */
static char *top_label(const char *path)
{
    const char *b = base_name(path);
    size_t n = strlen(b);
    while (n > 0 && b[n - 1] == '/')
        n--;
    if (n == 0 || (n == 1 && b[0] == '.'))
        return xstrdup("capture");
    return xstrndup(b, n);
}

/* ------------------------------------------------------------ the walk */

/* What the walk saw of one file. */
typedef struct wfile {
    char *path;
    const char *parser; /* what sniffing recognised, or NULL */
    int replica_content; /* INFO role:slave, or a log of a replica */
} wfile;

/* One folder of the tree. */
typedef struct wnode {
    char *dir;           /* path */
    char *rel;           /* path below the folder given, top label first */
    wfile *files;
    size_t nf;
    int has_runjson;
    struct wnode *kids;
    size_t nk;
    int marker_below;    /* a run marker in this folder or below (set later) */
    int files_below;     /* capture files in this folder or below */
} wnode;

typedef struct walker {
    cow_capture *c;
    char *root_real;     /* resolved folder given */
    dev_t devs[CAPTURE_MAX_DEPTH + 2];
    ino_t inos[CAPTURE_MAX_DEPTH + 2];
} walker;

static void add_msg(char ***list, size_t *n, const char *path, const char *fmt,
                    va_list ap) __attribute__((format(printf, 4, 0)));

static void add_msg(char ***list, size_t *n, const char *path, const char *fmt,
                    va_list ap)
{
    char buf[1200], what[600];
    vsnprintf(what, sizeof(what), fmt, ap);
    snprintf(buf, sizeof(buf), "%s: %s", path, what);
    *list = xrealloc(*list, (*n + 1) * sizeof(char *));
    (*list)[(*n)++] = xstrdup(buf);
}

static void problem(cow_capture *c, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void problem(cow_capture *c, const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add_msg(&c->problems, &c->nproblems, path, fmt, ap);
    va_end(ap);
}

static void note(cow_capture *c, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void note(cow_capture *c, const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add_msg(&c->notes, &c->nnotes, path, fmt, ap);
    va_end(ap);
}

static int starts_with_ci(const char *s, const char *head)
{
    return strncasecmp(s, head, strlen(head)) == 0;
}

const char *capture_role_from_name(const char *relpath)
{
    const char *p = relpath;
    while (*p) {
        if (starts_with_ci(p, "replica") || starts_with_ci(p, "slave"))
            return "replica";
        p = strchr(p, '/');
        if (p == NULL)
            break;
        p++;
    }
    return NULL;
}

/* A server log written by a replica only: replica lines and none of a
 * primary's (a log two servers wrote into holds both). */
static int replica_log_head(const char *h)
{
    int rep = strstr(h, "Connecting to MASTER") != NULL ||
              strstr(h, "MASTER <-> REPLICA sync") != NULL ||
              strstr(h, "MASTER <-> SLAVE sync") != NULL;
    int pri = strstr(h, "asks for synchronization") != NULL ||
              strstr(h, "Background saving started") != NULL ||
              strstr(h, "Background append only file rewriting started") != NULL;
    return rep && !pri;
}

/* Open a tree entry for reading without following a link (unless asked),
 * without blocking on a FIFO, and only when it is a regular file. */
static int open_regular(const char *path, int follow, struct stat *st)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW));
    if (fd < 0)
        return -1;
    if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode)) {
        close(fd);
        errno = EINVAL;
        return -1;
    }
    return fd;
}

static void sniff_file(walker *w, wfile *f)
{
    char head[COW_SNIFF_BYTES + 1];
    struct stat st;
    ssize_t n = 0, got;
    int fd = open_regular(f->path, w->c->follow_symlinks, &st);
    const cow_parser *p;

    if (fd < 0)
        return; /* said when the file is ingested */
    while (n < COW_SNIFF_BYTES &&
           (got = read(fd, head + n, (size_t)(COW_SNIFF_BYTES - n))) > 0)
        n += got;
    close(fd);
    head[n] = '\0';
    p = parser_detect(base_name(f->path), head, (size_t)n);
    f->parser = p ? p->name : NULL;
    if (f->parser && strcmp(f->parser, "redis-log") == 0)
        f->replica_content = replica_log_head(head);
    else if (f->parser && strcmp(f->parser, "redis-info") == 0)
        f->replica_content = strstr(head, "\nrole:slave") != NULL;
}

static const char *const unsafe_roots[] = {"/proc", "/sys", "/dev", NULL};

static int under(const char *path, const char *root)
{
    size_t n = strlen(root);
    if (n == 1 && root[0] == '/')
        return 1;
    return strncmp(path, root, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

/* With --follow-symlinks: where a link leads, if that is allowed; fills
 * st with what it leads to. NULL (and a problem said) otherwise. */
static char *follow_link(walker *w, const char *p, struct stat *st)
{
    char *real = realpath(p, NULL);
    size_t i;
    if (real == NULL) {
        problem(w->c, p, "symbolic link cannot be resolved (%s): skipped",
                strerror(errno));
        return NULL;
    }
    for (i = 0; unsafe_roots[i]; i++)
        if (under(real, unsafe_roots[i])) {
            problem(w->c, p, "symbolic link leads into %s: skipped", unsafe_roots[i]);
            free(real);
            return NULL;
        }
    if (!under(real, w->root_real)) {
        problem(w->c, p, "symbolic link leads outside the tree (to %s): skipped", real);
        free(real);
        return NULL;
    }
    if (stat(real, st) != 0) {
        problem(w->c, p, "cannot read: %s; skipped", strerror(errno));
        free(real);
        return NULL;
    }
    return real;
}

static void free_node(wnode *n)
{
    size_t i;
    for (i = 0; i < n->nf; i++)
        free(n->files[i].path);
    free(n->files);
    for (i = 0; i < n->nk; i++)
        free_node(&n->kids[i]);
    free(n->kids);
    free(n->dir);
    free(n->rel);
}

static int cmp_wfile(const void *a, const void *b)
{
    return strcmp(((const wfile *)a)->path, ((const wfile *)b)->path);
}

static int cmp_wnode(const void *a, const void *b)
{
    return strcmp(((const wnode *)a)->dir, ((const wnode *)b)->dir);
}

/* Read folder n->dir into n (files sniffed, subfolders walked). */
static void walk(walker *w, wnode *n, int depth)
{
    DIR *d;
    struct dirent *de;
    struct stat self;
    size_t cf = 0, ck = 0, i;

    if (depth > CAPTURE_MAX_DEPTH) {
        problem(w->c, n->dir, "folders nested deeper than %d: skipped", CAPTURE_MAX_DEPTH);
        return;
    }
    {
        /* a folder that says so (tooling, generators) is not a capture */
        char *marker = join(n->dir, COW_CAPTURE_IGNORE);
        struct stat st;
        int skip = lstat(marker, &st) == 0;
        free(marker);
        if (skip)
            return;
    }
    if (stat(n->dir, &self) != 0 || (d = opendir(n->dir)) == NULL) {
        problem(w->c, n->dir, "cannot read folder (%s): skipped", strerror(errno));
        return;
    }
    for (i = 0; i < (size_t)depth; i++)
        if (w->devs[i] == self.st_dev && w->inos[i] == self.st_ino) {
            closedir(d);
            problem(w->c, n->dir, "symbolic link loop (the folder is its own "
                    "ancestor): skipped");
            return;
        }
    w->devs[depth] = self.st_dev;
    w->inos[depth] = self.st_ino;
    while ((de = readdir(d)) != NULL) {
        struct stat st;
        char *p;
        if (de->d_name[0] == '.')
            continue;
        p = join(n->dir, de->d_name);
        if (lstat(p, &st) != 0) {
            problem(w->c, p, "cannot read (%s): skipped", strerror(errno));
            free(p);
            continue;
        }
        if (S_ISLNK(st.st_mode)) {
            char *real;
            if (!w->c->follow_symlinks) {
                note(w->c, p, "symbolic link not followed (--follow-symlinks "
                     "follows links that stay inside the tree): skipped");
                free(p);
                continue;
            }
            if ((real = follow_link(w, p, &st)) == NULL) {
                free(p);
                continue;
            }
            free(real);
        }
        if (S_ISDIR(st.st_mode)) {
            wnode *k;
            n->kids = xgrow(n->kids, sizeof(*k), n->nk + 1, &ck);
            k = &n->kids[n->nk++];
            memset(k, 0, sizeof(*k));
            k->dir = p;
            k->rel = join(n->rel, de->d_name);
            continue;
        }
        if (!S_ISREG(st.st_mode)) {
            note(w->c, p, "not a regular file (%s): skipped",
                 S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISSOCK(st.st_mode) ? "a socket"
                                                : "a device");
        } else if (strcmp(de->d_name, "run.json") == 0) {
            n->has_runjson = 1;
        } else if (is_capture_name(de->d_name)) {
            wfile *f;
            n->files = xgrow(n->files, sizeof(*f), n->nf + 1, &cf);
            f = &n->files[n->nf++];
            memset(f, 0, sizeof(*f));
            f->path = p;
            p = NULL;
        }
        free(p);
    }
    closedir(d);
    if (n->nf > 1)
        qsort(n->files, n->nf, sizeof(wfile), cmp_wfile);
    if (n->nk > 1)
        qsort(n->kids, n->nk, sizeof(wnode), cmp_wnode);
    for (i = 0; i < n->nf; i++)
        sniff_file(w, &n->files[i]);
    for (i = 0; i < n->nk; i++)
        walk(w, &n->kids[i], depth + 1);
}

/* --------------------------------------------------------- run assembly */

static int load_runjson(cow_capture *c, cow_capture_run *r)
{
    char *path = join(r->dir, "run.json");
    cow_err e = COW_ERR_INIT;
    cow_src s;
    char *text = NULL;
    size_t n = 0;
    int rc;

    if (access(path, F_OK) != 0) {
        free(path);
        return COW_OK;
    }
    rc = src_open_file(&s, path, &e);
    if (rc == COW_OK) {
        rc = src_read_all_max(&s, COW_MAX_META_FILE_BYTES, &text, &n, &e);
        src_close(&s);
    }
    if (rc == COW_OK)
        rc = runjson_parse(path, text, n, &r->meta, &e);
    if (rc == COW_OK) {
        r->has_meta = 1;
        if (r->meta.label) {
            free(r->label);
            r->label = xstrdup(r->meta.label);
        }
    } else {
        char where[700];
        if (e.line > 0)
            snprintf(where, sizeof(where), "%s:%ld", path, e.line);
        else
            snprintf(where, sizeof(where), "%s", path);
        problem(c, where, "%s; the run is skipped", e.msg);
    }
    free(text);
    free(path);
    return rc;
}

static cow_capture_run *new_run(cow_capture *c, const char *dir, const char *rel)
{
    cow_capture_run *r;
    c->runs = xgrow(c->runs, sizeof(*r), c->n + 1, &c->cap);
    r = &c->runs[c->n++];
    memset(r, 0, sizeof(*r));
    r->dir = xstrdup(dir);
    r->label = xstrdup(rel);
    r->rel = xstrdup(rel);
    r->meta.trial = -1;
    return r;
}

/* run.json "files" entry matching a file (path relative to the run). */
static const cow_filemap *mapped(const cow_capture_run *r, const char *relpath)
{
    size_t i;
    for (i = 0; r && i < r->meta.nfiles; i++)
        if (fnmatch(r->meta.files[i].glob, relpath, 0) == 0 ||
            fnmatch(r->meta.files[i].glob, base_name(relpath), 0) == 0)
            return &r->meta.files[i];
    return NULL;
}

const char *capture_declared_role(const cow_capture_run *r, const char *relpath)
{
    const cow_filemap *m = mapped(r, relpath);
    return m ? m->role : NULL;
}

static const char *const latency_parsers[] = {
    "latency-csv", "latency-json", "redis-benchmark-csv", "redis-benchmark",
    "memtier-json", "hdr-percentiles", "redis-cli-latency", NULL};

static int is_latency_parser(const char *name)
{
    size_t i;
    for (i = 0; name && latency_parsers[i]; i++)
        if (strcmp(name, latency_parsers[i]) == 0)
            return 1;
    return 0;
}

/* Role of a file: run.json first, then its name, then its content. */
static const char *file_role(const cow_capture_run *r, const wfile *f,
                             const char *relpath)
{
    const cow_filemap *m = r ? mapped(r, relpath) : NULL;
    const char *role;
    if (m && m->role)
        return m->role;
    if ((role = capture_role_from_name(relpath)) != NULL)
        return role;
    return f->replica_content ? "replica" : NULL;
}

/* Path of a file below a run's folder. */
static const char *rel_to(const cow_capture_run *r, const char *path)
{
    size_t n = strlen(r->dir);
    if (strncmp(path, r->dir, n) != 0)
        return base_name(path);
    path += n;
    while (*path == '/')
        path++;
    return path;
}

/* Does this folder start a run (r: the run it would otherwise join)? */
static int is_marker(const wnode *n, const cow_capture_run *r)
{
    size_t i;
    if (n->has_runjson)
        return 1;
    for (i = 0; i < n->nf; i++) {
        const wfile *f = &n->files[i];
        const char *rel = r ? rel_to(r, f->path) : base_name(f->path);
        const cow_filemap *m = mapped(r, rel);
        const char *parser = m && m->parser ? m->parser : f->parser;
        const char *role;
        if (is_latency_parser(parser))
            return 1;
        if (parser == NULL || strcmp(parser, "redis-log") != 0)
            continue;
        role = file_role(r, f, rel);
        if (role == NULL || strcmp(role, "replica") != 0)
            return 1;
    }
    return 0;
}

static void mark_below(wnode *n)
{
    size_t i;
    n->marker_below = is_marker(n, NULL);
    n->files_below = n->nf > 0;
    for (i = 0; i < n->nk; i++) {
        mark_below(&n->kids[i]);
        n->marker_below |= n->kids[i].marker_below;
        n->files_below |= n->kids[i].files_below;
    }
}

static void add_files(cow_capture_run *r, const wnode *n)
{
    size_t i;
    if (n->nf == 0)
        return;
    r->files = xrealloc(r->files, (r->nfiles + n->nf) * sizeof(char *));
    r->roles = xrealloc(r->roles, (r->nfiles + n->nf) * sizeof(char *));
    r->parsers = xrealloc(r->parsers, (r->nfiles + n->nf) * sizeof(char *));
    for (i = 0; i < n->nf; i++) {
        const char *rel = rel_to(r, n->files[i].path);
        const cow_filemap *m = mapped(r, rel);
        r->files[r->nfiles] = xstrdup(n->files[i].path);
        r->roles[r->nfiles] = file_role(r, &n->files[i], rel);
        r->parsers[r->nfiles] = m ? m->parser : NULL;
        r->nfiles++;
    }
    if (strcmp(n->dir, r->dir) != 0) {
        const char *rel = rel_to(r, n->dir);
        r->joined = xrealloc(r->joined, (r->njoined + 1) * sizeof(char *));
        r->joined[r->njoined++] = xstrdup(rel);
    }
}

static void join_all(cow_capture_run *r, const wnode *n)
{
    size_t i;
    add_files(r, n);
    for (i = 0; i < n->nk; i++)
        join_all(r, &n->kids[i]);
}

/* Place folder n: a run of its own, or joined to run `in` (an index into
 * c->runs, or -1 when no run encloses it). */
static void assemble(cow_capture *c, const wnode *n, long in)
{
    cow_capture_run *r = in >= 0 ? &c->runs[in] : NULL;
    size_t i;

    if (!n->files_below)
        return;
    if (is_marker(n, r) || (r == NULL && !n->marker_below) ||
        (r == NULL && n->nf > 0)) {
        long idx;
        r = new_run(c, n->dir, n->rel);
        idx = (long)(c->n - 1);
        if (n->has_runjson && load_runjson(c, r) != COW_OK) {
            capture_release_run(r);
            c->n--;
            return;
        }
        if (!n->marker_below) {
            join_all(r, n);
            return;
        }
        add_files(r, n);
        for (i = 0; i < n->nk; i++)
            assemble(c, &n->kids[i], idx);
        return;
    }
    if (r != NULL)
        add_files(r, n);
    for (i = 0; i < n->nk; i++)
        assemble(c, &n->kids[i], in);
}

int capture_add_path(cow_capture *c, const char *path, cow_err *e)
{
    struct stat st;
    size_t before = c->n;

    if (stat(path, &st) != 0) {
        cow_err_at(e, path, 0, 0);
        return COW_FAIL(e, COW_EIO, "cannot read: %s", strerror(errno));
    }
    if (S_ISDIR(st.st_mode)) {
        walker w;
        wnode root;
        char *top = top_label(path);
        size_t i, n = strlen(top);

        memset(&w, 0, sizeof(w));
        w.c = c;
        w.root_real = realpath(path, NULL);
        if (w.root_real == NULL)
            w.root_real = xstrdup(path);
        memset(&root, 0, sizeof(root));
        root.dir = xstrdup(path);
        root.rel = xstrdup(top);
        walk(&w, &root, 0);
        mark_below(&root);
        assemble(c, &root, -1);
        free_node(&root);
        free(w.root_real);
        /* Labels below the folder given drop its name: "samples/a" -> "a". */
        for (i = before; i < c->n; i++) {
            cow_capture_run *r = &c->runs[i];
            if (strncmp(r->rel, top, n) == 0 && r->rel[n] == '/') {
                char *rest = xstrdup(r->rel + n + 1);
                free(r->rel);
                r->rel = rest;
                if (!(r->has_meta && r->meta.label)) {
                    free(r->label);
                    r->label = xstrdup(rest);
                }
            }
        }
        free(top);
    } else if (S_ISREG(st.st_mode)) {
        char *dir = xstrdup(path), *slash = strrchr(dir, '/');
        cow_capture_run *r = NULL;
        size_t i;
        if (slash)
            *slash = '\0';
        else
            strcpy(dir, ".");
        /* several files of one folder are one run */
        for (i = 0; i < c->n; i++)
            if (strcmp(c->runs[i].dir, dir) == 0 && c->runs[i].files != NULL)
                r = &c->runs[i];
        if (r == NULL) {
            char *label = top_label(strcmp(dir, ".") == 0 ? "capture" : dir);
            if (strcmp(dir, ".") == 0) {
                char cwd[4096];
                if (getcwd(cwd, sizeof(cwd))) {
                    free(label);
                    label = top_label(cwd);
                }
            }
            r = new_run(c, dir, label);
            free(label);
            if (load_runjson(c, r) != COW_OK) {
                capture_release_run(r);
                c->n--;
                free(dir);
                return COW_OK;
            }
        }
        r->files = xrealloc(r->files, (r->nfiles + 1) * sizeof(char *));
        r->roles = xrealloc(r->roles, (r->nfiles + 1) * sizeof(char *));
        r->parsers = xrealloc(r->parsers, (r->nfiles + 1) * sizeof(char *));
        {
            const cow_filemap *m = mapped(r, base_name(path));
            r->files[r->nfiles] = xstrdup(path);
            r->roles[r->nfiles] = m && m->role ? m->role
                                               : capture_role_from_name(base_name(path));
            r->parsers[r->nfiles] = m ? m->parser : NULL;
            r->nfiles++;
        }
        free(dir);
    } else {
        problem(c, path, "not a regular file (%s): skipped",
                S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISSOCK(st.st_mode) ? "a socket"
                                                                     : "a device");
    }
    if (c->n > before)
        qsort(c->runs + before, c->n - before, sizeof(cow_capture_run), cmp_run);
    return COW_OK;
}

void capture_release_run(cow_capture_run *r)
{
    size_t j;
    for (j = 0; j < r->nfiles; j++)
        free(r->files[j]);
    for (j = 0; j < r->njoined; j++)
        free(r->joined[j]);
    free(r->files);
    free(r->roles);
    free(r->parsers);
    free(r->joined);
    free(r->dir);
    free(r->rel);
    free(r->label);
    runjson_release(&r->meta);
}

void capture_release(cow_capture *c)
{
    size_t i;
    for (i = 0; i < c->n; i++)
        capture_release_run(&c->runs[i]);
    for (i = 0; i < c->nnotes; i++)
        free(c->notes[i]);
    for (i = 0; i < c->nproblems; i++)
        free(c->problems[i]);
    free(c->notes);
    free(c->problems);
    free(c->runs);
    memset(c, 0, sizeof(*c));
}
