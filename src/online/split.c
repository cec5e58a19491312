/* The on-line runtime's side of a split run (see split.h): the workers
 * forked before any rank starts, the simulation made one of them, the
 * front end's messages between them, and each worker's end. */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include "online/split.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/rankdir.h"
#include "core/workers.h"
#include "online/coll_data.h"

/* A split run's worker, once its ranks are done (sim_driver.ending): their
 * output is out before the first worker prints the summary, and its exit
 * statuses go with its figures. */
void split_ending(void *ctx) {
    struct runtime *rt = ctx;
    if (!sim_reports(rt->sim)) sim_record_flush(rt->sim); /* the first commits the folder */
    fflush(NULL);
    /* Fortran units have buffers of their own, which a worker's _exit
     * would lose (the FLUSH statement without a unit) */
    void (*gfortran_flush)(int *) = (void (*)(int *))dlsym(RTLD_DEFAULT, "_gfortran_flush_i4");
    if (gfortran_flush) gfortran_flush(NULL);
    sim_set_exit_codes(rt->sim, rt->forced_status, rt->rank_status);
}

/* What another worker's ranks did to this one's (sim_driver.front). */
void split_front(void *ctx, const void *msg, uint32_t len) {
    (void)ctx;
    uint64_t kind; /* then the message, 8-byte aligned */
    if (len < sizeof kind) return;
    memcpy(&kind, msg, sizeof kind);
    const char *body = (const char *)msg + sizeof kind;
    if (kind == FRONT_COLL_DATA) coll_data_take(body, len - (uint32_t)sizeof kind);
    if (kind == FRONT_GRAPH_EDGES) graph_take_edges(body, len - (uint32_t)sizeof kind);
}

void runtime_refuse_split(const char *what) {
    if (simpi_rt && simpi_rt->workers)
        runtime_abort("%s is not simulated in a split run yet; run without --procs", what);
}

void runtime_post_front(enum front_kind kind, int to, const struct sim_piece *pieces, int n) {
    uint64_t k = kind;
    struct sim_piece all[8] = {{&k, sizeof k}};
    for (int i = 0; i < n && i < 7; i++)
        all[i + 1] = pieces[i];
    sim_post_front(simpi_rt->sim, to, all, (n < 7 ? n : 7) + 1);
}

/* After a split run: the other workers end here (the first reports); the
 * first takes their exit statuses. */
void split_end(struct runtime *rt) {
    if (!sim_reports(rt->sim)) {
        struct sim_error err = {0};
        runtime_tell_done(rt);             /* under a launcher, its own simpi run waits for it */
        workers_end(rt->workers, 0, &err); /* does not return */
    }
    int forced, rank_status;
    sim_exit_codes(rt->sim, &forced, &rank_status);
    rt->forced_status = forced;
    rt->rank_status = rank_status;
}

/* --procs K (docs/parallel.md): K - 1 more processes, each of which will
 * run the ranks of its block of nodes; what one worker cannot do is refused
 * here, before any rank starts. */
bool split_fork(struct runtime *rt, const struct split_opts *o, struct sim_error *err) {
    if (o->procs < 2 && !o->transport) return true;
    if (o->trace_out && o->transport)
        return err_set(err, "--trace-out is not written by a run split over a launcher's "
                            "processes (each host would hold part of the folder); run it with "
                            "--procs on one machine");
    /* every worker records its ranks into one staging folder */
    if (o->trace_out && !rankdir_begin(&rt->trace_stage, o->trace_out, "--trace-out", err))
        return false;
    /* under a launcher (mpirun, srun), its processes are the workers,
     * exchanging through the MPI helper simpi run found */
    rt->workers = o->transport ? workers_join(o->transport, err) : workers_fork(o->procs, err);
    /* every worker writes its ranks' output itself: a line at a time, so
     * that lines of different workers never splice (docs/parallel.md) */
    if (rt->workers) setvbuf(stdout, NULL, _IOLBF, 0);
    return rt->workers != NULL;
}

/* Another worker died (a signal handler: workers_watch): simpi run need not
 * add that the process ended before its report, the message said why. */
static void split_lost(void) {
    runtime_tell_done(simpi_rt);
    runtime_exit_now(1); /* not the program's _exit, which ends a rank */
}

/* Makes the simulation one worker of the split run; the others run their
 * ranks quietly and hand everything to the first, which reports. */
bool split_join(struct runtime *rt, const struct split_opts *o, struct sim_error *err) {
    if (!rt->workers) return true;
    if (!sim_split(rt->sim, rt->workers, o->cyclic ? SIM_PLACE_CYCLIC : SIM_PLACE_BLOCK, err))
        return false;
    coll_data_split(rt->sim);
    if (workers_me(rt->workers) == 0) {
        /* a worker that dies while this one's ranks compute ends the run */
        workers_watch(rt->workers, split_lost);
        return true;
    }
    rt->quiet = true;
    rt->json = NULL;
    if (!o->transport) { /* forked: the first says when the report is out */
        if (rt->done_fd >= 0) close(rt->done_fd);
        rt->done_fd = -1;
    } /* else this process's own simpi run waits for it */
    return true;
}

/* --trace-out: in a split run, into the folder staged before the fork. */
bool split_start_recording(struct runtime *rt, const char *trace_out, struct sim_error *err) {
    if (!trace_out) return true;
    if (!rt->workers) return sim_record_start(rt->sim, trace_out, err);
    sim_record_start_staged(rt->sim, &rt->trace_stage);
    return true;
}
