/* SPDX-License-Identifier: BSD-3-Clause */
/* MPIX_Comm_revoke: rank 0 revokes a duplicate of MPI_COMM_WORLD; after a
 * barrier on MPI_COMM_WORLD every rank's allreduce and send on the
 * duplicate return MPIX_ERR_REVOKED, MPIX_Comm_is_revoked says so, and
 * MPI_COMM_WORLD still works. Each rank prints what it saw. */
#include <mpi.h>
#include <stdio.h>

static int class_of(int rc) {
    int cls;
    MPI_Error_class(rc, &cls);
    return cls;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, flag = 0, x = 1, y = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    if (rank == 0) MPIX_Comm_revoke(dup);
    MPI_Barrier(MPI_COMM_WORLD);
    int a = class_of(MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, dup));
    int s = class_of(MPI_Send(&x, 1, MPI_INT, 0, 0, dup));
    MPIX_Comm_is_revoked(dup, &flag);
    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    printf("rank %d: allreduce %s, send %s, is_revoked %d, world sum %d\n", rank,
           a == MPIX_ERR_REVOKED ? "revoked" : "not revoked",
           s == MPIX_ERR_REVOKED ? "revoked" : "not revoked", flag, y);
    MPI_Comm_free(&dup);
    MPI_Finalize();
    return 0;
}
