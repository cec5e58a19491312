/* SPDX-License-Identifier: BSD-3-Clause */
/* Subcommands of the simpi command, and shared option helpers. */
#ifndef SIMPI_CLI_H
#define SIMPI_CLI_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "core/simtime.h"

struct sim_error;

#define EXIT_INPUT_ERROR 1
#define EXIT_USAGE 2
#define EXIT_DEADLOCK 3
#define EXIT_APP_ERROR 4

/* Installs handler for SIGINT, SIGTERM and SIGHUP (SIGHUP only where it is
 * not ignored: nohup). */
void cli_catch_signals(void (*handler)(int));
/* A child process simpi waits for (child.c): cli_pass_signals(true) in the
 * parent before fork notes SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2
 * and SIGALRM sent by another process (not one ignored at the start, but for
 * SIGINT and SIGTERM); (false) in the child restores their default action.
 * The parent's wait, interrupted, calls cli_pass_pending_signal, which
 * passes the signal on 50 ms later. */
void cli_pass_signals(bool on);
void cli_pass_pending_signal(pid_t child);
/* In a child just forked by parent: SIGTERM when the parent ends, however
 * (a SIGKILL of simpi too), so that no program or launcher is left behind
 * running; simpi's runtime answers it with its report. */
void cli_child_dies_with_parent(pid_t parent);

/* help.c: whether the --json FILE of a command line refused as a usage
 * error may be replaced by the failure's report (so that no earlier run's
 * stays): not standard output, not a file another word of the command
 * line names (a trace, the program), not an existing file that is no JSON
 * report (its first byte '{'). */
bool cli_usage_json_replaceable(const char *json, int argc, char **argv);
/* help.c: whether argv (a subcommand's) asks for help, and that help. */
bool cli_asks_help(int argc, char **argv);
/* "simpi CMD ARGS..." as one string (for reports), lives as long as the
 * command. argv[0] is the subcommand. */
const char *cli_command_line(int argc, char **argv);
bool cli_print_help(const char *cmd);

/* options.c: simpi run's (cmd OPT_RUN) or simpi replay's (OPT_REPLAY)
 * options from argv[1], as core/options.c declares them, into s; --fault,
 * --with-ft, --ideal and --seeds become the platform keys they set (as
 * "set", in the order given). Run (words NULL): stops at the first word
 * that is neither an option nor an option's value (the program; after
 * "--", the next), its index in *rest (argc: none). Replay: the other
 * words in words (malloc'd; *nwords). Returns 0; EXIT_USAGE having said
 * why; 1 when -h or --help asked for the help (printed). */
struct option_set;
int cli_options_parse(unsigned cmd, int argc, char **argv, struct option_set *s, int *rest,
                      const char ***words, int *nwords);
/* The option lines of cmd's help, from the table. */
void cli_options_help(unsigned cmd, FILE *out);
/* For bash completion (`simpi help --complete CMD`): each spelling, then
 * its values comma-separated, its argument's name, or - for none. */
void cli_options_complete(unsigned cmd, FILE *out);

/* sweep.c: --set KEY=V1,V2,... gives one run per value (cross product). */
struct sweep {
    int nsets, npoints;
    const char **points; /* npoints rows of nsets (+1) single-valued --set */
    char ***owned;
    int *counts;
};
#define SWEEP_MAX_JOBS 32 /* jobs whose slowdowns a sweep's table gives */
struct sweep_result {
    double predicted; /* seconds */
    double end;       /* seconds: when the job ended (a crash's abort, or the prediction) */
    int exit_status;
    bool host;                       /* an on-line point: what the host did (docs/online.md) */
    double cpu, lost, waited, steal; /* seconds: computation, others' time, waits, steal */
    /* seconds, the mean over ranks of compute, p2p, collective and blocked
     * (from the point's JSON report); has_breakdown when read */
    double breakdown[4];
    bool has_breakdown;
    /* several jobs (docs/jobs.md): each one's name and slowdown (<0: unknown) */
    int njobs;
    char job_name[SWEEP_MAX_JOBS][64];
    double slowdown[SWEEP_MAX_JOBS];
};
/* Fills r's times, host figures and breakdown from a point's JSON report
 * (what simpi wrote: one rank per line); what it lacks stays -1 / false. */
void sweep_read_point(const char *json, struct sweep_result *r);
/* Copies the file at path (if any) to `to`. */
void cli_copy_file(const char *path, FILE *to);
/* The folder of a sweep's per-point reports beside its page: FILE.html ->
 * FILE-points (created); false, with why, when it cannot be. */
bool sweep_make_points_dir(const char *html, char *dir, size_t n, struct sim_error *err);
/* sweep_html.c: the sweep's page: predicted time against each swept value,
 * each point's breakdown, the table, each point's report linked (points_dir
 * NULL: none). */
bool sweep_write_html(const struct sweep *sw, const struct sweep_result *res, const char *html,
                      const char *points_dir, const char *command, struct sim_error *err);
/* The points of a sweep (the cross product of the --set lists), or -1 (said
 * on stderr) when there are more than SWEEP_MAX_POINTS. */
#define SWEEP_MAX_POINTS 100000
int sweep_points(const char *const *sets, int nsets, struct sweep *sw);
const char **sweep_point(const struct sweep *sw, int p);
/* Prints the table (and writes the JSON array); returns the first non-zero
 * exit status of a point, or 0. */
int sweep_report(const struct sweep *sw, const struct sweep_result *res, const char *json);
/* The label of point p: its swept assignments joined ("inter.latency=2us nodes=4"). */
void sweep_point_label(const struct sweep *sw, int p, char *buf, size_t len);
void sweep_free(struct sweep *sw);
/* Whether every swept key is a seed (--seeds N): the points then share
 * every input but the draw, and a bad input fails them all alike. */
bool sweep_only_seeds(const struct sweep *sw);
/* Whether a point's exit status is bad input or usage: under --seeds the
 * first such draw ends the sweep (SWEEP_INPUT_FAILED), as every other would
 * fail alike. */
static inline bool sweep_bad_input(int status) {
    return status == EXIT_INPUT_ERROR || status == EXIT_USAGE;
}
#define SWEEP_INPUT_FAILED                                                                         \
    "the first draw of the sweep failed on its input (above); every other draw shares that "       \
    "input, so none was run"
/* Whether every point's platform (the file at path, NULL for the built-in
 * one, with the point's --set) loads and builds; the first that does not is
 * described in why, with its point, before anything runs. */
bool sweep_check_platforms(const struct sweep *sw, const char *path, char *why, size_t n);

int cmd_replay(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_calibrate_node(int argc, char **argv);
int cmd_platform(int argc, char **argv);
int cmd_gen(int argc, char **argv);
/* gen_coll.c: `simpi gen OP`, collective benchmark traces */
int cmd_gen_collective(int argc, char **argv);
/* The collective called name (barrier ... exscan: enum coll_kind), or -1. */
int cli_coll_kind(const char *name);
/* A comma-separated list of sizes (8,1KiB) into *sizes (malloc'd): how
 * many, or -1 if one is not a size. */
int cli_parse_sizes(const char *list, int64_t **sizes);
/* The trace of ranks ranks calling collective kind (an enum coll_kind) of
 * each size iters times (root 0; each size's calls in an interval OP_SIZE
 * when there are several sizes). */
void cli_write_collective_trace(FILE *f, int kind, long ranks, const int64_t *sizes, int nsizes,
                                long iters, bool nonblocking);
int cmd_topo(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_pingpong(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_extrapolate(int argc, char **argv);

/* Common platform options: --platform FILE, --set K=V (repeatable). Returns 1
 * if argv[*i] was one of them (consuming its value), 0 if not, -1 on error. */
struct platform_opts {
    const char *path;
    const char **sets; /* any number; lives as long as the command */
    int nsets;
};
int cli_platform_option(struct platform_opts *o, int argc, char **argv, int *i);
/* --fault SPEC as the override that adds it to faults: (malloc'd), and
 * --seeds N as the sweep fault_seed=1,...,N (NULL, message printed, if N
 * is not a count). */
char *cli_fault_set(const char *spec);
char *cli_seeds_set(const char *count);
/* --with-ft MODE as the override "fault_tolerance=ulfm" (or abort for
 * none); NULL, having said why, for another mode. */
char *cli_with_ft_set(const char *mode);
/* --ideal WHAT (network, cpu, network+cpu or none; a list sweeps them) as
 * the override "ideal=WHAT"; NULL, having said why, for anything else. */
char *cli_ideal_set(const char *what);
/* The prediction of the trace at `trace` replayed on the platform of o with
 * one more --set (extra; NULL: none), no output; false with why (one line
 * of at most n) if it does not complete. */
bool cli_replay_time(const struct platform_opts *o, const char *extra, const char *trace,
                     simtime_t *t, char *why, size_t n);
/* `simpi replay --sensitivity F`: the trace replayed with each of latency,
 * bandwidth, overhead and speed times F alone; the table, and the JSON
 * (json, if not NULL). Returns the exit status. */
int cli_sensitivity(const struct platform_opts *o, const char *trace, double factor,
                    const char *json);
/* One call of a collective (coll_cost.c, `simpi platform collective`). */
struct coll_call {
    int kind; /* enum coll_kind */
    long ranks;
    int64_t size;
    bool nonblocking;
};
/* The time of call c replayed alone on the platform of o (every rank
 * entering at 0), with algorithm forced (NULL: the one the platform's
 * selector chooses); false with why (one line) if it cannot run. */
bool cli_collective_time(const struct platform_opts *o, const struct coll_call *c,
                         const char *algorithm, simtime_t *t, char *why, size_t n);
/* Loads the platform of o and builds its network; on bad input prints the
 * error and returns NULL (the command exits with EXIT_INPUT_ERROR). */
struct platform;
struct network;
struct platform *cli_load_platform(const struct platform_opts *o, struct network *net);
/* Writes trace in (any form simpi reads) as a binary trace out compressed
 * with codec (enum tbin_codec), atomically (`simpi convert`, and `simpi run --trace-out FILE.sbt`).
 */
bool cli_convert_to_binary(const char *in, const char *out, int codec, struct sim_error *err);
/* Trace in (any form simpi reads) as an OTF2 archive in the new folder out. */
bool cli_convert_to_otf2(const char *in, const char *out, struct sim_error *err);
/* --procs K / -j K: a count of worker processes, or `auto` (-1: the cores
 * free of other programs' work, see cli_fit_procs); prints the error and
 * returns false on bad input. */
bool cli_parse_procs(const char *opt, const char *value, int *out);
/* The worker processes a split run of `simpi cmd` takes for --procs asked
 * (-1: auto): asked, or the cores this process may use that other programs
 * leave free when they are fewer (a worker without a core of its own waits
 * for the scheduler at every window's exchange, which costs more than the
 * split buys), said on stderr. SIMPI_PROCS_EXACT=1 (--procs-exact) keeps
 * asked. 0 and 1 are returned as they are, without looking at the host. */
int cli_fit_procs(const char *cmd, int asked);
/* --placement block|cyclic (how a split run's nodes go to its workers). */
bool cli_parse_placement(const char *value, int *out);
/* value as the name it matches in names (NULL-terminated; hyphens read as
 * underscores, any case), or NULL after "simpi WHAT: found 'x' (did you
 * mean 'y'?), expected one of: ..." on stderr. */
const char *cli_enum_value(const char *what, const char *value, const char *const *names);
/* How many processes the launcher that started this one started (mpirun's
 * OMPI_COMM_WORLD_SIZE, MPICH's PMI_SIZE, Slurm's SLURM_NTASKS), 0 if none. */
int cli_launcher_size(void);
/* A helper file beside simpi (build tree: lib/; installed: ../lib/), or
 * where the environment variable `env` says; false if it is not there
 * with access `mode` (X_OK for a program, R_OK for a library). */
bool cli_find_helper(const char *name, const char *env, int mode, char *path, size_t n);

#endif
