/* jsonstrict.c -- duplicate keys and non-finite numbers (jsonstrict.h).
 *
 * One pass over the text: strings (unescaped when they are keys), numbers,
 * and the brackets that open and close objects and arrays. Each object's
 * keys wait on one shared stack; when the object closes they are sorted
 * (by bytes, then line) and neighbours compared, so the work is
 * O(n log n) however the keys are spelt. */
#include "jsonstrict.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"

typedef struct jkey {
    char *s;
    size_t n;
    long line;
} jkey;

typedef struct frame {
    int obj;        /* an object (else an array) */
    int want_key;   /* the next string is a key */
    size_t first;   /* its keys start here on the key stack */
} frame;

/* Open an object ('{') or an array ('[') on the frame stack; its keys
 * start at first. */
static void open_frame(frame **st, size_t *depth, size_t *cap, char c, size_t first)
{
    *st = xgrow(*st, sizeof(**st), *depth + 1, cap);
    (*st)[*depth].obj = c == '{';
    (*st)[*depth].want_key = c == '{';
    (*st)[*depth].first = first;
    (*depth)++;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static unsigned hex4(const char *p, const char *end)
{
    unsigned v = 0;
    int i, h;
    if (end - p < 4)
        return 0xFFFFFFFFu;
    for (i = 0; i < 4; i++) {
        if ((h = hexval((unsigned char)p[i])) < 0)
            return 0xFFFFFFFFu;
        v = v * 16 + (unsigned)h;
    }
    return v;
}

static size_t put_utf8(char *o, unsigned c)
{
    if (c < 0x80) {
        o[0] = (char)c;
        return 1;
    }
    if (c < 0x800) {
        o[0] = (char)(0xC0 | (c >> 6));
        o[1] = (char)(0x80 | (c & 0x3F));
        return 2;
    }
    if (c < 0x10000) {
        o[0] = (char)(0xE0 | (c >> 12));
        o[1] = (char)(0x80 | ((c >> 6) & 0x3F));
        o[2] = (char)(0x80 | (c & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | (c >> 18));
    o[1] = (char)(0x80 | ((c >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((c >> 6) & 0x3F));
    o[3] = (char)(0x80 | (c & 0x3F));
    return 4;
}

/* The string at *pp (after its opening quote) up to its closing quote,
 * unescaped into a new buffer when out is not NULL; *pp ends after it. */
static void read_string(const char **pp, const char *end, long *line, char **out,
                        size_t *nout)
{
    const char *p = *pp;
    char *o = NULL;
    size_t k = 0;

    if (out) {
        /* as long as its raw text at most: find where it ends first */
        const char *q = p;
        while (q < end && *q != '"')
            q += *q == '\\' && q + 1 < end ? 2 : 1;
        o = xmalloc((size_t)(q - p) + 1);
    }
    while (p < end && *p != '"') {
        if (*p == '\n')
            (*line)++;
        if (*p != '\\' || p + 1 >= end) {
            if (o)
                o[k++] = *p;
            p++;
            continue;
        }
        p++;
        switch (*p) {
        case 'b': if (o) o[k++] = '\b'; p++; break;
        case 'f': if (o) o[k++] = '\f'; p++; break;
        case 'n': if (o) o[k++] = '\n'; p++; break;
        case 'r': if (o) o[k++] = '\r'; p++; break;
        case 't': if (o) o[k++] = '\t'; p++; break;
        case 'u': {
            unsigned c = hex4(p + 1, end);
            p += 1;
            if (c == 0xFFFFFFFFu)
                break;  /* the parser refused it already */
            p += 4;
            if (c >= 0xD800 && c < 0xDC00 && end - p >= 6 && p[0] == '\\' && p[1] == 'u') {
                unsigned lo = hex4(p + 2, end);
                if (lo >= 0xDC00 && lo < 0xE000) {
                    c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
                    p += 6;
                }
            }
            if (o)
                k += put_utf8(o + k, c);
            break;
        }
        default: if (o) o[k++] = *p; p++; break;   /* " \ / */
        }
    }
    if (p < end)
        p++;
    *pp = p;
    if (out) {
        *out = o;
        *nout = k;
    }
}

/* Byte order of two key texts, a shorter prefix first. */
static int text_cmp(const char *a, size_t na, const char *b, size_t nb)
{
    int c = memcmp(a, b, na < nb ? na : nb);
    if (c != 0)
        return c;
    return (na > nb) - (na < nb);
}

static int key_cmp(const void *a, const void *b)
{
    const jkey *x = a, *y = b;
    int c = text_cmp(x->s, x->n, y->s, y->n);
    return c != 0 ? c : (x->line > y->line) - (x->line < y->line);
}

/* Sort keys[first..n) and find two equal: COW_EPARSE at the later one. */
static int close_object(jkey *keys, size_t first, size_t n, const char *path, long line0,
                        cow_err *e)
{
    size_t i;
    if (n - first < 2)
        return COW_OK; /* keys may be NULL: no pointer arithmetic on it */
    qsort(keys + first, n - first, sizeof(*keys), key_cmp);
    for (i = first + 1; i < n; i++)
        if (keys[i].n == keys[i - 1].n && memcmp(keys[i].s, keys[i - 1].s, keys[i].n) == 0) {
            cow_err_at(e, path, keys[i].line + line0 - 1, 0);
            return COW_FAIL(e, COW_EPARSE,
                            "key \"%.*s\" named twice in one object (first on line %ld): "
                            "which one counts would be a guess; keep one",
                            (int)(keys[i].n > 80 ? 80 : keys[i].n), keys[i].s,
                            keys[i - 1].line + line0 - 1);
        }
    return COW_OK;
}

int json_strict_check(const char *text, size_t n, const char *path, long first_line,
                      cow_err *e)
{
    const char *p = text, *end = text + n;
    frame *st = NULL;
    jkey *keys = NULL;
    size_t depth = 0, capst = 0, nkeys = 0, capkeys = 0, i;
    long line = 1;
    int rc = COW_OK;

    while (p < end && rc == COW_OK) {
        char c = *p;
        frame *top = depth ? &st[depth - 1] : NULL;
        if (c == '\n') {
            line++;
            p++;
        } else if (c == '{' || c == '[') {
            open_frame(&st, &depth, &capst, c, nkeys);
            p++;
        } else if (c == '}' || c == ']') {
            if (top && top->obj) {
                rc = close_object(keys, top->first, nkeys, path, first_line, e);
                for (i = top->first; i < nkeys; i++)
                    free(keys[i].s);
                nkeys = top->first;
            }
            if (depth)
                depth--;
            p++;
        } else if (c == ',') {
            if (top && top->obj)
                top->want_key = 1;
            p++;
        } else if (c == ':') {
            if (top)
                top->want_key = 0;
            p++;
        } else if (c == '"') {
            long at = line;
            p++;
            if (top && top->obj && top->want_key) {
                keys = xgrow(keys, sizeof(*keys), nkeys + 1, &capkeys);
                read_string(&p, end, &line, &keys[nkeys].s, &keys[nkeys].n);
                keys[nkeys].line = at;
                nkeys++;
                top->want_key = 0;
            } else {
                read_string(&p, end, &line, NULL, NULL);
            }
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            const char *q = p;
            char *num;
            double v;
            while (q < end && (*q == '-' || *q == '+' || *q == '.' || *q == 'e' ||
                               *q == 'E' || (*q >= '0' && *q <= '9')))
                q++;
            num = xstrndup(p, (size_t)(q - p));
            v = strtod(num, NULL);
            if (!isfinite(v)) {
                cow_err_at(e, path, line + first_line - 1, 0);
                rc = COW_FAIL(e, COW_EPARSE, "number %.40s%s is beyond a double's range: "
                              "not a finite value", num, strlen(num) > 40 ? "..." : "");
            }
            free(num);
            p = q;
        } else {
            p++;
        }
    }
    for (i = 0; i < nkeys; i++)
        free(keys[i].s);
    free(keys);
    free(st);
    return rc;
}

static int jkey_cmp(const void *a, const void *b)
{
    const cow_jkey *x = a, *y = b;
    int c = text_cmp(x->s, x->n, y->s, y->n);
    return c != 0 ? c : (x->ord > y->ord) - (x->ord < y->ord);
}

void json_keys_index(const char *text, size_t n, cow_jkeys *out)
{
    const char *p = text, *end = text + n;
    frame *st = NULL;
    cow_jkey *v = NULL;
    size_t depth = 0, capst = 0, nv = 0, capv = 0;
    long line = 1;

    while (p < end) {
        char c = *p;
        frame *top = depth ? &st[depth - 1] : NULL;
        if (c == '{' || c == '[') {
            open_frame(&st, &depth, &capst, c, nv);
            p++;
        } else if (c == '}' || c == ']') {
            if (depth)
                depth--;
            p++;
        } else if (c == ',' || c == ':') {
            if (top && top->obj)
                top->want_key = c == ',';
            p++;
        } else if (c == '"') {
            long at = line;
            p++;
            if (top && top->obj && top->want_key) {
                v = xgrow(v, sizeof(*v), nv + 1, &capv);
                read_string(&p, end, &line, &v[nv].s, &v[nv].n);
                v[nv].s[v[nv].n] = '\0';
                v[nv].line = at;
                v[nv].ord = nv;
                nv++;
                top->want_key = 0;
            } else {
                read_string(&p, end, &line, NULL, NULL);
            }
        } else {
            line += c == '\n';
            p++;
        }
    }
    free(st);
    if (nv > 1)
        qsort(v, nv, sizeof(*v), jkey_cmp);
    out->v = v;
    out->n = nv;
}

/* (a, its ord) against (key of n bytes, ord) */
static int jkey_cmp_to(const cow_jkey *a, const char *key, size_t n, size_t ord)
{
    int c = text_cmp(a->s, a->n, key, n);
    return c != 0 ? c : (a->ord > ord) - (a->ord < ord);
}

long json_keys_seek(const cow_jkeys *k, const char *key, size_t *ord)
{
    size_t lo = 0, hi = k->n, n = strlen(key);

    /* the first entry not below (key, *ord) */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (jkey_cmp_to(&k->v[mid], key, n, *ord) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == k->n || k->v[lo].n != n || memcmp(k->v[lo].s, key, n) != 0)
        return -1;
    *ord = k->v[lo].ord + 1;
    return k->v[lo].line;
}

void json_keys_free(cow_jkeys *k)
{
    size_t i;
    for (i = 0; i < k->n; i++)
        free(k->v[i].s);
    free(k->v);
    k->v = NULL;
    k->n = 0;
}
