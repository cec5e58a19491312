/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 4 options: --cpu=ignore --set nodes=4 --set cores_per_node=1 --set inter.model=affine --set inter.latency=100us --set inter.bandwidth=1GB/s --set mpi.coll.allreduce=recursive_doubling
 * A non-blocking allreduce progresses while its rank computes. T(8 B) =
 * 100 us + 8 B / 1 GB/s = 100.008 us; recursive doubling on 4 ranks takes
 * 2 rounds: 200.016 us.
 *   blocking allreduce, then 150 us of computation: 350.016 us
 *   Iallreduce, 150 us of computation, Wait: max(150, 200.016) = 200.016 us
 *   Iallreduce, 300 us of computation, Wait: 300 us (fully hidden) */
#include <math.h>
#include <mpi.h>
#include <simpi.h>
#include <stdio.h>

static int me, errors;

static void expect_us(const char *what, double got_s, double want_us) {
    if (fabs(got_s * 1e6 - want_us) > 1e-6) {
        errors++;
        printf("rank %d: %s took %.6f us, expected %.6f us\n", me, what, got_s * 1e6, want_us);
    }
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    double x = me, sum = 0;
    MPI_Request q;
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime();
    MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    simpi_compute_seconds(150e-6);
    expect_us("blocking allreduce + 150 us", MPI_Wtime() - t, 350.016);
    MPI_Barrier(MPI_COMM_WORLD);
    t = MPI_Wtime();
    double v = me, s = 0;
    MPI_Iallreduce(&v, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &q);
    simpi_compute_seconds(150e-6);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    expect_us("Iallreduce over 150 us", MPI_Wtime() - t, 200.016);
    if (s != 6.0) errors++;
    MPI_Barrier(MPI_COMM_WORLD);
    t = MPI_Wtime();
    MPI_Iallreduce(&v, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &q);
    simpi_compute_seconds(300e-6);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    expect_us("Iallreduce over 300 us", MPI_Wtime() - t, 300.0);
    int total;
    MPI_Allreduce(&errors, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0 && total == 0) printf("No Errors\n");
    MPI_Finalize();
    return 0;
}
