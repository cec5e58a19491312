/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 3
 * User attributes on communicators (create/set/get/delete keyval, copied on
 * MPI_Comm_dup by MPI_COMM_DUP_FN, deleted on free), a user error handler,
 * and the non-blocking variable-count collectives. */
#include <mpi.h>
#include <stdio.h>

#include "check.h"
#define check_rank me

static int deleted_count[8]; /* per rank: written by the delete callback */

static int on_delete(MPI_Comm comm, int keyval, void *value, void *extra) {
    (void)comm;
    (void)keyval;
    (void)extra;
    deleted_count[*(int *)value]++;
    return MPI_SUCCESS;
}

static void on_error(MPI_Comm *comm, int *code, ...) {
    (void)comm;
    *code = -*code; /* visible to nobody: just proves the handler ran */
}

int main(int argc, char **argv) {
    int me, n, errors = 0, *errs = &errors;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    int key, flag, *got;
    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, on_delete, &key, NULL);
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_set_attr(dup, key, &me);
    MPI_Comm_get_attr(dup, key, &got, &flag);
    EXPECT(flag && got == &me);
    MPI_Comm dup2;
    MPI_Comm_dup(dup, &dup2); /* copied by MPI_COMM_DUP_FN */
    MPI_Comm_get_attr(dup2, key, &got, &flag);
    EXPECT(flag && *got == me);
    MPI_Comm_get_attr(MPI_COMM_WORLD, key, &got, &flag);
    EXPECT(!flag);
    MPI_Comm_free(&dup2);
    MPI_Comm_delete_attr(dup, key);
    EXPECT(deleted_count[me] == 2);
    MPI_Comm_free_keyval(&key);

    MPI_Errhandler eh;
    MPI_Comm_create_errhandler(on_error, &eh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    EXPECT(MPI_Send(&me, 1, MPI_INT, 99, 0, MPI_COMM_WORLD) == MPI_ERR_RANK);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);

    int counts[8], displs[8], all[32] = {0}, mine[8];
    for (int j = 0; j < n; j++)
        counts[j] = j + 1, displs[j] = j * 8;
    for (int i = 0; i <= me; i++)
        mine[i] = me;
    MPI_Request r;
    MPI_Iallgatherv(mine, me + 1, MPI_INT, all, counts, displs, MPI_INT, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    for (int j = 0; j < n; j++)
        EXPECT(all[j * 8 + j] == j);
    int sum;
    MPI_Allreduce(&errors, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0) printf(sum ? "Found %d errors\n" : "No Errors\n", sum);
    MPI_Finalize();
    return 0;
}
