/* SPDX-License-Identifier: BSD-3-Clause */
/* The jobs of a run of several (docs/jobs.md) in the summary and the JSON
 * report: each job's start, end and time, its time alone on the same nodes
 * and the slowdown the others caused. */
#include <stdio.h>

#include "core/escape.h"
#include "net/contention.h"
#include "report/summary.h"

#define MIB 1048576.0
#define MET_SHOWN 3 /* links in the summary (the JSON has JOBS_MET_MAX) */

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

/* Where the jobs' traffic met most (flow contention): each link's bytes
 * beyond its largest job's, and every job's bytes there. */
static void print_met(FILE *out, const struct sim *s, const struct run_info *in) {
    struct link_shared top[MET_SHOWN];
    int n = sim_jobs_shared_links(s, top, MET_SHOWN);
    if (n == 0) return;
    fprintf(out,
            "  where their traffic met most (bytes a link carried beyond its largest job's):\n");
    for (int i = 0; i < n; i++) {
        char name[160];
        network_link_name(sim_network(s), top[i].link, name, sizeof name);
        fprintf(out, "    %s: %.2f MiB met (", name, top[i].met / MIB);
        for (int32_t j = 0, shown = 0; j < in->njobs; j++)
            if (top[i].job_bytes[j] > 0)
                fprintf(out, "%s%s %.2f MiB", shown++ ? ", " : "", in->jobs[j].name,
                        top[i].job_bytes[j] / MIB);
        fprintf(out, ")\n");
    }
}

void summary_jobs_met_json(FILE *f, const struct sim *s, const struct run_info *in) {
    struct link_shared top[JOBS_MET_MAX];
    int n = in->jobs ? sim_jobs_shared_links(s, top, JOBS_MET_MAX) : 0;
    fprintf(f, "[");
    for (int i = 0; i < n; i++) {
        char name[160];
        network_link_name(sim_network(s), top[i].link, name, sizeof name);
        fprintf(f, "%s{\"link\": ", i ? ", " : "");
        escape_json(f, name);
        fprintf(f, ", \"met\": %.12g, \"bytes\": [", top[i].met);
        for (int32_t j = 0; j < in->njobs; j++)
            fprintf(f, j ? ", %.12g" : "%.12g", top[i].job_bytes[j]);
        fprintf(f, "]}");
    }
    fprintf(f, "]");
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
    print_met(out, s, in);
}

static void json_nodes(FILE *f, const struct job_figures *job) {
    fprintf(f, "[");
    for (int64_t i = 0; i < job->nnodes; i++)
        fprintf(f, i ? ", %d" : "%d", job->nodes[i]);
    fprintf(f, "]");
}

/* One job's object: what it is, where it ran, its times. */
static void json_job(FILE *f, const struct sim *s, const struct job_figures *job) {
    simtime_t end = summary_job_end(s, job);
    fprintf(f, "{\"name\": ");
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
}

void summary_jobs_array(FILE *f, const struct sim *s, const struct run_info *in, const char *sep) {
    fprintf(f, "[%s", sep);
    for (int32_t j = 0; in->jobs && j < in->njobs; j++) {
        fprintf(f, "%s", *sep ? "    " : "");
        json_job(f, s, &in->jobs[j]);
        fprintf(f, j + 1 < in->njobs ? ",%s" : "%s", sep);
    }
    fprintf(f, "%s]", *sep ? "  " : "");
}

void summary_jobs_json(FILE *f, const struct sim *s, const struct run_info *in) {
    if (!in->jobs) return;
    fprintf(f, "  \"jobs\": ");
    summary_jobs_array(f, s, in, "\n");
    fprintf(f, ",\n  \"jobs_met\": ");
    summary_jobs_met_json(f, s, in);
    fprintf(f, ",\n");
}
