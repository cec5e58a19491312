/* One-sided communication and synchronisation signals in the MPI semantics
 * layer (docs/models.md, "One-sided communication").
 *
 * An RMA operation costs what a message of its size costs between the two
 * ranks' nodes, with the platform's protocols and contention: a put or an
 * accumulate is a synchronous send from the origin to the target (it is
 * complete at the origin once the target has the data and acknowledged
 * it), a get is a send from the target to the origin. The target's side of
 * the pair is posted on the target's behalf at the same instant (the target
 * does not take part, as with RDMA), so the pair matches at once.
 *
 * A signal is a request completed by the front end (a window lock granted,
 * a post or complete of general active-target synchronisation, a
 * generalized request): it lets a rank block until another rank acts. */
#include "mpi/sim_internal.h"

/* The tag of RMA transfers on a window's private communicator. */
#define RMA_TAG 0

struct request *sim_rma_transfer(struct sim *s, int32_t origin, int32_t comm_id, int32_t target,
                                 int64_t size, bool to_target) {
    if (part_refuse(s, origin, "one-sided communication")) return NULL;
    if (s->rec) record_skip(s, "one-sided communication");
    int32_t me;
    struct comm *c = sim_comm_get(s, origin, comm_id, &me);
    if (!c || target < 0 || target >= c->size) return NULL;
    int32_t wtarget = comm_world_rank(c, target);
    /* the sender and receiver: world rank and rank in the communicator */
    int32_t from = to_target ? origin : wtarget, from_rank = to_target ? me : target;
    int32_t to = to_target ? wtarget : origin, to_rank = to_target ? target : me;
    simtime_t now = s->eng.now;
    struct request *recv =
        pt2pt_post_recv(s, to, c, c->ctx, from_rank, RMA_TAG, size, NULL, now, NULL);
    struct request *send = pt2pt_post_send(s, from, c, from_rank, c->ctx, to_rank, RMA_TAG, size,
                                           SEND_SYNC, NULL, now, NULL);
    struct request *mine = to_target ? send : recv;
    pt2pt_release(s, to_target ? recv : send); /* the target's side: nobody waits for it */
    request_track(s, mine, -1);
    return mine;
}

simtime_t sim_control_latency(const struct sim *s, int32_t from, int32_t to) {
    return network_control_cost(s->net, s->ranks[from].node, s->ranks[to].node);
}

struct request *sim_signal_new(struct sim *s, int32_t rank, int32_t peer, const char *what) {
    struct request *r = request_new(s, rank, 0, REQ_SIGNAL, 0, 0, s->eng.now);
    r->peer = peer;
    r->data = (void *)what;
    request_track(s, r, -1);
    return r;
}

void sim_signal_fire(struct sim *s, struct request *r, simtime_t at) {
    request_resolve(s, r, sim_max(at, s->eng.now), s->eng.now);
}
