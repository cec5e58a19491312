/* The OpenMP settings of each rank, kept per rank as separate processes
 * would have them. All ranks run on the process's main thread, so the one
 * OpenMP runtime (libgomp, when the program uses OpenMP) holds one set of
 * the settings a program changes for its own thread: a rank calling
 * omp_set_num_threads(1) also changed every other rank's team size. Around
 * each switch to a rank, its settings are put in place and read back after
 * (omp_set_num_threads, omp_set_dynamic, omp_set_max_active_levels,
 * omp_set_schedule and their getters, found by name, so that a program
 * without OpenMP pays nothing). Every rank starts with the settings the
 * process started with (OMP_NUM_THREADS, OMP_SCHEDULE...). */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/pool.h"
#include "online/privatize.h"

struct omp_settings {
    int nthreads, dynamic, max_levels, sched_kind, sched_chunk;
};

static struct {
    int (*get_max_threads)(void);
    void (*set_num_threads)(int);
    int (*get_dynamic)(void);
    void (*set_dynamic)(int);
    int (*get_max_active_levels)(void);
    void (*set_max_active_levels)(int);
    void (*get_schedule)(int *kind, int *chunk);
    void (*set_schedule)(int kind, int chunk);
} omp;
static struct omp_settings *per_rank;

static void *find(const char *name) {
    return dlsym(RTLD_DEFAULT, name);
}

static void read_settings(struct omp_settings *s) {
    s->nthreads = omp.get_max_threads();
    s->dynamic = omp.get_dynamic();
    s->max_levels = omp.get_max_active_levels();
    omp.get_schedule(&s->sched_kind, &s->sched_chunk);
}

static void apply_settings(const struct omp_settings *s) {
    omp.set_num_threads(s->nthreads);
    omp.set_dynamic(s->dynamic);
    omp.set_max_active_levels(s->max_levels);
    omp.set_schedule(s->sched_kind, s->sched_chunk);
}

void omp_state_init(int32_t nranks) {
    *(void **)&omp.get_max_threads = find("omp_get_max_threads");
    *(void **)&omp.set_num_threads = find("omp_set_num_threads");
    *(void **)&omp.get_dynamic = find("omp_get_dynamic");
    *(void **)&omp.set_dynamic = find("omp_set_dynamic");
    *(void **)&omp.get_max_active_levels = find("omp_get_max_active_levels");
    *(void **)&omp.set_max_active_levels = find("omp_set_max_active_levels");
    *(void **)&omp.get_schedule = find("omp_get_schedule");
    *(void **)&omp.set_schedule = find("omp_set_schedule");
    if (!omp.get_max_threads || !omp.set_num_threads || !omp.get_dynamic || !omp.set_dynamic ||
        !omp.get_max_active_levels || !omp.set_max_active_levels || !omp.get_schedule ||
        !omp.set_schedule)
        return; /* no OpenMP in this program */
    struct omp_settings process;
    read_settings(&process);
    per_rank = xmalloc((size_t)nranks * sizeof *per_rank);
    for (int32_t r = 0; r < nranks; r++)
        per_rank[r] = process;
}

void omp_state_enter(int32_t rank) {
    if (per_rank) apply_settings(&per_rank[rank]);
}

void omp_state_leave(int32_t rank) {
    if (per_rank) read_settings(&per_rank[rank]); /* the next rank puts its own in place */
}

void omp_state_end(void) {
    free(per_rank);
    per_rank = NULL;
}
