/* SPDX-License-Identifier: BSD-3-Clause */
/* Rank tables: anonymous mappings without a reservation past a size (the
 * kernel gives zeroed pages as they are first written), small ones from
 * calloc. The live tables are listed, so that their resident part can be
 * told in the report. */
#include "core/ranktable.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/error.h"

enum { MAPPED_FROM = 64 << 10 }; /* bytes: below this, calloc's own */

struct live {
    void *table;
    size_t bytes;
};
static struct live *live;
static size_t nlive, live_cap;

static size_t page_size(void) {
    long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? (size_t)p : 4096;
}

static size_t mapped_bytes(size_t bytes) {
    size_t page = page_size();
    return (bytes + page - 1) / page * page;
}

static void list_table(void *table, size_t bytes) {
    if (nlive == live_cap) {
        live_cap = live_cap ? 2 * live_cap : 16;
        live = xrealloc_or_die(live, sizeof *live * live_cap);
    }
    live[nlive++] = (struct live){table, bytes};
}

static void unlist_table(const void *table) {
    for (size_t i = nlive; i-- > 0;)
        if (live[i].table == table) {
            live[i] = live[--nlive];
            return;
        }
}

void *ranktable_alloc(size_t count, size_t size) {
    if (size && count > SIZE_MAX / size) err_fatal("a table of every rank is too large");
    size_t bytes = count * size;
    void *p;
    if (bytes < MAPPED_FROM) {
        p = xcalloc(count ? count : 1, size ? size : 1);
    } else {
        p = mmap(NULL, mapped_bytes(bytes), PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED) err_fatal("out of memory for a table of every rank");
    }
    list_table(p, bytes);
    return p;
}

void ranktable_free(void *table, size_t count, size_t size) {
    if (!table) return;
    unlist_table(table);
    if (count * size < MAPPED_FROM)
        free(table);
    else
        munmap(table, mapped_bytes(count * size));
    if (nlive == 0) {
        free(live);
        live = NULL;
        live_cap = 0;
    }
}

/* The resident bytes of bytes at table (mapped: the pages mincore finds). */
static size_t resident(const void *table, size_t bytes) {
    if (bytes < MAPPED_FROM) return bytes;
    size_t page = page_size(), len = mapped_bytes(bytes), pages = len / page;
    unsigned char *in = malloc(pages);
    if (!in || mincore((void *)table, len, in) != 0) {
        free(in);
        return bytes;
    }
    size_t n = 0;
    for (size_t i = 0; i < pages; i++)
        n += (in[i] & 1) ? page : 0;
    free(in);
    return n;
}

size_t ranktable_resident(const void *table, size_t count, size_t size) {
    return table ? resident(table, count * size) : 0;
}

size_t ranktable_resident_all(void) {
    size_t n = 0;
    for (size_t i = 0; i < nlive; i++)
        n += resident(live[i].table, live[i].bytes);
    return n;
}
