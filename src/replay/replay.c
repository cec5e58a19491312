/* SPDX-License-Identifier: BSD-3-Clause */
/* Replay driver: turns trace records into MPI-layer actions, rank by rank,
 * whenever the MPI layer says a rank may continue. */
#include "replay/replay.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/memstat.h"
#include "core/units.h"
#include "core/workers.h"

/* A job's trace and where its ranks are among the simulation's (a GOAL
 * reader's request probe names the job's own ranks). */
struct replay_job {
    struct trace_reader *trace;
    struct sim *sim;
    int32_t first;
    const char *name; /* several jobs: its intervals are "name: interval" */
    char **intervals; /* those names by the trace's interval id, made once */
    int32_t nintervals;
};

struct replay {
    struct sim *sim;
    struct replay_job *jobs; /* one, or several side by side (docs/jobs.md) */
    int32_t njobs;
    struct platform *plat;
    struct sim_error *err;
    int16_t *depth; /* open intervals per rank */
};

/* The job that simulation rank `rank` belongs to. */
static struct replay_job *job_of(const struct replay *rp, int32_t rank) {
    return &rp->jobs[rp->njobs > 1 ? sim_job_of(rp->sim, rank) : 0];
}

static struct workers *split_workers; /* replay_set_workers */
static enum sim_placement split_placement;

static bool rec_fail_v(struct replay *rp, enum sim_status st, const struct trace_rec *r,
                       const char *fmt, va_list ap) {
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    const struct replay_job *job = job_of(rp, r->rank); /* records name the job's own ranks */
    int32_t rank = r->rank - job->first;
    sim_fail_status(rp->sim, st, "%s:%d: rank %d: %s", trace_file_of(job->trace, rank), r->line,
                    rank, msg);
    return false;
}

/* The run stops with an application error at record r. */
__attribute__((format(printf, 3, 4))) static bool
rec_fail(struct replay *rp, const struct trace_rec *r, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    rec_fail_v(rp, SIM_APP_ERROR, r, fmt, ap);
    va_end(ap);
    return false;
}

/* The run stops because record r makes no sense (exit status 1). */
__attribute__((format(printf, 3, 4))) static bool
rec_input_fail(struct replay *rp, const struct trace_rec *r, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    rec_fail_v(rp, SIM_INPUT_ERROR, r, fmt, ap);
    va_end(ap);
    return false;
}

static simtime_t scaled_compute(const struct replay *rp, const struct trace_rec *r) {
    if (r->op == TOP_COMPUTE_FLOPS)
        return simtime_from_seconds(platform_flops_seconds(rp->plat, r->flops));
    if (r->flops > 0 && rp->plat->instruction_rate > 0) /* a traced instruction count */
        return simtime_from_seconds(r->flops / rp->plat->instruction_rate);
    if (rp->plat->speed == 1.0 || rp->plat->flop_rate > 0) return r->size;
    double ps = (double)r->size / rp->plat->speed;
    return ps < 9.2e18 ? (simtime_t)llround(ps) : SIMTIME_NEVER;
}

static bool do_compute(struct replay *rp, const struct trace_rec *r) {
    simtime_t t = scaled_compute(rp, r);
    if (sim_compute_fits(rp->sim, t)) return sim_compute(rp->sim, r->rank, t);
    char len[48], at[48];
    return rec_input_fail(
        rp, r,
        "virtual time overflow: this computation (%s) starting at virtual time %s "
        "would end beyond the largest simulated time (%s)",
        t == SIMTIME_NEVER ? "longer than representable" : units_format_time(t, len, sizeof len),
        units_format_time(sim_now(rp->sim), at, sizeof at), SIMTIME_LIMIT_TEXT);
}

static bool check_comm(struct replay *rp, const struct trace_rec *r) {
    if (sim_comm_valid(rp->sim, r->rank, r->comm)) return true;
    return rec_fail(rp, r,
                    "communicator %d is not known to this rank (create it with comm_split "
                    "or comm_dup first)",
                    r->comm);
}

static bool check_new_id(struct replay *rp, const struct trace_rec *r, int32_t id) {
    if (id < 0 || !sim_find_request(rp->sim, r->rank, id)) return true;
    return rec_fail(rp, r, "request id %d is still in use by an earlier request", id);
}

/* Returns the requests named by a wait record, or fails the run. */
static bool collect_requests(struct replay *rp, const struct trace_rec *r, struct request **out) {
    for (int i = 0; i < r->nids; i++) {
        out[i] = sim_find_request(rp->sim, r->rank, r->ids[i]);
        if (!out[i])
            return rec_fail(rp, r, "waits for request %d, which was never started or has completed",
                            r->ids[i]);
    }
    return true;
}

static bool do_p2p(struct replay *rp, const struct trace_rec *r) {
    struct sim *s = rp->sim;
    struct request *q[2] = {NULL, NULL};
    int32_t id = r->op == TOP_ISEND || r->op == TOP_IRECV ? r->req : -1;
    if (!check_comm(rp, r) || !check_new_id(rp, r, id)) return false;
    int32_t n = sim_comm_size(s, r->rank, r->comm);
    if (r->peer >= n || r->peer2 >= n)
        return rec_fail(rp, r, "peer rank %d is outside the communicator (%d ranks)",
                        r->peer >= n ? r->peer : r->peer2, n);
    if (r->op == TOP_SEND || r->op == TOP_ISEND || r->op == TOP_SENDRECV)
        q[0] =
            sim_isend(s, r->rank, r->comm, r->peer, r->tag, r->size, (enum send_mode)r->mode, id);
    if (r->op == TOP_RECV || r->op == TOP_IRECV)
        q[0] = sim_irecv(s, r->rank, r->comm, r->peer, r->tag, r->size, id);
    if (r->op == TOP_SENDRECV)
        q[1] = sim_irecv(s, r->rank, r->comm, r->peer2, r->tag2, r->size2, -1);
    if (!q[0]) return false;
    if (r->op == TOP_ISEND) return sim_cpu_overhead(s, r->rank); /* mpi.send_overhead, mpi.gap */
    if (r->op == TOP_IRECV) return true;
    return sim_wait(s, r->rank, q, r->op == TOP_SENDRECV ? 2 : 1, false);
}

static bool do_wait(struct replay *rp, const struct trace_rec *r) {
    struct request *small[16], **q = small;
    if (r->op == TOP_WAITALL && r->nids == 0) return sim_wait(rp->sim, r->rank, NULL, 0, false);
    if (r->nids > 16) q = xcalloc((size_t)r->nids, sizeof *q);
    bool ok = collect_requests(rp, r, q);
    bool go_on = ok && sim_wait(rp->sim, r->rank, q, r->nids, r->op == TOP_WAITANY);
    if (q != small) free(q);
    return go_on;
}

/* MPI_Test: completes the request if it has completed by now; the rank goes
 * on either way. */
static bool do_test(struct replay *rp, const struct trace_rec *r) {
    struct request *q;
    if (!collect_requests(rp, r, &q)) return false;
    sim_test(rp->sim, r->rank, q);
    return true;
}

/* MPI_Cancel: withdraws a receive at once if it is not matched yet (it
 * then completes); for a send, the rank waits for the receiver's answer
 * (sim_cancel), as on-line. */
static bool do_cancel(struct replay *rp, const struct trace_rec *r) {
    struct request *q;
    if (!collect_requests(rp, r, &q)) return false;
    if (!sim_request_is_send(q)) {
        sim_cancel(rp->sim, r->rank, q, NULL);
        return true;
    }
    struct request *answer =
        sim_signal_new(rp->sim, r->rank, -1, "MPI_Cancel (the receiver's answer)");
    sim_cancel(rp->sim, r->rank, q, answer);
    return sim_wait(rp->sim, r->rank, &answer, 1, false);
}

/* MPI_Request_free: the rank lets go of the request, which goes on. */
static bool do_free(struct replay *rp, const struct trace_rec *r) {
    struct request *q;
    if (!collect_requests(rp, r, &q)) return false;
    sim_request_free(rp->sim, r->rank, q, NULL);
    return true;
}

/* SimGrid's wait / test name a request by peer and tag; one that no longer
 * exists (completed by an earlier test) is ignored, as SMPI does. */
static bool do_peer_request(struct replay *rp, const struct trace_rec *r) {
    struct request *q = sim_find_p2p_request(rp->sim, r->rank, r->mode == 1, r->peer, r->tag);
    if (!q) return true;
    if (r->op == TOP_TEST_PEER) {
        sim_test(rp->sim, r->rank, q);
        return true;
    }
    return sim_wait(rp->sim, r->rank, &q, 1, false);
}

static bool do_coll(struct replay *rp, const struct trace_rec *r) {
    int32_t id = r->op == TOP_ICOLL ? r->req : -1;
    if (!check_comm(rp, r) || !check_new_id(rp, r, id)) return false;
    int32_t n = sim_comm_size(rp->sim, r->rank, r->comm);
    if (r->root >= n)
        return rec_fail(rp, r, "root %d is outside the communicator (%d ranks)", r->root, n);
    /* variable counts: one per member of the communicator */
    if (r->counts && r->ncounts != n)
        return rec_fail(rp, r, "%d counts for a communicator of %d ranks", r->ncounts, n);
    struct sched_counts counts = {r->counts && (r->mode & 1) ? r->counts : NULL,
                                  r->counts && (r->mode & 2) ? r->counts + r->ncounts : NULL};
    struct request *q =
        sim_icoll_v(rp->sim, r->rank, r->comm, (enum coll_kind)r->coll, r->size, r->root, id,
                    (r->mode & 4) ? &counts : NULL, r->op == TOP_ICOLL);
    if (!q) return false;
    return r->op == TOP_ICOLL || sim_wait(rp->sim, r->rank, &q, 1, false);
}

static bool do_comm(struct replay *rp, const struct trace_rec *r) {
    if (!check_comm(rp, r)) return false;
    if (sim_comm_valid(rp->sim, r->rank, r->newcomm))
        return rec_fail(rp, r, "communicator id %d is already in use on this rank", r->newcomm);
    if (r->op == TOP_COMM_SPLIT && (r->mode & 1)) { /* comm_define: nothing charged */
        sim_comm_split_defined(rp->sim, r->rank, r->comm, r->color, r->key, r->newcomm);
        return true;
    }
    struct request *q = r->op == TOP_COMM_DUP ? sim_comm_dup(rp->sim, r->rank, r->comm, r->newcomm)
                                              : sim_comm_split(rp->sim, r->rank, r->comm, r->color,
                                                               r->key, r->newcomm);
    return q && sim_wait(rp->sim, r->rank, &q, 1, false);
}

static bool do_comm_self(struct replay *rp, const struct trace_rec *r) {
    if (sim_comm_valid(rp->sim, r->rank, r->newcomm))
        return rec_fail(rp, r, "communicator id %d is already in use on this rank", r->newcomm);
    sim_comm_self(rp->sim, r->rank, r->newcomm);
    return true;
}

/* An interval's name; with several jobs, after its job's name so that two
 * jobs' intervals of one name stay apart. */
static const char *interval_name(struct replay *rp, int32_t rank, int32_t id) {
    struct replay_job *job = job_of(rp, rank);
    const char *name = trace_interval_name(job->trace, id);
    if (rp->njobs < 2 || !job->name || id < 0) return name;
    if (id >= job->nintervals) {
        int32_t n = id + 16;
        job->intervals = xrealloc_or_die(job->intervals, sizeof *job->intervals * (size_t)n);
        memset(job->intervals + job->nintervals, 0,
               sizeof *job->intervals * (size_t)(n - job->nintervals));
        job->nintervals = n;
    }
    if (!job->intervals[id]) {
        size_t len = strlen(job->name) + strlen(name) + 3;
        job->intervals[id] = xmalloc(len);
        snprintf(job->intervals[id], len, "%s: %s", job->name, name);
    }
    return job->intervals[id];
}

static bool do_interval(struct replay *rp, const struct trace_rec *r) {
    if (r->op == TOP_INTERVAL_BEGIN) {
        if (rp->depth[r->rank] == INT16_MAX) return rec_fail(rp, r, "intervals nested too deeply");
        rp->depth[r->rank]++;
        sim_interval(rp->sim, r->rank, interval_name(rp, r->rank, r->req));
        return true;
    }
    if (rp->depth[r->rank] == 0)
        return rec_fail(rp, r, "interval_end without a matching interval_begin");
    rp->depth[r->rank]--;
    sim_interval(rp->sim, r->rank, NULL);
    return true;
}

/* One-sided synchronisation, through the MPI layer as on-line. */
static bool do_rma_sync(struct replay *rp, const struct trace_rec *r) {
    struct sim *s = rp->sim;
    int32_t n = sim_comm_size(s, r->rank, r->comm);
    if (r->mode < 2 || r->mode == 3 || r->mode == 4) {
        if (r->peer < 0 || r->peer >= n)
            return rec_fail(rp, r, "member %d is outside the communicator (%d ranks)", r->peer, n);
    }
    for (int i = 0; i < r->nids; i++)
        if (r->ids[i] < 0 || r->ids[i] >= n)
            return rec_fail(rp, r, "from=: member %d is outside the communicator", r->ids[i]);
    struct request *q = NULL;
    switch (r->mode) {
    case 0:
        sim_rma_lock(s, r->rank, r->comm, r->peer, r->tag == 1);
        return true;
    case 1:
        sim_rma_unlock(s, r->rank, r->comm, r->peer, r->tag == 1);
        return true;
    case 2:
        q = sim_rma_grants(s, r->rank, r->comm);
        break;
    case 3:
    case 4:
        sim_rma_notify(s, r->rank, r->comm, r->peer, r->mode == 4);
        return true;
    default:
        q = sim_rma_notes_wait(s, r->rank, r->comm, r->ids, r->nids, r->mode == 6);
        break;
    }
    return q && sim_wait(s, r->rank, &q, 1, false);
}

/* Executes one record; true if the rank may go on at the same time. */
static bool execute(struct replay *rp, const struct trace_rec *r) {
    switch (r->op) {
    case TOP_COMPUTE:
    case TOP_COMPUTE_FLOPS:
        return do_compute(rp, r);
    case TOP_SEND:
    case TOP_ISEND:
    case TOP_RECV:
    case TOP_IRECV:
    case TOP_SENDRECV:
        return do_p2p(rp, r);
    case TOP_WAIT:
    case TOP_WAITALL:
    case TOP_WAITANY:
        return do_wait(rp, r);
    case TOP_TEST:
        return do_test(rp, r);
    case TOP_CANCEL:
        return do_cancel(rp, r);
    case TOP_FREE:
        return do_free(rp, r);
    case TOP_WAIT_PEER:
    case TOP_TEST_PEER:
        return do_peer_request(rp, r);
    case TOP_BUFFER_ATTACH:
        sim_buffer_attach(rp->sim, r->rank, r->size);
        return true;
    case TOP_BUFFER_DETACH:
        sim_buffer_detach(rp->sim, r->rank);
        return true;
    case TOP_COLL:
    case TOP_ICOLL:
        return do_coll(rp, r);
    case TOP_COMM_SPLIT:
    case TOP_COMM_DUP:
        return do_comm(rp, r);
    case TOP_COMM_SELF:
        return do_comm_self(rp, r);
    case TOP_FILE_IO:
        return check_new_id(rp, r, r->req) && sim_io(rp->sim, r->rank, r->size, r->req);
    case TOP_RMA:
        if (!check_comm(rp, r) || !check_new_id(rp, r, r->req)) return false;
        if (r->peer >= sim_comm_size(rp->sim, r->rank, r->comm))
            return rec_fail(rp, r, "target rank %d is outside the communicator", r->peer);
        return sim_rma_issue(rp->sim, r->rank, r->comm, r->peer, r->size,
                             (enum sim_rma_kind)r->mode, r->req) != NULL;
    case TOP_RMA_SYNC:
        return check_comm(rp, r) && do_rma_sync(rp, r);
    case TOP_ROUND_TRIP: {
        struct request *q =
            sim_round_trip(rp->sim, r->rank, job_of(rp, r->rank)->first + r->peer, -1);
        return sim_wait(rp->sim, r->rank, &q, 1, false);
    }
    default:
        return do_interval(rp, r);
    }
}

volatile sig_atomic_t replay_interrupt_signal;
void replay_set_workers(struct workers *w, enum sim_placement placement) {
    split_workers = w;
    split_placement = placement;
}
volatile sig_atomic_t replay_running;
volatile sig_atomic_t replay_simulated;

static void (*on_lost)(const char *why); /* replay_set_lost */
void replay_set_lost(void (*lost)(const char *why)) {
    on_lost = lost;
}

static void lost_worker(void *ctx, const char *why) {
    (void)ctx;
    if (on_lost) on_lost(why);
}

static void resume(void *ctx, int32_t rank) {
    struct replay *rp = ctx;
    if (replay_interrupt_signal) {
        char tb[48];
        sim_fail_status(rp->sim, SIM_INTERRUPTED,
                        "interrupted by %s at virtual time %s; the figures below are partial",
                        replay_interrupt_signal == SIGINT   ? "SIGINT (Ctrl-C)"
                        : replay_interrupt_signal == SIGHUP ? "SIGHUP"
                                                            : "SIGTERM",
                        units_format_time(sim_now(rp->sim), tb, sizeof tb));
        return;
    }
    struct replay_job *job = job_of(rp, rank);
    for (;;) {
        struct trace_rec r;
        int got = trace_read(job->trace, rank - job->first, &r, rp->err);
        if (got != 1) {
            if (got < 0)
                sim_fail_reading(rp->sim, rp->err->msg);
            else
                sim_finish(rp->sim, rank);
            return;
        }
        r.rank = rank; /* the simulation's rank while it runs */
        bool go_on = execute(rp, &r);
        if (r.ids || r.counts) trace_rec_clear(&r);
        if (!go_on) return;
    }
}

/* The sim's warm: the records rank's resume will read. */
static void warm(void *ctx, int32_t rank, int stage) {
    struct replay *rp = ctx;
    const struct replay_job *job = job_of(rp, rank);
    trace_warm(job->trace, rank - job->first, stage);
}

static enum progress_mode progress_mode = PROGRESS_NEVER;
static const struct analysis_opts *analysis_opts;
static simtime_t time_limit;

void replay_set_time_limit(simtime_t limit) {
    time_limit = limit;
}

void replay_set_analysis(const struct analysis_opts *o) {
    analysis_opts = o;
}

void replay_set_progress(enum progress_mode mode) {
    progress_mode = mode;
}

/* The share of the traces read, weighted by their ranks. */
static double share_read(void *ctx) {
    const struct replay *rp = ctx;
    double read = 0;
    for (int32_t j = 0; j < rp->njobs; j++)
        read += trace_share_read(rp->jobs[j].trace) * trace_ranks(rp->jobs[j].trace);
    return read / sim_size(rp->sim);
}

static uint64_t records_read(void *ctx) {
    const struct replay *rp = ctx;
    uint64_t n = 0;
    for (int32_t j = 0; j < rp->njobs; j++)
        n += trace_records(rp->jobs[j].trace);
    return n;
}

/* A split run: whether this worker runs the job's rank (its trace names
 * the job's own ranks). */
static bool keep_rank(void *ctx, int32_t rank) {
    const struct replay_job *job = ctx;
    return sim_owns(job->sim, job->first + rank);
}

/* Whether rank's request id has completed (a GOAL schedule asks): gone, or
 * done and then released here (nobody else waits for it). */
static bool request_finished(void *ctx, int32_t rank, int32_t id) {
    const struct replay_job *job = ctx;
    struct sim *s = job->sim;
    rank += job->first;
    struct request *q = sim_find_request(s, rank, id);
    if (!q) return true;
    return sim_request_done(s, q) && sim_test(s, rank, q);
}

/* The simulation of the jobs' ranks, one after another, each job's world
 * apart when there are several. */
static struct sim *create_sim(struct replay *rp, const struct network *net,
                              const struct replay_jobs *spec, struct sim_error *err) {
    int32_t *first = xcalloc((size_t)rp->njobs + 1, sizeof *first);
    int64_t total = 0;
    for (int32_t j = 0; j < rp->njobs; j++) {
        first[j] = (int32_t)total;
        total += trace_ranks(rp->jobs[j].trace);
    }
    first[rp->njobs] = (int32_t)total;
    struct sim_driver drv = {
        .resume = resume, .ctx = rp, .records = records_read, .warm = warm, .lost = lost_worker};
    struct sim *s = NULL;
    if (total > INT32_MAX)
        err_set(err, "the jobs have %lld ranks in all; at most %d can be simulated at once",
                (long long)total, INT32_MAX);
    else
        s = sim_create(rp->plat, net, (int32_t)total, &drv, err);
    if (s && spec) sim_set_jobs(s, rp->njobs, first, spec->start);
    for (int32_t j = 0; s && j < rp->njobs; j++) {
        rp->jobs[j].first = first[j];
        rp->jobs[j].sim = s;
    }
    free(first);
    return s;
}

/* The jobs' table freed; their intervals' names kept in res for the
 * reports. */
static void end_jobs(struct replay *rp, struct replay_result *res) {
    for (int32_t j = 0; j < rp->njobs; j++) {
        struct replay_job *job = &rp->jobs[j];
        for (int32_t i = 0; i < job->nintervals; i++) {
            if (!job->intervals[i]) continue;
            res->interval_names =
                xrealloc_or_die(res->interval_names,
                                sizeof *res->interval_names * ((size_t)res->ninterval_names + 1));
            res->interval_names[res->ninterval_names++] = job->intervals[i];
        }
        free(job->intervals);
        trace_set_request_probe(job->trace, NULL, NULL); /* its context goes now */
    }
    free(rp->jobs);
}

bool replay_run_jobs(struct trace_reader *const *traces, const struct replay_jobs *spec,
                     struct platform *plat, const struct network *net, struct replay_result *res,
                     struct sim_error *err) {
    memset(res, 0, sizeof *res);
    int32_t njobs = spec ? spec->njobs : 1;
    struct replay rp = {NULL, xcalloc((size_t)njobs, sizeof *rp.jobs), njobs, plat, err, NULL};
    for (int32_t j = 0; j < njobs; j++) {
        rp.jobs[j].trace = traces[j];
        rp.jobs[j].name = spec && spec->names ? spec->names[j] : NULL;
    }
    double t0 = memstat_wall_seconds();
    rp.sim = create_sim(&rp, net, spec, err);
    if (rp.sim && split_workers && !sim_split(rp.sim, split_workers, split_placement, err)) {
        sim_destroy(rp.sim);
        rp.sim = NULL;
    }
    if (!rp.sim) {
        end_jobs(&rp, res);
        return false;
    }
    for (int32_t j = 0; split_workers && j < njobs; j++)
        trace_keep_ranks(traces[j], keep_rank, &rp.jobs[j]);
    for (int32_t j = 0; j < njobs; j++)
        trace_set_request_probe(traces[j], request_finished, &rp.jobs[j]);
    static const struct analysis_opts intervals_only;
    res->analysis = analysis_start(rp.sim, analysis_opts ? analysis_opts : &intervals_only, err);
    if (!res->analysis) {
        sim_destroy(rp.sim);
        end_jobs(&rp, res);
        return false;
    }
    rp.depth = xcalloc((size_t)sim_size(rp.sim), sizeof *rp.depth);
    bool quiet_worker = split_workers && workers_me(split_workers) != 0; /* the first shows it */
    progress_start(rp.sim, quiet_worker ? PROGRESS_NEVER : progress_mode, share_read, &rp);
    sim_set_time_limit(rp.sim, time_limit);
    replay_running = 1;
    res->status = sim_run(rp.sim);
    replay_running = 0;
    replay_simulated = 1;
    progress_end();
    res->wall_seconds = memstat_wall_seconds() - t0;
    res->records = records_read(&rp) + sim_records_elsewhere(rp.sim);
    res->sim = rp.sim;
    free(rp.depth);
    end_jobs(&rp, res);
    if (!err->set && sim_failed_reading(rp.sim)) { /* in another worker of a split run */
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", sim_failure_report(rp.sim));
        msg[strcspn(msg, "\n")] = 0;
        err_set(err, "%s", msg);
    }
    /* A malformed record: reported as an input error, not as an app error. */
    return !err->set;
}

bool replay_run(struct trace_reader *trace, struct platform *plat, const struct network *net,
                struct replay_result *res, struct sim_error *err) {
    return replay_run_jobs(&trace, NULL, plat, net, res, err);
}

void replay_result_free(struct replay_result *r) {
    analysis_free(r->analysis);
    r->analysis = NULL;
    sim_destroy(r->sim);
    r->sim = NULL;
    for (int32_t i = 0; i < r->ninterval_names; i++)
        free(r->interval_names[i]);
    free(r->interval_names);
    r->interval_names = NULL;
    r->ninterval_names = 0;
}
