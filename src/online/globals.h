/* Detection of the program's writable global variables (see globals.c). */
#ifndef SIMPI_GLOBALS_H
#define SIMPI_GLOBALS_H

#include <stdbool.h>
#include <stdint.h>

#define GLOBALS_NAMED 5

struct globals_info {
    int count;
    int64_t bytes;
    char names[GLOBALS_NAMED][64];
};

/* The program's writable globals, from its symbol table (none found if the
 * executable is stripped). */
struct globals_info globals_scan(void);

#endif
