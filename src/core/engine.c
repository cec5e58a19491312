/* SPDX-License-Identifier: BSD-3-Clause */
/* Engine: a 4-ary min-heap of events keyed by (time, rank, kind, seq). */
#include "core/engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/pool.h"
#include "core/ranktable.h"

/* Room for cap events. The 4 children of event i are 4i + 1 to 4i + 4, 128
 * bytes: with heap[1] on a 128-byte boundary each event's children are two
 * cache lines, where they straddled three (a heap of a million ranks'
 * events misses at every level it goes down). */
#define HEAP_ALIGN 128
static void heap_room(struct engine *e, size_t cap) {
    _Static_assert(HEAP_ALIGN % sizeof(struct event) == 0, "events tile the alignment");
    size_t lead = HEAP_ALIGN - sizeof(struct event); /* heap[0] just before the boundary */
    size_t bytes = (lead + sizeof(struct event) * cap + HEAP_ALIGN - 1) / HEAP_ALIGN * HEAP_ALIGN;
    char *mem = xrealloc_aligned(e->heap_mem, lead + sizeof *e->heap * e->size, bytes, HEAP_ALIGN);
    e->heap_mem = mem;
    e->heap = (struct event *)(mem + lead);
    e->cap = cap;
}

void engine_init(struct engine *e, int32_t nranks) {
    memset(e, 0, sizeof *e);
    e->nranks = nranks;
    e->rank_seq = ranktable_alloc((size_t)nranks + 1, sizeof *e->rank_seq);
    heap_room(e, 1024);
}

void engine_destroy(struct engine *e) {
    free(e->heap_mem);
    ranktable_free(e->rank_seq, (size_t)e->nranks + 1, sizeof *e->rank_seq);
    memset(e, 0, sizeof *e);
}

uint32_t engine_register(struct engine *e, uint32_t kind, event_handler fn, void *ctx) {
    e->handlers[kind] = fn;
    e->handler_ctx[kind] = ctx;
    return kind;
}

/* (time, rank, kind) in one comparison of two 128-bit numbers (times are
 * never negative), where three compared in turn took a branch each that
 * the processor could not foresee: a run starts with every rank's event
 * at time 0. */
static inline bool before(const struct event *a, const struct event *b) {
    unsigned __int128 x = (unsigned __int128)(uint64_t)a->time << 64 | a->order;
    unsigned __int128 y = (unsigned __int128)(uint64_t)b->time << 64 | b->order;
    return x < y || (x == y && a->seq < b->seq);
}

void engine_schedule(struct engine *e, simtime_t t, int32_t rank, uint32_t kind, uint32_t gen,
                     void *arg) {
    if (t < e->now) t = e->now;
    if (e->size == e->cap) heap_room(e, 2 * e->cap);
    uint32_t slot = rank >= 0 && rank < e->nranks ? (uint32_t)rank : (uint32_t)e->nranks;
    struct event ev = {t, (uint64_t)slot << 32 | kind, e->rank_seq[slot]++, gen, arg};
    size_t i = e->size++;
    while (i > 0) {
        size_t parent = (i - 1) / 4;
        if (!before(&ev, &e->heap[parent])) break;
        e->heap[i] = e->heap[parent];
        i = parent;
    }
    e->heap[i] = ev;
}

static void pop_top(struct engine *e) {
    struct event last = e->heap[--e->size];
    size_t i = 0, n = e->size;
    for (;;) {
        size_t c = 4 * i + 1;
        if (c >= n) break;
        size_t best = c, end = c + 4 < n ? c + 4 : n;
        for (size_t k = c + 1; k < end; k++)
            if (before(&e->heap[k], &e->heap[best])) best = k;
        if (!before(&e->heap[best], &last)) break;
        e->heap[i] = e->heap[best];
        i = best;
    }
    e->heap[i] = last;
}

volatile sig_atomic_t engine_wall_expired;
static void (*wall_hook)(void);

static void on_wall_limit(int sig) {
    (void)sig;
    engine_wall_expired = 1;
    if (wall_hook) wall_hook();
}

bool engine_wall_limit(double seconds, void (*hook)(void)) {
    int sig = SIGRTMIN + 1; /* not SIGALRM: the program's own alarm() keeps it */
    wall_hook = hook;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_wall_limit;
    sa.sa_flags = SA_RESTART;
    struct sigevent sev;
    memset(&sev, 0, sizeof sev);
    sev.sigev_notify = SIGEV_SIGNAL;
    sev.sigev_signo = sig;
    timer_t timer;
    double whole = (double)(long long)seconds;
    struct itimerspec when = {{0, 0}, {(time_t)whole, (long)((seconds - whole) * 1e9)}};
    if (when.it_value.tv_sec == 0 && when.it_value.tv_nsec == 0) when.it_value.tv_nsec = 1;
    return sigaction(sig, &sa, NULL) == 0 && timer_create(CLOCK_MONOTONIC, &sev, &timer) == 0 &&
           timer_settime(timer, 0, &when, NULL) == 0;
}

/* The next two events, while the current one runs: a rank's state was
 * last touched many ranks ago, so each of its loads is a cache miss unless
 * asked for ahead. The event after next (the least of the root's
 * children) gets the first stage (the rank's tables), the next event the
 * second (what those tables point to, read by then). */
static void warm_next(struct engine *e) {
    if (!e->size) return;
    e->warm(e->warm_ctx, &e->heap[0], 1);
    size_t end = e->size < 5 ? e->size : 5, best = 1;
    if (end <= 1) return;
    for (size_t k = 2; k < end; k++)
        if (before(&e->heap[k], &e->heap[best])) best = k;
    e->warm(e->warm_ctx, &e->heap[best], 0);
}

/* Runs the events before `end` (all of them: SIMTIME_NEVER). */
static void run_before(struct engine *e, simtime_t end) {
    e->stop = false;
    while (e->size > 0 && !e->stop && e->heap[0].time < end) {
        if (engine_wall_expired || (e->limit && e->heap[0].time > e->limit)) {
            e->limited = engine_wall_expired ? ENGINE_WALL_LIMIT : ENGINE_TIME_LIMIT;
            return;
        }
        struct event ev = e->heap[0];
        pop_top(e);
        if (e->warm) warm_next(e);
        e->now = e->last_event = ev.time;
        e->events_run++;
        uint32_t kind = event_kind(&ev);
        e->handlers[kind](e->handler_ctx[kind], &ev);
        if (e->tick && e->events_run % ENGINE_TICK_EVENTS == 0) e->tick(e->tick_ctx);
    }
}

void engine_run(struct engine *e) {
    run_before(e, SIMTIME_NEVER);
}

bool engine_run_until(struct engine *e, simtime_t end) {
    run_before(e, end);
    if (e->stop || e->limited) return false;
    if (e->now < end) e->now = end;
    return true;
}

simtime_t engine_next_time(const struct engine *e) {
    return e->size ? e->heap[0].time : SIMTIME_NEVER;
}

void engine_stop(struct engine *e) {
    e->stop = true;
}
