/* Pool allocator implementation. */
#include "core/pool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void oom(void) {
    fprintf(stderr, "simpi: error: out of memory\n");
    exit(1);
}

void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) oom();
    return p;
}

void *xcalloc(size_t n, size_t size) {
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) oom();
    return p;
}

void *xrealloc_or_die(void *p, size_t n) {
    void *q = realloc(p, n ? n : 1);
    if (!q) oom();
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

static void add_chunk(struct pool *p) {
    char *chunk = xmalloc(p->obj_size * p->per_chunk);
    if (p->nchunks == p->chunks_cap) {
        p->chunks_cap = p->chunks_cap ? p->chunks_cap * 2 : 16;
        p->chunks = xrealloc_or_die(p->chunks, sizeof(void *) * p->chunks_cap);
    }
    p->chunks[p->nchunks++] = chunk;
    for (size_t i = p->per_chunk; i-- > 0;) {
        void *obj = chunk + i * p->obj_size;
        *(void **)obj = p->free_list;
        p->free_list = obj;
    }
}

void *pool_get_raw(struct pool *p) {
    if (!p->free_list) add_chunk(p);
    void *obj = p->free_list;
    p->free_list = *(void **)obj;
    if (++p->live > p->peak) p->peak = p->live;
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
}

void pool_destroy(struct pool *p) {
    for (size_t i = 0; i < p->nchunks; i++)
        free(p->chunks[i]);
    free(p->chunks);
    memset(p, 0, sizeof *p);
}
