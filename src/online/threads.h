/* SPDX-License-Identifier: BSD-3-Clause */
/* The threads of ranks: their work measured with their own CPU clocks and
 * charged as the rank's cores would run it (threads.c, docs/hybrid.md). */
#ifndef SIMPI_THREADS_H
#define SIMPI_THREADS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct runtime;

/* After the runtime's setup, on the main thread: the ranks on each node. */
void threads_init(struct runtime *rt);
void threads_end(void);
/* Whether the program has started a thread (from then on the main thread's
 * work is read from its CPU clock too). */
bool threads_started(void);
/* The rank whose thread the caller is (-1: not a rank's thread). */
int32_t threads_thread_rank(void);
/* Around a thread's MPI call (thread_calls.c): it runs no program code
 * meanwhile, and resumes only while its rank is current. */
void threads_call_pause(void);
void threads_call_resume(void);
/* Around a blocking wait of a thread of a rank's (a sleep): it runs no
 * program code meanwhile (false: it was not running any), and resumes
 * only while its rank is current. */
bool threads_pause_calling(void);
void threads_resume_calling(void);
/* The order of the calling thread's MPI calls among those taken together
 * (its number in its team; pthreads after, in creation order). */
int threads_thread_key(void);
/* Whether none of the rank's threads runs the program's code now; waiting
 * (at most 2 s) until so. */
bool threads_rank_quiet(int32_t rank);
void threads_rank_settle(int32_t rank);
/* The main thread releases n waiting threads of the rank (their calls'
 * ends): they count as running until they do; each, released, says so. */
void threads_rank_releases(int32_t rank, int n);
void threads_released(void);
bool threads_thread_gated(void); /* whether the gates hold the calling thread */
/* The calling thread's own virtual time (seconds) in a measured region,
 * -1 outside one; an MPI call of its ended at `end` (virtual seconds). */
double threads_thread_vtime(void);
void threads_call_ended(double end);
/* The calling thread's CPU clock, in seconds. */
double threads_own_cpu(void);
/* The cores the rank's threads run on (platform_rank_cores). */
int64_t threads_rank_cores(int32_t rank);
/* The span of `rank` that ends now, in target seconds: main_cpu is the main
 * thread's measured CPU seconds in it; adds the other threads' work and the
 * regions that ended in it, and starts the next span. */
double threads_span_end(int32_t rank, double main_cpu);
/* The same so far, without ending the span or reading other threads. */
double threads_span_peek(double main_cpu);
/* simpi_compute_* in a thread or a parallel region: charged to that
 * thread's work (true), or to the rank as usual (false). */
bool threads_absorb_charge(double target_seconds);
/* Around each switch to a rank (omp_state.c): the main thread's place in
 * a measured region is the rank's own. */
void threads_switch_in(int32_t rank);
void threads_switch_out(int32_t rank);
/* The time `cores` cores take for these works shared fairly among them
 * (processor sharing): the largest when each has a core, their sum over
 * the cores when the works are equal. Sorts work. */
double threads_makespan(double *work, size_t n, int64_t cores);

#endif
