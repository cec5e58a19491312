/* SPDX-License-Identifier: BSD-3-Clause */
/* simpi run --repeat N: the program runs N times (each its own process,
 * started by simpi run), and the last run reports the spread of the
 * predicted time and of each rank's measured computation over all N. The
 * runs before the last leave their figures in a folder for it. */
#ifndef SIMPI_REPEAT_H
#define SIMPI_REPEAT_H

#include "mpi/sim.h"
#include "report/summary.h"

/* Reads SIMPI_REPEAT_DIR, _RUN and _RUNS (before the environment is
 * scrubbed of simpi's settings). */
void repeat_read_settings(void);
/* At the end of a run: an earlier run writes its figures; the last adds
 * the band over every run to h. */
void repeat_add(struct host_figures *h, const struct sim *s, enum sim_status st);

#endif
