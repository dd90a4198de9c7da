/* transcript.c -- a terminal transcript holding several commands' outputs
 * ("redis-cli-transcript").
 *
 * Exports cow_parser_transcript (declared in formats.h). An operator's copy
 * of a redis-cli session, or of a shell running redis-cli several times:
 *
 *     127.0.0.1:6379> latency latest
 *     1) 1) "command"
 *     ...
 *     127.0.0.1:6379> config get maxmemory*
 *      1) "maxmemory-samples"
 *     ...
 *     $ redis-cli -p 6379 --latency-history -i 1
 *     min: 0, max: 6, avg: 0.13 (98 samples) -- 1.01 seconds range
 *
 * The prompt lines (common/prefix.h: prefix_prompt) cut the file into
 * sections, one per command typed. Each section's output is recognised by
 * the same sniffing as a whole file (parser_detect, which parser_run passes
 * in the options, so this file does not call back into the table that
 * lists it) and parsed by that parser, with the file's own line numbers;
 * consecutive sections of one format (INFO dumps taken one after the
 * other) are parsed together, as a series. Replies and echoes no parser reads ("OK", "(1.00s)") are blanked;
 * the prompt of `latency history EVENT` becomes the header naming the event.
 * A section that no parser recognises is named in a note; a section that
 * its parser refuses is a rejected line naming the section and why, and the
 * other sections still land (the file is refused only when none does). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/mem.h"
#include "../common/prefix.h"
#include "../common/text.h"
#include "formats.h"

/* Commands (sections) a transcript may hold. */
#define TR_MAX_SECTIONS 4096
/* The longest command kept for messages. */
#define TR_MAX_CMD 80

typedef struct tr_section {
    long line;                /* first line after the prompt */
    size_t off, end;          /* its bytes in the text: [off, end) */
    char cmd[TR_MAX_CMD + 1]; /* the command typed, for messages */
    const cow_parser *p;      /* the format of its output, NULL if none */
} tr_section;

typedef struct tr_ctx {
    char *text;               /* every line, prompts and echoes blanked */
    size_t n, cap;
    tr_section *sec;          /* sections in order */
    size_t nsec, capsec;
} tr_ctx;

static void tr_append(tr_ctx *c, const char *p, size_t n)
{
    c->text = xgrow(c->text, 1, c->n + n + 2, &c->cap);
    memcpy(c->text + c->n, p, n);
    c->n += n;
    c->text[c->n++] = '\n';
    c->text[c->n] = '\0';
}

/* A new section after a prompt at line no. */
static int tr_open(tr_ctx *c, long no, const char *cmd, size_t ncmd,
                   const cow_src *s, cow_err *e)
{
    tr_section *t;

    if (c->nsec >= TR_MAX_SECTIONS) {
        cow_err_at(e, s->name, no, 0);
        return COW_FAIL(e, COW_ELIMIT, "more than %d commands in one transcript:"
                        " split the file", TR_MAX_SECTIONS);
    }
    c->sec = xgrow(c->sec, sizeof(*c->sec), c->nsec + 1, &c->capsec);
    t = &c->sec[c->nsec++];
    memset(t, 0, sizeof(*t));
    t->line = no + 1;
    t->off = c->n;
    if (ncmd > TR_MAX_CMD)
        ncmd = TR_MAX_CMD;
    memcpy(t->cmd, cmd, ncmd);
    t->cmd[ncmd] = '\0';
    return COW_OK;
}

static int tr_read(tr_ctx *c, cow_src *s, cow_err *e)
{
    cow_line ln;
    const char *cmd;
    size_t ncmd;
    int rc;

    s->keep_prompts = 1;
    if ((rc = tr_open(c, 0, "", 0, s, e)) != COW_OK)
        return rc;
    while ((rc = src_next_line(s, &ln, e)) == 1) {
        size_t n = ln.n;
        while (n > 0 && ln.p[n - 1] == '\r')
            n--;
        if (n > 0 && prefix_prompt(ln.p, n, &cmd, &ncmd)) {
            c->sec[c->nsec - 1].end = c->n;
            if (ncmd > 16 && text_prefix_ci(cmd, ncmd, "latency history ")) {
                /* the event is in the command: keep it as the header the
                 * LATENCY parser reads, in place of the prompt */
                char hdr[TR_MAX_CMD + 48];
                int len = snprintf(hdr, sizeof(hdr), "=== LATENCY HISTORY %.*s ===",
                                   (int)(ncmd - 16 < TR_MAX_CMD ? ncmd - 16 : TR_MAX_CMD),
                                   cmd + 16);
                if ((rc = tr_open(c, ln.no - 1, cmd, ncmd, s, e)) != COW_OK)
                    return rc;
                tr_append(c, hdr, (size_t)len);
                continue;
            }
            tr_append(c, "", 0);   /* the prompt line, blanked */
            if ((rc = tr_open(c, ln.no, cmd, ncmd, s, e)) != COW_OK)
                return rc;
        } else {
            tr_append(c, ln.p, n > 0 && prefix_echo(ln.p, n) ? 0 : ln.n);
        }
    }
    if (rc < 0)
        return e->code ? e->code : COW_EIO;
    c->sec[c->nsec - 1].end = c->n;
    return COW_OK;
}

static bool tr_blank(const char *p, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (p[i] != '\n' && p[i] != ' ' && p[i] != '\t' && p[i] != '\r')
            return false;
    return true;
}

/* Parse sections [a, b) (one format) as one source with the file's line
 * numbers; a refusal becomes a rejected line. *landed counts successes. */
static int tr_group(tr_ctx *c, size_t a, size_t b, const cow_src *s,
                    const cow_parse_opts *o, cow_sink *k, int *landed,
                    cow_err *first, cow_err *e)
{
    cow_src sub;
    cow_err se = COW_ERR_INIT;
    char why[700];
    int rc;

    src_open_mem(&sub, s->name, c->text + c->sec[a].off,
                 c->sec[b - 1].end - c->sec[a].off);
    sub.line = c->sec[a].line - 1;
    {   /* several INFO replies typed one after the other: kept in order
         * even without a time (an older server's) */
        cow_parse_opts io;
        if (o != NULL)
            io = *o;
        else
            memset(&io, 0, sizeof(io));
        io.info_unplaced = b > a + 1;
        rc = c->sec[a].p->parse(&sub, &io, k, &se);
    }
    src_close(&sub);
    if (rc == COW_OK) {
        (*landed)++;
        return COW_OK;
    }
    if (rc == COW_ESQL || rc == COW_EIO)
        return *e = se, rc;
    if (first->code == 0)
        *first = se;
    snprintf(why, sizeof(why), "output of '%s' (%s) not used: %s", c->sec[a].cmd,
             c->sec[a].p->name, se.msg);
    return sink_reject(k, se.line > 0 ? se.line : c->sec[a].line, why, "", 0, e);
}

static int tr_parse(cow_src *s, const cow_parse_opts *o, cow_sink *k, cow_err *e)
{
    tr_ctx c;
    cow_err first = COW_ERR_INIT;
    char note[300];
    size_t i, j, cut;
    int rc, landed = 0, groups = 0;

    memset(&c, 0, sizeof(c));
    rc = tr_read(&c, s, e);
    for (i = 0; rc == COW_OK && i < c.nsec; i++) {
        tr_section *t = &c.sec[i];
        /* an empty file has no text at all: no offset from NULL */
        const char *p = c.text ? c.text + t->off : "";
        size_t n = c.text ? t->end - t->off : 0;
        if (tr_blank(p, n))
            continue;
        cut = n < COW_SNIFF_BYTES ? n : COW_SNIFF_BYTES;
        t->p = o && o->detect ? o->detect(o->fname, p, cut) : NULL;
        if (t->p == &cow_parser_transcript)
            t->p = NULL;
        if (t->p == NULL) {
            snprintf(note, sizeof(note), "line %ld: the output of '%s' is not a "
                     "format cowtail reads: skipped", t->line, t->cmd);
            rc = sink_note(k, "transcript_skipped", note, e);
        }
    }
    for (i = 0; rc == COW_OK && i < c.nsec; i = j) {
        for (j = i + 1; j < c.nsec && c.sec[i].p == &cow_parser_redis_info &&
                        (c.sec[j].p == c.sec[i].p || c.sec[j].p == NULL) &&
                        (c.sec[j].p != NULL || tr_blank(c.text + c.sec[j].off,
                                                        c.sec[j].end - c.sec[j].off));
             j++)
            ;
        while (j > i + 1 && c.sec[j - 1].p == NULL)   /* no blank tail */
            j--;
        if (c.sec[i].p == NULL)
            continue;
        groups++;
        rc = tr_group(&c, i, j, s, o, k, &landed, &first, e);
    }
    if (rc == COW_OK && landed == 0) {
        if (groups > 0) {
            *e = first;
            rc = first.code ? first.code : COW_EPARSE;
        } else {
            cow_err_at(e, s->name, 1, 0);
            rc = COW_FAIL(e, COW_EPARSE, "a terminal transcript, but no "
                          "command's output in it is a format cowtail reads");
        }
    }
    if (rc == COW_OK) {
        snprintf(note, sizeof(note), "%zu commands; %d outputs parsed, %d not "
                 "used", c.nsec - 1, landed, groups - landed);
        rc = sink_note(k, "transcript", note, e);
    }
    free(c.text);
    free(c.sec);
    return rc;
}

/* Two or more prompts with a command typed, and output between them. */
static int tr_sniff(const char *fname, const char *head, size_t n)
{
    size_t at = 0, prompts = 0, output = 0;
    const char *cmd;
    size_t ncmd;
    cow_prefix pf;

    (void)fname;
    while (at < n) {
        const char *nl = memchr(head + at, '\n', n - at), *p;
        size_t len, skip;
        if (nl == NULL)
            break;
        len = (size_t)(nl - (head + at));
        skip = prefix_peel(head + at, len, &pf);
        p = head + at + skip;
        len -= skip;
        while (len > 0 && p[len - 1] == '\r')
            len--;
        if (len > 0 && prefix_prompt(p, len, &cmd, &ncmd))
            prompts += ncmd > 0;
        else if (len > 0 && !prefix_echo(p, len) && prompts > 0)
            output++;
        at = (size_t)(nl - head) + 1;
    }
    return prompts >= 2 && output > 0 ? 97 : 0;
}

const cow_parser cow_parser_transcript = {
    "redis-cli-transcript",
    "a terminal transcript of several redis-cli commands: each output by its parser",
    tr_sniff,
    tr_parse,
};
