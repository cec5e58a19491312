/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 2 exit: 5 expect: MPI_Comm_spawn is not supported by simpi yet
 * A program that uses a function simpi lacks compiles and links, and the run
 * stops with the function's name when it is called. */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm child;
    if (rank == 1)
        MPI_Comm_spawn("worker", MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0, MPI_COMM_SELF, &child,
                       MPI_ERRCODES_IGNORE);
    MPI_Finalize();
    return 0;
}
