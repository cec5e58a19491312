/* SPDX-License-Identifier: BSD-3-Clause */
/* The worker processes of one split run on this machine (docs/architecture.md,
 * "Split runs"): K processes forked from the first, every pair joined by a
 * socket pair. At each window's end every worker sends every other the
 * messages it produced for it, with the time of its next event, and takes
 * theirs; the least of the times is the global reduction that picks the next
 * window. A worker that ends without saying goodbye (a crash, a kill) ends
 * the exchange in every other with a message naming it: nothing waits for a
 * dead peer. */
#ifndef SIMPI_WORKERS_H
#define SIMPI_WORKERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "core/simtime.h"

struct workers;

/* Forks k - 1 workers; returns in each of the k processes (workers_me says
 * which), NULL with err set if the processes or sockets cannot be made. */
struct workers *workers_fork(int k, struct sim_error *err);
/* Joins the split run a launcher started (mpirun, srun: docs/parallel.md):
 * forks the MPI helper `helper` (simpi-transport), which becomes this
 * process's MPI rank; this worker is that rank of that many. NULL with err
 * set if the helper cannot start. */
struct workers *workers_join(const char *helper, struct sim_error *err);
/* Reads SIMPI_TRANSPORT_TIMEOUT now (workers_join reads it otherwise), for
 * a process that clears its environment before it joins. */
void workers_read_patience(void);
int workers_me(const struct workers *w);
int workers_count(const struct workers *w);
/* Queues a message of len bytes for worker `to` (another one). */
void workers_post(struct workers *w, int to, const void *msg, uint32_t len);
/* The same for a message in n pieces (copied once, one after another). */
struct workers_piece {
    const void *data;
    size_t len;
};
void workers_postv(struct workers *w, int to, const struct workers_piece *pieces, int n);
typedef void (*workers_deliver_fn)(void *ctx, int from, const void *msg, uint32_t len);
/* Ends a window: sends the queued messages and `next` (this worker's next
 * event time) to every other worker and takes theirs, delivering them in
 * the order (sending worker, order queued); *least gets the least `next`
 * of all. What `deliver` queues goes with the next exchange. False, with err naming the worker, if
 * one has gone. */
bool workers_exchange(struct workers *w, simtime_t next, simtime_t *least,
                      workers_deliver_fn deliver, void *ctx, struct sim_error *err);
/* The first worker of a split run on this machine: from now on, a worker
 * that dies (a signal, a failure) ends the run at once, even while this
 * process computes and would learn it only at its window's end: the
 * message names it, the other workers are killed, and `lost` (if any; it
 * must be safe in a signal handler) is called with that message (no
 * prefix, no newline), which should end the process with status 1 (else
 * _exit(1) does). */
void workers_watch(struct workers *w, void (*lost)(const char *why));
/* What the processes of a split run must share to run the same
 * simulation (workers_agree): a name ("the platform") and its digest. */
#define WORKERS_FACTS 5
struct workers_fact {
    const char *name;
    const char *hint; /* what makes it differ ("a different --set?"), or "" */
    uint64_t digest;
};
/* At the start, in every worker (one exchange): each worker's
 * WORKERS_FACTS facts against the others'. False, err naming the first
 * that differs and between which processes, if they do not all agree. */
bool workers_agree(struct workers *w, const struct workers_fact facts[WORKERS_FACTS],
                   struct sim_error *err);
/* Ends this worker's part: the first waits for the others and returns
 * false (err set) if one failed; the others exit with `status`. */
bool workers_end(struct workers *w, int status, struct sim_error *err);

#endif
