/* SPDX-License-Identifier: BSD-3-Clause */
/* A preloaded interposer for real Fortran MPI runs (bench/cpu-bursts): sums
 * each rank's computation between MPI calls by the thread's CPU clock
 * (CLOCK_THREAD_CPUTIME_ID), which a rank descheduled by an oversubscribed
 * host does not accumulate, and prints it at MPI_FINALIZE:
 *   burst-cpu rank R: S seconds in N bursts
 * It wraps gfortran's names of the calls the NAS benchmarks make (each
 * argument by reference, forwarded as it came; hidden CHARACTER lengths
 * ride along). Built by bench/cpu-bursts, never part of simpi. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef void (*fn12)(void *, void *, void *, void *, void *, void *, void *, void *, void *, void *,
                     void *, void *);

static double burst_total, last_exit = -1;
static long bursts;

static double cpu_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void call_enter(void) {
    double t = cpu_now();
    if (last_exit >= 0) {
        burst_total += t - last_exit;
        bursts++;
    }
}

static void call_leave(void) {
    last_exit = cpu_now();
}

#define WRAP(name)                                                                                 \
    void name(void *a, void *b, void *c, void *d, void *e, void *f, void *g, void *h, void *i,     \
              void *j, void *k, void *l) {                                                         \
        static fn12 real;                                                                          \
        if (!real) real = (fn12)dlsym(RTLD_NEXT, #name);                                           \
        call_enter();                                                                              \
        real(a, b, c, d, e, f, g, h, i, j, k, l);                                                  \
        call_leave();                                                                              \
    }

WRAP(mpi_send_)
WRAP(mpi_recv_)
WRAP(mpi_isend_)
WRAP(mpi_irecv_)
WRAP(mpi_wait_)
WRAP(mpi_waitall_)
WRAP(mpi_waitany_)
WRAP(mpi_sendrecv_)
WRAP(mpi_bcast_)
WRAP(mpi_reduce_)
WRAP(mpi_allreduce_)
WRAP(mpi_barrier_)
WRAP(mpi_alltoall_)
WRAP(mpi_alltoallv_)
WRAP(mpi_allgather_)
WRAP(mpi_comm_split_)
WRAP(mpi_comm_dup_)

void mpi_init_(void *ierr) {
    static void (*real)(void *);
    if (!real) real = (void (*)(void *))dlsym(RTLD_NEXT, "mpi_init_");
    real(ierr);
    call_leave();
}

void mpi_finalize_(void *ierr) {
    static void (*real)(void *);
    if (!real) real = (void (*)(void *))dlsym(RTLD_NEXT, "mpi_finalize_");
    call_enter();
    const char *rank = getenv("OMPI_COMM_WORLD_RANK");
    fprintf(stderr, "burst-cpu rank %s: %.6f seconds in %ld bursts\n", rank ? rank : "?",
            burst_total, bursts);
    real(ierr);
}
