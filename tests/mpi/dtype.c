/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 3
 * Derived datatypes: a matrix column as a vector, an array of C structs as a
 * struct type (with the alignment padding of its extent), indexed and
 * resized types, Pack/Unpack, extents, Get_elements, and derived types in
 * Bcast and Allreduce. Prints "No Errors" when all checks pass. */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>

#include "check.h"
#define check_rank rank

struct particle {
    double x;
    int id;
    char tag;
};

int main(int argc, char **argv) {
    int rank, errors = 0, *errs = &errors;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    /* column 2 of a 4 x 5 matrix */
    MPI_Datatype column;
    MPI_Type_vector(4, 1, 5, MPI_INT, &column);
    MPI_Type_commit(&column);
    int m[4][5], col[4] = {0};
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 5; j++)
            m[i][j] = 10 * i + j;
    if (rank == 0) MPI_Send(&m[0][2], 1, column, 1, 0, MPI_COMM_WORLD);
    if (rank == 1) {
        MPI_Status st;
        MPI_Recv(col, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, &st);
        for (int i = 0; i < 4; i++)
            EXPECT(col[i] == 10 * i + 2);
        int n;
        MPI_Get_elements(&st, column, &n);
        EXPECT(n == 4);
    }
    /* and back into a column of another matrix */
    int m2[4][5] = {{0}};
    if (rank == 1) MPI_Send(col, 4, MPI_INT, 0, 1, MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Recv(&m2[0][3], 1, column, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int i = 0; i < 4; i++)
            EXPECT(m2[i][3] == 10 * i + 2 && m2[i][2] == 0);
    }
    MPI_Aint lb, extent;
    MPI_Type_get_extent(column, &lb, &extent);
    EXPECT(lb == 0 && extent == (3 * 5 + 1) * (MPI_Aint)sizeof(int));

    /* an array of structs */
    MPI_Datatype ptype;
    int lens[3] = {1, 1, 1};
    MPI_Aint displs[3] = {offsetof(struct particle, x), offsetof(struct particle, id),
                          offsetof(struct particle, tag)};
    MPI_Datatype types[3] = {MPI_DOUBLE, MPI_INT, MPI_CHAR};
    MPI_Type_create_struct(3, lens, displs, types, &ptype);
    MPI_Type_commit(&ptype);
    MPI_Type_get_extent(ptype, &lb, &extent);
    EXPECT(extent == (MPI_Aint)sizeof(struct particle));
    int size;
    MPI_Type_size(ptype, &size);
    EXPECT(size == 8 + 4 + 1);
    struct particle ps[3];
    for (int i = 0; i < 3; i++)
        ps[i] = (struct particle){rank == 2 ? 1.5 * i : -1, rank == 2 ? i : -1,
                                  rank == 2 ? (char)('a' + i) : 0};
    MPI_Bcast(ps, 3, ptype, 2, MPI_COMM_WORLD);
    for (int i = 0; i < 3; i++)
        EXPECT(ps[i].x == 1.5 * i && ps[i].id == i && ps[i].tag == 'a' + i);

    /* indexed: elements 1, 2 and 5 */
    MPI_Datatype idx;
    int ilens[2] = {2, 1}, idisp[2] = {1, 5};
    MPI_Type_indexed(2, ilens, idisp, MPI_DOUBLE, &idx);
    MPI_Type_commit(&idx);
    double src[6] = {0, 1, 2, 3, 4, 5}, packed[3];
    int pos = 0;
    MPI_Pack(src, 1, idx, packed, sizeof packed, &pos, MPI_COMM_WORLD);
    EXPECT(pos == 24 && packed[0] == 1 && packed[1] == 2 && packed[2] == 5);
    double dst[6] = {0};
    pos = 0;
    MPI_Unpack(packed, sizeof packed, &pos, dst, 1, idx, MPI_COMM_WORLD);
    EXPECT(dst[1] == 1 && dst[2] == 2 && dst[5] == 5 && dst[3] == 0);
    MPI_Type_get_true_extent(idx, &lb, &extent);
    EXPECT(lb == 8 && extent == 40);

    /* a pair of doubles as one element, in a reduction */
    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_DOUBLE, &pair);
    MPI_Type_commit(&pair);
    double v[4] = {rank, 1, 2 * rank, 1}, sum[4];
    MPI_Allreduce(v, sum, 2, pair, MPI_SUM, MPI_COMM_WORLD);
    EXPECT(sum[0] == 3 && sum[1] == 3 && sum[2] == 6 && sum[3] == 3);

    /* resized: every other int */
    MPI_Datatype every_other;
    MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &every_other);
    MPI_Type_commit(&every_other);
    int spaced[6] = {rank, -1, rank, -1, rank, -1};
    MPI_Bcast(spaced, 3, every_other, 0, MPI_COMM_WORLD);
    EXPECT(spaced[0] == 0 && spaced[2] == 0 && spaced[4] == 0 && spaced[1] == -1);

    MPI_Datatype copy;
    MPI_Type_dup(column, &copy);
    MPI_Type_size(copy, &size);
    EXPECT(size == 16);
    MPI_Type_free(&copy);
    EXPECT(copy == MPI_DATATYPE_NULL);
    MPI_Type_free(&column);
    MPI_Type_free(&ptype);
    MPI_Type_free(&idx);
    MPI_Type_free(&pair);
    MPI_Type_free(&every_other);

    int all;
    MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf(all ? "Found %d errors\n" : "No Errors\n", all);
    MPI_Finalize();
    return 0;
}
