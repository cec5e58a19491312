/* SPDX-License-Identifier: BSD-3-Clause */
/* Dimemas' analytic collective model on the simulator (mpi.coll.model:
 * analytic): no messages; the participants of a collective synchronise (the
 * operation starts when the last one arrives) and all complete
 *   FAN_IN + FAN_OUT later, each phase = factor x T(SIZE)
 * (in a split run, each worker learns the other workers' members' arrivals
 * and completes its own members alike)
 * with T the point-to-point cost between the nodes of the communicator's
 * ranks 0 and 1, factor 0, 1 (CTE), P (LIN) or the LOG steps, and SIZE one
 * of MAX, MIN, MEAN, 2MAX or S+R of the buffers the ranks passed. */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "mpi/part.h"
#include "mpi/schedule.h"
#include "mpi/sim_internal.h"
#include "platform/platform.h"

struct an_slot {
    struct an_slot *next;
    struct comm *comm;
    uint32_t tag;
    int32_t arrived, root;
    simtime_t last; /* the last arrival so far */
    uint8_t kind;
    int64_t max_m, min_m, sum_m, max_sr; /* m = max(sent, recv); sr = sent + recv */
    struct request **reqs;
};

static int64_t phase_size(const struct an_slot *sl, int rule) {
    switch (rule) {
    case COLL_AN_MIN:
        return sl->min_m;
    case COLL_AN_MEAN:
        return sl->sum_m / sl->comm->size;
    case COLL_AN_2MAX:
        return 2 * sl->max_m;
    case COLL_AN_SR:
        return sl->max_sr;
    default:
        return sl->max_m;
    }
}

static simtime_t phase_time(struct sim *s, const struct an_slot *sl, struct coll_an_phase ph) {
    int32_t n = sl->comm->size;
    if (ph.factor == COLL_AN_NONE || n < 2) return 0;
    int32_t a = platform_node_of(s->plat, comm_world_rank(sl->comm, 0));
    int32_t b = platform_node_of(s->plat, comm_world_rank(sl->comm, 1));
    /* Dimemas charges its latency as CPU time on point-to-point messages
     * (mpi.send_overhead, mpi.recv_overhead) but inside T(SIZE) here */
    simtime_t t = simtime_add(network_cost(s->net, a, b, phase_size(sl, ph.size)),
                              s->colls.config.an_latency);
    int64_t buses = s->net->contention == CONTENTION_BUSES ? s->net->buses : 0;
    int64_t factor = ph.factor == COLL_AN_CTE   ? 1
                     : ph.factor == COLL_AN_LIN ? n
                                                : coll_an_log_steps(n, buses);
    if (t == SIMTIME_NEVER || (t > 0 && factor > SIMTIME_NEVER / t)) return SIMTIME_NEVER;
    return t * factor;
}

static struct an_slot *find_slot(struct sim *s, struct comm *c, uint32_t tag) {
    for (struct an_slot *sl = s->colls.an_slots; sl; sl = sl->next)
        if (sl->comm == c && sl->tag == tag) return sl;
    struct an_slot *sl = xcalloc(1, sizeof *sl);
    sl->comm = c;
    sl->tag = tag;
    sl->min_m = INT64_MAX;
    sl->reqs = xcalloc((size_t)c->size, sizeof *sl->reqs);
    sl->next = s->colls.an_slots;
    s->colls.an_slots = sl;
    return sl;
}

static void drop_slot(struct sim *s, struct an_slot *sl) {
    for (struct an_slot **p = &s->colls.an_slots; *p; p = &(*p)->next)
        if (*p == sl) {
            *p = sl->next;
            break;
        }
    free(sl->reqs);
    free(sl);
}

/* The collective's end once everyone is there (at the last arrival):
 * resolves every member (in a split run, those of this worker; another's
 * last arrival is learned a window later, so the phases must not end
 * sooner than that). */
static void complete(struct sim *s, struct an_slot *sl) {
    struct coll_an_rule r = s->colls.config.an[sl->kind];
    simtime_t end =
        simtime_add(simtime_add(sl->last, phase_time(s, sl, r.in)), phase_time(s, sl, r.out));
    if (end < s->eng.now) {
        sim_fail(s,
                 "an analytic %s on %d ranks ends %.3f us after its last member's arrival, "
                 "sooner than a split run's workers learn of it; run without --procs",
                 sim_coll_name((enum coll_kind)sl->kind), sl->comm->size,
                 simtime_to_seconds(end - sl->last) * 1e6);
        drop_slot(s, sl);
        return;
    }
    for (int32_t i = 0; i < sl->comm->size; i++)
        if (sl->reqs[i]) request_resolve(s, sl->reqs[i], end, end);
    drop_slot(s, sl);
}

static bool same_call(struct sim *s, const struct an_slot *sl, int32_t rank, enum coll_kind kind,
                      int32_t root, uint32_t tag) {
    if (sl->kind == kind && sl->root == root) return true;
    sim_fail(s,
             "mismatched collectives at virtual time %.6f s on a communicator of %d ranks, "
             "collective #%u: rank %d called %s (root %d) while another member called %s (root "
             "%d); every rank of a communicator must call the same collectives in the same order",
             simtime_to_seconds(s->eng.now), sl->comm->size, tag, rank, sim_coll_name(kind), root,
             sim_coll_name((enum coll_kind)sl->kind), sl->root);
    return false;
}

/* Counts a member's buffers and arrival time into the collective's slot;
 * false if its call differs from the others'. */
static bool arrive(struct sim *s, struct an_slot *sl, const struct an_arrival *a) {
    if (sl->arrived == 0) {
        sl->kind = a->kind;
        sl->root = a->root;
    } else if (!same_call(s, sl, a->world, (enum coll_kind)a->kind, a->root, a->tag)) {
        return false;
    }
    if (a->myrank == 0 && sim_local(s, a->world)) s->colls.analytic_calls[a->kind]++; /* once */
    sl->max_m = a->m > sl->max_m ? a->m : sl->max_m;
    sl->min_m = a->m < sl->min_m ? a->m : sl->min_m;
    sl->sum_m += a->m;
    sl->max_sr = a->sr > sl->max_sr ? a->sr : sl->max_sr;
    sl->last = a->at > sl->last ? a->at : sl->last;
    if (++sl->arrived == sl->comm->size) complete(s, sl);
    return true;
}

void analytic_arrive(struct sim *s, struct comm *c, const struct an_arrival *a) {
    arrive(s, find_slot(s, c, a->tag), a);
}

struct request *analytic_start(struct sim *s, struct request *req, struct comm *c, int32_t myrank,
                               enum coll_kind kind, int64_t size, int32_t root, uint32_t tag) {
    struct an_slot *sl = find_slot(s, c, tag);
    int64_t sent, recv;
    coll_an_buffers(kind, c->size, size, myrank == root, &sent, &recv);
    struct an_arrival a = {
        c->ctx,      tag,       myrank, root, req->owner, (uint8_t)kind, sent > recv ? sent : recv,
        sent + recv, s->eng.now};
    sl->reqs[myrank] = req;
    if (s->split.cross) s->split.cross->analytic(s, c, &a); /* the workers of the other members */
    arrive(s, sl, &a);
    return req;
}

void analytic_free_all(struct sim *s) {
    while (s->colls.an_slots)
        drop_slot(s, s->colls.an_slots);
}
