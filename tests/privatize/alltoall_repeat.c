/* SPDX-License-Identifier: BSD-3-Clause */
/* K alltoalls of 16 MiB per rank (K from argv[1]): simpi's copies of the
 * ranks' inputs reuse their memory from one call to the next, so the run's
 * page faults do not grow with K (tests/privatize). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int rank, n, calls = argc > 1 ? atoi(argv[1]) : 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    size_t count = ((size_t)16 << 20) / sizeof(double);
    double *in = malloc(count * sizeof *in), *out = malloc(count * sizeof *out);
    for (size_t i = 0; i < count; i++)
        in[i] = rank;
    for (int k = 0; k < calls; k++)
        MPI_Alltoall(in, (int)(count / (size_t)n), MPI_DOUBLE, out, (int)(count / (size_t)n),
                     MPI_DOUBLE, MPI_COMM_WORLD);
    int ok = out[count - 1] == n - 1 && out[0] == 0, all;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (rank == 0) printf("alltoall %s\n", all ? "ok" : "WRONG");
    free(in);
    free(out);
    MPI_Finalize();
    return 0;
}
