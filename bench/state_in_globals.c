/* SPDX-License-Identifier: BSD-3-Clause */
/* The program of the --privatize measurement in bench/online-allreduce: a
 * rank number and a 4 KiB work array kept in globals, 100 allreduces. */
#include <mpi.h>
#include <stdio.h>

int my_rank;
static double work[512];

int main(int argc, char **argv) {
    int n;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    double sum = 0;
    for (int it = 0; it < 100; it++) {
        work[it % 512] = my_rank;
        MPI_Allreduce(&work[it % 512], &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
    if (my_rank == 0) printf(sum == (double)n * (n - 1) / 2 ? "globals ok\n" : "globals WRONG\n");
    MPI_Finalize();
    return 0;
}
