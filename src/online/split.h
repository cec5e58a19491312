/* SPDX-License-Identifier: BSD-3-Clause */
/* The on-line runtime's side of a split run (simpi run --procs K, or under
 * mpirun; docs/parallel.md): forking the workers before any rank starts,
 * making the simulation one of them, what the program's runtime tells the
 * other workers (the front end's messages: collective data, graph edges)
 * and what a worker hands the first at its end (output flushed, exit
 * statuses, its --trace-out files). What the MPI layer sends between
 * workers is src/mpi/part.c's. */
#ifndef SIMPI_SPLIT_H
#define SIMPI_SPLIT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/error.h"
#include "online/runtime.h"
#include "report/summary.h"

struct split_opts {
    int procs;             /* --procs K (0, 1: no split) */
    const char *transport; /* under a launcher: the MPI helper, whose processes are the workers */
    const char *trace_out; /* --trace-out DIR: staged once, before the workers are forked */
    bool cyclic;           /* --placement cyclic */
};

/* Before the simulation is made: the workers forked (or joined, under a
 * launcher), what a split run cannot do refused. True without a split. */
bool split_fork(struct runtime *rt, const struct split_opts *o, struct sim_error *err);
/* Once it is made: the simulation becomes this worker's part; a worker but
 * the first runs quietly (no summary, no files). */
bool split_join(struct runtime *rt, const struct split_opts *o, struct sim_error *err);
/* --trace-out (NULL: none): into the folder staged by split_fork in a
 * split run, else as one process records. */
bool split_start_recording(struct runtime *rt, const char *trace_out, struct sim_error *err);
/* After the run: a worker but the first ends here; the first takes the
 * others' exit statuses. */
void split_end(struct runtime *rt);
/* The simulation's driver hooks (struct sim_driver: front, ending). */
void split_front(void *ctx, const void *msg, uint32_t len);
void split_ending(void *ctx);
void split_window_done(void *ctx, simtime_t end);
/* At the start of a split run, every worker: all run the same simulation
 * (the command, the rank count, the program and its arguments, the
 * platform as resolved, and `options`: a digest of the options that change
 * the prediction), or the run is refused naming what differs. */
bool split_agree(struct runtime *rt, uint64_t options, struct sim_error *err);
/* sim_driver.lost: a worker died; simpi run writes the --json with why. */
void split_lost_worker(void *ctx, const char *why);
/* The first worker: the other workers' host figures added to its own. */
void split_add_host(struct host_figures *h);
/* A split run's ranks' standard output and error: what a rank writes
 * (stdio through stdout or stderr, or write() on descriptor 1 or 2, fd) goes
 * to the first worker tagged with the virtual time of the rank's event, the
 * rank and its count, and is written there in that order once every worker
 * has passed that time: the order one process writes it in (its engine runs
 * ranks by time, then rank). False: not a rank's output here (written as
 * usual). */
bool split_output(int fd, const void *buf, size_t len);

#endif
