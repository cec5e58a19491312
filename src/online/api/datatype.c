/* SPDX-License-Identifier: BSD-3-Clause */
/* Datatypes (MPI-3.1 chapter 4): the entry points over the datatype engine
 * (src/online/datatype/): constructors (with subarrays and distributed
 * arrays), queries, names, commit and free, pack and unpack, envelopes and
 * contents. */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "online/api/api.h"
#include "online/datatype/typemap.h"

static int made(const char *func, int rc, MPI_Datatype *newtype, int handle) {
    if (rc != MPI_SUCCESS) return api_error(func, rc, "invalid arguments");
    *newtype = handle;
    return MPI_SUCCESS;
}

/* Records how a new type was made, for MPI_Type_get_envelope / contents;
 * passes rc through. */
static int recorded(int rc, MPI_Datatype t, int combiner, int ni, const int *ints, int na,
                    const MPI_Aint *aints, int nt, const MPI_Datatype *types) {
    if (rc != MPI_SUCCESS) return rc;
    int64_t *a = xcalloc((size_t)na + 1, sizeof *a);
    for (int i = 0; i < na; i++)
        a[i] = aints[i];
    dt_set_envelope(t, combiner, ni, ints, na, a, nt, types);
    free(a);
    return rc;
}

/* The integers of an envelope: count, then the arrays given (each of count
 * entries) after the leading values. */
static int *ints_of(int nlead, const int *lead, int count, const int *a, const int *b) {
    int *v = xcalloc((size_t)(nlead + 2 * count) + 1, sizeof *v);
    memcpy(v, lead, sizeof *v * (size_t)nlead);
    if (a) memcpy(v + nlead, a, sizeof *v * (size_t)count);
    if (b) memcpy(v + nlead + count, b, sizeof *v * (size_t)count);
    return v;
}

/* count blocks of `old`, displacements in units of `unit` bytes. */
static int build(const char *func, int count, const int *lens, const int64_t *displs, int64_t unit,
                 MPI_Datatype old, MPI_Datatype *newtype) {
    if (count < 0) return api_error(func, MPI_ERR_COUNT, "count %d is negative", count);
    int *ts = xcalloc((size_t)count + 1, sizeof *ts);
    int64_t *d = xcalloc((size_t)count + 1, sizeof *d);
    for (int i = 0; i < count; i++) {
        ts[i] = old;
        d[i] = displs[i] * unit;
    }
    int h = 0, rc = dt_create_blocks(count, lens, d, ts, false, &h);
    free(ts);
    free(d);
    return made(func, rc, newtype, h);
}

int PMPI_Type_contiguous(int count, MPI_Datatype old, MPI_Datatype *newtype) {
    int64_t zero = 0;
    int rc = build("MPI_Type_contiguous", 1, &count, &zero, 1, old, newtype);
    return recorded(rc, *newtype, MPI_COMBINER_CONTIGUOUS, 1, &count, 0, NULL, 1, &old);
}

static int strided(const char *func, int count, int blocklength, int64_t stride_bytes,
                   MPI_Datatype old, MPI_Datatype *newtype) {
    if (count < 0) return api_error(func, MPI_ERR_COUNT, "count %d is negative", count);
    int *lens = xcalloc((size_t)count + 1, sizeof *lens);
    int64_t *displs = xcalloc((size_t)count + 1, sizeof *displs);
    for (int i = 0; i < count; i++) {
        lens[i] = blocklength;
        displs[i] = i * stride_bytes;
    }
    int rc = build(func, count, lens, displs, 1, old, newtype);
    free(lens);
    free(displs);
    return rc;
}

int PMPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype old,
                     MPI_Datatype *newtype) {
    int rc = strided("MPI_Type_vector", count, blocklength, stride * dt_extent(old), old, newtype);
    int ints[3] = {count, blocklength, stride};
    return recorded(rc, *newtype, MPI_COMBINER_VECTOR, 3, ints, 0, NULL, 1, &old);
}

int PMPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype old,
                             MPI_Datatype *newtype) {
    int rc = strided("MPI_Type_create_hvector", count, blocklength, stride, old, newtype);
    int ints[2] = {count, blocklength};
    return recorded(rc, *newtype, MPI_COMBINER_HVECTOR, 2, ints, 1, &stride, 1, &old);
}

int PMPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype old,
                      MPI_Datatype *newtype) {
    int rc = PMPI_Type_create_hvector(count, blocklength, stride, old, newtype);
    if (rc == MPI_SUCCESS) dt_set_combiner(*newtype, MPI_COMBINER_HVECTOR_INTEGER);
    return rc;
}

static int indexed(const char *func, int count, const int *lens, const int64_t *displs,
                   int64_t unit, MPI_Datatype old, MPI_Datatype *newtype) {
    return build(func, count, lens, displs, unit, old, newtype);
}

static int64_t *widen(int count, const int *v) {
    int64_t *w = xcalloc((size_t)count + 1, sizeof *w);
    for (int i = 0; i < count; i++)
        w[i] = v[i];
    return w;
}

static int64_t *widen_aint(int count, const MPI_Aint *v) {
    int64_t *w = xcalloc((size_t)count + 1, sizeof *w);
    for (int i = 0; i < count; i++)
        w[i] = v[i];
    return w;
}

int PMPI_Type_indexed(int count, const int *lens, const int *displs, MPI_Datatype old,
                      MPI_Datatype *newtype) {
    int64_t *d = widen(count, displs);
    int rc = indexed("MPI_Type_indexed", count, lens, d, dt_extent(old), old, newtype);
    free(d);
    int *ints = ints_of(1, &count, count, lens, displs);
    rc = recorded(rc, *newtype, MPI_COMBINER_INDEXED, 2 * count + 1, ints, 0, NULL, 1, &old);
    free(ints);
    return rc;
}

int PMPI_Type_create_hindexed(int count, const int *lens, const MPI_Aint *displs, MPI_Datatype old,
                              MPI_Datatype *newtype) {
    int64_t *d = widen_aint(count, displs);
    int rc = indexed("MPI_Type_create_hindexed", count, lens, d, 1, old, newtype);
    free(d);
    int *ints = ints_of(1, &count, count, lens, NULL);
    rc = recorded(rc, *newtype, MPI_COMBINER_HINDEXED, count + 1, ints, count, displs, 1, &old);
    free(ints);
    return rc;
}

int PMPI_Type_hindexed(int count, const int *lens, const MPI_Aint *displs, MPI_Datatype old,
                       MPI_Datatype *newtype) {
    int rc = PMPI_Type_create_hindexed(count, lens, displs, old, newtype);
    if (rc == MPI_SUCCESS) dt_set_combiner(*newtype, MPI_COMBINER_HINDEXED_INTEGER);
    return rc;
}

static int *repeat(int count, int v) {
    int *a = xcalloc((size_t)count + 1, sizeof *a);
    for (int i = 0; i < count; i++)
        a[i] = v;
    return a;
}

int PMPI_Type_create_indexed_block(int count, int blocklength, const int *displs, MPI_Datatype old,
                                   MPI_Datatype *newtype) {
    int *lens = repeat(count, blocklength);
    int64_t *d = widen(count, displs);
    int rc = indexed("MPI_Type_create_indexed_block", count, lens, d, dt_extent(old), old, newtype);
    free(lens);
    free(d);
    int lead[2] = {count, blocklength}, *ints = ints_of(2, lead, count, displs, NULL);
    rc = recorded(rc, *newtype, MPI_COMBINER_INDEXED_BLOCK, count + 2, ints, 0, NULL, 1, &old);
    free(ints);
    return rc;
}

int PMPI_Type_create_hindexed_block(int count, int blocklength, const MPI_Aint *displs,
                                    MPI_Datatype old, MPI_Datatype *newtype) {
    int *lens = repeat(count, blocklength);
    int64_t *d = widen_aint(count, displs);
    int rc = indexed("MPI_Type_create_hindexed_block", count, lens, d, 1, old, newtype);
    free(lens);
    free(d);
    int ints[2] = {count, blocklength};
    return recorded(rc, *newtype, MPI_COMBINER_HINDEXED_BLOCK, 2, ints, count, displs, 1, &old);
}

int PMPI_Type_create_struct(int count, const int *lens, const MPI_Aint *displs,
                            const MPI_Datatype *ts, MPI_Datatype *newtype) {
    if (count < 0) return api_error("MPI_Type_create_struct", MPI_ERR_COUNT, "negative count");
    int64_t *d = widen_aint(count, displs);
    int h = 0, rc = dt_create_blocks(count, lens, d, ts, true, &h);
    free(d);
    rc = made("MPI_Type_create_struct", rc, newtype, h);
    int *ints = ints_of(1, &count, count, lens, NULL);
    rc = recorded(rc, *newtype, MPI_COMBINER_STRUCT, count + 1, ints, count, displs, count, ts);
    free(ints);
    return rc;
}

int PMPI_Type_struct(int count, const int *lens, const MPI_Aint *displs, const MPI_Datatype *ts,
                     MPI_Datatype *newtype) {
    int rc = PMPI_Type_create_struct(count, lens, displs, ts, newtype);
    if (rc == MPI_SUCCESS) dt_set_combiner(*newtype, MPI_COMBINER_STRUCT_INTEGER);
    return rc;
}

int PMPI_Type_create_resized(MPI_Datatype old, MPI_Aint lb, MPI_Aint extent,
                             MPI_Datatype *newtype) {
    int h = 0, rc = dt_create_resized(old, lb, extent, &h);
    rc = made("MPI_Type_create_resized", rc, newtype, h);
    MPI_Aint aints[2] = {lb, extent};
    return recorded(rc, *newtype, MPI_COMBINER_RESIZED, 0, NULL, 2, aints, 1, &old);
}

/* --- decoding: MPI_Type_get_envelope, MPI_Type_get_contents --- */

int PMPI_Type_get_envelope(MPI_Datatype type, int *ni, int *na, int *nt, int *combiner) {
    if (dt_size(type) < 0)
        return api_error("MPI_Type_get_envelope", MPI_ERR_TYPE, "datatype %d is not valid", type);
    const struct dt_envelope *e = dt_get_envelope(type);
    *combiner = e ? e->combiner : MPI_COMBINER_NAMED;
    *ni = e ? e->ni : 0;
    *na = e ? e->na : 0;
    *nt = e ? e->nt : 0;
    return MPI_SUCCESS;
}

/* A new handle for t with t's layout and envelope (MPI_Type_get_contents
 * returns derived types as new objects the program frees). */
static MPI_Datatype same_type(MPI_Datatype t) {
    if (t < DT_FIRST_DERIVED) return t;
    int h = 0;
    dt_create_resized(t, dt_lb(t), dt_extent(t), &h);
    if (dt_committed(t)) dt_commit(h);
    const struct dt_envelope *e = dt_get_envelope(t);
    dt_set_envelope(h, e->combiner, e->ni, e->ints, e->na, e->aints, e->nt, e->types);
    return h;
}

int PMPI_Type_get_contents(MPI_Datatype type, int maxi, int maxa, int maxt, int ints[],
                           MPI_Aint aints[], MPI_Datatype types[]) {
    const struct dt_envelope *e = dt_get_envelope(type);
    if (!e || e->combiner == 0)
        return api_error("MPI_Type_get_contents", MPI_ERR_TYPE,
                         "datatype %d is predefined: it has no contents", type);
    if (maxi < e->ni || maxa < e->na || maxt < e->nt)
        return api_error("MPI_Type_get_contents", MPI_ERR_ARG,
                         "the arrays are smaller than MPI_Type_get_envelope's counts");
    for (int i = 0; i < e->ni; i++)
        ints[i] = e->ints[i];
    for (int i = 0; i < e->na; i++)
        aints[i] = (MPI_Aint)e->aints[i];
    int nt = e->nt, *inner = e->types; /* e moves when same_type makes types */
    for (int i = 0; i < nt; i++)
        types[i] = same_type(inner[i]);
    return MPI_SUCCESS;
}

/* --- subarrays and distributed arrays: the elements of a grid --- */

/* A type of the elements of an ndims grid of `old` (dims[0] the slowest
 * varying, in memory order) whose index along dimension d is one of
 * idx[d][0..nidx[d]-1] (increasing); its extent is the whole grid. */
static int grid_type(const char *func, int ndims, const int *dims, int *const *idx, const int *nidx,
                     MPI_Datatype old, MPI_Datatype *newtype) {
    int64_t blocks = 1, ext = dt_extent(old), grid = 1;
    for (int d = 0; d < ndims; d++) {
        blocks *= nidx[d];
        grid *= dims[d];
    }
    if (blocks > INT32_MAX) return api_error(func, MPI_ERR_ARG, "too many elements");
    int *lens = xcalloc((size_t)blocks + 1, sizeof *lens),
        *pos = xcalloc((size_t)ndims + 1, sizeof(int));
    int64_t *displs = xcalloc((size_t)blocks + 1, sizeof *displs);
    MPI_Datatype *ts = xcalloc((size_t)blocks + 1, sizeof *ts);
    for (int64_t b = 0; b < blocks; b++) { /* odometer over the index lists, last fastest */
        int64_t off = 0;
        for (int d = 0; d < ndims; d++)
            off = off * dims[d] + idx[d][pos[d]];
        lens[b] = 1;
        displs[b] = off * ext;
        ts[b] = old;
        for (int d = ndims - 1; d >= 0 && ++pos[d] == nidx[d]; d--)
            pos[d] = 0;
    }
    int inner = 0, rc = dt_create_blocks((int)blocks, lens, displs, ts, false, &inner);
    free(lens), free(pos), free(displs), free(ts);
    if (rc != MPI_SUCCESS) return api_error(func, rc, "invalid arguments");
    int h = 0;
    rc = dt_create_resized(inner, 0, grid * ext, &h);
    dt_free(inner);
    return made(func, rc, newtype, h);
}

/* The arrays of a C-order description in memory order (Fortran reversed). */
static void in_memory_order(int ndims, int order, const int *in, int *out) {
    for (int d = 0; d < ndims; d++)
        out[d] = order == MPI_ORDER_FORTRAN ? in[ndims - 1 - d] : in[d];
}

static int grid_from_ranges(const char *func, int ndims, int order, const int *sizes,
                            const int *firsts, const int *counts, MPI_Datatype old,
                            MPI_Datatype *newtype) {
    int *dims = xcalloc((size_t)ndims + 1, sizeof *dims),
        *n = xcalloc((size_t)ndims + 1, sizeof(int));
    int **idx = xcalloc((size_t)ndims + 1, sizeof *idx);
    in_memory_order(ndims, order, sizes, dims);
    for (int d = 0; d < ndims; d++) {
        int src = order == MPI_ORDER_FORTRAN ? ndims - 1 - d : d;
        n[d] = counts[src];
        idx[d] = xcalloc((size_t)n[d] + 1, sizeof **idx);
        for (int k = 0; k < n[d]; k++)
            idx[d][k] = firsts[src] + k;
    }
    int rc = grid_type(func, ndims, dims, idx, n, old, newtype);
    for (int d = 0; d < ndims; d++)
        free(idx[d]);
    free(idx), free(dims), free(n);
    return rc;
}

int PMPI_Type_create_subarray(int ndims, const int sizes[], const int subsizes[],
                              const int starts[], int order, MPI_Datatype old,
                              MPI_Datatype *newtype) {
    const char *func = "MPI_Type_create_subarray";
    int rc = api_check_type(func, old, 1);
    if (rc != MPI_SUCCESS) return rc;
    if (ndims <= 0) return api_error(func, MPI_ERR_DIMS, "ndims %d is not positive", ndims);
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
        return api_error(func, MPI_ERR_ARG, "order is not MPI_ORDER_C or MPI_ORDER_FORTRAN");
    for (int d = 0; d < ndims; d++)
        if (sizes[d] <= 0 || subsizes[d] <= 0 || starts[d] < 0 ||
            starts[d] + subsizes[d] > sizes[d])
            return api_error(func, MPI_ERR_ARG,
                             "dimension %d: the subarray (start %d, size %d) is not inside the "
                             "array (size %d)",
                             d, starts[d], subsizes[d], sizes[d]);
    rc = grid_from_ranges(func, ndims, order, sizes, starts, subsizes, old, newtype);
    int *ints = xcalloc((size_t)(3 * ndims + 2), sizeof *ints);
    ints[0] = ndims;
    for (int d = 0; d < ndims; d++) {
        ints[1 + d] = sizes[d];
        ints[1 + ndims + d] = subsizes[d];
        ints[1 + 2 * ndims + d] = starts[d];
    }
    ints[1 + 3 * ndims] = order;
    rc = recorded(rc, *newtype, MPI_COMBINER_SUBARRAY, 3 * ndims + 2, ints, 0, NULL, 1, &old);
    free(ints);
    return rc;
}

/* The indices of one dimension a process at coord owns (MPI-3.1 4.1.4). */
static int owned_indices(int gsize, int distrib, int darg, int psize, int coord, int *out) {
    int n = 0;
    if (distrib == MPI_DISTRIBUTE_NONE) {
        for (int i = 0; i < gsize; i++)
            out[n++] = i;
    } else if (distrib == MPI_DISTRIBUTE_BLOCK) {
        int b = darg == MPI_DISTRIBUTE_DFLT_DARG ? (gsize + psize - 1) / psize : darg;
        for (int i = coord * b; i < (coord + 1) * b && i < gsize; i++)
            out[n++] = i;
    } else {
        int b = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
        for (int start = coord * b; start < gsize; start += psize * b)
            for (int i = start; i < start + b && i < gsize; i++)
                out[n++] = i;
    }
    return n;
}

static int darray_check(const char *func, int size, int rank, int ndims, const int *gsizes,
                        const int *distribs, const int *dargs, const int *psizes, int order) {
    int procs = 1;
    for (int d = 0; d < ndims; d++) {
        procs *= psizes[d];
        bool known = distribs[d] == MPI_DISTRIBUTE_BLOCK || distribs[d] == MPI_DISTRIBUTE_CYCLIC ||
                     distribs[d] == MPI_DISTRIBUTE_NONE;
        if (!known || gsizes[d] <= 0 || psizes[d] <= 0 ||
            (distribs[d] == MPI_DISTRIBUTE_NONE && psizes[d] != 1) ||
            (dargs[d] != MPI_DISTRIBUTE_DFLT_DARG && dargs[d] <= 0) ||
            (distribs[d] == MPI_DISTRIBUTE_BLOCK && dargs[d] != MPI_DISTRIBUTE_DFLT_DARG &&
             (int64_t)dargs[d] * psizes[d] < gsizes[d]))
            return api_error(func, MPI_ERR_ARG, "dimension %d: invalid distribution", d);
    }
    if (procs != size || rank < 0 || rank >= size)
        return api_error(func, MPI_ERR_ARG, "the process grid does not hold %d processes", size);
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
        return api_error(func, MPI_ERR_ARG, "order is not MPI_ORDER_C or MPI_ORDER_FORTRAN");
    return MPI_SUCCESS;
}

int PMPI_Type_create_darray(int size, int rank, int ndims, const int gsizes[], const int distribs[],
                            const int dargs[], const int psizes[], int order, MPI_Datatype old,
                            MPI_Datatype *newtype) {
    const char *func = "MPI_Type_create_darray";
    int rc = api_check_type(func, old, 1);
    if (rc == MPI_SUCCESS)
        rc = darray_check(func, size, rank, ndims, gsizes, distribs, dargs, psizes, order);
    if (rc != MPI_SUCCESS) return rc;
    int *dims = xcalloc((size_t)ndims + 1, sizeof *dims),
        *n = xcalloc((size_t)ndims + 1, sizeof(int));
    int **idx = xcalloc((size_t)ndims + 1, sizeof *idx);
    in_memory_order(ndims, order, gsizes, dims);
    for (int d = ndims - 1, r = rank; d >= 0; d--) { /* processes in row-major order */
        int coord = r % psizes[d], m = order == MPI_ORDER_FORTRAN ? ndims - 1 - d : d;
        r /= psizes[d];
        idx[m] = xcalloc((size_t)gsizes[d] + 1, sizeof **idx);
        n[m] = owned_indices(gsizes[d], distribs[d], dargs[d], psizes[d], coord, idx[m]);
    }
    rc = grid_type(func, ndims, dims, idx, n, old, newtype);
    for (int d = 0; d < ndims; d++)
        free(idx[d]);
    free(idx), free(dims), free(n);
    int *ints = xcalloc((size_t)(4 * ndims + 4), sizeof *ints);
    ints[0] = size, ints[1] = rank, ints[2] = ndims;
    for (int d = 0; d < ndims; d++) {
        ints[3 + d] = gsizes[d];
        ints[3 + ndims + d] = distribs[d];
        ints[3 + 2 * ndims + d] = dargs[d];
        ints[3 + 3 * ndims + d] = psizes[d];
    }
    ints[3 + 4 * ndims] = order;
    rc = recorded(rc, *newtype, MPI_COMBINER_DARRAY, 4 * ndims + 4, ints, 0, NULL, 1, &old);
    free(ints);
    return rc;
}

int PMPI_Type_dup(MPI_Datatype old, MPI_Datatype *newtype) {
    int h = 0, rc = dt_create_resized(old, dt_lb(old), dt_extent(old), &h);
    if (rc == MPI_SUCCESS && dt_committed(old)) dt_commit(h);
    rc = recorded(made("MPI_Type_dup", rc, newtype, h), h, MPI_COMBINER_DUP, 0, NULL, 0, NULL, 1,
                  &old);
    if (rc != MPI_SUCCESS || (rc = api_type_copy_attrs(old, *newtype)) == MPI_SUCCESS) return rc;
    dt_free(*newtype); /* a copy callback failed: MPI_Type_dup fails with it */
    *newtype = MPI_DATATYPE_NULL;
    return api_error("MPI_Type_dup", rc, "an attribute copy callback returned error %d", rc);
}

int PMPI_Type_commit(MPI_Datatype *type) {
    if (dt_commit(*type) != MPI_SUCCESS)
        return api_error("MPI_Type_commit", MPI_ERR_TYPE, "datatype %d is not valid", *type);
    return MPI_SUCCESS;
}

int PMPI_Type_free(MPI_Datatype *type) {
    if (*type < DT_FIRST_DERIVED || dt_free(*type) != MPI_SUCCESS)
        return api_error("MPI_Type_free", MPI_ERR_TYPE, "datatype %d cannot be freed", *type);
    api_type_delete_attrs(*type);
    *type = MPI_DATATYPE_NULL;
    return MPI_SUCCESS;
}

int PMPI_Type_size(MPI_Datatype type, int *size) {
    int64_t s = dt_size(type);
    if (s < 0) return api_error("MPI_Type_size", MPI_ERR_TYPE, "datatype %d is not valid", type);
    *size = (int)s;
    return MPI_SUCCESS;
}

int PMPI_Type_get_extent(MPI_Datatype type, MPI_Aint *lb, MPI_Aint *extent) {
    if (dt_size(type) < 0)
        return api_error("MPI_Type_get_extent", MPI_ERR_TYPE, "datatype %d is not valid", type);
    *lb = dt_lb(type);
    *extent = dt_extent(type);
    return MPI_SUCCESS;
}

int PMPI_Type_get_true_extent(MPI_Datatype type, MPI_Aint *lb, MPI_Aint *extent) {
    if (dt_size(type) < 0)
        return api_error("MPI_Type_get_true_extent", MPI_ERR_TYPE, "datatype %d is not valid",
                         type);
    *lb = dt_true_lb(type);
    *extent = dt_true_extent(type);
    return MPI_SUCCESS;
}

int PMPI_Type_lb(MPI_Datatype type, MPI_Aint *lb) {
    if (dt_size(type) < 0)
        return api_error("MPI_Type_lb", MPI_ERR_TYPE, "datatype %d is not valid", type);
    *lb = dt_lb(type);
    return MPI_SUCCESS;
}

int PMPI_Type_ub(MPI_Datatype type, MPI_Aint *ub) {
    if (dt_size(type) < 0)
        return api_error("MPI_Type_ub", MPI_ERR_TYPE, "datatype %d is not valid", type);
    *ub = dt_lb(type) + dt_extent(type);
    return MPI_SUCCESS;
}

int PMPI_Type_extent(MPI_Datatype type, MPI_Aint *extent) {
    MPI_Aint lb;
    return PMPI_Type_get_extent(type, &lb, extent);
}

int PMPI_Pack_size(int incount, MPI_Datatype type, MPI_Comm comm, int *size) {
    (void)comm;
    int64_t s = dt_size(type);
    if (s < 0) return api_error("MPI_Pack_size", MPI_ERR_TYPE, "datatype %d is not valid", type);
    *size = (int)(s * incount);
    return MPI_SUCCESS;
}

int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype type, void *outbuf, int outsize,
              int *position, MPI_Comm comm) {
    (void)comm;
    int64_t s = dt_size(type);
    if (s < 0) return api_error("MPI_Pack", MPI_ERR_TYPE, "datatype %d is not valid", type);
    if (*position + s * incount > outsize)
        return api_error("MPI_Pack", MPI_ERR_TRUNCATE, "%lld bytes do not fit in %d - %d",
                         (long long)(s * incount), outsize, *position);
    dt_pack(type, inbuf, incount, (char *)outbuf + *position);
    *position += (int)(s * incount);
    return MPI_SUCCESS;
}

int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
                MPI_Datatype type, MPI_Comm comm) {
    (void)comm;
    int64_t s = dt_size(type);
    if (s < 0) return api_error("MPI_Unpack", MPI_ERR_TYPE, "datatype %d is not valid", type);
    if (*position + s * outcount > insize)
        return api_error("MPI_Unpack", MPI_ERR_TRUNCATE, "reading past the packed buffer");
    dt_unpack(type, (const char *)inbuf + *position, outcount, outbuf);
    *position += (int)(s * outcount);
    return MPI_SUCCESS;
}

/* MPI_Pack_external: the "external32" representation (big-endian; the
 * types whose external32 size differs from this machine's, such as MPI_LONG,
 * and mixed structures are refused with MPI_ERR_UNSUPPORTED_DATAREP). */
static int external_check(const char *func, const char *datarep, MPI_Datatype type) {
    if (strcmp(datarep, "external32") != 0)
        return api_error(func, MPI_ERR_UNSUPPORTED_DATAREP, "representation '%s' (only external32)",
                         datarep);
    if (dt_size(type) < 0) return api_error(func, MPI_ERR_TYPE, "datatype %d is not valid", type);
    if (dt_external32_unit(type) == 0)
        return api_error(func, MPI_ERR_UNSUPPORTED_DATAREP,
                         "external32 of datatype %d (mixed, long or long double) is not supported",
                         type);
    return MPI_SUCCESS;
}

int PMPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype type, MPI_Aint *size) {
    int rc = external_check("MPI_Pack_external_size", datarep, type);
    if (rc == MPI_SUCCESS) *size = (MPI_Aint)dt_size(type) * incount;
    return rc;
}

int PMPI_Pack_external(const char datarep[], const void *inbuf, int incount, MPI_Datatype type,
                       void *outbuf, MPI_Aint outsize, MPI_Aint *position) {
    int rc = external_check("MPI_Pack_external", datarep, type);
    if (rc != MPI_SUCCESS) return rc;
    int64_t bytes = dt_size(type) * incount;
    if (*position + bytes > outsize)
        return api_error("MPI_Pack_external", MPI_ERR_TRUNCATE, "%lld bytes do not fit",
                         (long long)bytes);
    char *out = (char *)outbuf + *position;
    dt_pack(type, inbuf, incount, out);
    dt_swap_bytes(out, bytes, dt_external32_unit(type));
    *position += bytes;
    return MPI_SUCCESS;
}

int PMPI_Unpack_external(const char datarep[], const void *inbuf, MPI_Aint insize,
                         MPI_Aint *position, void *outbuf, int outcount, MPI_Datatype type) {
    int rc = external_check("MPI_Unpack_external", datarep, type);
    if (rc != MPI_SUCCESS) return rc;
    int64_t bytes = dt_size(type) * outcount;
    if (*position + bytes > insize)
        return api_error("MPI_Unpack_external", MPI_ERR_TRUNCATE, "reading past the packed buffer");
    char *tmp = xmalloc((size_t)bytes + 1);
    memcpy(tmp, (const char *)inbuf + *position, (size_t)bytes);
    dt_swap_bytes(tmp, bytes, dt_external32_unit(type));
    dt_unpack(type, tmp, outcount, outbuf);
    free(tmp);
    *position += bytes;
    return MPI_SUCCESS;
}

int PMPI_Get_elements(const MPI_Status *status, MPI_Datatype type, int *count) {
    int64_t per, s = dt_size(type);
    if (s < 0) return api_error("MPI_Get_elements", MPI_ERR_TYPE, "datatype %d is not valid", type);
    int basic = dt_basic(type, &per);
    int64_t bs = basic > 0 ? dtype_size(basic) : 0;
    *count = bs > 0 ? (int)(status->simpi_bytes / bs) : (s ? (int)(status->simpi_bytes / s) : 0);
    return MPI_SUCCESS;
}

int PMPI_Get_address(const void *location, MPI_Aint *address) {
    *address = (MPI_Aint)location;
    return MPI_SUCCESS;
}

int PMPI_Address(void *location, MPI_Aint *address) {
    return PMPI_Get_address(location, address);
}

#pragma weak MPI_Type_contiguous = PMPI_Type_contiguous
#pragma weak MPI_Type_vector = PMPI_Type_vector
#pragma weak MPI_Type_create_hvector = PMPI_Type_create_hvector
#pragma weak MPI_Type_hvector = PMPI_Type_hvector
#pragma weak MPI_Type_indexed = PMPI_Type_indexed
#pragma weak MPI_Type_create_hindexed = PMPI_Type_create_hindexed
#pragma weak MPI_Type_hindexed = PMPI_Type_hindexed
#pragma weak MPI_Type_create_indexed_block = PMPI_Type_create_indexed_block
#pragma weak MPI_Type_create_hindexed_block = PMPI_Type_create_hindexed_block
#pragma weak MPI_Type_create_struct = PMPI_Type_create_struct
#pragma weak MPI_Type_struct = PMPI_Type_struct
#pragma weak MPI_Type_create_resized = PMPI_Type_create_resized
#pragma weak MPI_Type_get_envelope = PMPI_Type_get_envelope
#pragma weak MPI_Type_get_contents = PMPI_Type_get_contents
#pragma weak MPI_Type_create_subarray = PMPI_Type_create_subarray
#pragma weak MPI_Type_create_darray = PMPI_Type_create_darray
#pragma weak MPI_Type_dup = PMPI_Type_dup
#pragma weak MPI_Type_commit = PMPI_Type_commit
#pragma weak MPI_Type_free = PMPI_Type_free
#pragma weak MPI_Type_size = PMPI_Type_size
#pragma weak MPI_Type_get_extent = PMPI_Type_get_extent
#pragma weak MPI_Type_get_true_extent = PMPI_Type_get_true_extent
#pragma weak MPI_Type_extent = PMPI_Type_extent
#pragma weak MPI_Type_lb = PMPI_Type_lb
#pragma weak MPI_Type_ub = PMPI_Type_ub
#pragma weak MPI_Pack_size = PMPI_Pack_size
#pragma weak MPI_Pack = PMPI_Pack
#pragma weak MPI_Unpack = PMPI_Unpack
#pragma weak MPI_Pack_external = PMPI_Pack_external
#pragma weak MPI_Unpack_external = PMPI_Unpack_external
#pragma weak MPI_Pack_external_size = PMPI_Pack_external_size
#pragma weak MPI_Get_elements = PMPI_Get_elements
#pragma weak MPI_Get_address = PMPI_Get_address
#pragma weak MPI_Address = PMPI_Address

int PMPI_Type_size_x(MPI_Datatype type, MPI_Count *size) {
    int s = 0;
    int rc = PMPI_Type_size(type, &s);
    *size = s;
    return rc;
}

int PMPI_Type_get_extent_x(MPI_Datatype type, MPI_Count *lb, MPI_Count *extent) {
    MPI_Aint l = 0, e = 0;
    int rc = PMPI_Type_get_extent(type, &l, &e);
    *lb = l;
    *extent = e;
    return rc;
}

int PMPI_Type_get_true_extent_x(MPI_Datatype type, MPI_Count *lb, MPI_Count *extent) {
    MPI_Aint l = 0, e = 0;
    int rc = PMPI_Type_get_true_extent(type, &l, &e);
    *lb = l;
    *extent = e;
    return rc;
}

int PMPI_Get_elements_x(const MPI_Status *status, MPI_Datatype type, MPI_Count *count) {
    int c = 0;
    int rc = PMPI_Get_elements(status, type, &c);
    *count = c;
    return rc;
}

/* Datatype names: the predefined ones by their MPI name, others as set. */
struct tname {
    int type;
    char name[MPI_MAX_OBJECT_NAME];
};

static struct tname *tnames;

static int ntnames;

int PMPI_Type_set_name(MPI_Datatype type, const char *name) {
    tnames = realloc(tnames, sizeof *tnames * (size_t)(ntnames + 1));
    if (!tnames) abort();
    tnames[ntnames].type = type;
    snprintf(tnames[ntnames++].name, MPI_MAX_OBJECT_NAME, "%s", name);
    return MPI_SUCCESS;
}

int PMPI_Type_get_name(MPI_Datatype type, char *name, int *len) {
    static const char *const predefined[] = {
#define N(t) [t] = #t
        N(MPI_CHAR),
        N(MPI_SIGNED_CHAR),
        N(MPI_UNSIGNED_CHAR),
        N(MPI_BYTE),
        N(MPI_SHORT),
        N(MPI_UNSIGNED_SHORT),
        N(MPI_INT),
        N(MPI_UNSIGNED),
        N(MPI_LONG),
        N(MPI_UNSIGNED_LONG),
        N(MPI_LONG_LONG_INT),
        N(MPI_UNSIGNED_LONG_LONG),
        N(MPI_FLOAT),
        N(MPI_DOUBLE),
        N(MPI_LONG_DOUBLE),
        N(MPI_WCHAR),
        N(MPI_C_BOOL),
        N(MPI_INT8_T),
        N(MPI_INT16_T),
        N(MPI_INT32_T),
        N(MPI_INT64_T),
        N(MPI_UINT8_T),
        N(MPI_UINT16_T),
        N(MPI_UINT32_T),
        N(MPI_UINT64_T),
        N(MPI_AINT),
        N(MPI_OFFSET),
        N(MPI_COUNT),
        N(MPI_PACKED),
        N(MPI_FLOAT_INT),
        N(MPI_DOUBLE_INT),
        N(MPI_LONG_INT),
        N(MPI_2INT),
        N(MPI_SHORT_INT),
        N(MPI_LONG_DOUBLE_INT),
        N(MPI_C_FLOAT_COMPLEX),
        N(MPI_C_DOUBLE_COMPLEX),
        N(MPI_C_LONG_DOUBLE_COMPLEX),
        N(MPI_CXX_BOOL),
        N(MPI_CXX_FLOAT_COMPLEX),
        N(MPI_CXX_DOUBLE_COMPLEX),
        N(MPI_CXX_LONG_DOUBLE_COMPLEX),
        N(MPI_INTEGER),
        N(MPI_REAL),
        N(MPI_DOUBLE_PRECISION),
        N(MPI_COMPLEX),
        N(MPI_DOUBLE_COMPLEX),
        N(MPI_LOGICAL),
        N(MPI_CHARACTER),
        N(MPI_INTEGER1),
        N(MPI_INTEGER2),
        N(MPI_INTEGER4),
        N(MPI_INTEGER8),
        N(MPI_REAL4),
        N(MPI_REAL8),
        N(MPI_REAL16),
        N(MPI_COMPLEX8),
        N(MPI_COMPLEX16),
        N(MPI_COMPLEX32),
        N(MPI_2REAL),
        N(MPI_2DOUBLE_PRECISION),
        N(MPI_2INTEGER),
        N(MPI_INTEGER16),
        N(MPI_LB),
        N(MPI_UB),
        N(MPI_LONG_LONG),
        N(MPI_LOGICAL1),
        N(MPI_LOGICAL2),
        N(MPI_LOGICAL4),
        N(MPI_LOGICAL8),
        N(MPI_2COMPLEX),
        N(MPI_2DOUBLE_COMPLEX),
#undef N
    };
    const char *found =
        type > 0 && type < (int)(sizeof predefined / sizeof *predefined) && predefined[type]
            ? predefined[type]
            : "";
    for (int i = 0; i < ntnames; i++)
        if (tnames[i].type == type) found = tnames[i].name;
    *len = snprintf(name, MPI_MAX_OBJECT_NAME, "%s", found);
    return MPI_SUCCESS;
}

#pragma weak MPI_Type_size_x = PMPI_Type_size_x
#pragma weak MPI_Type_get_extent_x = PMPI_Type_get_extent_x
#pragma weak MPI_Type_get_true_extent_x = PMPI_Type_get_true_extent_x
#pragma weak MPI_Get_elements_x = PMPI_Get_elements_x
#pragma weak MPI_Type_set_name = PMPI_Type_set_name
#pragma weak MPI_Type_get_name = PMPI_Type_get_name
