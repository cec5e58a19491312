/* SPDX-License-Identifier: BSD-3-Clause */
/* Registry of collective algorithms, and the selectors that choose one per
 * call from the operation, the communicator size n and the message size:
 * `fixed` (one algorithm per operation, the first registered), `mpich`
 * (MPICH 4.x's default selection) and `ompi` (Open MPI 4.x
 * tuned component's fixed decision tables). docs/collectives.md lists the
 * rules and where they come from. */
#include "mpi/coll/coll.h"

#include <stdio.h>
#include <string.h>

#include "core/conf.h"
#include "core/log.h"

#define W 1 /* wide: a round may hold 2 n ops */
#define V 1 /* handles variable counts */

static const struct coll_algo algos[] = {
    {"dissemination", COLL_BARRIER, coll_barrier_dissemination, 0, 0},
    /* a barrier is an allreduce of nothing: the same schedules with 0 bytes */
    {"recursive_doubling", COLL_BARRIER, coll_allreduce_recursive_doubling, 0, 0},
    {"binomial", COLL_BARRIER, coll_allreduce_reduce_bcast, 0, 0},
    {"linear", COLL_BARRIER, coll_barrier_linear, W, 0},
    {"binomial", COLL_BCAST, coll_bcast_binomial, 0, 0},
    {"scatter_ring_allgather", COLL_BCAST, coll_bcast_scatter_ring_allgather, 0, 0},
    {"scatter_rd_allgather", COLL_BCAST, coll_bcast_scatter_rd_allgather, 0, 0},
    {"pipeline", COLL_BCAST, coll_bcast_pipeline, 0, 0},
    /* linear bcast: the root sends the whole message to each rank, the
     * linear scatter's pattern; cost T(S) without contention */
    {"linear", COLL_BCAST, coll_scatter_linear, W, 0},
    {"binomial", COLL_REDUCE, coll_reduce_binomial, 0, 0},
    {"rabenseifner", COLL_REDUCE, coll_reduce_rabenseifner, 0, 0},
    /* linear reduce: every vector to the root at once (the linear gather's
     * pattern), reduced there in rank order; cost T(S) without contention */
    {"linear", COLL_REDUCE, coll_gather_linear, W, 0},
    {"pipeline", COLL_REDUCE, coll_reduce_pipeline, 0, 0},
    {"recursive_doubling", COLL_ALLREDUCE, coll_allreduce_recursive_doubling, 0, 0},
    {"ring", COLL_ALLREDUCE, coll_allreduce_ring, 0, 0},
    {"rabenseifner", COLL_ALLREDUCE, coll_allreduce_rabenseifner, 0, 0},
    {"reduce_bcast", COLL_ALLREDUCE, coll_allreduce_reduce_bcast, 0, 0},
    {"ring_segmented", COLL_ALLREDUCE, coll_allreduce_ring_segmented, 0, 0},
    {"binomial", COLL_GATHER, coll_gather_binomial, 0, 0},
    {"linear", COLL_GATHER, coll_gather_linear, W, V},
    {"linear_sync", COLL_GATHER, coll_gather_linear_sync, 0, V},
    {"binomial", COLL_SCATTER, coll_scatter_binomial, 0, 0},
    {"linear", COLL_SCATTER, coll_scatter_linear, W, V},
    {"linear_sync", COLL_SCATTER, coll_scatter_linear_sync, 0, V},
    {"bruck", COLL_ALLGATHER, coll_allgather_bruck, 0, V},
    {"ring", COLL_ALLGATHER, coll_allgather_ring, 0, V},
    {"recursive_doubling", COLL_ALLGATHER, coll_allgather_recursive_doubling, 0, V},
    {"neighbor_exchange", COLL_ALLGATHER, coll_allgather_neighbor_exchange, 0, 0},
    {"linear", COLL_ALLGATHER, coll_allgather_linear, W, V},
    {"pairwise", COLL_ALLTOALL, coll_alltoall_pairwise, 0, V},
    {"bruck", COLL_ALLTOALL, coll_alltoall_bruck, 0, 0},
    {"linear", COLL_ALLTOALL, coll_alltoall_linear, W, V},
    {"linear_sync", COLL_ALLTOALL, coll_alltoall_linear_sync, W, V},
    {"recursive_halving", COLL_REDUCE_SCATTER, coll_reduce_scatter_recursive_halving, 0, V},
    /* pairwise reduce-scatter (MPICH's long-message one): round k sends the
     * partial block for me + k and receives its own from me - k, the
     * all-to-all's pairwise pattern: (n - 1) T(S) */
    {"pairwise", COLL_REDUCE_SCATTER, coll_alltoall_pairwise, 0, 0},
    /* ring reduce-scatter (Open MPI): n - 1 rounds passing one partially
     * reduced block to me + 1, the allgather ring's pattern: (n - 1) T(S) */
    {"ring", COLL_REDUCE_SCATTER, coll_allgather_ring, 0, V},
    {"nonoverlapping", COLL_REDUCE_SCATTER, coll_reduce_scatter_nonoverlapping, W, V},
    {"recursive_doubling", COLL_REDUCE_SCATTER, coll_reduce_scatter_recursive_doubling, 0, V},
    {"recursive_doubling", COLL_SCAN, coll_scan_recursive_doubling, 0, 0},
    {"linear", COLL_SCAN, coll_scan_linear, 0, 0},
    {"recursive_doubling", COLL_EXSCAN, coll_scan_recursive_doubling, 0, 0},
    {"linear", COLL_EXSCAN, coll_scan_linear, 0, 0},
};

#define NALGOS (sizeof algos / sizeof algos[0])
#define ANY INT64_MAX

_Static_assert(sizeof algos / sizeof algos[0] <= COLL_ALGOS, "raise COLL_ALGOS");

const struct coll_algo *coll_find(enum coll_kind kind, const char *name) {
    for (unsigned i = 0; i < NALGOS; i++)
        if (algos[i].kind == kind && conf_name_eq(algos[i].name, name)) return &algos[i];
    return NULL;
}

bool coll_pow2(int32_t n) {
    return n > 0 && !(n & (n - 1));
}

int32_t coll_pof2_floor(int32_t n) {
    return (int32_t)1 << coll_log2_floor(n);
}

/* MPICH 4.x's allgather and allgatherv: by the total of the blocks. */
static const char *mpich_allgather_rule(int32_t n, int64_t total) {
    if (coll_pow2(n) && total < 524288) return "recursive_doubling";
    return total < 81920 ? "bruck" : "ring";
}

/* MPICH 4.x's non-blocking collectives where its selection file gives
 * them rules of their own (ibarrier, ibcast's strict bounds, iallreduce's
 * 2048 B, ialltoall's Bruck up to 2048 B and permuted sends, all at once);
 * NULL where they follow the blocking rules. */
static const char *mpich_nonblocking_rule(enum coll_kind kind, int32_t n, int64_t size) {
    switch (kind) {
    case COLL_BARRIER: /* MPIR_Ibarrier_intra_sched_recursive_doubling */
        return "recursive_doubling";
    case COLL_BCAST: /* avg_msg_size < 12288, < 524288 (2^k ranks) */
        if (n < 8 || size < 12288) return "binomial";
        return size < 524288 && coll_pow2(n) ? "scatter_rd_allgather" : "scatter_ring_allgather";
    case COLL_ALLREDUCE: /* avg_msg_size <= 2048, then count < pof2 */
        return size > 2048 && size / 8 >= coll_pof2_floor(n) ? "rabenseifner"
                                                             : "recursive_doubling";
    case COLL_ALLTOALL: /* brucks (8 ranks or more) <= 2048, permuted_sendrecv <= 32768 */
        if (size <= 2048 && n >= 8) return "bruck";
        return size <= 32768 ? "linear" : "pairwise";
    default:
        return NULL;
    }
}

/* MPICH 4.x: its default selection, src/mpi/coll/coll_selection.json
 * (read by MPIR_Csel_search from MPIR_*_allcomm_auto). The element count of
 * reductions is taken as bytes / 8 (doubles), and operations as built in
 * and commutative: traces carry bytes only. */
static const char *mpich_rule(enum coll_kind kind, int32_t n, int64_t size) {
    int64_t count = size / 8;
    switch (kind) {
    case COLL_BARRIER: /* k_dissemination, k = 2 */
        return "dissemination";
    case COLL_BCAST: /* avg_msg_size <= 12288, <= 524288 (2^k ranks) */
        if (n < 8 || size <= 12288) return "binomial";
        return size <= 524288 && coll_pow2(n) ? "scatter_rd_allgather" : "scatter_ring_allgather";
    case COLL_REDUCE: /* avg_msg_size <= 2048, then count < pof2 */
        return size > 2048 && count >= coll_pof2_floor(n) ? "rabenseifner" : "binomial";
    case COLL_ALLREDUCE: /* avg_msg_size <= 8, then count < pof2 */
        return size > 8 && count >= coll_pof2_floor(n) ? "rabenseifner" : "recursive_doubling";
    case COLL_GATHER:
    case COLL_SCATTER:
        return "binomial";
    case COLL_ALLGATHER: /* total_msg_size < 524288 (2^k ranks), < 81920 */
        return mpich_allgather_rule(n, size * n);
    case COLL_ALLTOALL: /* avg_msg_size <= 256 (8 ranks or more), <= 32768 */
        if (size <= 256 && n >= 8) return "bruck";
        return size <= 32768 ? "linear_sync" : "pairwise"; /* scattered: 32 at a time */
    case COLL_REDUCE_SCATTER: /* commutative: total_msg_size < 524288 */
        return size * n < 524288 ? "recursive_halving" : "pairwise";
    case COLL_SCAN:
    case COLL_EXSCAN:
        return "recursive_doubling";
    default:
        return NULL;
    }
}

/* Open MPI 4.x coll/tuned fixed decision (coll_tuned_decision_fixed.c):
 * rows {n below, size below, algorithm}, first match wins. Algorithms this
 * library does not have map to the nearest it has (docs/collectives.md). */
struct rule {
    int32_t n_below;
    int64_t size_below;
    const char *algo;
};

static const struct rule ompi_allreduce[] = {
    /* size: the vector in bytes */
    {4, 8, "ring"},
    {4, 4096, "recursive_doubling"},
    {4, 8192, "ring"},
    {4, 16384, "recursive_doubling"},
    {4, 65536, "ring"},
    {4, 262144, "ring_segmented"},
    {4, ANY, "rabenseifner"},
    {8, 16, "ring"},
    {8, 8192, "recursive_doubling"},
    {8, ANY, "rabenseifner"},
    {16, 8192, "recursive_doubling"},
    {16, ANY, "rabenseifner"},
    {32, 64, "ring_segmented"},
    {32, 4096, "recursive_doubling"},
    {32, ANY, "rabenseifner"},
    {64, 128, "ring_segmented"},
    {64, ANY, "rabenseifner"},
    {128, 262144, "recursive_doubling"},
    {128, ANY, "rabenseifner"},
    {256, 131072, "reduce_bcast"},
    {256, 262144, "recursive_doubling"},
    {256, ANY, "rabenseifner"},
    {512, 4096, "reduce_bcast"},
    {512, ANY, "rabenseifner"},
    {2048, 2048, "reduce_bcast"},
    {2048, 16384, "recursive_doubling"},
    {2048, ANY, "rabenseifner"},
    {4096, 2048, "reduce_bcast"},
    {4096, 4096, "ring_segmented"},
    {4096, 16384, "recursive_doubling"},
    {4096, ANY, "rabenseifner"},
    {INT32_MAX, 2048, "reduce_bcast"},
    {INT32_MAX, 16384, "ring_segmented"},
    {INT32_MAX, 32768, "recursive_doubling"},
    {INT32_MAX, ANY, "rabenseifner"},
};

static const struct rule ompi_alltoall[] = {
    /* size: the block per destination */
    {3, 32768, "pairwise"},     {3, 262144, "linear"}, {3, 1048576, "pairwise"},
    {3, ANY, "pairwise"},       {8, 524288, "linear"}, {8, 1048576, "pairwise"},
    {8, ANY, "linear"},         {16, ANY, "linear"},   {32, 4, "linear"},
    {32, 512, "bruck"},         {32, ANY, "linear"},   {64, 512, "bruck"},
    {64, ANY, "linear"},        {128, 1024, "bruck"},  {128, 262144, "linear"},
    {128, ANY, "pairwise"},     {256, 1024, "bruck"},  {256, 262144, "linear"},
    {256, ANY, "pairwise"},     {512, 1024, "bruck"},  {512, 32768, "linear"},
    {512, ANY, "pairwise"},     {1024, 512, "bruck"},  {1024, 262144, "linear"},
    {1024, ANY, "pairwise"},    {2048, 512, "bruck"},  {2048, ANY, "linear"},
    {4096, 1024, "bruck"},      {4096, ANY, "linear"}, {INT32_MAX, 2048, "bruck"},
    {INT32_MAX, ANY, "linear"},
};

static const struct rule ompi_barrier[] = {
    {4, ANY, "recursive_doubling"},  {8, ANY, "linear"},
    {64, ANY, "recursive_doubling"}, {256, ANY, "dissemination"},
    {512, ANY, "binomial"},          {1024, ANY, "dissemination"},
    {4096, ANY, "binomial"},         {INT32_MAX, ANY, "dissemination"},
};

static const struct rule ompi_bcast[] = {
    /* size: the message */
    {4, 32, "pipeline"},
    {4, 256, "binomial"},
    {4, 512, "pipeline"},
    {4, 1024, "binomial"},
    {4, 32768, "linear"},
    {4, 131072, "binomial"},
    {4, 262144, "pipeline"},
    {4, 524288, "linear"},
    {4, ANY, "binomial"},
    {8, 8192, "binomial"},
    {8, 1048576, "linear"},
    {8, ANY, "pipeline"},
    {16, 32768, "binomial"},
    {16, ANY, "linear"},
    {32, 1048576, "binomial"},
    {32, ANY, "scatter_rd_allgather"},
    {128, ANY, "binomial"},
    {256, 16384, "binomial"},
    {256, 32768, "linear"},
    {256, ANY, "binomial"},
    {1024, ANY, "binomial"},
    {2048, 524288, "binomial"},
    {2048, ANY, "scatter_rd_allgather"},
    {4096, 262144, "binomial"},
    {4096, ANY, "scatter_rd_allgather"},
    {INT32_MAX, 262144, "binomial"},
    {INT32_MAX, ANY, "scatter_rd_allgather"},
};

static const struct rule ompi_reduce[] = {
    /* size: the vector (commutative ops) */
    {4, 8, "rabenseifner"},   {4, 16, "binomial"},     {4, 32, "pipeline"},
    {4, 262144, "linear"},    {4, ANY, "pipeline"},    {8, 4096, "binomial"},
    {8, 65536, "pipeline"},   {8, 262144, "binomial"}, {8, 524288, "linear"},
    {8, 1048576, "binomial"}, {8, ANY, "linear"},      {INT32_MAX, ANY, "binomial"},
};

static const struct rule ompi_reduce_scatter[] = {
    /* size: the whole vector, n S */
    {4, 65536, "ring"},
    {4, 131072, "recursive_halving"},
    {4, ANY, "ring"},
    {8, 8, "nonoverlapping"},
    {8, 262144, "recursive_halving"},
    {8, ANY, "ring"},
    {32, 262144, "recursive_halving"},
    {32, ANY, "ring"},
    {64, 64, "nonoverlapping"},
    {64, 524288, "recursive_halving"},
    {64, ANY, "ring"},
    {128, 256, "nonoverlapping"},
    {128, ANY, "recursive_halving"},
    {512, 256, "nonoverlapping"},
    {512, ANY, "recursive_halving"},
    {4096, 512, "nonoverlapping"},
    {4096, ANY, "recursive_halving"},
    {INT32_MAX, 1024, "nonoverlapping"},
    {INT32_MAX, ANY, "recursive_halving"},
};

static const struct rule ompi_reduce_scatter_block[] = {
    /* size: the block (its basic_linear, a reduce then a scatter, runs as
     * nonoverlapping; its butterfly as recursive halving) */
    {4, 4, "recursive_doubling"},
    {4, 131072, "recursive_halving"},
    {4, ANY, "nonoverlapping"},
    {8, 8, "recursive_halving"},
    {8, 32, "recursive_doubling"},
    {8, 1048576, "recursive_halving"},
    {8, ANY, "nonoverlapping"},
    {16, 4, "nonoverlapping"},
    {16, 524288, "recursive_halving"},
    {16, 4194304, "nonoverlapping"},
    {16, ANY, "recursive_halving"},
    {32, 32, "nonoverlapping"},
    {32, 524288, "recursive_halving"},
    {32, 2097152, "nonoverlapping"},
    {32, ANY, "recursive_halving"},
    {INT32_MAX, 4, "recursive_halving"},
    {INT32_MAX, 16, "nonoverlapping"},
    {INT32_MAX, 65536, "recursive_halving"},
    {INT32_MAX, 262144, "nonoverlapping"},
    {INT32_MAX, ANY, "recursive_halving"},
};

static const struct rule ompi_allgather[] = {
    /* size: the block per rank */
    {32, ANY, "recursive_doubling"},
    {64, 1024, "recursive_doubling"},
    {64, 65536, "neighbor_exchange"},
    {64, ANY, "ring"},
    {128, 512, "recursive_doubling"},
    {128, 65536, "neighbor_exchange"},
    {128, ANY, "ring"},
    {256, 512, "recursive_doubling"},
    {256, 131072, "neighbor_exchange"},
    {256, 524288, "ring"},
    {256, 1048576, "neighbor_exchange"},
    {256, ANY, "ring"},
    {512, 32, "recursive_doubling"},
    {512, 128, "bruck"},
    {512, 1024, "recursive_doubling"},
    {512, 131072, "neighbor_exchange"},
    {512, 524288, "ring"},
    {512, 1048576, "neighbor_exchange"},
    {512, ANY, "ring"},
    {1024, 64, "recursive_doubling"},
    {1024, 256, "bruck"},
    {1024, 2048, "recursive_doubling"},
    {1024, ANY, "neighbor_exchange"},
    {2048, 4, "recursive_doubling"},
    {2048, 8, "bruck"},
    {2048, 16, "recursive_doubling"},
    {2048, 32, "bruck"},
    {2048, 256, "recursive_doubling"},
    {2048, 512, "bruck"},
    {2048, 4096, "recursive_doubling"},
    {2048, ANY, "neighbor_exchange"},
    {4096, 32, "bruck"},
    {4096, 128, "recursive_doubling"},
    {4096, 512, "bruck"},
    {4096, 4096, "recursive_doubling"},
    {4096, ANY, "neighbor_exchange"},
    {INT32_MAX, 2, "recursive_doubling"},
    {INT32_MAX, 8, "bruck"},
    {INT32_MAX, 16, "recursive_doubling"},
    {INT32_MAX, 512, "bruck"},
    {INT32_MAX, 4096, "recursive_doubling"},
    {INT32_MAX, ANY, "neighbor_exchange"},
};

static const struct rule ompi_gather[] = {
    /* size: the block per rank */
    {4, 2, "linear_sync"},   {4, 4, "linear"},        {4, 32768, "binomial"},
    {4, 65536, "linear"},    {4, 131072, "binomial"}, {4, ANY, "linear_sync"},
    {8, 1024, "binomial"},   {8, 8192, "linear"},     {8, 32768, "binomial"},
    {8, 262144, "linear"},   {8, ANY, "linear_sync"}, {256, ANY, "binomial"},
    {512, 2048, "binomial"}, {512, 8192, "linear"},   {INT32_MAX, ANY, "binomial"},
};

static const struct rule ompi_scatter[] = {
    /* size: the block per rank */
    {4, ANY, "linear"},    {8, 2048, "binomial"},        {8, 4096, "linear"},
    {8, 8192, "binomial"}, {8, ANY, "linear"},           {16, 16384, "binomial"},
    {16, ANY, "linear"},   {32, 16384, "binomial"},      {32, ANY, "linear"},
    {64, 512, "binomial"}, {64, 8192, "linear"},         {64, 16384, "binomial"},
    {64, ANY, "linear"},   {INT32_MAX, 512, "binomial"}, {INT32_MAX, ANY, "linear"},
};

static const char *match(const struct rule *r, size_t nr, int32_t n, int64_t size) {
    for (size_t i = 0; i < nr; i++)
        if (n < r[i].n_below && size < r[i].size_below) return r[i].algo;
    return NULL;
}

#define MATCH(t, n, size) match(t, sizeof t / sizeof t[0], n, size)

/* Open MPI 4.1's non-blocking collectives come from coll/libnbc, whose
 * nbc_i*.c choose by fixed conditions: ibcast linear up to 4 ranks, then
 * binomial below 65536 B, else a chain of segments; iallreduce binomial
 * (a reduce then a bcast) below 4 ranks or 65536 B, then
 * reduce-scatter + allgather when count >= pof2(n), else the ring; ireduce
 * reduce-scatter + gather when n > 2 and count >= pof2(n), else binomial
 * (or a chain on 3-4 ranks from 65536 B); ibarrier dissemination;
 * iallgather, ialltoall, igather and iscatter linear; ireduce_scatter(_block)
 * a binomial reduce then a linear scatter; iscan and iexscan linear.
 * Counts are bytes / 8. */
static const char *ompi_nonblocking_rule(enum coll_kind kind, int32_t n, int64_t size) {
    int64_t count = size / 8;
    switch (kind) {
    case COLL_BARRIER:
        return "dissemination";
    case COLL_BCAST:
        if (n <= 4) return "linear";
        return size < 65536 ? "binomial" : "pipeline";
    case COLL_ALLREDUCE:
        if (n < 4 || size < 65536) return "reduce_bcast";
        return count >= coll_pof2_floor(n) ? "rabenseifner" : "ring";
    case COLL_REDUCE:
        if (n > 2 && count >= coll_pof2_floor(n)) return "rabenseifner";
        return n > 4 || size < 65536 ? "binomial" : "pipeline";
    case COLL_REDUCE_SCATTER:
        return "nonoverlapping";
    default: /* gather, scatter, allgather, alltoall, scan, exscan */
        return "linear";
    }
}

static const char *ompi_rule(enum coll_kind kind, int32_t n, int64_t size, unsigned how) {
    const char *a = NULL;
    if (how & COLL_CALL_NONBLOCKING) return ompi_nonblocking_rule(kind, n, size);
    switch (kind) {
    case COLL_BARRIER:
        return MATCH(ompi_barrier, n, 0);
    case COLL_BCAST:
        return MATCH(ompi_bcast, n, size);
    case COLL_REDUCE:
        return MATCH(ompi_reduce, n, size);
    case COLL_ALLREDUCE:
        return MATCH(ompi_allreduce, n, size);
    case COLL_GATHER:
        return MATCH(ompi_gather, n, size);
    case COLL_SCATTER:
        return MATCH(ompi_scatter, n, size);
    case COLL_ALLGATHER:
        a = MATCH(ompi_allgather, n, size);
        /* Open MPI's recursive doubling needs a power of two, else Bruck */
        return !strcmp(a, "recursive_doubling") && !coll_pow2(n) ? "bruck" : a;
    case COLL_ALLTOALL:
        return MATCH(ompi_alltoall, n, size);
    case COLL_REDUCE_SCATTER: /* the block form has its own table */
        if (how & COLL_CALL_SCATTER_BLOCK) return MATCH(ompi_reduce_scatter_block, n, size);
        return MATCH(ompi_reduce_scatter, n, size * n);
    case COLL_SCAN:
    case COLL_EXSCAN:
        return "linear"; /* coll/basic */
    default:
        return NULL;
    }
}

const struct coll_algo *coll_select(const struct coll_config *cfg, enum coll_kind kind, int32_t n,
                                    int64_t size) {
    return coll_select_call(cfg, kind, n, size, 0);
}

static const struct coll_algo *select_call(const struct coll_config *cfg, enum coll_kind kind,
                                           int32_t n, int64_t size, unsigned how) {
    if (cfg && cfg->forced[kind]) return cfg->forced[kind];
    if (cfg && cfg->selection) { /* a user's MPICH file: its rule, else MPICH's own */
        const struct coll_algo *a = coll_selection_pick(cfg->selection, kind, n, size,
                                                        how & COLL_CALL_NONBLOCKING, NULL, 0);
        if (a) return a;
    }
    const char *name = NULL;
    if (cfg && cfg->selector == COLL_SEL_MPICH && (how & COLL_CALL_NONBLOCKING))
        name = mpich_nonblocking_rule(kind, n, size);
    if (cfg && cfg->selector == COLL_SEL_MPICH && !name) name = mpich_rule(kind, n, size);
    if (cfg && cfg->selector == COLL_SEL_OMPI) name = ompi_rule(kind, n, size, how);
    const struct coll_algo *a = name ? coll_find(kind, name) : NULL;
    if (a) return a;
    for (unsigned i = 0; i < NALGOS; i++) /* fixed: the first registered */
        if (algos[i].kind == kind) return &algos[i];
    return NULL;
}

const struct coll_algo *coll_select_call(const struct coll_config *cfg, enum coll_kind kind,
                                         int32_t n, int64_t size, unsigned how) {
    const struct coll_algo *a = select_call(cfg, kind, n, size, how);
    SIMPI_LOG(LOG_COLL, SIMTIME_NEVER, "%s of %d ranks, %lld B: %s%s", sim_coll_name(kind), n,
              (long long)size, a ? a->name : "none", cfg && cfg->forced[kind] ? " (forced)" : "");
    return a;
}

/* Open MPI's allgatherv (coll_tuned_decision_fixed.c,
 * ompi_coll_tuned_allgatherv_intra_dec_fixed, by the mean block): rows
 * {n below, mean block below, algorithm}. Its "default" (a gatherv to rank
 * 0, then a bcast) is not a schedule simpi has: Bruck, also logarithmic,
 * stands for it; its two-process exchange is recursive doubling on 2
 * ranks, and its neighbour exchange (fixed blocks only here) the ring. */
static const struct rule ompi_allgatherv[] = {
    {3, 2048, "ring"},          {3, 4096, "recursive_doubling"},
    {3, 8192, "ring"},          {3, ANY, "recursive_doubling"},
    {8, 256, "bruck"},          {8, 4096, "ring"},
    {8, 8192, "ring"},          {8, 16384, "ring"},
    {8, 262144, "bruck"},       {8, ANY, "ring"},
    {16, 1024, "bruck"},        {16, ANY, "bruck"},
    {32, 262144, "bruck"},      {32, ANY, "ring"},
    {64, 8192, "bruck"},        {64, ANY, "ring"},
    {128, 4096, "bruck"},       {128, ANY, "ring"},
    {256, 1024, "bruck"},       {256, ANY, "ring"},
    {512, 1024, "bruck"},       {512, ANY, "ring"},
    {1024, 4096, "bruck"},      {1024, ANY, "ring"},
    {INT32_MAX, 4096, "bruck"}, {INT32_MAX, ANY, "ring"},
};

/* Variable counts: MPICH's gatherv/scatterv are linear; its allgatherv is
 * recursive doubling for a power of two below ALLGATHERV's long size
 * (524288 total bytes), Bruck below the short size (81920), else the ring
 * (MPIR_Allgatherv_intra_auto); its reduce_scatter (commutative) recursive
 * halving below REDSCAT_COMMUTATIVE_LONG_MSG_SIZE (524288 total bytes),
 * else pairwise, here the ring (the same (n - 1) rounds of one block); its
 * alltoallv posts ALLTOALL_THROTTLE (window) requests at a time. Open
 * MPI's gatherv and scatterv are linear (coll/basic), its allgatherv by the
 * table above, its reduce_scatter by its table on the total, and alltoallv
 * pairwise or linear by communicator size (coll_tuned_decision_fixed.c);
 * its non-blocking forms (libnbc) are linear, ireduce_scatter a reduce
 * then a scatter. */
static const char *v_rule(enum coll_selector sel, enum coll_kind kind, const struct coll_args *a,
                          unsigned how) {
    int32_t n = a->n;
    bool ompi_nb = sel == COLL_SEL_OMPI && (how & COLL_CALL_NONBLOCKING);
    switch (kind) {
    case COLL_GATHER:
    case COLL_SCATTER:
        return "linear";
    case COLL_ALLGATHER: {
        int64_t total = coll_vrange(a, 0, n);
        if (ompi_nb) return "linear";
        if (sel == COLL_SEL_OMPI) return MATCH(ompi_allgatherv, n, total / n);
        return sel == COLL_SEL_MPICH ? mpich_allgather_rule(n, total) : "ring";
    }
    case COLL_REDUCE_SCATTER: { /* every rank knows every block too */
        int64_t total = coll_vrange(a, 0, n);
        if (ompi_nb) return "nonoverlapping";
        if (sel == COLL_SEL_OMPI) return MATCH(ompi_reduce_scatter, n, total);
        return sel == COLL_SEL_MPICH && total < 524288 ? "recursive_halving" : "ring";
    }
    case COLL_ALLTOALL:
        if (sel == COLL_SEL_MPICH) return "linear_sync";
        if (sel != COLL_SEL_OMPI) return "pairwise";
        if (ompi_nb) return "linear";
        return n < 4 || (n >= 64 && n < 128) || (n >= 256 && n < 1024) ? "pairwise" : "linear";
    default:
        return NULL;
    }
}

const struct coll_algo *coll_select_v(const struct coll_config *cfg, enum coll_kind kind,
                                      const struct coll_args *a, unsigned how) {
    /* the counts differ between ranks: rules by size could disagree */
    const struct coll_algo *forced = cfg ? cfg->forced[kind] : NULL;
    if (forced && forced->vcap) return forced;
    const char *name = v_rule(cfg ? cfg->selector : COLL_SEL_FIXED, kind, a, how);
    return name ? coll_find(kind, name) : coll_select_call(cfg, kind, a->n, a->size, how);
}

/* "openmpi" is the name one types first for Open MPI's rules: an alias of
 * "ompi" (Open MPI's own prefix), past the end of enum coll_selector */
const char *const coll_selector_names[] = {"fixed", "mpich", "ompi", "openmpi", NULL};

int coll_selector_find(const char *name) {
    int i = conf_name_find(name, coll_selector_names);
    return i == COLL_SEL_OMPI + 1 ? COLL_SEL_OMPI : i;
}

int coll_index(const struct coll_algo *a) {
    return (int)(a - algos);
}

const struct coll_algo *coll_by_index(int i) {
    return i >= 0 && i < (int)NALGOS ? &algos[i] : NULL;
}

int coll_names(enum coll_kind kind, const char **names, int max) {
    int n = 0;
    for (unsigned i = 0; i < NALGOS && n + 1 < max; i++)
        if (algos[i].kind == kind) names[n++] = algos[i].name;
    names[n] = NULL;
    return n;
}

int32_t coll_lowbit_or_top(int32_t v, int32_t n) {
    if (v) return v & -v;
    int32_t top = 1;
    while (top < n)
        top <<= 1;
    return top;
}

const char *sim_coll_name(enum coll_kind k) {
    static const char *const names[COLL_KINDS] = {
        "barrier",   "bcast",    "reduce",         "allreduce", "gather", "scatter",
        "allgather", "alltoall", "reduce_scatter", "scan",      "exscan"};
    return k < COLL_KINDS ? names[k] : "collective";
}
