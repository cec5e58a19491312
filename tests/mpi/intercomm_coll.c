/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 7
 * Every collective on an intercommunicator, with data checks. Group A is
 * world ranks 0..2 (local ranks 0..2), group B world ranks 3..6 (local
 * ranks 0..3): unequal sizes catch local/remote mix-ups. Rank w's values
 * are 100 w + i. Rooted operations go from A's local rank 1 (world 1) to
 * group B, or from B's local rank 2 (world 5) to group A. Also the
 * non-blocking forms (complete when their call returns), MPI_Comm_split
 * and MPI_Comm_create of an intercommunicator. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

#define NA 3
#define NB 4

struct side {
    int w, a, lr, nl, nr,
        base; /* world rank, in A?, local rank, sizes, remote's first world rank */
};

static void gathers(MPI_Comm ic, const struct side *s, int *errs, int check_rank) {
    int buf[NB * 2], mine[2] = {100 * s->w, 100 * s->w + 1};
    /* gather of two ints from each of B at A's local rank 1 */
    memset(buf, -1, sizeof buf);
    if (s->a)
        MPI_Gather(NULL, 0, MPI_INT, buf, 2, MPI_INT, s->lr == 1 ? MPI_ROOT : MPI_PROC_NULL, ic);
    else
        MPI_Gather(mine, 2, MPI_INT, NULL, 0, MPI_INT, 1, ic);
    if (s->a && s->lr == 1)
        for (int i = 0; i < NB; i++)
            EXPECT(buf[2 * i] == 100 * (3 + i) && buf[2 * i + 1] == 100 * (3 + i) + 1);
    /* gatherv at B's local rank 2: A's rank i sends i + 1 ints, placed in
     * reverse order: displs 3, 1, 0 */
    int counts[NA] = {1, 2, 3}, displs[NA] = {5, 3, 0}, v[6];
    memset(v, -1, sizeof v);
    if (s->a) {
        int out[3] = {100 * s->w, 100 * s->w + 1, 100 * s->w + 2};
        MPI_Gatherv(out, s->lr + 1, MPI_INT, NULL, NULL, NULL, MPI_INT, 2, ic);
    } else {
        MPI_Gatherv(NULL, 0, MPI_INT, v, counts, displs, MPI_INT,
                    s->lr == 2 ? MPI_ROOT : MPI_PROC_NULL, ic);
        if (s->lr == 2)
            EXPECT(v[5] == 0 && v[3] == 100 && v[4] == 101 && v[0] == 200 && v[1] == 201 &&
                   v[2] == 202);
    }
}

static void scatters(MPI_Comm ic, const struct side *s, int *errs, int check_rank) {
    /* scatter from A's local rank 1: B's rank i gets {10 i, 10 i + 1} */
    int all[NB * 2], got[2] = {-1, -1};
    for (int i = 0; i < 2 * NB; i++)
        all[i] = 10 * (i / 2) + i % 2;
    if (s->a) {
        MPI_Scatter(all, 2, MPI_INT, NULL, 0, MPI_INT, s->lr == 1 ? MPI_ROOT : MPI_PROC_NULL, ic);
    } else {
        MPI_Scatter(NULL, 0, MPI_INT, got, 2, MPI_INT, 1, ic);
        EXPECT(got[0] == 10 * s->lr && got[1] == 10 * s->lr + 1);
    }
    /* scatterv from B's local rank 2: A's rank i gets i + 1 ints from displ 4 - 2 i */
    int src[6] = {0, 1, 2, 3, 4, 5}, counts[NA] = {1, 2, 3}, displs[NA] = {4, 2, 0}, in[3] = {-1};
    if (s->a) {
        MPI_Scatterv(NULL, NULL, NULL, MPI_INT, in, s->lr + 1, MPI_INT, 2, ic);
        for (int k = 0; k <= s->lr; k++)
            EXPECT(in[k] == displs[s->lr] + k);
    } else {
        MPI_Scatterv(src, counts, displs, MPI_INT, NULL, 0, MPI_INT,
                     s->lr == 2 ? MPI_ROOT : MPI_PROC_NULL, ic);
    }
}

static void allgathers(MPI_Comm ic, const struct side *s, int *errs, int check_rank) {
    int all[NB], mine = 100 * s->w;
    memset(all, -1, sizeof all);
    MPI_Allgather(&mine, 1, MPI_INT, all, 1, MPI_INT, ic);
    for (int i = 0; i < s->nr; i++)
        EXPECT(all[i] == 100 * (s->base + i));
    /* allgatherv: remote rank i sends i + 1 ints, packed in rank order */
    int out[NB] = {mine, mine + 1, mine + 2, mine + 3}, v[10], counts[NB], displs[NB], at = 0;
    for (int i = 0; i < s->nr; i++) {
        counts[i] = i + 1;
        displs[i] = at;
        at += i + 1;
    }
    memset(v, -1, sizeof v);
    MPI_Allgatherv(out, s->lr + 1, MPI_INT, v, counts, displs, MPI_INT, ic);
    for (int i = 0; i < s->nr; i++)
        for (int k = 0; k <= i; k++)
            EXPECT(v[displs[i] + k] == 100 * (s->base + i) + k);
}

static void alltoalls(MPI_Comm ic, const struct side *s, int *errs, int check_rank) {
    /* block j of rank w for remote rank j: 1000 w + j */
    int out[NB], in[NB];
    for (int j = 0; j < NB; j++)
        out[j] = 1000 * s->w + j;
    memset(in, -1, sizeof in);
    MPI_Alltoall(out, 1, MPI_INT, in, 1, MPI_INT, ic);
    for (int i = 0; i < s->nr; i++)
        EXPECT(in[i] == 1000 * (s->base + i) + s->lr);
    /* alltoallv: to remote rank j, j + 1 copies of 1000 w + j; from remote
     * rank i, lr + 1 copies, received in reverse rank order */
    int sout[10], scount[NB], sdisp[NB], rin[16], rcount[NB], rdisp[NB], at = 0;
    for (int j = 0; j < s->nr; j++) {
        scount[j] = j + 1;
        sdisp[j] = at;
        for (int k = 0; k <= j; k++)
            sout[at++] = 1000 * s->w + j;
    }
    at = 0;
    for (int i = s->nr - 1; i >= 0; i--) {
        rcount[i] = s->lr + 1;
        rdisp[i] = at;
        at += s->lr + 1;
    }
    memset(rin, -1, sizeof rin);
    MPI_Alltoallv(sout, scount, sdisp, MPI_INT, rin, rcount, rdisp, MPI_INT, ic);
    for (int i = 0; i < s->nr; i++)
        for (int k = 0; k <= s->lr; k++)
            EXPECT(rin[rdisp[i] + k] == 1000 * (s->base + i) + s->lr);
    /* alltoallw: byte displacements, an int then a double per peer */
    MPI_Datatype st[NB], rt[NB];
    int sc[NB], sd[NB], rc[NB], rd[NB];
    char sb[64], rb[64];
    for (int j = 0; j < NB; j++) {
        st[j] = rt[j] = j % 2 ? MPI_DOUBLE : MPI_INT;
        sc[j] = rc[j] = 1;
        sd[j] = rd[j] = 8 * j;
        if (j % 2) {
            double d = 0.5 + s->w;
            memcpy(sb + 8 * j, &d, sizeof d);
        } else {
            int x = s->w;
            memcpy(sb + 8 * j, &x, sizeof x);
        }
    }
    memset(rb, 0, sizeof rb);
    /* my block for remote rank j has rank j's type; I receive my own type */
    for (int j = 0; j < NB; j++)
        rt[j] = s->lr % 2 ? MPI_DOUBLE : MPI_INT;
    MPI_Alltoallw(sb, sc, sd, st, rb, rc, rd, rt, ic);
    for (int i = 0; i < s->nr; i++) {
        if (s->lr % 2) {
            double d;
            memcpy(&d, rb + 8 * i, sizeof d);
            EXPECT(d == 0.5 + s->base + i);
        } else {
            int x;
            memcpy(&x, rb + 8 * i, sizeof x);
            EXPECT(x == s->base + i);
        }
    }
}

static void reduce_scatters(MPI_Comm ic, const struct side *s, int *errs, int check_rank) {
    /* the vector has 6 elements in both groups: A splits it 1, 2, 3; B 3, 1, 1, 1.
     * Element e of rank w is w + e: the sum over A (0, 1, 2) is 3 + 3e, over
     * B (3..6) 18 + 4e; each group gets the other's. */
    int ca[NA] = {1, 2, 3}, cb[NB] = {3, 1, 1, 1}, vec[6], got[3] = {-1, -1, -1};
    const int *counts = s->a ? ca : cb;
    for (int e = 0; e < 6; e++)
        vec[e] = s->w + e;
    MPI_Reduce_scatter(vec, got, counts, MPI_INT, MPI_SUM, ic);
    int first = 0;
    for (int j = 0; j < s->lr; j++)
        first += counts[j];
    for (int k = 0; k < counts[s->lr]; k++) {
        int e = first + k;
        EXPECT(got[k] == (s->a ? 18 + 4 * e : 3 + 3 * e));
    }
    /* the block form: 12 elements in both groups (A: 4 per rank, B: 3) */
    int big[12], blk[4] = {-1, -1, -1, -1}, per = s->a ? 4 : 3;
    for (int e = 0; e < 12; e++)
        big[e] = s->w + e;
    MPI_Reduce_scatter_block(big, blk, per, MPI_INT, MPI_SUM, ic);
    for (int k = 0; k < per; k++) {
        int e = per * s->lr + k;
        EXPECT(blk[k] == (s->a ? 18 + 4 * e : 3 + 3 * e));
    }
}

static void nonblocking(MPI_Comm ic, const struct side *s, int *errs, int check_rank) {
    MPI_Request r[5];
    int v = s->a ? 7 : -1, sum = -1, all[NB], out[NB], in[NB], blk[3] = {-1, -1, -1};
    int root = s->a ? (s->lr == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    MPI_Ibarrier(ic, &r[0]);
    MPI_Ibcast(&v, 1, MPI_INT, root, ic, &r[1]);
    MPI_Iallreduce(&s->w, &sum, 1, MPI_INT, MPI_SUM, ic, &r[2]);
    MPI_Iallgather(&s->w, 1, MPI_INT, all, 1, MPI_INT, ic, &r[3]);
    for (int j = 0; j < NB; j++)
        out[j] = 10 * s->w + j;
    MPI_Ialltoall(out, 1, MPI_INT, in, 1, MPI_INT, ic, &r[4]);
    MPI_Waitall(5, r, MPI_STATUSES_IGNORE);
    EXPECT(v == 7 && sum == (s->a ? 18 : 3));
    for (int i = 0; i < s->nr; i++)
        EXPECT(all[i] == s->base + i && in[i] == 10 * (s->base + i) + s->lr);
    /* 6 = 2 x 3 = ... a block of 2 per A rank and of 1.5 per B rank does not
     * exist: the block form with A 2 per rank (6), B: not used here */
    MPI_Request q;
    int vec[6];
    for (int e = 0; e < 6; e++)
        vec[e] = s->w;
    int cnt[NB] = {2, 2, 2, 0};
    if (!s->a) {
        cnt[0] = 3;
        cnt[1] = 3;
        cnt[2] = 0;
    }
    MPI_Ireduce_scatter(vec, blk, cnt, MPI_INT, MPI_SUM, ic, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    for (int k = 0; k < cnt[s->lr]; k++)
        EXPECT(blk[k] == (s->a ? 18 : 3));
}

/* Split by parity of the local rank (key: minus the rank, so reversed):
 * A's even ranks {2, 0} meet B's even ranks {5, 3}; A's odd {1} meet B's
 * odd {6, 4}. Then MPI_Comm_create with A's ranks {0, 2} and B's {1, 3}. */
static void splits(MPI_Comm ic, const struct side *s, int *errs, int check_rank) {
    MPI_Comm sub;
    MPI_Comm_split(ic, s->lr % 2, -s->lr, &sub);
    int size, rsize, rank, flag;
    MPI_Comm_test_inter(sub, &flag);
    MPI_Comm_size(sub, &size);
    MPI_Comm_remote_size(sub, &rsize);
    MPI_Comm_rank(sub, &rank);
    int even = s->lr % 2 == 0;
    EXPECT(flag);
    EXPECT(size == (s->a ? (even ? 2 : 1) : 2));
    EXPECT(rsize == (s->a ? 2 : (even ? 2 : 1)));
    EXPECT(rank == (size - 1 - s->lr / 2));
    int got[2] = {-1, -1};
    MPI_Allgather(&s->w, 1, MPI_INT, got, 1, MPI_INT, sub);
    if (s->a && even) EXPECT(got[0] == 5 && got[1] == 3);
    if (s->a && !even) EXPECT(got[0] == 6 && got[1] == 4);
    if (!s->a && even) EXPECT(got[0] == 2 && got[1] == 0);
    if (!s->a && !even) EXPECT(got[0] == 1);
    MPI_Comm_free(&sub);
    /* MPI_UNDEFINED: B's local rank 3 stays out */
    MPI_Comm_split(ic, !s->a && s->lr == 3 ? MPI_UNDEFINED : 0, s->lr, &sub);
    if (!s->a && s->lr == 3) {
        EXPECT(sub == MPI_COMM_NULL);
    } else {
        MPI_Comm_remote_size(sub, &rsize);
        EXPECT(rsize == (s->a ? 3 : 3));
        MPI_Comm_free(&sub);
    }
    MPI_Group g, pick;
    int a_ranks[2] = {0, 2}, b_ranks[2] = {1, 3};
    MPI_Comm_group(ic, &g);
    MPI_Group_incl(g, 2, s->a ? a_ranks : b_ranks, &pick);
    MPI_Comm_create(ic, pick, &sub);
    int in = s->a ? s->lr % 2 == 0 : s->lr % 2 == 1;
    EXPECT((sub != MPI_COMM_NULL) == in);
    if (sub != MPI_COMM_NULL) {
        int sum = -1;
        MPI_Allreduce(&s->w, &sum, 1, MPI_INT, MPI_SUM, sub);
        EXPECT(sum == (s->a ? 4 + 6 : 0 + 2)); /* B's {1, 3} are world 4, 6 */
        MPI_Comm_free(&sub);
    }
    MPI_Group_free(&pick);
    MPI_Group_free(&g);
}

int main(int argc, char **argv) {
    int rank, errs = 0, total;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm local, ic;
    struct side s = {rank, rank < NA, 0, 0, 0, 0};
    MPI_Comm_split(MPI_COMM_WORLD, s.a, rank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, s.a ? NA : 0, 9, &ic);
    MPI_Comm_rank(ic, &s.lr);
    MPI_Comm_size(ic, &s.nl);
    MPI_Comm_remote_size(ic, &s.nr);
    s.base = s.a ? NA : 0;
    if (s.nl != (s.a ? NA : NB) || s.nr != (s.a ? NB : NA)) errs++;
    gathers(ic, &s, &errs, rank);
    scatters(ic, &s, &errs, rank);
    allgathers(ic, &s, &errs, rank);
    alltoalls(ic, &s, &errs, rank);
    reduce_scatters(ic, &s, &errs, rank);
    nonblocking(ic, &s, &errs, rank);
    splits(ic, &s, &errs, rank);
    MPI_Comm_free(&ic);
    MPI_Comm_free(&local);
    MPI_Reduce(&errs, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && total == 0) printf("No Errors\n");
    MPI_Finalize();
    return 0;
}
