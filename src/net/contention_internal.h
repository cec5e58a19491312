/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared by the contention models (contention_*.c). */
#ifndef SIMPI_CONTENTION_INTERNAL_H
#define SIMPI_CONTENTION_INTERNAL_H

#include "net/contention.h"

struct contention_ops {
    const char *name;
    bool (*create)(struct contention *c, struct sim_error *err);
    void (*start)(struct contention *c, int32_t src, int32_t dst, int64_t size, simtime_t at,
                  void *arg);
    void (*event)(struct contention *c, const struct event *ev);
    int (*top_links)(const struct contention *c, struct link_load *out, int n);
    void (*destroy)(struct contention *c);
    int (*shared_links)(const struct contention *c, struct link_shared *out, int n); /* or NULL */
};

struct contention {
    const struct contention_ops *ops;
    const struct network *net;
    struct engine *eng;
    int64_t nodes;
    uint32_t kind; /* the engine event kind of this model */
    transfer_done_fn done;
    void *ctx;
    void *priv;
    const int32_t *node_job; /* several jobs (contention_set_jobs), or NULL */
    int32_t njobs;
};

extern const struct contention_ops contention_buses, contention_flow;

#endif
