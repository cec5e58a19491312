/* SPDX-License-Identifier: BSD-3-Clause */
/* A rank that sweeps its own 32 MiB global array (as NAS FT and MG, and
 * Fortran codes with COMMON blocks, keep their grids in static storage) ten
 * times, with an allreduce after each sweep (bench/privatize,
 * tests/privatize). Prints the loop's time by MPI_Wtime and checks that
 * every rank found its own values. Built with -DREFERENCE: the same loop
 * in a plain process (no MPI), whose time is the real one. */
#ifndef REFERENCE
#include <mpi.h>
#endif
#include <stdio.h>
#include <time.h>

#define N (4 << 20) /* doubles: 32 MiB */
static double a[N];

#ifdef REFERENCE
static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}
#endif

static double sweep(int rank) {
    for (long i = 0; i < N; i++)
        a[i] = a[i] * 0.5 + rank + (double)i;
    return a[N / 2];
}

int main(int argc, char **argv) {
    int rank = 0, n = 1;
#ifdef REFERENCE
    (void)argc, (void)argv;
    double t0 = now();
    for (int it = 0; it < 10; it++)
        sweep(0);
    printf("loop %.6f s\n", now() - t0);
#else
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    double t0 = MPI_Wtime(), s, sum;
    for (int it = 0; it < 10; it++) {
        s = sweep(rank);
        MPI_Allreduce(&s, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
    double t = MPI_Wtime() - t0;
    /* a[i] after ten sweeps: x -> x/2 + c from 0, c = rank + i */
    double c = rank + 7.0, want = c * (2 - 1.0 / 512), ok = a[7] == want, all;
    MPI_Allreduce(&ok, &all, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    if (rank == 0) printf("loop %.6f s, globals %s\n", t, all == 1 ? "ok" : "WRONG");
    MPI_Finalize();
#endif
    return 0;
}
