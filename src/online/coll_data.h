/* The data of on-line collectives. Their timing comes from the MPI layer's
 * schedules; their data is moved directly, in the one address space, through
 * a rendezvous slot per collective call: every member deposits a copy of its
 * input on arrival, and each output is written as soon as the inputs it
 * depends on are there (for a broadcast, the root's; for a reduction, all).
 * A rank cannot leave the collective before that point in virtual time, so
 * the program sees MPI's results. Reductions run in rank order. */
#ifndef SIMPI_COLL_DATA_H
#define SIMPI_COLL_DATA_H

#include <stdint.h>

#include "mpi/sim.h"

struct coll_call {
    enum coll_kind kind;
    int root;       /* rank in the communicator */
    int op, type;   /* reductions */
    int64_t count;  /* elements per block (reductions: vector length) */
    int esize;      /* bytes per element */
    const void *in; /* this rank's input (already resolved for MPI_IN_PLACE) */
    void *out;      /* this rank's output, or NULL */
};

/* Deposits this rank's part of collective number seq on communicator
 * context ctx (size n, this rank me) and writes every output that becomes
 * computable. Returns an MPI error class. */
int coll_data_arrive(uint32_t ctx, uint32_t seq, int32_t n, int32_t me, const struct coll_call *c);

#endif
