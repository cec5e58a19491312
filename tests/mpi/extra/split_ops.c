/* SPDX-License-Identifier: BSD-3-Clause */
/* Split-run test (run-parallel-online): user operations whose handles
 * differ between ranks (each rank makes rank % 3 operations it never uses
 * first), used by scan, reduce and allreduce; an all-to-all(w) where some
 * ranks send nothing at all. Every worker must fold with its own handle and
 * take empty pieces from the others; duplicates of MPI_COMM_SELF. Prints
 * "No Errors". */
#include <mpi.h>
#include <stdio.h>

static void sum_ints(void *in, void *inout, int *len, MPI_Datatype *type) {
    (void)type;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

int main(int argc, char **argv) {
    int rank, size, errors = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Op unused[3], op;
    for (int i = 0; i < rank % 3; i++)
        MPI_Op_create(sum_ints, 1, &unused[i]);
    MPI_Op_create(sum_ints, 1, &op);
    int one = rank + 1, pre = 0, all = 0, root = 0;
    MPI_Scan(&one, &pre, 1, MPI_INT, op, MPI_COMM_WORLD);
    if (pre != (rank + 1) * (rank + 2) / 2) errors++;
    MPI_Allreduce(&one, &all, 1, MPI_INT, op, MPI_COMM_WORLD);
    if (all != size * (size + 1) / 2) errors++;
    MPI_Reduce(&one, &root, 1, MPI_INT, op, size - 1, MPI_COMM_WORLD);
    if (rank == size - 1 && root != all) errors++;
    /* ranks of even number send nothing; odd ones send their rank to each */
    int sc[64], sd[64], rc[64], rd[64], sbuf[64], rbuf[64];
    MPI_Datatype st[64], rt[64];
    for (int j = 0; j < size && j < 64; j++) {
        sc[j] = rank % 2, sd[j] = j * (int)sizeof(int), st[j] = MPI_INT, sbuf[j] = rank;
        rc[j] = j % 2, rd[j] = j * (int)sizeof(int), rt[j] = MPI_INT, rbuf[j] = -1;
    }
    MPI_Alltoallw(sbuf, sc, sd, st, rbuf, rc, rd, rt, MPI_COMM_WORLD);
    for (int j = 0; j < size && j < 64; j++)
        if (rbuf[j] != (j % 2 ? j : -1)) errors++;
    int zero[64] = {0};
    MPI_Alltoallw(sbuf, zero, sd, st, rbuf, zero, rd, rt, MPI_COMM_WORLD); /* all empty */
    /* a duplicate of MPI_COMM_SELF: its context is this rank's alone, which
     * no other worker may be told of (it names another rank's there) */
    MPI_Comm self;
    int self_size = 0;
    MPI_Comm_dup(MPI_COMM_SELF, &self);
    MPI_Allreduce(&one, &self_size, 1, MPI_INT, MPI_SUM, self);
    if (self_size != one) errors++;
    MPI_Comm_free(&self);
    for (int i = 0; i < rank % 3; i++)
        MPI_Op_free(&unused[i]);
    MPI_Op_free(&op);
    int total = 0;
    MPI_Allreduce(&errors, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf(total ? "Found %d errors\n" : "No Errors\n", total);
    MPI_Finalize();
    return 0;
}
