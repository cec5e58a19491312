/* SPDX-License-Identifier: BSD-3-Clause */
/* Language interoperability (MPI-3.1 section 17.2.4): handle conversion
 * between C and Fortran (simpi's handles are already integers). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "online/api/api.h"

/* Handles are integers already: Fortran conversion is the identity. */
MPI_Fint PMPI_Comm_c2f(MPI_Comm comm) {
    return comm;
}

MPI_Comm PMPI_Comm_f2c(MPI_Fint comm) {
    return comm;
}

MPI_Fint PMPI_Type_c2f(MPI_Datatype type) {
    return type;
}

MPI_Datatype PMPI_Type_f2c(MPI_Fint type) {
    return type;
}

MPI_Fint PMPI_Group_c2f(MPI_Group group) {
    return group;
}

MPI_Group PMPI_Group_f2c(MPI_Fint group) {
    return group;
}

MPI_Fint PMPI_Op_c2f(MPI_Op op) {
    return op;
}

MPI_Op PMPI_Op_f2c(MPI_Fint op) {
    return op;
}

MPI_Fint PMPI_Info_c2f(MPI_Info info) {
    return info;
}

MPI_Info PMPI_Info_f2c(MPI_Fint info) {
    return info;
}

MPI_Fint PMPI_Errhandler_c2f(MPI_Errhandler e) {
    return e;
}

MPI_Errhandler PMPI_Errhandler_f2c(MPI_Fint e) {
    return e;
}

#pragma weak MPI_Comm_c2f = PMPI_Comm_c2f
#pragma weak MPI_Comm_f2c = PMPI_Comm_f2c
#pragma weak MPI_Type_c2f = PMPI_Type_c2f
#pragma weak MPI_Type_f2c = PMPI_Type_f2c
#pragma weak MPI_Group_c2f = PMPI_Group_c2f
#pragma weak MPI_Group_f2c = PMPI_Group_f2c
#pragma weak MPI_Op_c2f = PMPI_Op_c2f
#pragma weak MPI_Op_f2c = PMPI_Op_f2c
#pragma weak MPI_Info_c2f = PMPI_Info_c2f
#pragma weak MPI_Info_f2c = PMPI_Info_f2c
#pragma weak MPI_Errhandler_c2f = PMPI_Errhandler_c2f
#pragma weak MPI_Errhandler_f2c = PMPI_Errhandler_f2c

MPI_Fint PMPI_Message_c2f(MPI_Message message) {
    return message;
}

MPI_Message PMPI_Message_f2c(MPI_Fint message) {
    return message;
}

/* --- Fortran's parameterized types (MPI-3.1 17.1.9): the predefined type
 * of the precision and range asked for (gfortran's kinds) --- */

int PMPI_Type_create_f90_real(int p, int r, MPI_Datatype *newtype) {
    if ((p == MPI_UNDEFINED || p <= 6) && (r == MPI_UNDEFINED || r <= 37))
        *newtype = MPI_REAL4;
    else if ((p == MPI_UNDEFINED || p <= 15) && (r == MPI_UNDEFINED || r <= 307))
        *newtype = MPI_REAL8;
    else if ((p == MPI_UNDEFINED || p <= 18) && (r == MPI_UNDEFINED || r <= 4931))
        *newtype = MPI_REAL16;
    else
        return api_error("MPI_Type_create_f90_real", MPI_ERR_ARG,
                         "no real type has precision %d and range %d", p, r);
    return MPI_SUCCESS;
}

int PMPI_Type_create_f90_complex(int p, int r, MPI_Datatype *newtype) {
    MPI_Datatype real;
    int rc = PMPI_Type_create_f90_real(p, r, &real);
    if (rc == MPI_SUCCESS)
        *newtype = real == MPI_REAL4   ? MPI_COMPLEX8
                   : real == MPI_REAL8 ? MPI_COMPLEX16
                                       : MPI_COMPLEX32;
    return rc;
}

int PMPI_Type_create_f90_integer(int r, MPI_Datatype *newtype) {
    static const struct {
        int range;
        MPI_Datatype type;
    } kinds[] = {{2, MPI_INTEGER1},
                 {4, MPI_INTEGER2},
                 {9, MPI_INTEGER4},
                 {18, MPI_INTEGER8},
                 {38, MPI_INTEGER16}};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (r <= kinds[i].range) {
            *newtype = kinds[i].type;
            return MPI_SUCCESS;
        }
    return api_error("MPI_Type_create_f90_integer", MPI_ERR_ARG, "no integer type has range %d", r);
}

int PMPI_Type_match_size(int typeclass, int size, MPI_Datatype *type) {
    MPI_Datatype reals[] = {MPI_REAL4, MPI_REAL8, MPI_REAL16};
    MPI_Datatype ints[] = {MPI_INTEGER1, MPI_INTEGER2, MPI_INTEGER4, MPI_INTEGER8, MPI_INTEGER16};
    MPI_Datatype cplx[] = {MPI_COMPLEX8, MPI_COMPLEX16, MPI_COMPLEX32};
    MPI_Datatype *list = typeclass == MPI_TYPECLASS_REAL      ? reals
                         : typeclass == MPI_TYPECLASS_INTEGER ? ints
                         : typeclass == MPI_TYPECLASS_COMPLEX ? cplx
                                                              : NULL;
    int n = typeclass == MPI_TYPECLASS_INTEGER ? 5 : 3;
    for (int i = 0; list && i < n; i++)
        if (dtype_size(list[i]) == size) {
            *type = list[i];
            return MPI_SUCCESS;
        }
    return api_error("MPI_Type_match_size", MPI_ERR_ARG,
                     "no predefined type of class %d and %d bytes", typeclass, size);
}

#pragma weak MPI_Message_c2f = PMPI_Message_c2f
#pragma weak MPI_Message_f2c = PMPI_Message_f2c
#pragma weak MPI_Type_create_f90_real = PMPI_Type_create_f90_real
#pragma weak MPI_Type_create_f90_complex = PMPI_Type_create_f90_complex
#pragma weak MPI_Type_create_f90_integer = PMPI_Type_create_f90_integer
#pragma weak MPI_Type_match_size = PMPI_Type_match_size
