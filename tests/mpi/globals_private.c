/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 4
 * By default every rank has its own copy of the program's globals (as
 * separate processes would): a global rank number, a global counter, a static array that receives a
 * message and a collective's output, all kept per rank across switches. */
#include <mpi.h>
#include <stdio.h>

int my_rank = -1;
static int counter;
static double inbox[4], sums[2];

static int check(void) {
    int errors = 0, me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (my_rank != me) errors++, printf("rank %d sees my_rank %d\n", me, my_rank);
    if (counter != 10 * (me + 1)) errors++, printf("rank %d: counter %d\n", me, counter);
    return errors;
}

int main(int argc, char **argv) {
    int n;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    for (int i = 0; i <= my_rank; i++)
        counter += 10;
    MPI_Barrier(MPI_COMM_WORLD); /* every rank has run in between */
    /* a message into a global array of a rank that is not running */
    double mine[4] = {my_rank, my_rank, my_rank, my_rank};
    MPI_Request r;
    MPI_Irecv(inbox, 4, MPI_DOUBLE, (my_rank + n - 1) % n, 0, MPI_COMM_WORLD, &r);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Send(mine, 4, MPI_DOUBLE, (my_rank + 1) % n, 0, MPI_COMM_WORLD);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    int errors = check();
    if (inbox[3] != (my_rank + n - 1) % n)
        errors++, printf("rank %d: inbox %g\n", my_rank, inbox[3]);
    double v[2] = {my_rank, 1};
    MPI_Allreduce(v, sums, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (sums[0] != n * (n - 1) / 2.0 || sums[1] != n) errors++;
    errors += check();
    int all;
    MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (my_rank == 0) printf(all ? "Found %d errors\n" : "No Errors\n", all);
    MPI_Finalize();
    return 0;
}
