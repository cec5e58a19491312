/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 3
 * C++ through simpicxx: a main without parameters and without return. */
#include <mpi.h>
#include <cstdio>
#include <vector>
int main() {
    MPI_Init(nullptr, nullptr);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    std::vector<int> v(size);
    MPI_Allgather(&rank, 1, MPI_INT, v.data(), 1, MPI_INT, MPI_COMM_WORLD);
    if (rank == 0) std::printf("%s\n", v[size - 1] == size - 1 ? "No Errors" : "wrong");
    MPI_Finalize();
}
