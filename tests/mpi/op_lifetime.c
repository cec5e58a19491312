/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 4
 * A user operation lives until the requests using it complete: freed right
 * after MPI_Ireduce (before the wait), and freed by rank 0 once its
 * MPI_Scan returns (it needs no one's data, so it returns first) while the
 * others still compute their prefixes with their own copies. Also
 * MPI_Ialltoallw. */
#include <mpi.h>
#include <stdio.h>

static void sum_fn(void *in, void *inout, int *len, MPI_Datatype *type) {
    (void)type;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

int main(int argc, char **argv) {
    int me, n, errors = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Op op;
    MPI_Request q;
    int x = me + 1, r = 0;
    MPI_Op_create(sum_fn, 1, &op);
    MPI_Ireduce(&x, &r, 1, MPI_INT, op, 0, MPI_COMM_WORLD, &q);
    MPI_Op_free(&op);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    if (me == 0) errors += r != n * (n + 1) / 2;
    MPI_Op_create(sum_fn, 1, &op);
    MPI_Scan(&x, &r, 1, MPI_INT, op, MPI_COMM_WORLD);
    MPI_Op_free(&op);
    errors += r != (me + 1) * (me + 2) / 2;

    int sc[4], sd[4], rc[4], rd[4], out[4], in[4];
    MPI_Datatype types[4];
    for (int j = 0; j < n; j++) {
        sc[j] = rc[j] = 1;
        sd[j] = rd[j] = j * (int)sizeof(int);
        types[j] = MPI_INT;
        out[j] = 10 * me + j;
    }
    MPI_Ialltoallw(out, sc, sd, types, in, rc, rd, types, MPI_COMM_WORLD, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    for (int j = 0; j < n; j++)
        errors += in[j] != 10 * j + me;
    int total;
    MPI_Allreduce(&errors, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0 && total == 0) printf("No Errors\n");
    MPI_Finalize();
    return 0;
}
