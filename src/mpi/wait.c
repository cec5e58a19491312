/* SPDX-License-Identifier: BSD-3-Clause */
/* Requests seen by their owner: the outstanding list, resolution of
 * completion times, wait / waitall / waitany / test, and the description of
 * what a blocked rank waits for (deadlock reports). */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "mpi/fault.h"
#include "mpi/observe.h"
#include "mpi/part.h"
#include "mpi/record.h"
#include "mpi/schedule.h"
#include "mpi/sim_internal.h"
#include "mpi/wait.h"

/* When a wait whose requests are all resolved, the last at `last`, ends:
 * not before it began, and after Dimemas' receiver-side latency (CPU time
 * at the end of each wait with point-to-point requests). */
static simtime_t wait_end(const struct sim *s, const struct srank *me, simtime_t last, bool p2p) {
    simtime_t t = sim_max(last, me->wait_start);
    if (p2p && s->plat->wait_overhead > 0) t = simtime_add(t, s->plat->wait_overhead);
    return sim_max(t, s->eng.now);
}

/* When the current wait can complete, or SIMTIME_NEVER if not known yet. A
 * wait for all its requests also counts those not resolved (wait_left) and
 * the latest done time of the others (wait_last), so that each later
 * resolution costs O(1) (wait_resolved). */
static simtime_t wait_ready_time(struct sim *s, int32_t rank) {
    struct srank *me = &s->ranks[rank];
    simtime_t t = me->wait_any ? SIMTIME_NEVER : me->wait_start;
    bool p2p = false;
    uint32_t seen = 0, left = 0;
    for (struct request *q = wait_next(me, NULL, &seen); q; q = wait_next(me, q, &seen)) {
        p2p |= q->kind != REQ_COLL;
        if (!(q->flags & RF_RESOLVED)) {
            left++;
            continue;
        }
        if (me->wait_any ? q->done_time < t : q->done_time > t) t = q->done_time;
    }
    me->wait_p2p = p2p;
    if (!me->wait_any) {
        me->wait_left = left;
        me->wait_last = t;
        if (left) return SIMTIME_NEVER;
    }
    return t == SIMTIME_NEVER ? t : wait_end(s, me, t, p2p);
}

void wait_recheck(struct sim *s, int32_t rank) {
    if (s->ranks[rank].state != RS_WAITING) return;
    simtime_t t = wait_ready_time(s, rank);
    if (t != SIMTIME_NEVER) sim_wake_at(s, rank, t);
}

/* Request r, part of its owner's current wait, is resolved. */
void wait_resolved(struct sim *s, const struct request *r) {
    struct srank *me = &s->ranks[r->owner];
    if (me->state != RS_WAITING) return;
    if (me->wait_any) {
        wait_recheck(s, r->owner);
        return;
    }
    me->wait_last = sim_max(me->wait_last, r->done_time);
    if (--me->wait_left == 0)
        sim_wake_at(s, r->owner, wait_end(s, me, me->wait_last, me->wait_p2p));
}

/* Removes q from the owner's outstanding list and releases it. */
static void finish_request(struct sim *s, struct request **link) {
    struct request *q = *link;
    if (s->flt.ndead) fault_note_done(s, q);
    *link = q->onext;
    request_untrack(s, q);
    q->flags &= (uint8_t) ~(RF_WAITED | RF_USER);
    request_release(s, q);
}

/* The request a waitany returns: resolved by now, earliest done time first. */
static struct request *any_choice(struct srank *me, simtime_t now) {
    struct request *best = NULL;
    uint32_t seen = 0;
    for (struct request *q = wait_next(me, NULL, &seen); q; q = wait_next(me, q, &seen))
        if ((q->flags & RF_RESOLVED) && q->done_time <= now &&
            (!best || q->done_time < best->done_time))
            best = q;
    return best;
}

/* The part of the current wait spent before its point-to-point partners
 * posted their side (they came late). */
static simtime_t wait_sync_loss(const struct srank *me, const struct request *chosen,
                                simtime_t now) {
    simtime_t partner = me->wait_start;
    uint32_t seen = 0;
    for (const struct request *q = wait_next(me, NULL, &seen); q; q = wait_next(me, q, &seen))
        if ((!me->wait_any || q == chosen) && q->kind != REQ_COLL && q->kind != REQ_SIGNAL)
            partner = sim_max(partner, q->partner_time);
    return (partner < now ? partner : now) - me->wait_start;
}

void wait_complete(struct sim *s, int32_t rank) {
    struct srank *me = &s->ranks[rank];
    s->flt.nfailed_done = 0; /* the front end asks of this wait's requests (sim_request_failed) */
    simtime_t now = s->eng.now, partner = me->wait_start;
    bool all_coll = true;
    struct request *chosen = me->wait_any ? any_choice(me, now) : NULL;
    if (s->obs) observe_wait(s, rank, chosen, wait_sync_loss(me, chosen, now));
    uint32_t left = me->nwaited;
    me->nwaited = 0;
    for (struct request **link = &me->outstanding; *link && left > 0;) {
        struct request *q = *link;
        if (!(q->flags & RF_WAITED)) {
            link = &q->onext;
            continue;
        }
        left--;
        if (me->wait_any && q != chosen) {
            q->flags &= (uint8_t)~RF_WAITED;
            link = &q->onext;
            continue;
        }
        if (q->kind != REQ_COLL) {
            all_coll = false;
            partner = sim_max(partner, q->partner_time);
        }
        if (me->wait_any) rank_rare(me)->last_index = q->user_id; /* MPI_Waitany's index */
        finish_request(s, link);
    }
    simtime_t dur = now - me->wait_start;
    if (all_coll) {
        me->st.coll += dur;
    } else {
        me->st.p2p += dur;
        me->st.blocked += (partner < now ? partner : now) - me->wait_start;
    }
}

bool sim_wait(struct sim *s, int32_t rank, struct request **reqs, int n, bool wait_any) {
    struct srank *me = &s->ranks[rank];
    if (s->rec) record_wait(s, rank, reqs, n, wait_any);
    uint32_t marked = 0;
    if (!reqs) { /* every outstanding request */
        for (struct request *q = me->outstanding; q; q = q->onext, marked++)
            q->flags |= RF_WAITED;
    } else {
        for (int i = 0; i < n; i++)
            if (reqs[i] && !(reqs[i]->flags & RF_WAITED)) { /* a request listed twice counts once */
                reqs[i]->flags |= RF_WAITED;
                marked++;
            }
    }
    me->nwaited = marked;
    s->flt.nfailed_done = 0;
    if (marked == 0) return true;
    me->wait_start = s->eng.now;
    me->wait_any = wait_any;
    me->state = RS_WAITING;
    simtime_t t = wait_ready_time(s, rank);
    if (t != SIMTIME_NEVER && t <= s->eng.now) {
        wait_complete(s, rank);
        me->state = RS_READY;
        return true;
    }
    if (t != SIMTIME_NEVER) sim_wake_at(s, rank, t);
    return false;
}

bool sim_requests_ready(const struct sim *s, struct request *const *reqs, int n, bool any) {
    int live = 0, done = 0;
    for (int i = 0; i < n; i++) {
        const struct request *q = reqs[i];
        if (!q) continue;
        live++;
        if ((q->flags & RF_RESOLVED) && q->done_time <= s->eng.now) done++;
    }
    return live == 0 || (any ? done > 0 : done == live);
}

bool sim_test(struct sim *s, int32_t rank, struct request *req) {
    struct srank *me = &s->ranks[rank];
    s->flt.nfailed_done = 0;
    if (!(req->flags & RF_RESOLVED) || req->done_time > s->eng.now) return false;
    for (struct request **link = &me->outstanding; *link; link = &(*link)->onext) {
        if (*link == req) {
            if (s->obs) observe_test(s, rank, req);
            if (s->rec) record_test(s, rank, req);
            finish_request(s, link);
            return true;
        }
    }
    return false;
}

bool sim_request_free(struct sim *s, int32_t rank, struct request *req, void *payload) {
    struct srank *me = &s->ranks[rank];
    bool taken = payload && req->kind == REQ_SEND && !(req->flags & RF_MATCHED) &&
                 !(req->flags & RF_OWNS) && req->data == payload;
    if (taken) req->flags |= RF_OWNS;
    if (req->kind == REQ_RECV && !(req->flags & (RF_RESOLVED | RF_SUB)) && req->data) {
        /* a receive not yet matched still delivers, into a target of its own */
        struct sim_recv_target *t = xmalloc(sizeof *t);
        *t = *(const struct sim_recv_target *)req->data;
        req->data = t;
        req->flags |= RF_OWNS;
    }
    for (struct request **link = &me->outstanding; *link; link = &(*link)->onext)
        if (*link == req) {
            if (s->rec) record_free(s, rank, req);
            finish_request(s, link);
            break;
        }
    return taken;
}

bool sim_request_is_send(const struct request *req) {
    return req->kind == REQ_SEND && !(req->flags & RF_SUB);
}

static void describe_request(struct sim *s, struct request *q) {
    switch (q->kind) {
    case REQ_SEND:
        sim_report_append(s, "send of %lld bytes to rank %d tag %d, not yet received",
                          (long long)q->size, q->peer, q->tag);
        break;
    case REQ_RECV:
        if (q->peer < 0)
            sim_report_append(s, "recv from any source");
        else
            sim_report_append(s, "recv from rank %d", q->peer);
        if (q->tag == SIM_ANY_TAG)
            sim_report_append(s, " any tag");
        else
            sim_report_append(s, " tag %d", q->tag);
        break;
    case REQ_SIGNAL:
        sim_report_append(s, "%s", (const char *)q->data);
        break;
    default:
        break;
    }
}

void wait_describe_outstanding(struct sim *s, int32_t rank, int max) {
    int n = 0;
    for (struct request *q = s->ranks[rank].outstanding; q; q = q->onext) {
        if (q->flags & RF_RESOLVED) continue;
        if (n++ == max) {
            sim_report_append(s, "; ...");
            break;
        }
        sim_report_append(s, "; ");
        if (q->kind == REQ_COLL)
            sched_describe(s, q->sched);
        else
            describe_request(s, q);
    }
}

void wait_describe(struct sim *s, int32_t rank) {
    struct srank *me = &s->ranks[rank];
    int n = 0;
    sim_report_append(s, "%s", me->wait_any ? "waitany on " : "");
    uint32_t seen = 0;
    for (struct request *q = wait_next(me, NULL, &seen); q; q = wait_next(me, q, &seen)) {
        if (q->flags & RF_RESOLVED) continue;
        if (n++) sim_report_append(s, "; ");
        if (q->kind == REQ_COLL)
            sched_describe(s, q->sched);
        else
            describe_request(s, q);
        if (q->kind != REQ_COLL) {
            if (q->peer >= 0)
                sim_report_append(s, " -> waits for rank %d", q->peer);
            else
                sim_report_append(s, " -> waits for any rank");
        }
    }
    if (n == 0) sim_report_append(s, "blocked (no pending request)");
}

struct request *sim_find_p2p_request(const struct sim *s, int32_t rank, bool send, int32_t peer,
                                     int32_t tag) {
    struct request *found = NULL; /* the list is newest first: keep the last match */
    for (struct request *q = s->ranks[rank].outstanding; q; q = q->onext)
        if (q->kind == (send ? REQ_SEND : REQ_RECV) && q->peer == peer && q->tag == tag) found = q;
    return found;
}

int wait_targets(struct sim *s, int32_t rank, int32_t *out, int max) {
    int n = 0;
    uint32_t seen = 0;
    const struct srank *me = &s->ranks[rank];
    for (struct request *q = wait_next(me, NULL, &seen); q && n < max;
         q = wait_next(me, q, &seen)) {
        if (q->flags & RF_RESOLVED) continue;
        if (q->kind == REQ_COLL)
            n += sched_targets(q->sched, out + n, max - n);
        else if (q->peer >= 0)
            out[n++] = q->peer;
    }
    return n;
}

void sim_request_set_id(struct request *r, int32_t id) {
    r->user_id = id;
}

bool sim_request_done(const struct sim *s, const struct request *req) {
    return (req->flags & RF_RESOLVED) && req->done_time <= s->eng.now;
}
