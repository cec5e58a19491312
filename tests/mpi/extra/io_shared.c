/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI-IO through the shared file pointer from every rank at once: writes
 * of each rank's mark through MPI_File_write_shared (the order they reach
 * the pointer's keeper decides where each lands), ordered writes, a shared
 * seek and a shared position, then rank 0 prints the whole file. A split
 * run (tests/parallel/run-parallel-online) must print what one process
 * prints, byte for byte. */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv) {
    int rank, n;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_File fh;
    MPI_File_open(MPI_COMM_WORLD, "io_shared.out",
                  MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh);
    char mark[2] = {(char)('a' + rank), (char)('A' + rank)};
    for (int i = 0; i < 3; i++) {
        usleep((unsigned)(7 * ((rank * 5 + i) % 4))); /* each rank at its own pace */
        MPI_File_write_shared(fh, mark, 1 + (rank + i) % 2, MPI_CHAR, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    char digit = (char)('0' + rank % 10);
    MPI_File_write_ordered(fh, &digit, 1, MPI_CHAR, MPI_STATUS_IGNORE);
    MPI_Offset where;
    MPI_File_get_position_shared(fh, &where);
    MPI_File_seek_shared(fh, 0, MPI_SEEK_END);
    MPI_File_write_ordered(fh, "|", 1, MPI_CHAR, MPI_STATUS_IGNORE);
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        char all[256] = {0};
        MPI_Status st;
        MPI_File_read_at(fh, 0, all, sizeof all - 1, MPI_CHAR, &st);
        int got;
        MPI_Get_count(&st, MPI_CHAR, &got);
        printf("file (%d bytes): %s\nposition seen by rank 0: %lld\n", got, all, (long long)where);
    }
    MPI_File_close(&fh);
    if (rank == 0) printf("No Errors\n");
    MPI_Finalize();
    return 0;
}
