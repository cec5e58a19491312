/* SPDX-License-Identifier: BSD-3-Clause */
/* A program whose main is in a library built with `simpicc -shared`, the
 * executable a plain `cc` build that links it (tests/trust/run-trust4): each
 * rank adds rank + 1 to a global of the library and must see only its own
 * addition, as separate processes would. Prints "rank R: lib main ok". */
#include <mpi.h>
#include <stdio.h>

static int counter;

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    counter += rank + 1;
    MPI_Barrier(MPI_COMM_WORLD); /* every rank has added before any checks */
    if (counter == rank + 1)
        printf("rank %d: lib main ok\n", rank);
    else
        printf("rank %d: the library's global holds %d, not %d\n", rank, counter, rank + 1);
    return MPI_Finalize();
}
