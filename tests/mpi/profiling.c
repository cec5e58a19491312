/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 2
 * The profiling interface: the program defines MPI_Send itself and calls
 * PMPI_Send, as tools do; the interception is counted. */
#include <mpi.h>
#include <stdio.h>
static int sends;
int MPI_Send(const void *b, int c, MPI_Datatype t, int d, int tag, MPI_Comm comm) {
    sends++;
    return PMPI_Send(b, c, t, d, tag, comm);
}
int main(int argc, char **argv) {
    int rank, v = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    if (rank == 1) MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) printf(sends == 1 ? "No Errors\n" : "Found %d sends, expected 1\n", sends);
    MPI_Finalize();
}
