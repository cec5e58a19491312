/* SPDX-License-Identifier: BSD-3-Clause */
/* Fixed-size object pools: objects come from large chunks and return to a
 * free list, so that messages, requests and records cost no malloc each
 * (DESIGN 4.4). */
#ifndef SIMPI_POOL_H
#define SIMPI_POOL_H

#include <stdbool.h>
#include <stddef.h>

#include "core/prefetch.h"

/* Sanitizer builds mark a pool's free objects unaddressable (all but the
 * word linking the free list), so that AddressSanitizer reports a use of
 * an object after it was given back, as it does for malloc's. */
#if defined(SIMPI_POOL_CHECK) && defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SIMPI_POOL_POISON 1
#endif
#endif
#if defined(SIMPI_POOL_CHECK) && defined(__SANITIZE_ADDRESS__)
#define SIMPI_POOL_POISON 1
#endif
#ifdef SIMPI_POOL_POISON
#include <sanitizer/asan_interface.h>
#define POOL_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define POOL_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define POOL_POISON(p, n) ((void)(p), (void)(n))
#define POOL_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

struct pool {
    size_t obj_size;
    size_t per_chunk; /* objects in the next chunk (doubles up to a limit) */
    void *free_list;
    char *bump, *bump_end; /* the newest chunk's never used part */
    void **chunks;
    size_t *chunk_bytes; /* each chunk's size */
    size_t nchunks, chunks_cap;
    size_t live, peak;
    bool freed_readable; /* pool_keep_freed_readable */
};

void pool_init(struct pool *p, size_t obj_size, size_t per_chunk);
/* Objects given back stay readable in sanitizer builds: a pool of handles
 * that a program may pass back after freeing them, recognized by a mark
 * written in the freed object. */
void pool_keep_freed_readable(struct pool *p);
void *pool_get(struct pool *p); /* zero-filled */
/* An object never handed out yet (the free list is empty), not yet
 * counted live: pool_get_raw's. */
void *pool_get_fresh(struct pool *p);

/* An object, its contents undefined: the last one put back, else a fresh
 * one. Inline, as requests and records take one or more a message. It asks
 * for the lines of the next free object: freed long before (a request
 * released at the end of its round, thousands of ranks ago), it is likely
 * a cache miss, which by the next get has been served. */
static inline void *pool_get_raw(struct pool *p) {
    void *obj = p->free_list;
    if (obj) {
        p->free_list = *(void **)obj;
        if (p->free_list) cache_prefetch_object(p->free_list, p->obj_size);
    } else {
        obj = pool_get_fresh(p);
    }
    POOL_UNPOISON(obj, p->obj_size);
    if (++p->live > p->peak) p->peak = p->live;
    return obj;
}
void pool_put(struct pool *p, void *obj);
/* Whether obj is the start of an object of this pool (handed out or not):
 * for checking handles a program passes back. Cost: one test per chunk. */
bool pool_owns(const struct pool *p, const void *obj);
void pool_destroy(struct pool *p);

#endif
