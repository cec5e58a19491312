/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 2 exit: 134 expect: rank 0 aborted (SIGABRT: abort(), a failed assert() or an uncaught C++ exception) stdout: rank 1 is here json: error
 * An uncaught C++ exception on a rank (std::terminate, then SIGABRT). */
#include <mpi.h>

#include <cstdio>
#include <stdexcept>

int main(int argc, char **argv) {
    int me;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (me == 1) std::printf("rank 1 is here\n");
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0) throw std::runtime_error("no solution");
    MPI_Finalize();
    return 0;
}
