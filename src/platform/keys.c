/* SPDX-License-Identifier: BSD-3-Clause */
/* The platform file's keys (keys.h): every key of the top level, mpi,
 * mpi.coll, network's common keys, a point-to-point model's, a fault
 * entry's, storage, memory and scale, with its type, default, range and
 * help. */
#include "platform/keys.h"

#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/units.h"

#define COLL_OPERATION(op)                                                                         \
    {                                                                                              \
        "mpi.coll." op, "enum", NULL, "an algorithm of " op " (docs/collectives.md)",              \
            "the algorithm of every " op ", e.g. `mpi.coll.allreduce: ring`"                       \
    }

static const struct platform_key table[] = {
    /* the top level, in the order the parser lists it */
    {"name", "string", NULL, "any", "the platform's name, shown in reports"},
    {"nodes", "count", NULL, "1 to 2^31 - 1, or `auto`",
     "number of nodes; `auto`: as many as the run needs (required)"},
    {"cores_per_node", "count", NULL, "1 to 2^20",
     "cores of a node: at most that many ranks per node (required)"},
    {"ranks_per_node", "count", "auto", "1 to `cores_per_node`, or `auto`",
     "ranks a `block` placement (and `nodes: auto`) puts on each node, as `mpirun --npernode` "
     "does; `auto`: `cores_per_node`, or as many as fit at `cores_per_rank`"},
    {"cores_per_rank", "count", "auto", "1 to `cores_per_node`, or `auto`",
     "cores of its node each rank's threads (OpenMP, threaded BLAS, pthreads) run on "
     "(docs/hybrid.md); `ranks_per_node x cores_per_rank` may not exceed `cores_per_node`; "
     "`auto`: the node's cores divided among the ranks it holds"},
    {"speed", "number", "1.0", "above 0, or a flop rate (`10Gf`)",
     "relative speed (`2.0` = twice as fast as the traced machine) or flop rate"},
    {"instruction_rate", "number", NULL, "above 0 (`2.5e9`, `2.5G`)",
     "instructions per second of the simulated CPU: traced bursts with an instruction count take "
     "count / rate (docs/interop.md); unset: their time as traced"},
    {"intra", "model", NULL, "a point-to-point model map (below)",
     "the point-to-point model inside a node (required)"},
    {"inter", "model", NULL, "a point-to-point model map (below)",
     "the point-to-point model between nodes (required)"},
    {"mpi", "map", NULL, "the keys `mpi.*`", "the MPI library's costs and choices"},
    {"placement", "enum", "block",
     "`block`, `cyclic`, `random`, `{random: SEED}`, a list of nodes, `{list: [...]}`",
     "where ranks go: `block` (rank r on node r / ranks_per_node), `cyclic` (r mod nodes), "
     "`random` (each rank on a core drawn by a permutation the seed fixes; `random` is seed 1), "
     "or each rank's node; a list may not put more ranks on a node than it has cores"},
    {"network", "map", NULL, "the keys `network.*` and a topology's (docs/network.md)",
     "topology, link parameters, the nodes' interfaces, the copies inside a node and "
     "contention; default: flat, serial interfaces and copies"},
    {"storage", "map", NULL, "the keys `storage.*`", "where MPI-IO files live and what they cost"},
    {"memory", "map", NULL, "the keys `memory.*`",
     "a node's memory bandwidth shared by the bursts its ranks compute at once; none: each burst "
     "as alone"},
    {"faults", "list", NULL, "fault entries (docs/faults.md)",
     "faults: `{at: 1.5ms, node: 12, kind: crash}`, `{at: 2ms, link: [3, 4], kind: down, until: "
     "2.5ms}`, `{at: 1ms, switch: 21, kind: down}`, `{kind: random, target: nodes, mtbf: 10h, "
     "seed: 42}`; also `--fault SPEC`; none by default"},
    {"fault_seed", "count", "0", "0 to 2^63 - 1",
     "a seed mixed into every random fault's; `--seeds N` sweeps it over 1 .. N"},
    {"fault_tolerance", "enum", "abort", "`abort`, `ulfm`",
     "`abort` (mpirun's default: a failed process ends the job unless every survivor returns "
     "errors on `MPI_COMM_WORLD`) or `ulfm` (the job goes on, as `mpiexec --with-ft ulfm`)"},
    {"ideal", "enum", "none", "`none`, `network`, `cpu`, `network+cpu`",
     "what-ifs: `network` (every message free: no latency, no time on the wire, no contention, "
     "free copies inside a node, no MPI overheads but `mpi.poll_cost`; a topology keeps its node "
     "count), `cpu` (computation free) or both; `--ideal WHAT` sets it (docs/models.md)"},
    {"scale", "map", NULL, "the keys `scale.*`",
     "factors on the platform's parameters (`simpi replay --sensitivity F`)"},
    /* mpi */
    {"mpi.eager_limit", "size", "64KiB", "0 and above, `inf`",
     "messages up to it are eager, larger ones rendezvous"},
    {"mpi.send_overhead", "time", "0s", "0 and above",
     "CPU time of every point-to-point send call (LogGP's o; docs/network.md)"},
    {"mpi.recv_overhead", "time", "0s", "0 and above",
     "CPU time to take in a message, one at a time per rank (LogGP's o)"},
    {"mpi.wait_overhead", "time", "0s", "0 and above",
     "CPU time at the end of every wait that includes a point-to-point request (Dimemas')"},
    {"mpi.gap", "time", "0s", "0 and above",
     "a rank's NIC injects a message at the earliest gap + (S - 1) gap_per_byte after its "
     "previous one began (LogGP's g)"},
    {"mpi.gap_per_byte", "time", "0s", "0 and above", "LogGP's G: the injection time per byte"},
    {"mpi.poll_cost", "time", "1us", "0 and above",
     "time an `MPI_Test` / `MPI_Iprobe` that finds nothing costs the rank (on-line)"},
    {"mpi.coll", "map", NULL, "the keys `mpi.coll.*`",
     "how collectives are run: algorithms, selector, model (docs/collectives.md)"},
    {"mpi.transfer_start", "enum", "send", "`send`, `match`",
     "`send` (an eager message's data leave at its send, as MPI libraries do) or `match` (once a "
     "receive is posted for it, SMPI's default; docs/models.md)"},
    {"mpi.rendezvous", "enum", "handshake", "`handshake`, `direct`",
     "`handshake` (a message past the eager limit sends a request-to-send and waits for a "
     "clear-to-send) or `direct` (its data leave once both sides are posted, SMPI's model)"},
    {"mpi.recv_overhead_per_byte", "time", "0s", "0 and above",
     "CPU time per byte past the first to take in a message, spent while its data arrive"},
    /* mpi.coll, in the order its parser lists it */
    COLL_OPERATION("barrier"),
    COLL_OPERATION("bcast"),
    COLL_OPERATION("reduce"),
    COLL_OPERATION("allreduce"),
    COLL_OPERATION("gather"),
    COLL_OPERATION("scatter"),
    COLL_OPERATION("allgather"),
    COLL_OPERATION("alltoall"),
    COLL_OPERATION("reduce_scatter"),
    COLL_OPERATION("scan"),
    COLL_OPERATION("exscan"),
    {"mpi.coll.selector", "enum", "mpich", "`mpich`, `ompi` (`openmpi`), `fixed`",
     "whose rules choose the algorithm by message and communicator size"},
    {"mpi.coll.selection", "path", NULL, "an MPICH 4 `coll_selection.json`",
     "a file whose rules the `mpich` selector follows; none: MPICH's default rules"},
    {"mpi.coll.segment_size", "size", "64KiB", "1 B and above",
     "segment of the pipelined algorithms"},
    {"mpi.coll.window", "count", "32", "1 to 2^20",
     "messages in flight of the windowed all-to-all"},
    {"mpi.coll.model", "enum", "schedules", "`schedules`, `analytic`",
     "`schedules` (messages) or `analytic` (Dimemas' FAN_IN + FAN_OUT model)"},
    {"mpi.coll.analytic", "map", NULL,
     "per operation `{fan_in: 0/CTE/LIN/LOG, size_in: MAX/MIN/MEAN/2MAX/S+R, fan_out, size_out}`",
     "the analytic model's rule of each operation; default: Dimemas' per operation"},
    {"mpi.coll.analytic_latency", "time", "0s", "0 and above",
     "the analytic model's latency per stage of a collective"},
    /* network: the keys every topology takes */
    {"network.topology", "enum", "flat", "a topology (docs/network.md)",
     "how the nodes are connected: flat star full ring mesh torus twisted_torus tree fat_tree "
     "dragonfly graph"},
    {"network.link_latency", "time", "100ns", "0 and above",
     "every link's latency, unless its class says otherwise"},
    {"network.link_bandwidth", "bandwidth", "10GB/s", "above 0",
     "every link's bandwidth, unless its class says otherwise"},
    {"network.overhead", "time", "0s", "0 and above", "a fixed cost added to every message"},
    {"network.contention", "enum", "none", "`none`, `buses`, `flow`",
     "how transfers share the network: not at all (the nodes' interfaces aside), Dimemas' buses, "
     "or flows sharing links max-min fairly"},
    {"network.buses", "count", "0", "0 (unlimited) and above",
     "with `contention: buses`, transfers at most in the network at once"},
    {"network.links_per_node", "count", "0", "0 (unlimited) and above",
     "with `contention: buses`, transfers at most leaving and entering each node"},
    {"network.intra_contention", "enum", "false", "`true`, `false`",
     "with `contention: flow`, messages inside a node share its memory as a flow"},
    {"network.interfaces", "enum", "serial", "`serial`, `unlimited`",
     "a node's network interface carries one message at a time each way, or any number"},
    {"network.intra_copies", "enum", "serial", "`serial`, `unlimited`",
     "messages inside a node are copied one at a time by its cores, or all at once"},
    /* storage */
    {"storage.kind", "enum", "shared", "`shared`, `local`",
     "one file system for all nodes, or a disk per node: where MPI-IO files live"},
    {"storage.latency", "time", "100us", "0 and above",
     "a request of S bytes takes latency + S / "
     "bandwidth"},
    {"storage.bandwidth", "bandwidth", "1GB/s", "above 0",
     "the file system's (or disk's) "
     "bandwidth"},
    {"storage.concurrency", "count", "16", "1 to 2^20",
     "requests a file system (or disk) serves at once; later ones queue"},
    {"storage.root", "path", NULL, "a host directory",
     "a program's absolute paths (`/scratch/f`) are files under it, as a simulated file system "
     "mounted at `/`; none: paths as given"},
    /* memory */
    {"memory.bandwidth", "bandwidth", NULL, "above 0",
     "a node's memory bandwidth, shared by the bursts its ranks compute at once (required in "
     "`memory`); `simpi calibrate node` measures it"},
    {"memory.demand", "bandwidth", NULL, "0 (off) and above",
     "the bytes a burst moves per second alone on the reference machine"},
    /* a point-to-point model, `intra` or `inter`: p2p(MODEL) stands for
     * either, with that model (p2p.c reads them) */
    {"p2p(affine).model", "enum", "affine", "`affine`, `piecewise`, `loggp`, `table`",
     "the model: L + S / B (affine), segments, LogGP's wire time, a measured table"},
    {"p2p(affine).latency", "time", NULL, "0 and above", "L: the time of an empty message"},
    {"p2p(affine).bandwidth", "bandwidth", NULL, "above 0", "B: bytes per second"},
    {"p2p(piecewise).model", "enum", NULL, "`piecewise`", "segments, each affine"},
    {"p2p(piecewise).segments", "list", NULL, "increasing `upto`, the last `inf`",
     "the segments: a message of S bytes takes the first segment with S <= upto"},
    {"p2p(piecewise).segments[].upto", "size", NULL, "0 and above, `inf`",
     "the largest message of the segment"},
    {"p2p(piecewise).segments[].latency", "time", NULL, "0 and above", "the segment's L"},
    {"p2p(piecewise).segments[].bandwidth", "bandwidth", NULL, "above 0", "the segment's B"},
    {"p2p(table).model", "enum", NULL, "`table`", "measured times, interpolated linearly"},
    {"p2p(table).points", "list", NULL, "at least two, increasing sizes",
     "`{size, time}` or `[size, time]`: a time that decreases with size is a warning"},
    {"p2p(table).points[].size", "size", NULL, "0 and above", "a message size"},
    {"p2p(table).points[].time", "time", NULL, "0 and above", "its time"},
    {"p2p(loggp).model", "enum", NULL, "`loggp`", "LogGP's and LogGOPSim's wire time"},
    {"p2p(loggp).latency", "time", NULL, "0 and above", "L: L + (S - 1) G"},
    {"p2p(loggp).gap_per_byte", "time", NULL, "0 and above", "G: the time per byte past the first"},
    /* an entry of faults: (faults.c reads them; docs/faults.md) */
    {"faults[].at", "time", NULL, "0 and above", "when the fault takes effect"},
    {"faults[].kind", "enum", NULL, "`crash`, `down`, `random`",
     "`crash` (a node), `down` (a link or a switch), `random`"},
    {"faults[].node", "count", NULL, "0 to nodes - 1", "a crash's node"},
    {"faults[].link", "list", NULL, "two vertices: numbers, `node N`, `switch N`",
     "a link's two ends (nodes first, then switches, as `simpi topo --route` prints them)"},
    {"faults[].switch", "count", NULL, "a vertex at or above the node count",
     "a switch: all its links"},
    {"faults[].until", "time", NULL, "after `at`", "the repair of a `down` fault"},
    {"faults[].target", "enum", NULL, "`nodes`, `links`", "a random entry's set"},
    {"faults[].mtbf", "time", NULL, "above 0",
     "a random entry's mean time between failures of each element"},
    {"faults[].system_mtbf", "time", NULL, "above 0",
     "instead, the mean time between failures of the whole set"},
    {"faults[].repair", "time", NULL, "above 0",
     "random links: each comes back this long after it fails"},
    {"faults[].seed", "count", "1", "0 and above", "a random entry's seed"},
    /* scale */
    {"scale.latency", "factor", "1", "above 0, at most 10^6",
     "every network latency (`intra`, `inter`, a topology's links) multiplied by it"},
    {"scale.bandwidth", "factor", "1", "above 0, at most 10^6", "every bandwidth multiplied by it"},
    {"scale.overhead", "factor", "1", "above 0, at most 10^6",
     "the MPI overheads (`mpi.*_overhead`, `gap`, `gap_per_byte`, `network.overhead`) "
     "multiplied by it"},
    {"scale.speed", "factor", "1", "above 0, at most 10^6",
     "the speed of computation multiplied by it"},
};

enum { NKEYS = sizeof table / sizeof table[0] };

const struct platform_key *platform_keys(int *n) {
    *n = NKEYS;
    return table;
}

const struct platform_key *platform_key(const char *path) {
    for (int i = 0; i < NKEYS; i++)
        if (!strcmp(table[i].path, path)) return &table[i];
    return NULL;
}

int platform_key_children(const char *prefix, const char **names, int max) {
    size_t n = strlen(prefix);
    int count = 0;
    for (int i = 0; i < NKEYS && count < max - 1; i++) {
        const char *p = table[i].path;
        if (n && (strncmp(p, prefix, n) != 0 || p[n] != '.')) continue;
        const char *name = n ? p + n + 1 : p;
        if (!strchr(name, '.')) names[count++] = name;
    }
    names[count] = NULL;
    return count;
}

/* The default text of path, which must have one. */
static const char *default_of(const char *path) {
    const struct platform_key *k = platform_key(path);
    if (!k || !k->dflt) {
        char msg[160];
        snprintf(msg, sizeof msg, "internal error: platform key '%s' has no default declared",
                 path);
        err_fatal(msg);
    }
    return k->dflt;
}

static _Noreturn void bad_default(const char *path) {
    char msg[160];
    snprintf(msg, sizeof msg, "internal error: platform key '%s': its declared default is no %s",
             path, platform_key(path)->type);
    err_fatal(msg);
}

simtime_t platform_key_default_time(const char *path) {
    const char *d = default_of(path);
    simtime_t t = 0;
    if (!units_parse_time(d, &t, NULL)) bad_default(path);
    return t;
}

int64_t platform_key_default_size(const char *path) {
    int64_t b;
    if (!units_parse_size(default_of(path), true, true, &b, NULL)) bad_default(path);
    return b;
}

double platform_key_default_bandwidth(const char *path) {
    double b;
    if (!units_parse_bandwidth(default_of(path), &b, NULL)) bad_default(path);
    return b;
}

double platform_key_default_number(const char *path) {
    double v;
    if (!units_parse_number(default_of(path), &v, NULL)) bad_default(path);
    return v;
}
