/* hdrhist.h -- HdrHistogram's compressed histogram encoding, decoded.
 *
 * Interval logs (.hlog, jHiccup, memtier --hdr-file-prefix) and memtier's
 * JSON ("Compressed Histogram") carry each histogram as base64 text of the
 * compressed V2 encoding ("HISTFAAAA..."):
 *
 *   compressed:  cookie 0x1c8493[01]4 | length (BE32) | zlib stream
 *   inflated:    cookie 0x1c8493[01]3 | payload length | normalizing index offset
 *                | significant digits | lowest discernible value (BE64)
 *                | highest trackable value (BE64) | int-to-double ratio (BE64)
 *                | counts, ZigZag LEB128: n > 0 a count, n < 0 -n empty buckets
 *
 * Bucket i's value is HdrHistogram's valueFromIndex(i); a percentile is
 * the highest value equivalent to the bucket where the running count first
 * reaches q% of the total (getValueAtPercentile, as the Java and C
 * libraries print them).
 *
 *     cow_hdr h;
 *     if (hdr_decode(text, n, &h, &why) == 0) { hdr_value_at(&h, 99.9); hdr_free(&h); }
 */
#ifndef COW_INGEST_HDRHIST_H
#define COW_INGEST_HDRHIST_H

#include <stddef.h>
#include <stdint.h>

/* Limits that bound a hostile input: inflated bytes, buckets. */
#define COW_HDR_MAX_BYTES (8u * 1024u * 1024u)
#define COW_HDR_MAX_BUCKETS (1u << 20)

typedef struct cow_hdr {
    int64_t *counts;        /* per bucket */
    size_t n;               /* buckets decoded */
    int64_t total;          /* sum of counts */
    int sig_digits;         /* numberOfSignificantValueDigits */
    int64_t lowest;         /* lowest discernible value */
    int unit_mag;           /* floor(log2(lowest)) */
    int sub_half_mag;       /* subBucketHalfCountMagnitude */
    int64_t sub_half;       /* subBucketHalfCount */
} cow_hdr;

/* Decode base64 text of a compressed V2 histogram. 0 on success; else -1
 * and *why says what is wrong. */
int hdr_decode(const char *b64, size_t n, cow_hdr *h, const char **why);
/* Value at percentile q (0..100) in recorded units; 0 for an empty one. */
int64_t hdr_value_at(const cow_hdr *h, double q);
/* Count of values at or below hdr_value_at(h, q). */
int64_t hdr_count_at(const cow_hdr *h, double q);
/* Smallest and largest recorded values (equivalent-range bounds), mean of
 * the median equivalent values, as HdrHistogram reports them. */
int64_t hdr_min(const cow_hdr *h);
int64_t hdr_max(const cow_hdr *h);
double hdr_mean(const cow_hdr *h);
void hdr_free(cow_hdr *h);

#endif
