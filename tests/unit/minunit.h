/* minunit.h -- the smallest test harness that reports well.
 *
 *     static void sha256_should_match_fips_vectors(void) { CHECK(...); }
 *     int main(void) { RUN(sha256_should_match_fips_vectors); return REPORT(); }
 *
 * CHECK keeps going after a failure (so one run shows all), prints
 * file:line and the expression; REPORT prints "N passed, N failed". */
#ifndef COW_TESTS_MINUNIT_H
#define COW_TESTS_MINUNIT_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int mu_checks, mu_fails, mu_tests, mu_failed_tests, mu_cur_failed;

#define CHECK(cond) do { \
    mu_checks++; \
    if (!(cond)) { \
        mu_fails++; mu_cur_failed = 1; \
        fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
    } } while (0)

#define CHECK_INT(a, b) do { \
    long long mu_a = (long long)(a), mu_b = (long long)(b); \
    mu_checks++; \
    if (mu_a != mu_b) { \
        mu_fails++; mu_cur_failed = 1; \
        fprintf(stderr, "%s:%d: %s == %lld, expected %lld\n", __FILE__, __LINE__, \
                #a, mu_a, mu_b); \
    } } while (0)

#define CHECK_NEAR(a, b, tol) do { \
    double mu_a = (double)(a), mu_b = (double)(b); \
    mu_checks++; \
    if (!(fabs(mu_a - mu_b) <= (tol))) { \
        mu_fails++; mu_cur_failed = 1; \
        fprintf(stderr, "%s:%d: %s == %.17g, expected %.17g (tol %g)\n", \
                __FILE__, __LINE__, #a, mu_a, mu_b, (double)(tol)); \
    } } while (0)

#define CHECK_STR(a, b) do { \
    const char *mu_a = (a), *mu_b = (b); \
    mu_checks++; \
    if (mu_a == NULL || mu_b == NULL || strcmp(mu_a, mu_b) != 0) { \
        mu_fails++; mu_cur_failed = 1; \
        fprintf(stderr, "%s:%d: %s == \"%s\", expected \"%s\"\n", __FILE__, \
                __LINE__, #a, mu_a ? mu_a : "(null)", mu_b ? mu_b : "(null)"); \
    } } while (0)

#define RUN(fn) do { \
    mu_cur_failed = 0; mu_tests++; fn(); \
    if (mu_cur_failed) { mu_failed_tests++; fprintf(stderr, "FAIL %s\n", #fn); } \
    } while (0)

#define REPORT() (printf("%d passed, %d failed\n", mu_tests - mu_failed_tests, \
                         mu_failed_tests), mu_failed_tests ? 1 : 0)

#endif
