/* store_ingest.c -- what ingest writes: runs, files, ops, samples, records of every
 * kind, rejected lines, refused files. */
#include "store.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mem.h"
#include "store_int.h"

/* This machine's name, recorded with each file it ingests (provenance once
 * databases are merged); NULL when the system will not say. */
static const char *this_host(void)
{
    static char name[256];
    static int done;
    if (!done) {
        if (gethostname(name, sizeof(name) - 1) != 0)
            name[0] = '\0';
        done = 1;
    }
    return name[0] ? name : NULL;
}

int store_run_upsert(cow_store *st, const cow_run_meta *m, int64_t *run_id,
                     cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_RUN_FIND];
    int rc;

    sqlite3_bind_text(q, 1, m->label, -1, SQLITE_STATIC);
    rc = sqlite3_step(q);
    *run_id = rc == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;
    sqlite3_reset(q);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return sql_fail(st, e, "finding run");
    if (*run_id == 0) {
        q = st->stmt[SQL_RUN_ADD];
        sqlite3_bind_text(q, 1, m->label, -1, SQLITE_STATIC);
        bind_text(q, 2, m->path);
        sqlite3_bind_int64(q, 3, (sqlite3_int64)time(NULL));
        bind_text(q, 4, this_host());
        if ((rc = step_done(st, q, e, "adding run")) != COW_OK)
            return rc;
        *run_id = sqlite3_last_insert_rowid(st->db);
    }
    q = st->stmt[SQL_RUN_META];
    sqlite3_bind_int64(q, 1, *run_id);
    bind_text(q, 2, m->path);
    bind_text(q, 3, m->scenario);
    bind_text(q, 4, m->mode);
    bind_text(q, 5, m->host);
    if (m->trial >= 0)
        sqlite3_bind_int64(q, 6, m->trial);
    bind_text(q, 7, m->meta);
    if (m->synthetic >= 0)
        sqlite3_bind_int(q, 8, m->synthetic != 0);
    return step_done(st, q, e, "updating run");
}

int store_file_seen(cow_store *st, int64_t run, const char *sha256,
                    const char *name, int *seen, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_FILE_SEEN];
    int rc;
    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_text(q, 2, sha256, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 3, name, -1, SQLITE_STATIC);
    rc = sqlite3_step(q);
    sqlite3_reset(q);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return sql_fail(st, e, "looking up file digest");
    *seen = rc == SQLITE_ROW;
    return COW_OK;
}

int store_file_size_seen(cow_store *st, int64_t run, int64_t size, int *seen,
                         cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_FILE_SIZE];
    int rc;
    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_int64(q, 2, size);
    rc = sqlite3_step(q);
    sqlite3_reset(q);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return sql_fail(st, e, "looking up file size");
    *seen = rc == SQLITE_ROW;
    return COW_OK;
}

int store_run_has_samples(cow_store *st, int64_t run, int *has, cow_err *e)
{
    sqlite3_stmt *q = NULL;
    int rc;
    /* one seek into the samples' key (run, t_us, ...) */
    if ((rc = prep(st, "SELECT 1 FROM samples WHERE run = ?1 LIMIT 1", &q, e)) != COW_OK)
        return rc;
    sqlite3_bind_int64(q, 1, run);
    rc = sqlite3_step(q);
    unprep(st, q);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return sql_fail(st, e, "looking for a run's samples");
    *has = rc == SQLITE_ROW;
    return COW_OK;
}

int store_file_begin(cow_store *st, int64_t run, const char *path,
                     int64_t size, const char *parser, int64_t *file_id,
                     cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_FILE_ADD];
    int rc;
    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_text(q, 2, path, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 3, size);
    sqlite3_bind_text(q, 4, parser, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 5, (sqlite3_int64)time(NULL));
    bind_text(q, 6, this_host());
    if ((rc = step_done(st, q, e, "adding file")) != COW_OK)
        return rc;
    *file_id = sqlite3_last_insert_rowid(st->db);
    return COW_OK;
}

int store_file_end(cow_store *st, int64_t file, const char *sha256,
                   int64_t rows, int64_t rejected, const char *notes,
                   cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_FILE_END];
    sqlite3_bind_int64(q, 1, file);
    sqlite3_bind_text(q, 2, sha256, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 3, rows);
    sqlite3_bind_int64(q, 4, rejected);
    bind_text(q, 5, notes);
    return step_done(st, q, e, "finishing file");
}

/* ops.id of a name; 0 for NULL. The parser interns names, so the pointer
 * compare almost always hits. */
static int op_id(cow_store *st, const char *name, int64_t *id, cow_err *e)
{
    sqlite3_stmt *q;
    size_t i;
    int rc;

    *id = 0;
    if (name == NULL)
        return COW_OK;
    /* pointers first (names are interned), but a parser's names are freed
     * with it and a later file's may reuse the address: check the text */
    for (i = 0; i < st->nops; i++)
        if (st->ops[i].name == name && strcmp(st->ops[i].copy, name) == 0) {
            *id = st->ops[i].id;
            return COW_OK;
        }
    for (i = 0; i < st->nops; i++)
        if (strcmp(st->ops[i].copy, name) == 0) {
            st->ops[i].name = name;
            *id = st->ops[i].id;
            return COW_OK;
        }
    q = st->stmt[SQL_OP_FIND];
    sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
    rc = sqlite3_step(q);
    if (rc == SQLITE_ROW)
        *id = sqlite3_column_int64(q, 0);
    sqlite3_reset(q);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return sql_fail(st, e, "finding op");
    if (*id == 0) {
        q = st->stmt[SQL_OP_ADD];
        sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
        if ((rc = step_done(st, q, e, "adding op")) != COW_OK)
            return rc;
        *id = sqlite3_last_insert_rowid(st->db);
    }
    st->ops = xgrow(st->ops, sizeof(opcache), st->nops + 1, &st->capops);
    st->ops[st->nops].name = name;
    st->ops[st->nops].copy = xstrdup(name);
    st->ops[st->nops++].id = *id;
    return COW_OK;
}

/* Bind t_us, seq, lat_us, op of one sample at parameters b..b+3. */
static int bind_sample(cow_store *st, sqlite3_stmt *q, int b, int64_t file,
                       const cow_sample *s, cow_err *e)
{
    int64_t op;
    int rc;
    if ((rc = op_id(st, s->op, &op, e)) != COW_OK)
        return rc;
    if (file != st->seq_file) {
        st->seq_file = file;
        st->seq = 0;
    }
    sqlite3_bind_int64(q, b, s->t_us);
    sqlite3_bind_int64(q, b + 1, ++st->seq);
    sqlite3_bind_double(q, b + 2, s->lat_us);
    if (op)
        sqlite3_bind_int64(q, b + 3, op);
    else
        sqlite3_bind_null(q, b + 3);
    sqlite3_bind_int64(q, b + 4, s->alt_us);
    return COW_OK;
}

int store_add_samples(cow_store *st, int64_t run, int64_t file,
                      const cow_sample *s, size_t n, cow_err *e)
{
    size_t i = 0, j;
    int rc;

    st->alt_run = 0; /* the run's largest shift may change */
    for (; i + STORE_ROWS <= n; i += STORE_ROWS) {
        sqlite3_stmt *q = st->stmt[SQL_SAMPLE_N];
        sqlite3_bind_int64(q, 1, run);
        sqlite3_bind_int64(q, 2, file);
        for (j = 0; j < STORE_ROWS; j++)
            if ((rc = bind_sample(st, q, 3 + (int)j * STORE_ROW_BINDS, file, &s[i + j],
                                  e)) != COW_OK)
                return rc;
        rc = sqlite3_step(q);
        sqlite3_reset(q);
        if (rc != SQLITE_DONE)
            return sql_fail(st, e, "adding samples");
    }
    for (; i < n; i++) {
        sqlite3_stmt *q = st->stmt[SQL_SAMPLE_1];
        sqlite3_bind_int64(q, 1, run);
        sqlite3_bind_int64(q, 2, file);
        if ((rc = bind_sample(st, q, 3, file, &s[i], e)) != COW_OK)
            return rc;
        if ((rc = step_done(st, q, e, "adding sample")) != COW_OK)
            return rc;
    }
    return COW_OK;
}

/* Keep at most this much of a rejected line. */
#define STORE_EXCERPT 200

static int add_reject(cow_store *st, int64_t file, const cow_reject *r, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_REJECT];
    size_t n = r->n < STORE_EXCERPT ? r->n : STORE_EXCERPT;
    sqlite3_bind_int64(q, 1, file);
    sqlite3_bind_int64(q, 2, r->line);
    sqlite3_bind_text(q, 3, r->reason, -1, SQLITE_STATIC);
    if (r->text)
        sqlite3_bind_text(q, 4, r->text, (int)n, SQLITE_STATIC);
    return step_done(st, q, e, "adding reject");
}

/* One INFO row's values from parameter b on. */
static void bind_info(sqlite3_stmt *q, int b, const cow_info *v)
{
    sqlite3_bind_int64(q, b, v->line);
    sqlite3_bind_int64(q, b + 1, v->dump);
    bind_t(q, b + 2, v->t_us);
    bind_text(q, b + 3, v->section);
    bind_text(q, b + 4, v->key);
    bind_text(q, b + 5, v->sub);
    bind_text(q, b + 6, v->text);
    bind_num(q, b + 7, v->num);
}

int store_add_infos(cow_store *st, int64_t run, int64_t file, const cow_info *v,
                    size_t n, cow_err *e)
{
    size_t i = 0, j;
    int rc;

    for (; i + STORE_INFO_ROWS <= n; i += STORE_INFO_ROWS) {
        sqlite3_stmt *q = st->stmt[SQL_INFO_N];
        sqlite3_bind_int64(q, 1, run);
        sqlite3_bind_int64(q, 2, file);
        for (j = 0; j < STORE_INFO_ROWS; j++)
            bind_info(q, 3 + (int)j * STORE_INFO_BINDS, &v[i + j]);
        if ((rc = step_done(st, q, e, "adding record")) != COW_OK)
            return rc;
    }
    for (; i < n; i++) {
        sqlite3_stmt *q = st->stmt[SQL_INFO];
        sqlite3_bind_int64(q, 1, run);
        sqlite3_bind_int64(q, 2, file);
        bind_info(q, 3, &v[i]);
        if ((rc = step_done(st, q, e, "adding record")) != COW_OK)
            return rc;
    }
    return COW_OK;
}

int store_add_rec(cow_store *st, int64_t run, int64_t file, const cow_rec *r,
                  cow_err *e)
{
    sqlite3_stmt *q;

    switch ((enum cow_rec_kind)r->kind) {
    case COW_REC_REJECT:
        return add_reject(st, file, &r->u.reject, e);
    case COW_REC_EVENT: {
        const cow_event *v = &r->u.event;
        q = st->stmt[SQL_EVENT];
        sqlite3_bind_int64(q, 3, v->line);
        sqlite3_bind_int64(q, 4, v->t_us);
        bind_text(q, 5, v->kind);
        if (v->pid)
            sqlite3_bind_int64(q, 6, v->pid);
        bind_num(q, 7, v->value);
        bind_text(q, 8, v->unit);
        bind_text(q, 9, v->text);
        break;
    }
    case COW_REC_INFO:
        q = st->stmt[SQL_INFO];
        bind_info(q, 3, &r->u.info);
        break;
    case COW_REC_STAT: {
        const cow_stat *v = &r->u.stat;
        q = st->stmt[SQL_STAT];
        sqlite3_bind_int64(q, 3, v->line);
        bind_t(q, 4, v->t_us);
        bind_text(q, 5, v->source);
        bind_text(q, 6, v->key);
        bind_text(q, 7, v->text);
        bind_num(q, 8, v->num);
        bind_text(q, 9, v->unit);
        break;
    }
    case COW_REC_MEM: {
        const cow_mem *v = &r->u.mem;
        q = st->stmt[SQL_MEM];
        sqlite3_bind_int64(q, 3, v->t_us);
        sqlite3_bind_double(q, 4, v->bytes);
        bind_text(q, 5, v->what);
        break;
    }
    case COW_REC_LATMON: {
        const cow_latmon *v = &r->u.latmon;
        q = st->stmt[SQL_LATMON];
        sqlite3_bind_int64(q, 3, v->line);
        bind_t(q, 4, v->t_us);
        bind_text(q, 5, v->kind);
        bind_text(q, 6, v->event);
        bind_num(q, 7, v->lat_ms);
        bind_num(q, 8, v->max_ms);
        bind_text(q, 9, v->text);
        sqlite3_bind_int(q, 10, v->none_observed);
        break;
    }
    case COW_REC_INTERVAL: {
        const cow_interval *v = &r->u.interval;
        q = st->stmt[SQL_INTERVAL];
        sqlite3_bind_int64(q, 3, v->line);
        bind_t(q, 4, v->t_us);
        bind_num(q, 5, v->dur_s);
        bind_num(q, 6, v->min_us);
        bind_num(q, 7, v->max_us);
        bind_num(q, 8, v->avg_us);
        sqlite3_bind_int64(q, 9, v->count);
        bind_text(q, 10, v->op);
        break;
    }
    case COW_REC_PCTL: {
        const cow_pctl *v = &r->u.pctl;
        q = st->stmt[SQL_PCTL];
        sqlite3_bind_int64(q, 3, v->line);
        bind_text(q, 4, v->source);
        bind_text(q, 5, v->op);
        bind_t(q, 6, v->t_us);
        sqlite3_bind_double(q, 7, v->q);
        sqlite3_bind_double(q, 8, v->value_us);
        if (v->count)
            sqlite3_bind_int64(q, 9, v->count);
        break;
    }
    case COW_REC_PROC: {
        const cow_proc *v = &r->u.proc;
        q = st->stmt[SQL_PROC];
        sqlite3_bind_int64(q, 3, v->pid);
        bind_text(q, 4, v->roles);
        if (v->parent > 0)
            sqlite3_bind_int64(q, 5, v->parent);
        sqlite3_bind_int(q, 6, v->replica != 0);
        sqlite3_bind_int(q, 7, v->server != 0);
        if (v->port > 0)
            sqlite3_bind_int64(q, 8, v->port);
        bind_text(q, 9, v->version);
        sqlite3_bind_int64(q, 10, v->line);
        break;
    }
    case COW_REC_QUIET: {
        const cow_quiet *v = &r->u.quiet;
        q = st->stmt[SQL_QUIET];
        sqlite3_bind_int64(q, 3, v->line);
        bind_text(q, 4, v->kind);
        sqlite3_bind_int64(q, 5, v->t_us);
        sqlite3_bind_int64(q, 6, v->dur_us);
        sqlite3_bind_int64(q, 7, v->n);
        bind_text(q, 8, v->how);
        break;
    }
    case COW_REC_SAMPLE:
    case COW_REC_NOTE:
    default:
        return COW_FAIL(e, COW_EINTERNAL, "store_add_rec: record kind %d "
                        "has its own entry point", r->kind);
    }
    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_int64(q, 2, file);
    return step_done(st, q, e, "adding record");
}


int store_add_refusal(cow_store *st, int64_t run, const char *label,
                      const char *path, long line, const char *parser,
                      const char *code, const char *reason, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_ADD_REFUSAL];
    if (run)
        sqlite3_bind_int64(q, 1, run);
    bind_text(q, 2, label);
    bind_text(q, 3, path);
    if (line > 0)
        sqlite3_bind_int64(q, 4, line);
    bind_text(q, 5, parser);
    bind_text(q, 6, code);
    bind_text(q, 7, reason);
    sqlite3_bind_int64(q, 8, (sqlite3_int64)time(NULL));
    return step_done(st, q, e, "recording a refused file");
}

