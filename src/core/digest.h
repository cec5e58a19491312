/* SPDX-License-Identifier: BSD-3-Clause */
/* 64-bit digests (FNV-1a) of bytes, strings and files: what the processes
 * of a split run compare at its start to know they run the same
 * simulation (workers_agree). Not cryptographic. */
#ifndef SIMPI_DIGEST_H
#define SIMPI_DIGEST_H

#include <stddef.h>
#include <stdint.h>

#define DIGEST_START 1469598103934665603ull

uint64_t digest_bytes(uint64_t h, const void *p, size_t n);
/* A string, NULL distinct from "". */
uint64_t digest_string(uint64_t h, const char *s);
/* A file's size and content (or, beyond 64 MiB, its first and last 32
 * MiB; the content taken 8 bytes at a time, so not FNV-1a's digest of it);
 * a folder's entries named rank*, each so; 0 if it cannot be read. */
uint64_t digest_path(uint64_t h, const char *path);

#endif
