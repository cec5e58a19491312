/* SPDX-License-Identifier: BSD-3-Clause */
/* A real MPI program (for `simpi trace`) whose rank 1 crashes after a few
 * traced calls: its trace must be marked incomplete, and simpi trace must
 * say so and fail, rather than offer it for replay. */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, v = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < 3; i++)
        MPI_Allreduce(&rank, &v, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 1) raise(SIGKILL); /* dies at once: nothing flushed by it */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
