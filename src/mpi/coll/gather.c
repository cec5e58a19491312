/* SPDX-License-Identifier: BSD-3-Clause */
/* Gather and scatter: linear algorithms, and binomial trees that carry growing (gather) or
 * shrinking (scatter) bundles of blocks. With v = (me - root) mod n, the subtree of v for mask m
 * holds blocks v .. min(v + m, n) - 1. */
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

/* Linear gather: every rank sends its block to the root, which receives
 * them all at once. Cost: T(S) without contention. */
int coll_gather_linear(const struct coll_args *a, int round, struct coll_op *ops) {
    int32_t n = a->n;
    if (round > 0 || n == 1) return -1;
    if (a->me != a->root) return coll_op_set(&ops[0], 1, a->root, a->size);
    for (int32_t v = 1; v < n; v++)
        coll_op_set(&ops[v - 1], 0, coll_abs(a, v), coll_vrecv(a, coll_abs(a, v)));
    return n - 1;
}

/* Linear with synchronisation (Open MPI's gather linear_sync): the root
 * takes the ranks one after the other, sending each an empty message and
 * then receiving its block; a rank sends only when asked.
 * Cost: (n - 1) (T(0) + T(S)). */
int coll_gather_linear_sync(const struct coll_args *a, int round, struct coll_op *ops) {
    int32_t n = a->n, v = coll_rel(a, a->me);
    if (v != 0) {
        if (round > 1) return -1;
        return coll_op_set(&ops[0], round == 1, a->root, round == 0 ? 0 : a->size);
    }
    if (round >= n - 1) return -1;
    int32_t peer = coll_abs(a, round + 1);
    coll_op_set(&ops[0], 1, peer, 0);
    coll_op_set(&ops[1], 0, peer, coll_vrecv(a, peer));
    return 2;
}

/* Linear scatter: the root sends every rank its block at once.
 * Cost: T(S) without contention. */
int coll_scatter_linear(const struct coll_args *a, int round, struct coll_op *ops) {
    int32_t n = a->n;
    if (round > 0 || n == 1) return -1;
    if (a->me != a->root) return coll_op_set(&ops[0], 0, a->root, a->size);
    for (int32_t v = 1; v < n; v++)
        coll_op_set(&ops[v - 1], 1, coll_abs(a, v), coll_vsend(a, coll_abs(a, v)));
    return n - 1;
}

/* Linear with synchronisation: each rank first tells the root it is ready
 * (an empty message); the root serves the ranks in order, waiting for each
 * one's message before sending its block. Cost: T(0) + T(S) when every rank
 * is ready at once and sends complete eagerly; with rendezvous blocks the
 * root serves them one after the other. */
int coll_scatter_linear_sync(const struct coll_args *a, int round, struct coll_op *ops) {
    int32_t n = a->n, v = coll_rel(a, a->me);
    if (v != 0) {
        if (round > 1) return -1;
        return coll_op_set(&ops[0], round == 0, a->root, round == 0 ? 0 : a->size);
    }
    if (round >= 2 * (n - 1)) return -1;
    int32_t peer = coll_abs(a, round / 2 + 1);
    return coll_op_set(&ops[0], round % 2, peer, round % 2 ? coll_vsend(a, peer) : 0);
}
