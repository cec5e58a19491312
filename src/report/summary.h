/* SPDX-License-Identifier: BSD-3-Clause */
/* The run summary: predicted time, per-rank breakdown (a table for few ranks;
 * min/mean/max and the slowest ranks for many), simulation speed and memory;
 * as text and as JSON. Reads the statistics the MPI layer keeps per rank. */
#ifndef SIMPI_SUMMARY_H
#define SIMPI_SUMMARY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "mpi/sim.h"

/* What the host did to an on-line run's measurements (docs/online.md,
 * "Computation time"), and with --repeat the spread over the runs. */
struct host_figures {
    const char *clock;      /* the clock bursts were read with (NULL: --cpu=ignore) */
    const char *clock_note; /* why the fast clock is not used (NULL: it is, or not asked) */
    uint64_t readings;      /* readings of that clock */
    uint64_t exact;         /* of which needed the thread CPU clock (a system call) */
    double cpu;             /* CPU seconds the ranks computed (before the platform's speed) */
    double elapsed;         /* monotonic seconds meanwhile: cpu plus other programs' time */
    double waited;          /* seconds simpi waited for a core during the run (<0: unknown) */
    double steal;           /* seconds the hypervisor took from the host's CPUs (<0: unknown) */
    double wall;            /* the run's wall seconds (each worker's, summed) */
    int workers;            /* processes that ran ranks */
    /* --repeat N: the runs' predicted times and each rank's compute spread */
    int runs;
    double predicted_min, predicted_median, predicted_max;
    double compute_spread; /* the largest (max - min) / median of a rank's compute */
    int32_t spread_rank;   /* whose */
    /* each rank's globals (online/privatize.c) */
    const char *privatize;      /* "copy", "remap", "images"; NULL: not privatized */
    const char *privatize_note; /* why the program has no per-rank images, when remapped */
    int32_t images;             /* per-rank images of the program (all workers) */
    int64_t privatize_bytes;    /* the globals each rank has its own copy of */
    int64_t remap_faults;       /* remap: page faults while ranks ran */
    double remap_kernel;        /* remap: kernel seconds meanwhile (inside their bursts) */
};

/* Several jobs side by side (docs/jobs.md): what each is and its time
 * alone (the same trace on the same nodes with no other job). */
struct job_figures {
    const char *name, *trace;
    int32_t first, ranks; /* its ranks among the run's */
    const int32_t *nodes; /* its nodes, in the order its ranks fill them */
    int64_t nnodes;
    simtime_t start;
    double alone; /* seconds; < 0: not known (the run alone failed) */
};

struct run_info {
    const char *what;     /* e.g. the trace path */
    const char *platform; /* platform source */
    int64_t nodes;
    uint64_t records;     /* trace records replayed (0 for on-line) */
    int64_t trace_buffer; /* peak bytes of queued trace records */
    double wall_seconds;
    enum sim_status status;
    int exit_status;                 /* the exit status simpi returns for this run */
    uint64_t context_switches;       /* on-line: switches to a rank (0 for replay) */
    const struct analysis *analysis; /* intervals (NULL: none) */
    const struct host_figures *host; /* on-line runs (NULL: replay) */
    const struct job_figures *jobs;  /* several jobs (NULL: one) */
    int32_t njobs;
    const char *ideal; /* the platform's what-if (platform_ideal): "none", "network"... */
    /* replay --extrapolate: the trace extended to this many ranks (0: not
     * extrapolated), the scales it came from and the computation's error
     * band from the fits (relative), the variable counts' spread around
     * their mean, the band of sends' sizes taken as means and the share
     * of a scale's segments moved to follow the largest scale's order
     * and the loops' counts' residual from their law (relative; negative:
     * none) */
    int32_t extrapolated, extrapolated_scales;
    double extrapolation_band, counts_band, sizes_band, aligned_band, iterations_band;
};

/* The hint an on-line run's summary gives when its peak memory is half the
 * machine's or more (into buf; false: none). */
bool summary_memory_hint(int64_t peak, int64_t machine, char *buf, size_t n);
/* The predicted execution time: the latest rank finish. */
simtime_t summary_predicted(const struct sim *s);
/* The one writer of each fact that both the --json document and the HTML
 * report carry, so that both say it with the same keys (docs/json.md):
 * "host": {...} and "repeat": {...} (no separators around them); the
 * elements of "busiest_links" and, after '], "busiest_interfaces": [',
 * those of "busiest_interfaces" (the most busy, at most
 * SUMMARY_BUSIEST_MAX), without the brackets that open the first and close
 * the second. */
#define SUMMARY_BUSIEST_MAX 16
void summary_json_host_object(FILE *f, const struct host_figures *h);
void summary_json_repeat_object(FILE *f, const struct host_figures *h);
void summary_json_busiest(FILE *f, const struct sim *s, int most);
/* When the job ended: the prediction, or for a run that stopped (a node's
 * crash aborting it, an error) the virtual time it stopped at. */
simtime_t summary_end(const struct sim *s, enum sim_status st);
/* A job's end: its ranks' latest finish. */
simtime_t summary_job_end(const struct sim *s, const struct job_figures *job);
/* The jobs' table (times in unit, `scale` of them a second) and JSON array. */
void summary_jobs_print(FILE *out, const struct sim *s, const struct run_info *in, double scale,
                        const char *unit);
void summary_jobs_json(FILE *f, const struct sim *s, const struct run_info *in);
/* The jobs as a JSON array (sep between entries: "\n" or ""). */
void summary_jobs_array(FILE *f, const struct sim *s, const struct run_info *in, const char *sep);
/* The links where the jobs' traffic met most, at most JOBS_MET_MAX, as a
 * JSON array of {link, met, bytes: [each job's]} ([] with one job). */
#define JOBS_MET_MAX 8
void summary_jobs_met_json(FILE *f, const struct sim *s, const struct run_info *in);
void summary_print(FILE *out, const struct sim *s, const struct run_info *info);
/* Writes the JSON report atomically (see core/outfile.h); "-" is stdout. */
bool summary_write_json(const char *path, const struct sim *s, const struct run_info *info,
                        struct sim_error *err);
/* The JSON report of a run that could not start (bad input): status
 * "error" and the reason, so that no earlier report is left in place. */
bool summary_write_failure_json(const char *path, const char *what, int exit_status,
                                const char *reason, struct sim_error *err);

#endif
