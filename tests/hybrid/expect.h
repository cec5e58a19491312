/* SPDX-License-Identifier: BSD-3-Clause */
/* The hybrid tests' check: counts a failed condition in `errors` (atomic:
 * threads check at once) and names it with the rank `me`. */
#ifndef HYBRID_EXPECT_H
#define HYBRID_EXPECT_H
#include <stdio.h>

#define EXPECT(c)                                                                                  \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            _Pragma("omp atomic") errors++;                                                        \
            fprintf(stderr, "rank %d: line %d: %s\n", me, __LINE__, #c);                           \
        }                                                                                          \
    } while (0)

#endif
