/* test_merge_hostile.c -- merge reads a hostile database as data: a planted
 * view (a recursive CTE named events), a trigger, an extra column, a column
 * of another type, random pages and a newer schema are refused with a
 * message that names the file and says what happened; a runaway statement
 * ends at the step budget. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "minunit.h"
#include "schema_sql.h"
#include "store.h"
#include "store_fleet.h"

static char in_path[64];

/* A small good input: one run, ingested the store's way. */
static void make_input(void)
{
    cow_store *st = NULL;
    cow_err e = COW_ERR_INIT;
    cow_run_meta m;
    int64_t id = 0;
    int fd;

    snprintf(in_path, sizeof(in_path), "/tmp/cow_test_mhXXXXXX");
    fd = mkstemp(in_path);
    CHECK(fd >= 0);
    close(fd);
    unlink(in_path);
    CHECK_INT(store_open(in_path, &st, &e), COW_OK);
    memset(&m, 0, sizeof(m));
    m.label = "hostile/run";
    m.trial = -1;
    CHECK_INT(store_run_upsert(st, &m, &id, &e), COW_OK);
    store_close(st);
}

/* The input and its WAL sidecars. */
static void drop_input(void)
{
    static const char *const sides[] = {"", "-wal", "-shm"};
    char side[96];
    size_t i;
    for (i = 0; i < sizeof(sides) / sizeof(sides[0]); i++) {
        snprintf(side, sizeof(side), "%s%s", in_path, sides[i]);
        unlink(side);
    }
}

/* Run sql on the input with plain SQLite (the planting). */
static void plant(const char *sql)
{
    sqlite3 *db;
    char *msg = NULL;
    CHECK_INT(sqlite3_open(in_path, &db), SQLITE_OK);
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        fprintf(stderr, "planting: %s\n", msg ? msg : "?");
        CHECK(0);
    }
    sqlite3_free(msg);
    sqlite3_close(db);
}

/* Merge the input into a fresh output; the code, and the message in msg. */
static int merge_it(long long budget, char *msg, size_t cap)
{
    cow_store *out = NULL;
    cow_err e = COW_ERR_INIT;
    cow_merge_opts mo;
    cow_merge_stats ms;
    int rc;

    memset(&mo, 0, sizeof(mo));
    mo.budget_steps = budget;
    CHECK_INT(store_open(":memory:", &out, &e), COW_OK);
    rc = store_merge(out, in_path, &mo, &ms, &e);
    snprintf(msg, cap, "%s", e.msg);
    store_close(out);
    return rc;
}

/* The input as planted is refused, its name and `want` in the message. */
static void refused(const char *what, const char *want)
{
    char msg[600];
    int rc = merge_it(0, msg, sizeof(msg));
    if (rc != COW_EUSAGE || strstr(msg, in_path) == NULL || strstr(msg, want) == NULL) {
        fprintf(stderr, "%s: rc %d: %s (wanted '%s')\n", what, rc, msg, want);
        CHECK(0);
    }
}

static void merge_should_take_a_good_input(void)
{
    char msg[600];
    make_input();
    CHECK_INT(merge_it(0, msg, sizeof(msg)), COW_OK);
    drop_input();
}

static void merge_should_refuse_a_view_in_place_of_a_table(void)
{
    char msg[600];
    make_input();
    plant("DROP TABLE events; CREATE VIEW events AS WITH RECURSIVE c(n) AS"
          " (SELECT 1 UNION ALL SELECT n + 1 FROM c) SELECT n AS run, n AS file,"
          " n AS line, n AS t_us, 'x' AS kind, n AS pid, n AS value, '' AS unit,"
          " '' AS text FROM c");
    /* within 20 s either way: the test's alarm is ctest's timeout */
    CHECK_INT(merge_it(0, msg, sizeof(msg)), COW_EUSAGE);
    CHECK(strstr(msg, "events") != NULL);
    CHECK(strstr(msg, "not what cowtail writes") != NULL);
    drop_input();
}

static void merge_should_refuse_a_planted_trigger(void)
{
    make_input();
    plant("CREATE TRIGGER t AFTER INSERT ON runs BEGIN DELETE FROM files; END");
    refused("trigger", "trigger t");
    drop_input();
}

static void merge_should_refuse_an_extra_column(void)
{
    make_input();
    plant("ALTER TABLE info ADD COLUMN evil TEXT");
    refused("extra column", "table info (other columns)");
    drop_input();
}

static void merge_should_refuse_a_column_of_another_type(void)
{
    make_input();
    plant("DROP TABLE mem; CREATE TABLE mem(run INTEGER, file INTEGER, t_us TEXT,"
          " bytes INTEGER, what TEXT)");
    refused("wrong type", "table mem (other columns)");
    drop_input();
}

static void merge_should_refuse_a_virtual_or_missing_table(void)
{
    make_input();
    plant("DROP TABLE stats");
    refused("missing table", "table stats (missing");
    drop_input();
}

static void merge_should_call_random_pages_damaged(void)
{
    FILE *fp;
    long size, off;
    unsigned seed = 7;
    int i;

    make_input();
    plant("PRAGMA journal_mode = DELETE");
    fp = fopen(in_path, "r+b");
    CHECK(fp != NULL);
    if (fp == NULL)
        return;
    fseek(fp, 0, SEEK_END);
    size = ftell(fp);
    /* every page but the header's first 100 bytes gets noise */
    for (off = 100; off < size; off += 97) {
        fseek(fp, off, SEEK_SET);
        for (i = 0; i < 13; i++) {
            seed = seed * 1103515245u + 12345u;
            fputc((int)(seed >> 16) & 0xff, fp);
        }
    }
    fclose(fp);
    refused("random pages", "is damaged (malformed) or not a cowtail database");
    drop_input();
    /* and a file that is no database at all */
    make_input();
    fp = fopen(in_path, "wb");
    CHECK(fp != NULL);
    if (fp) {
        for (i = 0; i < 8192; i++)
            fputc(i * 7 & 0xff, fp);
        fclose(fp);
    }
    refused("noise", "is damaged (malformed) or not a cowtail database");
    drop_input();
}

static void merge_should_send_a_newer_schema_to_a_newer_cowtail(void)
{
    char sql[64];
    make_input();
    snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", cow_migration_count + 1);
    plant(sql);
    refused("newer schema", "written by a newer cowtail");
    refused("newer schema", "upgrade cowtail");
    drop_input();
}

static void merge_should_stop_a_statement_past_its_budget(void)
{
    char msg[600];
    make_input();
    CHECK_INT(merge_it(5000, msg, sizeof(msg)), COW_EUSAGE);
    CHECK(strstr(msg, "a statement ran past its budget") != NULL);
    CHECK(strstr(msg, in_path) != NULL);
    drop_input();
}

static void merge_should_leave_the_input_untouched(void)
{
    char msg[600];
    sqlite3 *db;
    sqlite3_stmt *q;
    make_input();
    plant("PRAGMA journal_mode = DELETE");
    CHECK_INT(merge_it(0, msg, sizeof(msg)), COW_OK);
    /* attached read-only: a write through the merge's connection is refused
     * (checked here by the schema staying as it was) */
    CHECK_INT(sqlite3_open_v2(in_path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    CHECK_INT(sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_schema WHERE type = 'table'"
                                 " AND name LIKE 'sqlite_%'", -1, &q, NULL), SQLITE_OK);
    CHECK_INT(sqlite3_step(q), SQLITE_ROW);
    sqlite3_finalize(q);
    sqlite3_close(db);
    drop_input();
}

int main(void)
{
    RUN(merge_should_take_a_good_input);
    RUN(merge_should_refuse_a_view_in_place_of_a_table);
    RUN(merge_should_refuse_a_planted_trigger);
    RUN(merge_should_refuse_an_extra_column);
    RUN(merge_should_refuse_a_column_of_another_type);
    RUN(merge_should_refuse_a_virtual_or_missing_table);
    RUN(merge_should_call_random_pages_damaged);
    RUN(merge_should_send_a_newer_schema_to_a_newer_cowtail);
    RUN(merge_should_stop_a_statement_past_its_budget);
    RUN(merge_should_leave_the_input_untouched);
    return REPORT();
}
