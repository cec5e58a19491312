/* SPDX-License-Identifier: BSD-3-Clause */
/* The built-in default platform, used when no --platform is given: a generic
 * cluster with a 100 Gb/s-class network, sized automatically to the run. */
#include "platform/platform.h"

const char platform_default_yaml[] =
    "# simpi built-in default platform\n"
    "nodes: auto              # as many nodes as the ranks need\n"
    "cores_per_node: 8\n"
    "speed: 1.0               # same speed as the machine the trace came from\n"
    "intra:\n"
    "  model: affine\n"
    "  latency: 0.5us\n"
    "  bandwidth: 10GB/s\n"
    "inter:\n"
    "  model: affine\n"
    "  latency: 1.5us\n"
    "  bandwidth: 12.5GB/s\n"
    "mpi:\n"
    "  eager_limit: 64KiB\n"
    "placement: block\n";
