/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 4
 * Variable-count and prefix collectives, and non-blocking collectives:
 * gatherv, scatterv, allgatherv, alltoallv (with displacements and
 * MPI_IN_PLACE), scan, exscan, reduce_scatter(_block), reduce_local, and
 * ibarrier/ibcast/iallreduce/igather completed by MPI_Wait(all). */
#include <mpi.h>
#include <stdio.h>

#include "check.h"
#define check_rank me

int main(int argc, char **argv) {
    int me, n, errors = 0, *errs = &errors;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    /* rank j contributes j + 1 values j*10, j*10+1, ... */
    int mine[8], counts[8], displs[8], all[64] = {0}, total = 0;
    for (int i = 0; i <= me; i++)
        mine[i] = me * 10 + i;
    for (int j = 0; j < n; j++) {
        counts[j] = j + 1;
        displs[j] = total + j; /* one gap slot between blocks */
        total += j + 1;
    }
    MPI_Gatherv(mine, me + 1, MPI_INT, all, counts, displs, MPI_INT, 1, MPI_COMM_WORLD);
    if (me == 1)
        for (int j = 0; j < n; j++)
            for (int i = 0; i <= j; i++)
                EXPECT(all[displs[j] + i] == j * 10 + i);
    int everyone[64] = {0};
    MPI_Allgatherv(mine, me + 1, MPI_INT, everyone, counts, displs, MPI_INT, MPI_COMM_WORLD);
    for (int j = 0; j < n; j++)
        EXPECT(everyone[displs[j] + j] == j * 10 + j);
    int back[8] = {0};
    MPI_Scatterv(all, counts, displs, MPI_INT, back, me + 1, MPI_INT, 1, MPI_COMM_WORLD);
    for (int i = 0; i <= me; i++)
        EXPECT(back[i] == me * 10 + i);

    /* alltoallv: rank i sends i+1 copies of (100 i + j) to rank j */
    int sbuf[64], sc[8], sd[8], rbuf[64] = {0}, rc[8], rd[8], at = 0;
    for (int j = 0; j < n; j++) {
        sc[j] = me + 1;
        sd[j] = at;
        for (int k = 0; k <= me; k++)
            sbuf[at++] = 100 * me + j;
    }
    at = 0;
    for (int j = 0; j < n; j++) {
        rc[j] = j + 1;
        rd[j] = at;
        at += j + 1;
    }
    MPI_Alltoallv(sbuf, sc, sd, MPI_INT, rbuf, rc, rd, MPI_INT, MPI_COMM_WORLD);
    for (int j = 0; j < n; j++)
        EXPECT(rbuf[rd[j]] == 100 * j + me && rbuf[rd[j] + j] == 100 * j + me);

    /* prefix reductions */
    int v = me + 1, pre = -1, ex = -1;
    MPI_Scan(&v, &pre, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    EXPECT(pre == (me + 1) * (me + 2) / 2);
    MPI_Exscan(&v, &ex, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me > 0) EXPECT(ex == me * (me + 1) / 2);

    /* reduce_scatter: the vector [0..total) summed over ranks, split by counts */
    int vec[64], part[8] = {0};
    for (int i = 0; i < total; i++)
        vec[i] = i;
    MPI_Reduce_scatter(vec, part, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    int first = me * (me + 1) / 2;
    for (int i = 0; i <= me; i++)
        EXPECT(part[i] == n * (first + i));
    int blk[2] = {-1, -1};
    MPI_Reduce_scatter_block(vec, blk, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    EXPECT(blk[0] == 2 * me && blk[1] == 2 * me + 1);
    int a[2] = {1, 5}, b[2] = {3, 2};
    MPI_Reduce_local(a, b, 2, MPI_INT, MPI_MAX);
    EXPECT(b[0] == 3 && b[1] == 5);

    /* non-blocking collectives, overlapped with local work */
    MPI_Request rq[4];
    int bc = me == 2 ? 77 : 0, sum = 0, gathered[8] = {0};
    double work = 0;
    MPI_Ibarrier(MPI_COMM_WORLD, &rq[0]);
    MPI_Ibcast(&bc, 1, MPI_INT, 2, MPI_COMM_WORLD, &rq[1]);
    MPI_Iallreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq[2]);
    MPI_Igather(&v, 1, MPI_INT, gathered, 1, MPI_INT, 0, MPI_COMM_WORLD, &rq[3]);
    for (int i = 0; i < 1000; i++)
        work += i * 0.5;
    MPI_Waitall(4, rq, MPI_STATUSES_IGNORE);
    EXPECT(bc == 77 && sum == n * (n + 1) / 2 && work > 0);
    if (me == 0)
        for (int j = 0; j < n; j++)
            EXPECT(gathered[j] == j + 1);

    /* alltoallw: to rank j, j+1 ints; received as doubles? no: as ints placed by byte offsets */
    int wsend[32], wrecv[32] = {0}, wsc[8], wsd[8], wrc[8], wrd[8];
    MPI_Datatype wst[8], wrt[8];
    for (int j = 0, at = 0; j < n; j++) {
        wsc[j] = j + 1;
        wsd[j] = at * (int)sizeof(int);
        wst[j] = MPI_INT;
        for (int k = 0; k <= j; k++)
            wsend[at++] = 1000 * me + j;
        wrc[j] = me + 1;
        wrd[j] = j * 8 * (int)sizeof(int);
        wrt[j] = MPI_INT;
    }
    MPI_Alltoallw(wsend, wsc, wsd, wst, wrecv, wrc, wrd, wrt, MPI_COMM_WORLD);
    for (int j = 0; j < n; j++)
        EXPECT(wrecv[j * 8] == 1000 * j + me && wrecv[j * 8 + me] == 1000 * j + me);

    /* cancelling a receive nobody sends to, and a send nobody receives */
    if (me == 0) {
        int never = 0, cancelled = 0;
        MPI_Request rc2;
        MPI_Status st;
        MPI_Irecv(&never, 1, MPI_INT, 1, 99, MPI_COMM_WORLD, &rc2);
        MPI_Cancel(&rc2);
        MPI_Wait(&rc2, &st);
        MPI_Test_cancelled(&st, &cancelled);
        EXPECT(cancelled);
        MPI_Isend(&never, 1, MPI_INT, 1, 98, MPI_COMM_WORLD, &rc2);
        MPI_Cancel(&rc2);
        MPI_Wait(&rc2, &st);
        MPI_Test_cancelled(&st, &cancelled);
        EXPECT(cancelled);
    }

    int errs_all;
    MPI_Allreduce(&errors, &errs_all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0) printf(errs_all ? "Found %d errors\n" : "No Errors\n", errs_all);
    MPI_Finalize();
    return 0;
}
