/* Barrier: dissemination (Hensgen, Finkel, Manber). In round k each rank
 * signals rank (me + 2^k) mod n and waits for rank (me - 2^k) mod n;
 * ceil(log2 n) rounds. */
#include "mpi/coll/coll.h"

int coll_barrier_dissemination(const struct coll_args *a, int round, struct coll_op *ops) {
    if (round >= 31) return -1;
    int32_t dist = (int32_t)1 << round;
    if (dist >= a->n) return -1;
    coll_op_set(&ops[0], 1, (a->me + dist) % a->n, 0);
    coll_op_set(&ops[1], 0, (a->me - dist + a->n) % a->n, 0);
    return 2;
}
