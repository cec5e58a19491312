/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests for the engine: time order, deterministic tie-breaking by
 * (rank, kind, per-rank sequence), pools. */
#include "core/engine.h"
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/heap.h"
#include "core/pool.h"
#include "core/workers.h"
#include "test.h"

static int order[4000], norder;

static void record(void *ctx, const struct event *ev) {
    (void)ctx;
    order[norder++] = (int)(intptr_t)ev->arg;
}

static void test_order(void) {
    struct engine e;
    engine_init(&e, 4);
    engine_register(&e, 0, record, NULL);
    norder = 0;
    /* Inserted out of order: expected order by time, then rank, then sequence. */
    engine_schedule(&e, 30, 0, 0, 0, (void *)(intptr_t)5);
    engine_schedule(&e, 10, 3, 0, 0, (void *)(intptr_t)3);
    engine_schedule(&e, 10, 1, 0, 0, (void *)(intptr_t)1);
    engine_schedule(&e, 10, 3, 0, 0, (void *)(intptr_t)4);
    engine_schedule(&e, 10, 2, 0, 0, (void *)(intptr_t)2);
    engine_schedule(&e, 5, 3, 0, 0, (void *)(intptr_t)0);
    engine_run(&e);
    CHECK_EQ_INT(norder, 6);
    for (int i = 0; i < 6; i++)
        CHECK_EQ_INT(order[i], i);
    CHECK_EQ_INT(e.now, 30);
    CHECK_EQ_INT(e.events_run, 6);
    engine_destroy(&e);
}

/* A rank's events at one time run by kind, then in scheduling order,
 * whatever the order in which the kinds were scheduled. */
static void test_kind_order(void) {
    struct engine e;
    engine_init(&e, 2);
    engine_register(&e, 0, record, NULL);
    engine_register(&e, 1, record, NULL);
    engine_register(&e, 2, record, NULL);
    norder = 0;
    engine_schedule(&e, 10, 1, 2, 0, (void *)(intptr_t)3);
    engine_schedule(&e, 10, 1, 0, 0, (void *)(intptr_t)1);
    engine_schedule(&e, 10, 0, 2, 0, (void *)(intptr_t)0); /* rank 0 first */
    engine_schedule(&e, 10, 1, 0, 0, (void *)(intptr_t)2);
    engine_schedule(&e, 10, 1, 2, 0, (void *)(intptr_t)4);
    engine_run(&e);
    CHECK_EQ_INT(norder, 5);
    for (int i = 0; i < 5; i++)
        CHECK_EQ_INT(order[i], i);
    engine_destroy(&e);
}

static simtime_t last_seen;
static int monotonic = 1;
static void check_mono(void *ctx, const struct event *ev) {
    (void)ctx;
    monotonic &= ev->time >= last_seen;
    last_seen = ev->time;
}

static void test_monotonic(void) {
    struct engine e;
    engine_init(&e, 8);
    engine_register(&e, 0, check_mono, NULL);
    uint64_t x = 99;
    for (int i = 0; i < 5000; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        engine_schedule(&e, (simtime_t)(x >> 44), (int32_t)(x % 8), 0, 0, NULL);
    }
    last_seen = 0;
    engine_run(&e);
    CHECK(monotonic);
    CHECK_EQ_INT(e.events_run, 5000);
    engine_destroy(&e);
}

/* An event scheduled before now (issue 70, invariants): a release build
 * moves it to now, as before; debug and sanitizer builds stop with an
 * internal error naming it (a child process, whose end is checked). */
static void at_30(void *ctx, const struct event *ev) {
    struct engine *e = ctx;
    if (ev->arg) engine_schedule(e, 10, 1, 0, 0, NULL); /* once: 20 ps in the past */
}

#ifndef NDEBUG
/* In a child: a run whose event schedules one before now. */
static void late_event_run(void) {
    struct engine e;
    engine_init(&e, 2);
    engine_register(&e, 0, at_30, &e);
    engine_schedule(&e, 30, 0, 0, 0, &e);
    engine_run(&e);
}
#endif

static void test_past_event(void) {
#ifdef NDEBUG
    struct engine e;
    engine_init(&e, 2);
    engine_register(&e, 0, at_30, &e);
    engine_schedule(&e, 30, 0, 0, 0, &e);
    engine_run(&e);
    CHECK_EQ_INT(e.now, 30); /* the late one ran at 30, not at 10 */
    CHECK_EQ_INT(e.events_run, 2);
    engine_destroy(&e);
#else
    char err[512];
    int st = test_in_child(late_event_run, err, sizeof err);
    CHECK(st != -1 && WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT);
    CHECK_CONTAINS(err, "scheduled at 10 ps, before now (30 ps)");
#endif
}

/* The lane and the heap together: events scheduled in order (a run's
 * first, then wake-ups that advance) mixed with events out of order, some
 * scheduled while the run goes, come out in strictly increasing (time,
 * rank, kind, sequence), every one of them. */
struct lane_check {
    struct engine *e;
    uint64_t x;
    int run, scheduled;
    bool increasing;
    simtime_t last_time;
    uint64_t last_order;
    uint32_t last_seq;
};

static void lane_event(void *ctx, const struct event *ev) {
    struct lane_check *c = ctx;
    if (c->run++)
        c->increasing &=
            ev->time > c->last_time ||
            (ev->time == c->last_time &&
             (ev->order > c->last_order || (ev->order == c->last_order && ev->seq > c->last_seq)));
    c->last_time = ev->time;
    c->last_order = ev->order;
    c->last_seq = ev->seq;
    if (c->scheduled >= 20000) return;
    c->x = c->x * 6364136223846793005ull + 1442695040888963407ull;
    int32_t rank = (int32_t)(c->x >> 60) % 8;
    uint32_t kind = (uint32_t)(c->x >> 33) % 2;
    simtime_t later = (simtime_t)(c->x >> 54) % 3 == 0 ? 0 : (simtime_t)(c->x >> 40) % 1000;
    if (!later) { /* now: after this event, so its rank with the last kind */
        rank = event_rank(ev, 8);
        kind = 1;
    }
    engine_schedule(c->e, c->e->now + later, rank, kind, 0, NULL);
    c->scheduled++;
}

static void test_lane(void) {
    struct engine e;
    engine_init(&e, 8);
    struct lane_check c = {&e, 7, 0, 0, true, 0, 0, 0};
    engine_register(&e, 0, lane_event, &c);
    engine_register(&e, 1, lane_event, &c);
    for (int r = 0; r < 8; r++) /* in order: the lane */
        engine_schedule(&e, 0, r, 0, 0, NULL);
    for (int i = 0; i < 3000; i++) { /* ascending runs and jumps back */
        simtime_t t = (simtime_t)(i % 100) * 50 + (i / 100);
        engine_schedule(&e, t, i % 8, (uint32_t)i % 2, 0, NULL);
    }
    c.scheduled = 3008;
    CHECK(e.lane_n > 0 && e.size > 0); /* both in use */
    engine_run(&e);
    CHECK(c.increasing);
    CHECK_EQ_INT(c.run, 20000);
    CHECK_EQ_INT(engine_next_time(&e), SIMTIME_NEVER);
    engine_destroy(&e);
}

/* The lane's ring grows while its events wrap round its end: they keep
 * their order. */
static void test_lane_grows(void) {
    struct engine e;
    engine_init(&e, 2);
    engine_register(&e, 0, record, NULL);
    norder = 0;
    for (int i = 0; i < 1000; i++) /* 1,024 places */
        engine_schedule(&e, i, i % 2, 0, 0, (void *)(intptr_t)i);
    CHECK(engine_run_until(&e, 700)); /* the head at 700 */
    for (int i = 1000; i < 4000; i++) /* wraps, then grows twice */
        engine_schedule(&e, i, i % 2, 0, 0, (void *)(intptr_t)i);
    CHECK(e.lane_cap == 4096 && e.size == 0);
    engine_run(&e);
    bool in_order = norder == 4000;
    for (int i = 0; i < norder; i++)
        in_order &= order[i] == i;
    CHECK(in_order);
    engine_destroy(&e);
}

/* A large lane mostly taken moves to smaller rings, its events in order. */
static int64_t shrink_next;
static bool shrink_in_order;
static void lane_count(void *ctx, const struct event *ev) {
    (void)ctx;
    shrink_in_order &= (int64_t)(intptr_t)ev->arg == shrink_next++;
}

static void test_lane_shrinks(void) {
    struct engine e;
    engine_init(&e, 1);
    engine_register(&e, 0, lane_count, NULL);
    shrink_next = 0;
    shrink_in_order = true;
    for (int i = 0; i < 300000; i++) /* room for 2^19 */
        engine_schedule(&e, i, 0, 0, 0, (void *)(intptr_t)i);
    CHECK(e.lane_cap == 1 << 19);
    CHECK(engine_run_until(&e, 250000)); /* 50,000 left: below 2^17 / 4 no more */
    CHECK(e.lane_cap == 1 << 17);
    for (int i = 300000; i < 400000; i++)
        engine_schedule(&e, i, 0, 0, 0, (void *)(intptr_t)i);
    engine_run(&e);
    CHECK(shrink_in_order);
    CHECK_EQ_INT(shrink_next, 400000);
    CHECK_EQ_INT(e.room_peak, 1024 + (1 << 19)); /* the heap's first room and the lane's */
    engine_destroy(&e);
}

/* Windows: the events before each window's end run, the clock then stands
 * at the end, and an event scheduled from outside at that time runs in
 * the next window, in the usual order. */
static void test_windows(void) {
    struct engine e;
    engine_init(&e, 4);
    engine_register(&e, 0, record, NULL);
    norder = 0;
    engine_schedule(&e, 25, 0, 0, 0, (void *)(intptr_t)3);
    engine_schedule(&e, 10, 2, 0, 0, (void *)(intptr_t)1);
    engine_schedule(&e, 9, 3, 0, 0, (void *)(intptr_t)0);
    engine_schedule(&e, 20, 1, 0, 0, (void *)(intptr_t)2);
    CHECK(engine_run_until(&e, 10)); /* [0, 10): only the event at 9 */
    CHECK_EQ_INT(norder, 1);
    CHECK_EQ_INT(e.now, 10);
    CHECK_EQ_INT(engine_next_time(&e), 10);
    CHECK(engine_run_until(&e, 20)); /* [10, 20) */
    CHECK_EQ_INT(norder, 2);
    engine_schedule(&e, 20, 0, 0, 0, (void *)(intptr_t)5); /* from outside: before rank 1's */
    CHECK(engine_run_until(&e, 30));
    CHECK_EQ_INT(norder, 5);
    CHECK_EQ_INT(order[2], 5);
    CHECK_EQ_INT(order[3], 2);
    CHECK_EQ_INT(order[4], 3);
    CHECK_EQ_INT(engine_next_time(&e), SIMTIME_NEVER);
    CHECK(engine_run_until(&e, 40)); /* an empty window moves the clock */
    CHECK_EQ_INT(e.now, 40);
    engine_destroy(&e);
}

/* Workers: what each receives in a window is what the others queued for it
 * in that window, in the order (sender, queued), with the least of their
 * next times. */
struct seen {
    int me, window, got[8];
    bool ordered;
};

static void take(void *ctx, int from, const void *msg, uint32_t len) {
    struct seen *sn = ctx;
    int v[3]; /* from, window, index; the fourth message of each is 20000 bytes */
    memcpy(v, msg, sizeof v);
    sn->ordered &= len == (v[2] == 3 ? 20000u : sizeof v);
    sn->ordered &= v[0] == from && v[1] == sn->window && v[2] == sn->got[from]++;
}

static void test_workers_exchange(void) {
    struct sim_error err = {0};
    struct workers *w = workers_fork(3, &err);
    CHECK(w != NULL);
    if (!w) return;
    struct seen sn = {.me = workers_me(w), .ordered = true};
    bool all = true;
    for (sn.window = 0; sn.window < 40 && all; sn.window++) {
        memset(sn.got, 0, sizeof sn.got);
        for (int to = 0; to < 3; to++) /* window n: me + n messages to each, some large */
            for (int i = 0; to != sn.me && i < sn.me + sn.window; i++) {
                char big[20000] = {0};
                int v[3] = {sn.me, sn.window, i};
                memcpy(big, v, sizeof v);
                workers_post(w, to, big, i == 3 ? sizeof big : sizeof v);
            }
        simtime_t least;
        all = workers_exchange(w, 100 * sn.window + 10 * sn.me + 7, &least, take, &sn, &err);
        all &= least == 100 * sn.window + 7; /* worker 0's */
        for (int from = 0; from < 3; from++)
            all &= from == sn.me || sn.got[from] == from + sn.window;
    }
    CHECK(all);
    CHECK(sn.ordered);
    bool ended = workers_end(w, test_failures != 0, &err); /* the others exit here */
    CHECK(ended);
}

/* A worker killed mid-run ends the exchange in every other with a message
 * naming it, and the first worker says how it died. */
static void test_workers_killed(void) {
    struct sim_error err = {0};
    struct workers *w = workers_fork(3, &err);
    CHECK(w != NULL);
    if (!w) return;
    bool ok = true;
    int window = 0;
    for (; window < 20 && ok; window++) {
        if (window == 5 && workers_me(w) == 2) raise(SIGKILL);
        simtime_t least;
        ok = workers_exchange(w, window, &least, take, &(struct seen){0}, &err);
    }
    if (workers_me(w) != 0) workers_end(w, ok ? 0 : 3, &err); /* exits */
    CHECK(!ok);
    CHECK_EQ_INT(window, 6); /* the exchange of window 5 failed */
    CHECK_CONTAINS(err.msg, "worker 2 was killed by SIGKILL");
    struct sim_error end_err = {0};
    CHECK(workers_end(w, 0, &end_err)); /* reaped already */
}

/* Keys pushed in a scrambled order (i * 7919 mod 1000: each of 0..999 once)
 * come out 0, 1, 2, ... 999; an element's payload travels with its key. */
struct keyed {
    long key;
    int payload;
};

static bool keyed_before(const void *a, const void *b) {
    return ((const struct keyed *)a)->key < ((const struct keyed *)b)->key;
}

static void test_heap(void) {
    struct heap h;
    heap_init(&h, sizeof(struct keyed), keyed_before);
    for (int i = 0; i < 1000; i++) {
        struct keyed e = {(long)i * 7919 % 1000, i};
        heap_push(&h, &e);
    }
    bool sorted = true, carried = true;
    for (long want = 0; want < 1000; want++) {
        struct keyed e;
        heap_pop(&h, &e);
        sorted &= e.key == want;
        carried &= (long)e.payload * 7919 % 1000 == e.key;
    }
    CHECK(sorted);
    CHECK(carried);
    CHECK(h.n == 0);
    heap_free(&h);
}

static void test_pool(void) {
    struct pool p;
    pool_init(&p, 40, 4);
    void *a[10];
    for (int i = 0; i < 10; i++)
        a[i] = pool_get(&p);
    CHECK_EQ_INT(p.live, 10);
    CHECK(p.nchunks == 2);       /* chunks double: 4 + 8 objects */
    for (int i = 1; i < 10; i++) /* distinct, non-overlapping objects */
        for (int j = 0; j < i; j++) {
            long d = (char *)a[i] - (char *)a[j];
            CHECK(d >= 40 || d <= -40);
        }
    for (int i = 0; i < 10; i++)
        pool_put(&p, a[i]);
    void *b = pool_get(&p);
    CHECK(b == a[9]); /* reuses the last freed object */
    CHECK_EQ_INT(p.peak, 10);
#ifdef SIMPI_POOL_POISON /* sanitizer builds: a free object is unaddressable past its link */
    CHECK(__asan_address_is_poisoned((char *)a[8] + sizeof(void *)));
    CHECK(!__asan_address_is_poisoned(a[8]));
    CHECK(!__asan_address_is_poisoned((char *)b + 39)); /* handed out again: all of it */
    struct pool kept;
    pool_init(&kept, 40, 4);
    pool_keep_freed_readable(&kept);
    void *k = pool_get(&kept);
    pool_put(&kept, k);
    CHECK(!__asan_address_is_poisoned((char *)k + 39));
    pool_destroy(&kept);
#endif
    pool_destroy(&p);
}

TEST_LIST(engine_tests) = {
    {"engine.order", test_order},
    {"engine.kind_order", test_kind_order},
    {"engine.monotonic", test_monotonic},
    {"engine.past_event", test_past_event},
    {"engine.lane", test_lane},
    {"engine.lane_grows", test_lane_grows},
    {"engine.lane_shrinks", test_lane_shrinks},
    {"engine.windows", test_windows},
    {"engine.workers_exchange", test_workers_exchange},
    {"engine.workers_killed", test_workers_killed},
    {"engine.pool", test_pool},
    {"engine.heap", test_heap},
    TEST_END, /* one per line */
};
