/* test_servers.c -- which server each file of a capture came from
 * (app/servers.c): content first (INFO identity, log pids and ports,
 * CONFIG port), a fork child under the server that forked it, then
 * run.json roles, names, and the primary by default. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "minunit.h"
#include "servers.h"

static cow_srv_file files[16];
static size_t nf;
static cow_srv_obs obs[16];
static size_t no;

static void reset(void)
{
    for (size_t i = 0; i < nf; i++)
        free(files[i].path);
    memset(files, 0, sizeof(files));
    memset(obs, 0, sizeof(obs));
    nf = no = 0;
}

static void file(const char *path, const char *parser, int proc_stats)
{
    files[nf].file = (int64_t)nf + 1;
    files[nf].path = xstrdup(path);   /* freed by reset() */
    snprintf(files[nf].parser, sizeof(files[nf].parser), "%s", parser);
    files[nf++].proc_stats = proc_stats;
}

static void info(int64_t f, const char *run_id, const char *role, int64_t pid,
                 int64_t port)
{
    cow_srv_obs *o = &obs[no++];
    o->file = f;
    o->kind = COW_OBS_INFO;
    snprintf(o->run_id, sizeof(o->run_id), "%s", run_id);
    snprintf(o->role, sizeof(o->role), "%s", role);
    o->pid = pid;
    o->port = port;
    o->dumps = 1;
    snprintf(o->version, sizeof(o->version), "7.0.15");
}

static void proc(int64_t f, int64_t pid, const char *roles, int64_t parent, int replica,
                 int64_t port)
{
    cow_srv_obs *o = &obs[no++];
    o->file = f;
    o->kind = COW_OBS_LOG;
    o->pid = pid;
    snprintf(o->roles, sizeof(o->roles), "%s", roles);
    o->parent = parent;
    o->replica = replica;
    o->server = strchr(roles, 'M') != NULL;
    o->port = port;
}

static void config(int64_t f, int64_t port)
{
    cow_srv_obs *o = &obs[no++];
    o->file = f;
    o->kind = COW_OBS_CONFIG;
    o->port = port;
}

/* The server of file f (pid: a log's process, 0 for the whole file); 0
 * when it has none, -1 when it has several. */
static int server_of(const cow_server_link *lk, size_t nl, int64_t f, int64_t pid)
{
    size_t i;
    int s = 0;
    for (i = 0; i < nl; i++)
        if (lk[i].file == f && lk[i].pid == pid)
            s = s == 0 ? lk[i].server : -1;
    return s;
}

static const char *how_of(const cow_server_link *lk, size_t nl, int64_t f)
{
    size_t i;
    for (i = 0; i < nl; i++)
        if (lk[i].file == f)
            return lk[i].how;
    return "";
}

static void a_primary_and_its_replica_should_be_told_apart(void)
{
    const char *named[16] = {NULL};
    cow_server_row *sv;
    cow_server_link *lk;
    size_t ns, nl;

    reset();
    file("redis.log", "redis-log", 0);                   /* 1 */
    file("replica/replica.log", "redis-log", 0);         /* 2 */
    file("info/info-1.txt", "redis-info", 0);            /* 3 */
    file("replica_info/info-1.txt", "redis-info", 0);    /* 4 */
    file("config.txt", "redis-config", 0);               /* 5 */
    file("replica/replica.conf", "redis-conf", 0);       /* 6: no port */
    file("smaps_rollup-1.txt", "smaps", 1);              /* 7 */
    file("latency.csv", "latency-csv", 0);               /* 8 */
    file("sysctl.txt", "procfs", 0);                     /* 9 */
    file("replica/smaps_rollup-1.txt", "smaps", 1);      /* 10 */
    named[1] = named[3] = named[5] = named[9] = "replica";
    proc(1, 100, "CM", 0, 0, 7301);
    proc(1, 200, "C", 100, 0, 0);       /* the BGSAVE child */
    proc(2, 300, "CMS", 0, 1, 7302);
    info(3, "aaaa", "master", 100, 7301);
    info(4, "bbbb", "slave", 300, 7302);
    config(5, 7301);
    servers_attribute(files, nf, obs, no, NULL, named, &sv, &ns, &lk, &nl);
    CHECK_INT(ns, 2);
    CHECK_INT(sv[0].seq, 1);
    CHECK_STR(sv[0].role, "primary");
    CHECK_INT(sv[0].pid, 100);
    CHECK_INT(sv[0].port, 7301);
    CHECK_STR(sv[0].run_id, "aaaa");
    CHECK_STR(sv[0].version, "7.0.15");
    CHECK_STR(sv[0].how, "INFO dumps 1, log pid 100, CONFIG port");
    CHECK_STR(sv[1].role, "replica");
    CHECK_INT(sv[1].pid, 300);
    CHECK_INT(sv[1].port, 7302);
    CHECK_STR(sv[1].run_id, "bbbb");
    CHECK_INT(server_of(lk, nl, 1, 100), 1);
    CHECK_INT(server_of(lk, nl, 1, 200), 1); /* a child is its parent's */
    CHECK_INT(server_of(lk, nl, 2, 300), 2);
    CHECK_INT(server_of(lk, nl, 3, 0), 1);
    CHECK_INT(server_of(lk, nl, 4, 0), 2);
    CHECK_INT(server_of(lk, nl, 5, 0), 1);
    CHECK_STR(how_of(lk, nl, 5), "content");
    CHECK_INT(server_of(lk, nl, 6, 0), 2);   /* by its name */
    CHECK_STR(how_of(lk, nl, 6), "name");
    CHECK_INT(server_of(lk, nl, 7, 0), 1);   /* by default */
    CHECK_STR(how_of(lk, nl, 7), "default");
    CHECK_INT(server_of(lk, nl, 8, 0), 0);   /* client file: no server */
    CHECK_INT(server_of(lk, nl, 9, 0), 0);   /* host file: no server */
    CHECK_INT(server_of(lk, nl, 10, 0), 2);
    free(sv);
    free(lk);
}

static void a_log_two_servers_wrote_should_be_split_per_pid(void)
{
    cow_server_row *sv;
    cow_server_link *lk;
    size_t ns, nl;

    reset();
    file("redis.log", "redis-log", 0);
    proc(1, 300, "CMS", 0, 1, 7302);    /* the replica wrote first */
    proc(1, 100, "CM", 0, 0, 7301);
    proc(1, 101, "C", 100, 0, 0);
    proc(1, 301, "C", 300, 0, 0);       /* the replica's own BGSAVE child */
    servers_attribute(files, nf, obs, no, NULL, NULL, &sv, &ns, &lk, &nl);
    CHECK_INT(ns, 2);
    CHECK_STR(sv[0].role, "primary");   /* primary first, whoever wrote first */
    CHECK_INT(sv[0].pid, 100);
    CHECK_STR(sv[1].role, "replica");
    CHECK_INT(sv[1].pid, 300);
    CHECK_INT(server_of(lk, nl, 1, 100), 1);
    CHECK_INT(server_of(lk, nl, 1, 101), 1);
    CHECK_INT(server_of(lk, nl, 1, 300), 2);
    CHECK_INT(server_of(lk, nl, 1, 301), 2);
    free(sv);
    free(lk);
}

static void run_json_roles_should_win_and_names_fill_in(void)
{
    const char *declared[16] = {NULL}, *named[16] = {NULL};
    cow_server_row *sv;
    cow_server_link *lk;
    size_t ns, nl;

    reset();
    file("a/info.txt", "redis-info", 0);      /* INFO says master ... */
    file("b/info.txt", "redis-info", 0);
    file("b/latency-latest.txt", "redis-latency", 0);
    file("lonely.log", "redis-log", 0);
    info(1, "aaaa", "master", 100, 7301);
    info(2, "bbbb", "master", 200, 7302);
    proc(4, 555, "C", 0, 0, 0);                /* a child whose parent is not logged */
    declared[0] = "replica";                   /* ... run.json says replica */
    declared[2] = "replica";
    named[2] = "primary";                      /* run.json before the name */
    servers_attribute(files, nf, obs, no, declared, named, &sv, &ns, &lk, &nl);
    CHECK_INT(ns, 2);
    CHECK_STR(sv[0].role, "primary");
    CHECK_INT(sv[0].pid, 200);
    CHECK_STR(sv[1].role, "replica");
    CHECK_INT(sv[1].pid, 100);
    CHECK_STR(sv[1].how, "run.json role, INFO dumps 1");
    CHECK_INT(server_of(lk, nl, 1, 0), 2);
    CHECK_INT(server_of(lk, nl, 3, 0), 2);
    CHECK_STR(how_of(lk, nl, 3), "run.json");
    /* the orphan child: its file names no server, so the primary's */
    CHECK_INT(server_of(lk, nl, 4, 555), 1);
    free(sv);
    free(lk);
}

static void files_that_name_no_server_should_make_one(void)
{
    const char *named[16] = {NULL};
    cow_server_row *sv;
    cow_server_link *lk;
    size_t ns, nl;

    reset();
    file("replica/smaps_rollup-1.txt", "smaps", 1);
    file("latency.csv", "latency-csv", 0);
    named[0] = "replica";
    servers_attribute(files, nf, obs, no, NULL, named, &sv, &ns, &lk, &nl);
    CHECK_INT(ns, 1);
    CHECK_STR(sv[0].role, "replica");
    CHECK_INT(sv[0].pid, 0);
    CHECK_STR(sv[0].how, "no file names it: the replica's by name");
    CHECK_INT(nl, 1);
    CHECK_INT(server_of(lk, nl, 1, 0), 1);
    free(sv);
    free(lk);
    /* nothing of a server at all: no server */
    reset();
    file("latency.csv", "latency-csv", 0);
    servers_attribute(files, nf, obs, no, NULL, NULL, &sv, &ns, &lk, &nl);
    CHECK_INT(ns, 0);
    CHECK_INT(nl, 0);
    free(sv);
    free(lk);
}

static void a_restart_should_stay_one_server_by_its_port(void)
{
    cow_server_row *sv;
    cow_server_link *lk;
    size_t ns, nl;

    reset();
    file("info-1.txt", "redis-info", 0);
    file("info-2.txt", "redis-info", 0);
    info(1, "aaaa", "master", 100, 7301);
    info(2, "cccc", "master", 150, 7301); /* new run_id and pid, same port */
    servers_attribute(files, nf, obs, no, NULL, NULL, &sv, &ns, &lk, &nl);
    CHECK_INT(ns, 1);
    CHECK_STR(sv[0].run_id, "cccc");      /* the last one seen */
    CHECK_INT(sv[0].pid, 150);
    CHECK_INT(server_of(lk, nl, 1, 0), 1);
    CHECK_INT(server_of(lk, nl, 2, 0), 1);
    free(sv);
    free(lk);
}

int main(void)
{
    RUN(a_primary_and_its_replica_should_be_told_apart);
    RUN(a_log_two_servers_wrote_should_be_split_per_pid);
    RUN(run_json_roles_should_win_and_names_fill_in);
    RUN(files_that_name_no_server_should_make_one);
    RUN(a_restart_should_stay_one_server_by_its_port);
    reset();
    return REPORT();
}
