/* sha256.h -- SHA-256 (FIPS 180-4), streaming, over libcrypto's EVP
 * interface (OpenSSL 3, sha256.c), which uses the CPU's SHA instructions
 * where it has them, or in plain C (sha256_builtin.c) in a build without
 * libcrypto. Used to recognise a file that was ingested before.
 *
 *     cow_sha256 s;
 *     sha256_init(&s);  sha256_update(&s, p, n) ...;  sha256_final_hex(&s, hex);
 *
 * sha256_final_hex releases the state; sha256_free releases one that was
 * not finished (and is a no-op on a finished or zeroed one). */
#ifndef COW_COMMON_SHA256_H
#define COW_COMMON_SHA256_H

#include <stddef.h>

typedef struct cow_sha256 {
    void *ctx; /* owned (an EVP_MD_CTX, or the plain C state); NULL once finished or freed */
} cow_sha256;

void sha256_init(cow_sha256 *s);
void sha256_update(cow_sha256 *s, const void *data, size_t n);
/* Writes 64 lowercase hex digits and a NUL into hex, then frees s. */
void sha256_final_hex(cow_sha256 *s, char hex[65]);
/* Digest of the bytes so far without finishing s (more may follow). */
void sha256_peek_hex(const cow_sha256 *s, char hex[65]);
void sha256_free(cow_sha256 *s);

#endif
