/* Allreduce: recursive doubling (Thakur, Rabenseifner, Gropp 2005). With p2
 * the largest power of two <= n and rem = n - p2, the first 2*rem ranks pair
 * up: even ranks hand their vector to the odd neighbour (round 0) and get the
 * result back at the end (round L+1). The p2 remaining ranks exchange the
 * whole vector with partner newrank ^ 2^(k-1) in rounds k = 1..L = log2 p2. */
#include "mpi/coll/coll.h"

static int32_t log2_floor(int32_t n) {
    int32_t l = 0;
    while (((int32_t)2 << l) <= n)
        l++;
    return l;
}

/* Rank of the participant with index nr in the doubling phase. */
static int32_t real_rank(int32_t nr, int32_t rem) {
    return nr < rem ? nr * 2 + 1 : nr + rem;
}

int coll_allreduce_recursive_doubling(const struct coll_args *a, int round, struct coll_op *ops) {
    int32_t n = a->n, me = a->me, L = log2_floor(n), p2 = (int32_t)1 << L, rem = n - p2;
    bool paired = me < 2 * rem, idle = paired && me % 2 == 0;
    int32_t newrank = paired ? me / 2 : me - rem;
    if (round == 0) {
        if (!paired) return 0;
        return idle ? coll_op_set(&ops[0], 1, me + 1, a->size)
                    : coll_op_set(&ops[0], 0, me - 1, a->size);
    }
    if (round <= L) {
        if (idle) return 0;
        int32_t partner = real_rank(newrank ^ ((int32_t)1 << (round - 1)), rem);
        coll_op_set(&ops[0], 1, partner, a->size);
        coll_op_set(&ops[1], 0, partner, a->size);
        return 2;
    }
    if (round == L + 1 && paired)
        return idle ? coll_op_set(&ops[0], 0, me + 1, a->size)
                    : coll_op_set(&ops[0], 1, me - 1, a->size);
    return -1;
}
