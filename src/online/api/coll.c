/* SPDX-License-Identifier: BSD-3-Clause */
/* Collective communication (MPI-3.1 chapter 5) for on-line programs,
 * blocking and non-blocking: timing through the MPI layer's schedules,
 * data through coll_data (see coll_data.h). The variable-count collectives
 * pass the byte counts per peer to their schedules; scans and
 * reduce-scatter run their own. Also the user-defined reduction
 * operations (MPI_Op_create...). */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hash.h"
#include "online/api/api.h"
#include "online/coll_data.h"
#include "online/datatype/typemap.h"

/* Collective sequence numbers per (rank, communicator id). */
struct seq_entry {
    int64_t key;
    uint32_t next;
};
static struct seq_entry *seqs;
static size_t seqs_cap, seqs_used;

/* The rank is in the key's high half, which a plain multiply would leave
 * out of the low bits used here (every rank of a communicator then probed
 * one long cluster: 17% of a 1,024-rank allreduce run): core/hash.h. */
static size_t seq_slot(int64_t key) {
    return (size_t)hash_mix64((uint64_t)key) & (seqs_cap - 1);
}

static void seqs_grow(void) {
    struct seq_entry *old = seqs;
    size_t oldcap = seqs_cap;
    seqs_cap = oldcap ? oldcap * 2 : 1024;
    seqs = xcalloc(seqs_cap, sizeof *seqs);
    for (size_t i = 0; i < oldcap; i++) {
        if (!old[i].key) continue;
        size_t j = seq_slot(old[i].key);
        while (seqs[j].key)
            j = (j + 1) & (seqs_cap - 1);
        seqs[j] = old[i];
    }
    free(old);
}

/* MPI_COMM_WORLD's, the most used, in an array by rank: a rank's next
 * number is then one line of its own (the table's probe was 3% of 4,096
 * ranks' allreduces). */
static uint32_t *world_seqs;

uint32_t api_next_coll_seq(int32_t rank, MPI_Comm comm) {
    if (comm == MPI_COMM_WORLD) {
        if (!world_seqs) world_seqs = xcalloc((size_t)sim_size(simpi_rt->sim), sizeof *world_seqs);
        return world_seqs[rank]++;
    }
    if ((seqs_used + 1) * 2 > seqs_cap) seqs_grow();
    int64_t key = (((int64_t)rank << 32) | (uint32_t)comm) + 1; /* 0 marks a free slot */
    size_t j = seq_slot(key);
    while (seqs[j].key && seqs[j].key != key)
        j = (j + 1) & (seqs_cap - 1);
    if (!seqs[j].key) {
        seqs[j].key = key;
        seqs_used++;
    }
    return seqs[j].next++;
}

/* Non-contiguous datatypes travel packed: inputs are packed before the call,
 * outputs land in a staging buffer unpacked when the call completes. */
struct stage {
    struct stage *prev, *next; /* every stage in use (stage_new) */
    void *in, *out, *user_out;
    int type;
    int64_t out_count;
    int64_t *arrays, *out_arrays, *in_arrays; /* counts, offsets and lengths for coll_data */
};

/* The stages in use, listed so that a run that stops while ranks are inside
 * collectives (their stacks abandoned) leaves them reachable, not leaked. */
static struct stage *stages;
/* Stages given back, linked by next: every collective call takes one, and
 * its allocation and release were 4% of 4,096 ranks' allreduces. */
static struct stage *spare_stages;

static struct stage *stage_new(void) {
    struct stage *st = spare_stages;
    if (st) {
        spare_stages = st->next;
        memset(st, 0, sizeof *st);
    } else {
        st = xcalloc(1, sizeof *st);
    }
    st->next = stages;
    if (stages) stages->prev = st;
    stages = st;
    return st;
}

static const void *stage_in(struct stage *st, const void *buf, int type, int64_t count) {
    if (dt_contiguous(type) || !buf || buf == MPI_IN_PLACE) return buf;
    st->in = xmalloc((size_t)(dt_size(type) * count) + 1);
    dt_pack(type, buf, count, st->in);
    return st->in;
}

static void *stage_out(struct stage *st, void *buf, int type, int64_t count) {
    if (dt_contiguous(type) || !buf || buf == MPI_IN_PLACE) return buf;
    st->out = xmalloc((size_t)(dt_size(type) * count) + 1);
    dt_pack(type, buf, count, st->out); /* keeps what is not overwritten */
    st->user_out = buf;
    st->type = type;
    dt_retain(type); /* unpacked with it at completion */
    st->out_count = count;
    return st->out;
}

void api_unstage(struct stage *st) {
    if (!st) return;
    if (st->prev)
        st->prev->next = st->next;
    else
        stages = st->next;
    if (st->next) st->next->prev = st->prev;
    if (st->out) {
        dt_unpack(st->type, st->out, st->out_count, st->user_out);
        dt_release(st->type);
    }
    free(st->in);
    free(st->out);
    free(st->arrays);
    free(st->out_arrays);
    free(st->in_arrays);
    st->next = spare_stages;
    spare_stages = st;
}

/* coll_data_arrive, then sim_icoll_v, on the scheduler's stack
 * (runtime_aside). */
struct arrive_args {
    uint32_t context, seq;
    int32_t n, me;
    struct coll_call *c;
    int rc;
};

static void arrive_aside(void *p) {
    struct arrive_args *a = p;
    a->rc = coll_data_arrive(a->context, a->seq, a->n, a->me, a->c);
}

struct icoll_args {
    int32_t me;
    MPI_Comm comm;
    enum coll_kind timing;
    int64_t wire_bytes;
    int root;
    const struct sched_counts *counts;
    bool nonblocking;
    struct request *out;
};

static void icoll_aside(void *p) {
    struct icoll_args *a = p;
    a->out = sim_icoll_v(simpi_rt->sim, a->me, a->comm, a->timing, a->wire_bytes, a->root, -1,
                         a->counts, a->nonblocking);
}

/* Starts one collective: deposits the data, starts the schedule. With
 * request == NULL, waits for it (a blocking call). */
static int run_v(const char *func, MPI_Comm comm, struct coll_call *c, enum coll_kind timing,
                 int64_t wire_bytes, const struct sched_counts *counts, struct stage *st,
                 MPI_Request *request) {
    struct sim *s = simpi_rt->sim;
    int32_t me = runtime_rank(), n = sim_comm_size(s, me, comm);
    if (api_is_inter(comm))
        runtime_abort_status(RUNTIME_EXIT_UNSUPPORTED,
                             "%s on an intercommunicator is not supported by simpi yet", func);
    if (c->root < 0 || c->root >= n) {
        api_unstage(st);
        return api_error(func, MPI_ERR_ROOT, "root %d is not in the communicator (size %d)",
                         c->root, n);
    }
    if (sim_failed_ranks(s) && sim_comm_failed(s, me, comm)) { /* ULFM (docs/faults.md) */
        api_unstage(st);
        return api_error(func, MPIX_ERR_PROC_FAILED,
                         "a member of the communicator failed (its node crashed)");
    }
    uint32_t seq = api_next_coll_seq(me, comm);
    c->owner = me;
    c->comm = comm;
    c->func = func;
    struct arrive_args ar = {sim_comm_context(s, me, comm), seq, n,
                             sim_comm_rank(s, me, comm),    c,   0};
    runtime_aside(arrive_aside, &ar);
    int rc = ar.rc;
    if (rc == MPI_ERR_OP && !coll_data_error()[0]) {
        api_unstage(st);
        return api_error(func, rc, "operation %d is not defined on datatype %d", c->op, c->type);
    }
    if (rc != MPI_SUCCESS) {
        api_unstage(st);
        return api_error(func, rc, "%s", coll_data_error());
    }
    struct icoll_args a = {me, comm, timing, wire_bytes, c->root, counts, request != NULL, NULL};
    runtime_aside(icoll_aside, &a);
    struct request *q = a.out;
    if (request) {
        struct simpi_request *w = api_request_new();
        w->r = q;
        w->stage = st;
        w->active = true;
        *request = w;
        return MPI_SUCCESS;
    }
    runtime_wait(&q, 1, false);
    api_unstage(st);
    if (sim_request_failed(s, q))
        return api_error(func, MPIX_ERR_PROC_FAILED,
                         "a member of the communicator failed during the call (its node crashed)");
    return MPI_SUCCESS;
}

static int run(const char *func, MPI_Comm comm, struct coll_call *c, enum coll_kind timing,
               int64_t wire_bytes, struct stage *st, MPI_Request *request) {
    return run_v(func, comm, c, timing, wire_bytes, NULL, st, request);
}

static int check(const char *func, MPI_Comm comm, MPI_Datatype type, int count) {
    int rc = api_check_comm(func, comm);
    return rc == MPI_SUCCESS ? api_check_type(func, type, count) : rc;
}

static void comm_shape(MPI_Comm comm, int *me, int *n) {
    *me = sim_comm_rank(simpi_rt->sim, runtime_rank(), comm);
    *n = sim_comm_size(simpi_rt->sim, runtime_rank(), comm);
}

/* A collective on an intercommunicator ran to completion in the call
 * (intercomm.c): a non-blocking form returns a request already complete. */
static int inter_done(int rc, MPI_Request *request) {
    if (rc == MPI_SUCCESS && request) api_request_done(request);
    return rc;
}

static int inter_reduction(const char *func, enum coll_data_kind kind, const void *sendbuf,
                           void *recvbuf, int count, const int *recvcounts, MPI_Datatype type,
                           MPI_Op op, int root, MPI_Comm comm, MPI_Request *request) {
    int rc;
    if (kind == CD_REDUCE)
        rc = api_inter_reduce(sendbuf, recvbuf, count, type, op, root, comm);
    else if (kind == CD_ALLREDUCE)
        rc = api_inter_allreduce(sendbuf, recvbuf, count, type, op, comm);
    else if (kind == CD_REDUCE_SCATTER)
        rc = api_inter_reduce_scatter(sendbuf, recvbuf, recvcounts, type, op, comm);
    else
        return api_error(func, MPI_ERR_COMM, "%s is not defined on intercommunicators", func);
    return inter_done(rc, request);
}

static int barrier(MPI_Comm comm, MPI_Request *request) {
    int rc = api_check_comm("MPI_Barrier", comm);
    if (rc != MPI_SUCCESS) return rc;
    if (api_is_inter(comm)) return inter_done(api_inter_barrier(comm), request);
    struct coll_call c = {.kind = CD_NONE};
    return run("MPI_Barrier", comm, &c, COLL_BARRIER, 0, NULL, request);
}

static int bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm,
                 MPI_Request *request) {
    int rc = check("MPI_Bcast", comm, type, count);
    if (rc == MPI_SUCCESS && !api_is_inter(comm))
        rc = api_check_data("MPI_Bcast", buf, count, type, "the buffer");
    if (rc != MPI_SUCCESS) return rc;
    if (api_is_inter(comm))
        return inter_done(api_inter_bcast(buf, count, type, root, comm), request);
    struct stage *st = stage_new();
    void *data = stage_out(st, buf, type, count);
    int64_t bytes = (int64_t)count * dt_size(type);
    struct coll_call c = {
        .kind = CD_BCAST, .root = root, .in = data, .in_len = bytes, .out = data, .out_len = bytes};
    return run("MPI_Bcast", comm, &c, COLL_BCAST, bytes, st, request);
}

/* reduce, allreduce, scan, exscan, reduce_scatter(_block) */
static int reduction(const char *func, enum coll_data_kind kind, const void *sendbuf, void *recvbuf,
                     int count, const int *recvcounts, MPI_Datatype type, MPI_Op op, int root,
                     MPI_Comm comm, MPI_Request *request) {
    int rc = check(func, comm, type, count);
    if (rc == MPI_SUCCESS && sendbuf != MPI_IN_PLACE && !api_is_inter(comm))
        rc = api_check_data(func, sendbuf, recvcounts ? 0 : count, type, "sendbuf");
    if (rc == MPI_SUCCESS && !recvcounts && !api_is_inter(comm) &&
        (kind != CD_REDUCE || sim_comm_rank(simpi_rt->sim, runtime_rank(), comm) == root))
        rc = api_check_overlap(func, sendbuf, count, type, recvbuf, count, type);
    if (rc != MPI_SUCCESS) return rc;
    if (!op_valid(op)) return api_error(func, MPI_ERR_OP, "operation %d is not valid", op);
    if (api_is_inter(comm))
        return inter_reduction(func, kind, sendbuf, recvbuf, count, recvcounts, type, op, root,
                               comm, request);
    int64_t per;
    int basic = dt_basic(type, &per), me, n;
    if (op_is_user(op)) { /* user functions see the caller's datatype and count */
        basic = type;
        per = 1;
        if (!dt_contiguous(type))
            return api_error(func, MPI_ERR_UNSUPPORTED_OPERATION,
                             "user operations on non-contiguous datatypes are not supported yet");
    } else if (basic <= 0) {
        return api_error(func, MPI_ERR_OP, "reductions need a datatype made of one basic type");
    }
    comm_shape(comm, &me, &n);
    struct stage *st = stage_new();
    int64_t total = count, mine = count; /* elements in the vector, and in my result */
    if (recvcounts) {
        total = 0;
        for (int j = 0; j < n; j++)
            total += recvcounts[j];
        mine = recvcounts[me];
        st->arrays = xcalloc((size_t)n, sizeof *st->arrays);
        for (int j = 0; j < n; j++)
            st->arrays[j] = recvcounts[j] * per;
    }
    bool gets = kind != CD_REDUCE || me == root;
    const void *in = stage_in(st, sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, type, total);
    void *out = gets ? stage_out(st, recvbuf, type, mine) : NULL;
    struct coll_call c = {.kind = kind,
                          .root = kind == CD_REDUCE ? root : 0,
                          .op = op,
                          .type = basic,
                          .count = total * per,
                          .esize = op_is_user(op) ? dt_size(type) : dtype_size(basic),
                          .in = in,
                          .in_len = total * dt_size(type),
                          .out = out,
                          .out_len_from = st->arrays};
    /* reduce_scatter is timed with the mean block per rank */
    enum coll_kind timing = kind == CD_REDUCE           ? COLL_REDUCE
                            : kind == CD_SCAN           ? COLL_SCAN
                            : kind == CD_EXSCAN         ? COLL_EXSCAN
                            : kind == CD_REDUCE_SCATTER ? COLL_REDUCE_SCATTER
                                                        : COLL_ALLREDUCE;
    int64_t wire = total * dt_size(type);
    if (kind != CD_REDUCE_SCATTER) return run(func, comm, &c, timing, wire, st, request);
    /* reduce_scatter: each rank's block, in bytes, for the schedule; the
     * block form (MPI_Reduce_scatter_block, MPI_Ireduce_scatter_block)
     * passes none: Open MPI chooses its algorithm by a table of its own */
    int64_t *blocks = xcalloc((size_t)n, sizeof *blocks);
    for (int j = 0; j < n; j++)
        blocks[j] = recvcounts[j] * dt_size(type);
    struct sched_counts counts = {NULL, blocks};
    bool block_form = strstr(func, "_scatter_block") != NULL;
    rc = run_v(func, comm, &c, timing, blocks[me], block_form ? NULL : &counts, st, request);
    free(blocks); /* the schedule keeps a copy */
    return rc;
}

/* Per-member offsets and lengths in bytes from counts and displacements in
 * elements (displs NULL: packed one after the other). */
static int64_t *layout(int64_t **slot, int n, const int *counts, const int *displs, int uniform,
                       int64_t esize, int64_t *total) {
    int64_t *a = xcalloc(2 * (size_t)n, sizeof *a);
    *total = 0;
    for (int j = 0; j < n; j++) {
        int64_t cnt = counts ? counts[j] : uniform;
        a[j] =
            (displs ? displs[j] : (counts ? *total / (esize ? esize : 1) : (int64_t)j * uniform)) *
            esize;
        a[n + j] = cnt * esize;
        if (a[j] + a[n + j] > *total) *total = a[j] + a[n + j];
    }
    *slot = a;
    return a;
}

/* gather(v), scatter(v), allgather(v), alltoall(v) */
struct vspec {
    const void *sendbuf;
    int sendcount;
    const int *sendcounts, *sdispls;
    MPI_Datatype sendtype;
    void *recvbuf;
    int recvcount;
    const int *recvcounts, *rdispls;
    MPI_Datatype recvtype;
    int root;
    bool vform; /* gatherv, scatterv, allgatherv, alltoallv */
};

static int inter_data(const char *func, enum coll_data_kind kind, const struct vspec *v,
                      MPI_Comm comm, MPI_Request *request) {
    struct inter_args a = {.sendbuf = v->sendbuf,
                           .scount = v->sendcount,
                           .scounts = v->sendcounts,
                           .sdispls = v->sdispls,
                           .stype = v->sendtype,
                           .recvbuf = v->recvbuf,
                           .rcount = v->recvcount,
                           .rcounts = v->recvcounts,
                           .rdispls = v->rdispls,
                           .rtype = v->recvtype,
                           .root = v->root};
    return inter_done(api_inter_move(func, kind, &a, comm), request);
}

static int data_coll(const char *func, enum coll_data_kind kind, const struct vspec *v,
                     MPI_Comm comm, MPI_Request *request) {
    int rc = api_check_comm(func, comm), me, n;
    if (rc != MPI_SUCCESS) return rc;
    if (api_is_inter(comm)) return inter_data(func, kind, v, comm, request);
    comm_shape(comm, &me, &n);
    bool root = me == v->root || kind == CD_ALLGATHER || kind == CD_ALLTOALL;
    bool in_place = v->sendbuf == MPI_IN_PLACE || v->recvbuf == MPI_IN_PLACE;
    /* a scatter's root always sends (in place, it keeps its own block and
     * ignores the receive arguments); elsewhere in place at a root replaces
     * the send arguments */
    bool sends = kind == CD_SCATTER ? root : !(in_place && root);
    bool recvs = kind == CD_SCATTER ? !(in_place && root) : root;
    if (sends && (rc = api_check_type(func, v->sendtype, 0)) != MPI_SUCCESS) return rc;
    if (recvs && (rc = api_check_type(func, v->recvtype, 0)) != MPI_SUCCESS) return rc;
    if (sends && recvs && !v->vform && !in_place) { /* all of both buffers (not the v-forms') */
        bool each_send = kind == CD_SCATTER || kind == CD_ALLTOALL; /* a block per member */
        bool each_recv = kind != CD_SCATTER;
        rc = api_check_overlap(func, v->sendbuf, each_send ? v->sendcount * n : v->sendcount,
                               v->sendtype, v->recvbuf, each_recv ? v->recvcount * n : v->recvcount,
                               v->recvtype);
        if (rc != MPI_SUCCESS) return rc;
    }
    struct stage *st = stage_new();
    struct coll_call c = {.kind = kind,
                          .root = kind == CD_GATHER || kind == CD_SCATTER ? v->root : 0};
    int64_t rsize = recvs ? dt_size(v->recvtype) : 0, ssize = sends ? dt_size(v->sendtype) : 0;
    int64_t out_bytes = 0, in_bytes = 0, wire = 0;
    int64_t *out_arr = NULL, *in_arr = NULL;
    /* the output side */
    if (recvs && kind != CD_SCATTER && !(kind == CD_GATHER && !root)) {
        out_arr =
            layout(&st->out_arrays, n, v->recvcounts, v->rdispls, v->recvcount, rsize, &out_bytes);
        c.out = stage_out(st, v->recvbuf, v->recvtype, out_bytes / (rsize ? rsize : 1));
        c.out_off = out_arr;
        c.out_len_from = out_arr + n;
    } else if (kind == CD_SCATTER && !(in_place && root)) {
        c.out = stage_out(st, v->recvbuf, v->recvtype, v->recvcount);
        out_bytes = v->recvcount * rsize;
        c.out_len = out_bytes;
    }
    /* the input side */
    if (kind == CD_SCATTER || kind == CD_ALLTOALL) {
        if (root || kind == CD_ALLTOALL) {
            const void *src = kind == CD_ALLTOALL && in_place ? c.out : v->sendbuf;
            int64_t esize = kind == CD_ALLTOALL && in_place ? rsize : ssize;
            in_arr = layout(
                &st->in_arrays, n, kind == CD_ALLTOALL && in_place ? v->recvcounts : v->sendcounts,
                kind == CD_ALLTOALL && in_place ? v->rdispls : v->sdispls,
                kind == CD_ALLTOALL && in_place ? v->recvcount : v->sendcount, esize, &in_bytes);
            c.in =
                src == c.out ? src : stage_in(st, src, v->sendtype, in_bytes / (esize ? esize : 1));
            c.in_len = in_bytes;
            c.in_off = in_arr;
            c.in_len_to = in_arr + n;
        }
    } else if (in_place && root) {
        c.in = (char *)c.out + (out_arr ? out_arr[me] : 0);
        c.in_len = out_arr ? out_arr[n + me] : 0;
    } else {
        c.in = stage_in(st, v->sendbuf, v->sendtype, v->sendcount);
        c.in_len = v->sendcount * ssize;
    }
    wire = (kind == CD_SCATTER ? out_bytes : c.in_len);
    if (kind == CD_ALLTOALL || (kind == CD_SCATTER && root)) wire = in_bytes / (n ? n : 1);
    /* variable counts: the bytes for each peer that this rank knows */
    /* (the v-forms' counts may be NULL where MPI says they are not
     * significant: a gatherv's recvcounts off the root, a scatterv's
     * sendcounts) */
    bool variable = v->vform;
    struct sched_counts counts = {NULL, NULL};
    if (variable) {
        if (kind == CD_SCATTER) wire = out_bytes;
        if (in_arr && (kind == CD_ALLTOALL || kind == CD_SCATTER)) counts.send = in_arr + n;
        if (out_arr && kind != CD_SCATTER) counts.recv = out_arr + n;
        if (kind == CD_ALLTOALL && in_place) counts.send = counts.recv;
    }
    rc = run_v(func, comm, &c,
               kind == CD_GATHER      ? COLL_GATHER
               : kind == CD_SCATTER   ? COLL_SCATTER
               : kind == CD_ALLGATHER ? COLL_ALLGATHER
                                      : COLL_ALLTOALL,
               wire, variable ? &counts : NULL, st, request);
    return rc;
}

/* --- entry points --- */

int PMPI_Barrier(MPI_Comm comm) {
    API_ENTER("MPI_Barrier");
    API_RETURN(barrier(comm, NULL));
}

int PMPI_Ibarrier(MPI_Comm comm, MPI_Request *request) {
    API_ENTER("MPI_Ibarrier");
    API_RETURN(barrier(comm, request));
}

int PMPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
    API_ENTER("MPI_Bcast");
    API_RETURN(bcast(buf, count, type, root, comm, NULL));
}

int PMPI_Ibcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm,
                MPI_Request *request) {
    API_ENTER("MPI_Ibcast");
    API_RETURN(bcast(buf, count, type, root, comm, request));
}

#define REDUCE_FN(NAME, INAME, KIND, ROOT_ARG, ROOT)                                               \
    int P##NAME(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type,                  \
                MPI_Op op ROOT_ARG, MPI_Comm comm) {                                               \
        API_ENTER(#NAME);                                                                          \
        API_RETURN(                                                                                \
            reduction(#NAME, KIND, sendbuf, recvbuf, count, NULL, type, op, ROOT, comm, NULL));    \
    }                                                                                              \
    int P##INAME(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type,                 \
                 MPI_Op op ROOT_ARG, MPI_Comm comm, MPI_Request *request) {                        \
        API_ENTER(#INAME);                                                                         \
        API_RETURN(reduction(#INAME, KIND, sendbuf, recvbuf, count, NULL, type, op, ROOT, comm,    \
                             request));                                                            \
    }

#define COMMA ,
REDUCE_FN(MPI_Reduce, MPI_Ireduce, CD_REDUCE, COMMA int root, root)
REDUCE_FN(MPI_Allreduce, MPI_Iallreduce, CD_ALLREDUCE, , 0)
REDUCE_FN(MPI_Scan, MPI_Iscan, CD_SCAN, , 0)
REDUCE_FN(MPI_Exscan, MPI_Iexscan, CD_EXSCAN, , 0)

int PMPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                        MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
    API_ENTER("MPI_Reduce_scatter");
    API_RETURN(reduction("MPI_Reduce_scatter", CD_REDUCE_SCATTER, sendbuf, recvbuf, 0, recvcounts,
                         type, op, 0, comm, NULL));
}

/* Reduce_scatter_block: reduce_scatter with the same count for every rank
 * (reduction() keeps its own copy of the counts). */
static int scatter_block(const char *func, const void *sendbuf, void *recvbuf, int recvcount,
                         MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request *request) {
    int me, n;
    comm_shape(comm, &me, &n);
    if (api_is_inter(comm)) n = api_inter_local_size(comm); /* this group's blocks */
    int *counts = xcalloc((size_t)n + 1, sizeof *counts);
    for (int j = 0; j < n; j++)
        counts[j] = recvcount;
    int rc =
        reduction(func, CD_REDUCE_SCATTER, sendbuf, recvbuf, 0, counts, type, op, 0, comm, request);
    free(counts);
    return rc;
}

int PMPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype type,
                              MPI_Op op, MPI_Comm comm) {
    API_ENTER("MPI_Reduce_scatter_block");
    API_RETURN(scatter_block("MPI_Reduce_scatter_block", sendbuf, recvbuf, recvcount, type, op,
                             comm, NULL));
}

int PMPI_Reduce_local(const void *inbuf, void *inoutbuf, int count, MPI_Datatype type, MPI_Op op) {
    int64_t per;
    int basic = dt_basic(type, &per);
    int rc = basic > 0 ? op_apply(op, basic, inbuf, inoutbuf, count * per) : MPI_ERR_TYPE;
    return rc == MPI_SUCCESS ? rc
                             : api_error("MPI_Reduce_local", rc, "op %d on datatype %d", op, type);
}

#define V(...) (&(struct vspec){__VA_ARGS__})

int api_coll_barrier(MPI_Comm comm) {
    return barrier(comm, NULL);
}

int api_coll_bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
    return bcast(buf, count, type, root, comm, NULL);
}

int api_coll_reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                    int root, MPI_Comm comm) {
    return reduction("MPI_Reduce", CD_REDUCE, sendbuf, recvbuf, count, NULL, type, op, root, comm,
                     NULL);
}

int api_coll_gather(const void *sendbuf, int bytes, void *recvbuf, int root, MPI_Comm comm) {
    return data_coll(
        "MPI_Gather", CD_GATHER,
        V(sendbuf, bytes, NULL, NULL, MPI_BYTE, recvbuf, bytes, NULL, NULL, MPI_BYTE, root, false),
        comm, NULL);
}

int api_coll_scatterv(const void *sendbuf, const int *counts, const int *displs, MPI_Datatype type,
                      void *recvbuf, int recvcount, int root, MPI_Comm comm) {
    return data_coll(
        "MPI_Scatterv", CD_SCATTER,
        V(sendbuf, 0, counts, displs, type, recvbuf, recvcount, NULL, NULL, type, root, true), comm,
        NULL);
}

int api_coll_allgather(const void *sendbuf, int bytes, void *recvbuf, MPI_Comm comm) {
    return data_coll(
        "MPI_Allgather", CD_ALLGATHER,
        V(sendbuf, bytes, NULL, NULL, MPI_BYTE, recvbuf, bytes, NULL, NULL, MPI_BYTE, 0, false),
        comm, NULL);
}

int PMPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
    API_ENTER("MPI_Gather");
    API_RETURN(data_coll("MPI_Gather", CD_GATHER,
                         V(sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, recvcount, NULL, NULL,
                           recvtype, root, false),
                         comm, NULL));
}

int PMPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                 MPI_Comm comm) {
    API_ENTER("MPI_Gatherv");
    API_RETURN(data_coll("MPI_Gatherv", CD_GATHER,
                         V(sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, 0, recvcounts, displs,
                           recvtype, root, true),
                         comm, NULL));
}

int PMPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
    API_ENTER("MPI_Scatter");
    API_RETURN(data_coll("MPI_Scatter", CD_SCATTER,
                         V(sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, recvcount, NULL, NULL,
                           recvtype, root, false),
                         comm, NULL));
}

int PMPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                  MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm) {
    API_ENTER("MPI_Scatterv");
    API_RETURN(data_coll("MPI_Scatterv", CD_SCATTER,
                         V(sendbuf, 0, sendcounts, displs, sendtype, recvbuf, recvcount, NULL, NULL,
                           recvtype, root, true),
                         comm, NULL));
}

int PMPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
    API_ENTER("MPI_Allgather");
    API_RETURN(data_coll("MPI_Allgather", CD_ALLGATHER,
                         V(sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, recvcount, NULL, NULL,
                           recvtype, 0, false),
                         comm, NULL));
}

int PMPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                    MPI_Comm comm) {
    API_ENTER("MPI_Allgatherv");
    API_RETURN(data_coll("MPI_Allgatherv", CD_ALLGATHER,
                         V(sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, 0, recvcounts, displs,
                           recvtype, 0, true),
                         comm, NULL));
}

int PMPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
    API_ENTER("MPI_Alltoall");
    API_RETURN(data_coll("MPI_Alltoall", CD_ALLTOALL,
                         V(sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, recvcount, NULL, NULL,
                           recvtype, 0, false),
                         comm, NULL));
}

int PMPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                   const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
    API_ENTER("MPI_Alltoallv");
    API_RETURN(data_coll("MPI_Alltoallv", CD_ALLTOALL,
                         V(sendbuf, 0, sendcounts, sdispls, sendtype, recvbuf, 0, recvcounts,
                           rdispls, recvtype, 0, true),
                         comm, NULL));
}

int PMPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                 MPI_Request *request) {
    API_ENTER("MPI_Igather");
    API_RETURN(data_coll("MPI_Igather", CD_GATHER,
                         V(sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, recvcount, NULL, NULL,
                           recvtype, root, false),
                         comm, request));
}

int PMPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                  MPI_Request *request) {
    API_ENTER("MPI_Iscatter");
    API_RETURN(data_coll("MPI_Iscatter", CD_SCATTER,
                         V(sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, recvcount, NULL, NULL,
                           recvtype, root, false),
                         comm, request));
}

int PMPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) {
    API_ENTER("MPI_Iallgather");
    API_RETURN(data_coll("MPI_Iallgather", CD_ALLGATHER,
                         V(sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, recvcount, NULL, NULL,
                           recvtype, 0, false),
                         comm, request));
}

int PMPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) {
    API_ENTER("MPI_Ialltoall");
    API_RETURN(data_coll("MPI_Ialltoall", CD_ALLTOALL,
                         V(sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, recvcount, NULL, NULL,
                           recvtype, 0, false),
                         comm, request));
}

/* MPI_ names are weak aliases of the PMPI_ entry points (profiling interface). */
#pragma weak MPI_Barrier = PMPI_Barrier
#pragma weak MPI_Ibarrier = PMPI_Ibarrier
#pragma weak MPI_Bcast = PMPI_Bcast
#pragma weak MPI_Ibcast = PMPI_Ibcast
#pragma weak MPI_Reduce = PMPI_Reduce
#pragma weak MPI_Ireduce = PMPI_Ireduce
#pragma weak MPI_Allreduce = PMPI_Allreduce
#pragma weak MPI_Iallreduce = PMPI_Iallreduce
#pragma weak MPI_Scan = PMPI_Scan
#pragma weak MPI_Iscan = PMPI_Iscan
#pragma weak MPI_Exscan = PMPI_Exscan
#pragma weak MPI_Iexscan = PMPI_Iexscan
#pragma weak MPI_Reduce_scatter = PMPI_Reduce_scatter
#pragma weak MPI_Reduce_scatter_block = PMPI_Reduce_scatter_block
#pragma weak MPI_Reduce_local = PMPI_Reduce_local
#pragma weak MPI_Gather = PMPI_Gather
#pragma weak MPI_Gatherv = PMPI_Gatherv
#pragma weak MPI_Scatter = PMPI_Scatter
#pragma weak MPI_Scatterv = PMPI_Scatterv
#pragma weak MPI_Allgather = PMPI_Allgather
#pragma weak MPI_Allgatherv = PMPI_Allgatherv
#pragma weak MPI_Alltoall = PMPI_Alltoall
#pragma weak MPI_Alltoallv = PMPI_Alltoallv
#pragma weak MPI_Igather = PMPI_Igather
#pragma weak MPI_Iscatter = PMPI_Iscatter
#pragma weak MPI_Iallgather = PMPI_Iallgather
#pragma weak MPI_Ialltoall = PMPI_Ialltoall

int PMPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                  MPI_Comm comm, MPI_Request *request) {
    API_ENTER("MPI_Igatherv");
    API_RETURN(data_coll("MPI_Igatherv", CD_GATHER,
                         V(sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, 0, recvcounts, displs,
                           recvtype, root, true),
                         comm, request));
}

int PMPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                   MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                   int root, MPI_Comm comm, MPI_Request *request) {
    API_ENTER("MPI_Iscatterv");
    API_RETURN(data_coll("MPI_Iscatterv", CD_SCATTER,
                         V(sendbuf, 0, sendcounts, displs, sendtype, recvbuf, recvcount, NULL, NULL,
                           recvtype, root, true),
                         comm, request));
}

int PMPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                     MPI_Comm comm, MPI_Request *request) {
    API_ENTER("MPI_Iallgatherv");
    API_RETURN(data_coll("MPI_Iallgatherv", CD_ALLGATHER,
                         V(sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, 0, recvcounts, displs,
                           recvtype, 0, true),
                         comm, request));
}

int PMPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                    MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                    const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                    MPI_Request *request) {
    API_ENTER("MPI_Ialltoallv");
    API_RETURN(data_coll("MPI_Ialltoallv", CD_ALLTOALL,
                         V(sendbuf, 0, sendcounts, sdispls, sendtype, recvbuf, 0, recvcounts,
                           rdispls, recvtype, 0, true),
                         comm, request));
}

int PMPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                         MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request *request) {
    API_ENTER("MPI_Ireduce_scatter");
    API_RETURN(reduction("MPI_Ireduce_scatter", CD_REDUCE_SCATTER, sendbuf, recvbuf, 0, recvcounts,
                         type, op, 0, comm, request));
}

#pragma weak MPI_Igatherv = PMPI_Igatherv
#pragma weak MPI_Iscatterv = PMPI_Iscatterv
#pragma weak MPI_Iallgatherv = PMPI_Iallgatherv
#pragma weak MPI_Ialltoallv = PMPI_Ialltoallv
#pragma weak MPI_Ireduce_scatter = PMPI_Ireduce_scatter

/* Alltoallw: a datatype and a byte displacement per peer. The pieces travel
 * packed; received pieces are unpacked with their own types afterwards. */
int PMPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                   const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
    API_ENTER("MPI_Alltoallw");
    int rc = api_check_comm("MPI_Alltoallw", comm), me, n;
    if (rc != MPI_SUCCESS) API_RETURN(rc);
    if (api_is_inter(comm)) {
        struct inter_args a = {.sendbuf = sendbuf,
                               .scounts = sendcounts,
                               .sdispls = sdispls,
                               .stypes = sendtypes,
                               .recvbuf = recvbuf,
                               .rcounts = recvcounts,
                               .rdispls = rdispls,
                               .rtypes = recvtypes};
        API_RETURN(api_inter_move("MPI_Alltoallw", CD_ALLTOALL, &a, comm));
    }
    comm_shape(comm, &me, &n);
    bool in_place = sendbuf == MPI_IN_PLACE;
    const void *src = in_place ? recvbuf : sendbuf;
    const int *sc = in_place ? recvcounts : sendcounts, *sd = in_place ? rdispls : sdispls;
    const MPI_Datatype *st = in_place ? recvtypes : sendtypes;
    int64_t *arr = xcalloc(4 * (size_t)n, sizeof *arr), in_total = 0, out_total = 0;
    for (int j = 0; j < n; j++) {
        if ((rc = api_check_type("MPI_Alltoallw", st[j], sc[j])) != MPI_SUCCESS ||
            (rc = api_check_type("MPI_Alltoallw", recvtypes[j], recvcounts[j])) != MPI_SUCCESS) {
            free(arr);
            API_RETURN(rc);
        }
        arr[j] = in_total;
        arr[n + j] = sc[j] * dt_size(st[j]);
        in_total += arr[n + j];
        arr[2 * n + j] = out_total;
        arr[3 * n + j] = recvcounts[j] * dt_size(recvtypes[j]);
        out_total += arr[3 * n + j];
    }
    char *packed = xmalloc((size_t)in_total + 1), *staged = xmalloc((size_t)out_total + 1);
    for (int j = 0; j < n; j++)
        dt_pack(st[j], (const char *)src + sd[j], sc[j], packed + arr[j]);
    struct coll_call c = {.kind = CD_ALLTOALL,
                          .in = packed,
                          .in_len = in_total,
                          .in_off = arr,
                          .in_len_to = arr + n,
                          .out = staged,
                          .out_len = out_total,
                          .out_off = arr + 2 * n,
                          .out_len_from = arr + 3 * n};
    struct sched_counts counts = {arr + n, arr + 3 * n};
    rc = run_v("MPI_Alltoallw", comm, &c, COLL_ALLTOALL, in_total / (n ? n : 1), &counts, NULL,
               NULL);
    if (rc == MPI_SUCCESS)
        for (int j = 0; j < n; j++)
            dt_unpack(recvtypes[j], staged + arr[2 * n + j], recvcounts[j],
                      (char *)recvbuf + rdispls[j]);
    free(packed);
    free(staged);
    free(arr);
    API_RETURN(rc);
}

int PMPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype type,
                               MPI_Op op, MPI_Comm comm, MPI_Request *request) {
    API_ENTER("MPI_Ireduce_scatter_block");
    API_RETURN(scatter_block("MPI_Ireduce_scatter_block", sendbuf, recvbuf, recvcount, type, op,
                             comm, request));
}

#pragma weak MPI_Alltoallw = PMPI_Alltoallw

/* The non-blocking form runs to completion in the call (the data and the
 * time are MPI_Alltoallw's; it does not overlap with computation yet) and
 * returns a request that is already complete. */
int PMPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                    const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                    const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                    MPI_Request *request) {
    int rc = PMPI_Alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                            recvtypes, comm);
    if (rc == MPI_SUCCESS) api_request_done(request);
    return rc;
}

#pragma weak MPI_Ialltoallw = PMPI_Ialltoallw
#pragma weak MPI_Ireduce_scatter_block = PMPI_Ireduce_scatter_block

int PMPI_Op_create(MPI_User_function *fn, int commute, MPI_Op *op) {
    *op = op_register((user_op_fn)fn, commute != 0);
    return MPI_SUCCESS;
}

int PMPI_Op_free(MPI_Op *op) {
    if (!op_free(*op))
        return api_error("MPI_Op_free", MPI_ERR_OP, "op %d is not user-defined", *op);
    *op = MPI_OP_NULL;
    return MPI_SUCCESS;
}

int PMPI_Op_commutative(MPI_Op op, int *commute) {
    if (!op_valid(op)) return api_error("MPI_Op_commutative", MPI_ERR_OP, "op %d is not valid", op);
    *commute = op_commutes(op);
    return MPI_SUCCESS;
}

#pragma weak MPI_Op_create = PMPI_Op_create
#pragma weak MPI_Op_free = PMPI_Op_free
#pragma weak MPI_Op_commutative = PMPI_Op_commutative
