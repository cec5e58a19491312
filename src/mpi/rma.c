/* SPDX-License-Identifier: BSD-3-Clause */
/* One-sided communication and synchronisation signals in the MPI semantics
 * layer (docs/models.md, "One-sided communication").
 *
 * An RMA operation reaches its target one control latency after the call
 * (the front end sends it with sim_land), and the target's node acts on it
 * then, without the target rank taking part (as with RDMA). Its data cost
 * what a message of their size costs between the two nodes, with the
 * platform's protocols: a put or an accumulate is a synchronous send from
 * the origin at the call (complete once the target has the data and
 * acknowledged them), received on the target's behalf when the operation
 * lands; a get's data are a send from the target when it lands, received
 * by the origin's receive posted at the call.
 *
 * A signal is a request completed by the front end (a generalized request)
 * or by this layer: it lets a rank block until another rank acts.
 *
 * Synchronisation of passive and general active target (locks, posts,
 * completes) is this layer's too, so that both front ends run it and a
 * trace replays it: each message lands at the other member one control
 * latency after it is sent; a target grants locks first come first served,
 * shared ones together, and its grant travels back. */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "mpi/land.h"
#include "mpi/part.h"
#include "mpi/pt2pt.h"
#include "mpi/record.h"
#include "mpi/sim_internal.h"

/* The tags of RMA transfers on a window's private communicator: the data
 * to the target, and the replies (a rank may be its own target). */
#define RMA_TAG_DATA 0
#define RMA_TAG_REPLY 1

/* The origin's side of an operation on c, where the origin is member me. */
static struct request *origin_side(struct sim *s, int32_t origin, struct comm *c, int32_t me,
                                   int32_t comm_id, int32_t target, int64_t size,
                                   enum sim_rma_kind kind, struct sim_recv_target *reply,
                                   int32_t id) {
    simtime_t now = s->eng.now;
    bool to_target = kind == SIM_RMA_PUT;
    struct request *r = to_target ? pt2pt_post_send(s, origin, c, me, c->ctx, target, RMA_TAG_DATA,
                                                    size, SEND_SYNC, NULL, now, NULL)
                                  : pt2pt_post_recv(s, origin, c, c->ctx, target, RMA_TAG_REPLY,
                                                    size, NULL, now, reply);
    request_track(s, r, id);
    if (s->rec) record_rma(s, r, comm_id, target, size, kind);
    return r;
}

struct request *sim_rma_origin(struct sim *s, int32_t origin, int32_t comm_id, int32_t target,
                               int64_t size, enum sim_rma_kind kind, struct sim_recv_target *reply,
                               int32_t id) {
    int32_t me;
    struct comm *c = sim_comm_get(s, origin, comm_id, &me);
    if (!c || target < 0 || target >= c->size) return NULL;
    return origin_side(s, origin, c, me, comm_id, target, size, kind, reply, id);
}

/* The target's side of an operation on c, where the target is member me
 * (world rank target) and the origin member origin. */
static void target_side(struct sim *s, int32_t target, struct comm *c, int32_t me, int32_t origin,
                        int64_t size, bool to_target, const void *data) {
    simtime_t now = s->eng.now;
    struct request *r = to_target ? pt2pt_post_recv(s, target, c, c->ctx, origin, RMA_TAG_DATA,
                                                    size, NULL, now, NULL)
                                  : pt2pt_post_send(s, target, c, me, c->ctx, origin, RMA_TAG_REPLY,
                                                    size, SEND_STANDARD, NULL, now, data);
    s->cpu.owing_rank = -1; /* the target's node acts: no CPU time of the rank's */
    if (!to_target && size > 0 && data && r->data == data) { /* kept for a later delivery: a copy */
        void *copy = xmalloc((size_t)size);
        memcpy(copy, data, (size_t)size);
        r->data = copy;
        r->flags |= RF_OWNS;
    }
    request_release(s, r); /* nobody waits for the target's side */
}

/* What lands at an operation's target in a replay: its side of the data.
 * The communicator by its context (each rank names it its own way). */
struct rma_landing {
    uint32_t ctx;
    int32_t origin, target; /* members */
    int64_t size;
    uint8_t to_target;
};

struct request *sim_rma_issue(struct sim *s, int32_t origin, int32_t comm_id, int32_t target,
                              int64_t size, enum sim_rma_kind kind, int32_t id) {
    int32_t me;
    struct comm *c = sim_comm_get(s, origin, comm_id, &me);
    if (!c || target < 0 || target >= c->size) return NULL;
    struct request *r = origin_side(s, origin, c, me, comm_id, target, size, kind, NULL, id);
    int32_t to = comm_world_rank(c, target);
    struct rma_landing m = {c->ctx, me, target, size, kind == SIM_RMA_PUT};
    struct sim_piece piece = {&m, sizeof m};
    simtime_t delay = kind == SIM_RMA_FETCH ? sim_transfer_cost(s, origin, to, size)
                                            : sim_control_latency(s, origin, to);
    land_post(s, origin, to, simtime_add(s->eng.now, delay), LAND_RMA_TARGET, &piece, 1);
    return r;
}

void rma_land(struct sim *s, int32_t target, const void *msg, uint32_t len) {
    struct rma_landing m;
    if (len < sizeof m) return;
    memcpy(&m, msg, sizeof m);
    struct comm *c = comm_by_context(s, m.ctx);
    if (!c || m.target < 0 || m.target >= c->size || m.origin < 0 || m.origin >= c->size ||
        comm_world_rank(c, m.target) != target)
        return;
    target_side(s, target, c, m.target, m.origin, m.size, m.to_target, NULL);
}

void sim_record_skip(struct sim *s, const char *what) {
    if (s->rec) record_skip(s, what);
}

void sim_rma_target(struct sim *s, int32_t target, int32_t comm_id, int32_t origin, int64_t size,
                    bool to_target, const void *data) {
    int32_t me;
    struct comm *c = sim_comm_get(s, target, comm_id, &me);
    if (c && origin >= 0 && origin < c->size)
        target_side(s, target, c, me, origin, size, to_target, data);
}

simtime_t sim_control_latency(const struct sim *s, int32_t from, int32_t to) {
    return network_control_cost(s->net, sim_node(s, from), sim_node(s, to));
}

simtime_t sim_transfer_cost(const struct sim *s, int32_t from, int32_t to, int64_t size) {
    return network_cost(s->net, sim_node(s, from), sim_node(s, to), size);
}

/* --- synchronisation: locks, post-start-complete-wait --- */

struct rma_lock_req {
    int32_t origin;
    uint8_t exclusive;
};

/* A member of a window, as a target (its locks) and as an origin (its
 * grants due, the posts and completes that reached it, what it waits for). */
struct rma_member {
    int32_t excl, shared; /* the member holding an exclusive lock (-1), shared locks held */
    struct rma_lock_req *q;
    int32_t nq, capq;
    int32_t grants_due;
    int32_t *notes[2], nnotes[2], capnotes[2]; /* [0] posts, [1] completes: who sent them */
    struct request *waiter;
    int wait_kind; /* 0: grants, 1: posts, 2: completes */
    int32_t *want;
    int nwant;
};

struct rma_sync {
    uint32_t ctx; /* the window's communicator */
    int32_t n;
    struct rma_member *m;
    struct rma_sync *next;
};

struct rma_note_msg {
    uint32_t ctx;
    int32_t from, to; /* members */
    uint8_t exclusive;
};

static struct rma_sync *sync_get(struct sim *s, const struct comm *c) {
    struct rma_sync *y = s->rma_syncs;
    while (y && y->ctx != c->ctx)
        y = y->next;
    if (y) return y;
    y = xcalloc(1, sizeof *y);
    y->ctx = c->ctx;
    y->n = c->size;
    y->m = xcalloc((size_t)c->size, sizeof *y->m);
    for (int32_t i = 0; i < c->size; i++)
        y->m[i].excl = -1;
    y->next = s->rma_syncs;
    s->rma_syncs = y;
    return y;
}

void rma_free_all(struct sim *s) {
    for (struct rma_sync *y = s->rma_syncs, *next; y; y = next) {
        next = y->next;
        for (int32_t i = 0; i < y->n; i++) {
            free(y->m[i].q);
            free(y->m[i].notes[0]);
            free(y->m[i].notes[1]);
            free(y->m[i].want);
        }
        free(y->m);
        free(y);
    }
    s->rma_syncs = NULL;
}

/* Sends a synchronisation message from member `from` (world rank `origin`)
 * to member `to` of c, landing one control latency later. */
static void note_send(struct sim *s, const struct comm *c, uint8_t kind, int32_t from, int32_t to,
                      bool exclusive) {
    int32_t origin = comm_world_rank(c, from), target = comm_world_rank(c, to);
    struct rma_note_msg m = {c->ctx, from, to, exclusive};
    struct sim_piece piece = {&m, sizeof m};
    land_post(s, origin, target, simtime_add(s->eng.now, sim_control_latency(s, origin, target)),
              kind, &piece, 1);
}

/* Whether a note from each of want[0..n) is in have (a member wanted
 * several times must have sent as many). */
static bool notes_present(const int32_t *have, int32_t nhave, const int32_t *want, int n) {
    for (int i = 0; i < n; i++) {
        int need = 0, got = 0;
        for (int j = 0; j < n; j++)
            need += want[j] == want[i];
        for (int32_t j = 0; j < nhave; j++)
            got += have[j] == want[i];
        if (got < need) return false;
    }
    return true;
}

static void notes_use(int32_t *have, int32_t *nhave, const int32_t *want, int n) {
    for (int i = 0; i < n; i++)
        for (int32_t j = 0; j < *nhave; j++)
            if (have[j] == want[i]) {
                have[j] = have[--*nhave];
                break;
            }
}

/* Fires the member's waiter when what it waits for is there. */
static void waiter_check(struct sim *s, struct rma_member *m) {
    if (!m->waiter) return;
    if (m->wait_kind == 0 ? m->grants_due > 0
                          : !notes_present(m->notes[m->wait_kind - 1], m->nnotes[m->wait_kind - 1],
                                           m->want, m->nwant))
        return;
    if (m->wait_kind > 0)
        notes_use(m->notes[m->wait_kind - 1], &m->nnotes[m->wait_kind - 1], m->want, m->nwant);
    sim_signal_fire(s, m->waiter, s->eng.now);
    m->waiter = NULL;
}

/* At target member t: grants the requests at the head of its queue that fit
 * (a request never overtakes an earlier one). */
static void lock_serve(struct sim *s, const struct comm *c, struct rma_sync *y, int32_t t) {
    struct rma_member *m = &y->m[t];
    int32_t k = 0;
    for (; k < m->nq && m->excl < 0 && (!m->q[k].exclusive || m->shared == 0); k++) {
        if (m->q[k].exclusive)
            m->excl = m->q[k].origin;
        else
            m->shared++;
        note_send(s, c, LAND_RMA_GRANT, t, m->q[k].origin, m->q[k].exclusive);
    }
    memmove(m->q, m->q + k, sizeof *m->q * (size_t)(m->nq - k));
    m->nq -= k;
}

void rma_sync_land(struct sim *s, uint8_t kind, int32_t target, const void *msg, uint32_t len) {
    struct rma_note_msg m;
    if (len < sizeof m) return;
    memcpy(&m, msg, sizeof m);
    struct comm *c = comm_by_context(s, m.ctx);
    if (!c || m.to < 0 || m.to >= c->size || m.from < 0 || m.from >= c->size ||
        comm_world_rank(c, m.to) != target)
        return;
    struct rma_sync *y = sync_get(s, c);
    struct rma_member *t = &y->m[m.to];
    if (kind == LAND_RMA_LOCK) {
        if (t->nq == t->capq) {
            t->capq = t->capq ? 2 * t->capq : 4;
            t->q = xrealloc_or_die(t->q, sizeof *t->q * (size_t)t->capq);
        }
        t->q[t->nq++] = (struct rma_lock_req){m.from, m.exclusive};
        lock_serve(s, c, y, m.to);
    } else if (kind == LAND_RMA_RELEASE) {
        if (m.exclusive)
            t->excl = -1;
        else if (t->shared > 0)
            t->shared--;
        lock_serve(s, c, y, m.to);
    } else if (kind == LAND_RMA_GRANT) {
        if (t->grants_due > 0) t->grants_due--;
        waiter_check(s, t);
    } else {
        int k = kind == LAND_RMA_COMPLETE;
        if (t->nnotes[k] == t->capnotes[k]) {
            t->capnotes[k] = t->capnotes[k] ? 2 * t->capnotes[k] : 4;
            t->notes[k] =
                xrealloc_or_die(t->notes[k], sizeof *t->notes[k] * (size_t)t->capnotes[k]);
        }
        t->notes[k][t->nnotes[k]++] = m.from;
        waiter_check(s, t);
    }
}

/* The rank's window, its rank in it and its member state. */
static struct rma_member *member_of(struct sim *s, int32_t rank, int32_t comm_id, struct comm **c,
                                    int32_t *me, struct rma_sync **y) {
    *c = sim_comm_get(s, rank, comm_id, me);
    if (!*c) return NULL;
    *y = sync_get(s, *c);
    return &(*y)->m[*me];
}

enum {
    SYNC_LOCK,
    SYNC_UNLOCK,
    SYNC_GRANTS,
    SYNC_POST,
    SYNC_COMPLETE,
    SYNC_WAIT_POSTS,
    SYNC_WAIT_COMPLETES
};

void sim_rma_lock(struct sim *s, int32_t rank, int32_t comm_id, int32_t target, bool exclusive) {
    struct comm *c;
    struct rma_sync *y;
    int32_t me;
    struct rma_member *m = member_of(s, rank, comm_id, &c, &me, &y);
    if (!m || target < 0 || target >= c->size) return;
    if (s->rec) record_rma_sync(s, rank, comm_id, SYNC_LOCK, target, exclusive, NULL, 0);
    m->grants_due++;
    note_send(s, c, LAND_RMA_LOCK, me, target, exclusive);
}

void sim_rma_unlock(struct sim *s, int32_t rank, int32_t comm_id, int32_t target, bool exclusive) {
    struct comm *c;
    struct rma_sync *y;
    int32_t me;
    struct rma_member *m = member_of(s, rank, comm_id, &c, &me, &y);
    if (!m || target < 0 || target >= c->size) return;
    if (s->rec) record_rma_sync(s, rank, comm_id, SYNC_UNLOCK, target, exclusive, NULL, 0);
    note_send(s, c, LAND_RMA_RELEASE, me, target, exclusive);
}

/* A waiter for the rank (what it waits for set by the caller). */
static struct request *waiter_new(struct sim *s, int32_t rank, struct rma_member *m, int kind,
                                  const char *what) {
    struct request *r = sim_signal_new(s, rank, -1, what);
    m->waiter = r;
    m->wait_kind = kind;
    waiter_check(s, m);
    return r;
}

struct request *sim_rma_grants(struct sim *s, int32_t rank, int32_t comm_id) {
    struct comm *c;
    struct rma_sync *y;
    int32_t me;
    struct rma_member *m = member_of(s, rank, comm_id, &c, &me, &y);
    if (!m) return NULL;
    if (s->rec) record_rma_sync(s, rank, comm_id, SYNC_GRANTS, -1, false, NULL, 0);
    return waiter_new(s, rank, m, 0, "a lock on a window (its grant)");
}

void sim_rma_notify(struct sim *s, int32_t rank, int32_t comm_id, int32_t to, bool complete) {
    struct comm *c;
    struct rma_sync *y;
    int32_t me;
    struct rma_member *m = member_of(s, rank, comm_id, &c, &me, &y);
    if (!m || to < 0 || to >= c->size) return;
    if (s->rec)
        record_rma_sync(s, rank, comm_id, complete ? SYNC_COMPLETE : SYNC_POST, to, false, NULL, 0);
    note_send(s, c, complete ? LAND_RMA_COMPLETE : LAND_RMA_POST, me, to, false);
}

bool sim_rma_notes_in(struct sim *s, int32_t rank, int32_t comm_id, const int32_t *from, int n,
                      bool complete, bool take) {
    struct comm *c;
    struct rma_sync *y;
    int32_t me;
    struct rma_member *m = member_of(s, rank, comm_id, &c, &me, &y);
    if (!m || !notes_present(m->notes[complete], m->nnotes[complete], from, n)) return false;
    if (!take) return true;
    /* a test that finds them: replayed as a wait, which finds them too */
    if (s->rec)
        record_rma_sync(s, rank, comm_id, complete ? SYNC_WAIT_COMPLETES : SYNC_WAIT_POSTS, -1,
                        false, from, n);
    notes_use(m->notes[complete], &m->nnotes[complete], from, n);
    return true;
}

struct request *sim_rma_notes_wait(struct sim *s, int32_t rank, int32_t comm_id,
                                   const int32_t *from, int n, bool complete) {
    struct comm *c;
    struct rma_sync *y;
    int32_t me;
    struct rma_member *m = member_of(s, rank, comm_id, &c, &me, &y);
    if (!m) return NULL;
    if (s->rec)
        record_rma_sync(s, rank, comm_id, complete ? SYNC_WAIT_COMPLETES : SYNC_WAIT_POSTS, -1,
                        false, from, n);
    free(m->want);
    m->want = xmalloc(sizeof *m->want * (size_t)(n + 1));
    memcpy(m->want, from, sizeof *from * (size_t)n);
    m->nwant = n;
    return waiter_new(s, rank, m, complete ? 2 : 1,
                      complete ? "MPI_Win_wait (the origins' MPI_Win_complete)"
                               : "MPI_Win_start (the targets' MPI_Win_post)");
}
