/* SPDX-License-Identifier: BSD-3-Clause */
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
    int32_t window;  /* windowed algorithms: messages in flight per direction (> 0) */
    int64_t size;    /* per-rank block in bytes */
    int64_t segment; /* pipelined algorithms: bytes per segment (> 0) */
    /* variable-count collectives (NULL otherwise), bytes per communicator
     * rank: vsend[j] this rank sends to j (scatterv root, alltoallv),
     * vrecv[j] it receives from j, or j's block (gatherv root, allgatherv,
     * alltoallv); a rank that does not hold the array sends or receives
     * `size` (its own count) */
    const int64_t *vsend, *vrecv;
};

/* Fills ops for round `round`; returns how many (0: an empty round), or -1
 * when the schedule is over. */
typedef int (*coll_round_fn)(const struct coll_args *a, int round, struct coll_op *ops);

struct coll_algo {
    const char *name;
    enum coll_kind kind;
    coll_round_fn round;
    uint8_t wide; /* a round may hold up to 2 n ops (linear algorithms) */
    uint8_t vcap; /* handles variable counts (coll_args.vsend / vrecv) */
};

/* Room for the ops of one round of algorithm a on n ranks. */
static inline int64_t coll_ops_room(const struct coll_algo *a, int32_t n) {
    return a->wide ? 2 * (int64_t)n + 2 : COLL_MAX_OPS;
}

/* Dimemas' analytic model of a collective (mpi.coll.model: analytic): the
 * participants synchronise, then FAN_IN and FAN_OUT each take
 * factor x T(SIZE), T the point-to-point cost. */
enum coll_an_factor { COLL_AN_NONE, COLL_AN_CTE, COLL_AN_LIN, COLL_AN_LOG };
enum coll_an_size { COLL_AN_MAX, COLL_AN_MIN, COLL_AN_MEAN, COLL_AN_2MAX, COLL_AN_SR };
struct coll_an_phase {
    uint8_t factor, size;
};
struct coll_an_rule {
    struct coll_an_phase in, out;
};

/* Which library's decision rules pick an algorithm when none is forced. */
enum coll_selector { COLL_SEL_FIXED, COLL_SEL_MPICH, COLL_SEL_OMPI };

struct coll_config {
    const struct coll_algo *forced[COLL_KINDS]; /* mpi.coll.<op>: NAME, else NULL */
    enum coll_selector selector;                /* mpi.coll.selector */
    int64_t segment;                            /* mpi.coll.segment_size, bytes */
    int32_t window;                             /* mpi.coll.window */
    bool analytic;                              /* mpi.coll.model: analytic */
    struct coll_an_rule an[COLL_KINDS];         /* mpi.coll.analytic.<op> */
    simtime_t an_latency;        /* mpi.coll.analytic_latency: added to each phase's T(SIZE) */
    struct conf_node *selection; /* mpi.coll.selection: MPICH's selection file, or NULL */
};

/* select_file.c: MPICH's collective selection file (coll_selection.json).
 * Loads and checks it (NULL with err set, naming file, line and key). */
struct conf_node *coll_selection_load(const char *path, struct sim_error *err);
/* The algorithm the file selects for a call (its top "collective=i..."
 * for a non-blocking call, else the blocking one's), writing the keys
 * taken into path if not NULL; NULL if the file has no rule for it. */
const struct coll_algo *coll_selection_pick(const struct conf_node *tree, enum coll_kind kind,
                                            int32_t n, int64_t size, bool nonblocking, char *path,
                                            size_t pathlen);
/* Reads mpi.coll (selector, forced algorithms, segment, window, analytic
 * model, selection file) from a platform's tree into cfg. */
bool coll_config_read(const struct conf_node *platform, struct coll_config *cfg,
                      struct sim_error *err);

/* The default analytic rule of each operation (docs/collectives.md). */
struct coll_an_rule coll_an_default(enum coll_kind kind);
/* Steps of the LOG factor for P participants and B buses (0: unlimited):
 * sum over the ceil(log2 P) phases of a binomial tree of ceil(C_i / B),
 * C_i the transfers of phase i. */
int64_t coll_an_log_steps(int32_t p, int64_t buses);
/* Bytes a rank passes to the operation as send and receive buffers, for a
 * per-rank block S on n ranks (is_root: the rank is the root). */
void coll_an_buffers(enum coll_kind kind, int32_t n, int64_t S, bool is_root, int64_t *sent,
                     int64_t *recv);
/* Parses "LOG", "LIN", "CTE", "0" / "MAX", "MIN", "MEAN", "2MAX", "S+R";
 * -1 when unknown. */
int coll_an_factor_find(const char *name);
int coll_an_size_find(const char *name);
extern const char *const coll_an_factor_names[], *const coll_an_size_names[];

/* How a collective was called, for the selectors: non-blocking (MPICH
 * and Open MPI choose some of those by rules of their own), and for a
 * reduce_scatter, the block form (MPI_Reduce_scatter_block, a trace's
 * uniform reduce_scatter record), which Open MPI chooses by a table of its
 * own; an MPI_Reduce_scatter whose counts happen to be equal is not. */
enum { COLL_CALL_NONBLOCKING = 1, COLL_CALL_SCATTER_BLOCK = 2 };

/* The algorithm used for a collective of this kind on n ranks with size
 * bytes per rank (the block; reduce_scatter: each rank's block): the one
 * forced for the kind, else the selector's choice for a blocking call.
 * cfg may be NULL (fixed). */
const struct coll_algo *coll_select(const struct coll_config *cfg, enum coll_kind kind, int32_t n,
                                    int64_t size);
/* The same for a call made as `how` says (COLL_CALL_* bits). */
const struct coll_algo *coll_select_call(const struct coll_config *cfg, enum coll_kind kind,
                                         int32_t n, int64_t size, unsigned how);
/* The same for a variable-count collective: the forced algorithm when it
 * handles variable counts, else the selector's variable-count rule, which
 * depends on n, and for an allgatherv and a reduce_scatter on the total of
 * the blocks (every rank knows them all; of the others each rank knows
 * only its own counts). */
const struct coll_algo *coll_select_v(const struct coll_config *cfg, enum coll_kind kind,
                                      const struct coll_args *a, unsigned how);
/* Bytes this rank sends to / receives from communicator rank j. */
static inline int64_t coll_vsend(const struct coll_args *a, int32_t j) {
    return a->vsend ? a->vsend[j] : a->size;
}
static inline int64_t coll_vrecv(const struct coll_args *a, int32_t j) {
    return a->vrecv ? a->vrecv[j] : a->size;
}
/* Bytes of the received blocks of ranks start, start + 1, ..., start +
 * count - 1 (mod n): count x size without variable counts. */
static inline int64_t coll_vrange(const struct coll_args *a, int32_t start, int32_t count) {
    if (!a->vrecv) return a->size * count;
    int64_t bytes = 0;
    for (int32_t i = 0, j = start % a->n; i < count; i++, j = j + 1 == a->n ? 0 : j + 1)
        bytes += a->vrecv[j];
    return bytes;
}
/* The selectors' names, in enum coll_selector's order, then the alias
 * openmpi (of ompi), NULL-terminated. */
extern const char *const coll_selector_names[];
/* The selector called name (hyphens or underscores, any case), or -1. */
int coll_selector_find(const char *name);
/* The algorithm of this kind called name, or NULL. */
const struct coll_algo *coll_find(enum coll_kind kind, const char *name);
/* Every algorithm has a number below COLL_ALGOS (for per-algorithm counts). */
#define COLL_ALGOS 48
int coll_index(const struct coll_algo *a);
const struct coll_algo *coll_by_index(int i);
/* The names of the algorithms of a kind into names (at most max entries,
 * the last NULL); returns how many. */
int coll_names(enum coll_kind kind, const char **names, int max);

/* Helpers shared by the algorithm files. */
static inline int coll_op_set(struct coll_op *op, int is_send, int32_t peer, int64_t size) {
    op->is_send = (uint8_t)is_send;
    op->peer = peer;
    op->size = size;
    return 1;
}
/* Lowest set bit of v, or the smallest power of two >= n when v == 0. */
int32_t coll_lowbit_or_top(int32_t v, int32_t n);
/* Non-powers of two paired first (MPICH): with rem = n - 2^floor(log2 n),
 * ranks below 2 rem pair up and the odd one of each pair takes part. The
 * participant index of a rank (its even partner shares it), and back. */
static inline int32_t coll_pair_index(int32_t rank, int32_t rem) {
    return rank < 2 * rem ? rank / 2 : rank - rem;
}
static inline int32_t coll_pair_rank(int32_t index, int32_t rem) {
    return index < rem ? index * 2 + 1 : index + rem;
}
/* floor(log2 n) for n >= 1 (0 below): one instruction, where a loop took
 * about 60 per call of a schedule's round (4% of an on-line allreduce). */
static inline int32_t coll_log2_floor(int32_t n) {
    return n > 1 ? 31 - __builtin_clz((uint32_t)n) : 0;
}
/* Whether n is a power of two; the largest power of two <= n (n >= 1). */
bool coll_pow2(int32_t n);
int32_t coll_pof2_floor(int32_t n);
/* Block i of size bytes cut into n blocks, the first size % n one byte
 * larger (as MPICH cuts counts). */
static inline int64_t coll_block(int64_t size, int32_t n, int32_t i) {
    return size / n + (i < size % n ? 1 : 0);
}
/* Rank in the communicator of the rank at distance v from the root. */
static inline int32_t coll_abs(const struct coll_args *a, int32_t v) {
    return (int32_t)(((int64_t)v + a->root) % a->n);
}
/* Distance of rank r from the root. */
static inline int32_t coll_rel(const struct coll_args *a, int32_t r) {
    return (int32_t)(((int64_t)r - a->root + a->n) % a->n);
}
/* A pipelined chain v = 0 (the source) -> 1 -> ... -> n - 1 moving size
 * bytes in segments of a->segment; prev/next are communicator ranks (-1: none).
 * Round k receives segment k and passes on segment k - 1. */
int coll_chain(const struct coll_args *a, int32_t prev, int32_t next, int round,
               struct coll_op *ops);
/* Number of segments of a->segment bytes in a->size bytes (1 for 0 bytes). */
int64_t coll_segments(const struct coll_args *a);

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
int coll_barrier_linear(const struct coll_args *a, int round, struct coll_op *ops);
int coll_bcast_scatter_ring_allgather(const struct coll_args *a, int round, struct coll_op *ops);
int coll_bcast_scatter_rd_allgather(const struct coll_args *a, int round, struct coll_op *ops);
int coll_bcast_pipeline(const struct coll_args *a, int round, struct coll_op *ops);
int coll_reduce_rabenseifner(const struct coll_args *a, int round, struct coll_op *ops);
int coll_reduce_pipeline(const struct coll_args *a, int round, struct coll_op *ops);
int coll_allreduce_ring_segmented(const struct coll_args *a, int round, struct coll_op *ops);
int coll_gather_linear(const struct coll_args *a, int round, struct coll_op *ops);
int coll_gather_linear_sync(const struct coll_args *a, int round, struct coll_op *ops);
int coll_scatter_linear(const struct coll_args *a, int round, struct coll_op *ops);
int coll_scatter_linear_sync(const struct coll_args *a, int round, struct coll_op *ops);
int coll_allgather_neighbor_exchange(const struct coll_args *a, int round, struct coll_op *ops);
int coll_allgather_linear(const struct coll_args *a, int round, struct coll_op *ops);
int coll_alltoall_bruck(const struct coll_args *a, int round, struct coll_op *ops);
int coll_alltoall_linear(const struct coll_args *a, int round, struct coll_op *ops);
int coll_alltoall_linear_sync(const struct coll_args *a, int round, struct coll_op *ops);
int coll_reduce_scatter_recursive_halving(const struct coll_args *a, int round,
                                          struct coll_op *ops);
int coll_scan_recursive_doubling(const struct coll_args *a, int round, struct coll_op *ops);
int coll_scan_linear(const struct coll_args *a, int round, struct coll_op *ops);
int coll_reduce_scatter_nonoverlapping(const struct coll_args *a, int round, struct coll_op *ops);
int coll_reduce_scatter_recursive_doubling(const struct coll_args *a, int round,
                                           struct coll_op *ops);

#endif
