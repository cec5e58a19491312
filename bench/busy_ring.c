/* SPDX-License-Identifier: BSD-3-Clause */
/* The compute-bound ring of bench/busy-host (issue 43): each of the ranks
 * does ITERS iterations of WORK dependent multiply-adds, then a sendrecv
 * with its neighbours and an allreduce of one double. Built with
 * -DREFERENCE it is an ordinary program that does the computation of the
 * ranks given as its argument (default 1) one after another, as simpi runs
 * them, and prints the CPU seconds per rank it took (the figure a
 * prediction should charge each rank). */
#include <stdio.h>
#include <time.h>
#ifndef REFERENCE
#include <mpi.h>
#endif

#define ITERS 10
#define WORK 2000000L

/* WORK multiply-adds, each depending on the one before. */
__attribute__((noinline)) static double work(double x) {
    for (long i = 0; i < WORK; i++)
        x = x * 0.999999 + 1e-7;
    return x;
}

#ifdef REFERENCE
#include <stdlib.h>
int main(int argc, char **argv) {
    struct timespec a, b;
    int ranks = argc > 1 ? atoi(argv[1]) : 1;
    double x = 1;
    if (ranks < 1) ranks = 1;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
    for (int it = 0; it < ITERS * ranks; it++)
        x = work(x);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
    printf("%.9f %g\n",
           ((double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9) / ranks, x);
    return 0;
}
#else
int main(int argc, char **argv) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double x = 1 + rank, sum = 0;
    for (int it = 0; it < ITERS; it++) {
        x = work(x);
        double got;
        MPI_Sendrecv(&x, 1, MPI_DOUBLE, (rank + 1) % size, 0, &got, 1, MPI_DOUBLE,
                     (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Allreduce(&got, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
    if (rank == 0) printf("ring: sum %g\n", sum);
    MPI_Finalize();
    return 0;
}
#endif
