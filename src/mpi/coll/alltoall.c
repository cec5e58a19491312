/* SPDX-License-Identifier: BSD-3-Clause */
/* All-to-all algorithms; S is the block for each destination,
 * T(S) = L + S / B. */
#include "mpi/coll/coll.h"

/* Pairwise exchange (the SMPI paper's Figure 10): in round k = 1..n-1 a rank
 * sends its block for (me + k) mod n and receives the block from
 * (me - k) mod n. Cost: (n - 1) T(S). */
int coll_alltoall_pairwise(const struct coll_args *a, int round, struct coll_op *ops) {
    int32_t n = a->n, k = round + 1;
    if (k >= n) return -1;
    int32_t to = (a->me + k) % n, from = (a->me - k + n) % n;
    coll_op_set(&ops[0], 1, to, coll_vsend(a, to));
    coll_op_set(&ops[1], 0, from, coll_vrecv(a, from));
    return 2;
}

/* Bruck (1997; MPICH's short-message all-to-all): in round k a rank sends to
 * (me + 2^k) mod n the blocks whose index (relative to itself) has bit k
 * set, and receives as many from (me - 2^k) mod n; ceil(log2 n) rounds.
 * Cost: sum_k T(c_k S), c_k = #{ j < n : j & 2^k }. */
int coll_alltoall_bruck(const struct coll_args *a, int round, struct coll_op *ops) {
    int32_t n = a->n;
    if (round >= 31 || ((int32_t)1 << round) >= n) return -1;
    int32_t dist = (int32_t)1 << round;
    /* j in [0, n) with bit `round` set: full periods of 2 dist, plus the tail */
    int64_t blocks = (int64_t)(n / (2 * dist)) * dist;
    int32_t tail = n % (2 * dist);
    if (tail > dist) blocks += tail - dist;
    coll_op_set(&ops[0], 1, (a->me + dist) % n, blocks * a->size);
    coll_op_set(&ops[1], 0, (a->me - dist + n) % n, blocks * a->size);
    return 2;
}

/* Linear (Open MPI's basic linear, SMPI's default): every send and receive
 * is posted at once. Cost: T(S) without contention. */
int coll_alltoall_linear(const struct coll_args *a, int round, struct coll_op *ops) {
    int32_t n = a->n;
    if (round > 0 || n == 1) return -1;
    for (int32_t k = 1; k < n; k++) {
        int32_t from = (a->me - k + n) % n, to = (a->me + k) % n;
        coll_op_set(&ops[2 * k - 2], 0, from, coll_vrecv(a, from));
        coll_op_set(&ops[2 * k - 1], 1, to, coll_vsend(a, to));
    }
    return 2 * (n - 1);
}

/* Linear with a bounded window (Open MPI's linear_sync): at most
 * w = mpi.coll.window sends and receives in flight; round r handles peers
 * me +- (r w + 1 .. r w + w). Cost: ceil((n - 1) / w) T(S) without contention. */
int coll_alltoall_linear_sync(const struct coll_args *a, int round, struct coll_op *ops) {
    int32_t n = a->n, w = a->window > 0 ? a->window : 1;
    int64_t first = (int64_t)round * w + 1;
    if (first >= n) return -1;
    int c = 0;
    for (int64_t k = first; k < first + w && k < n; k++) {
        int32_t from = (int32_t)((a->me - k + n) % n), to = (int32_t)((a->me + k) % n);
        c += coll_op_set(&ops[c], 0, from, coll_vrecv(a, from));
        c += coll_op_set(&ops[c], 1, to, coll_vsend(a, to));
    }
    return c;
}
