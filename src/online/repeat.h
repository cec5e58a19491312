/* SPDX-License-Identifier: BSD-3-Clause */
/* simpi run --repeat N: the program runs N times (each its own process,
 * started by simpi run), and the last run reports the spread of the
 * predicted time and of each rank's measured computation over all N. The
 * runs before the last leave their figures in a folder for it. */
#ifndef SIMPI_REPEAT_H
#define SIMPI_REPEAT_H

#include "mpi/sim.h"
#include "report/summary.h"

/* Takes --repeat's folder, this run's index and the count of runs (simpi
 * run's options repeat-dir, repeat-run, repeat-runs; NULL: no --repeat). */
void repeat_read_settings(const char *dir, const char *run, const char *runs);
/* At the end of a run: an earlier run writes its figures; the last adds
 * the band over every run to h. */
void repeat_add(struct host_figures *h, const struct sim *s, enum sim_status st);

#endif
