/* SPDX-License-Identifier: BSD-3-Clause */
/* What the simulator assumes, checked in debug and sanitizer builds (no
 * NDEBUG): INVARIANT(cond, fmt, ...) stops with "simpi: internal error:
 * MSG" and abort() (a core and a stack for the person who debugs) when
 * cond is false. Release builds compile the check away: they must not pay
 * for it on the hot path. */
#ifndef SIMPI_INVARIANT_H
#define SIMPI_INVARIANT_H

#ifndef NDEBUG
#include <stdio.h>
#include <stdlib.h>
#define INVARIANTS_CHECKED 1
#define INVARIANT(cond, ...)                                                                       \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fflush(stdout);                                                                        \
            fprintf(stderr, "simpi: internal error: ");                                            \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, " (%s:%d)\n", __FILE__, __LINE__);                                     \
            abort();                                                                               \
        }                                                                                          \
    } while (0)
#else
#define INVARIANTS_CHECKED 0
#define INVARIANT(cond, ...) ((void)0)
#endif

#endif
