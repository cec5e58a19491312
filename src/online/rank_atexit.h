/* SPDX-License-Identifier: BSD-3-Clause */
/* Each rank's exit handlers (C++ function-local statics' destructors,
 * atexit), run when the rank ends (rank_atexit.c). */
#ifndef SIMPI_RANK_ATEXIT_H
#define SIMPI_RANK_ATEXIT_H

#include <stdint.h>

/* Runs, in reverse order of registration, the handlers that `rank`
 * registered while it ran; on the main thread, in the rank. */
void rank_atexit_run(int32_t rank);

#endif
