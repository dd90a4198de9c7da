/* sha256.h -- SHA-256 (FIPS 180-4), streaming. Used to recognise a file
 * that was ingested before. */
#ifndef COW_COMMON_SHA256_H
#define COW_COMMON_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct cow_sha256 {
    uint32_t h[8];          /* chaining state */
    uint64_t len;           /* bytes hashed so far */
    unsigned char blk[64];  /* pending partial block */
    size_t nblk;            /* bytes in blk */
} cow_sha256;

void sha256_init(cow_sha256 *s);
void sha256_update(cow_sha256 *s, const void *data, size_t n);
/* Writes 64 lowercase hex digits and a NUL into hex. */
void sha256_final_hex(cow_sha256 *s, char hex[65]);

#endif
