/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 4
 * Thread-local (__thread) variables are private to each rank too, like
 * globals; a message received into one while its rank is not running
 * lands in that rank's copy. */
#include <mpi.h>
#include <stdio.h>

static __thread int tls_rank = -1;
__thread double tls_inbox[2];

int main(int argc, char **argv) {
    int me, size, errors = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    tls_rank = me;
    MPI_Request req;
    MPI_Irecv(tls_inbox, 2, MPI_DOUBLE, (me + size - 1) % size, 0, MPI_COMM_WORLD, &req);
    MPI_Barrier(MPI_COMM_WORLD); /* every rank ran and switched away */
    double out[2] = {me, 10.0 * me};
    MPI_Send(out, 2, MPI_DOUBLE, (me + 1) % size, 0, MPI_COMM_WORLD);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    int left = (me + size - 1) % size;
    if (tls_rank != me) errors++, printf("rank %d sees tls_rank %d\n", me, tls_rank);
    if (tls_inbox[0] != left || tls_inbox[1] != 10.0 * left)
        errors++, printf("rank %d: inbox %g %g\n", me, tls_inbox[0], tls_inbox[1]);
    int all;
    MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0) printf(all ? "Found %d errors\n" : "No Errors\n", all);
    MPI_Finalize();
    return 0;
}
