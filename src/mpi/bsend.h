/* SPDX-License-Identifier: BSD-3-Clause */
/* Buffered sends (bsend.c): the room their messages take in their rank's
 * attached buffer. */
#ifndef SIMPI_MPI_BSEND_H
#define SIMPI_MPI_BSEND_H

#include "mpi/sim_internal.h"

/* Frees the room of the delivered buffered sends of rank, then reserves
 * room for r (marked RF_BSEND until delivered); false (the run stopped
 * with the buffer's account) if there is none. */
bool bsend_reserve(struct sim *s, int32_t rank, struct request *r);
/* A rank's buffer, at its end. */
void bsend_free(struct rank_rare *rare);

#endif
