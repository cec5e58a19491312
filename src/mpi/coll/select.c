/* Registry of collective algorithms and the default choice per operation. */
#include "mpi/coll/coll.h"

static const struct coll_algo algos[] = {
    {"dissemination", COLL_BARRIER, coll_barrier_dissemination},
    {"binomial", COLL_BCAST, coll_bcast_binomial},
    {"binomial", COLL_REDUCE, coll_reduce_binomial},
    {"recursive_doubling", COLL_ALLREDUCE, coll_allreduce_recursive_doubling},
    {"binomial", COLL_GATHER, coll_gather_binomial},
    {"binomial", COLL_SCATTER, coll_scatter_binomial},
    {"bruck", COLL_ALLGATHER, coll_allgather_bruck},
    {"pairwise", COLL_ALLTOALL, coll_alltoall_pairwise},
};

const struct coll_algo *coll_select(enum coll_kind kind, int32_t n, int64_t size) {
    (void)n;
    (void)size;
    for (unsigned i = 0; i < sizeof algos / sizeof algos[0]; i++)
        if (algos[i].kind == kind) return &algos[i];
    return NULL;
}

int32_t coll_lowbit_or_top(int32_t v, int32_t n) {
    if (v) return v & -v;
    int32_t top = 1;
    while (top < n)
        top <<= 1;
    return top;
}

const char *sim_coll_name(enum coll_kind k) {
    static const char *const names[COLL_KINDS] = {"barrier", "bcast",   "reduce",    "allreduce",
                                                  "gather",  "scatter", "allgather", "alltoall"};
    return k < COLL_KINDS ? names[k] : "collective";
}
