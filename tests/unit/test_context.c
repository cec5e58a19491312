/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests for execution contexts: switching back and forth, callee-saved
 * state and floating point across switches, stack alignment, many contexts
 * from one mapping, guard-page arithmetic and canaries. */
#include <stdint.h>
#include <stdio.h>

#include "online/context.h"
#include "test.h"

static struct ctx main_ctx, ctxs[3];
static int trail[32], ntrail;

struct arg {
    int id;
    double x;
};

static int aligned_ok = 1;

static void worker(void *p) {
    ctx_entered();
    struct arg *a = p;
    double local = a->x; /* kept across switches */
    _Alignas(16) char probe[16];
    aligned_ok &= ((uintptr_t)probe % 16) == 0;
    char buf[64];
    for (int round = 0; round < 3; round++) {
        trail[ntrail++] = a->id * 10 + round;
        local *= 2.0;
        snprintf(buf, sizeof buf, "%.1f", local); /* varargs with doubles need alignment */
        ctx_switch(&ctxs[a->id], &main_ctx);
    }
    a->x = local;
    trail[ntrail++] = a->id * 10 + 9;
    ctx_switch(&ctxs[a->id], &main_ctx);
}

static void test_switching(void) {
    struct stacks st;
    CHECK(stacks_alloc(&st, 3, 64 * 1024, true));
    struct arg args[3] = {{0, 1.0}, {1, 1.5}, {2, 3.0}};
    for (int i = 0; i < 3; i++)
        ctx_init(&ctxs[i], stacks_at(&st, i), st.size, worker, &args[i]);
    ntrail = 0;
    volatile double here = 7.25;
    for (int round = 0; round < 4; round++)
        for (int i = 0; i < 3; i++)
            ctx_switch(&main_ctx, &ctxs[i]);
    CHECK(here == 7.25);
    CHECK_EQ_INT(ntrail, 12);
    /* rounds interleave: 0,10,20, 1,11,21, 2,12,22, 9,19,29 */
    int want[12] = {0, 10, 20, 1, 11, 21, 2, 12, 22, 9, 19, 29};
    for (int i = 0; i < 12; i++)
        CHECK_EQ_INT(trail[i], want[i]);
    CHECK(args[0].x == 8.0 && args[1].x == 12.0 && args[2].x == 24.0); /* x * 2^3 */
    CHECK(aligned_ok);
    stacks_free(&st);
}

static void test_stacks(void) {
    struct stacks st;
    CHECK(stacks_alloc(&st, 1000, 10000, false));
    CHECK(st.size % 4096 == 0 && st.size >= 10000);
    char *a = stacks_at(&st, 0), *b = stacks_at(&st, 1);
    CHECK((size_t)(b - a) == st.stride);
    CHECK(stacks_canary_intact(&st, 5)); /* nothing written below the stack */
    ((char *)stacks_at(&st, 5))[63] = 1; /* an overflow reaching the bytes below it */
    CHECK(!stacks_canary_intact(&st, 5));
    CHECK(stacks_canary_intact(&st, 4) && stacks_canary_intact(&st, 6));
    ((char *)stacks_at(&st, 5))[63] = 0;
    CHECK(stacks_canary_intact(&st, 5));
    /* rank 7's frames passing through the pad page above rank 6's stack */
    ((char *)stacks_at(&st, 7))[-100] = 1;
    CHECK(!stacks_canary_intact(&st, 7));
    CHECK(stacks_canary_intact(&st, 6)); /* its own stack is intact */
    ((char *)stacks_at(&st, 7))[-100] = 0;
    ((char *)stacks_at(&st, 6))[st.size - 1] = 1; /* rank 6's top byte: its own */
    CHECK(stacks_canary_intact(&st, 6) && stacks_canary_intact(&st, 7));
    stacks_free(&st);
    CHECK(stacks_alloc(&st, 4, 8192, true));
    char *guard2 = (char *)stacks_at(&st, 2) - 100; /* inside rank 2's guard page */
    CHECK_EQ_INT(stacks_guard_owner(&st, guard2), 2);
    CHECK_EQ_INT(stacks_guard_owner(&st, (char *)stacks_at(&st, 2) + 4000), -1);
    CHECK_EQ_INT(stacks_guard_owner(&st, &st), -1);
    stacks_free(&st);
    CHECK(stacks_guards_affordable(1000));
    CHECK(!stacks_guards_affordable(1000000));
}

/* ctx_call_below: a context calls a function on the stack of the one it
 * switched from (its frames there, below that one's saved stack pointer,
 * not on its own stack), gets its result, and goes on on its own stack. */
static struct ctx below_main, below_worker;
static struct stacks below_stacks;
static uintptr_t below_frame, worker_frame_before, worker_frame_after;
static int below_result;

static void on_below(void *p) {
    int local = *(int *)p;
    below_frame = (uintptr_t)&local;
    *(int *)p = local * 3;
}

static void below_entry(void *p) {
    ctx_entered();
    (void)p;
    int v = 14;
    worker_frame_before = (uintptr_t)&v;
    ctx_call_below(&below_main, on_below, &v);
    below_result = v;
    int w = 0;
    worker_frame_after = (uintptr_t)&w;
    ctx_switch(&below_worker, &below_main);
}

static void test_call_below(void) {
    CHECK(stacks_alloc(&below_stacks, 1, 64 * 1024, true));
    char *lo = stacks_at(&below_stacks, 0), *hi = lo + below_stacks.size;
    ctx_init(&below_worker, lo, below_stacks.size, below_entry, NULL);
    below_frame = 0;
    ctx_switch(&below_main, &below_worker);
    CHECK_EQ_INT(below_result, 42);
    uintptr_t main_sp = (uintptr_t)below_main.sp;
    bool in_worker = below_frame >= (uintptr_t)lo && below_frame < (uintptr_t)hi;
    CHECK(worker_frame_before >= (uintptr_t)lo && worker_frame_before < (uintptr_t)hi);
    CHECK(worker_frame_after >= (uintptr_t)lo && worker_frame_after < (uintptr_t)hi);
    if (ctx_calls_below()) {
        CHECK(!in_worker);                                            /* on the main stack, */
        CHECK(below_frame < main_sp && below_frame > main_sp - 4096); /* just below its sp */
    } else {
        CHECK(in_worker); /* a plain call */
    }
    stacks_free(&below_stacks);
}

TEST_LIST(context_tests) = {
    {"context.switching", test_switching},
    {"context.call_below", test_call_below},
    {"context.stacks", test_stacks},
    TEST_END,
};
