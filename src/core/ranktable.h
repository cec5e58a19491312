/* SPDX-License-Identifier: BSD-3-Clause */
/* Tables indexed by rank over the whole run, of which a worker of a split
 * run touches only its own ranks' entries: large ones are mapped without
 * reserving memory, so that an untouched page of other workers' ranks
 * costs nothing, and their resident part can be measured (docs/parallel.md,
 * "Memory per worker"). */
#ifndef SIMPI_RANKTABLE_H
#define SIMPI_RANKTABLE_H

#include <stddef.h>

/* count entries of size bytes, zeroed; dies when memory runs out. */
void *ranktable_alloc(size_t count, size_t size);
void ranktable_free(void *table, size_t count, size_t size);
/* Bytes of the table that are resident (pages touched), or its size if
 * that cannot be known. */
size_t ranktable_resident(const void *table, size_t count, size_t size);
/* The same over every live table of this process. */
size_t ranktable_resident_all(void);

#endif
