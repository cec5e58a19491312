/* SPDX-License-Identifier: BSD-3-Clause */
/* Landings: a front end's message that takes effect at a rank at a later
 * virtual time (sim_land). One-sided communication is built on them: an
 * operation, a lock request or a post reaches its target one control
 * latency after the call, and the target's node acts on it then.
 *
 * The order in which landings take effect does not depend on how the
 * engine interleaves ranks, nor on which worker of a split run sent them:
 * (time, target, origin, the origin's count). They wait in one heap in
 * that order, and each rank's EV_LAND event takes the heap's least: the
 * engine runs events by (time, rank) first, so the least landing is always
 * the running event's rank's, whichever of its events at that time runs. A
 * landing for a rank of another worker crosses there (part.c) and
 * enters its heap at the window's end, before its time comes: it lands no
 * sooner than the lookahead after it was sent. */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "mpi/land.h"
#include "mpi/part.h"
#include "mpi/sim_internal.h"

struct land {
    simtime_t at;
    int32_t target, origin;
    uint32_t seq, len;
    uint8_t kind; /* LAND_FRONT, or the MPI layer's own (io.c, pt2pt.c) */
    void *msg;
};

static bool land_before(const void *pa, const void *pb) {
    const struct land *a = pa, *b = pb;
    if (a->at != b->at) return a->at < b->at;
    if (a->target != b->target) return a->target < b->target;
    if (a->origin != b->origin) return a->origin < b->origin;
    return a->seq < b->seq;
}

void land_event(void *ctx, const struct event *ev) {
    struct sim *s = ctx;
    (void)ev;
    if (!s->land.queue.n) return;
    struct land l;
    heap_pop(&s->land.queue, &l);
    if (s->status != SIM_OK) {
        free(l.msg);
        return;
    }
    if (l.kind == LAND_FRONT && s->drv.land)
        s->drv.land(s->drv.ctx, l.target, l.origin, l.msg, l.len);
    else if (l.kind == LAND_STORAGE_REQUEST || l.kind == LAND_STORAGE_REPLY)
        io_land(s, l.kind, l.target, l.origin, l.msg, l.len);
    else if (l.kind == LAND_CANCEL_REQUEST || l.kind == LAND_CANCEL_REPLY)
        pt2pt_cancel_land(s, l.kind, l.target, l.msg, l.len);
    else if (l.kind == LAND_RMA_TARGET)
        rma_land(s, l.target, l.msg, l.len);
    else if (l.kind >= LAND_RMA_LOCK && l.kind <= LAND_RMA_COMPLETE)
        rma_sync_land(s, l.kind, l.target, l.msg, l.len);
    free(l.msg);
}

/* Keeps landing l until its time, when its rank's EV_LAND takes it. */
static void enqueue(struct sim *s, struct land l) {
    heap_push(&s->land.queue, &l);
    engine_schedule(&s->eng, l.at, l.target, EV_LAND, 0, NULL);
}

void land_accept(struct sim *s, int32_t origin, int32_t target, simtime_t at, uint32_t seq,
                 uint8_t kind, const void *msg, uint32_t len) {
    void *copy = xmalloc(len ? len : 1);
    memcpy(copy, msg, len);
    enqueue(s, (struct land){at, target, origin, seq, len, kind, copy});
}

void sim_land(struct sim *s, int32_t origin, int32_t target, simtime_t at,
              const struct sim_piece *pieces, int n) {
    land_post(s, origin, target, at, LAND_FRONT, pieces, n);
}

/* The origin's count of landings, and when one sent now lands. */
static uint32_t next_seq(struct sim *s, int32_t origin, simtime_t *at) {
    if (!s->land.seq) s->land.seq = xcalloc((size_t)s->nranks, sizeof *s->land.seq);
    if (*at < s->eng.now) *at = s->eng.now;
    return s->land.seq[origin]++;
}

void sim_land_owned(struct sim *s, int32_t origin, int32_t target, simtime_t at, void *msg,
                    uint32_t len) {
    uint32_t seq = next_seq(s, origin, &at);
    if (!sim_local(s, target)) {
        struct sim_piece one = {msg, len};
        s->split.cross->land(s, origin, target, at, seq, LAND_FRONT, &one, 1);
        free(msg);
        return;
    }
    enqueue(s, (struct land){at, target, origin, seq, len, LAND_FRONT, msg});
}

void land_post(struct sim *s, int32_t origin, int32_t target, simtime_t at, uint8_t kind,
               const struct sim_piece *pieces, int n) {
    uint32_t seq = next_seq(s, origin, &at);
    if (!sim_local(s, target)) {
        s->split.cross->land(s, origin, target, at, seq, kind, pieces, n);
        return;
    }
    size_t len = 0;
    for (int i = 0; i < n; i++)
        len += pieces[i].len;
    char *msg = xmalloc(len ? len : 1), *p = msg;
    for (int i = 0; i < n; i++) {
        if (pieces[i].len) memcpy(p, pieces[i].data, pieces[i].len);
        p += pieces[i].len;
    }
    enqueue(s, (struct land){at, target, origin, seq, (uint32_t)len, kind, msg});
}

void land_init(struct sim *s) {
    heap_init(&s->land.queue, sizeof(struct land), land_before);
}

void land_free_all(struct sim *s) {
    for (size_t i = 0; i < s->land.queue.n; i++)
        free(((struct land *)(void *)s->land.queue.v)[i].msg);
    heap_free(&s->land.queue);
    free(s->land.seq);
}
