/* SPDX-License-Identifier: BSD-3-Clause */
/* The progress line: on a terminal, a run longer than about a second shows
 * one self-erasing status line on stderr (virtual time reached, ranks
 * finished, events per second; for replay the share of the trace read and
 * an estimate of the time left), updated at most four times a second.
 * Nothing is printed when stderr is not a terminal (unless always). */
#ifndef SIMPI_PROGRESS_H
#define SIMPI_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

#include "mpi/sim.h"

enum progress_mode { PROGRESS_AUTO, PROGRESS_ALWAYS, PROGRESS_NEVER };

/* Parses auto|always|never; false if s is none of them. */
bool progress_parse(const char *s, enum progress_mode *mode);

/* Starts showing progress for s (registers its tick). trace_share, if not
 * NULL, gives the share (0..1) of the trace read so far, or -1 if unknown. */
void progress_start(struct sim *s, enum progress_mode mode, double (*trace_share)(void *ctx),
                    void *ctx);
/* Erases the line (before the summary is printed). */
void progress_end(void);

#endif
