/* SPDX-License-Identifier: BSD-3-Clause */
/* The replay front end: each simulated rank is a cursor in the trace whose
 * records become actions of the MPI semantics layer. */
#ifndef SIMPI_REPLAY_H
#define SIMPI_REPLAY_H

#include <signal.h>

#include "mpi/sim.h"
#include "replay/trace.h"
#include "report/analysis.h"
#include "report/progress.h"

struct replay_result {
    enum sim_status status;
    struct sim *sim;           /* kept for reporting; freed by replay_result_free */
    struct analysis *analysis; /* its observer (intervals and outputs) */
    uint64_t records;
    double wall_seconds;
    char **interval_names; /* several jobs: "job: interval", kept for the reports */
    int32_t ninterval_names;
};

/* Replays trace on plat/net. On a trace error (bad record) returns false with
 * err set; deadlocks and application errors are in result->status. */
bool replay_run(struct trace_reader *trace, struct platform *plat, const struct network *net,
                struct replay_result *result, struct sim_error *err);
/* Several jobs replayed side by side (docs/jobs.md): each trace's ranks
 * after the previous one's, each job with its own MPI_COMM_WORLD and
 * starting at start[j]; the platform's placement puts them on their nodes. */
struct replay_jobs {
    int32_t njobs;
    const simtime_t *start;
    const char *const *names; /* each job's, for its intervals' names (or NULL) */
};
bool replay_run_jobs(struct trace_reader *const *traces, const struct replay_jobs *spec,
                     struct platform *plat, const struct network *net, struct replay_result *result,
                     struct sim_error *err);
/* The outputs of the next replay_run's analysis (NULL: intervals only). */
void replay_set_analysis(const struct analysis_opts *o);
/* The progress line of the next replay_run (default: never). */
void replay_set_progress(enum progress_mode mode);
void replay_result_free(struct replay_result *r);

/* Set (from a signal handler) to SIGINT or SIGTERM to stop a replay: the run
 * ends with SIM_INTERRUPTED at the next record, its figures partial. */
extern volatile sig_atomic_t replay_interrupt_signal;
/* Whether the simulation is running (a signal then stops it at the next
 * record; before and after, the process ends at once). */
extern volatile sig_atomic_t replay_running;
/* Set once a replay's simulation has ended (its reports being written). */
extern volatile sig_atomic_t replay_simulated;
/* --time-limit: replays stop before an event past it (0: none). */
void replay_set_time_limit(simtime_t limit);
/* The next replays run as one worker of a split run (NULL: the whole run
 * here; docs/parallel.md). */
struct workers;
void replay_set_workers(struct workers *w, enum sim_placement placement);
/* A split run's first worker lost another (killed, failed): lost(why) is
 * called before the run ends with the error (to write the --json that
 * says so); NULL: nothing more than the message. */
void replay_set_lost(void (*lost)(const char *why));

#endif
