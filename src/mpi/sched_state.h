/* SPDX-License-Identifier: BSD-3-Clause */
/* A rank's schedule of one collective: what the executor (sched.c) and the
 * matching of its steps (steps.c) share. */
#ifndef SIMPI_MPI_SCHED_STATE_H
#define SIMPI_MPI_SCHED_STATE_H

#include "mpi/coll/coll.h"
#include "mpi/sim_internal.h"

/* 128 bytes, two cache lines (the pool's objects start on one): first what
 * a step's completion touches (sched_notify), which the interfaces' window
 * asks for ahead with the schedule's first line (nics.c, eject_prefetch).
 * A schedule is known by its rank (owner), its communicator's collective
 * context (ctx) and the collective's number there (tag); one that its rank
 * has not started yet (algo NULL) was opened by a partner's early send
 * (steps.c). */
struct sched {
    simtime_t round_end; /* when the current round (so far) completes */
    int32_t pending;
    uint8_t posting;
    uint8_t kind;         /* the collective (enum coll_kind) */
    struct request *req;  /* the collective's request */
    struct request *subs; /* this round's sends and receives, the last posted first */
    const struct coll_algo *algo;
    struct comm *comm;
    struct coll_args args;
    struct vcounts *vbuf;    /* variable counts: the copy args.vsend / vrecv point into */
    struct request *waiting; /* its receives no send took yet and partners' sends that
                                came first: the last of a ring by qnext (steps.c) */
    int32_t owner, round;
    uint32_t tag, ctx;
};
_Static_assert(sizeof(struct sched) <= 128, "a schedule takes two cache lines");

#endif
