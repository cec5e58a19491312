/* SPDX-License-Identifier: BSD-3-Clause */
/* The datatype engine's derived types (typemap.c): a derived type is kept
 * flattened as the list of byte blocks of one element, so that packing and
 * unpacking are block copies. Handles are shared by all ranks: a rank's new
 * type gets a fresh handle; predefined types are below DT_FIRST_DERIVED. */
#ifndef SIMPI_TYPEMAP_H
#define SIMPI_TYPEMAP_H

#include <stdbool.h>
#include <stdint.h>

#define DT_FIRST_DERIVED 128

/* Bytes of data in one element; -1 for an unknown or freed handle. */
int64_t dt_size(int type);
int64_t dt_extent(int type);
int64_t dt_lb(int type);
int64_t dt_true_lb(int type);
int64_t dt_true_extent(int type);
bool dt_committed(int type);
/* A predefined datatype (MPI_INT...), not one the program built. */
bool dt_predefined(int type);
/* True when an element's data is exactly [0, extent) (no packing needed). */
bool dt_contiguous(int type);
/* The predefined type all of an element's data is made of (0 if mixed), and
 * how many such basic elements one element holds. */
int dt_basic(int type, int64_t *per_element);

/* The byte blocks of one element, in order: offsets from the element's
 * start (a predefined type is one block, `one` filled). */
struct dt_block {
    int64_t off, len;
};
const struct dt_block *dt_blocks(int type, int *n, struct dt_block *one);
/* Copies count elements at buf into / out of the packed bytes. */
void dt_pack(int type, const void *buf, int64_t count, void *packed);
void dt_unpack(int type, const void *packed, int64_t count, void *buf);
/* The same for a type given as its blocks and extent (one-sided
 * communication carries a target type so to the target's worker). */
void dt_pack_blocks(const struct dt_block *b, int nb, int64_t ext, const void *buf, int64_t count,
                    void *packed);
void dt_unpack_blocks(const struct dt_block *b, int nb, int64_t ext, const void *packed,
                      int64_t count, void *buf);

/* Constructors; return an MPI error class and the new handle in *out.
 * Displacements in bytes (the API converts element counts). */
int dt_create_blocks(int count, const int *blocklens, const int64_t *displs, const int *types,
                     bool is_struct, int *out);
int dt_create_resized(int old, int64_t lb, int64_t extent, int *out);
int dt_commit(int type);
/* The constructor a derived type was made with and its arguments, as
 * MPI_Type_get_contents returns them (combiner 0 until set). */
struct dt_envelope {
    int combiner, ni, na, nt;
    int *ints;
    int64_t *aints;
    int *types;
};
void dt_set_envelope(int type, int combiner, int ni, const int *ints, int na, const int64_t *aints,
                     int nt, const int *types);
void dt_set_combiner(int type, int combiner);
/* external32 (MPI-3.1 13.5.2), big-endian: the unit the elements of type
 * are byte-swapped by, 1 when nothing is to swap, 0 when simpi cannot
 * convert the type (mixed or long double); and the swap of n bytes. */
int dt_external32_unit(int type);
void dt_swap_bytes(char *p, int64_t n, int unit);
/* NULL for a predefined (named) type. */
const struct dt_envelope *dt_get_envelope(int type);
/* MPI_Type_free: the type goes now, or with its last reference. */
int dt_free(int type);
/* References held by operations that use a type past the call (pending
 * requests, file views), so that MPI_Type_free does not pull it away. */
void dt_retain(int type);
void dt_release(int type);

#endif
