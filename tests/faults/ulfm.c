/* SPDX-License-Identifier: BSD-3-Clause */
/* A fault-tolerant loop (ULFM): MPI_ERRORS_RETURN on MPI_COMM_WORLD, 100
 * iterations of 100 us of computation and an allreduce of one double; when
 * the allreduce fails (MPIX_ERR_PROC_FAILED, a node crashed), the survivors
 * acknowledge the failure, shrink the communicator, agree, and go on with
 * the iteration on the survivors. Rank 0 prints the sum of the totals and
 * the survivors' count; each survivor prints what it saw. */
#include <mpi-ext.h> /* where Open MPI declares ULFM; mpi.h has it too */
#include <mpi.h>
#include <simpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm comm = MPI_COMM_WORLD;
    int rank, size, failures = 0;
    MPI_Comm_rank(comm, &rank);
    double sum = 0;
    for (int i = 0; i < 100; i++) {
        simpi_compute_seconds(100e-6);
        double one = 1, total = 0;
        int rc = MPI_Allreduce(&one, &total, 1, MPI_DOUBLE, MPI_SUM, comm);
        if (rc != MPI_SUCCESS) {
            int cls;
            MPI_Error_class(rc, &cls);
            if (cls != MPIX_ERR_PROC_FAILED) {
                printf("rank %d: unexpected error class %d\n", rank, cls);
                MPI_Abort(MPI_COMM_WORLD, 2);
            }
            MPIX_Comm_failure_ack(comm);
            MPI_Group failed;
            MPIX_Comm_failure_get_acked(comm, &failed);
            int nfailed;
            MPI_Group_size(failed, &nfailed);
            MPI_Comm shrunk;
            MPIX_Comm_shrink(comm, &shrunk);
            int flag = 1;
            MPIX_Comm_agree(shrunk, &flag);
            if (comm != MPI_COMM_WORLD) MPI_Comm_free(&comm);
            comm = shrunk;
            failures += nfailed;
            printf("rank %d: iteration %d failed (%d failed), agreed %d\n", rank, i, nfailed, flag);
            i--; /* the iteration again, on the survivors */
            continue;
        }
        sum += total;
    }
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &rank);
    if (rank == 0)
        printf("sum %g survivors %d failures %d time %.9f\n", sum, size, failures, MPI_Wtime());
    MPI_Finalize();
    return 0;
}
