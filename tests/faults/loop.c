/* SPDX-License-Identifier: BSD-3-Clause */
/* A loop of computation and allreduces, for the fault tests: each of 100
 * iterations computes 100 us (simpi_compute_seconds, exact) and then
 * allreduces one double. A node crash stops it; a ULFM run shrinks. */
#include <mpi.h>
#include <simpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double sum = 0;
    for (int i = 0; i < 100; i++) {
        simpi_compute_seconds(100e-6);
        double one = 1, total;
        MPI_Allreduce(&one, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        sum += total;
    }
    if (rank == 0) printf("sum %g\n", sum);
    MPI_Finalize();
    return 0;
}
