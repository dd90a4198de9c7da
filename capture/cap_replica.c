/* cap_replica.c -- the replica of `--trigger replicaof=HOST:PORT`
 * (cap_int.h): its role read before the capture, a server whose own data
 * set a full sync would replace refused, and its role given back at the
 * end unless --keep-replica. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cap_int.h"

/* Does a replica following mhost:mport already follow the captured server? */
static int is_this_primary(const cap_opts *o, const char *mhost, long long mport)
{
    return mport == o->port && (strcmp(mhost, o->host) == 0 ||
                                (strcmp(o->host, "127.0.0.1") == 0 &&
                                 strcmp(mhost, "localhost") == 0) ||
                                (strcmp(o->host, "localhost") == 0 &&
                                 strcmp(mhost, "127.0.0.1") == 0));
}

int cap_replica_check(cap_ctx *c, trig_state *tg, cow_err *e)
{
    const cap_opts *o = c->o;
    redisContext *rr;
    redisReply *rep;
    char role[32] = "", mhost[256] = "";
    long long mport = 0, keys = 0;
    cow_err ce = COW_ERR_INIT;

    if (o->trigger != CAP_TRIG_REPLICAOF)
        return COW_OK;
    rr = cap_connect(o, o->replica_host, o->replica_port, NULL, 5000, &ce);
    if (rr == NULL)
        return COW_FAIL(e, COW_EIO, "--trigger replicaof: the replica: %s", ce.msg);
    rep = cap_cmd(rr, "INFO replication");
    if (rep == NULL || rep->type != REDIS_REPLY_STRING) {
        if (rep)
            freeReplyObject(rep);
        redisFree(rr);
        return COW_FAIL(e, COW_EIO, "--trigger replicaof: the replica at %s:%d did not "
                        "answer INFO replication", o->replica_host, o->replica_port);
    }
    cap_info_field(rep->str, "role", role, sizeof(role));
    cap_info_field(rep->str, "master_host", mhost, sizeof(mhost));
    mport = cap_info_ll(rep->str, "master_port", 0);
    freeReplyObject(rep);
    rep = cap_cmd(rr, "DBSIZE");
    if (rep && rep->type == REDIS_REPLY_INTEGER)
        keys = rep->integer;
    if (rep)
        freeReplyObject(rep);
    redisFree(rr);

    if (strcmp(role, "master") == 0) {
        tg->rep_master[0] = '\0';
    } else if (mhost[0] && mport > 0) {
        snprintf(tg->rep_master, sizeof(tg->rep_master), "%s %lld", mhost, mport);
    } else {
        return COW_FAIL(e, COW_EUSAGE, "--trigger replicaof: the server at %s:%d has role "
                        "'%s' and no master it follows: its role could not be given "
                        "back; point the trigger at a primary or at a replica",
                        o->replica_host, o->replica_port, role[0] ? role : "unknown");
    }
    tg->rep_known = 1;
    if (keys > 0 && !(tg->rep_master[0] && is_this_primary(o, mhost, mport)))
        return COW_FAIL(e, COW_EUSAGE, "--trigger replicaof: the server at %s:%d holds "
                        "%lld keys of its own (role %s%s%s), which the full sync would "
                        "replace with this server's data set; point the trigger at an "
                        "empty server started for the capture (redis-server --port N), "
                        "or empty that one first (FLUSHALL) if its data does not matter",
                        o->replica_host, o->replica_port, keys, role,
                        tg->rep_master[0] ? ", a replica of " : "", tg->rep_master);
    return COW_OK;
}

void cap_replica_restore(cap_ctx *c, trig_state *tg)
{
    const cap_opts *o = c->o;
    redisContext *rr;
    redisReply *rep;
    cow_err ce = COW_ERR_INIT;
    char cmd[320];

    if (o->trigger != CAP_TRIG_REPLICAOF || !tg->sent)
        return;
    if (o->keep_replica) {
        snprintf(tg->rep_after, sizeof(tg->rep_after), "kept attached (--keep-replica): "
                 "%s:%d stays a replica of %s:%d", o->replica_host, o->replica_port,
                 o->host, o->port);
        return;
    }
    if (tg->rep_master[0])
        snprintf(cmd, sizeof(cmd), "REPLICAOF %s", tg->rep_master);
    else
        snprintf(cmd, sizeof(cmd), "REPLICAOF NO ONE");
    rr = cap_connect(o, o->replica_host, o->replica_port, NULL, 2000, &ce);
    if (rr == NULL)
        rep = NULL;
    else if (tg->rep_master[0]) {
        char h[256];
        long long p = 0;
        if (sscanf(tg->rep_master, "%255s %lld", h, &p) == 2)
            rep = cap_cmd(rr, "REPLICAOF %s %lld", h, p);
        else
            rep = NULL;
    } else {
        rep = cap_cmd(rr, "REPLICAOF NO ONE");
    }
    if (rep == NULL || rep->type == REDIS_REPLY_ERROR) {
        tg->rep_failed = 1;
        snprintf(tg->rep_after, sizeof(tg->rep_after), "NOT restored: %s to %s:%d "
                 "failed (%.150s); it is still a replica of %s:%d: run "
                 "'redis-cli -h %s -p %d %s'", cmd, o->replica_host, o->replica_port,
                 rr == NULL ? ce.msg : rep == NULL ? "no reply" : rep->str,
                 o->host, o->port, o->replica_host, o->replica_port, cmd);
    } else {
        snprintf(tg->rep_after, sizeof(tg->rep_after), "restored: %s:%d given back its "
                 "role with %s (%s; the data set it synced stays)", o->replica_host,
                 o->replica_port, cmd, tg->rep_master[0] ? "a replica of its master again"
                 : "a primary again");
    }
    if (rep)
        freeReplyObject(rep);
    if (rr)
        redisFree(rr);
}
