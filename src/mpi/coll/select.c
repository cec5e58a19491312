/* Registry of collective algorithms and the default choice per operation. */
#include "mpi/coll/coll.h"

#include <stdio.h>
#include <string.h>

static const struct coll_algo algos[] = {
    {"dissemination", COLL_BARRIER, coll_barrier_dissemination},
    /* a barrier is an allreduce of nothing: the same schedules with 0 bytes */
    {"recursive_doubling", COLL_BARRIER, coll_allreduce_recursive_doubling},
    {"binomial", COLL_BARRIER, coll_allreduce_reduce_bcast},
    {"binomial", COLL_BCAST, coll_bcast_binomial},
    {"binomial", COLL_REDUCE, coll_reduce_binomial},
    {"recursive_doubling", COLL_ALLREDUCE, coll_allreduce_recursive_doubling},
    {"ring", COLL_ALLREDUCE, coll_allreduce_ring},
    {"rabenseifner", COLL_ALLREDUCE, coll_allreduce_rabenseifner},
    {"reduce_bcast", COLL_ALLREDUCE, coll_allreduce_reduce_bcast},
    {"binomial", COLL_GATHER, coll_gather_binomial},
    {"binomial", COLL_SCATTER, coll_scatter_binomial},
    {"bruck", COLL_ALLGATHER, coll_allgather_bruck},
    {"ring", COLL_ALLGATHER, coll_allgather_ring},
    {"recursive_doubling", COLL_ALLGATHER, coll_allgather_recursive_doubling},
    {"pairwise", COLL_ALLTOALL, coll_alltoall_pairwise},
};

#define NALGOS (sizeof algos / sizeof algos[0])

const struct coll_algo *coll_select(const struct coll_algo *const *forced, enum coll_kind kind,
                                    int32_t n, int64_t size) {
    (void)n;
    (void)size;
    if (forced && forced[kind]) return forced[kind];
    for (unsigned i = 0; i < NALGOS; i++) /* the first registered is the default */
        if (algos[i].kind == kind) return &algos[i];
    return NULL;
}

const struct coll_algo *coll_find(enum coll_kind kind, const char *name) {
    for (unsigned i = 0; i < NALGOS; i++)
        if (algos[i].kind == kind && !strcmp(algos[i].name, name)) return &algos[i];
    return NULL;
}

int coll_index(const struct coll_algo *a) {
    return (int)(a - algos);
}

const struct coll_algo *coll_by_index(int i) {
    return i >= 0 && i < (int)NALGOS ? &algos[i] : NULL;
}

_Static_assert(sizeof algos / sizeof algos[0] <= COLL_ALGOS, "raise COLL_ALGOS");

void coll_names(enum coll_kind kind, char *buf, int len) {
    int at = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < NALGOS && at < len; i++)
        if (algos[i].kind == kind)
            at += snprintf(buf + at, (size_t)(len - at), "%s%s", at ? ", " : "", algos[i].name);
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
