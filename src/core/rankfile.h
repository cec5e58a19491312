/* SPDX-License-Identifier: BSD-3-Clause */
/* Native per-rank trace files written piecewise (docs/trace-format.md):
 * DIR/rank<R>.trace, created with its header on the first append, then
 * appended to; no descriptor stays open between appends, so any number of
 * ranks can be written at once. Used by --trace-out and by the translation
 * of Dimemas traces. */
#ifndef SIMPI_RANKFILE_H
#define SIMPI_RANKFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Appends len bytes to dir/rank<rank>.trace, writing the header
 * ("simpi-trace 1", "ranks N") first when *started is false (and setting
 * it). False with errno set if the file could not be written. */
bool rankfile_append(const char *dir, int32_t rank, int32_t nranks, bool *started, const char *buf,
                     size_t len);
/* The file's path. */
void rankfile_path(const char *dir, int32_t rank, char *out, size_t n);
/* Removes dir/rank<R>.trace for R from first on: count files, or (count <
 * 0) until one is missing. unlink removes a link itself, never its target.
 * Called from signal handlers too (snprintf and unlink only). */
void rankfile_remove(const char *dir, int32_t first, int32_t count);

#endif
