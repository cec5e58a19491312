/* SPDX-License-Identifier: BSD-3-Clause */
/* A collective's steps matched apart from users' messages
 * (docs/architecture.md). A step is known by its collective's context,
 * the collective's number on its communicator (the step's tag) and its
 * source. Each rank has two rings of its collectives' steps waiting for a
 * partner, in the order they came: its receives that no send took yet, and
 * the sends to it that came before their receive. A round's send looks in
 * its receiver's receives for the one of its collective from it, a round's
 * receive in its rank's sends; the first found is taken out and the
 * protocol completes both ends at once (pt2pt_match), else the step waits
 * in its ring. Collective messages match on an explicit source and tag in
 * a context of their own, so no user message can take them: the ranks'
 * matching queues (pt2pt.c) hold only users' messages, and a step's search
 * covers only collective steps of the other kind still waiting. */
#include "mpi/part.h"
#include "mpi/pt2pt.h"
#include "mpi/schedule.h"

/* A rank's waiting steps: two rings (srank.coll_recvs, srank.coll_sends),
 * each pointed to by its last step, linked by qnext to the first. */
static void wait_push(struct request **ring, struct request *q) {
    if (*ring) {
        q->qnext = (*ring)->qnext;
        (*ring)->qnext = q;
    } else {
        q->qnext = q;
    }
    *ring = q;
}

/* The first step of the ring that pairs with step `with` (the same context
 * and collective, from or to communicator rank src), taken out of the
 * ring; NULL if none. */
static struct request *wait_take(struct request **ring, const struct request *with, int32_t src) {
    struct request *last = *ring;
    if (!last) return NULL;
    for (struct request *prev = last, *q = last->qnext;; prev = q, q = q->qnext) {
        if (q->src == src && q->tag == with->tag && q->ctx == with->ctx) {
            if (q == prev)
                *ring = NULL; /* it was alone */
            else if ((prev->qnext = q->qnext, q == last))
                *ring = prev;
            q->qnext = NULL;
            return q;
        }
        if (q == last) return NULL;
    }
}

void steps_send(struct sim *s, struct request *send) {
    struct srank *to = &s->ranks[send->peer];
    struct request *recv = wait_take(&to->coll_recvs, send, send->src);
    if (recv)
        pt2pt_match(s, send, recv);
    else
        wait_push(&to->coll_sends, send);
}

void steps_recv(struct sim *s, struct request *recv) {
    struct srank *me = &s->ranks[recv->owner];
    struct request *send = wait_take(&me->coll_sends, recv, recv->src);
    if (send)
        pt2pt_match(s, send, recv);
    else
        wait_push(&me->coll_recvs, recv);
}

/* --- at the end of a run: the sends no receive took --- */

void steps_each_unmatched(struct sim *s, void (*fn)(struct sim *s, struct request *send)) {
    for (int32_t i = 0; i < s->nranks; i++) {
        struct request *last = sim_local(s, i) ? s->ranks[i].coll_sends : NULL;
        for (struct request *q = last ? last->qnext : NULL; q; q = q == last ? NULL : q->qnext)
            fn(s, q);
    }
}

int64_t steps_unmatched(const struct sim *s) {
    int64_t n = 0;
    for (int32_t i = 0; i < s->nranks; i++) {
        const struct request *last = sim_local(s, i) ? s->ranks[i].coll_sends : NULL;
        for (const struct request *q = last ? last->qnext : NULL; q;
             q = q == last ? NULL : q->qnext)
            n++;
    }
    return n;
}
