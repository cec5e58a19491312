/* The on-line runtime: settings, contexts, the scheduler loop, CPU-burst
 * measurement, rank start and end, and the final summary. */
#define _GNU_SOURCE /* RTLD_NEXT */
#include "online/runtime.h"

#include <dlfcn.h>

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/memstat.h"
#include "core/pool.h"
#include "core/units.h"
#include "online/api.h"
#include "online/globals.h"
#include "online/privatize.h"
#include "report/summary.h"

struct runtime *simpi_rt;

static double thread_cpu(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int32_t runtime_rank(void) {
    return simpi_rt->current;
}

void runtime_block(void) {
    struct runtime *rt = simpi_rt;
    ctx_switch(&rt->ranks[rt->current].ctx, &rt->scheduler);
}

void runtime_enter(void) {
    struct runtime *rt = simpi_rt;
    if (!rt || rt->current < 0) return;
    struct orank *o = &rt->ranks[rt->current];
    double burst = thread_cpu() - o->cpu_mark;
    if (rt->cpu == CPU_MEASURE && burst > 0 && !o->finalized) {
        simtime_t t = simtime_from_seconds(burst * rt->cpu_scale);
        if (!sim_compute(rt->sim, rt->current, t)) runtime_block();
    }
}

void runtime_leave(void) {
    struct runtime *rt = simpi_rt;
    if (rt && rt->current >= 0) rt->ranks[rt->current].cpu_mark = thread_cpu();
}

void runtime_wait(struct request **reqs, int n, bool any) {
    struct runtime *rt = simpi_rt;
    if (!sim_wait(rt->sim, rt->current, reqs, n, any)) runtime_block();
}

_Noreturn void runtime_abort(const char *fmt, ...) {
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    struct runtime *rt = simpi_rt;
    char tb[48];
    sim_fail(rt->sim, "rank %d at virtual time %s: %s", rt->current,
             units_format_time(sim_now(rt->sim), tb, sizeof tb), msg);
    rt->ranks[rt->current].done = 1;
    for (;;)
        runtime_block();
}

/* A rank's context: runs the user's main, then never returns. */
static void rank_entry(void *arg) {
    ctx_entered();
    struct runtime *rt = simpi_rt;
    int32_t r = (int32_t)(intptr_t)arg;
    /* each rank gets its own argv array (programs may modify it) */
    char **argv = rt->argv_copies + (size_t)r * ((size_t)rt->argc + 1);
    memcpy(argv, rt->argv, sizeof *argv * (size_t)rt->argc);
    rt->ranks[r].cpu_mark = thread_cpu();
    rt->user_main(rt->argc, argv);
    if (!rt->ranks[r].finalized) {
        if (rt->ranks[r].initialized)
            runtime_abort("returned from main without calling MPI_Finalize");
        sim_finish(rt->sim, r); /* a rank that never used MPI */
    }
    rt->ranks[r].done = 1;
    for (;;)
        runtime_block();
}

static void resume(void *ctx, int32_t rank) {
    struct runtime *rt = ctx;
    if (rt->ranks[rank].done) return;
    rt->current = rank;
    if (rt->privatize) privatize_load(rank);
    ctx_switch(&rt->scheduler, &rt->ranks[rank].ctx);
    if (rt->privatize) privatize_save(rank);
    rt->current = -1;
    if (!stacks_canary_intact(&rt->stacks, rank)) {
        fprintf(stderr,
                "simpi: error: rank %d overflowed its stack of %zu bytes; rerun with a larger "
                "--stack-size\n",
                rank, rt->stacks.size);
        exit(4);
    }
}

/* A crash inside a rank (segmentation fault, bus error, illegal instruction,
 * arithmetic error) is reported with the rank and the virtual time; a fault
 * in a guard page is a stack overflow. Runs on its own signal stack. */
static void on_crash(int sig, siginfo_t *info, void *uctx) {
    (void)uctx;
    struct runtime *rt = simpi_rt;
    char msg[512], tb[48];
    int64_t owner = rt ? stacks_guard_owner(&rt->stacks, info->si_addr) : -1;
    if (owner >= 0)
        snprintf(msg, sizeof msg,
                 "simpi: error: rank %lld overflowed its stack of %zu bytes at virtual time %s; "
                 "rerun with a larger --stack-size\n",
                 (long long)owner, rt->stacks.size,
                 units_format_time(sim_now(rt->sim), tb, sizeof tb));
    else if (rt && rt->current >= 0)
        snprintf(msg, sizeof msg,
                 "simpi: error: rank %d crashed (%s at address %p) at virtual time %s\n",
                 rt->current, strsignal(sig), info->si_addr,
                 units_format_time(sim_now(rt->sim), tb, sizeof tb));
    else
        snprintf(msg, sizeof msg, "simpi: error: the simulator crashed (%s)\n", strsignal(sig));
    if (write(2, msg, strlen(msg)) < 0) _exit(5);
    _exit(4);
}

/* exit() called by a rank ends that rank, as it would end one process of a
 * real MPI job: after MPI_Finalize (or without ever using MPI) the rank is
 * simply done; before it, the run stops with an error, as mpirun would.
 * Outside a rank (simpi itself, or the program before or after the
 * simulation) it is the C library's exit. */
static _Noreturn void libc_exit(int status) {
    void (*real)(int) = (void (*)(int))dlsym(RTLD_NEXT, "exit");
    if (real) real(status);
    _exit(status);
}

void exit(int status) {
    struct runtime *rt = simpi_rt;
    if (!rt || rt->current < 0 || rt->ranks[rt->current].done) libc_exit(status);
    int32_t r = rt->current;
    struct orank *o = &rt->ranks[r];
    if (o->initialized && !o->finalized)
        runtime_abort("called exit(%d) before MPI_Finalize", status);
    if (!o->initialized) sim_finish(rt->sim, r);
    if (status != 0) {
        fprintf(stderr, "simpi: rank %d called exit(%d) after MPI_Finalize\n", r, status);
        rt->exit_status = status;
    }
    o->done = 1;
    for (;;)
        runtime_block();
}

static void install_crash_handlers(void) {
    static char altstack[64 * 1024];
    stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack};
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_crash;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaction(sigs[i], &sa, NULL);
}

/* Warns once when the program has writable globals: all ranks share them. */
static void warn_globals(void) {
    struct globals_info g = globals_scan(NULL, NULL);
    if (g.count == 0) return;
    fprintf(stderr,
            "simpi: warning: the program has %d writable global variable%s (%lld bytes:", g.count,
            g.count > 1 ? "s" : "", (long long)g.bytes);
    for (int i = 0; i < g.count && i < GLOBALS_NAMED; i++)
        fprintf(stderr, "%s %s", i ? "," : "", g.names[i]);
    fprintf(stderr,
            "%s); all ranks share them, as they run in one address space: per-rank state "
            "kept there will be wrong unless you run with --privatize (docs/online.md)\n",
            g.count > GLOBALS_NAMED ? ", ..." : "");
}

static const char *env_or(const char *name, const char *fallback) {
    const char *v = getenv(name);
    return v && *v ? v : fallback;
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

static bool configure(struct runtime *rt, struct sim_error *err) {
    rt->n = (int32_t)atol(env_or("SIMPI_NP", "1"));
    if (rt->n < 1) return err_set(err, "SIMPI_NP must be a positive number of ranks");
    char *sets_text = xstrdup(env_or("SIMPI_SET", ""));
    const char **sets;
    int nsets = split_sets(sets_text, &sets);
    rt->plat = platform_load(getenv("SIMPI_PLATFORM"), sets, nsets, err);
    free(sets);
    free(sets_text);
    if (!rt->plat || !network_init(&rt->net, rt->plat->conf, err)) return false;
    rt->cpu = !strcmp(env_or("SIMPI_CPU", "measure"), "ignore") ? CPU_IGNORE : CPU_MEASURE;
    double host = 0;
    const char *hs = getenv("SIMPI_HOST_SPEED");
    if (hs && !units_parse_flops(hs, &host, NULL))
        return err_set(err, "--host-speed: found '%s', expected a flop rate such as 2Gf", hs);
    if (rt->plat->flop_rate > 0)
        rt->cpu_scale = (host > 0 ? host : PLATFORM_REFERENCE_FLOP_RATE) / rt->plat->flop_rate;
    else
        rt->cpu_scale = 1.0 / rt->plat->speed;
    rt->json = getenv("SIMPI_JSON");
    rt->quiet = getenv("SIMPI_QUIET") != NULL;
    rt->privatize = getenv("SIMPI_PRIVATIZE") != NULL;
    return true;
}

static bool start_ranks(struct runtime *rt, struct sim_error *err) {
    int64_t stack = 0;
    if (!units_parse_size(env_or("SIMPI_STACK_SIZE", "256KiB"), true, false, &stack, NULL) ||
        stack < 16384)
        return err_set(err, "--stack-size: expected a size of at least 16KiB");
    bool guards = stacks_guards_affordable(rt->n);
    if (!stacks_alloc(&rt->stacks, rt->n, (size_t)stack, guards))
        return err_set(err, "cannot reserve %lld stacks of %lld bytes", (long long)rt->n,
                       (long long)stack);
    rt->ranks = xcalloc((size_t)rt->n, sizeof *rt->ranks);
    pool_init(&rt->request_pool, sizeof(struct simpi_request), 256);
    rt->argv_copies = xcalloc((size_t)rt->n * ((size_t)rt->argc + 1), sizeof *rt->argv_copies);
    for (int32_t i = 0; i < rt->n; i++) {
        stacks_set_canary(&rt->stacks, i);
        ctx_init(&rt->ranks[i].ctx, (char *)stacks_at(&rt->stacks, i) + 64, rt->stacks.size - 64,
                 rank_entry, (void *)(intptr_t)i);
    }
    return true;
}

static int finish(struct runtime *rt, enum sim_status st) {
    int rc = st == SIM_OK ? rt->exit_status : sim_exit_code(st);
    struct run_info info = {rt->app,
                            rt->plat->source,
                            rt->plat->nodes,
                            0,
                            0,
                            memstat_wall_seconds() - rt->wall_start,
                            st,
                            rc};
    fflush(stdout);
    if (st != SIM_OK) fprintf(stderr, "simpi: error: %s", sim_failure_report(rt->sim));
    if (!rt->quiet) summary_print(stderr, rt->sim, &info);
    struct sim_error err = {0};
    if (rt->json && !summary_write_json(rt->json, rt->sim, &info, &err)) {
        err_print(&err);
        if (rc == 0) rc = 1;
    }
    return rc;
}

int runtime_main(int argc, char **argv, int (*user_main)(int, char **)) {
    static struct runtime rt;
    struct sim_error err = {0};
    simpi_rt = &rt;
    rt.current = -1;
    rt.argc = argc;
    rt.argv = argv;
    rt.user_main = user_main;
    rt.app = argv[0];
    rt.wall_start = memstat_wall_seconds();
    struct sim_driver drv = {resume, &rt};
    if (!configure(&rt, &err) || !(rt.sim = sim_create(rt.plat, &rt.net, rt.n, &drv, &err)) ||
        !start_ranks(&rt, &err)) {
        err_print(&err);
        return 1;
    }
    if (!getenv("SIMPI_NO_CRASH_HANDLER")) install_crash_handlers();
    if (rt.privatize) {
        int64_t bytes = privatize_init(rt.n);
        if (!rt.quiet)
            fprintf(stderr, "simpi: privatizing %lld bytes of globals for each of %d ranks\n",
                    (long long)bytes, rt.n);
    } else if (rt.n > 1) {
        warn_globals();
    }
    enum sim_status st = sim_run(rt.sim);
    int rc = finish(&rt, st);
    sim_destroy(rt.sim);
    stacks_free(&rt.stacks);
    free(rt.ranks);
    free(rt.argv_copies);
    if (rt.privatize) privatize_end();
    pool_destroy(&rt.request_pool);
    network_destroy(&rt.net);
    platform_free(rt.plat);
    return rc;
}
