/* SPDX-License-Identifier: BSD-3-Clause */
/* Execution contexts for on-line simulation: every simulated rank runs on its
 * own stack in the one OS thread, and control passes between the scheduler
 * and ranks with a hand-written context switch (x86-64, aarch64; ucontext
 * elsewhere). Stacks come from one large mapping so that 100,000+ ranks do
 * not exhaust vm.max_map_count; guard pages are added when the map count
 * allows, and otherwise the 64 bytes below every stack, which must stay
 * zero, catch overflows. */
#ifndef SIMPI_CONTEXT_H
#define SIMPI_CONTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ctx {
    void *sp;       /* saved stack pointer (hand-written switch) */
    void *fallback; /* ucontext_t when the fallback is used */
    void *stack_lo; /* lowest usable address of the stack (NULL: the thread's own) */
    size_t stack_size;
};

typedef void (*ctx_entry)(void *arg);

/* Prepares c to run entry(arg) on [stack, stack + size) at its first switch.
 * entry must never return; it switches away for good instead. */
void ctx_init(struct ctx *c, void *stack, size_t size, ctx_entry entry, void *arg);
/* Must be the first call of every entry function (sanitizer bookkeeping). */
void ctx_entered(void);
/* Saves the current context into from and resumes to. */
void ctx_switch(struct ctx *from, struct ctx *to);
/* The name of the implementation in use ("x86-64 assembly", ...). */
const char *ctx_implementation(void);
/* Calls fn(arg) on the stack of `below`, a context switched away from (its
 * saved stack pointer, less a gap), and returns here: the simulator's work
 * of an MPI call runs on the scheduler's stack, which stays in the cache,
 * instead of the deep frames it would write on the rank's own, cold at
 * every call when ranks are many. fn must not switch contexts. A plain call
 * where the switch is not hand-written or under AddressSanitizer. */
void ctx_call_below(const struct ctx *below, void (*fn)(void *), void *arg);
/* Whether ctx_call_below changes stacks in this build (else a plain call). */
bool ctx_calls_below(void);

/* Stacks for n contexts of `size` bytes each (rounded up to pages), from one
 * mapping committed lazily (a page costs memory once touched); a guard
 * region below each when `guards` (see stacks_guards_affordable). */
/* Guard region below every stack: large enough that a frame of up to this
 * size that skips pages (code built without -fstack-clash-protection) still
 * faults instead of writing into the next rank's stack. Address space only:
 * it costs no memory. */
#define STACK_GUARD_BYTES ((size_t)256 * 1024)

struct stacks {
    char *base;
    size_t stride, size, guard, total;
    int64_t n;
    bool guards;
};

bool stacks_alloc(struct stacks *st, int64_t n, size_t size, bool guards);
void stacks_free(struct stacks *st);
void *stacks_at(const struct stacks *st, int64_t i); /* lowest usable address */
/* Whether n more guard pages keep the map count well under vm.max_map_count. */
bool stacks_guards_affordable(int64_t n);
/* Without guard regions, whether the 64 bytes below stack i's usable part
 * are still zero, as a rank within its stack leaves them: checked when a
 * rank finishes and at the end of the run (checking them at every switch
 * would touch a second page of every stack per switch: at 65,536 ranks with
 * 8 MiB stacks that tripled the run time). Nothing is written there first,
 * so a rank's bottom page costs no memory. */
bool stacks_canary_intact(const struct stacks *st, int64_t i);
/* Without guards, whether the stack pointer saved in c (hand-written switch)
 * lies inside stack i: checked at every switch, it touches no stack page. */
bool stacks_sp_within(const struct stacks *st, int64_t i, const struct ctx *c);
/* If addr lies in a guard page, the rank whose stack it guards; else -1. */
int64_t stacks_guard_owner(const struct stacks *st, const void *addr);
/* Whether a stack pointer sp of stack i's rank is at its bottom (within
 * 64 KiB of its guard, or below): a fault in the guard is then an
 * overflow, not an access past a buffer from higher up. */
bool stacks_sp_at_bottom(const struct stacks *st, int64_t i, uintptr_t sp);

#endif
