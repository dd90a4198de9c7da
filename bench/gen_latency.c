/* gen_latency.c -- write N rows of timestamp_us,latency_us,op to stdout:
 * a 2 ms probe with lognormal-ish latencies and a few ops. Deterministic
 * (fixed seed, or the optional second argument), so every benchmark run
 * reads the same bytes.   gen_latency [N [SEED]] */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t state = 0x9E3779B97F4A7C15ull;

static uint64_t next(void)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 10000000L;
    static const char *const ops[] = {"SET", "GET", "SET", "INCR"};
    int64_t t = INT64_C(1738591331000000);
    long i;

    if (argc > 2)
        state ^= strtoull(argv[2], NULL, 10) * 0xBF58476D1CE4E5B9ull;

    printf("timestamp_us,latency_us,op\n");
    for (i = 0; i < n; i++) {
        uint64_t r = next();
        unsigned lat = 80 + (unsigned)(r % 300) + ((r >> 20) % 1000 == 0 ? 5000 : 0);
        t += 2000 + (int64_t)((r >> 40) % 50);
        printf("%lld,%u,%s\n", (long long)t, lat, ops[(r >> 32) & 3]);
    }
    return 0;
}
