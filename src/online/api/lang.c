/* Language interoperability (MPI-3.1 section 17.2.4): handle conversion
 * between C and Fortran (simpi's handles are already integers). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/pool.h"
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
