/* SPDX-License-Identifier: BSD-3-Clause */
/* Waits (wait.c) and deadlocks (deadlock.c). */
#ifndef SIMPI_MPI_WAIT_H
#define SIMPI_MPI_WAIT_H

#include "mpi/sim_internal.h"

/* wait.c */
void wait_recheck(struct sim *s, int32_t rank);
/* Request r, part of its owner's current wait, is resolved (sim.up's
 * waited_resolved). */
void wait_resolved(struct sim *s, const struct request *r);
void wait_complete(struct sim *s, int32_t rank);
void wait_describe(struct sim *s, int32_t rank);
/* Its requests not complete (at most max), each after "; ". */
void wait_describe_outstanding(struct sim *s, int32_t rank, int max);
/* deadlock.c: what blocked rank waits for, as wait_describe writes it (a
 * malloc'd string) */
char *deadlock_describe(struct sim *s, int32_t rank);
/* The first worker of a split run: another worker's blocked rank at the
 * end, as that worker described it (text) and the ranks it waits for. */
void deadlock_note_elsewhere(struct sim *s, int32_t rank, const int32_t *targets, int n,
                             const char *text, size_t len);
void deadlock_free(struct sim *s);
/* The world ranks a blocked rank waits for (any-source receives excluded). */
int wait_targets(struct sim *s, int32_t rank, int32_t *out, int max);

/* deadlock.c */
void report_deadlock(struct sim *s);

#endif
