/* `simpi convert IN OUT [--to native|dim|simgrid]`: any trace simpi reads
 * (native, per-rank folder or index, SimGrid time-independent, Dimemas .dim)
 * written as a native trace (one file, rank after rank), a Dimemas trace or
 * a SimGrid time-independent trace (a folder); the format comes from --to,
 * else OUT's extension (.dim: Dimemas, otherwise native). Written atomically; records that have no
 * equivalent in the output format stop the conversion naming their file and line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/outfile.h"
#include "core/pool.h"
#include "replay/trace.h"
#include "replay/trace_internal.h"

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
            fprintf(f, "comm_split %d color=undefined key=%d new=%d", r->comm, r->key, r->newcomm);
        else
            fprintf(f, "comm_split %d color=%d key=%d new=%d", r->comm, r->color, r->key,
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
 * native trace gets ids, per rank, and waits on them. */
struct tracked {
    int32_t id, peer, tag;
    bool send;
};

static bool write_native(struct trace_reader *t, FILE *f, struct sim_error *err) {
    int32_t n = trace_ranks(t);
    fprintf(f, "simpi-trace 1\nranks %d\n", n);
    struct tracked *q = NULL;
    int nq = 0, cap = 0;
    for (int32_t rank = 0; rank < n; rank++) {
        int32_t next = 1 << 20; /* ids given here, above those of the input */
        nq = 0;
        struct trace_rec *r;
        while ((r = trace_next(t, rank, err))) {
            if ((r->op == TOP_ISEND || r->op == TOP_IRECV) && r->req < 0) r->req = next++;
            if (r->op == TOP_ISEND || r->op == TOP_IRECV) {
                if (nq == cap)
                    q = xrealloc_or_die(q, sizeof *q * (size_t)(cap = cap ? 2 * cap : 16));
                q[nq++] = (struct tracked){r->req, r->peer, r->tag, r->op == TOP_ISEND};
            }
            if (r->op == TOP_WAIT_PEER || r->op == TOP_TEST_PEER) {
                for (int i = 0; i < nq; i++)
                    if (q[i].send == (r->mode == 1) && q[i].peer == r->peer && q[i].tag == r->tag) {
                        fprintf(f, "%d %s %d\n", rank, r->op == TOP_WAIT_PEER ? "wait" : "test",
                                q[i].id);
                        memmove(&q[i], &q[i + 1], sizeof *q * (size_t)(nq - i - 1));
                        nq--;
                        break;
                    }
            } else {
                native_line(f, t, r);
            }
            trace_release(t, r);
        }
        if (err->set) break;
    }
    free(q);
    return !err->set;
}

int cmd_convert(int argc, char **argv) {
    const char *in = NULL, *out = NULL, *to = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--to") && i + 1 < argc)
            to = argv[++i];
        else if (!in)
            in = argv[i];
        else if (!out)
            out = argv[i];
        else
            in = NULL, i = argc; /* too many */
    }
    if (!in || !out || (to && strcmp(to, "native") && strcmp(to, "dim") && strcmp(to, "simgrid"))) {
        fprintf(stderr, "usage: simpi convert IN OUT [--to native|dim|simgrid]   (format of OUT "
                        "from --to, else its extension: .dim is Dimemas)\n");
        return EXIT_USAGE;
    }
    size_t len = strlen(out);
    bool dim = to ? !strcmp(to, "dim") : len > 4 && !strcmp(out + len - 4, ".dim");
    struct sim_error err = {0};
    struct trace_reader *t = trace_open(in, &err);
    if (t && to && !strcmp(to, "simgrid")) { /* a folder of files */
        bool done = tit_write(t, out, &err);
        trace_close(t);
        if (done) return 0;
        err_print(&err);
        return EXIT_INPUT_ERROR;
    }
    struct outfile o;
    bool ok = t && outfile_open(&o, out, &err);
    if (ok) {
        const char *base = strrchr(in, '/');
        ok = dim ? dim_write(t, o.f, base ? base + 1 : in, &err) : write_native(t, o.f, &err);
        if (ok)
            ok = outfile_commit(&o, &err);
        else
            outfile_discard(&o);
    }
    trace_close(t);
    if (!ok) {
        err_print(&err);
        return EXIT_INPUT_ERROR;
    }
    return 0;
}
