/* SPDX-License-Identifier: BSD-3-Clause */
/* The storage model of MPI-IO (docs/models.md, "File I/O"): the platform's
 * `storage` is one server for all nodes (shared) or one per node (local);
 * a server serves `concurrency` requests at once, first come first served,
 * and a request of S bytes occupies a slot for latency + S / bandwidth.
 * A node's own server answers at once; the shared one is reached over the
 * network through the node of rank 0: a request reaches it one control
 * latency T(0) after it is made (a landing, land.c), it serves requests in
 * the order they arrive (then rank, then the rank's count), and the
 * completion takes T(0) back. So a split run, whose worker with rank 0
 * serves every worker's requests, gives what one process gives. The file
 * data itself is moved by the front end. */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "mpi/land.h"
#include "mpi/part.h"
#include "mpi/record.h"
#include "mpi/sim_internal.h"

/* The slots of a server: when each becomes free. */
static simtime_t *server_slots(struct sim *s, int32_t server) {
    const struct storage_model *st = &s->plat->storage;
    if (!s->io.storage) {
        s->io.nservers = st->kind == STORAGE_SHARED ? 1 : (int32_t)s->plat->nodes;
        s->io.storage = xcalloc((size_t)s->io.nservers, sizeof *s->io.storage);
    }
    if (!s->io.storage[server])
        s->io.storage[server] = xcalloc((size_t)st->concurrency, sizeof *s->io.storage[server]);
    return s->io.storage[server];
}

/* A request of `bytes` takes the slot of server `server` free first (the
 * lowest index among equals) from `now`; returns when it is served. */
static simtime_t serve(struct sim *s, int32_t server, int64_t bytes) {
    const struct storage_model *st = &s->plat->storage;
    simtime_t *slot = server_slots(s, server);
    int64_t first = 0;
    for (int64_t i = 1; i < st->concurrency; i++)
        if (slot[i] < slot[first]) first = i;
    simtime_t start = sim_max(s->eng.now, slot[first]);
    slot[first] = simtime_add(simtime_add(start, st->latency),
                              simtime_from_seconds((double)bytes / st->bandwidth));
    return slot[first];
}

/* A request to the shared server, from the rank that made it, and the
 * reply: the request (in the rank's worker) to complete. */
struct storage_msg {
    uint64_t handle;
    int64_t bytes;
};

struct request *sim_io(struct sim *s, int32_t rank, int64_t bytes, int32_t id) {
    const struct storage_model *st = &s->plat->storage;
    struct request *r = signal_new_id(s, rank, -1, "file I/O", id);
    if (s->rec) record_io(s, r, bytes);
    r->mode = 1; /* the observer's I/O state */
    if (st->kind != STORAGE_SHARED) {
        sim_signal_fire(s, r, serve(s, sim_node(s, rank), bytes));
        return r;
    }
    struct storage_msg m = {(uint64_t)(uintptr_t)r, bytes};
    struct sim_piece piece = {&m, sizeof m};
    simtime_t at = simtime_add(s->eng.now, sim_control_latency(s, rank, 0));
    land_post(s, rank, 0, at, LAND_STORAGE_REQUEST, &piece, 1);
    return r;
}

void io_land(struct sim *s, uint8_t kind, int32_t target, int32_t origin, const void *msg,
             uint32_t len) {
    struct storage_msg m;
    if (len < sizeof m) return;
    memcpy(&m, msg, sizeof m);
    if (kind == LAND_STORAGE_REPLY) {
        sim_signal_fire(s, (struct request *)(uintptr_t)m.handle, s->eng.now);
        return;
    }
    simtime_t done = serve(s, 0, m.bytes);
    struct sim_piece piece = {&m, sizeof m};
    land_post(s, target, origin, simtime_add(done, sim_control_latency(s, target, origin)),
              LAND_STORAGE_REPLY, &piece, 1);
}

struct request *sim_round_trip(struct sim *s, int32_t rank, int32_t peer, int32_t id) {
    struct request *r = signal_new_id(s, rank, peer, "an answer from another rank's node", id);
    if (s->rec) record_round_trip(s, rank, peer);
    sim_signal_fire(s, r,
                    simtime_add(simtime_add(s->eng.now, sim_control_latency(s, rank, peer)),
                                sim_control_latency(s, peer, rank)));
    return r;
}

void sim_record_round_trip(struct sim *s, int32_t rank, int32_t peer) {
    if (s->rec) record_round_trip(s, rank, peer);
}

void io_free_all(struct sim *s) {
    for (int32_t i = 0; i < s->io.nservers; i++)
        free(s->io.storage[i]);
    free(s->io.storage);
}
