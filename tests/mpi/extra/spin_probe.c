/* SPDX-License-Identifier: BSD-3-Clause */
/* Interrupt test (run-mpi-tests): both ranks poll with MPI_Iprobe for a
 * message nobody sends, never blocking: SIGTERM must still stop the run.
 * The file argv[1] (if given) exists once they poll. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int flag = 0;
    MPI_Init(&argc, &argv);
    printf("polling\n");
    if (argc > 1) fclose(fopen(argv[1], "w"));
    while (!flag)
        MPI_Iprobe(MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
