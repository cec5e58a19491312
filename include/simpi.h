/* SPDX-License-Identifier: BSD-3-Clause */
/* simpi.h: simulator extensions for programs built with simpicc.
 *
 *   simpi_compute_seconds(s)   charge s seconds of computation (target time)
 *   simpi_compute_flops(f)     charge f floating-point operations
 *   SIMPI_SAMPLE_LOCAL(n) { }  each rank runs the block its first n times and
 *                              measures it; later it is skipped and the mean
 *                              of that rank's runs is charged instead
 *   SIMPI_SAMPLE_GLOBAL(n) { } the same, with n runs in total over all ranks
 *                              and their global mean
 *   SIMPI_SAMPLE_FLOPS(f) { }  the block is skipped and f flops are charged
 *   SIMPI_SHARED_MALLOC(size)  one allocation shared by all ranks (per call
 *   SIMPI_SHARED_FREE(p)       site), to shrink memory when the data does not
 *                              matter; freed when every rank has freed it
 *   SIMPI_INTERVAL_BEGIN(name) the rank enters the interval `name` (nested in
 *   SIMPI_INTERVAL_END()       the one it is in) until the matching end; the
 *                              analysis (docs/analysis.md) reports each one
 * Sampled blocks must not call MPI, and their results are not computed when
 * skipped: use them for computation whose values the program does not check. */
#ifndef SIMPI_EXT_H
#define SIMPI_EXT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

void simpi_compute_seconds(double seconds);
void simpi_compute_flops(double flops);

struct simpi_sample;
struct simpi_sample *simpi_sample_begin(const char *file, int line, int n, int global);
int simpi_sample_run(struct simpi_sample *s);
void simpi_sample_done(struct simpi_sample *s);

void *simpi_shared_malloc(size_t size, const char *file, int line);
void simpi_interval_begin(const char *name);
void simpi_interval_end(void);
void simpi_shared_free(void *p);

#define SIMPI_SAMPLE_LOCAL(n)                                                                      \
    for (struct simpi_sample *simpi_s_ = simpi_sample_begin(__FILE__, __LINE__, (n), 0);           \
         simpi_sample_run(simpi_s_); simpi_sample_done(simpi_s_))
#define SIMPI_SAMPLE_GLOBAL(n)                                                                     \
    for (struct simpi_sample *simpi_s_ = simpi_sample_begin(__FILE__, __LINE__, (n), 1);           \
         simpi_sample_run(simpi_s_); simpi_sample_done(simpi_s_))
#define SIMPI_SAMPLE_FLOPS(f) if (simpi_compute_flops(f), 0)
#define SIMPI_SHARED_MALLOC(size) simpi_shared_malloc((size), __FILE__, __LINE__)
#define SIMPI_SHARED_FREE(p) simpi_shared_free(p)
#define SIMPI_INTERVAL_BEGIN(name) simpi_interval_begin(name)
#define SIMPI_INTERVAL_END() simpi_interval_end()

#ifdef __cplusplus
}
#endif
#endif
