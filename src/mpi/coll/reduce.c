/* SPDX-License-Identifier: BSD-3-Clause */
/* Reduce algorithms. v = (me - root) mod n is a rank's distance from the
 * root; T(S) = L + S / B. */
#include "mpi/coll/coll.h"

/* Binomial tree towards the root, the mirror of the binomial broadcast: a
 * rank first receives the partial results of its children v + m, then sends
 * its own to its parent v - lowbit(v). Every message carries the whole
 * vector. Cost: ceil(log2 n) T(S). */
int coll_reduce_binomial(const struct coll_args *a, int round, struct coll_op *ops) {
    int32_t n = a->n, v = coll_rel(a, a->me), low = coll_lowbit_or_top(v, n);
    if (round == 0) {
        int k = 0;
        for (int32_t m = low >> 1; m >= 1; m >>= 1)
            if (v + m < n) k += coll_op_set(&ops[k], 0, coll_abs(a, v + m), a->size);
        return k;
    }
    if (round > 1 || v == 0) return -1;
    return coll_op_set(&ops[0], 1, coll_abs(a, v - low), a->size);
}

/* Pipelined chain towards the root (Open MPI's pipeline reduce): segments
 * travel v = n - 1 -> n - 2 -> ... -> 0; a rank receives segment k from
 * v + 1 while sending its reduced segment k - 1 to v - 1.
 * Cost (m segments of s bytes): (n - 2 + m) T(s) with eager sends. */
int coll_reduce_pipeline(const struct coll_args *a, int round, struct coll_op *ops) {
    int32_t n = a->n, v = coll_rel(a, a->me);
    if (n == 1) return -1;
    return coll_chain(a, v < n - 1 ? coll_abs(a, v + 1) : -1, v > 0 ? coll_abs(a, v - 1) : -1,
                      round, ops);
}

/* Reduce-scatter + gather (Rabenseifner; MPICH's long-message reduce): with
 * p2 = 2^L the largest power of two <= n and rem = n - p2, the first 2 rem
 * ranks pair up (even ranks hand their vector to the odd neighbour); the p2
 * others halve the vector L times (round k exchanges S / 2^k with
 * w ^ (p2 >> k)), then gather the pieces towards the root by a binomial tree
 * (round k sends S / 2^(L-k+1) to w ^ 2^(k-1)), with w the participant index
 * taken relative to the root's (XOR). When the root is an idle even rank,
 * its odd neighbour gathers and sends it the whole result last.
 * Cost (n = 2^L): 2 sum_{k=1..L} T(S / 2^k) = 2 L L_net + 2 (n - 1) S / (n B). */
int coll_reduce_rabenseifner(const struct coll_args *a, int round, struct coll_op *ops) {
    int32_t n = a->n, me = a->me, L = coll_log2_floor(n), p2 = (int32_t)1 << L, rem = n - p2;
    bool paired = me < 2 * rem, idle = paired && me % 2 == 0;
    int32_t root = a->root, proxy = root < 2 * rem && root % 2 == 0 ? root + 1 : root;
    int32_t nr = coll_pair_index(me, rem), nroot = coll_pair_index(proxy, rem);
    if (round == 0) {
        if (!paired) return 0;
        return idle ? coll_op_set(&ops[0], 1, me + 1, a->size)
                    : coll_op_set(&ops[0], 0, me - 1, a->size);
    }
    if (round <= L) { /* recursive halving */
        if (idle) return 0;
        int64_t part = a->size >> round;
        if (part < 1 && a->size > 0) part = 1;
        int32_t partner = coll_pair_rank(nr ^ (p2 >> round), rem);
        coll_op_set(&ops[0], 1, partner, part);
        coll_op_set(&ops[1], 0, partner, part);
        return 2;
    }
    if (round <= 2 * L) { /* binomial gather towards nroot */
        if (idle) return 0;
        int32_t k = round - L, mask = (int32_t)1 << (k - 1), w = nr ^ nroot;
        int64_t part = a->size >> (L - k + 1);
        if (part < 1 && a->size > 0) part = 1;
        if (w & (mask - 1)) return 0; /* already sent its piece */
        int32_t partner = coll_pair_rank((w ^ mask) ^ nroot, rem);
        return coll_op_set(&ops[0], (w & mask) != 0, partner, part);
    }
    if (round == 2 * L + 1 && proxy != root) {
        if (me == proxy) return coll_op_set(&ops[0], 1, root, a->size);
        if (me == root) return coll_op_set(&ops[0], 0, proxy, a->size);
    }
    return -1;
}
