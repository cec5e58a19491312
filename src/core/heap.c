/* SPDX-License-Identifier: BSD-3-Clause */
/* A binary min-heap of fixed-size elements (heap.h). */
#include "core/heap.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

void heap_init(struct heap *h, size_t size, bool (*before)(const void *, const void *)) {
    *h = (struct heap){NULL, 0, 0, size, before};
}

static void *at(const struct heap *h, size_t i) {
    return h->v + i * h->size;
}

void heap_push(struct heap *h, const void *e) {
    if (h->n == h->cap) {
        h->cap = h->cap ? 2 * h->cap : 64;
        h->v = xrealloc_or_die(h->v, h->size * h->cap);
    }
    size_t i = h->n++;
    while (i > 0 && h->before(e, at(h, (i - 1) / 2))) {
        memcpy(at(h, i), at(h, (i - 1) / 2), h->size);
        i = (i - 1) / 2;
    }
    memcpy(at(h, i), e, h->size);
}

void heap_pop(struct heap *h, void *out) {
    memcpy(out, at(h, 0), h->size);
    size_t last = --h->n, i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= last) break;
        if (c + 1 < last && h->before(at(h, c + 1), at(h, c))) c++;
        if (!h->before(at(h, c), at(h, last))) break;
        memcpy(at(h, i), at(h, c), h->size);
        i = c;
    }
    if (last) memcpy(at(h, i), at(h, last), h->size);
}

void heap_free(struct heap *h) {
    free(h->v);
    h->v = NULL;
    h->n = h->cap = 0;
}
