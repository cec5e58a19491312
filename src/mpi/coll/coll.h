/* Collective algorithms as schedules (DESIGN 4.5): an algorithm tells, for
 * one rank, the sends and receives of each round; a round starts when the
 * previous one has completed. Rounds are generated one at a time, so a rank's
 * schedule costs O(1) memory whatever the communicator size. */
#ifndef SIMPI_COLL_H
#define SIMPI_COLL_H

#include <stdint.h>

#include "mpi/sim.h"

#define COLL_MAX_OPS 66

struct coll_op {
    uint8_t is_send;
    int32_t peer; /* rank in the communicator */
    int64_t size; /* bytes */
};

struct coll_args {
    int32_t n, me, root;
    int64_t size; /* per-rank block in bytes */
};

/* Fills ops for round `round`; returns how many (0: an empty round), or -1
 * when the schedule is over. */
typedef int (*coll_round_fn)(const struct coll_args *a, int round, struct coll_op *ops);

struct coll_algo {
    const char *name;
    enum coll_kind kind;
    coll_round_fn round;
};

/* The algorithm used for a collective of this kind: the one forced for the
 * kind (forced[kind], may be NULL), else the default. */
const struct coll_algo *coll_select(const struct coll_algo *const *forced, enum coll_kind kind,
                                    int32_t n, int64_t size);
/* The algorithm of this kind called name, or NULL. */
const struct coll_algo *coll_find(enum coll_kind kind, const char *name);
/* Every algorithm has a number below COLL_ALGOS (for per-algorithm counts). */
#define COLL_ALGOS 16
int coll_index(const struct coll_algo *a);
const struct coll_algo *coll_by_index(int i);
/* The names of the algorithms of a kind, comma-separated (for messages). */
void coll_names(enum coll_kind kind, char *buf, int len);

/* Helpers shared by the algorithm files. */
static inline int coll_op_set(struct coll_op *op, int is_send, int32_t peer, int64_t size) {
    op->is_send = (uint8_t)is_send;
    op->peer = peer;
    op->size = size;
    return 1;
}
/* Lowest set bit of v, or the smallest power of two >= n when v == 0. */
int32_t coll_lowbit_or_top(int32_t v, int32_t n);

int coll_barrier_dissemination(const struct coll_args *a, int round, struct coll_op *ops);
int coll_bcast_binomial(const struct coll_args *a, int round, struct coll_op *ops);
int coll_reduce_binomial(const struct coll_args *a, int round, struct coll_op *ops);
int coll_allreduce_recursive_doubling(const struct coll_args *a, int round, struct coll_op *ops);
int coll_allreduce_ring(const struct coll_args *a, int round, struct coll_op *ops);
int coll_allreduce_rabenseifner(const struct coll_args *a, int round, struct coll_op *ops);
int coll_allreduce_reduce_bcast(const struct coll_args *a, int round, struct coll_op *ops);
int coll_gather_binomial(const struct coll_args *a, int round, struct coll_op *ops);
int coll_scatter_binomial(const struct coll_args *a, int round, struct coll_op *ops);
int coll_allgather_bruck(const struct coll_args *a, int round, struct coll_op *ops);
int coll_allgather_ring(const struct coll_args *a, int round, struct coll_op *ops);
int coll_allgather_recursive_doubling(const struct coll_args *a, int round, struct coll_op *ops);
int coll_alltoall_pairwise(const struct coll_args *a, int round, struct coll_op *ops);

#endif
