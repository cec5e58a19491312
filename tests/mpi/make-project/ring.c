/* SPDX-License-Identifier: BSD-3-Clause */
/* A token passed around a ring, built separately compiled and linked. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int me, n, token = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (me == 0) {
        token = 1;
        MPI_Send(&token, 1, MPI_INT, 1 % n, 0, MPI_COMM_WORLD);
        MPI_Recv(&token, 1, MPI_INT, n - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf(token == n ? "No Errors\n" : "Found 1 errors\n");
    } else {
        MPI_Recv(&token, 1, MPI_INT, me - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        token++;
        MPI_Send(&token, 1, MPI_INT, (me + 1) % n, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
