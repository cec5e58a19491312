/* SPDX-License-Identifier: BSD-3-Clause */
/* The `ompi` selector against Open MPI 4.1's decision functions, written
 * out here separately from src/mpi/coll/select.c's tables: each function
 * below follows the if/else chain of ompi/mca/coll/tuned/
 * coll_tuned_decision_fixed.c (v4.1.4; commutative operations) and
 * returns Open MPI's algorithm number, which a per-operation table turns
 * into the simpi algorithm that stands for it (docs/collectives.md); the
 * non-blocking rules follow ompi/mca/coll/libnbc/nbc_i*.c. The sweep
 * covers every communicator size from 2 to 1,024 and sizes from 0 to
 * 16 MiB: each power of two and its neighbours, and each threshold of the
 * tables and its neighbours (coll_sweep_sizes). */
#include <stdint.h>

#include "mpi/coll/coll.h"
#include "test.h"

/* Open MPI's numbers -> simpi's algorithms (index 0 unused). */
static const char *const allreduce_algs[] = {
    NULL,   "reduce_bcast",   "reduce_bcast", "recursive_doubling",
    "ring", "ring_segmented", "rabenseifner"};
static const char *const alltoall_algs[] = {NULL,    "linear", "pairwise",
                                            "bruck", "linear", "pairwise"};
static const char *const barrier_algs[] = {
    NULL, "linear", NULL, "recursive_doubling", "dissemination", NULL, "binomial"};
static const char *const bcast_algs[] = {NULL,       "linear",   "pipeline",
                                         "pipeline", "binomial", "binomial",
                                         "binomial", "binomial", "scatter_rd_allgather"};
static const char *const reduce_algs[] = {NULL,       "linear",   "pipeline", "pipeline",
                                          "binomial", "binomial", "binomial", "rabenseifner"};
static const char *const redscat_algs[] = {NULL, "nonoverlapping", "recursive_halving", "ring",
                                           "recursive_halving"};
static const char *const redscat_block_algs[] = {NULL, "nonoverlapping", "recursive_doubling",
                                                 "recursive_halving", "recursive_halving"};
static const char *const allgather_algs[] = {NULL,
                                             "linear",
                                             "bruck",
                                             "recursive_doubling",
                                             "ring",
                                             "neighbor_exchange",
                                             "recursive_doubling"};
static const char *const gather_algs[] = {NULL, "linear", "binomial", "linear_sync"};
static const char *const scatter_algs[] = {NULL, "linear", "binomial", "linear"};

/* First threshold t[i] that s is below gives a[i]; a[count] otherwise. */
static int by_size(int64_t s, const int64_t *t, const int *a, int count) {
    for (int i = 0; i < count; i++)
        if (s < t[i]) return a[i];
    return a[count];
}
#define PICK(s, t, a) by_size(s, t, a, (int)(sizeof t / sizeof t[0]))

static int ompi_allreduce(int p, int64_t s) {
    if (p < 4) {
        static const int64_t t[] = {8, 4096, 8192, 16384, 65536, 262144};
        static const int a[] = {4, 3, 4, 3, 4, 5, 6};
        return PICK(s, t, a);
    }
    if (p < 8) return s < 16 ? 4 : s < 8192 ? 3 : 6;
    if (p < 16) return s < 8192 ? 3 : 6;
    if (p < 32) return s < 64 ? 5 : s < 4096 ? 3 : 6;
    if (p < 64) return s < 128 ? 5 : 6;
    if (p < 128) return s < 262144 ? 3 : 6;
    if (p < 256) return s < 131072 ? 2 : s < 262144 ? 3 : 6;
    if (p < 512) return s < 4096 ? 2 : 6;
    return s < 2048 ? 2 : s < 16384 ? 3 : 6; /* p < 2048 */
}

static int ompi_alltoall(int p, int64_t s) {
    if (p == 2) {
        static const int64_t t[] = {2, 4, 16, 64, 256, 4096, 32768, 262144, 1048576};
        static const int a[] = {2, 5, 2, 5, 2, 5, 2, 4, 5, 2};
        return PICK(s, t, a);
    }
    if (p < 8) {
        static const int64_t t[] = {8192, 16384, 65536, 524288, 1048576};
        static const int a[] = {4, 1, 4, 1, 2, 1};
        return PICK(s, t, a);
    }
    if (p < 16) return s < 262144 ? 4 : 1;
    if (p < 32) {
        static const int64_t t[] = {4, 512, 8192, 32768, 262144, 524288};
        static const int a[] = {4, 3, 4, 1, 4, 1, 4};
        return PICK(s, t, a);
    }
    if (p < 64) return s < 512 ? 3 : s < 524288 ? 1 : 4;
    if (p < 128) {
        static const int64_t t[] = {1024, 2048, 4096, 262144};
        static const int a[] = {3, 1, 4, 1, 2};
        return PICK(s, t, a);
    }
    if (p < 256) return s < 1024 ? 3 : s < 2048 ? 4 : s < 262144 ? 1 : 2;
    if (p < 512) return s < 1024 ? 3 : s < 8192 ? 4 : s < 32768 ? 1 : 2;
    if (p < 1024) {
        static const int64_t t[] = {512, 8192, 16384, 131072, 262144};
        static const int a[] = {3, 4, 1, 4, 1, 2};
        return PICK(s, t, a);
    }
    static const int64_t t[] = {512, 1024, 2048, 16384, 262144}; /* p < 2048 */
    static const int a[] = {3, 4, 1, 4, 1, 4};
    return PICK(s, t, a);
}

static int ompi_barrier(int p) {
    if (p < 4) return 3;
    if (p < 8) return 1;
    if (p < 64) return 3;
    if (p < 256) return 4;
    if (p < 512) return 6;
    if (p < 1024) return 4;
    return 6; /* p < 4096 */
}

static int ompi_bcast(int p, int64_t s) {
    if (p < 4) {
        static const int64_t t[] = {32, 256, 512, 1024, 32768, 131072, 262144, 524288, 1048576};
        static const int a[] = {3, 5, 3, 7, 1, 5, 2, 1, 6, 5};
        return PICK(s, t, a);
    }
    if (p < 8) {
        static const int64_t t[] = {64, 128, 2048, 8192, 1048576};
        static const int a[] = {5, 6, 5, 6, 1, 2};
        return PICK(s, t, a);
    }
    if (p < 16) {
        static const int64_t t[] = {8, 64, 4096, 16384, 32768};
        static const int a[] = {7, 5, 7, 5, 6, 1};
        return PICK(s, t, a);
    }
    if (p < 32) return s < 4096 ? 7 : s < 1048576 ? 6 : 8;
    if (p < 64) return s < 2048 ? 6 : 7;
    if (p < 128) return 7;
    if (p < 256) {
        static const int64_t t[] = {2, 16384, 32768, 65536};
        static const int a[] = {6, 5, 1, 5, 7};
        return PICK(s, t, a);
    }
    if (p < 1024) return s < 16384 ? 7 : s < 32768 ? 4 : 7;
    return s < 524288 ? 7 : 8; /* p < 2048 */
}

static int ompi_reduce(int p, int64_t s) {
    if (p < 4) {
        static const int64_t t[] = {8, 16, 32, 262144, 524288, 1048576};
        static const int a[] = {7, 4, 3, 1, 3, 2, 3};
        return PICK(s, t, a);
    }
    if (p < 8) {
        static const int64_t t[] = {4096, 65536, 262144, 524288, 1048576};
        static const int a[] = {4, 2, 5, 1, 5, 1};
        return PICK(s, t, a);
    }
    if (p < 16) return s < 8192 ? 4 : 5;
    if (p < 32) return s < 4096 ? 4 : 5;
    if (p < 256) return 5;
    if (p < 512) return s < 8192 ? 5 : s < 16384 ? 6 : 5;
    return 5; /* p < 2048 */
}

/* s: the whole vector (the sum of the blocks) */
static int ompi_reduce_scatter(int p, int64_t s) {
    if (p < 4) return s < 65536 ? 3 : s < 131072 ? 4 : 3;
    if (p < 8) return s < 8 ? 1 : s < 262144 ? 2 : 3;
    if (p < 32) return s < 262144 ? 2 : 3;
    if (p < 64) return s < 64 ? 1 : s < 2048 ? 2 : s < 524288 ? 4 : 3;
    if (p < 128) {
        static const int64_t t[] = {256, 512, 2048, 4096};
        static const int a[] = {1, 2, 4, 2, 4};
        return PICK(s, t, a);
    }
    if (p < 256) return s < 256 ? 1 : s < 512 ? 2 : 4;
    if (p < 512) return s < 256 ? 1 : s < 1024 ? 2 : 4;
    if (p < 1024) {
        static const int64_t t[] = {512, 2048, 8192, 16384};
        static const int a[] = {1, 2, 4, 2, 4};
        return PICK(s, t, a);
    }
    static const int64_t t[] = {512, 4096, 16384, 32768}; /* p < 2048 */
    static const int a[] = {1, 2, 4, 2, 4};
    return PICK(s, t, a);
}

/* s: the block */
static int ompi_reduce_scatter_block(int p, int64_t s) {
    if (p < 4) {
        static const int64_t t[] = {4, 8, 16, 128, 256, 4096, 8192, 131072};
        static const int a[] = {2, 4, 3, 4, 3, 4, 3, 4, 1};
        return PICK(s, t, a);
    }
    if (p < 8) {
        static const int64_t t[] = {8, 32, 256, 8192, 16384, 1048576};
        static const int a[] = {3, 2, 4, 3, 4, 3, 1};
        return PICK(s, t, a);
    }
    if (p < 16) {
        static const int64_t t[] = {4, 32, 128, 524288, 4194304};
        static const int a[] = {1, 3, 4, 3, 1, 4};
        return PICK(s, t, a);
    }
    if (p < 32) {
        static const int64_t t[] = {32, 524288, 2097152, 4194304};
        static const int a[] = {1, 3, 1, 3, 4};
        return PICK(s, t, a);
    }
    static const int64_t t[] = {4, 16, 65536, 262144};
    static const int a[] = {3, 1, 4, 1, 4};
    return PICK(s, t, a);
}

static int ompi_allgather(int p, int64_t s) {
    if (p == 2) return 6;
    if (p < 32) return 3;
    if (p < 64) return s < 1024 ? 3 : s < 65536 ? 5 : 4;
    if (p < 128) return s < 512 ? 3 : s < 65536 ? 5 : 4;
    if (p < 256) {
        static const int64_t t[] = {512, 131072, 524288, 1048576};
        static const int a[] = {3, 5, 4, 5, 4};
        return PICK(s, t, a);
    }
    if (p < 512) {
        static const int64_t t[] = {32, 128, 1024, 131072, 524288, 1048576};
        static const int a[] = {3, 2, 3, 5, 4, 5, 4};
        return PICK(s, t, a);
    }
    if (p < 1024) return s < 64 ? 3 : s < 256 ? 2 : s < 2048 ? 3 : 5;
    static const int64_t t[] = {4, 8, 16, 32, 256, 512, 4096}; /* p < 2048 */
    static const int a[] = {3, 2, 3, 2, 3, 2, 3, 5};
    return PICK(s, t, a);
}

static int ompi_gather(int p, int64_t s) {
    if (p < 4) {
        static const int64_t t[] = {2, 4, 32768, 65536, 131072};
        static const int a[] = {3, 1, 2, 1, 2, 3};
        return PICK(s, t, a);
    }
    if (p < 8) {
        static const int64_t t[] = {1024, 8192, 32768, 262144};
        static const int a[] = {2, 1, 2, 1, 3};
        return PICK(s, t, a);
    }
    if (p < 256) return 2;
    if (p < 512) return s < 2048 ? 2 : s < 8192 ? 1 : 2;
    return 2;
}

static int ompi_scatter(int p, int64_t s) {
    if (p < 4) return s < 2 ? 3 : s < 131072 ? 1 : s < 262144 ? 3 : 1;
    if (p < 8) {
        static const int64_t t[] = {2048, 4096, 8192, 32768, 1048576};
        static const int a[] = {2, 1, 2, 1, 3, 1};
        return PICK(s, t, a);
    }
    if (p < 16) return s < 16384 ? 2 : s < 1048576 ? 3 : 1;
    if (p < 32) return s < 16384 ? 2 : s < 32768 ? 1 : 3;
    if (p < 64) return s < 512 ? 2 : s < 8192 ? 3 : s < 16384 ? 2 : 3;
    return s < 512 ? 2 : 3;
}

static bool is_pow2(int p) {
    return (p & (p - 1)) == 0;
}

/* Open MPI 4.1's blocking choice for a collective of s bytes per rank (the
 * block of a reduce_scatter), as the simpi algorithm standing for it. */
static const char *ompi_blocking(enum coll_kind k, int p, int64_t s, bool block_form) {
    switch (k) {
    case COLL_BARRIER:
        return barrier_algs[ompi_barrier(p)];
    case COLL_BCAST:
        return bcast_algs[ompi_bcast(p, s)];
    case COLL_REDUCE:
        return reduce_algs[ompi_reduce(p, s)];
    case COLL_ALLREDUCE:
        return allreduce_algs[ompi_allreduce(p, s)];
    case COLL_GATHER:
        return gather_algs[ompi_gather(p, s)];
    case COLL_SCATTER:
        return scatter_algs[ompi_scatter(p, s)];
    case COLL_ALLGATHER: { /* its recursive doubling falls back to Bruck */
        const char *a = allgather_algs[ompi_allgather(p, s)];
        return !strcmp(a, "recursive_doubling") && !is_pow2(p) ? "bruck" : a;
    }
    case COLL_ALLTOALL:
        return alltoall_algs[ompi_alltoall(p, s)];
    case COLL_REDUCE_SCATTER:
        return block_form ? redscat_block_algs[ompi_reduce_scatter_block(p, s)]
                          : redscat_algs[ompi_reduce_scatter(p, s * p)];
    default: /* scan, exscan: coll/basic */
        return "linear";
    }
}

/* libnbc (nbc_ibcast.c, nbc_iallreduce.c, nbc_ireduce.c, ...): count in
 * doubles, pof2 the largest power of two <= p. */
static const char *ompi_libnbc(enum coll_kind k, int p, int64_t s) {
    int64_t count = s / 8, pof2 = 1;
    while (pof2 * 2 <= p)
        pof2 *= 2;
    switch (k) {
    case COLL_BARRIER:
        return "dissemination";
    case COLL_BCAST:
        if (p <= 4) return "linear";
        return s < 65536 ? "binomial" : "pipeline"; /* chain */
    case COLL_ALLREDUCE:
        if (p < 4 || s < 65536) return "reduce_bcast"; /* binomial */
        return count >= pof2 ? "rabenseifner" : "ring";
    case COLL_REDUCE:
        if (p > 2 && count >= pof2) return "rabenseifner";
        if (p > 4 || s < 65536) return "binomial";
        return "pipeline"; /* chain */
    case COLL_REDUCE_SCATTER:
        return "nonoverlapping";
    default:
        return "linear";
    }
}

static void test_selector_ompi_sweep(void) {
    static const int64_t marks[] = {2,       4,     8,      16,     32,     64,      128,
                                    256,     512,   1024,   2048,   4096,   8192,    16384,
                                    32768,   65536, 131072, 262144, 524288, 1048576, 2097152,
                                    4194304, 3000,  12288,  20480,  370728, 10000};
    struct coll_config cfg = {.selector = COLL_SEL_OMPI, .segment = 65536, .window = 32};
    int wrong = 0;
    long checked = 0;
    enum { NMARKS = sizeof marks / sizeof marks[0] };
    for (int32_t n = 2; n <= 1024; n++) {
        int64_t sizes[COLL_SWEEP_SIZES(NMARKS)];
        int ns = coll_sweep_sizes(n, marks, NMARKS, sizes);
        for (int i = 0; i < ns; i++)
            for (int k = 0; k < COLL_KINDS; k++)
                for (unsigned how = 0; how < 4; how++) {
                    if ((how & COLL_CALL_SCATTER_BLOCK) && k != COLL_REDUCE_SCATTER) continue;
                    const char *want = how & COLL_CALL_NONBLOCKING
                                           ? ompi_libnbc((enum coll_kind)k, n, sizes[i])
                                           : ompi_blocking((enum coll_kind)k, n, sizes[i],
                                                           how & COLL_CALL_SCATTER_BLOCK);
                    const struct coll_algo *a =
                        coll_select_call(&cfg, (enum coll_kind)k, n, sizes[i], how);
                    checked++;
                    if (want && a && !strcmp(a->name, want)) continue;
                    if (wrong++ < 8)
                        fprintf(stderr, "  ompi %s%s%s on %d ranks of %lld B: got %s, want %s\n",
                                how & COLL_CALL_NONBLOCKING ? "i" : "",
                                sim_coll_name((enum coll_kind)k),
                                how & COLL_CALL_SCATTER_BLOCK ? "_block" : "", n,
                                (long long)sizes[i], a ? a->name : "NULL", want ? want : "NULL");
                }
    }
    CHECK_EQ_INT(wrong, 0);
    CHECK(checked > 5000000); /* 1,023 communicator sizes x 211 sizes x 24 calls */
}

const struct test_case coll_ompi_tests[] = {
    {"coll.selector_ompi_sweep", test_selector_ompi_sweep},
    TEST_END,
};
