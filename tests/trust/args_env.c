/* SPDX-License-Identifier: BSD-3-Clause */
/* Each rank edits its argument and environment strings in place (strtok
 * writes NULs into them), as a process may: the other ranks must still see
 * the original strings (Open MPI and SMPI give each rank its own copy). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, bad = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc < 2 || strcmp(argv[1], "a,b,c") != 0) bad |= 1;
    const char *v = getenv("TRUST_TEST_LIST");
    if (!v || strcmp(v, "x:y:z") != 0) bad |= 2;
    MPI_Barrier(MPI_COMM_WORLD);             /* every rank checked before any edits */
    if (rank == 0) {                         /* rank 0 edits; the others look */
        if (argc >= 2) strtok(argv[1], ","); /* argv[1] becomes "a" */
        char *e = getenv("TRUST_TEST_LIST");
        if (e) strtok(e, ":");
        if (setenv("TRUST_TEST_MINE", "0", 1) != 0) bad |= 4;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank != 0) {
        if (argc < 2 || strcmp(argv[1], "a,b,c") != 0) bad |= 8;
        v = getenv("TRUST_TEST_LIST");
        if (!v || strcmp(v, "x:y:z") != 0) bad |= 16;
        if (getenv("TRUST_TEST_MINE")) bad |= 32; /* rank 0's setenv */
    }
    int all;
    MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_BOR, MPI_COMM_WORLD);
    if (rank == 0) printf(all ? "shared strings (%d)\n" : "own strings\n", all);
    MPI_Finalize();
    return all != 0;
}
