/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 6
 * Intercommunicators: the even and the odd world ranks form two groups
 * joined by MPI_Intercomm_create (leaders: world ranks 0 and 1). Sends
 * reach the remote group's rank; bcast, reduce, allreduce, allgather and
 * barrier work across the groups as MPI-3.1 5.2.2 defines; a duplicate
 * carries messages too; MPI_Intercomm_merge puts the group that passed
 * high = 0 first. */
#include <mpi.h>
#include <stdio.h>

#include "check.h"

static void queries(MPI_Comm inter, int *errs, int check_rank) {
    int flag = 0, size, rsize, rank;
    MPI_Comm_test_inter(inter, &flag);
    MPI_Comm_size(inter, &size);
    MPI_Comm_remote_size(inter, &rsize);
    MPI_Comm_rank(inter, &rank);
    EXPECT(flag && size == 3 && rsize == 3 && rank == check_rank / 2);
    MPI_Group remote, world;
    int zero = 0, first;
    MPI_Comm_remote_group(inter, &remote);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_translate_ranks(remote, 1, &zero, world, &first);
    EXPECT(first == (check_rank % 2 ? 0 : 1)); /* the other group's leader */
    MPI_Group_free(&remote);
    MPI_Group_free(&world);
}

static void point_to_point(MPI_Comm inter, int *errs, int check_rank) {
    int me = check_rank, got = -1, peer = check_rank / 2;
    MPI_Status st;
    MPI_Sendrecv(&me, 1, MPI_INT, peer, 5, &got, 1, MPI_INT, peer, 5, inter, &st);
    EXPECT(got == (me % 2 ? me - 1 : me + 1) && st.MPI_SOURCE == peer);
}

static void collectives(MPI_Comm inter, int *errs, int check_rank) {
    int me = check_rank, even = me % 2 == 0, v = -1, sum = -1, all[3] = {-1, -1, -1};
    /* bcast from world rank 0 (even group, local rank 0) to the odd group */
    if (even) {
        v = 42;
        MPI_Bcast(&v, 1, MPI_INT, me == 0 ? MPI_ROOT : MPI_PROC_NULL, inter);
    } else {
        MPI_Bcast(&v, 1, MPI_INT, 0, inter);
        EXPECT(v == 42);
    }
    /* each group gets the other's sum: odd 1 + 3 + 5 = 9, even 0 + 2 + 4 = 6 */
    MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, inter);
    EXPECT(sum == (even ? 9 : 6));
    /* reduce to world rank 3 (odd group, local rank 1) of the even ranks: 6 */
    sum = -1;
    if (even) {
        MPI_Reduce(&me, NULL, 1, MPI_INT, MPI_SUM, 1, inter);
    } else {
        MPI_Reduce(NULL, &sum, 1, MPI_INT, MPI_SUM, me == 3 ? MPI_ROOT : MPI_PROC_NULL, inter);
        if (me == 3) EXPECT(sum == 6);
    }
    MPI_Allgather(&me, 1, MPI_INT, all, 1, MPI_INT, inter);
    for (int i = 0; i < 3; i++)
        EXPECT(all[i] == 2 * i + even);
    MPI_Barrier(inter);
}

static void merged(MPI_Comm inter, int *errs, int check_rank) {
    MPI_Comm intra;
    int me = check_rank, rank, size;
    MPI_Intercomm_merge(inter, me % 2, &intra); /* the odd group passes high = 1 */
    MPI_Comm_rank(intra, &rank);
    MPI_Comm_size(intra, &size);
    EXPECT(size == 6 && rank == (me % 2 ? 3 + me / 2 : me / 2));
    int sum = 0;
    MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, intra);
    EXPECT(sum == 15);
    MPI_Comm_free(&intra);
}

int main(int argc, char **argv) {
    int rank, errs = 0, total;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm local, inter, dup;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 7, &inter);
    queries(inter, &errs, rank);
    point_to_point(inter, &errs, rank);
    collectives(inter, &errs, rank);
    MPI_Comm_dup(inter, &dup);
    point_to_point(dup, &errs, rank);
    merged(inter, &errs, rank);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
    MPI_Reduce(&errs, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && total == 0) printf("No Errors\n");
    MPI_Finalize();
    return 0;
}
