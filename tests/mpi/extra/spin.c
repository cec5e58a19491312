/* SPDX-License-Identifier: BSD-3-Clause */
/* Interrupt test (run-mpi-tests): rank 0 prints a line (kept in stdio's
 * buffer, as output to a file is) and then computes forever; rank 1 waits
 * for it in MPI_Recv. SIGINT or SIGTERM must stop the run, flush the line,
 * print the partial summary and write the JSON marked partial. Rank 0
 * creates the file argv[1] (if given) once it computes: the tests wait for
 * that state, not for a time. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int me, v = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (me == 0) {
        printf("rank 0 started\n");
        if (argc > 1) fclose(fopen(argv[1], "w"));
        volatile unsigned long spin = 0;
        for (;;)
            spin++;
    }
    MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
