/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 4
 * MPI-IO moves the right bytes: explicit offsets, an interleaved view with
 * individual pointers, the shared pointer in rank order, non-blocking
 * accesses with their counts, a short read at the end of the file, seeks,
 * external32 (big-endian on disk), error classes under the files' default
 * handler (MPI_ERRORS_RETURN), delete on close. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

#define NAME "io_test.dat"

static void explicit_offsets(MPI_File fh, int rank, int n, int *errs, int check_rank) {
    int mine[4] = {rank, rank + 10, rank + 20, rank + 30}, back[4] = {0};
    MPI_File_write_at_all(fh, (MPI_Offset)rank * sizeof mine, mine, 4, MPI_INT, MPI_STATUS_IGNORE);
    MPI_Offset size;
    MPI_File_get_size(fh, &size);
    EXPECT(size == (MPI_Offset)(n * sizeof mine));
    int right = (rank + 1) % n;
    MPI_Status st;
    MPI_File_read_at(fh, (MPI_Offset)right * sizeof back, back, 4, MPI_INT, &st);
    int count;
    MPI_Get_count(&st, MPI_INT, &count);
    EXPECT(count == 4 && back[0] == right && back[3] == right + 30);
    /* past the end: a short read */
    MPI_File_read_at(fh, size - 4, back, 4, MPI_INT, &st);
    MPI_Get_count(&st, MPI_BYTE, &count);
    EXPECT(count == 4);
}

static void interleaved_view(MPI_File fh, int rank, int n, int *errs, int check_rank) {
    /* each rank sees every n-th int of the file, from its rank on */
    MPI_Datatype every_nth;
    MPI_Type_create_resized(MPI_INT, 0, (MPI_Aint)(n * sizeof(int)), &every_nth);
    MPI_Type_commit(&every_nth);
    MPI_File_set_view(fh, (MPI_Offset)(rank * sizeof(int)), MPI_INT, every_nth, "native",
                      MPI_INFO_NULL);
    int vals[3] = {100 * rank, 100 * rank + 1, 100 * rank + 2};
    MPI_File_write_all(fh, vals, 3, MPI_INT, MPI_STATUS_IGNORE);
    MPI_Offset pos, byte;
    MPI_File_get_position(fh, &pos);
    EXPECT(pos == 3);
    MPI_File_get_byte_offset(fh, 1, &byte);
    EXPECT(byte == (MPI_Offset)((rank + n) * sizeof(int)));
    MPI_Type_free(&every_nth); /* the view keeps it */
    MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
    int all[3 * 64];
    MPI_File_read_at(fh, 0, all, 3 * n, MPI_INT, MPI_STATUS_IGNORE);
    for (int i = 0; i < 3 * n; i++)
        EXPECT(all[i] == 100 * (i % n) + i / n);
    MPI_File_seek(fh, -1, MPI_SEEK_END);
    MPI_File_get_position(fh, &pos);
    EXPECT(pos == 3 * n - 1);
}

static void shared_pointer(MPI_File fh, int rank, int n, int *errs, int check_rank) {
    MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
    int mine[2] = {rank, rank}; /* rank r writes r + 1 ints, in rank order */
    MPI_File_write_ordered(fh, mine, rank + 1 > 2 ? 2 : rank + 1, MPI_INT, MPI_STATUS_IGNORE);
    MPI_Offset shared;
    MPI_File_get_position_shared(fh, &shared);
    int expect_total = 0;
    for (int r = 0; r < n; r++)
        expect_total += r + 1 > 2 ? 2 : r + 1;
    EXPECT(shared == expect_total);
    int first[8];
    MPI_File_read_at(fh, 0, first, 3, MPI_INT, MPI_STATUS_IGNORE);
    EXPECT(first[0] == 0 && first[1] == 1 && first[2] == 1);
    MPI_File_seek_shared(fh, 0, MPI_SEEK_SET);
    int one = -1;
    MPI_File_read_ordered(fh, &one, 1, MPI_INT, MPI_STATUS_IGNORE);
    EXPECT(one == (rank == 0 ? 0 : rank == 1 ? 1 : rank == 2 ? 1 : 2));
}

static void nonblocking(MPI_File fh, int rank, int *errs, int check_rank) {
    double d = 1.5 * rank, e = 0;
    MPI_Request r;
    MPI_Status st;
    MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
    MPI_File_iwrite_at(fh, 1000 + 8 * rank, &d, 1, MPI_DOUBLE, &r);
    MPI_Wait(&r, &st);
    int count;
    MPI_Get_count(&st, MPI_DOUBLE, &count);
    EXPECT(count == 1);
    MPI_File_iread_at(fh, 1000 + 8 * rank, &e, 1, MPI_DOUBLE, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    EXPECT(e == 1.5 * rank);
}

static void external32(int rank, int *errs, int check_rank) {
    MPI_File fh;
    char name[32];
    snprintf(name, sizeof name, "io_e32_%d.dat", rank);
    MPI_File_open(MPI_COMM_SELF, name, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                  MPI_INFO_NULL, &fh);
    MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "external32", MPI_INFO_NULL);
    int v = 0x01020304, back = 0;
    MPI_File_write(fh, &v, 1, MPI_INT, MPI_STATUS_IGNORE);
    MPI_File_read_at(fh, 0, &back, 1, MPI_INT, MPI_STATUS_IGNORE);
    EXPECT(back == v);
    unsigned char raw[4];
    MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
    MPI_File_read_at(fh, 0, raw, 4, MPI_BYTE, MPI_STATUS_IGNORE);
    EXPECT(raw[0] == 1 && raw[1] == 2 && raw[2] == 3 && raw[3] == 4);
    MPI_File_close(&fh);
}

static void errors(int *errs, int check_rank) {
    MPI_File fh;
    int rc = MPI_File_open(MPI_COMM_WORLD, "io_no_such_file", MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    int cls;
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_NO_SUCH_FILE && fh == MPI_FILE_NULL);
    rc = MPI_File_open(MPI_COMM_WORLD, NAME, MPI_MODE_RDONLY | MPI_MODE_CREATE, MPI_INFO_NULL, &fh);
    EXPECT(rc == MPI_ERR_AMODE);
    MPI_File_open(MPI_COMM_WORLD, NAME, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    int x = 0;
    EXPECT(MPI_File_write_at(fh, 0, &x, 1, MPI_INT, MPI_STATUS_IGNORE) == MPI_ERR_READ_ONLY);
    EXPECT(MPI_File_seek(fh, -5, MPI_SEEK_SET) == MPI_ERR_ARG);
    int amode;
    MPI_File_get_amode(fh, &amode);
    EXPECT(amode == MPI_MODE_RDONLY);
    MPI_File_close(&fh);
}

int main(int argc, char **argv) {
    int rank, n, errs = 0, total;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_File fh;
    MPI_File_open(MPI_COMM_WORLD, NAME, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    MPI_File_set_size(fh, 0);
    explicit_offsets(fh, rank, n, &errs, rank);
    MPI_File_set_size(fh, 0);
    interleaved_view(fh, rank, n, &errs, rank);
    MPI_File_set_size(fh, 0);
    shared_pointer(fh, rank, n, &errs, rank);
    nonblocking(fh, rank, &errs, rank);
    MPI_File_close(&fh);
    external32(rank, &errs, rank);
    errors(&errs, rank);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) MPI_File_delete(NAME, MPI_INFO_NULL);
    MPI_Reduce(&errs, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && total == 0) printf("No Errors\n");
    MPI_Finalize();
    return 0;
}
