/* SPDX-License-Identifier: BSD-3-Clause */
/* Engine: events keyed by (time, rank, kind, seq), in a 4-ary min-heap
 * beside a lane of those scheduled in order. */
#include "core/engine.h"
#include "core/invariant.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "core/error.h"
#include "core/ranktable.h"

/* Room for cap events. The 4 children of event i are 4i + 1 to 4i + 4, 128
 * bytes: with heap[1] on a 128-byte boundary each event's children are two
 * cache lines, where they straddled three (a heap of a million ranks'
 * events misses at every level it goes down). */
#define HEAP_ALIGN 128

/* The most events the heap and the lane had room for at once. */
static void note_room(struct engine *e) {
    if (e->cap + e->lane_cap > e->room_peak) e->room_peak = e->cap + e->lane_cap;
}

/* The queue's room, mappings of its own, given back to the system when
 * they move: malloc keeps a freed block once its threshold for mapping
 * has risen, 16 MB more at a million ranks when the heap grows late. */
static void *room_map(size_t bytes) {
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) err_fatal("out of memory for the queue of events");
    return p;
}

static void room_unmap(void *p, size_t bytes) {
    if (p) munmap(p, bytes);
}

/* The bytes of the heap's room for cap events (heap[0] at HEAP_LEAD). */
enum { HEAP_LEAD = HEAP_ALIGN - sizeof(struct event) }; /* heap[0] just before the boundary */
static size_t heap_bytes(size_t cap) {
    return cap ? HEAP_LEAD + sizeof(struct event) * cap : 0;
}

static void heap_room(struct engine *e, size_t cap) {
    _Static_assert(HEAP_ALIGN % sizeof(struct event) == 0, "events tile the alignment");
    char *mem = room_map(heap_bytes(cap)); /* on a page: heap[1] on a boundary */
    if (e->heap_mem) memcpy(mem, e->heap_mem, heap_bytes(e->size));
    room_unmap(e->heap_mem, heap_bytes(e->cap));
    e->heap_mem = mem;
    e->heap = (struct event *)(mem + HEAP_LEAD);
    e->cap = cap;
    note_room(e);
}

/* --- the lane ---
 * Most events are scheduled in order: a run's first (every rank's at time
 * 0, in rank order), and the wake-ups of a round as the ranks' clocks
 * advance. An event not before the lane's last waits at the lane's tail,
 * and the next event is the lesser of the lane's head and the heap's root:
 * the order of one heap of all (no two events have the same key), without
 * the heap's descent through levels, which a million ranks' events make a
 * cache miss each. */

static struct event *lane_at(const struct engine *e, size_t i) {
    return &e->lane[(e->lane_head + i) & (e->lane_cap - 1)];
}

/* Moves the lane's events to a ring of cap places, from its start. */
static void lane_move(struct engine *e, size_t cap) {
    struct event *lane = room_map(sizeof *lane * cap);
    for (size_t i = 0; i < e->lane_n; i++)
        lane[i] = *lane_at(e, i);
    room_unmap(e->lane, sizeof *e->lane * e->lane_cap);
    e->lane = lane;
    e->lane_head = 0;
    e->lane_cap = cap;
    note_room(e);
}

/* A lane that grew large (a million ranks' first events) and is three
 * quarters empty moves to a ring half as large, where its few events wait
 * among the next ones for the heap's room: what comes later is rarely as
 * many in order. */
enum { LANE_KEPT = 1 << 16, LANE_FIRST = 1 << 10 };

void engine_init(struct engine *e, int32_t nranks) {
    memset(e, 0, sizeof *e);
    e->nranks = nranks;
    e->rank_seq = ranktable_alloc((size_t)nranks + 1, sizeof *e->rank_seq);
    heap_room(e, 1024);
}

void engine_destroy(struct engine *e) {
    room_unmap(e->heap_mem, heap_bytes(e->cap));
    room_unmap(e->lane, sizeof *e->lane * e->lane_cap);
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

static void heap_push(struct engine *e, const struct event *ev) {
    if (e->size == e->cap) heap_room(e, 2 * e->cap);
    size_t i = e->size++;
    while (i > 0) {
        size_t parent = (i - 1) / 4;
        if (!before(ev, &e->heap[parent])) break;
        e->heap[i] = e->heap[parent];
        i = parent;
    }
    e->heap[i] = *ev;
}

void engine_schedule(struct engine *e, simtime_t t, int32_t rank, uint32_t kind, uint32_t gen,
                     void *arg) {
    /* debug and sanitizer builds: an event is never scheduled in the past */
    INVARIANT(t >= e->now, "an event (kind %u, rank %d) scheduled at %lld ps, before now (%lld ps)",
              kind, rank, (long long)t, (long long)e->now);
    if (t < e->now) t = e->now;
    uint32_t slot = rank >= 0 && rank < e->nranks ? (uint32_t)rank : (uint32_t)e->nranks;
    struct event ev = {t, (uint64_t)slot << 32 | kind, e->rank_seq[slot]++, gen, arg};
    if (e->lane_n && before(&ev, lane_at(e, e->lane_n - 1))) {
        heap_push(e, &ev);
        return;
    }
    if (e->lane_n == e->lane_cap) lane_move(e, e->lane_cap ? 2 * e->lane_cap : LANE_FIRST);
    *lane_at(e, e->lane_n++) = ev;
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

/* The next event, NULL if none. */
static const struct event *next_event(const struct engine *e) {
    if (!e->lane_n) return e->size ? &e->heap[0] : NULL;
    const struct event *l = lane_at(e, 0);
    return e->size && before(&e->heap[0], l) ? &e->heap[0] : l;
}

/* Takes the next event, `next` (next_event's answer), out of the lane or
 * the heap. */
static struct event take_next(struct engine *e, const struct event *next) {
    struct event ev;
    if (next == &e->heap[0]) {
        ev = e->heap[0];
        pop_top(e);
        return ev;
    }
    ev = *lane_at(e, 0);
    e->lane_head = (e->lane_head + 1) & (e->lane_cap - 1);
    if (--e->lane_n < e->lane_cap / 4 && e->lane_cap > LANE_KEPT) lane_move(e, e->lane_cap / 2);
    return ev;
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

/* The lesser of two events, either NULL. */
static const struct event *lesser(const struct event *a, const struct event *b) {
    if (!a) return b;
    if (!b) return a;
    return before(a, b) ? a : b;
}

/* The heap's event after its root (the least of the root's children). */
static const struct event *heap_second(const struct engine *e) {
    size_t end = e->size < 5 ? e->size : 5, best = 1;
    if (end <= 1) return NULL;
    for (size_t k = 2; k < end; k++)
        if (before(&e->heap[k], &e->heap[best])) best = k;
    return &e->heap[best];
}

/* The next two events, while the current one runs: a rank's state was
 * last touched many ranks ago, so each of its loads is a cache miss unless
 * asked for ahead. The event after next gets the first stage (the rank's
 * tables), the next event the second (what those tables point to, read by
 * then). */
static void warm_next(struct engine *e) {
    const struct event *first = next_event(e), *second;
    if (!first) return;
    const struct event *lane = e->lane_n ? lane_at(e, 0) : NULL;
    if (first == lane)
        second = lesser(e->lane_n > 1 ? lane_at(e, 1) : NULL, e->size ? &e->heap[0] : NULL);
    else
        second = lesser(lane, heap_second(e));
    e->warm(e->warm_ctx, first, 1);
    if (second) e->warm(e->warm_ctx, second, 0);
}

/* Runs the events before `end` (all of them: SIMTIME_NEVER). */
static void run_before(struct engine *e, simtime_t end) {
    e->stop = false;
    const struct event *next;
    while (!e->stop && (next = next_event(e)) && next->time < end) {
        if (engine_wall_expired || (e->limit && next->time > e->limit)) {
            e->limited = engine_wall_expired ? ENGINE_WALL_LIMIT : ENGINE_TIME_LIMIT;
            return;
        }
        struct event ev = take_next(e, next);
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

bool engine_run_instant(struct engine *e) {
    const struct event *next = next_event(e);
    if (!next) return false;
    simtime_t at = next->time;
    run_before(e, at == SIMTIME_NEVER ? at : at + 1);
    return !e->stop && !e->limited && next_event(e) != NULL;
}

bool engine_run_until(struct engine *e, simtime_t end) {
    run_before(e, end);
    if (e->stop || e->limited) return false;
    if (e->now < end) e->now = end;
    return true;
}

simtime_t engine_next_time(const struct engine *e) {
    const struct event *next = next_event(e);
    return next ? next->time : SIMTIME_NEVER;
}

void engine_stop(struct engine *e) {
    e->stop = true;
}
