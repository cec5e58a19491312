/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 2 options: --cpu=ignore cflags: -fopenmp
 * OpenMP's clock in a hybrid program reads the rank's virtual time, as
 * MPI_Wtime does: equal to it at the start and after a barrier, advanced by
 * exactly the charged computation (2 ms by simpi_compute_seconds), the
 * same in every thread of a parallel region (the time of the rank's last
 * MPI call: --cpu=ignore charges nothing for the region), and a tick of
 * one picosecond. Prints "No Errors" when all checks pass. */
#include <math.h>
#include <mpi.h>
#include <omp.h>
#include <simpi.h>
#include <stdio.h>

#include "check.h"
#define check_rank me

int main(int argc, char **argv) {
    int provided, me, errors = 0, *errs = &errors;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    EXPECT(provided == MPI_THREAD_FUNNELED);
    double t0 = omp_get_wtime();
    EXPECT(t0 == MPI_Wtime());
    EXPECT(omp_get_wtick() == 1e-12);
    simpi_compute_seconds(0.002 * (me + 1)); /* rank 0: 2 ms, rank 1: 4 ms */
    double t1 = omp_get_wtime();
    EXPECT(fabs(t1 - t0 - 0.002 * (me + 1)) < 1e-12);
    double seen[2] = {-1, -1};
#pragma omp parallel num_threads(2)
    {
        int id = omp_get_thread_num();
        if (id < 2) seen[id] = omp_get_wtime();
    }
    EXPECT(seen[0] == t1);
    EXPECT(seen[1] == t1 || omp_get_max_threads() < 2);
    MPI_Barrier(MPI_COMM_WORLD);
    double t2 = omp_get_wtime();
    EXPECT(t2 == MPI_Wtime());
    EXPECT(t2 - t0 >= 0.004 - 1e-12); /* the barrier waits for rank 1's 4 ms */
    int all = 0;
    MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0 && all == 0) printf("No Errors\n");
    MPI_Finalize();
    return 0;
}
