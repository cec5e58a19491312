/* SPDX-License-Identifier: BSD-3-Clause */
/* The on-line runtime: settings, contexts, the scheduler loop, CPU-burst
 * measurement, rank start and end, and the final summary. */
#define _GNU_SOURCE /* RTLD_NEXT */
#include "online/runtime.h"

#include "online/api/api.h"
#include "online/cpuclock.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/digest.h"
#include "core/engine.h"
#include "core/hostload.h"
#include "core/log.h"
#include "core/memstat.h"
#include "core/options.h"
#include "core/outfile.h"
#include "core/units.h"
#include "core/workers.h"
#include "online/globals.h"
#include "online/privatize.h"
#include "online/rank_atexit.h"
#include "online/repeat.h"
#include "online/split.h"
#include "online/thread_calls.h"
#include "online/threads.h"
#include "report/analysis.h"
#include "report/progress.h"
#include "report/summary.h"

struct runtime *simpi_rt;

/* A rank's computation clock: the CPU time of this thread, on which every
 * rank runs (cpuclock.c: as cheap as the monotonic clock, and blind to the
 * time the operating system gave other programs). Once the program starts
 * a thread, its other threads' work is measured on their own (threads.c). */
static void mark_rank(struct orank *o) {
    o->mark_cpu = threads_started();
    o->cpu_mark = cpuclock_now(&o->elapsed_mark);
}

static double since_mark(const struct orank *o, double *elapsed) {
    double e, cpu = cpuclock_now(&e) - o->cpu_mark;
    if (elapsed) *elapsed = e - o->elapsed_mark;
    return cpu;
}

void runtime_threads_starting(void) {
    struct runtime *rt = simpi_rt;
    if (!rt || rt->current < 0 || rt->in_mpi || rt->cpu != CPU_MEASURE) return;
    rt->ranks[rt->current].mark_cpu = 1; /* the same clock: the main thread's CPU time */
}

/* The target seconds of the rank's computation since its mark. */
static double span_seconds(struct runtime *rt, struct orank *o) {
    if (rt->cpu != CPU_MEASURE) return threads_started() ? threads_span_end(rt->current, 0) : 0;
    double elapsed, burst = since_mark(o, &elapsed);
    if (burst < 0) burst = 0;
    rt->host.measured += burst;
    rt->host.measured_elapsed += elapsed > burst ? elapsed : burst;
    if (o->mark_cpu || threads_started()) return threads_span_end(rt->current, burst);
    return burst * rt->cpu_scale;
}

int32_t runtime_rank(void) {
    /* an MPI function that does not go through API_ENTER, called from a
     * thread the program started: its own rank's, under SERIALIZED (a
     * local operation: it runs on the thread itself) */
    struct runtime *rt = simpi_rt;
    if (rt && rt->running && !pthread_equal(pthread_self(), rt->main_thread)) {
        int32_t mine = threads_thread_rank();
        if (rt->thread_provided >= MPI_THREAD_SERIALIZED && mine >= 0) return mine;
        runtime_check_thread("an MPI function");
    }
    return rt->current;
}

bool runtime_rank_in_call(int32_t rank) {
    const struct orank *o = &simpi_rt->ranks[rank];
    return __atomic_load_n(&o->calls, __ATOMIC_ACQUIRE) > 0 || o->thread_call;
}

void runtime_set_thread_call(int32_t rank, struct thread_call *c) {
    simpi_rt->ranks[rank].thread_call = c;
}

void runtime_block(void) {
    struct runtime *rt = simpi_rt;
    /* from the scheduler's stack only a rank that ended (an abort) may go:
     * its frames there are overwritten, and it never resumes */
    if (rt->aside && !rt->ranks[rt->current].done) {
        fprintf(stderr,
                "simpi: internal error: rank %d would wait inside the simulator's work "
                "on the scheduler's stack\n",
                rt->current);
        abort();
    }
    ctx_switch(&rt->ranks[rt->current].ctx, &rt->scheduler);
}

/* A call made inside a parallel region starts at the calling thread's own
 * virtual time (seconds; <= 0: none), when the rank's is earlier (the
 * thread computed meanwhile). */
static void at_own_time(struct runtime *rt, double start) {
    if (start <= 0) return;
    simtime_t at = simtime_from_seconds(start), now = sim_now(rt->sim);
    if (at > now && !sim_compute(rt->sim, rt->current, at - now)) runtime_block();
}

void runtime_enter(void) {
    struct runtime *rt = simpi_rt;
    if (!rt || rt->current < 0) return;
    struct orank *me = &rt->ranks[rt->current];
    bool call_starts = false, own_starts = false;
    if (me->thread_call) {
        call_starts = thread_call_enter(me->thread_call); /* a thread's call, on this thread */
    } else if (me->calls == 0) {
        own_starts = true;
        /* the rank's threads' calls made before this one */
        if (rt->thread_provided >= MPI_THREAD_SERIALIZED) thread_calls_serve(rt->current);
    }
    /* written by this thread only, read by others: no locked add */
    __atomic_store_n(&me->calls, me->calls + 1, __ATOMIC_RELEASE);
    /* SIGINT/SIGTERM arrived while this rank was inside simpi, and it never
     * blocked since (a loop of MPI_Iprobe or MPI_Test): leave now */
    if (rt->end.signal && rt->running) siglongjmp(rt->end.jump, 1);
    rt->in_mpi = 1;
    /* --cpu=ignore reads no clock (threads' simpi_compute_* charges count) */
    if (rt->cpu != CPU_MEASURE && !threads_started()) return;
    if (me->finalized) return;
    double seconds = span_seconds(rt, me);
    if (seconds > 0 && !sim_compute(rt->sim, rt->current, simtime_from_seconds(seconds)))
        runtime_block();
    if (call_starts) at_own_time(rt, thread_call_start(me->thread_call));
    if (own_starts) at_own_time(rt, threads_thread_vtime()); /* the master, in a region */
}

void runtime_leave(void) {
    struct runtime *rt = simpi_rt;
    if (!rt || rt->current < 0) return;
    /* a send call's CPU time (mpi.send_overhead) or wait for the NIC (mpi.gap) */
    if (!sim_cpu_overhead(rt->sim, rt->current)) runtime_block();
    struct orank *me = &rt->ranks[rt->current];
    if (rt->cpu == CPU_MEASURE) mark_rank(me);
    rt->in_mpi = 0;
    __atomic_store_n(&me->calls, me->calls - 1, __ATOMIC_RELEASE);
    /* the main thread's own call inside a region: its clock goes on from here */
    if (!me->thread_call && me->calls == 0) {
        threads_call_ended(simtime_to_seconds(sim_now(rt->sim)));
        signals_deliver(rt->current); /* its signals, as it returns to its code (signals.c) */
    }
    /* the last: at the end of a thread's call this returns on that thread */
    if (me->thread_call) thread_call_leave(me->thread_call);
}

void runtime_aside(void (*fn)(void *), void *arg) {
    struct runtime *rt = simpi_rt;
    if (!rt || rt->aside || rt->current < 0 || rt->ranks[rt->current].thread_call ||
        !pthread_equal(pthread_self(), rt->main_thread)) {
        fn(arg);
        return;
    }
    rt->aside = true;
    ctx_call_below(&rt->scheduler, fn, arg);
    rt->aside = false;
}

struct wait_args {
    struct request **reqs;
    int n;
    bool any, done;
};

static void wait_aside(void *p) {
    struct wait_args *a = p;
    a->done = sim_wait(simpi_rt->sim, simpi_rt->current, a->reqs, a->n, a->any);
}

void runtime_wait(struct request **reqs, int n, bool any) {
    struct runtime *rt = simpi_rt;
    struct thread_call *call = rt->ranks[rt->current].thread_call;
    /* MPI_THREAD_MULTIPLE: a thread's call waits aside, the rank goes on */
    if (call && reqs && rt->thread_provided >= MPI_THREAD_MULTIPLE)
        thread_call_wait(call, reqs, n, any);
    struct wait_args a = {reqs, n, any, false};
    runtime_aside(wait_aside, &a);
    if (!a.done) runtime_block();
}

void runtime_call_sets_aside(int32_t rank) {
    struct runtime *rt = simpi_rt;
    struct orank *me = &rt->ranks[rank];
    __atomic_store_n(&me->calls, me->calls - 1, __ATOMIC_RELEASE);
    rt->in_mpi = 0;
    if (rt->cpu == CPU_MEASURE) mark_rank(me);
}

void runtime_call_resumes(int32_t rank) {
    struct runtime *rt = simpi_rt;
    struct orank *me = &rt->ranks[rank];
    __atomic_store_n(&me->calls, me->calls + 1, __ATOMIC_RELEASE);
    rt->in_mpi = 1;
}

void runtime_poll_wait(void) {
    struct runtime *rt = simpi_rt;
    runtime_enter();
    runtime_charge(rt->plat->poll_cost > 0 ? rt->plat->poll_cost : PS_PER_US);
    runtime_leave();
}

static _Noreturn void abort_v(int status, const char *fmt, va_list ap) {
    char msg[1024];
    vsnprintf(msg, sizeof msg, fmt, ap);
    struct runtime *rt = simpi_rt;
    char tb[48];
    if (status >= 0 && rt->end.forced_status < 0) rt->end.forced_status = status;
    sim_fail(rt->sim, "rank %d at virtual time %s: %s", rt->current,
             units_format_time(sim_now(rt->sim), tb, sizeof tb), msg);
    rt->ranks[rt->current].done = 1;
    for (;;)
        runtime_block();
}

void runtime_fail_rank(int32_t rank, const char *fmt, ...) {
    char msg[1024], tb[48];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    sim_fail(simpi_rt->sim, "rank %d at virtual time %s: %s", rank,
             units_format_time(sim_now(simpi_rt->sim), tb, sizeof tb), msg);
}

_Noreturn void runtime_abort(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    abort_v(-1, fmt, ap);
}

_Noreturn void runtime_abort_status(int status, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    /* as a process's exit status: the low 8 bits, but a non-zero code
     * (MPI_Abort(comm, 256)) never reads as success */
    abort_v(status & 255 ? status & 255 : status ? 1 : 0, fmt, ap);
}

/* SIGINT, SIGTERM and SIGHUP interrupt a run; other signals that end it are
 * the program's error. */
static bool is_interruption(int sig) {
    return sig == SIGINT || sig == SIGTERM || sig == SIGHUP;
}

/* escape_signal when --wall-limit passed (not a signal number). */
#define ESCAPE_WALL_LIMIT 1000

/* How a run left by escape_signal ends: an interruption, the wall-clock
 * limit, or the program's error (exit status 128 + the signal). */
static enum sim_status escape_status(struct runtime *rt) {
    int sig = rt->end.signal;
    if (sig == ESCAPE_WALL_LIMIT) return SIM_TIME_LIMIT;
    if (is_interruption(sig)) return SIM_INTERRUPTED;
    if (rt->end.forced_status < 0) rt->end.forced_status = 128 + sig;
    return SIM_APP_ERROR;
}

void runtime_stop_if_escaped(struct runtime *rt) {
    if (rt->end.signal && sim_status(rt->sim) == SIM_OK)
        sim_fail_status(rt->sim, escape_status(rt), "%s", rt->end.msg);
}

/* The --wall-limit timer (a signal handler): the run stops as at SIGINT,
 * with its own message. */
static void on_wall_limit(void) {
    struct runtime *rt = simpi_rt;
    if (!rt || !rt->running || rt->end.signal) return;
    char tb[48];
    snprintf(rt->end.msg, sizeof rt->end.msg,
             "stopped at the wall-clock limit (--wall-limit) at virtual time %s%s; the figures "
             "below are partial",
             units_format_time(sim_now(rt->sim), tb, sizeof tb),
             rt->cpu == CPU_IGNORE ? " (with --cpu=ignore, virtual time does not move while a "
                                     "rank computes or loops on MPI_Wtime)"
                                   : "");
    rt->end.signal = ESCAPE_WALL_LIMIT;
    if (rt->current >= 0 && !rt->in_mpi) siglongjmp(rt->end.jump, 1);
}

/* A forked child of a rank is an ordinary process: it ends quietly with its
 * own status, never as a simulated rank. */
static volatile sig_atomic_t forked_child;

static _Noreturn void libc_exit(int status);

/* Records a rank's exit status; the first non-zero one is simpi run's. */
static void note_rank_status(struct runtime *rt, int32_t r, int status) {
    SIMPI_LOG(LOG_ONLINE, sim_now(rt->sim), "rank %d ends with status %d", r, status);
    if (status == 0) return;
    fprintf(stderr, "simpi: rank %d exited with status %d\n", r, status);
    if (rt->end.rank_status == 0) rt->end.rank_status = status & 255 ? status & 255 : 1;
}

/* A rank's context: runs the user's main, then never returns. */
static void rank_entry(void *arg) {
    ctx_entered();
    struct runtime *rt = simpi_rt;
    int32_t r = (int32_t)(intptr_t)arg;
    /* each rank gets its own argv array and strings, as a process would
     * (programs edit them: strtok, getopt's permutation) */
    char **argv = rt->argv_copies + (size_t)r * ((size_t)rt->argc + 2);
    size_t bytes = 1;
    for (int i = 0; i < rt->argc; i++)
        bytes += strlen(rt->argv[i]) + 1;
    char *block = argv[rt->argc + 1] = xmalloc(bytes); /* after the NULL: freed at the end */
    for (int i = 0; i < rt->argc; i++) {
        argv[i] = strcpy(block, rt->argv[i]);
        block += strlen(block) + 1;
    }
    if (rt->cpu == CPU_MEASURE) mark_rank(&rt->ranks[r]);
    rt->in_mpi = 0;
    int (*entry)(int, char **) = (int (*)(int, char **))privatize_in_rank(r, (void *)rt->user_main);
    int status = entry(rt->argc, argv); /* its own image's main, if it has one */
    if (forked_child) libc_exit(status);
    rank_atexit_run(r); /* its exit handlers (which may still finalize) */
    if (!rt->ranks[r].finalized) {
        if (rt->ranks[r].initialized)
            runtime_abort("returned from main without calling MPI_Finalize");
        sim_finish(rt->sim, r); /* a rank that never used MPI */
    }
    note_rank_status(rt, r, status);
    rt->ranks[r].done = 1;
    for (;;)
        runtime_block();
}

/* Without guard regions: a stack found overflowed by its bottom bytes or by
 * the saved stack pointer (see stacks_sp_within). */
static void report_overflow(struct runtime *rt, int32_t rank) {
    sim_fail(rt->sim,
             "rank %d overflowed its %zu KiB stack (found at a switch, without guard regions at "
             "this rank count); rerun with a larger --stack-size",
             rank, rt->stacks.size / 1024);
    if (rt->end.forced_status < 0) rt->end.forced_status = 128 + SIGSEGV;
}

static void resume(void *ctx, int32_t rank) {
    struct runtime *rt = ctx;
    if (rt->ranks[rank].done) return;
    if (rt->end.signal) { /* an ending signal arrived inside simpi */
        sim_fail_status(rt->sim, escape_status(rt), "%s", rt->end.msg);
        return;
    }
    struct orank *o = &rt->ranks[rank];
    rt->current = rank;
    if (rt->privatize) privatize_load(rank);
    libc_state_enter(rank);
    omp_state_enter(rank);
    errno = o->saved_errno; /* errno is per rank too */
    rt->host.switches++;
    ctx_switch(&rt->scheduler, &o->ctx);
    rt->aside = false; /* a rank that ended inside its call's work switched from there */
    o->saved_errno = errno;
    omp_state_leave(rank);
    libc_state_leave(rank);
    if (rt->privatize) privatize_save(rank);
    rt->current = -1;
    bool overflowed = (!o->thread_call && !stacks_sp_within(&rt->stacks, rank, &o->ctx)) ||
                      (o->done && !stacks_canary_intact(&rt->stacks, rank));
    if (overflowed) report_overflow(rt, rank);
}

/* What a fatal signal means, for the report. */
static const char *signal_meaning(int sig) {
    switch (sig) {
    case SIGFPE:
        return " (arithmetic error, e.g. an integer division by zero)";
    default:
        return "";
    }
}

/* Describes a fatal signal in the running rank (or in simpi itself) into
 * rt->end.msg. A fault in the guard region below the running rank's own
 * stack is a stack overflow; in another rank's guard region it is a wild
 * access by the running rank. Uses no allocation (signal context). */
/* The stack pointer of the interrupted code (0: unknown on this machine). */
static uintptr_t fault_sp(const void *uctx) {
    const ucontext_t *uc = uctx;
#if defined(__x86_64__)
    return uc ? (uintptr_t)uc->uc_mcontext.gregs[REG_RSP] : 0;
#elif defined(__aarch64__)
    return uc ? (uintptr_t)uc->uc_mcontext.sp : 0;
#else
    (void)uc;
    return 0;
#endif
}

static void describe_crash(struct runtime *rt, int sig, const siginfo_t *info, const void *uctx) {
    char tb[48];
    const char *when = units_format_time(sim_now(rt->sim), tb, sizeof tb);
    int64_t owner = stacks_guard_owner(&rt->stacks, info->si_addr);
    uintptr_t sp = fault_sp(uctx);
    bool faulted = sig == SIGSEGV || sig == SIGBUS;
    if (rt->current < 0)
        snprintf(rt->end.msg, sizeof rt->end.msg,
                 "the simulator crashed (%s) at virtual time %s; please report this",
                 strsignal(sig), when);
    else if (faulted && owner == rt->current &&
             (!sp || stacks_sp_at_bottom(&rt->stacks, owner, sp)))
        snprintf(rt->end.msg, sizeof rt->end.msg,
                 "rank %d overflowed its %zu KiB stack at virtual time %s; rerun with --stack-size "
                 "(e.g. --stack-size %zuMiB)",
                 rt->current, rt->stacks.size / 1024, when, 2 * rt->stacks.size / 1048576 + 1);
    else if (faulted && owner >= 0 && rt->in_mpi) /* not a deep stack: a short buffer */
        snprintf(rt->end.msg, sizeof rt->end.msg,
                 "rank %d crashed inside an MPI call (%s at address %p, past the end of a stack "
                 "array): a buffer given to MPI is shorter than its count and datatype say (the "
                 "sender's, if a message was being delivered to rank %d) at virtual time %s",
                 rt->current, strsignal(sig), info->si_addr, rt->current, when);
    else if (faulted && owner >= 0)
        snprintf(rt->end.msg, sizeof rt->end.msg,
                 "rank %d crashed (%s at address %p, beyond the top of its stack: reading or "
                 "writing past the end of a local array?) at virtual time %s",
                 rt->current, strsignal(sig), info->si_addr, when);
    else if (faulted)
        snprintf(rt->end.msg, sizeof rt->end.msg,
                 "rank %d crashed (%s at address %p) at virtual time %s", rt->current,
                 strsignal(sig), info->si_addr, when);
    else if (sig == SIGABRT)
        snprintf(rt->end.msg, sizeof rt->end.msg,
                 "rank %d aborted (SIGABRT: abort(), a failed assert() or an uncaught C++ "
                 "exception) at virtual time %s",
                 rt->current, when);
    else
        snprintf(rt->end.msg, sizeof rt->end.msg, "rank %d crashed (%s%s) at virtual time %s",
                 rt->current, strsignal(sig), signal_meaning(sig), when);
}

/* A fatal signal (crash, abort, failed assert, uncaught exception) ends the
 * run like any other error: control returns to runtime_main, which flushes
 * every rank's output and writes the summary and the JSON. A second fatal
 * signal on the way (a corrupted heap) ends the process at once. Runs on its
 * own signal stack. */
static void on_crash(int sig, siginfo_t *info, void *uctx) {
    struct runtime *rt = simpi_rt;
    if (forked_child || !rt || !rt->running || rt->end.signal) {
        signal(sig, SIG_DFL);
        if (!forked_child) {
            const char *m = rt && rt->end.signal ? rt->end.msg : "the simulator crashed";
            if (runtime_libc_write(2, "simpi: error: ", 14) < 0 ||
                runtime_libc_write(2, m, strlen(m)) < 0 || runtime_libc_write(2, "\n", 1) < 0)
                runtime_exit_now(128 + sig);
        }
        runtime_exit_now(128 + sig);
    }
    describe_crash(rt, sig, info, uctx);
    rt->end.signal = sig;
    siglongjmp(rt->end.jump, 1);
}

/* The signals whose default action ends a process, which a program may
 * raise or receive without a handler of its own: each ends the run with a
 * report, as SIGINT does. SIGINT, SIGTERM and SIGHUP are interruptions;
 * the others are the program's error (exit status 128 + the signal). */
static const int ending_signals[] = {SIGINT,  SIGTERM, SIGHUP,    SIGQUIT, SIGUSR1,
                                     SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGPIPE,
                                     SIGXCPU, SIGXFSZ, SIGIO,     SIGPWR,  SIGSTKFLT};

static const char *signal_name(int sig) {
    switch (sig) {
    case SIGINT:
        return "SIGINT (Ctrl-C)";
    case SIGTERM:
        return "SIGTERM";
    case SIGHUP:
        return "SIGHUP (the terminal closed)";
    case SIGALRM:
        return "SIGALRM (an alarm() or timer with no handler)";
    case SIGPIPE:
        return "SIGPIPE (output to a pipe whose reader is gone, such as | head)";
    default:
        return strsignal(sig);
    }
}

/* An ending signal: the run stops and reports what it reached. A rank busy
 * computing is left at once; inside simpi, the next resume stops the run.
 * A second signal kills the process (default action), once outputs being
 * written are removed (outfile_remove_pending). */
static void on_interrupt(int sig, siginfo_t *info, void *uctx) {
    (void)uctx;
    struct runtime *rt = simpi_rt;
    /* simpi run passes on what it was sent, after the process group got it:
     * a copy is no second signal */
    if (rt && rt->end.signal && info && info->si_code <= 0 && info->si_pid == getppid()) return;
    /* writes to a closed pipe now fail with EPIPE instead of killing the
     * report on its way */
    if (sig == SIGPIPE) signal(sig, SIG_IGN);
    if (rt && rt->starting && !forked_child && !rt->end.signal && is_interruption(sig)) {
        /* before the simulation started (simpi run held the signal back
         * while the runtime was set up): the run stops at its first switch */
        snprintf(rt->end.msg, sizeof rt->end.msg,
                 "interrupted by %s at virtual time 0 s, as the simulation started; the figures "
                 "below are partial",
                 signal_name(sig));
        rt->end.signal = sig;
        return;
    }
    if (forked_child || !rt || !rt->running || rt->end.signal) {
        if (sig == SIGPIPE) return;
        if (!forked_child) outfile_remove_pending();
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    char tb[48];
    const char *when = units_format_time(sim_now(rt->sim), tb, sizeof tb);
    if (sig == SIGTERM && rt->done_fd >= 0 && getppid() != rt->launcher)
        snprintf(rt->end.msg, sizeof rt->end.msg,
                 "stopped at virtual time %s: simpi run, which started this process, ended "
                 "(killed?); the figures below are partial",
                 when);
    else if (is_interruption(sig))
        snprintf(rt->end.msg, sizeof rt->end.msg,
                 "interrupted by %s at virtual time %s; the figures below are partial",
                 signal_name(sig), when);
    else if (rt->current >= 0)
        snprintf(rt->end.msg, sizeof rt->end.msg,
                 "rank %d was stopped by %s at virtual time %s; the figures below are partial",
                 rt->current, signal_name(sig), when);
    else
        snprintf(rt->end.msg, sizeof rt->end.msg,
                 "stopped by %s at virtual time %s; the figures below are partial",
                 signal_name(sig), when);
    rt->end.signal = sig;
    if (rt->current >= 0 && !rt->in_mpi) siglongjmp(rt->end.jump, 1);
}

/* exit() called by a rank ends that rank, as it would end one process of a
 * real MPI job: after MPI_Finalize (or without ever using MPI) the rank is
 * simply done; before it, the run stops with an error, as mpirun would.
 * Outside a rank (simpi itself, or the program before or after the
 * simulation) and in a forked child it is the C library's exit. */
static _Noreturn void libc_exit(int status) {
    void (*real)(int) = (void (*)(int))dlsym(RTLD_NEXT, "exit");
    if (real) real(status);
    runtime_exit_now(status);
}

static _Noreturn void rank_exit(const char *how, int status) {
    struct runtime *rt = simpi_rt;
    int32_t r = rt->current;
    struct orank *o = &rt->ranks[r];
    if (o->initialized && !o->finalized)
        runtime_abort_status(status ? status : sim_exit_code(SIM_APP_ERROR),
                             "called %s(%d) before MPI_Finalize", how, status);
    if (!o->initialized) sim_finish(rt->sim, r);
    note_rank_status(rt, r, status);
    o->done = 1;
    for (;;)
        runtime_block();
}

/* The C library's syscall(), found before any rank runs (simpi's own
 * interposes it, below). */
static long (*libc_syscall)(long, ...);

__attribute__((constructor)) static void find_libc_syscall(void) {
    libc_syscall = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
}

/* Ends the process at once, whatever a rank is doing (signal handlers). */
_Noreturn void runtime_exit_now(int status) {
    for (;;)
        libc_syscall(SYS_exit_group, status);
}

static bool in_rank(void) {
    struct runtime *rt = simpi_rt;
    return !forked_child && rt && rt->current >= 0 && !rt->ranks[rt->current].done;
}

bool runtime_in_rank(void) {
    return in_rank();
}

simtime_t runtime_virtual_now(void) {
    struct runtime *rt = simpi_rt;
    simtime_t now = sim_now(rt->sim);
    if (rt->in_mpi) return now;
    const struct orank *o = &rt->ranks[rt->current];
    double burst = rt->cpu == CPU_MEASURE ? since_mark(o, NULL) : 0; /* not charged yet */
    if (burst < 0) burst = 0;
    double seconds =
        o->mark_cpu || threads_started() ? threads_span_peek(burst) : burst * rt->cpu_scale;
    return seconds > 0 ? simtime_add(now, simtime_from_seconds(seconds)) : now;
}

void runtime_charge(simtime_t t) {
    struct runtime *rt = simpi_rt;
    if (!rt || rt->current < 0 || t <= 0) return;
    if (!sim_compute(rt->sim, rt->current, t)) runtime_block();
}

void exit(int status) {
    if (!in_rank()) libc_exit(status);
    if (!simpi_rt->in_mpi) rank_atexit_run(simpi_rt->current);
    rank_exit("exit", status);
}

void _Exit(int status) {
    if (!in_rank()) runtime_exit_now(status);
    rank_exit("_Exit", status);
}

void quick_exit(int status) {
    if (!in_rank()) {
        void (*real)(int) = (void (*)(int))dlsym(RTLD_NEXT, "quick_exit");
        if (real) real(status);
        runtime_exit_now(status);
    }
    rank_exit("quick_exit", status);
}

/* _exit ends the rank as exit does (its buffered output is flushed with
 * everyone's at the end of the run, not lost); so does the exit_group or
 * exit system call made through syscall(). */
void _exit(int status) {
    /* simpi's own calls (inside an MPI call) end the process */
    if (!in_rank() || simpi_rt->in_mpi) runtime_exit_now(status);
    rank_exit("_exit", status);
}

/* write() on descriptor 1 or 2 by a rank of a split run (a Fortran unit, a
 * program's own write): the ranks' output in one process's order
 * (split.c); otherwise the C library's. */
static ssize_t (*libc_write)(int, const void *, size_t);

/* Found before any rank runs: a crash handler's write must not look it up. */
__attribute__((constructor)) static void find_libc_write(void) {
    libc_write = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
}

ssize_t runtime_libc_write(int fd, const void *buf, size_t n) {
    if (!libc_write) find_libc_write();
    return libc_write(fd, buf, n);
}

ssize_t write(int fd, const void *buf, size_t n) {
    if ((fd == 1 || fd == 2) && split_output(fd, buf, n)) return (ssize_t)n;
    return runtime_libc_write(fd, buf, n);
}

/* (reads six arguments, as the C library's does, whatever the caller
 * passed: beyond what ASan allows) */
__attribute__((no_sanitize_address)) long syscall(long number, ...) {
    va_list ap;
    va_start(ap, number);
    long a[6];
    for (int i = 0; i < 6; i++)
        a[i] = va_arg(ap, long);
    va_end(ap);
    if ((number == SYS_exit_group || number == SYS_exit) && in_rank())
        rank_exit(number == SYS_exit ? "syscall(SYS_exit)" : "syscall(SYS_exit_group)", (int)a[0]);
    return libc_syscall(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}

/* The exec family replaces the process, which holds every rank: in a rank
 * it is an error that stops the run with a report (a forked child execs as
 * usual). */
static void refuse_exec(const char *how, const char *path) {
    if (!in_rank()) return;
    runtime_abort_status(sim_exit_code(SIM_APP_ERROR),
                         "called %s(\"%.200s\"), which would replace the whole simulation (every "
                         "rank runs in this one process); fork() first, or use system()",
                         how, path ? path : "");
}

#define REAL(name, type) ((type)dlsym(RTLD_NEXT, name))
typedef int (*execve_fn)(const char *, char *const[], char *const[]);
typedef int (*execv_fn)(const char *, char *const[]);

int execve(const char *path, char *const argv[], char *const envp[]) {
    refuse_exec("execve", path);
    return REAL("execve", execve_fn)(path, argv, envp);
}

int execv(const char *path, char *const argv[]) {
    refuse_exec("execv", path);
    return REAL("execv", execv_fn)(path, argv);
}

int execvp(const char *file, char *const argv[]) {
    refuse_exec("execvp", file);
    return REAL("execvp", execv_fn)(file, argv);
}

int execvpe(const char *file, char *const argv[], char *const envp[]) {
    refuse_exec("execvpe", file);
    return REAL("execvpe", execve_fn)(file, argv, envp);
}

int fexecve(int fd, char *const argv[], char *const envp[]) {
    refuse_exec("fexecve", "");
    return REAL("fexecve", int (*)(int, char *const[], char *const[]))(fd, argv, envp);
}

/* execl, execlp, execle: the arguments into an array (at most 4,096). */
static char **list_args(const char *arg0, va_list ap, char ***envp) {
    static char *args[4097];
    int n = 0;
    for (const char *a = arg0; a && n < 4096; a = va_arg(ap, const char *))
        args[n++] = (char *)a;
    args[n] = NULL;
    if (envp) *envp = va_arg(ap, char **);
    return args;
}

int execl(const char *path, const char *arg0, ...) {
    refuse_exec("execl", path);
    va_list ap;
    va_start(ap, arg0);
    char **args = list_args(arg0, ap, NULL);
    va_end(ap);
    return REAL("execv", execv_fn)(path, args);
}

int execlp(const char *file, const char *arg0, ...) {
    refuse_exec("execlp", file);
    va_list ap;
    va_start(ap, arg0);
    char **args = list_args(arg0, ap, NULL);
    va_end(ap);
    return REAL("execvp", execv_fn)(file, args);
}

int execle(const char *path, const char *arg0, ...) {
    refuse_exec("execle", path);
    va_list ap;
    va_start(ap, arg0);
    char **envp;
    char **args = list_args(arg0, ap, &envp);
    va_end(ap);
    return REAL("execve", execve_fn)(path, args, envp);
}

static void in_forked_child(void) {
    forked_child = 1;
    int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        signal(sigs[i], SIG_DFL);
    for (size_t i = 0; i < sizeof ending_signals / sizeof ending_signals[0]; i++) {
        struct sigaction old;
        if (sigaction(ending_signals[i], NULL, &old) == 0 && old.sa_sigaction == on_interrupt)
            signal(ending_signals[i], SIG_DFL);
    }
}

static void install_signal_handlers(void) {
    static char altstack[64 * 1024];
    stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack};
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_crash;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaction(sigs[i], &sa, NULL);
    for (size_t i = 0; i < sizeof ending_signals / sizeof ending_signals[0]; i++) {
        struct sigaction old;
        /* a signal ignored when simpi started (nohup) stays ignored, but for
         * SIGINT and SIGTERM (a script's background job ignores SIGINT) */
        if (ending_signals[i] == SIGINT || ending_signals[i] == SIGTERM ||
            (sigaction(ending_signals[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN))
            sigaction(ending_signals[i],
                      &(struct sigaction){.sa_sigaction = on_interrupt,
                                          .sa_flags = SA_SIGINFO | SA_RESTART},
                      NULL);
    }
    pthread_atfork(NULL, NULL, in_forked_child);
}

/* The interruptions simpi run held back until the handlers above were in
 * place (a Ctrl-C in a run's first moments): let them in now. */
static void accept_interruptions(struct runtime *rt) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    rt->starting = 1;
    sigprocmask(SIG_UNBLOCK, &set, NULL);
}

/* With --no-privatize: warns once when the program has writable globals,
 * which all ranks then share. */
static void warn_globals(void) {
    struct globals_info g = globals_scan(NULL, NULL);
    if (g.count == 0) return;
    fprintf(stderr,
            "simpi: warning: --no-privatize: the program's %d writable global variable%s (%lld "
            "bytes:",
            g.count, g.count > 1 ? "s" : "", (long long)g.bytes);
    for (int i = 0; i < g.count && i < GLOBALS_NAMED; i++)
        fprintf(stderr, "%s %s", i ? "," : "", g.names[i]);
    fprintf(stderr, "%s) are shared by all ranks; per-rank state kept there will be wrong\n",
            g.count > GLOBALS_NAMED ? ", ..." : "");
}

/* The settings `simpi run` passes in SIMPI_* variables, copied; the
 * variables are then removed from the environment so that programs the
 * ranks start (system(), exec) are not simulations of this run. */
struct settings {
    char *np, *sets, *platform, *cpu, *cpu_clock, *host_speed, *json, *stack_size, *check,
        *thread_cores;
    char *time_limit, *wall_limit; /* --time-limit, --wall-limit */
    struct analysis_opts analysis; /* SIMPI_REPORT, SIMPI_PARAVER, SIMPI_CHROME... */
    char *trace_out;               /* SIMPI_TRACE_OUT: record the run as a trace there */
    bool quiet, no_crash_handler, launched;
    char *privatize; /* "1": always, "0": never, NULL: when the program has globals */
    char *progress;  /* auto (default), always, never */
    int procs;       /* SIMPI_PROCS: worker processes of a split run (0, 1: none) */
    char *transport; /* SIMPI_TRANSPORT_HELPER: under a launcher, its processes are the workers */
    bool cyclic;     /* SIMPI_PLACEMENT=cyclic: nodes dealt out to the workers in turn */
    int done_fd;     /* SIMPI_DONE_FD: told when the report is written (simpi run) */
};

static char *env_copy(const char *name) {
    const char *v = getenv(name);
    return v && *v ? xstrdup(v) : NULL;
}

/* An output path made absolute: a rank's chdir() must not move it. */
static void absolutize(char **path) {
    if (!*path || **path == '/' || !strcmp(*path, "-")) return;
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd)) return;
    size_t n = strlen(cwd) + strlen(*path) + 2;
    char *abs = xmalloc(n);
    snprintf(abs, n, "%s/%s", cwd, *path);
    free(*path);
    *path = abs;
}

static void scrub_environment(void) {
    extern char **environ;
    for (;;) {
        char **e = environ;
        while (*e && strncmp(*e, "SIMPI_", 6))
            e++;
        if (!*e) return;
        char name[128];
        size_t n = strcspn(*e, "=");
        snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), *e);
        if (unsetenv(name) != 0) return;
    }
}

/* A digest of the settings that change a prediction (what the workers of
 * a split run compare: split_agree). */
static uint64_t settings_digest(const struct settings *st) {
    const char *const affecting[] = {st->cpu,        st->cpu_clock,   st->host_speed,
                                     st->check,      st->time_limit,  st->privatize,
                                     st->stack_size, st->thread_cores};
    uint64_t h = digest_bytes(DIGEST_START, &st->cyclic, sizeof st->cyclic);
    for (size_t i = 0; i < sizeof affecting / sizeof *affecting; i++)
        h = digest_string(h, affecting[i]);
    return h;
}

/* A program started directly, not by simpi run, with SIMPI_* variables in
 * its environment (set by hand, or left over): they are how simpi run hands
 * its options to the program, not settings of their own, so they are
 * ignored, and said so once: the program runs as one rank, quietly, as
 * started directly. */
static void ignore_hand_set_variables(void) {
    extern char **environ;
    int others = 0;
    const char *first = NULL;
    for (char **e = environ; *e; e++) {
        if (strncmp(*e, "SIMPI_", 6)) continue;
        /* the user's own setting for simpi (not an option handed over) */
        if (!strncmp(*e, "SIMPI_PROCS_EXACT=", 18)) continue;
        if (first)
            others++;
        else
            first = *e;
    }
    if (!first) return;
    fprintf(stderr,
            "simpi: %s was started directly, not by simpi run: %.*s%s in its environment %s "
            "ignored (simpi run's way to pass its options); it runs as one rank. To simulate N "
            "ranks: simpi run -n N %s\n",
            program_invocation_name, (int)strcspn(first, "="), first,
            others ? " and the other SIMPI_* variables" : "", others ? "are" : "is",
            program_invocation_name);
    scrub_environment();
}

/* A copy of option name of the block simpi run handed over, or NULL. */
static char *option_copy(const struct option_set *given, const char *name) {
    const char *v = optset_get(given, name);
    return v && *v ? xstrdup(v) : NULL;
}

/* The settings, from the one block simpi run hands over (SIMPI_OPTIONS,
 * core/options.h); a program started otherwise runs as one rank. */
static void read_settings(struct settings *st) {
    char why[200];
    if (!log_init(why, sizeof why)) {
        fprintf(stderr, "simpi: error: %s\n", why);
        _exit(1); /* bad input */
    }
    const char *block = getenv(OPTIONS_VARIABLE);
    struct option_set given = {0};
    struct sim_error err = {0};
    st->launched = block != NULL;
    if (!st->launched) ignore_hand_set_variables();
    if (block && !optset_decode(block, &given, &err)) {
        err_print(&err);
        _exit(1); /* bad input */
    }
    st->np = option_copy(&given, "np");
    st->sets = optset_join(&given, "set", '\n');
    st->platform = option_copy(&given, "platform");
    st->cpu = option_copy(&given, "cpu");
    st->cpu_clock = option_copy(&given, "cpu-clock");
    st->host_speed = option_copy(&given, "host-speed");
    st->thread_cores = option_copy(&given, "thread-cores");
    st->json = option_copy(&given, "json");
    st->stack_size = option_copy(&given, "stack-size");
    st->check = option_copy(&given, "check");
    if (!st->check) st->check = env_copy("SIMPI_CHECK"); /* documented for users */
    st->time_limit = option_copy(&given, "time-limit");
    st->wall_limit = option_copy(&given, "wall-limit");
    st->quiet = optset_get(&given, "quiet") != NULL || !st->launched;
    st->privatize = option_copy(&given, "privatize");
    st->progress = option_copy(&given, "progress");
    st->no_crash_handler = getenv("SIMPI_NO_CRASH_HANDLER") != NULL; /* for users */
    st->analysis.report = option_copy(&given, "report");
    st->analysis.paraver = option_copy(&given, "paraver");
    st->analysis.chrome = option_copy(&given, "chrome");
    st->analysis.otf2 = option_copy(&given, "otf2");
    st->analysis.timeline_ranks = option_copy(&given, "timeline-ranks");
    st->analysis.critical_path = optset_get(&given, "critical-path") != NULL;
    st->analysis.command = option_copy(&given, "command");
    /* --cpu=ignore: no computation is charged, so efficiency is not measured */
    st->analysis.cpu_not_measured = st->cpu && !strcmp(st->cpu, "ignore");
    st->trace_out = option_copy(&given, "trace-out");
    st->transport = option_copy(&given, "transport-helper");
    const char *placement = optset_get(&given, "placement");
    st->cyclic = placement && !strcmp(placement, "cyclic");
    const char *procs = optset_get(&given, "procs");
    st->procs = procs ? atoi(procs) : 0;
    repeat_read_settings(optset_get(&given, "repeat-dir"), optset_get(&given, "repeat-run"),
                         optset_get(&given, "repeat-runs"));
    const char *fd = optset_get(&given, "done-fd");
    st->done_fd = fd ? atoi(fd) : -1;
    SIMPI_LOG(LOG_ONLINE, SIMTIME_NEVER, "%s: %s ranks, platform %s, %s", program_invocation_name,
              st->np ? st->np : "1", st->platform ? st->platform : "built-in",
              st->launched ? "started by simpi run" : "started directly");
    optset_free(&given);
    absolutize(&st->json);
    absolutize(&st->trace_out);
    absolutize((char **)&st->analysis.report);
    absolutize((char **)&st->analysis.paraver);
    absolutize((char **)&st->analysis.chrome);
    absolutize((char **)&st->analysis.otf2);
    if (st->done_fd >= 0 &&
        fcntl(st->done_fd, F_SETFD, FD_CLOEXEC) != 0) /* not the ranks' children */
        st->done_fd = -1;
    workers_read_patience();
    scrub_environment();
}

static void free_settings(struct settings *st) {
    free(st->np);
    free(st->json);
    free(st->sets);
    free(st->platform);
    free(st->cpu);
    free(st->cpu_clock);
    free(st->host_speed);
    free(st->thread_cores);
    free(st->stack_size);
    free(st->check);
    free(st->time_limit);
    free(st->wall_limit);
    free(st->privatize);
    free(st->progress);
    free((char *)st->analysis.report);
    free((char *)st->analysis.paraver);
    free((char *)st->analysis.chrome);
    free((char *)st->analysis.otf2);
    free((char *)st->analysis.timeline_ranks);
    free((char *)st->analysis.command);
    free(st->trace_out);
    free(st->transport);
}

/* A program built with simpicc started by a real launcher (mpiexec -n 2):
 * each process would be a separate one-rank simulation. */
static bool started_by_real_launcher(void) {
    static const char *const sizes[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE",
                                        "MPI_LOCALNRANKS"};
    static const char *const ranks[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"};
    bool many = false;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        const char *v = getenv(sizes[i]);
        if (v && atol(v) > 1) many = true;
    }
    if (!many) return false;
    const char *me = NULL;
    for (size_t i = 0; i < sizeof ranks / sizeof ranks[0] && !me; i++)
        me = getenv(ranks[i]);
    if (!me || atol(me) == 0)
        fprintf(stderr, "simpi: error: this program was built with simpicc and simulates its ranks "
                        "itself; start it with `simpi run -n N PROGRAM` (or simpiexec), not with "
                        "a real MPI launcher\n");
    return true;
}

/* Splits SIMPI_SET (overrides separated by newlines) into a new array. */
static int split_sets(char *all, const char ***sets) {
    int n = 0;
    *sets = NULL;
    for (char *save = NULL, *t = strtok_r(all, "\n", &save); t; t = strtok_r(NULL, "\n", &save)) {
        *sets = xrealloc_or_die(*sets, sizeof **sets * (size_t)(n + 1));
        (*sets)[n++] = t;
    }
    return n;
}

static bool configure(struct runtime *rt, const struct settings *st, struct sim_error *err) {
    rt->n = st->np ? (int32_t)atol(st->np) : 1;
    if (rt->n < 1) return err_set(err, "SIMPI_NP must be a positive number of ranks");
    char *sets_text = xstrdup(st->sets ? st->sets : "");
    const char **sets;
    int nsets = split_sets(sets_text, &sets);
    rt->plat = platform_load(st->platform, sets, nsets, err);
    free(sets);
    free(sets_text);
    if (!rt->plat || !network_init(&rt->net, rt->plat, err)) return false;
    rt->cpu = st->cpu && !strcmp(st->cpu, "ignore") ? CPU_IGNORE : CPU_MEASURE;
    rt->thread_cores_all = st->thread_cores && !strcmp(st->thread_cores, "all");
    double host = 0;
    if (st->host_speed && !units_parse_flops(st->host_speed, &host, NULL))
        return err_set(err, "--host-speed: found '%s', expected a flop rate such as 2Gf",
                       st->host_speed);
    if (rt->plat->flop_rate > 0)
        rt->cpu_scale = (host > 0 ? host : PLATFORM_REFERENCE_FLOP_RATE) / rt->plat->flop_rate;
    else
        rt->cpu_scale = 1.0 / rt->plat->speed;
    rt->check = 1;
    if (st->check && !strcmp(st->check, "off"))
        rt->check = 0;
    else if (st->check && !strcmp(st->check, "full"))
        rt->check = 2;
    else if (st->check && strcmp(st->check, "default"))
        return err_set(err, "--check: found '%s', expected off, default or full", st->check);
    rt->json = st->json;
    rt->quiet = st->quiet;
    rt->launched = st->launched;
    return true;
}

/* The default stack of a rank: as a Linux process's main thread, so that
 * ordinary programs (arrays of hundreds of KiB on the stack) run unchanged.
 * Committed lazily: a rank uses memory only for the pages it touches. */
#define DEFAULT_STACK_BYTES ((int64_t)8 << 20)
#define MIN_AUTO_STACK_BYTES ((int64_t)64 << 10)
/* Address space the stacks may take before the default size is reduced:
 * beyond it the page tables of the stacks (a page per rank at 8 MiB) slow
 * every switch down. Measured here at 65,536 ranks of 100 allreduces:
 * 331 s with 8 MiB stacks, 71 s with 1 MiB (docs/performance.md). */
#define STACK_ADDRESS_BUDGET ((int64_t)64 << 30)

/* Reserves the stacks; with the default size, halves it until ranks x size
 * fits (the address-space budget, or what the kernel grants) and says so. */
static bool reserve_stacks(struct runtime *rt, int64_t stack, bool chosen, struct sim_error *err) {
    bool guards = stacks_guards_affordable(rt->n);
    int64_t size = stack;
    while (!chosen && size > MIN_AUTO_STACK_BYTES &&
           (size + (int64_t)STACK_GUARD_BYTES) > STACK_ADDRESS_BUDGET / rt->n)
        size /= 2;
    while (!stacks_alloc(&rt->stacks, rt->n, (size_t)size, guards)) {
        if (chosen || size <= MIN_AUTO_STACK_BYTES)
            return err_set(err,
                           "cannot reserve %lld stacks of %lld KiB (%lld GiB of address space); "
                           "choose a smaller --stack-size",
                           (long long)rt->n, (long long)size / 1024,
                           (long long)(rt->n * size >> 30));
        size /= 2;
    }
    if (size != stack && !rt->quiet)
        fprintf(stderr,
                "simpi: note: %d ranks with the default %lld KiB stacks do not fit in simpi's "
                "address-space budget; each rank gets %lld KiB instead (--stack-size chooses)\n",
                rt->n, (long long)stack / 1024, (long long)size / 1024);
    return true;
}

static bool start_ranks(struct runtime *rt, const char *stack_size, struct sim_error *err) {
    int64_t stack = DEFAULT_STACK_BYTES;
    if (stack_size && (!units_parse_size(stack_size, true, false, &stack, NULL) || stack < 16384))
        return err_set(err, "--stack-size: found '%s', expected a size of at least 16KiB",
                       stack_size);
    if (!reserve_stacks(rt, stack, stack_size != NULL, err)) return false;
    rt->ranks = xcalloc((size_t)rt->n, sizeof *rt->ranks);
    rt->argv_copies = xcalloc((size_t)rt->n * ((size_t)rt->argc + 2), sizeof *rt->argv_copies);
    for (int32_t i = 0; i < rt->n; i++) {
        if (!sim_owns(rt->sim, i)) continue; /* another worker's: its stack stays untouched */
        ctx_init(&rt->ranks[i].ctx, (char *)stacks_at(&rt->stacks, i) + 64, rt->stacks.size - 64,
                 rank_entry, (void *)(intptr_t)i);
    }
    return true;
}

/* The readings the host figures start from, on this worker's main thread
 * once it is forked (its own clock). */
static bool start_measuring(struct runtime *rt, const struct settings *st) {
    cpuclock_init(st->cpu_clock && !strcmp(st->cpu_clock, "thread"));
    rt->host.waited_start = hostload_thread_waited();
    rt->host.steal_start = hostload_steal();
    return true;
}

void runtime_host_figures(struct host_figures *h) {
    struct runtime *rt = simpi_rt;
    struct cpuclock_stats cs;
    cpuclock_stats(&cs);
    memset(h, 0, sizeof *h);
    h->clock = rt->cpu == CPU_MEASURE ? cpuclock_name(cs.kind) : NULL;
    h->clock_note = rt->cpu == CPU_MEASURE ? cs.reason : NULL;
    h->readings = cs.readings;
    h->exact = cs.exact;
    h->cpu = rt->host.measured;
    h->elapsed = rt->host.measured_elapsed;
    double waited = hostload_thread_waited(), steal = hostload_steal();
    h->waited = waited >= 0 && rt->host.waited_start >= 0 ? waited - rt->host.waited_start : -1;
    h->steal = steal >= 0 && rt->host.steal_start >= 0 ? steal - rt->host.steal_start : -1;
    h->wall = memstat_wall_seconds() - rt->host.wall_start;
    h->workers = 1;
    const struct privatize_info *pi = &rt->privatized;
    h->privatize =
        rt->privatize && pi->mode != PRIVATIZE_NONE ? privatize_mode_name(pi->mode) : NULL;
    h->privatize_note = pi->note[0] ? pi->note : NULL;
    h->images = pi->images;
    h->privatize_bytes = pi->data_bytes;
    privatize_faults(&h->remap_faults, &h->remap_kernel);
}

/* simpi run's exit status, as mpirun gives it: MPI_Abort's code (or the
 * code of a crash, 128 + signal), else the first non-zero exit status of a
 * rank, else simpi's own code for the way the run ended. */
static int exit_status(const struct runtime *rt, enum sim_status st) {
    if (rt->end.forced_status >= 0) return rt->end.forced_status;
    if (st == SIM_INTERRUPTED) return 128 + rt->end.signal;
    if (st != SIM_OK) return sim_exit_code(st);
    return rt->end.rank_status;
}

static int finish(struct runtime *rt, enum sim_status st) {
    int rc = exit_status(rt, st);
    struct host_figures host;
    runtime_host_figures(&host);
    if (rt->workers) split_add_host(&host);
    repeat_add(&host, rt->sim, st);
    struct run_info info = {rt->app,
                            rt->plat->source,
                            rt->plat->nodes,
                            0,
                            0,
                            memstat_wall_seconds() - rt->host.wall_start,
                            st,
                            rc,
                            rt->host.switches,
                            rt->analysis,
                            &host,
                            NULL,
                            0,
                            platform_ideal(rt->plat),
                            0,
                            0,
                            0,
                            -1,
                            -1,
                            -1,
                            -1};
    fflush(NULL); /* every rank's buffered output first */
    if (st != SIM_OK) fprintf(stderr, "simpi: error: %s", sim_failure_report(rt->sim));
    struct sim_error aerr = {0};
    if (!analysis_finish(rt->analysis, &info, &aerr) || !sim_record_finish(rt->sim, &aerr)) {
        err_print(&aerr);
        if (rc == 0) rc = 1;
    }
    if (!rt->quiet) summary_print(stderr, rt->sim, &info);
    struct sim_error err = {0};
    if (rt->json && !summary_write_json(rt->json, rt->sim, &info, &err)) {
        err_print(&err);
        if (rc == 0) rc = 1;
    }
    return rc;
}

/* After a crash or an interrupt left a rank (see on_crash): the run ends
 * with the reason recorded. The ranks' stacks are abandoned. */
static enum sim_status after_escape(struct runtime *rt) {
    rt->current = -1; /* back on simpi's own stack, outside every rank */
    sim_fail_status(rt->sim, escape_status(rt), "%s", rt->end.msg);
    return sim_status(rt->sim);
}

/* Gives each rank its own globals unless told not to (docs/online.md):
 * setting is SIMPI_PRIVATIZE, "0" (--no-privatize), "1" (--privatize), a
 * mode (--privatize=images...) or NULL (by size). */
static bool start_privatization(struct runtime *rt, const char *setting, struct sim_error *err) {
    if (setting && !strcmp(setting, "0")) {
        if (rt->n > 1) warn_globals();
        return true;
    }
    if (rt->n == 1) return true;
    struct privatize_request rq = {
        rt->n, setting && !strcmp(setting, "1"), PRIVATIZE_NONE, NULL, rt->argc, rt->argv};
    if (setting && strcmp(setting, "1") && !privatize_parse_mode(setting, &rq.mode))
        return err_set(err, "--privatize=%s: expected images, copy or remap", setting);
    bool *owned = xcalloc((size_t)rt->n, sizeof *owned);
    for (int32_t r = 0; r < rt->n; r++)
        owned[r] = sim_owns(rt->sim, r);
    rq.owned = owned;
    struct privatize_info *info = &rt->privatized;
    bool ok = privatize_init(&rq, info, err);
    free(owned);
    if (!ok) return false;
    rt->privatize = info->mode != PRIVATIZE_NONE || info->tls_bytes > 0;
    if (rt->privatize) {
        rt->hooks.address = privatize_address;
        sim_set_hooks(rt->sim, &rt->hooks);
    }
    if (info->globals.stripped && !rt->quiet)
        fprintf(stderr,
                "simpi: note: the program is stripped (no symbol table); its whole data segment "
                "(%lld bytes) is private to each rank\n",
                (long long)info->data_bytes);
    return true;
}

/* The MPI layer's hooks into this front end, before any rank runs. */
static bool install_hooks(struct runtime *rt) {
    api_check_hooks(&rt->hooks);
    sim_set_hooks(rt->sim, &rt->hooks);
    return true;
}

static int run(struct runtime *rt, const char *progress) {
    enum sim_status st;
    enum progress_mode pm = PROGRESS_AUTO;
    if (!rt->launched || (progress && !progress_parse(progress, &pm)) || !sim_reports(rt->sim))
        pm = PROGRESS_NEVER;
    progress_start(rt->sim, pm, NULL, NULL);
    rt->running = 1;
    rt->starting = 0;
    if (sigsetjmp(rt->end.jump, 1) == 0) {
        st = sim_run(rt->sim);
    } else {
        st = after_escape(rt);
        if (rt->workers) st = sim_split_abandon(rt->sim); /* the others are told */
    }
    rt->running = 0;
    progress_end();
    if (rt->workers) split_end(rt);
    /* the ranks that did not finish (a finished one was checked at its last
     * switch, and nothing but its own frames writes below its stack) */
    for (int32_t r = 0; r < rt->n && st == SIM_OK && !rt->stacks.guards; r++)
        if (sim_owns(rt->sim, r) && !rt->ranks[r].done && !stacks_canary_intact(&rt->stacks, r)) {
            report_overflow(rt, r);
            st = sim_status(rt->sim);
        }
    return finish(rt, st);
}

/* --time-limit (virtual) and --wall-limit (wall clock). */
static bool set_limits(struct runtime *rt, const struct settings *st, struct sim_error *err) {
    simtime_t t = 0;
    if (st->time_limit && (!units_parse_time(st->time_limit, &t, NULL) || t <= 0))
        return err_set(err, "--time-limit: found '%s', expected a time such as 10s",
                       st->time_limit);
    sim_set_time_limit(rt->sim, t);
    simtime_t w = 0;
    if (st->wall_limit && (!units_parse_time(st->wall_limit, &w, NULL) || w <= 0))
        return err_set(err, "--wall-limit: found '%s', expected a time such as 10min",
                       st->wall_limit);
    if (w > 0 && !engine_wall_limit(simtime_to_seconds(w), on_wall_limit))
        return err_set(err, "--wall-limit: cannot start a timer: %s", strerror(errno));
    return true;
}

/* Tells simpi run that the report is out (see cmd_run.c's supervise). */
void runtime_tell_done(struct runtime *rt) {
    if (rt->done_fd >= 0 && write(rt->done_fd, "done\n", 5) == 5) close(rt->done_fd);
    rt->done_fd = -1;
}

void runtime_tell_lost(struct runtime *rt, const char *why) {
    if (rt->done_fd < 0) return;
    char msg[PIPE_BUF];
    size_t n = strlen(why), head = sizeof "lost " - 1;
    if (n > sizeof msg - head) n = sizeof msg - head;
    memcpy(msg, "lost ", head);
    memcpy(msg + head, why, n);
    if (write(rt->done_fd, msg, head + n) < 0) { /* simpi run then says the process ended */
    }
    rt->done_fd = -1;
}

bool runtime_on_main_thread(void) {
    struct runtime *rt = simpi_rt;
    return !rt || !rt->running || pthread_equal(pthread_self(), rt->main_thread);
}

static const char *thread_level_name(int level) {
    static const char *const names[] = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED",
                                        "MPI_THREAD_SERIALIZED", "MPI_THREAD_MULTIPLE"};
    return level >= 0 && level < 4 ? names[level] : "an unknown thread level";
}

/* Ends the process from a thread that is not the simulation's: the main
 * thread may be anywhere (waiting to join this one), so this thread writes
 * the report itself: the message, the JSON, the rank output it can flush. */
static _Noreturn void refuse_thread(struct runtime *rt, const char *func) {
    char msg[600];
    int rank = rt->current;
    snprintf(msg, sizeof msg,
             "%s called from a thread the program started (thread id %ld), while rank %d runs on "
             "the main thread; the program asked for %s%s%s, under which only a rank's main "
             "thread may call MPI; ask for MPI_THREAD_SERIALIZED (docs/hybrid.md)",
             func, (long)syscall(SYS_gettid), rank,
             thread_level_name(rt->thread_asked < 0 ? 0 : rt->thread_asked),
             rt->thread_asked < 0 ? " (MPI_Init)" : " (MPI_Init_thread), was given ",
             rt->thread_asked < 0 ? "" : thread_level_name(rt->thread_provided));
    runtime_refuse_from_thread(msg);
}

_Noreturn void runtime_refuse_from_thread(const char *msg) {
    struct runtime *rt = simpi_rt;
    if (ftrylockfile(stdout) == 0) {
        fflush(stdout); /* what the ranks printed, unless the main thread is printing */
        funlockfile(stdout);
    }
    fprintf(stderr, "simpi: error: %s\n", msg);
    struct sim_error err = {0};
    int rc = sim_exit_code(SIM_APP_ERROR);
    if (rt->json && !summary_write_failure_json(rt->json, rt->app, rc, msg, &err)) err_print(&err);
    runtime_tell_done(rt);
    runtime_exit_now(rc);
}

/* An MPI call in a child a rank forked: that child is an ordinary process,
 * not a rank, and holds only a copy of the simulation (its calls crashed
 * or looked like another rank's). It ends with a clear message. */
static void refuse_forked_child(const char *func) {
    char msg[300];
    int n = snprintf(msg, sizeof msg,
                     "simpi: error: %s called in a child process that a rank forked (pid %ld): "
                     "only the rank itself is an MPI process; the child ends with status 4\n",
                     func, (long)getpid());
    if (n > 0 && runtime_libc_write(2, msg, (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1) <
                     0) { /* nothing more to say */
    }
    runtime_exit_now(4);
}

void runtime_check_thread(const char *func) {
    struct runtime *rt = simpi_rt;
    if (forked_child) refuse_forked_child(func);
    if (!rt || !rt->running || pthread_equal(pthread_self(), rt->main_thread)) return;
    int32_t rank = threads_thread_rank();
    if (rt->thread_provided < MPI_THREAD_SERIALIZED || rank < 0) refuse_thread(rt, func);
    thread_call_begin(func, rank); /* returns on the main thread */
}

/* Every output of the run is found writable (or not) before the run, by
 * the first worker, which writes them. */
static bool outputs_writable(const struct runtime *rt, const struct settings *st,
                             struct sim_error *err) {
    if (rt->workers && workers_me(rt->workers) != 0) return true;
    return outfile_writable(rt->json, err) && analysis_outputs_writable(&st->analysis, err);
}

int runtime_main(int argc, char **argv, int (*user_main)(int, char **)) {
    static struct runtime rt;
    struct sim_error err = {0};
    static struct settings st; /* static: still reachable after an escape */
    read_settings(&st);
    if (!st.launched && started_by_real_launcher()) return 1;
    simpi_rt = &rt;
    rt.current = -1;
    rt.end.forced_status = -1;
    rt.main_thread = pthread_self();
    rt.thread_asked = -1;
    rt.thread_provided = MPI_THREAD_SINGLE;
    rt.done_fd = st.done_fd;
    rt.launcher = getppid();
    rt.argc = argc;
    rt.argv = argv;
    rt.user_main = user_main;
    globals_locate_main((const void *)user_main); /* main in a library: its globals too */
    rt.app = argv[0];
    rt.host.wall_start = memstat_wall_seconds();
    struct sim_driver drv = {.resume = resume,
                             .ctx = &rt,
                             .front = split_front,
                             .ending = split_ending,
                             .window_done = split_window_done,
                             .land = api_land,
                             .lost = split_lost_worker};
    struct split_opts so = {st.procs, st.transport, st.trace_out, st.cyclic};
    if (!configure(&rt, &st, &err) || !split_fork(&rt, &so, &err) ||
        !split_agree(&rt, settings_digest(&st), &err) ||
        !(rt.sim = sim_create(rt.plat, &rt.net, rt.n, &drv, &err)) || !install_hooks(&rt) ||
        !split_join(&rt, &so, &err) || !start_measuring(&rt, &st) ||
        !(rt.analysis = analysis_start(rt.sim, &st.analysis, &err)) ||
        !split_start_recording(&rt, st.trace_out, &err) || !outputs_writable(&rt, &st, &err) ||
        !start_ranks(&rt, st.stack_size, &err) || !start_privatization(&rt, st.privatize, &err)) {
        if (rt.workers && workers_me(rt.workers) != 0) runtime_exit_now(1); /* the first says why */
        err_print(&err);
        struct sim_error werr = {0};
        if (st.json && !summary_write_failure_json(st.json, rt.app, 1, err.msg, &werr) &&
            strcmp(werr.msg, err.msg) != 0) /* (the --json itself: said once) */
            err_print(&werr);
        runtime_tell_done(&rt);
        return 1;
    }
    threads_init(&rt);
    omp_state_init(rt.n);
    if (!st.no_crash_handler) install_signal_handlers();
    accept_interruptions(&rt);
    if (!set_limits(&rt, &st, &err)) {
        err_print(&err);
        runtime_tell_done(&rt);
        return 1;
    }
    int rc = run(&rt, st.progress);
    if (rt.privatize) privatize_unshare(); /* each image's own globals, for its destructors */
    struct sim_error werr = {0};
    if (rt.workers && !workers_end(rt.workers, 0, &werr)) { /* the first: the others ended */
        err_print(&werr);
        if (rc == 0) rc = 1;
    }
    runtime_tell_done(&rt);
    /* abandoned stacks: no clean-up; nor after a failed run whose ranks'
     * threads may still wait on them and on the ranks' state */
    if (rt.end.signal || (rc != 0 && threads_started())) return rc;
    analysis_free(rt.analysis);
    sim_destroy(rt.sim);
    stacks_free(&rt.stacks);
    free(rt.ranks);
    for (int32_t r = 0; r < rt.n; r++)
        free(rt.argv_copies[(size_t)r * ((size_t)rt.argc + 2) + (size_t)rt.argc + 1]);
    free(rt.argv_copies);
    if (rt.privatize) privatize_end();
    omp_state_end();
    threads_end();
    network_destroy(&rt.net);
    platform_free(rt.plat);
    free_settings(&st);
    return rc;
}
