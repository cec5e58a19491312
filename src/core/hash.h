/* SPDX-License-Identifier: BSD-3-Clause */
/* Mixing an integer key for a hash table of 2^k slots: the slot is the
 * top bits of a multiplication, or the key's low bits after mixing, each of which depends on every
 * bit of the key. A plain multiplication's low bits depend only on the key's low bits, so keys that
 * differ only in their high half (a rank shifted up beside an id) or only above their alignment
 * (pointers) would share slots, and linear probing would then cost the square of the keys:
 * MPI_COMM_SELF's handle of each of 65,536 ranks took 18% of an on-line run. */
#ifndef SIMPI_HASH_H
#define SIMPI_HASH_H

#include <stdint.h>

/* Fibonacci hashing (Knuth): the top `bits` bits of k times 2^64 / phi,
 * for a table of 2^bits slots indexed by them. One multiplication, and each
 * top bit depends on every bit of k. */
static inline unsigned hash_fib_top(uint64_t k, unsigned bits) {
    return (unsigned)((k * 0x9e3779b97f4a7c15ull) >> (64 - bits));
}

/* MurmurHash3's 64-bit finalizer (fmix64). */
static inline uint64_t hash_mix64(uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ull;
    k ^= k >> 33;
    return k;
}

#endif
