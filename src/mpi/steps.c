/* SPDX-License-Identifier: BSD-3-Clause */
/* A collective's steps matched apart from users' messages
 * (docs/architecture.md). A step is known by its collective's context,
 * the collective's number on its communicator (the step's tag) and its
 * source; each rank has one ring of its collectives' steps waiting for a
 * partner, in the order they came: its receives that no send took yet and
 * the sends that came before their receive. A round's send looks in its
 * receiver's ring for the receive of its collective from it, a round's
 * receive in its own ring for the send; the first found is taken out and
 * the protocol completes both ends at once (pt2pt_match), else the step
 * waits in the ring. Collective messages match on an explicit source and
 * tag in a context of their own, so no user message can take them: the
 * ranks' matching queues (pt2pt.c) hold only users' messages, and a
 * step's search covers only collective steps still waiting. */
#include "mpi/part.h"
#include "mpi/pt2pt.h"
#include "mpi/schedule.h"

/* srank.coll_waiting is the ring's last step, linked by qnext to the first. */
static void wait_push(struct srank *me, struct request *q) {
    if (me->coll_waiting) {
        q->qnext = me->coll_waiting->qnext;
        me->coll_waiting->qnext = q;
    } else {
        q->qnext = q;
    }
    me->coll_waiting = q;
}

/* The first waiting step of this kind in the ring of `me` that pairs with
 * step `with` (the same context and collective, the source or destination
 * `src`), taken out of the ring; NULL if none. */
static struct request *wait_take(struct srank *me, uint8_t kind, const struct request *with,
                                 int32_t src) {
    struct request *last = me->coll_waiting;
    if (!last) return NULL;
    for (struct request *prev = last, *q = last->qnext;; prev = q, q = q->qnext) {
        if (q->src == src && q->tag == with->tag && q->ctx == with->ctx && q->kind == kind) {
            if (q == prev)
                me->coll_waiting = NULL; /* it was alone */
            else if ((prev->qnext = q->qnext, q == last))
                me->coll_waiting = prev;
            q->qnext = NULL;
            return q;
        }
        if (q == last) return NULL;
    }
}

void steps_send(struct sim *s, struct request *send) {
    struct srank *to = &s->ranks[send->peer];
    struct request *recv = wait_take(to, REQ_RECV, send, send->src);
    if (recv)
        pt2pt_match(s, send, recv);
    else
        wait_push(to, send);
}

void steps_recv(struct sim *s, struct request *recv) {
    struct srank *me = &s->ranks[recv->owner];
    struct request *send = wait_take(me, REQ_SEND, recv, recv->src);
    if (send)
        pt2pt_match(s, send, recv);
    else
        wait_push(me, recv);
}

/* --- at the end of a run: the sends no receive took --- */

void steps_each_unmatched(struct sim *s, void (*fn)(struct sim *s, struct request *send)) {
    for (int32_t i = 0; i < s->nranks; i++) {
        struct request *last = sim_local(s, i) ? s->ranks[i].coll_waiting : NULL;
        for (struct request *q = last ? last->qnext : NULL; q; q = q == last ? NULL : q->qnext)
            if (q->kind == REQ_SEND) fn(s, q);
    }
}

int64_t steps_unmatched(const struct sim *s) {
    int64_t n = 0;
    for (int32_t i = 0; i < s->nranks; i++) {
        const struct request *last = sim_local(s, i) ? s->ranks[i].coll_waiting : NULL;
        for (const struct request *q = last ? last->qnext : NULL; q;
             q = q == last ? NULL : q->qnext)
            n += q->kind == REQ_SEND;
    }
    return n;
}
