/* test_store.c -- the SQLite store: migrations, runs, files, samples,
 * records, transactions. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "minunit.h"
#include "store.h"

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

static void store_should_apply_every_migration(void)
{
    cow_store *st = open_mem();
    CHECK(store_schema_version(st) >= 1);
    store_close(st);
    store_close(NULL);
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

static void store_should_forget_a_rolled_back_file(void)
{
    cow_store *st = open_mem();
    cow_err e = COW_ERR_INIT;
    int64_t run = add_run(st, "r"), file = 0;
    cow_sample s = {1738591331000000LL, 5.0, NULL};
    cow_run_row *rows;
    size_t n;
    int seen = -1;

    CHECK_INT(store_begin(st, &e), COW_OK);
    CHECK_INT(store_file_begin(st, run, "x", 10, "latency-csv", &file, &e), COW_OK);
    CHECK_INT(store_add_samples(st, run, file, &s, 1, &e), COW_OK);
    store_rollback(st);
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

static void store_should_refuse_an_unwritable_path(void)
{
    cow_store *st = NULL;
    cow_err e = COW_ERR_INIT;
    CHECK_INT(store_open("/no/such/folder/x.db", &st, &e), COW_ESQL);
    CHECK(st == NULL);
    CHECK(strstr(e.msg, "/no/such/folder/x.db") != NULL);
}

int main(void)
{
    RUN(store_should_apply_every_migration);
    RUN(store_should_find_runs_by_label);
    RUN(store_should_insert_samples_in_any_batch_size);
    RUN(store_should_forget_a_rolled_back_file);
    RUN(store_should_take_every_record_kind);
    RUN(store_should_refuse_an_unwritable_path);
    return REPORT();
}
