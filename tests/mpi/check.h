/* SPDX-License-Identifier: BSD-3-Clause */
/* The check macro of the MPI test programs: EXPECT(cond) counts a failure in
 * *errs and prints the rank (variable check_rank) and line. Both variables
 * are locals of the program: globals would be shared by all simulated ranks. */
#ifndef SIMPI_TEST_CHECK_H
#define SIMPI_TEST_CHECK_H

#include <stdio.h>

#define EXPECT(c)                                                                                  \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            (*errs)++;                                                                             \
            printf("rank %d: line %d: %s\n", check_rank, __LINE__, #c);                            \
        }                                                                                          \
    } while (0)

/* The rank's virtual time, counted from t0 (MPI_Wtime seconds), is t_us
 * microseconds, within a picosecond; prints both otherwise. */
#define EXPECT_AT_US(t0, t_us)                                                                     \
    do {                                                                                           \
        double now_us_ = (MPI_Wtime() - (t0)) * 1e6;                                               \
        EXPECT(fabs(now_us_ - (t_us)) < 1e-6);                                                     \
        if (fabs(now_us_ - (t_us)) >= 1e-6)                                                        \
            printf("  at %.6f us, expected %.6f\n", now_us_, (double)(t_us));                      \
    } while (0)

#endif
