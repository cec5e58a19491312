/* SPDX-License-Identifier: BSD-3-Clause */
/* The help of every subcommand (`simpi CMD --help`, `simpi help CMD`): each
 * option with what it does, its default, and where it is documented. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"

#include <stdlib.h>

#include "core/alloc.h"
#include "core/options.h"

/* Each command's help: its text; for run and replay (opts), then the
 * options of core/options.c's table that it takes, and tail. */
static const struct {
    const char *cmd, *text;
    unsigned opts;
    const char *tail;
} helps[] = {
    {"run",
     "usage: simpi run -n N [options] ./program [args...]\n"
     "Runs an MPI program built with simpicc as N simulated ranks in this process: its\n"
     "computation runs and is timed, its communication is simulated, real data is\n"
     "delivered. The program's output is untouched; the summary goes to stderr.\n"
     "(simpiexec -n N ./program is the same.)\n"
     "\n",
     OPT_RUN,
     "Exit status as mpirun: MPI_Abort's code, a rank's non-zero exit status, 128 +\n"
     "signal for a crash; 1 bad input, 2 usage, 3 deadlock, 4 application error,\n"
     "5 unsupported MPI function, 124 time limit, 129/130/143 interrupted. See\n"
     "docs/online.md.\n"},
    {"replay",
     "usage: simpi replay [options] TRACE...\n"
     "       simpi replay [options] --jobs JOBS.yaml\n"
     "Replays a trace on the platform and predicts its execution time. Several\n"
     "traces are jobs side by side: each its own ranks, MPI_COMM_WORLD and nodes,\n"
     "sharing the network; each job's time, its time alone and its slowdown\n"
     "(docs/jobs.md).\n"
     "\n"
     "  TRACE                  a simpi trace (.gz allowed), a directory of rankN.trace\n"
     "                         files, an index file, a SimGrid time-independent trace\n"
     "                         (its description file or one file of all ranks), a\n"
     "                         Dimemas .dim trace, an OTF2 archive (Score-P's\n"
     "                         traces.otf2, or its folder), or a LogGOPSim GOAL schedule\n",
     OPT_REPLAY,
     "Exit status: 0 ok, 1 bad input, 2 usage, 3 deadlock, 4 application error,\n"
     "124 time limit, 129/130/143 interrupted. See docs/trace-format.md and docs/reports.md.\n"},
    {"calibrate",
     "usage: simpi calibrate pingpong [-o FILE.yaml] [--svg FILE.svg] [--as intra|inter]\n"
     "                                [--segments K] -- mpirun -np 2\n"
     "       simpi calibrate pingpong --data MEASUREMENTS [-o FILE.yaml] ...\n"
     "       simpi calibrate host\n"
     "       simpi calibrate node [-k K] [-o FILE.yaml] [-- -n N ./program [args]]\n"
     "pingpong: runs simpi's ping-pong (1 B to 16 MiB) on a real MPI, or reads SIZE SECONDS\n"
     "lines, fits a piecewise-linear model (docs/interop.md), prints its segments and the\n"
     "log errors of the built-in, best affine and piecewise models, writes the platform\n"
     "fragment (default pingpong.yaml, as `inter:` unless --as intra) and an SVG plot.\n"
     "host: this machine's flop rate (as simpi calibrate-host).\n"
     "node: this machine's memory bandwidth (a triad on one core, then on K at once) and,\n"
     "given a simpi run command line, the program's memory demand (its simulation run\n"
     "alone, then K copies at once): the platform key memory: (docs/models.md).\n"
     "\n"
     "  -o FILE.yaml           the platform fragment written (pingpong: default\n"
     "                         pingpong.yaml; host and node: printed without -o)\n"
     "  --svg FILE.svg         (pingpong) the measurements and the three models, plotted\n"
     "  --as intra|inter       (pingpong) the fragment's class: inter (default) or intra\n"
     "  --segments K           (pingpong) the model's linear segments (default 3)\n"
     "  --data FILE            (pingpong) fit SIZE SECONDS lines from FILE instead of\n"
     "                         running a ping-pong\n"
     "  -k K                   (node) how many cores run the triad at once (default: all)\n"
     "  -- COMMAND             (pingpong) the real MPI launch of two ranks; (node) the\n"
     "                         simpi run options and program whose demand is measured\n",
     0, NULL},
    {"extrapolate",
     "usage: simpi extrapolate TRACE TRACE... --ranks N [-o OUT]\n"
     "Writes the trace of one SPMD program at N ranks from its traces at two or more\n"
     "smaller scales (any form simpi reads; three or more check the laws): each rank's\n"
     "peers as offsets on a 1-, 2- or 3-D grid laid out as MPI_Dims_create and\n"
     "MPI_Cart_create lay it out (periodic or not) or by recursive bisection (2^k\n"
     "ranks), XOR partners, transposes or ranks of their own (a master), one\n"
     "template per position on the grid (corner, edge, inside), each size and burst a\n"
     "law of the rank count or of the grid's extents fitted across the scales (sizes\n"
     "exactly, or as their mean with its band said; a burst's worst residual is said).\n"
     "Scales that differ by what the data decides (iterations to a tolerance) follow\n"
     "the largest one's order, said. A rank that follows no law is refused with its\n"
     "rank and record. One trace at its own N: each burst its class's mean (the host's\n"
     "noise out). `simpi replay --extrapolate N TRACE...` replays the result directly\n"
     "(docs/extrapolation.md).\n"
     "\n"
     "  --ranks N              the ranks of the trace written (required)\n"
     "  -o OUT                 the native text trace written (default: stdout)\n",
     0, NULL},
    {"convert",
     "usage: simpi convert IN OUT [--to native|binary|dim|simgrid|otf2] [--compress C]\n"
     "Writes trace IN (native text or binary, a folder of rank files, an index, SimGrid\n"
     "time-independent, Dimemas .dim or OTF2) as a native text trace, a binary trace\n"
     "(compressed with zstd unless --compress zstd|gzip|none says otherwise;\n"
     "docs/trace-format.md), a Dimemas trace, a SimGrid time-independent trace (OUT a\n"
     "folder: rank<R>.txt and description) or an OTF2 archive (OUT a new folder): --to,\n"
     "else OUT's extension (.dim: Dimemas, .sbt: binary, otherwise text). A record the\n"
     "output cannot hold stops the conversion with its file and line; OUT is written\n"
     "atomically (docs/interop.md).\n"
     "\n"
     "  --to FORMAT            native, binary, dim, simgrid or otf2 (default: by OUT's name)\n"
     "  --compress C           (binary) zstd (default), gzip or none\n",
     0, NULL},
    {"trace",
     "usage: simpi trace -o DIR [--clock wall|cpu] -- COMMAND [args...]\n"
     "Runs COMMAND (a real MPI launch, e.g. mpirun -np 16 ./app) with simpi's PMPI tracer\n"
     "(libsimpi-trace.so) preloaded: each rank writes DIR/rank<R>.trace, a simpi trace of\n"
     "its CPU bursts, point-to-point calls, collectives, MPI-IO reads and writes,\n"
     "communicators and MPI_Pcontrol intervals, which `simpi replay DIR` replays on any\n"
     "platform (docs/interop.md).\n"
     "\n"
     "  -o DIR                 the folder of the trace (created; earlier rank files removed)\n"
     "  --clock wall|cpu       time bursts by the wall clock (default) or by each rank's\n"
     "                         thread CPU time (an oversubscribed host's waits not counted)\n"
     "\n"
     "Exit status: COMMAND's; 1 if no rank wrote a trace or the tracer is missing.\n",
     0, NULL},
    {"platform",
     "usage: simpi platform show [FILE] [--set KEY=VALUE]...\n"
     "       simpi platform keys [--markdown]\n"
     "       simpi platform convert FILE.xml|FILE.cfg [-o FILE.yaml]\n"
     "       simpi platform collective OP SIZE RANKS [FILE] [--nonblocking] [--all]\n"
     "                                  [--set ...]\n"
     "         the algorithm chosen for one call, the path through mpi.coll.selection,\n"
     "         and the call's time on the platform (every rank entering at 0)\n"
     "show: prints the resolved platform: the built-in platform, FILE layered over it,\n"
     "then the --set overrides, each value followed by where it came from.\n"
     "keys: every key the platform file takes, as simpi declares it: path, type,\n"
     "default, values and meaning (--markdown: docs/platform-format.md's table).\n"
     "convert: the simpi YAML of a SimGrid platform XML <cluster> or a Dimemas .cfg\n"
     "(docs/interop.md).\n"
     "\n"
     "  FILE                   platform description (YAML, SimGrid XML, Dimemas .cfg);\n"
     "                         also --platform FILE\n"
     "  --set KEY=VALUE        change one key, e.g. inter.latency=2us (any number)\n"
     "  -o FILE.yaml           (convert) write the YAML to FILE (default: stdout)\n"
     "  --nonblocking          (collective) the non-blocking call's choice (MPI_Iallreduce...)\n"
     "  --all                  (collective) every algorithm of OP with its time, best first;\n"
     "                         --set mpi.coll.selector=openmpi|mpich|fixed changes the choice\n"
     "\n"
     "See docs/platform-format.md.\n",
     0, NULL},
    {"topo",
     "usage: simpi topo [--platform FILE] [--set KEY=VALUE]... [--json FILE]\n"
     "       simpi topo [--platform FILE] [--set KEY=VALUE]... [--fault SPEC]...\n"
     "                  --route A B [--at TIME]\n"
     "Statistics of the platform's network topology (network: in the platform,\n"
     "docs/network.md): nodes, switches, directed links, diameter, average hop\n"
     "distance between random pairs and between neighbours (node i to i+1), and\n"
     "the histogram of hop distances. Up to 4,096 nodes every pair is measured;\n"
     "beyond, the pairs from 16 sampled nodes to every node (the output says so).\n"
     "\n"
     "  --platform FILE        platform description (YAML)\n"
     "  --set KEY=VALUE        change one key, e.g. network.dims=[8,8,8]\n"
     "  --json FILE            also write the figures as JSON (- for stdout)\n"
     "  --route A B            instead, the route from node A to node B: both\n"
     "                         nodes' coordinates, every link, latency, bottleneck\n"
     "  --fault SPEC           a fault (docs/faults.md), as in simpi run\n"
     "  --at TIME              the route with the faults in effect at TIME (default 0):\n"
     "                         around links and switches that are down, or none (a\n"
     "                         partition, exit status 4)\n",
     0, NULL},
    {"gen",
     "usage: simpi gen stencil --ranks N --iters K [options]\n"
     "       simpi gen OP --ranks N [--size SIZE[,SIZE...]] [--iters K] [--nonblocking]\n"
     "Writes a synthetic trace. stencil: a 2-D halo exchange (up to 4 neighbours)\n"
     "with a compute burst and an 8-byte allreduce per iteration. OP (barrier,\n"
     "bcast, reduce, allreduce, gather, scatter, allgather, alltoall,\n"
     "reduce_scatter, scan, exscan): a collective benchmark, every rank calling OP\n"
     "K times (default 10) of each size back to back (root 0), each size's calls\n"
     "in an interval OP_SIZE (its time in the summary, JSON and report).\n"
     "\n"
     "  --ranks N              number of ranks (required)\n"
     "  --iters K              number of iterations (required for stencil)\n"
     "  --size SIZE            halo message size (default 8KiB); OP: its size, or a\n"
     "                         list of sizes (8,1KiB,1MiB; default 8)\n"
     "  --nonblocking          (OP) the non-blocking call and its wait (MPI_Iallreduce)\n"
     "  --compute TIME         compute burst per iteration (default 1ms)\n"
     "  --allreduce SIZE       the allreduce's size (default 8B; 0: none)\n"
     "  -o FILE                output (default: stdout; FILE.gz compresses)\n"
     "  --format native|simgrid  simpi's format (default) or SimGrid's time-independent\n"
     "                         traces (-o DIR: DIR/description and DIR/rankN.txt)\n",
     0, NULL},
    {"calibrate-host",
     "usage: simpi calibrate-host [-o FILE.yaml]\n"
     "Measures this machine's floating-point rate with a short dense kernel and prints\n"
     "it in the form --host-speed takes (e.g. 4.2Gf), so that on-line runs on a\n"
     "platform whose speed is a flop rate scale measured computation correctly; and,\n"
     "where perf_event counts instructions, the instructions per second it retires,\n"
     "the platform key instruction_rate that replays traced instruction counts.\n"
     "\n"
     "  -o FILE.yaml           write both as a platform fragment (docs/interop.md)\n",
     0, NULL},
};

bool cli_print_help(const char *cmd) {
    for (size_t i = 0; i < sizeof helps / sizeof helps[0]; i++)
        if (!strcmp(helps[i].cmd, cmd)) {
            fputs(helps[i].text, stdout);
            if (helps[i].opts) {
                cli_options_help(helps[i].opts, stdout);
                printf("\n%s", helps[i].tail);
            }
            return true;
        }
    return false;
}

bool cli_asks_help(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--")) return false;
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) return true;
        /* simpi run: the program's own options follow the program */
        if (argv[i][0] != '-' && !strcmp(argv[0], "run")) return false;
    }
    return false;
}

bool cli_usage_json_replaceable(const char *json, int argc, char **argv) {
    struct stat js, st;
    if (!json || !strcmp(json, "-")) return false;
    if (stat(json, &js) != 0) return true; /* none yet */
    if (!S_ISREG(js.st_mode)) return false;
    for (int i = 0; i < argc; i++)
        if (json != argv[i] && json != argv[i] + 7 && stat(argv[i], &st) == 0 &&
            st.st_dev == js.st_dev && st.st_ino == js.st_ino)
            return false;
    FILE *f = fopen(json, "r");
    int c = ' ';
    while (f && (c = getc(f)) != EOF && (c == ' ' || c == '\n' || c == '\t' || c == '\r')) {
    }
    if (f) fclose(f);
    return c == '{';
}

const char *cli_command_line(int argc, char **argv) {
    static char *line;
    size_t n = 6;
    for (int i = 0; i < argc; i++)
        n += strlen(argv[i]) + 1;
    free(line);
    line = xcalloc(n + 1, 1);
    strcpy(line, "simpi");
    for (int i = 0; i < argc; i++) {
        strcat(line, " ");
        strcat(line, argv[i]);
    }
    return line;
}
