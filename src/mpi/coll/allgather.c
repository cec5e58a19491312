/* Allgather: Bruck's algorithm. In round k a rank sends the min(2^k, n - 2^k)
 * blocks it holds to (me - 2^k) mod n and receives as many from
 * (me + 2^k) mod n; ceil(log2 n) rounds for any n. */
#include "mpi/coll/coll.h"

int coll_allgather_bruck(const struct coll_args *a, int round, struct coll_op *ops) {
    if (round >= 31) return -1;
    int32_t n = a->n, dist = (int32_t)1 << round;
    if (dist >= n) return -1;
    int64_t blocks = dist < n - dist ? dist : n - dist;
    coll_op_set(&ops[0], 1, (a->me - dist + n) % n, a->size * blocks);
    coll_op_set(&ops[1], 0, (a->me + dist) % n, a->size * blocks);
    return 2;
}
