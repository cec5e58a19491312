/* MPI collective entry points: timing through the MPI layer's schedules,
 * data through coll_data (see coll_data.h). */
#include <stdlib.h>
#include <string.h>

#include "core/pool.h"
#include "online/api.h"
#include "online/coll_data.h"
#include "online/datatype.h"

/* Collective sequence numbers per (rank, communicator id). */
struct seq_entry {
    int64_t key;
    uint32_t next;
};
static struct seq_entry *seqs;
static size_t seqs_cap, seqs_used;

uint32_t api_next_coll_seq(int32_t rank, MPI_Comm comm) {
    int64_t key = ((int64_t)rank << 32) | (uint32_t)comm;
    if ((seqs_used + 1) * 2 > seqs_cap) {
        struct seq_entry *old = seqs;
        size_t oldcap = seqs_cap;
        seqs_cap = oldcap ? oldcap * 2 : 1024;
        seqs = xcalloc(seqs_cap, sizeof *seqs);
        seqs_used = 0;
        for (size_t i = 0; i < oldcap; i++)
            if (old[i].key) {
                size_t j = (size_t)(old[i].key * 0x9E3779B97F4A7C15ll >> 20) & (seqs_cap - 1);
                while (seqs[j].key)
                    j = (j + 1) & (seqs_cap - 1);
                seqs[j] = old[i];
                seqs_used++;
            }
        free(old);
    }
    key += 1; /* 0 marks a free slot */
    size_t j = (size_t)(key * 0x9E3779B97F4A7C15ll >> 20) & (seqs_cap - 1);
    while (seqs[j].key && seqs[j].key != key)
        j = (j + 1) & (seqs_cap - 1);
    if (!seqs[j].key) {
        seqs[j].key = key;
        seqs_used++;
    }
    return seqs[j].next++;
}

/* Runs one collective: deposits the data, then waits for the schedule. */
static int run(const char *func, MPI_Comm comm, struct coll_call *c, int64_t wire_bytes) {
    struct sim *s = simpi_rt->sim;
    int32_t me = runtime_rank(), n = sim_comm_size(s, me, comm);
    if (c->root < 0 || c->root >= n)
        return api_error(func, MPI_ERR_ROOT, "root %d is not in the communicator (size %d)",
                         c->root, n);
    uint32_t seq = api_next_coll_seq(me, comm);
    int rc = coll_data_arrive(sim_comm_context(s, me, comm), seq, n, sim_comm_rank(s, me, comm), c);
    if (rc != MPI_SUCCESS)
        return api_error(func, rc, "operation %d is not defined on datatype %d", c->op, c->type);
    struct request *q = sim_icoll(s, me, comm, c->kind, wire_bytes, c->root, -1);
    runtime_wait(&q, 1, false);
    return MPI_SUCCESS;
}

/* Non-contiguous datatypes travel packed: inputs are packed before the call,
 * outputs land in a staging buffer and are unpacked after it. */
struct stage {
    void *in, *out, *user_out;
    int type;
    int64_t out_count;
};

static const void *stage_in(struct stage *st, const void *buf, int type, int64_t count) {
    if (dt_contiguous(type) || !buf || buf == MPI_IN_PLACE) return buf;
    st->in = xmalloc((size_t)(dt_size(type) * count) + 1);
    dt_pack(type, buf, count, st->in);
    return st->in;
}

static void *stage_out(struct stage *st, void *buf, int type, int64_t count) {
    if (dt_contiguous(type) || !buf || buf == MPI_IN_PLACE) return buf;
    st->out = xmalloc((size_t)(dt_size(type) * count) + 1);
    dt_pack(type, buf, count, st->out); /* keeps in-place contents */
    st->user_out = buf;
    st->type = type;
    st->out_count = count;
    return st->out;
}

static int unstage(struct stage *st, int rc) {
    if (st->out && rc == MPI_SUCCESS) dt_unpack(st->type, st->out, st->out_count, st->user_out);
    free(st->in);
    free(st->out);
    return rc;
}

static int check(const char *func, MPI_Comm comm, MPI_Datatype type, int count) {
    int rc = api_check_comm(func, comm);
    return rc == MPI_SUCCESS ? api_check_type(func, type, count) : rc;
}

int PMPI_Barrier(MPI_Comm comm) {
    API_ENTER("MPI_Barrier");
    int rc = api_check_comm("MPI_Barrier", comm);
    struct coll_call c = {COLL_BARRIER, 0, 0, MPI_BYTE, 0, 1, NULL, NULL};
    API_RETURN(rc == MPI_SUCCESS ? run("MPI_Barrier", comm, &c, 0) : rc);
}

int PMPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
    API_ENTER("MPI_Bcast");
    int rc = check("MPI_Bcast", comm, type, count);
    if (rc != MPI_SUCCESS) API_RETURN(rc);
    int64_t es = dt_size(type);
    struct stage st = {0};
    void *data = stage_out(&st, buf, type, count);
    struct coll_call c = {COLL_BCAST, root, 0, type, count, (int)es, data, data};
    API_RETURN(unstage(&st, run("MPI_Bcast", comm, &c, (int64_t)count * es)));
}

static int reduction(const char *func, const void *sendbuf, void *recvbuf, int count,
                     MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm, bool all) {
    int rc = check(func, comm, type, count);
    if (rc != MPI_SUCCESS) return rc;
    if (!op_valid(op)) return api_error(func, MPI_ERR_OP, "operation %d is not valid", op);
    int64_t per;
    int basic = dt_basic(type, &per);
    if (basic <= 0)
        return api_error(func, MPI_ERR_OP, "reductions need a datatype made of one basic type");
    int me = sim_comm_rank(simpi_rt->sim, runtime_rank(), comm);
    bool gets_result = all || me == root;
    struct stage st = {0};
    const void *in = stage_in(&st, sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, type, count);
    void *out = gets_result ? stage_out(&st, recvbuf, type, count) : NULL;
    struct coll_call c = {all ? COLL_ALLREDUCE : COLL_REDUCE,
                          all ? 0 : root,
                          op,
                          basic,
                          count * per,
                          dtype_size(basic),
                          in,
                          out};
    return unstage(&st, run(func, comm, &c, (int64_t)count * dt_size(type)));
}

int PMPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                int root, MPI_Comm comm) {
    API_ENTER("MPI_Reduce");
    API_RETURN(reduction("MPI_Reduce", sendbuf, recvbuf, count, type, op, root, comm, false));
}

int PMPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                   MPI_Comm comm) {
    API_ENTER("MPI_Allreduce");
    API_RETURN(reduction("MPI_Allreduce", sendbuf, recvbuf, count, type, op, 0, comm, true));
}

/* Gather-like calls: block = sendcount elements of sendtype (the receive side
 * must describe the same bytes, as MPI requires for these calls). */
static int blocks(const char *func, enum coll_kind kind, const void *sendbuf, int sendcount,
                  MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm) {
    int rc = api_check_comm(func, comm);
    if (rc != MPI_SUCCESS) return rc;
    struct sim *s = simpi_rt->sim;
    int me = sim_comm_rank(s, runtime_rank(), comm), n = sim_comm_size(s, runtime_rank(), comm);
    bool in_place = sendbuf == MPI_IN_PLACE;
    bool is_root = me == root || kind == COLL_ALLGATHER || kind == COLL_ALLTOALL;
    /* the side that describes the data: receivers for in-place, senders otherwise */
    int count = in_place || (kind == COLL_SCATTER && !is_root) ? recvcount : sendcount;
    MPI_Datatype type = in_place || (kind == COLL_SCATTER && !is_root) ? recvtype : sendtype;
    if ((rc = api_check_type(func, type, count)) != MPI_SUCCESS) return rc;
    int64_t es = dt_size(type), block = (int64_t)count * es;
    /* elements in this rank's input and output buffers */
    int64_t in_n =
        kind == COLL_ALLTOALL || (kind == COLL_SCATTER && is_root) ? (int64_t)count * n : count;
    int64_t out_n = kind == COLL_GATHER || kind == COLL_ALLGATHER || kind == COLL_ALLTOALL
                        ? (int64_t)count * n
                        : count;
    struct stage st = {0};
    void *out = recvbuf;
    if (kind == COLL_GATHER && !is_root) out = NULL;
    if (kind == COLL_SCATTER && in_place && is_root) out = NULL;
    out = stage_out(&st, out, type, out_n);
    const void *in = stage_in(&st, sendbuf, type, in_n);
    if (in_place && (kind == COLL_GATHER || kind == COLL_ALLGATHER)) in = (char *)out + block * me;
    if (in_place && kind == COLL_ALLTOALL) in = out;
    struct coll_call c = {
        kind, kind == COLL_GATHER || kind == COLL_SCATTER ? root : 0, 0, type, count, (int)es, in,
        out};
    return unstage(&st, run(func, comm, &c, block));
}

int PMPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
    API_ENTER("MPI_Gather");
    API_RETURN(blocks("MPI_Gather", COLL_GATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                      recvtype, root, comm));
}

int PMPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
    API_ENTER("MPI_Scatter");
    API_RETURN(blocks("MPI_Scatter", COLL_SCATTER, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                      recvtype, root, comm));
}

int PMPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
    API_ENTER("MPI_Allgather");
    API_RETURN(blocks("MPI_Allgather", COLL_ALLGATHER, sendbuf, sendcount, sendtype, recvbuf,
                      recvcount, recvtype, 0, comm));
}

int PMPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
    API_ENTER("MPI_Alltoall");
    API_RETURN(blocks("MPI_Alltoall", COLL_ALLTOALL, sendbuf, sendcount, sendtype, recvbuf,
                      recvcount, recvtype, 0, comm));
}

/* MPI_ names are weak aliases of the PMPI_ entry points (profiling interface). */
#pragma weak MPI_Barrier = PMPI_Barrier
#pragma weak MPI_Bcast = PMPI_Bcast
#pragma weak MPI_Reduce = PMPI_Reduce
#pragma weak MPI_Allreduce = PMPI_Allreduce
#pragma weak MPI_Gather = PMPI_Gather
#pragma weak MPI_Scatter = PMPI_Scatter
#pragma weak MPI_Allgather = PMPI_Allgather
#pragma weak MPI_Alltoall = PMPI_Alltoall
