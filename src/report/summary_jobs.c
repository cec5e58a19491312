/* SPDX-License-Identifier: BSD-3-Clause */
/* The jobs of a run of several (docs/jobs.md) in the summary and the JSON
 * report: each job's start, end and time, its time alone on the same nodes
 * and the slowdown the others caused. */
#include <stdio.h>

#include "core/escape.h"
#include "report/summary.h"

simtime_t summary_job_end(const struct sim *s, const struct job_figures *job) {
    simtime_t t = job->start;
    for (int32_t i = job->first; i < job->first + job->ranks; i++) {
        simtime_t f = sim_rank_stats(s, i)->finish;
        if (f > t) t = f;
    }
    return t;
}

/* The job's time with the others over its time alone (0: not known). */
static double slowdown(const struct sim *s, const struct job_figures *job) {
    double t = simtime_to_seconds(summary_job_end(s, job) - job->start);
    return job->alone > 0 ? t / job->alone : job->alone == 0 && t == 0 ? 1 : 0;
}

void summary_jobs_print(FILE *out, const struct sim *s, const struct run_info *in, double scale,
                        const char *unit) {
    if (!in->jobs) return;
    fprintf(out, "jobs (times in %s; alone: the same job on the same nodes without the others):\n",
            unit);
    fprintf(out, "  %-20s %8s %7s %12s %12s %12s %12s %9s\n", "job", "ranks", "nodes", "start",
            "end", "time", "alone", "slowdown");
    for (int32_t j = 0; j < in->njobs; j++) {
        const struct job_figures *job = &in->jobs[j];
        simtime_t end = summary_job_end(s, job);
        double sd = slowdown(s, job);
        fprintf(out, "  %-20s %8d %7lld %12.6f %12.6f %12.6f ", job->name, job->ranks,
                (long long)job->nnodes, simtime_to_seconds(job->start) * scale,
                simtime_to_seconds(end) * scale, simtime_to_seconds(end - job->start) * scale);
        if (job->alone >= 0)
            fprintf(out, "%12.6f ", job->alone * scale);
        else
            fprintf(out, "%12s ", "-");
        if (sd > 0)
            fprintf(out, "%9.4f\n", sd);
        else
            fprintf(out, "%9s\n", "-");
    }
}

static void json_nodes(FILE *f, const struct job_figures *job) {
    fprintf(f, "[");
    for (int64_t i = 0; i < job->nnodes; i++)
        fprintf(f, i ? ", %d" : "%d", job->nodes[i]);
    fprintf(f, "]");
}

void summary_jobs_json(FILE *f, const struct sim *s, const struct run_info *in) {
    if (!in->jobs) return;
    fprintf(f, "  \"jobs\": [\n");
    for (int32_t j = 0; j < in->njobs; j++) {
        const struct job_figures *job = &in->jobs[j];
        simtime_t end = summary_job_end(s, job);
        fprintf(f, "    {\"name\": ");
        escape_json(f, job->name);
        fprintf(f, ", \"trace\": ");
        escape_json(f, job->trace);
        fprintf(f, ", \"ranks\": %d, \"first_rank\": %d, \"nodes\": ", job->ranks, job->first);
        json_nodes(f, job);
        fprintf(f, ", \"start\": %.12g, \"end\": %.12g, \"predicted_time\": %.12g, ",
                simtime_to_seconds(job->start), simtime_to_seconds(end),
                simtime_to_seconds(end - job->start));
        if (job->alone >= 0)
            fprintf(f, "\"alone_time\": %.12g, \"slowdown\": %.12g}", job->alone, slowdown(s, job));
        else
            fprintf(f, "\"alone_time\": null, \"slowdown\": null}");
        fprintf(f, j + 1 < in->njobs ? ",\n" : "\n");
    }
    fprintf(f, "  ],\n");
}
