/* SPDX-License-Identifier: BSD-3-Clause */
/* Writing any trace simpi reads as an OTF2 archive (`simpi convert --to
 * otf2`), laid out as Score-P lays out MPI traces, so that Vampir, the OTF2
 * tools and simpi's own reader (trace_otf2.c) read it: one location group
 * "MPI Rank R" per rank with its "Master thread", the MPI COMM_LOCATIONS
 * group, MPI_COMM_WORLD and MPI_COMM_SELF, a region per MPI call, and the
 * MPI records of each call. A computation advances the rank's clock by its
 * duration (picosecond ticks); MPI calls take no time (a replay recomputes
 * them). Intervals become user regions. What OTF2 or this writer cannot
 * hold (communicators other than the world and self, computations given in
 * flops, receives from any source, waitany, one-sided and file records)
 * stops the conversion naming the record. */
#include <errno.h>
#include <otf2/otf2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "replay/trace_internal.h"
#include "replay/trace_otf2.h"
#include "replay/trace_write.h"
#include "report/otf2out.h"

#define COMM_WORLD_REF 0
#define COMM_SELF_REF 1

/* A request in flight on a rank: what its completion record needs. */
struct wreq {
    uint64_t otf2_id;
    struct trace_rec rec; /* its start (ids and counts not kept) */
    bool used, cancelled;
};

#define WINDOW_WORDS 1024 /* communicators that may hold a window: 64 a word */

struct wlock {
    uint64_t id;
    uint32_t comm;
    int32_t peer;
    bool asked, granted, exclusive;
};

struct otf2_writer {
    struct trace_reader *t;
    struct otf2_comms *comms;
    bool io;                        /* a file access was written: its handle is defined */
    uint64_t windows[WINDOW_WORDS]; /* the communicators with a window (one-sided records) */
    struct wlock *locks;            /* the rank's */
    int32_t nlocks;
    struct sim_error *err;
    OTF2_Archive *archive;
    OTF2_EvtWriter *w;
    int32_t rank, nranks;
    uint64_t now, next_req, last;
    struct wreq *reqs;
    int32_t nreqs;
    char **names; /* region names; the region's ref is the index */
    uint8_t *user;
    int32_t nnames;
};

/* The region named name (user: an interval's), defined on first use. */
static OTF2_RegionRef region(struct otf2_writer *w, const char *name, bool user) {
    for (int32_t i = 0; i < w->nnames; i++)
        if (w->user[i] == user && !strcmp(w->names[i], name)) return (OTF2_RegionRef)i;
    w->names = xrealloc_or_die(w->names, sizeof *w->names * (size_t)(w->nnames + 1));
    w->user = xrealloc_or_die(w->user, (size_t)(w->nnames + 1));
    w->names[w->nnames] = xstrdup(name);
    w->user[w->nnames] = user;
    return (OTF2_RegionRef)w->nnames++;
}

static struct wreq *req_slot(struct otf2_writer *w, int32_t id) {
    if (id >= w->nreqs) {
        int32_t n = id + 16;
        w->reqs = xrealloc_or_die(w->reqs, sizeof *w->reqs * (size_t)n);
        memset(w->reqs + w->nreqs, 0, sizeof *w->reqs * (size_t)(n - w->nreqs));
        w->nreqs = n;
    }
    return &w->reqs[id];
}

/* OTF2's reference of resolved communicator g: the world 0, self 1, the
 * others after them. */
static uint32_t ref_of(int32_t g) {
    return g == OTF2_COMM_SELF_GLOBAL ? COMM_SELF_REF : g == 0 ? COMM_WORLD_REF : (uint32_t)g + 1;
}

static uint32_t comm_ref_of(struct otf2_writer *w, const struct trace_rec *r, int32_t local,
                            bool *ok) {
    int32_t g = otf2_comms_lookup(w->comms, w->rank, local);
    if (g == -1) *ok = trace_rec_fail(w->t, r, w->err, "communicator %d was never made", local);
    return ref_of(g);
}

static uint32_t comm_ref(struct otf2_writer *w, const struct trace_rec *r, bool *ok) {
    uint32_t c = comm_ref_of(w, r, r->comm, ok);
    if (*ok && c >= 64 * WINDOW_WORDS)
        *ok = trace_rec_fail(w->t, r, w->err, "more communicators than the OTF2 writer holds");
    return c;
}

/* The rank's lock of member peer of the window of communicator comm. */
static struct wlock *lock_slot(struct otf2_writer *w, uint32_t comm, int32_t peer) {
    for (int32_t i = 0; i < w->nlocks; i++)
        if (w->locks[i].comm == comm && w->locks[i].peer == peer) return &w->locks[i];
    w->locks = xrealloc_or_die(w->locks, sizeof *w->locks * (size_t)(w->nlocks + 1));
    w->locks[w->nlocks] = (struct wlock){0, comm, peer, false, false, false};
    return &w->locks[w->nlocks++];
}

/* Score-P's byte counts of a collective of block b (the forms that are not
 * in place; trace_otf2.c reads them back). */
static void coll_bytes(const struct trace_rec *r, int64_t n, int64_t me, uint64_t *s, uint64_t *v) {
    uint64_t b = (uint64_t)(r->size > 0 ? r->size : 0), un = (uint64_t)n;
    bool root = me == r->root;
    *s = *v = un * b;
    switch ((enum coll_kind)r->coll) {
    case COLL_BARRIER:
        *s = *v = 0;
        break;
    case COLL_BCAST:
    case COLL_SCATTER:
        *s = root ? un * b : 0, *v = b;
        break;
    case COLL_REDUCE:
    case COLL_GATHER:
        *s = b, *v = root ? un * b : 0;
        break;
    case COLL_SCAN:
        *s = (uint64_t)(n - me) * b, *v = (uint64_t)(me + 1) * b;
        break;
    case COLL_EXSCAN:
        *s = (uint64_t)(n - me - 1) * b, *v = (uint64_t)me * b;
        break;
    default:
        break;
    }
    if ((r->mode & 4) && r->counts) { /* v forms: the rank's totals */
        uint64_t ts = 0, tv = 0;
        for (int32_t i = 0; i < r->ncounts; i++)
            ts += (uint64_t)r->counts[i], tv += (uint64_t)r->counts[r->ncounts + i];
        if (r->mode & 1) *s = ts;
        if (r->mode & 2) *v = tv;
    }
}

static OTF2_CollectiveOp coll_op(const struct trace_rec *r) {
    static const OTF2_CollectiveOp plain[COLL_KINDS] = {OTF2_COLLECTIVE_OP_BARRIER,
                                                        OTF2_COLLECTIVE_OP_BCAST,
                                                        OTF2_COLLECTIVE_OP_REDUCE,
                                                        OTF2_COLLECTIVE_OP_ALLREDUCE,
                                                        OTF2_COLLECTIVE_OP_GATHER,
                                                        OTF2_COLLECTIVE_OP_SCATTER,
                                                        OTF2_COLLECTIVE_OP_ALLGATHER,
                                                        OTF2_COLLECTIVE_OP_ALLTOALL,
                                                        OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK,
                                                        OTF2_COLLECTIVE_OP_SCAN,
                                                        OTF2_COLLECTIVE_OP_EXSCAN};
    static const OTF2_CollectiveOp v[COLL_KINDS] = {
        [COLL_GATHER] = OTF2_COLLECTIVE_OP_GATHERV,
        [COLL_SCATTER] = OTF2_COLLECTIVE_OP_SCATTERV,
        [COLL_ALLGATHER] = OTF2_COLLECTIVE_OP_ALLGATHERV,
        [COLL_ALLTOALL] = OTF2_COLLECTIVE_OP_ALLTOALLV,
        [COLL_REDUCE_SCATTER] = OTF2_COLLECTIVE_OP_REDUCE_SCATTER};
    return (r->mode & 4) && v[r->coll] ? v[r->coll] : plain[r->coll];
}

/* MPI_Allreduce, MPI_Iallreduce, MPI_Gatherv, MPI_Reduce_scatter_block... */
static void coll_region_name(const struct trace_rec *r, char *out, size_t n) {
    const char *base = sim_coll_name((enum coll_kind)r->coll);
    bool v = (r->mode & 4) != 0;
    bool block = r->coll == COLL_REDUCE_SCATTER && !v;
    snprintf(out, n, "MPI_%s%c%s%s%s", r->op == TOP_ICOLL ? "I" : "",
             r->op == TOP_ICOLL ? base[0] : base[0] - 'a' + 'A', base + 1, v ? "v" : "",
             block ? "_block" : "");
}

static void enter(struct otf2_writer *w, const char *name) {
    OTF2_EvtWriter_Enter(w->w, NULL, w->now, region(w, name, false));
}

static void leave(struct otf2_writer *w, const char *name) {
    OTF2_EvtWriter_Leave(w->w, NULL, w->now, region(w, name, false));
}

static int64_t comm_size_of(struct otf2_writer *w, uint32_t ref) {
    if (ref == COMM_SELF_REF) return 1;
    if (ref == COMM_WORLD_REF) return w->nranks;
    int32_t n, parent;
    otf2_comms_members(w->comms, (int32_t)ref - 1, &n, &parent);
    return n;
}

/* The rank's place in communicator ref. */
static int64_t comm_place(struct otf2_writer *w, uint32_t ref) {
    if (ref == COMM_SELF_REF) return 0;
    if (ref == COMM_WORLD_REF) return w->rank;
    int32_t n, parent;
    const int32_t *m = otf2_comms_members(w->comms, (int32_t)ref - 1, &n, &parent);
    for (int32_t i = 0; i < n; i++)
        if (m[i] == w->rank) return i;
    return 0;
}

/* MPI_Comm_split, MPI_Comm_dup: the exchange over the parent, as Score-P
 * records it (a comm_define is not charged: no call). */
static bool write_creation(struct otf2_writer *w, const struct trace_rec *r) {
    if (r->op == TOP_COMM_SPLIT && (r->mode & 1)) return true;
    bool ok = true;
    uint32_t parent = comm_ref(w, r, &ok);
    if (!ok) return false;
    const char *name = r->op == TOP_COMM_DUP ? "MPI_Comm_dup" : "MPI_Comm_split";
    enter(w, name);
    OTF2_EvtWriter_MpiCollectiveBegin(w->w, NULL, w->now);
    OTF2_EvtWriter_MpiCollectiveEnd(w->w, NULL, w->now, OTF2_COLLECTIVE_OP_CREATE_HANDLE, parent,
                                    OTF2_UNDEFINED_UINT32, 0, 0);
    leave(w, name);
    return true;
}

static bool write_coll(struct otf2_writer *w, const struct trace_rec *r) {
    bool ok = true;
    uint32_t c = comm_ref(w, r, &ok);
    if (!ok) return false;
    char name[64];
    coll_region_name(r, name, sizeof name);
    enter(w, name);
    if (r->op == TOP_ICOLL) {
        struct wreq *q = req_slot(w, r->req);
        *q = (struct wreq){w->next_req++, *r, true, false};
        q->rec.ids = NULL, q->rec.counts = NULL;
        uint64_t s, v;
        coll_bytes(r, comm_size_of(w, c), comm_place(w, c), &s, &v);
        q->rec.size = (int64_t)s, q->rec.size2 = (int64_t)v;
        q->rec.comm = (int32_t)c;
        OTF2_EvtWriter_NonBlockingCollectiveRequest(w->w, NULL, w->now, q->otf2_id);
    } else {
        uint64_t s, v;
        coll_bytes(r, comm_size_of(w, c), comm_place(w, c), &s, &v);
        bool rooted = r->coll == COLL_BCAST || r->coll == COLL_REDUCE || r->coll == COLL_GATHER ||
                      r->coll == COLL_SCATTER;
        OTF2_EvtWriter_MpiCollectiveBegin(w->w, NULL, w->now);
        OTF2_EvtWriter_MpiCollectiveEnd(w->w, NULL, w->now, coll_op(r), c,
                                        rooted ? (uint32_t)r->root : OTF2_UNDEFINED_UINT32, s, v);
    }
    leave(w, name);
    return true;
}

static const char *send_name(const struct trace_rec *r) {
    static const char *const blocking[] = {"MPI_Send", "MPI_Ssend", "MPI_Bsend", "MPI_Rsend"};
    static const char *const nonblocking[] = {"MPI_Isend", "MPI_Issend", "MPI_Ibsend",
                                              "MPI_Irsend"};
    return (r->op == TOP_ISEND ? nonblocking : blocking)[r->mode & 3];
}

static bool write_p2p(struct otf2_writer *w, const struct trace_rec *r) {
    bool ok = true;
    uint32_t c = comm_ref(w, r, &ok);
    if (!ok) return false;
    bool recv = r->op == TOP_RECV || r->op == TOP_IRECV || r->op == TOP_SENDRECV;
    int32_t src = r->op == TOP_SENDRECV ? r->peer2 : r->peer;
    if (recv && (src == SIM_ANY_SOURCE || (r->op == TOP_SENDRECV ? r->tag2 : r->tag) < 0))
        return trace_rec_fail(w->t, r, w->err,
                              "a receive from any source or with any tag: OTF2 records the "
                              "message that came, which the trace does not name");
    uint64_t rsize = (uint64_t)((r->op == TOP_SENDRECV ? r->size2 : r->size) > 0
                                    ? (r->op == TOP_SENDRECV ? r->size2 : r->size)
                                    : 0);
    const char *name = r->op == TOP_SENDRECV ? "MPI_Sendrecv"
                       : r->op == TOP_RECV   ? "MPI_Recv"
                       : r->op == TOP_IRECV  ? "MPI_Irecv"
                                             : send_name(r);
    enter(w, name);
    if (r->op == TOP_SEND || r->op == TOP_SENDRECV)
        OTF2_EvtWriter_MpiSend(w->w, NULL, w->now, (uint32_t)r->peer, c, (uint32_t)r->tag,
                               (uint64_t)r->size);
    if (r->op == TOP_RECV)
        OTF2_EvtWriter_MpiRecv(w->w, NULL, w->now, (uint32_t)src, c, (uint32_t)r->tag, rsize);
    if (r->op == TOP_SENDRECV)
        OTF2_EvtWriter_MpiRecv(w->w, NULL, w->now, (uint32_t)src, c, (uint32_t)r->tag2, rsize);
    if (r->op == TOP_ISEND || r->op == TOP_IRECV) {
        struct wreq *q = req_slot(w, r->req);
        *q = (struct wreq){w->next_req++, *r, true, false};
        q->rec.ids = NULL, q->rec.counts = NULL;
        q->rec.comm = (int32_t)c, q->rec.size = (int64_t)rsize;
        if (r->op == TOP_ISEND)
            OTF2_EvtWriter_MpiIsend(w->w, NULL, w->now, (uint32_t)r->peer, c, (uint32_t)r->tag,
                                    (uint64_t)r->size, q->otf2_id);
        else
            OTF2_EvtWriter_MpiIrecvRequest(w->w, NULL, w->now, q->otf2_id);
    }
    leave(w, name);
    return true;
}

/* The completion record of request q, inside the wait that completes it. */
static void completion(struct otf2_writer *w, struct wreq *q) {
    const struct trace_rec *s = &q->rec;
    if (q->cancelled)
        OTF2_EvtWriter_MpiRequestCancelled(w->w, NULL, w->now, q->otf2_id);
    else if (s->op == TOP_ISEND)
        OTF2_EvtWriter_MpiIsendComplete(w->w, NULL, w->now, q->otf2_id);
    else if (s->op == TOP_RMA)
        OTF2_EvtWriter_RmaOpCompleteNonBlocking(w->w, NULL, w->now, (uint32_t)s->comm, q->otf2_id);
    else if (s->op == TOP_FILE_IO)
        OTF2_EvtWriter_IoOperationComplete(w->w, NULL, w->now, 0, (uint64_t)s->size, q->otf2_id);
    else if (s->op == TOP_IRECV)
        OTF2_EvtWriter_MpiIrecv(w->w, NULL, w->now, (uint32_t)s->peer, (uint32_t)s->comm,
                                (uint32_t)s->tag, (uint64_t)s->size, q->otf2_id);
    else
        OTF2_EvtWriter_NonBlockingCollectiveComplete(
            w->w, NULL, w->now, coll_op(s), (uint32_t)s->comm,
            s->coll == COLL_BCAST || s->coll == COLL_REDUCE || s->coll == COLL_GATHER ||
                    s->coll == COLL_SCATTER
                ? (uint32_t)s->root
                : OTF2_UNDEFINED_UINT32,
            (uint64_t)s->size, (uint64_t)s->size2, q->otf2_id);
    q->used = false;
}

static bool write_wait(struct otf2_writer *w, const struct trace_rec *r) {
    if (r->op == TOP_WAITANY)
        return trace_rec_fail(w->t, r, w->err,
                              "waitany: which request completes is the replay's to find, and "
                              "OTF2 records it");
    const char *name = r->op == TOP_WAIT      ? "MPI_Wait"
                       : r->op == TOP_WAITALL ? "MPI_Waitall"
                       : r->op == TOP_TEST    ? "MPI_Test"
                       : r->op == TOP_FREE    ? "MPI_Request_free"
                                              : "MPI_Cancel";
    for (int32_t i = 0; i < r->nids; i++) {
        int32_t id = r->ids[i];
        if (id < 0 || id >= w->nreqs || !w->reqs[id].used)
            return trace_rec_fail(w->t, r, w->err, "request %d was never started", id);
        if (r->op == TOP_FREE && w->reqs[id].rec.op != TOP_ISEND)
            return trace_rec_fail(w->t, r, w->err,
                                  "MPI_Request_free of a receive or collective: OTF2 has no "
                                  "record for it");
    }
    enter(w, name);
    if (r->op == TOP_CANCEL) {
        w->reqs[r->ids[0]].cancelled = true;
    } else if (r->op == TOP_TEST) {
        OTF2_EvtWriter_MpiRequestTest(w->w, NULL, w->now, w->reqs[r->ids[0]].otf2_id);
    } else if (r->op == TOP_WAITALL && r->nids == 0) { /* every outstanding request */
        for (int32_t id = 0; id < w->nreqs; id++)
            if (w->reqs[id].used) completion(w, &w->reqs[id]);
    } else {
        for (int32_t i = 0; i < r->nids; i++)
            completion(w, &w->reqs[r->ids[i]]);
    }
    leave(w, name);
    return true;
}

/* One-sided: a window per communicator used (its reference the
 * communicator's), a put or get completed by the wait that waits for it. */
static bool write_rma(struct otf2_writer *w, const struct trace_rec *r) {
    bool ok = true;
    uint32_t c = comm_ref(w, r, &ok);
    if (!ok) return false;
    w->windows[c / 64] |= UINT64_C(1) << (c % 64);
    struct wreq *q = req_slot(w, r->req);
    *q = (struct wreq){w->next_req++, *r, true, false};
    q->rec.ids = NULL, q->rec.counts = NULL, q->rec.comm = (int32_t)c;
    const char *name = r->mode & 1 ? "MPI_Put" : "MPI_Get";
    enter(w, name);
    if (r->mode & 1)
        OTF2_EvtWriter_RmaPut(w->w, NULL, w->now, c, (uint32_t)r->peer, (uint64_t)r->size,
                              q->otf2_id);
    else
        OTF2_EvtWriter_RmaGet(w->w, NULL, w->now, c, (uint32_t)r->peer, (uint64_t)r->size,
                              q->otf2_id);
    leave(w, name);
    return true;
}

/* Locks: asked (RmaRequestLock), granted where the trace waits for its
 * grants (RmaAcquireLock of each lock asked), released. */
static bool write_rma_sync(struct otf2_writer *w, const struct trace_rec *r) {
    if (r->mode > 2)
        return trace_rec_fail(w->t, r, w->err,
                              "general active target synchronisation (post, start, complete, "
                              "wait) is not written to OTF2 yet");
    bool ok = true;
    uint32_t c = comm_ref(w, r, &ok);
    if (!ok) return false;
    w->windows[c / 64] |= UINT64_C(1) << (c % 64);
    const char *name = r->mode == 1 ? "MPI_Win_unlock" : "MPI_Win_lock";
    enter(w, name);
    if (r->mode == 0) {
        struct wlock *l = lock_slot(w, c, r->peer);
        l->id = w->next_req++, l->asked = true, l->granted = false, l->exclusive = r->tag != 0;
        OTF2_EvtWriter_RmaRequestLock(w->w, NULL, w->now, c, (uint32_t)r->peer, l->id,
                                      l->exclusive ? OTF2_LOCK_EXCLUSIVE : OTF2_LOCK_SHARED);
    } else if (r->mode == 2) {
        for (int32_t i = 0; i < w->nlocks; i++)
            if (w->locks[i].comm == c && w->locks[i].asked && !w->locks[i].granted) {
                w->locks[i].granted = true;
                OTF2_EvtWriter_RmaAcquireLock(
                    w->w, NULL, w->now, c, (uint32_t)w->locks[i].peer, w->locks[i].id,
                    w->locks[i].exclusive ? OTF2_LOCK_EXCLUSIVE : OTF2_LOCK_SHARED);
            }
    } else {
        struct wlock *l = lock_slot(w, c, r->peer);
        if (!l->asked) {
            leave(w, name);
            return trace_rec_fail(w->t, r, w->err, "a lock released but never asked for");
        }
        OTF2_EvtWriter_RmaReleaseLock(w->w, NULL, w->now, c, (uint32_t)r->peer, l->id);
        l->asked = false;
    }
    leave(w, name);
    return true;
}

static bool write_record(struct otf2_writer *w, const struct trace_rec *r) {
    switch (r->op) {
    case TOP_COMPUTE:
        w->now += (uint64_t)r->size;
        return true;
    case TOP_SEND:
    case TOP_ISEND:
    case TOP_RECV:
    case TOP_IRECV:
    case TOP_SENDRECV:
        return write_p2p(w, r);
    case TOP_WAIT:
    case TOP_WAITALL:
    case TOP_WAITANY:
    case TOP_TEST:
    case TOP_CANCEL:
    case TOP_FREE:
        return write_wait(w, r);
    case TOP_COLL:
    case TOP_ICOLL:
        return write_coll(w, r);
    case TOP_COMM_SELF:
        return true;
    case TOP_COMM_SPLIT:
    case TOP_COMM_DUP:
        return write_creation(w, r);
    case TOP_BUFFER_ATTACH:
    case TOP_BUFFER_DETACH:
        enter(w, r->op == TOP_BUFFER_ATTACH ? "MPI_Buffer_attach" : "MPI_Buffer_detach");
        leave(w, r->op == TOP_BUFFER_ATTACH ? "MPI_Buffer_attach" : "MPI_Buffer_detach");
        return true;
    case TOP_INTERVAL_BEGIN:
        OTF2_EvtWriter_Enter(w->w, NULL, w->now,
                             region(w, trace_interval_name(w->t, r->req), true));
        return true;
    case TOP_INTERVAL_END: /* the region the rank is in: OTF2 checks the pairing */
        OTF2_EvtWriter_Leave(w->w, NULL, w->now, w->last);
        return true;
    case TOP_FILE_IO: { /* MPI-IO: an operation on the one file handle, completed by a wait */
        struct wreq *q = req_slot(w, r->req);
        *q = (struct wreq){w->next_req++, *r, true, false};
        q->rec.ids = NULL, q->rec.counts = NULL;
        w->io = true;
        enter(w, "MPI_File_iwrite_at");
        OTF2_EvtWriter_IoOperationBegin(w->w, NULL, w->now, 0, OTF2_IO_OPERATION_MODE_WRITE,
                                        OTF2_IO_OPERATION_FLAG_NON_BLOCKING, (uint64_t)r->size,
                                        q->otf2_id);
        leave(w, "MPI_File_iwrite_at");
        return true;
    }
    case TOP_RMA:
        return write_rma(w, r);
    case TOP_RMA_SYNC:
        return write_rma_sync(w, r);
    case TOP_COMPUTE_FLOPS:
        return trace_rec_fail(w->t, r, w->err,
                              "a computation in flops has no duration for OTF2's clock");
    default:
        return trace_rec_fail(w->t, r, w->err,
                              "this record (one-sided communication) is not written to OTF2 yet");
    }
}

/* Intervals nest: the region a Leave closes is the innermost open one. */
struct open_regions {
    OTF2_RegionRef *stack;
    int32_t n, cap;
};

static bool write_rank(struct otf2_writer *w) {
    w->w = OTF2_Archive_GetEvtWriter(w->archive, (OTF2_LocationRef)w->rank);
    if (!w->w) return err_set(w->err, "cannot write the events of rank %d", w->rank);
    w->now = 0;
    struct open_regions open = {0};
    OTF2_RegionRef main_region = region(w, "main", false);
    OTF2_EvtWriter_Enter(w->w, NULL, 0, main_region);
    bool ok = true;
    struct trace_rec *r;
    while (ok && (r = trace_next(w->t, w->rank, w->err))) {
        if (r->op == TOP_INTERVAL_BEGIN) {
            if (open.n == open.cap) {
                open.cap = open.cap ? 2 * open.cap : 8;
                open.stack = xrealloc_or_die(open.stack, sizeof *open.stack * (size_t)open.cap);
            }
            open.stack[open.n++] = region(w, trace_interval_name(w->t, r->req), true);
        }
        if (r->op == TOP_INTERVAL_END) w->last = open.n ? open.stack[--open.n] : main_region;
        ok = write_record(w, r);
        trace_release(w->t, r);
    }
    if (ok && w->err->set) ok = false;
    while (ok && open.n)
        OTF2_EvtWriter_Leave(w->w, NULL, w->now, open.stack[--open.n]);
    if (ok) OTF2_EvtWriter_Leave(w->w, NULL, w->now, main_region);
    free(open.stack);
    for (int32_t i = 0; i < w->nreqs; i++)
        w->reqs[i].used = false;
    w->nlocks = 0;
    return ok;
}

/* MPI-IO's file accesses: one handle on one file (strings s, s + 1). */
static void write_io_defs(const struct otf2_writer *w, OTF2_GlobalDefWriter *d, uint32_t s) {
    if (!w->io) return;
    OTF2_GlobalDefWriter_WriteString(d, s, "MPI-IO");
    OTF2_GlobalDefWriter_WriteString(d, s + 1, "simpi.io");
    OTF2_GlobalDefWriter_WriteIoParadigm(d, 0, s, s, OTF2_IO_PARADIGM_CLASS_PARALLEL,
                                         OTF2_IO_PARADIGM_FLAG_NONE, 0, NULL, NULL, NULL);
    OTF2_GlobalDefWriter_WriteIoRegularFile(d, 0, s + 1, 0);
    OTF2_GlobalDefWriter_WriteIoHandle(d, 0, s + 1, 0, 0, OTF2_IO_HANDLE_FLAG_NONE, COMM_WORLD_REF,
                                       OTF2_UNDEFINED_IO_HANDLE);
}

/* The communicators beyond the world and self: group g + 2, comm g + 1
 * (their name string s). */
static void write_comm_defs(const struct otf2_writer *w, OTF2_GlobalDefWriter *d, uint32_t s) {
    OTF2_GlobalDefWriter_WriteString(d, s, "MPI communicator");
    uint64_t *members = xmalloc(sizeof *members * (size_t)(w->nranks > 0 ? w->nranks : 1));
    for (int32_t g = 1; g < otf2_comms_count(w->comms); g++) {
        int32_t n, parent;
        const int32_t *m = otf2_comms_members(w->comms, g, &n, &parent);
        for (int32_t i = 0; i < n; i++)
            members[i] = (uint64_t)m[i];
        OTF2_GlobalDefWriter_WriteGroup(d, (uint32_t)g + 2, 0, OTF2_GROUP_TYPE_COMM_GROUP,
                                        OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, (uint32_t)n,
                                        members);
        OTF2_GlobalDefWriter_WriteComm(d, (uint32_t)g + 1, s, (uint32_t)g + 2, ref_of(parent),
                                       OTF2_COMM_FLAG_NONE);
    }
    free(members);
}

/* A window over each communicator one-sided records used, numbered as it. */
static void write_window_defs(const struct otf2_writer *w, OTF2_GlobalDefWriter *d, uint32_t s) {
    OTF2_GlobalDefWriter_WriteString(d, s, "MPI window");
    for (uint32_t c = 0; c < 64 * WINDOW_WORDS; c++)
        if (w->windows[c / 64] >> (c % 64) & 1)
            OTF2_GlobalDefWriter_WriteRmaWin(d, c, s, c, OTF2_RMA_WIN_FLAG_NONE);
}

static void write_definitions(struct otf2_writer *w, uint64_t length) {
    uint32_t s;
    OTF2_GlobalDefWriter *d = otf2out_defs(w->archive, w->nranks, length, &s);
    for (int32_t i = 0; i < w->nnames; i++) {
        OTF2_GlobalDefWriter_WriteString(d, s, w->names[i]);
        OTF2_GlobalDefWriter_WriteRegion(d, (uint32_t)i, s, s, 0, OTF2_REGION_ROLE_FUNCTION,
                                         w->user[i]                     ? OTF2_PARADIGM_USER
                                         : !strcmp(w->names[i], "main") ? OTF2_PARADIGM_COMPILER
                                                                        : OTF2_PARADIGM_MPI,
                                         OTF2_REGION_FLAG_NONE, 0, 0, 0);
        s++;
    }
    write_io_defs(w, d, s + 1);
    write_comm_defs(w, d, s + 3);
    write_window_defs(w, d, s + 4);
}

bool otf2_write(const char *in, const char *dir, struct sim_error *err) {
    if (!otf2out_writable(dir, err)) return false;
    struct otf2_comms *comms = otf2_comms_scan(in, err);
    struct trace_reader *t = comms ? trace_open(in, err) : NULL;
    struct otf2_writer w = {.t = t, .comms = comms, .err = err};
    w.archive = t ? otf2out_open(dir, "simpi convert", err) : NULL;
    bool ok = w.archive != NULL;
    w.nranks = t ? trace_ranks(t) : 0;
    uint64_t length = 0;
    for (w.rank = 0; ok && w.rank < w.nranks; w.rank++) {
        ok = write_rank(&w);
        if (w.now > length) length = w.now;
        OTF2_Archive_CloseEvtWriter(w.archive, w.w);
    }
    if (ok) write_definitions(&w, length);
    if (w.archive) ok = otf2out_finish(w.archive, dir, w.nranks, ok, err);
    for (int32_t i = 0; i < w.nnames; i++)
        free(w.names[i]);
    free(w.names);
    free(w.user);
    free(w.reqs);
    free(w.locks);
    trace_close(t);
    otf2_comms_free(comms);
    return ok;
}
