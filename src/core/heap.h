/* SPDX-License-Identifier: BSD-3-Clause */
/* A binary min-heap of fixed-size elements ordered by a caller's `before`
 * (landings, receives waiting for a rank's CPU): elements are copied in
 * and out, so a heap owns no pointers of its own but its array. */
#ifndef SIMPI_HEAP_H
#define SIMPI_HEAP_H
#include <stdbool.h>
#include <stddef.h>

struct heap {
    char *v;
    size_t n, cap, size; /* elements, room, bytes per element */
    bool (*before)(const void *a, const void *b);
};

void heap_init(struct heap *h, size_t size, bool (*before)(const void *, const void *));
void heap_push(struct heap *h, const void *e);
/* Copies the least element to *out and removes it (h->n > 0). */
void heap_pop(struct heap *h, void *out);
void heap_free(struct heap *h);
#endif
