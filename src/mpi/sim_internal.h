/* SPDX-License-Identifier: BSD-3-Clause */
/* Internal structures of the MPI semantics layer, shared by its files only
 * (sim.c, comm.c, pt2pt.c, wait.c, sched.c, rma.c, io.c, coll/). */
#ifndef SIMPI_SIM_INTERNAL_H
#define SIMPI_SIM_INTERNAL_H

#include "core/divide.h"
#include "core/engine.h"
#include "core/heap.h"
#include "core/pool.h"
#include "core/prefetch.h"
#include "mpi/coll/coll.h"
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

/* The interfaces' costs of a transfer: its uncontended cost T(S) and the
 * time each side carries the data. */
struct nic_cost {
    simtime_t cost, wire_out, wire_in;
};

/* Rendezvous transfers waiting for their clear-to-send to reach the
 * sender (nics.c), a queue by (at, order: the sending rank, then its
 * count); a node's list of data waiting for its ejection side (struct
 * nic_ejections) holds the same entries. Entries mostly come in a few sorted
 * sequences (ranks sending in the engine's order: one per distinct `at`,
 * e.g. per rank's place in its node's injection order): those wait in up to
 * NIC_RUNS sorted runs, the others in a heap; the first of all goes first. */
struct nic_entry {
    simtime_t at;
    uint64_t order;
    uint32_t id;
};
#define NIC_RUNS 16
#define NIC_AT_HINTS 64
struct nic_run {
    struct nic_entry *e; /* e[head..tail), sorted */
    size_t head, tail, cap;
    simtime_t last_at;   /* the last entry's key (head < tail): whether the next */
    uint64_t last_order; /* goes after it, read without its line */
};
struct nic_heap {
    struct nic_entry *e; /* the heap */
    size_t n, cap;
    size_t size; /* entries in all */
    struct nic_run run[NIC_RUNS];
    /* a winner tree over the runs' first entries: win[i] (1 <= i <
     * NIC_RUNS) is the run whose first entry comes first in node i's
     * subtree, empty runs last; win[NIC_RUNS + r] is leaf r, run r; the
     * first entries' keys kept here (an empty run's: the largest) */
    uint8_t win[2 * NIC_RUNS];
    simtime_t first_at[NIC_RUNS];
    uint64_t first_order[NIC_RUNS];
    /* by the hash of a time, the run (+ 1) an entry of that time last went
     * to: the first tried for the next (entries of one time go to one run) */
    uint8_t run_of_at[NIC_AT_HINTS];
};

/* Data waiting for their window at their destination node's ejection
 * side (nics.c): per node a list in (at, order) order; the nodes
 * registered by when the first of their list is due. Only the order of one
 * node's data matters: what one node's ejection side does does not depend
 * on another's (as a split run, whose workers take their nodes' data each
 * in their own order, shows). */
struct nic_due {
    simtime_t due; /* when the first of its list is due (eject_due), when registered */
    int32_t node;
};
/* The nodes registered for one due time, in the order they were; a due
 * time's slot is its window's number modulo NIC_SLOTS. */
#define NIC_SLOTS 64
struct nic_slot {
    simtime_t due;
    int32_t *nodes;
    uint32_t n, cap;
};
struct nic_ejections {
    struct nic_run *list; /* per node (a rank table) */
    int32_t *with_room;   /* the nodes whose list has room allocated */
    size_t nwith_room, with_room_cap;
    /* the nodes by when the first of their list is due (some registrations
     * are stale): in the slot of that time, else (another time holds the
     * slot) in a heap of struct nic_due by (due, node) */
    struct nic_slot slot[NIC_SLOTS];
    struct heap due;
    uint32_t *batch; /* the transfers one window takes, in order */
    size_t nbatch, batch_cap;
};

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
    struct rank_rare *rare;      /* NULL until needed */
    struct rank_stats st;        /* its received counts first */
    struct request *outstanding; /* user-visible requests not yet released */
    struct busy_list *copies;    /* its core's copies inside its node (pt2pt.c), once it has one */
    simtime_t wait_start, wake_at;
    simtime_t overlap_mark; /* computation total up to which overlap was credited */
    simtime_t wait_last;    /* a wait for all: the latest done time of its resolved requests */
    uint32_t wait_left;     /* and how many are not resolved (wait.c) */
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

/* Serial interfaces (network.interfaces, net/interfaces.h; nics.c). */
struct sim_nics {
    struct interfaces *model; /* NULL when unlimited, or with a contention model */
    struct nic_heap cts;      /* rendezvous data waiting for their clear-to-send */
    struct nic_ejections ejq; /* data waiting for their window at the ejection side */
    simtime_t window;         /* the interfaces' lookahead (network_lookahead); 0: none */
    simtime_t batch_at;       /* the next window start with data to take in */
    uint32_t batch_gen;       /* and its event's generation */
    /* the last size's costs between two nodes of a flat network, which
     * depend on the size alone (nics_set_costs) */
    struct {
        bool known;
        int64_t size;
        struct nic_cost c;
    } costs;
    /* with faults (which change routes over time): the costs of rendezvous
     * transfers, by id, from their match to their injection */
    struct nic_cost *match_costs;
    uint32_t match_costs_cap;
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
    struct sim_net_stats net_stats; /* but transfer_seconds: */
    simtime_t net_transfer;         /* summed send-to-receipt times of messages between nodes */
    struct rma_sync *rma_syncs;     /* one-sided synchronisation per window (rma.c) */
    const struct sim_observer *obs; /* NULL unless the run is analysed */
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

/* pt2pt.c: internal send/receive used by user calls and schedules */
struct request *pt2pt_post_send(struct sim *s, int32_t rank, struct comm *c, int32_t myrank,
                                uint32_t ctx, int32_t dest, int32_t tag, int64_t size,
                                enum send_mode mode, struct sched *owner, simtime_t at,
                                const void *buf);
struct request *pt2pt_post_recv(struct sim *s, int32_t rank, struct comm *c, uint32_t ctx,
                                int32_t source, int32_t tag, int64_t size, struct sched *owner,
                                simtime_t at, struct sim_recv_target *target);
/* Frees the payloads of messages never received (at the end of a run). */
void pt2pt_free_payloads(struct sim *s);
/* A rank's any-source receive decides: the earliest candidate has arrived. */
void pt2pt_any_event(void *ctx, const struct event *ev);
/* The contention model's hook: transfer (index) `arg` has arrived. */
void pt2pt_transfer_done(void *ctx, void *arg);
/* A stand-in for a send of another worker (part.c) meets its receiver's
 * queues, as the send would have when posted. */
void pt2pt_accept_remote(struct sim *s, struct request *proxy);
/* Whether a send is done when posted and nothing about its receipt matters
 * to its sender (an eager standard or ready send): a split run then sends
 * no update back. */
bool pt2pt_done_at_post(const struct sim *s, const struct request *send);
/* The sender's worker learns what became of its send r on the receiver's. */
void pt2pt_remote_update(struct sim *s, struct request *r, uint8_t flags, simtime_t done,
                         simtime_t partner);
/* The completion of a matched transfer whose data have arrived (at its
 * `arrival`), which frees it (sim.up.transfer_arrived); with a
 * receive overhead, once the receiver's CPU takes it (EV_RECV:
 * pt2pt_recv_event). */
void pt2pt_finish_transfer(struct sim *s, uint32_t id);
void pt2pt_recv_event(void *ctx, const struct event *ev);
void pt2pt_init(struct sim *s);

/* land.c */
/* EV_LAND: the least landing takes effect. */
void land_event(void *ctx, const struct event *ev);
void land_init(struct sim *s);
/* Whose a landing is: the front end's (sim_land), or the MPI layer's
 * shared storage (io.c: a request reaching its server, the reply). */
enum {
    LAND_FRONT,
    LAND_STORAGE_REQUEST,
    LAND_STORAGE_REPLY,
    LAND_CANCEL_REQUEST,
    LAND_CANCEL_REPLY,
    LAND_RMA_TARGET,   /* replay: an operation's target side (rma.c) */
    LAND_RMA_LOCK,     /* one-sided synchronisation (rma.c): a lock request, */
    LAND_RMA_GRANT,    /* its grant, */
    LAND_RMA_RELEASE,  /* an unlock, */
    LAND_RMA_POST,     /* a post, */
    LAND_RMA_COMPLETE, /* a complete */
};
void land_post(struct sim *s, int32_t origin, int32_t target, simtime_t at, uint8_t kind,
               const struct sim_piece *pieces, int n);
/* pt2pt.c: a cancellation's landing (a send's, at its receiver, and the
 * answer) takes effect at rank target. */
void pt2pt_cancel_land(struct sim *s, uint8_t kind, int32_t target, const void *msg, uint32_t len);
/* io.c: a storage landing takes effect at rank target. */
void io_land(struct sim *s, uint8_t kind, int32_t target, int32_t origin, const void *msg,
             uint32_t len);
/* A landing that crossed from another worker (part.c), with its origin's count. */
void land_accept(struct sim *s, int32_t origin, int32_t target, simtime_t at, uint32_t seq,
                 uint8_t kind, const void *msg, uint32_t len);
void land_free_all(struct sim *s);

/* A member's arrival at a collective of Dimemas' analytic model (analytic.c). */
struct an_arrival {
    uint32_t ctx, tag;
    int32_t myrank, root, world;
    uint8_t kind;
    int64_t m, sr; /* max(sent, received) and sent + received */
    simtime_t at;
};

/* What the layers below a split run's partition hand to it (part.c sets
 * sim.split.cross): the crossings of docs/parallel.md's table. A send
 * posted to a rank of another worker (its envelope goes there); a
 * stand-in's state back to its sender (freed once nothing more can
 * change); a message of another worker's rank matched here; the
 * interfaces' clear-to-send for the sender's worker and first byte for
 * the receiver's; a landing for a rank of another worker. */
struct cross_ops {
    void (*envelope)(struct sim *s, struct request *send);
    void (*settle)(struct sim *s, struct request *proxy);
    void (*count_sent)(struct sim *s, int32_t rank, int64_t size);
    void (*clear_to_send)(struct sim *s, uint32_t id, simtime_t cleared);
    void (*eject)(struct sim *s, const struct xfer *x);
    void (*land)(struct sim *s, int32_t origin, int32_t target, simtime_t at, uint32_t seq,
                 uint8_t kind, const struct sim_piece *pieces, int n);
    /* a member's arrival at an analytic collective, for the workers that
     * hold the communicator's other members */
    void (*analytic)(struct sim *s, const struct comm *c, const struct an_arrival *a);
};

/* analytic.c: another worker's member arrived (part.c). */
void analytic_arrive(struct sim *s, struct comm *c, const struct an_arrival *a);

/* The node of a rank (its placement's, computed: a table of every rank's
 * node would be a table of the whole run in each worker of a split run). */
static inline int32_t sim_node(const struct sim *s, int32_t rank) {
    return s->node_blocks ? (int32_t)divisor_apply(&s->ranks_per_node, (uint32_t)rank)
                          : platform_node_of(s->plat, rank);
}

/* part.c: a split run (docs/parallel.md) */
/* The worker that runs a node's ranks (0 unless the run is split): blocks
 * of the used nodes, worker j having [j U / K, (j + 1) U / K), or nodes dealt
 * in turn; nodes past the used ones go to the last worker. */
static inline int32_t sim_worker_of_node(const struct sim *s, int64_t node) {
    int64_t k = s->split.workers, used = s->split.used;
    if (k == 0) return 0;
    if (node >= used) return (int32_t)(k - 1);
    return (int32_t)(s->split.cyclic ? node % k : ((node + 1) * k - 1) / used);
}
/* Whether a node's ranks run in this worker (always, unless the run is split). */
static inline bool sim_node_here(const struct sim *s, int64_t node) {
    if (s->split.workers == 0) return true;
    if (!s->split.cyclic) return node >= s->split.local_first && node < s->split.local_end;
    return sim_worker_of_node(s, node) == s->split.me;
}
/* Whether rank runs in this worker (always, unless the run is split). */
static inline bool sim_local(const struct sim *s, int32_t rank) {
    return s->split.workers == 0 || sim_node_here(s, sim_node(s, rank));
}
/* Whether this is the worker that reports (always, unless the run is split). */
static inline bool part_first(const struct sim *s) {
    return s->split.me == 0;
}
/* Runs a split run's windows until no worker has anything left. */
void part_run(struct sim *s);
void part_free(struct sim *s);
/* A rank's part in a split of parent, for the other workers, which build
 * the same communicators. */
void part_post_split(struct sim *s, struct comm *parent, int32_t myrank, int32_t color, int32_t key,
                     int32_t new_id, uint32_t seq);
/* Makes s one worker of a split run; false (err set) for a model that cannot
 * be split. */
struct workers;
bool part_setup(struct sim *s, struct workers *w, enum sim_placement placement,
                struct sim_error *err);

/* nics.c */
void nics_init(struct sim *s);
/* EV_NET with serial interfaces: a clear-to-send reaching a rank, or a window's start. */
void nics_event(void *ctx, const struct event *ev);
void nics_destroy(struct sim *s);
/* A new eager transfer through the interfaces, its costs set. */
uint32_t nics_eager_xfer(struct sim *s, int32_t from, int32_t to, int64_t size, uint32_t seq);
/* An eager send through the interfaces, when posted. */
void nics_send_eager(struct sim *s, struct request *send);
/* A matched rendezvous transfer (recv and from set) of `size` bytes, the
 * sender's message number seq, whose clear-to-send reaches its sender at
 * `cleared`. */
void nics_clear_to_send(struct sim *s, uint32_t id, int64_t size, uint32_t seq, simtime_t cleared);
/* A rendezvous transfer of `size` bytes from x->from to x->to (the
 * sender's side, where it is injected), the sender's message number seq. */
void nics_set_size(struct xfer *x, int64_t size, uint32_t seq);
/* A transfer whose first byte (x->at) is known heads for the ejection side. */
void nics_toward_ejection(struct sim *s, uint32_t id);
/* A clear-to-send reaching the sender (here) at `cleared`. */
void nics_expect_clear_to_send(struct sim *s, uint32_t id, simtime_t cleared);
int64_t pt2pt_unmatched(const struct sim *s);
/* At the run's end: the messages sent but never received count as their
 * senders' (sent, unlike received, they were). */
void pt2pt_count_unmatched_sent(struct sim *s);

/* observe.c: what the observer is told */
/* A wait completes now (before its requests are released); chosen: the
 * request a waitany completes. */
void observe_wait(struct sim *s, int32_t rank, const struct request *chosen, simtime_t sync_loss);
/* A test found q complete. */
void observe_test(struct sim *s, int32_t rank, const struct request *q);
/* recv, matched, receives its data at precv from a send posted at lsend. */
void observe_message(struct sim *s, const struct request *recv, simtime_t lsend, simtime_t precv);

/* record.c: each called only when s->rec is set */
void record_skip(struct sim *s, const char *what);
void record_compute(struct sim *s, int32_t rank, simtime_t duration);
/* A signal with the id sim_find_request knows it by (-1: none). */
struct request *signal_new_id(struct sim *s, int32_t rank, int32_t peer, const char *what,
                              int32_t id);
/* rma_put|rma_get TARGET SIZE comm=C req=N (the origin's side) */
void record_rma(struct sim *s, struct request *r, int32_t comm_id, int32_t target, int64_t size,
                int kind);
void rma_land(struct sim *s, int32_t target, const void *msg, uint32_t len);
void rma_sync_land(struct sim *s, uint8_t kind, int32_t target, const void *msg, uint32_t len);
/* rma_lock, rma_unlock, rma_grants, rma_post, rma_complete, rma_start,
 * rma_wait records (rma.c's synchronisation) */
void record_rma_sync(struct sim *s, int32_t rank, int32_t comm_id, int kind, int32_t peer,
                     bool exclusive, const int32_t *group, int n);
/* file_io BYTES req=N (its wait records follow), round_trip PEER */
void record_io(struct sim *s, struct request *r, int64_t bytes);
void record_round_trip(struct sim *s, int32_t rank, int32_t peer);
void record_p2p(struct sim *s, struct request *r, int32_t comm_id, int32_t peer, int32_t tag,
                int64_t size, bool send, enum send_mode mode);
void record_coll(struct sim *s, struct request *r, int32_t comm_id, enum coll_kind kind,
                 int64_t size, int32_t root, const struct sched_counts *v, bool nonblocking);
void record_wait(struct sim *s, int32_t rank, struct request **reqs, int n, bool any);
void record_test(struct sim *s, int32_t rank, const struct request *req);
void record_cancel(struct sim *s, int32_t rank, const struct request *req);
void record_free(struct sim *s, int32_t rank, const struct request *req);
void record_comm(struct sim *s, int32_t rank, int32_t parent, int32_t color, int32_t key,
                 int32_t new_id, bool dup);
void record_comm_self(struct sim *s, int32_t rank, int32_t id);
void record_buffer(struct sim *s, int32_t rank, int64_t size);
/* A split run: the operations a trace could not express, here, and those
 * of the other workers, counted in by the first. */
int64_t record_skipped(const struct sim *s);
void record_skipped_elsewhere(struct sim *s, int64_t n);
void record_interval(struct sim *s, int32_t rank, const char *name);

/* fault.c: the platform's faults (docs/faults.md) */
bool fault_setup(struct sim *s, struct sim_error *err);
/* ULFM runs: fails the waits that can no longer complete; true if any did. */
bool fault_quiesce(struct sim *s);
/* A request that a wait or test ends: noted if it failed. */
void fault_note_done(struct sim *s, const struct request *r);
/* Ends an unresolved request as failed if it involves a failed rank (a
 * receive from it, a send to it, a collective with it); quiet: nothing
 * else can move, so any-source receives fail too. True if it did. */
bool fault_fail_request(struct sim *s, struct request *q, bool quiet);
/* A message from rank `from` to `to` finds no route (faults cut the
 * network): the run stops with a partition report; true if it did. */
bool fault_partitioned(struct sim *s, int32_t from, int32_t to);
/* Whether a member of communicator c has failed. */
bool fault_comm_has_failed(const struct sim *s, const struct comm *c);
/* A request of rank that failed at once (an operation with a failed rank). */
struct request *fault_failed_request(struct sim *s, int32_t rank, int kind);
/* pt2pt.c: a posted receive withdrawn and ended as failed (now). */
void pt2pt_fail_recv(struct sim *s, struct request *r);
/* sched.c: a collective whose communicator has a failed member ends as
 * failed (its schedule runs on without it); false if none failed. */
bool sched_fail(struct sim *s, struct request *req);

/* wait.c */
void wait_recheck(struct sim *s, int32_t rank);
/* Request r, part of its owner's current wait, is resolved (sim.up's
 * waited_resolved). */
void wait_resolved(struct sim *s, const struct request *r);
void wait_complete(struct sim *s, int32_t rank);
void wait_describe(struct sim *s, int32_t rank);
/* Its requests not complete (at most max), each after "; ". */
void wait_describe_outstanding(struct sim *s, int32_t rank, int max);
/* deadlock.c: what blocked rank waits for, as wait_describe writes it (a
 * malloc'd string) */
char *deadlock_describe(struct sim *s, int32_t rank);
/* The first worker of a split run: another worker's blocked rank at the
 * end, as that worker described it (text) and the ranks it waits for. */
void deadlock_note_elsewhere(struct sim *s, int32_t rank, const int32_t *targets, int n,
                             const char *text, size_t len);
void deadlock_free(struct sim *s);
/* The world ranks a blocked rank waits for (any-source receives excluded). */
int wait_targets(struct sim *s, int32_t rank, int32_t *out, int max);

/* io.c */
void io_free_all(struct sim *s);
void rma_free_all(struct sim *s);

/* deadlock.c */
void report_deadlock(struct sim *s);

/* sched.c */
struct request *sched_start(struct sim *s, int32_t rank, struct comm *c, int32_t myrank,
                            enum coll_kind kind, int64_t size, int32_t root,
                            const struct sched_counts *v, bool nonblocking);
void sched_notify(struct sim *s, struct sched *sc, simtime_t done);
/* Advances every schedule whose round completed; call after each event. */
void sched_drain(struct sim *s);
void sched_describe(struct sim *s, struct sched *sc);
int sched_targets(const struct sched *sc, int32_t *out, int max);
/* Reads the platform's mpi.coll map (an algorithm forced per operation). */
bool sched_read_forced(struct sim *s, struct sim_error *err);
/* The analytic model (analytic.c): registers req, this member's part of
 * collective `tag` on c; completes every member once all have arrived. */
struct request *analytic_start(struct sim *s, struct request *req, struct comm *c, int32_t myrank,
                               enum coll_kind kind, int64_t size, int32_t root, uint32_t tag);
void analytic_free_all(struct sim *s);
/* Frees the variable counts of schedules a stopped run left unfinished. */
void sched_free_all_counts(struct sim *s);
/* Marks a step of sc with the collective it belongs to (`coll`) and the
 * collective's root (`user_id`): what the mismatch check compares, even
 * once the step has left its schedule. */
void sched_mark(const struct sched *sc, struct request *step);
/* Whether the schedules of a matched collective message are the same
 * operation (and root); if not, stops the run with a mismatch report. */
bool sched_check_partner(struct sim *s, const struct request *send, const struct request *recv);

#endif
