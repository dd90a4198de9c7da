/* redislog_msg.c -- which server log messages are events, and the value
 * each carries (redislog_int.h): one table for every generation, matched
 * after redislog.c rewrote the words of other generations.
 *
 * Event kinds (cow_event.kind; value and unit in brackets; pid is always
 * the pid of the line, so a child's COW line carries the child pid):
 *
 *   server_start         "Redis|Valkey version=..., just started", R<=3.x
 *                        "Server started, Redis version X" (text = message)
 *   version              emitted with server_start (text = "7.0.15")
 *   server_ready         "Ready to accept connections[ tcp|unix|tls]"
 *   db_loaded            "DB loaded from disk|append only file: N seconds" [s]
 *   bgsave_trigger       "N changes in M seconds. Saving..." [N changes]
 *   sync_bgsave_start    "Starting BGSAVE for SYNC with target: ..."
 *                        [unit "disk" or "socket"]
 *   bgsave_start         "Background saving started by pid N" [child pid]
 *   rdb_saved            "DB saved on disk" (child, or foreground SAVE)
 *   rdb_keys_saved       R8 "BGSAVE done, N keys saved, M keys skipped, B bytes
 *                        written." [N keys]
 *   cow_rdb              "Fork CoW for RDB: current X MB, peak Y MB, ..." [Y MB]
 *                        or R<=6.2 "RDB: N MB of memory used by copy-on-write" [N MB]
 *   cow_aof, cow_module  the same for "AOF rewrite" / "Module fork" children
 *   cow_*_progress       the same lines logged at verbose level ('-' / info):
 *                        periodic progress, not the child's final report
 *   bgsave_done          "Background saving terminated with success"
 *   bgsave_error         "Background saving error", "Can't save in background..."
 *   bgsave_killed        "Background saving terminated by signal N" [signal]
 *   rdb_transfer_start   "Background RDB transfer started by pid N" [child pid]
 *   rdb_transfer_done    "Background RDB transfer terminated with success"
 *   rdb_transfer_error   "Background (RDB) transfer error"
 *   rdb_transfer_killed  "Background (RDB) transfer terminated by signal N" [signal]
 *   rdb_stream_done      "Streamed RDB transfer with replica X succeeded (socket)..."
 *   replica_sync_request "Replica X asks for synchronization"
 *   full_resync          "Full resync requested by replica X", "Partial
 *                        resynchronization not accepted...", "Unable to partial
 *                        resync with replica X for lack of backlog..."
 *   repl_backlog_created "Replication backlog created, my new replication IDs
 *                        are ...": the primary had no backlog (no replica
 *                        since it started): this replica's sync is its first
 *   partial_resync_ok    "Partial resynchronization request from X accepted.
 *                        Sending N bytes..." [N bytes]
 *   sync_success         "Synchronization with replica X succeeded"
 *   sync_bgsave_error    "BGSAVE for replication failed"
 *   replica_lost         "Connection with replica X lost."
 *   repl_connect         "Connecting to MASTER|PRIMARY host:port" (repeats on retry),
 *                        R2.6 "Connecting to MASTER..." (no address)
 *   repl_sync_start      "MASTER <-> REPLICA sync started"
 *   repl_full_resync     "Full resync from master: replid:offset"
 *   repl_partial_ok      "Successful partial resynchronization with master."
 *   repl_receive         "... sync: receiving N bytes from master ..." [N bytes],
 *                        or "... receiving streamed RDB ..." (no value)
 *   repl_flush           "... sync: Flushing old data"
 *   repl_load            "... sync: Loading DB in memory"
 *   repl_done            "... sync: Finished with success"
 *   repl_link_lost       "Connection with master lost."
 *   rdb_loaded           R7.0+ "Done loading RDB, keys loaded: N, ..." [N keys]
 *   role_change          "MASTER MODE enabled ..." (replica -> primary),
 *                        "Before turning into a replica ..." (primary -> replica);
 *                        "REPLICAOF X enabled" is not one: a replica moving
 *                        to another primary stays a replica
 *   aof_rewrite_trigger  "Starting automatic rewriting of AOF on N% growth" [N %]
 *   aof_rewrite_scheduled "Background append only file rewriting scheduled."
 *                        and "AOF was enabled but ... scheduled ..."
 *   aof_rewrite_start    "Background append only file rewriting started by pid N"
 *   aof_buffer           "Background AOF buffer size: N MB" [N MB]
 *   aof_rewrite_diff     "Concatenating X MB of AOF diff received from parent." [MB]
 *   aof_rewrite_residual "Residual parent diff successfully flushed ... (X MB)" [MB]
 *   aof_rewrite_done     "Background AOF rewrite terminated with success"
 *   aof_rewrite_finished "Background AOF rewrite finished successfully"
 *   aof_rewrite_error    "... terminated with error", "Can't rewrite append only
 *                        file in background...", "... has repeatedly failed ..."
 *   aof_rewrite_killed   "Background AOF rewrite terminated by signal N" [signal]
 *   forkless_scheduled   "Using forkless save for next backup"
 *   forkless_start       "Beginning forklessSaveToDisk"
 *   forkless_proc_start  "forkless-save: background processor started"
 *   forkless_proc_done   "forkless-save: background processor finished. N items
 *                        processed. [TERMINATED|***ERROR***]" [N items]
 *   forkless_completion  "forkless-save: completion proc - ok|terminated"
 *   forkless_done        "forkless-save: forkless save complete. N seconds." [s]
 *   forkless_failed      "... forkless save failed|terminated. N seconds." [s]
 *   forkless_cancelled   "... forkless save cancelled. N seconds." [s]
 *   forkless_error       other "forkless-save: error ..." lines
 *   warn_thp             "WARNING you|You have Transparent Huge Pages (THP) ..."
 *   warn_overcommit      "WARNING overcommit_memory is set to 0!" (R6.0),
 *                        "WARNING Memory overcommit must be enabled!" (R6.2+)
 *   warn_somaxconn       "WARNING: The TCP backlog setting of B cannot be enforced
 *                        ... lower value of S." [S]
 *   crash                "... crashed by signal: N" [signal], or "=== ASSERTION
 *                        FAILED ===" (no value; the next line names the assertion)
 *   shutdown             "User requested shutdown..."
 *   shutdown_signal      "Received SIGTERM|SIGINT scheduling shutdown..."
 *   final_save           "Saving the final RDB snapshot before exiting."
 *   server_exit          "... is now ready to exit, bye bye..." */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "num.h"
#include "redislog_int.h"

#define COW_MB " MB of memory used by copy-on-write"
#define SYNC "MASTER <-> REPLICA sync"

/* First match wins, so longer prefixes come before shorter ones. */
static const rl_rule rules[] = {
    {"Redis version=", NULL, "server_start", NULL, V_VERSION, NULL},
    {"Valkey version=", NULL, "server_start", NULL, V_VERSION, NULL},
    {"Server started, Redis version ", NULL, "server_start", NULL, V_VERSION, NULL},
    {"Ready to accept connections", NULL, "server_ready", NULL, V_NONE, NULL},
    {"The server is now ready to accept connections", NULL, "server_ready", NULL, V_NONE, NULL},
    {"DB loaded from disk: ", NULL, "db_loaded", NULL, V_AFTER, "s"},
    {"DB loaded from append only file: ", NULL, "db_loaded", NULL, V_AFTER, "s"},
    {"", " changes in ", "bgsave_trigger", NULL, V_LEAD, "changes"},
    {"Starting BGSAVE for SYNC with target: ", NULL, "sync_bgsave_start", NULL, V_TARGET, NULL},
    {"Background saving started by pid ", NULL, "bgsave_start", NULL, V_AFTER, "pid"},
    {"DB saved on disk", NULL, "rdb_saved", NULL, V_NONE, NULL},
    {"BGSAVE done, ", " keys saved", "rdb_keys_saved", NULL, V_AFTER, "keys"},
    {"Fork CoW for RDB: ", NULL, "cow_rdb", "cow_rdb_progress", V_PEAK, "MB"},
    {"Fork CoW for AOF rewrite: ", NULL, "cow_aof", "cow_aof_progress", V_PEAK, "MB"},
    {"Fork CoW for Module fork: ", NULL, "cow_module", "cow_module_progress", V_PEAK, "MB"},
    {"RDB: ", COW_MB, "cow_rdb", "cow_rdb_progress", V_AFTER, "MB"},
    {"AOF rewrite: ", COW_MB, "cow_aof", "cow_aof_progress", V_AFTER, "MB"},
    {"Module fork: ", COW_MB, "cow_module", "cow_module_progress", V_AFTER, "MB"},
    {"Background saving terminated with success", NULL, "bgsave_done", NULL, V_NONE, NULL},
    {"Background saving error", NULL, "bgsave_error", NULL, V_NONE, NULL},
    {"Can't save in background", NULL, "bgsave_error", NULL, V_NONE, NULL},
    {"Background saving terminated by signal ", NULL, "bgsave_killed", NULL, V_AFTER, "signal"},
    {"Background RDB transfer started by pid ", NULL, "rdb_transfer_start", NULL, V_AFTER, "pid"},
    {"Background RDB transfer terminated with success", NULL, "rdb_transfer_done", NULL, V_NONE, NULL},
    {"Background transfer error", NULL, "rdb_transfer_error", NULL, V_NONE, NULL},
    {"Background RDB transfer error", NULL, "rdb_transfer_error", NULL, V_NONE, NULL},
    {"Background transfer terminated by signal ", NULL, "rdb_transfer_killed", NULL, V_AFTER, "signal"},
    {"Background RDB transfer terminated by signal ", NULL, "rdb_transfer_killed", NULL, V_AFTER, "signal"},
    {"Streamed RDB transfer with replica ", " succeeded", "rdb_stream_done", NULL, V_NONE, NULL},
    {"Replica ", " asks for synchronization", "replica_sync_request", NULL, V_NONE, NULL},
    {"Full resync requested by replica ", NULL, "full_resync", NULL, V_NONE, NULL},
    {"Replication backlog created", NULL, "repl_backlog_created", NULL, V_NONE, NULL},
    {"Partial resynchronization not accepted", NULL, "full_resync", NULL, V_NONE, NULL},
    {"Unable to partial resync with replica ", NULL, "full_resync", NULL, V_NONE, NULL},
    {"Partial resynchronization request from ", " accepted. Sending ", "partial_resync_ok", NULL, V_AFTER_HAS, "bytes"},
    {"Synchronization with replica ", " succeeded", "sync_success", NULL, V_NONE, NULL},
    {"BGSAVE for replication failed", NULL, "sync_bgsave_error", NULL, V_NONE, NULL},
    {"Connection with replica ", " lost", "replica_lost", NULL, V_NONE, NULL},
    {"Connection with master lost", NULL, "repl_link_lost", NULL, V_NONE, NULL},
    {"Connecting to MASTER", NULL, "repl_connect", NULL, V_NONE, NULL}, /* 2.6: "MASTER..." */
    {"MASTER MODE enabled", NULL, "role_change", NULL, V_NONE, NULL},
    {"Before turning into a replica", NULL, "role_change", NULL, V_NONE, NULL},
    {SYNC " started", NULL, "repl_sync_start", NULL, V_NONE, NULL},
    {"Full resync from master: ", NULL, "repl_full_resync", NULL, V_NONE, NULL},
    {"Successful partial resynchronization with master", NULL, "repl_partial_ok", NULL, V_NONE, NULL},
    {SYNC ": receiving streamed RDB", NULL, "repl_receive", NULL, V_NONE, NULL},
    {SYNC ": receiving ", NULL, "repl_receive", NULL, V_AFTER, "bytes"},
    {SYNC ": Flushing old data", NULL, "repl_flush", NULL, V_NONE, NULL},
    {SYNC ": Loading DB in memory", NULL, "repl_load", NULL, V_NONE, NULL},
    {SYNC ": Finished with success", NULL, "repl_done", NULL, V_NONE, NULL},
    {"Done loading RDB, keys loaded: ", NULL, "rdb_loaded", NULL, V_AFTER, "keys"},
    {"Starting automatic rewriting of AOF on ", NULL, "aof_rewrite_trigger", NULL, V_AFTER, "%"},
    {"Background append only file rewriting started by pid ", NULL, "aof_rewrite_start", NULL, V_AFTER, "pid"},
    {"Background append only file rewriting scheduled", NULL, "aof_rewrite_scheduled", NULL, V_NONE, NULL},
    {"AOF was enabled but there is already another background operation", NULL, "aof_rewrite_scheduled", NULL, V_NONE, NULL},
    {"Background AOF buffer size: ", NULL, "aof_buffer", NULL, V_AFTER, "MB"},
    {"Concatenating ", " MB of AOF diff", "aof_rewrite_diff", NULL, V_AFTER, "MB"},
    {"Residual parent diff successfully flushed", "rewritten AOF (", "aof_rewrite_residual", NULL, V_AFTER_HAS, "MB"},
    {"Background AOF rewrite terminated with success", NULL, "aof_rewrite_done", NULL, V_NONE, NULL},
    {"Background AOF rewrite finished successfully", NULL, "aof_rewrite_finished", NULL, V_NONE, NULL},
    {"Background AOF rewrite terminated with error", NULL, "aof_rewrite_error", NULL, V_NONE, NULL},
    {"Background AOF rewrite terminated by signal ", NULL, "aof_rewrite_killed", NULL, V_AFTER, "signal"},
    {"Can't rewrite append only file in background", NULL, "aof_rewrite_error", NULL, V_NONE, NULL},
    {"Background AOF rewrite has repeatedly failed", NULL, "aof_rewrite_error", NULL, V_NONE, NULL},
    {"Using forkless save for next backup", NULL, "forkless_scheduled", NULL, V_NONE, NULL},
    {"Beginning forklessSaveToDisk", NULL, "forkless_start", NULL, V_NONE, NULL},
    {"forkless-save: background processor started", NULL, "forkless_proc_start", NULL, V_NONE, NULL},
    {"forkless-save: background processor finished. ", NULL, "forkless_proc_done", NULL, V_AFTER, "items"},
    {"forkless-save: completion proc - ", NULL, "forkless_completion", NULL, V_NONE, NULL},
    {"forkless-save: forkless save complete. ", NULL, "forkless_done", NULL, V_AFTER, "s"},
    {"forkless-save: forkless save failed. ", NULL, "forkless_failed", NULL, V_AFTER, "s"},
    {"forkless-save: forkless save terminated. ", NULL, "forkless_failed", NULL, V_AFTER, "s"},
    {"forkless-save: forkless save cancelled. ", NULL, "forkless_cancelled", NULL, V_AFTER, "s"},
    {"forkless-save: error", NULL, "forkless_error", NULL, V_NONE, NULL},
    {"WARNING ", "Transparent Huge Pages (THP) support enabled", "warn_thp", NULL, V_NONE, NULL},
    {"WARNING overcommit_memory is set to 0", NULL, "warn_overcommit", NULL, V_NONE, NULL},
    {"WARNING Memory overcommit must be enabled", NULL, "warn_overcommit", NULL, V_NONE, NULL},
    {"WARNING: The TCP backlog setting of ", "somaxconn", "warn_somaxconn", NULL, V_LAST, NULL},
    {"", " crashed by signal: ", "crash", NULL, V_AFTER_HAS, "signal"},
    {"=== ASSERTION FAILED ===", NULL, "crash", NULL, V_NONE, NULL},
    {"User requested shutdown", NULL, "shutdown", NULL, V_NONE, NULL},
    {"Received SIGTERM scheduling shutdown", NULL, "shutdown_signal", NULL, V_NONE, NULL},
    {"Received SIGINT scheduling shutdown", NULL, "shutdown_signal", NULL, V_NONE, NULL},
    {"Saving the final RDB snapshot before exiting", NULL, "final_save", NULL, V_NONE, NULL},
    {"", " is now ready to exit, bye bye", "server_exit", NULL, V_NONE, NULL},
};

/* The decimal number at p (digits and one '.'); false when there is none. */
static bool num_at(const char *p, double *v)
{
    size_t n = 0;

    while ((p[n] >= '0' && p[n] <= '9') || p[n] == '.')
        n++;
    while (n > 0 && p[n - 1] == '.')   /* "of 128." ends a sentence */
        n--;
    if ((p[n] == 'e' || p[n] == 'E') &&
        ((p[n + 1] >= '0' && p[n + 1] <= '9') || p[n + 1] == '+' || p[n + 1] == '-'))
        return false; /* Redis prints plain decimals: "1e308" is not "1" */
    return n > 0 && num_parse_double(p, n, v);
}

static bool num_last(const char *s, double *v)
{
    const char *p = s + strlen(s), *q;

    while (p > s && !(p[-1] >= '0' && p[-1] <= '9'))
        p--;
    for (q = p; q > s && ((q[-1] >= '0' && q[-1] <= '9') || q[-1] == '.'); q--)
        ;
    return p > s && num_at(q, v);
}

static bool rule_match(const rl_rule *r, const char *s)
{
    size_t np = strlen(r->prefix);

    if (strncmp(s, r->prefix, np) != 0)
        return false;
    if (r->has != NULL && strstr(s + np, r->has) == NULL)
        return false;
    return r->val != V_LEAD || (s[0] >= '0' && s[0] <= '9');
}

/* The value of a matched rule; false when the line lacks it. */
bool rl_rule_value(const rl_rule *r, const char *s, double *v,
                       const char **unit)
{
    const char *p;

    *v = NAN;
    *unit = r->unit;
    switch ((enum rl_val)r->val) {
    case V_NONE:
    case V_VERSION:
        return true;
    case V_AFTER:
        return num_at(s + strlen(r->prefix), v);
    case V_AFTER_HAS:
        p = strstr(s + strlen(r->prefix), r->has);
        return p != NULL && num_at(p + strlen(r->has), v);
    case V_LEAD:
        return num_at(s, v);
    case V_PEAK:
        p = strstr(s, "peak ");
        return p != NULL && num_at(p + 5, v);
    case V_LAST:
        return num_last(s, v);
    case V_TARGET:
        p = s + strlen(r->prefix);
        *unit = strncmp(p, "disk", 4) == 0 ? "disk"
              : strstr(p, "sockets") != NULL ? "socket" : NULL;
        return *unit != NULL;
    }
    return false;
}

const rl_rule *rl_rule_find(const char *norm)
{
    size_t i;
    for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
        if (rule_match(&rules[i], norm))
            return &rules[i];
    return NULL;
}
