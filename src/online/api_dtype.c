/* MPI datatype entry points: constructors, queries, commit/free, and
 * Pack/Unpack. */
#include <stdlib.h>

#include "core/pool.h"
#include "online/api.h"
#include "online/datatype.h"

static int made(const char *func, int rc, MPI_Datatype *newtype, int handle) {
    if (rc != MPI_SUCCESS) return api_error(func, rc, "invalid arguments");
    *newtype = handle;
    return MPI_SUCCESS;
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
    return build("MPI_Type_contiguous", 1, &count, &zero, 1, old, newtype);
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
    return strided("MPI_Type_vector", count, blocklength, stride * dt_extent(old), old, newtype);
}

int PMPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype old,
                             MPI_Datatype *newtype) {
    return strided("MPI_Type_create_hvector", count, blocklength, stride, old, newtype);
}

int PMPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype old,
                      MPI_Datatype *newtype) {
    return strided("MPI_Type_hvector", count, blocklength, stride, old, newtype);
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
    return rc;
}

int PMPI_Type_create_hindexed(int count, const int *lens, const MPI_Aint *displs, MPI_Datatype old,
                              MPI_Datatype *newtype) {
    int64_t *d = widen_aint(count, displs);
    int rc = indexed("MPI_Type_create_hindexed", count, lens, d, 1, old, newtype);
    free(d);
    return rc;
}

int PMPI_Type_hindexed(int count, const int *lens, const MPI_Aint *displs, MPI_Datatype old,
                       MPI_Datatype *newtype) {
    return PMPI_Type_create_hindexed(count, lens, displs, old, newtype);
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
    return rc;
}

int PMPI_Type_create_hindexed_block(int count, int blocklength, const MPI_Aint *displs,
                                    MPI_Datatype old, MPI_Datatype *newtype) {
    int *lens = repeat(count, blocklength);
    int64_t *d = widen_aint(count, displs);
    int rc = indexed("MPI_Type_create_hindexed_block", count, lens, d, 1, old, newtype);
    free(lens);
    free(d);
    return rc;
}

int PMPI_Type_create_struct(int count, const int *lens, const MPI_Aint *displs,
                            const MPI_Datatype *ts, MPI_Datatype *newtype) {
    if (count < 0) return api_error("MPI_Type_create_struct", MPI_ERR_COUNT, "negative count");
    int64_t *d = widen_aint(count, displs);
    int h = 0, rc = dt_create_blocks(count, lens, d, ts, true, &h);
    free(d);
    return made("MPI_Type_create_struct", rc, newtype, h);
}

int PMPI_Type_struct(int count, const int *lens, const MPI_Aint *displs, const MPI_Datatype *ts,
                     MPI_Datatype *newtype) {
    return PMPI_Type_create_struct(count, lens, displs, ts, newtype);
}

int PMPI_Type_create_resized(MPI_Datatype old, MPI_Aint lb, MPI_Aint extent,
                             MPI_Datatype *newtype) {
    int h = 0, rc = dt_create_resized(old, lb, extent, &h);
    return made("MPI_Type_create_resized", rc, newtype, h);
}

int PMPI_Type_dup(MPI_Datatype old, MPI_Datatype *newtype) {
    int h = 0, rc = dt_create_resized(old, dt_lb(old), dt_extent(old), &h);
    if (rc == MPI_SUCCESS && dt_committed(old)) dt_commit(h);
    rc = made("MPI_Type_dup", rc, newtype, h);
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
#pragma weak MPI_Type_dup = PMPI_Type_dup
#pragma weak MPI_Type_commit = PMPI_Type_commit
#pragma weak MPI_Type_free = PMPI_Type_free
#pragma weak MPI_Type_size = PMPI_Type_size
#pragma weak MPI_Type_get_extent = PMPI_Type_get_extent
#pragma weak MPI_Type_get_true_extent = PMPI_Type_get_true_extent
#pragma weak MPI_Type_extent = PMPI_Type_extent
#pragma weak MPI_Pack_size = PMPI_Pack_size
#pragma weak MPI_Pack = PMPI_Pack
#pragma weak MPI_Unpack = PMPI_Unpack
#pragma weak MPI_Get_elements = PMPI_Get_elements
#pragma weak MPI_Get_address = PMPI_Get_address
#pragma weak MPI_Address = PMPI_Address
