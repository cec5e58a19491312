/* SPDX-License-Identifier: BSD-3-Clause */
/* Issue 25's on-line memory workload: 10 steps of a ring (each rank sends
 * a double to the next with MPI_Sendrecv and receives the previous one's),
 * then an allreduce of the values; rank 0 prints the sum, which is
 * n(n-1)/2 whatever the rank count. A small program, so that the memory
 * per rank is the simulator's (bench/online-ring). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double v = rank, in, sum;
    for (int i = 0; i < 10; i++) {
        MPI_Sendrecv(&v, 1, MPI_DOUBLE, (rank + 1) % size, 0, &in, 1, MPI_DOUBLE,
                     (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        v = in;
    }
    MPI_Allreduce(&v, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("sum %.0f (expected %.0f)\n", sum, (double)size * (size - 1) / 2);
    MPI_Finalize();
    return 0;
}
