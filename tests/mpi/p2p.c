/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 4
 * Point-to-point semantics with real data: ping-pong contents, wildcards and
 * the status they fill, MPI's non-overtaking order, a non-blocking ring,
 * Sendrecv, MPI_PROC_NULL, Waitany, Test, Get_count, and truncation reported
 * through MPI_ERRORS_RETURN. Prints "No Errors" when every check passes. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#define check_rank me_

/* No global variables: all simulated ranks share the program's globals. */
int main(int argc, char **argv) {
    int rank, size, errors = 0, *errs = &errors;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int me_ = rank;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double big[20000];
    MPI_Status st;

    /* ping-pong of a rendezvous-size message: contents come back doubled */
    if (rank == 0) {
        for (int i = 0; i < 20000; i++)
            big[i] = i;
        MPI_Send(big, 20000, MPI_DOUBLE, 1, 5, MPI_COMM_WORLD);
        MPI_Recv(big, 20000, MPI_DOUBLE, 1, 6, MPI_COMM_WORLD, &st);
        for (int i = 0; i < 20000; i += 997)
            EXPECT(big[i] == 2.0 * i);
    } else if (rank == 1) {
        MPI_Recv(big, 20000, MPI_DOUBLE, 0, 5, MPI_COMM_WORLD, &st);
        for (int i = 0; i < 20000; i++)
            big[i] *= 2;
        MPI_Send(big, 20000, MPI_DOUBLE, 0, 6, MPI_COMM_WORLD);
    }

    /* wildcards: rank 0 receives one message from every other rank (any
     * source, tag 50), then one with any tag from rank 1 (its next message
     * in order, tag 55) */
    if (rank == 0) {
        int seen = 0;
        for (int k = 1; k < size; k++) {
            int v;
            MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 50, MPI_COMM_WORLD, &st);
            EXPECT(v == 100 * st.MPI_SOURCE && st.MPI_TAG == 50);
            int n;
            MPI_Get_count(&st, MPI_INT, &n);
            EXPECT(n == 1);
            seen |= 1 << st.MPI_SOURCE;
        }
        EXPECT(seen == (1 << size) - 2);
        int w = 0;
        MPI_Recv(&w, 1, MPI_INT, 1, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        EXPECT(w == 555 && st.MPI_TAG == 55 && st.MPI_SOURCE == 1);
    } else {
        int v = 100 * rank, w = 555;
        MPI_Send(&v, 1, MPI_INT, 0, 50, MPI_COMM_WORLD);
        if (rank == 1) MPI_Send(&w, 1, MPI_INT, 0, 55, MPI_COMM_WORLD);
    }

    /* non-overtaking: a large message then a small one, same tag */
    if (rank == 2) {
        MPI_Send(big, 20000, MPI_DOUBLE, 3, 1, MPI_COMM_WORLD);
        int small = 42;
        MPI_Send(&small, 1, MPI_INT, 3, 1, MPI_COMM_WORLD);
    } else if (rank == 3) {
        MPI_Recv(big, 20000, MPI_DOUBLE, 2, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        int n;
        MPI_Get_count(&st, MPI_DOUBLE, &n);
        EXPECT(n == 20000);
        int small = 0;
        MPI_Recv(&small, 1, MPI_INT, 2, 1, MPI_COMM_WORLD, &st);
        EXPECT(small == 42);
    }

    /* non-blocking ring and Sendrecv */
    int right = (rank + 1) % size, left = (rank + size - 1) % size, got = -1, got2 = -1;
    MPI_Request rq[2];
    MPI_Irecv(&got, 1, MPI_INT, left, 7, MPI_COMM_WORLD, &rq[0]);
    MPI_Isend(&rank, 1, MPI_INT, right, 7, MPI_COMM_WORLD, &rq[1]);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    EXPECT(got == left && rq[0] == MPI_REQUEST_NULL);
    MPI_Sendrecv(&rank, 1, MPI_INT, left, 8, &got2, 1, MPI_INT, right, 8, MPI_COMM_WORLD, &st);
    EXPECT(got2 == right && st.MPI_SOURCE == right);

    /* Sendrecv_replace: the value moves one step around the ring in place */
    int token = 1000 + rank;
    MPI_Sendrecv_replace(&token, 1, MPI_INT, right, 11, left, 11, MPI_COMM_WORLD, &st);
    EXPECT(token == 1000 + left && st.MPI_SOURCE == left);

    /* MPI_PROC_NULL completes at once */
    MPI_Recv(&got, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st);
    EXPECT(st.MPI_SOURCE == MPI_PROC_NULL);
    MPI_Send(&rank, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);

    /* Waitany and Test */
    if (rank == 0) {
        int a = -1, b = -1, idx, flag = 0;
        MPI_Irecv(&a, 1, MPI_INT, 1, 20, MPI_COMM_WORLD, &rq[0]);
        MPI_Irecv(&b, 1, MPI_INT, 2, 21, MPI_COMM_WORLD, &rq[1]);
        MPI_Waitany(2, rq, &idx, &st);
        EXPECT((idx == 0 && a == 1) || (idx == 1 && b == 2));
        EXPECT(rq[idx] == MPI_REQUEST_NULL);
        while (!flag)
            MPI_Test(&rq[1 - idx], &flag, &st);
        EXPECT(a == 1 && b == 2);
    } else if (rank == 1 || rank == 2) {
        MPI_Send(&rank, 1, MPI_INT, 0, 19 + rank, MPI_COMM_WORLD);
    }

    /* truncation, reported as an error code */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0) {
        int two[2] = {1, 2};
        MPI_Send(two, 2, MPI_INT, 1, 30, MPI_COMM_WORLD);
    } else if (rank == 1) {
        int one = 0;
        int rc = MPI_Recv(&one, 1, MPI_INT, 0, 30, MPI_COMM_WORLD, &st);
        int cls;
        MPI_Error_class(rc, &cls);
        EXPECT(cls == MPI_ERR_TRUNCATE && one == 1);
    }
    EXPECT(MPI_Send(&rank, 1, MPI_INT, size + 5, 0, MPI_COMM_WORLD) == MPI_ERR_RANK);
    EXPECT(MPI_Send(&rank, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD) == MPI_ERR_TYPE);

    /* Probe then receive a message of unknown size; Iprobe before and after */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    if (rank == 3) {
        int flag = 1;
        MPI_Iprobe(0, 40, MPI_COMM_WORLD, &flag, &st);
        EXPECT(!flag); /* rank 0 has not sent yet at this virtual time */
        MPI_Probe(MPI_ANY_SOURCE, 40, MPI_COMM_WORLD, &st);
        int n = 0;
        MPI_Get_count(&st, MPI_INT, &n);
        EXPECT(st.MPI_SOURCE == 0 && n == 3);
        MPI_Iprobe(0, 40, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        EXPECT(flag);
        int three[3] = {0};
        MPI_Recv(three, n, MPI_INT, st.MPI_SOURCE, 40, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        EXPECT(three[2] == 3);
    } else if (rank == 0) {
        double t0 = MPI_Wtime();
        while (MPI_Wtime() - t0 < 1e-3) { /* compute for 1 ms of virtual time */
        }
        int three[3] = {1, 2, 3};
        MPI_Send(three, 3, MPI_INT, 3, 40, MPI_COMM_WORLD);
    }

    /* matched probe: claim the message, then receive exactly it */
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 2) {
        int v[5] = {5, 6, 7, 8, 9};
        MPI_Send(v, 5, MPI_INT, 1, 60, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Message msg;
        MPI_Mprobe(2, 60, MPI_COMM_WORLD, &msg, &st);
        int n = 0, got5[5] = {0};
        MPI_Get_count(&st, MPI_INT, &n);
        EXPECT(n == 5);
        int flag = 1;
        MPI_Iprobe(2, 60, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        EXPECT(!flag); /* claimed: no longer visible */
        MPI_Mrecv(got5, n, MPI_INT, &msg, &st);
        EXPECT(got5[4] == 9 && msg == MPI_MESSAGE_NULL && st.MPI_SOURCE == 2);
    }

    int all;
    MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf(all ? "Found %d errors\n" : "No Errors\n", all);
    MPI_Finalize();
    return 0;
}
