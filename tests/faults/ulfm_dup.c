/* SPDX-License-Identifier: BSD-3-Clause */
/* ULFM's common pattern (issue 45): MPI_ERRORS_RETURN is set only on a
 * duplicate of MPI_COMM_WORLD, which the program computes on; MPI_COMM_WORLD
 * keeps MPI_ERRORS_ARE_FATAL. With 4 ranks, one per node, node 2 crashes
 * at 1.05 ms. Under `--with-ft ulfm` (Open MPI 5's and MPICH's mpiexec
 * option) the job goes on: the allreduce on the duplicate fails with
 * MPIX_ERR_PROC_FAILED, the survivors shrink it and finish; each prints
 * "rank R survived, size 3, sum S" (S: the allreduces before the crash
 * counted 4 each, those after 3). Without the option the crash ends the
 * job, as mpirun's default does. With argv[1] = "world", the survivors then
 * call MPI_Barrier on MPI_COMM_WORLD, which involves the failed rank: its
 * fatal handler aborts the job there, naming the call. */
#include <mpi.h>
#include <simpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double sum = 0;
    for (int i = 0; i < 20; i++) {
        simpi_compute_seconds(100e-6);
        double one = 1, total = 0;
        if (MPI_Allreduce(&one, &total, 1, MPI_DOUBLE, MPI_SUM, comm) != MPI_SUCCESS) {
            MPI_Comm shrunk;
            MPIX_Comm_shrink(comm, &shrunk);
            MPI_Comm_free(&comm);
            comm = shrunk;
            MPI_Allreduce(&one, &total, 1, MPI_DOUBLE, MPI_SUM, comm);
        }
        sum += total;
    }
    int size;
    MPI_Comm_size(comm, &size);
    printf("rank %d survived, size %d, sum %g\n", rank, size, sum);
    if (argc > 1 && !strcmp(argv[1], "world")) MPI_Barrier(MPI_COMM_WORLD);
    MPI_Comm_free(&comm);
    MPI_Finalize();
    return 0;
}
