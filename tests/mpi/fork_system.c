/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 2
 * A rank may fork() and run commands like a process: a forked child ends
 * quietly with its own status (no simulation summary, no effect on the
 * run), and children started by system() do not inherit simpi's SIMPI_*
 * settings. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
    int me, errors = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) exit(7); /* the child's exit is the C library's */
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 7)
        errors++, printf("rank %d: forked child status %d\n", me, st);
    if (system("env | grep -q '^SIMPI_'") == 0)
        errors++, printf("rank %d: system() children see SIMPI_* variables\n", me);
    int all;
    MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0) printf(all ? "Found %d errors\n" : "No Errors\n", all);
    MPI_Finalize();
    return 0;
}
