/* SPDX-License-Identifier: BSD-3-Clause */
/* The MPI semantics layer shared by both front ends (DESIGN 2): ranks issue
 * actions (compute, send, receive, wait, collectives, communicator creation)
 * and the layer matches messages, applies the send protocols, runs collective
 * schedules and asks the network for costs. A front end is a driver with one
 * callback, resume(rank), called whenever a blocked rank may continue. */
#ifndef SIMPI_SIM_H
#define SIMPI_SIM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/error.h"
#include "core/simtime.h"
#include "net/network.h"
#include "platform/platform.h"

#define SIM_ANY_SOURCE (-1)
#define SIM_ANY_TAG (-1)
#define SIM_UNDEFINED (-32766)
#define SIM_COMM_WORLD_ID 0
/* Bytes of attached buffer a buffered send needs beyond its payload. */
#define SIM_BSEND_OVERHEAD 0

struct sim;
struct request;

enum send_mode { SEND_STANDARD, SEND_SYNC, SEND_BUFFERED, SEND_READY };

enum coll_kind {
    COLL_BARRIER,
    COLL_BCAST,
    COLL_REDUCE,
    COLL_ALLREDUCE,
    COLL_GATHER,
    COLL_SCATTER,
    COLL_ALLGATHER,
    COLL_ALLTOALL,
    COLL_REDUCE_SCATTER, /* size: each rank's block of the result */
    COLL_SCAN,
    COLL_EXSCAN,
    COLL_KINDS
};

struct sim_driver {
    void (*resume)(void *ctx, int32_t rank);
    void *ctx;
    uint64_t (*records)(void *ctx); /* a split run: the trace records replayed here, or NULL */
    /* A split run: a message the front end posted with sim_post_front
     * reaches this worker (at a window's end), or NULL */
    void (*front)(void *ctx, const void *msg, uint32_t len);
    /* A split run: called in every worker once its ranks are done, before
     * the first gathers the figures (the on-line runtime flushes the
     * ranks' output and gives its exit statuses: sim_set_exit_codes), or NULL */
    void (*ending)(void *ctx);
    /* A split run: every worker has run its events before `end` and taken
     * in what the others posted then (called after each window), or NULL */
    void (*window_done)(void *ctx, simtime_t end);
    /* A message the front end sent with sim_land takes effect at rank
     * target now (in the engine, not in the rank), or NULL */
    void (*land)(void *ctx, int32_t target, int32_t origin, const void *msg, uint32_t len);
    /* A split run's first worker lost another (killed, failed): the run
     * ends with this message right after (the on-line runtime has simpi
     * run write it in the --json), or NULL */
    void (*lost)(void *ctx, const char *why);
    /* Asks for the memory rank's resume will read (core/engine.h's warm:
     * stage 0 its tables, stage 1 what they point to), or NULL */
    void (*warm)(void *ctx, int32_t rank, int stage);
};

/* SIM_INPUT_ERROR: the inputs make no sense (e.g. simulated time would
 * overflow); SIM_INTERRUPTED: stopped by a signal (SIGINT, SIGTERM);
 * SIM_TIME_LIMIT: stopped at --time-limit (virtual) or --wall-limit. */
enum sim_status {
    SIM_OK,
    SIM_DEADLOCK,
    SIM_APP_ERROR,
    SIM_INPUT_ERROR,
    SIM_INTERRUPTED,
    SIM_TIME_LIMIT,
    SIM_FAULT /* a node crashed and the job was aborted (docs/faults.md) */
};

struct rank_stats {
    int64_t msgs_recv, bytes_recv; /* first: a partner's message counts them (srank) */
    simtime_t compute, p2p, coll, blocked, finish;
    int64_t msgs_sent, bytes_sent;
};

struct sim *sim_create(struct platform *plat, const struct network *net, int32_t nranks,
                       const struct sim_driver *drv, struct sim_error *err);
void sim_destroy(struct sim *s);
/* Makes the simulation one of the workers of a split run (core/workers.h,
 * docs/parallel.md): it runs the ranks of its nodes and exchanges what
 * crosses with the others; the first worker ends up with every rank's
 * figures. False (err set) if the platform's models cannot be split. */
struct workers;
/* How nodes go to workers (docs/parallel.md): blocks of consecutive nodes,
 * or nodes dealt out in turn (a pipeline or wavefront across the nodes
 * then keeps every worker busy, for more messages between workers). */
enum sim_placement { SIM_PLACE_BLOCK, SIM_PLACE_CYCLIC };
bool sim_split(struct sim *s, struct workers *w, enum sim_placement placement,
               struct sim_error *err);
/* Several jobs on one platform (docs/jobs.md), before sim_run: job j has
 * the ranks [first[j], first[j + 1]) (first[0] = 0, first[njobs] = every
 * rank), its own MPI_COMM_WORLD of just them, in which rank first[j] + i is
 * rank i, and its ranks start at start[j]. Jobs share the network and
 * never a communicator. */
void sim_set_jobs(struct sim *s, int32_t njobs, const int32_t *first, const simtime_t *start);
/* The jobs (1 unless sim_set_jobs gave several), the job of a rank (0
 * with one job), and the first rank of job j. */
int32_t sim_job_count(const struct sim *s);
int32_t sim_job_of(const struct sim *s, int32_t rank);
int32_t sim_job_first(const struct sim *s, int32_t job);
/* Whether rank runs in this worker (always, unless the run is split). */
bool sim_owns(const struct sim *s, int32_t rank);
/* Whether this worker reports the run and writes its files (always, unless
 * the run is split: then the first worker). */
bool sim_reports(const struct sim *s);
/* A split run's costs: its windows (exchanges), the messages and bytes the
 * workers sent one another, the first worker's wall time in exchanges, and
 * each worker's memory when its ranks ended (before the first gathers every
 * rank's figures): its peak resident set, and the resident part of its
 * tables indexed by rank (bytes; arrays of `workers` entries). */
struct sim_split_stats {
    int workers;
    int64_t windows, messages, bytes;
    double exchange_seconds;
    const int64_t *peak_memory, *rank_tables;
};
bool sim_split_stats(const struct sim *s, struct sim_split_stats *out);
/* A split run's first worker: the trace records the others replayed. */
uint64_t sim_records_elsewhere(const struct sim *s);
/* The worker that runs `rank`, this worker, and how many there are (0, 0, 1
 * unless the run is split). */
int sim_worker_of(const struct sim *s, int32_t rank);
int sim_worker_me(const struct sim *s);
int sim_worker_count(const struct sim *s);
/* A split run: sends the front end's message (its own format, in pieces
 * that each keep 8-byte alignment) to worker `to`, whose driver's `front` takes it at this window's
 * end. Whatever the front end must know of another worker's ranks crosses this way (the on-line
 * runtime's collective data). */
struct sim_piece { /* a message in pieces (at most 8), copied once */
    const void *data;
    size_t len;
};
void sim_post_front(struct sim *s, int to, const struct sim_piece *pieces, int n);
/* A split run: the other workers that hold members of communicator
 * comm_id (as `rank` names it) in *list, and how many (0 outside a split
 * run, or for an unknown communicator); found once per communicator. */
int sim_comm_workers(const struct sim *s, int32_t rank, int32_t comm_id, const int32_t **list);
/* The front end's exit statuses (MPI_Abort's code or -1, the first
 * non-zero status of a rank or 0): each worker sets its own in `ending`;
 * after sim_run the first worker's are merged with the others' (its own
 * first, then the lowest worker's). */
void sim_set_exit_codes(struct sim *s, int forced, int rank_status);
void sim_exit_codes(const struct sim *s, int *forced, int *rank_status);
/* The front end could not read its input (a malformed trace record): the
 * run stops as an input error; in a split run the first worker learns it
 * (sim_failed_reading) and reports it as one process would, by `msg`. */
void sim_fail_reading(struct sim *s, const char *msg);
bool sim_failed_reading(const struct sim *s);
/* A split run's worker left sim_run abruptly (a crash or signal in a rank,
 * caught by the front end with a long jump out of the window): it tells
 * the others to stop, finishes the protocol and gathers, as sim_run would
 * have; returns the run's status. */
enum sim_status sim_split_abandon(struct sim *s);
/* Runs until every rank finished, a deadlock, or an application error. */
enum sim_status sim_run(struct sim *s);
/* sim_run in steps, for a caller that interleaves simulations (not a split
 * run): sim_begin starts the ranks; sim_advance runs the events of at most
 * `instants` instants of virtual time and says whether any work is left;
 * sim_end gives the outcome (a deadlock if ranks did not finish). */
void sim_begin(struct sim *s);
bool sim_advance(struct sim *s, uint64_t instants);
enum sim_status sim_end(struct sim *s);
/* --time-limit: the run stops (SIM_TIME_LIMIT) before an event past limit
 * (virtual time; 0: none). --wall-limit: engine_wall_expired (engine.h),
 * set by a timer, stops it as well. */
void sim_set_time_limit(struct sim *s, simtime_t limit);
simtime_t sim_now(const struct sim *s);
int32_t sim_size(const struct sim *s);
/* Faults (docs/faults.md): whether a world rank's node crashed, how many
 * ranks did, whether a communicator (as rank names it) has a failed
 * member; a rank that returns errors rather than aborting (a handler other
 * than MPI_ERRORS_ARE_FATAL on MPI_COMM_WORLD) keeps the job going when a
 * node crashes (ULFM). */
bool sim_rank_failed(const struct sim *s, int32_t world_rank);
int32_t sim_failed_ranks(const struct sim *s);
bool sim_comm_failed(const struct sim *s, int32_t rank, int32_t comm_id);
void sim_set_tolerant(struct sim *s, int32_t rank, bool tolerant);
/* Whether a request the rank's last wait or test completed failed
 * (MPIX_ERR_PROC_FAILED); ask before the rank's next MPI call. */
bool sim_request_failed(const struct sim *s, const struct request *r);
/* The faults that took effect, in time order (for the reports' timelines). */
struct sim_fault_note {
    simtime_t at;
    char what[80]; /* "node 2 crashes", "link node 0 - node 1 goes down" */
};
const struct sim_fault_note *sim_fault_log(const struct sim *s, size_t *n);
/* The run's faults so far; NULL when the platform has none. */
const struct fault_stats *sim_fault_stats(const struct sim *s);
/* The report of a deadlock or application error (empty when SIM_OK). */
const char *sim_failure_report(const struct sim *s);
const struct rank_stats *sim_rank_stats(const struct sim *s, int32_t rank);
/* The platform node a rank runs on. */
int32_t sim_rank_node(const struct sim *s, int32_t rank);
uint64_t sim_events(const struct sim *s);
/* Messages sent that no receive ever matched. */
int64_t sim_unmatched_messages(const struct sim *s);
/* Requests a rank had neither waited for nor tested when it finished. */
int64_t sim_abandoned_requests(const struct sim *s);
/* Bytes the simulation holds: fixed per-rank state, and the peaks of
 * requests (messages in flight), collective schedules and the event queue. */
struct sim_memory {
    int64_t rank_state, requests_peak, schedules_peak, events_peak;
};
void sim_memory_usage(const struct sim *s, struct sim_memory *m);
/* Stops the run with an application error (message printed in the report). */
void sim_fail(struct sim *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same with another status (SIM_INPUT_ERROR, SIM_INTERRUPTED). */
void sim_fail_status(struct sim *s, enum sim_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* simpi's exit status for a run that ended with st (docs/reports.md):
 * 0 ok, 1 bad input, 3 deadlock, 4 application error, 6 a fault ended the
 * job (docs/faults.md), 124 time limit, 130 interrupted. */
int sim_exit_code(enum sim_status st);
/* The status so far (SIM_OK while running normally). */
enum sim_status sim_status(const struct sim *s);

/* --- Actions; a rank issues them at sim_now() from within resume(). ---
 * Functions returning bool return true when the rank may continue at once,
 * false when it is now blocked and resume() will be called later. */
bool sim_compute(struct sim *s, int32_t rank, simtime_t duration);
/* Whether a computation of `duration` starting now ends at a representable
 * time; sim_compute stops the run with an overflow error when it does not. */
bool sim_compute_fits(const struct sim *s, simtime_t duration);
/* Stops the run: what rank was doing would end past the largest time. */
void sim_time_overflow(struct sim *s, int32_t rank, const char *what);
void sim_finish(struct sim *s, int32_t rank);

/* Communicator handles are per rank: (rank, id) -> communicator. id 0 is
 * MPI_COMM_WORLD. Returns false if the rank has no communicator `id`. */
bool sim_comm_valid(const struct sim *s, int32_t rank, int32_t comm_id);
/* MPI_Comm_free: the rank's handle comm_id names nothing from now on (the
 * communicator lives on for operations still under way). */
void sim_comm_release(struct sim *s, int32_t rank, int32_t comm_id);
/* Whether the rank's handle comm_id named a communicator it has freed. */
bool sim_comm_freed(const struct sim *s, int32_t rank, int32_t comm_id);
int32_t sim_comm_size(const struct sim *s, int32_t rank, int32_t comm_id);

/* Non-blocking point-to-point; peer and source are ranks in the communicator.
 * user_id names the request for sim_find_request (the trace's req=ID). */
struct request *sim_isend(struct sim *s, int32_t rank, int32_t comm_id, int32_t dest, int32_t tag,
                          int64_t size, enum send_mode mode, int32_t user_id);
struct request *sim_irecv(struct sim *s, int32_t rank, int32_t comm_id, int32_t source, int32_t tag,
                          int64_t size, int32_t user_id);
/* Starts a collective; size is the per-rank block (bytes). */
struct request *sim_icoll(struct sim *s, int32_t rank, int32_t comm_id, enum coll_kind kind,
                          int64_t size, int32_t root, int32_t user_id);
/* A variable-count collective (gatherv, scatterv, allgatherv, alltoallv,
 * reduce_scatter with counts): every rank passes counts (not NULL); send and
 * recv are the byte counts this rank holds, per communicator rank, or NULL
 * (then it sends or receives `size`, its own count):
 *   gatherv root: recv; scatterv root: send; allgatherv, reduce_scatter:
 *   recv (each rank's block); alltoallv: send and recv. */
struct sched_counts {
    const int64_t *send, *recv;
};
/* nonblocking: an MPI_I... call (MPICH chooses some by rules of their
 * own); the others are waited for at once. */
struct request *sim_icoll_v(struct sim *s, int32_t rank, int32_t comm_id, enum coll_kind kind,
                            int64_t size, int32_t root, int32_t user_id,
                            const struct sched_counts *counts, bool nonblocking);
/* Collective communicator creation; the new communicator is known to the rank as
 * new_id once the call completes (color SIM_UNDEFINED: no new communicator). */
/* A communicator of the world ranks world[0..n-1] (in that order), built by
 * those ranks alone (MPI_Comm_create_group); NULL if rank is not one. */
struct request *sim_comm_create_group(struct sim *s, int32_t rank, int32_t comm_id,
                                      const int32_t *world, int32_t n, int32_t tag, int32_t new_id);
/* An intercommunicator between the world ranks local[0..nl-1] (this rank's
 * group) and remote[0..nr-1], known to the rank as new_id once it has
 * called: a send to rank r goes to remote[r], and the receiver sees the
 * sender's rank in its own group. Every member of both groups calls it with
 * the same tag; nothing is waited for (the front end exchanges the groups). */
void sim_intercomm_create(struct sim *s, int32_t rank, const int32_t *local, int32_t nl,
                          const int32_t *remote, int32_t nr, int32_t tag, int32_t new_id);
struct request *sim_comm_split(struct sim *s, int32_t rank, int32_t comm_id, int32_t color,
                               int32_t key, int32_t new_id);
struct request *sim_comm_dup(struct sim *s, int32_t rank, int32_t comm_id, int32_t new_id);
/* A split whose exchange is not charged and not waited for (a trace that
 * defines its communicators up front, charging their creation where the
 * program called it): the new communicator exists once every member of
 * comm_id has called, which the first operation on it must follow. */
void sim_comm_split_defined(struct sim *s, int32_t rank, int32_t comm_id, int32_t color,
                            int32_t key, int32_t new_id);
/* After a point-to-point send call: true if the rank may go on now; false
 * if it is busy (the platform's mpi.send_overhead, or waiting for its NIC:
 * mpi.gap) and resume() will be called when it is done. */
bool sim_cpu_overhead(struct sim *s, int32_t rank);
/* Attaches a buffer for buffered sends (only its size matters). */
void sim_buffer_attach(struct sim *s, int32_t rank, int64_t size);
void sim_buffer_detach(struct sim *s, int32_t rank);

/* Real data for the on-line front end. A receive names where its data goes;
 * when the message is matched, min(size, capacity) bytes are copied there and
 * the envelope is recorded (MPI_Status). */
struct sim_recv_target {
    void *buf;
    int64_t capacity;
    int32_t source, tag; /* rank in the communicator, tag */
    int64_t size;        /* bytes the message carried */
    int32_t owner;       /* world rank whose memory buf is */
    int32_t sig;         /* the sender's type signature, where the deliver hook gives it */
};
/* What a front end does at points of a message's path, each NULL for
 * nothing, with its ctx; each simulation has its own (sim_set_hooks), so
 * two simulations can live in one process.
 * address: where data for `owner` at addr really lives right now (the
 *   on-line front end's privatized globals); NULL: addr itself.
 * deliver: a message's data reach their receive (the on-line front end's
 *   --check=full notes the sender's type signature).
 * send_signature: a split run: the type signature (--check=full) of a send
 *   being posted to a rank of another worker, which goes with its envelope
 *   (0: none); there, remote_signature gives the front end the stand-in
 *   request that meets the receiver's queues with it. */
struct sim_hooks {
    void *ctx;
    void *(*address)(void *ctx, int32_t owner, void *addr);
    void (*deliver)(void *ctx, const struct request *send, struct sim_recv_target *t);
    int32_t (*send_signature)(void *ctx, const struct request *send);
    void (*remote_signature)(void *ctx, const struct request *standin, int32_t sig);
};
void sim_set_hooks(struct sim *s, const struct sim_hooks *hooks);
/* Where data for `owner` at addr lives now (hooks.address; addr if none). */
void *sim_address(const struct sim *s, int32_t owner, void *addr);
/* As sim_isend / sim_irecv, with data: the send's `size` bytes at buf are
 * copied when the send completes before its delivery (eager, buffered: the
 * caller may reuse buf at once), else read from buf when delivered (the
 * caller keeps buf until the send completes, as MPI requires); the receive
 * fills *target. */
/* Whether a send of size bytes in mode keeps using the caller's buffer
 * until it completes (rendezvous) instead of a copy (eager, buffered). */
bool sim_send_borrows(const struct sim *s, int64_t size, enum send_mode mode);
struct request *sim_isend_buf(struct sim *s, int32_t rank, int32_t comm_id, int32_t dest,
                              int32_t tag, int64_t size, enum send_mode mode, const void *buf);
struct request *sim_irecv_buf(struct sim *s, int32_t rank, int32_t comm_id, int32_t source,
                              int32_t tag, struct sim_recv_target *target);

/* The context id that identifies a rank's communicator `id` among all
 * communicators (the same on every member), and the rank's place in it. */
uint32_t sim_comm_context(const struct sim *s, int32_t rank, int32_t comm_id);
int32_t sim_comm_rank(const struct sim *s, int32_t rank, int32_t comm_id);
/* World rank of a communicator's member (-1 if out of range). */
int32_t sim_comm_member(const struct sim *s, int32_t rank, int32_t comm_id, int32_t member);
/* A communicator of just this rank (MPI_COMM_SELF), known to it as id. */
void sim_comm_self(struct sim *s, int32_t rank, int32_t id);
/* Renames a request (e.g. to its index in a caller's array for sim_last_index). */
void sim_request_set_id(struct request *r, int32_t id);

/* MPI_Probe: a request that completes when a matching message has arrived
 * (without receiving it); *target gets its envelope. MPI_Iprobe: whether
 * one has arrived by now. */
struct request *sim_probe(struct sim *s, int32_t rank, int32_t comm_id, int32_t source, int32_t tag,
                          struct sim_recv_target *target);
bool sim_iprobe(struct sim *s, int32_t rank, int32_t comm_id, int32_t source, int32_t tag,
                struct sim_recv_target *target);

/* Matched probes: sim_claim takes the first matching message that has
 * arrived out of the queue (so no other receive can match it; *target gets
 * its envelope) or returns NULL; sim_mrecv then receives it into target. */
struct request *sim_claim(struct sim *s, int32_t rank, int32_t comm_id, int32_t source, int32_t tag,
                          struct sim_recv_target *target);
struct request *sim_mrecv(struct sim *s, int32_t rank, struct request *send,
                          struct sim_recv_target *target);

/* MPI_Cancel of a receive: withdrawn and complete at once if not matched
 * yet; returns whether it was. Of a send: the cancellation reaches the
 * receiver's node one control latency later, which withdraws the message
 * if no receive has matched it (the send then completes), and its answer
 * takes as long back, when `answer` (a signal, or NULL) fires and
 * sim_request_cancelled tells the outcome; returns false. */
bool sim_cancel(struct sim *s, int32_t rank, struct request *req, struct request *answer);
bool sim_request_cancelled(const struct request *req);

/* A front end's message from rank origin that takes effect at rank target
 * at virtual time `at`, no sooner than a control message sent now would
 * arrive (sim_control_latency): the driver's `land` takes it then, in the
 * order (time, target, origin, the origin's count of landings), whatever
 * worker each runs in (land.c). One-sided communication is built on it. */
void sim_land(struct sim *s, int32_t origin, int32_t target, simtime_t at,
              const struct sim_piece *pieces, int n);
/* The same with the message in one malloc'd block, which it takes (no
 * copy of a large operation's data when the target runs here). */
void sim_land_owned(struct sim *s, int32_t origin, int32_t target, simtime_t at, void *msg,
                    uint32_t len);
/* One-sided communication (rma.c, docs/models.md): the transfers of an
 * operation between origin and target, ranks of communicator comm_id as
 * each names it. At the origin, now: the data's synchronous send to the
 * target (to_target: done once they arrived and were acknowledged), or
 * the receive of the target's reply into *reply. At the target, when the
 * operation lands (sim_land): the receive of those data, or the reply's
 * send with `size` bytes from `data` (read at once). */
/* The kinds of an operation's origin side: a get's reply (0), a put's data
 * (1, to_target), the result of an operation that needs its operand at the
 * target first (2: get_accumulate, fetch_and_op, compare_and_swap; the
 * target acts, and sends it, once `size` bytes have had the time to
 * arrive: sim_transfer_cost). */
enum sim_rma_kind { SIM_RMA_GET, SIM_RMA_PUT, SIM_RMA_FETCH };
struct request *sim_rma_origin(struct sim *s, int32_t origin, int32_t comm_id, int32_t target,
                               int64_t size, enum sim_rma_kind kind, struct sim_recv_target *reply,
                               int32_t id);
/* Replay's one-sided operation (`rma_put` / `rma_get` / `rma_fetch`
 * records): the origin's side as sim_rma_origin, and the target's, which
 * the MPI layer lands at the target one control latency later (a fetch:
 * the transfer time of its size) as the on-line front end does with
 * sim_land. */
struct request *sim_rma_issue(struct sim *s, int32_t origin, int32_t comm_id, int32_t target,
                              int64_t size, enum sim_rma_kind kind, int32_t id);
/* One-sided synchronisation (docs/models.md): each message reaches the
 * other member one control latency after it is sent and acts there then,
 * in the landings' order; both front ends run it, so a trace replays it.
 * comm_id: the window's communicator as `rank` names it; members by their
 * rank in it.
 * A lock request to target (granted there first come first served, shared
 * locks together; the grant travels back), and its release. */
void sim_rma_lock(struct sim *s, int32_t rank, int32_t comm_id, int32_t target, bool exclusive);
void sim_rma_unlock(struct sim *s, int32_t rank, int32_t comm_id, int32_t target, bool exclusive);
/* A request done when every lock the rank asked for has been granted. */
struct request *sim_rma_grants(struct sim *s, int32_t rank, int32_t comm_id);
/* A post (complete = false) or complete sent to member `to`. */
void sim_rma_notify(struct sim *s, int32_t rank, int32_t comm_id, int32_t to, bool complete);
/* Whether a post (or complete) from each of from[0..n) has arrived at the
 * rank; when they have and take is set, they are used up. */
bool sim_rma_notes_in(struct sim *s, int32_t rank, int32_t comm_id, const int32_t *from, int n,
                      bool complete, bool take);
/* A request done when they have all arrived (then used up). */
struct request *sim_rma_notes_wait(struct sim *s, int32_t rank, int32_t comm_id,
                                   const int32_t *from, int n, bool complete);
/* The synchronisation records' names, by kind (rma_lock ... rma_wait). */
extern const char *const sim_rma_sync_names[7];
/* Counts an action a trace cannot express (--trace-out warns with the
 * first one's name). */
void sim_record_skip(struct sim *s, const char *what);
void sim_rma_target(struct sim *s, int32_t target, int32_t comm_id, int32_t origin, int64_t size,
                    bool to_target, const void *data);
/* The network's cost of a control message between two world ranks. */
simtime_t sim_control_latency(const struct sim *s, int32_t from, int32_t to);
/* The network's cost of size bytes between two world ranks, without
 * contention (latency and bandwidth of their route). */
simtime_t sim_transfer_cost(const struct sim *s, int32_t from, int32_t to, int64_t size);
/* A signal: a request of rank that completes when the front end fires it
 * (a lock granted, a generalized request completed...). `what` (a static
 * string) and peer (the world rank it waits for, -1 if unknown) describe it
 * in deadlock reports. */
struct request *sim_signal_new(struct sim *s, int32_t rank, int32_t peer, const char *what);
/* Completes a signal at time `at` (not before now). */
void sim_signal_fire(struct sim *s, struct request *r, simtime_t at);

/* A file access of `bytes` by rank through the platform's storage model
 * (io.c); the request completes when the storage has served it. id: the
 * request's id for sim_find_request (replay), or -1. Recorded as
 * `file_io BYTES req=N` under --trace-out. */
struct request *sim_io(struct sim *s, int32_t rank, int64_t bytes, int32_t id);
/* A question to peer's node and its answer (MPI-IO's shared file pointer
 * kept by the file's first member): a request completing after the control
 * latency there and back. sim_record_round_trip records one that the front
 * end made with landings (`round_trip PEER`). */
struct request *sim_round_trip(struct sim *s, int32_t rank, int32_t peer, int32_t id);
void sim_record_round_trip(struct sim *s, int32_t rank, int32_t peer);

/* Looks up an outstanding request by the id given at creation. */
struct request *sim_find_request(const struct sim *s, int32_t rank, int32_t user_id);
/* Waits. NULL reqs with n == 0 means every outstanding request of the rank.
 * wait_any: completes one; the index of the completed request is stored in
 * *index when the wait returns (or via sim_last_index after resume). */
bool sim_wait(struct sim *s, int32_t rank, struct request **reqs, int n, bool wait_any);
/* Whether a wait for these requests (NULL entries ignored; all, or any)
 * would end now, without waiting or completing anything. */
bool sim_requests_ready(const struct sim *s, struct request *const *reqs, int n, bool any);
int sim_last_index(const struct sim *s, int32_t rank);
/* The oldest outstanding point-to-point request of rank that sends to (send)
 * or receives from world rank peer with this tag; NULL if none. */
struct request *sim_find_p2p_request(const struct sim *s, int32_t rank, bool send, int32_t peer,
                                     int32_t tag);
/* True if the request has completed by now (without releasing it). */
bool sim_request_done(const struct sim *s, const struct request *req);
/* True (and the request is released) if it has completed by now. */
bool sim_test(struct sim *s, int32_t rank, struct request *req);
/* MPI_Request_free: the rank no longer holds the request; the operation
 * goes on and completes unseen (a send is still received, a receive still
 * delivers into its buffer: its target is copied). payload: the front end's
 * buffer a send not yet received still reads its data from (NULL: none or
 * the user's); returns true when the request took it over (freed once
 * delivered), false when the caller may free it now. */
bool sim_request_free(struct sim *s, int32_t rank, struct request *req, void *payload);
/* Whether the request is a point-to-point send (a user's, not a schedule's). */
bool sim_request_is_send(const struct request *req);

const char *sim_coll_name(enum coll_kind k);

/* Messages between nodes: how many, their hops and the time from the
 * send's post to the receipt of their data (summed, for averages), and
 * the part of it before the receive was posted (the message early). */
struct sim_net_stats {
    int64_t messages;
    double hops, transfer_seconds, early_seconds;
    /* faults: messages that took a detour, its extra hops and latency */
    int64_t detoured;
    double extra_hops, extra_seconds;
};
void sim_network_stats(const struct sim *s, struct sim_net_stats *out);
/* The most loaded links under flow contention (see net/contention.h). */
struct link_load;
int sim_busiest_links(const struct sim *s, struct link_load *out, int n);
/* Several jobs under flow contention: the links where their traffic met
 * most (net/contention.h, contention_shared_links). */
struct link_shared;
int sim_jobs_shared_links(const struct sim *s, struct link_shared *out, int n);
/* The busiest sides of the nodes' network interfaces (network.interfaces:
 * serial), at most SIM_NIC_TOP; 0 when the model has none. */
#define SIM_NIC_TOP 8
struct nic_load;
int sim_busiest_interfaces(const struct sim *s, struct nic_load *out, int n);
const struct network *sim_network(const struct sim *s);

/* The collectives run, per operation and algorithm (each call counted
 * once, not per rank); returns how many pairs were written (at most max). */
int sim_collective_counts(const struct sim *s, const char **op, const char **algo, int64_t *calls,
                          int max);

/* --- Observation (src/analysis): what each rank does, as it happens ---
 * States carry Paraver's numbering (docs/analysis.md). */
enum sim_state {
    SIM_ST_IDLE = 0,
    SIM_ST_RUNNING = 1,
    SIM_ST_WAIT_MSG = 3,   /* a blocking receive */
    SIM_ST_BLOCK_SEND = 4, /* a blocking send */
    SIM_ST_SYNC = 5,       /* one-sided synchronisation, generalized requests */
    SIM_ST_TEST = 6,       /* a successful test */
    SIM_ST_WAIT = 8,       /* wait / waitall / waitany on non-blocking requests */
    SIM_ST_ISEND = 10,     /* the CPU cost of posting a send (mpi.send_overhead) */
    SIM_ST_IO = 12,
    SIM_ST_COLL = 13,     /* group communication */
    SIM_ST_SENDRECV = 16, /* MPI_Sendrecv */
};
/* The MPI call a period or an instant stands for (Paraver event values). */
enum sim_call {
    SIM_CALL_NONE,
    SIM_CALL_SEND,
    SIM_CALL_SSEND,
    SIM_CALL_BSEND,
    SIM_CALL_RSEND,
    SIM_CALL_RECV,
    SIM_CALL_SENDRECV,
    SIM_CALL_ISEND,
    SIM_CALL_IRECV,
    SIM_CALL_WAIT,
    SIM_CALL_WAITALL,
    SIM_CALL_WAITANY,
    SIM_CALL_TEST,
    SIM_CALL_SYNC,
    SIM_CALL_IO,
    SIM_CALL_COLL, /* + enum coll_kind */
    SIM_CALLS = SIM_CALL_COLL + COLL_KINDS
};
/* A period of a rank's time: [begin, end) in `state`. */
struct sim_period {
    simtime_t begin, end;
    simtime_t sync_loss; /* the part spent waiting for partners that came late */
    simtime_t overlap;   /* communication of non-blocking requests completed here that
                            ran while the rank computed */
    uint64_t coll_id;    /* a collective: the same on every member of the call, else 0 */
    int32_t rank, coll_members;
    uint8_t state, call;
    int8_t coll; /* enum coll_kind of a collective, -1 otherwise */
};
/* A message delivered: logical times are the calls (send posted, receive
 * posted), physical ones the data (left the sender, arrived). */
struct sim_message {
    simtime_t lsend, psend, lrecv, precv;
    int64_t size;
    int32_t from, to, tag;
    bool collective; /* one of a collective schedule's messages */
};
struct sim_observer {
    void *ctx;
    void (*period)(void *ctx, const struct sim_period *p);
    /* An instant event: a non-blocking call posted at t. */
    void (*instant)(void *ctx, int32_t rank, simtime_t t, enum sim_call call);
    void (*message)(void *ctx, const struct sim_message *m);
    /* Called instead where message is NULL: an observer that needs only
     * who sent how many bytes to whom (a communication matrix) is spared
     * the message's times, worked out for every message otherwise. */
    void (*message_pair)(void *ctx, int32_t from, int32_t to, int64_t size);
    /* name: an interval entered at t; NULL: the innermost one left. */
    void (*interval)(void *ctx, int32_t rank, simtime_t t, const char *name);
    void (*finish)(void *ctx, int32_t rank, simtime_t t);
    /* A split run's end (docs/parallel.md): a worker packs what it observed
     * of its ranks (*out, malloc'd; returns the length) for the first,
     * which unpacks it into its own observations. */
    size_t (*pack)(void *ctx, char **out);
    void (*unpack)(void *ctx, const char *blob, size_t len);
};
/* Observes the run from now on (NULL: stops). The observer is not copied. */
void sim_set_observer(struct sim *s, const struct sim_observer *o);
/* A user interval (SIMPI_INTERVAL_BEGIN, MPI_Pcontrol, a trace's
 * interval_begin) entered (name) or left (NULL) by rank now. */
void sim_interval(struct sim *s, int32_t rank, const char *name);
const char *sim_call_name(enum sim_call c);
/* Records every rank's actions from now on as a native trace in dir
 * (rank<R>.trace files; docs/trace-format.md), created if needed. */
bool sim_record_start(struct sim *s, const char *dir, struct sim_error *err);
/* Writes what is left; false (err) if a file could not be written. Warns
 * on stderr when operations a trace cannot express were left out. */
bool sim_record_finish(struct sim *s, struct sim_error *err);
/* A split on-line run: every worker records its own ranks into the one
 * staging folder made before the workers were forked (rankdir_begin), the
 * others flush theirs when their ranks are done (sim_record_flush), and
 * the first commits the folder in sim_record_finish. */
struct rankdir;
void sim_record_start_staged(struct sim *s, const struct rankdir *staged);
void sim_record_flush(struct sim *s);
const char *sim_state_name(enum sim_state st);

/* Progress: fn(ctx) is called every few tens of thousands of events. */
void sim_set_tick(struct sim *s, void (*fn)(void *ctx), void *ctx);
/* Ranks that have finished so far. */
int32_t sim_finished_ranks(const struct sim *s);

#endif
