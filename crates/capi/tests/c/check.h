/* Tiny test helpers for the C programs of the capi tests: CHECK prints the failing
 * expression with the library's last error and counts it; main returns the count. */
#ifndef CAPI_TEST_CHECK_H
#define CAPI_TEST_CHECK_H

#include <errno.h>
#include <stdio.h>
#include <string.h>

static int check_failures;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: CHECK(%s) failed; last error: %s\n", __FILE__,   \
                    __LINE__, #cond, neuron_hal_last_error());                       \
            check_failures++;                                                        \
        }                                                                            \
    } while (0)

/* rc == want, and the last error names the function (a failing call sets it). */
#define CHECK_RC(call, want)                                                         \
    do {                                                                             \
        int rc_ = (call);                                                            \
        if (rc_ != (want)) {                                                         \
            fprintf(stderr, "%s:%d: %s returned %d, want %d; last error: %s\n",      \
                    __FILE__, __LINE__, #call, rc_, (int)(want),                     \
                    neuron_hal_last_error());                                        \
            check_failures++;                                                        \
        }                                                                            \
    } while (0)

/* Every byte of [p, p+n) equals b. */
static inline int all_bytes(const void *p, size_t n, unsigned char b) {
    const unsigned char *c = (const unsigned char *)p;
    for (size_t i = 0; i < n; i++)
        if (c[i] != b)
            return 0;
    return 1;
}

#endif
