/* SPDX-License-Identifier: BSD-3-Clause */
/* Time as simulated programs see it. In a rank, the sleep functions advance
 * the rank's virtual time instead of sleeping, and the clocks
 * (gettimeofday, time, clock_gettime on the realtime and monotonic clocks)
 * read virtual time, including the computation measured since the rank's
 * last call into simpi (not charged: a clock read never switches ranks), so
 * a program timing a loop with gettimeofday sees the simulated duration. The realtime clocks
 * read the host's date at the start of the run plus the virtual time.
 * Outside ranks (simpi itself, a forked child) everything is the C
 * library's. An MPI_Test or MPI_Iprobe that finds nothing costs
 * mpi.poll_cost of virtual time, so polling loops advance. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <sys/time.h>
#include <time.h>

#include "online/runtime.h"
#include "online/threads.h"
#include "platform/platform.h"

typedef int (*clock_gettime_fn)(clockid_t, struct timespec *);

static clock_gettime_fn real_clock_gettime(void) {
    static clock_gettime_fn real;
    if (!real) real = (clock_gettime_fn)dlsym(RTLD_NEXT, "clock_gettime");
    return real;
}

/* The host's clock, whatever the caller (simpi's own timing). */
int vtime_host_clock(clockid_t id, struct timespec *ts) {
    return real_clock_gettime()(id, ts);
}

struct timespec vtime_host_deadline(double seconds) {
    struct timespec ts;
    vtime_host_clock(CLOCK_REALTIME, &ts);
    double whole = (double)(long)seconds;
    ts.tv_sec += (time_t)whole;
    ts.tv_nsec += (long)((seconds - whole) * 1e9);
    if (ts.tv_nsec >= 1000000000) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000;
    }
    return ts;
}

static struct timespec start_real, start_mono; /* host clocks when first read */

static void read_starts(void) {
    static bool done;
    if (done) return;
    vtime_host_clock(CLOCK_REALTIME, &start_real);
    vtime_host_clock(CLOCK_MONOTONIC, &start_mono);
    done = true;
}

static struct timespec add_virtual(struct timespec base, simtime_t t) {
    int64_t ns = base.tv_nsec + (int64_t)(t % PS_PER_S) / 1000;
    base.tv_sec += (time_t)(t / PS_PER_S) + (time_t)(ns / 1000000000);
    base.tv_nsec = (long)(ns % 1000000000);
    return base;
}

static bool virtual_clock(clockid_t id) {
    return id == CLOCK_REALTIME || id == CLOCK_MONOTONIC || id == CLOCK_MONOTONIC_RAW ||
           id == CLOCK_REALTIME_COARSE || id == CLOCK_MONOTONIC_COARSE || id == CLOCK_BOOTTIME;
}

int clock_gettime(clockid_t id, struct timespec *ts) {
    if (!runtime_in_rank() || !virtual_clock(id)) return vtime_host_clock(id, ts);
    read_starts();
    bool real = id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE;
    /* never switches ranks: libraries read clocks while holding locks (the
     * sanitizers' allocator does), and another rank taking the same lock
     * would wait forever */
    *ts = add_virtual(real ? start_real : start_mono, runtime_virtual_now());
    return 0;
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz) {
    (void)tz;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    tv->tv_sec = ts.tv_sec;
    tv->tv_usec = (suseconds_t)(ts.tv_nsec / 1000);
    return 0;
}

time_t time(time_t *out) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    if (out) *out = ts.tv_sec;
    return ts.tv_sec;
}

/* Advances the running rank's virtual time by t. */
static void rank_sleep(simtime_t t) {
    struct runtime *rt = simpi_rt;
    bool was_in = rt->in_mpi;
    if (!was_in) runtime_enter();
    runtime_charge(t);
    if (!was_in) runtime_leave();
}

typedef int (*nanosleep_fn)(const struct timespec *, struct timespec *);

/* A sleep in a thread the program started: the thread sleeps on the host
 * (it uses no CPU, so nothing is charged) and counts as paused, so that
 * its rank's switches need not wait for it; it resumes only while its rank
 * runs, and never once its rank has ended (as a process's end ends it). */
static int host_sleep(const struct timespec *req, struct timespec *rem) {
    static nanosleep_fn real;
    if (!real) real = (nanosleep_fn)dlsym(RTLD_NEXT, "nanosleep");
    bool paused = !runtime_on_main_thread() && threads_pause_calling();
    int rc = real(req, rem);
    int saved = errno;
    if (paused) threads_resume_calling();
    errno = saved;
    return rc;
}

int nanosleep(const struct timespec *req, struct timespec *rem) {
    if (!runtime_in_rank() || !runtime_on_main_thread()) return host_sleep(req, rem);
    if (!req || req->tv_nsec < 0 || req->tv_nsec >= 1000000000 || req->tv_sec < 0) {
        errno = EINVAL;
        return -1;
    }
    rank_sleep((simtime_t)req->tv_sec * PS_PER_S + (simtime_t)req->tv_nsec * 1000);
    if (rem) rem->tv_sec = rem->tv_nsec = 0;
    return 0;
}

int usleep(useconds_t us) {
    struct timespec ts = {(time_t)(us / 1000000), (long)(us % 1000000) * 1000};
    return nanosleep(&ts, NULL);
}

unsigned int sleep(unsigned int seconds) {
    struct timespec ts = {(time_t)seconds, 0};
    return nanosleep(&ts, NULL) == 0 ? 0 : seconds;
}

void vtime_poll_charge(void) {
    if (runtime_in_rank()) runtime_charge(simpi_rt->plat->poll_cost);
}
