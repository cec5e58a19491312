/* SPDX-License-Identifier: BSD-3-Clause */
/* `simpi replay`: loads the platform and the trace, replays, prints the
 * summary and writes the JSON report. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/alloc.h"
#include "core/digest.h"
#include "core/engine.h"
#include "core/options.h"
#include "core/outfile.h"
#include "core/units.h"
#include "core/workers.h"
#include "net/network.h"
#include "platform/platform.h"
#include "replay/extrapolate.h"
#include "replay/jobs.h"
#include "replay/replay.h"
#include "replay/trace_extrapolated.h"
#include "report/summary.h"

struct replay_opts {
    struct platform_opts plat;
    const char *json;
    const char *trace;
    char **traces; /* every trace named: several are jobs side by side (docs/jobs.md) */
    int ntraces;
    const char *jobs; /* --jobs FILE */
    struct analysis_opts analysis;
    bool quiet;
    bool no_alone;               /* --no-alone: jobs side by side without their runs alone */
    simtime_t wall_limit;        /* --wall-limit; 0: none */
    int procs;                   /* --procs / -j: worker processes (0, 1: none) */
    int placement;               /* --placement: enum sim_placement */
    int launched;                /* started by mpirun or srun as one of that many processes */
    enum progress_mode progress; /* PROGRESS_AUTO (0) unless --progress */
    double sensitivity;          /* --sensitivity F; 0: none */
    int32_t extrapolate;         /* --extrapolate N; 0: none */
    int ntraces_given;           /* the traces --extrapolate extended */
    char *shown;                 /* and their names, as the input reports show */
    double extrapolation_band;   /* and the computation's error band from the fits */
    double counts_band;          /* and the variable counts' spread (-1: none) */
    double sizes_band;           /* and the sends' sizes' taken as means (-1: none) */
    double aligned_band;         /* and the segments moved to the largest scale's order (-1) */
    double iterations_band;      /* and the loops' counts' residual from their law (-1) */
};

/* Whether two paths name one existing file. */
static bool same_file(const char *a, const char *b) {
    struct stat sa, sb;
    return a && b && stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino && S_ISREG(sa.st_mode);
}

/* The options given, as the table declares them (core/options.c). */
static struct option_set given;

/* o filled from the options given (parsed and checked by
 * cli_options_parse). */
static void take_options(struct replay_opts *o) {
    const struct option_set *s = &given;
    const char *v;
    o->plat.path = optset_get(s, "platform");
    for (int k = 0; k < s->n; k++)
        if (!strcmp(s->v[k].decl->name, "set")) {
            o->plat.sets =
                xrealloc_or_die(o->plat.sets, sizeof *o->plat.sets * (size_t)(o->plat.nsets + 1));
            o->plat.sets[o->plat.nsets++] = s->v[k].value;
        }
    if ((v = optset_get(s, "progress"))) progress_parse(v, &o->progress);
    if ((v = optset_get(s, "procs"))) cli_parse_procs("--procs", v, &o->procs);
    if (optset_get(s, "procs-exact")) setenv("SIMPI_PROCS_EXACT", "1", 1);
    if ((v = optset_get(s, "placement"))) cli_parse_placement(v, &o->placement);
    o->json = optset_get(s, "json");
    o->jobs = optset_get(s, "jobs");
    o->analysis.report = optset_get(s, "report");
    o->analysis.paraver = optset_get(s, "paraver");
    o->analysis.chrome = optset_get(s, "chrome");
    o->analysis.otf2 = optset_get(s, "otf2");
    o->analysis.timeline_ranks = optset_get(s, "timeline-ranks");
    o->analysis.critical_path = optset_get(s, "critical-path") != NULL;
    if ((v = optset_get(s, "sensitivity"))) o->sensitivity = strtod(v, NULL);
    if ((v = optset_get(s, "extrapolate"))) o->extrapolate = (int32_t)atol(v);
    simtime_t t;
    if ((v = optset_get(s, "time-limit")) && units_parse_time(v, &t, NULL))
        replay_set_time_limit(t);
    if ((v = optset_get(s, "wall-limit")) && units_parse_time(v, &t, NULL)) o->wall_limit = t;
    o->no_alone = optset_get(s, "no-alone") != NULL;
    o->quiet = optset_get(s, "quiet") != NULL;
}

static int parse_args(struct replay_opts *o, int argc, char **argv) {
    int rest, rc = cli_options_parse(OPT_REPLAY, argc, argv, &given, &rest,
                                     (const char ***)&o->traces, &o->ntraces);
    if (rc) return rc == 1 ? -1 : rc;
    take_options(o);
    o->trace = o->ntraces ? o->traces[0] : NULL;
    if (o->jobs && o->trace) {
        fprintf(stderr, "simpi replay: --jobs %s names the traces; give no trace beside it\n",
                o->jobs);
        return EXIT_USAGE;
    }
    if (o->jobs) o->trace = o->jobs;
    if (!o->trace) {
        fprintf(stderr, "usage: simpi replay [--platform FILE] [--set KEY=VALUE]... [--json FILE] "
                        "[--report FILE.html] [--paraver PREFIX] [--chrome FILE.json] TRACE...\n"
                        "       simpi replay [OPTIONS] --jobs JOBS.yaml\n");
        return EXIT_USAGE;
    }
    const char *outputs[][2] = {
        {"--json", o->json}, {"--report", o->analysis.report}, {"--chrome", o->analysis.chrome}};
    for (size_t k = 0; k < sizeof outputs / sizeof *outputs; k++)
        for (int t = 0; t < o->ntraces || (t == 0 && o->jobs); t++)
            if (same_file(outputs[k][1], o->jobs ? o->jobs : o->traces[t])) {
                fprintf(stderr, "simpi replay: %s %s is the %s itself, which it would overwrite\n",
                        outputs[k][0], outputs[k][1], o->jobs ? "jobs file" : "trace");
                return EXIT_USAGE;
            }
    return 0;
}

/* A failure names the run's ranks: which are whose, to read it by job. */
static void say_job_ranks(const struct job_figures *jobs, int32_t njobs) {
    fprintf(stderr, "simpi: the run's ranks by job: ");
    for (int32_t j = 0; j < njobs; j++)
        fprintf(stderr, "%s%s %d-%d", j ? ", " : "", jobs[j].name, jobs[j].first,
                jobs[j].first + jobs[j].ranks - 1);
    fprintf(stderr, " (a job's rank i is the run's rank first + i)\n");
}

/* The summary, JSON and analysis outputs of a replay (of several jobs:
 * their figures in jobs). */
static int report(const struct replay_opts *o, const char *what, struct replay_result *res,
                  const struct platform *p, int64_t trace_buffer, const struct job_figures *jobs,
                  int32_t njobs) {
    struct run_info info = {what,
                            p->source,
                            p->nodes,
                            res->records,
                            trace_buffer,
                            res->wall_seconds,
                            res->status,
                            res->status == SIM_INTERRUPTED ? 128 + replay_interrupt_signal
                                                           : sim_exit_code(res->status),
                            0,
                            res->analysis,
                            NULL,
                            jobs,
                            njobs,
                            platform_ideal(p),
                            o->extrapolate,
                            o->extrapolate ? o->ntraces_given : 0,
                            o->extrapolation_band,
                            o->extrapolate && o->counts_band >= 0 ? o->counts_band : -1,
                            o->extrapolate && o->sizes_band >= 0 ? o->sizes_band : -1,
                            o->extrapolate && o->aligned_band >= 0 ? o->aligned_band : -1,
                            o->extrapolate && o->iterations_band >= 0 ? o->iterations_band : -1};
    if (res->status != SIM_OK) fprintf(stderr, "simpi: error: %s", sim_failure_report(res->sim));
    if (res->status != SIM_OK && jobs) say_job_ranks(jobs, njobs);
    struct sim_error aerr = {0};
    bool outputs_ok = analysis_finish(res->analysis, &info, &aerr);
    if (!o->quiet)
        summary_print(o->json && !strcmp(o->json, "-") ? stderr : stdout, res->sim, &info);
    struct sim_error err = {0};
    if (o->json && !summary_write_json(o->json, res->sim, &info, &err)) {
        err_print(&err);
        return info.exit_status ? info.exit_status : EXIT_INPUT_ERROR;
    }
    if (!outputs_ok) {
        err_print(&aerr);
        return info.exit_status ? info.exit_status : EXIT_INPUT_ERROR;
    }
    return info.exit_status;
}

/* A run that could not start still replaces the JSON report. */
static void report_failure(const struct replay_opts *o, const struct sim_error *why) {
    struct sim_error err = {0};
    if (o->json &&
        !summary_write_failure_json(o->json, o->trace, EXIT_INPUT_ERROR, why->msg, &err) &&
        strcmp(err.msg, why->msg) != 0) /* (the --json itself: said once) */
        err_print(&err);
}

/* A split run lost a worker mid-run (part.c ends the process then): its
 * --json says so, as every other failure's does, not an earlier run's. */
static const struct replay_opts *lost_opts;
static void replay_lost(const char *why) {
    struct sim_error e = {0};
    err_set(&e, "%s", why);
    if (lost_opts) report_failure(lost_opts, &e);
}

/* Ctrl-C, SIGTERM or SIGHUP while the simulation runs, or before it (the
 * trace being opened: a Ctrl-C in the run's first moments): the replay
 * stops at its next record, or at its first, and reports what it reached.
 * After it (the reports being written), a second signal, or one the replay
 * does not answer within 3 s (blocked reading a FIFO): the process ends,
 * removing the outputs being written. */
/* --extrapolate's trace, removed by whatever ends the process */
static char extrapolated[PATH_MAX];

static void on_interrupt(int sig) {
    if (replay_simulated || replay_interrupt_signal || sig == SIGALRM) {
        /* the alarm ends the process as the signal it waited on would */
        int end = sig == SIGALRM && replay_interrupt_signal ? replay_interrupt_signal : sig;
        outfile_remove_pending();
        if (extrapolated[0]) unlink(extrapolated);
        signal(end, SIG_DFL);
        raise(end);
        return;
    }
    replay_interrupt_signal = sig;
    alarm(3);
}

/* At the start of a split replay, every worker: all replay the same trace
 * on the same platform with the same options, or the run is refused
 * naming what differs (workers_agree). */
static bool replay_agree(struct workers *w, const struct replay_opts *o, const struct platform *p,
                         uint64_t traces, struct sim_error *err) {
    uint64_t options = digest_bytes(DIGEST_START, &o->placement, sizeof o->placement);
    struct workers_fact facts[WORKERS_FACTS] = {
        {"command", "(simpi run, simpi replay)", digest_string(DIGEST_START, "simpi replay")},
        {"rank count", "", DIGEST_START},
        {"program or trace", "(a different trace?)", traces},
        {"platform, as resolved", "(a different --platform or --set?)", platform_digest(p)},
        {"options", "(--placement)", options}};
    return workers_agree(w, facts, err);
}

/* A split run's workers: joined under a launcher, or forked (--procs);
 * NULL with err set when they cannot be, or NULL and no error when the
 * run is not split. Each of the paths must be a file or a folder: every
 * worker reads them. */
static struct workers *start_workers(const struct replay_opts *o, const char *const *paths,
                                     int npaths, struct sim_error *err) {
    struct stat st;
    if (!o->launched && o->procs < 2) return NULL;
    for (int i = 0; i < npaths; i++)
        if (stat(paths[i], &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
            err_set(err,
                    "%s: a split run's workers each read the trace, which a pipe or device "
                    "cannot give twice; write it to a file, or replay without --procs",
                    paths[i]);
            return NULL;
        }
    if (!o->launched) return workers_fork(o->procs, err);
    char helper[PATH_MAX];
    if (!cli_find_helper("simpi-transport", "SIMPI_TRANSPORT", X_OK, helper, sizeof helper)) {
        err_set(err,
                "this replay runs under a launcher (%d processes) but simpi-transport, "
                "the MPI side of a split run, is not beside simpi (it is built when "
                "an MPI is installed)",
                o->launched);
        return NULL;
    }
    return workers_join(helper, err);
}

/* After a replay (of one trace or of jobs) reported, or failed to run
 * (why, and the JSON replaced, unless a sweep's point): its exit status
 * for the sweep, the split run's workers ended. Returns the exit status. */
static int replay_ended(const struct replay_opts *o, bool ran, int rc, const struct sim_error *err,
                        struct sweep_result *res_out, struct workers *w) {
    if (!ran) {
        err_print(err);
        if (!res_out) report_failure(o, err);
    }
    if (res_out) res_out->exit_status = rc;
    struct sim_error werr = {0};
    if (w && !workers_end(w, 0, &werr)) {
        err_print(&werr);
        if (!rc) rc = EXIT_INPUT_ERROR;
    }
    replay_set_workers(NULL, SIM_PLACE_BLOCK);
    return rc;
}

/* One replay with the given --set list, its summary (unless quiet) and
 * o->json; res_out, a sweep's point, gets its exit status (its figures are
 * read back from that JSON, replay_sweep). */
/* The platform of a replay (NULL, err set: refused). */
static struct platform *load_platform(const struct replay_opts *o, const char *const *sets,
                                      int nsets, struct sim_error *err) {
    struct platform *p = platform_load(o->plat.path, sets, nsets, err);
    if (p && p->ulfm) { /* not a silent prediction from operations that should have failed */
        err_set(err, "fault_tolerance: ulfm (--with-ft ulfm) is for simpi run: a trace has no "
                     "error handlers (every communicator's is MPI_ERRORS_ARE_FATAL), so a crash "
                     "ends its replay as it would end the traced job");
        platform_free(p);
        p = NULL;
    }
    return p;
}

static int replay_jobs_once(const struct replay_opts *o, const char *const *sets, int nsets,
                            struct sweep_result *res_out);

static int replay_once(const struct replay_opts *o, const char *const *sets, int nsets,
                       struct sweep_result *res_out) {
    if (o->jobs || o->ntraces > 1) return replay_jobs_once(o, sets, nsets, res_out);
    struct sim_error err = {0};
    int rc;
    struct platform *p = load_platform(o, sets, nsets, &err);
    struct network net = {0};
    bool net_ok = p && network_init(&net, p, &err);
    /* outputs found unwritable now, not after the run (a sweep writes only
     * its table's JSON, at its end) */
    if (net_ok && !res_out &&
        (!outfile_writable(o->json, &err) || !analysis_outputs_writable(&o->analysis, &err)))
        net_ok = false;
    struct workers *w = net_ok ? start_workers(o, &o->trace, 1, &err) : NULL;
    if (err.set) net_ok = false;
    if (w && !replay_agree(w, o, p, digest_path(DIGEST_START, o->trace), &err)) {
        if (workers_me(w) != 0) workers_end(w, 1, &err); /* the first says why */
        net_ok = false;
    }
    replay_set_workers(w, (enum sim_placement)o->placement);
    lost_opts = o;
    replay_set_lost(replay_lost);
    struct trace_reader *t = net_ok ? trace_open(o->trace, &err) : NULL;
    struct replay_result res = {0};
    bool ran = t && replay_run(t, p, &net, &res, &err);
    alarm(0);                      /* stopped in time: the reports are written whatever they take */
    if (w && workers_me(w) != 0) { /* the first worker reports the run */
        trace_close(t);            /* (a Dimemas trace's folder removed) */
        workers_end(w, 0, &err);   /* a failure reached the first worker already */
    }
    /* a sweep's point too: its own JSON (and report) */
    rc = ran ? report(o, o->shown ? o->shown : o->trace, &res, p, trace_buffer_peak(t), NULL, 0)
             : EXIT_INPUT_ERROR;
    rc = replay_ended(o, ran, rc, &err, res_out, w);
    replay_result_free(&res);
    trace_close(t);
    if (net_ok) network_destroy(&net);
    platform_free(p);
    return rc;
}

/* --- several jobs side by side (docs/jobs.md) --- */

struct jobs_run {
    struct job_set js;
    struct trace_reader **traces;
    int64_t *ranks;
    simtime_t *start;
    const char **names; /* each job's */
    struct job_figures *fig;
    int32_t *nodes; /* each job's nodes, one job after another */
};

/* The jobs' trace readers closed (a Dimemas trace's folder removed). */
static void close_traces(struct jobs_run *jr) {
    for (int32_t j = 0; jr->traces && j < jr->js.n; j++) {
        trace_close(jr->traces[j]);
        jr->traces[j] = NULL;
    }
}

static void jobs_run_free(struct jobs_run *jr) {
    close_traces(jr);
    free(jr->traces);
    free(jr->ranks);
    free(jr->start);
    free(jr->names);
    free(jr->fig);
    free(jr->nodes);
    jobs_free(&jr->js);
}

/* The jobs, their traces opened and their ranks counted. */
static bool open_jobs(const struct replay_opts *o, struct jobs_run *jr, struct sim_error *err) {
    if (o->jobs && !jobs_load(&jr->js, o->jobs, err)) return false;
    if (!o->jobs) jobs_from_traces(&jr->js, o->traces, o->ntraces);
    int32_t n = jr->js.n;
    jr->traces = xcalloc((size_t)n, sizeof *jr->traces);
    jr->ranks = xcalloc((size_t)n, sizeof *jr->ranks);
    jr->start = xcalloc((size_t)n, sizeof *jr->start);
    jr->names = xcalloc((size_t)n, sizeof *jr->names);
    for (int32_t j = 0; j < n; j++) {
        if (!(jr->traces[j] = trace_open(jr->js.job[j].trace, err))) return false;
        jr->ranks[j] = trace_ranks(jr->traces[j]);
        jr->start[j] = jr->js.job[j].start;
        jr->names[j] = jr->js.job[j].name;
    }
    return true;
}

/* The draw's number (fault_seed, which --seeds N sweeps) also draws the
 * random placements: the jobs' seed moved by it. */
static bool draw_seed(struct job_set *js, const struct platform *p, struct sim_error *err) {
    int64_t draw = 0;
    if (conf_map_get(p->conf, "fault_seed") &&
        !conf_get_int(p->conf, "", "fault_seed", 0, INT64_MAX, &draw, err))
        return false;
    js->seed += (uint64_t)draw * 0x9e3779b97f4a7c15ull;
    return true;
}

/* The network; one sized by the platform (star, full, ring) with nodes:
 * auto gets the nodes the jobs need. */
static bool jobs_network(struct jobs_run *jr, struct platform *p, struct network *net,
                         struct sim_error *err) {
    if (network_init(net, p, err)) return true;
    if (p->nodes != 0) return false;
    *err = (struct sim_error){0};
    p->nodes = jobs_nodes_needed(&jr->js, jr->ranks, p);
    return network_init(net, p, err);
}

/* The jobs' placement made the platform's: a list of every rank's node
 * (a network that sized the platform, or a flat one, is built already). */
static bool place_jobs(struct jobs_run *jr, struct platform *p, struct network *net,
                       struct sim_error *err) {
    int32_t *list = jobs_place(&jr->js, jr->ranks, p, topology_group_size(&net->topo), err);
    if (!list) return false;
    int64_t total = 0;
    for (int32_t j = 0; j < jr->js.n; j++)
        total += jr->ranks[j];
    free(p->node_list);
    p->node_list = list;
    p->node_list_len = total;
    p->placement = PLACE_LIST;
    return true;
}

/* Job j's predicted time alone on its own nodes, in seconds (-1: the run
 * alone failed or was interrupted). */
static double alone_time(struct jobs_run *jr, int32_t j, struct platform *p) {
    const struct job_figures *f = &jr->fig[j];
    struct sim_error err = {0};
    struct trace_reader *t = trace_open(jr->js.job[j].trace, &err);
    struct network net = {0};
    int32_t *whole = p->node_list;
    int64_t whole_len = p->node_list_len;
    p->node_list = xcalloc((size_t)f->ranks + 1, sizeof *p->node_list);
    memcpy(p->node_list, whole + f->first, sizeof *whole * (size_t)f->ranks);
    p->node_list_len = f->ranks;
    simtime_t zero = 0;
    struct replay_jobs one = {1, &zero, NULL};
    struct replay_result res = {0};
    double alone = -1;
    if (t && network_init(&net, p, &err)) {
        if (replay_run_jobs(&t, &one, p, &net, &res, &err) && res.status == SIM_OK)
            alone = simtime_to_seconds(summary_predicted(res.sim));
        replay_result_free(&res);
        network_destroy(&net);
    }
    if (err.set) fprintf(stderr, "simpi replay: job %s alone: %s\n", f->name, err.msg);
    trace_close(t);
    free(p->node_list);
    p->node_list = whole;
    p->node_list_len = whole_len;
    return alone;
}

/* Each job's figures but its time alone. */
static void job_figures(struct jobs_run *jr, const struct platform *p) {
    jr->fig = xcalloc((size_t)jr->js.n, sizeof *jr->fig);
    jr->nodes = xcalloc((size_t)p->node_list_len + 1, sizeof *jr->nodes);
    for (int32_t j = 0, first = 0, at = 0; j < jr->js.n; j++) {
        const struct job_spec *job = &jr->js.job[j];
        struct job_figures *f = &jr->fig[j];
        int64_t per = jobs_ranks_per_node(job, p);
        *f = (struct job_figures){job->name,      job->trace, first,      (int32_t)jr->ranks[j],
                                  jr->nodes + at, 0,          job->start, -1};
        for (int32_t i = 0; i < f->ranks; i += (int32_t)per) /* its ranks fill each node in turn */
            jr->nodes[at + f->nnodes++] = p->node_list[first + i];
        at += (int32_t)f->nnodes;
        first += f->ranks;
    }
}

/* Each job's time alone: runs of each job by itself, in one process,
 * quietly, without the outputs (none with --no-alone). */
static void alone_times(struct jobs_run *jr, struct platform *p, const struct replay_opts *o) {
    replay_set_analysis(NULL);
    replay_set_progress(PROGRESS_NEVER);
    for (int32_t j = 0; j < jr->js.n && !replay_interrupt_signal && !o->no_alone; j++)
        jr->fig[j].alone = alone_time(jr, j, p);
    replay_set_analysis(&o->analysis);
    replay_set_progress(o->progress);
}

static int64_t jobs_trace_buffer(const struct jobs_run *jr) {
    int64_t b = 0;
    for (int32_t j = 0; j < jr->js.n; j++)
        b += trace_buffer_peak(jr->traces[j]);
    return b;
}

/* What the summary names: the jobs file, or the traces joined by "+". */
static void jobs_what(const struct replay_opts *o, char *buf, size_t len) {
    size_t at = (size_t)snprintf(buf, len, "%s", o->jobs ? o->jobs : o->traces[0]);
    for (int t = 1; !o->jobs && t < o->ntraces && at < len; t++)
        at += (size_t)snprintf(buf + at, len - at, " + %s", o->traces[t]);
}

/* The jobs' traces again, in this worker of a split run (a forked worker
 * does not share the parent's readers). */
static bool reopen_traces(struct jobs_run *jr, struct sim_error *err) {
    for (int32_t j = 0; j < jr->js.n; j++) {
        trace_close(jr->traces[j]);
        if (!(jr->traces[j] = trace_open(jr->js.job[j].trace, err))) return false;
    }
    return true;
}

/* What every worker of a split run must share: the jobs file, each job's
 * trace, the jobs' nodes and start times. */
static uint64_t jobs_digest(const struct replay_opts *o, const struct jobs_run *jr,
                            const struct platform *p) {
    uint64_t h = o->jobs ? digest_path(DIGEST_START, o->jobs) : DIGEST_START;
    for (int32_t j = 0; j < jr->js.n; j++)
        h = digest_path(h, jr->js.job[j].trace);
    h = digest_bytes(h, p->node_list, sizeof *p->node_list * (size_t)p->node_list_len);
    return digest_bytes(h, jr->start, sizeof *jr->start * (size_t)jr->js.n);
}

/* The workers of a split run of the jobs (NULL: not split, or err set).
 * Under a launcher they are joined; forked ones (--procs) after the runs
 * alone, each opening the traces anew. */
static struct workers *jobs_workers(const struct replay_opts *o, struct jobs_run *jr,
                                    const struct platform *p, struct sim_error *err) {
    const char **paths = xcalloc((size_t)jr->js.n + 1, sizeof *paths);
    for (int32_t j = 0; j < jr->js.n; j++)
        paths[j] = jr->js.job[j].trace;
    if (!o->launched) close_traces(jr); /* each worker opens its own */
    struct workers *w = start_workers(o, paths, jr->js.n, err);
    free(paths);
    if (!o->launched && !err->set) reopen_traces(jr, err);
    if (w && !err->set && !replay_agree(w, o, p, jobs_digest(o, jr, p), err) &&
        workers_me(w) != 0) {
        close_traces(jr);
        workers_end(w, 1, err); /* the first says why */
    }
    return w;
}

static int replay_jobs_once(const struct replay_opts *o, const char *const *sets, int nsets,
                            struct sweep_result *res_out) {
    struct sim_error err = {0};
    struct jobs_run jr = {0};
    struct network net = {0};
    struct workers *w = NULL;
    struct platform *p = load_platform(o, sets, nsets, &err);
    bool ok = p && (res_out || (outfile_writable(o->json, &err) &&
                                analysis_outputs_writable(&o->analysis, &err)));
    ok = ok && open_jobs(o, &jr, &err) && draw_seed(&jr.js, p, &err);
    bool net_ok = ok && jobs_network(&jr, p, &net, &err);
    ok = net_ok && place_jobs(&jr, p, &net, &err);
    if (ok) job_figures(&jr, p);
    if (ok && o->launched) {
        w = jobs_workers(o, &jr, p, &err);
        ok = !err.set;
    }
    /* the runs alone first (their memory is given back before the run), by
     * the worker that reports */
    if (ok && (!w || workers_me(w) == 0)) alone_times(&jr, p, o);
    if (ok && !o->launched && o->procs > 1) {
        w = jobs_workers(o, &jr, p, &err);
        ok = !err.set;
    }
    replay_set_workers(w, (enum sim_placement)o->placement);
    lost_opts = o;
    replay_set_lost(replay_lost);
    struct replay_jobs spec = {jr.js.n, jr.start, (const char *const *)jr.names};
    struct replay_result res = {0};
    bool ran = ok && replay_run_jobs(jr.traces, &spec, p, &net, &res, &err);
    alarm(0);
    if (w && workers_me(w) != 0) { /* the first worker reports the run */
        close_traces(&jr);         /* (a Dimemas trace's folder removed) */
        workers_end(w, 0, &err);
    }
    char what[1024];
    jobs_what(o, what, sizeof what);
    int rc =
        ran ? report(o, what, &res, p, jobs_trace_buffer(&jr), jr.fig, jr.js.n) : EXIT_INPUT_ERROR;
    rc = replay_ended(o, ran, rc, &err, res_out, w);
    replay_result_free(&res);
    jobs_run_free(&jr);
    if (net_ok) network_destroy(&net);
    platform_free(p);
    return rc;
}

/* One replay per sweep point, each writing its JSON (into the folder of
 * --report's points, or a temporary one) from which its breakdown is read;
 * then the table, the JSON array and the page. */
static int replay_sweep(struct replay_opts *o, const struct sweep *sw) {
    const char *json = o->json, *html = o->analysis.report, *tmpdir = getenv("TMPDIR");
    char dir[512], points[PATH_MAX], path[PATH_MAX + 32], page[PATH_MAX + 32];
    struct sim_error err = {0};
    snprintf(dir, sizeof dir, "%s/simpi-sweep-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    if (html && !sweep_make_points_dir(html, points, sizeof points, &err)) {
        fprintf(stderr, "simpi replay: %s\n", err.msg);
        return EXIT_INPUT_ERROR;
    }
    if (!html && !mkdtemp(dir)) {
        fprintf(stderr, "simpi replay: cannot create a folder in %s: %s\n", dir, strerror(errno));
        return EXIT_INPUT_ERROR;
    }
    bool quiet = o->quiet;
    o->quiet = true;
    struct sweep_result *res = xcalloc((size_t)sw->npoints, sizeof *res);
    int rc = 0;
    for (int i = 0; i < sw->npoints && !replay_interrupt_signal; i++) {
        snprintf(path, sizeof path, "%s/point%d.json", html ? points : dir, i);
        snprintf(page, sizeof page, "%s/point%d.html", points, i);
        o->json = path;
        o->analysis.report = html ? page : NULL;
        replay_once(o, sweep_point(sw, i), sw->nsets, &res[i]);
        int st = res[i].exit_status;
        sweep_read_point(path, &res[i]);
        res[i].exit_status = st;
        if (!html) unlink(path);
        if (i == 0 && sweep_only_seeds(sw) && sweep_bad_input(res[0].exit_status)) {
            struct sim_error why = {0};
            err_set(&why, SWEEP_INPUT_FAILED);
            fprintf(stderr, "simpi replay: %s\n", why.msg);
            o->json = json;
            report_failure(o, &why);
            rc = res[0].exit_status;
            break;
        }
    }
    o->json = json;
    o->analysis.report = html;
    o->quiet = quiet;
    if (!html) rmdir(dir);
    if (!rc) {
        rc = replay_interrupt_signal ? 128 + replay_interrupt_signal : sweep_report(sw, res, json);
        if (html && !sweep_write_html(sw, res, html, points, o->analysis.command, &err)) {
            fprintf(stderr, "simpi replay: %s\n", err.msg);
            if (!rc) rc = EXIT_INPUT_ERROR;
        }
    }
    free(res);
    return rc;
}

/* The replay, or the sweep, that the parsed options ask for. */
static int replay_command(struct replay_opts *o, int argc, char **argv) {
    int rc;
    replay_set_progress(o->progress);
    o->analysis.command = cli_command_line(argc, argv);
    replay_set_analysis(&o->analysis);
    cli_catch_signals(on_interrupt);
    signal(SIGALRM, on_interrupt);
    if (o->wall_limit && !engine_wall_limit(simtime_to_seconds(o->wall_limit), NULL)) {
        fprintf(stderr, "simpi replay: --wall-limit: cannot start a timer\n");
        return EXIT_INPUT_ERROR;
    }
    o->launched = cli_launcher_size();
    if (o->launched > 1 && o->procs != 0 && o->procs != 1) {
        fprintf(stderr,
                "simpi replay: --procs and a launcher (mpirun, srun: %d processes) both "
                "split the run; give one of them\n",
                o->launched);
        return EXIT_USAGE;
    }
    if (o->launched < 2) o->launched = 0;
    o->procs = cli_fit_procs("replay", o->procs);
    struct sweep sw;
    int npoints = sweep_points(o->plat.sets, o->plat.nsets, &sw);
    if (npoints < 0) return EXIT_USAGE;
    if (o->sensitivity > 0) {
        sweep_free(&sw);
        if (npoints > 1 || o->ntraces > 1 || o->jobs || o->procs > 1 || o->analysis.report ||
            o->analysis.paraver || o->analysis.chrome || o->analysis.otf2) {
            fprintf(stderr, "simpi replay: --sensitivity replays one trace several times: give one "
                            "trace, one value per --set, and no --jobs, --procs or timeline "
                            "outputs\n");
            return EXIT_USAGE;
        }
        return cli_sensitivity(&o->plat, o->trace, o->sensitivity, o->json);
    }
    if (npoints == 1) {
        sweep_free(&sw);
        return replay_once(o, o->plat.sets, o->plat.nsets, NULL);
    }
    if (o->analysis.paraver || o->analysis.chrome || o->analysis.otf2) {
        fprintf(stderr,
                "simpi replay: --paraver, --chrome and --otf2 describe one run, not a sweep of %d; "
                "give one value per --set (--report draws a sweep)\n",
                sw.npoints);
        sweep_free(&sw);
        return EXIT_USAGE;
    }
    char why[1200];
    if (!sweep_check_platforms(&sw, o->plat.path, why, sizeof why)) {
        fprintf(stderr, "simpi replay: %s\n", why);
        sweep_free(&sw);
        return EXIT_INPUT_ERROR;
    }
    rc = replay_sweep(o, &sw);
    sweep_free(&sw);
    return rc;
}

/* The --json FILE given anywhere in the command line (the last one), or
 * NULL: for a command line refused before it was understood. */
static const char *json_in_args(int argc, char **argv) {
    const char *json = NULL;
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (!strcmp(argv[i], "--json") && i + 1 < argc)
            json = argv[++i];
        else if (!strncmp(argv[i], "--json=", 7))
            json = argv[i] + 7;
    }
    return json;
}

/* --extrapolate N: the traces given, extended to N ranks, as a file in
 * TMPDIR that names them (trace_extrapolated.h: the records are generated
 * as the replay asks; its path in path, removed by the caller), which
 * becomes the trace replayed. Returns the exit status (0: go on). */
/* A reader that went away (simpi replay ... | head) ends the process as
 * SIGPIPE would, without leaving --extrapolate's trace behind. */
static void on_broken_pipe(int sig) {
    if (extrapolated[0]) unlink(extrapolated);
    outfile_remove_pending();
    signal(sig, SIG_DFL);
    raise(sig);
}

static int extrapolate_traces(struct replay_opts *o, char *path, size_t n) {
    if (o->ntraces < 2 || o->jobs) {
        fprintf(stderr, "simpi replay: --extrapolate takes the traces of one program at two or "
                        "more scales (no --jobs)\n");
        return EXIT_USAGE;
    }
    const char *tmpdir = getenv("TMPDIR");
    snprintf(path, n, "%s/simpi-extrapolated-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    int fd = mkstemp(path);
    if (fd >= 0) signal(SIGPIPE, on_broken_pipe);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    struct sim_error err = {0};
    struct extrapolation x;
    /* opened once here for what it says and to refuse early; the replay
     * opens the file that names the traces, and generates the records */
    struct extrapolator *e =
        f ? extrapolator_open(o->traces, o->ntraces, o->extrapolate, &x, &err) : NULL;
    bool ok = e != NULL;
    extrapolator_close(e);
    if (ok) {
        fprintf(f, "%s\nranks %d\n", EXTRAPOLATION_MAGIC, o->extrapolate);
        for (int i = 0; i < o->ntraces; i++) {
            char *full = realpath(o->traces[i], NULL);
            fprintf(f, "trace %s\n", full ? full : o->traces[i]);
            free(full);
        }
    }
    if (f && fclose(f) != 0 && ok) ok = err_set(&err, "cannot write %s", path);
    if (!f)
        err_set(&err, "cannot create a file in %s: %s", tmpdir ? tmpdir : "/tmp", strerror(errno));
    if (!ok) {
        fprintf(stderr, "simpi replay: --extrapolate %d: %s\n", o->extrapolate, err.msg);
        if (fd < 0) path[0] = '\0';
        return EXIT_INPUT_ERROR;
    }
    fprintf(stderr,
            "extrapolated: %d ranks from %d scales on a %d-D%s grid; computation within %.2g%% "
            "of its laws%s%s%s: the prediction carries that error\n",
            o->extrapolate, o->ntraces, x.ndims, extrapolation_grid_word(&x), 100 * x.worst_error,
            x.worst[0] ? " (the worst: " : "", x.worst, x.worst[0] ? ")" : "");
    extrapolation_say_counts(&x, stderr, "extrapolated: ");
    o->ntraces_given = o->ntraces;
    size_t len = 1;
    for (int i = 0; i < o->ntraces; i++)
        len += strlen(o->traces[i]) + 2;
    o->shown = xcalloc(len, 1);
    for (int i = 0; i < o->ntraces; i++) {
        if (i) strcat(o->shown, " ");
        strcat(o->shown, o->traces[i]);
    }
    o->extrapolation_band = x.worst_error;
    o->counts_band = x.counts_worst[0] ? x.counts_spread : -1;
    o->sizes_band = x.sizes_worst[0] ? x.sizes_spread : -1;
    o->aligned_band = x.aligned[0] ? x.aligned_share : -1;
    o->iterations_band = x.iters_worst[0] ? x.iters_band : -1;
    o->traces[0] = path;
    o->ntraces = 1;
    o->trace = path;
    return 0;
}

int cmd_replay(int argc, char **argv) {
    struct replay_opts o = {0};
    int rc = parse_args(&o, argc, argv);
    const char *json = rc == EXIT_USAGE ? json_in_args(argc, argv) : NULL;
    struct sim_error err = {0};
    if (cli_usage_json_replaceable(json, argc, argv) && /* no earlier run's report left */
        !summary_write_failure_json(json, "", EXIT_USAGE,
                                    "a usage error in simpi replay's command line "
                                    "(see standard error): nothing was run",
                                    &err))
        err_print(&err);
    if (!rc && o.extrapolate) rc = extrapolate_traces(&o, extrapolated, sizeof extrapolated);
    if (!rc) rc = replay_command(&o, argc, argv);
    if (extrapolated[0]) unlink(extrapolated);
    free(o.traces);
    free(o.plat.sets);
    free(o.shown);
    optset_free(&given);
    return rc < 0 ? 0 : rc;
}
