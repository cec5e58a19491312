/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 1
 * Subarrays and distributed arrays select the elements MPI-3.1 4.1.3-4.1.4
 * says, and MPI_Type_get_envelope / MPI_Type_get_contents return how a
 * type was built; MPI-1's MPI_LB / MPI_UB markers and resized types set
 * bounds that win over the data's (MPI-3.1 4.1.7). The array below holds
 * its own index, so the packed values are the indices of the chosen
 * elements. */
#include <mpi.h>
#include <stdio.h>

#include "check.h"

static void expect_indices(MPI_Datatype t, const int *want, int n, int *errs, int check_rank) {
    int a[64], packed[64], pos = 0, size;
    for (int i = 0; i < 64; i++)
        a[i] = i;
    MPI_Type_size(t, &size);
    EXPECT(size == n * (int)sizeof(int));
    MPI_Pack(a, 1, t, packed, sizeof packed, &pos, MPI_COMM_SELF);
    for (int i = 0; i < n; i++)
        EXPECT(packed[i] == want[i]);
}

static void subarrays(int *errs, int check_rank) {
    /* 4 x 6 array, C order: rows 1-2, columns 2-4 */
    int sizes[2] = {4, 6}, sub[2] = {2, 3}, starts[2] = {1, 2};
    MPI_Datatype t;
    MPI_Type_create_subarray(2, sizes, sub, starts, MPI_ORDER_C, MPI_INT, &t);
    MPI_Type_commit(&t);
    int want_c[6] = {8, 9, 10, 14, 15, 16};
    expect_indices(t, want_c, 6, errs, check_rank);
    MPI_Aint lb, extent;
    MPI_Type_get_extent(t, &lb, &extent);
    EXPECT(lb == 0 && extent == 24 * (MPI_Aint)sizeof(int));
    MPI_Type_free(&t);
    /* Fortran order: dimension 0 varies fastest (4 of them per column) */
    MPI_Type_create_subarray(2, sizes, sub, starts, MPI_ORDER_FORTRAN, MPI_INT, &t);
    MPI_Type_commit(&t);
    int want_f[6] = {9, 10, 13, 14, 17, 18}; /* (i, j) at i + 4 j, i in 1..2, j in 2..4 */
    expect_indices(t, want_f, 6, errs, check_rank);
    MPI_Type_free(&t);
}

static void darrays(int *errs, int check_rank) {
    /* 4 x 4 array in blocks on a 2 x 2 process grid: rank 3 is at (1, 1) */
    int g[2] = {4, 4}, block[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_BLOCK};
    int dflt[2] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG}, p[2] = {2, 2};
    MPI_Datatype t;
    MPI_Type_create_darray(4, 3, 2, g, block, dflt, p, MPI_ORDER_C, MPI_INT, &t);
    MPI_Type_commit(&t);
    int want_block[4] = {10, 11, 14, 15};
    expect_indices(t, want_block, 4, errs, check_rank);
    MPI_Type_free(&t);
    /* 10 elements, cyclic by 2 over 3 processes: rank 1 has 2, 3, 8, 9 */
    int n = 10, cyc = MPI_DISTRIBUTE_CYCLIC, two = 2, three = 3;
    MPI_Type_create_darray(3, 1, 1, &n, &cyc, &two, &three, MPI_ORDER_C, MPI_INT, &t);
    MPI_Type_commit(&t);
    int want_cyclic[4] = {2, 3, 8, 9};
    expect_indices(t, want_cyclic, 4, errs, check_rank);
    MPI_Type_free(&t);
}

static void envelopes(int *errs, int check_rank) {
    int ni, na, nt, combiner;
    MPI_Type_get_envelope(MPI_DOUBLE, &ni, &na, &nt, &combiner);
    EXPECT(combiner == MPI_COMBINER_NAMED && ni == 0 && na == 0 && nt == 0);
    MPI_Datatype vec, st;
    MPI_Type_vector(3, 2, 5, MPI_DOUBLE, &vec);
    int lens[2] = {1, 4};
    MPI_Aint displs[2] = {0, 16};
    MPI_Datatype types[2] = {MPI_INT, vec};
    MPI_Type_create_struct(2, lens, displs, types, &st);
    MPI_Type_get_envelope(st, &ni, &na, &nt, &combiner);
    EXPECT(combiner == MPI_COMBINER_STRUCT && ni == 3 && na == 2 && nt == 2);
    int ints[3];
    MPI_Aint aints[2];
    MPI_Datatype got[2];
    MPI_Type_get_contents(st, 3, 2, 2, ints, aints, got);
    EXPECT(ints[0] == 2 && ints[1] == 1 && ints[2] == 4 && aints[1] == 16 && got[0] == MPI_INT);
    MPI_Type_get_envelope(got[1], &ni, &na, &nt, &combiner); /* a new handle, still a vector */
    EXPECT(combiner == MPI_COMBINER_VECTOR && ni == 3 && nt == 1);
    MPI_Type_get_contents(got[1], 3, 0, 1, ints, aints, types);
    EXPECT(ints[0] == 3 && ints[1] == 2 && ints[2] == 5 && types[0] == MPI_DOUBLE);
    MPI_Type_free(&got[1]);
    MPI_Type_free(&st);
    MPI_Type_free(&vec);
}

static void bound_markers(int *errs, int check_rank) {
    /* lb marker at -4, ints at 0 and 8, ub marker at 20 */
    int lens[4] = {1, 1, 1, 1};
    MPI_Aint displs[4] = {-4, 0, 8, 20}, lb, ub, extent;
    MPI_Datatype types[4] = {MPI_LB, MPI_INT, MPI_INT, MPI_UB}, t, outer;
    MPI_Type_struct(4, lens, displs, types, &t);
    int size;
    MPI_Type_size(t, &size);
    MPI_Type_lb(t, &lb);
    MPI_Type_ub(t, &ub);
    MPI_Type_extent(t, &extent);
    EXPECT(size == 8 && lb == -4 && ub == 20 && extent == 24);
    /* the markers stick: a struct of it and an int beyond keeps ub 100 + 20 */
    MPI_Datatype two[2] = {t, MPI_INT};
    MPI_Aint at[2] = {100, 200};
    int ones[2] = {1, 1};
    MPI_Type_create_struct(2, ones, at, two, &outer);
    MPI_Type_lb(outer, &lb);
    MPI_Type_ub(outer, &ub);
    EXPECT(lb == 96 && ub == 120);
    int ni, na, nt, combiner;
    MPI_Type_get_envelope(t, &ni, &na, &nt, &combiner);
    EXPECT(combiner == MPI_COMBINER_STRUCT_INTEGER && nt == 4);
    MPI_Type_free(&outer);
    MPI_Type_free(&t);
}

/* Fortran's parameterized types: the predefined type of a precision or
 * size (gfortran's kinds: 4-byte REAL has 6 digits, 8-byte 15). */
static void parameterized(int *errs, int check_rank) {
    MPI_Datatype t = MPI_DATATYPE_NULL;
    MPI_Type_create_f90_real(15, MPI_UNDEFINED, &t);
    EXPECT(t == MPI_REAL8);
    MPI_Type_create_f90_real(6, 30, &t);
    EXPECT(t == MPI_REAL4);
    MPI_Type_create_f90_complex(10, MPI_UNDEFINED, &t);
    EXPECT(t == MPI_COMPLEX16);
    MPI_Type_create_f90_integer(9, &t);
    EXPECT(t == MPI_INTEGER4);
    MPI_Type_create_f90_integer(10, &t);
    EXPECT(t == MPI_INTEGER8);
    MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, &t);
    EXPECT(t == MPI_REAL8);
    MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 2, &t);
    EXPECT(t == MPI_INTEGER2);
}

/* external32 packing: big-endian bytes, back again; MPI_LONG (4 bytes in
 * external32, 8 here) is refused rather than converted wrongly. */
static void external32(int *errs, int check_rank) {
    int v[2] = {0x01020304, -2}, back[2] = {0, 0};
    unsigned char buf[8];
    MPI_Aint size, pos = 0;
    MPI_Pack_external_size("external32", 2, MPI_INT, &size);
    EXPECT(size == 8);
    MPI_Pack_external("external32", v, 2, MPI_INT, buf, sizeof buf, &pos);
    EXPECT(pos == 8 && buf[0] == 1 && buf[1] == 2 && buf[2] == 3 && buf[3] == 4 && buf[4] == 0xff);
    pos = 0;
    MPI_Unpack_external("external32", buf, sizeof buf, &pos, back, 2, MPI_INT);
    EXPECT(back[0] == v[0] && back[1] == v[1]);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    long l = 1;
    pos = 0;
    EXPECT(MPI_Pack_external("external32", &l, 1, MPI_LONG, buf, sizeof buf, &pos) ==
           MPI_ERR_UNSUPPORTED_DATAREP);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv) {
    int errs = 0;
    MPI_Init(&argc, &argv);
    subarrays(&errs, 0);
    darrays(&errs, 0);
    envelopes(&errs, 0);
    bound_markers(&errs, 0);
    parameterized(&errs, 0);
    external32(&errs, 0);
    if (errs == 0) printf("No Errors\n");
    MPI_Finalize();
    return 0;
}
