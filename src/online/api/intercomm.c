/* SPDX-License-Identifier: BSD-3-Clause */
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

#include "core/alloc.h"
#include "online/api/api.h"
#include "online/coll_data.h"

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

int32_t *api_inter_local_members(MPI_Comm comm, int *n) {
    struct inter *x = inter_find(comm);
    if (!x) return NULL;
    int32_t *w = xmalloc(sizeof *w * (size_t)(x->nl + 1));
    memcpy(w, x->lw, sizeof *w * (size_t)x->nl);
    *n = x->nl;
    return w;
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

/* --- the other collectives: messages between the groups' members --- */

/* Pending transfers of one collective, each block packed: sends are
 * packed before they leave, receives unpacked once all have arrived. */
struct moves {
    struct request **q;
    struct sim_recv_target *t;
    char **tmp;
    void **dest; /* unpack into (receives), NULL for sends */
    MPI_Datatype *type;
    int *count;
    int n, cap;
};

static int move_slot(struct moves *m) {
    if (m->n == m->cap) {
        m->cap = m->cap ? 2 * m->cap : 16;
        m->q = xrealloc_or_die(m->q, sizeof *m->q * (size_t)m->cap);
        m->t = xrealloc_or_die(m->t, sizeof *m->t * (size_t)m->cap);
        m->tmp = xrealloc_or_die(m->tmp, sizeof *m->tmp * (size_t)m->cap);
        m->dest = xrealloc_or_die(m->dest, sizeof *m->dest * (size_t)m->cap);
        m->type = xrealloc_or_die(m->type, sizeof *m->type * (size_t)m->cap);
        m->count = xrealloc_or_die(m->count, sizeof *m->count * (size_t)m->cap);
    }
    return m->n++;
}

static void move_send(struct moves *m, const struct inter *x, int peer, const void *buf, int count,
                      MPI_Datatype type, int tag) {
    int i = move_slot(m);
    int64_t bytes = (int64_t)count * dt_size(type);
    m->tmp[i] = xmalloc((size_t)bytes + 1);
    dt_pack(type, buf, count, m->tmp[i]);
    m->dest[i] = NULL;
    m->q[i] = sim_isend_buf(simpi_rt->sim, runtime_rank(), x->shadow, peer, tag, bytes,
                            SEND_STANDARD, m->tmp[i]);
}

static void move_recv(struct moves *m, const struct inter *x, int peer, void *buf, int count,
                      MPI_Datatype type, int tag) {
    int i = move_slot(m);
    int64_t bytes = (int64_t)count * dt_size(type);
    m->tmp[i] = xmalloc((size_t)bytes + 1);
    m->dest[i] = buf;
    m->type[i] = type;
    m->count[i] = count;
    m->t[i] =
        (struct sim_recv_target){.buf = m->tmp[i], .capacity = bytes, .owner = runtime_rank()};
    m->q[i] = sim_irecv_buf(simpi_rt->sim, runtime_rank(), x->shadow, peer, tag, &m->t[i]);
}

/* Waits for every transfer, unpacks what arrived, frees the lot. */
static void moves_finish(struct moves *m) {
    if (m->n) runtime_wait(m->q, m->n, false);
    for (int i = 0; i < m->n; i++) {
        if (m->dest[i]) dt_unpack(m->type[i], m->tmp[i], m->count[i], m->dest[i]);
        free(m->tmp[i]);
    }
    free(m->q);
    free(m->t);
    free(m->tmp);
    free(m->dest);
    free(m->type);
    free(m->count);
}

/* Peer j's block of a send (s = true) or receive side: its address, count
 * and datatype. */
static void block_of(const struct inter_args *a, bool s, int j, const char **buf, int *count,
                     MPI_Datatype *type) {
    const int *counts = s ? a->scounts : a->rcounts, *displs = s ? a->sdispls : a->rdispls;
    const MPI_Datatype *types = s ? a->stypes : a->rtypes;
    int one = s ? a->scount : a->rcount;
    *type = types ? types[j] : s ? a->stype : a->rtype;
    *count = counts ? counts[j] : one;
    int64_t at;
    if (types) /* alltoallw: displacements in bytes */
        at = displs[j];
    else if (displs)
        at = (int64_t)displs[j] * dt_extent(*type);
    else
        at = (int64_t)j * one * dt_extent(*type);
    *buf = (const char *)(s ? a->sendbuf : a->recvbuf) + at;
}

/* Sends (send = true) or receives peer's block j. */
static void move_block(struct moves *m, const struct inter *x, const struct inter_args *a,
                       bool send, int j, int peer, int tag) {
    const char *b;
    int count;
    MPI_Datatype type;
    block_of(a, send, j, &b, &count, &type);
    if (send)
        move_send(m, x, peer, b, count, type, tag);
    else
        move_recv(m, x, peer, (void *)b, count, type, tag);
}

int api_inter_move(const char *func, int kind, const struct inter_args *a, MPI_Comm comm) {
    struct inter *x = inter_find(comm);
    if (a->sendbuf == MPI_IN_PLACE || a->recvbuf == MPI_IN_PLACE)
        return api_error(func, MPI_ERR_BUFFER, "MPI_IN_PLACE is not valid on an intercommunicator");
    bool rooted = kind == CD_GATHER || kind == CD_SCATTER;
    if (rooted && a->root != MPI_ROOT && a->root != MPI_PROC_NULL &&
        (a->root < 0 || a->root >= x->nr))
        return api_error(func, MPI_ERR_ROOT, "root %d is not in the remote group (size %d)",
                         a->root, x->nr);
    struct moves m = {0};
    int tag = 16 + kind, me = sim_comm_rank(simpi_rt->sim, runtime_rank(), x->local);
    if (kind == CD_GATHER && a->root == MPI_ROOT) {
        for (int i = 0; i < x->nr; i++)
            move_block(&m, x, a, false, i, i, tag);
    } else if (kind == CD_GATHER && a->root != MPI_PROC_NULL) {
        move_send(&m, x, a->root, a->sendbuf, a->scount, a->stype, tag);
    } else if (kind == CD_SCATTER && a->root == MPI_ROOT) {
        for (int i = 0; i < x->nr; i++)
            move_block(&m, x, a, true, i, i, tag);
    } else if (kind == CD_SCATTER && a->root != MPI_PROC_NULL) {
        move_recv(&m, x, a->root, a->recvbuf, a->rcount, a->rtype, tag);
    } else if (kind == CD_ALLGATHER) { /* my block to each, each one's block from them */
        for (int i = 0; i < x->nr; i++)
            move_block(&m, x, a, false, i, i, tag);
        for (int i = 0; i < x->nr; i++)
            move_send(&m, x, (me + i) % x->nr, a->sendbuf, a->scount, a->stype, tag);
    } else if (kind == CD_ALLTOALL) {
        for (int i = 0; i < x->nr; i++)
            move_block(&m, x, a, false, i, i, tag);
        for (int i = 0; i < x->nr; i++)
            move_block(&m, x, a, true, (me + i) % x->nr, (me + i) % x->nr, tag);
    }
    moves_finish(&m);
    return MPI_SUCCESS;
}

int api_inter_reduce_scatter(const void *sendbuf, void *recvbuf, const int *recvcounts,
                             MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
    struct inter *x = inter_find(comm);
    int total = 0, theirs = 0;
    int *displs = xmalloc(sizeof *displs * (size_t)(x->nl + 1));
    for (int j = 0; j < x->nl; j++) {
        displs[j] = total;
        total += recvcounts[j];
    }
    int64_t bytes = (int64_t)total * dt_extent(type);
    char *mine = xmalloc((size_t)bytes + 1), *other = xmalloc((size_t)bytes + 1);
    int rc = reduce_local(x, sendbuf, mine, total, type, op);
    if (rc == MPI_SUCCESS && leader(x)) {
        exchange(x->shadow, 0, &total, sizeof total, &theirs, sizeof theirs, 5);
        if (theirs != total)
            rc = api_error("MPI_Reduce_scatter", MPI_ERR_COUNT,
                           "the groups' recvcounts sum to %d here and %d in the other group", total,
                           theirs);
        else
            exchange(x->shadow, 0, mine, bytes, other, bytes, 6);
    }
    if (rc == MPI_SUCCESS)
        rc = api_coll_scatterv(other, recvcounts, displs, type, recvbuf,
                               recvcounts[sim_comm_rank(simpi_rt->sim, runtime_rank(), x->local)],
                               0, x->local);
    free(displs);
    free(mine);
    free(other);
    return rc;
}

/* Sorts members (index into a color/key table) by key, then by index
 * (ranks run one at a time: the table is not shared between calls). */
static const int *sort_keys;
static int key_order(const void *pa, const void *pb) {
    int a = *(const int *)pa, b = *(const int *)pb;
    int ka = sort_keys[2 * a + 1], kb = sort_keys[2 * b + 1];
    return ka != kb ? (ka < kb ? -1 : 1) : (a < b ? -1 : a > b);
}

/* The world ranks of the members of w (n of them, with their color and key
 * pairs in ck) whose color is color, in the split's order. */
static int32_t *colored(const int32_t *w, int n, const int *ck, int color, int *count) {
    int *idx = xmalloc(sizeof *idx * (size_t)(n + 1));
    int c = 0;
    for (int i = 0; i < n; i++)
        if (ck[2 * i] == color) idx[c++] = i;
    sort_keys = ck;
    qsort(idx, (size_t)c, sizeof *idx, key_order);
    int32_t *out = xmalloc(sizeof *out * (size_t)(c + 1));
    for (int i = 0; i < c; i++)
        out[i] = w[idx[i]];
    free(idx);
    *count = c;
    return out;
}

int api_inter_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm) {
    struct inter *x = inter_find(comm);
    int pair[2] = {color, key};
    int *lck = xmalloc(sizeof *lck * 2 * (size_t)x->nl),
        *rck = xmalloc(sizeof *rck * 2 * (size_t)x->nr);
    int rc = api_coll_allgather(pair, sizeof pair, lck, x->local);
    if (rc == MPI_SUCCESS && leader(x))
        exchange(x->shadow, 0, lck, (int64_t)sizeof pair * x->nl, rck, (int64_t)sizeof pair * x->nr,
                 7);
    if (rc == MPI_SUCCESS) rc = api_coll_bcast(rck, 2 * x->nr, MPI_INT, 0, x->local);
    MPI_Comm local = MPI_COMM_NULL;
    if (rc == MPI_SUCCESS) rc = api_comm_split(x->local, color, key, &local);
    *newcomm = MPI_COMM_NULL;
    if (rc == MPI_SUCCESS && color != MPI_UNDEFINED) {
        int nl, nr;
        int32_t *lw = colored(x->lw, x->nl, lck, color, &nl);
        int32_t *rw = colored(x->rw, x->nr, rck, color, &nr);
        if (nr > 0) {
            *newcomm = join(local, lw, nl, rw, nr);
            api_inherit_errhandler(comm, *newcomm);
        }
        free(lw);
        free(rw);
    }
    free(lck);
    free(rck);
    return rc;
}

void api_request_done(MPI_Request *request) {
    struct simpi_request *q = api_request_new();
    q->active = true; /* no MPI-layer request: complete */
    *request = q;
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
