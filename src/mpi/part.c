/* SPDX-License-Identifier: BSD-3-Clause */
/* A split run (simpi replay --procs K, docs/parallel.md): the ranks are
 * spread over K worker processes by simulated node, and this file is all
 * that crosses between them. Every worker runs windows of half the
 * network's lookahead (network_lookahead: no message between nodes arrives
 * sooner after it leaves); at a window's end the workers exchange what
 * their ranks did to other workers' ranks in it (core/workers.c) and agree
 * on the next window. What crosses:
 *   envelope  a send posted to a rank of another worker: there, a stand-in
 *             (request.remote) meets the receiver's queues as the send would
 *             have, with the injection the sender's interface gave it;
 *   update    the stand-in's state (matched, done, buffered data in) back
 *             to the sending request;
 *   clear     a rendezvous clear-to-send for the sender's worker, whose
 *             interface reserves the data's injection when it arrives;
 *   eject     the first byte of those data, back to the receiver's worker;
 *   land      a message taking effect at a rank later (land.c: one-sided
 *             operations, locks, posts and completes, shared storage
 *             requests, a send's cancellation, and their answers);
 *   analytic  a member's arrival at a collective of Dimemas' analytic model;
 *   stop      a worker's run failed or reached a limit: all stop there;
 *   result    at the end, each worker's ranks' figures for the first one,
 *             which prints the run.
 * Each effect lands at least one window after the window that caused it
 * (docs/architecture.md, "Toward K workers"), so the run gives what one
 * worker gives. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/memstat.h"
#include "core/ranktable.h"
#include "core/units.h"
#include "core/workers.h"
#include "mpi/land.h"
#include "mpi/nics.h"
#include "mpi/part.h"
#include "mpi/pt2pt.h"
#include "mpi/record.h"
#include "mpi/schedule.h"
#include "mpi/sim_internal.h"
#include "mpi/wait.h"

struct part {
    struct workers *w;
    int k, me;
    simtime_t window;
    simtime_t window_end;               /* the end of the window running */
    bool posted;                        /* something went out in this window */
    bool stopped;                       /* a worker stopped the run */
    struct sim_split_stats stats;       /* messages and bytes: this worker's, then all of them */
    int64_t *peak_memory, *rank_tables; /* each worker's (sim_split_stats) */
    struct sent {                       /* messages of other workers' ranks matched here */
        int64_t msgs, bytes;
    } * sent;
};

enum {
    PM_ENVELOPE = 1,
    PM_UPDATE,
    PM_CLEAR,
    PM_EJECT,
    PM_STOP,
    PM_RANK,
    PM_TOTALS,
    PM_OBSERVED,
    PM_BLOCKED,
    PM_SPLIT,
    PM_SENT,
    PM_FRONT,
    PM_LAND,
    PM_ANALYTIC
};

struct pm_analytic {
    uint8_t type;
    struct an_arrival a;
};

/* followed by the front end's message (len bytes) */
struct pm_land {
    uint8_t type, kind;
    int32_t origin, target;
    uint32_t seq, len;
    simtime_t at;
};

/* Messages of a rank matched in the sending worker (part_count_sent). */
struct pm_sent {
    uint8_t type;
    int32_t rank;
    int64_t msgs, bytes;
};

/* A rank's part in MPI_Comm_split (or dup): every worker builds the result. */
struct pm_split {
    uint8_t type;
    uint32_t parent_ctx, seq;
    int32_t myrank, color, key, new_id;
};

/* A blocked rank at the end: its targets, then its description. */
struct pm_blocked {
    uint8_t type;
    int32_t rank, n;
};

/* followed, when has_data, by the message's `size` bytes (on-line runs) */
struct pm_envelope {
    uint8_t type, mode, flags, coll, sub, has_xfer, has_data;
    int32_t owner, peer, src, tag, root, sig;
    uint32_t ctx, seq;
    int64_t size;
    simtime_t post_time, at;
    uint64_t handle;
};

struct pm_update {
    uint8_t type, flags;
    simtime_t done, partner;
    uint64_t handle;
};

struct pm_clear {
    uint8_t type;
    uint32_t xfer, seq;
    int32_t from, to;
    int64_t size;
    simtime_t cleared;
};

struct pm_eject {
    uint8_t type;
    uint32_t xfer;
    simtime_t at;
};

struct pm_stop {
    uint8_t type, status, limited;
};

struct pm_rank {
    uint8_t type, state;
    int32_t rank;
    struct rank_stats st;
};

struct pm_totals {
    uint8_t type, status;
    uint64_t events, records;
    int64_t messages, bytes; /* sent to other workers */
    simtime_t last_event;
    struct sim_net_stats net;
    simtime_t net_transfer, net_early;
    int64_t unmatched, abandoned;
    int64_t coll_calls[48];
    int64_t analytic_calls[COLL_KINDS];
    int32_t exit_forced, exit_rank_status; /* the front end's (sim_set_exit_codes) */
    int64_t rec_skipped;                   /* operations --trace-out could not record */
    uint8_t failed_reading;                /* sim_fail_reading */
    int32_t worker;
    int64_t peak_memory, rank_tables; /* the worker's (sim_split_stats) */
    char report[512];
    struct nic_load nic_top[SIM_NIC_TOP]; /* the worker's busiest interface sides */
    int32_t nic_top_n;
};

static int worker_of(const struct sim *s, int32_t rank) {
    return sim_worker_of_node(s, sim_node(s, rank));
}

static void post(struct sim *s, int to, const void *msg, uint32_t len) {
    workers_post(s->split.part->w, to, msg, len);
    s->split.part->posted = true;
    s->split.part->stats.messages++;
    s->split.part->stats.bytes += len;
}

static void postv(struct sim *s, int to, const struct workers_piece *pieces, int n) {
    workers_postv(s->split.part->w, to, pieces, n);
    s->split.part->posted = true;
    s->split.part->stats.messages++;
    for (int i = 0; i < n; i++)
        s->split.part->stats.bytes += (int64_t)pieces[i].len;
}

static void post_all(struct sim *s, const void *msg, uint32_t len) {
    for (int j = 0; j < s->split.part->k; j++)
        if (j != s->split.part->me) post(s, j, msg, len);
}

/* --- what the protocols send --- */

static void post_envelope(struct sim *s, struct request *send) {
    struct pm_envelope m = {.type = PM_ENVELOPE,
                            .mode = send->mode,
                            .flags = send->flags & (RF_RESOLVED | RF_BSEND),
                            .coll = send->coll,
                            .sub = (send->flags & RF_SUB) != 0,
                            .owner = send->owner,
                            .peer = send->peer,
                            .src = send->src,
                            .tag = send->tag,
                            .root = (send->flags & RF_SUB) ? send->user_id : -1,
                            .ctx = send->ctx,
                            .seq = send->seq,
                            .size = send->size,
                            .post_time = send->post_time,
                            .handle = (uint64_t)(uintptr_t)send};
    if (s->hooks.send_signature && !(send->flags & RF_SUB))
        m.sig = s->hooks.send_signature(s->hooks.ctx, send);
    if (send->xfer) { /* eager through the interfaces: injected here already */
        const struct xfer *x = &s->xf.table[send->xfer];
        m.has_xfer = 1;
        m.at = x->at;
        transfer_free(s, send->xfer);
        send->xfer = 0;
    }
    /* an on-line send's data go with it (a collective's move through the
     * front end's own messages); read now, as MPI forbids changing them
     * before the send completes */
    const void *data = !(send->flags & RF_SUB) && send->size > 0 ? send->data : NULL;
    if (!data) {
        post(s, worker_of(s, send->peer), &m, sizeof m);
        return;
    }
    if ((uint64_t)send->size > UINT32_MAX - sizeof m - 64) {
        sim_fail(s,
                 "rank %d: a message of %lld bytes to rank %d (another worker's) is over the 4 GiB "
                 "a split run carries between workers; run without --procs",
                 send->owner, (long long)send->size, send->peer);
        return;
    }
    data = sim_address(s, send->owner, (void *)data);
    m.has_data = 1;
    struct workers_piece pieces[] = {{&m, sizeof m}, {data, (size_t)send->size}};
    postv(s, worker_of(s, send->peer), pieces, 2);
}

static void add_sent(struct sim *s, int32_t rank, int64_t msgs, int64_t bytes) {
    struct part *p = s->split.part;
    if (!p->sent) p->sent = xcalloc((size_t)s->nranks, sizeof *p->sent);
    p->sent[rank].msgs += msgs;
    p->sent[rank].bytes += bytes;
}

static void count_sent(struct sim *s, int32_t rank, int64_t size) {
    add_sent(s, rank, 1, size);
}

static void settle(struct sim *s, struct request *proxy) {
    if (pt2pt_done_at_post(s, proxy)) { /* its sender expects nothing */
        if ((proxy->flags & RF_MATCHED) && (proxy->flags & RF_RESOLVED))
            pool_put(&s->req_pool, proxy);
        return;
    }
    struct pm_update m = {PM_UPDATE, proxy->flags & (RF_MATCHED | RF_RESOLVED | RF_BSEND),
                          proxy->done_time, proxy->partner_time, (uint64_t)proxy->cpu_mark};
    post(s, worker_of(s, proxy->owner), &m, sizeof m);
    bool final = (proxy->flags & RF_MATCHED) && (proxy->flags & RF_RESOLVED) &&
                 (!(proxy->flags & RF_BSEND) || proxy->partner_time != SIMTIME_NEVER);
    if (final) pool_put(&s->req_pool, proxy);
}

static void post_clear_to_send(struct sim *s, uint32_t id, simtime_t cleared) {
    const struct xfer *x = &s->xf.table[id];
    struct pm_clear m = {PM_CLEAR, id, x->seq, x->from, x->to, x->send->size, cleared};
    post(s, worker_of(s, x->from), &m, sizeof m);
}

static void post_eject(struct sim *s, const struct xfer *x) {
    struct pm_eject m = {PM_EJECT, x->remote - 1, x->at};
    post(s, worker_of(s, x->to), &m, sizeof m);
}

static void post_land(struct sim *s, int32_t origin, int32_t target, simtime_t at, uint32_t seq,
                      uint8_t kind, const struct sim_piece *pieces, int n) {
    if (at < s->split.part->window_end) { /* would land in a window already run there */
        sim_fail(s,
                 "rank %d: a one-sided message to rank %d (another worker's) would land "
                 "sooner than the split run's lookahead; run without --procs",
                 origin, target);
        return;
    }
    struct pm_land m = {PM_LAND, kind, origin, target, seq, 0, at};
    struct workers_piece all[9] = {{&m, sizeof m}};
    for (int i = 0; i < n && i < 8; i++) {
        all[i + 1] = (struct workers_piece){pieces[i].data, pieces[i].len};
        m.len += (uint32_t)pieces[i].len;
    }
    postv(s, worker_of(s, target), all, (n < 8 ? n : 8) + 1);
}

/* The other workers that hold members of c, found once. */
static void comm_workers(struct sim *s, struct comm *c) {
    if (c->nworkers >= 0) return;
    struct part *p = s->split.part;
    bool *has = xcalloc((size_t)p->k, sizeof *has);
    for (int32_t j = 0; j < c->size; j++)
        has[worker_of(s, comm_world_rank(c, j))] = true;
    c->workers = xmalloc(sizeof *c->workers * (size_t)p->k);
    c->nworkers = 0;
    for (int j = 0; j < p->k; j++)
        if (has[j] && j != p->me) c->workers[c->nworkers++] = j;
    free(has);
}

static void post_analytic(struct sim *s, const struct comm *c, const struct an_arrival *a) {
    comm_workers(s, (struct comm *)c);
    struct pm_analytic m = {PM_ANALYTIC, *a};
    for (int i = 0; i < c->nworkers; i++)
        post(s, c->workers[i], &m, sizeof m);
}

int sim_comm_workers(const struct sim *s, int32_t rank, int32_t comm_id, const int32_t **list) {
    int32_t me;
    struct comm *c = s->split.part ? sim_comm_get(s, rank, comm_id, &me) : NULL;
    *list = NULL;
    if (!c) return 0;
    comm_workers((struct sim *)s, c);
    *list = c->workers;
    return c->nworkers;
}

void part_post_split(struct sim *s, struct comm *parent, int32_t myrank, int32_t color, int32_t key,
                     int32_t new_id, uint32_t seq) {
    struct pm_split m = {PM_SPLIT, parent->ctx, seq, myrank, color, key, new_id};
    comm_workers(s, parent); /* only they know the parent */
    for (int32_t i = 0; i < parent->nworkers; i++)
        post(s, parent->workers[i], &m, sizeof m);
}

/* --- what arrives --- */

static void take_envelope(struct sim *s, const struct pm_envelope *m, uint32_t len) {
    struct request *r =
        request_new_standin(s, m->owner, m->ctx, REQ_SEND, m->tag, m->size, m->post_time);
    r->src = m->src;
    r->peer = m->peer;
    r->mode = m->mode;
    r->seq = m->seq;
    r->coll = m->coll;
    r->flags = m->flags & RF_BSEND;
    if (m->flags & RF_RESOLVED) request_resolve(s, r, m->post_time, m->post_time); /* as there */
    r->remote = 1;
    r->remote_sub = m->sub;
    r->user_id = m->root;
    r->cpu_mark = (simtime_t)m->handle;
    if (m->has_data && m->size > 0 && len >= sizeof *m + (uint64_t)m->size) {
        r->data = xmalloc((size_t)m->size);
        memcpy(r->data, (const char *)m + sizeof *m, (size_t)m->size);
        r->flags |= RF_OWNS;
    }
    if (m->has_xfer) {
        uint32_t id = nics_eager_xfer(s, m->owner, m->peer, m->size, m->seq);
        struct xfer *x = &s->xf.table[id];
        x->at = m->at; /* its head then follows from the costs here */
        r->xfer = id;
        nics_toward_ejection(s, id);
    }
    if (m->sig && s->hooks.remote_signature) s->hooks.remote_signature(s->hooks.ctx, r, m->sig);
    pt2pt_accept_remote(s, r);
}

static void take_sent(struct sim *s, const struct pm_sent *m) {
    if (m->rank >= 0 && m->rank < s->nranks) add_sent(s, m->rank, m->msgs, m->bytes);
}

static void take_clear(struct sim *s, const struct pm_clear *m) {
    uint32_t id = transfer_new(s);
    struct xfer *x = &s->xf.table[id];
    x->from = m->from;
    x->to = m->to;
    x->remote = m->xfer + 1;
    nics_set_size(x, m->size, m->seq);
    nics_expect_clear_to_send(s, id, m->cleared);
}

static void take_eject(struct sim *s, const struct pm_eject *m) {
    struct xfer *x = &s->xf.table[m->xfer];
    x->at = m->at;
    nics_toward_ejection(s, m->xfer);
}

/* The ends that stop every worker's engine at once. */
static bool stops_everyone(int status) {
    return status == SIM_INTERRUPTED || status == SIM_APP_ERROR || status == SIM_INPUT_ERROR;
}

static void take_stop(struct sim *s, const struct pm_stop *m) {
    s->split.part->stopped = true;
    if (m->limited) s->eng.limited = m->limited;
    if (stops_everyone(m->status)) engine_stop(&s->eng);
}

static void take_rank(struct sim *s, const struct pm_rank *m) {
    struct srank *r = &s->ranks[m->rank];
    r->st = m->st;
    if (m->state == RS_FINISHED && r->state != RS_FINISHED) s->finished++;
    r->state = m->state;
}

static void take_totals(struct sim *s, const struct pm_totals *m) {
    s->net_stats.messages += m->net.messages;
    s->net_stats.hops += m->net.hops;
    s->net_transfer += m->net_transfer;
    s->net_early += m->net_early;
    interfaces_top_merge(s->split.nic_top, &s->split.nic_top_n, SIM_NIC_TOP, m->nic_top,
                         m->nic_top_n);
    s->split.unmatched_elsewhere += m->unmatched;
    s->abandoned_requests += m->abandoned;
    for (int i = 0; i < 48; i++)
        s->colls.calls[i] += m->coll_calls[i];
    for (int i = 0; i < COLL_KINDS; i++)
        s->colls.analytic_calls[i] += m->analytic_calls[i];
    s->eng.events_run += m->events;
    if (m->last_event > s->eng.last_event) s->eng.last_event = m->last_event;
    s->split.part->stats.messages += m->messages;
    s->split.part->stats.bytes += m->bytes;
    if (m->worker > 0 && m->worker < s->split.part->k) {
        s->split.part->peak_memory[m->worker] = m->peak_memory;
        s->split.part->rank_tables[m->worker] = m->rank_tables;
    }
    s->split.records_elsewhere += m->records;
    record_skipped_elsewhere(s, m->rec_skipped);
    if (m->failed_reading && s->status == SIM_OK)
        s->out.failed_reading = true; /* its report next */
    if (s->out.exit_forced < 0) s->out.exit_forced = m->exit_forced;
    if (s->out.exit_rank_status == 0) s->out.exit_rank_status = m->exit_rank_status;
    if (m->status != SIM_OK && s->status == SIM_OK) {
        s->status = m->status;
        sim_report_append(s, "%s", m->report);
    }
}

static void take_blocked(struct sim *s, const struct pm_blocked *m, uint32_t len) {
    size_t head = sizeof *m + sizeof(int32_t) * (size_t)m->n;
    if (m->rank < 0 || m->rank >= s->nranks || m->n < 0 || head > len) return;
    deadlock_note_elsewhere(s, m->rank, (const int32_t *)(m + 1), m->n, (const char *)m + head,
                            len - head);
}

static void deliver(void *ctx, int from, const void *msg, uint32_t len) {
    struct sim *s = ctx;
    (void)from;
    switch (*(const uint8_t *)msg) {
    case PM_ENVELOPE:
        take_envelope(s, msg, len);
        break;
    case PM_UPDATE: {
        const struct pm_update *m = msg;
        pt2pt_remote_update(s, (struct request *)(uintptr_t)m->handle, m->flags, m->done,
                            m->partner);
        break;
    }
    case PM_CLEAR:
        take_clear(s, msg);
        break;
    case PM_EJECT:
        take_eject(s, msg);
        break;
    case PM_STOP:
        take_stop(s, msg);
        break;
    case PM_RANK:
        take_rank(s, msg);
        break;
    case PM_BLOCKED:
        take_blocked(s, msg, len);
        break;
    case PM_SENT:
        take_sent(s, msg);
        break;
    case PM_SPLIT: {
        const struct pm_split *m = msg;
        struct comm *parent = comm_by_context(s, m->parent_ctx);
        if (!parent || m->myrank < 0 || m->myrank >= parent->size) {
            sim_fail(s, "a split run lost track of a communicator (context %u)", m->parent_ctx);
            break;
        }
        split_contribute(s, parent, m->myrank, m->color, m->key, m->new_id, m->seq);
        break;
    }
    case PM_LAND: {
        const struct pm_land *m = msg;
        if (len >= sizeof *m + (uint64_t)m->len)
            land_accept(s, m->origin, m->target, m->at, m->seq, m->kind, m + 1, m->len);
        break;
    }
    case PM_ANALYTIC: {
        const struct pm_analytic *m = msg;
        struct comm *c = comm_by_context(s, m->a.ctx);
        if (!c || m->a.myrank < 0 || m->a.myrank >= c->size) {
            sim_fail(s, "a split run lost track of a communicator (context %u)", m->a.ctx);
            break;
        }
        analytic_arrive(s, c, &m->a);
        break;
    }
    case PM_FRONT: /* a type byte, padding to 8, the front end's message */
        if (s->drv.front && len >= 8) s->drv.front(s->drv.ctx, (const char *)msg + 8, len - 8);
        break;
    case PM_OBSERVED: /* a type byte, padding to 8, the observer's blob */
        if (s->obs && s->obs->unpack) s->obs->unpack(s->obs->ctx, (const char *)msg + 8, len - 8);
        break;
    default:
        take_totals(s, msg);
    }
}

/* --- the windows --- */

static simtime_t exchange(struct sim *s, simtime_t next) {
    struct sim_error err = {0};
    simtime_t least;
    s->split.part->posted = false; /* deliveries may post for the next window */
    double t0 = memstat_wall_seconds();
    bool ok = workers_exchange(s->split.part->w, next, &least, deliver, s, &err);
    s->split.part->stats.exchange_seconds += memstat_wall_seconds() - t0;
    s->split.part->stats.windows++;
    if (!ok) {
        if (s->split.part->me != 0) _exit(1); /* the first worker says why */
        if (s->drv.lost) s->drv.lost(s->drv.ctx, err.msg);
        err_fatal(err.msg);
    }
    sched_drain(s);
    return least;
}

/* This worker's blocked ranks, for the first worker's wait-for graph. */
static void post_blocked(struct sim *s) {
    for (int32_t i = 0; i < s->nranks; i++) {
        if (!sim_local(s, i) || s->ranks[i].state == RS_FINISHED) continue;
        int32_t targets[64];
        int n = wait_targets(s, i, targets, 64);
        char *text = deadlock_describe(s, i);
        size_t tl = strlen(text), head = sizeof(struct pm_blocked) + sizeof *targets * (size_t)n;
        char *msg = xcalloc(head + tl, 1);
        struct pm_blocked m = {PM_BLOCKED, i, n};
        memcpy(msg, &m, sizeof m);
        memcpy(msg + sizeof m, targets, sizeof *targets * (size_t)n);
        memcpy(msg + head, text, tl);
        post(s, 0, msg, (uint32_t)(head + tl));
        free(msg);
        free(text);
    }
}

/* What the observer (the analysis) saw of this worker's ranks. */
static void post_observed(struct sim *s) {
    if (!s->obs || !s->obs->pack) return;
    char *blob = NULL;
    size_t len = s->obs->pack(s->obs->ctx, &blob);
    static const uint8_t head[8] = {PM_OBSERVED};
    struct workers_piece pieces[2] = {{head, sizeof head}, {blob, len}}; /* no copy of the blob */
    postv(s, 0, pieces, 2);
    free(blob);
}

/* The first worker learns every rank's figures and how the run ended. */
static void gather(struct sim *s) {
    struct part *p = s->split.part;
    pt2pt_count_unmatched_sent(s); /* before the counts of other workers' senders go */
    steps_each_unmatched(s, pt2pt_count_sent);
    if (s->drv.ending) s->drv.ending(s->drv.ctx);
    if (p->me != 0) {
        for (int32_t i = 0; i < s->nranks; i++)
            if (sim_local(s, i)) {
                struct pm_rank m = {PM_RANK, s->ranks[i].state, i, s->ranks[i].st};
                post(s, 0, &m, sizeof m);
            }
        post_observed(s); /* first: its buffers count in the worker's peak memory */
        struct pm_totals t = {.type = PM_TOTALS,
                              .status = (uint8_t)s->status,
                              .events = s->eng.events_run,
                              .last_event = s->eng.last_event,
                              .messages = p->stats.messages,
                              .bytes = p->stats.bytes,
                              .records = s->drv.records ? s->drv.records(s->drv.ctx) : 0,
                              .net = s->net_stats,
                              .net_transfer = s->net_transfer,
                              .net_early = s->net_early,
                              .unmatched = pt2pt_unmatched(s) + steps_unmatched(s),
                              .abandoned = s->abandoned_requests,
                              .exit_forced = s->out.exit_forced,
                              .exit_rank_status = s->out.exit_rank_status,
                              .rec_skipped = record_skipped(s),
                              .failed_reading = s->out.failed_reading,
                              .worker = p->me,
                              .peak_memory = memstat_peak_rss(),
                              .rank_tables = (int64_t)ranktable_resident_all()};
        memcpy(t.coll_calls, s->colls.calls, sizeof t.coll_calls);
        memcpy(t.analytic_calls, s->colls.analytic_calls, sizeof t.analytic_calls);
        snprintf(t.report, sizeof t.report, "%s", s->out.report ? s->out.report : "");
        t.nic_top_n = sim_busiest_interfaces(s, t.nic_top, SIM_NIC_TOP);
        post(s, 0, &t, sizeof t);
        for (int32_t i = 0; p->sent && i < s->nranks; i++)
            if (p->sent[i].msgs) {
                struct pm_sent m = {PM_SENT, i, p->sent[i].msgs, p->sent[i].bytes};
                post(s, 0, &m, sizeof m);
            }
        if (s->status == SIM_OK) post_blocked(s);
    }
    if (p->me == 0) { /* at the same point as the others' */
        p->peak_memory[0] = memstat_peak_rss();
        p->rank_tables[0] = (int64_t)ranktable_resident_all();
    }
    exchange(s, SIMTIME_NEVER);
    if (p->me != 0) return;
    s->eng.now = s->eng.last_event;                      /* the windows ran past it */
    for (int32_t i = 0; p->sent && i < s->nranks; i++) { /* after every rank's own figures */
        s->ranks[i].st.msgs_sent += p->sent[i].msgs;
        s->ranks[i].st.bytes_sent += p->sent[i].bytes;
    }
}

/* The run stops here: the other workers are told (once). */
static void post_stop(struct sim *s) {
    if (s->split.part->stopped) return;
    struct pm_stop m = {PM_STOP, (uint8_t)s->status, (uint8_t)s->eng.limited};
    post_all(s, &m, sizeof m);
    s->split.part->stopped = true;
}

void part_run(struct sim *s) {
    struct part *p = s->split.part;
    for (int32_t i = 0; i < s->nranks; i++)
        if (sim_local(s, i)) sim_rank_start(s, i);
    simtime_t start = 0;
    for (;;) {
        simtime_t end = start + p->window;
        p->window_end = end;
        bool ran = engine_run_until(&s->eng, end);
        /* (or failed between windows: an interruption that reached this
         * worker while none of its ranks ran, window_done) */
        if (!ran || stops_everyone(s->status)) post_stop(s);
        simtime_t next = engine_next_time(&s->eng);
        if (p->posted && next > end) next = end;
        simtime_t least = exchange(s, next);
        if (s->drv.window_done) s->drv.window_done(s->drv.ctx, end);
        if (p->stopped || least == SIMTIME_NEVER) break;
        start = least - least % p->window;
        if (start < end) start = end;
    }
    gather(s);
}

enum sim_status sim_split_abandon(struct sim *s) {
    struct part *p = s->split.part;
    post_stop(s); /* the window this worker left: its exchange, then the gathering */
    exchange(s, p->window_end);
    gather(s);
    return s->status;
}

int sim_worker_of(const struct sim *s, int32_t rank) {
    return s->split.part ? worker_of(s, rank) : 0;
}

int sim_worker_me(const struct sim *s) {
    return s->split.part ? s->split.part->me : 0;
}

int sim_worker_count(const struct sim *s) {
    return s->split.part ? s->split.part->k : 1;
}

void sim_post_front(struct sim *s, int to, const struct sim_piece *pieces, int n) {
    static const uint8_t head[8] = {PM_FRONT};
    struct workers_piece all[9] = {{head, sizeof head}};
    for (int i = 0; i < n && i < 8; i++)
        all[i + 1] = (struct workers_piece){pieces[i].data, pieces[i].len};
    postv(s, to, all, (n < 8 ? n : 8) + 1);
}

bool part_setup(struct sim *s, struct workers *w, enum sim_placement placement,
                struct sim_error *err) {
    if (s->cont)
        return err_set(err,
                       "--procs: the %s contention model shares the whole network, which "
                       "one worker cannot see; run it without --procs",
                       s->net->contention == CONTENTION_FLOW ? "flow" : "buses");
    if (s->plat->transfer_at_match && s->nic.model)
        return err_set(err, "--procs: under mpi.transfer_start: match an eager message takes its "
                            "sender's network interface at the instant its receive is posted, "
                            "which the sender's worker cannot learn in time; run without "
                            "--procs, or with network.interfaces: unlimited");
    simtime_t window = network_lookahead(s->net) / 2;
    if (window <= 0)
        return err_set(err, "--procs: the network has no latency between nodes (its lookahead "
                            "is 0), so workers would have to agree at every instant; run "
                            "without --procs");
    struct part *p = xcalloc(1, sizeof *p);
    p->w = w;
    p->k = workers_count(w);
    p->me = workers_me(w);
    p->window = window;
    p->stats.workers = p->k;
    p->peak_memory = xcalloc((size_t)p->k, sizeof *p->peak_memory);
    p->rank_tables = xcalloc((size_t)p->k, sizeof *p->rank_tables);
    /* blocks of the N nodes that hold ranks: worker j has [j N / K, (j+1) N / K);
     * cyclic: node n to worker n mod K */
    int64_t nodes = s->plat->nodes, used = 1;
    for (int32_t i = 0; i < s->nranks; i++) {
        int64_t node = sim_node(s, i);
        if (node + 1 > used) used = node + 1;
    }
    s->split.part = p;
    s->split.workers = p->k;
    s->split.cyclic = placement == SIM_PLACE_CYCLIC;
    s->split.used = used < nodes ? used : nodes;
    s->split.me = p->me;
    /* the least node n of worker j, ((n + 1) K - 1) / U = j: n = j U / K */
    s->split.local_first = (int64_t)p->me * s->split.used / p->k;
    s->split.local_end =
        p->me == p->k - 1 ? INT64_MAX : (int64_t)(p->me + 1) * s->split.used / p->k;
    static const struct cross_ops crossings = {post_envelope,      settle,     count_sent,
                                               post_clear_to_send, post_eject, post_land,
                                               post_analytic};
    s->split.cross = &crossings;
    return true;
}

bool sim_split_stats(const struct sim *s, struct sim_split_stats *out) {
    if (!s->split.part) return false;
    *out = s->split.part->stats;
    out->peak_memory = s->split.part->peak_memory;
    out->rank_tables = s->split.part->rank_tables;
    return true;
}

void part_free(struct sim *s) {
    if (!s->split.part) return;
    free(s->split.part->sent);
    free(s->split.part->peak_memory);
    free(s->split.part->rank_tables);
    free(s->split.part);
    s->split.part = NULL;
}
