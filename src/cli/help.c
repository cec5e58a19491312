/* SPDX-License-Identifier: BSD-3-Clause */
/* The help of every subcommand (`simpi CMD --help`, `simpi help CMD`): each
 * option with what it does, its default, and where it is documented. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"

#include <stdlib.h>

#include "core/pool.h"

static const struct {
    const char *cmd, *text;
} helps[] = {
    {"run",
     "usage: simpi run -n N [options] ./program [args...]\n"
     "Runs an MPI program built with simpicc as N simulated ranks in this process: its\n"
     "computation runs and is timed, its communication is simulated, real data is\n"
     "delivered. The program's output is untouched; the summary goes to stderr.\n"
     "(simpiexec -n N ./program is the same.)\n"
     "\n"
     "  -n N, -np N            number of ranks (required)\n"
     "  --platform FILE        platform description (YAML, layered over the built-in\n"
     "                         platform); default: the built-in platform\n"
     "  --set KEY=VALUE        change one platform key, e.g. inter.latency=2us (any number);\n"
     "                         KEY=V1,V2,... sweeps: one run per value (several: the cross\n"
     "                         product), then one table of predictions (JSON: an array)\n"
     "  --fault SPEC           one more fault (docs/faults.md), as a faults: entry:\n"
     "                         at=1.5ms,node=12,kind=crash or {at: 2ms, link: [3, 4],\n"
     "                         kind: down, until: 2.5ms} or kind=random,target=nodes,\n"
     "                         mtbf=10h,seed=42 (any number)\n"
     "  --with-ft ulfm         a failed process does not end the job (mpiexec's option,\n"
     "                         User-Level Failure Mitigation): operations that involve\n"
     "                         it fail on their own communicator (docs/faults.md)\n"
     "  --seeds N              sweep fault_seed over 1..N: one run per draw, and the\n"
     "                         distribution of the times the job ended (mean, quantiles)\n"
     "  --ideal WHAT           what-ifs: network (messages cost nothing: no latency, no\n"
     "                         time on the wire, no contention, no MPI overheads), cpu\n"
     "                         (computation costs nothing) or network+cpu; a list\n"
     "                         sweeps them (--ideal none,network); platform key ideal\n"

     "  --json FILE            write the results as JSON (- for stdout), atomically\n"
     "  --report FILE.html     a self-contained HTML report: intervals, per-rank bars,\n"
     "                         timeline, communication matrix (docs/analysis.md); of a\n"
     "                         sweep, its charts, each point's report in FILE-points/\n"
     "  --paraver PREFIX       a Paraver trace: PREFIX.prv, PREFIX.pcf, PREFIX.row\n"
     "  --chrome FILE.json     a Chrome/Perfetto trace (Trace Event Format)\n"
     "  --otf2 DIR             the simulated timeline as an OTF2 archive (DIR/traces.otf2,\n"
     "                         a new folder) for Vampir and the OTF2 tools\n"
     "  --timeline-ranks LIST  the report's timeline ranks (0,4,8-11; default: the\n"
     "                         slowest and a sample)\n"
     "  --critical-path        the chain of bursts, waits and messages that ends at the\n"
     "                         prediction, by computation, latency, transfer and waiting\n"
     "                         (summary and JSON; --report draws it on the timeline)\n"
     "  --trace-out DIR        also record the run as a trace (DIR/rank<R>.trace) that\n"
     "                         `simpi replay DIR` replays on any platform; a name ending\n"
     "                         in .sbt gets the binary form (docs/trace-format.md)\n"
     "  --trace-format native|binary|otf2  the form of --trace-out (default: by its\n"
     "                         name); otf2: an OTF2 archive in the new folder DIR\n"
     "                         (DIR/traces.otf2), as Score-P writes (docs/interop.md)\n"
     "  --cpu=measure|ignore   charge the measured computation (default) or none\n"
     "                         (deterministic runs); measured: the CPU time each rank\n"
     "                         used, whatever else the host runs (docs/online.md)\n"
     "  --cpu-clock=auto|thread  read that CPU time through the task clock's page, a\n"
     "                         system call once per time slice (auto), or the thread\n"
     "                         CPU clock at every burst\n"
     "  --repeat N             run the program N times; report the predicted time's\n"
     "                         min, median and max and each rank's compute spread\n"
     "  --thread-cores=one|all the program's threads run on one core of this machine,\n"
     "                         each measured alone (default), or on all its cores\n"
     "                         (docs/hybrid.md)\n"
     "  --host-speed RATE      this machine's flop rate (e.g. 20Gf) when the platform's\n"
     "                         speed is a flop rate; `simpi calibrate-host` measures it\n"
     "  --stack-size SIZE      each rank's stack (default 8MiB, reduced beyond 8,192\n"
     "                         ranks; committed lazily)\n"
     "  --no-privatize         let all ranks share the program's globals (by default each\n"
     "                         rank has its own, as separate processes would)\n"
     "  --privatize            privatize even when no globals were found\n"
     "  --privatize=MODE       images (each rank in its own image of the program, the\n"
     "                         default above 64 KiB of globals), copy (copied at each\n"
     "                         switch, below) or remap (the fallback: page faults)\n"
     "  --check off|default|full  how much of the program's MPI use is checked: handles,\n"
     "                         buffers, collective calls agreeing across ranks (default);\n"
     "                         also send/receive type signatures (full); docs/checking.md\n"
     "  --time-limit TIME      stop when virtual time would pass TIME (exit 124)\n"
     "  --wall-limit TIME      stop after TIME of wall-clock time (exit 124)\n"
     "  --progress=auto|always|never  a self-erasing status line on stderr for runs\n"
     "                         longer than a second (auto: when stderr is a terminal)\n"
     "  --procs K, -j K        split the ranks over K worker processes by node (auto: the\n"
     "                         cores free of other programs' work): their computation\n"
     "                         runs on K cores; the results are one process's\n"
     "                         (docs/parallel.md); fewer when other programs keep\n"
     "                         cores busy, said on stderr\n"
     "  --procs-exact          K workers even on a busy host\n"
     "  --placement block|cyclic  nodes to workers in blocks (default) or in turn\n"
     "  -q, --quiet            no summary\n"
     "\n"
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
     "                         traces.otf2, or its folder), or a LogGOPSim GOAL schedule\n"
     "  --jobs FILE            jobs side by side (YAML): per job its trace, start time\n"
     "                         and nodes (a list) or placement (contiguous, random\n"
     "                         with the file's seed, round_robin over dragonfly groups\n"
     "                         or fat-tree leaves); docs/jobs.md\n"
     "  --no-alone             jobs without their runs alone (no slowdowns: faster)\n"
     "  --platform FILE        platform description (YAML, layered over the built-in\n"
     "                         platform); default: the built-in platform\n"
     "  --set KEY=VALUE        change one platform key, e.g. inter.latency=2us (any number);\n"
     "                         KEY=V1,V2,... sweeps: one replay per value (several: the\n"
     "                         cross product), one table of predictions (JSON: an array)\n"
     "  --fault SPEC           one more fault (docs/faults.md), as a faults: entry:\n"
     "                         at=1.5ms,node=12,kind=crash or {at: 2ms, link: [3, 4],\n"
     "                         kind: down, until: 2.5ms} or kind=random,target=nodes,\n"
     "                         mtbf=10h,seed=42 (any number)\n"
     "  --seeds N              sweep fault_seed over 1..N: one replay per draw, and the\n"
     "                         distribution of the times the job ended (mean, quantiles);\n"
     "                         of jobs placed at random, each draw places them anew\n"
     "                         and each job's slowdown gets its distribution\n"
     "  --ideal WHAT           what-ifs: network (messages cost nothing: no latency, no\n"
     "                         time on the wire, no contention, no MPI overheads), cpu\n"
     "                         (computation costs nothing) or network+cpu; a list\n"
     "                         sweeps them (--ideal none,network); platform key ideal\n"
     "  --sensitivity F        how much each parameter moves the prediction: the trace\n"
     "                         replayed with every latency, every bandwidth, the MPI\n"
     "                         overheads and the speed each times F alone (platform key\n"
     "                         scale); a table, and --json's document\n"

     "  --json FILE            write the results as JSON (- for stdout), atomically\n"
     "  --report FILE.html     a self-contained HTML report: intervals, per-rank bars,\n"
     "                         timeline, communication matrix (docs/analysis.md); of a\n"
     "                         sweep, its charts, each point's report in FILE-points/\n"
     "  --paraver PREFIX       a Paraver trace: PREFIX.prv, PREFIX.pcf, PREFIX.row\n"
     "  --chrome FILE.json     a Chrome/Perfetto trace (Trace Event Format)\n"
     "  --otf2 DIR             the simulated timeline as an OTF2 archive (DIR/traces.otf2,\n"
     "                         a new folder) for Vampir and the OTF2 tools\n"
     "  --timeline-ranks LIST  the report's timeline ranks (0,4,8-11; default: the\n"
     "                         slowest and a sample)\n"
     "  --critical-path        the chain of bursts, waits and messages that ends at the\n"
     "                         prediction, by computation, latency, transfer and waiting\n"
     "                         (summary and JSON; --report draws it on the timeline)\n"
     "  --progress=auto|always|never  a self-erasing status line on stderr for runs\n"
     "                         longer than a second (auto: when stderr is a terminal),\n"
     "                         with the share of the trace read and the time left\n"
     "  --time-limit TIME      stop when virtual time would pass TIME (exit 124)\n"
     "  --wall-limit TIME      stop after TIME of wall-clock time (exit 124)\n"
     "  --procs K, -j K        split the ranks over K worker processes by node (auto: the\n"
     "                         cores free of other programs' work); prints what one\n"
     "                         process prints\n"
     "                         (docs/parallel.md: what is exact, what is refused); under\n"
     "                         mpirun or srun, the launcher's processes are the workers\n"
     "                         (fewer when other programs keep cores busy, said on\n"
     "                         stderr)\n"
     "  --procs-exact          K workers even on a busy host\n"
     "  --placement block|cyclic  nodes to workers in blocks (default) or in turn\n"
     "  -q, --quiet            no summary\n"
     "\n"
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
     "                         simpi run options and program whose demand is measured\n"},
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
     "  --compress C           (binary) zstd (default), gzip or none\n"},
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
     "Exit status: COMMAND's; 1 if no rank wrote a trace or the tracer is missing.\n"},
    {"platform",
     "usage: simpi platform show [FILE] [--set KEY=VALUE]...\n"
     "       simpi platform convert FILE.xml|FILE.cfg [-o FILE.yaml]\n"
     "       simpi platform collective OP SIZE RANKS [FILE] [--nonblocking] [--all]\n"
     "                                  [--set ...]\n"
     "         the algorithm chosen for one call, the path through mpi.coll.selection,\n"
     "         and the call's time on the platform (every rank entering at 0)\n"
     "show: prints the resolved platform: the built-in platform, FILE layered over it,\n"
     "then the --set overrides, each value followed by where it came from.\n"
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
     "See docs/platform-format.md.\n"},
    {"topo", "usage: simpi topo [--platform FILE] [--set KEY=VALUE]... [--json FILE]\n"
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
             "                         partition, exit status 4)\n"},
    {"gen", "usage: simpi gen stencil --ranks N --iters K [options]\n"
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
            "                         traces (-o DIR: DIR/description and DIR/rankN.txt)\n"},
    {"calibrate-host",
     "usage: simpi calibrate-host [-o FILE.yaml]\n"
     "Measures this machine's floating-point rate with a short dense kernel and prints\n"
     "it in the form --host-speed takes (e.g. 4.2Gf), so that on-line runs on a\n"
     "platform whose speed is a flop rate scale measured computation correctly; and,\n"
     "where perf_event counts instructions, the instructions per second it retires,\n"
     "the platform key instruction_rate that replays traced instruction counts.\n"
     "\n"
     "  -o FILE.yaml           write both as a platform fragment (docs/interop.md)\n"},
};

bool cli_print_help(const char *cmd) {
    for (size_t i = 0; i < sizeof helps / sizeof helps[0]; i++)
        if (!strcmp(helps[i].cmd, cmd)) {
            fputs(helps[i].text, stdout);
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
