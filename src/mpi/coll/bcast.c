/* Broadcast: binomial tree rooted at `root`. With v = (me - root) mod n, a rank
 * receives from v - lowbit(v), then sends to v + m for every power of two
 * m < lowbit(v) with v + m < n (the root's lowbit is the top power of two). */
#include "mpi/coll/coll.h"

int coll_bcast_binomial(const struct coll_args *a, int round, struct coll_op *ops) {
    int32_t n = a->n, v = (a->me - a->root + n) % n, low = coll_lowbit_or_top(v, n);
    if (round == 0) {
        if (v == 0) return 0;
        return coll_op_set(&ops[0], 0, (v - low + a->root) % n, a->size);
    }
    if (round > 1) return -1;
    int k = 0;
    for (int32_t m = low >> 1; m >= 1; m >>= 1)
        if (v + m < n) k += coll_op_set(&ops[k], 1, (v + m + a->root) % n, a->size);
    return k;
}
