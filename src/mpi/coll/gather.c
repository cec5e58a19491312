/* Gather and scatter: binomial trees that carry growing (gather) or shrinking
 * (scatter) bundles of blocks. With v = (me - root) mod n, the subtree of v
 * for mask m holds blocks v .. min(v + m, n) - 1. */
#include "mpi/coll/coll.h"

static int32_t min32(int32_t a, int32_t b) {
    return a < b ? a : b;
}

/* Round k uses mask 2^k: ranks with that bit set send their bundle to v - mask
 * and stop; others receive the bundle of v + mask if it exists. */
int coll_gather_binomial(const struct coll_args *a, int round, struct coll_op *ops) {
    int32_t n = a->n, v = (a->me - a->root + n) % n;
    if (round >= 31) return -1;
    int32_t mask = (int32_t)1 << round;
    if (mask >= n || (v & (mask - 1))) return -1;
    if (v & mask)
        return coll_op_set(&ops[0], 1, (v - mask + a->root) % n, a->size * min32(mask, n - v));
    if (v + mask < n)
        return coll_op_set(&ops[0], 0, (v + mask + a->root) % n,
                           a->size * min32(mask, n - v - mask));
    return 0;
}

/* Rounds run masks from the top power of two down: a rank receives its
 * bundle when the mask equals lowbit(v), then hands out halves to v + mask. */
int coll_scatter_binomial(const struct coll_args *a, int round, struct coll_op *ops) {
    int32_t n = a->n, v = (a->me - a->root + n) % n;
    int32_t top = coll_lowbit_or_top(0, n), low = coll_lowbit_or_top(v, n);
    int32_t mask = top >> (round + 1);
    if (mask == 0) return -1;
    if (mask == low)
        return coll_op_set(&ops[0], 0, (v - mask + a->root) % n, a->size * min32(mask, n - v));
    if (mask < low && v + mask < n)
        return coll_op_set(&ops[0], 1, (v + mask + a->root) % n,
                           a->size * min32(mask, n - v - mask));
    return 0;
}
