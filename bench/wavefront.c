/* SPDX-License-Identifier: BSD-3-Clause */
/* A 4x4 wavefront of 8-byte blocking sends (bench/compare-smpi-transfer-start):
 * rank (i,j) receives from (i-1,j) and (i,j-1), then sends down and right;
 * argv[1] sweeps; rank 0 prints the slowest rank's time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int r, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    int sweeps = argc > 1 ? atoi(argv[1]) : 1;
    int q = 4, i = r / q, j = r % q;
    double v = 1, w = 0;
    double t0 = MPI_Wtime();
    for (int s = 0; s < sweeps; s++) {
        if (i > 0) MPI_Recv(&w, 1, MPI_DOUBLE, r - q, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (j > 0) MPI_Recv(&w, 1, MPI_DOUBLE, r - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (i < q - 1) MPI_Send(&v, 1, MPI_DOUBLE, r + q, 0, MPI_COMM_WORLD);
        if (j < q - 1) MPI_Send(&v, 1, MPI_DOUBLE, r + 1, 0, MPI_COMM_WORLD);
    }
    double t = MPI_Wtime() - t0, mx;
    MPI_Reduce(&t, &mx, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (r == 0) printf("sweeps %d: %.3f us\n", sweeps, mx * 1e6);
    MPI_Finalize();
}
