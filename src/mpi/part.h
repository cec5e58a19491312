/* SPDX-License-Identifier: BSD-3-Clause */
/* A split run's partition (part.c, docs/parallel.md): which worker holds a
 * node, and what crosses between workers. */
#ifndef SIMPI_MPI_PART_H
#define SIMPI_MPI_PART_H

#include "mpi/sim_internal.h"

struct an_arrival;

/* What the layers below a split run's partition hand to it (part.c sets
 * sim.split.cross): the crossings of docs/parallel.md's table. A send
 * posted to a rank of another worker (its envelope goes there); a
 * stand-in's state back to its sender (freed once nothing more can
 * change); a message of another worker's rank matched here; the
 * interfaces' clear-to-send for the sender's worker and first byte for
 * the receiver's; a landing for a rank of another worker. */
struct cross_ops {
    void (*envelope)(struct sim *s, struct request *send);
    void (*settle)(struct sim *s, struct request *proxy);
    void (*count_sent)(struct sim *s, int32_t rank, int64_t size);
    void (*clear_to_send)(struct sim *s, uint32_t id, simtime_t cleared);
    void (*eject)(struct sim *s, const struct xfer *x);
    void (*land)(struct sim *s, int32_t origin, int32_t target, simtime_t at, uint32_t seq,
                 uint8_t kind, const struct sim_piece *pieces, int n);
    /* a member's arrival at an analytic collective, for the workers that
     * hold the communicator's other members */
    void (*analytic)(struct sim *s, const struct comm *c, const struct an_arrival *a);
};

/* part.c: a split run (docs/parallel.md) */
/* The worker that runs a node's ranks (0 unless the run is split): blocks
 * of the used nodes, worker j having [j U / K, (j + 1) U / K), or nodes dealt
 * in turn; nodes past the used ones go to the last worker. */
static inline int32_t sim_worker_of_node(const struct sim *s, int64_t node) {
    int64_t k = s->split.workers, used = s->split.used;
    if (k == 0) return 0;
    if (node >= used) return (int32_t)(k - 1);
    return (int32_t)(s->split.cyclic ? node % k : ((node + 1) * k - 1) / used);
}
/* Whether a node's ranks run in this worker (always, unless the run is split). */
static inline bool sim_node_here(const struct sim *s, int64_t node) {
    if (s->split.workers == 0) return true;
    if (!s->split.cyclic) return node >= s->split.local_first && node < s->split.local_end;
    return sim_worker_of_node(s, node) == s->split.me;
}
/* Whether rank runs in this worker (always, unless the run is split). */
static inline bool sim_local(const struct sim *s, int32_t rank) {
    return s->split.workers == 0 || sim_node_here(s, sim_node(s, rank));
}
/* Whether this is the worker that reports (always, unless the run is split). */
static inline bool part_first(const struct sim *s) {
    return s->split.me == 0;
}
/* Runs a split run's windows until no worker has anything left. */
void part_run(struct sim *s);
void part_free(struct sim *s);
/* A rank's part in a split of parent, for the other workers, which build
 * the same communicators. */
void part_post_split(struct sim *s, struct comm *parent, int32_t myrank, int32_t color, int32_t key,
                     int32_t new_id, uint32_t seq);
/* Makes s one worker of a split run; false (err set) for a model that cannot
 * be split. */
struct workers;
bool part_setup(struct sim *s, struct workers *w, enum sim_placement placement,
                struct sim_error *err);

#endif
