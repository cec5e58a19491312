/* SPDX-License-Identifier: BSD-3-Clause */
/* Allgather (and allgatherv: with variable counts every block has its own
 * size, coll_vrange). Bruck's algorithm: in round k a rank sends the
 * c = min(2^k, n - 2^k) blocks it holds (its own and the next c - 1 ranks')
 * to (me - 2^k) mod n and receives as many (those of me + 2^k onwards) from
 * (me + 2^k) mod n; ceil(log2 n) rounds for any n. */
#include "mpi/coll/coll.h"

int coll_allgather_bruck(const struct coll_args *a, int round, struct coll_op *ops) {
    if (round >= 31) return -1;
    int32_t n = a->n, dist = (int32_t)1 << round;
    if (dist >= n) return -1;
    int32_t blocks = dist < n - dist ? dist : n - dist;
    coll_op_set(&ops[0], 1, (a->me - dist + n) % n, coll_vrange(a, a->me, blocks));
    coll_op_set(&ops[1], 0, (a->me + dist) % n, coll_vrange(a, (a->me + dist) % n, blocks));
    return 2;
}

/* Ring: n - 1 rounds; in round k a rank passes the block it received last
 * (its own first) to me + 1 and receives the next from me - 1.
 * Cost: (n - 1) T(S). */
int coll_allgather_ring(const struct coll_args *a, int round, struct coll_op *ops) {
    int32_t n = a->n, me = a->me;
    if (round >= n - 1) return -1;
    /* variable counts: round k passes on block me - k, receives me - k - 1 */
    coll_op_set(&ops[0], 1, (me + 1) % n, coll_vrecv(a, (me - round + n) % n));
    coll_op_set(&ops[1], 0, (me - 1 + n) % n, coll_vrecv(a, (me - round - 1 + 2 * n) % n));
    return 2;
}

/* Recursive doubling (n a power of two): in round k a rank exchanges the
 * 2^k blocks it holds (those of its aligned group of 2^k ranks) with
 * me ^ 2^k, which sends those of its own group. Cost: sum_k T(2^k S) =
 * log2 n L + (n - 1) S / B. Other sizes run the ring, as MPICH leaves
 * recursive doubling to powers of two. */
int coll_allgather_recursive_doubling(const struct coll_args *a, int round, struct coll_op *ops) {
    int32_t n = a->n;
    if (n & (n - 1)) return coll_allgather_ring(a, round, ops);
    if (round >= 31 || ((int32_t)1 << round) >= n) return -1;
    int32_t dist = (int32_t)1 << round, mine = a->me & ~(dist - 1);
    coll_op_set(&ops[0], 1, a->me ^ dist, coll_vrange(a, mine, dist));
    coll_op_set(&ops[1], 0, a->me ^ dist, coll_vrange(a, mine ^ dist, dist));
    return 2;
}

/* Neighbour exchange (Chen et al. 2005; Open MPI), for even n: round 0
 * swaps blocks with the neighbour (even ranks with me + 1), then n/2 - 1
 * rounds alternate between the two neighbours, passing on the two blocks
 * received last. Cost: T(S) + (n/2 - 1) T(2 S). Odd sizes run the ring, as
 * Open MPI does. */
int coll_allgather_neighbor_exchange(const struct coll_args *a, int round, struct coll_op *ops) {
    int32_t n = a->n, me = a->me;
    if (n % 2) return coll_allgather_ring(a, round, ops);
    if (round >= n / 2) return -1;
    bool even = me % 2 == 0, right = (round % 2 == 0) == even;
    int32_t peer = right ? (me + 1) % n : (me - 1 + n) % n;
    int64_t bytes = round == 0 ? a->size : 2 * a->size;
    coll_op_set(&ops[0], 1, peer, bytes);
    coll_op_set(&ops[1], 0, peer, bytes);
    return 2;
}

/* Linear (Open MPI's libnbc iallgather and iallgatherv): every rank sends
 * its block to every other rank and receives theirs, all at once, in one
 * round: the linear all-to-all's pattern with one block for all. Cost:
 * T(S) without contention; with the nodes' interfaces the n - 1 sends of a
 * rank leave one after another. */
int coll_allgather_linear(const struct coll_args *a, int round, struct coll_op *ops) {
    struct coll_args same = *a;
    same.vsend = NULL;
    same.size = coll_vrecv(a, a->me);
    return coll_alltoall_linear(&same, round, ops);
}
