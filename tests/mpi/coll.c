/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 5
 * Collectives with real data on MPI_COMM_WORLD and on split communicators:
 * bcast from every root, reduce/allreduce with several ops and types
 * (MPI_IN_PLACE, MAXLOC), gather, scatter, allgather, alltoall, barrier,
 * comm_split, comm_dup and MPI_COMM_SELF. Prints "No Errors" when all pass. */
#include <mpi.h>
#include <stdio.h>

#include "check.h"
#define check_rank me_

static void check_comm(MPI_Comm comm, int me_, int *errs) {
    int me, n;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    for (int root = 0; root < n; root++) {
        int v[3] = {me, me, me};
        if (me == root) v[0] = v[1] = v[2] = 1000 + root;
        MPI_Bcast(v, 3, MPI_INT, root, comm);
        EXPECT(v[0] == 1000 + root && v[2] == 1000 + root);
        double d = me + 1.0, sum = -1;
        MPI_Reduce(&d, &sum, 1, MPI_DOUBLE, MPI_SUM, root, comm);
        if (me == root) EXPECT(sum == n * (n + 1) / 2.0);
    }
    long prod = me + 1, all = 0;
    MPI_Allreduce(&prod, &all, 1, MPI_LONG, MPI_PROD, comm);
    long fact = 1;
    for (int i = 2; i <= n; i++)
        fact *= i;
    EXPECT(all == fact);
    int mx[2] = {me, -me};
    MPI_Allreduce(MPI_IN_PLACE, mx, 2, MPI_INT, MPI_MAX, comm);
    EXPECT(mx[0] == n - 1 && mx[1] == 0);
    unsigned bits = 1u << me;
    MPI_Allreduce(MPI_IN_PLACE, &bits, 1, MPI_UNSIGNED, MPI_BOR, comm);
    EXPECT(bits == (1u << n) - 1);
    struct {
        double v;
        int i;
    } loc = {me % 2 ? 5.0 : 1.0, me}, best;
    MPI_Allreduce(&loc, &best, 1, MPI_DOUBLE_INT, MPI_MAXLOC, comm);
    EXPECT(best.v == (n > 1 ? 5.0 : 1.0) && best.i == (n > 1 ? 1 : 0)); /* ties: lowest index */

    int block[2] = {me * 10, me * 10 + 1}, gathered[64];
    MPI_Gather(block, 2, MPI_INT, gathered, 2, MPI_INT, n - 1, comm);
    if (me == n - 1)
        for (int j = 0; j < n; j++)
            EXPECT(gathered[2 * j] == j * 10 && gathered[2 * j + 1] == j * 10 + 1);
    int all_blocks[64], mine[2] = {-1, -1};
    for (int j = 0; j < 2 * n; j++)
        all_blocks[j] = 7 * j;
    MPI_Scatter(all_blocks, 2, MPI_INT, mine, 2, MPI_INT, 0, comm);
    EXPECT(mine[0] == 14 * me && mine[1] == 14 * me + 7);
    MPI_Allgather(block, 2, MPI_INT, gathered, 2, MPI_INT, comm);
    for (int j = 0; j < n; j++)
        EXPECT(gathered[2 * j] == j * 10);
    for (int j = 0; j < n; j++)
        gathered[j] = me * 100 + j;
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, gathered, 1, MPI_INT, comm);
    int send[64], recv[64];
    for (int j = 0; j < n; j++)
        send[j] = me * 100 + j;
    MPI_Alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, comm);
    for (int j = 0; j < n; j++)
        EXPECT(recv[j] == j * 100 + me);
    MPI_Barrier(comm);
}

/* No global variables: all simulated ranks share the program's globals. */
int main(int argc, char **argv) {
    int rank, size, errors = 0, *errs = &errors;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int me_ = rank;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_comm(MPI_COMM_WORLD, me_, errs);
    MPI_Comm half, dup;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half); /* reversed order inside */
    int hr, hn;
    MPI_Comm_rank(half, &hr);
    MPI_Comm_size(half, &hn);
    EXPECT(hn == (rank % 2 ? size / 2 : (size + 1) / 2));
    EXPECT(hr == hn - 1 - rank / 2);
    check_comm(half, me_, errs);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    check_comm(dup, me_, errs);
    check_comm(MPI_COMM_SELF, me_, errs);
    MPI_Comm none;
    MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? 0 : MPI_UNDEFINED, 0, &none);
    EXPECT((rank == 0) == (none != MPI_COMM_NULL));
    MPI_Comm_free(&half);
    MPI_Comm_free(&dup);
    int all;
    MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf(all ? "Found %d errors\n" : "No Errors\n", all);
    MPI_Finalize();
    return 0;
}
