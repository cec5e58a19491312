/* SPDX-License-Identifier: BSD-3-Clause */
/* The schedule executor: runs a collective algorithm's rounds for one rank,
 * posting each round's sends and receives through the same point-to-point
 * protocols as user messages (collective context, tag = collective sequence
 * number; matched apart from them, steps.c), and starting the next round
 * when all of them have completed.
 *
 * A round is posted at the virtual time the previous round ended, which may
 * lie ahead of the engine's clock: once a round's completion time is known,
 * the next round is posted at once rather than from an event at that time.
 * This is exact because collective messages match on an explicit source and
 * tag in their own context, so only their post times matter, and it costs no
 * event per round. Schedules whose round completed during another rank's
 * action wait in a ready list, drained iteratively after each event. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/alloc.h"
#include "mpi/coll/coll.h"
#include "mpi/fault.h"
#include "mpi/part.h"
#include "mpi/pt2pt.h"
#include "mpi/record.h"
#include "mpi/schedule.h"
#include "mpi/sim_internal.h"

/* 128 bytes, two cache lines (the pool's objects start on one): first what
 * a step's completion touches (sched_notify), which the interfaces' window
 * asks for ahead with the schedule's first line (nics.c, eject_prefetch). */
struct sched {
    simtime_t round_end; /* when the current round (so far) completes */
    int32_t pending;
    uint8_t posting;
    uint8_t kind;         /* the collective (enum coll_kind) */
    struct request *req;  /* the collective's request */
    struct request *subs; /* this round's sends and receives */
    const struct coll_algo *algo;
    struct comm *comm;
    struct coll_args args;
    struct vcounts *vbuf; /* variable counts: the copy args.vsend / vrecv point into */
    int32_t owner, round;
    uint32_t tag;
};
_Static_assert(sizeof(struct sched) <= 128, "a schedule takes two cache lines");

/* A schedule's copy of its variable counts, on a list of the sim's so that a
 * run stopped before the schedule ends still frees it. */
struct vcounts {
    struct vcounts *prev, *next;
    int64_t v[];
};

static void free_counts(struct sim *s, struct vcounts *c) {
    if (!c) return;
    if (c->prev)
        c->prev->next = c->next;
    else
        s->colls.vcounts = c->next;
    if (c->next) c->next->prev = c->prev;
    free(c);
}

/* A step leaves its schedule: it stays marked as a collective's step
 * (RF_SUB, its operation and root) for the mismatch check, and is freed
 * once nothing refers to it (a send may still wait for its receive). */
static void let_go(struct sim *s, struct request *q) {
    q->sched = NULL;
    request_release(s, q);
}

static void release_subs(struct sim *s, struct sched *sc) {
    while (sc->subs) {
        struct request *q = sc->subs;
        sc->subs = q->onext;
        let_go(s, q);
    }
}

static void post_round(struct sim *s, struct sched *sc, const struct coll_op *ops, int n) {
    uint32_t ctx = sc->comm->ctx + 1;
    simtime_t at = sc->round_end; /* the previous round's end */
    sc->pending = n;
    sc->posting = 1;
    for (int i = 0; i < n; i++) {
        struct request *q;
        if (ops[i].is_send) {
            q = pt2pt_post_send(s, sc->owner, sc->comm, sc->args.me, ctx, ops[i].peer,
                                (int32_t)sc->tag, ops[i].size, SEND_STANDARD, sc, at, NULL);
            if (sim_local(s, q->peer)) steps_send(s, q); /* else its receiver's worker does */
        } else {
            q = pt2pt_post_recv(s, sc->owner, sc->comm, ctx, ops[i].peer, (int32_t)sc->tag,
                                ops[i].size, sc, at, NULL);
            steps_recv(s, q);
        }
        q->onext = sc->subs;
        sc->subs = q;
    }
    sc->posting = 0;
}

/* Runs rounds until one must wait for a partner, or the schedule ends.
 * Linear algorithms (wide) may post 2 n ops in a round: their room is
 * allocated for the call. */
static void run_rounds(struct sim *s, struct sched *sc) {
    struct coll_op stack_ops[COLL_MAX_OPS];
    struct coll_op *ops = stack_ops;
    if (sc->algo->wide) ops = xmalloc((size_t)coll_ops_room(sc->algo, sc->args.n) * sizeof *ops);
    for (;;) {
        int n = sc->algo->round(&sc->args, sc->round, ops);
        if (n < 0) {
            struct request *req = sc->req; /* NULL: ended by a failure (sched_fail) */
            simtime_t end = sc->round_end;
            if (req) req->sched = NULL;
            free_counts(s, sc->vbuf);
            pool_put(&s->colls.sched_pool, sc);
            if (req) request_resolve(s, req, end, end);
            break;
        }
        if (n > 0) {
            post_round(s, sc, ops, n);
            if (sc->pending > 0) break;
            release_subs(s, sc);
        }
        sc->round++;
    }
    if (ops != stack_ops) free(ops);
}

/* The algorithm for this call; consecutive calls of an operation usually
 * have the same shape, so the last choice per operation is kept. */
static const struct coll_algo *select_algo(struct sim *s, enum coll_kind kind, int32_t n,
                                           int64_t size, unsigned how) {
    struct coll_choice *c = &s->colls.last[kind];
    if (!c->algo || c->n != n || c->size != size || c->how != how)
        *c = (struct coll_choice){coll_select_call(&s->colls.config, kind, n, size, how), n, how,
                                  size};
    return c->algo;
}

/* All the lines of a request: released, it is taken again at once by the
 * next round's steps (the pool gives back the last freed first). */
static void prefetch_request(const struct request *q) {
    cache_prefetch_object(q, sizeof *q);
}

/* Brings in, ahead of their turn, the memory the next schedules' drain
 * touches: each was last touched when its round completed, often
 * thousands of schedules ago (a window of the interfaces completes a round
 * of every rank at once), so each is a cache miss, and the steps it
 * releases one more per step. Schedules are independent: their misses
 * overlap when asked for a few turns ahead. */
#define DRAIN_AHEAD 16
static void prefetch_ahead(const struct sim *s, size_t i) {
    if (i + DRAIN_AHEAD < s->colls.nready) {
        const char *p = (const char *)s->colls.ready[i + DRAIN_AHEAD];
        cache_prefetch(p);
        cache_prefetch(p + 64);
    }
    if (i + DRAIN_AHEAD / 2 < s->colls.nready) {
        const struct sched *ahead = s->colls.ready[i + DRAIN_AHEAD / 2];
        if (ahead->subs) prefetch_request(ahead->subs);
        /* its next round's sends count in its owner's state and take its
         * node's injection side */
        cache_prefetch_object(&s->ranks[ahead->owner], sizeof *s->ranks);
        if (s->nic.model) cache_prefetch(&s->nic.model->out[sim_node(s, ahead->owner)]);
    }
    if (i + DRAIN_AHEAD / 4 < s->colls.nready) {
        const struct request *q = s->colls.ready[i + DRAIN_AHEAD / 4]->subs;
        if (q && q->onext) prefetch_request(q->onext);
    }
}

void sched_drain(struct sim *s) {
    while (s->colls.ready_at < s->colls.nready) {
        size_t i = s->colls.ready_at++;
        prefetch_ahead(s, i);
        struct sched *sc = s->colls.ready[i];
        release_subs(s, sc);
        sc->round++;
        run_rounds(s, sc);
    }
    s->colls.nready = s->colls.ready_at = 0;
}

void sched_notify(struct sim *s, struct sched *sc, simtime_t done) {
    int32_t pending = --sc->pending; /* read back from memory with posting in one load, it
                                        waited for the store (store forwarding) */
    sc->round_end = sim_max(sc->round_end, done);
    if (pending == 0 && !sc->posting) {
        if (s->colls.nready == s->colls.ready_cap) {
            s->colls.ready_cap = s->colls.ready_cap ? 2 * s->colls.ready_cap : 256;
            s->colls.ready =
                xrealloc_or_die(s->colls.ready, sizeof *s->colls.ready * s->colls.ready_cap);
        }
        s->colls.ready[s->colls.nready++] = sc;
    }
}

void sched_free_all_counts(struct sim *s) {
    while (s->colls.vcounts)
        free_counts(s, s->colls.vcounts);
}

/* Copies the variable counts this rank holds into sc->vbuf. */
static void copy_counts(struct sim *s, struct sched *sc, int32_t n, const int64_t *vsend,
                        const int64_t *vrecv) {
    sc->vbuf = NULL;
    if (!vsend && !vrecv) return;
    size_t lists = (size_t)((vsend != NULL) + (vrecv != NULL));
    sc->vbuf = xmalloc(sizeof *sc->vbuf + sizeof(int64_t) * (size_t)n * lists);
    sc->vbuf->prev = NULL;
    sc->vbuf->next = s->colls.vcounts;
    if (s->colls.vcounts) s->colls.vcounts->prev = sc->vbuf;
    s->colls.vcounts = sc->vbuf;
    int64_t *at = sc->vbuf->v;
    if (vsend) {
        memcpy(at, vsend, sizeof *at * (size_t)n);
        sc->args.vsend = at;
        at += n;
    }
    if (vrecv) {
        memcpy(at, vrecv, sizeof *at * (size_t)n);
        sc->args.vrecv = at;
    }
}

/* Whether a reduce_scatter's blocks are all of one size: then the uniform
 * algorithms (a forced one included) apply. */
static bool equal_blocks(enum coll_kind kind, const struct sched_counts *v, int32_t n) {
    if (kind != COLL_REDUCE_SCATTER || v->send || !v->recv) return false;
    for (int32_t j = 1; j < n; j++)
        if (v->recv[j] != v->recv[0]) return false;
    return true;
}

struct request *sched_start(struct sim *s, int32_t rank, struct comm *c, int32_t myrank,
                            enum coll_kind kind, int64_t size, int32_t root,
                            const struct sched_counts *v, bool nonblocking) {
    /* a reduce_scatter without counts is the block form; one whose counts
     * are equal runs the uniform algorithms but is chosen as counted */
    unsigned how = (nonblocking ? COLL_CALL_NONBLOCKING : 0) |
                   (kind == COLL_REDUCE_SCATTER && !v ? COLL_CALL_SCATTER_BLOCK : 0);
    if (v && equal_blocks(kind, v, c->size)) {
        size = v->recv[0];
        v = NULL;
    }
    if (!s->colls.sched_pool.obj_size) pool_init(&s->colls.sched_pool, sizeof(struct sched), 1024);
    uint32_t *seq = comm_coll_seq(s, c, rank, myrank);
    struct request *req =
        request_new(s, rank, c->ctx + 1, REQ_COLL, (int32_t)(*seq & 0x7fffffff), size, s->eng.now);
    req->coll = (uint8_t)kind;
    req->src = c->size;
    if (s->colls.config.analytic)
        return analytic_start(s, req, c, myrank, kind, size, root, (*seq)++ & 0x7fffffff);
    struct sched *sc = pool_get(&s->colls.sched_pool);
    req->sched = sc;
    sc->req = req;
    sc->kind = (uint8_t)kind;
    sc->comm = c;
    sc->owner = rank;
    sc->round_end = s->eng.now;
    sc->tag = (*seq)++ & 0x7fffffff;
    sc->args = (struct coll_args){.n = c->size,
                                  .me = myrank,
                                  .root = root,
                                  .size = size,
                                  .segment = s->colls.config.segment,
                                  .window = s->colls.config.window};
    copy_counts(s, sc, c->size, v ? v->send : NULL, v ? v->recv : NULL);
    sc->algo = v ? coll_select_v(&s->colls.config, kind, &sc->args, how)
                 : select_algo(s, kind, c->size, size, how);
    if (myrank == 0) s->colls.calls[coll_index(sc->algo)]++; /* once per collective */
    run_rounds(s, sc);
    return req;
}

struct request *sim_icoll(struct sim *s, int32_t rank, int32_t comm_id, enum coll_kind kind,
                          int64_t size, int32_t root, int32_t user_id) {
    return sim_icoll_v(s, rank, comm_id, kind, size, root, user_id, NULL, false);
}

struct request *sim_icoll_v(struct sim *s, int32_t rank, int32_t comm_id, enum coll_kind kind,
                            int64_t size, int32_t root, int32_t user_id,
                            const struct sched_counts *v, bool nonblocking) {
    int32_t me;
    struct comm *c = sim_comm_get(s, rank, comm_id, &me);
    if (!c || kind >= COLL_KINDS) return NULL;
    if (root < 0 || root >= c->size) {
        sim_fail(s,
                 "rank %d: %s with invalid root %d (MPI_ERR_ROOT); the communicator has %d "
                 "ranks",
                 rank, sim_coll_name(kind), root, c->size);
        return NULL;
    }
    struct request *r = s->flt.ndead && sim_comm_failed(s, rank, comm_id)
                            ? fault_failed_request(s, rank, REQ_COLL) /* ULFM: a member failed */
                            : sched_start(s, rank, c, me, kind, size, root, v, nonblocking);
    request_track(s, r, user_id);
    if (s->rec) record_coll(s, r, comm_id, kind, size, root, v, nonblocking);
    return r;
}

static int kind_by_name(const char *op) {
    int kind = 0;
    while (kind < COLL_KINDS && !conf_name_eq(sim_coll_name((enum coll_kind)kind), op))
        kind++;
    return kind;
}

/* mpi.coll.<op>: NAME forces an algorithm for the operation. */
static bool read_forced(struct coll_config *cfg, const char *op, const struct conf_node *v,
                        struct sim_error *err) {
    int kind = kind_by_name(op);
    if (kind == COLL_KINDS)
        return err_at(err, v->file, v->line,
                      "'mpi.coll.%s': not a collective operation or setting; expected one of: "
                      "barrier, bcast, reduce, allreduce, gather, scatter, allgather, alltoall, "
                      "reduce_scatter, scan, exscan, selector, selection, segment_size, window, "
                      "model, analytic, analytic_latency",
                      op);
    const struct coll_algo *a =
        v->kind == CONF_SCALAR ? coll_find((enum coll_kind)kind, v->value) : NULL;
    if (!a) {
        const char *names[COLL_ALGOS + 1];
        coll_names((enum coll_kind)kind, names, COLL_ALGOS + 1);
        char why[768];
        conf_name_expected(v->kind == CONF_SCALAR ? v->value : "a map or list", names, why,
                           sizeof why);
        return err_at(err, v->file, v->line, "'mpi.coll.%s': %s", op, why);
    }
    cfg->forced[kind] = a;
    return true;
}

/* One phase of mpi.coll.analytic.<op>: fan_in/fan_out and size_in/size_out. */
static bool read_phase(const struct conf_node *m, const char *op, const char *fkey,
                       const char *skey, struct coll_an_phase *ph, struct sim_error *err) {
    char path[64];
    snprintf(path, sizeof path, "mpi.coll.analytic.%s", op);
    int v = ph->factor;
    if (!conf_get_enum(m, path, fkey, coll_an_factor_names, &v, err)) return false;
    ph->factor = (uint8_t)v;
    v = ph->size;
    if (!conf_get_enum(m, path, skey, coll_an_size_names, &v, err)) return false;
    ph->size = (uint8_t)v;
    return true;
}

/* mpi.coll.analytic: {OP: {fan_in, fan_out, size_in, size_out}} */
static bool read_analytic(struct coll_config *cfg, const struct conf_node *an,
                          struct sim_error *err) {
    if (an->kind != CONF_MAP)
        return err_at(err, an->file, an->line,
                      "'mpi.coll.analytic': expected a map of operation: {fan_in: LOG, fan_out: "
                      "0, size_in: MAX, size_out: MAX}");
    for (int i = 0; i < an->count; i++) {
        const struct conf_node *m = an->items[i];
        int kind = kind_by_name(an->keys[i]);
        if (kind == COLL_KINDS || m->kind != CONF_MAP)
            return err_at(err, m->file, m->line,
                          "'mpi.coll.analytic.%s': expected a collective operation with a map "
                          "{fan_in, fan_out, size_in, size_out}",
                          an->keys[i]);
        for (int j = 0; j < m->count; j++)
            if (strcmp(m->keys[j], "fan_in") && strcmp(m->keys[j], "fan_out") &&
                strcmp(m->keys[j], "size_in") && strcmp(m->keys[j], "size_out"))
                return err_at(err, m->items[j]->file, m->items[j]->line,
                              "'mpi.coll.analytic.%s.%s': unknown key (fan_in, fan_out, size_in, "
                              "size_out)",
                              an->keys[i], m->keys[j]);
        struct coll_an_rule *r = &cfg->an[kind];
        if (!read_phase(m, an->keys[i], "fan_in", "size_in", &r->in, err) ||
            !read_phase(m, an->keys[i], "fan_out", "size_out", &r->out, err))
            return false;
    }
    return true;
}

bool coll_config_read(const struct conf_node *platform, struct coll_config *cfg,
                      struct sim_error *err) {
    const struct conf_node *mpi = conf_map_get(platform, "mpi");
    const struct conf_node *coll = mpi ? conf_map_get(mpi, "coll") : NULL;
    cfg->selector = COLL_SEL_MPICH;
    cfg->segment = 64 * 1024;
    cfg->window = 32;
    for (int k = 0; k < COLL_KINDS; k++)
        cfg->an[k] = coll_an_default((enum coll_kind)k);
    if (!coll) return true;
    if (coll->kind != CONF_MAP)
        return err_at(err, coll->file, coll->line,
                      "'mpi.coll': expected a map of operation: algorithm (e.g. allreduce: ring)");
    for (int i = 0; i < coll->count; i++) {
        const struct conf_node *v = coll->items[i];
        const char *key = coll->keys[i];
        int64_t num;
        if (!strcmp(key, "selector")) {
            int sel = 0;
            if (!conf_get_enum(coll, "mpi.coll", key, coll_selector_names, &sel, err)) return false;
            cfg->selector = (enum coll_selector)coll_selector_find(coll_selector_names[sel]);
        } else if (!strcmp(key, "segment_size")) {
            if (!conf_get_size(coll, "mpi.coll", key, false, &num, err)) return false;
            if (num < 1)
                return err_at(err, v->file, v->line,
                              "'mpi.coll.segment_size': must be at least 1 byte");
            cfg->segment = num;
        } else if (!strcmp(key, "window")) {
            if (!conf_get_int(coll, "mpi.coll", key, 1, 1 << 20, &num, err)) return false;
            cfg->window = (int32_t)num;
        } else if (!strcmp(key, "model")) {
            static const char *const models[] = {"schedules", "analytic", NULL};
            int an = 0;
            if (!conf_get_enum(coll, "mpi.coll", key, models, &an, err)) return false;
            cfg->analytic = an == 1;
        } else if (!strcmp(key, "analytic")) {
            if (!read_analytic(cfg, v, err)) return false;
        } else if (!strcmp(key, "selection")) {
            const char *path = conf_get_scalar(coll, "mpi.coll", key, err);
            char beside[4096];
            if (path) path = platform_beside_file(v->file, path, beside, sizeof beside);
            if (!path || !(cfg->selection = coll_selection_load(path, err))) return false;
        } else if (!strcmp(key, "analytic_latency")) {
            double secs;
            if (!conf_get_time(coll, "mpi.coll", key, &secs, err)) return false;
            cfg->an_latency = simtime_from_seconds(secs);
        } else if (!read_forced(cfg, key, v, err)) {
            return false;
        }
    }
    const struct conf_node *sel = conf_map_get(coll, "selection");
    if (cfg->selection && cfg->selector != COLL_SEL_MPICH)
        return err_at(err, sel->file, sel->line,
                      "'mpi.coll.selection': MPICH's selection file gives the mpich selector's "
                      "rules; it needs selector: mpich (the default)");
    return true;
}

bool sched_read_forced(struct sim *s, struct sim_error *err) {
    return coll_config_read(s->plat->conf, &s->colls.config, err);
}

_Static_assert(sizeof((struct sim *)0)->colls.calls / sizeof(int64_t) == COLL_ALGOS,
               "colls.calls holds one count per algorithm");

int sim_collective_counts(const struct sim *s, const char **op, const char **algo, int64_t *calls,
                          int max) {
    int n = 0;
    for (int i = 0; i < COLL_ALGOS && n < max; i++) {
        const struct coll_algo *a = coll_by_index(i);
        if (!a || !s->colls.calls[i]) continue;
        op[n] = sim_coll_name(a->kind);
        algo[n] = a->name;
        calls[n++] = s->colls.calls[i];
    }
    for (int k = 0; k < COLL_KINDS && n < max; k++) {
        if (!s->colls.analytic_calls[k]) continue;
        op[n] = sim_coll_name((enum coll_kind)k);
        algo[n] = "analytic";
        calls[n++] = s->colls.analytic_calls[k];
    }
    return n;
}

void sched_mark(const struct sched *sc, struct request *step) {
    step->coll = sc->kind;
    step->user_id = sc->args.root;
}

/* Rooted operations must also agree on the root. */
static bool rooted(int kind) {
    return kind == COLL_BCAST || kind == COLL_REDUCE || kind == COLL_GATHER || kind == COLL_SCATTER;
}

bool sched_check_partner(struct sim *s, const struct request *x, const struct request *y) {
    /* each step carries its operation and root (sched_mark; a stand-in for
     * another worker's send brought them along, part.c) */
    int ka = x->coll, kb = y->coll, root_a = x->user_id, root_b = y->user_id;
    if (ka == kb && (!rooted(ka) || root_a == root_b)) return true;
    const struct sched *b = y->sched; /* a receive is in its schedule until matched */
    char ra[32] = "", rb[32] = "";
    if (rooted(ka)) snprintf(ra, sizeof ra, " (root %d)", root_a);
    if (rooted(kb)) snprintf(rb, sizeof rb, " (root %d)", root_b);
    sim_fail(s, /* at the instant both were posted: a split run matches later */
             "mismatched collectives at virtual time %.6f s on a communicator of %d ranks, "
             "collective #%u: rank %d called %s%s while rank %d called %s%s; every rank of a "
             "communicator must call the same collectives in the same order",
             simtime_to_seconds(sim_max(x->post_time, y->post_time)), b->comm->size, b->tag,
             x->owner, sim_coll_name(ka), ra, b->owner, sim_coll_name(kb), rb);
    return false;
}

bool sched_fail(struct sim *s, struct request *req) {
    struct sched *sc = req->sched;
    if (!sc || sc->req != req || !fault_comm_has_failed(s, sc->comm)) return false;
    sc->req = NULL; /* the schedule runs on, for the members still in it, and ends alone */
    req->sched = NULL;
    req->hold = HOLD_FAILED;
    request_resolve(s, req, s->eng.now, s->eng.now);
    return true;
}

void sched_describe(struct sim *s, struct sched *sc) {
    if (!sc) return;
    sim_report_append(s, "%s (%s) on a communicator of %d ranks, collective #%u, round %d:",
                      sim_coll_name((enum coll_kind)sc->kind), sc->algo->name, sc->comm->size,
                      sc->tag, sc->round);
    for (struct request *q = sc->subs; q; q = q->onext) {
        if (q->flags & RF_RESOLVED) continue;
        sim_report_append(s, " %s rank %d", q->kind == REQ_SEND ? "send to" : "recv from", q->peer);
    }
    sim_report_append(s, " -> waits for ranks");
    for (struct request *q = sc->subs; q; q = q->onext)
        if (!(q->flags & RF_RESOLVED)) sim_report_append(s, " %d", q->peer);
}

int sched_targets(const struct sched *sc, int32_t *out, int max) {
    int n = 0;
    for (const struct request *q = sc ? sc->subs : NULL; q && n < max; q = q->onext)
        if (!(q->flags & RF_RESOLVED)) out[n++] = q->peer;
    return n;
}
