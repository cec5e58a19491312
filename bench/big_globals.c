/* SPDX-License-Identifier: BSD-3-Clause */
/* The program of bench/privatize: 64 MiB of static arrays per rank (as
 * mini-apps keep their grids), 100 allreduces; every iteration each rank
 * writes one element in each of 8 pages of its grid. */
#include <mpi.h>
#include <stdio.h>

#define N (8 << 20) /* doubles: 64 MiB */
static double grid[N];
int my_rank;

int main(int argc, char **argv) {
    int n;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    double sum = 0, local;
    for (int it = 0; it < 100; it++) {
        for (int p = 0; p < 8; p++)
            grid[(size_t)(it * 8 + p) * 512 % N] = my_rank;
        local = grid[(size_t)it * 8 * 512 % N];
        MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
    if (my_rank == 0) printf(sum == (double)n * (n - 1) / 2 ? "globals ok\n" : "globals WRONG\n");
    MPI_Finalize();
    return 0;
}
