/* SPDX-License-Identifier: BSD-3-Clause */
/* Contention between simultaneous transfers (network.contention,
 * docs/network.md), pluggable by name:
 *   none   every transfer sees the network alone (the default)
 *   buses  Dimemas' model: at most `buses` transfers in the network at once
 *          and at most `links_per_node` leaving and entering each node; a
 *          transfer waits (in the order transfers were started) until it
 *          holds a bus, an output link of its source and an input link of
 *          its destination, then takes its uncontended time
 *   flow   every transfer is a flow along its route; after the route's
 *          latency, each link's bandwidth is shared max-min fairly among
 *          the flows crossing it, recomputed whenever a flow starts or ends
 * A contended transfer's end is not known when it starts: the model
 * schedules engine events and calls the done hook at the end. */
#ifndef SIMPI_CONTENTION_H
#define SIMPI_CONTENTION_H

#include "core/engine.h"
#include "net/network.h"

struct contention;

/* Called when a transfer's data has arrived (at the engine's now). */
typedef void (*transfer_done_fn)(void *ctx, void *arg);

/* Link statistics for reports. */
struct link_load {
    int64_t link;    /* topology link number, or nic links beyond */
    double busy;     /* seconds with at least one flow */
    double bytes;    /* bytes carried */
    double capacity; /* bytes/s */
};

/* A model for one run; NULL (and no error) when the network has none.
 * Registers its event kinds on eng from first_kind. */
struct contention *contention_create(const struct network *net, int64_t nodes, struct engine *eng,
                                     uint32_t first_kind, transfer_done_fn done, void *ctx,
                                     struct sim_error *err);
void contention_destroy(struct contention *c);
/* Starts a transfer of size bytes from src_node to dst_node at time at
 * (>= now); done(ctx, arg) is called when it ends. */
void contention_start(struct contention *c, int32_t src_node, int32_t dst_node, int64_t size,
                      simtime_t at, void *arg);
/* The n most loaded links (by busy time), for reports; returns how many. */
int contention_top_links(const struct contention *c, struct link_load *out, int n);
/* Several jobs (docs/jobs.md): node_job[node] is the job on each node (-1:
 * none; kept by the caller), njobs of them. Before the first transfer. */
void contention_set_jobs(struct contention *c, const int32_t *node_job, int32_t njobs);
/* A link that the traffic of several jobs crossed: the bytes each job's
 * transfers sent through it (njobs of them, the model's) and `met`, the
 * bytes beyond the largest job's share. */
struct link_shared {
    int64_t link;
    double met;
    const double *job_bytes;
};
/* The n links where the jobs' traffic met most (by met bytes, ties by link
 * number); returns how many (0: one job, or a model without links). */
int contention_shared_links(const struct contention *c, struct link_shared *out, int n);

#endif
