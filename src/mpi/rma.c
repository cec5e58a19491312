/* One-sided communication and synchronisation signals in the MPI semantics
 * layer (docs/models.md, "One-sided communication").
 *
 * An RMA operation reaches its target one control latency after the call
 * (the front end sends it with sim_land), and the target's node acts on it
 * then, without the target rank taking part (as with RDMA). Its data cost
 * what a message of their size costs between the two nodes, with the
 * platform's protocols: a put or an accumulate is a synchronous send from
 * the origin at the call (complete once the target has the data and
 * acknowledged them), received on the target's behalf when the operation
 * lands; a get's data are a send from the target when it lands, received
 * by the origin's receive posted at the call.
 *
 * A signal is a request completed by the front end (a window lock granted,
 * a post or complete of general active-target synchronisation, a
 * generalized request): it lets a rank block until another rank acts. */
#include <stdlib.h>
#include <string.h>

#include "core/pool.h"
#include "mpi/sim_internal.h"

/* The tags of RMA transfers on a window's private communicator: the data
 * to the target, and the replies (a rank may be its own target). */
#define RMA_TAG_DATA 0
#define RMA_TAG_REPLY 1

struct request *sim_rma_origin(struct sim *s, int32_t origin, int32_t comm_id, int32_t target,
                               int64_t size, bool to_target, struct sim_recv_target *reply,
                               int32_t id) {
    int32_t me;
    struct comm *c = sim_comm_get(s, origin, comm_id, &me);
    if (!c || target < 0 || target >= c->size) return NULL;
    simtime_t now = s->eng.now;
    struct request *r = to_target ? pt2pt_post_send(s, origin, c, me, c->ctx, target, RMA_TAG_DATA,
                                                    size, SEND_SYNC, NULL, now, NULL)
                                  : pt2pt_post_recv(s, origin, c, c->ctx, target, RMA_TAG_REPLY,
                                                    size, NULL, now, reply);
    request_track(s, r, id);
    if (s->rec) record_rma(s, r, comm_id, target, size, to_target);
    return r;
}

/* What lands at an operation's target in a replay: its side of the data. */
struct rma_landing {
    int32_t comm_id, origin; /* the origin's rank in the communicator */
    int64_t size;
    uint8_t to_target;
};

struct request *sim_rma_issue(struct sim *s, int32_t origin, int32_t comm_id, int32_t target,
                              int64_t size, bool to_target, int32_t id) {
    int32_t me;
    struct comm *c = sim_comm_get(s, origin, comm_id, &me);
    struct request *r = sim_rma_origin(s, origin, comm_id, target, size, to_target, NULL, id);
    if (!r) return NULL;
    int32_t to = comm_world_rank(c, target);
    struct rma_landing m = {comm_id, me, size, to_target};
    struct sim_piece piece = {&m, sizeof m};
    land_post(s, origin, to, simtime_add(s->eng.now, sim_control_latency(s, origin, to)),
              LAND_RMA_TARGET, &piece, 1);
    return r;
}

void rma_land(struct sim *s, int32_t target, const void *msg, uint32_t len) {
    struct rma_landing m;
    if (len < sizeof m) return;
    memcpy(&m, msg, sizeof m);
    sim_rma_target(s, target, m.comm_id, m.origin, m.size, m.to_target, NULL);
}

void sim_record_skip(struct sim *s, const char *what) {
    if (s->rec) record_skip(s, what);
}

void sim_rma_target(struct sim *s, int32_t target, int32_t comm_id, int32_t origin, int64_t size,
                    bool to_target, const void *data) {
    int32_t me;
    struct comm *c = sim_comm_get(s, target, comm_id, &me);
    if (!c || origin < 0 || origin >= c->size) return;
    simtime_t now = s->eng.now;
    struct request *r = to_target ? pt2pt_post_recv(s, target, c, c->ctx, origin, RMA_TAG_DATA,
                                                    size, NULL, now, NULL)
                                  : pt2pt_post_send(s, target, c, me, c->ctx, origin, RMA_TAG_REPLY,
                                                    size, SEND_STANDARD, NULL, now, data);
    s->owing_rank = -1; /* the target's node acts: no CPU time of the rank's */
    if (!to_target && size > 0 && data && r->data == data) { /* kept for a later delivery: a copy */
        void *copy = xmalloc((size_t)size);
        memcpy(copy, data, (size_t)size);
        r->data = copy;
        r->flags |= RF_OWNS;
    }
    request_release(s, r); /* nobody waits for the target's side */
}

simtime_t sim_control_latency(const struct sim *s, int32_t from, int32_t to) {
    return network_control_cost(s->net, s->ranks[from].node, s->ranks[to].node);
}
