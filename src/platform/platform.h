/* SPDX-License-Identifier: BSD-3-Clause */
/* The platform description: nodes, cores, speed, MPI protocol parameters and
 * rank placement. Network model parameters (intra:, inter:) stay in the tree
 * and are read by the network models (src/net), which pick them by name. */
#ifndef SIMPI_PLATFORM_H
#define SIMPI_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/conf.h"
#include "core/simtime.h"

enum placement_kind { PLACE_BLOCK, PLACE_CYCLIC, PLACE_LIST, PLACE_RANDOM };

/* storage: MPI-IO's file system, one server (shared) or one per node
 * (local), each serving `concurrency` requests at once, a request of S
 * bytes taking latency + S / bandwidth. */
enum storage_kind { STORAGE_SHARED, STORAGE_LOCAL };
struct storage_model {
    enum storage_kind kind;
    simtime_t latency;
    double bandwidth; /* bytes per second */
    int64_t concurrency;
    const char *root; /* absolute paths of programs are under this host directory (NULL: /) */
};

/* memory: a node's memory bandwidth, shared by the bursts its ranks
 * compute at the same time (docs/models.md, "A node's memory"); off while
 * bandwidth or demand is 0. demand: the bytes a burst moves per second of
 * its duration on the reference machine, computing alone. */
struct memory_model {
    double bandwidth; /* bytes per second, a node */
    double demand;    /* bytes per reference second, a burst */
};

struct platform {
    struct conf_node *conf; /* resolved tree, overrides applied */
    const char *source;     /* file name or "<built-in>" */
    int64_t nodes;          /* 0 means "auto": as many as the ranks need */
    /* the topology whose shape fixes nodes (its name), or NULL */
    const char *nodes_fixed_by;
    int64_t cores_per_node;
    /* ranks_per_node: ranks a block placement (and nodes: auto) puts on a
     * node, default cores_per_node; cores_per_rank: cores of its node each
     * rank's threads run on, 0 (default) for the node's cores divided among
     * the ranks it holds (docs/hybrid.md) */
    int64_t ranks_per_node, cores_per_rank;
    double speed;            /* relative to the reference machine (1.0 = same) */
    double flop_rate;        /* flop/s when speed is given as a rate (e.g. 10Gf) */
    double instruction_rate; /* instructions/s for traced instruction counts; 0: unset */
    int64_t eager_limit;
    /* mpi.transfer_start: an eager message's data leave at its send (false,
     * the default, as MPI libraries do) or once a receive matches it (true,
     * SMPI's default: smpi/async-small-thresh 0) */
    bool transfer_at_match;
    bool rendezvous_direct; /* mpi.rendezvous: direct (SMPI's: no request-to-send, clear-to-send) */
    /* LogGP / Dimemas CPU and injection costs (docs/network.md), 0 = none:
     * CPU time per send call, per received message, per wait call; the
     * gap between a rank's injections and its per-byte part */
    simtime_t send_overhead, recv_overhead, wait_overhead, gap, gap_per_byte;
    /* the receiving CPU's time per byte past the first, taken while the
     * message arrives (LogGOPSim charges its receiver max(O, G) a byte) */
    simtime_t recv_overhead_per_byte;
    simtime_t poll_cost; /* mpi.poll_cost: an MPI_Test / MPI_Iprobe that finds nothing */
    enum placement_kind placement;
    int32_t *node_list; /* PLACE_LIST: node of each rank */
    uint64_t seed;      /* PLACE_RANDOM */
    int64_t node_list_len;
    struct storage_model storage;
    struct memory_model memory;
    /* fault_tolerance: ulfm (--with-ft ulfm): the job goes on after a
     * process fails, errors raised on each operation's communicator; else
     * (abort, the default, as mpirun) it ends unless every survivor
     * returns errors on MPI_COMM_WORLD */
    bool ulfm;
    /* ideal (--ideal): what-ifs (docs/models.md, "Ideal network and CPU"):
     * the network free (no latency, no time on the wire, no contention,
     * free copies inside a node, no MPI overheads), or computation free */
    bool ideal_network, ideal_cpu;
    /* scale (--sensitivity): factors on every latency, bandwidth, MPI
     * overhead and the speed of computation (1: as given) */
    double scale_latency, scale_bandwidth, scale_overhead, scale_speed;
};

/* The flop rate assumed for a relative speed of 1.0 (documented in models.md). */
#define PLATFORM_REFERENCE_FLOP_RATE 1e9

/* Loads path (NULL = built-in default), applies "key.path=value" overrides,
 * validates. Returns NULL with err set. */
struct platform *platform_load(const char *path, const char *const *sets, int nsets,
                               struct sim_error *err);
/* Same from YAML text in memory; name is used in messages. */
struct platform *platform_load_buffer(const char *text, size_t len, const char *name,
                                      const char *const *sets, int nsets, struct sim_error *err);
void platform_free(struct platform *p);

/* Checks that nranks ranks fit and resolves nodes: auto. */
bool platform_fit_ranks(struct platform *p, int64_t nranks, struct sim_error *err);
/* Node hosting world rank r (after platform_fit_ranks). */
int32_t platform_node_of(const struct platform *p, int64_t rank);
/* The cores a rank on a node holding ranks_on_node ranks runs on. */
int64_t platform_rank_cores(const struct platform *p, int64_t ranks_on_node);
/* Seconds a compute burst of `seconds` on the reference machine takes here. */
double platform_scale_seconds(const struct platform *p, double seconds);
/* Seconds that `flops` floating-point operations take on a node. */
double platform_flops_seconds(const struct platform *p, double flops);

/* The what-if of platform key ideal: "none", "network", "cpu" or
 * "network+cpu". */
const char *platform_ideal(const struct platform *p);

/* Prints the resolved platform as YAML. */
void platform_show(const struct platform *p, FILE *out);
/* Comment lines after platform_show where two values could apply (inter:
 * and a topology's links): which one does. */
void platform_show_notes(const struct platform *p, FILE *out);
/* A relative path named in a platform file (origin) is beside that file;
 * one given with --set (origin not a file) is from the current folder.
 * Returns path or buf. */
const char *platform_beside_file(const char *origin, const char *path, char *buf, size_t n);
/* A digest of the resolved platform (of what platform_show prints, and
 * the content of the files it names). */
uint64_t platform_digest(const struct platform *p);

/* The embedded default platform (YAML text). */
extern const char platform_default_yaml[];

#endif
