/* Bandwidth of one pair of ranks of one node copying 16 MiB messages, then
 * of two pairs at once (bench/intra-copies): whether simultaneous copies
 * inside a node share one memory bandwidth (docs/network.md). Built with
 * mpicc and run under Open MPI (shared memory transport). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    size_t S = 16 << 20;
    int iters = 40;
    char *buf = malloc(S);
    for (size_t i = 0; i < S; i++)
        buf[i] = (char)i;
    int active = atoi(argv[1]); /* pairs active: 1 or 2 */
    int pair = rank / 2;
    for (int rep = 0; rep < 2; rep++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        if (pair < active) {
            for (int i = 0; i < iters; i++) {
                if (rank % 2 == 0)
                    MPI_Send(buf, (int)S, MPI_BYTE, rank + 1, 0, MPI_COMM_WORLD);
                else
                    MPI_Recv(buf, (int)S, MPI_BYTE, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            }
        }
        double t = MPI_Wtime() - t0;
        if (rank % 2 == 1 && pair < active && rep == 1)
            printf("pairs %d: pair %d: %.2f GB/s\n", active, pair, (double)S * iters / t / 1e9);
    }
    MPI_Finalize();
}
