/* SPDX-License-Identifier: BSD-3-Clause */
/* simpi: the command-line entry point; dispatches to subcommands. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "cli/cli.h"
#include "core/log.h"
#include "core/options.h"
#include "core/outfile.h"

#ifndef SIMPI_VERSION
#define SIMPI_VERSION "0.1.0"
#endif

static void usage(FILE *out) {
    fprintf(out,
            "simpi %s: predicts how long an MPI application takes on a machine you do not have\n"
            "\n"
            "usage:\n"
            "  simpi run -n N [--platform FILE] [--set KEY=VALUE]... ./program [args]\n"
            "        run an MPI program built with simpicc as N simulated ranks\n"
            "  simpi calibrate-host [-o FILE.yaml] (or simpi calibrate host)\n"
            "        measure this machine's flop rate (for --host-speed)\n"
            "  simpi calibrate node [-o FILE.yaml] [-- -n N ./program]\n"
            "        measure a node's memory bandwidth and a program's demand on it\n"
            "  simpi calibrate pingpong -o FILE.yaml [--svg FILE.svg] -- mpirun -np 2\n"
            "        fit a piecewise network model to a real MPI's ping-pong\n"
            "  simpi replay [--platform FILE] [--set KEY=VALUE]... [--json FILE] TRACE\n"
            "        replay a trace (simpi's, a folder of rankN.trace, SimGrid, Dimemas,\n"
            "        OTF2, LogGOPSim GOAL)\n"
            "  simpi platform show|convert|collective ...\n"
            "        print the resolved platform (built-in default without FILE), convert a\n"
            "        SimGrid or Dimemas platform, show the collective algorithm chosen\n"
            "  simpi topo [--platform FILE] [--set KEY=VALUE]... [--json FILE] [--route A B]\n"
            "        statistics of the platform's network topology, or one route\n"
            "  simpi trace -o DIR -- mpirun -np N ./program [args]\n"
            "        trace a real MPI run (Open MPI) into DIR, for simpi replay DIR\n"
            "  simpi convert IN OUT [--to native|binary|dim|simgrid|otf2]\n"
            "        convert a trace between simpi's text and binary, Dimemas, SimGrid, OTF2\n"
            "  simpi extrapolate TRACE TRACE... --ranks N [-o OUT]\n"
            "        a program's traces at a few small scales written as its trace at N ranks\n"
            "  simpi gen stencil --ranks N --iters K [--size BYTES] [--compute TIME] [-o FILE]\n"
            "        write a synthetic 2-D halo exchange + allreduce trace\n"
            "\n"
            "sweeps (run and replay): --set KEY=V1,V2,... runs once per value (several keys:\n"
            "  every combination), prints one table, --json FILE an array, --report FILE.html\n"
            "  a page of charts; --seeds N sweeps random faults\n"
            "\n"
            "  simpi help COMMAND, simpi COMMAND --help\n"
            "        every option of a command\n"
            "\n"
            "exit status: 0 ok, 1 bad input, 2 bad usage, 3 deadlock, 4 application error\n"
            "documentation: README.md, docs/, man simpi\n",
            SIMPI_VERSION);
}

void cli_catch_signals(void (*handler)(int)) {
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction old;
        /* SIGHUP ignored when simpi started (nohup) stays ignored; SIGINT is
         * answered even in a script's background job, which ignores it */
        if (sigs[i] != SIGHUP || (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN))
            signal(sigs[i], handler);
    }
}

/* SIGINT, SIGTERM or SIGHUP: the command ends as the signal would end it,
 * without leaving the temporary files of its outputs (simpi run, replay and
 * trace answer these signals themselves). */
static void on_signal(int sig) {
    outfile_remove_pending();
    signal(sig, SIG_DFL);
    raise(sig);
}

static int dispatch(int argc, char **argv);

/* Runs the command; output that could not be written (a full disk, a
 * closed descriptor: > /dev/full) is an error, never an exit status 0. */
/* simpi's own stack: a shell's `ulimit -s 64` (or 32) made it crash with no
 * word (its parsers and reports need a few hundred KiB). A soft limit
 * under 8 MiB is raised as far as the hard limit lets (the main thread's
 * stack grows up to the limit in force, and the program simpi run starts
 * inherits it); one that cannot reach 256 KiB is refused with its reason
 * (simpi ran with 128 KiB, crashed with 64). */
enum { STACK_WANTED = 8 << 20, STACK_NEEDED = 256 << 10 };
static bool stack_limit_enough(void) {
    struct rlimit rl;
    if (getrlimit(RLIMIT_STACK, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY ||
        rl.rlim_cur >= STACK_WANTED)
        return true;
    rlim_t want =
        rl.rlim_max == RLIM_INFINITY || rl.rlim_max > STACK_WANTED ? STACK_WANTED : rl.rlim_max;
    if (want > rl.rlim_cur) {
        rl.rlim_cur = want;
        setrlimit(RLIMIT_STACK, &rl);
        getrlimit(RLIMIT_STACK, &rl);
    }
    if (rl.rlim_cur >= STACK_NEEDED) return true;
    fprintf(stderr,
            "simpi: error: the stack size limit is %llu KiB (ulimit -s), under the %d KiB simpi "
            "needs, and its hard limit keeps it there; raise it (ulimit -s 8192)\n",
            (unsigned long long)(rl.rlim_cur / 1024), STACK_NEEDED / 1024);
    return false;
}

int main(int argc, char **argv) {
    if (!stack_limit_enough()) return EXIT_INPUT_ERROR;
    char why[200];
    if (!log_init(why, sizeof why)) { /* SIMPI_LOG=net,match (docs/architecture.md) */
        fprintf(stderr, "simpi: error: %s\n", why);
        return EXIT_INPUT_ERROR;
    }
    cli_catch_signals(on_signal);
    int rc = dispatch(argc, argv);
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "simpi: cannot write to standard output: %s\n",
                strerror(errno ? errno : EIO));
        if (rc == 0) rc = EXIT_INPUT_ERROR;
    }
    return rc;
}

static int dispatch(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "help") && argc == 4 && !strcmp(argv[2], "--complete") &&
        (!strcmp(argv[3], "run") || !strcmp(argv[3], "replay"))) {
        cli_options_complete(argv[3][1] == 'u' ? OPT_RUN : OPT_REPLAY, stdout);
        return 0;
    }
    if (!strcmp(cmd, "help") && argc > 2) {
        if (cli_print_help(argv[2])) return 0;
        fprintf(stderr, "simpi: no command '%s'\n", argv[2]);
        return EXIT_USAGE;
    }
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
        usage(stdout);
        return 0;
    }
    if (cli_asks_help(argc - 1, argv + 1) && cli_print_help(cmd)) return 0;
    if (!strcmp(cmd, "--version")) {
        printf("simpi %s\n", SIMPI_VERSION);
        return 0;
    }
    if (!strcmp(cmd, "replay")) return cmd_replay(argc - 1, argv + 1);
    if (!strcmp(cmd, "run")) return cmd_run(argc - 1, argv + 1);
    if (!strcmp(cmd, "calibrate-host")) return cmd_calibrate(argc - 1, argv + 1);
    if (!strcmp(cmd, "calibrate") && argc > 2 && !strcmp(argv[2], "pingpong"))
        return cmd_pingpong(argc - 2, argv + 2);
    if (!strcmp(cmd, "calibrate") && argc > 2 && !strcmp(argv[2], "host"))
        return cmd_calibrate(argc - 2, argv + 2);
    if (!strcmp(cmd, "calibrate") && argc > 2 && !strcmp(argv[2], "node"))
        return cmd_calibrate_node(argc - 2, argv + 2);
    if (!strcmp(cmd, "platform")) return cmd_platform(argc - 1, argv + 1);
    if (!strcmp(cmd, "gen")) return cmd_gen(argc - 1, argv + 1);
    if (!strcmp(cmd, "topo")) return cmd_topo(argc - 1, argv + 1);
    if (!strcmp(cmd, "trace")) return cmd_trace(argc - 1, argv + 1);
    if (!strcmp(cmd, "convert")) return cmd_convert(argc - 1, argv + 1);
    if (!strcmp(cmd, "extrapolate")) return cmd_extrapolate(argc - 1, argv + 1);
    fprintf(stderr, "simpi: unknown command '%s'\n\n", cmd);
    usage(stderr);
    return EXIT_USAGE;
}
