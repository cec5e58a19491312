/* SPDX-License-Identifier: BSD-3-Clause */
/* The serial interfaces (nics.c, network.interfaces, docs/network.md): their
 * state in a simulation (struct sim_nics) and what the protocols call. */
#ifndef SIMPI_MPI_NICS_H
#define SIMPI_MPI_NICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/engine.h"
#include "core/heap.h"
#include "core/simtime.h"

struct sim;
struct request;
struct xfer;

/* The interfaces' costs of a transfer: its uncontended cost T(S) and the
 * time each side carries the data. */
struct nic_cost {
    simtime_t cost, wire_out, wire_in;
};

/* Rendezvous transfers waiting for their clear-to-send to reach the
 * sender (nics.c), a queue by (at, order: the sending rank, then its
 * count); a node's list of data waiting for its ejection side (struct
 * nic_ejections) holds the same entries. Entries mostly come in a few sorted
 * sequences (ranks sending in the engine's order: one per distinct `at`,
 * e.g. per rank's place in its node's injection order): those wait in up to
 * NIC_RUNS sorted runs, the others in a heap; the first of all goes first. */
struct nic_entry {
    simtime_t at;
    uint64_t order;
    uint32_t id;
};
#define NIC_RUNS 16
#define NIC_AT_HINTS 64
struct nic_run {
    struct nic_entry *e; /* e[head..tail), sorted */
    size_t head, tail, cap;
    simtime_t last_at;   /* the last entry's key (head < tail): whether the next */
    uint64_t last_order; /* goes after it, read without its line */
};
struct nic_heap {
    struct nic_entry *e; /* the heap */
    size_t n, cap;
    size_t size; /* entries in all */
    struct nic_run run[NIC_RUNS];
    /* a winner tree over the runs' first entries: win[i] (1 <= i <
     * NIC_RUNS) is the run whose first entry comes first in node i's
     * subtree, empty runs last; win[NIC_RUNS + r] is leaf r, run r; the
     * first entries' keys kept here (an empty run's: the largest) */
    uint8_t win[2 * NIC_RUNS];
    simtime_t first_at[NIC_RUNS];
    uint64_t first_order[NIC_RUNS];
    /* by the hash of a time, the run (+ 1) an entry of that time last went
     * to: the first tried for the next (entries of one time go to one run) */
    uint8_t run_of_at[NIC_AT_HINTS];
};

/* Data waiting for their window at their destination node's ejection
 * side (nics.c): per node a list in (at, order) order; the nodes
 * registered by when the first of their list is due. Only the order of one
 * node's data matters: what one node's ejection side does does not depend
 * on another's (as a split run, whose workers take their nodes' data each
 * in their own order, shows). */
struct nic_due {
    simtime_t due; /* when the first of its list is due (eject_due), when registered */
    int32_t node;
};
/* The nodes registered for one due time, in the order they were; a due
 * time's slot is its window's number modulo NIC_SLOTS. */
#define NIC_SLOTS 64
struct nic_slot {
    simtime_t due;
    int32_t *nodes;
    uint32_t n, cap;
};
struct nic_ejections {
    struct nic_run *list; /* per node (a rank table) */
    int32_t *with_room;   /* the nodes whose list has room allocated */
    size_t nwith_room, with_room_cap;
    /* the nodes by when the first of their list is due (some registrations
     * are stale): in the slot of that time, else (another time holds the
     * slot) in a heap of struct nic_due by (due, node) */
    struct nic_slot slot[NIC_SLOTS];
    struct heap due;
    uint32_t *batch; /* the transfers one window takes, in order */
    size_t nbatch, batch_cap;
};

/* Serial interfaces (network.interfaces, net/interfaces.h; nics.c). */
struct sim_nics {
    struct interfaces *model; /* NULL when unlimited, or with a contention model */
    struct nic_heap cts;      /* rendezvous data waiting for their clear-to-send */
    struct nic_ejections ejq; /* data waiting for their window at the ejection side */
    simtime_t window;         /* the interfaces' lookahead (network_lookahead); 0: none */
    simtime_t batch_at;       /* the next window start with data to take in */
    uint32_t batch_gen;       /* and its event's generation */
    /* the last size's costs between two nodes of a flat network, which
     * depend on the size alone (nics_set_costs) */
    struct {
        bool known;
        int64_t size;
        struct nic_cost c;
    } costs;
    /* with faults (which change routes over time): the costs of rendezvous
     * transfers, by id, from their match to their injection */
    struct nic_cost *match_costs;
    uint32_t match_costs_cap;
};

/* nics.c */
void nics_init(struct sim *s);
/* EV_NET with serial interfaces: a clear-to-send reaching a rank, or a window's start. */
void nics_event(void *ctx, const struct event *ev);
void nics_destroy(struct sim *s);
/* A new eager transfer through the interfaces, its costs set. */
uint32_t nics_eager_xfer(struct sim *s, int32_t from, int32_t to, int64_t size, uint32_t seq);
/* An eager send through the interfaces, when posted. */
void nics_send_eager(struct sim *s, struct request *send);
/* A matched rendezvous transfer (recv and from set) of `size` bytes, the
 * sender's message number seq, whose clear-to-send reaches its sender at
 * `cleared`. */
void nics_clear_to_send(struct sim *s, uint32_t id, int64_t size, uint32_t seq, simtime_t cleared);
/* A rendezvous transfer of `size` bytes from x->from to x->to (the
 * sender's side, where it is injected), the sender's message number seq. */
void nics_set_size(struct xfer *x, int64_t size, uint32_t seq);
/* A transfer whose first byte (x->at) is known heads for the ejection side. */
void nics_toward_ejection(struct sim *s, uint32_t id);
/* A clear-to-send reaching the sender (here) at `cleared`. */
void nics_expect_clear_to_send(struct sim *s, uint32_t id, simtime_t cleared);

#endif
