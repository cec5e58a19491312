/* SPDX-License-Identifier: BSD-3-Clause */
/* Real computation in a parallel loop (a fixed number of iterations split
 * among the team): rank 0 prints the region's virtual time, which
 * run-hybrid compares across team sizes, cores and host cores, and the host
 * cores the team's last thread may run on (--thread-cores). */
#define _GNU_SOURCE
#include <mpi.h>
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int provided, me;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    long iters = argc > 1 ? atol(argv[1]) : 80000000;
    double sum = 0, t0 = MPI_Wtime();
    int host_cores = 0;
#pragma omp parallel
    {
#pragma omp for schedule(static) reduction(+ : sum)
        for (long i = 0; i < iters; i++)
            sum += 1.0 / ((double)i + 1.0);
        if (omp_get_thread_num() == omp_get_num_threads() - 1) {
            cpu_set_t set;
            if (sched_getaffinity(0, sizeof set, &set) == 0) host_cores = CPU_COUNT(&set);
        }
    }
    double t1 = MPI_Wtime();
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0)
        printf("region %.6f ms, sum %.6f, team %d, host cores %d\n", (t1 - t0) * 1e3, sum,
               omp_get_max_threads(), host_cores);
    MPI_Finalize();
    return 0;
}
