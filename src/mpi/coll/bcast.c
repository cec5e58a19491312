/* SPDX-License-Identifier: BSD-3-Clause */
/* Broadcast algorithms. v = (me - root) mod n is a rank's distance from the
 * root; T(S) = L + S / B is one message of S bytes without contention. */
#include "mpi/coll/coll.h"

/* Binomial tree: a rank receives from v - lowbit(v), then sends to v + m for
 * every power of two m < lowbit(v) with v + m < n (the root's lowbit is the
 * top power of two). Cost: ceil(log2 n) T(S) on the longest path (children
 * are sent to at once). */
int coll_bcast_binomial(const struct coll_args *a, int round, struct coll_op *ops) {
    int32_t n = a->n, v = coll_rel(a, a->me), low = coll_lowbit_or_top(v, n);
    if (round == 0) {
        if (v == 0) return 0;
        return coll_op_set(&ops[0], 0, coll_abs(a, v - low), a->size);
    }
    if (round > 1) return -1;
    int k = 0;
    for (int32_t m = low >> 1; m >= 1; m >>= 1)
        if (v + m < n) k += coll_op_set(&ops[k], 1, coll_abs(a, v + m), a->size);
    return k;
}

/* Bytes of blocks first .. first + count - 1 when S is cut into n blocks of
 * ceil(S / n) bytes (the last ones shorter or empty), as MPICH's scatter
 * phase cuts the message. */
static int64_t scatter_bytes(const struct coll_args *a, int32_t first, int32_t count) {
    int64_t blk = (a->size + a->n - 1) / a->n;
    int64_t lo = blk * first, hi = blk * ((int64_t)first + count);
    if (lo > a->size) lo = a->size;
    if (hi > a->size) hi = a->size;
    return hi - lo;
}

/* The scatter phase: binomial from the root, rounds masks from the top
 * power of two down; ceil(log2 n) rounds. Returns -1 once over. */
static int scatter_phase(const struct coll_args *a, int round, struct coll_op *ops) {
    int32_t n = a->n, v = coll_rel(a, a->me);
    int32_t top = coll_lowbit_or_top(0, n), low = coll_lowbit_or_top(v, n);
    int32_t mask = top >> (round + 1);
    if (mask == 0) return -1;
    int32_t sub = v + mask < n ? mask : n - v; /* blocks of v's subtree */
    if (mask == low)
        return coll_op_set(&ops[0], 0, coll_abs(a, v - mask), scatter_bytes(a, v, sub));
    if (mask < low && v + mask < n) {
        int32_t child = v + mask, csub = child + mask <= n ? mask : n - child;
        return coll_op_set(&ops[0], 1, coll_abs(a, child), scatter_bytes(a, child, csub));
    }
    return 0;
}

static int32_t scatter_rounds(int32_t n) {
    return coll_log2_floor(coll_lowbit_or_top(0, n));
}

/* Scatter + ring allgather (van de Geijn; MPICH's long-message broadcast):
 * the message is scattered in n blocks of ceil(S / n) bytes by a binomial
 * tree, then n - 1 ring rounds pass the blocks around (relative ranks, v
 * sends to v + 1). Cost (n a power of two, eager):
 * sum_{k=1..log2 n} T(S / 2^k) + (n - 1) T(S / n). */
int coll_bcast_scatter_ring_allgather(const struct coll_args *a, int round, struct coll_op *ops) {
    int32_t n = a->n, sr = scatter_rounds(n);
    if (round < sr) return scatter_phase(a, round, ops);
    int32_t k = round - sr, v = coll_rel(a, a->me);
    if (k >= n - 1) return -1;
    int32_t sb = ((v - k) % n + n) % n, rb = ((v - k - 1) % n + n) % n;
    coll_op_set(&ops[0], 1, coll_abs(a, (v + 1) % n), scatter_bytes(a, sb, 1));
    coll_op_set(&ops[1], 0, coll_abs(a, (v - 1 + n) % n), scatter_bytes(a, rb, 1));
    return 2;
}

/* Scatter + recursive-doubling allgather (MPICH's medium-message broadcast
 * for powers of two): after the scatter, round k exchanges the 2^k blocks
 * held with v ^ 2^k. Cost (n = 2^L): sum_{k=1..L} T(S / 2^k) +
 * sum_{k=0..L-1} T(2^k S / n). Other sizes use the ring allgather. */
int coll_bcast_scatter_rd_allgather(const struct coll_args *a, int round, struct coll_op *ops) {
    int32_t n = a->n, sr = scatter_rounds(n);
    if (n & (n - 1)) return coll_bcast_scatter_ring_allgather(a, round, ops);
    if (round < sr) return scatter_phase(a, round, ops);
    int32_t k = round - sr, v = coll_rel(a, a->me);
    if (k >= sr) return -1;
    int32_t dist = (int32_t)1 << k, peer = v ^ dist;
    coll_op_set(&ops[0], 1, coll_abs(a, peer), scatter_bytes(a, v & ~(dist - 1), dist));
    coll_op_set(&ops[1], 0, coll_abs(a, peer), scatter_bytes(a, peer & ~(dist - 1), dist));
    return 2;
}

int64_t coll_segments(const struct coll_args *a) {
    int64_t seg = a->segment > 0 ? a->segment : a->size;
    return a->size <= 0 || seg <= 0 ? 1 : (a->size + seg - 1) / seg;
}

static int64_t segment_bytes(const struct coll_args *a, int64_t k) {
    int64_t seg = a->segment > 0 ? a->segment : a->size, left = a->size - k * seg;
    return left < seg ? (left > 0 ? left : 0) : seg;
}

int coll_chain(const struct coll_args *a, int32_t prev, int32_t next, int round,
               struct coll_op *ops) {
    int64_t nseg = coll_segments(a), k = round;
    if (k > nseg || (prev < 0 && k == nseg)) return -1;
    int c = 0;
    if (prev >= 0 && k < nseg) c += coll_op_set(&ops[c], 0, prev, segment_bytes(a, k));
    int64_t out = prev < 0 ? k : k - 1; /* the source sends segment k at once */
    if (next >= 0 && out >= 0) c += coll_op_set(&ops[c], 1, next, segment_bytes(a, out));
    return c;
}

/* Pipelined chain (Open MPI's pipeline broadcast): the message moves in
 * segments of mpi.coll.segment_size bytes along root -> v = 1 -> ... -> n - 1;
 * a rank receives segment k while passing on segment k - 1.
 * Cost (m segments of s bytes, lock-step rounds): (n - 2 + m) T(s) at the
 * end of the chain when sends complete at once (eager), as each rank's round
 * k waits for segment k. */
int coll_bcast_pipeline(const struct coll_args *a, int round, struct coll_op *ops) {
    int32_t n = a->n, v = coll_rel(a, a->me);
    if (n == 1) return -1;
    return coll_chain(a, v > 0 ? coll_abs(a, v - 1) : -1, v < n - 1 ? coll_abs(a, v + 1) : -1,
                      round, ops);
}
