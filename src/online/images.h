/* SPDX-License-Identifier: BSD-3-Clause */
/* Per-rank images of the program: the executable mapped again, once per
 * rank, at an address of its own (see images.c). */
#ifndef SIMPI_IMAGES_H
#define SIMPI_IMAGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Whether images can be made for n ranks; if not, why (for the summary). */
bool images_possible(int32_t n, char *why, size_t len);

/* Maps an image for each rank r with wanted[r], relocates it and runs its
 * constructors (argc, argv as the program's got). False, saying why, when
 * they cannot all be mapped: then none is kept and nothing ran. */
bool images_load(int32_t n, const bool *wanted, int argc, char **argv, char *why, size_t len);
/* Before switching to a rank: the program's pages of the C library's
 * variables become its image's. */
void images_enter(int32_t rank);
/* After the run: the program's own again (for its destructors at exit;
 * each image keeps its own, for its own). */
void images_end(void);

/* The address in rank's image of an address in the program (a function
 * such as main, a variable); the address itself for a rank without one. */
void *images_in_rank(int32_t rank, const void *addr);
/* The program's address for an address inside any image (the identity
 * elsewhere): tells the Fortran sentinels of every image apart. */
const void *images_home(const void *addr);
/* Nonzero while an image's constructors run (boot.c's returns then). */
int simpi_image_loading(void);

#endif
