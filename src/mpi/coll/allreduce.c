/* SPDX-License-Identifier: BSD-3-Clause */
/* Allreduce: recursive doubling (Thakur, Rabenseifner, Gropp 2005). With p2
 * the largest power of two <= n and rem = n - p2, the first 2*rem ranks pair
 * up: even ranks hand their vector to the odd neighbour (round 0) and get the
 * result back at the end (round L+1). The p2 remaining ranks exchange the
 * whole vector with partner newrank ^ 2^(k-1) in rounds k = 1..L = log2 p2.
 * Cost: L T(S) for n = p2; 2 T(S) more for the pairing when n is not a
 * power of two. */
#include "mpi/coll/coll.h"

/* The pairing of the first 2*rem ranks: first (round 0) even ranks hand
 * their vector to the odd neighbour; at the end (last) they get the result
 * back. Returns the number of ops (0 for an unpaired rank). */
static int pairing(const struct coll_args *a, int32_t rem, bool first, struct coll_op *ops) {
    int32_t me = a->me;
    if (me >= 2 * rem) return 0;
    bool idle = me % 2 == 0;
    return idle ? coll_op_set(&ops[0], first, me + 1, a->size)
                : coll_op_set(&ops[0], !first, me - 1, a->size);
}

int coll_allreduce_recursive_doubling(const struct coll_args *a, int round, struct coll_op *ops) {
    int32_t n = a->n, me = a->me, L = coll_log2_floor(n), p2 = (int32_t)1 << L, rem = n - p2;
    bool paired = me < 2 * rem, idle = paired && me % 2 == 0;
    int32_t newrank = coll_pair_index(me, rem);
    if (round == 0) return pairing(a, rem, true, ops);
    if (round <= L) {
        if (idle) return 0;
        int32_t partner = coll_pair_rank(newrank ^ ((int32_t)1 << (round - 1)), rem);
        coll_op_set(&ops[0], 1, partner, a->size);
        coll_op_set(&ops[1], 0, partner, a->size);
        return 2;
    }
    if (round == L + 1 && paired) return pairing(a, rem, false, ops);
    return -1;
}

/* Ring (reduce-scatter then allgather around the ring, Patarasuk and Yuan
 * 2009): 2(n-1) rounds; in round k < n-1 a rank sends block (me - k) to
 * me + 1 and receives block (me - k - 1) from me - 1, adding it to its own;
 * then n-1 rounds pass the reduced blocks on the same way.
 * Cost: 2 (n - 1) (L + S / (n B)). With fewer elements than ranks (8-byte
 * elements assumed) it runs recursive doubling, as Open MPI's ring does. */
int coll_allreduce_ring(const struct coll_args *a, int round, struct coll_op *ops) {
    int32_t n = a->n, me = a->me;
    if (a->size / 8 < n) /* fewer elements than ranks: Open MPI falls back */
        return coll_allreduce_recursive_doubling(a, round, ops);
    if (n == 1 || round >= 2 * (n - 1)) return -1;
    int32_t k = round < n - 1 ? round : round - (n - 1);
    int32_t shift = round < n - 1 ? 0 : 1; /* allgather: the block reduced last */
    int32_t sb = ((me - k + shift) % n + n) % n, rb = ((me - k - 1 + shift) % n + n) % n;
    coll_op_set(&ops[0], 1, (me + 1) % n, coll_block(a->size, n, sb));
    coll_op_set(&ops[1], 0, (me - 1 + n) % n, coll_block(a->size, n, rb));
    return 2;
}

/* Bytes of blocks [x, y) of a vector cut the way MPICH cuts it for
 * Rabenseifner's algorithm: p2 blocks of count / p2 elements (8-byte
 * elements assumed), the last one taking the remainder (and any bytes
 * beyond whole elements). */
static int64_t rab_bytes(int64_t size, int32_t p2, int32_t x, int32_t y) {
    int64_t count = size / 8, q = count / p2, last_extra = count - q * p2;
    int64_t b = q * (y - x) * 8;
    if (y == p2) b += last_extra * 8 + size % 8;
    return b;
}

/* Halving step i (1..L) for participant nr among p2 = 2^L: exchanges with
 * nr ^ 2^(i-1); *kept and *given are the byte counts of the halves of its
 * window it keeps and gives away (the window starts as the whole vector
 * and is halved at every step). */
static void rab_halves(int64_t size, int32_t p2, int32_t nr, int32_t i, int64_t *kept,
                       int64_t *given) {
    int32_t lo = 0;
    for (int32_t j = 1; j < i; j++)
        if (nr & ((int32_t)1 << (j - 1))) lo += p2 >> j;
    int32_t half = p2 >> i;
    bool upper = nr & ((int32_t)1 << (i - 1));
    int32_t keep_lo = upper ? lo + half : lo, give_lo = upper ? lo : lo + half;
    *kept = rab_bytes(size, p2, keep_lo, keep_lo + half);
    *given = rab_bytes(size, p2, give_lo, give_lo + half);
}

/* Rabenseifner (Thakur, Rabenseifner, Gropp 2005; MPICH's long-message
 * allreduce): reduce-scatter by recursive halving, then allgather by
 * recursive doubling, among the p2 ranks left after the same pairing as
 * recursive doubling (round 0 and the last round carry the whole vector).
 * Halving step i exchanges with newrank ^ 2^(i-1), sending the half of its
 * window it gives away and receiving the half it keeps; the allgather
 * undoes the steps in reverse order, sending what it kept. Blocks are cut as
 * MPICH cuts them (rab_bytes), so a vector of fewer elements than p2 moves
 * in its last block only. Cost (n = p2 = 2^L, S a multiple of 8 n):
 * 2 sum_{k=1..L} (L_net + S / (2^k B)) = 2 L L_net + 2 (n - 1) S / (n B). */
int coll_allreduce_rabenseifner(const struct coll_args *a, int round, struct coll_op *ops) {
    int32_t n = a->n, me = a->me, L = coll_log2_floor(n), p2 = (int32_t)1 << L, rem = n - p2;
    bool paired = me < 2 * rem, idle = paired && me % 2 == 0;
    int32_t newrank = coll_pair_index(me, rem);
    if (round == 0) return pairing(a, rem, true, ops);
    if (round <= 2 * L) {
        if (idle) return 0;
        bool halving = round <= L;
        int32_t i = halving ? round : 2 * L + 1 - round;
        int64_t kept, given;
        rab_halves(a->size, p2, newrank, i, &kept, &given);
        int32_t partner = coll_pair_rank(newrank ^ ((int32_t)1 << (i - 1)), rem);
        coll_op_set(&ops[0], 1, partner, halving ? given : kept);
        coll_op_set(&ops[1], 0, partner, halving ? kept : given);
        return 2;
    }
    if (round == 2 * L + 1 && paired) return pairing(a, rem, false, ops);
    return -1;
}

/* Reduce to rank 0 (binomial), then broadcast from it (binomial).
 * Cost with n = 2^L: reduce L (L_net + S/B) on the longest path, bcast the
 * same: 2 L (L_net + S/B). */
int coll_allreduce_reduce_bcast(const struct coll_args *a, int round, struct coll_op *ops) {
    struct coll_args r = *a;
    r.root = 0;
    if (round < 2) {
        int k = coll_reduce_binomial(&r, round, ops);
        return k < 0 ? 0 : k;
    }
    return coll_bcast_binomial(&r, round - 2, ops);
}

/* Segmented ring (Open MPI's ring_segmented, for large vectors): the ring's
 * 2 (n - 1) steps each move their block as m = ceil(ceil(S / n) / s)
 * segments of s = mpi.coll.segment_size bytes, one segment per round.
 * Cost: 2 (n - 1) (m L + S / (n B)) (m = 1: the ring). */
int coll_allreduce_ring_segmented(const struct coll_args *a, int round, struct coll_op *ops) {
    int32_t n = a->n, me = a->me;
    if (a->size / 8 < n) return coll_allreduce_recursive_doubling(a, round, ops);
    int64_t seg = a->segment > 0 ? a->segment : 1, big = coll_block(a->size, n, 0);
    int64_t m = big > seg ? (big + seg - 1) / seg : 1;
    if (n == 1 || round >= 2 * (n - 1) * m) return -1;
    int32_t step = (int32_t)(round / m), s = (int32_t)(round % m);
    int32_t k = step < n - 1 ? step : step - (n - 1), shift = step < n - 1 ? 0 : 1;
    int32_t sb = ((me - k + shift) % n + n) % n, rb = ((me - k - 1 + shift) % n + n) % n;
    int64_t sbytes = coll_block(a->size, n, sb) - s * seg,
            rbytes = coll_block(a->size, n, rb) - s * seg;
    if (m > 1) { /* the segment s of each block */
        sbytes = sbytes < 0 ? 0 : sbytes > seg ? seg : sbytes;
        rbytes = rbytes < 0 ? 0 : rbytes > seg ? seg : rbytes;
    }
    coll_op_set(&ops[0], 1, (me + 1) % n, sbytes);
    coll_op_set(&ops[1], 0, (me - 1 + n) % n, rbytes);
    return 2;
}
