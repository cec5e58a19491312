/* SPDX-License-Identifier: BSD-3-Clause */
/* The CPU time of the thread that runs the ranks (see cpuclock.h).
 *
 * The thread CPU clock is exact but a system call (1.3 us on an idle
 * virtual machine, 2.7 us under load: too slow to read at every MPI call of
 * thousands of ranks); the monotonic clock is read through the vDSO in 30 ns
 * but also counts the time the operating system ran other programs. Linux's
 * self-monitoring page of a software task-clock event (perf_event_open,
 * PERF_COUNT_SW_TASK_CLOCK, the event's first page mapped) tells the two
 * apart: the kernel updates the page, and so changes its `lock` sequence
 * number, whenever it schedules the task in. While `lock` keeps the value
 * it had at the last exact reading, the thread has run without a break
 * since, so its CPU time is that reading plus the monotonic time elapsed.
 * When `lock` has changed the clock reads the thread CPU clock once and
 * takes a new reference: a system call at most once per time slice, not
 * once per burst. Where perf_event_open is refused (perf_event_paranoid 3,
 * seccomp, some containers) every reading is a system call. */
#define _GNU_SOURCE /* syscall */
#include "online/cpuclock.h"

#include <linux/perf_event.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "online/runtime.h" /* vtime_host_clock: the host's clocks */

static struct {
    const volatile struct perf_event_mmap_page *page; /* NULL: the thread CPU clock */
    uint32_t lock;                                    /* the page's lock at the reference */
    bool have_ref;
    double ref_elapsed, ref_cpu; /* one instant on both clocks */
    pthread_t owner;             /* the thread the page measures */
    struct cpuclock_stats st;
} clk;

static double seconds_of(clockid_t id) {
    struct timespec ts;
    if (vtime_host_clock(id, &ts) != 0) return 0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint32_t page_lock(void) {
    return __atomic_load_n(&clk.page->lock, __ATOMIC_ACQUIRE);
}

/* The task-clock event's page, or NULL with the reason. Its file is closed
 * once mapped (the mapping keeps the event), so the program sees no new
 * descriptor. */
static const volatile struct perf_event_mmap_page *open_page(const char **why) {
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_SOFTWARE;
    a.config = PERF_COUNT_SW_TASK_CLOCK;
    long fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    if (fd < 0) {
        *why = "perf_event_open refused a task-clock event (perf_event_paranoid, seccomp or a "
               "container)";
        return NULL;
    }
    void *p = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, (int)fd, 0);
    close((int)fd);
    if (p == MAP_FAILED) {
        *why = "the task-clock event's page could not be mapped";
        return NULL;
    }
    /* the kernel must update the page when it schedules the task in: a
     * sleep is a switch out and back in */
    const volatile struct perf_event_mmap_page *page = p;
    uint32_t before = __atomic_load_n(&page->lock, __ATOMIC_ACQUIRE);
    for (int i = 0; i < 3 && __atomic_load_n(&page->lock, __ATOMIC_ACQUIRE) == before; i++)
        nanosleep(&(struct timespec){0, 1000}, NULL);
    if (__atomic_load_n(&page->lock, __ATOMIC_ACQUIRE) == before) {
        munmap(p, (size_t)sysconf(_SC_PAGESIZE));
        *why = "this kernel does not update the task-clock event's page when it schedules a "
               "task in";
        return NULL;
    }
    return page;
}

void cpuclock_init(bool force_thread) {
    if (clk.page) munmap((void *)clk.page, (size_t)sysconf(_SC_PAGESIZE));
    memset(&clk, 0, sizeof clk);
    const char *why = NULL;
    if (!force_thread && !getenv("SIMPI_CPU_CLOCK_THREAD")) clk.page = open_page(&why);
    clk.owner = pthread_self();
    clk.st.kind = clk.page ? CPUCLOCK_TASK_PAGE : CPUCLOCK_THREAD;
    clk.st.reason = why;
}

/* Reads the thread CPU clock and takes it as the new reference: the page's
 * lock unchanged around the reading, so that the thread ran throughout and
 * the CPU reading belongs to the middle of the two monotonic ones. */
static double exact_reading(double *elapsed) {
    double e0 = 0, cpu = 0, e1 = 0;
    uint32_t lock = 0;
    for (int tries = 0; tries < 4; tries++) {
        lock = page_lock();
        e0 = seconds_of(CLOCK_MONOTONIC);
        cpu = seconds_of(CLOCK_THREAD_CPUTIME_ID);
        e1 = seconds_of(CLOCK_MONOTONIC);
        if (page_lock() == lock) break;
    }
    clk.lock = lock;
    clk.ref_elapsed = 0.5 * (e0 + e1);
    clk.ref_cpu = cpu;
    clk.have_ref = true;
    clk.st.exact++;
    if (elapsed) *elapsed = e1;
    return cpu + (e1 - clk.ref_elapsed);
}

double cpuclock_now(double *elapsed) {
    bool mine = pthread_equal(pthread_self(), clk.owner); /* else another thread: its own clock */
    if (mine) clk.st.readings++;
    if (!clk.page || !mine) {
        if (mine) clk.st.exact++;
        double cpu = seconds_of(CLOCK_THREAD_CPUTIME_ID);
        if (elapsed) *elapsed = seconds_of(CLOCK_MONOTONIC);
        return cpu;
    }
    double now = seconds_of(CLOCK_MONOTONIC);
    if (clk.have_ref && page_lock() == clk.lock) { /* not descheduled since the reference */
        if (elapsed) *elapsed = now;
        return clk.ref_cpu + (now - clk.ref_elapsed);
    }
    return exact_reading(elapsed);
}

void cpuclock_stats(struct cpuclock_stats *out) {
    *out = clk.st;
}

const char *cpuclock_name(enum cpuclock_kind kind) {
    return kind == CPUCLOCK_TASK_PAGE ? "task_clock_page" : "thread_cpu_clock";
}
