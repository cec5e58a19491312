/* SPDX-License-Identifier: BSD-3-Clause */
/* Graph and distributed graph topologies and the neighborhood collectives
 * (MPI-3.1 sections 7.5.3 to 7.5.5 and 7.6) for on-line programs. A graph
 * topology is recorded once per communicator (keyed by its context, as the
 * Cartesian ones in topo.c); a distributed graph per member, with the
 * edges every member gave gathered when the communicator is made.
 * Neighborhood collectives send each block to its neighbor through the MPI
 * layer (real data, the network's time) on a private duplicate of the
 * communicator; their non-blocking forms complete within the call. */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "online/api/api.h"

struct topo_graph {
    struct topo_graph *next;
    uint32_t ctx;
    int32_t world; /* MPI_DIST_GRAPH: the member it describes (-1: MPI_GRAPH) */
    int kind;
    int nnodes, *index, *edges;            /* MPI_GRAPH */
    int nin, nout, *in, *out, *inw, *outw; /* MPI_DIST_GRAPH */
    bool weighted;
};

static struct topo_graph *graphs;

int simpi_unweighted[1], simpi_weights_empty[1]; /* MPI_UNWEIGHTED, MPI_WEIGHTS_EMPTY */

static struct topo_graph *graph_of(MPI_Comm comm) {
    uint32_t ctx = sim_comm_context(simpi_rt->sim, runtime_rank(), comm);
    for (struct topo_graph *g = graphs; g; g = g->next)
        if (g->ctx == ctx && (g->world < 0 || g->world == runtime_rank())) return g;
    return NULL;
}

int api_graph_kind(MPI_Comm comm) {
    struct topo_graph *g = graph_of(comm);
    return g ? g->kind : MPI_UNDEFINED;
}

static int *copy_ints(const int *v, int n) {
    int *c = xcalloc((size_t)n + 1, sizeof *c);
    if (v && n > 0) memcpy(c, v, sizeof *c * (size_t)n);
    return c;
}

static struct topo_graph *graph_new(MPI_Comm comm, int kind, int32_t world) {
    struct topo_graph *g = xcalloc(1, sizeof *g);
    g->ctx = sim_comm_context(simpi_rt->sim, runtime_rank(), comm);
    g->kind = kind;
    g->world = world;
    g->next = graphs;
    graphs = g;
    return g;
}

/* --- MPI_GRAPH --- */

int PMPI_Graph_create(MPI_Comm comm, int nnodes, const int index[], const int edges[], int reorder,
                      MPI_Comm *newcomm) {
    (void)reorder;
    int n, me;
    int rc = PMPI_Comm_size(comm, &n);
    if (rc != MPI_SUCCESS) return rc;
    if (nnodes < 0 || nnodes > n)
        return api_error("MPI_Graph_create", MPI_ERR_ARG, "%d nodes on %d ranks", nnodes, n);
    for (int i = 0; i < (nnodes ? index[nnodes - 1] : 0); i++)
        if (edges[i] < 0 || edges[i] >= nnodes)
            return api_error("MPI_Graph_create", MPI_ERR_ARG, "edge to node %d", edges[i]);
    PMPI_Comm_rank(comm, &me);
    rc = PMPI_Comm_split(comm, me < nnodes ? 0 : MPI_UNDEFINED, me, newcomm);
    if (rc != MPI_SUCCESS || *newcomm == MPI_COMM_NULL || graph_of(*newcomm)) return rc;
    struct topo_graph *g = graph_new(*newcomm, MPI_GRAPH, -1); /* the first member records it */
    g->nnodes = nnodes;
    g->index = copy_ints(index, nnodes);
    g->edges = copy_ints(edges, nnodes ? index[nnodes - 1] : 0);
    return MPI_SUCCESS;
}

#define GRAPH_OR_FAIL(func, comm, g, wanted)                                                       \
    struct topo_graph *g = graph_of(comm);                                                         \
    if (!g || g->kind != (wanted))                                                                 \
    return api_error(func, MPI_ERR_TOPOLOGY, "communicator %d has no such graph topology", comm)

int PMPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges) {
    GRAPH_OR_FAIL("MPI_Graphdims_get", comm, g, MPI_GRAPH);
    *nnodes = g->nnodes;
    *nedges = g->nnodes ? g->index[g->nnodes - 1] : 0;
    return MPI_SUCCESS;
}

int PMPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[]) {
    GRAPH_OR_FAIL("MPI_Graph_get", comm, g, MPI_GRAPH);
    for (int i = 0; i < g->nnodes && i < maxindex; i++)
        index[i] = g->index[i];
    for (int i = 0; i < (g->nnodes ? g->index[g->nnodes - 1] : 0) && i < maxedges; i++)
        edges[i] = g->edges[i];
    return MPI_SUCCESS;
}

int PMPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors) {
    GRAPH_OR_FAIL("MPI_Graph_neighbors_count", comm, g, MPI_GRAPH);
    if (rank < 0 || rank >= g->nnodes)
        return api_error("MPI_Graph_neighbors_count", MPI_ERR_RANK, "rank %d", rank);
    *nneighbors = g->index[rank] - (rank ? g->index[rank - 1] : 0);
    return MPI_SUCCESS;
}

int PMPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[]) {
    GRAPH_OR_FAIL("MPI_Graph_neighbors", comm, g, MPI_GRAPH);
    if (rank < 0 || rank >= g->nnodes)
        return api_error("MPI_Graph_neighbors", MPI_ERR_RANK, "rank %d", rank);
    int first = rank ? g->index[rank - 1] : 0;
    for (int i = first; i < g->index[rank] && i - first < maxneighbors; i++)
        neighbors[i - first] = g->edges[i];
    return MPI_SUCCESS;
}

/* Without reordering, a rank keeps its rank if it is in the graph/grid. */
int PMPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[], int *newrank) {
    (void)index, (void)edges;
    int me;
    int rc = PMPI_Comm_rank(comm, &me);
    *newrank = me < nnodes ? me : MPI_UNDEFINED;
    return rc;
}

int PMPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int *newrank) {
    (void)periods;
    int me, size = 1;
    for (int i = 0; i < ndims; i++)
        size *= dims[i];
    int rc = PMPI_Comm_rank(comm, &me);
    *newrank = me < size ? me : MPI_UNDEFINED;
    return rc;
}

/* --- MPI_DIST_GRAPH --- */

static void dist_record(MPI_Comm comm, const int *in, const int *inw, int nin, const int *out,
                        const int *outw, int nout, bool weighted) {
    struct topo_graph *g = graph_new(comm, MPI_DIST_GRAPH, runtime_rank());
    g->nin = nin;
    g->nout = nout;
    g->in = copy_ints(in, nin);
    g->out = copy_ints(out, nout);
    g->inw = copy_ints(weighted ? inw : NULL, nin);
    g->outw = copy_ints(weighted ? outw : NULL, nout);
    g->weighted = weighted;
}

int PMPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree, const int sources[],
                                    const int sourceweights[], int outdegree,
                                    const int destinations[], const int destweights[],
                                    MPI_Info info, int reorder, MPI_Comm *newcomm) {
    (void)info, (void)reorder;
    int rc = PMPI_Comm_dup(comm, newcomm);
    if (rc != MPI_SUCCESS) return rc;
    bool weighted = sourceweights != MPI_UNWEIGHTED;
    dist_record(*newcomm, sources, sourceweights, indegree, destinations, destweights, outdegree,
                weighted);
    return MPI_SUCCESS;
}

/* MPI_Dist_graph_create: any member may give any edge; the edges are
 * gathered through a table every member fills before the communicator is
 * made (its creation waits for them all), and read in the order of the
 * members that gave them. In a split run a member's edges also go to the
 * other workers with members (FRONT_GRAPH_EDGES), ahead of the duplicate's
 * messages, so that they are there when the duplicate is made. */
struct edge {
    int member, order; /* who gave it, and its place among that member's */
    int src, dst, w;
};

struct edge_set {
    struct edge_set *next;
    uint32_t ctx, seq; /* the call: communicator context, collective number */
    int n, joined, local, read, nedges;
    struct edge *e;
};

static struct edge_set *edge_sets;

static struct edge_set *edge_set_of(uint32_t ctx, uint32_t seq, int n) {
    for (struct edge_set *es = edge_sets; es; es = es->next)
        if (es->ctx == ctx && es->seq == seq && es->joined < es->n) return es;
    struct edge_set *es = xcalloc(1, sizeof *es);
    *es = (struct edge_set){edge_sets, ctx, seq, n, 0, 0, 0, 0, NULL};
    edge_sets = es;
    return es;
}

static void edges_add(struct edge_set *es, int member, int count, const int *src, const int *dst,
                      const int *w) {
    es->e = xrealloc_or_die(es->e, sizeof *es->e * (size_t)(es->nedges + count + 1));
    for (int i = 0; i < count; i++)
        es->e[es->nedges++] = (struct edge){member, i, src[i], dst[i], w[i]};
    es->joined++;
}

/* A member's edges as they cross: this header, then src, dst and w. */
struct edges_crossing {
    uint32_t ctx, seq;
    int32_t n, member, count;
};

void graph_take_edges(const void *msg, uint32_t len) {
    struct edges_crossing h;
    if (len < sizeof h) return;
    memcpy(&h, msg, sizeof h);
    if (h.count < 0 || sizeof h + 3 * sizeof(int) * (size_t)h.count > len) return;
    int *v = xmalloc(3 * sizeof(int) * (size_t)h.count + 1);
    memcpy(v, (const char *)msg + sizeof h, 3 * sizeof(int) * (size_t)h.count);
    edges_add(edge_set_of(h.ctx, h.seq, h.n), h.member, h.count, v, v + h.count, v + 2 * h.count);
    free(v);
}

static void edges_cross(uint32_t ctx, uint32_t seq, int size, int me, MPI_Comm comm, int count,
                        const int *v) {
    const int32_t *to;
    int nw = sim_comm_workers(simpi_rt->sim, runtime_rank(), comm, &to);
    if (!nw) return;
    struct edges_crossing h = {ctx, seq, size, me, count};
    struct sim_piece msg[] = {{&h, sizeof h}, {v, 3 * sizeof(int) * (size_t)count}};
    for (int i = 0; i < nw; i++)
        runtime_post_front(FRONT_GRAPH_EDGES, to[i], msg, 2);
}

static int by_member(const void *a, const void *b) {
    const struct edge *x = a, *y = b;
    return x->member != y->member ? (x->member > y->member) - (x->member < y->member)
                                  : (x->order > y->order) - (x->order < y->order);
}

int PMPI_Dist_graph_create(MPI_Comm comm, int n, const int nodes[], const int degrees[],
                           const int destinations[], const int weights[], MPI_Info info,
                           int reorder, MPI_Comm *newcomm) {
    (void)info, (void)reorder;
    int size, me, count = 0;
    PMPI_Comm_size(comm, &size);
    PMPI_Comm_rank(comm, &me);
    uint32_t seq = api_next_coll_seq(runtime_rank(), comm);
    uint32_t ctx = sim_comm_context(simpi_rt->sim, runtime_rank(), comm);
    for (int i = 0; i < n; i++)
        count += degrees[i];
    int *v = xmalloc(3 * sizeof(int) * (size_t)count + 1); /* sources, destinations, weights */
    for (int i = 0, k = 0; i < n; i++)
        for (int j = 0; j < degrees[i]; j++, k++) {
            v[k] = nodes[i];
            v[count + k] = destinations[k];
            v[2 * count + k] = weights == MPI_UNWEIGHTED ? 1 : weights[k];
        }
    edges_cross(ctx, seq, size, me, comm, count, v);
    struct edge_set *es = edge_set_of(ctx, seq, size);
    edges_add(es, me, count, v, v + count, v + 2 * count);
    es->local++;
    free(v);
    int rc = PMPI_Comm_dup(comm, newcomm); /* every member has given its edges */
    if (rc != MPI_SUCCESS) return rc;
    qsort(es->e, (size_t)es->nedges, sizeof *es->e, by_member);
    size_t room = (size_t)es->nedges + 1;
    int *in = xcalloc(room, sizeof(int)), *inw = xcalloc(room, sizeof(int));
    int *out = xcalloc(room, sizeof(int)), *outw = xcalloc(room, sizeof(int));
    int nin = 0, nout = 0;
    for (int i = 0; i < es->nedges; i++) {
        const struct edge *e = &es->e[i];
        if (e->dst == me) in[nin] = e->src, inw[nin++] = e->w;
        if (e->src == me) out[nout] = e->dst, outw[nout++] = e->w;
    }
    dist_record(*newcomm, in, inw, nin, out, outw, nout, weights != MPI_UNWEIGHTED);
    free(in), free(inw), free(out), free(outw);
    if (++es->read == es->local && es->joined == es->n) { /* every member here has read it */
        struct edge_set **p = &edge_sets;
        while (*p != es)
            p = &(*p)->next;
        *p = es->next;
        free(es->e);
        free(es);
    }
    return MPI_SUCCESS;
}

int PMPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree, int *outdegree, int *weighted) {
    GRAPH_OR_FAIL("MPI_Dist_graph_neighbors_count", comm, g, MPI_DIST_GRAPH);
    *indegree = g->nin;
    *outdegree = g->nout;
    *weighted = g->weighted;
    return MPI_SUCCESS;
}

int PMPI_Dist_graph_neighbors(MPI_Comm comm, int maxin, int sources[], int sourceweights[],
                              int maxout, int destinations[], int destweights[]) {
    GRAPH_OR_FAIL("MPI_Dist_graph_neighbors", comm, g, MPI_DIST_GRAPH);
    for (int i = 0; i < g->nin && i < maxin; i++) {
        sources[i] = g->in[i];
        if (g->weighted && sourceweights != MPI_UNWEIGHTED) sourceweights[i] = g->inw[i];
    }
    for (int i = 0; i < g->nout && i < maxout; i++) {
        destinations[i] = g->out[i];
        if (g->weighted && destweights != MPI_UNWEIGHTED) destweights[i] = g->outw[i];
    }
    return MPI_SUCCESS;
}

/* --- neighborhood collectives --- */

/* The neighbors of comm's topology (MPI-3.1 7.6), in order: for a grid,
 * per dimension the source then the destination of a shift by 1 (both
 * lists; MPI_PROC_NULL at a border); for a graph, the node's adjacent
 * nodes (both lists); for a distributed graph, its sources and
 * destinations. False if comm has no topology. */
static bool neighbors_of(MPI_Comm comm, int **in, int *nin, int **out, int *nout, bool *grid) {
    int status;
    PMPI_Topo_test(comm, &status);
    *grid = status == MPI_CART;
    if (status == MPI_CART) {
        int nd;
        PMPI_Cartdim_get(comm, &nd);
        *nin = *nout = 2 * nd;
        *in = xcalloc((size_t)*nin + 1, sizeof **in);
        for (int d = 0; d < nd; d++)
            PMPI_Cart_shift(comm, d, 1, &(*in)[2 * d], &(*in)[2 * d + 1]);
        *out = copy_ints(*in, *nin);
        return true;
    }
    struct topo_graph *g = graph_of(comm);
    if (!g) return false;
    if (g->kind == MPI_DIST_GRAPH) {
        *nin = g->nin, *nout = g->nout;
        *in = copy_ints(g->in, g->nin);
        *out = copy_ints(g->out, g->nout);
        return true;
    }
    int me = sim_comm_rank(simpi_rt->sim, runtime_rank(), comm);
    int first = me ? g->index[me - 1] : 0;
    *nin = *nout = g->index[me] - first;
    *in = copy_ints(g->edges + first, *nin);
    *out = copy_ints(g->edges + first, *nout);
    return true;
}

/* The private duplicate neighborhood collectives talk on (made at the
 * first one, which every member calls). */
struct private_comm {
    struct private_comm *next;
    int32_t world;
    MPI_Comm comm, priv;
};

static MPI_Comm private_of(MPI_Comm comm) {
    static struct private_comm *list;
    for (struct private_comm *p = list; p; p = p->next)
        if (p->world == runtime_rank() && p->comm == comm) return p->priv;
    struct private_comm *p = xcalloc(1, sizeof *p);
    p->world = runtime_rank();
    p->comm = comm;
    p->priv = api_comm_dup_private(comm);
    p->next = list;
    list = p;
    return p->priv;
}

/* One block of a neighborhood exchange: count elements of type at buf. */
struct block {
    const void *buf;
    int count;
    MPI_Datatype type;
};

/* Sends send[j] to out-neighbor j and receives recv[i] from in-neighbor i.
 * On a grid a block sent towards + arrives in the receiver's - slot
 * (tags tell them apart when both neighbors are one rank). */
static void exchange_blocks(MPI_Comm priv, const int *in, int nin, const struct block *recv,
                            const int *out, int nout, const struct block *send, bool grid) {
    struct sim *s = simpi_rt->sim;
    int32_t me = runtime_rank();
    struct request **reqs = xcalloc((size_t)(nin + nout) + 1, sizeof *reqs);
    struct sim_recv_target *t = xcalloc((size_t)nin + 1, sizeof *t);
    int n = 0;
    for (int i = 0; i < nin; i++) {
        if (in[i] == MPI_PROC_NULL) continue;
        int64_t bytes = dt_size(recv[i].type) * recv[i].count;
        t[i] = (struct sim_recv_target){
            .buf = xmalloc((size_t)bytes + 1), .capacity = bytes, .owner = me};
        reqs[n++] = sim_irecv_buf(s, me, priv, in[i], grid ? i ^ 1 : 0, &t[i]);
    }
    for (int j = 0; j < nout; j++) {
        if (out[j] == MPI_PROC_NULL) continue;
        int64_t bytes = dt_size(send[j].type) * send[j].count;
        char *packed = xmalloc((size_t)bytes + 1);
        dt_pack(send[j].type, send[j].buf, send[j].count, packed);
        reqs[n++] = sim_isend_buf(s, me, priv, out[j], grid ? j : 0, bytes, SEND_STANDARD, packed);
        free(packed); /* delivered or copied by the MPI layer */
    }
    if (n) runtime_wait(reqs, n, false);
    for (int i = 0; i < nin; i++) {
        if (in[i] == MPI_PROC_NULL) continue;
        dt_unpack(recv[i].type, t[i].buf, recv[i].count, (void *)recv[i].buf);
        free(t[i].buf);
    }
    free(t);
    free(reqs);
}

/* The shape of a call: per in-neighbor where its block lands, per
 * out-neighbor which block goes. */
struct neighbor_call {
    const void *sendbuf;
    const int *scounts;
    const MPI_Aint *sdispls; /* bytes */
    const MPI_Datatype *stypes;
    void *recvbuf;
    const int *rcounts;
    const MPI_Aint *rdispls; /* bytes */
    const MPI_Datatype *rtypes;
};

static int neighbor_run(const char *func, MPI_Comm comm, const struct neighbor_call *c,
                        MPI_Request *request) {
    int rc = api_check_comm(func, comm);
    if (rc != MPI_SUCCESS) return rc;
    int *in, *out, nin, nout;
    bool grid;
    if (!neighbors_of(comm, &in, &nin, &out, &nout, &grid))
        return api_error(func, MPI_ERR_TOPOLOGY, "communicator %d has no topology", comm);
    struct block *recv = xcalloc((size_t)nin + 1, sizeof *recv);
    struct block *send = xcalloc((size_t)nout + 1, sizeof *send);
    for (int i = 0; i < nin; i++)
        recv[i] = (struct block){(char *)c->recvbuf + c->rdispls[i], c->rcounts[i], c->rtypes[i]};
    for (int j = 0; j < nout; j++)
        send[j] =
            (struct block){(const char *)c->sendbuf + c->sdispls[j], c->scounts[j], c->stypes[j]};
    exchange_blocks(private_of(comm), in, nin, recv, out, nout, send, grid);
    free(recv), free(send), free(in), free(out);
    if (request) { /* done already: its request completes at once */
        struct simpi_request *q = api_request_new();
        q->active = true;
        *request = q;
    }
    return MPI_SUCCESS;
}

/* Arrays for the regular forms: every block count elements of type, the
 * i-th at i x count x extent (or all at 0: allgather's one send block). */
struct regular {
    int *counts;
    MPI_Aint *displs;
    MPI_Datatype *types;
};

static struct regular regular_of(int n, int count, MPI_Datatype type, const int *vcounts,
                                 const int *vdispls, bool same_block) {
    struct regular r = {xcalloc((size_t)n + 1, sizeof(int)),
                        xcalloc((size_t)n + 1, sizeof(MPI_Aint)),
                        xcalloc((size_t)n + 1, sizeof(MPI_Datatype))};
    MPI_Aint ext = dt_extent(type);
    for (int i = 0; i < n; i++) {
        r.counts[i] = vcounts ? vcounts[i] : count;
        r.displs[i] = vdispls ? vdispls[i] * ext : same_block ? 0 : (MPI_Aint)i * count * ext;
        r.types[i] = type;
    }
    return r;
}

static void regular_free(struct regular *r) {
    free(r->counts), free(r->displs), free(r->types);
}

static int degrees(MPI_Comm comm, int *nin, int *nout) {
    int *in, *out;
    bool grid;
    if (!neighbors_of(comm, &in, nin, &out, nout, &grid)) return MPI_ERR_TOPOLOGY;
    free(in), free(out);
    return MPI_SUCCESS;
}

/* allgather(v) (vsend NULL) and alltoall(v) with one datatype per side */
static int neighbor_regular(const char *func, const void *sendbuf, int scount, const int *scounts,
                            const int *sdispls, MPI_Datatype stype, void *recvbuf, int rcount,
                            const int *rcounts, const int *rdispls, MPI_Datatype rtype,
                            bool one_send_block, MPI_Comm comm, MPI_Request *request) {
    int nin = 0, nout = 0, rc = api_check_comm(func, comm);
    if (rc != MPI_SUCCESS) return rc;
    if (degrees(comm, &nin, &nout) != MPI_SUCCESS)
        return api_error(func, MPI_ERR_TOPOLOGY, "communicator %d has no topology", comm);
    struct regular s = regular_of(nout, scount, stype, scounts, sdispls, one_send_block);
    struct regular r = regular_of(nin, rcount, rtype, rcounts, rdispls, false);
    struct neighbor_call c = {sendbuf, s.counts, s.displs, s.types,
                              recvbuf, r.counts, r.displs, r.types};
    rc = neighbor_run(func, comm, &c, request);
    regular_free(&s);
    regular_free(&r);
    return rc;
}

#define NEIGHBOR_ALLGATHER(NAME, REQ_PARAM, REQ)                                                   \
    int P##NAME(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,    \
                MPI_Datatype rtype, MPI_Comm comm REQ_PARAM) {                                     \
        API_ENTER(#NAME);                                                                          \
        API_RETURN(neighbor_regular(#NAME, sendbuf, scount, NULL, NULL, stype, recvbuf, rcount,    \
                                    NULL, NULL, rtype, true, comm, REQ));                          \
    }
#define NEIGHBOR_ALLGATHERV(NAME, REQ_PARAM, REQ)                                                  \
    int P##NAME(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf,                \
                const int rcounts[], const int displs[], MPI_Datatype rtype,                       \
                MPI_Comm comm REQ_PARAM) {                                                         \
        API_ENTER(#NAME);                                                                          \
        API_RETURN(neighbor_regular(#NAME, sendbuf, scount, NULL, NULL, stype, recvbuf, 0,         \
                                    rcounts, displs, rtype, true, comm, REQ));                     \
    }
#define NEIGHBOR_ALLTOALL(NAME, REQ_PARAM, REQ)                                                    \
    int P##NAME(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,    \
                MPI_Datatype rtype, MPI_Comm comm REQ_PARAM) {                                     \
        API_ENTER(#NAME);                                                                          \
        API_RETURN(neighbor_regular(#NAME, sendbuf, scount, NULL, NULL, stype, recvbuf, rcount,    \
                                    NULL, NULL, rtype, false, comm, REQ));                         \
    }
#define NEIGHBOR_ALLTOALLV(NAME, REQ_PARAM, REQ)                                                   \
    int P##NAME(const void *sendbuf, const int scounts[], const int sdispls[], MPI_Datatype stype, \
                void *recvbuf, const int rcounts[], const int rdispls[], MPI_Datatype rtype,       \
                MPI_Comm comm REQ_PARAM) {                                                         \
        API_ENTER(#NAME);                                                                          \
        API_RETURN(neighbor_regular(#NAME, sendbuf, 0, scounts, sdispls, stype, recvbuf, 0,        \
                                    rcounts, rdispls, rtype, false, comm, REQ));                   \
    }
#define NEIGHBOR_ALLTOALLW(NAME, REQ_PARAM, REQ)                                                   \
    int P##NAME(const void *sendbuf, const int scounts[], const MPI_Aint sdispls[],                \
                const MPI_Datatype stypes[], void *recvbuf, const int rcounts[],                   \
                const MPI_Aint rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm REQ_PARAM) {  \
        API_ENTER(#NAME);                                                                          \
        struct neighbor_call c = {sendbuf, scounts, sdispls, stypes,                               \
                                  recvbuf, rcounts, rdispls, rtypes};                              \
        API_RETURN(neighbor_run(#NAME, comm, &c, REQ));                                            \
    }
#define COMMA ,
NEIGHBOR_ALLGATHER(MPI_Neighbor_allgather, , NULL)
NEIGHBOR_ALLGATHER(MPI_Ineighbor_allgather, COMMA MPI_Request *request, request)
NEIGHBOR_ALLGATHERV(MPI_Neighbor_allgatherv, , NULL)
NEIGHBOR_ALLGATHERV(MPI_Ineighbor_allgatherv, COMMA MPI_Request *request, request)
NEIGHBOR_ALLTOALL(MPI_Neighbor_alltoall, , NULL)
NEIGHBOR_ALLTOALL(MPI_Ineighbor_alltoall, COMMA MPI_Request *request, request)
NEIGHBOR_ALLTOALLV(MPI_Neighbor_alltoallv, , NULL)
NEIGHBOR_ALLTOALLV(MPI_Ineighbor_alltoallv, COMMA MPI_Request *request, request)
NEIGHBOR_ALLTOALLW(MPI_Neighbor_alltoallw, , NULL)
NEIGHBOR_ALLTOALLW(MPI_Ineighbor_alltoallw, COMMA MPI_Request *request, request)

#pragma weak MPI_Graph_create = PMPI_Graph_create
#pragma weak MPI_Graphdims_get = PMPI_Graphdims_get
#pragma weak MPI_Graph_get = PMPI_Graph_get
#pragma weak MPI_Graph_neighbors_count = PMPI_Graph_neighbors_count
#pragma weak MPI_Graph_neighbors = PMPI_Graph_neighbors
#pragma weak MPI_Graph_map = PMPI_Graph_map
#pragma weak MPI_Cart_map = PMPI_Cart_map
#pragma weak MPI_Dist_graph_create_adjacent = PMPI_Dist_graph_create_adjacent
#pragma weak MPI_Dist_graph_create = PMPI_Dist_graph_create
#pragma weak MPI_Dist_graph_neighbors_count = PMPI_Dist_graph_neighbors_count
#pragma weak MPI_Dist_graph_neighbors = PMPI_Dist_graph_neighbors
#pragma weak MPI_Neighbor_allgather = PMPI_Neighbor_allgather
#pragma weak MPI_Ineighbor_allgather = PMPI_Ineighbor_allgather
#pragma weak MPI_Neighbor_allgatherv = PMPI_Neighbor_allgatherv
#pragma weak MPI_Ineighbor_allgatherv = PMPI_Ineighbor_allgatherv
#pragma weak MPI_Neighbor_alltoall = PMPI_Neighbor_alltoall
#pragma weak MPI_Ineighbor_alltoall = PMPI_Ineighbor_alltoall
#pragma weak MPI_Neighbor_alltoallv = PMPI_Neighbor_alltoallv
#pragma weak MPI_Ineighbor_alltoallv = PMPI_Ineighbor_alltoallv
#pragma weak MPI_Neighbor_alltoallw = PMPI_Neighbor_alltoallw
#pragma weak MPI_Ineighbor_alltoallw = PMPI_Ineighbor_alltoallw
