/* SPDX-License-Identifier: BSD-3-Clause */
/* Virtual time: an integer count of picoseconds (DESIGN 4.1). */
#ifndef SIMPI_SIMTIME_H
#define SIMPI_SIMTIME_H

#include <stdint.h>

typedef int64_t simtime_t;

#define SIMTIME_NEVER INT64_MAX
#define PS_PER_NS INT64_C(1000)
#define PS_PER_US INT64_C(1000000)
#define PS_PER_MS INT64_C(1000000000)
#define PS_PER_S INT64_C(1000000000000)

/* The largest representable simulated time, for messages (DESIGN 4.10: a
 * time beyond it stops the run with an error, never a wrong number). */
#define SIMTIME_LIMIT_TEXT "9223372.036854 s, about 106 days"

/* a + b for non-negative times; SIMTIME_NEVER when the sum cannot be
 * represented or either operand is SIMTIME_NEVER (callers treat it as an
 * overflow). */
static inline simtime_t simtime_add(simtime_t a, simtime_t b) {
    if (a == SIMTIME_NEVER || b == SIMTIME_NEVER || b >= SIMTIME_NEVER - a) return SIMTIME_NEVER;
    return a + b;
}

/* Rounds a duration in seconds to the nearest picosecond; SIMTIME_NEVER when
 * it cannot be represented (too long, infinite or NaN). */
simtime_t simtime_from_seconds(double seconds);
double simtime_to_seconds(simtime_t t);

/* Writes t in seconds as printf's "%.12g" writes simtime_to_seconds(t), NUL
 * terminated, and returns its length (at most 31 characters). Below one
 * second a time has at most 12 significant digits, written from the
 * integer without printf's multiple-precision conversion (about 20 times
 * faster: JSON reports of millions of ranks); others go through snprintf. */
int simtime_format_seconds(simtime_t t, char out[32]);

#endif
