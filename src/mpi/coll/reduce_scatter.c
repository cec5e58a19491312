/* SPDX-License-Identifier: BSD-3-Clause */
/* Reduce-scatter (and its block form): S is each rank's block of the
 * result, so the vector reduced is n S bytes; T(S) = L + S / B. */
#include "mpi/coll/coll.h"

/* Recursive halving (MPICH's commutative short/medium reduce-scatter): with
 * p2 = 2^L the largest power of two <= n and rem = n - p2, the first 2 rem
 * ranks pair up first (even ranks hand their whole vector to the odd
 * neighbour and get their block back last); the p2 others exchange half of
 * what they hold in each of L rounds. Cost (n = 2^L):
 * sum_{k=1..L} T(n S / 2^k) = L L_net + (n - 1) S / B. */
/* The first block of the group of paired indices starting at g: index i
 * < rem stands for blocks 2i and 2i + 1, the others for block i + rem. */
static int32_t halving_block(int32_t g, int32_t rem) {
    return g < rem ? 2 * g : g + rem;
}

/* Bytes of the blocks of the aligned group of `len` paired indices holding
 * index i (all blocks `size` bytes without variable counts). */
static int64_t halving_group_bytes(const struct coll_args *a, int32_t i, int32_t len, int32_t rem) {
    int32_t g = i & ~(len - 1), first = halving_block(g, rem);
    return coll_vrange(a, first, halving_block(g + len, rem) - first);
}

int coll_reduce_scatter_recursive_halving(const struct coll_args *a, int round,
                                          struct coll_op *ops) {
    int32_t n = a->n, me = a->me, L = coll_log2_floor(n), p2 = (int32_t)1 << L, rem = n - p2;
    bool paired = me < 2 * rem, idle = paired && me % 2 == 0;
    int32_t nr = coll_pair_index(me, rem);
    if (round == 0 || round == L + 1) {
        if (!paired) return round == 0 ? 0 : -1;
        bool first = round == 0; /* the vector in, then the idle rank's block back */
        int64_t bytes = first ? coll_vrange(a, 0, n) : coll_vrecv(a, idle ? me : me - 1);
        return idle ? coll_op_set(&ops[0], first, me + 1, bytes)
                    : coll_op_set(&ops[0], !first, me - 1, bytes);
    }
    if (round > L) return -1;
    if (idle) return 0;
    /* round r: the partner's half (a group of p2 >> r indices) goes to it,
     * this rank's half comes back from it */
    int32_t len = p2 >> round, pidx = nr ^ len;
    coll_op_set(&ops[0], 1, coll_pair_rank(pidx, rem), halving_group_bytes(a, pidx, len, rem));
    coll_op_set(&ops[1], 0, coll_pair_rank(pidx, rem), halving_group_bytes(a, nr, len, rem));
    return 2;
}

/* Non-overlapping (Open MPI's default for tiny vectors, and libnbc's
 * ireduce_scatter and ireduce_scatter_block): a binomial reduce of the
 * whole vector (n S bytes, or the sum of the blocks) to rank 0, then a
 * linear scatter of the blocks. Cost: ceil(log2 n) T(n S) + T(S). */
int coll_reduce_scatter_nonoverlapping(const struct coll_args *a, int round, struct coll_op *ops) {
    struct coll_args r = *a;
    r.root = 0;
    r.vsend = r.vrecv = NULL;
    r.size = coll_vrange(a, 0, a->n);
    if (round < 2) {
        int k = coll_reduce_binomial(&r, round, ops);
        return k < 0 ? 0 : k;
    }
    r.size = coll_vrecv(a, a->me); /* rank 0 sends block j to j */
    r.vsend = a->vrecv;
    return coll_scatter_linear(&r, round - 2, ops);
}

/* Bytes of every block but those of the aligned group of `mask` ranks
 * starting at root: what recursive doubling still carries for that group. */
static int64_t doubling_bytes(const struct coll_args *a, int32_t root, int32_t mask) {
    int32_t n = a->n, after = root + mask;
    return coll_vrange(a, 0, root) + (after < n ? coll_vrange(a, after, n - after) : 0);
}

/* Recursive doubling (Open MPI's reduce_scatter_block recursivedoubling,
 * which keeps the order of operations): step s, mask = 2^s, exchanges with
 * me ^ mask everything but the blocks of the receiver's aligned group of
 * mask ranks, (n - mask) blocks when n is a power of two. Where the
 * partner's group is cut short by n, the ranks that had a partner pass
 * what they received on to those that had none, by halving distances
 * within the group (one round each). Step s takes rounds s(s+1)/2 ..
 * s(s+1)/2 + s. Cost (n = 2^L): sum_{s<L} T((n - 2^s) S) = L L_net +
 * (L n - n + 1) S / B. */
int coll_reduce_scatter_recursive_doubling(const struct coll_args *a, int round,
                                           struct coll_op *ops) {
    int32_t n = a->n, me = a->me, s = 0;
    while (round > s) /* the step of this round, and the round within it */
        round -= ++s;
    if (s >= 31 || ((int32_t)1 << s) >= n) return -1;
    int32_t mask = (int32_t)1 << s, remote = me ^ mask;
    int32_t cur_root = me & ~(mask - 1), remote_root = remote & ~(mask - 1);
    int64_t send = doubling_bytes(a, cur_root, mask), recv = doubling_bytes(a, remote_root, mask);
    if (round == 0) {
        if (remote >= n) return 0;
        coll_op_set(&ops[0], 1, remote, send);
        coll_op_set(&ops[1], 0, remote, recv);
        return 2;
    }
    if (remote_root + mask <= n) return 0;
    int32_t have = n - cur_root - mask, half = mask >> round; /* ranks with data */
    int32_t peer = me ^ half, tree_root = me & ~(2 * half - 1);
    if (peer > me && me < tree_root + have && peer >= tree_root + have)
        return coll_op_set(&ops[0], 1, peer, recv);
    if (peer < me && peer < tree_root + have && me >= tree_root + have)
        return coll_op_set(&ops[0], 0, peer, recv);
    return 0;
}
