/* SPDX-License-Identifier: BSD-3-Clause */
/* Writing SimGrid time-independent traces (the format `smpirun -replay`
 * reads and trace_tit.c reads back): DIR/rank<R>.txt per rank, between its
 * `init` and `finalize`, and DIR/description listing them. Sizes are given
 * in bytes (datatype 6, MPI_BYTE); a computation given as a duration
 * becomes `sleep SECONDS`, one given in flops `compute FLOPS`; waits name
 * their request by source, destination and tag, as SimGrid's do. Only
 * MPI_COMM_WORLD can be written, and a record without an equivalent
 * (non-blocking collectives, waitany, scans, intervals are dropped) stops
 * the conversion naming it. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/alloc.h"
#include "core/outfile.h"
#include "replay/trace_internal.h"
#include "replay/trace_write.h"

struct tit_req {
    int32_t id, src, dst, tag;
};

struct tit_writer {
    FILE *f;
    struct trace_reader *t;
    int32_t rank, n;
    struct tit_req *reqs;
    int nreqs, cap;
    struct sim_error *err;
};

/* The index of tracked request id, or -1. */
static int find_req(const struct tit_writer *w, int32_t id) {
    for (int i = 0; i < w->nreqs; i++)
        if (w->reqs[i].id == id) return i;
    return -1;
}

/* Drops tracked request i. */
static void forget(struct tit_writer *w, int i) {
    memmove(&w->reqs[i], &w->reqs[i + 1], sizeof *w->reqs * (size_t)(w->nreqs - i - 1));
    w->nreqs--;
}

static void put_wait(struct tit_writer *w, int i, const char *what) {
    struct tit_req q = w->reqs[i];
    fprintf(w->f, "%d %s %d %d %d\n", w->rank, what, q.src, q.dst, q.tag);
    forget(w, i);
}

/* MPI_Request_free: SimGrid's traces have none; the request is forgotten
 * (a send still happens, and no wait names it). */
static bool tit_free(struct tit_writer *w, const struct trace_rec *r) {
    int i = find_req(w, r->ids[0]);
    if (i >= 0) forget(w, i);
    return true;
}

static bool tit_wait(struct tit_writer *w, const struct trace_rec *r) {
    if (r->op == TOP_WAITANY)
        return trace_rec_fail(w->t, r, w->err, "waitany has no SimGrid equivalent");
    if (r->op == TOP_WAITALL && (r->nids == 0 || r->nids == w->nreqs)) {
        fprintf(w->f, "%d waitall\n", w->rank);
        w->nreqs = 0;
        return true;
    }
    for (int k = 0; k < r->nids; k++) {
        int i = find_req(w, r->ids[k]);
        if (i < 0)
            return trace_rec_fail(w->t, r, w->err, "waits for request %d, never started",
                                  r->ids[k]);
        put_wait(w, i, r->op == TOP_TEST ? "test" : "wait");
    }
    return true;
}

static bool tit_p2p(struct tit_writer *w, const struct trace_rec *r) {
    static const char *const names[] = {
        [TOP_SEND] = "send", [TOP_ISEND] = "isend", [TOP_RECV] = "recv", [TOP_IRECV] = "irecv"};
    bool send = r->op == TOP_SEND || r->op == TOP_ISEND;
    if (!send && (r->peer < 0 || r->tag < 0))
        return trace_rec_fail(
            w->t, r, w->err, "a receive from any source or with any tag has no SimGrid equivalent");
    fprintf(w->f, "%d %s %d %d %lld 6\n", w->rank, names[r->op], r->peer, r->tag,
            (long long)(r->size < 0 ? 0 : r->size));
    if (r->op == TOP_ISEND || r->op == TOP_IRECV) {
        if (w->nreqs == w->cap) {
            w->cap = w->cap ? 2 * w->cap : 16;
            w->reqs = xrealloc_or_die(w->reqs, sizeof *w->reqs * (size_t)w->cap);
        }
        w->reqs[w->nreqs++] =
            (struct tit_req){r->req, send ? w->rank : r->peer, send ? r->peer : w->rank, r->tag};
    }
    return true;
}

static void put_list(FILE *f, const int64_t *v, int n) {
    for (int i = 0; i < n; i++)
        fprintf(f, " %lld", (long long)v[i]);
}

static bool tit_vcoll(struct tit_writer *w, const struct trace_rec *r) {
    const int64_t *send = r->counts && (r->mode & 1) ? r->counts : NULL;
    const int64_t *recv = r->counts && (r->mode & 2) ? r->counts + r->ncounts : NULL;
    int n = r->ncounts;
    long long s = (long long)r->size;
    switch (r->coll) {
    case COLL_GATHER: /* the root's receive counts; others: the size */
        fprintf(w->f, "%d gatherv %lld", w->rank, s);
        if (recv)
            put_list(w->f, recv, n);
        else
            for (int i = 0; i < w->n; i++)
                fprintf(w->f, " %lld", s);
        fprintf(w->f, " %d 6 6\n", r->root);
        return true;
    case COLL_ALLGATHER:
        if (!recv) return trace_rec_fail(w->t, r, w->err, "allgatherv without its counts");
        fprintf(w->f, "%d allgatherv %lld", w->rank, s);
        put_list(w->f, recv, n);
        fprintf(w->f, " 6 6\n");
        return true;
    case COLL_SCATTER:
        fprintf(w->f, "%d scatterv", w->rank);
        if (send)
            put_list(w->f, send, n);
        else
            for (int i = 0; i < w->n; i++)
                fprintf(w->f, " %lld", s);
        fprintf(w->f, " %lld %d 6 6\n", s, r->root);
        return true;
    case COLL_ALLTOALL: {
        if (!send || !recv) return trace_rec_fail(w->t, r, w->err, "alltoallv without its counts");
        long long st = 0, rt = 0;
        for (int i = 0; i < n; i++)
            st += send[i], rt += recv[i];
        fprintf(w->f, "%d alltoallv %lld", w->rank, st);
        put_list(w->f, send, n);
        fprintf(w->f, " %lld", rt);
        put_list(w->f, recv, n);
        fprintf(w->f, " 6 6\n");
        return true;
    }
    default:
        return trace_rec_fail(w->t, r, w->err, "%sv has no SimGrid equivalent",
                              sim_coll_name((enum coll_kind)r->coll));
    }
}

static bool tit_coll(struct tit_writer *w, const struct trace_rec *r) {
    if (r->op == TOP_ICOLL)
        return trace_rec_fail(w->t, r, w->err,
                              "non-blocking collectives have no SimGrid equivalent");
    if (r->mode & 4) return tit_vcoll(w, r);
    long long s = (long long)r->size;
    int me = w->rank, root = r->root;
    switch (r->coll) {
    case COLL_BARRIER:
        fprintf(w->f, "%d barrier\n", me);
        return true;
    case COLL_BCAST:
        fprintf(w->f, "%d bcast %lld %d 6\n", me, s, root);
        return true;
    case COLL_REDUCE:
        fprintf(w->f, "%d reduce %lld 0 %d 6\n", me, s, root);
        return true;
    case COLL_ALLREDUCE:
        fprintf(w->f, "%d allreduce %lld 0 6\n", me, s);
        return true;
    case COLL_GATHER:
        fprintf(w->f, "%d gather %lld %lld %d 6 6\n", me, s, s, root);
        return true;
    case COLL_SCATTER:
        fprintf(w->f, "%d scatter %lld %lld %d 6 6\n", me, s, s, root);
        return true;
    case COLL_ALLGATHER:
        fprintf(w->f, "%d allgather %lld %lld 6 6\n", me, s, s);
        return true;
    case COLL_ALLTOALL:
        fprintf(w->f, "%d alltoall %lld %lld 6 6\n", me, s, s);
        return true;
    case COLL_REDUCE_SCATTER:
        fprintf(w->f, "%d reducescatter", me);
        for (int i = 0; i < w->n; i++)
            fprintf(w->f, " %lld", s);
        fprintf(w->f, " 0 6\n");
        return true;
    default:
        return trace_rec_fail(w->t, r, w->err, "%s has no SimGrid equivalent",
                              sim_coll_name((enum coll_kind)r->coll));
    }
}

static bool tit_record(struct tit_writer *w, const struct trace_rec *r) {
    if (r->comm != 0 && r->op != TOP_COMPUTE && r->op != TOP_COMPUTE_FLOPS &&
        r->op < TOP_COMM_SPLIT)
        return trace_rec_fail(w->t, r, w->err,
                              "communicator %d: only MPI_COMM_WORLD converts to SimGrid", r->comm);
    switch (r->op) {
    case TOP_COMPUTE:
        fprintf(w->f, "%d sleep %.12f\n", w->rank, simtime_to_seconds(r->size));
        return true;
    case TOP_COMPUTE_FLOPS:
        fprintf(w->f, "%d compute %.17g\n", w->rank, r->flops);
        return true;
    case TOP_SEND:
    case TOP_ISEND:
    case TOP_RECV:
    case TOP_IRECV:
        return tit_p2p(w, r);
    case TOP_SENDRECV:
        fprintf(w->f, "%d sendRecv %lld %d %lld %d 6 6\n", w->rank, (long long)r->size, r->peer,
                (long long)r->size2, r->peer2);
        return true;
    case TOP_FREE:
        return tit_free(w, r);
    case TOP_WAIT:
    case TOP_WAITALL:
    case TOP_WAITANY:
    case TOP_TEST:
        return tit_wait(w, r);
    case TOP_WAIT_PEER:
    case TOP_TEST_PEER:
        fprintf(w->f, "%d %s %d %d %d\n", w->rank, r->op == TOP_WAIT_PEER ? "wait" : "test",
                r->mode == 1 ? w->rank : r->peer, r->mode == 1 ? r->peer : w->rank, r->tag);
        return true;
    case TOP_COLL:
    case TOP_ICOLL:
        return tit_coll(w, r);
    case TOP_INTERVAL_BEGIN:
    case TOP_INTERVAL_END:
    case TOP_COMM_SELF:
    case TOP_BUFFER_ATTACH:
    case TOP_BUFFER_DETACH:
        return true; /* nothing SimGrid replays */
    default:
        return trace_rec_fail(
            w->t, r, w->err,
            "this record (communicator creation, cancel, file I/O, one-sided) has no "
            "SimGrid equivalent");
    }
}

static bool write_rank(struct tit_writer *w, const char *path) {
    struct outfile out;
    if (!outfile_open(&out, path, w->err)) return false;
    w->f = out.f;
    w->nreqs = 0;
    fprintf(w->f, "%d init\n", w->rank);
    bool ok = true;
    struct trace_rec *r;
    while (ok && (r = trace_next(w->t, w->rank, w->err))) {
        ok = tit_record(w, r);
        trace_release(w->t, r);
    }
    ok = ok && !w->err->set;
    fprintf(w->f, "%d finalize\n", w->rank);
    if (!ok) {
        outfile_discard(&out);
        return false;
    }
    return outfile_commit(&out, w->err);
}

bool tit_write(struct trace_reader *t, const char *dir, struct sim_error *err) {
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return err_set(err, "%s: cannot create the folder: %s", dir, strerror(errno));
    struct tit_writer w = {.t = t, .n = trace_ranks(t), .err = err};
    char path[4200];
    snprintf(path, sizeof path, "%s/description", dir);
    struct outfile desc;
    if (!outfile_open(&desc, path, err)) return false;
    bool ok = true;
    for (w.rank = 0; ok && w.rank < w.n; w.rank++) {
        snprintf(path, sizeof path, "%s/rank%d.txt", dir, w.rank);
        fprintf(desc.f, "%s\n", path);
        ok = write_rank(&w, path);
    }
    free(w.reqs);
    if (!ok) {
        outfile_discard(&desc);
        return false;
    }
    return outfile_commit(&desc, err);
}
