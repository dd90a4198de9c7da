/* sha256_builtin.c -- SHA-256 (FIPS 180-4, section 6.2) in plain C, the
 * same interface as sha256.c (sha256.h) for a build without libcrypto
 * (libssl-dev). Slower than libcrypto's, which uses the CPU's SHA
 * instructions; the digests are the same (test_common's FIPS vectors). */
#include "sha256.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"

typedef struct sha_state {
    uint32_t h[8];
    uint64_t bytes;          /* message length so far */
    unsigned char buf[64];   /* the block being filled */
    size_t fill;             /* bytes in buf */
} sha_state;

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

static uint32_t ror(uint32_t x, unsigned n) { return (x >> n) | (x << (32 - n)); }

static void block(uint32_t h[8], const unsigned char *p)
{
    uint32_t w[64], a, b, c, d, e, f, g, k, t1, t2;
    unsigned i;

    for (i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
               (uint32_t)p[4 * i + 2] << 8 | (uint32_t)p[4 * i + 3];
    for (i = 16; i < 64; i++) {
        uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    a = h[0]; b = h[1]; c = h[2]; d = h[3]; e = h[4]; f = h[5]; g = h[6]; k = h[7];
    for (i = 0; i < 64; i++) {
        t1 = k + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
        t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        k = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += k;
}

void sha256_init(cow_sha256 *s)
{
    static const uint32_t h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    sha_state *st = xcalloc(1, sizeof *st);

    memcpy(st->h, h0, sizeof h0);
    s->ctx = st;
}

void sha256_update(cow_sha256 *s, const void *data, size_t n)
{
    sha_state *st = s->ctx;
    const unsigned char *p = data;

    st->bytes += n;
    if (st->fill > 0) {
        size_t take = 64 - st->fill < n ? 64 - st->fill : n;
        memcpy(st->buf + st->fill, p, take);
        st->fill += take;
        p += take;
        n -= take;
        if (st->fill < 64)
            return;
        block(st->h, st->buf);
        st->fill = 0;
    }
    for (; n >= 64; p += 64, n -= 64)
        block(st->h, p);
    memcpy(st->buf, p, n);
    st->fill = n;
}

void sha256_final_hex(cow_sha256 *s, char hex[65])
{
    static const char digits[] = "0123456789abcdef";
    sha_state *st = s->ctx;
    uint64_t bits = st->bytes * 8;
    unsigned i;

    st->buf[st->fill++] = 0x80;
    if (st->fill > 56) {
        memset(st->buf + st->fill, 0, 64 - st->fill);
        block(st->h, st->buf);
        st->fill = 0;
    }
    memset(st->buf + st->fill, 0, 56 - st->fill);
    for (i = 0; i < 8; i++)
        st->buf[56 + i] = (unsigned char)(bits >> (56 - 8 * i));
    block(st->h, st->buf);
    for (i = 0; i < 32; i++) {
        unsigned char byte = (unsigned char)(st->h[i / 4] >> (24 - 8 * (i % 4)));
        hex[2 * i] = digits[byte >> 4];
        hex[2 * i + 1] = digits[byte & 15];
    }
    hex[64] = '\0';
    sha256_free(s);
}

void sha256_peek_hex(const cow_sha256 *s, char hex[65])
{
    cow_sha256 copy;

    copy.ctx = xmalloc(sizeof(sha_state));
    memcpy(copy.ctx, s->ctx, sizeof(sha_state));
    sha256_final_hex(&copy, hex);
}

void sha256_free(cow_sha256 *s)
{
    free(s->ctx);
    s->ctx = NULL;
}
