/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 4
 * Persistent requests (Send_init/Recv_init/Startall, reused over several
 * rounds), Waitsome/Testany, a user-defined non-commutative operation,
 * groups and Comm_create, Comm_compare, names, MPI_TAG_UB and
 * Comm_split_type. Prints "No Errors" when all checks pass. */
#include <mpi.h>
#include <stdio.h>

#include "check.h"
#define check_rank me

/* (a, b) o (c, d) = (a*c, a*d + b): composition of affine maps, not commutative */
static void compose(void *in, void *inout, int *len, MPI_Datatype *type) {
    (void)type;
    int *x = in, *y = inout;
    for (int i = 0; i < *len; i++) {
        int a = x[2 * i], b = x[2 * i + 1], c = y[2 * i], d = y[2 * i + 1];
        y[2 * i] = a * c;
        y[2 * i + 1] = a * d + b;
    }
}

int main(int argc, char **argv) {
    int me, n, errors = 0, *errs = &errors;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);

    /* persistent ring exchange, three rounds */
    int out = 0, in = -1, right = (me + 1) % n, left = (me + n - 1) % n;
    MPI_Request rq[2];
    MPI_Recv_init(&in, 1, MPI_INT, left, 9, MPI_COMM_WORLD, &rq[0]);
    MPI_Send_init(&out, 1, MPI_INT, right, 9, MPI_COMM_WORLD, &rq[1]);
    for (int round = 0; round < 3; round++) {
        out = 100 * round + me;
        MPI_Startall(2, rq);
        MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
        EXPECT(in == 100 * round + left);
        EXPECT(rq[0] != MPI_REQUEST_NULL); /* persistent requests stay allocated */
    }
    MPI_Request_free(&rq[0]);
    MPI_Request_free(&rq[1]);
    EXPECT(rq[0] == MPI_REQUEST_NULL);

    /* Waitsome: rank 0 collects from all others */
    if (me == 0) {
        MPI_Request r[8];
        int got[8] = {0}, done = 0, idx[8];
        for (int j = 1; j < n; j++)
            MPI_Irecv(&got[j], 1, MPI_INT, j, 3, MPI_COMM_WORLD, &r[j - 1]);
        while (done < n - 1) {
            int k;
            MPI_Waitsome(n - 1, r, &k, idx, MPI_STATUSES_IGNORE);
            done += k;
        }
        for (int j = 1; j < n; j++)
            EXPECT(got[j] == j * j);
        int index, flag;
        MPI_Testany(n - 1, r, &index, &flag, MPI_STATUS_IGNORE);
        EXPECT(flag && index == MPI_UNDEFINED); /* nothing active left */
    } else {
        int v = me * me;
        MPI_Send(&v, 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
    }

    /* non-commutative user operation, in rank order: f0 o f1 o ... o f(n-1) */
    MPI_Op op;
    MPI_Op_create(compose, 0, &op);
    int f[2] = {2, me}, r[2];
    MPI_Allreduce(f, r, 1, MPI_2INT, op, MPI_COMM_WORLD);
    int a = 1, b = 0; /* compose by hand, left to right */
    for (int j = 0; j < n; j++) {
        int c = 2, d = j;
        b = a * d + b;
        a = a * c;
    }
    EXPECT(r[0] == a && r[1] == b);
    int commute = 1;
    MPI_Op_commutative(op, &commute);
    EXPECT(!commute);
    MPI_Op_free(&op);

    /* groups: the even ranks, in reverse order */
    MPI_Group world, evens;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int picks[8], k = 0;
    for (int j = n - 1; j >= 0; j--)
        if (j % 2 == 0) picks[k++] = j;
    MPI_Group_incl(world, k, picks, &evens);
    int gsize, grank;
    MPI_Group_size(evens, &gsize);
    MPI_Group_rank(evens, &grank);
    EXPECT(gsize == (n + 1) / 2);
    EXPECT(me % 2 ? grank == MPI_UNDEFINED : grank == k - 1 - me / 2);
    int zero = 0, t;
    MPI_Group_translate_ranks(evens, 1, &zero, world, &t);
    EXPECT(t == picks[0]);
    MPI_Comm ecomm;
    MPI_Comm_create(MPI_COMM_WORLD, evens, &ecomm);
    if (me % 2 == 0) {
        int er;
        MPI_Comm_rank(ecomm, &er);
        EXPECT(er == grank);
        MPI_Comm_free(&ecomm);
    } else {
        EXPECT(ecomm == MPI_COMM_NULL);
    }
    MPI_Group_free(&evens);
    MPI_Group_free(&world);

    MPI_Comm dup;
    int cmp;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_compare(MPI_COMM_WORLD, dup, &cmp);
    EXPECT(cmp == MPI_CONGRUENT);
    MPI_Comm_compare(dup, dup, &cmp);
    EXPECT(cmp == MPI_IDENT);
    MPI_Comm_set_name(dup, "my copy");
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    MPI_Comm_get_name(dup, name, &len);
    EXPECT(len == 7 && name[3] == 'c');
    int *ub, flag;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
    EXPECT(flag && *ub >= 32767);
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, me, MPI_INFO_NULL, &node);
    int nsize;
    MPI_Comm_size(node, &nsize);
    EXPECT(nsize >= 1);

    int all;
    MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0) printf(all ? "Found %d errors\n" : "No Errors\n", all);
    MPI_Finalize();
    return 0;
}
