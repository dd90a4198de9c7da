/* hdrhist.c -- decode HdrHistogram's compressed V2 histograms (see hdrhist.h). */
#include "hdrhist.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "../common/mem.h"

/* cookie bases; the 0xf0 nibble carries a word-size flag (0x10: ZigZag) */
#define HDR_COOKIE_COMPRESSED 0x1c849304u
#define HDR_COOKIE_V2 0x1c849303u
#define HDR_HEADER_BYTES 40

static int b64_value(unsigned char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return -1;
}

/* Standard base64 with '=' padding into a heap buffer; NULL when the text
 * is not base64. */
static unsigned char *b64_decode(const char *p, size_t n, size_t *out_n)
{
    unsigned char *out;
    size_t i, o = 0;
    unsigned acc = 0;
    int bits = 0, v;

    while (n > 0 && p[n - 1] == '=')
        n--;
    out = xmalloc(n * 3 / 4 + 3);
    for (i = 0; i < n; i++) {
        if ((v = b64_value((unsigned char)p[i])) < 0) {
            free(out);
            return NULL;
        }
        acc = (acc << 6) | (unsigned)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (unsigned char)(acc >> bits);
        }
        acc &= (1u << bits) - 1;
    }
    *out_n = o;
    return out;
}

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t be64(const unsigned char *p)
{
    return (uint64_t)be32(p) << 32 | be32(p + 4);
}

/* One ZigZag LEB128 value (at most 9 bytes, the 9th carrying 8 bits). */
static int zigzag(const unsigned char *p, size_t n, size_t *at, int64_t *out)
{
    uint64_t v = 0;
    int i;

    for (i = 0; i < 9; i++) {
        unsigned b;
        if (*at >= n)
            return -1;
        b = p[(*at)++];
        if (i == 8) {
            v |= (uint64_t)b << 56;
            break;
        }
        v |= (uint64_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80))
            break;
    }
    *out = (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
    return 0;
}

static int fail(const char **why, const char *msg, unsigned char *a, unsigned char *b)
{
    *why = msg;
    free(a);
    free(b);
    return -1;
}

/* zlib stream -> at most COW_HDR_MAX_BYTES bytes. */
static unsigned char *inflate_all(const unsigned char *p, size_t n, size_t *out_n)
{
    z_stream z;
    size_t cap = 4096;
    unsigned char *out = xmalloc(cap);
    int rc;

    memset(&z, 0, sizeof(z));
    if (inflateInit(&z) != Z_OK) {
        free(out);
        return NULL;
    }
    z.next_in = (unsigned char *)(uintptr_t)p;
    z.avail_in = (uInt)n;
    do {
        if (z.total_out == cap) {
            if (cap >= COW_HDR_MAX_BYTES)
                break;
            cap *= 2;
            out = xrealloc(out, cap);
        }
        z.next_out = out + z.total_out;
        z.avail_out = (uInt)(cap - z.total_out);
        rc = inflate(&z, Z_NO_FLUSH);
    } while (rc == Z_OK);
    *out_n = z.total_out;
    inflateEnd(&z);
    if (rc != Z_STREAM_END) {
        free(out);
        return NULL;
    }
    return out;
}

int hdr_decode(const char *b64, size_t n, cow_hdr *h, const char **why)
{
    unsigned char *raw, *plain = NULL;
    size_t nraw, nplain, at, idx = 0, cap = 0, plen;
    uint32_t sig;
    int64_t lowest, v;
    double mag;

    memset(h, 0, sizeof(*h));
    if ((raw = b64_decode(b64, n, &nraw)) == NULL)
        return fail(why, "the histogram is not base64 text", NULL, NULL);
    if (nraw < 8 || (be32(raw) & ~0xf0u) != HDR_COOKIE_COMPRESSED)
        return fail(why, "not a compressed V2 HdrHistogram (cookie 0x1c849304): "
                    "V0/V1 encodings are not read", raw, NULL);
    if (be32(raw + 4) > nraw - 8)
        return fail(why, "the compressed histogram is cut short", raw, NULL);
    if ((plain = inflate_all(raw + 8, be32(raw + 4), &nplain)) == NULL)
        return fail(why, "the compressed histogram does not inflate (zlib)", raw, NULL);
    if (nplain < HDR_HEADER_BYTES || (be32(plain) & ~0xf0u) != HDR_COOKIE_V2)
        return fail(why, "the inflated histogram lacks the V2 header", raw, plain);
    plen = be32(plain + 4);
    sig = be32(plain + 12);
    lowest = (int64_t)be64(plain + 16);
    /* Java writes 0, hdr-histogram-js 1, for an unshifted histogram */
    if (be32(plain + 8) > 1)
        return fail(why, "a normalizing index offset (shifted histogram) is not "
                    "supported", raw, plain);
    if (sig > 5 || lowest < 1 || plen > nplain - HDR_HEADER_BYTES)
        return fail(why, "the histogram header is out of range (significant "
                    "digits 0..5, lowest value >= 1, payload inside)", raw, plain);
    h->sig_digits = (int)sig;
    h->lowest = lowest;
    h->unit_mag = (int)floor(log2((double)lowest));
    mag = ceil(log2(2.0 * pow(10.0, (double)sig)));
    h->sub_half_mag = ((int)mag > 1 ? (int)mag : 1) - 1;
    h->sub_half = INT64_C(1) << h->sub_half_mag;
    at = HDR_HEADER_BYTES;
    while (at < HDR_HEADER_BYTES + plen) {
        if (zigzag(plain, HDR_HEADER_BYTES + plen, &at, &v) != 0)
            return hdr_free(h), fail(why, "a count is cut short", raw, plain);
        if (v < 0) {
            if ((uint64_t)-v > COW_HDR_MAX_BUCKETS - idx)
                return hdr_free(h), fail(why, "more buckets than a histogram has",
                                         raw, plain);
            idx += (size_t)-v;
            continue;
        }
        if (idx >= COW_HDR_MAX_BUCKETS)
            return hdr_free(h), fail(why, "more buckets than a histogram has", raw, plain);
        h->counts = xgrow(h->counts, sizeof(*h->counts), idx + 1, &cap);
        while (h->n < idx)
            h->counts[h->n++] = 0;
        h->counts[h->n++] = v;
        if (v > INT64_MAX - h->total)
            return hdr_free(h), fail(why, "counts overflow", raw, plain);
        h->total += v;
        idx++;
    }
    free(raw);
    free(plain);
    return 0;
}

/* Lowest value of bucket i and the size of its equivalent range. */
static int64_t bucket_value(const cow_hdr *h, size_t i, int64_t *size)
{
    int64_t bucket = ((int64_t)i >> h->sub_half_mag) - 1;
    int64_t sub = ((int64_t)i & (h->sub_half - 1)) + h->sub_half;

    if (bucket < 0) {
        sub -= h->sub_half;
        bucket = 0;
    }
    *size = INT64_C(1) << (bucket + h->unit_mag);
    return sub << (bucket + h->unit_mag);
}

/* Bucket where the running count first reaches q% (getValueAtPercentile). */
static size_t bucket_at(const cow_hdr *h, double q, int64_t *running)
{
    int64_t want, run = 0;
    size_t i;

    q = q < 0 ? 0 : q > 100 ? 100 : q;
    want = (int64_t)(q / 100.0 * (double)h->total + 0.5);
    if (want < 1)
        want = 1;
    for (i = 0; i < h->n; i++) {
        run += h->counts[i];
        if (run >= want)
            break;
    }
    *running = run;
    return i < h->n ? i : h->n - 1;
}

int64_t hdr_value_at(const cow_hdr *h, double q)
{
    int64_t run, size, v;
    size_t i;

    if (h->total == 0)
        return 0;
    i = bucket_at(h, q, &run);
    v = bucket_value(h, i, &size);
    return q == 0.0 ? v : v + size - 1;
}

int64_t hdr_count_at(const cow_hdr *h, double q)
{
    int64_t run = 0;
    if (h->total == 0)
        return 0;
    (void)bucket_at(h, q, &run);
    return run;
}

int64_t hdr_min(const cow_hdr *h)
{
    int64_t size;
    size_t i;
    for (i = 0; i < h->n; i++)
        if (h->counts[i] > 0)
            return bucket_value(h, i, &size);
    return 0;
}

int64_t hdr_max(const cow_hdr *h)
{
    int64_t size, v;
    size_t i;
    for (i = h->n; i-- > 0;)
        if (h->counts[i] > 0) {
            v = bucket_value(h, i, &size);
            return v + size - 1;
        }
    return 0;
}

double hdr_mean(const cow_hdr *h)
{
    double sum = 0;
    int64_t size, v;
    size_t i;

    if (h->total == 0)
        return NAN;
    for (i = 0; i < h->n; i++)
        if (h->counts[i] > 0) {
            v = bucket_value(h, i, &size);
            sum += (double)h->counts[i] * (double)(v + (size >> 1));
        }
    return sum / (double)h->total;
}

void hdr_free(cow_hdr *h)
{
    free(h->counts);
    h->counts = NULL;
    h->n = 0;
}
