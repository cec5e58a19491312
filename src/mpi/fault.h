/* SPDX-License-Identifier: BSD-3-Clause */
/* The platform's faults (fault.c, docs/faults.md). */
#ifndef SIMPI_MPI_FAULT_H
#define SIMPI_MPI_FAULT_H

#include "mpi/sim_internal.h"

/* fault.c: the platform's faults (docs/faults.md) */
bool fault_setup(struct sim *s, struct sim_error *err);
/* ULFM runs: fails the waits that can no longer complete; true if any did. */
bool fault_quiesce(struct sim *s);
/* A request that a wait or test ends: noted if it failed. */
void fault_note_done(struct sim *s, const struct request *r);
/* Ends an unresolved request as failed if it involves a failed rank (a
 * receive from it, a send to it, a collective with it); quiet: nothing
 * else can move, so any-source receives fail too. True if it did. */
bool fault_fail_request(struct sim *s, struct request *q, bool quiet);
/* A message from rank `from` to `to` finds no route (faults cut the
 * network): the run stops with a partition report; true if it did. */
bool fault_partitioned(struct sim *s, int32_t from, int32_t to);
/* Whether a member of communicator c has failed. */
bool fault_comm_has_failed(const struct sim *s, const struct comm *c);
/* A request of rank that failed at once (an operation with a failed rank). */
struct request *fault_failed_request(struct sim *s, int32_t rank, int kind);

#endif
