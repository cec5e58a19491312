/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 3 exit: 5 expect: called exit(5) before MPI_Finalize
 * A rank calling exit() before MPI_Finalize stops the run, as mpirun would;
 * the report names the rank and "called exit(5) before MPI_Finalize". */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) exit(5);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
