/* SPDX-License-Identifier: BSD-3-Clause */
/* The program of bench/online-allreduce: 100 iterations of MPI_Allreduce of
 * 8 doubles over MPI_COMM_WORLD, checked once at the end. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double in[8], out[8];
    for (int i = 0; i < 8; i++)
        in[i] = rank + i;
    for (int it = 0; it < 100; it++)
        MPI_Allreduce(in, out, 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    double want = (double)size * (size - 1) / 2;
    if (rank == 0) printf(out[0] == want ? "allreduce ok\n" : "allreduce WRONG\n");
    MPI_Finalize();
    return 0;
}
