/* SPDX-License-Identifier: BSD-3-Clause */
/* Signal handlers per rank: as separate processes would, each rank has its
 * own handlers for the signals programs use for themselves (SIGUSR1,
 * SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGWINCH, SIGURG, SIGIO and the
 * real-time ones), its own alarm (alarm, setitimer ITIMER_REAL), and its
 * handler runs as that rank: its globals in place, MPI_Comm_rank its own.
 *
 * signal() and sigaction() called by a rank record its action; the process
 * gets one dispatcher per such signal. A signal the rank raised itself
 * (raise, kill of its own process) goes to that rank; an alarm to the ranks
 * whose alarm is due; one from outside (kill -USR1) to every rank that
 * handles it, as mpirun forwards a signal to every process. raise() runs
 * the rank's handler before it returns; any other signal is pending for
 * its rank, whose handler runs, on its own stack, as its next MPI call
 * returns to its code (runtime.c calls signals_deliver): never in the
 * signal's own context, which a switch between ranks must not leave. A
 * handler may call what a handler may call in an MPI process
 * (MPI_Comm_rank and printf, not blocking MPI calls). A rank's default action for one of
 * these signals ends the run, naming the rank. Outside the ranks (before
 * main, in simpi itself) the calls are the C library's. */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "core/alloc.h"
#include "online/runtime.h"

#define NSIGS 65

struct rank_signals {
    struct sigaction act[NSIGS];
    uint64_t pending;    /* bit s - 1: signal s waits for the rank */
    double alarm_at;     /* the rank's ITIMER_REAL: when, monotonic seconds (0: none) */
    double alarm_period; /* its interval (0: once) */
};

static struct rank_signals **by_rank; /* NULL until a rank installs one */
static int32_t nranks;
static bool dispatching[NSIGS];

static bool per_rank(int sig) {
    return sig == SIGUSR1 || sig == SIGUSR2 || sig == SIGALRM || sig == SIGVTALRM ||
           sig == SIGPROF || sig == SIGWINCH || sig == SIGURG || sig == SIGIO ||
           (sig >= SIGRTMIN && sig <= SIGRTMAX && sig < NSIGS);
}

/* libsimpi.so's own loaded range: its calls (the runtime's handlers for
 * SIGINT and the others, its timers) are the process's, never a rank's */
static uintptr_t self_lo, self_hi;

static int find_self(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size, (void)data;
    uintptr_t me = (uintptr_t)&find_self, lo = UINTPTR_MAX, hi = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD) continue;
        uintptr_t a = info->dlpi_addr + ph->p_vaddr;
        if (a < lo) lo = a;
        if (a + ph->p_memsz > hi) hi = a + ph->p_memsz;
    }
    if (me < lo || me >= hi) return 0;
    self_lo = lo, self_hi = hi;
    return 1;
}

__attribute__((constructor)) static void locate_self(void) {
    dl_iterate_phdr(find_self, NULL);
}

static bool from_simpi(const void *caller) {
    uintptr_t a = (uintptr_t)caller;
    return a >= self_lo && a < self_hi;
}

/* The rank running now, when the caller is the program's code (not
 * simpi's), or -1. */
static int32_t rank_of_caller(const void *caller) {
    struct runtime *rt = simpi_rt;
    if (!rt || !rt->running || rt->current < 0 || from_simpi(caller)) return -1;
    return rt->current;
}

/* The rank running now, or -1. */
static int32_t rank_now(void) {
    struct runtime *rt = simpi_rt;
    return rt && rt->running && rt->current >= 0 ? rt->current : -1;
}

static struct rank_signals *of_rank(int32_t rank) {
    struct runtime *rt = simpi_rt;
    if (!by_rank) {
        nranks = rt->n;
        by_rank = xcalloc((size_t)nranks, sizeof *by_rank);
    }
    if (rank < 0 || rank >= nranks) return NULL;
    if (!by_rank[rank]) by_rank[rank] = xcalloc(1, sizeof *by_rank[rank]);
    return by_rank[rank];
}

typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);
static int real_sigaction(int sig, const struct sigaction *act, struct sigaction *old) {
    static sigaction_fn real;
    if (!real) real = (sigaction_fn)dlsym(RTLD_NEXT, "sigaction");
    return real ? real(sig, act, old) : (errno = ENOSYS, -1);
}

static double monotonic(void) { /* the host's clock, never the virtual one (vtime.c) */
    struct timespec ts;
    syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The process's ITIMER_REAL set to the earliest rank alarm (none: off). */
static void arm_alarm(void) {
    double first = 0;
    for (int32_t r = 0; by_rank && r < nranks; r++)
        if (by_rank[r] && by_rank[r]->alarm_at > 0 && (first == 0 || by_rank[r]->alarm_at < first))
            first = by_rank[r]->alarm_at;
    struct itimerval it = {{0, 0}, {0, 0}};
    if (first > 0) {
        double in = first - monotonic();
        if (in < 1e-6) in = 1e-6;
        it.it_value.tv_sec = (time_t)in;
        it.it_value.tv_usec = (suseconds_t)((in - (double)(time_t)in) * 1e6);
        if (it.it_value.tv_sec == 0 && it.it_value.tv_usec == 0) it.it_value.tv_usec = 1;
    }
    syscall(SYS_setitimer, ITIMER_REAL, &it, NULL);
}

static void call_handler(int32_t rank, int sig) {
    struct sigaction *a = &by_rank[rank]->act[sig];
    if (a->sa_handler == SIG_IGN) return;
    if (a->sa_handler == SIG_DFL) {
        if (sig != SIGWINCH && sig != SIGURG)
            runtime_fail_rank(rank, "rank %d was killed by %s (its default action)", rank,
                              strsignal(sig));
        return;
    }
    if (a->sa_flags & SA_RESETHAND) a->sa_handler = SIG_DFL;
    if (a->sa_flags & SA_SIGINFO) {
        siginfo_t info;
        memset(&info, 0, sizeof info);
        info.si_signo = sig;
        info.si_code = SI_USER;
        info.si_pid = getpid();
        a->sa_sigaction(sig, &info, NULL);
    } else {
        a->sa_handler(sig);
    }
}

/* Signal sig for rank: pending until its next MPI call returns (a handler
 * never runs in the signal's own context, which a switch between ranks
 * must not leave). */
static void post(int32_t rank, int sig) {
    if (!by_rank || rank < 0 || rank >= nranks || !by_rank[rank]) return;
    by_rank[rank]->pending |= UINT64_C(1) << (sig - 1);
}

static void dispatch(int sig, siginfo_t *info, void *uctx) {
    (void)uctx;
    int saved = errno;
    int32_t now = rank_now();
    if (info && info->si_pid == getpid() &&
        (info->si_code == SI_USER || info->si_code == SI_TKILL) && now >= 0) {
        post(now, sig); /* raised by the running rank itself */
    } else if (sig == SIGALRM && info && info->si_code == SI_KERNEL) { /* the ranks' alarms */
        double t = monotonic();
        for (int32_t r = 0; by_rank && r < nranks; r++) {
            struct rank_signals *s = by_rank[r];
            if (!s || s->alarm_at <= 0 || s->alarm_at > t + 1e-4) continue;
            s->alarm_at = s->alarm_period > 0 ? s->alarm_at + s->alarm_period : 0;
            post(r, sig);
        }
        arm_alarm();
    } else {
        for (int32_t r = 0; by_rank && r < nranks; r++) /* from outside: every rank handling it */
            if (by_rank[r] && by_rank[r]->act[sig].sa_handler != SIG_DFL) post(r, sig);
    }
    errno = saved;
}

void signals_deliver(int32_t rank) {
    if (!by_rank || rank < 0 || rank >= nranks || !by_rank[rank] || !by_rank[rank]->pending) return;
    struct rank_signals *s = by_rank[rank];
    while (s->pending) {
        int sig = __builtin_ctzll(s->pending) + 1;
        s->pending &= ~(UINT64_C(1) << (sig - 1));
        call_handler(rank, sig);
    }
}

/* The interposers' own: `signal` calls it on the program's behalf. */
static int rank_sigaction(int32_t rank, int sig, const struct sigaction *act,
                          struct sigaction *old);

int sigaction(int sig, const struct sigaction *act, struct sigaction *old) {
    return rank_sigaction(rank_of_caller(__builtin_return_address(0)), sig, act, old);
}

static int rank_sigaction(int32_t rank, int sig, const struct sigaction *act,
                          struct sigaction *old) {
    if (rank < 0 || !per_rank(sig)) return real_sigaction(sig, act, old);
    struct rank_signals *s = of_rank(rank);
    if (!s) return real_sigaction(sig, act, old);
    if (old) *old = s->act[sig];
    if (!act) return 0;
    s->act[sig] = *act;
    if (!dispatching[sig]) {
        struct sigaction d;
        memset(&d, 0, sizeof d);
        d.sa_sigaction = dispatch;
        d.sa_flags = SA_SIGINFO | SA_RESTART;
        sigfillset(&d.sa_mask);
        if (real_sigaction(sig, &d, NULL) == 0) dispatching[sig] = true;
    }
    return 0;
}

/* raise() by a rank runs its handler before it returns, as in a process. */
int raise(int sig) {
    int32_t rank = rank_of_caller(__builtin_return_address(0));
    if (rank < 0 || !per_rank(sig) || !by_rank || rank >= nranks || !by_rank[rank] ||
        by_rank[rank]->act[sig].sa_handler == SIG_DFL)
        return (int)syscall(SYS_tgkill, getpid(), syscall(SYS_gettid), sig);
    call_handler(rank, sig);
    return 0;
}

sighandler_t signal(int sig, sighandler_t handler) {
    struct sigaction act, old;
    memset(&act, 0, sizeof act);
    act.sa_handler = handler;
    act.sa_flags = SA_RESTART;
    sigemptyset(&act.sa_mask);
    if (rank_sigaction(rank_of_caller(__builtin_return_address(0)), sig, &act, &old) != 0)
        return SIG_ERR;
    return old.sa_handler;
}

/* The rank's ITIMER_REAL: returns the time it had left. */
static double rank_alarm(struct rank_signals *s, double in, double period) {
    double t = monotonic(), left = s->alarm_at > 0 ? s->alarm_at - t : 0;
    s->alarm_at = in > 0 ? t + in : 0;
    s->alarm_period = in > 0 ? period : 0;
    arm_alarm();
    return left > 0 ? left : 0;
}

unsigned int alarm(unsigned int seconds) {
    int32_t rank = rank_of_caller(__builtin_return_address(0));
    struct rank_signals *s = rank >= 0 ? of_rank(rank) : NULL;
    if (!s) {
        struct itimerval it = {{0, 0}, {(time_t)seconds, 0}}, old;
        syscall(SYS_setitimer, ITIMER_REAL, &it, &old);
        return (unsigned int)old.it_value.tv_sec + (old.it_value.tv_usec > 0);
    }
    double left = rank_alarm(s, seconds, 0);
    return (unsigned int)left + (left > (double)(unsigned int)left);
}

static double seconds_of(struct timeval tv) {
    return (double)tv.tv_sec + (double)tv.tv_usec * 1e-6;
}

int setitimer(__itimer_which_t which, const struct itimerval *value, struct itimerval *old) {
    int32_t rank = rank_of_caller(__builtin_return_address(0));
    struct rank_signals *s = rank >= 0 && which == ITIMER_REAL ? of_rank(rank) : NULL;
    if (!s) return (int)syscall(SYS_setitimer, which, value, old);
    double period = s->alarm_period, left = 0;
    if (value) left = rank_alarm(s, seconds_of(value->it_value), seconds_of(value->it_interval));
    if (old) {
        old->it_value.tv_sec = (time_t)left;
        old->it_value.tv_usec = (suseconds_t)((left - (double)(time_t)left) * 1e6);
        old->it_interval.tv_sec = (time_t)period;
        old->it_interval.tv_usec = (suseconds_t)((period - (double)(time_t)period) * 1e6);
    }
    return 0;
}
