/* SPDX-License-Identifier: BSD-3-Clause */
/* Context creation and switching, stack allocation with guard pages or
 * canaries. See context.h. */
#include "online/context.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/alloc.h"

#if defined(__SANITIZE_ADDRESS__)
#define SIMPI_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SIMPI_ASAN 1
#endif
#endif

#ifdef SIMPI_ASAN
void __sanitizer_start_switch_fiber(void **fake_stack_save, const void *bottom, size_t size);
void __sanitizer_finish_switch_fiber(void *fake_stack_save, const void **bottom_old,
                                     size_t *size_old);
void __asan_unpoison_memory_region(const volatile void *addr, size_t size);
#endif

#if (defined(__x86_64__) || defined(__aarch64__)) && !defined(SIMPI_FORCE_UCONTEXT)
#define SIMPI_ASM_SWITCH 1
void simpi_ctx_swap(void **save_sp, void *load_sp);
void simpi_ctx_start(void);
void simpi_call_on_stack(void (*fn)(void *), void *arg, void *top);
#else
#include <ucontext.h>
#endif

#ifdef SIMPI_ASM_SWITCH
const char *ctx_implementation(void) {
#if defined(__x86_64__)
    return "x86-64 assembly";
#else
    return "aarch64 assembly";
#endif
}

void ctx_init(struct ctx *c, void *stack, size_t size, ctx_entry entry, void *arg) {
    memset(c, 0, sizeof *c);
    c->stack_lo = stack;
    c->stack_size = size;
    uintptr_t top = ((uintptr_t)stack + size) & ~(uintptr_t)15;
#if defined(__x86_64__)
    /* From the top: return address (simpi_ctx_start), rbp, rbx, r12 = arg,
     * r13 = entry, r14, r15, then the control-word slot. */
    uint64_t *sp = (uint64_t *)top; /* rsp is 16-byte aligned at simpi_ctx_start */
    *--sp = (uint64_t)(uintptr_t)simpi_ctx_start;
    *--sp = 0;                          /* rbp */
    *--sp = 0;                          /* rbx */
    *--sp = (uint64_t)(uintptr_t)arg;   /* r12 */
    *--sp = (uint64_t)(uintptr_t)entry; /* r13 */
    *--sp = 0;                          /* r14 */
    *--sp = 0;                          /* r15 */
    *--sp = 0x037F00001F80ull;          /* mxcsr 0x1F80, x87 control word 0x037F */
    c->sp = sp;
#else
    uint64_t *sp = (uint64_t *)(top - 160);
    memset(sp, 0, 160);
    sp[0] = (uint64_t)(uintptr_t)entry;            /* x19 */
    sp[1] = (uint64_t)(uintptr_t)arg;              /* x20 */
    sp[11] = (uint64_t)(uintptr_t)simpi_ctx_start; /* x30: the "return" address */
    c->sp = sp;
#endif
}

static void raw_switch(struct ctx *from, struct ctx *to) {
    simpi_ctx_swap(&from->sp, to->sp);
}

/* Below the saved stack pointer: the registers the switch pushed lie above
 * it; the gap keeps clear of anything a signal frame or a red zone of the
 * suspended side might still claim. */
#define CALL_BELOW_GAP 512

bool ctx_calls_below(void) {
#ifndef SIMPI_ASAN
    return true;
#else
    return false;
#endif
}

void ctx_call_below(const struct ctx *below, void (*fn)(void *), void *arg) {
#ifndef SIMPI_ASAN
    if (below->sp) {
        uintptr_t top = ((uintptr_t)below->sp - CALL_BELOW_GAP) & ~(uintptr_t)15;
        simpi_call_on_stack(fn, arg, (void *)top);
        return;
    }
#else
    (void)below; /* AddressSanitizer would take the other stack for an overflow */
#endif
    fn(arg);
}
#else
const char *ctx_implementation(void) {
    return "ucontext (fallback)";
}

static void start_thunk(unsigned hi_e, unsigned lo_e, unsigned hi_a, unsigned lo_a) {
    ctx_entry entry = (ctx_entry)(((uintptr_t)hi_e << 32) | lo_e);
    void *arg = (void *)(((uintptr_t)hi_a << 32) | lo_a);
    entry(arg);
    abort();
}

void ctx_init(struct ctx *c, void *stack, size_t size, ctx_entry entry, void *arg) {
    memset(c, 0, sizeof *c);
    c->stack_lo = stack;
    c->stack_size = size;
    ucontext_t *u = xcalloc(1, sizeof *u);
    getcontext(u);
    u->uc_stack.ss_sp = stack;
    u->uc_stack.ss_size = size;
    uintptr_t e = (uintptr_t)entry, a = (uintptr_t)arg;
    makecontext(u, (void (*)(void))start_thunk, 4, (unsigned)(e >> 32), (unsigned)e,
                (unsigned)(a >> 32), (unsigned)a);
    c->fallback = u;
}

static void raw_switch(struct ctx *from, struct ctx *to) {
    if (!from->fallback) from->fallback = xcalloc(1, sizeof(ucontext_t));
    swapcontext(from->fallback, to->fallback);
}

bool ctx_calls_below(void) {
    return false;
}

void ctx_call_below(const struct ctx *below, void (*fn)(void *), void *arg) {
    (void)below;
    fn(arg);
}
#endif

#ifdef SIMPI_ASAN
/* Switches go between the thread's own stack and rank stacks; AddressSanitizer
 * must be told each time, and the thread stack's bounds are learnt when a
 * rank context first runs. Per thread: a rank's threads switch too, to wait
 * while the main thread runs their MPI calls (thread_calls.c). */
static __thread const void *thread_stack_lo;
static __thread size_t thread_stack_size;
#endif

void ctx_entered(void) {
#ifdef SIMPI_ASAN
    __sanitizer_finish_switch_fiber(NULL, &thread_stack_lo, &thread_stack_size);
#endif
}

void ctx_switch(struct ctx *from, struct ctx *to) {
#ifdef SIMPI_ASAN
    void *fake = NULL;
    const void *lo = to->stack_lo ? to->stack_lo : thread_stack_lo;
    size_t size = to->stack_lo ? to->stack_size : thread_stack_size;
    __sanitizer_start_switch_fiber(&fake, lo, size);
    raw_switch(from, to);
    const void *prev_lo;
    size_t prev_size;
    __sanitizer_finish_switch_fiber(fake, &prev_lo, &prev_size);
    if (from->stack_lo && !thread_stack_lo) { /* back from the thread's own stack, once */
        thread_stack_lo = prev_lo;
        thread_stack_size = prev_size;
    }
#else
    raw_switch(from, to);
#endif
}

static size_t page_size(void) {
    long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? (size_t)p : 4096;
}

bool stacks_guards_affordable(int64_t n) {
    long max = 65530;
    FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
    if (f) {
        if (fscanf(f, "%ld", &max) != 1) max = 65530;
        fclose(f);
    }
    /* each guard splits the mapping: about 2 map entries per stack */
    return 2 * n + 4096 < max;
}

bool stacks_alloc(struct stacks *st, int64_t n, size_t size, bool guards) {
    size_t pg = page_size();
    memset(st, 0, sizeof *st);
    st->size = (size + pg - 1) / pg * pg;
    st->guard = guards ? STACK_GUARD_BYTES : 0;
    st->stride = st->size + st->guard + pg; /* + a page: stacks do not alias in the TLB */
    st->n = n;
    st->guards = guards;
    st->total = st->stride * (size_t)n;
    void *m = mmap(NULL, st->total, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) return false;
#ifdef SIMPI_ASAN
    /* a mapping at the place of freed stacks: their contexts that never
     * returned left their frames' red zones poisoned there */
    __asan_unpoison_memory_region(m, st->total);
#endif
    st->base = m;
    for (int64_t i = 0; guards && i < n; i++)
        if (mprotect(st->base + (size_t)i * st->stride, st->guard, PROT_NONE) != 0) {
            munmap(m, st->total);
            st->base = NULL;
            return false;
        }
    return true;
}

void stacks_free(struct stacks *st) {
    if (st->base) munmap(st->base, st->total);
    memset(st, 0, sizeof *st);
}

void *stacks_at(const struct stacks *st, int64_t i) {
    return st->base + (size_t)i * st->stride + st->guard; /* [guard][stack][pad] */
}

/* Whether the words of [from, to) (8-byte aligned) in the page at `page`
 * are all zero: a page never written is (and is not read, mincore). */
static bool page_part_zero(const char *page, size_t pg, const char *from, const char *to) {
    unsigned char in_core = 0;
    if (mincore((void *)page, pg, &in_core) == 0 && !(in_core & 1)) return true;
    uint64_t any = 0;
    for (const char *p = from; p < to; p += sizeof any) {
        uint64_t w;
        memcpy(&w, p, sizeof w);
        any |= w;
    }
    return any == 0;
}

/* Without guard regions, what lies below a stack's usable part is never
 * written by a rank that stays within its stack: the 64 bytes ctx_init
 * leaves out (it is given stacks_at + 64) and the pad page above the stack
 * of the rank below, which a frame passing through writes at least a
 * return address into. They must still read as zero. Nothing is written
 * there first (a canary word written there cost a page of memory per
 * rank), and a page never written is not read either: reading it would
 * map it, which cost 8 KiB a rank of resident memory and twice the page
 * faults on a 2^15-rank run (mincore says which pages were written). */
bool stacks_canary_intact(const struct stacks *st, int64_t i) {
    if (st->guards) return true;
    size_t pg = page_size();
    const char *bottom = stacks_at(st, i);
    const char *from = i > 0 ? bottom - (st->stride - st->size) : bottom;
    const char *to = bottom + 64;
    while (from < to) { /* page by page: the pad page, then the stack's bottom one */
        const char *page = st->base + (size_t)(from - st->base) / pg * pg;
        const char *end = page + pg < to ? page + pg : to;
        if (!page_part_zero(page, pg, from, end)) return false;
        from = end;
    }
    return true;
}

bool stacks_sp_within(const struct stacks *st, int64_t i, const struct ctx *c) {
    return st->guards || !c->sp || (const char *)c->sp >= (const char *)stacks_at(st, i) + 64;
}

bool stacks_sp_at_bottom(const struct stacks *st, int64_t i, uintptr_t sp) {
    uintptr_t guard_top = (uintptr_t)(st->base + (size_t)i * st->stride + st->guard);
    return sp < guard_top + 64 * 1024;
}

int64_t stacks_guard_owner(const struct stacks *st, const void *addr) {
    const char *a = addr;
    if (!st->base || a < st->base || a >= st->base + st->total) return -1;
    size_t off = (size_t)(a - st->base);
    int64_t i = (int64_t)(off / st->stride);
    /* in the guard region, or so close to the bottom that the canary was hit */
    return off % st->stride < st->guard + 64 ? i : -1;
}
