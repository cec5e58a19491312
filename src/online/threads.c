/* SPDX-License-Identifier: BSD-3-Clause */
/* The threads of ranks (docs/hybrid.md). Every rank runs on the process's
 * main thread, but its OpenMP teams, its threaded BLAS and its own pthreads
 * run on threads of their own. Their computation is measured with each
 * thread's CPU clock (not elapsed time, which depends on how many cores
 * this host has) and charged to the rank as its cores on the simulated node
 * would run it:
 * - an OpenMP parallel region (GCC's libgomp entry points, interposed
 *   here) is measured thread by thread, and charged as the makespan of
 *   those works sharing the rank's cores (processor sharing: the slowest
 *   thread's work when each thread has a core, the work spread over the
 *   cores when the threads outnumber them);
 * - the rest of a span between two MPI calls of the rank (the main
 *   thread's serial code, other threads' work: BLAS, pthreads) is charged
 *   as the same makespan of the main thread's work and each other thread's
 *   work in that span.
 * Threads are found by interposing pthread_create. simpi_compute_* called
 * in a thread charges that thread's work. Also here: one critical-section
 * lock per rank, the gate that lets a rank's threads run the program's
 * code only while the rank is current, and the waits (barriers, region
 * ends, locks, joins) where the main thread carries out the MPI calls of
 * the rank's threads (thread_calls.c). Nothing here runs for a program that
 * starts no thread. */
#define _GNU_SOURCE
#include "online/threads.h"

#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>

#include "core/alloc.h"
#include "core/workers.h"
#include "online/api/api.h" /* mpi.h: the thread levels */
#include "online/runtime.h"
#include "online/thread_calls.h"

/* A thread the program (or a library of it) started. */
struct tthread {
    struct tthread *next;
    pthread_t id;
    clockid_t clock;
    double last;     /* its CPU seconds at the last reading */
    double region;   /* CPU seconds since, inside measured regions (charged there) */
    double charged;  /* target seconds charged by simpi_compute_* since, outside regions */
    double exit_cpu; /* CPU seconds when it ended */
    /* odd while it waits on a condition variable (pthread_cond_wait,
     * below), one more at each start and end of a wait; and its value at
     * the last reading of the thread's clock */
    atomic_uint wait_seq;
    unsigned read_seq;
    bool read_known;
    bool dead;
    bool omp_worker; /* ran a region's function: libgomp's, idle outside regions */
    bool ready;      /* id and clock known (set by the creator once it is started) */
    bool settled;    /* its creator is done with it: it may leave the list once dead */
};

/* A critical section's lock for one rank (GOMP_critical_start, below). */
struct critical {
    struct critical *next;
    void *name;
    int32_t rank;
    atomic_int held;
};
static struct critical *criticals;

static pthread_mutex_t list_lock = PTHREAD_MUTEX_INITIALIZER;
static struct tthread *list;
static atomic_bool any_thread;
static __thread struct tthread *self;
static __thread bool on_main;
static __thread int32_t thread_rank = -1;     /* the rank whose thread this is */
static __thread bool gated;                   /* held by its rank's gate (below) */
static __thread int thread_key = -1;          /* orders its MPI calls taken together */
static atomic_int next_pthread_key = 1 << 20; /* pthreads after team threads, in creation order */
static __thread bool running;                 /* counted in its rank's gate */
static __thread bool starting;                /* counted as starting in its rank's gate */
static __thread bool starting_after_barrier;  /* released by the main thread's barrier */
static void thread_run(void);
static void thread_pause(void);
static void gates_make(void);
static bool gate_starting(int32_t rank);
struct region;
static bool team_started(struct region *r);
static __thread struct region *cur_region; /* the measured region this thread is in */
static __thread int my_barriers;           /* barriers this thread passed in it */
static __thread int region_depth;          /* inside a measured region's function */
static __thread double region_charge;      /* target seconds charged there by this thread */
/* The thread's own virtual clock in a measured region (virtual seconds):
 * from clock_base, its work since (CPU clock from clock_cpu0, charges
 * beyond clock_charge0) slowed by clock_slow when the team outnumbers the
 * rank's cores. Moved on by each MPI call it makes. */
static __thread double clock_base, clock_cpu0, clock_charge0, clock_slow = 1;
static __thread bool clock_moved; /* by an MPI call in this region */

/* What the spans of the running rank accumulate (main thread only). */
static struct {
    bool measure;           /* --cpu=measure: read CPU clocks */
    double read_cost;       /* CPU seconds one reading of a CPU clock takes */
    double scale;           /* target seconds per measured second */
    double regions;         /* target seconds: regions ended since the span began */
    double main_in_regions; /* main thread CPU seconds in those (part of regions) */
    const struct platform *plat;
    int32_t *node_ranks; /* ranks on each node */
    double *jobs;
    size_t jobs_cap;
} spans;

static double cpu_of(clockid_t clock) {
    struct timespec ts;
    if (vtime_host_clock(clock, &ts) != 0) return 0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double threads_own_cpu(void) {
    return cpu_of(CLOCK_THREAD_CPUTIME_ID);
}

bool threads_started(void) {
    return atomic_load_explicit(&any_thread, memory_order_relaxed);
}

/* ---- threads the program starts ---- */

static pthread_key_t exit_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static void thread_ended(void *arg) {
    struct tthread *t = arg;
    thread_pause();
    double cpu = threads_own_cpu();
    pthread_mutex_lock(&list_lock);
    t->exit_cpu = cpu;
    t->dead = true;
    pthread_mutex_unlock(&list_lock);
    thread_calls_notify(); /* a join may be waiting */
}

static void make_key(void) {
    pthread_key_create(&exit_key, thread_ended);
}

struct start {
    void *(*fn)(void *);
    void *arg;
    int32_t rank;
    int key;
    bool gated; /* started by the program's own code: held by its rank's gate */
    struct tthread *t;
};

int32_t threads_thread_rank(void) {
    return thread_rank;
}

int threads_thread_key(void) {
    return thread_key;
}

/* A thread the program starts (in a rank's code, in another of its
 * threads, or before simpi starts: OpenBLAS's pool), not simpi's own. */
static bool program_thread(void) {
    struct runtime *rt = simpi_rt;
    return self || !rt || (rt->current >= 0 && !rt->in_mpi);
}

static void *thread_start(void *p) {
    struct start s = *(struct start *)p;
    free(p);
    thread_rank = s.rank;
    thread_key = s.key;
    double cpu = threads_own_cpu();
    pthread_mutex_lock(&list_lock);
    s.t->last = cpu; /* its CPU time before this point is not the program's */
    pthread_mutex_unlock(&list_lock);
    self = s.t;
    pthread_once(&key_once, make_key);
    pthread_setspecific(exit_key, s.t);
    gated = s.gated;
    starting = s.gated;
    thread_run();
    return s.fn(s.arg);
}

/* --thread-cores=one (the default): the program's threads run on one host
 * core, one at a time, so that each is measured alone, as ranks are: on
 * several host cores threads computing at once slow each other (two
 * hyperthreads of one core, a shared cache and memory bus) by an amount
 * that depends on this host. Done when the first thread starts; threads
 * started later inherit the core. A split run's workers take different
 * cores. */
static struct {
    bool wanted, done;
    int worker;
} pinning;

static void pin_threads(void) {
    if (!pinning.wanted || pinning.done) return;
    pinning.done = true;
    cpu_set_t allowed, one;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0 || CPU_COUNT(&allowed) <= 1) return;
    int pick = pinning.worker % CPU_COUNT(&allowed), cpu = 0;
    for (int seen = -1; cpu < CPU_SETSIZE; cpu++)
        if (CPU_ISSET(cpu, &allowed) && ++seen == pick) break;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    sched_setaffinity(0, sizeof one, &one);
    pthread_mutex_lock(&list_lock);
    for (struct tthread *t = list; t; t = t->next)
        if (t->ready && !t->dead) pthread_setaffinity_np(t->id, sizeof one, &one);
    pthread_mutex_unlock(&list_lock);
}

/* Whether code at addr is the program's (its executable), not a library's. */
static bool started_by_program(void *addr) {
    Dl_info at, prog;
    struct runtime *rt = simpi_rt;
    return rt && dladdr(addr, &at) && dladdr(*(void **)&rt->user_main, &prog) &&
           at.dli_fbase == prog.dli_fbase;
}

typedef int (*pthread_create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

int pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*fn)(void *), void *arg) {
    static pthread_create_fn real;
    if (!real) real = (pthread_create_fn)dlsym(RTLD_NEXT, "pthread_create");
    struct start *s = program_thread() ? malloc(sizeof *s) : NULL;
    if (!s) return real(thread, attr, fn, arg);
    if (on_main) {
        runtime_threads_starting(); /* the rank's clock becomes CPU time now */
        pin_threads();              /* the new thread inherits the main thread's core */
    }
    atomic_store(&any_thread, true);
    s->fn = fn;
    s->arg = arg;
    s->rank = on_main && simpi_rt ? simpi_rt->current : thread_rank;
    s->gated = s->rank >= 0 && started_by_program(__builtin_return_address(0));
    s->key = atomic_fetch_add(&next_pthread_key, 1);
    if (s->gated) gates_make();
    if (s->gated) s->gated = gate_starting(s->rank); /* not quiet until it runs */
    /* listed before it starts, so that a join finds it whatever it has
     * done yet */
    struct tthread *t = s->t = xcalloc(1, sizeof *t);
    pthread_mutex_lock(&list_lock);
    t->next = list;
    list = t;
    pthread_mutex_unlock(&list_lock);
    int rc = real(thread, attr, thread_start, s);
    pthread_mutex_lock(&list_lock);
    t->settled = true;
    if (rc == 0) {
        t->id = *thread;
        t->ready = pthread_getcpuclockid(*thread, &t->clock) == 0;
    } else {
        t->dead = true; /* never started: leaves the list at the next reading */
        free(s);
    }
    pthread_mutex_unlock(&list_lock);
    return rc;
}

/* A listed thread's waits on condition variables, marked so that the
 * readings of its clock can skip it while it waits (thread_cpu). */
typedef int (*cond_wait_fn)(pthread_cond_t *, pthread_mutex_t *);
typedef int (*cond_timedwait_fn)(pthread_cond_t *, pthread_mutex_t *, const struct timespec *);

int pthread_cond_wait(pthread_cond_t *cond, pthread_mutex_t *mutex) {
    static cond_wait_fn real;
    if (!real) real = (cond_wait_fn)dlsym(RTLD_NEXT, "pthread_cond_wait");
    struct tthread *me = self;
    if (me) atomic_fetch_add_explicit(&me->wait_seq, 1, memory_order_release);
    int rc = real(cond, mutex);
    if (me) atomic_fetch_add_explicit(&me->wait_seq, 1, memory_order_release);
    return rc;
}

int pthread_cond_timedwait(pthread_cond_t *cond, pthread_mutex_t *mutex,
                           const struct timespec *abstime) {
    static cond_timedwait_fn real;
    if (!real) real = (cond_timedwait_fn)dlsym(RTLD_NEXT, "pthread_cond_timedwait");
    struct tthread *me = self;
    if (me) atomic_fetch_add_explicit(&me->wait_seq, 1, memory_order_release);
    int rc = real(cond, mutex, abstime);
    if (me) atomic_fetch_add_explicit(&me->wait_seq, 1, memory_order_release);
    return rc;
}

/* ---- charging ---- */

double threads_makespan(double *work, size_t n, int64_t cores) {
    /* sorted ascending, the jobs end in that order; while m remain, each
     * runs at min(1, cores / m) */
    for (size_t i = 1; i < n; i++) { /* few jobs: insertion sort */
        double w = work[i];
        size_t j = i;
        for (; j > 0 && work[j - 1] > w; j--)
            work[j] = work[j - 1];
        work[j] = w;
    }
    double t = 0, done = 0;
    for (size_t i = 0; i < n; i++) {
        size_t m = n - i;
        double rate = (int64_t)m <= cores ? 1.0 : (double)cores / (double)m;
        if (work[i] > done) t += (work[i] - done) / rate;
        if (work[i] > done) done = work[i];
    }
    return t;
}

int64_t threads_rank_cores(int32_t rank) {
    struct runtime *rt = simpi_rt;
    if (!rt || !spans.node_ranks || rank < 0) return 1;
    return platform_rank_cores(rt->plat, spans.node_ranks[platform_node_of(rt->plat, rank)]);
}

static void add_job(size_t *n, double w) {
    if (*n == spans.jobs_cap) {
        spans.jobs_cap = spans.jobs_cap ? 2 * spans.jobs_cap : 16;
        spans.jobs = xrealloc_or_die(spans.jobs, spans.jobs_cap * sizeof *spans.jobs);
    }
    spans.jobs[(*n)++] = w > 0 ? w : 0;
}

/* A thread's CPU seconds now: its last reading when it has waited on a
 * condition variable since before that reading (blocked in the kernel, its
 * clock has not moved: OpenBLAS's idle helper threads, read at every MPI
 * call of every rank otherwise), else its clock, a system call. */
static double thread_cpu(struct tthread *t) {
    unsigned seq = atomic_load_explicit(&t->wait_seq, memory_order_acquire);
    if ((seq & 1) && t->read_known && seq == t->read_seq) return t->last;
    t->read_seq = seq;
    t->read_known = true;
    return cpu_of(t->clock);
}

/* Each other thread's work since the last reading, as jobs from index *n;
 * ended threads leave the list. */
static void collect_threads(size_t *n) {
    pthread_mutex_lock(&list_lock);
    for (struct tthread **p = &list; *p;) {
        struct tthread *t = *p;
        if (!t->settled) { /* its creator is still starting it */
            p = &t->next;
            continue;
        }
        /* an OpenMP worker's time outside regions is libgomp waking it and
         * putting it to sleep, which depends on this host, not work: its
         * clock is not read (with a pool per rank, thousands of threads) */
        double cpu = !spans.measure || !t->ready || t->omp_worker ? t->last
                     : t->dead                                    ? t->exit_cpu
                                                                  : thread_cpu(t);
        double measured = t->omp_worker ? 0 : cpu - t->last - t->region;
        double work = measured * spans.scale + t->charged;
        t->last = cpu;
        t->region = t->charged = 0;
        if (work > 0) add_job(n, work);
        if (t->dead) {
            *p = t->next;
            free(t);
        } else {
            p = &t->next;
        }
    }
    pthread_mutex_unlock(&list_lock);
}

double threads_span_end(int32_t rank, double main_cpu) {
    size_t n = 0;
    double serial = main_cpu - spans.main_in_regions;
    add_job(&n, serial * spans.scale);
    collect_threads(&n);
    double total = threads_makespan(spans.jobs, n, threads_rank_cores(rank)) + spans.regions;
    spans.regions = spans.main_in_regions = 0;
    return total;
}

double threads_span_peek(double main_cpu) {
    double serial = main_cpu - spans.main_in_regions;
    return (serial > 0 ? serial * spans.scale : 0) + spans.regions;
}

bool threads_absorb_charge(double target_seconds) {
    if (region_depth > 0) {
        region_charge += target_seconds;
        return true;
    }
    if (on_main) return false;
    if (self) {
        pthread_mutex_lock(&list_lock);
        self->charged += target_seconds;
        pthread_mutex_unlock(&list_lock);
    }
    return true;
}

/* ---- OpenMP parallel regions ---- */

/* The main thread's region state of ranks switched out inside a region
 * (an MPI call from the master); allocated at the first such switch. */
struct main_region_state {
    int depth, barriers;
    double charge, base, cpu0, charge0, slow;
    struct region *region;
    bool moved;
};
static struct main_region_state *saved_main;

/* ---- a rank's threads run only while it is the current rank ----
 * The program's globals hold the current rank's values (privatize.c), so a
 * thread of rank r may run the program's code only while r is the main
 * thread's current rank. Before the main thread leaves rank r (an MPI call
 * that waits, with a thread's call or the master's inside a region) it
 * waits for r's running threads to reach a point where they run no
 * program code (the end of their region's work, a barrier, an MPI call of
 * their own, a lock, their end); there they wait until r is current again.
 * This covers OpenMP team threads and the threads the program's own code
 * starts, not those a library starts (OpenBLAS's pool). */
struct rank_gate {
    int running;  /* threads of the rank running the program's code */
    int starting; /* the program's threads started but not running yet */
    bool open;    /* the rank is current: its threads may run */
    bool stuck;   /* a wait for them ran out, and none has paused since */
};
static struct rank_gate *gates;
#define GATE_PATIENCE_S 2.0 /* how long the main thread waits for a rank's threads */
static pthread_mutex_t gate_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_cond = PTHREAD_COND_INITIALIZER;
static bool warned_gate;

/* Made when first needed, on the main thread in a rank, whose gate opens
 * (the others open when they are switched to). */
static void gates_make(void) {
    struct runtime *rt = simpi_rt;
    if (gates || !rt || rt->n <= 0 || !on_main || rt->current < 0) return;
    gates = xcalloc((size_t)rt->n, sizeof *gates);
    gates[rt->current].open = true;
}

/* The calling thread is about to run the program's code. */
static void thread_run(void) {
    if (!gated || running || thread_rank < 0 || !gates) return;
    struct rank_gate *g = &gates[thread_rank];
    pthread_mutex_lock(&gate_lock);
    while (!g->open)
        pthread_cond_wait(&gate_cond, &gate_lock);
    g->running++;
    running = true;
    if (starting) {
        starting = false;
        g->starting--;
    }
    pthread_mutex_unlock(&gate_lock);
}

/* A thread of the rank is being started (false: no gates). */
static bool gate_starting(int32_t rank) {
    if (!gates) return false;
    pthread_mutex_lock(&gate_lock);
    gates[rank].starting++;
    pthread_mutex_unlock(&gate_lock);
    return true;
}

/* n threads of the rank are released (a call's end, a barrier): they are
 * not quiet until they run (thread_run with their `starting` set). */
void threads_rank_releases(int32_t rank, int n) {
    if (!gates || n <= 0) return;
    pthread_mutex_lock(&gate_lock);
    gates[rank].starting += n;
    pthread_mutex_unlock(&gate_lock);
}

void threads_released(void) {
    if (gated && gates) starting = true;
}

bool threads_thread_gated(void) {
    return gated && gates;
}

/* The calling thread runs no program code until its next thread_run. */
static void thread_pause(void) {
    if (!running) return;
    pthread_mutex_lock(&gate_lock);
    if (--gates[thread_rank].running == 0) gates[thread_rank].stuck = false;
    running = false;
    pthread_cond_broadcast(&gate_cond);
    pthread_mutex_unlock(&gate_lock);
}

bool threads_pause_calling(void) {
    if (!running) return false;
    thread_pause();
    return true;
}

void threads_resume_calling(void) {
    thread_run();
}

static void gate_open(int32_t rank) {
    if (!gates) return;
    pthread_mutex_lock(&gate_lock);
    gates[rank].open = true;
    pthread_cond_broadcast(&gate_cond);
    pthread_mutex_unlock(&gate_lock);
}

/* Closes the rank's gate and waits for its running threads to pause; one
 * that never does (blocked where simpi does not see it, or computing
 * forever) is left running after GATE_PATIENCE_S, with a warning, and not
 * waited for again until the rank's threads have all paused once. */
static void gate_close(int32_t rank) {
    if (!gates) return;
    struct rank_gate *g = &gates[rank];
    pthread_mutex_lock(&gate_lock);
    g->open = false;
    struct timespec until = vtime_host_deadline(g->stuck ? 0 : GATE_PATIENCE_S);
    while (g->running > 0)
        if (pthread_cond_timedwait(&gate_cond, &gate_lock, &until) != 0) break;
    bool stuck = g->stuck = g->running > 0;
    pthread_mutex_unlock(&gate_lock);
    if (stuck && !warned_gate) {
        warned_gate = true;
        fprintf(stderr,
                "simpi: warning: rank %d waits in MPI while %d of its threads keep running "
                "where simpi does not see them wait (a lock or condition of their own?); while "
                "other ranks run, those threads see the other ranks' globals (docs/hybrid.md)\n",
                rank, g->running);
    }
}

/* Under gate_lock, on the main thread in `rank`: none of its threads runs
 * the program's code or is about to (started, or woken for the region the
 * main thread is in, and not there yet). */
static bool quiet_locked(int32_t rank) {
    const struct rank_gate *g = &gates[rank];
    bool team_in = !cur_region || team_started(cur_region);
    return g->running == 0 && g->starting == 0 && team_in;
}

bool threads_rank_quiet(int32_t rank) {
    if (!gates) return true;
    pthread_mutex_lock(&gate_lock);
    bool quiet = quiet_locked(rank);
    pthread_mutex_unlock(&gate_lock);
    return quiet;
}

void threads_rank_settle(int32_t rank) {
    if (!gates) return;
    pthread_mutex_lock(&gate_lock);
    struct timespec until = vtime_host_deadline(GATE_PATIENCE_S);
    while (!quiet_locked(rank))
        if (pthread_cond_timedwait(&gate_cond, &gate_lock, &until) != 0) break;
    pthread_mutex_unlock(&gate_lock);
}

void threads_switch_out(int32_t rank) {
    gate_close(rank);
    if (!saved_main && region_depth == 0) return;
    if (!saved_main) saved_main = xcalloc((size_t)simpi_rt->n, sizeof *saved_main);
    saved_main[rank] = (struct main_region_state){region_depth, my_barriers, region_charge,
                                                  clock_base,   clock_cpu0,  clock_charge0,
                                                  clock_slow,   cur_region,  clock_moved};
    region_depth = my_barriers = 0;
    region_charge = 0;
    cur_region = NULL;
}

void threads_switch_in(int32_t rank) {
    gate_open(rank);
    if (!saved_main) return;
    region_depth = saved_main[rank].depth;
    my_barriers = saved_main[rank].barriers;
    region_charge = saved_main[rank].charge;
    clock_base = saved_main[rank].base;
    clock_cpu0 = saved_main[rank].cpu0;
    clock_charge0 = saved_main[rank].charge0;
    clock_slow = saved_main[rank].slow;
    cur_region = saved_main[rank].region;
    clock_moved = saved_main[rank].moved;
}

/* The team size inside a region (libgomp's, found by name). */
static int gomp_team_size(void) {
    static int (*get)(void);
    if (!get) *(void **)&get = dlsym(RTLD_DEFAULT, "omp_get_num_threads");
    return get ? get() : 1;
}

/* The caller's number in its team (libgomp's). */
static int gomp_thread_num(void) {
    static int (*get)(void);
    if (!get) *(void **)&get = dlsym(RTLD_DEFAULT, "omp_get_thread_num");
    return get ? get() : 0;
}

/* Whether other threads of ranks may call MPI (MPI_THREAD_SERIALIZED):
 * then the main thread may wait in the program's synchronisation only
 * where it can carry out their calls meanwhile (thread_calls.c). */
static bool serialized(void) {
    struct runtime *rt = simpi_rt;
    return rt && rt->running && rt->thread_provided >= MPI_THREAD_SERIALIZED;
}

#define REGION_SLOTS 256

struct region {
    void (*fn)(void *);
    void *data;
    int32_t rank;
    int team;            /* its threads, read by the main thread in it */
    atomic_int arrivals; /* at its barriers, by the other threads */
    atomic_int started;  /* its other threads that began their part */
    double vstart;       /* the rank's virtual time (seconds) when it began */
    double latest;       /* the latest of its threads' clocks at their part's end */
    atomic_int n;
    double call_start; /* the main thread's CPU clock when the region was entered */
    pthread_mutex_t lock;
    double work[REGION_SLOTS]; /* target seconds, one per team thread */
};

/* The function each thread of a measured team runs instead of the region's. */
/* The calling thread's virtual time in its region (seconds). */
static double thread_clock_now(void) {
    double cpu = spans.measure ? threads_own_cpu() - clock_cpu0 - spans.read_cost : 0;
    double work = (cpu > 0 ? cpu * spans.scale : 0) + region_charge - clock_charge0;
    return clock_base + (work > 0 ? work : 0) * clock_slow;
}

double threads_thread_vtime(void) {
    return cur_region && region_depth > 0 ? thread_clock_now() : -1;
}

void threads_call_ended(double end) {
    if (!cur_region || region_depth == 0) return;
    clock_base = end;
    clock_moved = true;
    clock_cpu0 = spans.measure ? threads_own_cpu() : 0;
    clock_charge0 = region_charge;
}

/* Whether the region's other threads all began their part. */
static bool team_started(struct region *r) {
    return atomic_load(&r->started) >= r->team - 1;
}

static bool others_done(void *arg) {
    struct region *r = arg;
    return atomic_load(&r->n) >= r->team - 1;
}

static void region_thread(void *arg) {
    struct region *r = arg;
    double t0 = spans.measure ? threads_own_cpu() : 0, saved = region_charge;
    struct region *outer = cur_region;
    int outer_barriers = my_barriers;
    region_depth++;
    region_charge = 0;
    cur_region = r;
    my_barriers = 0;
    if (!on_main) {
        thread_rank = r->rank;
        thread_key = gomp_thread_num();
        gated = true;
        thread_run();
        atomic_fetch_add(&r->started, 1);
    } else {
        r->team = gomp_team_size();
    }
    int64_t cores = threads_rank_cores(r->rank), team = gomp_team_size();
    clock_base = r->vstart;
    clock_moved = false;
    clock_cpu0 = t0;
    clock_charge0 = 0;
    clock_slow = team > cores ? (double)team / (double)cores : 1;
    r->fn(r->data);
    if (clock_moved) { /* its calls' time counts beside the region's work */
        double finish = thread_clock_now();
        pthread_mutex_lock(&r->lock);
        if (finish > r->latest) r->latest = finish;
        pthread_mutex_unlock(&r->lock);
    }
    thread_pause();
    /* the end of the region: its other threads may still need the main
     * thread to carry out their MPI calls */
    if (on_main && serialized()) thread_calls_wait(r->rank, others_done, r);
    cur_region = outer;
    my_barriers = outer_barriers;
    region_depth--;
    double t1 = spans.measure ? threads_own_cpu() : 0, cpu = t1 - t0 - spans.read_cost;
    if (on_main && spans.measure) {
        /* an MPI call in the region charged the main thread's work up to
         * its return (the rank's mark); the rest is the region's */
        struct runtime *rt = simpi_rt;
        const struct orank *o = &rt->ranks[rt->current];
        if (o->mark_cpu && o->cpu_mark > t0) cpu = t1 - o->cpu_mark;
    } else if (self) {
        pthread_mutex_lock(&list_lock);
        self->region += spans.measure ? cpu : 0;
        self->omp_worker = true;
        pthread_mutex_unlock(&list_lock);
    }
    double work = (cpu > 0 ? cpu * spans.scale : 0) + region_charge;
    region_charge = saved;
    int i = atomic_fetch_add(&r->n, 1);
    if (!on_main && serialized()) thread_calls_notify();
    if (i < REGION_SLOTS - 1) {
        r->work[i] = work;
        return;
    }
    pthread_mutex_lock(&r->lock); /* a team larger than the slots: the last one sums */
    r->work[REGION_SLOTS - 1] += work;
    pthread_mutex_unlock(&r->lock);
}

/* Whether this region is measured (one a rank starts on the main thread
 * and not inside another); fills r. */
static bool region_begin(struct region *r, void (*fn)(void *), void *data) {
    struct runtime *rt = simpi_rt;
    if (!on_main || !rt || !rt->running || rt->current < 0 || !spans.node_ranks) return false;
    if (region_depth > 0) return false; /* nested: part of the outer region's work */
    gates_make();
    r->fn = fn;
    r->data = data;
    r->rank = rt->current;
    r->team = 1;
    atomic_init(&r->arrivals, 0);
    atomic_init(&r->started, 0);
    atomic_init(&r->n, 0);
    r->vstart = simtime_to_seconds(runtime_virtual_now());
    r->latest = 0;
    r->call_start = spans.measure ? threads_own_cpu() : 0;
    pthread_mutex_init(&r->lock, NULL);
    for (int i = 0; i < REGION_SLOTS; i++)
        r->work[i] = 0;
    if (!threads_started()) { /* a team of one starts no thread, but its work is charged here */
        runtime_threads_starting();
        atomic_store(&any_thread, true);
    }
    return true;
}

static void region_end(struct region *r) {
    int n = atomic_load(&r->n);
    if (n > REGION_SLOTS) n = REGION_SLOTS;
    double makespan = threads_makespan(r->work, (size_t)n, threads_rank_cores(simpi_rt->current));
    if (spans.measure) {
        /* the whole call is the region's: its function's part is in the
         * makespan; starting the team and waiting for it (waking and
         * sleeping threads) is this host's cost, not charged. An MPI call
         * in the region charged the main thread's work up to its return. */
        const struct orank *o = &simpi_rt->ranks[simpi_rt->current];
        double start = o->mark_cpu && o->cpu_mark > r->call_start ? o->cpu_mark : r->call_start;
        spans.main_in_regions += threads_own_cpu() - start;
    }
    /* the region ends when its threads' work shared on the rank's cores
     * is done, or its last thread's clock if later (its MPI calls); what
     * the rank's calls inside it charged already counts */
    double end = r->vstart + makespan;
    if (r->latest > end) end = r->latest;
    double left = end - simtime_to_seconds(runtime_virtual_now());
    if (left > 0) spans.regions += left;
    pthread_mutex_destroy(&r->lock);
}

typedef void (*omp_fn)(void *);

typedef void (*parallel_fn)(omp_fn, void *, unsigned, unsigned);
typedef unsigned (*reductions_fn)(omp_fn, void *, unsigned, unsigned);
typedef void (*sections_fn)(omp_fn, void *, unsigned, unsigned, unsigned);
typedef void (*loop_fn)(omp_fn, void *, unsigned, long, long, long, long, unsigned);
typedef void (*loop_runtime_fn)(omp_fn, void *, unsigned, long, long, long, unsigned);

/* The next definition of `name` (libgomp's), found once. */
#define REAL(name, type)                                                                           \
    static type real;                                                                              \
    if (!real) *(void **)&real = dlsym(RTLD_NEXT, name)

/* Runs the real entry point `call` with the region's function and data
 * replaced by the measuring ones when the region is measured. */
#define MEASURED(call_fn, call_data, call)                                                         \
    do {                                                                                           \
        struct region r_;                                                                          \
        if (!region_begin(&r_, fn, data)) {                                                        \
            omp_fn call_fn = fn;                                                                   \
            void *call_data = data;                                                                \
            call;                                                                                  \
        } else {                                                                                   \
            omp_fn call_fn = region_thread;                                                        \
            void *call_data = &r_;                                                                 \
            call;                                                                                  \
            region_end(&r_);                                                                       \
        }                                                                                          \
    } while (0)

void GOMP_parallel(omp_fn fn, void *data, unsigned nthreads, unsigned flags) {
    REAL("GOMP_parallel", parallel_fn);
    MEASURED(f, d, real(f, d, nthreads, flags));
}

unsigned GOMP_parallel_reductions(omp_fn fn, void *data, unsigned nthreads, unsigned flags) {
    REAL("GOMP_parallel_reductions", reductions_fn);
    unsigned rc = 0;
    MEASURED(f, d, rc = real(f, d, nthreads, flags));
    return rc;
}

void GOMP_parallel_sections(omp_fn fn, void *data, unsigned nthreads, unsigned count,
                            unsigned flags) {
    REAL("GOMP_parallel_sections", sections_fn);
    MEASURED(f, d, real(f, d, nthreads, count, flags));
}

/* The combined parallel loops with a chunk size (static, dynamic, guided
 * and their nonmonotonic forms) and without (runtime schedules). */
#define PARALLEL_LOOP(name)                                                                        \
    void name(omp_fn fn, void *data, unsigned nthreads, long start, long end, long incr,           \
              long chunk, unsigned flags) {                                                        \
        REAL(#name, loop_fn);                                                                      \
        MEASURED(f, d, real(f, d, nthreads, start, end, incr, chunk, flags));                      \
    }
#define PARALLEL_LOOP_RUNTIME(name)                                                                \
    void name(omp_fn fn, void *data, unsigned nthreads, long start, long end, long incr,           \
              unsigned flags) {                                                                    \
        REAL(#name, loop_runtime_fn);                                                              \
        MEASURED(f, d, real(f, d, nthreads, start, end, incr, flags));                             \
    }

PARALLEL_LOOP(GOMP_parallel_loop_static)
PARALLEL_LOOP(GOMP_parallel_loop_dynamic)
PARALLEL_LOOP(GOMP_parallel_loop_guided)
PARALLEL_LOOP(GOMP_parallel_loop_nonmonotonic_dynamic)
PARALLEL_LOOP(GOMP_parallel_loop_nonmonotonic_guided)
PARALLEL_LOOP_RUNTIME(GOMP_parallel_loop_runtime)
PARALLEL_LOOP_RUNTIME(GOMP_parallel_loop_nonmonotonic_runtime)
PARALLEL_LOOP_RUNTIME(GOMP_parallel_loop_maybe_nonmonotonic_runtime)

/* ---- setup ---- */

/* Whether libgomp is loaded (the program was built with -fopenmp). */
static bool omp_present(void) {
    return dlsym(RTLD_NEXT, "GOMP_parallel") != NULL;
}

/* What one reading of the thread CPU clock costs in CPU time (a system
 * call on x86-64 Linux: 0.1 to 1 us), taken off each measured region
 * thread, whose two readings add about one: a region of a few
 * microseconds per thread would otherwise be mostly this host's clock. */
static double clock_read_cost(void) {
    enum { READS = 256 };
    double first = threads_own_cpu(), last = first;
    for (int i = 1; i < READS; i++)
        last = threads_own_cpu();
    return (last - first) / (READS - 1);
}

void threads_init(struct runtime *rt) {
    on_main = true;
    spans.measure = rt->cpu == CPU_MEASURE;
    pinning.wanted = spans.measure && !rt->thread_cores_all;
    pinning.worker = rt->workers ? workers_me(rt->workers) : 0;
    if (threads_started()) pin_threads(); /* threads started before main (OpenBLAS's) */
    spans.read_cost = spans.measure && (threads_started() || omp_present()) ? clock_read_cost() : 0;
    spans.scale = rt->cpu_scale;
    spans.plat = rt->plat;
    spans.node_ranks = xcalloc((size_t)rt->plat->nodes, sizeof *spans.node_ranks);
    for (int32_t r = 0; r < rt->n; r++)
        spans.node_ranks[platform_node_of(rt->plat, r)]++;
}

void threads_end(void) {
    free(spans.node_ranks);
    spans.node_ranks = NULL;
    free(spans.jobs);
    spans.jobs = NULL;
    free(saved_main);
    saved_main = NULL;
    /* the gates and critical sections stay: a rank's threads may still be
     * waiting on them when a run ends early (a deadlock, an error) */
    spans.jobs_cap = 0;
}

/* ---- where the main thread waits for the rank's other threads ----
 * Under MPI_THREAD_SERIALIZED a thread of the rank may be inside an MPI
 * call, which the main thread must carry out (thread_calls.c), while the
 * main thread waits for that thread: at a barrier, a critical section, an
 * OpenMP lock or a join. There the main thread waits in simpi, running the
 * rank's threads' calls meanwhile, and enters the real barrier only once
 * every other thread of the team is there (so it passes at once). */

typedef void (*void_fn)(void);
typedef bool (*bool_fn)(void);

static bool all_arrived(void *arg) {
    (void)arg;
    return atomic_load(&cur_region->arrivals) >= my_barriers * (cur_region->team - 1);
}

/* Before a barrier of the measured region this thread is in. */
static void barrier_arrive(void) {
    thread_pause(); /* run again once past the barrier (BARRIER) */
    if (!cur_region || !serialized()) return;
    my_barriers++;
    if (on_main) {
        thread_calls_wait(cur_region->rank, all_arrived, NULL);
        threads_rank_releases(cur_region->rank, cur_region->team - 1); /* the real barrier's */
    } else {
        starting_after_barrier = true;
        atomic_fetch_add(&cur_region->arrivals, 1);
        thread_calls_notify();
    }
}

/* Past the real barrier: counted as released by the main thread. */
static void barrier_leave(void) {
    if (starting_after_barrier) {
        starting_after_barrier = false;
        threads_released();
    }
    thread_run();
}

#define BARRIER(name)                                                                              \
    void name(void) {                                                                              \
        REAL(#name, void_fn);                                                                      \
        barrier_arrive();                                                                          \
        real();                                                                                    \
        barrier_leave();                                                                           \
    }
#define BARRIER_CANCEL(name)                                                                       \
    bool name(void) {                                                                              \
        REAL(#name, bool_fn);                                                                      \
        barrier_arrive();                                                                          \
        bool cancelled = real();                                                                   \
        barrier_leave();                                                                           \
        return cancelled;                                                                          \
    }

BARRIER(GOMP_barrier)
BARRIER(GOMP_loop_end)
BARRIER(GOMP_sections_end)
BARRIER_CANCEL(GOMP_barrier_cancel)
BARRIER_CANCEL(GOMP_loop_end_cancel)
BARRIER_CANCEL(GOMP_sections_end_cancel)

/* Critical sections are the rank's own (as in a process of its own) and
 * simpi's: libgomp's are one per process, so a rank switched out inside
 * one (an MPI call in it) left every other rank's critical sections shut,
 * and under SERIALIZED the main thread must be able to wait for one without
 * blocking. One lock per rank and name (the slot the compiler gives each
 * name; NULL for unnamed sections), made on first use. */

static atomic_int *critical_of(void *name) {
    int32_t rank = on_main ? simpi_rt->current : thread_rank;
    pthread_mutex_lock(&list_lock);
    struct critical *c = criticals;
    while (c && (c->name != name || c->rank != rank))
        c = c->next;
    if (!c) {
        c = xcalloc(1, sizeof *c);
        c->name = name;
        c->rank = rank;
        c->next = criticals;
        criticals = c;
    }
    pthread_mutex_unlock(&list_lock);
    return &c->held;
}

static bool critical_taken(void *arg) {
    int expected = 0;
    return atomic_compare_exchange_strong((atomic_int *)arg, &expected, 1);
}

/* Whether the caller is a rank's thread: then simpi's locks. */
static bool rank_critical(void) {
    struct runtime *rt = simpi_rt;
    return rt && rt->running && (on_main ? rt->current >= 0 : thread_rank >= 0);
}

static void critical_enter(void *name) {
    atomic_int *held = critical_of(name);
    if (on_main && serialized()) {
        thread_calls_wait(simpi_rt->current, critical_taken, held);
        return;
    }
    if (critical_taken(held)) return;
    thread_pause();
    while (!critical_taken(held))
        sched_yield(); /* held by a thread running now (or the main thread, in MPI) */
    thread_run();
}

static void critical_leave(void *name) {
    atomic_store(critical_of(name), 0);
    if (serialized()) thread_calls_notify();
}

void GOMP_critical_start(void) {
    REAL("GOMP_critical_start", void_fn);
    if (rank_critical())
        critical_enter(NULL);
    else
        real();
}

void GOMP_critical_end(void) {
    REAL("GOMP_critical_end", void_fn);
    if (rank_critical())
        critical_leave(NULL);
    else
        real();
}

typedef void (*named_fn)(void **);

void GOMP_critical_name_start(void **slot) {
    REAL("GOMP_critical_name_start", named_fn);
    if (rank_critical())
        critical_enter(slot);
    else
        real(slot);
}

void GOMP_critical_name_end(void **slot) {
    REAL("GOMP_critical_name_end", named_fn);
    if (rank_critical())
        critical_leave(slot);
    else
        real(slot);
}

/* OpenMP locks taken by the main thread; their release is announced. */
typedef void (*lock_fn)(void *);
typedef int (*test_lock_fn)(void *);

static bool lock_taken(void *lock) {
    static test_lock_fn test;
    if (!test) *(void **)&test = dlsym(RTLD_DEFAULT, "omp_test_lock");
    return test((void *)lock) != 0;
}

void omp_set_lock(void *lock) {
    REAL("omp_set_lock", lock_fn);
    if (on_main && serialized()) {
        thread_calls_wait(simpi_rt->current, lock_taken, lock);
        return;
    }
    thread_pause();
    real(lock);
    thread_run();
}

void omp_unset_lock(void *lock) {
    REAL("omp_unset_lock", lock_fn);
    real(lock);
    if (serialized()) thread_calls_notify();
}

/* A join by the main thread waits until the thread has ended. */
static bool thread_gone(void *arg) {
    pthread_t id = *(pthread_t *)arg;
    bool gone = true; /* a thread simpi does not know: the real join decides */
    pthread_mutex_lock(&list_lock);
    for (struct tthread *t = list; t; t = t->next)
        if (t->ready && pthread_equal(t->id, id)) gone = t->dead;
    pthread_mutex_unlock(&list_lock);
    return gone;
}

typedef int (*join_fn)(pthread_t, void **);

int pthread_join(pthread_t thread, void **result) {
    REAL("pthread_join", join_fn);
    if (on_main && serialized()) thread_calls_wait(simpi_rt->current, thread_gone, &thread);
    thread_pause();
    int rc = real(thread, result);
    thread_run();
    return rc;
}

void threads_call_pause(void) {
    thread_pause();
}

void threads_call_resume(void) {
    thread_run();
}
