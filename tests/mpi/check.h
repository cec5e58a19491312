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

#endif
