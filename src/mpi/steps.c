/* SPDX-License-Identifier: BSD-3-Clause */
/* A collective's steps matched by their schedule (docs/architecture.md).
 * A round's send finds its receiver's schedule of the same collective, by
 * the receiver's rank, the communicator's collective context and the
 * collective's number there, then that schedule's receive from the sender,
 * and the protocol completes both ends at once (pt2pt_match). A send that
 * comes before its receive waits in the schedule, as a receive posted
 * before its send does, each in the order they came; a schedule that its
 * rank has not started yet is opened by the first send for it and filled
 * when the rank starts it (sched_start).
 * Collective messages match on an explicit source in a context of their
 * own, so no user message can take them: the ranks' matching queues
 * (pt2pt.c) hold only users' messages, and a step's search covers only
 * the steps of its collective still waiting. */
#include <stdlib.h>

#include "core/pool.h"
#include "mpi/pt2pt.h"
#include "mpi/sched_state.h"
#include "mpi/schedule.h"

/* --- the open schedules, by (rank, context, number): open addressing,
 * at most half full --- */

/* Fibonacci hashing: the key's product's top bits (one multiplication). */
static size_t open_slot(const struct sim_colls *c, int32_t rank, uint32_t ctx, uint32_t seq) {
    uint64_t key = ((uint64_t)seq << 32 | (uint32_t)rank) + (uint64_t)ctx * 0x9e3779b1u;
    return (size_t)((key * 0x9e3779b97f4a7c15ull) >> c->open_shift);
}

static size_t home_of(const struct sim_colls *c, const struct sched *sc) {
    return open_slot(c, sc->owner, sc->ctx, sc->tag);
}

struct sched *steps_find(struct sim *s, int32_t rank, uint32_t ctx, uint32_t seq) {
    const struct sim_colls *c = &s->colls;
    if (!c->open_n) return NULL;
    for (size_t k = open_slot(c, rank, ctx, seq);; k = (k + 1) & (c->open_cap - 1)) {
        struct sched *sc = c->open[k];
        if (!sc || (sc->owner == rank && sc->tag == seq && sc->ctx == ctx)) return sc;
    }
}

static void open_put(struct sim_colls *c, struct sched *sc) {
    size_t k = home_of(c, sc);
    while (c->open[k])
        k = (k + 1) & (c->open_cap - 1);
    c->open[k] = sc;
}

void steps_open(struct sim *s, struct sched *sc) {
    struct sim_colls *c = &s->colls;
    if (2 * (c->open_n + 1) > c->open_cap) {
        size_t old = c->open_cap;
        struct sched **was = c->open;
        c->open_cap = old ? 2 * old : 1024;
        c->open_shift = 64 - (unsigned)__builtin_ctzll(c->open_cap);
        c->open = xcalloc(c->open_cap, sizeof *c->open);
        for (size_t i = 0; i < old; i++)
            if (was[i]) open_put(c, was[i]);
        free(was);
    }
    open_put(c, sc);
    c->open_n++;
}

/* Takes sc out of the table, moving back the entries after it that would
 * no longer be found (deletion without tombstones). */
static void open_remove(struct sim_colls *c, struct sched *sc) {
    size_t mask = c->open_cap - 1, hole = home_of(c, sc);
    while (c->open[hole] != sc)
        hole = (hole + 1) & mask;
    for (size_t j = (hole + 1) & mask; c->open[j]; j = (j + 1) & mask) {
        size_t home = home_of(c, c->open[j]);
        if (((j - home) & mask) >= ((j - hole) & mask)) { /* the hole lies on its way */
            c->open[hole] = c->open[j];
            hole = j;
        }
    }
    c->open[hole] = NULL;
    c->open_n--;
}

bool steps_close(struct sim *s, struct sched *sc) {
    if (sc->waiting)
        return false; /* sends no receive took (collectives that do not agree):
                         kept, counted at the end as never received */
    open_remove(&s->colls, sc);
    return true;
}

void steps_free_all(struct sim *s) {
    free(s->colls.open);
    s->colls.open = NULL;
    s->colls.open_cap = s->colls.open_n = 0;
}

/* --- a schedule's steps waiting for their partner: a ring of its
 * receives that no send took yet and of the partners' sends that came
 * before their receive, in the order they came; sc->waiting is the last,
 * linked by qnext to the first --- */

static void wait_push(struct sched *sc, struct request *q) {
    if (sc->waiting) {
        q->qnext = sc->waiting->qnext;
        sc->waiting->qnext = q;
    } else {
        q->qnext = q;
    }
    sc->waiting = q;
}

/* The first waiting step of this kind from or for communicator rank src,
 * taken out of the ring; NULL if none. */
static struct request *wait_take(struct sched *sc, uint8_t kind, int32_t src) {
    struct request *last = sc->waiting;
    if (!last) return NULL;
    for (struct request *prev = last, *q = last->qnext;; prev = q, q = q->qnext) {
        if (q->src == src && q->kind == kind) {
            if (q == prev)
                sc->waiting = NULL; /* it was alone */
            else if ((prev->qnext = q->qnext, q == last))
                sc->waiting = prev;
            q->qnext = NULL;
            return q;
        }
        if (q == last) return NULL;
    }
}

/* A schedule of rank's not started yet, opened for a send that comes first. */
static struct sched *open_early(struct sim *s, int32_t rank, uint32_t ctx, uint32_t seq) {
    if (!s->colls.sched_pool.obj_size) pool_init(&s->colls.sched_pool, sizeof(struct sched), 1024);
    struct sched *sc = pool_get(&s->colls.sched_pool);
    sc->owner = rank;
    sc->ctx = ctx;
    sc->tag = seq;
    steps_open(s, sc);
    return sc;
}

void steps_send(struct sim *s, struct request *send) {
    uint32_t seq = (uint32_t)send->tag;
    struct sched *sc = steps_find(s, send->peer, send->ctx, seq);
    if (!sc) sc = open_early(s, send->peer, send->ctx, seq);
    struct request *recv = wait_take(sc, REQ_RECV, send->src);
    if (recv)
        pt2pt_match(s, send, recv);
    else
        wait_push(sc, send);
}

void steps_recv(struct sim *s, struct sched *sc, struct request *recv) {
    struct request *send = wait_take(sc, REQ_SEND, recv->src);
    if (send)
        pt2pt_match(s, send, recv);
    else
        wait_push(sc, recv);
}

/* --- at the end of a run: the sends no receive took --- */

void steps_each_unmatched(struct sim *s, void (*fn)(struct sim *s, struct request *send)) {
    for (size_t i = 0; i < s->colls.open_cap; i++) {
        struct request *last = s->colls.open[i] ? s->colls.open[i]->waiting : NULL;
        for (struct request *q = last ? last->qnext : NULL; q; q = q == last ? NULL : q->qnext)
            if (q->kind == REQ_SEND) fn(s, q);
    }
}

int64_t steps_unmatched(const struct sim *s) {
    int64_t n = 0;
    for (size_t i = 0; i < s->colls.open_cap; i++) {
        const struct request *last = s->colls.open[i] ? s->colls.open[i]->waiting : NULL;
        for (const struct request *q = last ? last->qnext : NULL; q;
             q = q == last ? NULL : q->qnext)
            n += q->kind == REQ_SEND;
    }
    return n;
}
