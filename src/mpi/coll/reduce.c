/* Reduce: binomial tree towards `root`, the mirror of the binomial broadcast:
 * a rank first receives the partial results of its children v + m, then sends
 * its own to its parent v - lowbit(v). Every message carries the whole vector. */
#include "mpi/coll/coll.h"

int coll_reduce_binomial(const struct coll_args *a, int round, struct coll_op *ops) {
    int32_t n = a->n, v = (a->me - a->root + n) % n, low = coll_lowbit_or_top(v, n);
    if (round == 0) {
        int k = 0;
        for (int32_t m = low >> 1; m >= 1; m >>= 1)
            if (v + m < n) k += coll_op_set(&ops[k], 0, (v + m + a->root) % n, a->size);
        return k;
    }
    if (round > 1 || v == 0) return -1;
    return coll_op_set(&ops[0], 1, (v - low + a->root) % n, a->size);
}
