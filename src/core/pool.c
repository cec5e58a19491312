/* SPDX-License-Identifier: BSD-3-Clause */
/* Pool allocator implementation. */
#include "core/pool.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/error.h"
#include "core/prefetch.h"

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
/* A pool's chunks double in size up to this many bytes. */
#define MAX_CHUNK_BYTES ((size_t)2 << 20)

static void oom(void) {
    err_fatal("out of memory");
}

/* Maps the whole pages inside [p, p+n) writable at once, before first use:
 * on paravirtualized kernels each page fault costs several microseconds, and
 * a run of a million ranks touches a hundred thousand pages of per-rank
 * arrays and request chunks (2^20-rank replay: 1.1-1.9 s of system time
 * became 0.3 s). Only for memory about to be used; failure (kernels before
 * 5.14) changes nothing. */
static void *prefault(void *p, size_t n) {
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
    return prefault(p, n * size);
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

void pool_init(struct pool *p, size_t obj_size, size_t per_chunk) {
    memset(p, 0, sizeof *p);
    if (obj_size < sizeof(void *)) obj_size = sizeof(void *);
    p->obj_size = (obj_size + 7) & ~(size_t)7;
    p->per_chunk = per_chunk ? per_chunk : 256;
}

/* A new chunk, handed out from its start as objects are needed (its pages
 * are touched only when used); the next one will be twice as large. */
static void add_chunk(struct pool *p) {
    size_t bytes = p->obj_size * p->per_chunk;
    /* on a cache line's start: objects of 64 or 128 bytes take whole lines */
    char *chunk = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
    if (!chunk) oom();
    prefault(chunk, bytes);
    if (p->nchunks == p->chunks_cap) {
        p->chunks_cap = p->chunks_cap ? p->chunks_cap * 2 : 16;
        p->chunks = xrealloc_or_die(p->chunks, sizeof(void *) * p->chunks_cap);
        p->chunk_bytes = xrealloc_or_die(p->chunk_bytes, sizeof(size_t) * p->chunks_cap);
    }
    p->chunk_bytes[p->nchunks] = bytes;
    p->chunks[p->nchunks++] = chunk;
    p->bump = chunk;
    p->bump_end = chunk + bytes;
    if (bytes * 2 <= MAX_CHUNK_BYTES) p->per_chunk *= 2;
}

void pool_keep_freed_readable(struct pool *p) {
    p->freed_readable = true;
}

void *pool_get_fresh(struct pool *p) {
    if (p->bump == p->bump_end) add_chunk(p);
    void *obj = p->bump;
    p->bump += p->obj_size;
    return obj;
}

void *pool_get(struct pool *p) {
    return memset(pool_get_raw(p), 0, p->obj_size);
}

void pool_put(struct pool *p, void *obj) {
#ifdef SIMPI_POOL_CHECK /* sanitizer builds: catch an object given back twice */
    for (void *f = p->free_list; f; f = *(void **)f)
        if (f == obj) {
            fprintf(stderr, "simpi: internal error: pool object %p released twice\n", obj);
            abort();
        }
#endif
    *(void **)obj = p->free_list;
    p->free_list = obj;
    p->live--;
    if (!p->freed_readable) POOL_POISON((char *)obj + sizeof(void *), p->obj_size - sizeof(void *));
}

bool pool_owns(const struct pool *p, const void *obj) {
    uintptr_t o = (uintptr_t)obj;
    for (size_t i = 0; i < p->nchunks; i++) {
        uintptr_t c = (uintptr_t)p->chunks[i];
        if (o >= c && o < c + p->chunk_bytes[i]) return (o - c) % p->obj_size == 0;
    }
    return false;
}

void pool_destroy(struct pool *p) {
    for (size_t i = 0; i < p->nchunks; i++) {
        POOL_UNPOISON(p->chunks[i], p->chunk_bytes[i]);
        free(p->chunks[i]);
    }
    free(p->chunks);
    free(p->chunk_bytes);
    memset(p, 0, sizeof *p);
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
