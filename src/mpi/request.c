/* SPDX-License-Identifier: BSD-3-Clause */
/* Requests: their life (made, tracked by their owner, resolved with their
 * completion time, released and freed), the index of a rank's outstanding
 * requests by the id given at creation, and ranks' wake-ups. The bottom of
 * the MPI layer with status.c (docs/architecture.md, "The MPI layer's
 * layers"): a resolution reaches the layers above through the hooks they
 * set in struct sim (a collective schedule's step, a rank's wait). */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/invariant.h"
#include "mpi/part.h"
#include "mpi/record.h"
#include "mpi/sim_internal.h"

/* A request written whole (its other fields zero): a few stores, where
 * clearing it first with memset and then setting fields cost about 60
 * instructions a request. */
static struct request *request_make(struct sim *s, int32_t rank, uint32_t ctx, int kind,
                                    int32_t tag, int64_t size, simtime_t at) {
    struct request *r = pool_get_raw(&s->req_pool);
    *r = (struct request){.owner = rank,
                          .ctx = ctx,
                          .kind = (uint8_t)kind,
                          .tag = tag,
                          .size = size,
                          .post_time = at,
                          .user_id = -1,
                          .rec_id = -1};
    return r;
}

struct request *request_new(struct sim *s, int32_t rank, uint32_t ctx, int kind, int32_t tag,
                            int64_t size, simtime_t at) {
    struct request *r = request_make(s, rank, ctx, kind, tag, size, at);
    r->cpu_mark = s->ranks[rank].st.compute;
    return r;
}

struct request *request_new_standin(struct sim *s, int32_t rank, uint32_t ctx, int kind,
                                    int32_t tag, int64_t size, simtime_t at) {
    struct request *r = request_make(s, rank, ctx, kind, tag, size, at);
    r->cpu_mark = 0; /* its rank computes in its own worker (part.c then keeps a handle here) */
    return r;
}

static bool still_referenced(const struct request *r) {
    if (r->kind == REQ_SEND)
        return !(r->flags & RF_MATCHED) || (r->flags & RF_BSEND) || !(r->flags & RF_RESOLVED);
    return !(r->flags & RF_RESOLVED);
}

void request_maybe_free(struct sim *s, struct request *r) {
    if ((r->flags & RF_RELEASED) && !still_referenced(r)) pool_put(&s->req_pool, r);
}

void request_release(struct sim *s, struct request *r) {
    INVARIANT(!(r->flags & RF_RELEASED) || (r->flags & RF_RESOLVED),
              "rank %d's request (kind %d, tag %d) released twice before it completed", r->owner,
              r->kind, r->tag);
    r->flags |= RF_RELEASED;
    request_maybe_free(s, r);
}

/* --- the index of outstanding requests by the id given at creation (a
 * trace's req=ID): a lookup costs the same however many requests a rank
 * leaves outstanding --- */

static struct request id_gone_mark;
#define ID_GONE (&id_gone_mark)

static size_t id_slot_of(const struct sim *s, int32_t rank, int32_t id) {
    uint64_t h = (uint64_t)(uint32_t)rank << 32 | (uint32_t)id; /* splitmix64's mixing */
    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
    h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
    return (size_t)(h ^ (h >> 31)) & (s->idx.cap - 1);
}

static void ids_insert(struct sim *s, struct request *r) {
    size_t k = id_slot_of(s, r->owner, r->user_id);
    while (s->idx.slot[k].r && s->idx.slot[k].r != ID_GONE)
        k = (k + 1) & (s->idx.cap - 1);
    if (!s->idx.slot[k].r) s->idx.used++;
    s->idx.slot[k] = (struct id_slot){r, r->owner, r->user_id};
}

/* Rebuilds the index at least four times the live entries, dropping the
 * removed ones. */
static void ids_rebuild(struct sim *s) {
    struct id_slot *old = s->idx.slot;
    size_t old_cap = s->idx.cap, live = 0;
    for (size_t i = 0; i < old_cap; i++)
        live += old[i].r && old[i].r != ID_GONE;
    s->idx.cap = 64;
    while (s->idx.cap < 4 * (live + 1))
        s->idx.cap *= 2;
    s->idx.slot = xcalloc(s->idx.cap, sizeof *s->idx.slot);
    s->idx.used = 0;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].r && old[i].r != ID_GONE) ids_insert(s, old[i].r);
    free(old);
}

static struct id_slot *ids_find(const struct sim *s, int32_t rank, int32_t id) {
    if (!s->idx.cap) return NULL;
    for (size_t k = id_slot_of(s, rank, id); s->idx.slot[k].r; k = (k + 1) & (s->idx.cap - 1))
        if (s->idx.slot[k].r != ID_GONE && s->idx.slot[k].rank == rank && s->idx.slot[k].id == id)
            return &s->idx.slot[k];
    return NULL;
}

static void ids_add(struct sim *s, struct request *r) {
    if (r->user_id < 0) return;
    if (2 * (s->idx.used + 1) > s->idx.cap) ids_rebuild(s);
    ids_insert(s, r);
}

/* A rank's few outstanding requests are found by walking its list, newest
 * first; past this many, through the index. */
#define INDEX_FROM 32

void request_track(struct sim *s, struct request *r, int32_t user_id) {
    struct srank *me = &s->ranks[r->owner];
    r->user_id = user_id;
    r->flags |= RF_USER;
    r->onext = me->outstanding;
    me->outstanding = r;
    if (++me->noutstanding > INDEX_FROM && !me->indexed) {
        me->indexed = 1;
        for (struct request *q = me->outstanding; q; q = q->onext)
            ids_add(s, q);
    } else if (me->indexed) {
        ids_add(s, r);
    }
}

void request_untrack(struct sim *s, struct request *r) {
    struct srank *me = &s->ranks[r->owner];
    me->noutstanding--;
    if (!me->indexed) return;
    struct id_slot *e = r->user_id >= 0 ? ids_find(s, r->owner, r->user_id) : NULL;
    if (e && e->r == r) e->r = ID_GONE; /* (an on-line waitany renumbers without indexing) */
    if (me->noutstanding > 0) return;
    me->indexed = 0; /* none left in the index */
}

void request_resolve(struct sim *s, struct request *r, simtime_t done, simtime_t partner_time) {
    if (r->flags & RF_RESOLVED) return;
    if (done == SIMTIME_NEVER) { /* a time computed past the limit */
        sim_time_overflow(s, r->owner, "a communication");
        return;
    }
    INVARIANT(done >= r->post_time,
              "rank %d's request (kind %d, tag %d) done at %lld ps, before it was posted (%lld "
              "ps)",
              r->owner, r->kind, r->tag, (long long)done, (long long)r->post_time);
    r->flags |= RF_RESOLVED;
    r->done_time = done;
    r->partner_time = partner_time;
    if (r->flags & RF_SUB)
        s->up.sub_resolved(s, r->sched, done);
    else if (r->flags & RF_WAITED)
        s->up.waited_resolved(s, r);
    if (r->flags & RF_RELEASED) request_release(s, r);
}

struct rank_rare *rank_rare(struct srank *me) {
    if (!me->rare) {
        me->rare = xcalloc(1, sizeof *me->rare);
        me->rare->deliver_at = SIMTIME_NEVER;
    }
    return me->rare;
}

struct request *sim_find_request(const struct sim *s, int32_t rank, int32_t user_id) {
    if (!s->ranks[rank].indexed) {
        for (struct request *q = s->ranks[rank].outstanding; q; q = q->onext)
            if (q->user_id == user_id) return q;
        return NULL;
    }
    struct id_slot *e = ids_find(s, rank, user_id);
    return e ? e->r : NULL;
}

int sim_last_index(const struct sim *s, int32_t rank) {
    const struct rank_rare *r = s->ranks[rank].rare;
    return r ? r->last_index : 0;
}

struct request *wait_next(const struct srank *me, const struct request *q, uint32_t *seen) {
    if (*seen >= me->nwaited) return NULL;
    for (struct request *r = q ? q->onext : me->outstanding; r; r = r->onext)
        if (r->flags & RF_WAITED) {
            (*seen)++;
            return r;
        }
    return NULL;
}

void sim_wake_at(struct sim *s, int32_t rank, simtime_t t) {
    struct srank *r = &s->ranks[rank];
    if (r->wake_at == t) return;
    r->wake_at = t;
    engine_schedule(&s->eng, t, rank, EV_WAKE, ++r->wake_gen, NULL);
}

/* Signals: requests completed by the front end (sim.h). */
struct request *signal_new_id(struct sim *s, int32_t rank, int32_t peer, const char *what,
                              int32_t id) {
    struct request *r = request_new(s, rank, 0, REQ_SIGNAL, 0, 0, s->eng.now);
    r->peer = peer;
    r->data = (void *)what;
    request_track(s, r, id);
    return r;
}

struct request *sim_signal_new(struct sim *s, int32_t rank, int32_t peer, const char *what) {
    return signal_new_id(s, rank, peer, what, -1);
}

void sim_signal_fire(struct sim *s, struct request *r, simtime_t at) {
    request_resolve(s, r, sim_max(at, s->eng.now), s->eng.now);
}

/* Twice the room for transfers, each on a cache line of its own. */
static void grow_transfers(struct sim *s) {
    size_t cap = s->xf.cap ? 2 * (size_t)s->xf.cap : 64;
    s->xf.table = xrealloc_aligned(s->xf.table, sizeof *s->xf.table * s->xf.cap,
                                   sizeof *s->xf.table * cap, sizeof *s->xf.table);
    s->xf.cap = (uint32_t)cap;
}

/* Transfers (sim_internal.h's transfer_new): ids never used yet. */
uint32_t transfer_fresh_id(struct sim *s) {
    if (s->xf.n + 1 >= s->xf.cap) grow_transfers(s);
    return ++s->xf.n;
}

void transfer_free(struct sim *s, uint32_t id) {
    if (s->xf.nfree == s->xf.stack_cap) {
        s->xf.stack_cap = s->xf.stack_cap ? 2 * s->xf.stack_cap : 64;
        s->xf.stack = xrealloc_or_die(s->xf.stack, sizeof *s->xf.stack * s->xf.stack_cap);
    }
    s->xf.stack[s->xf.nfree++] = id;
}
