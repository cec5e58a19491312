/* SPDX-License-Identifier: BSD-3-Clause */
/* Run by run-mpi-tests with "-n 5 -v" on 3 ranks: getopt without any
 * reference to optind in the program (then optind is the C library's own,
 * and simpi keeps it per rank around each call). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv) {
    int me, n = 0, verbose = 0, c, errors = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    while ((c = getopt(argc, argv, "n:v")) != -1) {
        if (c == 'n') n = atoi(optarg);
        if (c == 'v') verbose = 1;
        MPI_Barrier(MPI_COMM_WORLD);
    }
    if (n != 5 || !verbose) errors++, printf("rank %d: n=%d v=%d\n", me, n, verbose);
    int all;
    MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0) printf(all ? "Found %d errors\n" : "No Errors\n", all);
    MPI_Finalize();
    return 0;
}
