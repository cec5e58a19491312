/* SPDX-License-Identifier: BSD-3-Clause */
/* Serial network interfaces (network.interfaces: serial, the default when
 * no contention model is chosen; docs/network.md): every node has an
 * injection side and an ejection side, each carrying the bytes of one
 * message after another, as LogGP's G at both ends. A side is the list of
 * its busy intervals still ahead of the engine's clock (at most
 * NIC_INTERVALS); a message takes the earliest gap that holds it, so one
 * started late in the simulation's processing order (a collective round
 * posted ahead of the clock) does not queue behind messages that leave
 * after it. Constant memory and time per message: no global computation. */
#ifndef SIMPI_INTERFACES_H
#define SIMPI_INTERFACES_H

#include <stdbool.h>
#include <stdint.h>

#include "core/simtime.h"

struct nic_busy {
    simtime_t from, to; /* [from, to) */
};

/* Intervals a side keeps: past that, the two closest are joined (the gap
 * between them counted busy), so a side costs constant memory and time. */
#define NIC_INTERVALS 8

struct nic_side { /* the count first: a reservation reads it and the first intervals */
    uint32_t n;
    uint32_t messages;    /* reservations made (a report's load; wraps past 2^32) */
    simtime_t busy_total; /* the lengths reserved */
    struct nic_busy busy[NIC_INTERVALS + 1]; /* disjoint, in time order, none touching */
};

/* A side's intervals alone, in as much memory as they take (a rank's
 * copies inside its node, mpi/pt2pt.c): the same reservations as a
 * nic_side's, without its load figures. */
struct busy_list {
    uint32_t n, cap;
    struct nic_busy busy[];
};

struct interfaces {
    struct nic_side *out, *in; /* per node: injection, ejection */
    int64_t nodes;
};

/* One side's load over the run, for reports. */
struct nic_load {
    int32_t node;
    uint8_t ejection; /* 0: injection side, 1: ejection side */
    uint32_t messages;
    double busy; /* seconds reserved */
};
/* The n most loaded sides (by busy time, then node and side), of the nodes
 * for which keep(ctx, node) holds (NULL: all); returns how many. */
int interfaces_top(const struct interfaces *f, bool (*keep)(void *ctx, int32_t node), void *ctx,
                   struct nic_load *out, int n);
/* Merges the loads `more` (m of them) into top (*n of at most cap), by the
 * same order. */
void interfaces_top_merge(struct nic_load *top, int *n, int cap, const struct nic_load *more,
                          int m);

void interfaces_init(struct interfaces *f, int64_t nodes);
void interfaces_destroy(struct interfaces *f);
/* Reserves `len` on a side at the earliest t >= ready such that [t, t +
 * len) is free, forgetting intervals that ended at or before `now`;
 * returns t. A zero length reserves nothing and returns ready. */
simtime_t nic_side_reserve(struct nic_side *side, simtime_t now, simtime_t ready, simtime_t len);
/* The same on a busy_list, *list NULL until its first reservation (then
 * allocated, and grown as it needs: free() it). */
simtime_t busy_list_reserve(struct busy_list **list, simtime_t now, simtime_t ready, simtime_t len);
/* The data of a message ready to leave node `src` at `ready`, occupying its
 * injection side for `wire_out`: injected at the earliest gap; returns
 * when its injection starts. */
simtime_t interfaces_inject(struct interfaces *f, int32_t src, simtime_t now, simtime_t ready,
                            simtime_t wire_out);
/* The data of a message whose first byte reaches node `dst` at
 * `first_byte` (its injection start plus its uncontended cost T(S), less
 * `wire_in`), occupying dst's ejection side for `wire_in`: taken in at the
 * earliest gap; returns when the data have arrived. The ejection sides
 * are reserved in the order of the messages' first bytes (mpi/nics.c), so
 * that the result does not depend on which worker sent them. */
simtime_t interfaces_eject(struct interfaces *f, int32_t dst, simtime_t now, simtime_t first_byte,
                           simtime_t wire_in);

#endif
