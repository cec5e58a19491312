/* SPDX-License-Identifier: BSD-3-Clause */
/* Scan and exscan: S is the vector; T(S) = L + S / B. Exscan runs the same
 * schedules (MPICH and Open MPI do). */
#include "mpi/coll/coll.h"

/* Scan and exscan by recursive doubling (MPICH): in round k a rank sends
 * its partial result to me + 2^k and receives from me - 2^k, where those
 * exist. Cost: ceil(log2 n) T(S). */
int coll_scan_recursive_doubling(const struct coll_args *a, int round, struct coll_op *ops) {
    int32_t n = a->n, me = a->me;
    if (round >= 31 || ((int32_t)1 << round) >= n) return -1;
    int32_t dist = (int32_t)1 << round;
    int c = 0;
    if (me + dist < n) c += coll_op_set(&ops[c], 1, me + dist, a->size);
    if (me - dist >= 0) c += coll_op_set(&ops[c], 0, me - dist, a->size);
    return c;
}

/* Linear scan (Open MPI's basic linear): rank i waits for the prefix of
 * rank i - 1, then passes its own on. Cost: (n - 1) T(S). */
int coll_scan_linear(const struct coll_args *a, int round, struct coll_op *ops) {
    int32_t n = a->n, me = a->me;
    if (round == 0) return me > 0 ? coll_op_set(&ops[0], 0, me - 1, a->size) : 0;
    if (round == 1 && me < n - 1) return coll_op_set(&ops[0], 1, me + 1, a->size);
    return -1;
}
