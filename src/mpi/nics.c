/* SPDX-License-Identifier: BSD-3-Clause */
/* The nodes' serial interfaces in the protocols (network.interfaces: serial,
 * docs/network.md): what a message between nodes does to the injection side
 * of its source node and the ejection side of its destination node, in an
 * order that the source's and the destination's own events determine, so
 * that the result does not depend on the order in which the engine handles
 * ranks of different nodes (docs/architecture.md, "Toward K workers"):
 *   - an eager message reserves its source's injection side when it is
 *     posted (an event of a rank of that node);
 *   - a rendezvous message reserves it when its clear-to-send reaches the
 *     sender (an event of the sending rank at that time);
 *   - a node's ejection side is reserved in the order of its messages'
 *     first bytes (their injection start plus T(S) - W(S)), ties by sender
 *     rank and the sender's count of messages. A first byte comes at least
 *     one lookahead (network_lookahead) after the injection is reserved.
 *     Time is cut in windows of half the lookahead: the messages whose
 *     first bytes fall in one window all left before the window that
 *     precedes it, whose start one event then reserves them for, instead
 *     of one event per message; and the arrivals found there are known a
 *     window early (what a split run needs to tell a sender on another
 *     worker in time). Each node keeps its messages in order in a list of
 *     its own (struct nic_ejections): no order across nodes is kept, as
 *     none matters, which makes a message's way constant-time where a
 *     queue of every node's messages cost a log.
 * A receive matched with such a message waits, as under a contention model,
 * for the arrival to be known (pt2pt_finish_transfer). On a network without
 * lookahead (a zero latency between nodes) both sides are reserved at once,
 * in the engine's order. */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hash.h"
#include "core/ranktable.h"
#include "mpi/nics.h"
#include "mpi/part.h"
#include "mpi/pt2pt.h"
#include "mpi/sim_internal.h"
#include "net/faults.h"

/* --- queues of transfers by (at, sending rank, its sequence): sorted runs
 * for the entries that come in order, a 4-ary heap for the others, the keys
 * kept in the entries so that comparing touches no transfer. The keys are
 * unique (a sender's count), so the order taken out is the same whichever
 * holds an entry. --- */

static bool entry_before(const struct nic_entry *a, const struct nic_entry *b) {
    return a->at != b->at ? a->at < b->at : a->order < b->order;
}

static void heap_insert(struct nic_heap *h, struct nic_entry e) {
    if (h->n == h->cap) {
        h->cap = h->cap ? 2 * h->cap : 64;
        h->e = xrealloc_or_die(h->e, sizeof *h->e * h->cap);
    }
    size_t i = h->n++;
    while (i > 0 && entry_before(&e, &h->e[(i - 1) / 4])) {
        h->e[i] = h->e[(i - 1) / 4];
        i = (i - 1) / 4;
    }
    h->e[i] = e;
}

static uint32_t heap_take(struct nic_heap *h) {
    uint32_t top = h->e[0].id;
    struct nic_entry last = h->e[--h->n];
    size_t i = 0, n = h->n;
    for (;;) {
        size_t c = 4 * i + 1;
        if (c >= n) break;
        size_t best = c, end = c + 4 < n ? c + 4 : n;
        for (size_t k = c + 1; k < end; k++)
            if (entry_before(&h->e[k], &h->e[best])) best = k;
        if (!entry_before(&h->e[best], &last)) break;
        h->e[i] = h->e[best];
        i = best;
    }
    if (n) h->e[i] = last;
    return top;
}

/* Appends the entry (at, order, id) to run r, whose room starts at
 * first_cap entries. Its fields come in registers and are written in
 * place: an entry built on the stack and passed whole was read back in
 * other widths than it was written, which stalled every append (store
 * forwarding, perf annotate). */
static inline void run_append(struct nic_run *r, simtime_t at, uint64_t order, uint32_t id,
                              size_t first_cap) {
    if (r->tail == r->cap) {
        if (r->head > 0 && r->head >= r->cap / 2) { /* slide the run down */
            memmove(r->e, r->e + r->head, sizeof *r->e * (r->tail - r->head));
            r->tail -= r->head;
            r->head = 0;
        } else {
            r->cap = r->cap ? 2 * r->cap : first_cap;
            r->e = xrealloc_or_die(r->e, sizeof *r->e * r->cap);
        }
    }
    r->e[r->tail++] = (struct nic_entry){at, order, id};
    r->last_at = at;
    r->last_order = order;
}

/* Whether e comes before run r's last entry (r is not empty). */
static bool before_last(const struct nic_entry *e, const struct nic_run *r) {
    return e->at != r->last_at ? e->at < r->last_at : e->order < r->last_order;
}

/* The hint slot of time t. */
static unsigned at_hint(simtime_t t) {
    return hash_fib_top((uint64_t)t, 6); /* NIC_AT_HINTS = 64 */
}

/* The run that e extends: one whose last entry has e's time (and comes
 * before it), else an empty one, else one whose last entry comes before e;
 * NULL if none. The run an entry of e's time went to last is tried first:
 * it is the one, if it still ends with that time. */
static struct nic_run *run_for(struct nic_heap *h, const struct nic_entry *e) {
    int hinted = h->run_of_at[at_hint(e->at)] - 1;
    if (hinted >= 0) {
        struct nic_run *r = &h->run[hinted];
        if (r->head != r->tail && r->last_at == e->at && !before_last(e, r)) return r;
    }
    struct nic_run *empty = NULL, *before = NULL;
    for (int i = 0; i < NIC_RUNS; i++) {
        struct nic_run *r = &h->run[i];
        if (r->head == r->tail) {
            if (!empty) empty = r;
            continue;
        }
        if (!before_last(e, r)) {
            if (r->last_at == e->at) return r;
            if (!before) before = r;
        }
    }
    return empty ? empty : before;
}

/* Keeps run r's first key for the tree (an empty run's comes last). */
static void note_first(struct nic_heap *h, int r) {
    const struct nic_run *run = &h->run[r];
    h->first_at[r] = run->head == run->tail ? INT64_MAX : run->e[run->head].at;
    h->first_order[r] = run->head == run->tail ? UINT64_MAX : run->e[run->head].order;
}

/* Whether run a's first entry comes before run b's. */
static bool run_first_before(const struct nic_heap *h, int a, int b) {
    return h->first_at[a] != h->first_at[b] ? h->first_at[a] < h->first_at[b]
                                            : h->first_order[a] < h->first_order[b];
}

/* Run r's first entry changed: its key, and the winners on its way to
 * the root, each the better of the winner below on r's side and the
 * sibling subtree's (win[NIC_RUNS + r] is leaf r itself). */
static void tree_update(struct nic_heap *h, int r) {
    note_first(h, r);
    int w = r;
    for (int i = r + NIC_RUNS; i > 1; i /= 2) {
        int other = h->win[i ^ 1];
        if (run_first_before(h, other, w)) w = other;
        h->win[i / 2] = (uint8_t)w;
    }
}

static void nic_heap_init(struct nic_heap *h) {
    for (int r = 0; r < NIC_RUNS; r++) {
        note_first(h, r);
        h->win[NIC_RUNS + r] = (uint8_t)r;
    }
    for (int i = NIC_RUNS - 1; i >= 1; i--) /* every run empty: each subtree's first leaf */
        h->win[i] = h->win[2 * i];
}

static void nic_heap_push(struct nic_heap *h, const struct xfer *x, uint32_t id) {
    struct nic_entry e = {x->at, (uint64_t)(uint32_t)x->from << 32 | x->seq, id};
    struct nic_run *r = run_for(h, &e);
    if (r) {
        bool was_empty = r->head == r->tail;
        int i = (int)(r - h->run);
        run_append(r, e.at, e.order, id, 64);
        h->run_of_at[at_hint(e.at)] = (uint8_t)(i + 1);
        if (was_empty) tree_update(h, i);
    } else {
        heap_insert(h, e);
    }
    h->size++;
}

static size_t nic_heap_size(const struct nic_heap *h) {
    return h->size;
}

/* The first entry (the queue is not empty), and in *from the run holding
 * it, or NULL if the heap does: what nic_heap_take then takes out. */
static const struct nic_entry *nic_heap_first(const struct nic_heap *h, struct nic_run **from) {
    const struct nic_entry *best = h->n ? &h->e[0] : NULL;
    const struct nic_run *r = &h->run[h->win[1]];
    *from = NULL;
    if (r->head != r->tail && (!best || entry_before(&r->e[r->head], best))) {
        best = &r->e[r->head];
        *from = (struct nic_run *)r;
    }
    return best;
}

/* Takes out the first entry, found by nic_heap_first in `from`. */
static uint32_t nic_heap_take(struct nic_heap *h, struct nic_run *from) {
    h->size--;
    if (!from) return heap_take(h);
    uint32_t id = from->e[from->head++].id;
    if (from->head == from->tail) from->head = from->tail = 0;
    tree_update(h, (int)(from - h->run));
    return id;
}

static void nic_heap_free(struct nic_heap *h) {
    free(h->e);
    for (int i = 0; i < NIC_RUNS; i++)
        free(h->run[i].e);
}

/* --- a message's way through the two sides --- */

/* When the ejection side takes a message whose first byte arrives at t:
 * one window before the start of t's window (the windows are half the
 * lookahead long, so the message left at least a window before that,
 * and the arrival it gives is known at least a window ahead). */
static simtime_t eject_due(const struct sim *s, simtime_t t) {
    return t - t % s->nic.window - s->nic.window;
}

/* The data of transfer id have arrived at t: a receive matched already
 * completes. */
static void arrived(struct sim *s, uint32_t id, simtime_t t) {
    s->xf.table[id].arrival = t;
    if (s->xf.table[id].recv) s->up.transfer_arrived(s, id);
}

static inline void eject(struct sim *s, uint32_t id) {
    const struct xfer *x = &s->xf.table[id];
    int32_t node = sim_node(s, x->to);
    arrived(s, id, interfaces_eject(s->nic.model, node, s->eng.now, x->at, x->wire_in));
}

/* --- per node, the data waiting for their window (struct nic_ejections) --- */

static bool due_before(const void *a, const void *b) {
    const struct nic_due *x = a, *y = b;
    return x->due != y->due ? x->due < y->due : x->node < y->node;
}

/* Node's first data are due at `due`: in that time's slot, else the heap. */
static void ejections_register(struct sim *s, simtime_t due, int32_t node) {
    struct nic_ejections *q = &s->nic.ejq;
    struct nic_slot *sl = &q->slot[(uint64_t)(due / s->nic.window) % NIC_SLOTS];
    if (sl->n && sl->due != due) {
        struct nic_due d = {due, node};
        heap_push(&q->due, &d);
        return;
    }
    if (sl->n == sl->cap) {
        sl->cap = sl->cap ? 2 * sl->cap : 64;
        sl->nodes = xrealloc_or_die(sl->nodes, sizeof *sl->nodes * sl->cap);
    }
    sl->due = due;
    sl->nodes[sl->n++] = node;
}

/* The earliest due time registered; SIMTIME_NEVER if none. */
static simtime_t ejections_next(const struct nic_ejections *q) {
    simtime_t next = q->due.n ? ((const struct nic_due *)q->due.v)->due : SIMTIME_NEVER;
    for (int i = 0; i < NIC_SLOTS; i++)
        if (q->slot[i].n && q->slot[i].due < next) next = q->slot[i].due;
    return next;
}

/* Transfer id (x), due at `due`, waits in its destination node's list, in
 * order; a new first registers the node for its due time unless the one
 * it replaced was due then too. */
static void ejections_push(struct sim *s, const struct xfer *x, uint32_t id, simtime_t due) {
    struct nic_ejections *q = &s->nic.ejq;
    int32_t node = sim_node(s, x->to);
    struct nic_run *l = &q->list[node];
    if (!l->cap) { /* its room, allocated below, freed at the end */
        if (q->nwith_room == q->with_room_cap) {
            q->with_room_cap = q->with_room_cap ? 2 * q->with_room_cap : 64;
            q->with_room = xrealloc_or_die(q->with_room, sizeof *q->with_room * q->with_room_cap);
        }
        q->with_room[q->nwith_room++] = node;
    }
    struct nic_entry e = {x->at, (uint64_t)(uint32_t)x->from << 32 | x->seq, id};
    bool in_order = l->head == l->tail || !before_last(&e, l); /* most: no entry read */
    run_append(l, e.at, e.order, id, 8);                       /* a node's: a few each window */
    size_t i = l->tail - 1;
    if (!in_order) {
        while (i > l->head && entry_before(&e, &l->e[i - 1])) {
            l->e[i] = l->e[i - 1];
            i--;
        }
        l->e[i] = e;
        l->last_at = l->e[l->tail - 1].at;
        l->last_order = l->e[l->tail - 1].order;
    }
    if (i != l->head || (l->tail - l->head > 1 && eject_due(s, l->e[i + 1].at) == due)) return;
    ejections_register(s, due, node);
}

/* Moves the data of a registered node that are due by now (their first
 * bytes before `before`) to the batch; registers the node again for the
 * rest, if it took any. */
static void ejections_take_node(struct sim *s, int32_t node, simtime_t before) {
    struct nic_ejections *q = &s->nic.ejq;
    struct nic_run *l = &q->list[node];
    size_t from = l->head;
    while (l->head < l->tail && l->e[l->head].at < before) {
        if (q->nbatch == q->batch_cap) {
            q->batch_cap = q->batch_cap ? 2 * q->batch_cap : 256;
            q->batch = xrealloc_or_die(q->batch, sizeof *q->batch * q->batch_cap);
        }
        q->batch[q->nbatch++] = l->e[l->head++].id;
    }
    if (l->head == l->tail) { /* emptied (now, or before: a stale registration) */
        l->head = l->tail = 0;
        return;
    }
    if (l->head == from) return; /* stale: registered again when it took */
    ejections_register(s, eject_due(s, l->e[l->head].at), node);
}

/* The first byte of transfer id (x->at) reaches the destination's ejection
 * side, which takes it at once if it carries nothing or the run has no
 * lookahead, else in the batch a window ahead of the first byte's window. */
void nics_toward_ejection(struct sim *s, uint32_t id) {
    struct xfer *x = &s->xf.table[id];
    if (x->wire_in == 0) {
        arrived(s, id, x->at); /* the head */
        return;
    }
    simtime_t due = s->nic.window ? eject_due(s, x->at) : 0;
    /* due can be now in a split run (the first byte came from another
     * worker at a window's end): the batch at now has not run yet */
    if (!s->nic.window || due < s->eng.now) { /* no lookahead */
        eject(s, id);
        return;
    }
    ejections_push(s, x, id, due);
    if (due < s->nic.batch_at) {
        s->nic.batch_at = due;
        engine_schedule(&s->eng, due, -1, EV_NET, ++s->nic.batch_gen, NULL);
    }
}

/* Reserves the injection side of node `from` (the source's) from
 * `ready`: when the head and the first byte arrive follows. */
static void reserve_injection(struct sim *s, struct xfer *x, int32_t from, simtime_t ready,
                              const struct nic_cost *c) {
    simtime_t injected = interfaces_inject(s->nic.model, from, s->eng.now, ready, c->wire_out);
    simtime_t head = simtime_add(injected, c->cost);
    x->wire_in = c->wire_in;
    x->at = head - c->wire_in;
    x->arrival = SIMTIME_NEVER; /* a rendezvous transfer's size was there */
}

/* Injection from node `from`, then the way to the ejection side: here, or
 * on the worker of the destination (which holds the transfer as
 * x->remote - 1). */
static void inject(struct sim *s, uint32_t id, int32_t from, simtime_t ready,
                   const struct nic_cost *c) {
    struct xfer *x = &s->xf.table[id];
    reserve_injection(s, x, from, ready, c);
    if (!x->remote) {
        nics_toward_ejection(s, id);
        return;
    }
    s->split.cross->eject(s, x);
    transfer_free(s, id);
}

/* The costs of a message of `size` between nodes a and b, on a flat
 * network the last size's again when it is the same. */
static inline void costs_between(struct sim *s, int32_t a, int32_t b, int64_t size,
                                 struct nic_cost *c) {
    bool flat = a != b && topology_is_flat(&s->net->topo);
    if (flat && s->nic.costs.known && s->nic.costs.size == size) {
        *c = s->nic.costs.c;
        return;
    }
    c->cost = network_cost(s->net, a, b, size);
    network_wire_times(s->net, a, b, size, &c->wire_out, &c->wire_in);
    if (c->wire_in > c->cost) c->wire_in = c->cost;
    if (flat) {
        s->nic.costs.known = true;
        s->nic.costs.size = size;
        s->nic.costs.c = *c;
    }
}

/* The costs of `size` bytes of transfer x (its ranks set). */
static void xfer_costs(struct sim *s, const struct xfer *x, int64_t size, struct nic_cost *c) {
    costs_between(s, sim_node(s, x->from), sim_node(s, x->to), size, c);
}

void nics_set_size(struct xfer *x, int64_t size, uint32_t seq) {
    x->size = size;
    x->seq = seq;
}

/* A new eager transfer between ranks `from` and `to`, of nodes a and b,
 * and its costs (c). */
static uint32_t eager_xfer(struct sim *s, int32_t from, int32_t to, int32_t a, int32_t b,
                           int64_t size, uint32_t seq, struct nic_cost *c) {
    uint32_t id = transfer_new(s);
    struct xfer *x = &s->xf.table[id];
    x->eager = 1;
    x->from = from;
    x->to = to;
    x->seq = seq;
    costs_between(s, a, b, size, c);
    x->wire_in = c->wire_in;
    return id;
}

uint32_t nics_eager_xfer(struct sim *s, int32_t from, int32_t to, int64_t size, uint32_t seq) {
    struct nic_cost c;
    return eager_xfer(s, from, to, sim_node(s, from), sim_node(s, to), size, seq, &c);
}

void nics_send_eager(struct sim *s, struct request *send) {
    int32_t a = sim_node(s, send->owner), b = sim_node(s, send->peer);
    struct nic_cost c;
    uint32_t id = eager_xfer(s, send->owner, send->peer, a, b, send->size, send->seq, &c);
    struct xfer *x = &s->xf.table[id];
    if (c.cost == SIMTIME_NEVER) { /* match() says so */
        transfer_free(s, id);
        return;
    }
    send->xfer = id;
    simtime_t ready = sim_max(send->post_time, s->eng.now);
    if (sim_local(s, send->peer)) {
        inject(s, id, a, ready, &c);
        return;
    }
    /* the envelope takes the times to the receiver's worker */
    reserve_injection(s, x, a, ready, &c);
}

/* With faults, a rendezvous transfer's route and costs are those of its
 * match (docs/faults.md, "Messages in flight"), kept until it is injected;
 * without, they depend on its nodes and size alone and are computed then. */
static void keep_match_costs(struct sim *s, uint32_t id, int64_t size) {
    if (id >= s->nic.match_costs_cap) {
        s->nic.match_costs_cap = s->xf.cap > id ? s->xf.cap : id + 1;
        s->nic.match_costs = xrealloc_or_die(s->nic.match_costs,
                                             sizeof *s->nic.match_costs * s->nic.match_costs_cap);
    }
    xfer_costs(s, &s->xf.table[id], size, &s->nic.match_costs[id]);
}

void nics_clear_to_send(struct sim *s, uint32_t id, int64_t size, uint32_t seq, simtime_t cleared) {
    struct xfer *x = &s->xf.table[id];
    x->to = x->recv->owner;
    if (!sim_local(s, x->from)) { /* the sender's worker reserves its side */
        struct nic_cost c;        /* the ejection side's time is needed here */
        xfer_costs(s, x, size, &c);
        x->wire_in = c.wire_in;
        x->seq = seq;
        s->split.cross->clear_to_send(s, id, cleared);
        return;
    }
    nics_set_size(x, size, seq);
    if (faults_configured(s->net->faults)) keep_match_costs(s, id, size);
    nics_expect_clear_to_send(s, id, cleared);
}

/* A rendezvous transfer injected once its clear-to-send has come. */
static void inject_cleared(struct sim *s, uint32_t id, simtime_t cleared) {
    const struct xfer *x = &s->xf.table[id];
    struct nic_cost c;
    if (faults_configured(s->net->faults))
        c = s->nic.match_costs[id];
    else /* its size waits in it until now */
        xfer_costs(s, x, x->size, &c);
    inject(s, id, sim_node(s, x->from), cleared, &c);
}

void nics_expect_clear_to_send(struct sim *s, uint32_t id, simtime_t cleared) {
    struct xfer *x = &s->xf.table[id];
    if (!s->nic.window || cleared <= s->eng.now) { /* no lookahead: reserved at the match */
        inject_cleared(s, id, cleared);
        return;
    }
    x->at = cleared;
    nic_heap_push(&s->nic.cts, x, id);
    engine_schedule(&s->eng, cleared, x->from, EV_NET, 0, NULL);
}

/* The clear-to-send messages reaching rank now (and the lower ranks' at the
 * same time, whose events ran already) reserve its node's injection side. */
static void clear_to_send_arrives(struct sim *s, int32_t rank) {
    while (nic_heap_size(&s->nic.cts)) {
        struct nic_run *from;
        const struct nic_entry *e = nic_heap_first(&s->nic.cts, &from);
        if (e->at > s->eng.now || (e->at == s->eng.now && (int32_t)(e->order >> 32) > rank)) break;
        uint32_t id = nic_heap_take(&s->nic.cts, from);
        inject_cleared(s, id, s->xf.table[id].at);
    }
}

/* Asks for what the ejection of the batch's transfer i + EJECT_AHEAD and
 * those nearer will touch: a window takes in the messages of a round of
 * many ranks, whose transfers, requests and ejection sides were last
 * touched long before, so each is a cache miss; asked for ahead, their
 * misses overlap. The transfer EJECT_AHEAD entries ahead, then for the one
 * half as far (its transfer in the cache by then) its requests and its
 * ejection side, and for the one a quarter as far its receiver's state and
 * the receive's schedule. Ejections are short: nearer, the loads of the
 * next stages still waited (perf annotate, 2^18-rank allreduce). */
#define EJECT_AHEAD 16
static void eject_prefetch(const struct sim *s, const uint32_t *batch, size_t i, size_t n) {
    if (i + EJECT_AHEAD < n)
        cache_prefetch_object(&s->xf.table[batch[i + EJECT_AHEAD]], sizeof *s->xf.table);
    if (i + EJECT_AHEAD / 2 >= n) return;
    const struct xfer *x = &s->xf.table[batch[i + EJECT_AHEAD / 2]];
    if (x->recv) cache_prefetch_object(x->recv, sizeof *x->recv); /* its owner: the 2nd line */
    if (x->send) cache_prefetch(x->send);
    cache_prefetch(&s->nic.model->in[sim_node(s, x->to)]);
    if (i + EJECT_AHEAD / 4 >= n) return;
    x = &s->xf.table[batch[i + EJECT_AHEAD / 4]];
    const struct request *q = x->recv;
    if (!q) return;
    cache_prefetch(&s->ranks[q->owner]);
    if (q->flags & RF_SUB) cache_prefetch(q->sched);
}

/* Asks for the lists that the window takes in TAKE_AHEAD and half as
 * many nodes from the i-th of `nodes`: the list's place, then (in the
 * cache by then) its first entry (a round of a million ranks puts data in
 * every node's list, each cold when the window reaches it). */
#define TAKE_AHEAD 8
static void take_prefetch(const struct nic_ejections *q, const int32_t *nodes, uint32_t i,
                          uint32_t n) {
    if (i + TAKE_AHEAD < n) cache_prefetch(&q->list[nodes[i + TAKE_AHEAD]]);
    if (i + TAKE_AHEAD / 2 >= n) return;
    const struct nic_run *l = &q->list[nodes[i + TAKE_AHEAD / 2]];
    if (l->head < l->tail) cache_prefetch(&l->e[l->head]);
}

/* The start of a window: the ejection sides take the data whose first
 * bytes arrive in the next, each side in their order; the nodes in the
 * order of their registration (due time, node). */
static void window_begins(struct sim *s, uint32_t gen) {
    if (gen != s->nic.batch_gen) return; /* superseded by an earlier window */
    s->nic.batch_at = SIMTIME_NEVER;
    struct nic_ejections *q = &s->nic.ejq;
    /* eject_due(t) <= now, as floor(t / w) <= floor(now / w) + 1 */
    simtime_t w = s->nic.window, before = (s->eng.now / w + 2) * w;
    struct nic_slot *sl = &q->slot[(uint64_t)(s->eng.now / w) % NIC_SLOTS];
    for (;;) {
        if (sl->n && sl->due <= s->eng.now) {
            for (uint32_t i = 0; i < sl->n; i++) {
                take_prefetch(q, sl->nodes, i, sl->n);
                ejections_take_node(s, sl->nodes[i], before);
            }
            sl->n = 0;
        }
        while (q->due.n && ((const struct nic_due *)q->due.v)->due <= s->eng.now) {
            struct nic_due d;
            heap_pop(&q->due, &d);
            ejections_take_node(s, d.node, before);
        }
        if (!q->nbatch) break;
        for (size_t i = 0; i < q->nbatch; i++) {
            eject_prefetch(s, q->batch, i, q->nbatch);
            eject(s, q->batch[i]);
        }
        q->nbatch = 0;
    }
    simtime_t next = ejections_next(q);
    if (next == SIMTIME_NEVER) return;
    s->nic.batch_at = next;
    engine_schedule(&s->eng, s->nic.batch_at, -1, EV_NET, ++s->nic.batch_gen, NULL);
}

void nics_event(void *ctx, const struct event *ev) {
    struct sim *s = ctx;
    int32_t rank = event_rank(ev, s->nranks);
    if (rank < 0)
        window_begins(s, ev->gen);
    else
        clear_to_send_arrives(s, rank);
}

void nics_init(struct sim *s) {
    s->nic.model = xcalloc(1, sizeof *s->nic.model);
    interfaces_init(s->nic.model, s->plat->nodes);
    s->nic.window = network_lookahead(s->net) / 2;
    s->nic.batch_at = SIMTIME_NEVER;
    s->nic.ejq.list = ranktable_alloc((size_t)s->plat->nodes, sizeof *s->nic.ejq.list);
    heap_init(&s->nic.ejq.due, sizeof(struct nic_due), due_before);
    nic_heap_init(&s->nic.cts);
}

void nics_destroy(struct sim *s) {
    if (!s->nic.model) return;
    interfaces_destroy(s->nic.model);
    free(s->nic.model);
    struct nic_ejections *q = &s->nic.ejq;
    for (size_t i = 0; i < q->nwith_room; i++)
        free(q->list[q->with_room[i]].e);
    free(q->with_room);
    free(q->batch);
    for (int i = 0; i < NIC_SLOTS; i++)
        free(q->slot[i].nodes);
    heap_free(&q->due);
    ranktable_free(q->list, (size_t)s->plat->nodes, sizeof *q->list);
    free(s->nic.match_costs);
    nic_heap_free(&s->nic.cts);
}
