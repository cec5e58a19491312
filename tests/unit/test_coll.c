/* SPDX-License-Identifier: BSD-3-Clause */
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
#define MAXQ 256
#define MAXOPS (2 * MAXN + 2)

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
    bool started, done, got[MAXOPS];
    struct coll_op ops[MAXOPS];
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

/* Per-rank arguments (variable counts); NULL: the same for every rank. */
typedef void (*args_fn)(struct coll_args *a, int me);

/* Runs the algorithm on n ranks; returns false on deadlock. */
static bool execute_with(const struct coll_algo *al, int n, int root, int64_t size, args_fn mk) {
    memset(chans, 0, sizeof chans);
    memset(rks, 0, sizeof rks);
    /* segments of 300 B, windows of 3 */
    struct coll_args a = {.n = n, .me = 0, .root = root, .size = size, .segment = 300, .window = 3};
    for (int i = 0; i < n; i++)
        rks[i].know = (uint64_t)1 << i;
    for (bool changed = true; changed;) {
        changed = false;
        for (int i = 0; i < n; i++) {
            if (rks[i].done) continue;
            if (!rks[i].started) {
                struct coll_args ai = a;
                if (mk) mk(&ai, i);
                start_round(al, ai, i);
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

static bool execute(const struct coll_algo *al, int n, int root, int64_t size) {
    return execute_with(al, n, root, size, NULL);
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
            const int64_t B = 1000; /* 125 doubles: at least one per rank */
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
                case COLL_BCAST: /* trees move B once; scatter + allgather more */
                    CHECK(r->know & ((uint64_t)1 << root));
                    /* in scatter + allgather the root takes part in the allgather */
                    if (i == root && strncmp(al->name, "scatter_", 8))
                        CHECK_EQ_INT(r->recv_bytes, 0);
                    if (i != root) CHECK(r->recv_bytes >= B);
                    break;
                case COLL_REDUCE_SCATTER: /* each block holds every contribution */
                    CHECK(r->know == all_bits(n));
                    break;
                case COLL_SCAN: /* rank i combines ranks 0..i */
                case COLL_EXSCAN:
                    CHECK((r->know & all_bits(i + 1)) == all_bits(i + 1));
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
                    CHECK(r->know == all_bits(n));
                    CHECK_EQ_INT(r->recv_bytes, (n - 1) * B);
                    break;
                case COLL_ALLTOALL: /* Bruck stores and forwards: more bytes */
                    CHECK(r->know == all_bits(n));
                    CHECK(r->recv_bytes >= (n - 1) * B);
                    if (strcmp(al->name, "bruck")) CHECK_EQ_INT(r->recv_bytes, (n - 1) * B);
                    break;
                default:
                    break;
                }
            }
        }
    }
}

/* Every registered algorithm of the kind. */
static void check_kind(enum coll_kind kind) {
    int found = 0;
    for (int i = 0; i < COLL_ALGOS; i++) {
        const struct coll_algo *al = coll_by_index(i);
        if (!al || al->kind != kind) continue;
        found++;
        int before = test_failures;
        check_algo(al, kind);
        if (test_failures != before) fprintf(stderr, "  in %s %s\n", sim_coll_name(kind), al->name);
    }
    CHECK(found >= 2);
}

static void test_fixed_defaults(void) {
    static const char *const want[COLL_KINDS] = {
        "dissemination",     "binomial", "binomial", "recursive_doubling", "binomial",
        "binomial",          "bruck",    "pairwise", "recursive_halving",  "recursive_doubling",
        "recursive_doubling"};
    for (int k = 0; k < COLL_KINDS; k++)
        CHECK(coll_select(NULL, (enum coll_kind)k, 4, 8) == coll_find((enum coll_kind)k, want[k]));
}

static void expect_sel(enum coll_selector sel, enum coll_kind kind, int32_t n, int64_t size,
                       const char *want) {
    struct coll_config cfg = {.selector = sel, .segment = 65536, .window = 32};
    const struct coll_algo *a = coll_select(&cfg, kind, n, size);
    if (!a || strcmp(a->name, want))
        fprintf(stderr, "  selector %d, %s on %d ranks of %lld B: got %s, want %s\n", (int)sel,
                sim_coll_name(kind), n, (long long)size, a ? a->name : "NULL", want);
    CHECK(a && !strcmp(a->name, want));
}

/* Each side of each documented threshold (docs/collectives.md). */
static void test_selector_mpich(void) {
    enum coll_selector M = COLL_SEL_MPICH;
    expect_sel(M, COLL_ALLREDUCE, 4, 8, "recursive_doubling");       /* <= 8 B */
    expect_sel(M, COLL_ALLREDUCE, 4, 16, "recursive_doubling");      /* 2 doubles < pof2 4 */
    expect_sel(M, COLL_ALLREDUCE, 4, 32, "rabenseifner");            /* 4 doubles >= 4 */
    expect_sel(M, COLL_ALLREDUCE, 2, 16, "rabenseifner");            /* 2 doubles >= 2 */
    expect_sel(M, COLL_ALLREDUCE, 4, 2056, "rabenseifner");          /* 257 doubles >= 4 */
    expect_sel(M, COLL_ALLREDUCE, 1024, 4096, "recursive_doubling"); /* 512 < pof2 1024 */
    expect_sel(M, COLL_ALLREDUCE, 1024, 8192, "rabenseifner");       /* 1024 doubles */
    expect_sel(M, COLL_REDUCE, 16, 2048, "binomial");
    expect_sel(M, COLL_REDUCE, 16, 2056, "rabenseifner");
    expect_sel(M, COLL_BCAST, 16, 12288, "binomial"); /* <= 12288 */
    expect_sel(M, COLL_BCAST, 16, 12289, "scatter_rd_allgather");
    expect_sel(M, COLL_BCAST, 7, 100000, "binomial"); /* fewer than 8 ranks */
    expect_sel(M, COLL_BCAST, 12, 12289, "scatter_ring_allgather");
    expect_sel(M, COLL_BCAST, 16, 524288, "scatter_rd_allgather"); /* <= 524288 */
    expect_sel(M, COLL_BCAST, 16, 524289, "scatter_ring_allgather");
    expect_sel(M, COLL_ALLTOALL, 8, 256, "bruck");
    expect_sel(M, COLL_ALLTOALL, 7, 256, "linear_sync");
    expect_sel(M, COLL_ALLTOALL, 8, 257, "linear_sync");
    expect_sel(M, COLL_ALLTOALL, 8, 32768, "linear_sync");
    expect_sel(M, COLL_ALLTOALL, 8, 32769, "pairwise");
    expect_sel(M, COLL_ALLGATHER, 8, 65535, "recursive_doubling");      /* 524280 B in all */
    expect_sel(M, COLL_ALLGATHER, 8, 65536, "ring");                    /* 524288 */
    expect_sel(M, COLL_ALLGATHER, 6, 13653, "bruck");                   /* 81918 */
    expect_sel(M, COLL_ALLGATHER, 6, 13654, "ring");                    /* 81924 */
    expect_sel(M, COLL_REDUCE_SCATTER, 4, 131071, "recursive_halving"); /* 524284 */
    expect_sel(M, COLL_REDUCE_SCATTER, 4, 131072, "pairwise");
    expect_sel(M, COLL_BARRIER, 5, 0, "dissemination");
    expect_sel(M, COLL_GATHER, 5, 1 << 20, "binomial");
    expect_sel(M, COLL_SCAN, 5, 8, "recursive_doubling");
}

static void test_selector_ompi(void) {
    enum coll_selector O = COLL_SEL_OMPI;
    expect_sel(O, COLL_ALLREDUCE, 3, 7, "ring");
    expect_sel(O, COLL_ALLREDUCE, 3, 8, "recursive_doubling");
    expect_sel(O, COLL_ALLREDUCE, 3, 262143, "ring_segmented");
    expect_sel(O, COLL_ALLREDUCE, 3, 262144, "rabenseifner");
    expect_sel(O, COLL_ALLREDUCE, 64, 262143, "recursive_doubling");
    expect_sel(O, COLL_ALLREDUCE, 1024, 2047, "reduce_bcast");
    expect_sel(O, COLL_ALLREDUCE, 1024, 2048, "recursive_doubling");
    expect_sel(O, COLL_ALLREDUCE, 1024, 16384, "rabenseifner");
    expect_sel(O, COLL_ALLTOALL, 64, 1023, "bruck");
    expect_sel(O, COLL_ALLTOALL, 64, 1024, "linear");
    expect_sel(O, COLL_ALLTOALL, 64, 262144, "pairwise");
    expect_sel(O, COLL_ALLTOALL, 16, 262144, "linear");
    expect_sel(O, COLL_BARRIER, 2, 0, "recursive_doubling");
    expect_sel(O, COLL_BARRIER, 4, 0, "linear");
    expect_sel(O, COLL_BARRIER, 8, 0, "recursive_doubling");
    expect_sel(O, COLL_BARRIER, 64, 0, "dissemination");
    expect_sel(O, COLL_BARRIER, 256, 0, "binomial");
    expect_sel(O, COLL_ALLGATHER, 16, 1 << 20, "recursive_doubling");
    expect_sel(O, COLL_ALLGATHER, 12, 8, "bruck"); /* recursive doubling needs 2^k */
    expect_sel(O, COLL_ALLGATHER, 64, 1024, "neighbor_exchange");
    expect_sel(O, COLL_BCAST, 7, 8191, "binomial");
    expect_sel(O, COLL_BCAST, 7, 8192, "linear");
    expect_sel(O, COLL_BCAST, 7, 1048576, "pipeline");
    expect_sel(O, COLL_REDUCE, 4, 4095, "binomial");
    expect_sel(O, COLL_REDUCE, 4, 4096, "pipeline");
    expect_sel(O, COLL_GATHER, 4, 8191, "linear");
    expect_sel(O, COLL_GATHER, 4, 262144, "linear_sync");
    expect_sel(O, COLL_SCATTER, 64, 511, "binomial");
    expect_sel(O, COLL_SCATTER, 64, 512, "linear");
    expect_sel(O, COLL_REDUCE_SCATTER, 4, 1, "nonoverlapping"); /* 4 B in all */
    expect_sel(O, COLL_REDUCE_SCATTER, 4, 2, "recursive_halving");
    expect_sel(O, COLL_SCAN, 4, 8, "linear");
}

/* Variable counts: bytes from i to j, different for every pair (some 0). */
static int64_t vm[MAXN][MAXN], vrow[MAXN][MAXN], vcol[MAXN][MAXN];
static int vn, vroot;
static enum coll_kind vkind;

static void v_args(struct coll_args *a, int me) {
    for (int j = 0; j < vn; j++) {
        vrow[me][j] = vm[me][j]; /* what me sends to j */
        vcol[me][j] = vm[j][me]; /* what me receives from j */
    }
    a->vsend = a->vrecv = NULL;
    switch (vkind) {
    case COLL_GATHER:
        a->size = vm[me][vroot];
        if (me == vroot) a->vrecv = vcol[me];
        break;
    case COLL_SCATTER:
        a->size = vm[vroot][me];
        if (me == vroot) a->vsend = vrow[me];
        break;
    case COLL_ALLGATHER:
    case COLL_REDUCE_SCATTER: /* block j: vm[j][0] for everyone */
        for (int j = 0; j < vn; j++)
            vcol[me][j] = vm[j][0];
        a->size = vm[me][0];
        a->vrecv = vcol[me];
        break;
    default: /* alltoall */
        a->vsend = vrow[me];
        a->vrecv = vcol[me];
        break;
    }
}

/* MPICH 4.x's default selection as its src/mpi/coll/coll_selection.json
 * writes it, condition inside condition (separately from select.c's
 * encoding), for the sweep below; s is the bytes per rank, counts are
 * doubles. */
static const char *mpich_json(enum coll_kind k, int32_t n, int64_t s) {
    int64_t count = s / 8, total = s * n;
    int32_t pof2 = 1;
    while (pof2 * 2 <= n)
        pof2 *= 2;
    bool is_pow2 = pof2 == n;
    switch (k) {
    case COLL_BARRIER:
        return "dissemination";
    case COLL_BCAST:
        if (n < 8) return "binomial";
        if (is_pow2) {
            if (s <= 12288) return "binomial";
            if (s <= 524288) return "scatter_rd_allgather";
            return "scatter_ring_allgather";
        }
        if (s <= 12288) return "binomial";
        return "scatter_ring_allgather";
    case COLL_ALLREDUCE:
        if (s <= 8) return "recursive_doubling";
        if (count < pof2) return "recursive_doubling";
        return "rabenseifner";
    case COLL_REDUCE:
        if (s <= 2048) return "binomial";
        if (count < pof2) return "binomial";
        return "rabenseifner";
    case COLL_ALLGATHER:
        if (is_pow2) return total < 524288 ? "recursive_doubling" : "ring";
        return total < 81920 ? "bruck" : "ring";
    case COLL_REDUCE_SCATTER:
        return total < 524288 ? "recursive_halving" : "pairwise";
    case COLL_GATHER:
    case COLL_SCATTER:
        return "binomial";
    case COLL_ALLTOALL:
        if (n < 8) return s <= 32768 ? "linear_sync" : "pairwise";
        if (s <= 256) return "bruck";
        return s <= 32768 ? "linear_sync" : "pairwise";
    case COLL_SCAN:
    case COLL_EXSCAN:
        return "recursive_doubling";
    default:
        return NULL;
    }
}

/* MPICH's non-blocking rules where they differ from the blocking ones */
static void test_selector_mpich_nonblocking(void) {
    struct coll_config cfg = {.selector = COLL_SEL_MPICH, .segment = 65536, .window = 32};
    static const struct {
        enum coll_kind kind;
        int32_t n;
        int64_t size;
        const char *blocking, *nonblocking;
    } cases[] = {
        {COLL_BARRIER, 16, 0, "dissemination", "recursive_doubling"},
        {COLL_ALLREDUCE, 16, 2048, "rabenseifner", "recursive_doubling"}, /* <= 2048 B */
        {COLL_ALLREDUCE, 16, 2056, "rabenseifner", "rabenseifner"},
        {COLL_ALLREDUCE, 16, 8, "recursive_doubling", "recursive_doubling"},
        {COLL_BCAST, 16, 12288, "binomial", "scatter_rd_allgather"}, /* < 12288 */
        {COLL_BCAST, 16, 524288, "scatter_rd_allgather", "scatter_ring_allgather"},
        {COLL_BCAST, 7, 1 << 20, "binomial", "binomial"},
        {COLL_ALLTOALL, 16, 2048, "linear_sync", "bruck"},  /* Bruck up to 2048 B */
        {COLL_ALLTOALL, 16, 2049, "linear_sync", "linear"}, /* permuted, all at once */
        {COLL_ALLTOALL, 4, 100, "linear_sync", "linear"},   /* fewer than 8 ranks */
        {COLL_ALLTOALL, 16, 32769, "pairwise", "pairwise"},
        {COLL_ALLGATHER, 16, 8, "recursive_doubling", "recursive_doubling"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct coll_algo *b =
            coll_select_call(&cfg, cases[i].kind, cases[i].n, cases[i].size, 0);
        const struct coll_algo *nb =
            coll_select_call(&cfg, cases[i].kind, cases[i].n, cases[i].size, COLL_CALL_NONBLOCKING);
        if (!b || !nb || strcmp(b->name, cases[i].blocking) ||
            strcmp(nb->name, cases[i].nonblocking))
            fprintf(stderr, "  %s on %d ranks of %lld B: got %s / %s, want %s / %s\n",
                    sim_coll_name(cases[i].kind), cases[i].n, (long long)cases[i].size,
                    b ? b->name : "NULL", nb ? nb->name : "NULL", cases[i].blocking,
                    cases[i].nonblocking);
        CHECK(b && !strcmp(b->name, cases[i].blocking));
        CHECK(nb && !strcmp(nb->name, cases[i].nonblocking));
    }
}

/* Every communicator size from 2 to 1,024 and sizes from 0 to 16 MiB: each
 * power of two and its neighbours, each threshold and its neighbours, and
 * the sizes that put a total (n x s) on either side of a total threshold
 * (coll_sweep_sizes, test.h). */
int coll_sweep_sizes(int32_t n, const int64_t *marks, int nmarks, int64_t *sizes) {
    int ns = 0;
    sizes[ns++] = 0;
    for (int64_t p = 1; p <= 16 << 20; p *= 2) {
        sizes[ns++] = p - 1;
        sizes[ns++] = p;
        sizes[ns++] = p + 1;
    }
    for (int i = 0; i < nmarks; i++) {
        sizes[ns++] = marks[i] - 1;
        sizes[ns++] = marks[i];
        sizes[ns++] = marks[i] + 1;
        sizes[ns++] = marks[i] / n; /* totals just below and at */
        sizes[ns++] = (marks[i] + n - 1) / n;
    }
    return ns;
}

static void test_selector_mpich_sweep(void) {
    static const int64_t marks[] = {12288, 524288, 81920, 2048, 32768, 256, 8};
    struct coll_config cfg = {.selector = COLL_SEL_MPICH, .segment = 65536, .window = 32};
    int wrong = 0, checked = 0;
    for (int32_t n = 2; n <= 1024; n++) {
        int64_t sizes[COLL_SWEEP_SIZES(7)];
        int ns = coll_sweep_sizes(n, marks, 7, sizes);
        for (int i = 0; i < ns; i++)
            for (int k = 0; k < COLL_KINDS; k++) {
                const char *want = mpich_json((enum coll_kind)k, n, sizes[i]);
                const struct coll_algo *a = coll_select(&cfg, (enum coll_kind)k, n, sizes[i]);
                checked++;
                if (want && a && !strcmp(a->name, want)) continue;
                if (wrong++ < 5)
                    fprintf(stderr, "  mpich %s on %d ranks of %lld B: got %s, want %s\n",
                            sim_coll_name((enum coll_kind)k), n, (long long)sizes[i],
                            a ? a->name : "NULL", want ? want : "NULL");
            }
    }
    CHECK_EQ_INT(wrong, 0);
    CHECK(checked > 1000000);
}

/* The allgatherv rules (docs/collectives.md) on each side of their
 * thresholds: blocks of `block` bytes on every rank, so the total is
 * n x block and the mean block `block`. */
static void expect_sel_v_kind(enum coll_selector sel, enum coll_kind kind, int32_t n, int64_t block,
                              const char *want) {
    struct coll_config cfg = {.selector = sel, .segment = 65536, .window = 32};
    static int64_t blocks[2048];
    for (int32_t j = 0; j < n; j++)
        blocks[j] = block;
    struct coll_args args = {.n = n, .size = block, .vrecv = blocks};
    const struct coll_algo *a = coll_select_v(&cfg, kind, &args, 0);
    if (!a || strcmp(a->name, want))
        fprintf(stderr, "  selector %d, %sv on %d ranks of %lld B blocks: got %s, want %s\n",
                (int)sel, sim_coll_name(kind), n, (long long)block, a ? a->name : "NULL", want);
    CHECK(a && !strcmp(a->name, want));
}

static void expect_sel_v(enum coll_selector sel, int32_t n, int64_t block, const char *want) {
    expect_sel_v_kind(sel, COLL_ALLGATHER, n, block, want);
}

static void test_selector_allgatherv(void) {
    enum coll_selector M = COLL_SEL_MPICH, O = COLL_SEL_OMPI;
    /* MPICH: recursive doubling for 2^k ranks below 524288 B in all, Bruck
     * below 81920 B, else the ring */
    expect_sel_v(M, 16, 8, "recursive_doubling");
    expect_sel_v(M, 16, 32767, "recursive_doubling"); /* 524272 B */
    expect_sel_v(M, 16, 32768, "ring");               /* 524288 B */
    expect_sel_v(M, 12, 6826, "bruck");               /* 81912 B */
    expect_sel_v(M, 12, 6827, "ring");                /* 81924 B */
    expect_sel_v(M, 1024, 0, "recursive_doubling");
    expect_sel_v(M, 1000, 81, "bruck");
    /* Open MPI: by the mean block */
    expect_sel_v(O, 2, 2047, "ring");
    expect_sel_v(O, 2, 2048, "recursive_doubling"); /* its two-process exchange */
    expect_sel_v(O, 4, 255, "bruck");
    expect_sel_v(O, 4, 256, "ring");
    expect_sel_v(O, 4, 16384, "bruck");
    expect_sel_v(O, 4, 262144, "ring");
    expect_sel_v(O, 16, 262143, "bruck");
    expect_sel_v(O, 16, 262144, "ring");
    expect_sel_v(O, 1023, 4095, "bruck");
    expect_sel_v(O, 1023, 4096, "ring");
    expect_sel_v(O, 1024, 16 << 20, "ring");
    /* fixed: the ring */
    expect_sel_v(COLL_SEL_FIXED, 16, 8, "ring");
    /* reduce_scatter with counts: MPICH recursive halving below 524288 B in
     * all; Open MPI's table on the total: recursive halving for 8 <= P < 32
     * below 262144 B, its non-overlapping form for 32 <= P < 64 below 64 B
     * in all (40 blocks of 1 B), else its ring */
    enum coll_kind RS = COLL_REDUCE_SCATTER;
    expect_sel_v_kind(M, RS, 16, 8, "recursive_halving");
    expect_sel_v_kind(M, RS, 12, 43690, "recursive_halving"); /* 524280 B */
    expect_sel_v_kind(M, RS, 16, 32768, "ring");              /* 524288 B */
    expect_sel_v_kind(O, RS, 16, 16383, "recursive_halving"); /* 262128 B */
    expect_sel_v_kind(O, RS, 16, 16384, "ring");
    expect_sel_v_kind(O, RS, 40, 1, "nonoverlapping");    /* 40 B */
    expect_sel_v_kind(O, RS, 40, 2, "recursive_halving"); /* 80 B, below 2048 */
    expect_sel_v_kind(COLL_SEL_FIXED, RS, 16, 8, "ring");
}

/* Every algorithm that takes variable counts, with counts differing per
 * pair: no deadlock, and sender and receiver agree on every size (progress
 * checks it); the receivers get exactly what was addressed to them. */
static void test_variable_counts(void) {
    int algos = 0;
    for (int i = 0; i < COLL_ALGOS; i++) {
        const struct coll_algo *al = coll_by_index(i);
        if (!al || !al->vcap) continue;
        algos++;
        vkind = al->kind;
        for (vn = 1; vn <= MAXN; vn += 3) {
            for (int x = 0; x < vn; x++)
                for (int y = 0; y < vn; y++)
                    vm[x][y] = ((x * 7 + y * 13) % 11) * 37;
            vroot = vn / 3;
            int before = test_failures;
            CHECK(execute_with(al, vn, vroot, 0, v_args));
            for (int me = 0; me < vn; me++) {
                if (vkind == COLL_REDUCE_SCATTER) continue; /* partial blocks */
                int64_t want = 0; /* alltoall: all to me; allgather: every block */
                for (int j = 0; j < vn; j++)
                    if (j != me) want += vkind == COLL_ALLTOALL ? vm[j][me] : vm[j][0];
                if (vkind == COLL_GATHER) { /* the root: each rank's block to it */
                    want = 0;
                    for (int j = 0; j < vn && me == vroot; j++)
                        if (j != me) want += vm[j][vroot];
                }
                if (vkind == COLL_SCATTER) want = me == vroot ? 0 : vm[vroot][me];
                CHECK_EQ_INT(rks[me].recv_bytes, want);
            }
            if (test_failures != before)
                fprintf(stderr, "  %s %s on %d ranks\n", sim_coll_name(vkind), al->name, vn);
        }
    }
    CHECK(algos >= 8);
}

static void test_barrier(void) {
    check_kind(COLL_BARRIER);
}
static void test_bcast(void) {
    check_kind(COLL_BCAST);
}
static void test_reduce(void) {
    check_kind(COLL_REDUCE);
}
static void test_allreduce(void) {
    check_kind(COLL_ALLREDUCE);
}
static void test_gather(void) {
    check_kind(COLL_GATHER);
}
/* floor(log2 n) against the powers of two counted one by one. */
static void test_log2_floor(void) {
    for (int64_t n = 1; n < ((int64_t)1 << 31); n = n < 70000 ? n + 1 : n * 3 + 1) {
        int32_t l = 0;
        while (((int64_t)2 << l) <= n)
            l++;
        CHECK(coll_log2_floor((int32_t)n) == l);
        CHECK(coll_pof2_floor((int32_t)n) == (int32_t)1 << l);
    }
    CHECK(coll_log2_floor(INT32_MAX) == 30 && coll_log2_floor(0) == 0);
}

static void test_scatter(void) {
    check_kind(COLL_SCATTER);
}
static void test_allgather(void) {
    check_kind(COLL_ALLGATHER);
}
static void test_alltoall(void) {
    check_kind(COLL_ALLTOALL);
}
static void test_reduce_scatter(void) {
    check_kind(COLL_REDUCE_SCATTER);
}
static void test_scan(void) {
    check_kind(COLL_SCAN);
    check_kind(COLL_EXSCAN);
}

TEST_LIST(coll_tests) = {
    {"coll.selector_mpich_nonblocking", test_selector_mpich_nonblocking},
    {"coll.selector_mpich_sweep", test_selector_mpich_sweep},
    {"coll.selector_allgatherv", test_selector_allgatherv},
    {"coll.barrier", test_barrier},
    {"coll.bcast", test_bcast},
    {"coll.reduce", test_reduce},
    {"coll.allreduce", test_allreduce},
    {"coll.gather", test_gather},
    {"coll.scatter", test_scatter},
    {"coll.allgather", test_allgather},
    {"coll.alltoall", test_alltoall},
    {"coll.reduce_scatter", test_reduce_scatter},
    {"coll.scan", test_scan},
    {"coll.log2_floor", test_log2_floor},
    {"coll.fixed_defaults", test_fixed_defaults},
    {"coll.variable_counts", test_variable_counts},
    {"coll.selector_mpich", test_selector_mpich},
    {"coll.selector_ompi", test_selector_ompi},
    TEST_END,
};
