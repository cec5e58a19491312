/* SPDX-License-Identifier: BSD-3-Clause */
/* An MPI-IO program for the tracer (tests/interop/run-tracer), valid under
 * any MPI: 4 ranks write 1000 bytes each collectively at their offsets,
 * then read their neighbour's block at its offset independently; checks
 * the data and prints "mpi_io_app ok". */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    int rank, size, bad = 0, all;
    char out[1000], in[1000];
    MPI_File fh;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    memset(out, 'a' + rank, sizeof out);
    MPI_File_open(MPI_COMM_WORLD, argc > 1 ? argv[1] : "mpi_io_app.dat",
                  MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    MPI_File_write_at_all(fh, (MPI_Offset)rank * 1000, out, 1000, MPI_CHAR, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    int next = (rank + 1) % size;
    MPI_File_read_at(fh, (MPI_Offset)next * 1000, in, 1000, MPI_CHAR, MPI_STATUS_IGNORE);
    for (int i = 0; i < 1000; i++)
        bad += in[i] != 'a' + next;
    MPI_File_close(&fh);
    MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && all == 0) printf("mpi_io_app ok\n");
    MPI_Finalize();
    return 0;
}
