/* Real computation in a parallel loop (a fixed number of iterations split
 * among the team): rank 0 prints the region's virtual time, which
 * run-hybrid compares across team sizes, cores and host cores. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int provided, me;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    long iters = argc > 1 ? atol(argv[1]) : 80000000;
    double sum = 0, t0 = MPI_Wtime();
#pragma omp parallel for schedule(static) reduction(+ : sum)
    for (long i = 0; i < iters; i++)
        sum += 1.0 / ((double)i + 1.0);
    double t1 = MPI_Wtime();
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0)
        printf("region %.6f ms, sum %.6f, team %d\n", (t1 - t0) * 1e3, sum, omp_get_max_threads());
    MPI_Finalize();
    return 0;
}
