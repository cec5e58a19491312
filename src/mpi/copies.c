/* SPDX-License-Identifier: BSD-3-Clause */
/* Copies inside a node (copies.h): an eager message's copy by its
 * sender's core, when the copies before it delay it. */
#include "mpi/copies.h"
#include "mpi/sim_internal.h"

void copies_send_eager(struct sim *s, struct request *send) {
    int32_t node = sim_node(s, send->owner);
    simtime_t cost = network_cost(s->net, node, node, send->size);
    simtime_t start = copy_start(s, send->owner, cost, send->post_time);
    if (start == send->post_time) return; /* not delayed: match() times it */
    uint32_t id = transfer_new(s);
    struct xfer *x = &s->xf.table[id];
    x->eager = 1;
    x->from = send->owner;
    x->to = send->peer;
    x->arrival = simtime_add(start, cost);
    send->xfer = id;
}
