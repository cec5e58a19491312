/* SPDX-License-Identifier: BSD-3-Clause */
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
 * (bench/privatize, docs/performance.md, docs/models.md "Measured
 * computation"): copying costs about 1 us per 10 KiB in and out, outside
 * the ranks' computation; a remap costs 2.3 us plus a page fault (with the
 * kernel's fault-around) for each page the rank touches afterwards, 0.5 us
 * each on bare metal but 4 to 35 us on the paravirtualized development
 * machine, and those faults and the TLB misses that follow are inside the
 * rank's measured computation: NAS BT class S on 4 ranks (503 KiB of
 * globals) measured 31 ms per rank remapped, 11.9 ms copied, 13.0 ms in the
 * real processes. At 1 MiB a copy takes about 200 us per switch. */
#define PRIVATIZE_COPY_LIMIT ((size_t)1024 * 1024)

/* Globals above this size get per-rank images of the program when it
 * allows them (images.c): nothing is copied or remapped at a switch but the
 * page or two of the C library's variables, whatever the size of the
 * globals (bench/privatize). Below it copying costs less: with thousands of
 * images each switch lands on code and data at new addresses (TLB misses:
 * the 4 KiB allreduce loop of bench/state_in_globals.c at 4,096 ranks took
 * 5.6 s in images, 2.9 s copied). */
#define PRIVATIZE_IMAGES_FROM ((size_t)64 * 1024)

enum privatize_mode { PRIVATIZE_NONE, PRIVATIZE_COPY, PRIVATIZE_REMAP, PRIVATIZE_IMAGES };

/* What was asked: --privatize[=MODE], --no-privatize, or nothing. */
struct privatize_request {
    int32_t n;
    bool force;               /* even when no globals were found */
    enum privatize_mode mode; /* PRIVATIZE_NONE: chosen by size */
    const bool *owned;        /* the ranks this process runs (NULL: all) */
    int argc;                 /* for the images' constructors */
    char **argv;
};

struct privatize_info {
    enum privatize_mode mode;
    int64_t data_bytes, tls_bytes; /* per rank */
    int32_t images;
    char note[240]; /* why images were not used, when that costs the program */
    struct globals_info globals;
};

/* Prepares per-rank copies when the program has writable globals or
 * thread-local variables (or always, with force). */
bool privatize_init(const struct privatize_request *rq, struct privatize_info *info,
                    struct sim_error *err);
/* The mode's name (copy, remap, images), for the summary. */
const char *privatize_mode_name(enum privatize_mode mode);
/* The mode named by --privatize=MODE; false if none is. */
bool privatize_parse_mode(const char *name, enum privatize_mode *mode);
/* The function (main) a rank runs, in its own image if it has one. */
void *privatize_in_rank(int32_t rank, const void *fn);
/* The page faults and kernel time of the ranks' bursts, counted while
 * globals are remapped (the one mode whose switches add them). */
void privatize_faults(int64_t *faults, double *kernel_seconds);
void privatize_load(int32_t rank); /* before switching to rank */
/* The rank's C library state that is not in its globals (its environment):
 * made current before switching to it, put away after (libc_state.c). */
void libc_state_enter(int32_t rank);
void libc_state_leave(int32_t rank);
/* The rank's OpenMP settings (omp_set_num_threads...), when the program
 * uses OpenMP: the same around each switch (omp_state.c). */
void omp_state_init(int32_t nranks);
void omp_state_enter(int32_t rank);
void omp_state_leave(int32_t rank);
void omp_state_end(void);
void privatize_save(int32_t rank); /* after it switched back */
/* After the last switch: each image gets its own pages back, with its
 * rank's values, for its destructors at exit. */
void privatize_unshare(void);
void privatize_end(void);
/* Where owner's copy of the variable at addr lives now (addr itself if it
 * has none, or owner's copy is in place): the MPI layer's address hook. */
void *privatize_address(void *ctx, int32_t owner, void *addr);
/* Whether a variable at addr has a copy per rank. */
bool privatize_covers(const void *addr);

#endif
