/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 2
 * Utilities benchmarks and libraries call: MPI_Alloc_mem/Free_mem,
 * MPI_Pcontrol, info objects, Fortran handle conversion, the _x queries and
 * datatype names. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

int main(int argc, char **argv) {
    int me, errors = 0, *errs = &errors;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
#define check_rank me
    double *mem = NULL;
    MPI_Alloc_mem(1024 * sizeof(double), MPI_INFO_NULL, &mem);
    EXPECT(mem != NULL);
    mem[1023] = 1.0;
    MPI_Free_mem(mem);
    MPI_Pcontrol(1);
    MPI_Info info, copy;
    MPI_Info_create(&info);
    MPI_Info_set(info, "striping_factor", "4");
    MPI_Info_set(info, "cb_nodes", "2");
    MPI_Info_dup(info, &copy);
    char value[32];
    int flag, nkeys;
    MPI_Info_get(copy, "cb_nodes", 31, value, &flag);
    EXPECT(flag && !strcmp(value, "2"));
    MPI_Info_get_nkeys(copy, &nkeys);
    EXPECT(nkeys == 2);
    MPI_Info_delete(copy, "cb_nodes");
    MPI_Info_get(copy, "cb_nodes", 31, value, &flag);
    EXPECT(!flag);
    MPI_Info_free(&info);
    MPI_Info_free(&copy);
    EXPECT(MPI_Comm_f2c(MPI_Comm_c2f(MPI_COMM_WORLD)) == MPI_COMM_WORLD);
    MPI_Count size;
    MPI_Type_size_x(MPI_DOUBLE, &size);
    EXPECT(size == 8);
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    MPI_Type_get_name(MPI_INT, name, &len);
    EXPECT(!strcmp(name, "MPI_INT") && len == 7);
    int all;
    MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0) printf(all ? "Found %d errors\n" : "No Errors\n", all);
    MPI_Finalize();
    return 0;
}
