/* SPDX-License-Identifier: BSD-3-Clause */
/* A minimal test harness for the unit tests: CHECK macros that record
 * failures with file and line, and a registry of test functions. */
#ifndef SIMPI_TEST_H
#define SIMPI_TEST_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

extern int test_failures;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);               \
            test_failures++;                                                                       \
        }                                                                                          \
    } while (0)

#define CHECK_EQ_INT(a, b)                                                                         \
    do {                                                                                           \
        long long va_ = (long long)(a), vb_ = (long long)(b);                                      \
        if (va_ != vb_) {                                                                          \
            fprintf(stderr, "%s:%d: %s == %lld, expected %s == %lld\n", __FILE__, __LINE__, #a,    \
                    va_, #b, vb_);                                                                 \
            test_failures++;                                                                       \
        }                                                                                          \
    } while (0)

#define CHECK_CONTAINS(hay, needle)                                                                \
    do {                                                                                           \
        const char *h_ = (hay);                                                                    \
        if (!h_ || !strstr(h_, (needle))) {                                                        \
            fprintf(stderr, "%s:%d: '%s' does not contain '%s'\n", __FILE__, __LINE__,             \
                    h_ ? h_ : "(null)", (needle));                                                 \
            test_failures++;                                                                       \
        }                                                                                          \
    } while (0)

struct test_case {
    const char *name;
    void (*fn)(void);
};

#define TEST_LIST(name) const struct test_case name[]
#define TEST_END                                                                                   \
    { NULL, NULL }

/* Writes text to a fresh temporary file; returns its path (static buffer per call
 * slot, 8 slots). */
const char *test_write_temp(const char *suffix, const char *text);
extern char test_tmp[64]; /* the tests' private folder */
/* With SIMPI_TEST_EXPORT=DIR, a replay case (the platform file, or NULL for
 * the built-in one, the --set values and the trace) is copied into DIR as
 * NNN-TEST.yaml, NNN-TEST.args (one argument a line) and NNN-TEST.trace,
 * for tests/parallel/run-golden-split to replay split and whole. */
void test_export_replay(const char *platform, const char *const *sets, int nsets,
                        const char *trace);

/* Runs fn in a forked child, its standard error kept in err (n bytes,
 * NUL-ended); returns the child's wait status (-1 if it could not run):
 * for checks that end the process (an invariant's abort, err_fatal). */
int test_in_child(void (*fn)(void), char *err, size_t n);

/* Message sizes for a selector sweep on n ranks: 0, each power of two up to
 * 16 MiB and its neighbours, each of the nmarks thresholds and its
 * neighbours, and the sizes putting a total (n x size) just below and at
 * each threshold; returns how many were written (at most
 * COLL_SWEEP_SIZES(nmarks)). */
#define COLL_SWEEP_SIZES(nmarks) (1 + 3 * 25 + 5 * (nmarks))
int coll_sweep_sizes(int32_t n, const int64_t *marks, int nmarks, int64_t *sizes);

#endif
