/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 3
 * MPI-3.1 names simpi added for the MPICH suite: the Fortran and complex
 * datatypes (sizes, names, reductions), MPI_Group_range_excl, the
 * MPI_LASTUSEDCODE attribute, MPI_INFO_ENV and the new error classes. */
#include <complex.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int me, errors; /* globals: simpi gives each rank its own */
#define errs (&errors) /* what check.h's EXPECT counts in */
#define check_rank me
#include "check.h"

static void size_and_name(MPI_Datatype t, int size, const char *name) {
    int s, len;
    char got[MPI_MAX_OBJECT_NAME];
    MPI_Type_size(t, &s);
    MPI_Type_get_name(t, got, &len);
    EXPECT(s == size);
    EXPECT(strcmp(got, name) == 0);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    size_and_name(MPI_INTEGER, 4, "MPI_INTEGER");
    size_and_name(MPI_DOUBLE_PRECISION, 8, "MPI_DOUBLE_PRECISION");
    size_and_name(MPI_DOUBLE_COMPLEX, 16, "MPI_DOUBLE_COMPLEX");
    size_and_name(MPI_LOGICAL, 4, "MPI_LOGICAL");
    size_and_name(MPI_INTEGER16, 16, "MPI_INTEGER16");
    size_and_name(MPI_LOGICAL8, 8, "MPI_LOGICAL8");
    size_and_name(MPI_2DOUBLE_COMPLEX, 32, "MPI_2DOUBLE_COMPLEX");
    size_and_name(MPI_LONG_LONG, (int)sizeof(long long), "MPI_LONG_LONG");
    size_and_name(MPI_UB, 0, "MPI_UB");
    size_and_name(MPI_C_LONG_DOUBLE_COMPLEX, (int)sizeof(long double complex),
                  "MPI_C_LONG_DOUBLE_COMPLEX");

    int i = me + 1, isum = 0;
    MPI_Allreduce(&i, &isum, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD);
    EXPECT(isum == 6);
    double d = me + 0.5, dmax = 0;
    MPI_Allreduce(&d, &dmax, 1, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD);
    EXPECT(dmax == 2.5);
    double complex z = me + 1.0 * I, zsum = 0;
    MPI_Allreduce(&z, &zsum, 1, MPI_DOUBLE_COMPLEX, MPI_SUM, MPI_COMM_WORLD);
    EXPECT(creal(zsum) == 3.0 && cimag(zsum) == 3.0);
    int l = me != 1, land = -1; /* Fortran .true. is 1 */
    MPI_Allreduce(&l, &land, 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD);
    EXPECT(land == 0);
    float pair[2] = {(float)(10 - me), (float)me}, best[2];
    MPI_Allreduce(pair, best, 1, MPI_2REAL, MPI_MAXLOC, MPI_COMM_WORLD);
    EXPECT(best[0] == 10.0f && best[1] == 0.0f);

    MPI_Group world, rest;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int ranges[1][3] = {{0, 2, 2}}; /* drops ranks 0 and 2 */
    MPI_Group_range_excl(world, 1, ranges, &rest);
    int n, r;
    MPI_Group_size(rest, &n);
    MPI_Group_rank(rest, &r);
    EXPECT(n == 1 && r == (me == 1 ? 0 : MPI_UNDEFINED));
    MPI_Group_free(&rest);
    MPI_Group_free(&world);

    int *last, flag;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag);
    EXPECT(flag && *last == MPI_ERR_LASTCODE);
    int nkeys = -1;
    MPI_Info_get_nkeys(MPI_INFO_ENV, &nkeys);
    EXPECT(nkeys == 0);
    char text[MPI_MAX_ERROR_STRING];
    int len;
    MPI_Error_string(MPI_ERR_WIN, text, &len);
    EXPECT(strcmp(text, "invalid window") == 0);

    int total;
    MPI_Allreduce(&errors, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0 && total == 0) printf("No Errors\n");
    MPI_Finalize();
    return 0;
}
