/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 3 options: --cpu=ignore
 * A sampled block charges the mean of the virtual time its measured runs
 * took, including simpi_compute_* charges inside it (computation itself is
 * not measured here). Worked by hand:
 *   10 x SIMPI_SAMPLE_LOCAL(2) { simpi_compute_seconds((rank + 1) ms) }
 *     2 runs of (rank + 1) ms, then 8 skipped runs charged their mean
 *     (rank + 1) ms: 10 (rank + 1) ms in all (rank 2: 30 ms);
 *   10 x SIMPI_SAMPLE_GLOBAL(4) { simpi_compute_seconds(2 ms) }
 *     every run, real or skipped, costs 2 ms: 20 ms on every rank. */
#include <math.h>
#include <mpi.h>
#include <simpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int me, errors = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    double t0 = MPI_Wtime();
    for (int i = 0; i < 10; i++)
        SIMPI_SAMPLE_LOCAL(2) {
            simpi_compute_seconds((me + 1) * 1e-3);
        }
    double local = MPI_Wtime() - t0;
    if (fabs(local - 10 * (me + 1) * 1e-3) > 1e-12)
        errors++, printf("rank %d: local sampling took %.12g s, expected %.12g s\n", me, local,
                         10 * (me + 1) * 1e-3);
    t0 = MPI_Wtime();
    for (int i = 0; i < 10; i++)
        SIMPI_SAMPLE_GLOBAL(4) {
            simpi_compute_seconds(2e-3);
        }
    double global = MPI_Wtime() - t0;
    if (fabs(global - 20e-3) > 1e-12)
        errors++, printf("rank %d: global sampling took %.12g s, expected 0.02 s\n", me, global);
    int all;
    MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0) printf(all ? "Found %d errors\n" : "No Errors\n", all);
    MPI_Finalize();
    return 0;
}
