/* SPDX-License-Identifier: BSD-3-Clause */
/* The data of on-line collectives. Their timing comes from the MPI layer's
 * schedules; their data is moved directly, in the one address space, through
 * a rendezvous slot per collective call: every member deposits a copy of its
 * input on arrival, and each output is written as soon as the inputs it
 * depends on are there (for a broadcast or scatter, the root's; otherwise
 * all). A rank cannot complete the collective before that point in virtual
 * time, so the program sees MPI's results. Reductions run in rank order. */
#ifndef SIMPI_COLL_DATA_H
#define SIMPI_COLL_DATA_H

#include <stdbool.h>
#include <stdint.h>

enum coll_data_kind {
    CD_NONE,
    CD_BCAST,
    CD_SCATTER,   /* root's input in pieces, one per member */
    CD_GATHER,    /* every input placed in the root's output */
    CD_ALLGATHER, /* every input placed in every output */
    CD_ALLTOALL,  /* piece j of member i's input goes to member j */
    CD_REDUCE,
    CD_ALLREDUCE,
    CD_SCAN,
    CD_EXSCAN,
    CD_REDUCE_SCATTER
};

struct coll_call {
    const char *func; /* the MPI function, for messages */
    enum coll_data_kind kind;
    int root;
    int op, type;  /* reductions: predefined op and basic type */
    bool op_user;  /* op is a user operation of another worker's process */
    int64_t count; /* reductions: elements in the vector */
    int64_t esize; /* reductions: bytes per element */
    const void *in;
    int64_t in_len;                    /* bytes of input */
    const int64_t *in_off, *in_len_to; /* CD_SCATTER (root) / CD_ALLTOALL: piece for member j */
    void *out;                         /* NULL if this member receives nothing */
    int32_t owner;                     /* world rank of this member (privatized globals) */
    int32_t comm;                      /* its communicator (a split run: whose workers hear) */
    int64_t out_len;
    const int64_t *out_off, *out_len_from; /* gathers / CD_ALLTOALL: place of member j's data;
                                              CD_REDUCE_SCATTER: element counts per member */
};

/* Deposits this member's part of collective number seq on communicator
 * context ctx (size n, this member me) and writes every output that becomes
 * computable. Returns an MPI error class. */
int coll_data_arrive(uint32_t ctx, uint32_t seq, int32_t n, int32_t me, const struct coll_call *c);
/* Every member's call is checked against the others' (MPI makes it
 * erroneous for them to differ): the same collective, root and operation,
 * and for each piece of data the same number of bytes sent and expected.
 * A difference is an MPI error class from coll_data_arrive, described
 * here (members named by their rank in the communicator); the data that
 * does not fit is not moved. */
const char *coll_data_error(void);
/* A split run (docs/parallel.md): every member's arrival also goes to the
 * other workers that hold members of the communicator (with its data where
 * one of theirs needs it), as a front-end message of the MPI layer
 * (sim_post_front); coll_data_take receives one there. A remote member is
 * counted and its data used as a local one's; outputs are written for this
 * worker's members only, so a rank completes with MPI's result as long as
 * the schedule makes it wait for the members it depends on (a message from
 * another worker lands a window after its member arrived, and the arrival
 * crossed at that window's end). */
struct sim;
void coll_data_split(struct sim *s);
void coll_data_take(const void *msg, uint32_t len);

#endif
