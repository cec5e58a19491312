/* SPDX-License-Identifier: BSD-3-Clause */
/* LogGP's CPU (platform mpi.send_overhead, mpi.recv_overhead, mpi.gap...;
 * docs/models.md), its state in struct sim_cpu: a send waits for its
 * rank's NIC (the gap) and costs the send overhead, which a user call owes
 * (sim_cpu_overhead); a rank's CPU takes the messages whose data are there
 * one at a time, each costing the receive overhead, in the order (ready,
 * receiver, sender, the sender's count), which does not depend on the
 * order the engine matched them in, so a split run takes them alike; and
 * its computation waits for those receives on the same CPU. */
#include <stdlib.h>

#include "core/alloc.h"
#include "mpi/loggp.h"
#include "mpi/pt2pt.h"
#include "mpi/sim_internal.h"

struct recv_entry {
    simtime_t ready;
    int32_t receiver, sender;
    uint32_t order, xfer;
};

static bool recv_before(const void *pa, const void *pb) {
    const struct recv_entry *a = pa, *b = pb;
    if (a->ready != b->ready) return a->ready < b->ready;
    if (a->receiver != b->receiver) return a->receiver < b->receiver;
    if (a->sender != b->sender) return a->sender < b->sender;
    return a->order < b->order;
}

void loggp_init(struct sim *s) {
    const struct platform *plat = s->plat;
    size_t n = (size_t)s->nranks;
    s->cpu.owing_rank = -1;
    heap_init(&s->cpu.recv_ready, sizeof(struct recv_entry), recv_before);
    if (plat->gap > 0 || plat->gap_per_byte > 0)
        s->cpu.nic_free = xcalloc(n, sizeof *s->cpu.nic_free);
    if (plat->recv_overhead > 0 || plat->recv_overhead_per_byte > 0)
        s->cpu.recv_free = xcalloc(n, sizeof *s->cpu.recv_free);
    if (plat->send_overhead > 0) s->cpu.coll_free = xcalloc(n, sizeof *s->cpu.coll_free);
}

void loggp_free(struct sim *s) {
    free(s->cpu.nic_free);
    free(s->cpu.recv_free);
    heap_free(&s->cpu.recv_ready);
    free(s->cpu.coll_free);
}

/* A send called at `now` (a collective's: at its round's start): it waits
 * for the rank's NIC (gap g plus G per byte after the previous injection
 * began), then the CPU spends the send overhead; the message is posted
 * then. A user call owes that time (sim_cpu_overhead); a collective's
 * sends follow one another on the rank's CPU. */
simtime_t loggp_post_time_cpu(struct sim *s, int32_t rank, simtime_t now, int64_t size,
                              bool collective) {
    const struct platform *p = s->plat;
    simtime_t start = now;
    if (collective && s->cpu.coll_free) start = sim_max(start, s->cpu.coll_free[rank]);
    if (s->cpu.recv_free)
        start = sim_max(start, s->cpu.recv_free[rank]); /* one CPU: o at both ends */
    if (s->cpu.nic_free) {
        start = sim_max(start, s->cpu.nic_free[rank]);
        simtime_t per_byte = size > 1 ? (simtime_t)(size - 1) * p->gap_per_byte : 0;
        s->cpu.nic_free[rank] = simtime_add(simtime_add(start, p->gap), per_byte);
    }
    simtime_t post = simtime_add(start, p->send_overhead);
    if (s->cpu.recv_free) s->cpu.recv_free[rank] = sim_max(s->cpu.recv_free[rank], post);
    if (collective) {
        if (s->cpu.coll_free) s->cpu.coll_free[rank] = post;
    } else if (post > now) {
        s->cpu.owing_rank = rank;
        s->cpu.owing_until = post;
    }
    return post;
}

/* When a receive of size bytes whose data are there at `ready` completes:
 * after the receive overhead, one message at a time per rank (in match
 * order). The per-byte part is taken while the data arrive: the CPU starts
 * as (size - 1) bytes' worth of it remain, or once it is free. */
simtime_t loggp_recv_done_cpu(struct sim *s, int32_t rank, simtime_t ready, int64_t size) {
    simtime_t per = s->plat->recv_overhead_per_byte, bytes = 0;
    if (per > 0 && size > 1)
        bytes = (uint64_t)(size - 1) > (uint64_t)(SIMTIME_NEVER / per) ? SIMTIME_NEVER
                                                                       : per * (size - 1);
    simtime_t start = ready > bytes ? ready - bytes : 0;
    simtime_t done = simtime_add(simtime_add(sim_max(start, s->cpu.recv_free[rank]), bytes),
                                 s->plat->recv_overhead);
    s->cpu.recv_free[rank] = done;
    return done;
}

simtime_t loggp_compute_begin(struct sim *s, int32_t rank, simtime_t duration) {
    simtime_t begin = sim_max(s->eng.now, s->cpu.recv_free[rank]);
    if (!sim_compute_fits(s, begin - s->eng.now + duration)) return SIMTIME_NEVER;
    s->cpu.recv_free[rank] = begin + duration;
    return begin;
}

void loggp_queue_receive(struct sim *s, uint32_t id, simtime_t ready) {
    struct xfer *x = &s->xf.table[id];
    int32_t receiver = x->recv->owner;
    x->overhead_due = 1;
    struct recv_entry e = {ready, receiver, x->from, x->seq, id};
    heap_push(&s->cpu.recv_ready, &e);
    engine_schedule(&s->eng, ready, receiver, EV_RECV, 0, NULL);
}

/* The receiver's CPU is due for the least waiting transfer (the engine
 * runs events by time, then rank: it is this event's rank's). */
void loggp_recv_event(void *ctx, const struct event *ev) {
    struct sim *s = ctx;
    (void)ev;
    if (!s->cpu.recv_ready.n) return;
    struct recv_entry e;
    heap_pop(&s->cpu.recv_ready, &e);
    s->xf.table[e.xfer].overhead_due = 2;
    pt2pt_finish_transfer(s, e.xfer);
}

bool sim_cpu_overhead(struct sim *s, int32_t rank) {
    simtime_t until = s->cpu.owing_until;
    bool owes = s->cpu.owing_rank == rank && until > s->eng.now;
    s->cpu.owing_rank = -1;
    if (!owes) return true;
    struct srank *r = &s->ranks[rank];
    r->st.p2p += until - s->eng.now;
    if (s->obs) {
        struct sim_period p = {.begin = s->eng.now,
                               .end = until,
                               .rank = rank,
                               .state = SIM_ST_ISEND,
                               .call = SIM_CALL_ISEND,
                               .coll = -1};
        s->obs->period(s->obs->ctx, &p);
    }
    r->state = RS_COMPUTING;
    sim_wake_at(s, rank, until);
    return false;
}
