/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 3 json: ok
 * A simpicc-built program started by a rank (as configure scripts and
 * drivers do) is an ordinary one-rank run: it does not inherit this run's
 * settings, prints no simulation summary and writes no JSON. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    int me, size, errors = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1 && !strcmp(argv[1], "child")) {
        printf("child: %d rank\n", size);
        MPI_Finalize();
        return 0;
    }
    if (me == 0) {
        char cmd[4096], out[4096] = "";
        snprintf(cmd, sizeof cmd, "'%s' child 2>&1", argv[0]);
        FILE *p = popen(cmd, "r");
        size_t got = p ? fread(out, 1, sizeof out - 1, p) : 0;
        out[got] = '\0';
        if (!p || pclose(p) != 0 || strcmp(out, "child: 1 rank\n") != 0)
            errors++, printf("the nested run printed:\n%s", out);
    }
    int all;
    MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0) printf(all ? "Found %d errors\n" : "No Errors\n", all);
    MPI_Finalize();
    return 0;
}
