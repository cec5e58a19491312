/* SPDX-License-Identifier: BSD-3-Clause */
/* malloc, calloc, realloc and strdup that end simpi with a message when
 * memory runs out (core/error.h's err_fatal), for every file that wants
 * memory without the object pools (core/pool.h). */
#ifndef SIMPI_ALLOC_H
#define SIMPI_ALLOC_H

#include <stddef.h>

/* xcalloc prefaults blocks of several MiB (per-rank arrays of large runs,
 * which are all touched) in one system call instead of a fault per page. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc_or_die(void *p, size_t n);
/* Memory of n bytes (a multiple of align, a power of two) at an align
 * boundary, holding the first `keep` bytes of p (aligned memory of this
 * function's, or NULL), which it frees; exits when memory runs out. */
void *xrealloc_aligned(void *p, size_t keep, size_t n, size_t align);
/* Appends n bytes at p to a growing buffer (*data, *len of *cap bytes). */
void bytes_append(char **data, size_t *len, size_t *cap, const void *p, size_t n);
char *xstrdup(const char *s);
/* The whole pages of [p, p+n) mapped writable now when n is large (and
 * backed by huge pages when very large); returns p. */
void *alloc_prefault(void *p, size_t n);

#endif
