/* SPDX-License-Identifier: BSD-3-Clause */
/* The MPI environment (MPI-3.1 chapter 8 and section 12.4): init and
 * finalize, abort, timers, processor name and versions, memory allocation,
 * the thread level, and MPI_Pcontrol (chapter 14). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "online/api/api.h"
#include "online/threads.h"
#include "simpi.h"

int PMPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr) {
    (void)info;
    void *p = malloc(size > 0 ? (size_t)size : 1);
    if (!p) return api_error("MPI_Alloc_mem", MPI_ERR_NO_MEM, "%lld bytes", (long long)size);
    *(void **)baseptr = p;
    return MPI_SUCCESS;
}

int PMPI_Free_mem(void *base) {
    free(base);
    return MPI_SUCCESS;
}

/* A positive level enters the interval "MPI_Pcontrol(level)"; zero or a
 * negative level leaves the innermost interval (docs/analysis.md). */
int PMPI_Pcontrol(const int level, ...) {
    if (level > 0) {
        char name[40];
        snprintf(name, sizeof name, "MPI_Pcontrol(%d)", level);
        simpi_interval_begin(name);
    } else {
        simpi_interval_end();
    }
    return MPI_SUCCESS;
}

int PMPI_Init(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    runtime_check_thread("MPI_Init");
    struct runtime *rt = simpi_rt;
    if (!rt || rt->current < 0) {
        fprintf(stderr, "simpi: error: MPI_Init called outside a simulated rank\n");
        exit(4);
    }
    runtime_enter();
    struct orank *o = &rt->ranks[rt->current];
    if (o->initialized) runtime_abort("MPI_Init called twice");
    o->initialized = 1;
    sim_comm_self(rt->sim, rt->current, MPI_COMM_SELF);
    runtime_leave();
    return MPI_SUCCESS;
}

/* Every level is given as asked: a call from a thread other than a rank's
 * main one is carried out on the main thread (thread_calls.c); under
 * SERIALIZED two at once stop the run, under MULTIPLE a thread's call that
 * waits is set aside while the rank goes on (docs/hybrid.md). */
int PMPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
    int level = required >= MPI_THREAD_MULTIPLE     ? MPI_THREAD_MULTIPLE
                : required >= MPI_THREAD_SERIALIZED ? MPI_THREAD_SERIALIZED
                : required >= MPI_THREAD_FUNNELED   ? MPI_THREAD_FUNNELED
                                                    : MPI_THREAD_SINGLE;
    if (simpi_rt) {
        simpi_rt->thread_asked = required;
        simpi_rt->thread_provided = level;
    }
    if (provided) *provided = level;
    return PMPI_Init(argc, argv);
}

int PMPI_Finalize(void) {
    API_ENTER("MPI_Finalize");
    struct runtime *rt = simpi_rt;
    rt->ranks[rt->current].finalized = 1;
    sim_finish(rt->sim, rt->current);
    runtime_leave();
    return MPI_SUCCESS;
}

int PMPI_Initialized(int *flag) {
    *flag = simpi_rt && simpi_rt->current >= 0 && simpi_rt->ranks[simpi_rt->current].initialized;
    return MPI_SUCCESS;
}

int PMPI_Finalized(int *flag) {
    *flag = simpi_rt && simpi_rt->current >= 0 && simpi_rt->ranks[simpi_rt->current].finalized;
    return MPI_SUCCESS;
}

int PMPI_Abort(MPI_Comm comm, int errorcode) {
    runtime_enter();
    runtime_abort_status(errorcode, "MPI_Abort(comm %d, error code %d)", comm, errorcode);
}

/* Under --cpu=ignore virtual time does not move while a rank computes: a
 * loop that waits for MPI_Wtime to advance would never end. So many calls
 * in a row at one virtual time stop the run, saying why. */
#define WTIME_SPIN_LIMIT 100000000

static void watch_wtime_spin(void) {
    static int32_t rank = -1;
    static simtime_t at;
    static int64_t calls;
    struct runtime *rt = simpi_rt;
    simtime_t now = sim_now(rt->sim);
    if (rt->current != rank || now != at) {
        rank = rt->current;
        at = now;
        calls = 0;
        return;
    }
    if (++calls < WTIME_SPIN_LIMIT) return;
    runtime_abort_status(sim_exit_code(SIM_APP_ERROR),
                         "called MPI_Wtime %d times in a row without virtual time moving: with "
                         "--cpu=ignore, virtual time does not move while a rank computes, so a "
                         "loop waiting for MPI_Wtime to advance never ends; run with "
                         "--cpu=measure, or bound the run with --time-limit or --wall-limit",
                         WTIME_SPIN_LIMIT);
}

double PMPI_Wtime(void) {
    if (!runtime_on_main_thread()) /* another thread reads the clock, charges nothing */
        return simtime_to_seconds(sim_now(simpi_rt->sim));
    if (simpi_rt && simpi_rt->cpu == CPU_IGNORE && simpi_rt->current >= 0) watch_wtime_spin();
    runtime_enter(); /* charge the computation so far */
    double t = simtime_to_seconds(sim_now(simpi_rt->sim));
    runtime_leave();
    return t;
}

double PMPI_Wtick(void) {
    return 1e-12;
}

/* OpenMP's clock in a hybrid program reads the rank's virtual time, as
 * MPI_Wtime does (on the rank's main thread it charges the computation so
 * far first; another thread reads the time of the rank's last MPI call).
 * libsimpi comes before libgomp among a program's libraries, so these are
 * the definitions its calls find (C, and Fortran's omp_lib). */
double omp_get_wtime(void) {
    return PMPI_Wtime();
}

double omp_get_wtick(void) {
    return PMPI_Wtick();
}

double omp_get_wtime_(void) {
    return PMPI_Wtime();
}

double omp_get_wtick_(void) {
    return PMPI_Wtick();
}

/* OpenMP's processor count is the rank's cores on its simulated node
 * (docs/hybrid.md), not this host's. */
int omp_get_num_procs(void) {
    struct runtime *rt = simpi_rt;
    if (rt && rt->running && rt->current >= 0) return (int)threads_rank_cores(rt->current);
    static int (*real)(void);
    if (!real) *(void **)&real = dlsym(RTLD_NEXT, "omp_get_num_procs");
    return real ? real() : 1;
}

int omp_get_num_procs_(void) {
    return omp_get_num_procs();
}

int PMPI_Get_processor_name(char *name, int *resultlen) {
    struct runtime *rt = simpi_rt;
    int32_t node = rt && rt->current >= 0 ? platform_node_of(rt->plat, rt->current) : 0;
    *resultlen = snprintf(name, MPI_MAX_PROCESSOR_NAME, "node-%d", node);
    return MPI_SUCCESS;
}

int PMPI_Get_version(int *version, int *subversion) {
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}

int PMPI_Get_library_version(char *version, int *resultlen) {
    *resultlen = snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING, "simpi 0.1.0 (simulated MPI)");
    return MPI_SUCCESS;
}

int PMPI_Query_thread(int *provided) {
    *provided = simpi_rt ? simpi_rt->thread_provided : MPI_THREAD_SINGLE;
    return MPI_SUCCESS;
}

int PMPI_Is_thread_main(int *flag) {
    *flag = runtime_on_main_thread();
    return MPI_SUCCESS;
}

#pragma weak MPI_Alloc_mem = PMPI_Alloc_mem
#pragma weak MPI_Free_mem = PMPI_Free_mem
#pragma weak MPI_Pcontrol = PMPI_Pcontrol
#pragma weak MPI_Init = PMPI_Init
#pragma weak MPI_Init_thread = PMPI_Init_thread
#pragma weak MPI_Finalize = PMPI_Finalize
#pragma weak MPI_Initialized = PMPI_Initialized
#pragma weak MPI_Finalized = PMPI_Finalized
#pragma weak MPI_Abort = PMPI_Abort
#pragma weak MPI_Wtime = PMPI_Wtime
#pragma weak MPI_Wtick = PMPI_Wtick
#pragma weak MPI_Get_processor_name = PMPI_Get_processor_name
#pragma weak MPI_Get_version = PMPI_Get_version
#pragma weak MPI_Get_library_version = PMPI_Get_library_version
#pragma weak MPI_Query_thread = PMPI_Query_thread
#pragma weak MPI_Is_thread_main = PMPI_Is_thread_main
