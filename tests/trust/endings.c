/* SPDX-License-Identifier: BSD-3-Clause */
/* Ways a rank can end the whole process abruptly; argv[1] picks one, done
 * by rank 1 after it has printed a line (buffered: a pipe) and while rank 0
 * waits for it. Whatever the end, simpi must flush every rank's output,
 * write its report and JSON with the reason, and exit non-zero. */
#define _GNU_SOURCE
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    printf("rank %d before\n", rank);
    const char *how = argc > 1 ? argv[1] : "";
    if (rank == 1) {
        if (!strcmp(how, "_exit")) _exit(3);
        if (!strcmp(how, "exit_group")) syscall(SYS_exit_group, 5);
        if (!strcmp(how, "execl")) execl("/bin/true", "true", (char *)NULL);
        if (!strcmp(how, "SIGUSR1")) raise(SIGUSR1);
        if (!strcmp(how, "SIGALRM")) {
            alarm(1);
            for (;;) /* computing when the alarm rings */
                ;
        }
        if (!strcmp(how, "abort256")) MPI_Abort(MPI_COMM_WORLD, 256);
        if (!strcmp(how, "chdir")) chdir("/");
    }
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d after\n", rank);
    MPI_Finalize();
    return 0;
}
