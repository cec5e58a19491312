/* SPDX-License-Identifier: BSD-3-Clause */
/* Asking for memory ahead of its use: the simulator's large runs are bound
 * by cache misses on per-rank state last touched long before, and where the
 * next items are known (a list of ready schedules, the next event's rank)
 * their lines can be asked for a few items ahead so that the misses
 * overlap. */
#ifndef SIMPI_PREFETCH_H
#define SIMPI_PREFETCH_H

#include <stddef.h>

/* Asks for the cache line at p. GCC 12 drops __builtin_prefetch as dead
 * code where its address comes from loads, so the instruction is written
 * in asm where the architecture is known. It never faults. */
static inline void cache_prefetch(const void *p) {
#if defined(__x86_64__)
    __asm__ volatile("prefetcht0 %0" : : "m"(*(const char *)p));
#elif defined(__aarch64__)
    __asm__ volatile("prfm pldl1keep, %0" : : "Q"(*(const char *)p));
#else
    __builtin_prefetch(p);
#endif
}

/* Asks for every cache line of the object [p, p + n), n > 0: a line
 * each 64 bytes from p, and its last byte's (a count of steps fixed by n,
 * so that a constant size unrolls). */
static inline void cache_prefetch_object(const void *p, size_t n) {
    const char *c = p;
    for (size_t at = 0; at < n; at += 64)
        cache_prefetch(c + at);
    cache_prefetch(c + n - 1);
}

#endif
