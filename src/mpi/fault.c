/* SPDX-License-Identifier: BSD-3-Clause */
/* Faults in the MPI layer (docs/faults.md): the platform's faults taken in
 * time order from the network layer (net/faults.h, where their state is);
 * a crashed node's ranks stop. Under fault_tolerance: ulfm (mpiexec
 * --with-ft ulfm) the job goes on, and an operation that involves a failed
 * rank raises its error on its own communicator (fatal there only if that
 * communicator's handler is). Otherwise, unless every surviving rank has
 * asked for errors to be returned on MPI_COMM_WORLD, the job ends then, as
 * mpirun ends it, with a report. Otherwise the run
 * goes on: operations that involve a failed rank fail (sim_rank_failed,
 * sim_comm_failed), and when nothing else can move, the waits that can no
 * longer complete end with MPIX_ERR_PROC_FAILED (fault_quiesce). */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/units.h"
#include "mpi/fault.h"
#include "mpi/part.h"
#include "mpi/pt2pt.h"
#include "mpi/schedule.h"
#include "mpi/sim_internal.h"
#include "mpi/wait.h"

static void schedule_next(struct sim *s) {
    simtime_t t = faults_next_time(s->net->faults);
    if (t != SIMTIME_NEVER && s->finished < s->nranks)
        engine_schedule(&s->eng, sim_max(t, s->eng.now), 0, EV_FAULT, 0, NULL);
}

static void fail_pending(struct sim *s);

/* The first FAULT_LOG_MAX faults, for the reports' timelines (the
 * statistics count them all). */
#define FAULT_LOG_MAX 4096
static void note_fault(struct sim *s, const struct fault_event *e) {
    if (s->flt.nlog == FAULT_LOG_MAX) return;
    if (!(s->flt.nlog & (s->flt.nlog - 1))) /* room doubled at each power of two */
        s->flt.log =
            xrealloc_or_die(s->flt.log, sizeof *s->flt.log * (s->flt.nlog ? 2 * s->flt.nlog : 1));
    s->flt.log[s->flt.nlog].at = e->at;
    faults_describe(e, &s->net->topo, s->flt.log[s->flt.nlog].what,
                    sizeof s->flt.log[s->flt.nlog].what);
    s->flt.nlog++;
}

/* A message sent to a crashed rank, not received: the first four named. */
static void describe_unreceived(struct sim *s, const struct request *q, int64_t *n) {
    if ((*n)++ < 4)
        sim_report_append(s, "%s%lld bytes from rank %d tag %d",
                          *n == 1 ? "; sent to it, not yet received: " : ", ", (long long)q->size,
                          q->owner, q->tag);
}

/* What a crashed rank was doing, for the report. */
static void describe_victim(struct sim *s, int32_t rank) {
    struct srank *r = &s->ranks[rank];
    char tb[48];
    sim_report_append(s, "  rank %d: ", rank);
    if (r->state == RS_FINISHED) {
        sim_report_append(s, "had finished its program at %s",
                          units_format_time(r->st.finish, tb, sizeof tb));
    } else if (r->state == RS_WAITING) {
        char *what = deadlock_describe(s, rank);
        sim_report_append(s, "%s", what);
        free(what);
    } else if (r->state == RS_COMPUTING && r->wake_at != SIMTIME_NEVER) {
        sim_report_append(s, "computing (or in an MPI call's CPU time) until %s",
                          units_format_time(r->wake_at, tb, sizeof tb));
    } else {
        sim_report_append(s, "running");
    }
    if (r->state != RS_WAITING) wait_describe_outstanding(s, rank, 4);
    int64_t unexp = 0;
    for (const struct request *q = r->unexp_head; q; q = q->qnext)
        describe_unreceived(s, q, &unexp);
    const struct request *last = r->coll_sends; /* its collectives' (steps.c) */
    for (const struct request *q = last ? last->qnext : NULL; q; q = q == last ? NULL : q->qnext)
        describe_unreceived(s, q, &unexp);
    sim_report_append(s, "%s (%u request%s outstanding, %lld message%s sent to it not received)\n",
                      unexp > 4 ? ", ..." : "", r->noutstanding, r->noutstanding == 1 ? "" : "s",
                      (long long)unexp, unexp == 1 ? "" : "s");
}

/* Whether every rank that survives returns errors instead of aborting. */
static bool survivors_tolerate(const struct sim *s) {
    for (int32_t i = 0; i < s->nranks; i++)
        if (!s->ranks[i].dead && s->ranks[i].state != RS_FINISHED && !s->ranks[i].tolerant)
            return false;
    return true;
}

/* Whether a rank is still running: neither dead nor finished. */
static bool any_rank_running(const struct sim *s) {
    for (int32_t i = 0; i < s->nranks; i++)
        if (!s->ranks[i].dead && s->ranks[i].state != RS_FINISHED) return true;
    return false;
}

static void crash(struct sim *s, const struct fault_event *e) {
    char tb[48];
    int32_t victims = 0;
    for (int32_t i = 0; i < s->nranks; i++)
        victims += sim_node(s, i) == e->a && s->ranks[i].state != RS_FINISHED;
    /* a node without ranks (its router, on a direct network, is down), or
     * whose ranks have all finished: nothing of the job stops */
    if (!victims) return;
    for (int32_t i = 0; i < s->nranks; i++) /* first, so that the test below leaves them out */
        if (sim_node(s, i) == e->a && s->ranks[i].state != RS_FINISHED) s->ranks[i].dead = 2;
    /* a crash that leaves no rank running ends the job unfinished, whatever
     * the survivors would tolerate: a failed run, never a completed one
     * whose time is the crash's */
    bool none_left = !any_rank_running(s);
    if (none_left || (!s->plat->ulfm && !survivors_tolerate(s))) {
        sim_fail_status(s, SIM_FAULT,
                        "node %lld crashed at virtual time %s (faults[%d]) and %s; the figures "
                        "below are partial\nranks of node %lld when it crashed:",
                        (long long)e->a, units_format_time(e->at, tb, sizeof tb), e->entry,
                        none_left ? "no rank of the job was left running: the job did not complete"
                                  : "the job was aborted, as mpirun aborts it when a process dies "
                                    "(MPI_ERRORS_ARE_FATAL)",
                        (long long)e->a);
        for (int32_t i = 0; i < s->nranks; i++)
            if (sim_node(s, i) == e->a) describe_victim(s, i);
        return;
    }
    for (int32_t i = 0; i < s->nranks; i++) {
        struct srank *r = &s->ranks[i];
        if (r->dead != 2) continue;
        r->dead = 1;
        s->flt.ndead++;
        r->wake_gen++; /* its pending wake-ups are dropped */
        sim_finish(s, i);
        r->st.finish = s->eng.now;
    }
    fail_pending(s);
}

static void fault_event(void *ctx, const struct event *ev) {
    struct sim *s = ctx;
    struct net_faults *f = s->net->faults;
    (void)ev;
    struct fault_event e;
    if (s->finished == s->nranks) return; /* the job is over: later faults do not count */
    while (faults_next_time(f) <= s->eng.now && s->status == SIM_OK) {
        if (!faults_pop(f, &e)) continue;
        network_faults_changed(s->net);
        note_fault(s, &e);
        if (e.what == FAULT_CRASH) crash(s, &e);
    }
    if (s->status == SIM_OK) schedule_next(s);
    sched_drain(s);
}

bool fault_partitioned(struct sim *s, int32_t from, int32_t to) {
    const struct network *n = s->net;
    int32_t a = sim_node(s, from), b = sim_node(s, to);
    if (a == b || topology_is_flat(&n->topo) || network_connected(n, a, b)) return false;
    int64_t *links = xmalloc(sizeof *links * (TOPO_MAX_HOPS + 3));
    faults_detour(n->faults, a, b, links); /* marks the side of rank `from` */
    free(links);
    int32_t cut = 0, side = 0;
    for (int32_t i = 0; i < s->nranks; i++)
        if (!s->ranks[i].dead) {
            bool here = faults_reached(n->faults, sim_node(s, i)) || sim_node(s, i) == a;
            side += here;
            cut += !here;
        }
    char tb[48], lb[48];
    sim_fail_status(s, SIM_FAULT,
                    "network partition at virtual time %s: rank %d (node %d) sends to rank %d "
                    "(node %d), but no route joins their nodes over the links and switches that "
                    "are up (the last fault took effect at %s); %d rank%s on rank %d's side, %d "
                    "on the other",
                    units_format_time(s->eng.now, tb, sizeof tb), from, a, to, b,
                    units_format_time(n->faults->st.last, lb, sizeof lb), side,
                    side == 1 ? "" : "s", from, cut);
    return true;
}

bool fault_setup(struct sim *s, struct sim_error *err) {
    if (!network_faults_init((struct network *)s->net, s->plat, err)) return false;
    if (!faults_configured(s->net->faults)) return true;
    engine_register(&s->eng, EV_FAULT, fault_event, s);
    schedule_next(s);
    return true;
}

bool fault_quiesce(struct sim *s) {
    if (!s->flt.ndead || s->status != SIM_OK) return false;
    bool moved = false;
    for (int32_t i = 0; i < s->nranks; i++) {
        struct srank *r = &s->ranks[i];
        if (r->state != RS_WAITING) continue;
        uint32_t seen = 0;
        for (struct request *q = wait_next(r, NULL, &seen); q; q = wait_next(r, q, &seen))
            if (!(q->flags & RF_RESOLVED)) moved |= fault_fail_request(s, q, true);
    }
    return moved;
}

bool fault_fail_request(struct sim *s, struct request *q, bool quiet) {
    if (q->flags & RF_RESOLVED) return false;
    switch (q->kind) {
    case REQ_RECV:
        if (q->flags & RF_SUB || !(q->peer >= 0 ? s->ranks[q->peer].dead == 1 : quiet))
            return false;
        pt2pt_fail_recv(s, q);
        return true;
    case REQ_SEND:
        if (q->flags & RF_SUB || q->peer < 0 || s->ranks[q->peer].dead != 1) return false;
        q->hold = HOLD_FAILED;
        request_resolve(s, q, s->eng.now, s->eng.now);
        return true;
    case REQ_COLL:
        return sched_fail(s, q);
    default:
        return false;
    }
}

/* Every live rank's operations that involve a rank that just failed. */
static void fail_pending(struct sim *s) {
    for (int32_t i = 0; i < s->nranks; i++) {
        if (s->ranks[i].state == RS_FINISHED) continue;
        for (struct request *q = s->ranks[i].outstanding; q; q = q->onext)
            fault_fail_request(s, q, false);
    }
}

struct request *fault_failed_request(struct sim *s, int32_t rank, int kind) {
    struct request *r = request_new(s, rank, 0, kind, 0, 0, s->eng.now);
    r->hold = HOLD_FAILED;
    r->peer = -1;
    request_resolve(s, r, s->eng.now, s->eng.now);
    return r;
}

bool sim_rank_failed(const struct sim *s, int32_t world_rank) {
    return s->ranks[world_rank].dead == 1;
}

int32_t sim_failed_ranks(const struct sim *s) {
    return s->flt.ndead;
}

bool fault_comm_has_failed(const struct sim *s, const struct comm *c) {
    for (int32_t i = 0; s->flt.ndead && i < c->size; i++)
        if (s->ranks[comm_world_rank(c, i)].dead == 1) return true;
    return false;
}

bool sim_comm_failed(const struct sim *s, int32_t rank, int32_t comm_id) {
    int32_t me;
    const struct comm *c = s->flt.ndead ? sim_comm_get(s, rank, comm_id, &me) : NULL;
    return c && fault_comm_has_failed(s, c);
}

void sim_set_tolerant(struct sim *s, int32_t rank, bool tolerant) {
    s->ranks[rank].tolerant = tolerant;
}

void fault_note_done(struct sim *s, const struct request *r) {
    if (r->hold != HOLD_FAILED || r->kind == REQ_SIGNAL) return;
    if (s->flt.nfailed_done == s->flt.failed_done_cap) {
        s->flt.failed_done_cap = s->flt.failed_done_cap ? 2 * s->flt.failed_done_cap : 16;
        s->flt.failed_done = xrealloc_or_die(s->flt.failed_done,
                                             sizeof *s->flt.failed_done * s->flt.failed_done_cap);
    }
    s->flt.failed_done[s->flt.nfailed_done++] = r;
}

bool sim_request_failed(const struct sim *s, const struct request *r) {
    for (size_t i = 0; i < s->flt.nfailed_done; i++)
        if (s->flt.failed_done[i] == r) return true;
    return false;
}

const struct sim_fault_note *sim_fault_log(const struct sim *s, size_t *n) {
    *n = s->flt.nlog;
    return s->flt.log;
}

const struct fault_stats *sim_fault_stats(const struct sim *s) {
    return faults_configured(s->net->faults) ? &s->net->faults->st : NULL;
}
