/* Per-rank images of the program: the executable mapped again, once per
 * rank, at an address of its own (see images.c). */
#ifndef SIMPI_IMAGES_H
#define SIMPI_IMAGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A range of the program's data that every image shares with the program
 * itself (the pages of the variables libraries reach through copy
 * relocations: stdout, optind, std::cout): the caller keeps one copy of
 * it per rank and swaps it in around each switch (privatize.c). */
struct images_shared {
    char *addr; /* in the program as loaded */
    size_t len;
};

/* Whether images can be made for n ranks; if not, why (for the summary). */
bool images_possible(int32_t n, char *why, size_t len);

/* Maps an image for each rank r with wanted[r] (the program itself serves
 * the others), relocates it and runs its constructors. *shared receives the
 * shared range (len 0 if none); the images' own copies of it, as their
 * constructors left them, are copied to copies + r * shared->len (a buffer
 * of n x shared->len bytes the caller allocated from images_shared_range).
 * On failure nothing is left mapped that a rank would use; why says what
 * failed. */
bool images_shared_range(struct images_shared *shared);
bool images_load(int32_t n, const bool *wanted, char *copies, int argc, char **argv, char *why,
                 size_t len);

/* After images_load: the images' shared pages become one memory with the
 * program's (until images_unshare, at the end of the run, gives each image
 * back its own pages holding copies + r * len, for its destructors). */
bool images_share(char *why, size_t len);
void images_unshare(const char *copies);

/* The address in rank's image of an address in the program (a function
 * such as main, a variable); the address itself for a rank without one. */
void *images_in_rank(int32_t rank, const void *addr);
/* The program's address for an address inside any image (the identity
 * elsewhere): tells the Fortran sentinels of every image apart. */
const void *images_home(const void *addr);
/* Whether a rank runs in an image of its own. */
bool images_active(void);
/* Memory mappings each image uses (for the summary). */
int images_maps_each(void);
/* Copies whole pages of the program's data (its sanitizer's redzones too). */
void images_copy_pages(void *dst, const void *src, size_t n);
/* Nonzero while an image's constructors run (boot.c's returns then). */
int simpi_image_loading(void);

#endif
