/* SPDX-License-Identifier: BSD-3-Clause */
/* Detection of the program's writable global variables (see globals.c). */
#ifndef SIMPI_GLOBALS_H
#define SIMPI_GLOBALS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GLOBALS_NAMED 5

struct globals_info {
    bool stripped; /* no symbol table: the globals cannot be listed */
    int count;
    int64_t bytes;
    char names[GLOBALS_NAMED][64];
};

/* One variable: its address in this process and its size. */
struct global_range {
    char *addr;
    size_t len;
};

/* The program's writable globals, from its symbol table (none found if the
 * executable is stripped). With ranges != NULL, also returns (malloc'd) the
 * address ranges of every variable to privatize (the program's, and the
 * linker's copies of C library variables such as optind), sorted and
 * merged, in *ranges / *nranges. */
struct globals_info globals_scan(struct global_range **ranges, int *nranges);
/* The program's main is in a library (path, loaded at base), not in the
 * executable: its globals are scanned too. */
void globals_add_library(const char *path, uintptr_t base);
/* Finds the object that holds main (a library, then added as above). */
void globals_locate_main(const void *main_fn);
/* That library, or NULL. */
const char *globals_library(void);

#endif
