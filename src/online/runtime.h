/* SPDX-License-Identifier: BSD-3-Clause */
/* The on-line runtime: runs one copy of the user's main per simulated rank,
 * each in its own execution context, on top of the MPI semantics layer.
 * Computation between MPI calls is measured as the CPU time of the thread
 * running the ranks (cpuclock.c) and charged as simulated compute; MPI
 * calls become MPI-layer actions. */
#ifndef SIMPI_RUNTIME_H
#define SIMPI_RUNTIME_H

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "core/alloc.h"
#include "core/rankdir.h"
#include "mpi/sim.h"
#include "net/network.h"
#include "online/context.h"
#include "online/privatize.h"
#include "platform/platform.h"

enum cpu_mode { CPU_MEASURE, CPU_IGNORE };

struct orank {
    struct ctx ctx;
    double cpu_mark;     /* CPU clock (seconds) when the rank last left simpi */
    double elapsed_mark; /* the monotonic clock then */
    int saved_errno;     /* the rank's errno while it is not running */
    uint8_t initialized, finalized, done;
    uint8_t mark_cpu;                /* cpu_mark is the main thread's CPU clock (threads.c) */
    int calls;                       /* runtime_enter/leave nesting: the rank is inside MPI */
    struct thread_call *thread_call; /* another thread's call running as the rank */
};

struct runtime {
    struct sim *sim;
    struct sim_hooks hooks;    /* the MPI layer's hooks into this front end (sim_set_hooks) */
    struct analysis *analysis; /* intervals and the outputs asked for */
    struct platform *plat;
    struct network net;
    struct stacks stacks;
    struct ctx scheduler;
    bool aside; /* the running rank's call works on the scheduler's stack (runtime_aside) */
    struct orank *ranks;
    int32_t n, current;
    int argc;
    char **argv;
    char **argv_copies; /* one argv array per rank */
    int (*user_main)(int, char **);
    enum cpu_mode cpu;
    double cpu_scale;      /* simulated seconds per measured second */
    bool thread_cores_all; /* --thread-cores=all: threads may use every host core */
    const char *json, *app;
    bool quiet, privatize;
    struct privatize_info privatized; /* how (privatize.c) */
    bool launched;                    /* started by `simpi run` (else: one rank, no summary) */
    /* how the run ends: the first non-zero exit status of a rank, MPI_Abort's
     * code (128 + signal...; -1: none), the signal that ended it (a crash,
     * SIGINT...) and why, and the jump back to runtime_main */
    struct rt_end {
        int rank_status, forced_status, signal;
        char msg[512];
        sigjmp_buf jump;
    } end;
    volatile sig_atomic_t in_mpi, running;
    /* the handlers are in place, the simulation not yet started: an
     * interruption now stops the run at its first switch, with its report */
    volatile sig_atomic_t starting;
    /* the host, for the report: when the run started, switches to a rank,
     * seconds of computation measured (--cpu=measure) and monotonic seconds
     * meanwhile (other programs' time too), hostload readings at the start */
    struct rt_host {
        double wall_start;
        uint64_t switches;
        double measured, measured_elapsed;
        double waited_start, steal_start;
    } host;
    pthread_t main_thread;      /* the one that runs every rank */
    int thread_asked;           /* MPI_Init_thread's required level; -1: MPI_Init */
    int thread_provided;        /* the level given (MPI_Query_thread): at most FUNNELED */
    int done_fd;                /* told when the report is out (simpi run); -1: none */
    pid_t launcher;             /* the parent at the start (simpi run's process) */
    int check;                  /* --check: 0 off, 1 default, 2 full (docs/checking.md) */
    struct workers *workers;    /* a split run's (--procs: docs/parallel.md), else NULL */
    struct rankdir trace_stage; /* a split run's --trace-out, staged before the fork */
};

extern struct runtime *simpi_rt;

/* Entry from the real main(): reads SIMPI_* settings from the environment
 * (set by `simpi run`), runs the simulation, prints the summary. */
int runtime_main(int argc, char **argv, int (*user_main)(int, char **));

/* At the start of an MPI function. On a thread other than the one running
 * the ranks: under MPI_THREAD_SERIALIZED the call goes on on the main
 * thread, as the thread's rank (thread_calls.c); below it, the run ends at
 * once with a report naming the call, the thread and the levels. */
void runtime_check_thread(const char *func);
/* Ends the run from a thread the program started, with msg as the error. */
_Noreturn void runtime_refuse_from_thread(const char *msg);
/* Whether `rank` is inside an MPI call, its main thread's or a thread's. */
bool runtime_rank_in_call(int32_t rank);
/* The thread's call that runs as `rank` now (NULL: none). */
void runtime_set_thread_call(int32_t rank, struct thread_call *c);
/* MPI_THREAD_MULTIPLE: a thread's call of `rank` is set aside in a wait
 * (the rank is out of MPI meanwhile), or goes on. */
void runtime_call_sets_aside(int32_t rank);
void runtime_call_resumes(int32_t rank);
/* The rank waits for its threads' calls: mpi.poll_cost of virtual time
 * passes, other ranks run. */
void runtime_poll_wait(void);
bool runtime_on_main_thread(void);
/* An ending signal (SIGTERM...) that arrived inside simpi stops the run at
 * the next resume of a rank; a split run's worker whose ranks all wait for
 * other workers' resumes none: it stops at the end of the window. */
void runtime_stop_if_escaped(struct runtime *rt);

/* The running rank is starting its first thread: its computation is read
 * from the main thread's CPU clock from now on (threads.c). */
void runtime_threads_starting(void);
/* Called at the start and end of every MPI function by the running rank. */
void runtime_enter(void);
void runtime_leave(void);
/* Gives control back to the scheduler until the MPI layer resumes this rank. */
void runtime_block(void);
/* Waits (blocking the rank as needed) for n requests, or any one of them. */
void runtime_wait(struct request **reqs, int n, bool any);
/* Runs fn(arg), the simulator's part of the current rank's MPI call (which
 * never blocks), on the scheduler's stack when the rank's own context runs
 * on the main thread (ctx_call_below: its frames stay in the cache, and
 * off the rank's stack); else in place. */
void runtime_aside(void (*fn)(void *), void *arg);
int32_t runtime_rank(void);
/* signals.c: the signals pending for rank, its handlers run as it (as its
 * MPI call returns to its code). */
void signals_deliver(int32_t rank);
/* True while a rank's code runs (not simpi's scheduler, not a forked child). */
bool runtime_in_rank(void);
/* The running rank's virtual time, including the computation measured since
 * its last call into simpi, without charging it (never switches ranks). */
simtime_t runtime_virtual_now(void);
/* Charges t of computation to the running rank (inside simpi: in_mpi). */
void runtime_charge(simtime_t t);
/* The host's clocks, for simpi's own timing (vtime.c makes clock_gettime
 * read virtual time in ranks). */
int vtime_host_clock(clockid_t id, struct timespec *ts);
/* The host's CLOCK_REALTIME `seconds` from now (pthread_cond_timedwait's
 * deadlines; clock_gettime reads virtual time in ranks). */
struct timespec vtime_host_deadline(double seconds);
/* A test or probe found nothing: charges mpi.poll_cost to the rank (vtime.c). */
void vtime_poll_charge(void);
/* Stops the simulation with an error attributed to the running rank. */
_Noreturn void runtime_abort(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same, and simpi run exits with `status` (MPI_Abort's error code, the
 * code for an unsupported call...) instead of the application-error code. */
_Noreturn void runtime_abort_status(int status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* A split run (docs/parallel.md): what the front end tells another
 * worker, by kind; runtime_post_front sends it (at this window's end). */
enum front_kind {
    FRONT_COLL_DATA = 1,
    FRONT_GRAPH_EDGES,
    FRONT_OUTPUT,
    FRONT_FILE_OPENED,
    FRONT_HOST
};
void runtime_post_front(enum front_kind kind, int to, const struct sim_piece *pieces, int n);
void graph_take_edges(const void *msg, uint32_t len); /* api/graph.c */
void io_take_opened(const void *msg, uint32_t len);   /* api/io.c */
/* In a split run, stops the run: `what` is not simulated there yet. */
void runtime_refuse_split(const char *what);

/* Stops the simulation with an error attributed to `rank`, found outside
 * its own call (another worker's arrival at a collective showed it). */
void runtime_fail_rank(int32_t rank, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Tells simpi run that this process's report is out (or that it need not
 * say the process ended before it). Safe in a signal handler. */
void runtime_tell_done(struct runtime *rt);
/* Tells simpi run instead that the run is lost, and why (safe in a signal
 * handler): it writes the --json saying so. */
void runtime_tell_lost(struct runtime *rt, const char *why);
/* Ends the process at once, whatever a rank is doing (not the program's
 * _exit, which ends a rank). */
_Noreturn void runtime_exit_now(int status);
/* The C library's write, past simpi's (which routes a split run's ranks'
 * standard output: split.c). */
ssize_t runtime_libc_write(int fd, const void *buf, size_t n);

/* What the host did to this process's measurements so far (summary.h). */
struct host_figures;
void runtime_host_figures(struct host_figures *h);

/* simpi run's own exit statuses (docs/online.md); the others are the
 * program's: MPI_Abort's code, a rank's exit status, 128 + a signal. */
#define RUNTIME_EXIT_UNSUPPORTED 5

#endif
