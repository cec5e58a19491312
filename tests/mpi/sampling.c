/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 3 options: --cpu=ignore
 * simpi.h extensions, worked by hand with computation not measured:
 *   simpi_compute_seconds(1e-3)                 1 ms
 *   SIMPI_SAMPLE_FLOPS(2e6) on the built-in platform (speed 1.0 = 1 Gf/s)  2 ms
 *   simpi_compute_flops(5e5)                    0.5 ms
 * so every rank's virtual time advances by exactly 3.5 ms; a sampled block
 * runs only its first 2 times on each rank; a shared allocation is the same
 * pointer on every rank. */
#include <math.h>
#include <mpi.h>
#include <simpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int me, errors = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    double t0 = MPI_Wtime();
    simpi_compute_seconds(1e-3);
    int skipped_ran = 0;
    SIMPI_SAMPLE_FLOPS(2e6) {
        skipped_ran = 1;
    }
    simpi_compute_flops(5e5);
    double dt = MPI_Wtime() - t0;
    if (fabs(dt - 3.5e-3) > 1e-12 || skipped_ran) errors++, printf("rank %d: %.12g s\n", me, dt);
    int runs = 0;
    for (int i = 0; i < 10; i++)
        SIMPI_SAMPLE_LOCAL(2) {
            runs++;
        }
    if (runs != 2) errors++, printf("rank %d: sampled block ran %d times\n", me, runs);
    double *big = SIMPI_SHARED_MALLOC(1 << 20);
    long mine = (long)big, first = mine;
    MPI_Bcast(&first, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    if (first != mine) errors++, printf("rank %d: shared block at another address\n", me);
    MPI_Barrier(MPI_COMM_WORLD); /* everyone holds it before anyone frees it */
    SIMPI_SHARED_FREE(big);
    int all;
    MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0) printf(all ? "Found %d errors\n" : "No Errors\n", all);
    MPI_Finalize();
    return 0;
}
