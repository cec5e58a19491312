/* Per-rank copies of the program's writable globals and thread-local
 * variables (see privatize.c for the two ways and their costs). */
#ifndef SIMPI_PRIVATIZE_H
#define SIMPI_PRIVATIZE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/error.h"
#include "online/globals.h"

/* Globals up to this size are copied around switches; larger ones (and
 * those of stripped programs) are remapped. Chosen by measurement
 * (bench/privatize): a copy in and out of 16 KiB costs about as much as one
 * remap with the faults of a few touched pages. */
#define PRIVATIZE_COPY_LIMIT ((size_t)16 * 1024)

enum privatize_mode { PRIVATIZE_NONE, PRIVATIZE_COPY, PRIVATIZE_REMAP };

struct privatize_info {
    enum privatize_mode mode;
    int64_t data_bytes, tls_bytes; /* per rank */
    struct globals_info globals;
};

/* Prepares per-rank copies for n ranks when the program has writable
 * globals or thread-local variables (or always, with force). */
bool privatize_init(int32_t n, bool force, struct privatize_info *info, struct sim_error *err);
void privatize_load(int32_t rank); /* before switching to rank */
void privatize_save(int32_t rank); /* after it switched back */
void privatize_end(void);
/* Whether a variable at addr has a copy per rank. */
bool privatize_covers(const void *addr);

#endif
