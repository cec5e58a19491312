/* SPDX-License-Identifier: BSD-3-Clause */
/* Point-to-point: matching on (context, source, tag) with MPI's
 * non-overtaking order, posted and unexpected queues, and the timing of the
 * send protocols (docs/models.md). A message is matched when it is sent,
 * except to a receive from MPI_ANY_SOURCE, which takes the candidate whose
 * envelope reaches the rank first (below, "receives from any source"):
 *   eager (S <= eager_limit):  arrival = ts + T(S); recv done = max(tr, arrival)
 *                              standard/ready/buffered send done = ts
 *                              synchronous send done = recv done + T(0)  (ack)
 *   rendezvous (S > limit):    match = max(tr, ts + T(0))  (request-to-send)
 *                              data done = match + T(0) + T(S)  (clear-to-send, data)
 *                              send and recv done = data done (buffered send: ts)
 * where T is the network cost between the two ranks' nodes. With serial
 * interfaces (the default, docs/network.md), the data of a message between
 * nodes also wait for the source node's injection side and the destination
 * node's ejection side, each carrying one message after another. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/log.h"
#include "core/units.h"
#include "mpi/bsend.h"
#include "mpi/copies.h"
#include "mpi/fault.h"
#include "mpi/land.h"
#include "mpi/loggp.h"
#include "mpi/nics.h"
#include "mpi/observe.h"
#include "mpi/part.h"
#include "mpi/pt2pt.h"
#include "mpi/record.h"
#include "mpi/sim_internal.h"
#include "net/contention.h"

static bool envelope_matches(const struct request *send, const struct request *recv) {
    return send->ctx == recv->ctx && (recv->src == SIM_ANY_SOURCE || recv->src == send->src) &&
           (recv->tag == SIM_ANY_TAG || recv->tag == send->tag);
}

/* Unlinks q, which follows prev (NULL: q is the head), from a queue. */
static void queue_unlink(struct request **head, struct request **tail, struct request *prev,
                         struct request *q) {
    if (prev)
        prev->qnext = q->qnext;
    else
        *head = q->qnext;
    if (*tail == q) *tail = prev;
    q->qnext = NULL;
}

/* The first request in the queue that matches `want` (and the one before
 * it in *prev), or NULL. */
static struct request *queue_find(struct request *head, const struct request *want,
                                  bool want_is_recv, struct request **prev) {
    *prev = NULL;
    for (struct request *q = head; q; *prev = q, q = q->qnext)
        if (want_is_recv ? envelope_matches(q, want) : envelope_matches(want, q)) return q;
    return NULL;
}

/* Whether r is in the queue starting at head; *prev: the one before it. */
static bool queue_prev(struct request *head, const struct request *r, struct request **prev) {
    *prev = NULL;
    for (struct request *q = head; q; *prev = q, q = q->qnext)
        if (q == r) return true;
    return false;
}

static void queue_append(struct request **head, struct request **tail, struct request *r) {
    r->qnext = NULL;
    if (*tail)
        (*tail)->qnext = r;
    else
        *head = r;
    *tail = r;
}

static void account_transfer(struct sim *s, const struct request *send,
                             const struct request *recv) {
    struct srank *sr = &s->ranks[send->owner], *rr = &s->ranks[recv->owner];
    if (send->remote) { /* the sender's figures are another worker's: handed over at the end */
        s->split.cross->count_sent(s, send->owner, send->size);
    } else {
        sr->st.msgs_sent++;
        sr->st.bytes_sent += send->size;
    }
    rr->st.msgs_recv++;
    rr->st.bytes_recv += send->size;
}

void sim_set_hooks(struct sim *s, const struct sim_hooks *hooks) {
    s->hooks = *hooks;
}

void *sim_address(const struct sim *s, int32_t owner, void *addr) {
    return addr && s->hooks.address ? s->hooks.address(s->hooks.ctx, owner, addr) : addr;
}

/* Records a message's envelope (MPI_Status) for a receive or a probe. */
static void note_envelope(struct sim_recv_target *t, const struct request *send) {
    t->source = send->src;
    t->tag = send->tag;
    t->size = send->size;
}

/* Copies a user message into its receive target, then frees the payload.
 * Not inlined: a replay delivers no data, and match's own path (every
 * message's) runs 7 instructions fewer a message without it (cachegrind,
 * a 1,024-rank stencil). */
__attribute__((noinline)) static void deliver(struct sim *s, struct request *send,
                                              struct sim_recv_target *t) {
    int64_t n = send->size < t->capacity ? send->size : t->capacity;
    void *dst = sim_address(s, t->owner, t->buf);
    /* a rendezvous send's data are still the sender's buffer (maybe one of
     * its privatized globals) */
    const void *src =
        !(send->flags & RF_OWNS) ? sim_address(s, send->owner, send->data) : send->data;
    if (n > 0 && src && dst) memcpy(dst, src, (size_t)n);
    note_envelope(t, send);
    if (s->hooks.deliver) s->hooks.deliver(s->hooks.ctx, send, t);
    if (send->flags & RF_OWNS) free(send->data);
    send->flags &= (uint8_t)~RF_OWNS;
    send->data = NULL;
}

/* A matched message whose delivery would end past the largest time. */
static void overflowing_message(struct sim *s, const struct request *send,
                                const struct request *recv) {
    char what[256];
    const char *model = sim_node(s, send->owner) == sim_node(s, recv->owner) ? "intra" : "inter";
    snprintf(what, sizeof what,
             "the message of %lld bytes from rank %d to rank %d (cost from the platform's '%s' "
             "latency and bandwidth)",
             (long long)send->size, send->owner, recv->owner, model);
    sim_time_overflow(s, recv->owner, what);
}

/* --- LogGP costs (docs/network.md) --- */

/* --- the nodes' network interfaces (network.interfaces: serial) --- */

/* Whether a message between ranks on these nodes goes through serial
 * interfaces (the helpers take nodes: computed once a message). */
static bool through_interfaces(const struct sim *s, int32_t from_node, int32_t to_node) {
    return s->nic.model && from_node != to_node;
}

/* --- transfers under contention (net/contention.h) --- */

/* Whether the data of a message between ranks on these nodes contends. */
static bool contends(const struct sim *s, int32_t from_node, int32_t to_node) {
    return s->cont && (from_node != to_node || s->net->intra_contention);
}

/* Counts a message between nodes for the run's network statistics: sent
 * at ts, its receive posted at tr, received at recv_done. */
static void note_message(struct sim *s, int32_t from, int32_t to, simtime_t ts, simtime_t tr,
                         simtime_t recv_done) {
    int32_t a = sim_node(s, from), b = sim_node(s, to);
    if (a == b) return;
    s->net_stats.messages++;
    if (topology_is_flat(&s->net->topo)) {
        s->net_stats.hops += 1;
    } else {
        const struct path_cost *p = network_path(s->net, a, b);
        s->net_stats.hops += p->hops;
        if (p->extra_hops > 0) { /* a detour around a fault (docs/faults.md) */
            s->net_stats.detoured++;
            s->net_stats.extra_hops += p->extra_hops;
            s->net_stats.extra_seconds += p->extra_latency;
        }
    }
    s->net_transfer += recv_done - ts; /* picoseconds: the sum does not depend on its order */
    if (tr > ts) s->net_early += (tr < recv_done ? tr : recv_done) - ts; /* before its receive */
}

/* Resolves the matched pair of transfer id, whose data have arrived, and
 * frees the transfer. */
void pt2pt_finish_transfer(struct sim *s, uint32_t id) {
    struct xfer *x = &s->xf.table[id];
    struct request *send = x->send, *recv = x->recv;
    if (s->cpu.recv_free && x->overhead_due != 2) { /* the receiver's CPU takes it in turn */
        loggp_queue_receive(s, id, sim_max(recv->post_time, x->arrival));
        return;
    }
    simtime_t ts = recv->partner_time; /* set at match: the send's post time */
    simtime_t recv_done =
        loggp_recv_done(s, recv->owner, sim_max(recv->post_time, x->arrival), recv->size);
    note_message(s, x->from, recv->owner, ts, recv->post_time, recv_done);
    if (s->obs) observe_message(s, recv, ts, recv_done);
    bool eager = x->eager;
    transfer_free(s, id);
    if (send) {
        send->xfer = 0;
        if (send->flags & RF_BSEND) send->partner_time = recv_done;
    }
    /* Resolving may free a request (its owner released it): what is read
     * of the receive and the send after is read before. */
    simtime_t recv_posted = recv->post_time;
    int32_t receiver = recv->owner;
    request_resolve(s, recv, recv_done, ts);
    if (!send) return;
    simtime_t send_done = recv_done;
    if (eager) /* a synchronous send's acknowledgement */
        send_done = simtime_add(recv_done, network_control_cost(s->net, sim_node(s, send->owner),
                                                                sim_node(s, receiver)));
    bool remote = send->remote;
    if (!(send->flags & RF_RESOLVED))
        request_resolve(s, send, send_done, recv_posted);
    else
        request_maybe_free(s, send);
    if (remote) s->split.cross->settle(s, send); /* a stand-in: never released, so still here */
}

void pt2pt_transfer_done(void *ctx, void *arg) {
    struct sim *s = ctx;
    uint32_t id = (uint32_t)(uintptr_t)arg;
    s->xf.table[id].arrival = s->eng.now;
    if (!s->xf.table[id].recv) return; /* the send keeps it until a receive matches it */
    pt2pt_finish_transfer(s, id);      /* matched already: the pair completes now */
}

/* An eager message's data leaves when it is sent, matched or not. */
static void start_eager_transfer(struct sim *s, struct request *send) {
    uint32_t id = transfer_new(s);
    s->xf.table[id].eager = 1;
    s->xf.table[id].from = send->owner;
    send->xfer = id;
    contention_start(s->cont, sim_node(s, send->owner), sim_node(s, send->peer), send->size,
                     send->post_time, (void *)(uintptr_t)id);
}

/* A matched pair under contention or through the interfaces: the receive
 * (and a send that waits for the data) completes when the transfer does. */
/* Pairs the data of transfer id with recv: a send done when posted lets
 * go of them, another waits for their end; finished at once if they have
 * arrived. */
static void pair_transfer(struct sim *s, uint32_t id, struct request *send, struct request *recv) {
    struct xfer *x = &s->xf.table[id];
    recv->partner_time = send->post_time;
    x->recv = recv;
    x->seq = send->seq; /* the interfaces' transfers have it already */
    if (send->flags & RF_BSEND) send->partner_time = SIMTIME_NEVER;
    bool let_go = pt2pt_done_at_post(s, send);
    x->send = let_go ? NULL : send;
    if (let_go) {
        send->xfer = 0;
        if (send->remote)
            s->split.cross->settle(s, send);
        else /* matched and done: freed now if its owner let go of it already */
            request_maybe_free(s, send);
    }
    if (x->arrival != SIMTIME_NEVER) pt2pt_finish_transfer(s, id);
}

static void match_deferred(struct sim *s, struct request *send, struct request *recv,
                           simtime_t ctrl) {
    if (send->xfer) { /* eager: its data left at the send */
        pair_transfer(s, send->xfer, send, recv);
        return;
    }
    recv->partner_time = send->post_time;
    /* rendezvous: request-to-send, clear-to-send, then the data; an eager
     * message under mpi.transfer_start: match leaves once matched */
    bool eager = send->size <= s->plat->eager_limit;
    if (eager) ctrl = 0;
    simtime_t matched = sim_max(recv->post_time, simtime_add(send->post_time, ctrl));
    uint32_t id = transfer_new(s);
    struct xfer *x = &s->xf.table[id];
    x->eager = eager; /* a synchronous send's acknowledgement follows */
    x->recv = recv;
    x->from = send->owner;
    x->seq = send->seq;
    if (send->flags & RF_BSEND) send->partner_time = SIMTIME_NEVER;
    /* a send done at its post lets go before the transfer starts, which
     * may end it at once (and free the send with it) */
    bool let_go = eager && pt2pt_done_at_post(s, send);
    x->send = let_go ? NULL : send; /* else waits for the data, or holds its buffer */
    int32_t from_node = sim_node(s, send->owner);
    int64_t size = send->size;
    uint32_t seq = send->seq;
    if (let_go && send->remote)
        s->split.cross->settle(s, send);
    else if (let_go)
        request_maybe_free(s, send);
    if (!s->cont)
        nics_clear_to_send(s, id, size, seq, simtime_add(matched, ctrl));
    else
        contention_start(s->cont, from_node, sim_node(s, recv->owner), size,
                         simtime_add(matched, ctrl), (void *)(uintptr_t)id);
}

/* A matched pair whose data are there at `ready`, with a receive overhead:
 * a transfer that waits for the receiver's CPU (pt2pt_finish_transfer). */
static void through_cpu(struct sim *s, struct request *send, struct request *recv, simtime_t ready,
                        bool eager) {
    uint32_t id = transfer_new(s);
    struct xfer *x = &s->xf.table[id];
    x->from = send->owner;
    x->eager = eager; /* a synchronous send's acknowledgement follows */
    x->arrival = ready;
    pair_transfer(s, id, send, recv);
}

/* The protocol's times of a matched pair (see the file comment): when the
 * receive and the send complete, and the handshake before a rendezvous
 * message's data. */
struct pair_times {
    simtime_t recv_done, send_done, handshake;
};

/* What the protocols share of a matched pair: its post times, the two
 * nodes, the network's costs between them and whether intra-node copies
 * take turns. */
struct pair_costs {
    simtime_t ts, tr, ctrl, cost;
    bool copies, deferred;
};

/* Eager (S <= eager_limit): the data leave at the send (or at the match,
 * mpi.transfer_start: match) and arrive T(S) later. */
static void time_eager(struct sim *s, int32_t sender, const struct pair_costs *c,
                       struct pair_times *t) {
    bool at_match = s->plat->transfer_at_match;
    simtime_t leaves = at_match ? sim_max(c->ts, c->tr) : c->ts;
    if (c->copies && at_match) leaves = copy_start(s, sender, c->cost, leaves);
    t->recv_done = sim_max(c->tr, simtime_add(leaves, c->cost));
    t->send_done = c->ts; /* a standard or ready send lets go of a copy */
}

/* Rendezvous (S > eager_limit): the request-to-send, the clear-to-send
 * once both are posted, then the data, copied by the receiver's core
 * inside a node; the send is done when they are there. A time past the
 * largest is not deferred to a model: the match reports it. */
static void time_rendezvous(struct sim *s, int32_t receiver, struct pair_costs *c,
                            struct pair_times *t) {
    simtime_t matched = sim_max(c->tr, simtime_add(c->ts, t->handshake));
    simtime_t cleared = simtime_add(matched, t->handshake);
    if (c->copies) cleared = copy_start(s, receiver, c->cost, cleared);
    t->recv_done = simtime_add(cleared, c->cost);
    if (t->recv_done == SIMTIME_NEVER && !s->cont) c->deferred = false;
    t->send_done = t->recv_done;
}

/* Synchronous: an eager message's send is done when the receiver's
 * acknowledgement, T(0), reaches it; a rendezvous one's as the data
 * arrive, as a standard send's. */
static void time_synchronous(const struct pair_costs *c, bool eager, struct pair_times *t) {
    if (eager) t->send_done = simtime_add(t->recv_done, c->ctrl);
}

/* Buffered: the send is done at its post, its data copied into the
 * attached buffer (whose room is freed once they are delivered). */
static void time_buffered(const struct pair_costs *c, struct pair_times *t) {
    t->send_done = c->ts;
}

/* The pair's times by its protocol and its send's mode. Returns whether
 * the data's arrival comes later: a contention model's, or the
 * interfaces' (an eager message's if they took it at its send), which
 * then time the pair. */
static bool time_pair(struct sim *s, const struct request *send, const struct request *recv,
                      struct pair_times *t) {
    int32_t from_node = sim_node(s, send->owner), to_node = sim_node(s, recv->owner);
    bool eager = send->size <= s->plat->eager_limit;
    bool at_match = s->plat->transfer_at_match; /* mpi.transfer_start: match */
    struct pair_costs c;                        /* each field set before it is read */
    c.ts = send->post_time;
    c.tr = recv->post_time;
    c.copies = copies_serial(s, from_node, to_node);
    c.deferred = contends(s, from_node, to_node) || (c.copies && send->xfer) ||
                 (through_interfaces(s, from_node, to_node) && (!eager || send->xfer || at_match));
    *t = (struct pair_times){0, 0, 0};
    if (c.deferred && eager && !c.copies) { /* most messages between nodes */
        SIMPI_LOG(LOG_NET, sim_max(c.ts, c.tr),
                  "node %d -> %d, %lld B eager: timed by the interfaces or contention", from_node,
                  to_node, (long long)send->size);
        return true;
    }
    c.ctrl = network_control_cost(s->net, from_node, to_node);
    /* mpi.rendezvous: direct, SMPI's: the data leave once both are posted */
    t->handshake = !eager && s->plat->rendezvous_direct ? 0 : c.ctrl;
    c.cost = network_cost(s->net, from_node, to_node, send->size);
    if (eager)
        time_eager(s, send->owner, &c, t);
    else
        time_rendezvous(s, recv->owner, &c, t);
    if (send->mode == SEND_SYNC) time_synchronous(&c, eager, t);
    if (send->mode == SEND_BUFFERED) time_buffered(&c, t);
    SIMPI_LOG(LOG_NET, sim_max(c.ts, c.tr),
              "node %d -> %d, %lld B %s: cost %lld ps, control %lld ps; receive done %lld ps, "
              "send done %lld ps%s",
              from_node, to_node, (long long)send->size, eager ? "eager" : "rendezvous",
              (long long)c.cost, (long long)c.ctrl, (long long)t->recv_done,
              (long long)t->send_done, c.deferred ? " (then through the interfaces)" : "");
    return c.deferred;
}

/* Whether two steps of collectives are known to belong to the same
 * operation (with the same root) without the schedule's check: the case
 * of nearly every match of a collective's messages. */
static bool same_step_kind(const struct request *send, const struct request *recv) {
    return send->coll == recv->coll && send->user_id == recv->user_id;
}

/* Applies the protocol timing to a matched pair (see the file comment). */
void pt2pt_match(struct sim *s, struct request *send, struct request *recv) {
    if (((send->flags & RF_SUB) || send->remote_sub) && (recv->flags & RF_SUB) &&
        !same_step_kind(send, recv) && !s->up.sub_partner_ok(s, send, recv))
        return;
    simtime_t ts = send->post_time, tr = recv->post_time;
    bool eager = send->size <= s->plat->eager_limit;
    struct pair_times t;
    SIMPI_LOG(LOG_MATCH, sim_max(ts, tr),
              "rank %d's send (tag %d, %lld B, posted %lld ps) meets rank %d's receive (posted "
              "%lld ps)%s",
              send->owner, send->tag, (long long)send->size, (long long)ts, recv->owner,
              (long long)tr, (send->flags & RF_SUB) ? ", a collective's step" : "");
    bool deferred = time_pair(s, send, recv, &t);
    simtime_t recv_done = t.recv_done, send_done = t.send_done;
    if (!deferred && (recv_done == SIMTIME_NEVER || send_done == SIMTIME_NEVER)) {
        overflowing_message(s, send, recv);
        return;
    }
    recv->peer = send->owner;
    send->peer = recv->owner;
    recv->src = send->src;
    recv->tag = send->tag;
    if (!(recv->flags & RF_SUB) && recv->data) {
        deliver(s, send, recv->data);
        if (recv->flags & RF_OWNS) { /* its owner let go of it: nobody reads it */
            free(recv->data);
            recv->data = NULL;
            recv->flags &= (uint8_t)~RF_OWNS;
        }
    } else if (!(recv->flags & RF_SUB) && recv->size >= 0 && send->size > recv->size &&
               s->status == SIM_OK) { /* schedules of v-collectives may differ in size */
        char tb[48];                  /* the instant both were posted: a split run matches later */
        sim_fail(s,
                 "message truncated (MPI_ERR_TRUNCATE) at virtual time %s: rank %d sent %lld "
                 "bytes with tag %d to rank %d, whose receive has room for %lld bytes",
                 units_format_time(sim_max(ts, tr), tb, sizeof tb), send->owner,
                 (long long)send->size, send->tag, recv->owner, (long long)recv->size);
    }
    recv->size = send->size;
    send->flags |= RF_MATCHED;
    account_transfer(s, send, recv);
    if (deferred) {
        match_deferred(s, send, recv, t.handshake);
        return;
    }
    if (s->cpu.recv_free) { /* the data are there at recv_done: then the receiver's CPU */
        through_cpu(s, send, recv, recv_done, eager);
        return;
    }
    note_message(s, send->owner, recv->owner, ts, tr, recv_done);
    if (s->obs) observe_message(s, recv, ts, recv_done);
    if (send->flags & RF_BSEND) send->partner_time = recv_done; /* buffer freed then */
    request_resolve(s, recv, recv_done, ts);
    /* Resolving may free the send (its owner released it): not touched after. */
    bool remote = send->remote;
    if (!(send->flags & RF_RESOLVED))
        request_resolve(s, send, send_done, tr);
    else
        request_maybe_free(s, send);
    if (remote) s->split.cross->settle(s, send); /* a stand-in: never released, so still here */
}

static bool check_peer(struct sim *s, int32_t rank, struct comm *c, int32_t peer, bool any_ok,
                       const char *what);

/* When the envelope (eager: the data; rendezvous: the request-to-send) of a
 * send reaches its receiver. */
static simtime_t arrival(const struct sim *s, const struct request *send) {
    int32_t from_node = sim_node(s, send->owner), to_node = sim_node(s, send->peer);
    if (s->cont && send->xfer && s->xf.table[send->xfer].arrival != SIMTIME_NEVER)
        return s->xf.table[send->xfer].arrival;
    if (send->xfer && copies_serial(s, from_node, to_node))
        return s->xf.table[send->xfer].arrival; /* eager, after its sender's earlier copies */
    if (s->nic.model && send->xfer)
        return xfer_head(&s->xf.table[send->xfer]); /* eager: the head */
    if (send->size <= s->plat->eager_limit && !s->plat->transfer_at_match)
        return simtime_add(send->post_time, network_cost(s->net, from_node, to_node, send->size));
    return simtime_add(send->post_time, network_control_cost(s->net, from_node, to_node));
}

/* A probe learns of a matching send: it completes when the envelope arrives. */
static void probe_hit(struct sim *s, struct request *send, struct request *probe) {
    if (probe->data) note_envelope(probe->data, send);
    probe->peer = send->owner;
    request_resolve(s, probe, sim_max(probe->post_time, arrival(s, send)), send->post_time);
}

/* The first envelope in rank's unexpected queue matching want, or NULL. */
static void recv_place(struct sim *s, struct request *r);

struct request *sim_probe(struct sim *s, int32_t rank, int32_t comm_id, int32_t source, int32_t tag,
                          struct sim_recv_target *target) {
    int32_t me;
    struct comm *c = sim_comm_get(s, rank, comm_id, &me);
    if (!c || !check_peer(s, rank, c, source, true, "source")) return NULL;
    struct request *p = request_new(s, rank, c->ctx, REQ_RECV, tag, -1, s->eng.now);
    if (s->rec) record_skip(s, "MPI_Probe");
    p->mode = PROBE_MODE;
    p->src = source;
    p->peer = source == SIM_ANY_SOURCE ? -1 : comm_world_rank(c, source);
    p->data = target;
    request_track(s, p, -1);
    recv_place(s, p);
    return p;
}

/* Unlinks q (after prev) from rank's unexpected queue, keeping the end of
 * the prefix already offered (while delivering) in it. */
static void unexp_unlink(struct srank *me, struct request *prev, struct request *q) {
    if (me->rare && me->rare->offered == q) me->rare->offered = prev;
    queue_unlink(&me->unexp_head, &me->unexp_tail, prev, q);
}

static bool unexp_remove(struct srank *me, struct request *q) {
    struct request *prev;
    if (!queue_prev(me->unexp_head, q, &prev)) return false;
    unexp_unlink(me, prev, q);
    return true;
}

/* Queues send r, not matched, in its receiver's unexpected queue, kept in
 * the order the receiver sees them: by `visible` (the envelope's arrival,
 * not before the same sender's previous message still queued: a channel
 * delivers in order), then sender rank, then the order of queuing. A
 * message arriving after those queued goes last at once. */
static void unexp_insert(struct sim *s, struct srank *dr, struct request *r) {
    simtime_t t = arrival(s, r);
    struct request *tail = dr->unexp_tail;
    r->visible = t;
    if (!tail || tail->visible < t || (tail->visible == t && tail->owner <= r->owner)) {
        queue_append(&dr->unexp_head, &dr->unexp_tail, r);
        return;
    }
    struct request *same = NULL; /* the sender's last message queued */
    for (struct request *q = dr->unexp_head; q; q = q->qnext)
        if (q->owner == r->owner) same = q;
    if (same && same->visible > t) r->visible = t = same->visible;
    struct request *prev = same; /* after it, before the first seen later */
    for (struct request *q = prev ? prev->qnext : dr->unexp_head; q; prev = q, q = q->qnext)
        if (q->visible > t || (q->visible == t && q->owner > r->owner)) break;
    r->qnext = prev ? prev->qnext : dr->unexp_head;
    if (prev)
        prev->qnext = r;
    else
        dr->unexp_head = r;
    if (!r->qnext) dr->unexp_tail = r;
    /* not offered yet: the prefix offered ends before it */
    struct request *o = dr->rare ? dr->rare->offered : NULL;
    if (o && (t < o->visible || (t == o->visible && r->owner < o->owner))) dr->rare->offered = prev;
}

/* The first message of rank's unexpected queue that `want` matches: the
 * first the rank sees (each sender's in order), if by `by`; *before: the
 * message before it in the queue. */
static struct request *earliest_envelope(struct sim *s, int32_t rank, const struct request *want,
                                         simtime_t by, struct request **before) {
    struct request *q = queue_find(s->ranks[rank].unexp_head, want, true, before);
    return q && (by == SIMTIME_NEVER || q->visible <= by) ? q : NULL;
}

/* The message matching (source, tag) on the rank's communicator that has
 * reached it by now, still in its unexpected queue (the earliest to
 * arrive, each sender's in order; *before: the one before it); NULL if
 * none. */
static struct request *arrived_envelope(struct sim *s, int32_t rank, int32_t comm_id,
                                        int32_t source, int32_t tag, struct request **before) {
    int32_t me;
    struct comm *c = sim_comm_get(s, rank, comm_id, &me);
    if (!c) return NULL;
    struct request want = {.ctx = c->ctx, .src = source, .tag = tag};
    return earliest_envelope(s, rank, &want, s->eng.now, before);
}

bool sim_iprobe(struct sim *s, int32_t rank, int32_t comm_id, int32_t source, int32_t tag,
                struct sim_recv_target *target) {
    struct request *before, *q = arrived_envelope(s, rank, comm_id, source, tag, &before);
    if (q) note_envelope(target, q);
    return q != NULL;
}

/* --- receives from any source --- */

/* A receive from MPI_ANY_SOURCE takes, of the messages it can match, the
 * one the rank sees first: whose envelope arrives first (ties: the lower
 * sender), each sender's messages in the order sent, as MPI libraries
 * match envelopes in their order of arrival. Every other receive pairs
 * with the same message whatever the order in which sends and receives
 * are posted (MPI's non-overtaking rule), so a rank matches at once while
 * it has no any-source receive waiting. While it has one (it found no
 * message arrived when posted), the rank is "delivering": a message
 * reaches its posted receives and probes only when it arrives, in that
 * order (one event per arrival time), as it would in an MPI library, and
 * a receive posted then takes only messages already arrived. Once no
 * any-source receive waits, the rank matches at once again. No message
 * sent later can arrive before one already on the way, so the choice is
 * made when it can be known. The unexpected queue is kept in the order
 * the rank sees its messages (unexp_insert). Under a contention model,
 * whose arrivals are known only as transfers end, an any-source receive
 * does not wait: it takes at once the queued message that would arrive
 * first without contention. */

static bool delivering(const struct srank *me) {
    return me->rare && me->rare->nany > 0;
}

/* Takes r off the posted queue (it follows prev), counting a waiting
 * any-source receive out. */
static void posted_unlink(struct srank *me, struct request *prev, struct request *r) {
    queue_unlink(&me->posted_head, &me->posted_tail, prev, r);
    if (r->hold == HOLD_ANY) me->rare->nany--;
    r->hold = HOLD_NONE;
}

/* Message q meets rank's posted receives: the probes before the first
 * receive matching it see it (and leave the queue); returns that receive,
 * still queued after *prev, or NULL. */
static struct request *first_taker(struct sim *s, struct srank *me, struct request *q,
                                   struct request **prev) {
    struct request *recv = queue_find(me->posted_head, q, false, prev);
    while (recv && recv->mode == PROBE_MODE) {
        posted_unlink(me, *prev, recv);
        probe_hit(s, q, recv);
        recv = queue_find(me->posted_head, q, false, prev);
    }
    return recv;
}

/* Message q, arrived (after prev in rank's unexpected queue), meets the
 * receives posted; returns whether one took it. */
static bool offer(struct sim *s, struct srank *me, struct request *prev, struct request *q) {
    struct request *pprev, *recv = first_taker(s, me, q, &pprev);
    if (!recv) return false;
    posted_unlink(me, pprev, recv);
    unexp_unlink(me, prev, q);
    pt2pt_match(s, q, recv);
    return true;
}

/* Back to matching at once: the receives posted meanwhile are placed
 * again, in the order they were posted. */
static void stop_delivering(struct sim *s, int32_t rank) {
    struct srank *me = &s->ranks[rank];
    struct rank_rare *rare = me->rare; /* it was delivering */
    rare->deliver_gen++;
    rare->deliver_at = SIMTIME_NEVER;
    rare->offered = NULL;
    struct request *held = me->posted_head;
    me->posted_head = me->posted_tail = NULL;
    while (held) {
        struct request *q = held;
        held = q->qnext;
        q->qnext = NULL;
        recv_place(s, q);
    }
}

/* The next arrival to deliver to rank: an event at the first message of
 * its unexpected queue not arrived by now. */
static void deliver_arm(struct sim *s, int32_t rank) {
    struct srank *me = &s->ranks[rank];
    struct rank_rare *rare = me->rare; /* it delivers */
    struct request *q = rare->offered ? rare->offered->qnext : me->unexp_head;
    while (q && q->visible <= s->eng.now)
        q = q->qnext;
    if (!q || q->visible == rare->deliver_at) return;
    rare->deliver_at = q->visible;
    engine_schedule(&s->eng, q->visible, rank, EV_ANY, ++rare->deliver_gen, NULL);
}

/* Offers the messages arrived by now that were not offered yet, in the
 * order the rank sees them. */
static void deliver_arrived(struct sim *s, int32_t rank) {
    struct srank *me = &s->ranks[rank];
    struct request *prev = me->rare->offered, *q = prev ? prev->qnext : me->unexp_head, *next;
    for (; q && q->visible <= s->eng.now && delivering(me); q = next) {
        next = q->qnext;
        if (!offer(s, me, prev, q)) prev = q;
        me->rare->offered = prev;
    }
    if (delivering(me))
        deliver_arm(s, rank);
    else
        stop_delivering(s, rank);
}

void pt2pt_any_event(void *ctx, const struct event *ev) {
    struct sim *s = ctx;
    int32_t rank = event_rank(ev, s->nranks);
    struct srank *me = &s->ranks[rank];
    if (!me->rare || ev->gen != me->rare->deliver_gen) return; /* moved, or not delivering */
    me->rare->deliver_at = SIMTIME_NEVER;
    deliver_arrived(s, rank);
}

/* Matches receive (or probe) r with an unexpected message (a probe sees
 * it, takes nothing), or queues it; while the rank delivers, or for an
 * any-source receive, only a message arrived by now. */
static void recv_place(struct sim *s, struct request *r) {
    struct srank *me = &s->ranks[r->owner];
    bool any = r->src == SIM_ANY_SOURCE && !s->cont;
    simtime_t by = delivering(me) || any ? s->eng.now : SIMTIME_NEVER;
    struct request *before, *q = earliest_envelope(s, r->owner, r, by, &before);
    if (q && r->mode == PROBE_MODE) {
        probe_hit(s, q, r);
        return;
    }
    if (q) {
        unexp_unlink(me, before, q);
        pt2pt_match(s, q, r);
        return;
    }
    queue_append(&me->posted_head, &me->posted_tail, r);
    if (any && rank_rare(me)->nany++ == 0) { /* starts delivering: what arrived has met it */
        me->rare->offered = NULL;
        for (struct request *e = me->unexp_head; e && e->visible <= s->eng.now; e = e->qnext)
            me->rare->offered = e;
    }
    if (any) r->hold = HOLD_ANY;
    if (delivering(me)) deliver_arm(s, r->owner);
}

/* Send r, just queued unexpected at its receiver: a receiver that delivers
 * offers it now if it has arrived, else when it does. */
static void queued_for_delivery(struct sim *s, struct request *r) {
    struct srank *dr = &s->ranks[r->peer];
    if (!delivering(dr)) return;
    if (r->visible <= s->eng.now)
        deliver_arrived(s, r->peer);
    else if (dr->rare->deliver_at == SIMTIME_NEVER || r->visible < dr->rare->deliver_at)
        deliver_arm(s, r->peer);
}

struct request *pt2pt_post_send(struct sim *s, int32_t rank, struct comm *c, int32_t myrank,
                                uint32_t ctx, int32_t dest, int32_t tag, int64_t size,
                                enum send_mode mode, struct sched *owner, simtime_t at,
                                const void *buf) {
    at = loggp_post_time(s, rank, at, size, owner != NULL);
    if (faults_any_down(s->net->faults)) fault_partitioned(s, rank, comm_world_rank(c, dest));
    struct request *r = request_new(s, rank, ctx, REQ_SEND, tag, size, at);
    if (owner) {
        r->sched = owner;
        r->flags |= RF_SUB;
        s->up.sub_mark(owner, r);
    } else {
        r->data = (void *)buf; /* delivered from the caller's buffer if matched at once */
    }
    int32_t wdest = comm_world_rank(c, dest);
    r->seq = s->ranks[rank].sends++;
    r->src = myrank;
    r->peer = wdest;
    r->mode = (uint8_t)mode;
    if (mode == SEND_BUFFERED) bsend_reserve(s, rank, r);
    bool eager = size <= s->plat->eager_limit;
    if (mode == SEND_BUFFERED || (eager && mode != SEND_SYNC)) request_resolve(s, r, at, at);
    bool leaves = eager && !s->plat->transfer_at_match; /* else its data wait for the match */
    int32_t from_node = leaves ? sim_node(s, rank) : 0, to_node = leaves ? sim_node(s, wdest) : 0;
    if (leaves && contends(s, from_node, to_node)) start_eager_transfer(s, r);
    if (leaves && through_interfaces(s, from_node, to_node)) nics_send_eager(s, r);
    if (leaves && copies_serial(s, from_node, to_node)) copies_send_eager(s, r);
    if (!sim_local(s, wdest)) { /* its receiver's worker matches it */
        s->split.cross->envelope(s, r);
        if (!(r->flags & RF_SUB)) r->data = NULL;
        if (pt2pt_done_at_post(s, r)) r->flags |= RF_MATCHED; /* no news will come back */
        return r;
    }
    if (owner) return r; /* its schedule matches it (steps.c) */
    struct srank *dr = &s->ranks[wdest];
    struct request *prev = NULL, *recv = NULL;
    if (!delivering(dr)) recv = first_taker(s, dr, r, &prev); /* else when it arrives */
    bool borrowed = false;
    if (recv) {
        posted_unlink(dr, prev, recv);
        pt2pt_match(s, r, recv);
    } else {
        /* an eager or buffered send completes at once and the caller may
         * reuse its buffer: keep a copy; a rendezvous send completes only
         * once its data are delivered, so its buffer is still MPI's */
        borrowed = buf && size > 0 && sim_send_borrows(s, size, mode);
        if (buf && size > 0 && !borrowed) {
            r->data = xmalloc((size_t)size);
            memcpy(r->data, buf, (size_t)size);
            r->flags |= RF_OWNS;
        }
        unexp_insert(s, dr, r);
    }
    if (!(r->flags & RF_SUB) && !(r->flags & RF_OWNS) && !borrowed) r->data = NULL;
    if (!recv) queued_for_delivery(s, r); /* after r's payload is kept */
    return r;
}

bool pt2pt_done_at_post(const struct sim *s, const struct request *send) {
    return send->size <= s->plat->eager_limit && send->mode != SEND_SYNC &&
           !(send->flags & RF_BSEND);
}

void pt2pt_accept_remote(struct sim *s, struct request *r) {
    if (r->remote_sub) { /* a collective's step: its receiver's schedule matches it */
        s->up.step_arrived(s, r);
        return;
    }
    struct srank *dr = &s->ranks[r->peer];
    struct request *prev = NULL, *recv = NULL;
    if (!delivering(dr)) recv = first_taker(s, dr, r, &prev); /* else when it arrives */
    if (recv) {
        posted_unlink(dr, prev, recv);
        pt2pt_match(s, r, recv);
        return;
    }
    unexp_insert(s, dr, r);
    queued_for_delivery(s, r);
}

void pt2pt_remote_update(struct sim *s, struct request *r, uint8_t flags, simtime_t done,
                         simtime_t partner) {
    r->flags |= flags & RF_MATCHED;
    if ((flags & RF_MATCHED) && (r->flags & RF_BSEND)) r->partner_time = partner;
    if ((flags & RF_RESOLVED) && !(r->flags & RF_RESOLVED))
        request_resolve(s, r, done, partner);
    else
        request_maybe_free(s, r);
}

struct request *pt2pt_post_recv(struct sim *s, int32_t rank, struct comm *c, uint32_t ctx,
                                int32_t source, int32_t tag, int64_t size, struct sched *owner,
                                simtime_t at, struct sim_recv_target *target) {
    struct request *r = request_new(s, rank, ctx, REQ_RECV, tag, size, at);
    r->src = source;
    r->peer = source == SIM_ANY_SOURCE ? -1 : comm_world_rank(c, source);
    if (owner) { /* its schedule matches it (steps.c) */
        r->sched = owner;
        r->flags |= RF_SUB;
        s->up.sub_mark(owner, r);
        return r;
    }
    r->data = target;
    recv_place(s, r);
    return r;
}

void pt2pt_count_sent(struct sim *s, struct request *q) {
    if (q->remote) { /* the sender's figures are another worker's */
        s->split.cross->count_sent(s, q->owner, q->size);
        return;
    }
    s->ranks[q->owner].st.msgs_sent++;
    s->ranks[q->owner].st.bytes_sent += q->size;
}

void pt2pt_count_unmatched_sent(struct sim *s) {
    for (int32_t i = 0; i < s->nranks; i++)
        for (struct request *q = sim_local(s, i) ? s->ranks[i].unexp_head : NULL; q; q = q->qnext)
            pt2pt_count_sent(s, q);
}

int64_t pt2pt_unmatched(const struct sim *s) {
    int64_t n = 0;
    for (int32_t i = 0; i < s->nranks; i++)
        for (struct request *q = sim_local(s, i) ? s->ranks[i].unexp_head : NULL; q; q = q->qnext)
            n++;
    return n;
}

static bool check_peer(struct sim *s, int32_t rank, struct comm *c, int32_t peer, bool any_ok,
                       const char *what) {
    if ((any_ok && peer == SIM_ANY_SOURCE) || (peer >= 0 && peer < c->size)) return true;
    sim_fail(s, "rank %d: invalid %s rank %d (MPI_ERR_RANK); the communicator has %d ranks", rank,
             what, peer, c->size);
    return false;
}

struct request *sim_isend(struct sim *s, int32_t rank, int32_t comm_id, int32_t dest, int32_t tag,
                          int64_t size, enum send_mode mode, int32_t user_id) {
    int32_t me;
    struct comm *c = sim_comm_get(s, rank, comm_id, &me);
    if (!c || !check_peer(s, rank, c, dest, false, "destination")) return NULL;
    if (s->flt.ndead && s->ranks[comm_world_rank(c, dest)].dead == 1) { /* ULFM: it failed */
        struct request *f = fault_failed_request(s, rank, REQ_SEND);
        request_track(s, f, user_id);
        return f;
    }
    struct request *r =
        pt2pt_post_send(s, rank, c, me, c->ctx, dest, tag, size, mode, NULL, s->eng.now, NULL);
    request_track(s, r, user_id);
    if (s->rec) record_p2p(s, r, comm_id, dest, tag, size, true, mode);
    return r;
}

struct request *sim_irecv(struct sim *s, int32_t rank, int32_t comm_id, int32_t source, int32_t tag,
                          int64_t size, int32_t user_id) {
    int32_t me;
    struct comm *c = sim_comm_get(s, rank, comm_id, &me);
    if (!c || !check_peer(s, rank, c, source, true, "source")) return NULL;
    if (s->flt.ndead && source >= 0 && s->ranks[comm_world_rank(c, source)].dead == 1) {
        struct request *f = fault_failed_request(s, rank, REQ_RECV);
        request_track(s, f, user_id);
        return f;
    }
    struct request *r =
        pt2pt_post_recv(s, rank, c, c->ctx, source, tag, size, NULL, s->eng.now, NULL);
    request_track(s, r, user_id);
    if (s->rec) record_p2p(s, r, comm_id, source, tag, size, false, SEND_STANDARD);
    return r;
}

bool sim_send_borrows(const struct sim *s, int64_t size, enum send_mode mode) {
    return size > s->plat->eager_limit && mode != SEND_BUFFERED;
}

struct request *sim_isend_buf(struct sim *s, int32_t rank, int32_t comm_id, int32_t dest,
                              int32_t tag, int64_t size, enum send_mode mode, const void *buf) {
    int32_t me;
    struct comm *c = sim_comm_get(s, rank, comm_id, &me);
    if (!c || !check_peer(s, rank, c, dest, false, "destination")) return NULL;
    struct request *r =
        pt2pt_post_send(s, rank, c, me, c->ctx, dest, tag, size, mode, NULL, s->eng.now, buf);
    request_track(s, r, -1);
    if (s->rec) record_p2p(s, r, comm_id, dest, tag, size, true, mode);
    return r;
}

struct request *sim_irecv_buf(struct sim *s, int32_t rank, int32_t comm_id, int32_t source,
                              int32_t tag, struct sim_recv_target *target) {
    int32_t me;
    struct comm *c = sim_comm_get(s, rank, comm_id, &me);
    if (!c || !check_peer(s, rank, c, source, true, "source")) return NULL;
    struct request *r =
        pt2pt_post_recv(s, rank, c, c->ctx, source, tag, -1, NULL, s->eng.now, target);
    request_track(s, r, -1);
    if (s->rec) record_p2p(s, r, comm_id, source, tag, target->capacity, false, SEND_STANDARD);
    return r;
}

void pt2pt_free_payloads(struct sim *s) {
    for (int32_t i = 0; i < s->nranks; i++)
        for (int queue = 0; queue < 2 && sim_local(s, i); queue++)
            for (struct request *q = queue ? s->ranks[i].posted_head : s->ranks[i].unexp_head; q;
                 q = q->qnext)
                if (q->flags & RF_OWNS) { /* a send's payload, a freed receive's target */
                    free(q->data);
                    q->flags &= (uint8_t)~RF_OWNS;
                }
}

/* A cancellation of a send on its way to the receiver, and the answer. */
struct cancel_msg {
    uint64_t send;   /* the send, in its sender's worker */
    uint64_t answer; /* the signal that waits for the answer there, or 0 */
    int32_t sender;
    uint8_t cancelled, pad[3];
};

static void cancel_send(struct sim *s, int32_t rank, struct request *r, struct request *answer) {
    struct cancel_msg m = {(uint64_t)(uintptr_t)r, (uint64_t)(uintptr_t)answer, rank, 0, {0}};
    struct sim_piece piece = {&m, sizeof m};
    land_post(s, rank, r->peer, simtime_add(s->eng.now, sim_control_latency(s, rank, r->peer)),
              LAND_CANCEL_REQUEST, &piece, 1);
}

/* At the receiver: the send (or, from another worker, its stand-in) is
 * withdrawn if it still waits in the unexpected queue. */
static bool withdraw(struct sim *s, int32_t receiver, const struct cancel_msg *m) {
    struct srank *dr = &s->ranks[receiver];
    struct request *q = dr->unexp_head;
    while (q && !(q->remote ? (uint64_t)q->cpu_mark == m->send : (uint64_t)(uintptr_t)q == m->send))
        q = q->qnext;
    if (!q || !unexp_remove(dr, q)) return false;
    if (!q->remote) return true; /* the sender's side, at the answer */
    if (q->flags & RF_OWNS) free(q->data);
    q->data = NULL;
    q->flags = (uint8_t)((q->flags & ~RF_OWNS) | RF_MATCHED | RF_RESOLVED);
    request_release(s, q);
    return true;
}

/* At the sender, the answer: a withdrawn send completes now. */
static void cancel_answered(struct sim *s, const struct cancel_msg *m) {
    struct request *r = (struct request *)(uintptr_t)m->send;
    if (m->cancelled) {
        r->hold = HOLD_CANCELLED;
        r->flags |= RF_MATCHED; /* no longer referenced by a queue */
        if (r->flags & RF_OWNS) free(r->data);
        r->flags &= (uint8_t)~RF_OWNS;
        r->data = NULL;
        r->partner_time = s->eng.now; /* a held buffered send frees its space now */
        if (!(r->flags & RF_RESOLVED))
            request_resolve(s, r, s->eng.now, s->eng.now);
        else
            request_maybe_free(s, r);
    }
    if (m->answer) sim_signal_fire(s, (struct request *)(uintptr_t)m->answer, s->eng.now);
}

void pt2pt_cancel_land(struct sim *s, uint8_t kind, int32_t target, const void *msg, uint32_t len) {
    struct cancel_msg m;
    if (len < sizeof m) return;
    memcpy(&m, msg, sizeof m);
    if (kind == LAND_CANCEL_REPLY) {
        cancel_answered(s, &m);
        return;
    }
    m.cancelled = withdraw(s, target, &m);
    struct sim_piece piece = {&m, sizeof m};
    land_post(s, target, m.sender,
              simtime_add(s->eng.now, sim_control_latency(s, target, m.sender)), LAND_CANCEL_REPLY,
              &piece, 1);
}

bool sim_cancel(struct sim *s, int32_t rank, struct request *r, struct request *answer) {
    struct srank *me = &s->ranks[rank];
    if (s->rec && r->rec_id >= 0) record_cancel(s, rank, r);
    struct request *prev;
    if (r->kind == REQ_RECV && !(r->flags & RF_RESOLVED) && queue_prev(me->posted_head, r, &prev)) {
        bool was = delivering(me);
        posted_unlink(me, prev, r);
        request_resolve(s, r, s->eng.now, s->eng.now);
        if (was && !delivering(me)) stop_delivering(s, rank); /* the last one waiting */
        return true;
    }
    if (r->kind == REQ_SEND && !(r->flags & RF_SUB) && r->hold != HOLD_CANCELLED)
        cancel_send(s, rank, r, answer); /* matched or not, the receiver's node answers */
    else if (answer)
        sim_signal_fire(s, answer, s->eng.now); /* nothing to ask */
    return false;
}

void pt2pt_fail_recv(struct sim *s, struct request *r) {
    struct srank *me = &s->ranks[r->owner];
    struct request *prev;
    if (queue_prev(me->posted_head, r, &prev)) {
        bool was = delivering(me);
        posted_unlink(me, prev, r);
        if (was && !delivering(me)) stop_delivering(s, r->owner);
    }
    r->hold = HOLD_FAILED;
    request_resolve(s, r, s->eng.now, s->eng.now);
}

bool sim_request_cancelled(const struct request *r) {
    return r->kind == REQ_SEND && r->hold == HOLD_CANCELLED;
}

struct request *sim_claim(struct sim *s, int32_t rank, int32_t comm_id, int32_t source, int32_t tag,
                          struct sim_recv_target *target) {
    struct request *before, *q = arrived_envelope(s, rank, comm_id, source, tag, &before);
    if (!q) return NULL;
    unexp_unlink(&s->ranks[rank], before, q);
    note_envelope(target, q);
    return q; /* still unmatched: kept alive until sim_mrecv */
}

struct request *sim_mrecv(struct sim *s, int32_t rank, struct request *send,
                          struct sim_recv_target *target) {
    struct request *r = request_new(s, rank, send->ctx, REQ_RECV, send->tag, -1, s->eng.now);
    if (s->rec) record_skip(s, "MPI_Mrecv (a matched probe)");
    r->data = target;
    r->src = send->src;
    r->peer = send->owner;
    pt2pt_match(s, send, r);
    request_track(s, r, -1);
    return r;
}
