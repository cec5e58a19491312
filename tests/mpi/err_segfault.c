/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 3 exit: 139 expect: rank 2 crashed (Segmentation fault
 * A rank that writes to read-only memory is reported with its rank. */
#include <mpi.h>
#include <sys/mman.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 2) {
        volatile int *page = mmap(0, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        page[0] = 1;
    }
    MPI_Finalize();
    return 0;
}
