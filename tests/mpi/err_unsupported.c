/* ranks: 2 exit: 5 expect: MPI_Win_fence is not supported by simpi yet
 * A program that uses a function simpi lacks compiles and links, and the run
 * stops with the function's name when it is called. */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win win = 0;
    if (rank == 1) MPI_Win_fence(0, win);
    MPI_Finalize();
    return 0;
}
