/* SPDX-License-Identifier: BSD-3-Clause */
/* Globals of the medium code model (built with -mcmodel=medium): arrays above
 * 64 KiB go to .lbss (zeroed) and .ldata (initialised), out of .bss and
 * .data. Each rank adds its rank + 1 to one element of each, then all
 * check: each must see only its own addition (1 + rank and 2 + rank), as
 * separate processes would. Prints "large model ok" on every rank, or what
 * it saw (tests/privatize/run-privatize). */
#include <mpi.h>
#include <stdio.h>

static double zeroed[100000];           /* 800 KB: .lbss */
double initialised[20000] = {1.0, 1.0}; /* 160 KB: .ldata */

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    zeroed[5] += rank + 1;
    initialised[1] += rank + 1;
    MPI_Barrier(MPI_COMM_WORLD); /* every rank has written before any checks */
    if (zeroed[5] == rank + 1 && initialised[1] == rank + 2)
        printf("large model ok\n");
    else
        printf("rank %d: .lbss %g (expected %d), .ldata %g (expected %d)\n", rank, zeroed[5],
               rank + 1, initialised[1], rank + 2);
    return MPI_Finalize();
}
