/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 2 options: --cpu=ignore cflags: -fopenmp
 * Each rank's OpenMP settings are its own, as in separate processes,
 * although all ranks share the process's one OpenMP runtime: rank 0 sets
 * one thread and dynamic teams, rank 1 three threads and a static schedule
 * of chunk 7; after a barrier each still has its own, its parallel regions
 * have its team size, and both started from the same settings. Prints
 * "No Errors" when all checks pass. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>

#include "check.h"
#define check_rank me

static int team_size(void) {
    int n = 0;
#pragma omp parallel
    {
#pragma omp atomic
        n++;
    }
    return n;
}

int main(int argc, char **argv) {
    int provided, me, errors = 0, *errs = &errors;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    int start[2] = {omp_get_max_threads(), omp_get_dynamic()}, other[2];
    MPI_Sendrecv(start, 2, MPI_INT, 1 - me, 0, other, 2, MPI_INT, 1 - me, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    EXPECT(start[0] == other[0] && start[1] == other[1]); /* the process's settings */
    if (me == 0) {
        omp_set_num_threads(1);
        omp_set_dynamic(1);
    } else {
        omp_set_num_threads(3);
        omp_set_dynamic(0);
        omp_set_schedule(omp_sched_static, 7);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    omp_sched_t kind;
    int chunk;
    omp_get_schedule(&kind, &chunk);
    if (me == 0) {
        EXPECT(omp_get_max_threads() == 1);
        EXPECT(omp_get_dynamic() != 0);
        EXPECT(team_size() == 1);
        EXPECT(!(kind == omp_sched_static && chunk == 7));
    } else {
        EXPECT(omp_get_max_threads() == 3);
        EXPECT(omp_get_dynamic() == 0);
        EXPECT(team_size() == 3);
        EXPECT(kind == omp_sched_static && chunk == 7);
    }
    int all = 0;
    MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0 && all == 0) printf("No Errors\n");
    MPI_Finalize();
    return 0;
}
