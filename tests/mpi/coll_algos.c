/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 5
 * Every collective with every root, MPI_IN_PLACE, a sub-communicator and the
 * non-blocking forms, checked against values computed here. run-mpi-tests
 * runs it again for each algorithm of the library (forced with
 * --set mpi.coll.OP=NAME) and each selector, on 5, 6 and 8 ranks: the data
 * must not depend on the schedule that times it. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define N 40 /* elements: 160 B, several segments of 64 B when forced */

static int errors;
#define EXPECT(c)                                                                                  \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            if (errors++ < 10) printf("rank %d: line %d: %s\n", me, __LINE__, #c);                 \
        }                                                                                          \
    } while (0)

static int me;

static void rooted(MPI_Comm comm) {
    int r, n, v[N], all[8 * N];
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &n);
    for (int root = 0; root < n; root++) {
        for (int i = 0; i < N; i++)
            v[i] = r == root ? 1000 * root + i : -1;
        MPI_Bcast(v, N, MPI_INT, root, comm);
        for (int i = 0; i < N; i++)
            EXPECT(v[i] == 1000 * root + i);
        for (int i = 0; i < N; i++)
            v[i] = r + i;
        int sum[N];
        MPI_Reduce(v, sum, N, MPI_INT, MPI_SUM, root, comm);
        if (r == root)
            for (int i = 0; i < N; i++)
                EXPECT(sum[i] == n * (n - 1) / 2 + n * i);
        for (int i = 0; i < N; i++)
            v[i] = 100 * r + i;
        if (r == root) { /* in place at the root: its block is already there */
            memcpy(all + root * N, v, sizeof v);
            MPI_Gather(MPI_IN_PLACE, N, MPI_INT, all, N, MPI_INT, root, comm);
            for (int j = 0; j < n; j++)
                EXPECT(all[j * N + 7] == 100 * j + 7);
        } else {
            MPI_Gather(v, N, MPI_INT, NULL, 0, MPI_INT, root, comm);
        }
        for (int j = 0; j < n * N; j++)
            all[j] = 7 * j;
        if (r == root) {
            MPI_Scatter(all, N, MPI_INT, MPI_IN_PLACE, N, MPI_INT, root, comm);
        } else {
            MPI_Scatter(NULL, 0, MPI_INT, v, N, MPI_INT, root, comm);
            EXPECT(v[3] == 7 * (r * N + 3));
        }
    }
}

static void symmetric(MPI_Comm comm) {
    int r, n, v[N], w[N], all[8 * N], out[8 * N];
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &n);
    for (int i = 0; i < N; i++)
        w[i] = r * i;
    MPI_Allreduce(MPI_IN_PLACE, w, N, MPI_INT, MPI_SUM, comm);
    EXPECT(w[5] == 5 * n * (n - 1) / 2);
    MPI_Allreduce(&r, &v[0], 1, MPI_INT, MPI_MAX, comm);
    EXPECT(v[0] == n - 1);
    for (int i = 0; i < N; i++)
        v[i] = 10 * r + i;
    MPI_Allgather(v, N, MPI_INT, all, N, MPI_INT, comm);
    for (int j = 0; j < n; j++)
        EXPECT(all[j * N + 2] == 10 * j + 2);
    for (int j = 0; j < n * N; j++)
        all[j] = 1000 * r + j;
    MPI_Alltoall(all, N, MPI_INT, out, N, MPI_INT, comm);
    for (int j = 0; j < n; j++)
        EXPECT(out[j * N] == 1000 * j + r * N);
    for (int j = 0; j < n * N; j++)
        all[j] = j + r;
    MPI_Reduce_scatter_block(all, v, N, MPI_INT, MPI_SUM, comm);
    EXPECT(v[1] == n * (r * N + 1) + n * (n - 1) / 2);
    int pre = 0, ex = -1, one = r + 1;
    MPI_Scan(&one, &pre, 1, MPI_INT, MPI_SUM, comm);
    EXPECT(pre == (r + 1) * (r + 2) / 2);
    MPI_Exscan(&one, &ex, 1, MPI_INT, MPI_SUM, comm);
    if (r > 0) EXPECT(ex == r * (r + 1) / 2);
    MPI_Barrier(comm);
    /* non-blocking forms, two in flight at once */
    MPI_Request q[2];
    int a = r, b = 0, c[8];
    MPI_Iallreduce(&a, &b, 1, MPI_INT, MPI_SUM, comm, &q[0]);
    MPI_Iallgather(&a, 1, MPI_INT, c, 1, MPI_INT, comm, &q[1]);
    MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
    EXPECT(b == n * (n - 1) / 2);
    for (int j = 0; j < n; j++)
        EXPECT(c[j] == j);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    rooted(MPI_COMM_WORLD);
    symmetric(MPI_COMM_WORLD);
    MPI_Comm half; /* odd and even ranks */
    MPI_Comm_split(MPI_COMM_WORLD, me % 2, -me, &half);
    rooted(half);
    symmetric(half);
    MPI_Comm_free(&half);
    int total;
    MPI_Allreduce(&errors, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0 && total == 0) printf("No Errors\n");
    MPI_Finalize();
    return 0;
}
