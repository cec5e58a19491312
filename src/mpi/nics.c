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
 *   - ejection sides are reserved in the order of the messages' first bytes
 *     (their injection start plus T(S) - W(S)), ties by sender rank and the
 *     sender's count of messages. A first byte comes at least one lookahead
 *     (network_lookahead) after the injection is reserved. Time is cut in
 *     windows of half the lookahead: the messages whose first bytes fall in
 *     one window all left before the window that precedes it, whose start
 *     one event then reserves them for, sorted, instead of one event per
 *     message; and the arrivals found there are known a window early
 *     (what a split run needs to tell a sender on another worker in time).
 * A receive matched with such a message waits, as under a contention model,
 * for the arrival to be known (pt2pt_finish_transfer). On a network without
 * lookahead (a zero latency between nodes) both sides are reserved at once,
 * in the engine's order. */
#include <stdlib.h>
#include <string.h>

#include "core/hash.h"
#include "mpi/sim_internal.h"

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

static void run_append(struct nic_run *r, struct nic_entry e) {
    if (r->tail == r->cap) {
        if (r->head > 0 && r->head >= r->cap / 2) { /* slide the run down */
            memmove(r->e, r->e + r->head, sizeof *r->e * (r->tail - r->head));
            r->tail -= r->head;
            r->head = 0;
        } else {
            r->cap = r->cap ? 2 * r->cap : 64;
            r->e = xrealloc_or_die(r->e, sizeof *r->e * r->cap);
        }
    }
    r->e[r->tail++] = e;
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
        if (r->head != r->tail) {
            const struct nic_entry *last = &r->e[r->tail - 1];
            if (last->at == e->at && !entry_before(e, last)) return r;
        }
    }
    struct nic_run *empty = NULL, *before = NULL;
    for (int i = 0; i < NIC_RUNS; i++) {
        struct nic_run *r = &h->run[i];
        if (r->head == r->tail) {
            if (!empty) empty = r;
            continue;
        }
        const struct nic_entry *last = &r->e[r->tail - 1];
        if (!entry_before(e, last)) {
            if (last->at == e->at) return r;
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

/* The winner of tree node i (a leaf: its run). */
static int tree_winner(const struct nic_heap *h, int i) {
    return i >= NIC_RUNS ? i - NIC_RUNS : h->win[i];
}

/* Run r's first entry changed: its key, and the winners on its way to
 * the root. */
static void tree_update(struct nic_heap *h, int r) {
    note_first(h, r);
    for (int i = (r + NIC_RUNS) / 2; i >= 1; i /= 2) {
        int a = tree_winner(h, 2 * i), b = tree_winner(h, 2 * i + 1);
        h->win[i] = (uint8_t)(run_first_before(h, b, a) ? b : a);
    }
}

static void nic_heap_init(struct nic_heap *h) {
    for (int r = 0; r < NIC_RUNS; r++)
        note_first(h, r);
    for (int i = NIC_RUNS - 1; i >= 1; i--) /* every run empty: each subtree's first leaf */
        h->win[i] = (uint8_t)tree_winner(h, 2 * i);
}

static void nic_heap_push(struct nic_heap *h, const struct xfer *x, uint32_t id) {
    struct nic_entry e = {x->at, (uint64_t)(uint32_t)x->from << 32 | x->seq, id};
    struct nic_run *r = run_for(h, &e);
    if (r) {
        bool was_empty = r->head == r->tail;
        int i = (int)(r - h->run);
        run_append(r, e);
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
    return t - t % s->nic_window - s->nic_window;
}

/* The data of transfer id have arrived at t: a receive matched already
 * completes. */
static void arrived(struct sim *s, uint32_t id, simtime_t t) {
    s->xfers[id].arrival = t;
    if (s->xfers[id].recv) s->transfer_arrived(s, id);
}

static void eject(struct sim *s, uint32_t id) {
    const struct xfer *x = &s->xfers[id];
    int32_t node = sim_node(s, x->to);
    arrived(s, id, interfaces_eject(s->nics, node, s->eng.now, x->at, x->wire_in));
}

/* The first byte of transfer id (x->at) reaches the destination's ejection
 * side, which takes it at once if it carries nothing or the run has no
 * lookahead, else in the batch a window ahead of the first byte's window. */
void nics_toward_ejection(struct sim *s, uint32_t id) {
    struct xfer *x = &s->xfers[id];
    if (x->wire_in == 0) {
        arrived(s, id, x->head);
        return;
    }
    simtime_t due = s->nic_window ? eject_due(s, x->at) : 0;
    /* due can be now in a split run (the first byte came from another
     * worker at a window's end): the batch at now has not run yet */
    if (!s->nic_window || due < s->eng.now) { /* no lookahead */
        eject(s, id);
        return;
    }
    nic_heap_push(&s->eject, x, id);
    if (due < s->nic_batch_at) {
        s->nic_batch_at = due;
        engine_schedule(&s->eng, due, -1, EV_NET, ++s->nic_batch_gen, NULL);
    }
}

/* Reserves the source's injection side from `ready`: when the head and the
 * first byte arrive follows. */
static void reserve_injection(struct sim *s, struct xfer *x, simtime_t ready) {
    simtime_t injected =
        interfaces_inject(s->nics, sim_node(s, x->from), s->eng.now, ready, x->wire_out);
    x->head = simtime_add(injected, x->cost);
    x->at = x->head - x->wire_in;
}

/* Injection, then the way to the ejection side: here, or on the worker of
 * the destination (which holds the transfer as x->remote - 1). */
static void inject(struct sim *s, uint32_t id, simtime_t ready) {
    struct xfer *x = &s->xfers[id];
    reserve_injection(s, x, ready);
    if (!x->remote) {
        nics_toward_ejection(s, id);
        return;
    }
    s->cross->eject(s, x);
    transfer_free(s, id);
}

/* The costs of a message of `size` between nodes a and b, on a flat
 * network the last size's again when it is the same. */
static void costs_between(struct sim *s, int32_t a, int32_t b, int64_t size, struct xfer *x) {
    bool flat = a != b && topology_is_flat(&s->net->topo);
    if (flat && s->nic_costs.known && s->nic_costs.size == size) {
        x->cost = s->nic_costs.cost;
        x->wire_out = s->nic_costs.wire_out;
        x->wire_in = s->nic_costs.wire_in;
        return;
    }
    x->cost = network_cost(s->net, a, b, size);
    network_wire_times(s->net, a, b, size, &x->wire_out, &x->wire_in);
    if (x->wire_in > x->cost) x->wire_in = x->cost;
    if (flat) {
        s->nic_costs.known = true;
        s->nic_costs.size = size;
        s->nic_costs.cost = x->cost;
        s->nic_costs.wire_out = x->wire_out;
        s->nic_costs.wire_in = x->wire_in;
    }
}

void nics_set_costs(struct sim *s, struct xfer *x, int64_t size, uint32_t seq) {
    costs_between(s, sim_node(s, x->from), sim_node(s, x->to), size, x);
    x->seq = seq;
}

uint32_t nics_eager_xfer(struct sim *s, int32_t from, int32_t to, int64_t size, uint32_t seq) {
    uint32_t id = transfer_new(s);
    struct xfer *x = &s->xfers[id];
    x->eager = 1;
    x->from = from;
    x->to = to;
    nics_set_costs(s, x, size, seq);
    return id;
}

void nics_send_eager(struct sim *s, struct request *send) {
    int32_t a = sim_node(s, send->owner), b = sim_node(s, send->peer);
    if (network_cost(s->net, a, b, send->size) == SIMTIME_NEVER) return; /* match() says so */
    uint32_t id = nics_eager_xfer(s, send->owner, send->peer, send->size, send->seq);
    struct xfer *x = &s->xfers[id];
    send->xfer = id;
    simtime_t ready = sim_max(send->post_time, s->eng.now);
    if (sim_local(s, send->peer)) {
        inject(s, id, ready);
        return;
    }
    reserve_injection(s, x, ready); /* the envelope takes the times to the receiver's worker */
}

void nics_clear_to_send(struct sim *s, uint32_t id, int64_t size, uint32_t seq, simtime_t cleared) {
    struct xfer *x = &s->xfers[id];
    x->to = x->recv->owner;
    nics_set_costs(s, x, size, seq);
    if (!sim_local(s, x->from)) { /* the sender's worker reserves its side */
        s->cross->clear_to_send(s, id, cleared);
        return;
    }
    nics_expect_clear_to_send(s, id, cleared);
}

void nics_expect_clear_to_send(struct sim *s, uint32_t id, simtime_t cleared) {
    struct xfer *x = &s->xfers[id];
    if (!s->nic_window || cleared <= s->eng.now) { /* no lookahead: reserved at the match */
        inject(s, id, cleared);
        return;
    }
    x->at = cleared;
    nic_heap_push(&s->cts, x, id);
    engine_schedule(&s->eng, cleared, x->from, EV_NET, 0, NULL);
}

/* The clear-to-send messages reaching rank now (and the lower ranks' at the
 * same time, whose events ran already) reserve its node's injection side. */
static void clear_to_send_arrives(struct sim *s, int32_t rank) {
    while (nic_heap_size(&s->cts)) {
        struct nic_run *from;
        const struct nic_entry *e = nic_heap_first(&s->cts, &from);
        if (e->at > s->eng.now || (e->at == s->eng.now && (int32_t)(e->order >> 32) > rank)) break;
        uint32_t id = nic_heap_take(&s->cts, from);
        inject(s, id, s->xfers[id].at);
    }
}

/* Asks for what the ejections of run r's entries a few turns ahead will
 * touch: a window takes in the messages of a round of many ranks, whose
 * transfers, requests and ejection sides were last touched long before, so
 * each is a cache miss; asked for ahead, their misses overlap. The
 * transfer EJECT_AHEAD entries ahead, then for the one half as far (its
 * transfer in the cache by then) its requests and its ejection side, and
 * for the one a quarter as far its receiver's state and the receive's
 * schedule. Ejections are short: nearer, the loads of the next stages
 * still waited (perf annotate, 2^18-rank allreduce). */
#define EJECT_AHEAD 16
static void eject_prefetch(const struct sim *s, const struct nic_run *r) {
    if (r->head + EJECT_AHEAD < r->tail) cache_prefetch(&s->xfers[r->e[r->head + EJECT_AHEAD].id]);
    if (r->head + EJECT_AHEAD / 2 >= r->tail) return;
    const struct xfer *x = &s->xfers[r->e[r->head + EJECT_AHEAD / 2].id];
    if (x->recv) cache_prefetch(x->recv);
    if (x->send) cache_prefetch(x->send);
    cache_prefetch(&s->nics->in[sim_node(s, x->to)]);
    if (r->head + EJECT_AHEAD / 4 >= r->tail) return;
    x = &s->xfers[r->e[r->head + EJECT_AHEAD / 4].id];
    const struct request *q = x->recv;
    if (!q) return;
    cache_prefetch(&s->ranks[q->owner]);
    if (q->flags & RF_SUB) cache_prefetch(q->sched);
}

/* The start of a window: the ejection sides take the messages whose first
 * bytes arrive in it, in that order. */
static void window_begins(struct sim *s, uint32_t gen) {
    if (gen != s->nic_batch_gen) return; /* superseded by an earlier window */
    s->nic_batch_at = SIMTIME_NEVER;
    struct nic_run *from;
    while (nic_heap_size(&s->eject) &&
           eject_due(s, nic_heap_first(&s->eject, &from)->at) <= s->eng.now) {
        if (from) eject_prefetch(s, from);
        eject(s, nic_heap_take(&s->eject, from));
    }
    if (!nic_heap_size(&s->eject)) return;
    s->nic_batch_at = eject_due(s, nic_heap_first(&s->eject, &from)->at);
    engine_schedule(&s->eng, s->nic_batch_at, -1, EV_NET, ++s->nic_batch_gen, NULL);
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
    s->nics = xcalloc(1, sizeof *s->nics);
    interfaces_init(s->nics, s->plat->nodes);
    s->nic_window = network_lookahead(s->net) / 2;
    s->nic_batch_at = SIMTIME_NEVER;
    nic_heap_init(&s->eject);
    nic_heap_init(&s->cts);
}

void nics_destroy(struct sim *s) {
    if (!s->nics) return;
    interfaces_destroy(s->nics);
    free(s->nics);
    nic_heap_free(&s->eject);
    nic_heap_free(&s->cts);
}
