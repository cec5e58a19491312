/* SPDX-License-Identifier: BSD-3-Clause */
/* ULFM as Open MPI 5 spells it (mpi-ext.h): node 3 crashes at 1 ns, in the
 * first barrier; the allreduce after it fails with MPIX_ERR_PROC_FAILED;
 * MPIX_Comm_get_failed gives 1 failed member, MPIX_Comm_ack_failed
 * acknowledges it, MPIX_Comm_ishrink and MPIX_Comm_iagree (their requests
 * waited for) give 3 survivors agreeing on 3. Each survivor prints a line. */
#include <mpi-ext.h>
#include <stdio.h>
int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rank, x = 1, y, n, acked;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    int rc = MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Group g;
    MPIX_Comm_get_failed(MPI_COMM_WORLD, &g);
    MPI_Group_size(g, &n);
    MPIX_Comm_ack_failed(MPI_COMM_WORLD, n, &acked);
    MPI_Comm s;
    MPI_Request q;
    MPIX_Comm_ishrink(MPI_COMM_WORLD, &s, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    int f = 3;
    MPIX_Comm_iagree(s, &f, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    int sz;
    MPI_Comm_size(s, &sz);
    printf("rank %d rc %s failed %d acked %d size %d agreed %d\n", rank,
           rc == MPIX_ERR_PROC_FAILED ? "PROC_FAILED" : "other", n, acked, sz, f);
    MPI_Finalize();
    return 0;
}
