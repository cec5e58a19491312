/* SPDX-License-Identifier: BSD-3-Clause */
/* Memory from the C library that ends simpi with a message when it runs
 * out (alloc.h), large blocks prefaulted. */
#include "core/alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/error.h"

/* Blocks at least this large are prefaulted in one system call. */
#define PREFAULT_BYTES ((size_t)1 << 20)
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14; older C libraries lack the name */
#endif
/* Arrays at least this large (per-rank state of millions of ranks, read in
 * the scattered order of collective partners) are backed by 2 MiB pages:
 * with 4 KiB pages nearly every access to a far partner missed the TLB.
 * Smaller arrays keep 4 KiB pages (huge pages everywhere slowed the
 * 65,536-rank stencil by about 15%). */
#define HUGE_BYTES ((size_t)64 << 20)

static void oom(void) {
    err_fatal("out of memory");
}

/* Maps the whole pages inside [p, p+n) writable at once, before first use:
 * on paravirtualized kernels each page fault costs several microseconds, and
 * a run of a million ranks touches a hundred thousand pages of per-rank
 * arrays and request chunks (2^20-rank replay: 1.1-1.9 s of system time
 * became 0.3 s). Only for memory about to be used; failure (kernels before
 * 5.14) changes nothing. */
void *alloc_prefault(void *p, size_t n) {
    if (n >= HUGE_BYTES) { /* see HUGE_BYTES */
        uintptr_t huge = (uintptr_t)2 << 20, lo = ((uintptr_t)p + huge - 1) & ~(huge - 1);
        uintptr_t hi = ((uintptr_t)p + n) & ~(huge - 1);
        if (hi > lo) (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
    }
    if (n >= PREFAULT_BYTES) {
        uintptr_t page = 4096, lo = ((uintptr_t)p + page - 1) & ~(page - 1);
        uintptr_t hi = ((uintptr_t)p + n) & ~(page - 1);
        if (hi > lo) (void)madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
    }
    return p;
}

void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) oom();
    return p;
}

void *xcalloc(size_t n, size_t size) {
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) oom();
    return alloc_prefault(p, n * size);
}

void *xrealloc_or_die(void *p, size_t n) {
    void *q = realloc(p, n ? n : 1);
    if (!q) oom();
    return q;
}

void *xrealloc_aligned(void *p, size_t keep, size_t n, size_t align) {
    void *q = aligned_alloc(align, n);
    if (!q) oom();
    if (p && keep) memcpy(q, p, keep);
    free(p);
    return q;
}

char *xstrdup(const char *s) {
    char *d = strdup(s);
    if (!d) oom();
    return d;
}

void bytes_append(char **data, size_t *len, size_t *cap, const void *p, size_t n) {
    if (n == 0) return;
    if (*len + n > *cap) {
        *cap = *cap * 2 > *len + n ? *cap * 2 : *len + n + 4096;
        *data = xrealloc_or_die(*data, *cap);
    }
    memcpy(*data + *len, p, n);
    *len += n;
}
