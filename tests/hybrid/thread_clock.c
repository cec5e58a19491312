/* SPDX-License-Identifier: BSD-3-Clause */
/* A thread's MPI call happens at that thread's own virtual time (run with
 * --cpu=ignore, 2 ranks; MPI_THREAD_MULTIPLE: the two sends may overlap): in a region of 2 threads
 * of rank 0, thread 1 works 1 ms then sends to rank 1 (tag 5), while thread 0, the master, works 2
 * ms, sends (tag 6), then works 1 ms more. Rank 1 prints when each message arrived, rank 0 when its
 * region ended; run-hybrid compares with the times worked by hand. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>

#include "simpi.h"

int main(int argc, char **argv) {
    int provided, me, v = 42;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (me == 0) {
#pragma omp parallel num_threads(2)
        {
            if (omp_get_thread_num() == 1) {
                simpi_compute_seconds(1e-3);
                MPI_Send(&v, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
            } else {
                simpi_compute_seconds(2e-3);
                MPI_Send(&v, 1, MPI_INT, 1, 6, MPI_COMM_WORLD);
                simpi_compute_seconds(1e-3);
            }
        }
        printf("rank 0 region ended at %.7f ms\n", MPI_Wtime() * 1e3);
    } else if (me == 1) {
        for (int tag = 5; tag <= 6; tag++) {
            MPI_Recv(&v, 1, MPI_INT, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            printf("rank 1 received tag %d at %.7f ms\n", tag, MPI_Wtime() * 1e3);
        }
    }
    MPI_Finalize();
    return 0;
}
