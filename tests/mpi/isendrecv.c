/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 4
 * MPI-4.0's MPI_Isendrecv and MPI_Isendrecv_replace around a ring (one
 * request completing with both halves, tested then waited), one whose
 * receive completes long before its send, polled with MPI_Test until it
 * completes (a test once finished the receive alone, and never saw the
 * request complete), and the communicator info calls (hints are ignored:
 * the info is empty). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* Even ranks send 1 MiB (a rendezvous) to the next and receive 8 bytes
 * from it, which it sends eagerly: their receive completes first. */
static int uneven_polled(int me) {
    enum { BIG = 1 << 20 };
    char *big = calloc(BIG, 1), small[8] = {0};
    int peer = me ^ 1, flag = 0;
    long polls = 0;
    MPI_Request q;
    if (me % 2 == 0)
        MPI_Isendrecv(big, BIG, MPI_CHAR, peer, 5, small, 8, MPI_CHAR, peer, 5, MPI_COMM_WORLD, &q);
    else
        MPI_Isendrecv(small, 8, MPI_CHAR, peer, 5, big, BIG, MPI_CHAR, peer, 5, MPI_COMM_WORLD, &q);
    while (!flag && polls++ < 1000000)
        MPI_Test(&q, &flag, MPI_STATUS_IGNORE);
    if (!flag) printf("rank %d: the Isendrecv never completed under MPI_Test\n", me);
    free(big);
    return !flag;
}

int main(int argc, char **argv) {
    int me, n, errors = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    int right = (me + 1) % n, left = (me - 1 + n) % n;
    int out[100], in[100], flag = 0;
    for (int i = 0; i < 100; i++)
        out[i] = 1000 * me + i;
    MPI_Request q;
    MPI_Isendrecv(out, 100, MPI_INT, right, 3, in, 100, MPI_INT, left, 3, MPI_COMM_WORLD, &q);
    MPI_Test(&q, &flag, MPI_STATUS_IGNORE);
    MPI_Status st;
    if (!flag) MPI_Wait(&q, &st);
    for (int i = 0; i < 100; i++)
        errors += in[i] != 1000 * left + i;
    MPI_Isendrecv_replace(out, 100, MPI_INT, right, 4, left, 4, MPI_COMM_WORLD, &q);
    MPI_Wait(&q, &st);
    errors += st.MPI_SOURCE != left || st.MPI_TAG != 4 || out[7] != 1000 * left + 7;
    errors += uneven_polled(me);
    /* freed at once: both halves still complete (its send was left
     * outstanding, and reported as never completed) */
    MPI_Isendrecv(out, 100, MPI_INT, right, 6, in, 100, MPI_INT, left, 6, MPI_COMM_WORLD, &q);
    MPI_Request_free(&q);

    MPI_Comm dup;
    MPI_Info info;
    int nkeys = -1;
    MPI_Comm_dup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &dup);
    MPI_Comm_set_info(dup, MPI_INFO_NULL);
    MPI_Comm_get_info(dup, &info);
    MPI_Info_get_nkeys(info, &nkeys);
    errors += nkeys != 0;
    MPI_Info_free(&info);
    MPI_Comm_free(&dup);
    int total;
    MPI_Allreduce(&errors, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0 && total == 0) printf("No Errors\n");
    MPI_Finalize();
    return 0;
}
