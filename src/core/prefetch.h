/* SPDX-License-Identifier: BSD-3-Clause */
/* Asking for memory ahead of its use: the simulator's large runs are bound
 * by cache misses on per-rank state last touched long before, and where the
 * next items are known (a list of ready schedules, the next event's rank)
 * their lines can be asked for a few items ahead so that the misses
 * overlap. */
#ifndef SIMPI_PREFETCH_H
#define SIMPI_PREFETCH_H

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

#endif
