/* SPDX-License-Identifier: BSD-3-Clause */
/* Dimemas' buses: at most B transfers in the network at once
 * (network.buses, 0 = unlimited) and at most L leaving and L entering each
 * node (network.links_per_node, 0 = unlimited). A transfer that cannot
 * have all three waits; whenever one ends, the waiting transfers are
 * considered in the order they became ready and each that can go starts
 * (first fit in that order).
 * Once started, a transfer takes its uncontended time T(S) (the topology's
 * route cost or the inter model) and holds its bus and links throughout. */
#include <stdlib.h>

#include "core/alloc.h"
#include "core/pool.h"
#include "net/contention_internal.h"

enum { PHASE_READY = 0, PHASE_END = 1 };

struct bus_xfer {
    struct bus_xfer *next; /* waiting list */
    void *arg;
    simtime_t duration;
    int32_t src, dst;
};

struct buses {
    int64_t free_buses;          /* -1: unlimited */
    int32_t *out_free, *in_free; /* per node; NULL: unlimited */
    struct bus_xfer *wait_head, *wait_tail;
    struct pool xfers;
};

static bool buses_create(struct contention *c, struct sim_error *err) {
    (void)err;
    struct buses *b = xcalloc(1, sizeof *b);
    b->free_buses = c->net->buses > 0 ? c->net->buses : -1;
    if (c->net->links_per_node > 0) {
        b->out_free = xcalloc((size_t)c->nodes, sizeof *b->out_free);
        b->in_free = xcalloc((size_t)c->nodes, sizeof *b->in_free);
        for (int64_t i = 0; i < c->nodes; i++)
            b->out_free[i] = b->in_free[i] = (int32_t)c->net->links_per_node;
    }
    pool_init(&b->xfers, sizeof(struct bus_xfer), 256);
    c->priv = b;
    return true;
}

static void buses_destroy(struct contention *c) {
    struct buses *b = c->priv;
    free(b->out_free);
    free(b->in_free);
    pool_destroy(&b->xfers);
    free(b);
}

static bool can_go(const struct buses *b, const struct bus_xfer *x) {
    return b->free_buses != 0 &&
           (!b->out_free || (b->out_free[x->src] > 0 && b->in_free[x->dst] > 0));
}

static void take(struct buses *b, const struct bus_xfer *x, int delta) {
    if (b->free_buses >= 0) b->free_buses += delta;
    if (b->out_free) {
        b->out_free[x->src] += delta;
        b->in_free[x->dst] += delta;
    }
}

/* Starts every waiting transfer that can go, in order. */
static void start_waiting(struct contention *c, struct buses *b) {
    struct bus_xfer **link = &b->wait_head, *prev = NULL;
    while (*link) {
        struct bus_xfer *x = *link;
        if (!can_go(b, x)) {
            prev = x;
            link = &x->next;
            continue;
        }
        *link = x->next;
        if (b->wait_tail == x) b->wait_tail = prev;
        take(b, x, -1);
        engine_schedule(c->eng, simtime_add(c->eng->now, x->duration), -1, c->kind, PHASE_END, x);
    }
}

static void buses_start(struct contention *c, int32_t src, int32_t dst, int64_t size, simtime_t at,
                        void *arg) {
    struct buses *b = c->priv;
    struct bus_xfer *x = pool_get(&b->xfers);
    x->arg = arg;
    x->src = src;
    x->dst = dst;
    x->duration = network_cost(c->net, src, dst, size);
    engine_schedule(c->eng, at, -1, c->kind, PHASE_READY, x);
}

static void buses_event(struct contention *c, const struct event *ev) {
    struct buses *b = c->priv;
    struct bus_xfer *x = ev->arg;
    if (ev->gen == PHASE_READY) {
        x->next = NULL;
        if (b->wait_tail)
            b->wait_tail->next = x;
        else
            b->wait_head = x;
        b->wait_tail = x;
    } else {
        take(b, x, +1);
        void *arg = x->arg;
        pool_put(&b->xfers, x);
        c->done(c->ctx, arg);
    }
    start_waiting(c, b);
}

const struct contention_ops contention_buses = {"buses", buses_create,  buses_start, buses_event,
                                                NULL,    buses_destroy, NULL};
