/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI calls from the threads of a rank (MPI_THREAD_SERIALIZED and
 * MULTIPLE, docs/hybrid.md). simpi's engine and every rank run on the process's main
 * thread, so a call made by another thread of rank r is carried out there:
 * the thread saves its registers at the start of the MPI function and
 * waits on a small stack of its own; the main thread, when rank r lets it
 * (at its own next MPI call, or waiting in a barrier, the end of a parallel
 * region, a critical section, a lock or a join that simpi interposes),
 * switches onto the thread's stack and runs the rest of the call as rank r,
 * blocking it like any call of rank r; at the call's end it switches back,
 * and the thread resumes on its own stack with the call's results. Under
 * SERIALIZED a second thread calling while another call of the rank is
 * under way stops the run; under MULTIPLE a call that must wait is set
 * aside (thread_call_wait) and the rank goes on, its calls taken in the
 * order of their threads' clocks once all its threads have stopped. */
#define _GNU_SOURCE
#include "online/thread_calls.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "core/alloc.h"
#include "online/api/api.h" /* mpi.h: the thread levels */
#include "online/runtime.h"
#include "online/threads.h"

struct thread_call {
    struct ctx caller; /* the calling thread's stack, where the call goes on */
    struct ctx server; /* the main thread's, where it took the call up */
    struct thread_call *next;
    const char *func;
    int32_t rank;
    long tid;
    int depth;        /* runtime_enter/leave nesting while it runs */
    int key;          /* the order of calls taken together (thread number) */
    bool gated;       /* its thread is held by its rank's gate (threads.c) */
    double start;     /* the thread's virtual time at the call (seconds; < 0: none) */
    double end;       /* the rank's virtual time when it ended */
    atomic_bool done; /* the caller may resume */
    /* MPI_THREAD_MULTIPLE: the call waits for these requests, set aside
     * while the rank and its other threads go on */
    struct request **reqs;
    int nreqs;
    bool any, waiting;
};

static bool multiple(void);
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static struct thread_call *queue;  /* calls waiting for the main thread, oldest first */
static struct thread_call *parked; /* MULTIPLE: calls set aside in a wait (main thread only) */

/* The calling thread's side. */
static __thread struct ctx park;
static __thread char *park_stack;
static __thread struct thread_call own_call;
static __thread void *own_stack_lo;
static __thread size_t own_stack_size;
#define PARK_STACK_BYTES ((size_t)64 * 1024)

void thread_calls_notify(void) {
    pthread_mutex_lock(&lock);
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&lock);
}

static bool queued_for(int32_t rank) {
    for (struct thread_call *c = queue; c; c = c->next)
        if (c->rank == rank) return true;
    return false;
}

/* The call may not start: another call of its rank is under way. */
static _Noreturn void refuse_concurrent(struct thread_call *c) {
    char msg[400];
    snprintf(msg, sizeof msg,
             "%s called from thread %ld of rank %d while another MPI call of the rank was under "
             "way; the program was given MPI_THREAD_SERIALIZED, under which a rank's threads "
             "call MPI one at a time (docs/hybrid.md)",
             c->func, c->tid, c->rank);
    runtime_refuse_from_thread(msg);
}

/* Runs on the calling thread's small stack: queues the call, waits for its
 * end, resumes the caller; again at the thread's next call. */
static void park_entry(void *arg) {
    (void)arg;
    ctx_entered();
    for (;;) {
        struct thread_call *c = &own_call;
        pthread_mutex_lock(&lock);
        if (!multiple() && (runtime_rank_in_call(c->rank) || queued_for(c->rank))) {
            pthread_mutex_unlock(&lock);
            refuse_concurrent(c);
        }
        struct thread_call **end = &queue;
        while (*end)
            end = &(*end)->next;
        *end = c;
        /* paused once queued: the rank is never seen quiet with this call
         * neither running nor queued */
        threads_call_pause();
        pthread_cond_broadcast(&changed);
        while (!atomic_load(&c->done))
            pthread_cond_wait(&changed, &lock);
        pthread_mutex_unlock(&lock);
        threads_call_ended(c->end); /* the thread's clock goes on from there */
        threads_released();
        threads_call_resume(); /* once its rank is current */
        ctx_switch(&park, &c->caller);
    }
}

static pthread_key_t park_key;
static pthread_once_t park_key_once = PTHREAD_ONCE_INIT;

static void free_park_stack(void *stack) {
    free(stack);
}

static void make_park_key(void) {
    pthread_key_create(&park_key, free_park_stack);
}

static void learn_own_stack(void) {
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
    pthread_attr_getstack(&attr, &own_stack_lo, &own_stack_size);
    pthread_attr_destroy(&attr);
}

void thread_call_begin(const char *func, int32_t rank) {
    if (!park_stack) {
        park_stack = xmalloc(PARK_STACK_BYTES);
        pthread_once(&park_key_once, make_park_key);
        pthread_setspecific(park_key, park_stack); /* freed when the thread ends */
        ctx_init(&park, park_stack, PARK_STACK_BYTES, park_entry, NULL);
        learn_own_stack();
    }
    /* the thread's one call (not a local: this frame ends when the main
     * thread goes on with the call) */
    struct thread_call *c = &own_call;
    *c = (struct thread_call){
        .func = func, .rank = rank, .tid = (long)syscall(SYS_gettid), .key = threads_thread_key()};
    atomic_init(&c->done, false);
    c->caller.stack_lo = own_stack_lo; /* for AddressSanitizer's bookkeeping */
    c->caller.stack_size = own_stack_size;
    c->gated = threads_thread_gated();
    c->start = threads_thread_vtime();
    ctx_switch(&c->caller, &park);
    /* from here on the main thread runs the call, on this stack, until
     * thread_call_end; no thread-local variable may be read in between */
}

/* ---- the main thread's side ---- */

static bool multiple(void) {
    return simpi_rt && simpi_rt->thread_provided >= MPI_THREAD_MULTIPLE;
}

/* Whether call a goes before b: the earlier of the threads' clocks, then
 * the lower thread number. */
static bool earlier(const struct thread_call *a, const struct thread_call *b) {
    return a->start != b->start ? a->start < b->start : a->key < b->key;
}

/* The rank's queued call to run next: the earliest by its thread's clock,
 * then the lowest thread number (under MULTIPLE, taken once the rank's
 * threads all wait, so that the order does not depend on the host). */
static struct thread_call *take_for(int32_t rank) {
    pthread_mutex_lock(&lock);
    struct thread_call **best = NULL;
    for (struct thread_call **p = &queue; *p; p = &(*p)->next)
        if ((*p)->rank == rank && (!best || earlier(*p, *best))) best = p;
    struct thread_call *found = best ? *best : NULL;
    if (found) *best = found->next;
    pthread_mutex_unlock(&lock);
    return found;
}

/* Runs the call (its start, or its return from a wait) until it ends or
 * waits again. The rank's context is the call's meanwhile (it may block
 * there): AddressSanitizer is told the stacks actually switched to. */
static void run_call(int32_t rank, struct thread_call *c) {
    runtime_set_thread_call(rank, c);
    struct ctx *own = &simpi_rt->ranks[rank].ctx;
    void *lo = own->stack_lo;
    size_t size = own->stack_size;
    c->server.stack_lo = lo;
    c->server.stack_size = size;
    own->stack_lo = c->caller.stack_lo;
    own->stack_size = c->caller.stack_size;
    ctx_switch(&c->server, &c->caller);
    own->stack_lo = lo;
    own->stack_size = size;
    runtime_set_thread_call(rank, NULL);
    if (c->waiting) { /* set aside until its requests are done */
        c->next = parked;
        parked = c;
        return;
    }
    c->end = simtime_to_seconds(sim_now(simpi_rt->sim));
    if (c->gated) threads_rank_releases(rank, 1); /* counted until it runs again */
    pthread_mutex_lock(&lock);
    atomic_store(&c->done, true);
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&lock);
}

/* A call set aside whose requests are done, oldest first. */
static struct thread_call *take_ready(int32_t rank) {
    struct thread_call **found = NULL;
    for (struct thread_call **p = &parked; *p; p = &(*p)->next)
        if ((*p)->rank == rank &&
            sim_requests_ready(simpi_rt->sim, (*p)->reqs, (*p)->nreqs, (*p)->any))
            found = p; /* the list is newest first: keep the last match */
    if (!found) return NULL;
    struct thread_call *c = *found;
    *found = c->next;
    return c;
}

static bool parked_for(int32_t rank) {
    for (struct thread_call *c = parked; c; c = c->next)
        if (c->rank == rank) return true;
    return false;
}

bool thread_calls_serve(int32_t rank) {
    bool served = false;
    for (;;) {
        if (multiple()) threads_rank_settle(rank); /* the same calls queued, run after run */
        struct thread_call *c = take_for(rank);
        if (c) {
            c->depth = 0;
        } else if ((c = take_ready(rank))) {
            c->waiting = false;
            runtime_call_resumes(rank);
        } else {
            return served;
        }
        run_call(rank, c);
        served = true;
    }
}

void thread_call_wait(struct thread_call *c, struct request **reqs, int n, bool any) {
    while (!sim_requests_ready(simpi_rt->sim, reqs, n, any)) {
        c->reqs = reqs;
        c->nreqs = n;
        c->any = any;
        c->waiting = true;
        runtime_call_sets_aside(c->rank);
        ctx_switch(&c->caller, &c->server); /* back here when its requests are done */
    }
}

bool thread_call_enter(struct thread_call *c) {
    return ++c->depth == 1;
}

double thread_call_start(const struct thread_call *c) {
    return c->start;
}

void thread_call_leave(struct thread_call *c) {
    if (--c->depth == 0) ctx_switch(&c->caller, &c->server); /* the caller resumes on its thread */
}

void thread_calls_wait(int32_t rank, bool (*ready)(void *), void *arg) {
    for (;;) {
        thread_calls_serve(rank);
        pthread_mutex_lock(&lock);
        bool go = ready(arg);
        if (!go && !queued_for(rank) && parked_for(rank) && threads_rank_quiet(rank)) {
            /* every thread of the rank waits, some in MPI: the rank's time
             * advances (as a test that finds nothing) while others run */
            pthread_mutex_unlock(&lock);
            runtime_poll_wait();
            continue;
        }
        if (!go && !queued_for(rank)) {
            /* woken by a queued call or a change a waiter looks at; the
             * timeout only guards against a change nobody announced */
            struct timespec until = vtime_host_deadline(0.02);
            pthread_cond_timedwait(&changed, &lock, &until);
        }
        pthread_mutex_unlock(&lock);
        if (go) return;
    }
}
