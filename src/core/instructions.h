/* SPDX-License-Identifier: BSD-3-Clause */
/* The CPU's count of user-mode instructions retired by the calling thread
 * (perf_event_open), for the tracer's bursts and `simpi calibrate-host`. */
#ifndef SIMPI_INSTRUCTIONS_H
#define SIMPI_INSTRUCTIONS_H

#include <stdint.h>

/* Opens the counter: its descriptor, or -1 with *why set to the reason
 * (no PMU in a VM, perf_event_paranoid...). */
int instructions_open(const char **why);
/* The count so far, or `otherwise` when it cannot be read. */
uint64_t instructions_read(int fd, uint64_t otherwise);

#endif
