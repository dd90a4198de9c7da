/* cap_dump.c -- what the capture saves from the server in one go (cap_int.h):
 * CONFIG GET with its secrets blanked, LATENCY HISTOGRAM at the start and
 * again at the end (before the LATENCY dumps: their calls are the
 * capture's own), the LATENCY dumps, and
 * where the server's log file is. Replies are written flattened, one leaf
 * a line, as redis-cli prints them piped. */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cap_int.h"
#include "mem.h"

/* One reply flattened as redis-cli prints it piped: one leaf per line. */
static void put_flat(FILE *fp, const redisReply *r)
{
    size_t i;
    switch (r->type) {
    case REDIS_REPLY_ARRAY:
        for (i = 0; i < r->elements; i++)
            put_flat(fp, r->element[i]);
        break;
    case REDIS_REPLY_INTEGER:
        fprintf(fp, "%lld\n", r->integer);
        break;
    case REDIS_REPLY_NIL:
        fputc('\n', fp);
        break;
    default:
        fwrite(r->str, 1, r->len, fp);
        fputc('\n', fp);
        break;
    }
}

/* Whether a CONFIG parameter's value may be a secret, by rule rather than by
 * a list of instances: a name that speaks of authentication, a password, a
 * secret or an ACL (requirepass, masterauth, Valkey's primaryauth,
 * tls-key-file-pass, sentinel-pass, aclfile, ...), or a TLS key. New
 * parameters of a later Redis or Valkey that follow the same naming are
 * covered without a change here. */
bool cap_is_secret_param(const char *name)
{
    static const char *const words[] = {"auth", "pass", "secret", "acl", "token",
                                        "credential", NULL};
    char low[128];
    size_t i, n = strlen(name);
    if (n >= sizeof(low))
        return true; /* an odd name: blank it rather than guess */
    for (i = 0; i <= n; i++)
        low[i] = (char)tolower((unsigned char)name[i]);
    for (i = 0; words[i]; i++)
        if (strstr(low, words[i]))
            return true;
    return strncmp(low, "tls", 3) == 0 && strstr(low, "key") != NULL;
}

/* Blank the value of every secret parameter of a CONFIG GET reply. */
void cap_redact_config(redisReply *rep)
{
    size_t i;
    if (rep == NULL || rep->type != REDIS_REPLY_ARRAY)
        return;
    for (i = 0; i + 1 < rep->elements; i += 2) {
        redisReply *name = rep->element[i], *val = rep->element[i + 1];
        static const char r[] = "(redacted by cowtail capture)";
        if (name->type != REDIS_REPLY_STRING || val->type != REDIS_REPLY_STRING ||
            val->len == 0 || !cap_is_secret_param(name->str))
            continue;
        free(val->str);
        val->str = xstrdup(r);
        val->len = sizeof(r) - 1;
    }
}

/* Send a command and save its reply flattened as name; 0 or -1 (listed). */
int cap_dump(cap_ctx *c, redisContext *r, const char *name, const char *what,
                redisReply *rep)
{
    cow_err e = COW_ERR_INIT;
    FILE *fp;
    if (rep == NULL) {
        cap_missing(c, what, "no reply: %s", r ? r->errstr : "no connection");
        return -1;
    }
    if (rep->type == REDIS_REPLY_ERROR) {
        cap_missing(c, what, "%s", rep->str);
        freeReplyObject(rep);
        return -1;
    }
    if ((fp = cap_create(c, name, &e)) == NULL) {
        cap_missing(c, what, "%s", e.msg);
        freeReplyObject(rep);
        return -1;
    }
    if (rep->type == REDIS_REPLY_ARRAY && rep->elements == 0)
        fputc('\n', fp); /* an empty reply is one empty line, as redis-cli writes */
    else
        put_flat(fp, rep);
    {
        int bad = ferror(fp);
        if (fclose(fp) != 0 || bad)
            cap_write_failed(c, name, errno);
    }
    freeReplyObject(rep);
    return 0;
}

/* LATENCY LATEST, HISTORY of each event, DOCTOR. */
void cap_latency_dumps(cap_ctx *c, redisContext *r)
{
    redisReply *latest = r ? cap_cmd(r, "LATENCY LATEST") : NULL;
    size_t i;
    if (latest && latest->type == REDIS_REPLY_ARRAY) {
        for (i = 0; i < latest->elements; i++) {
            const redisReply *ev = latest->element[i];
            char name[128], what[160];
            size_t k;
            if (ev->type != REDIS_REPLY_ARRAY || ev->elements < 1 ||
                ev->element[0]->type != REDIS_REPLY_STRING)
                continue;
            snprintf(name, sizeof(name), "latency-history-%s.txt", ev->element[0]->str);
            for (k = 16; name[k]; k++)
                if (!(name[k] == '-' || name[k] == '.' || name[k] == '_' ||
                      (name[k] >= 'a' && name[k] <= 'z') || (name[k] >= '0' && name[k] <= '9')))
                    name[k] = '_';
            snprintf(what, sizeof(what), "LATENCY HISTORY %s", ev->element[0]->str);
            cap_dump(c, r, name, what, cap_cmd(r, "LATENCY HISTORY %s", ev->element[0]->str));
        }
    }
    cap_dump(c, r, "latency-latest.txt", "LATENCY LATEST", latest);
    cap_dump(c, r, "latency-doctor.txt", "LATENCY DOCTOR", r ? cap_cmd(r, "LATENCY DOCTOR") : NULL);
}

/* LATENCY HISTOGRAM (Redis 7+ and Valkey: per command, calls and a
 * cumulative count at each power-of-two bound, since the server started or
 * CONFIG RESETSTAT) saved as name; older servers have none and are not
 * asked. The capture saves it at its start and its end: the difference is
 * what ran during the run (analysis/cmdhist.h). */
void cap_histogram_dump(cap_ctx *c, redisContext *r, const char *name, const char *version)
{
    if (r == NULL || atoi(version) < 7)
        return;
    cap_dump(c, r, name, "LATENCY HISTOGRAM", cap_cmd(r, "LATENCY HISTOGRAM"));
}

/* The log file of the server behind r (pid, local: on this host), from
 * CONFIG GET logfile (and dir for a relative one), or "" with the reason
 * listed under what ("server log", "replica log"). */
void cap_find_log(cap_ctx *c, redisContext *r, long pid, int local, const char *what,
                     char *path, size_t cap)
{
    redisReply *lf = cap_cmd(r, "CONFIG GET logfile"), *dir = NULL;
    struct stat sb;
    path[0] = '\0';
    if (lf == NULL || lf->type != REDIS_REPLY_ARRAY || lf->elements < 2) {
        cap_missing(c, what, "CONFIG GET logfile: %s",
                    lf && lf->type == REDIS_REPLY_ERROR ? lf->str : "no usable reply");
    } else if (lf->element[1]->len == 0) {
        cap_missing(c, what, "logfile is \"\": the server logs to its standard "
                    "output, which cowtail cannot read; save it yourself into the "
                    "capture folder");
    } else if (!local) {
        cap_missing(c, what, "%s is on the server's host, not this one: copy "
                    "it into the capture folder", lf->element[1]->str);
    } else if (lf->element[1]->str[0] == '/') {
        snprintf(path, cap, "%s", lf->element[1]->str);
    } else {
        /* the server opens a relative logfile from its working directory:
         * /proc/PID/cwd, else CONFIG GET dir (the server chdirs there) */
        snprintf(path, cap, "/proc/%ld/cwd/%s", pid, lf->element[1]->str);
        if (stat(path, &sb) != 0 && (dir = cap_cmd(r, "CONFIG GET dir")) != NULL &&
            dir->type == REDIS_REPLY_ARRAY && dir->elements >= 2)
            snprintf(path, cap, "%s/%s", dir->element[1]->str, lf->element[1]->str);
    }
    if (lf)
        freeReplyObject(lf);
    if (dir)
        freeReplyObject(dir);
}
