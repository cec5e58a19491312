/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 2 options: --no-privatize expect: simpi: warning: --no-privatize: the program's 2 writable
 * global variables (12 bytes: With --no-privatize, a program with writable globals gets one warning
 * naming them: they are shared by all ranks. Its results do not depend on them. */
#include <mpi.h>
#include <stdio.h>

int counter;
static double total = 1.0;

int main(int argc, char **argv) {
    int me;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    counter++;
    total *= 2;
    if (me == 0) printf("No Errors\n");
    MPI_Finalize();
    return 0;
}
