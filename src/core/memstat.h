/* SPDX-License-Identifier: BSD-3-Clause */
/* Process memory figures (peak resident set size) for reports and benchmarks. */
#ifndef SIMPI_MEMSTAT_H
#define SIMPI_MEMSTAT_H

#include <stdint.h>

/* Peak resident set size of this process in bytes (0 if unknown). */
int64_t memstat_peak_rss(void);
/* Seconds of wall-clock time since an arbitrary origin (for the simulation's
 * own speed only; never enters virtual time). */
double memstat_wall_seconds(void);

#endif
