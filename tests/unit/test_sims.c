/* SPDX-License-Identifier: BSD-3-Clause */
/* Two simulations in one process: each keeps its own state and its own
 * front-end hooks (sim_set_hooks), so run side by side, a few events of
 * one then of the other, each gives what it gives alone; times worked by
 * hand from the affine model (docs/models.md). */
#include <stdlib.h>

#include "mpi/sim.h"
#include "net/network.h"
#include "platform/platform.h"
#include "test.h"

#define US PS_PER_US
#define MAX_RANKS 4

/* A ring: rank r computes (r + 1) x compute, sends `size` bytes to r + 1
 * and receives from r - 1 (modulo n), waits for both, and finishes. */
struct ring {
    struct sim *sim;
    struct platform *plat;
    struct network net;
    int32_t n;
    int64_t size;
    simtime_t compute;
    int step[MAX_RANKS];
    char *sendbuf[MAX_RANKS], *recvbuf[MAX_RANKS];
    char *shadow[MAX_RANKS]; /* where the address hook says recvbuf lives, or NULL */
    struct sim_recv_target target[MAX_RANKS];
    int delivered; /* calls of this simulation's deliver hook */
};

static void ring_post(struct ring *g, int32_t r) {
    int32_t next = (r + 1) % g->n, prev = (r + g->n - 1) % g->n;
    snprintf(g->sendbuf[r], (size_t)g->size, "from %d", r);
    sim_isend_buf(g->sim, r, 0, next, 7, g->size, SEND_STANDARD, g->sendbuf[r]);
    g->target[r] = (struct sim_recv_target){.buf = g->recvbuf[r], .capacity = g->size, .owner = r};
    sim_irecv_buf(g->sim, r, 0, prev, 7, &g->target[r]);
}

static void ring_resume(void *ctx, int32_t r) {
    struct ring *g = ctx;
    for (;;) {
        switch (g->step[r]++) {
        case 0:
            if (!sim_compute(g->sim, r, g->compute * (r + 1))) return;
            break;
        case 1:
            ring_post(g, r);
            if (!sim_wait(g->sim, r, NULL, 0, false)) return;
            break;
        default:
            sim_finish(g->sim, r);
            return;
        }
    }
}

static void count_delivery(void *ctx, const struct request *send, struct sim_recv_target *t) {
    (void)send;
    (void)t;
    ((struct ring *)ctx)->delivered++;
}

/* The address hook of a front end whose receive buffers live elsewhere
 * (as privatized globals do): recvbuf[r] is really shadow[r]. */
static void *to_shadow(void *ctx, int32_t owner, void *addr) {
    struct ring *g = ctx;
    return addr == g->recvbuf[owner] ? g->shadow[owner] : addr;
}

static void ring_make(struct ring *g, const char *yaml, int32_t n, int64_t size, simtime_t compute,
                      bool shadowed) {
    memset(g, 0, sizeof *g);
    g->n = n;
    g->size = size;
    g->compute = compute;
    for (int32_t r = 0; r < n; r++) {
        g->sendbuf[r] = calloc(1, (size_t)size);
        g->recvbuf[r] = calloc(1, (size_t)size);
        g->shadow[r] = shadowed ? calloc(1, (size_t)size) : NULL;
    }
    struct sim_error err = {0};
    g->plat = platform_load(test_write_temp(".yaml", yaml), NULL, 0, &err);
    CHECK(g->plat && network_init(&g->net, g->plat, &err));
    struct sim_driver drv = {.resume = ring_resume, .ctx = g};
    g->sim = sim_create(g->plat, &g->net, n, &drv, &err);
    CHECK(g->sim != NULL);
    if (err.set) fprintf(stderr, "%s\n", err.msg);
    struct sim_hooks hooks = {.ctx = g, .deliver = count_delivery};
    if (shadowed) hooks.address = to_shadow;
    sim_set_hooks(g->sim, &hooks);
}

static void ring_free(struct ring *g) {
    sim_destroy(g->sim);
    network_destroy(&g->net);
    platform_free(g->plat);
    for (int32_t r = 0; r < g->n; r++) {
        free(g->sendbuf[r]);
        free(g->recvbuf[r]);
        free(g->shadow[r]);
    }
}

/* Ring A: 4 nodes of one core, T(S) = 10us + S / 100 MB/s; 10,000 B
 * eager: 10us + 100us = 110us. Rank r computes 100us x (r + 1); its
 * message from r - 1 arrives at 100us x r + 110us (rank 0's from rank 3:
 * 400 + 110 = 510us), after its own send (100us x (r + 1)), so rank r
 * finishes at 210, 310, 410us (r = 1..3) and rank 0 at 510us. */
static const char *plat_a = "nodes: 4\ncores_per_node: 1\n"
                            "inter: {model: affine, latency: 10us, bandwidth: 100MB/s}\n"
                            "mpi: {eager_limit: 64KiB}\n";
static const simtime_t finish_a[] = {510 * US, 210 * US, 310 * US, 410 * US};
/* Ring B: 3 nodes, T(S) = 5us + S / 1 GB/s; 20,000 B: 5us + 20us =
 * 25us. Rank r computes 50us x (r + 1): rank 1's message arrives at 50 +
 * 25 = 75us, before its own send at 100us (it finishes at 100us); rank
 * 2's at 125us, before 150us (150us); rank 0's from rank 2 at 150 + 25 =
 * 175us. */
static const char *plat_b = "nodes: 3\ncores_per_node: 1\n"
                            "inter: {model: affine, latency: 5us, bandwidth: 1GB/s}\n"
                            "mpi: {eager_limit: 64KiB}\n";
static const simtime_t finish_b[] = {175 * US, 100 * US, 150 * US};

static void check_ring(const struct ring *g, const simtime_t *finish) {
    CHECK_EQ_INT(sim_status(g->sim), SIM_OK);
    for (int32_t r = 0; r < g->n; r++) {
        CHECK_EQ_INT(sim_rank_stats(g->sim, r)->finish, finish[r]);
        char want[32];
        snprintf(want, sizeof want, "from %d", (r + g->n - 1) % g->n);
        /* the data went where this simulation's address hook says */
        const char *got = g->shadow[r] ? g->shadow[r] : g->recvbuf[r];
        CHECK(strcmp(got, want) == 0);
        if (g->shadow[r]) CHECK(g->recvbuf[r][0] == 0);
    }
    CHECK_EQ_INT(g->delivered, g->n);
}

static void test_alone(void) {
    struct ring a, b;
    ring_make(&a, plat_a, 4, 10000, 100 * US, false);
    CHECK_EQ_INT(sim_run(a.sim), SIM_OK);
    check_ring(&a, finish_a);
    ring_free(&a);
    ring_make(&b, plat_b, 3, 20000, 50 * US, true);
    CHECK_EQ_INT(sim_run(b.sim), SIM_OK);
    check_ring(&b, finish_b);
    ring_free(&b);
}

/* Both alive at once, one event of each in turn, then a few of one and
 * one of the other: each as alone. */
static void test_interleaved(void) {
    for (uint64_t burst = 1; burst <= 3; burst += 2) {
        struct ring a, b;
        ring_make(&a, plat_a, 4, 10000, 100 * US, false);
        ring_make(&b, plat_b, 3, 20000, 50 * US, true);
        sim_begin(a.sim);
        sim_begin(b.sim);
        bool more_a = true, more_b = true;
        while (more_a || more_b) {
            if (more_a) more_a = sim_advance(a.sim, burst);
            if (more_b) more_b = sim_advance(b.sim, 1);
        }
        CHECK_EQ_INT(sim_end(a.sim), SIM_OK);
        CHECK_EQ_INT(sim_end(b.sim), SIM_OK);
        check_ring(&a, finish_a);
        check_ring(&b, finish_b);
        ring_free(&a);
        ring_free(&b);
    }
}

TEST_LIST(sims_tests) = {
    {"sims.alone", test_alone},
    {"sims.interleaved", test_interleaved},
    TEST_END,
};
