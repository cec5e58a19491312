/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 4
 * Ordinary programs keep arrays of a few hundred KiB on the stack (the
 * MPICH test bsendfrag needs 272 KB): they run with the default stack size,
 * while the other ranks' stacks stay intact. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int fill_and_sum(int me) {
    char local[320 * 1024];
    memset(local, me + 1, sizeof local);
    int sum = 0;
    for (size_t i = 0; i < sizeof local; i += 4096)
        sum += local[i];
    return sum;
}

int main(int argc, char **argv) {
    int me, errors = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    int marker = 1000 + me;
    int sum = fill_and_sum(me);
    MPI_Barrier(MPI_COMM_WORLD);
    if (sum != 80 * (me + 1) || marker != 1000 + me)
        errors++, printf("rank %d: sum %d marker %d\n", me, sum, marker);
    int all;
    MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0) printf(all ? "Found %d errors\n" : "No Errors\n", all);
    MPI_Finalize();
    return 0;
}
