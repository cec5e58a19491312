/* SPDX-License-Identifier: BSD-3-Clause */
/* Two threads of rank 0 in MPI at once, which MPI_THREAD_SERIALIZED
 * forbids: threads 1 and 2 each post a blocking receive that rank 1 answers
 * only after rank 0's region, so whichever comes second finds the first
 * still under way. simpi must stop with a message naming the call, the
 * thread, the rank and the level, never hang. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int provided, me, v = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (me == 0) {
#pragma omp parallel num_threads(3)
        {
            int t = omp_get_thread_num();
            if (t > 0) MPI_Recv(&v, 1, MPI_INT, 1, t, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else if (me == 1) {
        MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int t = 1; t < 3; t++)
            MPI_Send(&v, 1, MPI_INT, 0, t, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
