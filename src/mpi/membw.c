/* SPDX-License-Identifier: BSD-3-Clause */
/* A node's memory shared by its ranks (platform key memory:, docs/models.md,
 * "A node's memory"). Each burst a rank computes moves `demand` bytes per
 * second of its duration alone; the bursts of one node that run at the
 * same time share the node's memory bandwidth B max-min fairly (a burst
 * that asks less than an equal share gets what it asks, the others share
 * the rest), and a burst granted g bytes per second of its demand d
 * progresses at g / d of its speed alone: its memory traffic, not its
 * arithmetic, sets its pace (a memory-bound kernel's assumption). Bursts
 * start at the engine's current time (a rank computes from the time it
 * resumed), so a node's bursts enter in time order; each start and each
 * end advances the node's other bursts to now, shares again and moves
 * their end events (sim_wake_at supersedes the old one). */
#include <math.h>
#include <stdlib.h>

#include "core/alloc.h"
#include "mpi/part.h"
#include "mpi/sim_internal.h"

struct mem_burst {
    double left;     /* picoseconds of its duration alone still to run */
    double demand;   /* bytes per simulated second, alone */
    double rate;     /* fraction of its speed alone it runs at now */
    simtime_t since; /* when left was last brought up to date */
    simtime_t begin; /* its start, for the observer */
    int32_t slot;    /* index in its node's active list; -1: not computing */
};

struct mem_node {
    int32_t *active; /* ranks of the node computing now */
    int32_t n, cap;
};

struct membw {
    double bandwidth; /* bytes per second, a node */
    double demand;    /* bytes per simulated second of a burst */
    struct mem_burst *bursts;
    struct mem_node *nodes;
};

void membw_init(struct sim *s) {
    const struct memory_model *m = &s->plat->memory;
    if (m->bandwidth <= 0 || m->demand <= 0) return;
    s->mem = xcalloc(1, sizeof *s->mem);
    s->mem->bandwidth = m->bandwidth;
    /* the bytes of a reference second moved in the platform's shorter
     * (speed > 1) or longer second */
    s->mem->demand = m->demand / platform_scale_seconds(s->plat, 1.0);
    s->mem->bursts = xcalloc((size_t)s->nranks, sizeof *s->mem->bursts);
    for (int32_t i = 0; i < s->nranks; i++)
        s->mem->bursts[i].slot = -1;
    s->mem->nodes = xcalloc((size_t)s->plat->nodes, sizeof *s->mem->nodes);
}

void membw_free(struct sim *s) {
    if (!s->mem) return;
    for (int64_t i = 0; i < s->plat->nodes; i++)
        free(s->mem->nodes[i].active);
    free(s->mem->nodes);
    free(s->mem->bursts);
    free(s->mem);
    s->mem = NULL;
}

/* Every burst of the node brought up to now at its current rate. */
static void advance(struct sim *s, const struct mem_node *nd) {
    simtime_t now = s->eng.now;
    for (int32_t i = 0; i < nd->n; i++) {
        struct mem_burst *b = &s->mem->bursts[nd->active[i]];
        b->left -= b->rate * (double)(now - b->since);
        if (b->left < 0) b->left = 0;
        b->since = now;
    }
}

/* Max-min fair shares of the node's bandwidth (water filling, smallest
 * demand first), each burst's end event moved to match. */
static void share(struct sim *s, struct mem_node *nd) {
    struct mem_burst *bursts = s->mem->bursts;
    /* insertion sort: a node's active ranks are few (its cores) */
    for (int32_t i = 1; i < nd->n; i++) {
        int32_t r = nd->active[i], j = i;
        for (; j > 0 && bursts[nd->active[j - 1]].demand > bursts[r].demand; j--) {
            nd->active[j] = nd->active[j - 1];
            bursts[nd->active[j]].slot = j;
        }
        nd->active[j] = r;
        bursts[r].slot = j;
    }
    double left = s->mem->bandwidth;
    for (int32_t i = 0; i < nd->n; i++) {
        int32_t rank = nd->active[i];
        struct mem_burst *b = &bursts[rank];
        double fair = left / (double)(nd->n - i), granted = b->demand < fair ? b->demand : fair;
        b->rate = granted / b->demand;
        left -= granted;
        /* picoseconds, up; a rounding error's thousandth of one is none */
        double exact = b->left / b->rate, rest = ceil(exact - 1e-3);
        sim_wake_at(s, rank, s->eng.now + (simtime_t)rest);
    }
}

void membw_start(struct sim *s, int32_t rank, simtime_t duration) {
    struct membw *m = s->mem;
    struct mem_node *nd = &m->nodes[sim_node(s, rank)];
    advance(s, nd);
    if (nd->n == nd->cap) {
        nd->cap = nd->cap ? 2 * nd->cap : 8;
        nd->active = xrealloc_or_die(nd->active, sizeof *nd->active * (size_t)nd->cap);
    }
    m->bursts[rank] = (struct mem_burst){.left = (double)duration,
                                         .demand = m->demand,
                                         .rate = 1,
                                         .since = s->eng.now,
                                         .begin = s->eng.now,
                                         .slot = nd->n};
    nd->active[nd->n++] = rank;
    share(s, nd);
}

bool membw_end(struct sim *s, int32_t rank, simtime_t *begin) {
    if (!s->mem || s->mem->bursts[rank].slot < 0) return false;
    struct mem_node *nd = &s->mem->nodes[sim_node(s, rank)];
    struct mem_burst *b = &s->mem->bursts[rank];
    *begin = b->begin;
    advance(s, nd);
    for (int32_t i = b->slot; i + 1 < nd->n; i++) {
        nd->active[i] = nd->active[i + 1];
        s->mem->bursts[nd->active[i]].slot = i;
    }
    nd->n--;
    b->slot = -1;
    share(s, nd);
    return true;
}
