/* SPDX-License-Identifier: BSD-3-Clause */
/* The on-line runtime's side of a split run (see split.h): the workers
 * forked before any rank starts, the simulation made one of them, the
 * front end's messages between them, and each worker's end. */
#define _GNU_SOURCE /* RTLD_DEFAULT, fopencookie */
#include "online/split.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/digest.h"
#include "core/rankdir.h"
#include "core/workers.h"
#include "online/coll_data.h"
#include "report/summary.h"

/* --- the ranks' standard output, in one process's order --- */

/* A piece of a rank's output: when (its event's virtual time), whose, and
 * its place among that rank's pieces; the bytes follow when it crosses. */
struct out_head {
    simtime_t t;
    int32_t rank;
    uint32_t seq;
    uint64_t len;
    int32_t fd; /* 1: standard output, 2: standard error */
    int32_t pad;
};

struct out_piece {
    struct out_head h;
    char *data;
};

static struct out_piece *pending; /* the first worker's, not written yet */
static size_t npending, cap_pending;
static uint32_t *out_count; /* per rank */

static void write_all_out(int fd, const char *p, size_t n) {
    while (n > 0) {
        ssize_t w = runtime_libc_write(fd, p, n);
        if (w <= 0) return; /* a closed pipe: nothing more to do */
        p += w;
        n -= (size_t)w;
    }
}

static void keep_piece(const struct out_head *h, const void *data) {
    if (npending == cap_pending) {
        cap_pending = cap_pending ? 2 * cap_pending : 64;
        pending = xrealloc_or_die(pending, sizeof *pending * cap_pending);
    }
    struct out_piece *o = &pending[npending++];
    o->h = *h;
    o->data = xmalloc(h->len + 1);
    memcpy(o->data, data, h->len);
}

static int piece_order(const void *a, const void *b) {
    const struct out_head *x = &((const struct out_piece *)a)->h,
                          *y = &((const struct out_piece *)b)->h;
    if (x->t != y->t) return x->t < y->t ? -1 : 1;
    if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

/* The first worker writes the pieces before `end` (all of them: NEVER). */
static void write_pending(simtime_t end) {
    if (!npending) return;
    qsort(pending, npending, sizeof *pending, piece_order);
    size_t done = 0;
    for (; done < npending && pending[done].h.t < end; done++) {
        write_all_out(pending[done].h.fd, pending[done].data, pending[done].h.len);
        free(pending[done].data);
    }
    memmove(pending, pending + done, sizeof *pending * (npending - done));
    npending -= done;
}

bool split_output(int fd, const void *buf, size_t len) {
    struct runtime *rt = simpi_rt;
    if (!rt || !rt->workers || !runtime_in_rank() || !runtime_on_main_thread() || rt->in_mpi ||
        len == 0) /* (a thread of a rank's writes directly) */
        return false;
    if (!out_count) out_count = xcalloc((size_t)rt->n, sizeof *out_count);
    struct out_head h = {sim_now(rt->sim), rt->current, out_count[rt->current]++, len, fd, 0};
    if (sim_reports(rt->sim)) {
        keep_piece(&h, buf);
    } else {
        struct sim_piece msg[] = {{&h, sizeof h}, {buf, len}};
        runtime_post_front(FRONT_OUTPUT, 0, msg, 2);
    }
    return true;
}

static void take_output(const void *msg, uint32_t len) {
    struct out_head h;
    if (len < sizeof h) return;
    memcpy(&h, msg, sizeof h);
    if (h.len > len - sizeof h) return;
    keep_piece(&h, (const char *)msg + sizeof h);
}

void split_window_done(void *ctx, simtime_t end) {
    struct runtime *rt = ctx;
    if (rt->workers && sim_reports(rt->sim)) write_pending(end);
    runtime_stop_if_escaped(rt);
}

/* stdout and stderr as the ranks see them in a split run: streams whose
 * writes go through split_output (stdout a line at a time, stderr at once,
 * as the C library buffers them on a terminal). */
static ssize_t stdout_write(void *cookie, const char *buf, size_t size) {
    (void)cookie;
    if (!split_output(1, buf, size)) write_all_out(1, buf, size);
    return (ssize_t)size;
}

static ssize_t stderr_write(void *cookie, const char *buf, size_t size) {
    (void)cookie;
    if (!split_output(2, buf, size)) write_all_out(2, buf, size);
    return (ssize_t)size;
}

static void capture_output(void) {
    fflush(stdout);
    cookie_io_functions_t out = {.write = stdout_write}, err = {.write = stderr_write};
    FILE *f = fopencookie(NULL, "w", out), *e = fopencookie(NULL, "w", err);
    if (f) { /* else each worker writes its ranks' lines itself */
        setvbuf(f, NULL, _IOLBF, 0);
        stdout = f;
    }
    if (e) {
        setvbuf(e, NULL, _IONBF, 0);
        stderr = e;
    }
}

/* --- what the host did to each worker's measurements --- */

struct host_part { /* a worker's host figures, as they cross */
    uint64_t readings, exact;
    double cpu, elapsed, waited, wall;
    int64_t images, remap_faults;
    double remap_kernel;
};

static struct host_part others; /* the first worker: the others', summed */
static int others_count;

static void post_host(void) {
    struct host_figures h;
    runtime_host_figures(&h);
    struct host_part p = {h.readings, h.exact,  h.cpu,          h.elapsed,     h.waited,
                          h.wall,     h.images, h.remap_faults, h.remap_kernel};
    struct sim_piece piece = {&p, sizeof p};
    runtime_post_front(FRONT_HOST, 0, &piece, 1);
}

static void take_host(const void *msg, uint32_t len) {
    struct host_part p;
    if (len < sizeof p) return;
    memcpy(&p, msg, sizeof p);
    others.readings += p.readings;
    others.exact += p.exact;
    others.cpu += p.cpu;
    others.elapsed += p.elapsed;
    others.waited += p.waited > 0 ? p.waited : 0;
    others.wall += p.wall;
    others.images += p.images;
    others.remap_faults += p.remap_faults;
    others.remap_kernel += p.remap_kernel;
    others_count++;
}

void split_add_host(struct host_figures *h) {
    h->readings += others.readings;
    h->exact += others.exact;
    h->cpu += others.cpu;
    h->elapsed += others.elapsed;
    if (h->waited >= 0) h->waited += others.waited;
    h->wall += others.wall;
    h->images += (int32_t)others.images;
    h->remap_faults += others.remap_faults;
    h->remap_kernel += others.remap_kernel;
    h->workers += others_count;
}

/* A split run's worker, once its ranks are done (sim_driver.ending): their
 * output is out before the first worker prints the summary, and its exit
 * statuses go with its figures. */
void split_ending(void *ctx) {
    struct runtime *rt = ctx;
    if (!sim_reports(rt->sim)) sim_record_flush(rt->sim); /* the first commits the folder */
    fflush(NULL);
    if (sim_reports(rt->sim)) write_pending(SIMTIME_NEVER); /* every worker's have come */
    /* Fortran units have buffers of their own, which a worker's _exit
     * would lose (the FLUSH statement without a unit) */
    void (*gfortran_flush)(int *) = (void (*)(int *))dlsym(RTLD_DEFAULT, "_gfortran_flush_i4");
    if (gfortran_flush) gfortran_flush(NULL);
    sim_set_exit_codes(rt->sim, rt->end.forced_status, rt->end.rank_status);
    if (!sim_reports(rt->sim)) post_host();
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
    if (kind == FRONT_OUTPUT) take_output(body, len - (uint32_t)sizeof kind);
    if (kind == FRONT_FILE_OPENED) io_take_opened(body, len - (uint32_t)sizeof kind);
    if (kind == FRONT_HOST) take_host(body, len - (uint32_t)sizeof kind);
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
    rt->end.forced_status = forced;
    rt->end.rank_status = rank_status;
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
    /* the ranks' output goes to the first worker, a line at a time, which
     * writes it in the order one process would (split_output) */
    if (rt->workers) capture_output();
    return rt->workers != NULL;
}

bool split_agree(struct runtime *rt, uint64_t options, struct sim_error *err) {
    if (!rt->workers) return true;
    uint64_t command = digest_string(DIGEST_START, "simpi run");
    uint64_t program = digest_path(DIGEST_START, "/proc/self/exe");
    for (int i = 1; i < rt->argc; i++)
        program = digest_string(program, rt->argv[i]);
    struct workers_fact facts[WORKERS_FACTS] = {
        {"command", "(simpi run, simpi replay)", command},
        {"rank count", "(-n)", digest_bytes(DIGEST_START, &rt->n, sizeof rt->n)},
        {"program or trace", "(a different build, arguments or trace?)", program},
        {"platform, as resolved", "(a different --platform or --set?)", platform_digest(rt->plat)},
        {"options", "(--cpu, --host-speed, --check, --time-limit, --placement...)", options}};
    return workers_agree(rt->workers, facts, err);
}

/* Another worker died (a signal handler: workers_watch): the message said
 * why; simpi run writes the --json with it (this process cannot, safely,
 * in a signal handler). */
void split_lost_worker(void *ctx, const char *why) {
    struct runtime *rt = ctx;
    if (rt->done_fd >= 0) { /* simpi run writes the --json */
        runtime_tell_lost(rt, why);
        return;
    }
    struct sim_error err = {0}; /* under a launcher: here (not in a signal handler) */
    if (rt->json && !summary_write_failure_json(rt->json, rt->app, 1, why, &err)) err_print(&err);
}

static void split_lost(const char *why) {
    runtime_tell_lost(simpi_rt, why);
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
