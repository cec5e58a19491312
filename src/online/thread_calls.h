/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI calls from the threads of a rank, carried out on the main thread
 * (thread_calls.c, docs/hybrid.md). */
#ifndef SIMPI_THREAD_CALLS_H
#define SIMPI_THREAD_CALLS_H

#include <stdbool.h>
#include <stdint.h>

struct thread_call;

/* On a thread of `rank`, at the start of an MPI function: returns on the
 * main thread, which runs the rest of the call as the rank. */
void thread_call_begin(const char *func, int32_t rank);
/* On the main thread, around runtime_enter/leave while a thread's call
 * runs: the outermost leave hands the call back to its thread. */
bool thread_call_enter(struct thread_call *c); /* true: the call's first */
/* The calling thread's virtual time when it called (seconds; < 0: none). */
double thread_call_start(const struct thread_call *c);
void thread_call_leave(struct thread_call *c);
/* On the main thread in `rank`: runs the calls its threads have queued;
 * whether there were any. */
bool thread_calls_serve(int32_t rank);
/* On the main thread in `rank`, waiting for ready(arg) (a barrier, a
 * lock...): runs the rank's threads' calls meanwhile. ready is evaluated
 * under the lock that thread_calls_notify takes. */
void thread_calls_wait(int32_t rank, bool (*ready)(void *), void *arg);
/* MPI_THREAD_MULTIPLE, in a thread's call on the main thread: until the
 * requests are done (all, or any), the call is set aside and the rank and
 * its other threads go on. */
struct request;
void thread_call_wait(struct thread_call *c, struct request **reqs, int n, bool any);
/* Something a waiter looks at changed (an arrival, a release). */
void thread_calls_notify(void);

#endif
