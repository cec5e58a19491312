/* SPDX-License-Identifier: BSD-3-Clause */
/* What the observer is told (observe.c). */
#ifndef SIMPI_MPI_OBSERVE_H
#define SIMPI_MPI_OBSERVE_H

#include "mpi/sim_internal.h"

/* observe.c: what the observer is told; observe_free frees its table of
 * ranks (sim_destroy) */
void observe_free(struct sim *s);
/* A wait completes now (before its requests are released); chosen: the
 * request a waitany completes. */
void observe_wait(struct sim *s, int32_t rank, const struct request *chosen, simtime_t sync_loss);
/* A test found q complete. */
void observe_test(struct sim *s, int32_t rank, const struct request *q);
/* recv, matched, receives its data at precv from a send posted at lsend. */
void observe_message(struct sim *s, const struct request *recv, simtime_t lsend, simtime_t precv);

#endif
