/* SPDX-License-Identifier: BSD-3-Clause */
/* Contention models: registry and the entry points the MPI layer calls. */
#include "net/contention_internal.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

static void on_event(void *ctx, const struct event *ev) {
    struct contention *c = ctx;
    c->ops->event(c, ev);
}

struct contention *contention_create(const struct network *net, int64_t nodes, struct engine *eng,
                                     uint32_t first_kind, transfer_done_fn done, void *ctx,
                                     struct sim_error *err) {
    const struct contention_ops *ops = net->contention == CONTENTION_BUSES  ? &contention_buses
                                       : net->contention == CONTENTION_FLOW ? &contention_flow
                                                                            : NULL;
    if (!ops) return NULL;
    struct contention *c = xcalloc(1, sizeof *c);
    *c = (struct contention){ops, net, eng, nodes, first_kind, done, ctx, NULL, NULL, 0};
    engine_register(eng, first_kind, on_event, c);
    if (!ops->create(c, err)) {
        free(c);
        return NULL;
    }
    return c;
}

void contention_destroy(struct contention *c) {
    if (!c) return;
    c->ops->destroy(c);
    free(c);
}

void contention_start(struct contention *c, int32_t src, int32_t dst, int64_t size, simtime_t at,
                      void *arg) {
    c->ops->start(c, src, dst, size, at, arg);
}

int contention_top_links(const struct contention *c, struct link_load *out, int n) {
    return c && c->ops->top_links ? c->ops->top_links(c, out, n) : 0;
}

void contention_set_jobs(struct contention *c, const int32_t *node_job, int32_t njobs) {
    if (!c || njobs < 2) return;
    c->node_job = node_job;
    c->njobs = njobs;
}

int contention_shared_links(const struct contention *c, struct link_shared *out, int n) {
    return c && c->node_job && c->ops->shared_links ? c->ops->shared_links(c, out, n) : 0;
}
