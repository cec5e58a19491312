/* SPDX-License-Identifier: BSD-3-Clause */
/* The platform file's keys, declared once: each one's path, type, default,
 * range and help (keys.c). The parsers' lists of the keys a map accepts
 * (and so their "did you mean" and "expected one of"), the defaults of the
 * keys read through platform_key_*, `simpi platform keys`, docs/
 * platform-format.md's table and --set completion come from it. The
 * keys of each topology's shape and links are declared by the topology
 * (topo_ops, docs/network.md), those of a point-to-point model by p2p.c. */
#ifndef SIMPI_PLATFORM_KEYS_H
#define SIMPI_PLATFORM_KEYS_H

#include <stdint.h>

#include "core/simtime.h"

struct platform_key {
    const char *path;  /* "mpi.eager_limit"; a map's own path: "mpi" */
    const char *type;  /* count, size, time, bandwidth, number, factor, enum, map, list, path,
                          string, model */
    const char *dflt;  /* in the file's syntax; NULL: required, or none (the help says) */
    const char *range; /* the values it takes */
    const char *help;
};

/* The table, in the order the parsers list the keys; *n its length. */
const struct platform_key *platform_keys(int *n);
/* The declaration of path, or NULL. */
const struct platform_key *platform_key(const char *path);
/* The keys declared directly under prefix ("" the top level), in order,
 * into names (at most max - 1, then NULL); returns how many. */
int platform_key_children(const char *prefix, const char **names, int max);
/* A key's default, parsed (an internal error if the table's text is not
 * one): a time, a size in bytes, a bandwidth in B/s, a number. */
simtime_t platform_key_default_time(const char *path);
int64_t platform_key_default_size(const char *path);
double platform_key_default_bandwidth(const char *path);
double platform_key_default_number(const char *path);

#endif
