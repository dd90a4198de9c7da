/* servers.c -- which server each server-side file came from (servers.h). */
#include "servers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "capture.h"
#include "mem.h"

static const char *const server_parsers[] = {
    "redis-log", "redis-info", "redis-config", "redis-conf", "redis-latency", "smaps",
    NULL};

int servers_is_server_file(const cow_srv_file *f)
{
    size_t i;
    if (f->proc_stats)
        return 1;
    for (i = 0; server_parsers[i]; i++)
        if (strcmp(f->parser, server_parsers[i]) == 0)
            return 1;
    return 0;
}

/* A log process that is a fork child, not a server: forked by a pid of
 * the log, or writing only child (C) lines. */
static int is_child(const cow_srv_obs *o)
{
    return o->kind == COW_OBS_LOG &&
           (o->parent > 0 || (o->roles[0] && strspn(o->roles, "C") == strlen(o->roles) &&
                              !o->server && !o->replica));
}

/* Does o identify a server (and not a child of one)? */
static int identifies(const cow_srv_obs *o)
{
    if (o->kind == COW_OBS_LOG)
        return !is_child(o);
    return o->run_id[0] || o->pid > 0 || o->port > 0;
}

static size_t uf_find(size_t *up, size_t i)
{
    while (up[i] != i) {
        up[i] = up[up[i]];
        i = up[i];
    }
    return i;
}

static void uf_join(size_t *up, size_t a, size_t b)
{
    a = uf_find(up, a);
    b = uf_find(up, b);
    if (a != b)
        up[a > b ? a : b] = a < b ? a : b; /* the earlier observation leads */
}

static int same_id(const cow_srv_obs *a, const cow_srv_obs *b)
{
    return (a->run_id[0] && strcmp(a->run_id, b->run_id) == 0) ||
           (a->pid > 0 && a->pid == b->pid) || (a->port > 0 && a->port == b->port);
}

/* The same identity said again (another poll of the same server). */
static int same_obs(const cow_srv_obs *a, const cow_srv_obs *b)
{
    return a->kind == b->kind && a->pid == b->pid && a->port == b->port &&
           a->parent == b->parent && strcmp(a->run_id, b->run_id) == 0 &&
           strcmp(a->role, b->role) == 0;
}

static size_t file_at(const cow_srv_file *f, size_t nf, int64_t id)
{
    size_t lo = 0, hi = nf;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (f[mid].file < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < nf && f[lo].file == id ? lo : nf;
}

/* A server being built: its observations' cluster and what they say. */
typedef struct draft {
    size_t root;          /* cluster (observation index), or (size_t)-1 */
    const char *role;     /* settled role */
    const char *declared; /* a run.json role of one of its files */
    int said_replica, said_primary, all_named_replica;
    int64_t first_file;
    cow_server_row row;
    int64_t info_pid, log_pid;
    long dumps, logs, configs;
} draft;

/* Append "what" (and " N" when n > 0) to how, comma separated. */
static void add_how(char *how, size_t cap, const char *what, long long n)
{
    size_t used = strlen(how);
    if (n > 0)
        snprintf(how + used, cap - used, "%s%s %lld", used ? ", " : "", what, n);
    else
        snprintf(how + used, cap - used, "%s%s", used ? ", " : "", what);
}

/* Links are added as found, twice at times; link_dedupe keeps the first. */
static void link_add(cow_server_link **lk, size_t *nl, size_t *cap, int64_t file,
                     int server, int64_t pid, const char *how)
{
    *lk = xgrow(*lk, sizeof(**lk), *nl + 1, cap);
    (*lk)[*nl].file = file;
    (*lk)[*nl].server = server;
    (*lk)[*nl].pid = pid;
    (*lk)[(*nl)++].how = how;
}

typedef struct link_key {
    int64_t file, pid;
    int server;
    size_t at;          /* its place among the links */
} link_key;

static int cmp_link_key(const void *a, const void *b)
{
    const link_key *x = a, *y = b;
    if (x->file != y->file)
        return x->file < y->file ? -1 : 1;
    if (x->server != y->server)
        return x->server < y->server ? -1 : 1;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    return x->at < y->at ? -1 : x->at > y->at;
}

/* Drop a link that repeats an earlier one (same file, server and pid),
 * keeping the order: sorted keys, not a search per link (a log of
 * 160,000 fork children has as many links in one file). */
static void link_dedupe(cow_server_link *lk, size_t *nl)
{
    link_key *key;
    unsigned char *dup;
    size_t i, k;

    if (*nl < 2)
        return;
    key = xmalloc(*nl * sizeof(*key));
    dup = xcalloc(*nl, 1);
    for (i = 0; i < *nl; i++) {
        key[i].file = lk[i].file;
        key[i].pid = lk[i].pid;
        key[i].server = lk[i].server;
        key[i].at = i;
    }
    qsort(key, *nl, sizeof(*key), cmp_link_key);
    for (i = 1; i < *nl; i++)
        if (key[i].file == key[i - 1].file && key[i].server == key[i - 1].server &&
            key[i].pid == key[i - 1].pid)
            dup[key[i].at] = 1;
    for (i = k = 0; i < *nl; i++)
        if (!dup[i])
            lk[k++] = lk[i];
    *nl = k;
    free(key);
    free(dup);
}

/* The first draft of a role, made when there is none (known by its files). */
static size_t draft_of_role(draft **d, size_t *nd, size_t *cap, const char *role,
                            int64_t file, const char *how)
{
    size_t i;
    for (i = 0; i < *nd; i++)
        if (strcmp((*d)[i].role, role) == 0)
            return i;
    *d = xgrow(*d, sizeof(**d), *nd + 1, cap);
    memset(&(*d)[*nd], 0, sizeof(**d));
    (*d)[*nd].root = (size_t)-1;
    (*d)[*nd].role = role;
    (*d)[*nd].first_file = file;
    snprintf((*d)[*nd].row.how, sizeof((*d)[*nd].row.how), "no file names it: "
             "the %s's by %s", role, how);
    return (*nd)++;
}

static int cmp_draft(const void *a, const void *b)
{
    const draft *x = a, *y = b;
    int px = strcmp(x->role, "primary") == 0, py = strcmp(y->role, "primary") == 0;
    if (px != py)
        return py - px;
    return (x->first_file > y->first_file) - (x->first_file < y->first_file);
}

/* Settle role, pid, port, version, run_id and how of each cluster. */
static void settle(draft *d, const cow_srv_obs *o, size_t no, size_t *up,
                   const cow_srv_file *f, size_t nf, const char *const *declared,
                   const char *const *named)
{
    size_t i;
    d->all_named_replica = 1;
    for (i = 0; i < no; i++) {
        const cow_srv_obs *x = &o[i];
        size_t fi;
        if (!identifies(x) || uf_find(up, i) != d->root)
            continue;
        fi = file_at(f, nf, x->file);
        if (d->first_file == 0 || x->file < d->first_file)
            d->first_file = x->file;
        if (fi < nf && declared && declared[fi] && !d->declared)
            d->declared = declared[fi];
        if (!(fi < nf && named && named[fi] && strcmp(named[fi], "replica") == 0))
            d->all_named_replica = 0;
        if (x->kind == COW_OBS_INFO) {
            d->said_replica |= strcmp(x->role, "slave") == 0 || strcmp(x->role, "replica") == 0;
            d->said_primary |= strcmp(x->role, "master") == 0 || strcmp(x->role, "primary") == 0;
            if (x->run_id[0])
                snprintf(d->row.run_id, sizeof(d->row.run_id), "%s", x->run_id);
            if (x->pid > 0)
                d->info_pid = x->pid;
            d->dumps += (long)x->dumps;
        } else if (x->kind == COW_OBS_LOG) {
            d->said_replica |= x->replica || strchr(x->roles, 'S') != NULL;
            d->said_primary |= x->server || strchr(x->roles, 'M') != NULL;
            if (d->log_pid == 0)
                d->log_pid = x->pid;
            d->logs++;
        } else {
            d->configs++;
        }
        if (x->port > 0)
            d->row.port = x->port;
        if (x->version[0] && (!d->row.version[0] || x->kind == COW_OBS_INFO))
            snprintf(d->row.version, sizeof(d->row.version), "%s", x->version);
    }
    d->role = d->declared ? d->declared
              : d->said_replica ? "replica"
              : d->said_primary ? "primary"
              : d->all_named_replica ? "replica" : "primary";
    d->row.pid = d->info_pid > 0 ? d->info_pid : d->log_pid;
    if (d->declared)
        add_how(d->row.how, sizeof(d->row.how), "run.json role", 0);
    if (d->dumps)
        add_how(d->row.how, sizeof(d->row.how), "INFO dumps", d->dumps);
    if (d->log_pid)
        add_how(d->row.how, sizeof(d->row.how), "log pid", d->log_pid);
    if (d->configs)
        add_how(d->row.how, sizeof(d->row.how), "CONFIG port", 0);
    if (!d->declared && !d->said_replica && !d->said_primary && d->all_named_replica)
        add_how(d->row.how, sizeof(d->row.how), "named replica*", 0);
}

/* The draft of observation j's cluster, nd when none. */
static size_t draft_at(const draft *d, size_t nd, size_t *up, size_t j)
{
    size_t s, r = uf_find(up, j);
    for (s = 0; s < nd; s++)
        if (d[s].root == r)
            return s;
    return nd;
}

/* The server a child log process belongs to: its parent's in the same
 * file, else any server of that pid, else the file's only server, else
 * the first primary. */
static int child_server(const cow_srv_obs *o, const size_t *ids, size_t nids, size_t i,
                        size_t *up, const draft *d, size_t nd)
{
    size_t j, k, s, x, only = nd;
    int several = 0;
    /* over the observations that identify a server only (ids): a log
     * with 160,000 fork children looked at every other one per child */
    for (k = 0; k < 2 && o[i].parent > 0; k++)
        for (x = 0; x < nids; x++)
            if (o[j = ids[x]].pid == o[i].parent &&
                (k == 1 || o[j].file == o[i].file) && (s = draft_at(d, nd, up, j)) < nd)
                return d[s].row.seq;
    for (x = 0; x < nids; x++) {
        j = ids[x];
        if (o[j].file != o[i].file || (s = draft_at(d, nd, up, j)) == nd)
            continue;
        several |= only < nd && only != s;
        only = s;
    }
    if (only < nd && !several)
        return d[only].row.seq;
    for (j = 0; j < nd; j++)
        if (strcmp(d[j].role, "primary") == 0)
            return d[j].row.seq;
    return nd > 0 ? d[0].row.seq : 0;
}

void servers_attribute(const cow_srv_file *f, size_t nf, const cow_srv_obs *o,
                       size_t no, const char *const *declared,
                       const char *const *named, cow_server_row **sv, size_t *ns,
                       cow_server_link **lk, size_t *nl)
{
    size_t *up = xmalloc((no ? no : 1) * sizeof(size_t));
    size_t *dist = xmalloc((no ? no : 1) * sizeof(size_t)), ndist = 0;
    size_t *ids = xmalloc((no ? no : 1) * sizeof(size_t)), nids = 0;
    unsigned char *linked = xcalloc(nf ? nf : 1, 1);
    draft *d = NULL;
    size_t nd = 0, dcap = 0, lcap = 0, i, j;

    *sv = NULL;
    *lk = NULL;
    *ns = *nl = 0;
    /* 1: observations that share an identity are one server */
    for (i = 0; i < no; i++)
        up[i] = i;
    /* against the distinct identities seen so far (one INFO file per poll
     * repeats one identity thousands of times) */
    for (i = 0; i < no; i++) {
        int dup = 0;
        if (!identifies(&o[i]))
            continue;
        for (j = 0; j < ndist && !dup; j++)
            if (same_obs(&o[i], &o[dist[j]])) {
                uf_join(up, i, dist[j]);
                dup = 1;
            }
        for (j = 0; j < ndist && !dup; j++)
            if (same_id(&o[i], &o[dist[j]]))
                uf_join(up, i, dist[j]);
        if (!dup)
            dist[ndist++] = i;
    }
    for (i = 0; i < no; i++) {
        if (!identifies(&o[i]) || uf_find(up, i) != i)
            continue;
        d = xgrow(d, sizeof(*d), nd + 1, &dcap);
        memset(&d[nd], 0, sizeof(*d));
        d[nd].root = i;
        settle(&d[nd++], o, no, up, f, nf, declared, named);
    }
    /* 3: files that name no server, by run.json role, name, default */
    for (j = 0; j < no; j++)
        if (identifies(&o[j]) && (i = file_at(f, nf, o[j].file)) < nf)
            linked[i] = 1; /* content names its server */
    for (i = 0; i < nf; i++) {
        if (linked[i] || !servers_is_server_file(&f[i]))
            continue;
        if (declared && declared[i])
            draft_of_role(&d, &nd, &dcap, declared[i], f[i].file, "run.json");
        else if (named && named[i])
            draft_of_role(&d, &nd, &dcap, named[i], f[i].file, "name");
        else
            draft_of_role(&d, &nd, &dcap, "primary", f[i].file, "default");
    }
    /* primary first, then in order of first sight */
    if (nd > 1)
        qsort(d, nd, sizeof(*d), cmp_draft);
    for (i = 0; i < nd; i++)
        d[i].row.seq = (int)i + 1;
    /* links: content first, then the rest */
    for (i = 0, nids = 0; i < no; i++)
        if (identifies(&o[i]))
            ids[nids++] = i;
    for (i = 0; i < no; i++) {
        const cow_srv_obs *x = &o[i];
        int seq = 0;
        if (identifies(x)) {
            if ((j = draft_at(d, nd, up, i)) < nd)
                seq = d[j].row.seq;
        } else if (is_child(x)) {
            seq = child_server(o, ids, nids, i, up, d, nd);
        } else {
            continue;
        }
        if (seq == 0)
            continue;
        link_add(lk, nl, &lcap, x->file, seq, x->kind == COW_OBS_LOG ? x->pid : 0,
                 "content");
        if ((j = file_at(f, nf, x->file)) < nf)
            linked[j] = 1;
    }
    for (i = 0; i < nf; i++) {
        const char *role = "primary", *how = "default";
        if (linked[i] || !servers_is_server_file(&f[i]))
            continue;
        if (declared && declared[i]) {
            role = declared[i];
            how = "run.json";
        } else if (named && named[i]) {
            role = named[i];
            how = "name";
        }
        for (j = 0; j < nd; j++)
            if (strcmp(d[j].role, role) == 0)
                break;
        if (j < nd)
            link_add(lk, nl, &lcap, f[i].file, d[j].row.seq, 0, how);
    }
    link_dedupe(*lk, nl);
    *sv = xcalloc(nd ? nd : 1, sizeof(**sv));
    for (i = 0; i < nd; i++) {
        (*sv)[i] = d[i].row;
        snprintf((*sv)[i].role, sizeof((*sv)[i].role), "%s", d[i].role);
    }
    *ns = nd;
    free(d);
    free(up);
    free(dist);
    free(ids);
    free(linked);
}

/* A stored path below the run's folder (its path when not below it). */
static const char *below(const cow_capture_run *r, const char *path)
{
    size_t n = strlen(r->dir);
    if (strcmp(r->dir, ".") != 0 && strncmp(path, r->dir, n) == 0 && path[n] == '/') {
        while (path[n] == '/')
            n++;
        return path + n;
    }
    return path;
}

/* "servers: primary pid 1666 port 7301 (62 files), replica ...", said as
 * one line */
static void say_servers(const cow_server_row *sv, size_t ns, const cow_server_link *lk,
                        size_t nl)
{
    size_t i, j, k, cap = 16 + ns * 128, len; /* 128: an entry at its longest is 109 */
    char *line;

    if (ns == 0)
        return;
    line = xmalloc(cap);
    len = (size_t)snprintf(line, cap, "  servers:");
    for (i = 0; i < ns; i++) {
        long files = 0;
        char pid[32] = "", port[32] = "";
        for (j = 0; j < nl; j++) {
            int first = lk[j].server == sv[i].seq;
            for (k = 0; first && k < j; k++)
                first = !(lk[k].server == sv[i].seq && lk[k].file == lk[j].file);
            files += first;
        }
        if (sv[i].pid > 0)
            snprintf(pid, sizeof(pid), " pid %lld", (long long)sv[i].pid);
        if (sv[i].port > 0)
            snprintf(port, sizeof(port), " port %lld", (long long)sv[i].port);
        len += (size_t)snprintf(line + len, cap - len, "%s %.16s%s%s (%ld file%s)",
                                i ? "," : "", sv[i].role, pid, port, files,
                                files == 1 ? "" : "s");
    }
    app_say("%s\n", line);
    free(line);
}

int app_settle_servers(cow_store *st, int64_t run, const cow_capture_run *r, int quiet,
                       cow_err *e)
{
    cow_srv_file *f = NULL;
    cow_srv_obs *o = NULL;
    cow_server_row *sv = NULL;
    cow_server_link *lk = NULL;
    const char **declared = NULL, **named = NULL;
    size_t nf = 0, no = 0, ns = 0, nl = 0, i;
    int rc;

    if ((rc = store_server_inputs(st, run, &f, &nf, &o, &no, e)) != COW_OK)
        return rc;
    declared = xcalloc(nf ? nf : 1, sizeof(char *));
    named = xcalloc(nf ? nf : 1, sizeof(char *));
    for (i = 0; i < nf; i++) {
        const char *rel = r ? below(r, f[i].path) : f[i].path;
        declared[i] = r ? capture_declared_role(r, rel) : NULL;
        named[i] = capture_role_from_name(rel);
    }
    servers_attribute(f, nf, o, no, declared, named, &sv, &ns, &lk, &nl);
    if (!quiet)
        say_servers(sv, ns, lk, nl);
    if ((rc = store_begin(st, e)) == COW_OK) {
        if ((rc = store_put_servers(st, run, sv, ns, lk, nl, e)) == COW_OK)
            rc = store_commit(st, e);
        else
            store_rollback(st);
    }
    free(declared);
    free(named);
    free(sv);
    free(lk);
    store_free_srv_files(f, nf);
    free(o);
    return rc;
}
