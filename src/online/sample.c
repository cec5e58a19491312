/* simpi.h extensions: explicit computation, sampled blocks (the SMPI
 * approach: run a block a few times, then charge its mean) and shared
 * allocations. State is kept per call site (file, line) and, for local
 * sampling, per rank. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/pool.h"
#include "online/runtime.h"
#include "simpi.h"

struct simpi_sample {
    struct simpi_sample *next;
    const char *file;
    int line, n, global;
    int *runs;      /* per rank (local) or [0] (global) */
    double *total;  /* CPU seconds measured, same indexing */
    double started; /* CPU clock when the current run began */
    int phase;      /* per call: 0 = deciding, 1 = running, 2 = over */
};

static struct simpi_sample *sites;

static double cpu_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void charge(double target_seconds) {
    struct runtime *rt = simpi_rt;
    if (!rt || rt->current < 0 || target_seconds <= 0) return;
    if (!sim_compute(rt->sim, rt->current, simtime_from_seconds(target_seconds))) runtime_block();
}

void simpi_compute_seconds(double seconds) {
    runtime_enter();
    charge(seconds);
    runtime_leave();
}

void simpi_compute_flops(double flops) {
    runtime_enter();
    if (simpi_rt) charge(platform_flops_seconds(simpi_rt->plat, flops));
    runtime_leave();
}

struct simpi_sample *simpi_sample_begin(const char *file, int line, int n, int global) {
    runtime_enter(); /* charge what ran before the block */
    struct simpi_sample *s = sites;
    while (s && !(s->line == line && !strcmp(s->file, file)))
        s = s->next;
    if (!s) {
        s = xcalloc(1, sizeof *s);
        s->file = file;
        s->line = line;
        s->n = n;
        s->global = global;
        int slots = global || !simpi_rt ? 1 : simpi_rt->n;
        s->runs = xcalloc((size_t)slots, sizeof *s->runs);
        s->total = xcalloc((size_t)slots, sizeof *s->total);
        s->next = sites;
        sites = s;
    }
    s->phase = 0;
    return s;
}

static int slot_of(const struct simpi_sample *s) {
    return s->global || !simpi_rt || simpi_rt->current < 0 ? 0 : simpi_rt->current;
}

int simpi_sample_run(struct simpi_sample *s) {
    int k = slot_of(s);
    if (s->phase == 2) {
        runtime_leave();
        return 0;
    }
    if (s->runs[k] < s->n) { /* run it for real and time it */
        s->phase = 1;
        s->started = cpu_now();
        return 1;
    }
    double mean = s->runs[k] ? s->total[k] / s->runs[k] : 0;
    if (simpi_rt && simpi_rt->cpu == CPU_MEASURE) charge(mean * simpi_rt->cpu_scale);
    runtime_leave();
    return 0;
}

void simpi_sample_done(struct simpi_sample *s) {
    int k = slot_of(s);
    double took = cpu_now() - s->started;
    s->runs[k]++;
    s->total[k] += took;
    s->phase = 2;
    if (simpi_rt && simpi_rt->cpu == CPU_MEASURE) charge(took * simpi_rt->cpu_scale);
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
