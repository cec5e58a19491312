/* The storage model of MPI-IO (docs/models.md, "File I/O"): the platform's
 * `storage` is one server for all nodes (shared) or one per node (local);
 * a server serves `concurrency` requests at once, first come first served,
 * and a request of S bytes occupies a slot for latency + S / bandwidth.
 * The file data itself is moved by the front end. */
#include <stdlib.h>

#include "core/pool.h"
#include "mpi/sim_internal.h"

/* The slots of a server: when each becomes free. */
static simtime_t *server_slots(struct sim *s, int32_t server) {
    const struct storage_model *st = &s->plat->storage;
    if (!s->storage) {
        s->nservers = st->kind == STORAGE_SHARED ? 1 : (int32_t)s->plat->nodes;
        s->storage = xcalloc((size_t)s->nservers, sizeof *s->storage);
    }
    if (!s->storage[server])
        s->storage[server] = xcalloc((size_t)st->concurrency, sizeof *s->storage[server]);
    return s->storage[server];
}

struct request *sim_io(struct sim *s, int32_t rank, int64_t bytes) {
    if (sim_refuse_split(s, rank, "file I/O (its storage is shared by the whole run)")) return NULL;
    if (s->rec) record_skip(s, "file I/O");
    const struct storage_model *st = &s->plat->storage;
    int32_t server = st->kind == STORAGE_SHARED ? 0 : s->ranks[rank].node;
    simtime_t *slot = server_slots(s, server);
    int64_t first = 0; /* the slot free first (the lowest index among equals) */
    for (int64_t i = 1; i < st->concurrency; i++)
        if (slot[i] < slot[first]) first = i;
    simtime_t start = sim_max(s->eng.now, slot[first]);
    simtime_t end = simtime_add(simtime_add(start, st->latency),
                                simtime_from_seconds((double)bytes / st->bandwidth));
    slot[first] = end;
    struct request *r = sim_signal_new(s, rank, -1, "file I/O");
    r->mode = 1; /* the observer's I/O state */
    sim_signal_fire(s, r, end);
    return r;
}

void io_free_all(struct sim *s) {
    for (int32_t i = 0; i < s->nservers; i++)
        free(s->storage[i]);
    free(s->storage);
}
