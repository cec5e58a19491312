/* SPDX-License-Identifier: BSD-3-Clause */
/* Barrier: dissemination (Hensgen, Finkel, Manber). In round k each rank
 * signals rank (me + 2^k) mod n and waits for rank (me - 2^k) mod n;
 * ceil(log2 n) rounds. Cost: ceil(log2 n) T(0). */
#include "mpi/coll/coll.h"

int coll_barrier_dissemination(const struct coll_args *a, int round, struct coll_op *ops) {
    if (round >= 31) return -1;
    int32_t dist = (int32_t)1 << round;
    if (dist >= a->n) return -1;
    coll_op_set(&ops[0], 1, (a->me + dist) % a->n, 0);
    coll_op_set(&ops[1], 0, (a->me - dist + a->n) % a->n, 0);
    return 2;
}

/* Linear (Open MPI's basic linear): every rank signals rank 0, which
 * answers each once all have arrived. Cost: 2 T(0) without contention;
 * rank 0 handles n - 1 messages each way. */
int coll_barrier_linear(const struct coll_args *a, int round, struct coll_op *ops) {
    int32_t n = a->n;
    if (round > 1 || n == 1) return -1;
    bool to_root = round == 0;
    if (a->me != 0) return coll_op_set(&ops[0], to_root, 0, 0);
    for (int32_t i = 1; i < n; i++)
        coll_op_set(&ops[i - 1], !to_root, i, 0);
    return n - 1;
}
