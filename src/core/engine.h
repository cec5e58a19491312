/* SPDX-License-Identifier: BSD-3-Clause */
/* The discrete-event engine: a virtual clock and an event queue ordered by
 * (time, target rank, kind, that rank's sequence number), so that equal-time
 * events run in an order that does not depend on insertion order across
 * ranks (DESIGN 4.2): a rank's events at one time run by kind (the lower
 * number first), then in the order they were scheduled. One OS thread runs
 * everything (DESIGN 4.3). */
#ifndef SIMPI_ENGINE_H
#define SIMPI_ENGINE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/simtime.h"

/* 32 bytes: a million-rank run keeps one per rank in the queue. The time
 * and `order` are compared as one 128-bit number, then `seq`. */
struct event {
    simtime_t time; /* >= 0 */
    uint64_t order; /* rank slot (high 32 bits), then kind (the handler's index) */
    uint32_t seq;   /* the rank's sequence number: the last tie-break */
    uint32_t gen;   /* free for the handler (e.g. to drop stale wake-ups) */
    void *arg;
};

/* The rank an event was scheduled for, -1 for none. */
static inline int32_t event_rank(const struct event *ev, int32_t nranks) {
    int32_t slot = (int32_t)(ev->order >> 32);
    return slot < nranks ? slot : -1;
}

static inline uint32_t event_kind(const struct event *ev) {
    return (uint32_t)ev->order;
}

typedef void (*event_handler)(void *ctx, const struct event *ev);

#define ENGINE_MAX_KINDS 8

struct engine {
    simtime_t now;
    struct event *heap; /* heap[1] on a 128-byte boundary (engine.c, heap_room) */
    void *heap_mem;     /* what holds it */
    size_t size, cap;
    /* Events scheduled in order (none before the last one there) wait in
     * this ring instead of the heap: taken and put back in constant time
     * (engine.c, "the lane") */
    struct event *lane;
    size_t lane_head, lane_n, lane_cap; /* lane_cap: 0 or a power of two */
    size_t room_peak;                   /* the most events of room held at once */
    uint32_t *rank_seq;                 /* per-rank sequence counters */
    int32_t nranks;
    event_handler handlers[ENGINE_MAX_KINDS];
    void *handler_ctx[ENGINE_MAX_KINDS];
    uint64_t events_run;
    simtime_t last_event; /* the time of the last event run */
    bool stop;
    simtime_t limit; /* no event past it (--time-limit); 0: none */
    int limited;     /* why the run stopped early: ENGINE_TIME_LIMIT, ENGINE_WALL_LIMIT */
    /* called every ENGINE_TICK_EVENTS events (progress display), or NULL */
    void (*tick)(void *ctx);
    void *tick_ctx;
    /* Before an event runs, asks for the memory the events after it will
     * touch: warm(ctx, ev, 1) for the next event, warm(ctx, ev, 0) for the
     * one after (engine.c's warm_next); or NULL */
    void (*warm)(void *ctx, const struct event *ev, int stage);
    void *warm_ctx;
};

#define ENGINE_TICK_EVENTS 65536
#define ENGINE_TIME_LIMIT 1
#define ENGINE_WALL_LIMIT 2

/* Set (by a timer's signal handler) when --wall-limit has passed: every
 * engine stops at its next event. */
extern volatile sig_atomic_t engine_wall_expired;
/* Starts the --wall-limit timer: after seconds of wall-clock time, sets
 * engine_wall_expired and calls hook (from a signal handler; NULL: none).
 * False if no timer could be made. */
bool engine_wall_limit(double seconds, void (*hook)(void));

void engine_init(struct engine *e, int32_t nranks);
void engine_destroy(struct engine *e);
uint32_t engine_register(struct engine *e, uint32_t kind, event_handler fn, void *ctx);
/* Schedules an event at time t (>= now) for rank. */
void engine_schedule(struct engine *e, simtime_t t, int32_t rank, uint32_t kind, uint32_t gen,
                     void *arg);
/* Runs events until the queue is empty or engine_stop is called. */
void engine_run(struct engine *e);
/* Runs the events of the next instant (the next event's time, and those
 * they schedule then), as engine_run would; true if events remain (and
 * nothing stopped the run): a caller may interleave engines, each run an
 * instant at a time. */
bool engine_run_instant(struct engine *e);
void engine_stop(struct engine *e);
/* Runs the events before `end`, then sets the clock to `end`: a window of
 * a split run (docs/architecture.md), after which events may be scheduled
 * at `end` or later from outside. False if the run stopped (engine_stop,
 * a limit) before. */
bool engine_run_until(struct engine *e, simtime_t end);
/* The time of the next event, SIMTIME_NEVER if none. */
simtime_t engine_next_time(const struct engine *e);

#endif
