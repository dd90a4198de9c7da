/* test_store.c -- the SQLite store: migrations, runs, files, samples,
 * records, results, findings, refusals, transactions.
 *
 * Round trips read the rows back through a second connection with plain
 * SQL, every column of every table the store writes, so a value bound to
 * the wrong column or dropped shows. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>

#include "mem.h"
#include "minunit.h"
#include "store.h"
#include "store_runfacts.h"
#include "store_answers.h"

static cow_store *open_mem(void)
{
    cow_store *st = NULL;
    cow_err e = COW_ERR_INIT;
    CHECK_INT(store_open(":memory:", &st, &e), COW_OK);
    return st;
}

static int64_t add_run(cow_store *st, const char *label)
{
    cow_run_meta m;
    cow_err e = COW_ERR_INIT;
    int64_t id = 0;
    memset(&m, 0, sizeof(m));
    m.label = label;
    m.trial = -1;
    CHECK_INT(store_run_upsert(st, &m, &id, &e), COW_OK);
    return id;
}

/* The migration files in schemas/ (COW_SCHEMA_DIR, set by ctest):
 * NNN_name.sql, counted independently of the build's list. */
static int migration_files(void)
{
    const char *dir = getenv("COW_SCHEMA_DIR");
    DIR *d = opendir(dir ? dir : "schemas");
    struct dirent *de;
    int n = 0;
    if (d == NULL)
        return -1;
    while ((de = readdir(d)) != NULL) {
        size_t len = strlen(de->d_name);
        n += len > 8 && de->d_name[0] >= '0' && de->d_name[0] <= '9' &&
             de->d_name[3] == '_' && strcmp(de->d_name + len - 4, ".sql") == 0;
    }
    closedir(d);
    return n;
}

static void store_should_apply_every_migration(void)
{
    cow_store *st = open_mem();
    int files = migration_files();
    CHECK(files >= 5);
    CHECK_INT(store_schema_version(st), files);
    store_close(st);
    store_close(NULL);
}

/* A temporary database file, and a second connection to read it. */
static char db_path[64];

static cow_store *open_file(void)
{
    cow_store *st = NULL;
    cow_err e = COW_ERR_INIT;
    int fd;
    snprintf(db_path, sizeof(db_path), "/tmp/cow_test_storeXXXXXX");
    fd = mkstemp(db_path);
    close(fd);
    CHECK_INT(store_open(db_path, &st, &e), COW_OK);
    return st;
}

static void remove_file(void)
{
    char side[80];
    remove(db_path);
    snprintf(side, sizeof(side), "%s-wal", db_path);
    remove(side);
    snprintf(side, sizeof(side), "%s-shm", db_path);
    remove(side);
}

/* The rows of a query, one line each, columns joined by '|': integers as
 * integers, reals with 17 digits, NULL as "NULL". */
static void rows_of(const char *sql, char *out, size_t cap)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *q = NULL;
    size_t k = 0;
    out[0] = '\0';
    if (sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK) {
        snprintf(out, cap, "error: %s", sqlite3_errmsg(db));
        sqlite3_close(db);
        return;
    }
    while (sqlite3_step(q) == SQLITE_ROW && k + 1 < cap) {
        int c;
        for (c = 0; c < sqlite3_column_count(q) && k + 1 < cap; c++) {
            const char *sep = c ? "|" : "";
            switch (sqlite3_column_type(q, c)) {
            case SQLITE_NULL: k += (size_t)snprintf(out + k, cap - k, "%sNULL", sep); break;
            case SQLITE_INTEGER:
                k += (size_t)snprintf(out + k, cap - k, "%s%lld", sep,
                                      (long long)sqlite3_column_int64(q, c));
                break;
            case SQLITE_FLOAT:
                k += (size_t)snprintf(out + k, cap - k, "%s%.17g", sep,
                                      sqlite3_column_double(q, c));
                break;
            default:
                k += (size_t)snprintf(out + k, cap - k, "%s%s", sep,
                                      (const char *)sqlite3_column_text(q, c));
            }
        }
        if (k + 1 < cap)
            out[k++] = '\n', out[k] = '\0';
    }
    sqlite3_finalize(q);
    sqlite3_close(db);
}

#define CHECK_ROWS(sql, want) do { \
    char got_[2048]; \
    rows_of(sql, got_, sizeof(got_)); \
    CHECK_STR(got_, want); \
} while (0)

/* store_add_infos stores what store_add_rec stores for each record, in
 * order, across the multi-row statements (150 = 64 + 64 + 22 single). */
static void store_should_add_infos_as_single_records(void)
{
    cow_store *st = open_file();
    cow_err e = COW_ERR_INIT;
    int64_t run = add_run(st, "i"), f1 = 0, f2 = 0;
    cow_info v[150];
    char keys[150][16], texts[150][16];
    char a[4096], b[4096];
    size_t i;

    for (i = 0; i < 150; i++) {
        snprintf(keys[i], sizeof(keys[i]), "key_%zu", i);
        snprintf(texts[i], sizeof(texts[i]), "%zu", i * 7);
        v[i].t_us = i % 3 ? 1738591331000000LL + (int64_t)i : 0;
        v[i].dump = (int)(i / 50);
        v[i].section = i % 5 ? "Persistence" : NULL;
        v[i].key = keys[i];
        v[i].sub = i % 4 ? NULL : "keys";
        v[i].text = texts[i];
        v[i].num = i % 6 ? (double)(i * 7) : NAN;
        v[i].line = (long)i + 1;
    }
    CHECK_INT(store_begin(st, &e), COW_OK);
    CHECK_INT(store_file_begin(st, run, "a.txt", 1, "redis-info", &f1, &e), COW_OK);
    CHECK_INT(store_file_begin(st, run, "b.txt", 1, "redis-info", &f2, &e), COW_OK);
    CHECK_INT(store_add_infos(st, run, f1, v, 150, &e), COW_OK);
    for (i = 0; i < 150; i++) {
        cow_rec r;
        memset(&r, 0, sizeof(r));
        r.kind = COW_REC_INFO;
        r.u.info = v[i];
        CHECK_INT(store_add_rec(st, run, f2, &r, &e), COW_OK);
    }
    CHECK_INT(store_commit(st, &e), COW_OK);
    store_close(st);
    rows_of("SELECT count(*), group_concat(line || ',' || dump || ',' || ifnull(t_us, 'N') ||"
            " ',' || ifnull(section, 'N') || ',' || key || ',' || ifnull(sub, 'N') || ',' ||"
            " text || ',' || ifnull(num, 'N'), ';') FROM (SELECT * FROM info WHERE file = 1"
            " ORDER BY rowid)", a, sizeof(a));
    rows_of("SELECT count(*), group_concat(line || ',' || dump || ',' || ifnull(t_us, 'N') ||"
            " ',' || ifnull(section, 'N') || ',' || key || ',' || ifnull(sub, 'N') || ',' ||"
            " text || ',' || ifnull(num, 'N'), ';') FROM (SELECT * FROM info WHERE file = 2"
            " ORDER BY rowid)", b, sizeof(b));
    CHECK(strncmp(a, "150|1,0,N,N,key_0,keys,0,N;2,0,", 31) == 0);
    CHECK_STR(a, b);
    remove_file();
}

static void store_should_find_runs_by_label(void)
{
    cow_store *st = open_mem();
    cow_run_meta m;
    cow_err e = COW_ERR_INIT;
    int64_t a = add_run(st, "a"), b = add_run(st, "b"), a2 = 0;
    cow_run_row *rows;
    size_t n;

    CHECK(a != b);
    memset(&m, 0, sizeof(m));
    m.label = "a";
    m.scenario = "bgsave";
    m.trial = 3;
    CHECK_INT(store_run_upsert(st, &m, &a2, &e), COW_OK);
    CHECK_INT(a2, a);
    CHECK_INT(store_list_runs(st, &rows, &n, &e), COW_OK);
    CHECK_INT(n, 2);
    CHECK_STR(rows[0].label, "a");
    CHECK_STR(rows[0].scenario, "bgsave");
    CHECK_INT(rows[0].trial, 3);
    CHECK(rows[1].scenario == NULL);
    CHECK_INT(rows[1].trial, -1);
    store_free_runs(rows, n);
    store_close(st);
}

static void store_should_insert_samples_in_any_batch_size(void)
{
    cow_store *st = open_mem();
    cow_err e = COW_ERR_INIT;
    int64_t run = add_run(st, "r"), file = 0;
    cow_sample s[1200];
    cow_run_row *rows;
    size_t n, i;

    for (i = 0; i < 1200; i++) {
        s[i].t_us = 1738591331000000LL + (int64_t)i * 1000;
        s[i].lat_us = (double)i;
        s[i].op = i % 2 ? "SET" : "GET";
    }
    CHECK_INT(store_begin(st, &e), COW_OK);
    CHECK_INT(store_file_begin(st, run, "lat.csv", 1234, "latency-csv", &file, &e), COW_OK);
    /* 1027 = two multi-row statements of 512 and three single rows */
    CHECK_INT(store_add_samples(st, run, file, s, 1027, &e), COW_OK);
    CHECK_INT(store_add_samples(st, run, file, s + 1027, 173, &e), COW_OK);
    CHECK_INT(store_file_end(st, file, "abc", 1200, 0, NULL, &e), COW_OK);
    CHECK_INT(store_commit(st, &e), COW_OK);
    CHECK_INT(store_list_runs(st, &rows, &n, &e), COW_OK);
    CHECK_INT(n, 1);
    CHECK_INT(rows[0].samples, 1200);
    CHECK_INT(rows[0].files, 1);
    CHECK_INT(rows[0].t_first_us, 1738591331000000LL);
    CHECK_INT(rows[0].t_last_us, 1738591332199000LL);
    store_free_runs(rows, n);
    {
        /* every value landed in its row across the statement boundaries */
        int64_t *t;
        double *lat;
        size_t m, k, bad = 0;
        CHECK_INT(store_load_samples(st, run, &t, &lat, &m, &e), COW_OK);
        CHECK_INT(m, 1200);
        for (k = 0; k < m; k++)
            bad += lat[k] != (double)k || t[k] != 1738591331000000LL + (int64_t)k * 1000;
        CHECK_INT(bad, 0);
        free(t);
        free(lat);
    }
    store_close(st);
}

/* Migration 022: a sample stored at its intended send (alt_us > 0), one
 * at its actual send (alt_us < 0) and one without an intended send read
 * as stored, from the actual send and from the intended send. */
static void store_should_give_either_reading_of_a_sample(void)
{
    static const struct { int from; int64_t t[3]; double lat[3]; } want[] = {
        /* 1. as ingested */
        {COW_FROM_STORED, {1000000, 1000300, 1000600}, {500.0, 50.0, 7.0}},
        /* 2. sent: the first moves to its send, 200 us later, 200 us shorter */
        {COW_FROM_SENT, {1000200, 1000300, 1000600}, {300.0, 50.0, 7.0}},
        /* 3. intended: the second moves 40 us back, 40 us longer */
        {COW_FROM_INTENDED, {1000000, 1000260, 1000600}, {500.0, 90.0, 7.0}}};
    cow_store *st = open_mem();
    cow_err e = COW_ERR_INIT;
    int64_t run = add_run(st, "r"), file = 0, base = 1738591331000000LL, *t, t0, t1;
    cow_sample s[3] = {{base + 1000000, 500.0, NULL, 200}, {base + 1000300, 50.0, NULL, -40},
                       {base + 1000600, 7.0, NULL, 0}};
    double *lat;
    size_t n, i, k;
    int any;

    CHECK_INT(store_begin(st, &e), COW_OK);
    CHECK_INT(store_file_begin(st, run, "latency.csv", 10, "latency-csv", &file, &e), COW_OK);
    CHECK_INT(store_add_samples(st, run, file, s, 3, &e), COW_OK);
    CHECK_INT(store_commit(st, &e), COW_OK);
    for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        store_set_latency_from(st, want[i].from);
        CHECK_INT(store_latency_from(st), want[i].from);
        CHECK_INT(store_load_samples(st, run, &t, &lat, &n, &e), COW_OK);
        CHECK_INT(n, 3);
        for (k = 0; k < 3; k++) {
            CHECK_INT(t[k], base + want[i].t[k]);
            CHECK_NEAR(lat[k], want[i].lat[k], 1e-9);
        }
        free(t);
        free(lat);
        CHECK_INT(store_sample_bounds(st, run, &any, &t0, &t1, &e), COW_OK);
        CHECK_INT(t0, base + want[i].t[0]);
        CHECK_INT(t1, base + want[i].t[2]);
        /* a window on the reading's own time: [t[1], t[2]) holds the second alone */
        CHECK_INT(store_load_range(st, run, base + want[i].t[1], base + want[i].t[2], &lat, &t,
                                   &n, &e), COW_OK);
        CHECK_INT(n, 1);
        CHECK_NEAR(lat[0], want[i].lat[1], 1e-9);
        CHECK_INT(t[0], base + want[i].t[1]);
        free(t);
        free(lat);
    }
    store_close(st);
}

static void store_should_forget_a_rolled_back_file(void)
{
    cow_store *st = open_mem();
    cow_err e = COW_ERR_INIT;
    int64_t run = add_run(st, "r"), file = 0;
    cow_sample s = {1738591331000000LL, 5.0, NULL, 0};
    cow_run_row *rows;
    size_t n;
    int seen = -1;

    CHECK_INT(store_begin(st, &e), COW_OK);
    CHECK_INT(store_run_has_samples(st, run, &seen, &e), COW_OK);
    CHECK_INT(seen, 0);
    CHECK_INT(store_file_begin(st, run, "x", 10, "latency-csv", &file, &e), COW_OK);
    CHECK_INT(store_add_samples(st, run, file, &s, 1, &e), COW_OK);
    /* what ingest asks before a file's samples land: does the run hold any
     * a copy could be compared with (its own or another run's do not count) */
    CHECK_INT(store_run_has_samples(st, run, &seen, &e), COW_OK);
    CHECK_INT(seen, 1);
    CHECK_INT(store_run_has_samples(st, run + 1, &seen, &e), COW_OK);
    CHECK_INT(seen, 0);
    store_rollback(st);
    CHECK_INT(store_run_has_samples(st, run, &seen, &e), COW_OK);
    CHECK_INT(seen, 0);
    CHECK_INT(store_list_runs(st, &rows, &n, &e), COW_OK);
    CHECK_INT(rows[0].samples, 0);
    CHECK_INT(rows[0].files, 0);
    store_free_runs(rows, n);

    CHECK_INT(store_begin(st, &e), COW_OK);
    CHECK_INT(store_file_begin(st, run, "x", 10, "latency-csv", &file, &e), COW_OK);
    CHECK_INT(store_file_end(st, file, "deadbeef", 0, 0, NULL, &e), COW_OK);
    CHECK_INT(store_commit(st, &e), COW_OK);
    CHECK_INT(store_file_seen(st, run, "deadbeef", "x", &seen, &e), COW_OK);
    CHECK_INT(seen, 1);
    CHECK_INT(store_file_seen(st, run, "other", "x", &seen, &e), COW_OK);
    CHECK_INT(seen, 0);
    /* same bytes, another file name: a different file */
    CHECK_INT(store_file_seen(st, run, "deadbeef", "y", &seen, &e), COW_OK);
    CHECK_INT(seen, 0);
    CHECK_INT(store_file_size_seen(st, run, 10, &seen, &e), COW_OK);
    CHECK_INT(seen, 1);
    CHECK_INT(store_file_seen(st, run + 1, "deadbeef", "x", &seen, &e), COW_OK);
    CHECK_INT(seen, 0);
    store_close(st);
}

/* A batch that fails midway (a NaN latency binds as NULL, which the
 * NOT NULL column refuses): the error says so, and the file's rollback
 * leaves nothing of it, though the multi-row statements keep no
 * statement journal of their own (INSERT OR FAIL). */
static void store_should_keep_nothing_of_a_failed_sample_batch(void)
{
    cow_store *st = open_mem();
    cow_err e = COW_ERR_INIT;
    int64_t run = add_run(st, "r"), file = 0;
    static cow_sample s[1100];
    cow_run_row *rows;
    size_t n, i;

    for (i = 0; i < 1100; i++) {
        s[i].t_us = 1738591331000000LL + (int64_t)i * 1000;
        s[i].lat_us = 1.0;
        s[i].op = NULL;
    }
    s[700].lat_us = NAN; /* in the second statement of 512 rows */
    CHECK_INT(store_begin(st, &e), COW_OK);
    CHECK_INT(store_file_begin(st, run, "lat.csv", 1234, "latency-csv", &file, &e), COW_OK);
    CHECK_INT(store_add_samples(st, run, file, s, 1100, &e), COW_ESQL);
    CHECK(strstr(e.msg, "adding samples") != NULL && strstr(e.msg, "NOT NULL") != NULL);
    store_rollback(st);
    CHECK_INT(store_list_runs(st, &rows, &n, &e), COW_OK);
    CHECK_INT(rows[0].samples, 0);
    store_free_runs(rows, n);
    /* and the next file lands whole */
    s[700].lat_us = 1.0;
    CHECK_INT(store_begin(st, &e), COW_OK);
    CHECK_INT(store_file_begin(st, run, "lat.csv", 1234, "latency-csv", &file, &e), COW_OK);
    CHECK_INT(store_add_samples(st, run, file, s, 1100, &e), COW_OK);
    CHECK_INT(store_commit(st, &e), COW_OK);
    CHECK_INT(store_list_runs(st, &rows, &n, &e), COW_OK);
    CHECK_INT(rows[0].samples, 1100);
    store_free_runs(rows, n);
    store_close(st);
}

static void store_should_take_every_record_kind(void)
{
    cow_store *st = open_mem();
    cow_err e = COW_ERR_INIT;
    int64_t run = add_run(st, "r"), file = 0;
    cow_rec r[8];
    cow_run_row *rows;
    size_t n, i;

    memset(r, 0, sizeof(r));
    r[0].kind = COW_REC_EVENT;
    r[0].u.event = (cow_event){1738591331000000LL, "bgsave_start", 42, 4711, "pid",
                               "Background saving started by pid 4711", 7};
    r[1].kind = COW_REC_INFO;
    r[1].u.info = (cow_info){1738591331000000LL, 0, "Persistence", "rdb_last_cow_size",
                             NULL, "1234", 1234, 9};
    r[2].kind = COW_REC_STAT;
    r[2].u.stat = (cow_stat){0, "thp", "enabled", "always", NAN, NULL, 1};
    r[3].kind = COW_REC_MEM;
    r[3].u.mem = (cow_mem){1738591331000000LL, 1e9, "rss"};
    r[4].kind = COW_REC_LATMON;
    r[4].u.latmon = (cow_latmon){0, "doctor", NULL, NAN, NAN, "Dave, no latency spike", 1, 1};
    r[5].kind = COW_REC_INTERVAL;
    r[5].u.interval = (cow_interval){1738591331000000LL, 15, 100, 900, 250, 1500, NULL, 3};
    r[6].kind = COW_REC_PCTL;
    r[6].u.pctl = (cow_pctl){"memtier", "Sets", 0, 99.9, 2500, 100000, 12};
    r[7].kind = COW_REC_REJECT;
    r[7].u.reject = (cow_reject){12, "latency is not a number", "x,y", 3};
    CHECK_INT(store_begin(st, &e), COW_OK);
    CHECK_INT(store_file_begin(st, run, "f", 1, "p", &file, &e), COW_OK);
    for (i = 0; i < 8; i++)
        CHECK_INT(store_add_rec(st, run, file, &r[i], &e), COW_OK);
    r[0].kind = COW_REC_NOTE;
    CHECK_INT(store_add_rec(st, run, file, &r[0], &e), COW_EINTERNAL);
    CHECK_INT(store_commit(st, &e), COW_OK);
    CHECK_INT(store_list_runs(st, &rows, &n, &e), COW_OK);
    CHECK_INT(rows[0].events, 1);
    store_free_runs(rows, n);
    store_close(st);
}

static void store_should_round_trip_every_column_of_every_record(void)
{
    cow_store *st = open_file();
    cow_err e = COW_ERR_INIT;
    cow_run_meta m = {"host/r1", "/data/r1", "bgsave", "fork", "vm1", 4, "{\"x\":1}", 1};
    int64_t run = 0, file = 0;
    cow_sample s[2] = {{1738591331000001LL, 812.25, "SET", 0}, {1738591331000002LL, 3.5, NULL, 0}};
    cow_rec r[9];
    size_t i;

    memset(r, 0, sizeof(r));
    r[0].kind = COW_REC_EVENT;
    r[0].u.event = (cow_event){1738591331000003LL, "bgsave_start", 4711, 42.5, "MB",
                               "Background saving started", 7};
    r[1].kind = COW_REC_INFO;
    r[1].u.info = (cow_info){1738591331000004LL, 2, "Persistence", "rdb_last_cow_size",
                             "keys", "1234", 1234.5, 9};
    r[2].kind = COW_REC_STAT;
    r[2].u.stat = (cow_stat){1738591331000005LL, "smaps_rollup", "AnonHugePages", "2048 kB",
                             2097152, "bytes", 11};
    r[3].kind = COW_REC_MEM;
    r[3].u.mem = (cow_mem){1738591331000006LL, 1e9 + 0.5, "rss"};
    r[4].kind = COW_REC_LATMON;
    r[4].u.latmon = (cow_latmon){1738591331000007LL, "latest", "fork", 12.5, 99.25,
                                 "no spike", 1, 13};
    r[5].kind = COW_REC_INTERVAL;
    r[5].u.interval = (cow_interval){1738591331000008LL, 15.5, 100.25, 900.5, 250.75,
                                     1500, "GET", 17};
    r[6].kind = COW_REC_PCTL;
    r[6].u.pctl = (cow_pctl){"memtier", "Sets", 1738591331000009LL, 99.9, 2500.5, 100000, 19};
    r[7].kind = COW_REC_REJECT;
    r[7].u.reject = (cow_reject){23, "latency is not a number", "x,y,zzz", 5};
    /* unknowns: NaN and 0 become NULL where the schema allows */
    r[8].kind = COW_REC_INTERVAL;
    r[8].u.interval = (cow_interval){0, NAN, NAN, NAN, NAN, 0, NULL, 29};

    CHECK_INT(store_run_upsert(st, &m, &run, &e), COW_OK);
    CHECK_INT(store_begin(st, &e), COW_OK);
    CHECK_INT(store_file_begin(st, run, "/data/r1/lat.csv", 4096, "latency-csv", &file, &e),
              COW_OK);
    CHECK_INT(store_add_samples(st, run, file, s, 2, &e), COW_OK);
    for (i = 0; i < 9; i++)
        CHECK_INT(store_add_rec(st, run, file, &r[i], &e), COW_OK);
    CHECK_INT(store_file_end(st, file, "ab12", 11, 1, "time_unit=epoch us", &e), COW_OK);
    CHECK_INT(store_commit(st, &e), COW_OK);
    CHECK_INT(store_add_refusal(st, run, "host/r1", "/data/r1/bad.csv", 31, "latency-csv",
                                "parse", "no latency column", &e), COW_OK);
    CHECK_INT(store_add_refusal(st, 0, "host/r2", "/data/r2/x.txt", 0, NULL, "unit",
                                "unknown unit", &e), COW_OK);

    CHECK_ROWS("SELECT id, label, path, scenario, mode, host, trial, meta, created_at > 0,"
               " synthetic FROM runs", "1|host/r1|/data/r1|bgsave|fork|vm1|4|{\"x\":1}|1|1\n");
    /* a later file without run.json keeps the mark; a run.json without it clears it */
    m.synthetic = -1;
    CHECK_INT(store_run_upsert(st, &m, &run, &e), COW_OK);
    CHECK_ROWS("SELECT synthetic FROM runs", "1\n");
    {
        cow_run_row *rows = NULL;
        size_t nr = 0;
        CHECK_INT(store_list_runs(st, &rows, &nr, &e), COW_OK);
        CHECK_INT(nr, 1);
        CHECK_INT(rows[0].synthetic, 1);
        store_free_runs(rows, nr);
        CHECK_INT(store_list_runs_brief(st, &rows, &nr, &e), COW_OK);
        CHECK_INT(rows[0].synthetic, 1);
        store_free_runs(rows, nr);
    }
    m.synthetic = 0;
    CHECK_INT(store_run_upsert(st, &m, &run, &e), COW_OK);
    CHECK_ROWS("SELECT synthetic FROM runs", "0\n");
    CHECK_ROWS("SELECT id, run, path, size, sha256, parser, rows, rejected, notes,"
               " ingested_at > 0 FROM files",
               "1|1|/data/r1/lat.csv|4096|ab12|latency-csv|11|1|time_unit=epoch us|1\n");
    CHECK_ROWS("SELECT s.run, s.t_us, s.file, s.seq, s.lat_us, o.name FROM samples s"
               " LEFT JOIN ops o ON o.id = s.op ORDER BY s.t_us",
               "1|1738591331000001|1|1|812.25|SET\n1|1738591331000002|1|2|3.5|NULL\n");
    CHECK_ROWS("SELECT run, file, line, t_us, kind, pid, value, unit, text FROM events",
               "1|1|7|1738591331000003|bgsave_start|4711|42.5|MB|Background saving started\n");
    CHECK_ROWS("SELECT run, file, line, dump, t_us, section, key, sub, text, num FROM info",
               "1|1|9|2|1738591331000004|Persistence|rdb_last_cow_size|keys|1234|1234.5\n");
    CHECK_ROWS("SELECT run, file, line, t_us, source, key, text, num, unit FROM stats",
               "1|1|11|1738591331000005|smaps_rollup|AnonHugePages|2048 kB|2097152|bytes\n");
    CHECK_ROWS("SELECT run, file, t_us, bytes, what FROM mem",
               "1|1|1738591331000006|1000000000.5|rss\n");
    CHECK_ROWS("SELECT run, file, line, t_us, kind, event, lat_ms, max_ms, text,"
               " none_observed FROM latmon",
               "1|1|13|1738591331000007|latest|fork|12.5|99.25|no spike|1\n");
    CHECK_ROWS("SELECT run, file, line, t_us, dur_s, min_us, max_us, avg_us, count, op"
               " FROM intervals ORDER BY line",
               "1|1|17|1738591331000008|15.5|100.25|900.5|250.75|1500|GET\n"
               "1|1|29|NULL|NULL|NULL|NULL|NULL|0|NULL\n");
    CHECK_ROWS("SELECT run, file, line, source, op, t_us, q, value_us, count FROM pctl",
               "1|1|19|memtier|Sets|1738591331000009|99.900000000000006|2500.5|100000\n");
    CHECK_ROWS("SELECT file, line, reason, excerpt FROM rejects",
               "1|23|latency is not a number|x,y,z\n");
    CHECK_ROWS("SELECT run, label, path, line, parser, code, reason, at > 0 FROM refusals"
               " ORDER BY label",
               "1|host/r1|/data/r1/bad.csv|31|latency-csv|parse|no latency column|1\n"
               "NULL|host/r2|/data/r2/x.txt|NULL|NULL|unit|unknown unit|1\n");
    store_close(st);
    remove_file();
}

static void store_should_round_trip_results_and_findings(void)
{
    cow_store *st = open_file();
    cow_err e = COW_ERR_INIT;
    int64_t run = add_run(st, "r");
    cow_phase_row ph[2] = {
        {0, "baseline", "baseline", 100, 200, 0, 0, "derived", 0, 0, 0, 5, 1.5, 0.5, 9.5, 0,
         NULL},
        {1, "bgsave", "bgsave#1", 200, 300, 210, 4711, "log", 1, 1, 1, 7, 2.5, 1.25, 19.5,
         0.5, "p50 0.200 ms before the window, 0.300 ms after it (+50%)"}};
    cow_quantile_row q = {1, 0.99, 18.5, NAN, 19.5, 368, 1, 250.5};
    cow_delta_row d = {1, 0, 0.999, 9.5, 19.5, 10, 2.5, 17.5, 2.05, 1.5, 3.5, "lift", 1,
                       4.5, 6.25, "tail-test", 0.0125, 0.99, 0.9975,
                       "stalls every 0.500 s, locked to the probe", 1};
    cow_exceed_row x = {1, 0.99, 9.25, 7, 3, 0.42857142857142855, 0.1, 0.8, 2, 0.03125};
    cow_result_set rs;
    cow_finding_row *f;
    size_t nf = 0;

    CHECK_INT(store_begin(st, &e), COW_OK);
    CHECK_INT(store_analysis_begin(st, run, 77, 199, "nearest", &e), COW_OK);
    CHECK_INT(store_put_phase(st, run, &ph[0], &e), COW_OK);
    CHECK_INT(store_put_phase(st, run, &ph[1], &e), COW_OK);
    CHECK_INT(store_put_quantile(st, run, &q, &e), COW_OK);
    CHECK_INT(store_put_delta(st, run, &d, &e), COW_OK);
    CHECK_INT(store_put_exceed(st, run, &x, &e), COW_OK);
    CHECK_INT(store_put_finding(st, run, 0, "fork-stall", "critical", "Fork stalls",
                                "[{\"metric\":\"m\"}]", "Use smaller instances", &e), COW_OK);
    CHECK_INT(store_commit(st, &e), COW_OK);

    CHECK_ROWS("SELECT run, seed, resamples, method, created_at > 0 FROM analyses",
               "1|77|199|nearest|1\n");
    CHECK_ROWS("SELECT run, idx, kind, label, t0_us, t1_us, fork_us, child_pid, source,"
               " overlap, open, failed, n, mean_us, min_us, max_us, grid_us FROM phases"
               " ORDER BY idx",
               "1|0|baseline|baseline|100|200|NULL|NULL|derived|0|0|0|5|1.5|0.5|9.5|0\n"
               "1|1|bgsave|bgsave#1|200|300|210|4711|log|1|1|1|7|2.5|1.25|19.5|0.5\n");
    memset(&rs, 0, sizeof(rs));
    CHECK_INT(store_load_results(st, run, &rs, &e), COW_OK);
    CHECK(rs.analysed);
    CHECK_INT(rs.seed, 77);
    CHECK_INT(rs.resamples, 199);
    CHECK_INT(rs.nph, 2);
    if (rs.nph == 2) {
        const cow_phase_row *p = &rs.ph[1];
        CHECK_INT(p->idx, 1);
        CHECK_STR(p->kind, "bgsave");
        CHECK_STR(p->label, "bgsave#1");
        CHECK_INT(p->t0_us, 200);
        CHECK_INT(p->t1_us, 300);
        CHECK_INT(p->fork_us, 210);
        CHECK_INT(p->child_pid, 4711);
        CHECK_STR(p->source, "log");
        CHECK(p->overlap == 1 && p->open == 1 && p->failed == 1);
        CHECK_INT(p->n, 7);
        CHECK_NEAR(p->mean_us, 2.5, 0);
        CHECK_NEAR(p->min_us, 1.25, 0);
        CHECK_NEAR(p->max_us, 19.5, 0);
        CHECK_NEAR(p->grid_us, 0.5, 0);
        CHECK_STR(p->unstable, "p50 0.200 ms before the window, 0.300 ms after it (+50%)");
        CHECK(rs.ph[0].unstable == NULL);
    }
    CHECK_INT(rs.nq, 1);
    if (rs.nq == 1) {
        CHECK_INT(rs.q[0].phase, 1);
        CHECK_NEAR(rs.q[0].q, 0.99, 0);
        CHECK_NEAR(rs.q[0].value_us, 18.5, 0);
        CHECK(isnan(rs.q[0].lo_us));
        CHECK_NEAR(rs.q[0].hi_us, 19.5, 0);
        CHECK_INT(rs.q[0].n_needed, 368);
        CHECK_INT(rs.q[0].thin, 1);
        CHECK_NEAR(rs.q[0].n_eff, 250.5, 0);
    }
    CHECK_INT(rs.nd, 1);
    if (rs.nd == 1) {
        const cow_delta_row *v = &rs.d[0];
        CHECK(v->phase == 1 && v->base == 0);
        CHECK_STR(v->why, "stalls every 0.500 s, locked to the probe");
        CHECK_INT(v->local_base, 1);
        CHECK_NEAR(v->q, 0.999, 0);
        CHECK_NEAR(v->base_us, 9.5, 0);
        CHECK_NEAR(v->value_us, 19.5, 0);
        CHECK_NEAR(v->delta_us, 10, 0);
        CHECK_NEAR(v->lo_us, 2.5, 0);
        CHECK_NEAR(v->hi_us, 17.5, 0);
        CHECK_NEAR(v->ratio, 2.05, 0);
        CHECK_NEAR(v->ratio_lo, 1.5, 0);
        CHECK_NEAR(v->ratio_hi, 3.5, 0);
        CHECK_STR(v->verdict, "lift");
        CHECK_INT(v->thin, 1);
        CHECK_NEAR(v->n_eff_base, 4.5, 0);
        CHECK_NEAR(v->n_eff_phase, 6.25, 0);
        CHECK_STR(v->method, "tail-test");
        CHECK_NEAR(v->p_up, 0.0125, 0);
        CHECK_NEAR(v->p_down, 0.99, 0);
        CHECK_NEAR(v->test_level, 0.9975, 0);
    }
    CHECK_INT(rs.nx, 1);
    if (rs.nx == 1) {
        const cow_exceed_row *v = &rs.x[0];
        CHECK_INT(v->phase, 1);
        CHECK_NEAR(v->base_q, 0.99, 0);
        CHECK_NEAR(v->threshold_us, 9.25, 0);
        CHECK(v->n == 7 && v->count == 3);
        CHECK_NEAR(v->p, 0.42857142857142855, 0);
        CHECK_NEAR(v->lo, 0.1, 0);
        CHECK_NEAR(v->hi, 0.8, 0);
        CHECK_INT(v->clusters, 2);
        CHECK_NEAR(v->p_more, 0.03125, 0);
    }
    store_free_results(&rs);
    CHECK_INT(store_load_findings(st, run, &f, &nf, &e), COW_OK);
    CHECK_INT(nf, 1);
    if (nf == 1) {
        CHECK_STR(f[0].rule, "fork-stall");
        CHECK_STR(f[0].severity, "critical");
        CHECK_STR(f[0].title, "Fork stalls");
        CHECK_STR(f[0].evidence, "[{\"metric\":\"m\"}]");
        CHECK_STR(f[0].recommendation, "Use smaller instances");
    }
    store_free_findings(f, nf);
    /* a new analysis replaces the old results */
    CHECK_INT(store_begin(st, &e), COW_OK);
    CHECK_INT(store_analysis_begin(st, run, 1, 99, "linear", &e), COW_OK);
    CHECK_INT(store_commit(st, &e), COW_OK);
    CHECK_ROWS("SELECT (SELECT count(*) FROM phases) + (SELECT count(*) FROM quantiles) +"
               " (SELECT count(*) FROM deltas) + (SELECT count(*) FROM exceed)", "0\n");
    store_close(st);
    remove_file();
}

static void store_should_refuse_an_unwritable_path(void)
{
    cow_store *st = NULL;
    cow_err e = COW_ERR_INIT;
    CHECK_INT(store_open("/no/such/folder/x.db", &st, &e), COW_ESQL);
    CHECK(st == NULL);
    CHECK(strstr(e.msg, "/no/such/folder/x.db") != NULL);
}

/* issue 36 item 4: a file's path was kept in 1024 bytes (the servers'
 * inputs), 512 (clocks, time spans) or 256 (reported percentiles): the
 * servers' and the percentiles' come back whole. (The database's own path needs no test: SQLite's unix
 * VFS refuses one longer than 512 bytes before we keep it.) */
static void store_should_keep_a_long_path_whole(void)
{
    cow_store *st = open_file(), *rd = NULL;
    cow_err e = COW_ERR_INIT;
    cow_srv_file *f = NULL;
    cow_srv_obs *o = NULL;
    cow_pctl_row *p = NULL;
    cow_rec r;
    size_t nf = 0, no = 0, np = 0;
    int64_t run = add_run(st, "long"), id = 0;
    char *file = xcalloc(1, 1201);

    memset(file, 'd', 1200);
    for (size_t i = 0; i < 1200; i += 100)
        file[i] = '/';
    CHECK_INT(store_open_reader(st, &rd, &e), COW_OK);   /* by its path, whole */
    store_close(rd);
    CHECK_INT(store_begin(st, &e), COW_OK);
    CHECK_INT(store_file_begin(st, run, file, 1, "redis-info", &id, &e), COW_OK);
    memset(&r, 0, sizeof(r));
    r.kind = COW_REC_PCTL;
    r.u.pctl = (cow_pctl){"memtier", "Sets", 0, 99.9, 2500, 100000, 12};
    CHECK_INT(store_add_rec(st, run, id, &r, &e), COW_OK);
    CHECK_INT(store_commit(st, &e), COW_OK);
    CHECK_INT(store_load_pctl(st, run, &p, &np, &e), COW_OK);
    CHECK(np == 1 && strcmp(p[0].file, file) == 0);
    store_free_pctl(p, np);
    CHECK_INT(store_server_inputs(st, run, &f, &nf, &o, &no, &e), COW_OK);
    CHECK_INT(nf, 1);
    CHECK(nf == 1 && strcmp(f[0].path, file) == 0);
    store_free_srv_files(f, nf);
    free(o);
    store_close(st);
    remove_file();
    free(file);
}

/* A child process takes the write lock of `path` with plain SQLite
 * (journal mode `mode`) and holds it until its pipe closes. */
static pid_t hold_write_lock(const char *path, const char *mode, int *release)
{
    int ready[2], go[2];
    char c = 0;
    pid_t pid;
    if (pipe(ready) != 0 || pipe(go) != 0)
        return -1;
    if ((pid = fork()) == 0) {
        sqlite3 *db = NULL;
        char sql[80];
        close(ready[0]);
        close(go[1]);
        snprintf(sql, sizeof(sql), "PRAGMA journal_mode=%s; BEGIN IMMEDIATE;", mode);
        if (sqlite3_open(path, &db) != SQLITE_OK ||
            sqlite3_exec(db, "CREATE TABLE IF NOT EXISTS t(x)", NULL, NULL, NULL) != SQLITE_OK ||
            sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
            _exit(1);
        c = 1;
        if (write(ready[1], &c, 1) != 1 || read(go[0], &c, 1) < 0)
            _exit(1);
        _exit(0);
    }
    close(ready[1]);
    close(go[0]);
    if (read(ready[0], &c, 1) != 1)
        c = 0;
    close(ready[0]);
    *release = go[1];
    return c == 1 ? pid : -1;
}

/* The lock holder is named by pid and comm, in WAL mode (the -shm write
 * byte) and in rollback mode (RESERVED); a free database names no one,
 * and a connection of this process keeps its own locks while asking. */
static void store_should_name_the_process_holding_the_lock(void)
{
    char path[100], who[128], want[128];
    const char *modes[] = {"WAL", "DELETE"};
    size_t m;

    for (m = 0; m < 2; m++) {
        int release = -1, status = 0;
        pid_t pid;
        snprintf(path, sizeof(path), "%s/cow_lock_%ld_%zu.db",
                 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (long)getpid(), m);
        CHECK_INT(store_lock_holder(path, who, sizeof(who)), 0);
        pid = hold_write_lock(path, modes[m], &release);
        CHECK(pid > 0);
        if (pid <= 0)
            continue;
        snprintf(want, sizeof(want), "pid %ld (test_store)", (long)pid);
        CHECK_INT(store_lock_holder(path, who, sizeof(who)), 1);
        CHECK_STR(who, want);
        {
            /* a connection of ours, then asking again: its lock is kept */
            cow_store *st = NULL;
            cow_err e = COW_ERR_INIT;
            CHECK_INT(store_open_wait(path, NULL, NULL, 200, &st, &e), COW_ESQL);
            CHECK(strstr(e.msg, want) != NULL);
            store_close(st);
        }
        close(release);
        waitpid(pid, &status, 0);
        CHECK_INT(store_lock_holder(path, who, sizeof(who)), 0);
        CHECK_STR(who, "");
        unlink(path);
        snprintf(want, sizeof(want), "%s-shm", path);
        unlink(want);
        snprintf(want, sizeof(want), "%s-wal", path);
        unlink(want);
    }
    CHECK_INT(store_lock_holder(":memory:", who, sizeof(who)), 0);
}

static int count_input(void *ctx, const cow_input_row *r)
{
    int *n = ctx;
    (void)r;
    (*n)++;
    return 0;
}

/* A file refused (or not recognised) again is stored once: re-ingesting a
 * tree used to double every refusal ("2 files of this run were refused"
 * for one). The latest reason stands; unrecognised files are listed but
 * are no refusal for the doctor. Migration 011 removes the duplicates an
 * older database holds. */
static void store_should_keep_one_refusal_per_file(void)
{
    cow_store *st = open_file();
    cow_err e = COW_ERR_INIT;
    cow_fact f;
    int n = 0, i;
    for (i = 0; i < 2; i++) {
        CHECK_INT(store_add_refusal(st, 0, "r", "/d/r/bad.csv", 3, "latency-csv", "unit",
                                    i ? "no unit, again" : "no unit", &e), COW_OK);
        CHECK_INT(store_add_refusal(st, 0, "r", "/d/r/notes.md", 0, NULL, "unrecognised",
                                    "no parser recognises it", &e), COW_OK);
    }
    CHECK_ROWS("SELECT label, path, code, reason FROM refusals ORDER BY path",
               "r|/d/r/bad.csv|unit|no unit, again\n"
               "r|/d/r/notes.md|unrecognised|no parser recognises it\n");
    memset(&f, 0, sizeof(f));
    CHECK_INT(store_fact_refusals(st, "r", &f, &e), COW_OK);
    CHECK_NEAR(f.num, 1, 0);
    CHECK_INT(store_list_inputs(st, 0, count_input, &n, &e), COW_OK);
    CHECK_INT(n, 2);
    store_close(st);
    /* an older database with a refusal recorded twice: the migration keeps
     * the latest row */
    {
        sqlite3 *db = NULL;
        CHECK_INT(sqlite3_open(db_path, &db), SQLITE_OK);
        /* version 10: before 011 (this index), 017 (run_facts), 019, 020, 021,
         * 022, 023 (runs.synthetic, read from the run.json kept in meta) */
        CHECK_INT(sqlite3_exec(db, "DROP TABLE quiet;"
                               "DROP TABLE server_facts; DROP TABLE answers;"
                               "DROP TABLE repl_syncs; DROP TABLE windows;"
                               "DROP TABLE run_facts;"
                               "ALTER TABLE samples DROP COLUMN alt_us;"
                               "ALTER TABLE deltas DROP COLUMN why;"
                               "ALTER TABLE deltas DROP COLUMN local_base;"
                               "ALTER TABLE phases DROP COLUMN unstable;"
                               "ALTER TABLE runs DROP COLUMN ingested_on;"
                               "ALTER TABLE runs DROP COLUMN uid;"
                               "ALTER TABLE runs DROP COLUMN synthetic;"
                               "INSERT INTO runs(label, meta, created_at) VALUES"
                               " ('gen', '{\"synthetic\": true}', 1),"
                               " ('real', '{\"synthetic\": false}', 1),"
                               " ('said', '{\"synthetic\": \"true\"}', 1),"
                               " ('bare', NULL, 1);"
                               "DROP INDEX refusals_file;"
                               "INSERT INTO refusals(label, path, code, reason, at)"
                               " VALUES('r', '/d/r/bad.csv', 'unit', 'recorded last', 1);"
                               "PRAGMA user_version = 10;", NULL, NULL, NULL), SQLITE_OK);
        sqlite3_close(db);
    }
    CHECK_ROWS("SELECT count(*) FROM refusals WHERE path = '/d/r/bad.csv'", "2\n");
    CHECK_INT(store_open(db_path, &st, &e), COW_OK);
    CHECK_ROWS("SELECT count(*) FROM refusals WHERE path = '/d/r/bad.csv'", "1\n");
    CHECK_ROWS("SELECT reason FROM refusals WHERE path = '/d/r/bad.csv'", "recorded last\n");
    CHECK_ROWS("SELECT label || '=' || synthetic FROM runs WHERE label IN"
               " ('gen', 'real', 'said', 'bare') ORDER BY label",
               "bare=0\ngen=1\nreal=0\nsaid=0\n");
    store_close(st);
    remove_file();
}

/* run_facts: the columns are the descriptor's, in order and type, each
 * with its _src; a known fact round-trips (INT rounded, TEXT as written),
 * an unknown one is NULL, a run without a row reads as absent; a new run
 * knows the machine that ingested it and has a uid, and no host. */
static void store_should_round_trip_run_facts_by_the_descriptor(void)
{
    cow_store *st = open_file();
    cow_err e = COW_ERR_INIT;
    int64_t run = add_run(st, "f"), other = add_run(st, "g");
    cow_fact v[COW_RF_COUNT], back[COW_RF_COUNT];
    char want[2048], sql[256];
    size_t n = 0;
    int i, present = -1;

    for (i = 0; i < COW_RF_COUNT; i++)
        n += (size_t)snprintf(want + n, sizeof(want) - n, "%s|%s\n%s_src|TEXT\n",
                              cow_rf_cols[i].name,
                              cow_rf_cols[i].type == COW_RF_INT ? "INTEGER" : "TEXT",
                              cow_rf_cols[i].name);
    snprintf(want + n, sizeof(want) - n, "stored_at|INTEGER\n");
    CHECK_ROWS("SELECT name, type FROM pragma_table_info('run_facts') WHERE name != 'run'",
               want);
    for (i = 0; i < COW_RF_COUNT; i++)
        CHECK_STR(cow_rf_cols[i].ch_type, cow_rf_cols[i].type == COW_RF_INT
                                          ? "Nullable(Int64)" : "Nullable(String)");

    memset(v, 0, sizeof(v));
    for (i = 0; i < COW_RF_COUNT; i++)
        v[i].num = NAN;
    v[RF_SERVER_KIND].known = 1;
    snprintf(v[RF_SERVER_KIND].text, sizeof(v[0].text), "valkey");
    snprintf(v[RF_SERVER_KIND].src, sizeof(v[0].src), "info.txt:3");
    v[RF_USED_MEMORY].known = 1;
    v[RF_USED_MEMORY].num = 1073741824.4;
    snprintf(v[RF_USED_MEMORY].src, sizeof(v[0].src), "info.txt:40");
    v[RF_SAVE].known = 1; /* known and empty: no snapshots */
    v[RF_FORK_USEC].known = 1; /* known, not a number: NULL */
    CHECK_INT(store_run_facts_put(st, run, v, &e), COW_OK);
    CHECK_INT(store_run_facts_put(st, run, v, &e), COW_OK); /* replaces */
    snprintf(sql, sizeof(sql), "SELECT count(*), server_kind, server_kind_src, used_memory,"
             " typeof(used_memory), save_rules, latest_fork_usec IS NULL, role IS NULL,"
             " stored_at > 0 FROM run_facts WHERE run = %lld", (long long)run);
    CHECK_ROWS(sql, "1|valkey|info.txt:3|1073741824|integer||1|1|1\n");
    CHECK_INT(store_run_facts_get(st, run, back, &present, &e), COW_OK);
    CHECK_INT(present, 1);
    CHECK_STR(back[RF_SERVER_KIND].text, "valkey");
    CHECK_STR(back[RF_USED_MEMORY].src, "info.txt:40");
    CHECK_NEAR(back[RF_USED_MEMORY].num, 1073741824.0, 0);
    CHECK_INT(back[RF_ROLE].known, 0);
    CHECK_INT(back[RF_SAVE].known, 1);
    CHECK_INT(store_run_facts_get(st, other, back, &present, &e), COW_OK);
    CHECK_INT(present, 0);
    CHECK_INT(back[RF_SERVER_KIND].known, 0);

    CHECK_ROWS("SELECT count(*), count(host), count(ingested_on), count(DISTINCT uid),"
               " min(length(uid)) FROM runs",
               "2|0|2|2|16\n");

    /* server_facts: the descriptor's server facts, in order, after (run,
     * server); a host fact given is not stored there */
    n = 0;
    for (i = 0; i < COW_RF_COUNT; i++)
        if (cow_rf_cols[i].server)
            n += (size_t)snprintf(want + n, sizeof(want) - n, "%s|%s\n%s_src|TEXT\n",
                                  cow_rf_cols[i].name,
                                  cow_rf_cols[i].type == COW_RF_INT ? "INTEGER" : "TEXT",
                                  cow_rf_cols[i].name);
    snprintf(want + n, sizeof(want) - n, "stored_at|INTEGER\n");
    CHECK_ROWS("SELECT name, type FROM pragma_table_info('server_facts')"
               " WHERE name NOT IN ('run', 'server')", want);
    CHECK(cow_rf_cols[RF_USED_MEMORY].server && !cow_rf_cols[RF_KERNEL].server);
    v[RF_KERNEL].known = 1;
    snprintf(v[RF_KERNEL].text, sizeof(v[0].text), "6.1.0");
    CHECK_INT(store_server_facts_put(st, run, 2, v, &e), COW_OK);
    CHECK_INT(store_server_facts_get(st, run, 2, back, &present, &e), COW_OK);
    CHECK_INT(present, 1);
    CHECK_STR(back[RF_SERVER_KIND].text, "valkey");
    CHECK_NEAR(back[RF_USED_MEMORY].num, 1073741824.0, 0);
    CHECK_INT(back[RF_KERNEL].known, 0);
    CHECK_INT(store_server_facts_get(st, run, 1, back, &present, &e), COW_OK);
    CHECK_INT(present, 0);
    CHECK_INT(store_clear_run_rows(st, "server_facts", run, &e), COW_OK);
    CHECK(store_clear_run_rows(st, "runs", run, &e) == COW_EINTERNAL);
    CHECK_ROWS("SELECT count(*) FROM server_facts", "0\n");
    store_close(st);
    remove_file();
}

int main(void)
{
    RUN(store_should_apply_every_migration);
    RUN(store_should_name_the_process_holding_the_lock);
    RUN(store_should_find_runs_by_label);
    RUN(store_should_insert_samples_in_any_batch_size);
    RUN(store_should_add_infos_as_single_records);
    RUN(store_should_forget_a_rolled_back_file);
    RUN(store_should_give_either_reading_of_a_sample);
    RUN(store_should_keep_nothing_of_a_failed_sample_batch);
    RUN(store_should_take_every_record_kind);
    RUN(store_should_round_trip_every_column_of_every_record);
    RUN(store_should_round_trip_results_and_findings);
    RUN(store_should_round_trip_run_facts_by_the_descriptor);
    RUN(store_should_refuse_an_unwritable_path);
    RUN(store_should_keep_a_long_path_whole);
    RUN(store_should_keep_one_refusal_per_file);
    return REPORT();
}
