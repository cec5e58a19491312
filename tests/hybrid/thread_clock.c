/* A thread's MPI call happens at that thread's own virtual time (run with
 * --cpu=ignore, 2 ranks): in a region of 2 threads of rank 0, thread 1
 * works 1 ms then sends to rank 1, while thread 0 works 3 ms. Rank 1
 * prints when the message arrived, rank 0 when its region ended; run-hybrid
 * compares with the times worked by hand. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>

#include "simpi.h"

int main(int argc, char **argv) {
    int provided, me, v = 42;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (me == 0) {
#pragma omp parallel num_threads(2)
        {
            if (omp_get_thread_num() == 1) {
                simpi_compute_seconds(1e-3);
                MPI_Send(&v, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
            } else {
                simpi_compute_seconds(3e-3);
            }
        }
        printf("rank 0 region ended at %.7f ms\n", MPI_Wtime() * 1e3);
    } else if (me == 1) {
        MPI_Recv(&v, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("rank 1 received %d at %.7f ms\n", v, MPI_Wtime() * 1e3);
    }
    MPI_Finalize();
    return 0;
}
