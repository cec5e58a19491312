/* Intercommunicators (MPI-3.1 section 6.6) for on-line programs: creation
 * from two groups' leaders, merging into an intracommunicator, the remote
 * group's queries, point-to-point between the groups (a send to rank r
 * reaches rank r of the remote group; the MPI layer's intercommunicator
 * maps it), and the collectives MPI defines on them for barrier, bcast,
 * reduce, allreduce and allgather, built as MPICH builds them: within each
 * group on a private intracommunicator, between the groups by their
 * leaders (local rank 0), on a shadow intercommunicator whose messages
 * never meet the program's. */
#include <stdlib.h>
#include <string.h>

#include "core/pool.h"
#include "online/api/api.h"

struct inter {
    int32_t world;    /* the rank that knows it */
    MPI_Comm id;      /* the program's handle */
    MPI_Comm local;   /* private intracommunicator of the local group */
    MPI_Comm shadow;  /* private intercommunicator for collectives */
    int32_t *lw, *rw; /* world ranks of the local and remote groups */
    int nl, nr;
};

/* Each allocated on its own: a rank blocked in a call keeps its pointer
 * while others add intercommunicators. */
static struct inter **inters;
static int ninters;

static struct inter *inter_find(MPI_Comm comm) {
    int32_t me = runtime_rank();
    for (int i = 0; i < ninters; i++)
        if (inters[i]->world == me && inters[i]->id == comm && inters[i]->lw) return inters[i];
    return NULL;
}

bool api_is_inter(MPI_Comm comm) {
    return inter_find(comm) != NULL;
}

int api_inter_local_size(MPI_Comm comm) {
    struct inter *x = inter_find(comm);
    return x ? x->nl : -1;
}

/* --- point-to-point among simpi's own messages --- */

/* Sends and receives bytes with rank peer of (inter)communicator comm. */
static void exchange(MPI_Comm comm, int peer, const void *out, int64_t nout, void *in, int64_t nin,
                     int tag) {
    struct sim *s = simpi_rt->sim;
    int32_t me = runtime_rank();
    struct sim_recv_target t = {.buf = in, .capacity = nin, .owner = me};
    struct request *q[2];
    int n = 0;
    if (in) q[n++] = sim_irecv_buf(s, me, comm, peer, tag, &t);
    if (out) q[n++] = sim_isend_buf(s, me, comm, peer, tag, nout, SEND_STANDARD, out);
    runtime_wait(q, n, false);
}

/* --- creation --- */

static int record(MPI_Comm id, MPI_Comm local, MPI_Comm shadow, const int32_t *lw, int nl,
                  const int32_t *rw, int nr) {
    inters = xrealloc_or_die(inters, sizeof *inters * (size_t)(ninters + 1));
    struct inter *x = inters[ninters++] = xmalloc(sizeof *x);
    *x = (struct inter){runtime_rank(), id, local, shadow, NULL, NULL, nl, nr};
    x->lw = xmalloc(sizeof *x->lw * (size_t)nl);
    x->rw = xmalloc(sizeof *x->rw * (size_t)nr);
    memcpy(x->lw, lw, sizeof *lw * (size_t)nl);
    memcpy(x->rw, rw, sizeof *rw * (size_t)nr);
    return MPI_SUCCESS;
}

/* Both groups known: makes the intercommunicator (and its shadow). */
static MPI_Comm join(MPI_Comm local_comm, const int32_t *lw, int nl, const int32_t *rw, int nr) {
    struct sim *s = simpi_rt->sim;
    MPI_Comm id = api_comm_new_id(), shadow = api_comm_new_id();
    sim_intercomm_create(s, runtime_rank(), lw, nl, rw, nr, 0, id);
    sim_intercomm_create(s, runtime_rank(), lw, nl, rw, nr, 1, shadow);
    MPI_Comm local = api_comm_dup_private(local_comm); /* also: every member is there */
    record(id, local, shadow, lw, nl, rw, nr);
    api_inherit_errhandler(local_comm, id);
    return id;
}

static int intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
                            int remote_leader, int tag, MPI_Comm *newcomm) {
    const char *func = "MPI_Intercomm_create";
    int rc = api_check_comm(func, local_comm);
    if (rc != MPI_SUCCESS) return rc;
    int nl, nr = 0, me = sim_comm_rank(simpi_rt->sim, runtime_rank(), local_comm);
    int32_t *lw = api_comm_members(local_comm, &nl), *rw = NULL;
    if (local_leader < 0 || local_leader >= nl) {
        free(lw);
        return api_error(func, MPI_ERR_RANK, "local leader %d is not in the group", local_leader);
    }
    if (me == local_leader) { /* the leaders swap their groups over peer_comm */
        if ((rc = api_check_comm(func, peer_comm)) != MPI_SUCCESS) {
            free(lw);
            return rc;
        }
        exchange(peer_comm, remote_leader, &nl, sizeof nl, &nr, sizeof nr, tag);
        rw = xmalloc(sizeof *rw * (size_t)(nr + 1));
        exchange(peer_comm, remote_leader, lw, sizeof *lw * (size_t)nl, rw, sizeof *rw * (size_t)nr,
                 tag);
    }
    api_coll_bcast(&nr, 1, MPI_INT, local_leader, local_comm);
    if (!rw) rw = xmalloc(sizeof *rw * (size_t)(nr + 1));
    api_coll_bcast(rw, nr, MPI_INT32_T, local_leader, local_comm);
    *newcomm = join(local_comm, lw, nl, rw, nr);
    free(lw);
    free(rw);
    return MPI_SUCCESS;
}

/* The merged group: the group that passed high = false first (on a tie,
 * the group holding the lower world rank), each in its rank order. */
static int intercomm_merge(MPI_Comm comm, int high, MPI_Comm *newcomm) {
    struct inter *x = inter_find(comm);
    if (!x)
        return api_error("MPI_Intercomm_merge", MPI_ERR_COMM,
                         "communicator %d is not an "
                         "intercommunicator",
                         comm);
    int mine = high != 0, theirs = 0;
    if (sim_comm_rank(simpi_rt->sim, runtime_rank(), x->local) == 0)
        exchange(x->shadow, 0, &mine, sizeof mine, &theirs, sizeof theirs, 0);
    api_coll_bcast(&theirs, 1, MPI_INT, 0, x->local);
    bool first = mine != theirs ? !mine : x->lw[0] < x->rw[0];
    int n = x->nl + x->nr;
    int32_t *w = xmalloc(sizeof *w * (size_t)n);
    memcpy(w + (first ? 0 : x->nr), x->lw, sizeof *w * (size_t)x->nl);
    memcpy(w + (first ? x->nl : 0), x->rw, sizeof *w * (size_t)x->nr);
    uint32_t ctx = sim_comm_context(simpi_rt->sim, runtime_rank(), x->id);
    int rc = api_comm_create_group(MPI_COMM_WORLD, w, n, -2 - (int)(ctx & 0x3fffffff), newcomm);
    free(w);
    if (rc == MPI_SUCCESS) api_inherit_errhandler(comm, *newcomm);
    return rc;
}

/* MPI_Comm_dup of an intercommunicator: the same two groups. */
int api_inter_dup(MPI_Comm comm, MPI_Comm *newcomm) {
    struct inter *x = inter_find(comm);
    *newcomm = join(x->local, x->lw, x->nl, x->rw, x->nr);
    return MPI_SUCCESS;
}

void api_inter_free(MPI_Comm comm) {
    struct inter *x = inter_find(comm);
    if (!x) return;
    free(x->lw);
    free(x->rw);
    x->lw = x->rw = NULL;
}

static int remote_size(MPI_Comm comm, int *size) {
    struct inter *x = inter_find(comm);
    if (!x) return api_error("MPI_Comm_remote_size", MPI_ERR_COMM, "not an intercommunicator");
    *size = x->nr;
    return MPI_SUCCESS;
}

static int remote_group(MPI_Comm comm, MPI_Group *group) {
    struct inter *x = inter_find(comm);
    if (!x) return api_error("MPI_Comm_remote_group", MPI_ERR_COMM, "not an intercommunicator");
    *group = api_group_of(x->rw, x->nr);
    return MPI_SUCCESS;
}

/* --- collectives between the groups --- */

/* Whether this rank leads its group (local rank 0). */
static bool leader(const struct inter *x) {
    return sim_comm_rank(simpi_rt->sim, runtime_rank(), x->local) == 0;
}

int api_inter_barrier(MPI_Comm comm) {
    struct inter *x = inter_find(comm);
    api_coll_barrier(x->local);
    char none = 0, got;
    if (leader(x)) exchange(x->shadow, 0, &none, 0, &got, 0, 0);
    api_coll_barrier(x->local);
    return MPI_SUCCESS;
}

/* root: MPI_ROOT at the root, MPI_PROC_NULL in its group's other ranks,
 * the root's rank in the other group. */
int api_inter_bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
    struct inter *x = inter_find(comm);
    int64_t bytes = (int64_t)count * dt_size(type);
    char *packed = xmalloc(bytes > 0 ? (size_t)bytes : 1);
    if (root == MPI_ROOT) {
        dt_pack(type, buf, count, packed);
        exchange(x->shadow, 0, packed, bytes, NULL, 0, 1);
    } else if (root != MPI_PROC_NULL) {
        if (leader(x)) exchange(x->shadow, root, NULL, 0, packed, bytes, 1);
        api_coll_bcast(packed, (int)bytes, MPI_BYTE, 0, x->local);
        dt_unpack(type, packed, count, buf);
    }
    free(packed);
    return MPI_SUCCESS;
}

/* The reduction of this group's data at its leader (into out, packed). */
static int reduce_local(const struct inter *x, const void *sendbuf, void *out, int count,
                        MPI_Datatype type, MPI_Op op) {
    return api_coll_reduce(sendbuf, out, count, type, op, 0, x->local);
}

int api_inter_reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                     int root, MPI_Comm comm) {
    struct inter *x = inter_find(comm);
    int64_t bytes = (int64_t)count * dt_extent(type);
    if (root == MPI_ROOT) { /* receives the other group's result */
        exchange(x->shadow, 0, NULL, 0, recvbuf, bytes, 2);
    } else if (root != MPI_PROC_NULL) { /* the sending group */
        char *tmp = xmalloc(bytes > 0 ? (size_t)bytes : 1);
        int rc = reduce_local(x, sendbuf, tmp, count, type, op);
        if (rc == MPI_SUCCESS && leader(x)) exchange(x->shadow, root, tmp, bytes, NULL, 0, 2);
        free(tmp);
        return rc;
    }
    return MPI_SUCCESS;
}

/* Each group gets the other group's reduction. */
int api_inter_allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                        MPI_Comm comm) {
    struct inter *x = inter_find(comm);
    int64_t bytes = (int64_t)count * dt_extent(type);
    char *mine = xmalloc(bytes > 0 ? (size_t)bytes : 1);
    int rc = reduce_local(x, sendbuf, mine, count, type, op);
    if (rc == MPI_SUCCESS && leader(x)) exchange(x->shadow, 0, mine, bytes, recvbuf, bytes, 3);
    free(mine);
    if (rc == MPI_SUCCESS) rc = api_coll_bcast(recvbuf, count, type, 0, x->local);
    return rc;
}

/* Each rank gets the other group's blocks, in their rank order. */
int api_inter_allgather(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf,
                        int rcount, MPI_Datatype rtype, MPI_Comm comm) {
    struct inter *x = inter_find(comm);
    int64_t sblock = (int64_t)scount * dt_size(stype), rblock = (int64_t)rcount * dt_size(rtype);
    char *mine = xmalloc((size_t)(sblock * x->nl) + 1),
         *theirs = xmalloc((size_t)(rblock * x->nr) + 1);
    char *one = xmalloc((size_t)sblock + 1);
    dt_pack(stype, sendbuf, scount, one);
    int rc = api_coll_gather(one, (int)sblock, mine, 0, x->local);
    if (rc == MPI_SUCCESS && leader(x))
        exchange(x->shadow, 0, mine, sblock * x->nl, theirs, rblock * x->nr, 4);
    if (rc == MPI_SUCCESS)
        rc = api_coll_bcast(theirs, (int)(rblock * x->nr), MPI_BYTE, 0, x->local);
    if (rc == MPI_SUCCESS) dt_unpack(rtype, theirs, (int64_t)rcount * x->nr, recvbuf);
    free(mine);
    free(theirs);
    free(one);
    return rc;
}

/* --- entry points --- */

int PMPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
                          int remote_leader, int tag, MPI_Comm *newcomm) {
    API_ENTER("MPI_Intercomm_create");
    API_RETURN(intercomm_create(local_comm, local_leader, peer_comm, remote_leader, tag, newcomm));
}

int PMPI_Intercomm_merge(MPI_Comm comm, int high, MPI_Comm *newcomm) {
    API_ENTER("MPI_Intercomm_merge");
    API_RETURN(intercomm_merge(comm, high, newcomm));
}

int PMPI_Comm_remote_size(MPI_Comm comm, int *size) {
    API_ENTER("MPI_Comm_remote_size");
    API_RETURN(remote_size(comm, size));
}

int PMPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group) {
    API_ENTER("MPI_Comm_remote_group");
    API_RETURN(remote_group(comm, group));
}

int PMPI_Comm_test_inter(MPI_Comm comm, int *flag) {
    API_ENTER("MPI_Comm_test_inter");
    int rc = api_check_comm("MPI_Comm_test_inter", comm);
    if (rc == MPI_SUCCESS) *flag = api_is_inter(comm);
    API_RETURN(rc);
}

#pragma weak MPI_Intercomm_create = PMPI_Intercomm_create
#pragma weak MPI_Intercomm_merge = PMPI_Intercomm_merge
#pragma weak MPI_Comm_remote_size = PMPI_Comm_remote_size
#pragma weak MPI_Comm_remote_group = PMPI_Comm_remote_group
#pragma weak MPI_Comm_test_inter = PMPI_Comm_test_inter
