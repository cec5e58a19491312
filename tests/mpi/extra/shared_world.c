/* SPDX-License-Identifier: BSD-3-Clause */
/* A shared-memory window over MPI_COMM_WORLD: one process gives every rank
 * the others' memory, whatever node they are on; a split run refuses it
 * when the ranks run in different workers (tests/parallel/run-parallel-online). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, *mine;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate_shared(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mine, &win);
    *mine = rank;
    MPI_Win_free(&win);
    if (rank == 0) printf("No Errors\n");
    MPI_Finalize();
    return 0;
}
