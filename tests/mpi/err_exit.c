/* ranks: 3 exit: 5 expect: rank 1 called exit(5) at virtual time
 * A rank calling exit() ends the process; simpi says which rank did. */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) exit(5);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
