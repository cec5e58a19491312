/* SPDX-License-Identifier: BSD-3-Clause */
/* Predefined MPI datatypes (sizes) and the reduction operations applied to
 * them (predefined.c), for the datatype engine and the API. */
#ifndef SIMPI_PREDEFINED_H
#define SIMPI_PREDEFINED_H

#include <stdbool.h>
#include <stdint.h>

/* Bytes of one element, or -1 for an invalid datatype. */
int dtype_size(int type);
/* The representation of a basic datatype (signed, unsigned, real, complex,
 * logical or character, and its size), by which --check=full compares type
 * signatures: MPI_INT and MPI_INT32_T agree, MPI_INT and MPI_FLOAT do not;
 * 0 for a datatype that matches anything (MPI_BYTE, MPI_PACKED) or is not
 * compared (pairs such as MPI_2INT). */
int dtype_class(int type);
/* inout[i] = in[i] op inout[i] for count elements; returns an MPI error
 * class (MPI_SUCCESS, MPI_ERR_OP for an op not defined on the type). */
int op_apply(int op, int type, const void *in, void *inout, int64_t count);
bool op_valid(int op);

/* User-defined operations (MPI_Op_create): handles from USER_OP_BASE. The
 * function is called as fn(in, inout, &count, &type). */
#define USER_OP_BASE 32
typedef void (*user_op_fn)(void *in, void *inout, int *len, int *type);
int op_register(user_op_fn fn, bool commute);
bool op_free(int op);
bool op_is_user(int op);
bool op_commutes(int op);

#endif
