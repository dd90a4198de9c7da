/* sha256.c -- SHA-256 over OpenSSL 3's EVP digest interface (see sha256.h).
 * A failure of libcrypto here means memory is exhausted or the library is
 * broken; like xmalloc, that aborts rather than returning a wrong digest. */
#include "sha256.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>

static void sha_die(const char *what)
{
    fprintf(stderr, "cowtail: libcrypto SHA-256 %s failed\n", what);
    abort();
}

void sha256_init(cow_sha256 *s)
{
    s->ctx = EVP_MD_CTX_new();
    if (s->ctx == NULL || EVP_DigestInit_ex(s->ctx, EVP_sha256(), NULL) != 1)
        sha_die("init");
}

void sha256_update(cow_sha256 *s, const void *data, size_t n)
{
    if (n > 0 && EVP_DigestUpdate(s->ctx, data, n) != 1)
        sha_die("update");
}

static void to_hex(const unsigned char *md, unsigned len, char hex[65])
{
    static const char digits[] = "0123456789abcdef";
    unsigned i;

    for (i = 0; i < len && i < 32; i++) {
        hex[2 * i] = digits[md[i] >> 4];
        hex[2 * i + 1] = digits[md[i] & 15];
    }
    hex[2 * i] = '\0';
}

void sha256_final_hex(cow_sha256 *s, char hex[65])
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned len = 0;

    if (EVP_DigestFinal_ex(s->ctx, md, &len) != 1 || len != 32)
        sha_die("final");
    to_hex(md, len, hex);
    sha256_free(s);
}

void sha256_peek_hex(const cow_sha256 *s, char hex[65])
{
    cow_sha256 copy;

    copy.ctx = EVP_MD_CTX_new();
    if (copy.ctx == NULL || EVP_MD_CTX_copy_ex(copy.ctx, s->ctx) != 1)
        sha_die("copy");
    sha256_final_hex(&copy, hex);
}

void sha256_free(cow_sha256 *s)
{
    EVP_MD_CTX_free(s->ctx);
    s->ctx = NULL;
}
