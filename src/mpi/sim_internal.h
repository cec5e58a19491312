/* SPDX-License-Identifier: BSD-3-Clause */
/* The MPI semantics layer's core, shared by its files only: requests,
 * transfers, communicators, ranks and struct sim, which holds each
 * concern's state in a struct of its own (docs/architecture.md, "The MPI
 * layer's state"), and the bottom layers' functions (status, requests,
 * transfers, communicators, memory bandwidth). Each concern above declares
 * its functions in its own header, which the files that call it include:
 * pt2pt.h, nics.h, loggp.h, bsend.h, copies.h, land.h, part.h, schedule.h,
 * wait.h, fault.h, record.h, observe.h. */
#ifndef SIMPI_SIM_INTERNAL_H
#define SIMPI_SIM_INTERNAL_H

#include "core/divide.h"
#include "core/engine.h"
#include "core/heap.h"
#include "core/pool.h"
#include "core/prefetch.h"
#include "mpi/coll/coll.h"
#include "mpi/nics.h"
#include "mpi/sim.h"
#include "net/interfaces.h"

enum req_kind { REQ_SEND, REQ_RECV, REQ_COLL, REQ_SIGNAL };
enum req_flags {
    RF_RESOLVED = 1, /* done time known */
    RF_MATCHED = 2,  /* send: matched by a receive (envelope left the queue) */
    RF_RELEASED = 4, /* the owner no longer holds it */
    RF_WAITED = 8,   /* part of the owner's current wait */
    RF_BSEND = 16,   /* holds attached-buffer space */
    RF_USER = 32,    /* in the owner's outstanding list */
    RF_SUB = 64,     /* a collective schedule's send or receive (uses `sched`) */
    RF_OWNS = 128,   /* send: `data` is a payload copy to free once delivered; receive:
                        `data` is a target of the sim's own (freed by the front end) */
};

struct comm;
struct sched;

struct request {
    struct request *qnext; /* matching queue */
    struct request *onext; /* owner's outstanding list, or the schedule's round list */
    union {
        struct sched *sched; /* RF_SUB: owning schedule; REQ_COLL: the schedule it completes */
        void *data; /* user send: the payload; user receive: a sim_recv_target; signal: what */
    };
    int64_t size;
    simtime_t post_time;
    simtime_t done_time;    /* valid when RF_RESOLVED */
    simtime_t partner_time; /* when the partner posted (for blocked time); for a
                               matched buffered send: when the receiver has the data */
    simtime_t cpu_mark;     /* the owner's computation total when it was posted */
    int32_t owner;          /* world rank */
    int32_t peer;           /* world rank of dest / source, -1 for any */
    int32_t src;            /* comm rank of the sender (send) or wanted (recv, -1 any);
                               a collective's: the members of its communicator */
    int32_t tag;            /* a collective's: its sequence number on the communicator */
    uint32_t ctx;
    int32_t user_id; /* a collective's step (RF_SUB): its operation's root */
    uint8_t kind : 4;
    uint8_t hold : 2;       /* a receive: HOLD_ANY if from any source and waiting; a send in
                               the unexpected queue: HOLD_ANY once offered (pt2pt.c); a
                               send withdrawn by MPI_Cancel: HOLD_CANCELLED */
    uint8_t remote : 1;     /* a split run's stand-in for a send posted on another worker
                               (part.c): cpu_mark holds the sender's request there */
    uint8_t remote_sub : 1; /* and that send belongs to a collective's schedule */
    uint8_t mode, flags, coll;
    int32_t rec_id;    /* its id in the recorded trace (record.c), -1 if not recorded */
    simtime_t visible; /* a send in its receiver's unexpected queue: when the receiver
                          sees it (its envelope's arrival, not before the sender's
                          previous message there); the queue is in this order */
    uint32_t xfer;     /* a send whose data contend (a contention model) or cross the
                          interfaces (sim.nic): its transfer (index in sim.xf.table), 0 if none */
    uint32_t seq;      /* a send: its number among its owner's sends (ties in the interfaces'
                          orders, nics.c) */
};

/* request.hold (pt2pt.c, "receives from any source"); HOLD_FAILED: ended
 * by a failed rank (fault.c) */
enum { HOLD_NONE, HOLD_ANY, HOLD_CANCELLED, HOLD_FAILED };

/* An entry of the index of outstanding requests by id (wait.c): r NULL is
 * free, r ID_GONE a removed entry that lookups pass over. */
struct id_slot {
    struct request *r;
    int32_t rank, id;
};

/* A transfer under contention (net/contention.h) or through the serial
 * interfaces (nics.c): an eager message's data from its send, or a
 * rendezvous message's data once matched. One cache line (64 bytes, the
 * table aligned): the interfaces' costs are computed when the data are
 * injected, and only what the ejection side needs is kept. */
struct xfer {
    struct request *send; /* while the send waits for the transfer, else NULL */
    struct request *recv; /* once matched */
    union {
        simtime_t arrival; /* SIMTIME_NEVER until the data have arrived */
        int64_t size;      /* a rendezvous transfer through the interfaces until injected
                              (nics.c: its costs follow from it then) */
    };
    /* the interfaces: the time that orders the transfer while it waits (its
     * clear-to-send's arrival, then its first byte's), and the time the
     * ejection side carries the data; the head (an eager message's
     * envelope) arrives at + wire_in, with the ejection side free */
    simtime_t at, wire_in;
    uint32_t seq;    /* the send's place among its sender's sends (request.seq) */
    int32_t from;    /* the sending rank */
    int32_t to;      /* the interfaces: the receiving rank */
    uint32_t remote; /* a split run: the sender's worker reserving the injection side for
                        the receiver's, which holds the transfer as remote - 1 (part.c) */
    uint8_t eager;
    uint8_t overhead_due; /* waits in recv_ready for its receiver's CPU (mpi.recv_overhead) */
};
_Static_assert(sizeof(struct xfer) == 64, "a transfer is one cache line");

/* When an eager transfer's head (its envelope) reaches the receiver. */
static inline simtime_t xfer_head(const struct xfer *x) {
    return x->at + x->wire_in;
}

struct comm {
    uint32_t ctx; /* point-to-point context; collectives use ctx + 1 */
    int32_t size;
    int32_t *world;     /* comm rank -> world rank; NULL for identity */
    uint32_t *coll_seq; /* per member count of collectives (NULL for world) */
    uint8_t untraced;   /* from groups or an intercommunicator: a trace cannot name it */
    int32_t *workers;   /* a split run: the other workers holding members (part.c), or NULL */
    int32_t nworkers;   /* how many; -1: not known yet */
};

struct bsend_state {
    int64_t capacity, used;
    struct request **held;
    int nheld, cap;
};

enum rank_state { RS_READY, RS_COMPUTING, RS_WAITING, RS_FINISHED };

/* What few ranks need (pt2pt.c): receives from any source, buffered
 * sends, waits for any; made at a rank's first need (srank.rare). */
struct rank_rare {
    struct request *offered; /* while delivering: the last of the unexpected messages that
                                met the receives already (they are a prefix), or NULL */
    simtime_t deliver_at;    /* the next arrival's event: when it is due (SIMTIME_NEVER: none) */
    uint32_t nany;           /* any-source receives waiting: messages meet the receives
                                as they arrive (pt2pt.c) */
    uint32_t deliver_gen;    /* the generation of its next arrival's event */
    struct bsend_state *bsend;
    int32_t last_index; /* the request a wait for any finished last (its id) */
};

/* 192 bytes, three cache lines (a table of them starts on a page), first
 * what a partner's message reads and writes (its queues, whether it
 * delivers, its received counts): one line. What few ranks need lies
 * behind `rare`. */
struct srank {
    struct request *posted_head, *posted_tail;
    struct request *unexp_head, *unexp_tail;
    struct request *coll_recvs;  /* its collectives' receives no send took yet, and */
    struct request *coll_sends;  /* the sends to it that came first: each the last of a ring
                                    by qnext, in the order they came (steps.c) */
    struct rank_rare *rare;      /* NULL until needed */
    struct rank_stats st;        /* its received counts first */
    struct request *outstanding; /* user-visible requests not yet released */
    simtime_t wait_start, wake_at;
    simtime_t wait_last; /* a wait for all: the latest done time of its resolved requests */
    uint32_t wait_left;  /* and how many are not resolved (wait.c) */
    uint32_t wake_gen;
    uint32_t nwaited;      /* requests in the current wait (RF_WAITED) */
    uint32_t noutstanding; /* requests in the outstanding list */
    uint32_t sends;        /* sends posted (request.seq) */
    uint32_t world_coll_seq;
    uint8_t state, wait_any, wait_p2p;
    uint8_t indexed;  /* the outstanding requests are also in sim.idx (many of them, wait.c) */
    uint8_t dead;     /* its node crashed (fault.c): 1; 2 while the crash is taken */
    uint8_t tolerant; /* it returns errors rather than abort (sim_set_tolerant) */
};
_Static_assert(sizeof(struct srank) == 192, "a rank's state is three cache lines");

/* A rank's rare state, made at its first use. */
struct rank_rare *rank_rare(struct srank *me);

/* Communicator handle table entry: (world rank, id) -> comm. */
struct comm_handle {
    int32_t rank, id, myrank;
    struct comm *comm;
    bool freed; /* MPI_Comm_free: the handle no longer names it */
};

struct split_collector;
struct contention;
struct part;
struct coll_algo;

struct membw;

/* Each concern's state in a struct of its own (issue 69): the
 * simulation holds them side by side. */

/* Several jobs (sim_set_jobs, docs/jobs.md): job j has the ranks
 * [first[j], first[j + 1]), its own MPI_COMM_WORLD (world[j]) and starts
 * at start[j]; n 0: one job. */
struct sim_jobs {
    int32_t n;
    int32_t *first;
    simtime_t *start;
    struct comm **world;
    int32_t *node_job; /* the job on each node (-1: none), for the contention model */
};

/* The communicators (comm.c, comm_calls.c) and those being made. */
struct sim_comms {
    struct comm_handle *handles; /* open addressing hash */
    size_t handles_cap, handles_used;
    struct comm **list;
    size_t n, cap;
    uint32_t next_ctx;
    struct split_collector *splits;
    struct group_collector *group_creates; /* MPI_Comm_create_group calls in progress */
    struct inter_collector *inter_creates; /* intercommunicators being created */
    struct group_made {                    /* a split run: communicators made from groups */
        struct group_made *next;
        uint32_t parent_ctx;
        uint64_t hash;
        uint32_t count;
    } * groups_made;
};

/* Collectives: their schedules (sched.c), algorithms and the analytic
 * model's collectives (analytic.c). */
struct sim_colls {
    struct pool sched_pool;
    struct sched **ready;               /* schedules whose round completed, in that order: */
    size_t nready, ready_at, ready_cap; /* ready[ready_at..nready) wait (sched.c) */
    struct coll_config config;          /* mpi.coll: forced algorithms, selector, parameters */
    struct coll_choice {                /* the last selection per operation */
        const struct coll_algo *algo;
        int32_t n;
        unsigned how; /* COLL_CALL_* */
        int64_t size;
    } last[COLL_KINDS];
    int64_t calls[48];                  /* collectives run, per algorithm */
    int64_t analytic_calls[COLL_KINDS]; /* per operation, with the analytic model */
    struct an_slot *an_slots;           /* analytic collectives waiting for members */
    struct vcounts *vcounts;            /* variable counts of running schedules (sched.c) */
};

/* How the run ends (status.c): its failure report, the front end's exit
 * statuses. */
struct sim_outcome {
    char *report;
    size_t report_len, report_cap;
    bool failed_reading; /* sim_fail_reading, here or in another worker */
    int32_t exit_forced; /* the front end's exit statuses (sim_set_exit_codes) */
    int32_t exit_rank_status;
};

/* A split run (part.c, docs/parallel.md). */
struct sim_split {
    struct part *part;             /* its partition; NULL: all ranks here */
    const struct cross_ops *cross; /* its crossings; NULL: none */
    /* its workers (0: not split), how nodes go to them (computed, not a
     * table of every node), and this one's nodes */
    int32_t workers;
    bool cyclic;                    /* node n to worker n mod K; else blocks of the used nodes */
    int64_t used;                   /* the nodes that hold ranks (the others: the last worker's) */
    int64_t local_first, local_end; /* blocks: this worker's nodes */
    int me;                         /* and this one's */
    /* the first worker: the others' unmatched sends, busiest interface
     * sides, trace records replayed and blocked ranks at the end */
    int64_t unmatched_elsewhere;
    struct nic_load nic_top[SIM_NIC_TOP];
    int nic_top_n;
    uint64_t records_elsewhere;
    struct blocked_elsewhere {
        char *text;
        int32_t *targets;
        int n;
    } * blocked_elsewhere;
};

/* LogGP costs (platform mpi.send_overhead...): the CPU time the rank that
 * just posted a send still owes (sim_cpu_overhead), and per rank when its
 * NIC may inject again, when it may process a receive, when its CPU is
 * free of a collective's steps. */
struct sim_cpu {
    int32_t owing_rank;
    simtime_t owing_until;
    simtime_t *nic_free, *recv_free, *coll_free;
    /* with mpi.recv_overhead: matched transfers whose data are there, each
     * waiting for its receiver's CPU in the order (ready, receiver, sender,
     * the sender's count) (pt2pt.c) */
    struct heap recv_ready;
};

/* What the layers above request.c hear of a resolved request, and what
 * the protocols ask of collective schedules (sched.c) about the message
 * of one of their steps: its operation and root (kept in the step),
 * whether its partner is a step of the same collective; the protocols'
 * completion of a transfer whose data arrived (nics.c and the contention
 * model call it: pt2pt_finish_transfer). */
struct sim_upcalls {
    void (*sub_resolved)(struct sim *s, struct sched *sc, simtime_t done);
    void (*waited_resolved)(struct sim *s, const struct request *r);
    void (*sub_mark)(const struct sched *sc, struct request *step);
    bool (*sub_partner_ok)(struct sim *s, const struct request *x, const struct request *y);
    void (*transfer_arrived)(struct sim *s, uint32_t id);
    /* a split run: another worker's step of a collective, whose receiver is
     * here (its stand-in, part.c), meets the receiver's schedule (steps.c) */
    void (*step_arrived)(struct sim *s, struct request *send);
};

/* Transfers under contention or through the interfaces (request.c). */
struct sim_xfers {
    struct xfer *table; /* [0] unused */
    uint32_t n, cap;
    uint32_t *stack; /* the free transfers' ids */
    uint32_t nfree, stack_cap;
};

/* Outstanding requests by (rank, id given at creation) (request.c). */
struct sim_ids {
    struct id_slot *slot;
    size_t cap, used;
};

/* MPI-IO servers (io.c): when each slot is free. */
struct sim_io {
    simtime_t **storage;
    int32_t nservers;
};

/* Messages waiting to land (land.c). */
struct sim_lands {
    struct heap queue;
    uint32_t *seq; /* per origin rank: landings sent (NULL until the first) */
};

/* Faults (fault.c). */
struct sim_faults {
    int32_t ndead;              /* ranks of crashed nodes */
    struct sim_fault_note *log; /* the faults that took effect, in order */
    size_t nlog;
    const struct request **failed_done;   /* requests that ended failed in the current */
    size_t nfailed_done, failed_done_cap; /* wait or test (sim_request_failed) */
};

struct sim {
    struct engine eng;
    struct platform *plat;
    struct membw *mem; /* a node's memory shared by its ranks' bursts (membw.c); NULL: off */
    const struct network *net;
    struct sim_driver drv;
    struct sim_hooks hooks; /* the front end's (sim_set_hooks) */
    int32_t nranks;
    struct srank *ranks;
    bool node_blocks;              /* a block placement: a rank's node is rank / ranks_per_node */
    struct divisor ranks_per_node; /* (sim_node) */
    struct comm world;
    struct pool req_pool;
    enum sim_status status;
    int64_t abandoned_requests;     /* still outstanding when their rank finished */
    int32_t finished;               /* ranks that finished */
    struct contention *cont;        /* NULL: transfers do not contend */
    struct busy_list **copies;      /* per rank, its core's copies inside its node, once it has
                                       one (copies.h); NULL unless copies are serial */
    struct sim_net_stats net_stats; /* but transfer_seconds: */
    simtime_t net_transfer;         /* summed send-to-receipt times of messages between nodes, */
    simtime_t net_early;            /* and their parts before the receive was posted */
    struct rma_sync *rma_syncs;     /* one-sided synchronisation per window (rma.c) */
    const struct sim_observer *obs; /* NULL unless the run is analysed */
    simtime_t *overlap_mark;        /* with obs, per rank: the computation total up to which
                                       overlap was credited (observe.c) */
    struct recorder *rec;           /* NULL unless the run is recorded (record.c) */
    struct sim_jobs jobs;
    struct sim_comms comms;
    struct sim_colls colls;
    struct sim_outcome out;
    struct sim_split split;
    struct sim_cpu cpu;
    struct sim_nics nic;
    struct sim_upcalls up;
    struct sim_xfers xf;
    struct sim_ids idx;
    struct sim_io io;
    struct sim_lands land;
    struct sim_faults flt;
};

/* Event kinds, in the order a rank's events at one time run: the messages
 * arriving then meet its receives before it wakes up (whoever scheduled
 * them first, so that a split engine keeps the order). EV_NET is the
 * contention model's, or the interfaces' (nics.c: a clear-to-send reaching
 * a rank, or, for no rank, a window's start); EV_LAND a front end's
 * message taking effect at the rank (land.c), before it wakes. */
/* EV_FAULT (fault.c) is the platform's faults taking effect, scheduled
 * on rank 0's slot so that a fault at t comes before anything else at t. */
enum { EV_FAULT = 0, EV_ANY = 1, EV_NET = 2, EV_RECV = 3, EV_LAND = 4, EV_WAKE = 5 };
/* `mode` of a receive request that is a probe (MPI_Probe) */
#define PROBE_MODE 7

static inline simtime_t sim_max(simtime_t a, simtime_t b) {
    return a > b ? a : b;
}

/* The layers of the MPI layer, bottom up (docs/architecture.md, "The MPI
 * layer's layers"); a file calls only into its own layer and those below,
 * and hears from those above through the hooks they set in struct sim. */

/* status.c: the run's status and failure report */
void sim_report_append(struct sim *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* request.c: requests' life, the index by id, ranks' wake-ups */
/* `at` is the virtual post time: now for user calls, possibly later for
 * collective schedules (see sched.c). */
struct request *request_new(struct sim *s, int32_t rank, uint32_t ctx, int kind, int32_t tag,
                            int64_t size, simtime_t at);
/* The same for a request of another worker's rank (a split run's stand-in
 * for a send, part.c): its rank's entry of the rank table is not read. */
struct request *request_new_standin(struct sim *s, int32_t rank, uint32_t ctx, int kind,
                                    int32_t tag, int64_t size, simtime_t at);
/* The request's completion time is known: its schedule or its owner's
 * wait hears of it (sim.up's sub_resolved, waited_resolved). */
void request_resolve(struct sim *s, struct request *r, simtime_t done, simtime_t partner_time);
void request_track(struct sim *s, struct request *r, int32_t user_id);
/* Removes r from its owner's index of requests by id (when it leaves the
 * outstanding list). */
void request_untrack(struct sim *s, struct request *r);
/* Nobody will wait for r any more: freed once nothing else refers to it. */
void request_release(struct sim *s, struct request *r);
void request_maybe_free(struct sim *s, struct request *r);
/* The next request of rank's current wait after q (the first: q NULL),
 * counting in *seen those met; NULL once all me->nwaited are met, so a
 * scan stops at the last of them (usually the newest requests) however
 * many others the rank has left outstanding. */
struct request *wait_next(const struct srank *me, const struct request *q, uint32_t *seen);
void sim_wake_at(struct sim *s, int32_t rank, simtime_t t);
/* A rank's first wake-up, at 0: its entry of the rank table is written
 * here, in the worker that runs it only (the others' pages stay untouched). */
void sim_rank_start(struct sim *s, int32_t rank);

/* membw.c: bursts sharing their node's memory bandwidth (platform memory:). */
void membw_init(struct sim *s);
void membw_free(struct sim *s);
/* rank computes from now a burst that takes duration alone */
void membw_start(struct sim *s, int32_t rank, simtime_t duration);
/* At its wake: whether rank was computing a burst (then *begin: its start). */
bool membw_end(struct sim *s, int32_t rank, simtime_t *begin);
/* Transfers: the data of a message in flight, under a contention model
 * or through the interfaces (struct xfer); index 0 is never used. Free
 * ids wait on a stack, the last freed taken first; a transfer freed long
 * before is likely a cache miss, so the one four turns ahead is asked for
 * (the stack knows it without touching the transfers). Inline: an eager
 * message between nodes takes one. */
/* An id never used yet (none is free), the table grown if it must. */
uint32_t transfer_fresh_id(struct sim *s);
/* A new transfer (xfers[id]): its times unknown, its ranks -1. */
static inline uint32_t transfer_new(struct sim *s) {
    uint32_t id;
    if (!s->xf.nfree) {
        id = transfer_fresh_id(s);
    } else {
        id = s->xf.stack[--s->xf.nfree];
        if (s->xf.nfree >= 4)
            cache_prefetch_object(&s->xf.table[s->xf.stack[s->xf.nfree - 4]], sizeof *s->xf.table);
    }
    s->xf.table[id] = (struct xfer){.arrival = SIMTIME_NEVER, .from = -1, .to = -1};
    return id;
}
/* Its end: the id is free again. */
void transfer_free(struct sim *s, uint32_t id);

/* comm.c */
struct comm *sim_comm_get(const struct sim *s, int32_t rank, int32_t id, int32_t *myrank);
static inline int32_t comm_world_rank(const struct comm *c, int32_t r) {
    return c->world ? c->world[r] : r;
}
uint32_t *comm_coll_seq(struct sim *s, struct comm *c, int32_t world_rank, int32_t myrank);
void comm_free_all(struct sim *s);
/* The communicator whose point-to-point context is ctx, or NULL. */
struct comm *comm_by_context(struct sim *s, uint32_t ctx);
void split_contribute(struct sim *s, struct comm *parent, int32_t myrank, int32_t color,
                      int32_t key, int32_t new_id, uint32_t seq);
/* The joining of a communicator being made, by one of its ranks (the
 * calls of sim.h's, in comm_calls.c, record them and charge their cost):
 * a split (or dup) of comm_id, returning the parent, the rank's place in
 * it and the split's number; MPI_COMM_SELF; MPI_Comm_create_group,
 * returning the new communicator and the rank's place; an intercommunicator. */
struct comm *comm_split_join(struct sim *s, int32_t rank, int32_t comm_id, int32_t color,
                             int32_t key, int32_t new_id, int32_t *me, uint32_t *seq);
void comm_self_make(struct sim *s, int32_t rank, int32_t id);
struct comm *comm_group_join(struct sim *s, int32_t rank, int32_t comm_id, const int32_t *world,
                             int32_t n, int32_t tag, int32_t new_id, int32_t *mine);
void comm_inter_join(struct sim *s, int32_t rank, const int32_t *local, int32_t nl,
                     const int32_t *remote, int32_t nr, int32_t tag, int32_t new_id);
/* A split run: the context of a communicator made by a split (from its
 * parent's, the split's number and the color), and of one made from
 * groups (MPI_Comm_create_group, an intercommunicator: from `key`, the
 * groups hashed with comm_members_hash and the tag, and how many times
 * this worker made one with that key on that parent before; the members
 * call in the same order, so every worker counts alike). The same in
 * every worker, whatever order they build them in. */
uint32_t comm_drawn_context(struct sim *s, uint32_t parent_ctx, uint32_t seq, int32_t color);
uint64_t comm_members_hash(uint64_t h, const int32_t *world, int32_t n);
uint32_t comm_made_context(struct sim *s, uint32_t parent_ctx, uint64_t key);

/* The node of a rank (its placement's, computed: a table of every rank's
 * node would be a table of the whole run in each worker of a split run). */
static inline int32_t sim_node(const struct sim *s, int32_t rank) {
    return s->node_blocks ? (int32_t)divisor_apply(&s->ranks_per_node, (uint32_t)rank)
                          : platform_node_of(s->plat, rank);
}

#endif
