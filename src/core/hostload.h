/* SPDX-License-Identifier: BSD-3-Clause */
/* What the host does besides simpi: other programs' use of its cores (the
 * time a thread waited for a core, the cores free now) and the time a
 * hypervisor took from this virtual machine (steal). Read from Linux's
 * /proc; every reading answers a negative number where it is unavailable. */
#ifndef SIMPI_HOSTLOAD_H
#define SIMPI_HOSTLOAD_H

/* Seconds the calling thread has waited on a run queue for a core since it
 * started (/proc/thread-self/schedstat, the scheduler's run delay). */
double hostload_thread_waited(void);
/* Seconds of steal time of all this machine's CPUs since boot (/proc/stat):
 * time the hypervisor ran something else while a CPU had work. */
double hostload_steal(void);
/* The cores this process may run on, less the share of them that other
 * programs kept busy over `sample_seconds` (from /proc/stat), rounded down
 * and at least 1; `allowed` gets the cores this process may run on. */
int hostload_free_cores(double sample_seconds, int *allowed);

#endif
