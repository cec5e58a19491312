/* SPDX-License-Identifier: BSD-3-Clause */
/* Several jobs on one platform (docs/jobs.md): what each job is (its
 * trace, start time and placement), read from the command line or from a
 * --jobs YAML file, and the placement of their ranks on nodes that no two
 * jobs share. */
#ifndef SIMPI_JOBS_H
#define SIMPI_JOBS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/error.h"
#include "core/simtime.h"
#include "platform/platform.h"

/* How a job's nodes are chosen among the free ones: the lowest-numbered,
 * drawn at random (seeded), dealt from the topology's groups (dragonfly
 * groups, fat-tree leaves) in turn, or listed. */
enum job_policy { JOB_CONTIGUOUS, JOB_RANDOM, JOB_ROUND_ROBIN, JOB_LIST };

struct job_spec {
    char *name;
    char *trace; /* path as given, or beside the jobs file */
    simtime_t start;
    enum job_policy policy;
    int32_t *nodes; /* JOB_LIST */
    int64_t nnodes;
    int64_t ranks_per_node; /* 0: the platform's */
    char where[160];        /* "FILE:LINE" of its entry, or "command line" */
};

struct job_set {
    struct job_spec *job;
    int32_t n;
    uint64_t seed; /* random placement */
};

/* Jobs from traces named on the command line: each named after its file,
 * starting at 0, placed contiguously in the order given. */
void jobs_from_traces(struct job_set *js, char *const *traces, int n);
/* Jobs from a --jobs YAML file; false with err naming file, line and key. */
bool jobs_load(struct job_set *js, const char *path, struct sim_error *err);
/* The same from the file's text (len bytes) read already. */
bool jobs_load_buffer(struct job_set *js, const char *text, size_t len, const char *path,
                      struct sim_error *err);
void jobs_free(struct job_set *js);

/* The ranks a job puts on each of its nodes: its own ranks_per_node, else
 * the platform's. */
int64_t jobs_ranks_per_node(const struct job_spec *job, const struct platform *p);
/* The nodes the jobs need in all (for nodes: auto). */
int64_t jobs_nodes_needed(const struct job_set *js, const int64_t *ranks, const struct platform *p);
/* The nodes of every job's ranks: ranks[j] ranks for job j, each job's
 * ranks after the previous one's, block-wise over the job's nodes
 * (ranks_per_node of them a node). group: nodes per group for round_robin
 * (0: the topology has none). Resolves nodes: auto (p->nodes 0) to the
 * nodes the jobs need. Returns the list (one node per rank) or NULL with
 * err set. */
int32_t *jobs_place(const struct job_set *js, const int64_t *ranks, struct platform *p,
                    int64_t group, struct sim_error *err);

#endif
