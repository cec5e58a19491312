/* All-to-all: pairwise exchange. In round k = 1..n-1 a rank sends its block
 * for (me + k) mod n and receives the block from (me - k) mod n. */
#include "mpi/coll/coll.h"

int coll_alltoall_pairwise(const struct coll_args *a, int round, struct coll_op *ops) {
    int32_t n = a->n, k = round + 1;
    if (k >= n) return -1;
    coll_op_set(&ops[0], 1, (a->me + k) % n, a->size);
    coll_op_set(&ops[1], 0, (a->me - k + n) % n, a->size);
    return 2;
}
