/* SPDX-License-Identifier: BSD-3-Clause */
/* Run by run-mpi-tests as "bcast.c": a program file named like one of
 * simpi's own sources keeps private per-rank statics all the same. */
#include <mpi.h>
#include <stdio.h>

static int my_rank = -1;

int main(int argc, char **argv) {
    int me, errors = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    my_rank = me;
    MPI_Barrier(MPI_COMM_WORLD);
    if (my_rank != me) errors++;
    int all;
    MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0) printf(all ? "Found %d errors\n" : "No Errors\n", all);
    MPI_Finalize();
    return 0;
}
