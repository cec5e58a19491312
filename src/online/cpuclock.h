/* SPDX-License-Identifier: BSD-3-Clause */
/* The CPU time of the thread that runs the ranks, as cheaply as the
 * monotonic clock: what a rank's computation between two MPI calls is
 * charged (docs/online.md, "Computation time"). */
#ifndef SIMPI_CPUCLOCK_H
#define SIMPI_CPUCLOCK_H

#include <stdbool.h>
#include <stdint.h>

enum cpuclock_kind {
    CPUCLOCK_TASK_PAGE, /* monotonic deltas while the task clock's page is unchanged */
    CPUCLOCK_THREAD,    /* the thread CPU clock (a system call) at every reading */
};

struct cpuclock_stats {
    enum cpuclock_kind kind;
    uint64_t readings;  /* readings of the clock */
    uint64_t exact;     /* of which read the thread CPU clock (a system call) */
    const char *reason; /* why the task clock's page is not used (NULL: it is, or not asked) */
};

/* Opens the clock on the calling thread (again after a fork: each process
 * its own). `force_thread`: the thread CPU clock at every reading. */
void cpuclock_init(bool force_thread);
/* The calling thread's CPU seconds; `elapsed` (may be NULL) gets the
 * monotonic clock's seconds read with it. On the thread cpuclock_init ran on. */
double cpuclock_now(double *elapsed);
void cpuclock_stats(struct cpuclock_stats *out);
/* The clock's name in reports: "task_clock_page" or "thread_cpu_clock". */
const char *cpuclock_name(enum cpuclock_kind kind);

#endif
