/* SPDX-License-Identifier: BSD-3-Clause */
/* Whole input files read into memory (platform files), bounded: a file
 * larger than the limit (or an endless one, /dev/zero) is an error naming
 * it, never a machine out of memory; a folder or an unreadable file says
 * why. */
#ifndef SIMPI_READFILE_H
#define SIMPI_READFILE_H

#include <stddef.h>

#include "core/error.h"

/* The most a platform file may hold. */
#define READFILE_PLATFORM_LIMIT ((size_t)256 << 20)

/* Reads path (at most limit bytes) into a new buffer with a NUL after its
 * len bytes; what names the file in messages ("platform file"). NULL with
 * err set on failure. */
char *readfile(const char *path, size_t limit, size_t *len, const char *what,
               struct sim_error *err);

#endif
