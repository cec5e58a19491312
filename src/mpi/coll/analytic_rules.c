/* SPDX-License-Identifier: BSD-3-Clause */
/* Dimemas' analytic collective model: its factors, size rules and default
 * rule per operation (the sim side lives in src/mpi/analytic.c). */
#include <string.h>

#include "mpi/coll/coll.h"

#include "core/conf.h"

#define PH(f, sz)                                                                                  \
    { COLL_AN_##f, COLL_AN_##sz }

struct coll_an_rule coll_an_default(enum coll_kind kind) {
    static const struct coll_an_rule rules[COLL_KINDS] = {
        [COLL_BARRIER] = {PH(LOG, MAX), PH(LOG, MAX)},
        [COLL_BCAST] = {PH(NONE, MAX), PH(LOG, MAX)},
        [COLL_REDUCE] = {PH(LOG, MAX), PH(NONE, MAX)},
        [COLL_ALLREDUCE] = {PH(LOG, MAX), PH(LOG, MAX)},
        [COLL_GATHER] = {PH(LIN, MIN), PH(NONE, MAX)},
        [COLL_SCATTER] = {PH(NONE, MAX), PH(LIN, MIN)},
        [COLL_ALLGATHER] = {PH(LIN, MIN), PH(LOG, MAX)},
        [COLL_ALLTOALL] = {PH(LIN, MAX), PH(NONE, MAX)},
        [COLL_REDUCE_SCATTER] = {PH(LOG, MAX), PH(LIN, MIN)},
        [COLL_SCAN] = {PH(LOG, MAX), PH(NONE, MAX)},
        [COLL_EXSCAN] = {PH(LOG, MAX), PH(NONE, MAX)},
    };
    return rules[kind < COLL_KINDS ? kind : COLL_BARRIER];
}

int64_t coll_an_log_steps(int32_t p, int64_t buses) {
    int64_t steps = 0;
    /* phase i of a binomial tree: the ranks v < p whose lowest set bit is
     * 2^(i-1) send, C_i = ceil((p - 2^(i-1)) / 2^i) */
    for (int64_t half = 1; half < p; half *= 2) {
        int64_t c = (p - half + 2 * half - 1) / (2 * half);
        steps += buses > 0 ? (c + buses - 1) / buses : 1;
    }
    return steps;
}

void coll_an_buffers(enum coll_kind kind, int32_t n, int64_t S, bool is_root, int64_t *sent,
                     int64_t *recv) {
    int64_t all = S * n;
    *sent = *recv = S;
    switch (kind) {
    case COLL_BARRIER:
        *sent = *recv = 0;
        break;
    case COLL_REDUCE:
        *recv = is_root ? S : 0;
        break;
    case COLL_GATHER:
        *recv = is_root ? all : 0;
        break;
    case COLL_SCATTER:
        *sent = is_root ? all : 0;
        break;
    case COLL_ALLGATHER:
        *recv = all;
        break;
    case COLL_REDUCE_SCATTER:
        *sent = all;
        break;
    default:
        break; /* bcast, allreduce, alltoall (per block), scans: S both ways */
    }
}

const char *const coll_an_factor_names[] = {"0", "CTE", "LIN", "LOG", NULL};
const char *const coll_an_size_names[] = {"MAX", "MIN", "MEAN", "2MAX", "S+R", NULL};

int coll_an_factor_find(const char *name) {
    return conf_name_find(name, coll_an_factor_names); /* any case, as Dimemas' files vary */
}

int coll_an_size_find(const char *name) {
    return conf_name_find(name, coll_an_size_names);
}
