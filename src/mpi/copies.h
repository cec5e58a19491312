/* SPDX-License-Identifier: BSD-3-Clause */
/* Copies inside a node (network.intra_copies: serial, docs/network.md):
 * one core copies one message at a time. An eager message is copied by its
 * sender's core when it is sent (into the shared buffer); a rendezvous
 * message by its receiver's once cleared (one copy straight from the
 * sender's buffer, as MPICH and Open MPI do with CMA or XPMEM). A copy of S
 * bytes holds the core for W(S) = T(S) - T(0) and its data arrive T(S)
 * after it starts. A node's ranks are all on one worker (a split run), so a
 * rank's copies are that worker's to order: each rank's own busy list
 * (sim.copies, a table of ranks). Inline: the protocols ask at every message. */
#ifndef SIMPI_MPI_COPIES_H
#define SIMPI_MPI_COPIES_H

#include "mpi/sim_internal.h"

/* Whether a message between these nodes is copied in turn by a core: one
 * inside a node, unless a contention model times it. */
static inline bool copies_serial(const struct sim *s, int32_t from_node, int32_t to_node) {
    return s->net->serial_copies && from_node == to_node && !(s->cont && s->net->intra_contention);
}

/* When the copy of a message costing T(S) = cost by `copier`'s core,
 * ready at `ready`, starts: at the earliest gap between the copies it took
 * on already. */
static inline simtime_t copy_start(struct sim *s, int32_t copier, simtime_t cost, simtime_t ready) {
    if (cost == SIMTIME_NEVER || ready == SIMTIME_NEVER || cost <= s->net->intra_zero) return ready;
    return busy_list_reserve(&s->copies[copier], s->eng.now, ready, cost - s->net->intra_zero);
}

/* An eager message inside a node, sent at its post: its sender's core
 * copies it after the copies before it; if that delays it, its data travel
 * as a transfer whose arrival is known now (matched: pair_transfer). */
void copies_send_eager(struct sim *s, struct request *send);

#endif
