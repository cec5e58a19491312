/* SPDX-License-Identifier: BSD-3-Clause */
/* A child that rank 0 forks calls MPI (issue 45): the child is an ordinary
 * process, not a rank, and must end with a clear message and status 4
 * (it crashed silently, or was reported as a collective mismatch). The
 * ranks themselves go on: rank 0 prints the child's exit status. */
#include <mpi.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        pid_t p = fork();
        if (p == 0) {
            MPI_Barrier(MPI_COMM_WORLD);
            _exit(0);
        }
        int st = 0;
        waitpid(p, &st, 0);
        printf("child exit status %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
