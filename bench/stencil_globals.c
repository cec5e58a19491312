/* SPDX-License-Identifier: BSD-3-Clause */
/* The C half of bench/fortran-stencil: the same Jacobi sweep on a 64 MiB
 * grid per rank held in global arrays, laid out as the Fortran COMMON block
 * (column-major: u[j][i] is Fortran's u(i, j)). */
#include <mpi.h>
#include <stdio.h>

#define NX 4096
#define NY 2048
#define ITERS 3

static double u[NY + 2][NX], v[NY + 2][NX];

int main(int argc, char **argv) {
    int rank, nranks;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    int up = (rank + 1) % nranks, down = (rank + nranks - 1) % nranks;
    for (int j = 0; j < NY + 2; j++)
        for (int i = 0; i < NX; i++)
            u[j][i] = rank + (i + 1) * 1e-3 + j * 1e-6;
    for (int it = 0; it < ITERS; it++) {
        MPI_Sendrecv(u[NY], NX, MPI_DOUBLE, up, 0, u[0], NX, MPI_DOUBLE, down, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        MPI_Sendrecv(u[1], NX, MPI_DOUBLE, down, 1, u[NY + 1], NX, MPI_DOUBLE, up, 1,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int j = 1; j <= NY; j++) {
            v[j][0] = u[j][0];
            v[j][NX - 1] = u[j][NX - 1];
            for (int i = 1; i < NX - 1; i++)
                v[j][i] = 0.25 * (u[j][i - 1] + u[j][i + 1] + u[j - 1][i] + u[j + 1][i]);
        }
        for (int j = 1; j <= NY; j++)
            for (int i = 0; i < NX; i++)
                u[j][i] = v[j][i];
    }
    double local = 0, total = 0;
    for (int j = 1; j <= NY; j++)
        for (int i = 0; i < NX; i++)
            local += u[j][i];
    MPI_Reduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) printf("checksum %.15e\n", total);
    MPI_Finalize();
    return 0;
}
