/* SPDX-License-Identifier: BSD-3-Clause */
/* Division by a divisor fixed at run time as a multiplication and a shift
 * (Granlund and Montgomery, "Division by invariant integers using
 * multiplication", 1994): a rank's node under a block placement is computed
 * at every message, where a hardware division costs tens of cycles. */
#ifndef SIMPI_DIVIDE_H
#define SIMPI_DIVIDE_H

#include <stdint.h>

struct divisor {
    uint64_t magic; /* floor(2^(32 + l) / d) + 1, with 2^(l-1) < d <= 2^l */
    unsigned shift; /* 32 + l */
};

/* d in [1, 2^31]. */
static inline struct divisor divisor_make(uint32_t d) {
    unsigned l = 0;
    while (l < 31 && ((uint64_t)1 << l) < d)
        l++;
    return (struct divisor){((uint64_t)1 << (32 + l)) / d + 1, 32 + l};
}

/* n / d for n in [0, 2^31): m d lies in (2^(32+l), 2^(32+l) + 2^l], which
 * makes the quotient exact for every n below 2^32, and n m stays below
 * 2^31 2^33 = 2^64. */
static inline uint32_t divisor_apply(const struct divisor *d, uint32_t n) {
    return (uint32_t)(((uint64_t)n * d->magic) >> d->shift);
}

#endif
