/* SPDX-License-Identifier: BSD-3-Clause */
/* simpi.h extensions: explicit computation, sampled blocks (the SMPI
 * approach: run a block a few times, then charge its mean) and shared
 * allocations. State is kept per call site (file, line) and, for local
 * sampling, per rank. */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "online/runtime.h"
#include "online/threads.h"
#include "simpi.h"

struct simpi_sample {
    struct simpi_sample *next;
    const char *file;
    int line, n, global;
    int *runs;         /* per rank (local) or [0] (global) */
    double *total;     /* virtual seconds the measured runs took, same indexing */
    simtime_t *vstart; /* per rank: virtual time when its current run began */
    uint8_t *phase;    /* per rank, per call: 0 = deciding, 1 = running, 2 = over */
};

static struct simpi_sample *sites;

static void charge(double target_seconds) {
    struct runtime *rt = simpi_rt;
    if (!rt || rt->current < 0 || target_seconds <= 0) return;
    if (!sim_compute(rt->sim, rt->current, simtime_from_seconds(target_seconds))) runtime_block();
}

/* A negative, infinite or NaN amount is the program's error, never a
 * silent no-op (a computed duration gone wrong). */
static void check_amount(const char *func, double v) {
    if (!simpi_rt || simpi_rt->current < 0 || (v >= 0 && v < 1e300)) return;
    runtime_abort("%s(%g): expected a finite amount, zero or more", func, v);
}

void simpi_compute_seconds(double seconds) {
    check_amount("simpi_compute_seconds", seconds);
    if (seconds > 0 && threads_absorb_charge(seconds)) return; /* a thread's, or a region's */
    runtime_enter();
    charge(seconds);
    runtime_leave();
}

void simpi_compute_flops(double flops) {
    check_amount("simpi_compute_flops", flops);
    if (simpi_rt && flops > 0 &&
        threads_absorb_charge(platform_flops_seconds(simpi_rt->plat, flops)))
        return;
    runtime_enter();
    if (simpi_rt) charge(platform_flops_seconds(simpi_rt->plat, flops));
    runtime_leave();
}

static int32_t me(void) {
    return simpi_rt && simpi_rt->current >= 0 ? simpi_rt->current : 0;
}

static simtime_t vnow(void) {
    return simpi_rt ? sim_now(simpi_rt->sim) : 0;
}

static struct simpi_sample *new_site(const char *file, int line, int n, int global) {
    struct simpi_sample *s = xcalloc(1, sizeof *s);
    s->file = file;
    s->line = line;
    s->n = n;
    s->global = global;
    size_t ranks = simpi_rt ? (size_t)simpi_rt->n : 1;
    size_t slots = global ? 1 : ranks;
    s->runs = xcalloc(slots, sizeof *s->runs);
    s->total = xcalloc(slots, sizeof *s->total);
    s->vstart = xcalloc(ranks, sizeof *s->vstart);
    s->phase = xcalloc(ranks, sizeof *s->phase);
    s->next = sites;
    sites = s;
    return s;
}

/* The rank's computation before the block is charged first; the block's
 * own cost is then measured in virtual time (measured CPU time and the
 * simpi_compute_* charges inside it), so that skipped runs replay both. */
struct simpi_sample *simpi_sample_begin(const char *file, int line, int n, int global) {
    runtime_enter();
    struct simpi_sample *s = sites;
    while (s && !(s->line == line && !strcmp(s->file, file)))
        s = s->next;
    if (!s) s = new_site(file, line, n, global);
    s->phase[me()] = 0;
    return s;
}

static int slot_of(const struct simpi_sample *s) {
    return s->global ? 0 : me();
}

int simpi_sample_run(struct simpi_sample *s) {
    int k = slot_of(s);
    int32_t r = me();
    if (s->phase[r] == 2) {
        runtime_leave();
        return 0;
    }
    if (s->runs[k] < s->n) { /* run it for real and measure it */
        s->phase[r] = 1;
        s->vstart[r] = vnow();
        runtime_leave();
        return 1;
    }
    charge(s->runs[k] ? s->total[k] / s->runs[k] : 0);
    runtime_leave();
    return 0;
}

void simpi_sample_done(struct simpi_sample *s) {
    runtime_enter(); /* charges the block's measured CPU time */
    int k = slot_of(s);
    int32_t r = me();
    s->runs[k]++;
    s->total[k] += simtime_to_seconds(vnow() - s->vstart[r]);
    s->phase[r] = 2;
}

/* Shared allocations: one block per call site, with a count of holders. */
struct shared {
    struct shared *next;
    const char *file;
    int line, holders;
    void *p;
};
static struct shared *shared_blocks;

void *simpi_shared_malloc(size_t size, const char *file, int line) {
    struct shared *b = shared_blocks;
    while (b && !(b->line == line && !strcmp(b->file, file) && b->p))
        b = b->next;
    if (!b) {
        b = xcalloc(1, sizeof *b);
        b->file = file;
        b->line = line;
        b->p = xcalloc(1, size ? size : 1);
        b->next = shared_blocks;
        shared_blocks = b;
    }
    b->holders++;
    return b->p;
}

void simpi_shared_free(void *p) {
    for (struct shared **pp = &shared_blocks; *pp; pp = &(*pp)->next) {
        struct shared *b = *pp;
        if (b->p != p) continue;
        if (--b->holders == 0) {
            free(b->p);
            *pp = b->next;
            free(b);
        }
        return;
    }
}

/* --- user intervals (SIMPI_INTERVAL_BEGIN / END) --- */

void simpi_interval_begin(const char *name) {
    runtime_enter();
    if (simpi_rt && simpi_rt->current >= 0)
        sim_interval(simpi_rt->sim, simpi_rt->current, name ? name : "(null)");
    runtime_leave();
}

void simpi_interval_end(void) {
    runtime_enter();
    if (simpi_rt && simpi_rt->current >= 0) sim_interval(simpi_rt->sim, simpi_rt->current, NULL);
    runtime_leave();
}
