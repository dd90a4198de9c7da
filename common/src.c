/* src.c -- line reader over a file or a memory buffer (see src.h). */
#include "src.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mem.h"

#define SRC_CHUNK (1u << 20)

int src_open_file(cow_src *s, const char *path, cow_err *e)
{
    struct stat st;
    int fd, fl;

    memset(s, 0, sizeof(*s));
    snprintf(s->name, sizeof(s->name), "%s", path);
    /* O_NONBLOCK: a FIFO must not block the open; only regular files are
     * read (a FIFO, device or socket named by mistake is refused). */
    fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        cow_err_at(e, path, 0, 0);
        return COW_FAIL(e, COW_EIO, "cannot open: %s", strerror(errno));
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        cow_err_at(e, path, 0, 0);
        return COW_FAIL(e, COW_EIO, "not a regular file: not read");
    }
    if ((fl = fcntl(fd, F_GETFL)) != -1)
        (void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    s->fp = fdopen(fd, "rb");
    if (s->fp == NULL) {
        close(fd);
        cow_err_at(e, path, 0, 0);
        return COW_FAIL(e, COW_EIO, "cannot open: %s", strerror(errno));
    }
    s->size = (long long)st.st_size;
    s->cap = SRC_CHUNK;
    s->buf = xmalloc(s->cap);
    sha256_init(&s->sha);
    return COW_OK;
}

void src_open_mem(cow_src *s, const char *name, const void *data, size_t n)
{
    memset(s, 0, sizeof(*s));
    snprintf(s->name, sizeof(s->name), "%s", name);
    s->mem = data;
    s->memlen = n;
    s->end = n;
    s->eof = 1;
    s->size = (long long)n;
    sha256_init(&s->sha);
    sha256_update(&s->sha, data, n);
}

static const char *base(const cow_src *s)
{
    return s->fp ? s->buf : s->mem;
}

/* Make room and read more bytes. Returns 0 or an error code. */
static int fill(cow_src *s, cow_err *e)
{
    size_t got;

    if (s->eof || s->fp == NULL) {
        s->eof = 1;
        return COW_OK;
    }
    if (s->beg > 0) {
        memmove(s->buf, s->buf + s->beg, s->end - s->beg);
        s->end -= s->beg;
        s->beg = 0;
    }
    if (s->end == s->cap) {
        /* src_next_line skips a line before it reaches this size, and
         * src_read_all grows the buffer itself up to its limit */
        if (s->cap >= 2u * COW_MAX_LINE_BYTES) {
            cow_err_at(e, s->name, s->line + 1, 0);
            return COW_FAIL(e, COW_EINTERNAL, "line buffer full");
        }
        s->cap *= 2;
        s->buf = xrealloc(s->buf, s->cap);
    }
    got = fread(s->buf + s->end, 1, s->cap - s->end, s->fp);
    if (got > 0)
        sha256_update(&s->sha, s->buf + s->end, got);
    s->end += got;
    if (got == 0) {
        if (ferror(s->fp)) {
            cow_err_at(e, s->name, s->line + 1, 0);
            return COW_FAIL(e, COW_EIO, "read error: %s", strerror(errno));
        }
        s->eof = 1;
    }
    return COW_OK;
}

/* What a line holds that a prefix or a transcript line needs: bit 1, a
 * blank or tab (every prefix of prefix_peel ends in one); bit 2, one of > $ # % (a redis-cli or shell prompt, the
 * only transcript lines that may start with neither a letter nor ( or ^,
 * prefix_echo's). One pass, so a line of numbers (a latency CSV's, by
 * the million) skips both tests, which found nothing on it anyway. */
static unsigned line_marks(const char *p, size_t n)
{
    static const unsigned char mark[256] = {[' '] = 1, ['\t'] = 1, ['>'] = 2,
                                            ['$'] = 2, ['#'] = 2, ['%'] = 2};
    unsigned m = 0;
    size_t i;

    for (i = 0; i < n && m != 3; i++)
        m |= mark[(unsigned char)p[i]];
    return m;
}

/* Can prefix_peel find a prefix at p (see line_marks; "[pod/...] " too ends in a blank)? */
static int may_peel(const char *p, unsigned marks)
{
    return (marks & 1) || p[0] == '[';
}

/* Can p be a prompt or an echo (see line_marks)? */
static int may_be_transcript(const char *p, unsigned marks)
{
    unsigned char c = (unsigned char)p[0];
    return (marks & 2) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '(' ||
           c == '^';
}

static int transcript_line(const char *p, size_t n)
{
    const char *cmd;
    size_t ncmd;

    return n > 0 && (prefix_prompt(p, n, &cmd, &ncmd) || prefix_echo(p, n));
}

/* Note an overlong line, numbered no, that was skipped. */
static void note_long(cow_src *s, long no)
{
    if (s->nlong < COW_SRC_MAX_LONG)
        s->long_no[s->nlong] = no;
    s->nlong++;
}

/* Skip the rest of a line longer than COW_MAX_LINE_BYTES, up to and
 * including its line end, reading in chunks: memory stays bounded. */
static int skip_long(cow_src *s, cow_err *e)
{
    for (;;) {
        const char *b = base(s);
        const char *nl = memchr(b + s->beg, '\n', s->end - s->beg);
        size_t n = nl ? (size_t)(nl - (b + s->beg)) + 1 : s->end - s->beg;
        s->beg += n;
        s->offset += (long long)n;
        if (nl != NULL || s->eof)
            break;
        if (fill(s, e) != COW_OK)
            return -1;
    }
    note_long(s, ++s->line);
    return 0;
}

int src_next_line(cow_src *s, cow_line *ln, cow_err *e)
{
    size_t scanned = 0;

    for (;;) {
        const char *b = base(s);
        const char *nl = memchr(b + s->beg + scanned, '\n',
                                s->end - s->beg - scanned);
        if (nl != NULL || (s->eof && s->end > s->beg)) {
            const char *p = b + s->beg;
            size_t n = nl ? (size_t)(nl - p) : s->end - s->beg;
            unsigned marks;
            if (n > COW_MAX_LINE_BYTES) { /* a memory source holds it whole */
                s->beg += n + (nl ? 1 : 0);
                s->offset += (long long)(n + (nl ? 1 : 0));
                note_long(s, ++s->line);
                scanned = 0;
                continue;
            }
            s->beg += n + (nl ? 1 : 0);
            s->offset += (long long)(n + (nl ? 1 : 0));
            ln->eol = nl != NULL;
            if (n > 0 && p[n - 1] == '\r')
                n--;
            if (s->line == 0 && n >= 3 && (unsigned char)p[0] == 0xEF &&
                (unsigned char)p[1] == 0xBB && (unsigned char)p[2] == 0xBF) {
                p += 3;
                n -= 3;
            }
            memset(&ln->pre, 0, sizeof(ln->pre));
            marks = s->raw || n == 0 ? 0 : line_marks(p, n);
            if (!s->raw && n > 0 && may_peel(p, marks)) {
                size_t skip = prefix_peel(p, n, &ln->pre);
                if (skip > 0) {
                    p += skip;
                    n -= skip;
                    s->peeled++;
                    s->stamped += ln->pre.has_t;
                    s->peel_kinds |= ln->pre.kinds;
                }
            }
            ln->p = p;
            ln->n = n;
            ln->no = ++s->line;
            if (!s->raw && !s->keep_prompts && n > 0 &&
                may_be_transcript(p, marks) && transcript_line(p, n)) {
                s->prompts++;
                scanned = 0;
                continue;
            }
            return 1;
        }
        if (s->eof)
            return 0;
        if (s->end - s->beg > COW_MAX_LINE_BYTES) {
            if (skip_long(s, e) != 0)
                return -1;
            scanned = 0;
            continue;
        }
        scanned = s->end - s->beg;
        if (fill(s, e) != COW_OK)
            return -1;
    }
}

int src_peek(cow_src *s, const char **p, size_t *n, cow_err *e)
{
    while (!s->eof && s->end - s->beg < 65536) {
        size_t before = s->end - s->beg;
        if (fill(s, e) != COW_OK)
            return -1;
        if (s->end - s->beg == before)
            break;
    }
    *p = base(s) + s->beg;
    *n = s->end - s->beg;
    return COW_OK;
}

int src_read_all_max(cow_src *s, size_t max, char **out, size_t *n, cow_err *e)
{
    if (s->size > (long long)max || (s->fp == NULL && s->memlen - s->beg > max)) {
        cow_err_at(e, s->name, 0, 0);
        return COW_FAIL(e, COW_ELIMIT,
                        "file of %lld bytes is over the limit of %zu MiB for "
                        "files read whole: nothing of it was read%s",
                        s->size, max >> 20,
                        max == COW_MAX_WHOLE_FILE_BYTES
                            ? " (write large captures as JSON lines)" : "");
    }
    while (!s->eof) {
        if (s->end - s->beg > max) {
            cow_err_at(e, s->name, 0, 0);
            return COW_FAIL(e, COW_ELIMIT,
                            "more than %zu MiB read and no end in sight: over "
                            "the limit for files read whole", max >> 20);
        }
        if (s->fp && s->end == s->cap && s->beg == 0) {
            s->cap = s->cap > max / 2 ? max + 1 : s->cap * 2;
            s->buf = xrealloc(s->buf, s->cap);
        }
        if (fill(s, e) != COW_OK)
            return -1;
    }
    *n = s->end - s->beg;
    *out = xstrndup(base(s) + s->beg, *n);
    s->offset += (long long)*n;
    s->beg = s->end;
    return COW_OK;
}

int src_read_all(cow_src *s, char **out, size_t *n, cow_err *e)
{
    return src_read_all_max(s, COW_MAX_WHOLE_FILE_BYTES, out, n, e);
}

int src_file_sha256(const char *path, char hex[65], cow_err *e)
{
    cow_src s;
    int rc = src_open_file(&s, path, e);
    while (rc == COW_OK && !s.eof) {
        s.beg = s.end = 0;
        rc = fill(&s, e);
    }
    if (rc == COW_OK)
        src_sha256(&s, hex);
    src_close(&s);
    return rc;
}

void src_sha256(cow_src *s, char hex[65])
{
    sha256_peek_hex(&s->sha, hex);
}

void src_close(cow_src *s)
{
    if (s->fp)
        fclose(s->fp);
    free(s->buf);
    sha256_free(&s->sha);
    s->fp = NULL;
    s->buf = NULL;
}
