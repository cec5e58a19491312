/* SPDX-License-Identifier: BSD-3-Clause */
/* Any trace simpi reads written as a native text trace (one file, rank
 * after rank, docs/trace-format.md) or a binary one (through
 * trace_bin_write.c, a few records of each rank in turn): `simpi convert`,
 * and `simpi run --trace-out FILE.sbt`. SimGrid's requests, which have no
 * ids, get ids and their waits by peer become waits on them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "replay/trace.h"
#include "replay/trace_bin.h"
#include "replay/trace_internal.h"
#include "replay/trace_write.h"

static void put_ids(FILE *f, const struct trace_rec *r) {
    for (int i = 0; i < r->nids; i++)
        fprintf(f, " %d", r->ids[i]);
}

static void put_opts(FILE *f, const struct trace_rec *r, bool tag) {
    if (tag) {
        if (r->tag == SIM_ANY_TAG)
            fprintf(f, " tag=any");
        else
            fprintf(f, " tag=%d", r->tag);
    }
    if (r->comm) fprintf(f, " comm=%d", r->comm);
}

static void put_peer(FILE *f, int32_t p) {
    if (p == SIM_ANY_SOURCE)
        fprintf(f, " any");
    else
        fprintf(f, " %d", p);
}

static void put_counts(FILE *f, const struct trace_rec *r) {
    for (int side = 0; side < 2; side++) {
        if (!(r->mode & (1 << side)) || !r->counts) continue;
        fprintf(f, side ? " recv=" : " send=");
        for (int i = 0; i < r->ncounts; i++)
            fprintf(f, "%s%lld", i ? "," : "", (long long)r->counts[side * r->ncounts + i]);
    }
}

/* One record in the native format (docs/trace-format.md); the SimGrid-only
 * waits by peer are mapped by the caller. */
/* comm_split, or comm_define: the same communicator, its exchange not charged. */
static const char *split_name(const struct trace_rec *r) {
    return r->mode & 1 ? "comm_define" : "comm_split";
}

static void native_line(FILE *f, const struct trace_reader *t, const struct trace_rec *r) {
    static const char *const sends[2][4] = {{"send", "ssend", "bsend", "rsend"},
                                            {"isend", "issend", "ibsend", "irsend"}};
    fprintf(f, "%d ", r->rank);
    switch (r->op) {
    case TOP_COMPUTE:
        fprintf(f, "compute %lldps", (long long)r->size);
        if (r->flops > 0) fprintf(f, " instructions=%.17g", r->flops);
        break;
    case TOP_COMPUTE_FLOPS:
        fprintf(f, "compute %.17gf", r->flops);
        break;
    case TOP_SEND:
    case TOP_ISEND:
        fprintf(f, "%s %d %lld", sends[r->op == TOP_ISEND][r->mode & 3], r->peer,
                (long long)r->size);
        put_opts(f, r, true);
        break;
    case TOP_RECV:
    case TOP_IRECV:
        fprintf(f, "%s", r->op == TOP_IRECV ? "irecv" : "recv");
        put_peer(f, r->peer);
        if (r->size >= 0) fprintf(f, " %lld", (long long)r->size);
        put_opts(f, r, true);
        break;
    case TOP_SENDRECV:
        fprintf(f, "sendrecv %d %lld", r->peer, (long long)r->size);
        put_peer(f, r->peer2);
        fprintf(f, " %lld tag=%d recvtag=%d", (long long)r->size2, r->tag, r->tag2);
        put_opts(f, r, false);
        break;
    case TOP_WAIT:
        fprintf(f, "wait");
        put_ids(f, r);
        break;
    case TOP_WAITALL:
        fprintf(f, "waitall");
        put_ids(f, r);
        break;
    case TOP_WAITANY:
        fprintf(f, "waitany");
        put_ids(f, r);
        break;
    case TOP_TEST:
        fprintf(f, "test");
        put_ids(f, r);
        break;
    case TOP_CANCEL:
        fprintf(f, "cancel");
        put_ids(f, r);
        break;
    case TOP_FREE:
        fprintf(f, "free");
        put_ids(f, r);
        break;
    case TOP_BUFFER_ATTACH:
        fprintf(f, "buffer_attach %lld", (long long)r->size);
        break;
    case TOP_BUFFER_DETACH:
        fprintf(f, "buffer_detach");
        break;
    case TOP_FILE_IO:
        fprintf(f, "file_io %lld req=%d", (long long)r->size, r->req);
        break;
    case TOP_ROUND_TRIP:
        fprintf(f, "round_trip %d", r->peer);
        break;
    case TOP_RMA:
        fprintf(f, "%s %d %lld comm=%d req=%d",
                r->mode == 2   ? "rma_fetch"
                : r->mode == 1 ? "rma_put"
                               : "rma_get",
                r->peer, (long long)r->size, r->comm, r->req);
        break;
    case TOP_RMA_SYNC: {
        fprintf(f, "%s", sim_rma_sync_names[r->mode % 7]);
        if (r->mode < 2 || r->mode == 3 || r->mode == 4) fprintf(f, " %d", r->peer);
        if (r->mode < 2) fprintf(f, " %s", r->tag == 1 ? "exclusive" : "shared");
        fprintf(f, " comm=%d", r->comm);
        for (int i = 0; i < r->nids; i++)
            fprintf(f, "%s%d", i ? "," : " from=", r->ids[i]);
        break;
    }
    case TOP_COLL:
    case TOP_ICOLL:
        fprintf(f, "%s%s%s", r->op == TOP_ICOLL ? "i" : "", sim_coll_name((enum coll_kind)r->coll),
                (r->mode & 4) ? "v" : "");
        if (r->coll != COLL_BARRIER) fprintf(f, " %lld", (long long)r->size);
        if (r->root) fprintf(f, " root=%d", r->root);
        put_counts(f, r);
        put_opts(f, r, false);
        break;
    case TOP_COMM_SPLIT:
        if (r->color == SIM_UNDEFINED)
            fprintf(f, "%s %d color=undefined key=%d new=%d", split_name(r), r->comm, r->key,
                    r->newcomm);
        else
            fprintf(f, "%s %d color=%d key=%d new=%d", split_name(r), r->comm, r->color, r->key,
                    r->newcomm);
        break;
    case TOP_COMM_DUP:
        fprintf(f, "comm_dup %d new=%d", r->comm, r->newcomm);
        break;
    case TOP_COMM_SELF:
        fprintf(f, "comm_self new=%d", r->newcomm);
        break;
    case TOP_INTERVAL_BEGIN:
        fprintf(f, "interval_begin %s", trace_interval_name(t, r->req));
        break;
    case TOP_INTERVAL_END:
        fprintf(f, "interval_end");
        break;
    }
    if (r->op == TOP_ISEND || r->op == TOP_IRECV || r->op == TOP_ICOLL)
        fprintf(f, " req=%d", r->req);
    fputc('\n', f);
}

/* SimGrid's requests have no ids and their waits name a peer and tag: the
 * converted trace gets ids, per rank, and waits on them. */
struct tracked {
    int32_t id, peer, tag;
    bool send;
};

/* A rank's requests given ids so far (SimGrid input). */
struct rank_ids {
    struct tracked *q;
    int nq, cap;
    int32_t next; /* ids given here, above those of the input */
};

/* Where converted records go: one native line each, or the binary writer. */
struct sink {
    FILE *f;
    struct tbin_writer *bin;
    const struct trace_reader *t;
};

static bool sink_put(struct sink *k, const struct trace_rec *r, struct sim_error *err) {
    if (k->bin) return tbin_writer_put(k->bin, r, err);
    native_line(k->f, k->t, r);
    return true;
}

/* Gives a SimGrid request an id, or turns its wait by peer into a wait on
 * that id; false when the record is to be dropped (a wait matching none). */
static bool give_ids(struct rank_ids *s, struct trace_rec *r) {
    if (!s->next) s->next = 1 << 20;
    if ((r->op == TOP_ISEND || r->op == TOP_IRECV) && r->req < 0) r->req = s->next++;
    if (r->op == TOP_ISEND || r->op == TOP_IRECV) {
        if (s->nq == s->cap)
            s->q =
                xrealloc_or_die(s->q, sizeof *s->q * (size_t)(s->cap = s->cap ? 2 * s->cap : 16));
        s->q[s->nq++] = (struct tracked){r->req, r->peer, r->tag, r->op == TOP_ISEND};
    }
    if (r->op != TOP_WAIT_PEER && r->op != TOP_TEST_PEER) return true;
    for (int i = 0; i < s->nq; i++)
        if (s->q[i].send == (r->mode == 1) && s->q[i].peer == r->peer && s->q[i].tag == r->tag) {
            r->op = r->op == TOP_WAIT_PEER ? TOP_WAIT : TOP_TEST;
            r->mode = 0;
            r->peer = r->tag = r->tag2 = 0;
            r->ids = xcalloc(1, sizeof *r->ids);
            r->ids[0] = s->q[i].id;
            r->nids = 1;
            memmove(&s->q[i], &s->q[i + 1], sizeof *s->q * (size_t)(s->nq - i - 1));
            s->nq--;
            return true;
        }
    return false;
}

/* Converts up to max records of a rank (max < 0: all); false at its end
 * or on error (err set). */
static bool convert_some(struct trace_reader *t, int32_t rank, struct rank_ids *ids, struct sink *k,
                         int max, struct sim_error *err) {
    struct trace_rec *r;
    for (int n = 0; max < 0 || n < max; n++) {
        if (!(r = trace_next(t, rank, err))) return false;
        bool ok = !give_ids(ids, r) || sink_put(k, r, err);
        trace_release(t, r);
        if (!ok) return false;
    }
    return true;
}

void trace_write_record(FILE *f, const struct trace_reader *t, const struct trace_rec *r) {
    native_line(f, t, r);
}

bool trace_write_native(struct trace_reader *t, FILE *f, struct sim_error *err) {
    int32_t n = trace_ranks(t);
    fprintf(f, "simpi-trace 1\nranks %d\n", n);
    struct sink k = {f, NULL, t};
    for (int32_t rank = 0; rank < n && !err->set; rank++) {
        struct rank_ids ids = {0};
        convert_some(t, rank, &ids, &k, -1, err);
        free(ids.q);
    }
    return !err->set;
}

/* The binary form, read a few records of each rank in turn (an interleaved
 * input is then read ahead no further than its interleaving). */
bool trace_write_binary(struct trace_reader *t, FILE *f, const char *name, enum tbin_codec codec,
                        struct sim_error *err) {
    int32_t n = trace_ranks(t);
    struct sink k = {NULL, tbin_writer_new(f, name, n, codec), t};
    struct rank_ids *ids = xcalloc((size_t)n, sizeof *ids);
    bool *done = xcalloc((size_t)n, sizeof *done);
    for (int32_t left = n; left > 0 && !err->set;)
        for (int32_t rank = 0; rank < n && !err->set; rank++)
            if (!done[rank] && !convert_some(t, rank, &ids[rank], &k, 256, err)) {
                done[rank] = true;
                left--;
                free(ids[rank].q);
                ids[rank].q = NULL;
            }
    for (int32_t rank = 0; rank < n; rank++)
        free(ids[rank].q);
    free(ids);
    free(done);
    int32_t nnames = trace_interval_count(t);
    const char **names = xcalloc((size_t)nnames + 1, sizeof *names);
    for (int32_t i = 0; i < nnames; i++)
        names[i] = trace_interval_name(t, i);
    bool ok = !err->set;
    if (ok)
        ok = tbin_writer_finish(k.bin, names, nnames, err);
    else
        tbin_writer_abort(k.bin);
    free(names);
    return ok;
}
