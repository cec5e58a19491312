/* SPDX-License-Identifier: BSD-3-Clause */
/* The simulation: ranks, their wake-ups and compute bursts, the run loop,
 * finish, and the failure report (deadlock wait-for graph). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/log.h"
#include "core/ranktable.h"
#include "core/units.h"
#include "mpi/bsend.h"
#include "mpi/fault.h"
#include "mpi/land.h"
#include "mpi/loggp.h"
#include "mpi/nics.h"
#include "mpi/observe.h"
#include "mpi/part.h"
#include "mpi/pt2pt.h"
#include "mpi/record.h"
#include "mpi/schedule.h"
#include "mpi/sim_internal.h"
#include "mpi/wait.h"
#include "net/contention.h"

/* A burst over [begin, end) counted and observed: at its start when its
 * end is known, else (the shared-memory model) at its end. */
static void compute_span(struct sim *s, int32_t rank, simtime_t begin, simtime_t end) {
    if (s->obs) {
        struct sim_period p = {
            .begin = begin, .end = end, .rank = rank, .state = SIM_ST_RUNNING, .coll = -1};
        s->obs->period(s->obs->ctx, &p);
    }
    s->ranks[rank].st.compute += end - begin;
}

static void wake_event(void *ctx, const struct event *ev) {
    struct sim *s = ctx;
    int32_t rank = event_rank(ev, s->nranks);
    struct srank *r = &s->ranks[rank];
    if (ev->gen != r->wake_gen) return; /* superseded */
    simtime_t begin;
    if (r->state == RS_COMPUTING && membw_end(s, rank, &begin))
        compute_span(s, rank, begin, s->eng.now);
    if (r->state == RS_WAITING) {
        wait_complete(s, rank);
    } else if (r->state != RS_COMPUTING && r->state != RS_READY) {
        return;
    }
    r->state = RS_READY;
    r->wake_at = SIMTIME_NEVER;
    s->drv.resume(s->drv.ctx, rank);
    sched_drain(s);
}

/* The engine's handlers of the layers below: each event may complete steps
 * of collective schedules, which then run (sched_drain). */
static void any_event(void *ctx, const struct event *ev) {
    pt2pt_any_event(ctx, ev);
    sched_drain(ctx);
}

static void net_event(void *ctx, const struct event *ev) {
    nics_event(ctx, ev);
    sched_drain(ctx);
}

static void recv_event(void *ctx, const struct event *ev) {
    loggp_recv_event(ctx, ev);
    sched_drain(ctx);
}

static void land_arrives(void *ctx, const struct event *ev) {
    land_event(ctx, ev);
    sched_drain(ctx);
}

static void transfer_done(void *ctx, void *arg) {
    pt2pt_transfer_done(ctx, arg);
    sched_drain(ctx);
}

void sim_rank_start(struct sim *s, int32_t rank) {
    s->ranks[rank].wake_at = SIMTIME_NEVER;
    sim_wake_at(s, rank, s->jobs.n ? s->jobs.start[sim_job_of(s, rank)] : 0);
}

/* The engine's warm (core/engine.h), for a rank's wake-up (where it
 * resumes; other events touch too little to pay for it): its state, then
 * its first outstanding request, and what its driver reads. */
static void warm_rank(void *ctx, const struct event *ev, int stage) {
    const struct sim *s = ctx;
    int32_t rank = event_rank(ev, s->nranks);
    if (event_kind(ev) != EV_WAKE || rank < 0) return;
    const struct srank *r = &s->ranks[rank];
    if (stage == 0)
        cache_prefetch_object(r, sizeof *r);
    else if (r->outstanding)
        cache_prefetch(r->outstanding);
    if (s->drv.warm) s->drv.warm(s->drv.ctx, rank, stage);
}

struct sim *sim_create(struct platform *plat, const struct network *net, int32_t nranks,
                       const struct sim_driver *drv, struct sim_error *err) {
    if (nranks < 1) {
        err_set(err, "a run needs at least one rank");
        return NULL;
    }
    if (!platform_fit_ranks(plat, nranks, err)) return NULL;
    struct sim *s = xcalloc(1, sizeof *s);
    s->plat = plat;
    s->net = net;
    s->drv = *drv;
    s->out.exit_forced = -1;
    s->nranks = nranks;
    s->ranks = ranktable_alloc((size_t)nranks, sizeof *s->ranks);
    if (net->serial_copies) s->copies = ranktable_alloc((size_t)nranks, sizeof *s->copies);
    s->node_blocks = plat->placement == PLACE_BLOCK && plat->ranks_per_node >= 1 &&
                     plat->ranks_per_node <= INT32_MAX;
    if (s->node_blocks) s->ranks_per_node = divisor_make((uint32_t)plat->ranks_per_node);
    s->world.ctx = 0;
    s->world.nworkers = -1;
    s->world.size = nranks;
    s->comms.next_ctx = 2;
    s->up.sub_resolved = sched_notify;
    s->up.waited_resolved = wait_resolved;
    s->up.sub_mark = sched_mark;
    s->up.sub_partner_ok = sched_check_partner;
    s->up.transfer_arrived = pt2pt_finish_transfer;
    s->up.step_arrived = steps_send;
    engine_init(&s->eng, nranks);
    s->eng.warm = warm_rank;
    s->eng.warm_ctx = s;
    engine_register(&s->eng, EV_WAKE, wake_event, s);
    engine_register(&s->eng, EV_ANY, any_event, s);
    engine_register(&s->eng, EV_LAND, land_arrives, s);
    engine_register(&s->eng, EV_RECV, recv_event, s);
    land_init(s);
    pool_init(&s->req_pool, sizeof(struct request), 4096);
    if (!sched_read_forced(s, err)) {
        sim_destroy(s);
        return NULL;
    }
    loggp_init(s);
    if (net->serial_interfaces && plat->nodes > 1) {
        nics_init(s);
        engine_register(&s->eng, EV_NET, net_event, s);
    }
    s->cont = contention_create(net, plat->nodes, &s->eng, EV_NET, transfer_done, s, err);
    membw_init(s);
    if (err->set || !fault_setup(s, err)) {
        sim_destroy(s);
        return NULL;
    }
    return s;
}

void sim_destroy(struct sim *s) {
    if (!s) return;
    for (int32_t i = 0; i < s->nranks; i++) {
        if (!sim_local(s, i)) continue; /* another worker's: never set up here */
        struct rank_rare *rare = s->ranks[i].rare;
        if (rare) bsend_free(rare);
        free(rare);
        if (s->copies) free(s->copies[i]);
    }
    if (s->copies) ranktable_free(s->copies, (size_t)s->nranks, sizeof *s->copies);
    conf_free(s->colls.config.selection);
    membw_free(s);
    pt2pt_free_payloads(s);
    comm_free_all(s);
    analytic_free_all(s);
    sched_free_all_counts(s);
    io_free_all(s);
    rma_free_all(s);
    land_free_all(s);
    pool_destroy(&s->req_pool);
    pool_destroy(&s->colls.sched_pool);
    free(s->colls.ready);
    contention_destroy(s->cont);
    free(s->xf.table);
    free(s->xf.stack);
    free(s->idx.slot);
    nics_destroy(s);
    part_free(s);
    loggp_free(s);
    deadlock_free(s);
    engine_destroy(&s->eng);
    ranktable_free(s->ranks, (size_t)s->nranks, sizeof *s->ranks);
    observe_free(s);
    free(s->flt.failed_done);
    free(s->flt.log);
    free(s->out.report);
    free(s);
}

bool sim_split(struct sim *s, struct workers *w, enum sim_placement placement,
               struct sim_error *err) {
    if (faults_configured(s->net->faults))
        return err_set(err, "faults (docs/faults.md) are not carried across the workers of a "
                            "split run yet: run with one process (--procs 1)");
    return part_setup(s, w, placement, err);
}

bool sim_owns(const struct sim *s, int32_t rank) {
    return sim_local(s, rank);
}

bool sim_reports(const struct sim *s) {
    return part_first(s);
}

void sim_set_exit_codes(struct sim *s, int forced, int rank_status) {
    s->out.exit_forced = forced;
    s->out.exit_rank_status = rank_status;
}

void sim_exit_codes(const struct sim *s, int *forced, int *rank_status) {
    *forced = s->out.exit_forced;
    *rank_status = s->out.exit_rank_status;
}

uint64_t sim_records_elsewhere(const struct sim *s) {
    return s->split.records_elsewhere;
}

void sim_begin(struct sim *s) {
    for (int32_t i = 0; i < s->nranks; i++)
        sim_rank_start(s, i);
}

bool sim_advance(struct sim *s, uint64_t instants) {
    for (uint64_t i = 0; i < instants; i++)
        if (!engine_run_instant(&s->eng)) break;
    if (engine_next_time(&s->eng) != SIMTIME_NEVER && !s->eng.stop && !s->eng.limited) return true;
    sched_drain(s);
    /* after a crash in a ULFM run, waits that cannot end fail, and the run goes on */
    return fault_quiesce(s);
}

enum sim_status sim_run(struct sim *s) {
    SIMPI_LOG(LOG_ENGINE, s->eng.now, "run of %d ranks begins%s", s->nranks,
              s->split.part ? " (a split run's worker)" : "");
    if (s->split.part) {
        part_run(s);
    } else {
        sim_begin(s);
        do { /* after a crash in a ULFM run, waits that cannot end fail, and the run goes on */
            engine_run(&s->eng);
            sched_drain(s);
        } while (fault_quiesce(s));
    }
    return sim_end(s);
}

enum sim_status sim_end(struct sim *s) {
    if (!s->split.part) {
        pt2pt_count_unmatched_sent(s);
        steps_each_unmatched(s, pt2pt_count_sent);
    }
    if (s->status == SIM_OK && s->eng.limited) {
        char tb[48], lb[48];
        if (s->eng.limited == ENGINE_WALL_LIMIT)
            sim_fail_status(s, SIM_TIME_LIMIT,
                            "stopped at the wall-clock limit (--wall-limit) at virtual time %s; "
                            "the figures below are partial",
                            units_format_time(s->eng.now, tb, sizeof tb));
        else
            sim_fail_status(s, SIM_TIME_LIMIT,
                            "stopped at the virtual-time limit (--time-limit %s): the next event "
                            "is past it; the figures below are partial",
                            units_format_time(s->eng.limit, lb, sizeof lb));
        (void)tb;
    }
    SIMPI_LOG(LOG_ENGINE, s->eng.now, "run ends: status %d, %llu events", (int)s->status,
              (unsigned long long)s->eng.events_run);
    if (s->status != SIM_OK || !part_first(s)) return s->status;
    for (int32_t i = 0; i < s->nranks; i++) {
        if (s->ranks[i].state != RS_FINISHED) {
            s->status = SIM_DEADLOCK;
            report_deadlock(s);
            break;
        }
    }
    return s->status;
}

void sim_set_time_limit(struct sim *s, simtime_t limit) {
    s->eng.limit = limit;
}

simtime_t sim_now(const struct sim *s) {
    return s->eng.now;
}
int32_t sim_size(const struct sim *s) {
    return s->nranks;
}
const struct rank_stats *sim_rank_stats(const struct sim *s, int32_t rank) {
    return &s->ranks[rank].st;
}
uint64_t sim_events(const struct sim *s) {
    return s->eng.events_run;
}
int64_t sim_unmatched_messages(const struct sim *s) {
    return pt2pt_unmatched(s) + steps_unmatched(s) + s->split.unmatched_elsewhere;
}

bool sim_compute_fits(const struct sim *s, simtime_t duration) {
    return simtime_add(s->eng.now, duration) != SIMTIME_NEVER;
}

bool sim_compute(struct sim *s, int32_t rank, simtime_t duration) {
    if (duration <= 0) return true;
    struct srank *r = &s->ranks[rank];
    if (!sim_compute_fits(s, duration)) {
        char what[96];
        if (duration == SIMTIME_NEVER)
            snprintf(what, sizeof what, "a computation longer than representable");
        else
            snprintf(what, sizeof what, "a computation of %.6f s", simtime_to_seconds(duration));
        sim_time_overflow(s, rank, what);
        r->state = RS_COMPUTING; /* the run stops; the rank never resumes */
        return false;
    }
    if (s->rec) record_compute(s, rank, duration); /* as computed alone */
    if (s->plat->ideal_cpu) return true;           /* platform ideal: cpu, computation free */
    r->state = RS_COMPUTING;
    if (s->mem) {
        membw_start(s, rank, duration);
        return false;
    }
    simtime_t begin = s->eng.now;
    if (s->cpu.recv_free) { /* LogGP: one CPU takes in messages and computes, in turn */
        begin = loggp_compute_begin(s, rank, duration);
        if (begin == SIMTIME_NEVER) return sim_compute(s, rank, SIMTIME_NEVER);
    }
    compute_span(s, rank, begin, begin + duration);
    sim_wake_at(s, rank, begin + duration);
    return false;
}

int32_t sim_rank_node(const struct sim *s, int32_t rank) {
    return sim_node(s, rank);
}

void sim_set_tick(struct sim *s, void (*fn)(void *ctx), void *ctx) {
    s->eng.tick = fn;
    s->eng.tick_ctx = ctx;
}

int32_t sim_finished_ranks(const struct sim *s) {
    return s->finished;
}

void sim_finish(struct sim *s, int32_t rank) {
    struct srank *r = &s->ranks[rank];
    if (r->state != RS_FINISHED) s->finished++;
    r->state = RS_FINISHED;
    r->st.finish = s->eng.now;
    if (s->obs) s->obs->finish(s->obs->ctx, rank, s->eng.now);
    /* Requests the program never waited for are released; their messages stay
     * in the receivers' queues and count as unmatched if never received. */
    while (r->outstanding) {
        struct request *q = r->outstanding;
        s->abandoned_requests++;
        r->outstanding = q->onext;
        request_untrack(s, q);
        q->flags &= (uint8_t)~RF_USER;
        request_release(s, q);
    }
}

void sim_memory_usage(const struct sim *s, struct sim_memory *m) {
    m->rank_state = (int64_t)(ranktable_resident(s->ranks, (size_t)s->nranks, sizeof *s->ranks) +
                              ranktable_resident(s->eng.rank_seq, (size_t)s->nranks + 1,
                                                 sizeof *s->eng.rank_seq));
    m->requests_peak = (int64_t)(s->req_pool.peak * s->req_pool.obj_size);
    m->schedules_peak = (int64_t)(s->colls.sched_pool.peak * s->colls.sched_pool.obj_size);
    m->events_peak = (int64_t)(s->eng.room_peak * sizeof(struct event));
}

int64_t sim_abandoned_requests(const struct sim *s) {
    return s->abandoned_requests;
}

void sim_network_stats(const struct sim *s, struct sim_net_stats *out) {
    *out = s->net_stats;
    out->transfer_seconds = simtime_to_seconds(s->net_transfer);
    out->early_seconds = simtime_to_seconds(s->net_early);
}

int sim_busiest_links(const struct sim *s, struct link_load *out, int n) {
    return contention_top_links(s->cont, out, n);
}

int sim_jobs_shared_links(const struct sim *s, struct link_shared *out, int n) {
    return contention_shared_links(s->cont, out, n);
}

static bool node_here(void *ctx, int32_t node) {
    const struct sim *s = ctx;
    return sim_node_here(s, node);
}

int sim_busiest_interfaces(const struct sim *s, struct nic_load *out, int n) {
    if (!s->nic.model) return 0;
    if (n > SIM_NIC_TOP) n = SIM_NIC_TOP;
    int got = interfaces_top(s->nic.model, node_here, (void *)s, out, n);
    interfaces_top_merge(out, &got, n, s->split.nic_top, s->split.nic_top_n);
    return got;
}

const struct network *sim_network(const struct sim *s) {
    return s->net;
}
