/* SPDX-License-Identifier: BSD-3-Clause */
/* SimGrid time-independent trace actions (as written by `smpirun -trace-ti`
 * and read by `smpirun -replay`) turned into simpi trace records:
 *   R init [x] | R finalize | R compute FLOPS | R sleep SECONDS
 *   R send|isend|recv|irecv PEER TAG COUNT [DT]
 *   R wait SRC DST TAG | R test SRC DST TAG | R waitall [N]
 *   R barrier | R bcast COUNT [ROOT [DT]]
 *   R reduce COUNT FLOPS [ROOT [DT]] | R allreduce COUNT FLOPS [DT]
 *   R alltoall SCOUNT RCOUNT [DT DT] | R gather SCOUNT RCOUNT [ROOT [DT DT]]
 *   R allgather SCOUNT RCOUNT [DT DT] | R scatter SCOUNT RCOUNT [ROOT [DT DT]]
 *   R sendRecv SCOUNT DST RCOUNT SRC [DT DT]
 * (PEER, SRC, DST -333: MPI_PROC_NULL, trace_tit_null.c)
 *   R gatherv / allgatherv / scatterv / alltoallv / reducescatter with per-rank counts
 *   R comm_size N | R comm_split | R comm_dup | R location FILE LINE (no effect)
 * COUNT is in elements of DT (SimGrid's datatype ids); without DT, elements of
 * the rank's default type: bytes, or doubles when its init action has an
 * argument. Collectives are on MPI_COMM_WORLD. See docs/trace-format.md for
 * how the variable-count collectives are approximated. */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/units.h"
#include "replay/trace_internal.h"

struct tit_ctx {
    char **tok;
    int ntok;
    int32_t nranks;
    uint8_t dt;
    const char *file;
    int line;
    struct sim_error *err;
    struct tit_pairs *pairs;
};

/* SMPI writes MPI_PROC_NULL as -333: such a call completes at once. */
static bool is_proc_null(const char *tok) {
    return !strcmp(tok, "-333");
}

/* Size in bytes of SimGrid 3.32's datatype ids (0 double, 1 int, 2 char,
 * 3 short, 4 long, 5 float, 6 byte, 7 long long, 11 unsigned, 20 int64_t). */
static int datatype_size(const char *id) {
    static const struct {
        const char *id;
        int size;
    } ids[] = {{"0", 8}, {"1", 4}, {"2", 1}, {"3", 2},  {"4", 8},
               {"5", 4}, {"6", 1}, {"7", 8}, {"11", 4}, {"20", 8}};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
        if (!strcmp(ids[i].id, id)) return ids[i].size;
    return -1;
}

static bool tfail(struct tit_ctx *c, const char *what, const char *found, const char *want) {
    return err_at(c->err, c->file, c->line, "%s: found '%s', expected %s", what, found, want);
}

static bool need(struct tit_ctx *c, int n) {
    if (c->ntok >= n) return true;
    return err_at(c->err, c->file, c->line, "too few fields for SimGrid action '%s'", c->tok[1]);
}

/* Element size from field i when present, else the default type. */
static bool elem_size(struct tit_ctx *c, int i, int *size) {
    if (i < 0 || i >= c->ntok) {
        *size = c->dt;
        return true;
    }
    *size = datatype_size(c->tok[i]);
    return *size > 0 || tfail(c, "field 'datatype'", c->tok[i], "a SimGrid datatype id");
}

static bool count_bytes(struct tit_ctx *c, int i, int dt_field, int64_t *out) {
    double v;
    int es;
    if (!units_parse_number(c->tok[i], &v, NULL) || v > 1e15)
        return tfail(c, "field 'count'", c->tok[i], "a non-negative element count");
    if (!elem_size(c, dt_field, &es)) return false;
    *out = (int64_t)v * es;
    return true;
}

static bool rank_field(struct tit_ctx *c, int i, const char *name, int32_t *out) {
    if (trace_parse_int(c->tok[i], 0, c->nranks - 1, out)) return true;
    return tfail(c, name, c->tok[i], "a rank of MPI_COMM_WORLD");
}

static bool flops_field(struct tit_ctx *c, int i, double *out) {
    if (units_parse_number(c->tok[i], out, NULL)) return true;
    return tfail(c, "field 'flops'", c->tok[i], "a non-negative number");
}

static bool p2p(struct tit_ctx *c, struct trace_rec *r, bool send, bool nb) {
    if (!need(c, 5) || !rank_field(c, 2, "field 'partner'", &r->peer)) return false;
    if (!trace_parse_int(c->tok[3], 0, INT32_MAX, &r->tag))
        return tfail(c, "field 'tag'", c->tok[3], "a non-negative tag");
    if (!count_bytes(c, 4, 5, &r->size)) return false;
    r->op = send ? (nb ? TOP_ISEND : TOP_SEND) : (nb ? TOP_IRECV : TOP_RECV);
    if (!send && r->size == 0) r->size = -1; /* size unknown to the receiver */
    return true;
}

/* wait / test SRC DST TAG: the request of this rank with that peer and tag. */
static bool wait_peer(struct tit_ctx *c, struct trace_rec *r, bool test) {
    int32_t src, dst;
    if (!need(c, 5) || !rank_field(c, 2, "field 'source'", &src) ||
        !rank_field(c, 3, "field 'destination'", &dst))
        return false;
    if (!trace_parse_int(c->tok[4], 0, INT32_MAX, &r->tag))
        return tfail(c, "field 'tag'", c->tok[4], "a non-negative tag");
    r->op = test ? TOP_TEST_PEER : TOP_WAIT_PEER;
    r->mode = src == r->rank; /* 1: our send to dst; 0: our receive from src */
    r->peer = r->mode ? dst : src;
    return true;
}

static bool root_field(struct tit_ctx *c, int i, struct trace_rec *r) {
    if (i >= c->ntok) return true;
    return rank_field(c, i, "field 'root'", &r->root);
}

static void coll(struct trace_rec *r, enum coll_kind k) {
    r->op = TOP_COLL;
    r->coll = (uint8_t)k;
}

/* reduce / allreduce: the collective, then FLOPS of computation. */
static bool reduction(struct tit_ctx *c, struct trace_rec *r, struct trace_rec *x, bool *hx,
                      bool all) {
    double flops;
    if (!need(c, 4) || !flops_field(c, 3, &flops)) return false;
    if (!count_bytes(c, 2, all ? 4 : 5, &r->size) || (!all && !root_field(c, 4, r))) return false;
    coll(r, all ? COLL_ALLREDUCE : COLL_REDUCE);
    if (flops > 0) {
        *x = *r;
        x->op = TOP_COMPUTE_FLOPS;
        x->flops = flops;
        *hx = true;
    }
    return true;
}

static bool gather_like(struct tit_ctx *c, struct trace_rec *r, enum coll_kind k, bool rooted) {
    if (!need(c, 4)) return false;
    int dt = rooted ? 5 : 4;
    if (!count_bytes(c, k == COLL_SCATTER ? 3 : 2, k == COLL_SCATTER ? dt + 1 : dt, &r->size))
        return false;
    if (rooted && !root_field(c, 4, r)) return false;
    coll(r, k);
    return true;
}

/* n counts from field first into out (bytes), and their rounded-up mean;
 * fields missing at the end of the line count 0 (SMPI's tracer sometimes
 * writes fewer). */
static bool counts_field(struct tit_ctx *c, int first, int n, int64_t *out, int64_t *mean) {
    int64_t total = 0;
    for (int i = 0; i < n; i++) {
        out[i] = 0;
        if (first + i < c->ntok && !count_bytes(c, first + i, -1, &out[i])) return false;
        total += out[i];
    }
    *mean = n ? (total + n - 1) / n : 0;
    return true;
}

/* The variable-count collectives, with each peer's count:
 *   gatherv SEND RECV_0..RECV_n-1 [ROOT]     allgatherv SEND RECV_0..RECV_n-1
 *   scatterv SEND_0..SEND_n-1 RECV [ROOT]    reducescatter RECV_0..RECV_n-1 FLOPS
 *   alltoallv SEND_TOTAL SEND_0..SEND_n-1 RECV_TOTAL RECV_0..RECV_n-1 */
static bool vcoll_counts(struct tit_ctx *c, struct trace_rec *r, const char *name) {
    int32_t n = c->nranks;
    int64_t mean;
    r->counts = xcalloc(2 * (size_t)n, sizeof *r->counts);
    r->ncounts = n;
    int64_t *sent = r->counts, *recv = r->counts + n;
    if (!strcmp(name, "gatherv") || !strcmp(name, "allgatherv")) {
        coll(r, name[0] == 'g' ? COLL_GATHER : COLL_ALLGATHER);
        r->mode = 4 | 2;
        if (name[0] == 'g' && 3 + n < c->ntok && !root_field(c, 3 + n, r)) return false;
        return need(c, 3) && count_bytes(c, 2, -1, &r->size) && counts_field(c, 3, n, recv, &mean);
    }
    if (!strcmp(name, "scatterv")) {
        coll(r, COLL_SCATTER);
        r->mode = 4 | 1;
        if (3 + n < c->ntok && !root_field(c, 3 + n, r)) return false;
        if (!counts_field(c, 2, n, sent, &r->size)) return false;
        return 2 + n >= c->ntok || count_bytes(c, 2 + n, -1, &r->size);
    }
    if (!strcmp(name, "alltoallv")) {
        coll(r, COLL_ALLTOALL);
        r->mode = 4 | 3;
        return counts_field(c, 3, n, sent, &r->size) && counts_field(c, 4 + n, n, recv, &mean);
    }
    /* reducescatter RECV_0..RECV_n-1 FLOPS [DT]: each rank's block */
    coll(r, COLL_REDUCE_SCATTER);
    r->mode = 4 | 2;
    if (!counts_field(c, 2, n, recv, &mean)) return false;
    r->size = recv[r->rank >= 0 && r->rank < n ? r->rank : 0];
    return true;
}

static bool vcoll(struct tit_ctx *c, struct trace_rec *r, const char *name) {
    if (vcoll_counts(c, r, name)) return true;
    free(r->counts);
    r->counts = NULL;
    return false;
}

/* sendRecv SCOUNT DST RCOUNT SRC [DT DT]: a half with MPI_PROC_NULL, or
 * one its partner's trace lacks (trace_tit_null.c), is not simulated. */
static int sendrecv(struct tit_ctx *c, struct trace_rec *r) {
    if (!need(c, 6) || !count_bytes(c, 2, 6, &r->size) || !count_bytes(c, 4, 7, &r->size2))
        return -1;
    bool send = !is_proc_null(c->tok[3]), recv = !is_proc_null(c->tok[5]);
    if ((send && !rank_field(c, 3, "field 'dst'", &r->peer)) ||
        (recv && !rank_field(c, 5, "field 'src'", &r->peer2)))
        return -1;
    if (send) send = tit_pairs_matched(c->pairs, r->rank, r->peer, true);
    if (recv) recv = tit_pairs_matched(c->pairs, r->peer2, r->rank, false);
    if (send && recv) {
        r->op = TOP_SENDRECV;
    } else if (send) {
        r->op = TOP_SEND;
    } else if (recv) {
        r->op = TOP_RECV;
        r->peer = r->peer2;
        r->size = r->size2;
    }
    return send || recv;
}

static int parse_action(struct tit_ctx *c, struct trace_rec *r, struct trace_rec *x, bool *hx,
                        uint8_t *default_dt) {
    const char *a = c->tok[1];
    if (!strcmp(a, "init")) {
        *default_dt = c->ntok > 2 ? 8 : 1;
        return 0;
    }
    if (!strcmp(a, "finalize") || !strcmp(a, "location") || !strncmp(a, "comm_", 5)) return 0;
    if (!strcmp(a, "compute")) {
        r->op = TOP_COMPUTE_FLOPS;
        return need(c, 3) && flops_field(c, 2, &r->flops) ? 1 : -1;
    }
    if (!strcmp(a, "sleep")) {
        double sec;
        r->op = TOP_COMPUTE;
        if (!need(c, 3) || !units_parse_number(c->tok[2], &sec, NULL))
            return tfail(c, "field 'seconds'", c->ntok > 2 ? c->tok[2] : "", "a duration in s"), -1;
        r->size = simtime_from_seconds(sec);
        return 1;
    }
    bool ok;
    bool p2p_op =
             !strcmp(a, "send") || !strcmp(a, "isend") || !strcmp(a, "recv") || !strcmp(a, "irecv"),
         waits = !strcmp(a, "wait") || !strcmp(a, "test");
    /* with MPI_PROC_NULL: nothing to simulate (the call completes at once) */
    if ((p2p_op && c->ntok > 2 && is_proc_null(c->tok[2])) ||
        (waits && c->ntok > 3 && (is_proc_null(c->tok[2]) || is_proc_null(c->tok[3]))))
        return 0;
    if (p2p_op)
        ok = p2p(c, r, a[strlen(a) - 1] == 'd', a[0] == 'i');
    else if (waits)
        ok = wait_peer(c, r, a[0] == 't');
    else if (!strcmp(a, "waitall"))
        ok = (r->op = TOP_WAITALL, true);
    else if (!strcmp(a, "barrier"))
        ok = (coll(r, COLL_BARRIER), true);
    else if (!strcmp(a, "bcast"))
        ok = need(c, 3) && count_bytes(c, 2, 4, &r->size) && root_field(c, 3, r) &&
             (coll(r, COLL_BCAST), true);
    else if (!strcmp(a, "reduce") || !strcmp(a, "allreduce"))
        ok = reduction(c, r, x, hx, a[0] == 'a');
    else if (!strcmp(a, "alltoall") || !strcmp(a, "allToAll"))
        ok = gather_like(c, r, COLL_ALLTOALL, false);
    else if (!strcmp(a, "gather"))
        ok = gather_like(c, r, COLL_GATHER, true);
    else if (!strcmp(a, "allgather") || !strcmp(a, "allGather"))
        ok = gather_like(c, r, COLL_ALLGATHER, false);
    else if (!strcmp(a, "scatter"))
        ok = gather_like(c, r, COLL_SCATTER, true);
    else if (!strcmp(a, "sendRecv") || !strcmp(a, "sendrecv"))
        return sendrecv(c, r);
    else if (!strcmp(a, "gatherv") || !strcmp(a, "allgatherv") || !strcmp(a, "scatterv") ||
             !strcmp(a, "alltoallv") || !strcmp(a, "reducescatter"))
        ok = vcoll(c, r, a);
    else
        ok = err_at(c->err, c->file, c->line, "unknown SimGrid action '%s'", a);
    return ok ? 1 : -1;
}

int tit_parse_line(char *line, int32_t rank, int32_t nranks, uint8_t *default_dt,
                   struct tit_pairs *pairs, struct trace_rec *r, struct trace_rec *extra,
                   bool *has_extra, const char *file, int lineno, struct sim_error *err) {
    /* alltoallv lines hold 2 n + 4 fields: room grows with the rank count */
    static char **tok;
    static int tok_cap;
    int need_cap = 2 * nranks + 8 > MAX_TOKENS ? 2 * nranks + 8 : MAX_TOKENS;
    if (tok_cap < need_cap) {
        free(tok);
        tok = xcalloc((size_t)need_cap, sizeof *tok);
        tok_cap = need_cap;
    }
    struct tit_ctx c = {tok, 0, nranks, *default_dt ? *default_dt : 1, file, lineno, err, pairs};
    memset(r, 0, sizeof *r);
    r->req = -1;
    r->line = lineno;
    r->rank = rank;
    *has_extra = false;
    c.ntok = trace_tokenize(line, tok, tok_cap);
    if (c.ntok < 0) return err_at(err, file, lineno, "too many fields on one line"), -1;
    if (c.ntok == 0) return 0;
    int32_t who;
    if (c.ntok < 2 || !trace_parse_int(tok[0], 0, nranks - 1, &who))
        return err_at(err, file, lineno,
                      "expected 'RANK ACTION ...' (SimGrid time-independent "
                      "trace)"),
               -1;
    if (rank >= 0 && who != rank)
        return err_at(err, file, lineno, "action of rank %d in the trace of rank %d", who, rank),
               -1;
    r->rank = who;
    int got = parse_action(&c, r, extra, has_extra, default_dt);
    r->tag2 = r->tag;
    return got;
}
