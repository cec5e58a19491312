/* SPDX-License-Identifier: BSD-3-Clause */
/* Pool allocator implementation. */
#include "core/pool.h"

#include "core/alloc.h"
#include "core/invariant.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/error.h"
#include "core/prefetch.h"

/* A pool's chunks double in size up to this many bytes. */
#define MAX_CHUNK_BYTES ((size_t)2 << 20)

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
    char *chunk = xrealloc_aligned(NULL, 0, (bytes + 63) & ~(size_t)63, 64);
    alloc_prefault(chunk, bytes);
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
        INVARIANT(f != obj, "pool object %p released twice", obj);
#endif
    /* debug builds: the object is one of this pool's, and one is out */
    INVARIANT(p->live > 0 && pool_owns(p, obj),
              "pool object %p given back to a pool that did not give it (%zu out)", obj, p->live);
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
