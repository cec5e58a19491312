/* SPDX-License-Identifier: BSD-3-Clause */
/* The OpenMP and threaded BLAS settings of each rank, kept per rank as
 * separate processes would have them. All ranks run on the process's main thread, so the one
 * OpenMP runtime (libgomp, when the program uses OpenMP) holds one set of
 * the settings a program changes for its own thread: a rank calling
 * omp_set_num_threads(1) also changed every other rank's team size. Around
 * each switch to a rank, its settings are put in place and read back after
 * (omp_set_num_threads, omp_set_dynamic, omp_set_max_active_levels,
 * omp_set_schedule and their getters, found by name, so that a program
 * without OpenMP pays nothing). Every rank starts with the settings the
 * process started with (OMP_NUM_THREADS, OMP_SCHEDULE...), except that
 * without OMP_NUM_THREADS its teams have as many threads as it has cores
 * on its simulated node (threads_rank_cores), not this host's count.
 * OpenBLAS's thread count (openblas_set_num_threads) is kept the same way,
 * starting from the rank's cores unless OPENBLAS_NUM_THREADS,
 * GOTO_NUM_THREADS or OMP_NUM_THREADS says otherwise. */
#define _GNU_SOURCE /* RTLD_DEFAULT, dlinfo */
#include <dlfcn.h>
#include <link.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "online/privatize.h"
#include "online/threads.h"

struct omp_settings {
    int nthreads, dynamic, max_levels, sched_kind, sched_chunk, blas_threads;
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
    int (*blas_get_threads)(void);
    void (*blas_set_threads)(int);
} omp;
static struct omp_settings *per_rank;

/* libgomp's thread-local state of the main thread (its team, its task, its
 * pool of worker threads), one copy per rank: a rank switched out inside a
 * parallel region (an MPI call from the master) leaves its team to it, and
 * the next rank's regions start from no team with its own pool of threads,
 * as in a process of its own. */
static struct {
    void *block; /* libgomp's TLS block of the main thread */
    size_t size;
    char *per_rank; /* a copy for each rank */
} gomp_tls;

static int find_gomp_tls(struct dl_phdr_info *info, size_t len, void *out) {
    (void)len;
    if (!info->dlpi_name || !strstr(info->dlpi_name, "libgomp")) return 0;
    for (int i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_TLS) *(size_t *)out = info->dlpi_phdr[i].p_memsz;
    return 1;
}

static void gomp_tls_init(int32_t nranks) {
    void *lib = dlopen("libgomp.so.1", RTLD_LAZY | RTLD_NOLOAD);
    if (!lib) return;
    void *block = NULL;
    size_t size = 0;
    dl_iterate_phdr(find_gomp_tls, &size);
    if (dlinfo(lib, RTLD_DI_TLS_DATA, &block) == 0 && block && size > 0) {
        gomp_tls.block = block;
        gomp_tls.size = size;
        gomp_tls.per_rank = xmalloc((size_t)nranks * size);
        for (int32_t r = 0; r < nranks; r++) /* each starts as the process did */
            memcpy(gomp_tls.per_rank + (size_t)r * size, block, size);
    }
    dlclose(lib);
}

static void *find(const char *name) {
    return dlsym(RTLD_DEFAULT, name);
}

static void read_settings(struct omp_settings *s) {
    if (omp.blas_get_threads) s->blas_threads = omp.blas_get_threads();
    if (!omp.get_max_threads) return;
    s->nthreads = omp.get_max_threads();
    s->dynamic = omp.get_dynamic();
    s->max_levels = omp.get_max_active_levels();
    omp.get_schedule(&s->sched_kind, &s->sched_chunk);
}

static void apply_settings(const struct omp_settings *s) {
    if (omp.blas_get_threads && omp.blas_get_threads() != s->blas_threads)
        omp.blas_set_threads(s->blas_threads); /* a lock in OpenBLAS: only when it changes */
    if (!omp.get_max_threads) return;
    omp.set_num_threads(s->nthreads);
    omp.set_dynamic(s->dynamic);
    omp.set_max_active_levels(s->max_levels);
    omp.set_schedule(s->sched_kind, s->sched_chunk);
}

/* OpenBLAS's thread count from its variables, in its order of precedence
 * (OpenBLAS itself caps it at this host's cores; a rank gets it as asked);
 * 0 when none is set. */
static int blas_threads_asked(void) {
    const char *names[] = {"OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS"};
    for (int i = 0; i < 3; i++) {
        const char *v = getenv(names[i]);
        int n = v ? atoi(v) : 0; /* OMP_NUM_THREADS=4,2: the first level's */
        if (n > 0) return n;
    }
    return 0;
}

void omp_state_init(int32_t nranks) {
    gomp_tls_init(nranks);
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
        omp.get_max_threads = NULL; /* no OpenMP in this program */
    *(void **)&omp.blas_get_threads = find("openblas_get_num_threads");
    *(void **)&omp.blas_set_threads = find("openblas_set_num_threads");
    if (!omp.blas_get_threads || !omp.blas_set_threads) omp.blas_get_threads = NULL;
    if (!omp.get_max_threads && !omp.blas_get_threads) return;
    struct omp_settings process = {0};
    read_settings(&process);
    bool omp_given = getenv("OMP_NUM_THREADS") != NULL;
    int blas_given = blas_threads_asked();
    per_rank = xmalloc((size_t)nranks * sizeof *per_rank);
    for (int32_t r = 0; r < nranks; r++) {
        per_rank[r] = process;
        int cores = (int)threads_rank_cores(r);
        if (!omp_given) per_rank[r].nthreads = cores;
        per_rank[r].blas_threads = blas_given > 0 ? blas_given : cores;
    }
}

void omp_state_enter(int32_t rank) {
    if (gomp_tls.block)
        memcpy(gomp_tls.block, gomp_tls.per_rank + (size_t)rank * gomp_tls.size, gomp_tls.size);
    if (per_rank) apply_settings(&per_rank[rank]);
    threads_switch_in(rank);
}

void omp_state_leave(int32_t rank) {
    if (per_rank) read_settings(&per_rank[rank]); /* the next rank puts its own in place */
    if (gomp_tls.block)
        memcpy(gomp_tls.per_rank + (size_t)rank * gomp_tls.size, gomp_tls.block, gomp_tls.size);
    threads_switch_out(rank);
}

void omp_state_end(void) {
    free(per_rank);
    per_rank = NULL;
    /* the ranks' libgomp states stay (their tasks and pools are libgomp's,
     * alive until the process ends): nothing is switched any more */
    if (gomp_tls.per_rank) gomp_tls.block = NULL;
}
