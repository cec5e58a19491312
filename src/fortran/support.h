/* SPDX-License-Identifier: BSD-3-Clause */
/* What the generated Fortran bindings (bindings.c, from scripts/gen-fortran)
 * share: the sentinels Fortran programs pass (MPI_BOTTOM, MPI_IN_PLACE,
 * MPI_STATUS_IGNORE... are COMMON blocks of mpif.h, told apart by their
 * address), request handles as integers, and CHARACTER arguments. */
#ifndef SIMPI_FORTRAN_SUPPORT_H
#define SIMPI_FORTRAN_SUPPORT_H

#include <stddef.h>

#include "mpi.h"

/* The buffer a Fortran program passed, with MPI_BOTTOM and MPI_IN_PLACE
 * turned into C's. */
void *f_buf(const void *buf);
/* mpi_f08 (src/fortran/mpi_f08.f90): a choice buffer's address from its
 * descriptor, and the refusal of a non-contiguous one. */
void *simpi_f08_base(void *const *descriptor);
void simpi_f08_noncontiguous(void);
MPI_Status *f_status(MPI_Fint *status);
MPI_Status *f_statuses(MPI_Fint *statuses);
int *f_errcodes(MPI_Fint *codes);
int *f_weights(MPI_Fint *weights);

/* Requests: Fortran sees integers (0 is MPI_REQUEST_NULL). */
MPI_Request f_req_in(MPI_Fint f);
/* The integer of a C request after a call (frees the slot of one that
 * completed: c is MPI_REQUEST_NULL and f was its integer). */
MPI_Fint f_req_out(MPI_Request c, MPI_Fint f);
/* Arrays of n requests: to C (caller frees), and back. */
MPI_Request *f_reqs_in(const MPI_Fint *f, int n);
void f_reqs_out(MPI_Request *c, MPI_Fint *f, int n);

/* A CHARACTER argument of length len as a C string (trailing blanks
 * dropped; caller frees), and a C string into one (blank padded). */
char *f_str_in(const char *s, size_t len);
/* The same without leading blanks either (info keys and values). */
char *f_str_trim(const char *s, size_t len);
void f_str_out(const char *c, char *s, size_t len);

#endif
