/* Predefined MPI datatypes (sizes) and the predefined reduction operations
 * applied to them, for the on-line API. */
#ifndef SIMPI_DTYPE_H
#define SIMPI_DTYPE_H

#include <stdbool.h>
#include <stdint.h>

/* Bytes of one element, or -1 for an invalid datatype. */
int dtype_size(int type);
/* inout[i] = in[i] op inout[i] for count elements; returns an MPI error
 * class (MPI_SUCCESS, MPI_ERR_OP for an op not defined on the type). */
int op_apply(int op, int type, const void *in, void *inout, int64_t count);
bool op_valid(int op);

#endif
