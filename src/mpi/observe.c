/* SPDX-License-Identifier: BSD-3-Clause */
/* What the run's observer (src/analysis) is told: each period of a rank's
 * time classified as a Paraver state and an MPI call, the non-blocking
 * calls it posted, the messages delivered with their logical and physical
 * times, the user's intervals, and each rank's end. Nothing here runs
 * unless an observer is set (sim_set_observer). */
#include "mpi/observe.h"
#include "core/ranktable.h"
#include "mpi/part.h"
#include "mpi/record.h"
#include "mpi/sim_internal.h"

static const char *const call_names[SIM_CALL_COLL] = {
    "Outside MPI", "MPI_Send",     "MPI_Ssend", "MPI_Bsend",           "MPI_Rsend",
    "MPI_Recv",    "MPI_Sendrecv", "MPI_Isend", "MPI_Irecv",           "MPI_Wait",
    "MPI_Waitall", "MPI_Waitany",  "MPI_Test",  "MPI synchronisation", "MPI I/O"};
static const char *const coll_call_names[COLL_KINDS] = {
    "MPI_Barrier",        "MPI_Bcast",   "MPI_Reduce",    "MPI_Allreduce",
    "MPI_Gather",         "MPI_Scatter", "MPI_Allgather", "MPI_Alltoall",
    "MPI_Reduce_scatter", "MPI_Scan",    "MPI_Exscan"};

const char *sim_call_name(enum sim_call c) {
    if (c >= SIM_CALL_COLL && c < SIM_CALLS) return coll_call_names[c - SIM_CALL_COLL];
    return c < SIM_CALL_COLL ? call_names[c] : "?";
}

const char *sim_state_name(enum sim_state st) {
    switch (st) {
    case SIM_ST_IDLE:
        return "Idle";
    case SIM_ST_RUNNING:
        return "Running";
    case SIM_ST_WAIT_MSG:
        return "Waiting a message";
    case SIM_ST_BLOCK_SEND:
        return "Blocking Send";
    case SIM_ST_SYNC:
        return "Synchronization";
    case SIM_ST_TEST:
        return "Test/Probe";
    case SIM_ST_WAIT:
        return "Wait/WaitAll";
    case SIM_ST_ISEND:
        return "Immediate Send";
    case SIM_ST_IO:
        return "I/O";
    case SIM_ST_COLL:
        return "Group Communication";
    case SIM_ST_SENDRECV:
        return "Send Receive";
    }
    return "?";
}

void sim_set_observer(struct sim *s, const struct sim_observer *o) {
    s->obs = o;
    if (o && !s->overlap_mark)
        s->overlap_mark = ranktable_alloc((size_t)s->nranks, sizeof *s->overlap_mark);
}

void observe_free(struct sim *s) {
    if (s->overlap_mark)
        ranktable_free(s->overlap_mark, (size_t)s->nranks, sizeof *s->overlap_mark);
    s->overlap_mark = NULL;
}

void sim_interval(struct sim *s, int32_t rank, const char *name) {
    if (s->rec) record_interval(s, rank, name);
    if (s->obs) s->obs->interval(s->obs->ctx, rank, s->eng.now, name);
}

/* Computation of rank that hid the communication of q, a non-blocking
 * request completed now: the rank's computation between q's post and its
 * completion, counted once per rank (the union of such windows, measured on
 * the rank's computation total). */
static simtime_t overlap_credit(struct sim *s, int32_t rank, const struct request *q) {
    simtime_t lasted = q->done_time > q->post_time ? q->done_time - q->post_time : 0;
    simtime_t hi = q->cpu_mark + lasted, *mark = &s->overlap_mark[rank];
    if (hi > s->ranks[rank].st.compute) hi = s->ranks[rank].st.compute;
    simtime_t lo = q->cpu_mark > *mark ? q->cpu_mark : *mark;
    if (hi <= lo) return 0;
    *mark = hi;
    return hi - lo;
}

/* What a wait on requests posted at its start stands for. */
static void classify_blocking(struct sim_period *p, const struct request *q, int n, int nsend,
                              int nrecv) {
    static const uint8_t send_calls[] = {SIM_CALL_SEND, SIM_CALL_SSEND, SIM_CALL_BSEND,
                                         SIM_CALL_RSEND};
    if (n == 2 && nsend == 1 && nrecv == 1) {
        p->state = SIM_ST_SENDRECV;
        p->call = SIM_CALL_SENDRECV;
    } else if (n == 1 && q->kind == REQ_SEND) {
        p->state = SIM_ST_BLOCK_SEND;
        p->call = send_calls[q->mode & 3];
    } else if (n == 1 && q->kind == REQ_RECV) {
        p->state = SIM_ST_WAIT_MSG;
        p->call = SIM_CALL_RECV;
    }
}

struct wait_census {
    int n, nsend, nrecv, ncoll, nsignal, nio;
    bool all_now; /* every request was posted at the wait's start */
    const struct request *first;
};

/* The requests a wait completes (for waitany, the chosen one): instants for
 * the non-blocking calls that posted them, and the overlap they earn. */
static void census(struct sim *s, int32_t rank, const struct request *chosen, struct wait_census *c,
                   struct sim_period *p) {
    struct srank *me = &s->ranks[rank];
    const struct sim_observer *o = s->obs;
    uint32_t seen = 0;
    for (struct request *q = wait_next(me, NULL, &seen); q; q = wait_next(me, q, &seen)) {
        if (me->wait_any && q != chosen) continue;
        if (!c->first) c->first = q;
        c->n++;
        c->nsend += q->kind == REQ_SEND;
        c->nrecv += q->kind == REQ_RECV;
        c->ncoll += q->kind == REQ_COLL;
        c->nsignal += q->kind == REQ_SIGNAL;
        c->nio += q->kind == REQ_SIGNAL && q->mode == 1;
        if (q->post_time >= me->wait_start) continue;
        c->all_now = false;
        if (q->kind == REQ_SEND || q->kind == REQ_RECV)
            o->instant(o->ctx, rank, q->post_time,
                       q->kind == REQ_SEND ? SIM_CALL_ISEND : SIM_CALL_IRECV);
        p->overlap += overlap_credit(s, rank, q);
    }
}

void observe_wait(struct sim *s, int32_t rank, const struct request *chosen, simtime_t sync_loss) {
    struct srank *me = &s->ranks[rank];
    struct sim_period p = {.begin = me->wait_start,
                           .end = s->eng.now,
                           .rank = rank,
                           .sync_loss = sync_loss,
                           .coll = -1};
    struct wait_census c = {.all_now = true};
    census(s, rank, chosen, &c, &p);
    p.state = SIM_ST_WAIT;
    p.call = me->wait_any ? SIM_CALL_WAITANY : c.n == 1 ? SIM_CALL_WAIT : SIM_CALL_WAITALL;
    if (c.n == 1 && c.ncoll == 1) {
        p.coll = (int8_t)c.first->coll;
        p.coll_id = (uint64_t)c.first->ctx << 32 | (uint32_t)c.first->tag;
        p.coll_members = c.first->src;
        if (c.all_now) {
            p.state = SIM_ST_COLL;
            p.call = (uint8_t)(SIM_CALL_COLL + c.first->coll);
        }
    } else if (c.n > 0 && c.nsignal == c.n) {
        p.state = c.nio == c.n ? SIM_ST_IO : SIM_ST_SYNC;
        p.call = c.nio == c.n ? SIM_CALL_IO : SIM_CALL_SYNC;
    } else if (c.all_now && c.first) {
        classify_blocking(&p, c.first, c.n, c.nsend, c.nrecv);
    }
    s->obs->period(s->obs->ctx, &p);
}

void observe_test(struct sim *s, int32_t rank, const struct request *q) {
    const struct sim_observer *o = s->obs;
    struct sim_period p = {.begin = s->eng.now,
                           .end = s->eng.now,
                           .rank = rank,
                           .state = SIM_ST_TEST,
                           .call = SIM_CALL_TEST,
                           .coll = -1};
    if (q->kind == REQ_SEND || q->kind == REQ_RECV)
        o->instant(o->ctx, rank, q->post_time,
                   q->kind == REQ_SEND ? SIM_CALL_ISEND : SIM_CALL_IRECV);
    p.overlap = overlap_credit(s, rank, q);
    o->period(o->ctx, &p);
}

void observe_message(struct sim *s, const struct request *recv, simtime_t lsend, simtime_t precv) {
    if (!s->obs->message) {
        if (s->obs->message_pair)
            s->obs->message_pair(s->obs->ctx, recv->peer, recv->owner, recv->size);
        return;
    }
    struct sim_message m = {.lsend = lsend,
                            .lrecv = recv->post_time,
                            .precv = precv,
                            .size = recv->size,
                            .from = recv->peer,
                            .to = recv->owner,
                            .tag = recv->tag,
                            .collective = (recv->flags & RF_SUB) != 0};
    m.psend = m.lsend;
    if (recv->size > s->plat->eager_limit) { /* rendezvous: the data leave once matched */
        simtime_t ctrl =
            network_control_cost(s->net, sim_node(s, recv->peer), sim_node(s, recv->owner));
        m.psend = simtime_add(sim_max(recv->post_time, simtime_add(m.lsend, ctrl)), ctrl);
        if (m.psend > precv) m.psend = precv;
    }
    s->obs->message(s->obs->ctx, &m);
}
