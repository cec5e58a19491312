/* SPDX-License-Identifier: BSD-3-Clause */
/* Phases found from the calls of a program that marks no intervals: the
 * periods kept during the run, and the interval tree built again at its end
 * with the main loop, its iterations and the phases around it (phases.c). */
#ifndef SIMPI_PHASES_H
#define SIMPI_PHASES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mpi/sim.h"

struct intervals;

struct phases {
    uint8_t *log; /* every period of this process's ranks, in order, encoded */
    size_t len, cap;
    simtime_t *last_end; /* [nranks] each rank's last period's end, for the encoding */
    int32_t nranks, owned, finished;
    simtime_t *finish; /* [nranks] when each rank ended */
    bool *done;
    bool off; /* nothing kept: too large, or the program marks its own intervals */
};

void phases_init(struct phases *ph, const struct sim *s);
void phases_free(struct phases *ph);
void phases_period(struct phases *ph, const struct sim_period *p);
/* The program entered an interval of its own: nothing is found. */
void phases_marked(struct phases *ph);
/* Rank ended at t; true once every rank of this process has. */
bool phases_finished(struct phases *ph, int32_t rank, simtime_t t);
/* Builds iv again with the phases found (true), or leaves it (false: no
 * loop repeats three times, or the run did not end on every rank). */
bool phases_rebuild(struct phases *ph, struct intervals *iv);

#endif
