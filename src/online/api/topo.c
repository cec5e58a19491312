/* SPDX-License-Identifier: BSD-3-Clause */
/* Process topologies (MPI-3.1 chapter 7): Dims_create, Cart_create,
 * coordinates and ranks, shifts, Cart_sub (graphs and neighborhood
 * collectives: graph.c). A topology belongs to a
 * communicator (keyed by its context id, the same on every member); ranks
 * are laid out in row-major order and reorder is not applied. */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "online/api/api.h"

struct cart {
    struct cart *next;
    uint32_t ctx;
    int ndims;
    int *dims, *periods;
};

static struct cart *carts;

static struct cart *cart_of(MPI_Comm comm) {
    uint32_t ctx = sim_comm_context(simpi_rt->sim, runtime_rank(), comm);
    for (struct cart *c = carts; c; c = c->next)
        if (c->ctx == ctx) return c;
    return NULL;
}

static void cart_attach(MPI_Comm comm, int ndims, const int *dims, const int *periods) {
    if (comm == MPI_COMM_NULL || cart_of(comm)) return; /* the first member records it */
    struct cart *c = xcalloc(1, sizeof *c);
    c->ctx = sim_comm_context(simpi_rt->sim, runtime_rank(), comm);
    c->ndims = ndims;
    c->dims = xcalloc((size_t)ndims + 1, sizeof *c->dims);
    c->periods = xcalloc((size_t)ndims + 1, sizeof *c->periods);
    if (ndims > 0) memcpy(c->dims, dims, sizeof *dims * (size_t)ndims);
    for (int i = 0; i < ndims; i++)
        c->periods[i] = periods[i] != 0;
    c->next = carts;
    carts = c;
}

int PMPI_Dims_create(int nnodes, int ndims, int dims[]) {
    int fixed = 1, free_dims = 0;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] < 0) return api_error("MPI_Dims_create", MPI_ERR_DIMS, "negative dimension");
        if (dims[i] > 0)
            fixed *= dims[i];
        else
            free_dims++;
    }
    if (fixed == 0 || nnodes % fixed)
        return api_error("MPI_Dims_create", MPI_ERR_DIMS, "%d nodes do not fit the fixed dims",
                         nnodes);
    int rest = nnodes / fixed, *f = xcalloc((size_t)ndims + 1, sizeof *f);
    for (int i = 0; i < free_dims; i++)
        f[i] = 1;
    /* prime factors, largest first, each to the currently smallest dimension */
    int primes[64], np = 0;
    for (int p = 2; rest > 1 && np < 64;) {
        if (rest % p == 0) {
            primes[np++] = p;
            rest /= p;
        } else {
            p = p * p > rest ? rest : p + 1;
        }
    }
    for (int k = np - 1; k >= 0 && free_dims > 0; k--) {
        int small = 0;
        for (int i = 1; i < free_dims; i++)
            if (f[i] < f[small]) small = i;
        f[small] *= primes[k];
    }
    for (int i = 0; i < free_dims; i++) /* non-increasing order */
        for (int j = i + 1; j < free_dims; j++)
            if (f[j] > f[i]) {
                int t = f[i];
                f[i] = f[j];
                f[j] = t;
            }
    for (int i = 0, k = 0; i < ndims; i++)
        if (dims[i] == 0) dims[i] = f[k++];
    free(f);
    return MPI_SUCCESS;
}

int PMPI_Cart_create(MPI_Comm comm, int ndims, const int dims[], const int periods[], int reorder,
                     MPI_Comm *newcomm) {
    (void)reorder;
    if (ndims < 0 || ndims > 64)
        return api_error("MPI_Cart_create", MPI_ERR_DIMS, "%d dimensions (at most 64)", ndims);
    int size = 1, me;
    for (int i = 0; i < ndims; i++)
        size *= dims[i];
    PMPI_Comm_rank(comm, &me);
    int n;
    PMPI_Comm_size(comm, &n);
    if (size > n)
        return api_error("MPI_Cart_create", MPI_ERR_DIMS, "grid of %d ranks on %d", size, n);
    int rc = PMPI_Comm_split(comm, me < size ? 0 : MPI_UNDEFINED, me, newcomm);
    if (rc == MPI_SUCCESS) cart_attach(*newcomm, ndims, dims, periods);
    return rc;
}

#define CART_OR_FAIL(func, comm, c)                                                                \
    struct cart *c = cart_of(comm);                                                                \
    if (!c)                                                                                        \
    return api_error(func, MPI_ERR_TOPOLOGY, "communicator %d has no Cartesian topology", comm)

int PMPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[]) {
    CART_OR_FAIL("MPI_Cart_coords", comm, c);
    for (int i = c->ndims - 1; i >= 0; i--) {
        if (i < maxdims) coords[i] = rank % c->dims[i];
        rank /= c->dims[i];
    }
    return MPI_SUCCESS;
}

int PMPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank) {
    CART_OR_FAIL("MPI_Cart_rank", comm, c);
    int r = 0;
    for (int i = 0; i < c->ndims; i++) {
        int x = coords[i];
        if (c->periods[i])
            x = ((x % c->dims[i]) + c->dims[i]) % c->dims[i];
        else if (x < 0 || x >= c->dims[i])
            return api_error("MPI_Cart_rank", MPI_ERR_ARG, "coordinate %d out of range", x);
        r = r * c->dims[i] + x;
    }
    *rank = r;
    return MPI_SUCCESS;
}

int PMPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *source, int *dest) {
    CART_OR_FAIL("MPI_Cart_shift", comm, c);
    if (direction < 0 || direction >= c->ndims)
        return api_error("MPI_Cart_shift", MPI_ERR_DIMS, "direction %d", direction);
    int me, coords[64];
    PMPI_Comm_rank(comm, &me);
    PMPI_Cart_coords(comm, me, 64, coords);
    int at = coords[direction], n = c->dims[direction];
    int ends[2] = {at - disp, at + disp}, *outs[2] = {source, dest};
    for (int k = 0; k < 2; k++) {
        int x = ends[k];
        if (!c->periods[direction] && (x < 0 || x >= n)) {
            *outs[k] = MPI_PROC_NULL;
            continue;
        }
        coords[direction] = ((x % n) + n) % n;
        PMPI_Cart_rank(comm, coords, outs[k]);
    }
    return MPI_SUCCESS;
}

int PMPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]) {
    CART_OR_FAIL("MPI_Cart_get", comm, c);
    int me;
    PMPI_Comm_rank(comm, &me);
    for (int i = 0; i < c->ndims && i < maxdims; i++) {
        dims[i] = c->dims[i];
        periods[i] = c->periods[i];
    }
    return PMPI_Cart_coords(comm, me, maxdims, coords);
}

int PMPI_Cartdim_get(MPI_Comm comm, int *ndims) {
    CART_OR_FAIL("MPI_Cartdim_get", comm, c);
    *ndims = c->ndims;
    return MPI_SUCCESS;
}

int PMPI_Topo_test(MPI_Comm comm, int *status) {
    *status = cart_of(comm) ? MPI_CART : api_graph_kind(comm);
    return MPI_SUCCESS;
}

int PMPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm) {
    CART_OR_FAIL("MPI_Cart_sub", comm, c);
    int me, coords[64], color = 0, key = 0, nd = 0, dims[64], periods[64];
    PMPI_Comm_rank(comm, &me);
    PMPI_Cart_coords(comm, me, 64, coords);
    for (int i = 0; i < c->ndims; i++) {
        if (remain_dims[i]) {
            key = key * c->dims[i] + coords[i];
            dims[nd] = c->dims[i];
            periods[nd++] = c->periods[i];
        } else {
            color = color * c->dims[i] + coords[i];
        }
    }
    if (nd == 0) /* no dimension left: rank 0 alone, a zero-dimensional grid (as MPICH) */
        color = me == 0 ? 0 : MPI_UNDEFINED;
    int rc = PMPI_Comm_split(comm, color, key, newcomm);
    if (rc == MPI_SUCCESS && *newcomm != MPI_COMM_NULL) cart_attach(*newcomm, nd, dims, periods);
    return rc;
}

#pragma weak MPI_Dims_create = PMPI_Dims_create
#pragma weak MPI_Cart_create = PMPI_Cart_create
#pragma weak MPI_Cart_coords = PMPI_Cart_coords
#pragma weak MPI_Cart_rank = PMPI_Cart_rank
#pragma weak MPI_Cart_shift = PMPI_Cart_shift
#pragma weak MPI_Cart_get = PMPI_Cart_get
#pragma weak MPI_Cartdim_get = PMPI_Cartdim_get
#pragma weak MPI_Topo_test = PMPI_Topo_test
#pragma weak MPI_Cart_sub = PMPI_Cart_sub
