/* Unit tests for the collective schedules: an independent data-flow
 * execution of each algorithm's rounds (FIFO channels between rank pairs, a
 * round ends when all its receives found their message) checks, for many
 * communicator sizes and roots, that nothing deadlocks, every message is
 * received, and each rank ends up with the contributions MPI promises. */
#include <stdint.h>
#include <stdlib.h>

#include "mpi/coll/coll.h"
#include "test.h"

#define MAXN 64
#define MAXQ 64

struct msg {
    uint64_t know;
    int64_t size;
};

struct chan {
    struct msg q[MAXQ];
    int head, tail;
};

struct rk {
    int round, nops;
    bool started, done, got[COLL_MAX_OPS];
    struct coll_op ops[COLL_MAX_OPS];
    uint64_t know;
    int64_t recv_bytes, sent_bytes;
};

static struct chan chans[MAXN][MAXN];
static struct rk rks[MAXN];

static void start_round(const struct coll_algo *al, struct coll_args a, int me) {
    struct rk *r = &rks[me];
    a.me = me;
    for (;;) {
        r->nops = al->round(&a, r->round, r->ops);
        if (r->nops < 0) {
            r->done = true;
            return;
        }
        if (r->nops > 0) break;
        r->round++;
    }
    r->started = true;
    for (int i = 0; i < r->nops; i++) {
        r->got[i] = false;
        if (!r->ops[i].is_send) continue;
        struct chan *c = &chans[me][r->ops[i].peer];
        c->q[c->tail++ % MAXQ] = (struct msg){r->know, r->ops[i].size};
        r->sent_bytes += r->ops[i].size;
        r->got[i] = true;
    }
}

/* Tries to finish the current round; true if anything changed. */
static bool progress(int me) {
    struct rk *r = &rks[me];
    bool changed = false, all = true;
    for (int i = 0; i < r->nops; i++) {
        if (r->got[i]) continue;
        struct chan *c = &chans[r->ops[i].peer][me];
        if (c->head == c->tail) {
            all = false;
            continue;
        }
        struct msg m = c->q[c->head++ % MAXQ];
        CHECK_EQ_INT(m.size, r->ops[i].size); /* sender and receiver agree on size */
        r->know |= m.know;
        r->recv_bytes += m.size;
        r->got[i] = changed = true;
    }
    if (all) {
        r->started = false;
        r->round++;
        changed = true;
    }
    return changed;
}

/* Runs the algorithm on n ranks; returns false on deadlock. */
static bool execute(const struct coll_algo *al, int n, int root, int64_t size) {
    memset(chans, 0, sizeof chans);
    memset(rks, 0, sizeof rks);
    struct coll_args a = {n, 0, root, size};
    for (int i = 0; i < n; i++)
        rks[i].know = (uint64_t)1 << i;
    for (bool changed = true; changed;) {
        changed = false;
        for (int i = 0; i < n; i++) {
            if (rks[i].done) continue;
            if (!rks[i].started) {
                start_round(al, a, i);
                changed = true;
                continue;
            }
            changed |= progress(i);
        }
    }
    for (int i = 0; i < n; i++)
        if (!rks[i].done) return false;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            CHECK_EQ_INT(chans[i][j].head, chans[i][j].tail);
    return true;
}

static uint64_t all_bits(int n) {
    return n == 64 ? ~0ull : ((uint64_t)1 << n) - 1;
}

static void check_algo(const struct coll_algo *al, enum coll_kind kind) {
    CHECK(al != NULL);
    if (!al) return;
    for (int n = 1; n <= MAXN; n++) {
        int roots[3] = {0, n / 2, n - 1};
        for (int k = 0; k < 3; k++) {
            int root = roots[k];
            const int64_t B = 10;
            if (!execute(al, n, root, B)) {
                fprintf(stderr, "%s deadlocked with n=%d root=%d\n", al->name, n, root);
                test_failures++;
                return;
            }
            for (int i = 0; i < n; i++) {
                struct rk *r = &rks[i];
                switch (kind) {
                case COLL_BARRIER:
                case COLL_ALLREDUCE:
                    CHECK(r->know == all_bits(n));
                    break;
                case COLL_BCAST:
                    CHECK(r->know & ((uint64_t)1 << root));
                    CHECK_EQ_INT(r->recv_bytes, i == root ? 0 : B);
                    break;
                case COLL_REDUCE:
                case COLL_GATHER:
                    if (i == root) CHECK(r->know == all_bits(n));
                    if (kind == COLL_GATHER && i == root) CHECK_EQ_INT(r->recv_bytes, (n - 1) * B);
                    break;
                case COLL_SCATTER:
                    /* each non-root keeps exactly one block of what it received */
                    CHECK_EQ_INT(r->recv_bytes - r->sent_bytes, i == root ? -(n - 1) * B : B);
                    if (i != root) CHECK(r->know & ((uint64_t)1 << root));
                    break;
                case COLL_ALLGATHER:
                case COLL_ALLTOALL:
                    CHECK(r->know == all_bits(n));
                    CHECK_EQ_INT(r->recv_bytes, (n - 1) * B);
                    break;
                default:
                    break;
                }
            }
        }
    }
}

static void check_kind(enum coll_kind kind) {
    check_algo(coll_select(NULL, kind, 4, 8), kind);
}

static void test_barrier(void) {
    static const char *const names[] = {"dissemination", "recursive_doubling", "binomial"};
    CHECK(coll_select(NULL, COLL_BARRIER, 4, 0) == coll_find(COLL_BARRIER, names[0]));
    for (int i = 0; i < 3; i++)
        check_algo(coll_find(COLL_BARRIER, names[i]), COLL_BARRIER);
}
static void test_bcast(void) {
    check_kind(COLL_BCAST);
}
static void test_reduce(void) {
    check_kind(COLL_REDUCE);
}
static void test_allreduce(void) {
    static const char *const names[] = {"recursive_doubling", "ring", "rabenseifner",
                                        "reduce_bcast"};
    CHECK(coll_select(NULL, COLL_ALLREDUCE, 4, 8) == coll_find(COLL_ALLREDUCE, names[0]));
    for (int i = 0; i < 4; i++)
        check_algo(coll_find(COLL_ALLREDUCE, names[i]), COLL_ALLREDUCE);
}
static void test_gather(void) {
    check_kind(COLL_GATHER);
}
static void test_scatter(void) {
    check_kind(COLL_SCATTER);
}
static void test_allgather(void) {
    static const char *const names[] = {"bruck", "ring", "recursive_doubling"};
    CHECK(coll_select(NULL, COLL_ALLGATHER, 4, 8) == coll_find(COLL_ALLGATHER, names[0]));
    for (int i = 0; i < 3; i++)
        check_algo(coll_find(COLL_ALLGATHER, names[i]), COLL_ALLGATHER);
}
static void test_alltoall(void) {
    check_kind(COLL_ALLTOALL);
}

TEST_LIST(coll_tests) = {
    {"coll.barrier", test_barrier},
    {"coll.bcast", test_bcast},
    {"coll.reduce", test_reduce},
    {"coll.allreduce", test_allreduce},
    {"coll.gather", test_gather},
    {"coll.scatter", test_scatter},
    {"coll.allgather", test_allgather},
    {"coll.alltoall", test_alltoall},
    TEST_END,
};
