/* SPDX-License-Identifier: BSD-3-Clause */
/* libsimpi-trace.so: a PMPI interposition library for a real MPI (built
 * against the system's, e.g. Open MPI) that writes each rank's activity as
 * a simpi native trace (docs/interop.md): `simpi trace -o DIR -- mpirun
 * -np 16 ./app` preloads it with SIMPI_TRACE_DIR=DIR, and each rank writes
 * DIR/rank<R>.trace, which `simpi replay DIR` replays on any platform.
 * - CPU bursts: the time between the end of one traced MPI call and the
 *   start of the next (CLOCK_MONOTONIC, in nanoseconds; with
 *   SIMPI_TRACE_CLOCK=cpu the thread's CPU time, which a rank descheduled by
 *   an oversubscribed host does not accumulate) and, where the
 *   kernel and CPU count them (perf_event_open; SIMPI_TRACE_INSTRUCTIONS=0
 *   turns it off), the user-mode instructions retired in it;
 * - point-to-point calls with sizes (count x type size), peers, tags and
 *   communicators; non-blocking ones with request ids, and the waits and
 *   successful tests that complete them;
 * - collectives with their sizes, roots and per-rank counts;
 * - communicators made by MPI_Comm_split and MPI_Comm_dup, and those of
 *   topologies, MPI_Comm_split_type and MPI_Comm_create as the splits that
 *   make them (others are not traced, nor the calls on them: then the
 *   trace ends with an `incomplete` record saying how many, which replay
 *   refuses and simpi trace reports);
 * - MPI-IO reads and writes (blocking; explicit offset, individual
 *   pointer, collective) as file_io records of their sizes, each with its
 *   wait, a collective one after a barrier of the file's communicator, as
 *   simpi's storage model runs them on-line;
 * - MPI_Pcontrol as intervals, as under `simpi run`.
 * Calls not intercepted count as computation. This file is compiled against
 * the real MPI's mpi.h, never simpi's. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <mpi.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/hash.h"
#include "core/instructions.h"

static FILE *out;
static int me = -1;
static uint64_t last_exit; /* ns: when the previous traced call returned */
static long long untraced; /* calls left out */
static int next_req;
static int next_comm = 1;
static int pcontrol_depth;

/* --- handles to trace ids: small open-addressing tables --- */

struct slot {
    uint64_t key;
    int id, used;
};
struct table {
    struct slot *s;
    size_t cap, n;
};
static struct table reqs, comms, files;

static uint64_t key_of(const void *handle, size_t size) {
    uint64_t k = 0;
    memcpy(&k, handle, size < sizeof k ? size : sizeof k);
    return k;
}

static struct slot *find(struct table *t, uint64_t key, int insert) {
    if (insert && 2 * (t->n + 1) > t->cap) {
        struct table old = *t;
        t->cap = old.cap ? 2 * old.cap : 256;
        t->s = calloc(t->cap, sizeof *t->s);
        t->n = 0;
        for (size_t i = 0; i < old.cap; i++)
            if (old.s[i].used == 1) *find(t, old.s[i].key, 1) = old.s[i];
        free(old.s);
    }
    if (!t->cap) return NULL;
    size_t h = (size_t)hash_mix64(key) & (t->cap - 1), tomb = SIZE_MAX; /* keys: pointers */
    for (;; h = (h + 1) & (t->cap - 1)) {
        struct slot *s = &t->s[h];
        if (s->used == 1 && s->key == key) return s;
        if (s->used == 2 && tomb == SIZE_MAX) tomb = h;
        if (s->used == 0) {
            if (!insert) return NULL;
            if (tomb != SIZE_MAX) s = &t->s[tomb];
            s->used = 1;
            s->key = key;
            t->n++;
            return s;
        }
    }
}

static void forget(struct table *t, uint64_t key) {
    struct slot *s = find(t, key, 0);
    if (s) s->used = 2;
}

/* The trace id of a communicator, or -1 if it is not traced. */
static int comm_id(MPI_Comm c) {
    if (c == MPI_COMM_WORLD) return 0;
    struct slot *s = find(&comms, key_of(&c, sizeof c), 0);
    if (s) return s->id;
    if (c == MPI_COMM_SELF) { /* named on first use */
        s = find(&comms, key_of(&c, sizeof c), 1);
        s->id = next_comm++;
        fprintf(out, "%d comm_self new=%d\n", me, s->id);
        return s->id;
    }
    return -1;
}

/* --- time --- */

static clockid_t burst_clock = CLOCK_MONOTONIC;

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(burst_clock, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* --- instructions retired (perf_event) --- */

static int instr_fd = -1;
static uint64_t last_instr; /* the count when the previous traced call returned */

/* Opens this thread's instruction counter; on failure writes why into the
 * trace as a comment and counts nothing. */
static void open_instruction_counter(void) {
    const char *env = getenv("SIMPI_TRACE_INSTRUCTIONS"), *why = "";
    if (env && !strcmp(env, "0")) return;
    instr_fd = instructions_open(&why);
    if (instr_fd < 0)
        fprintf(out, "# instructions not counted: perf_event_open: %s\n", why);
    else
        fprintf(out, "# instructions counted (perf_event, user mode)\n");
}

static uint64_t instructions(void) {
    return instructions_read(instr_fd, last_instr);
}

/* At the start of a traced call: the burst since the previous one. */
static int enter(void) {
    if (!out) return 0;
    uint64_t t = now_ns();
    if (t <= last_exit) return 1;
    fprintf(out, "%d compute %lluns", me, (unsigned long long)(t - last_exit));
    if (instr_fd >= 0)
        fprintf(out, " instructions=%llu", (unsigned long long)(instructions() - last_instr));
    fputc('\n', out);
    return 1;
}

static void leave(void) {
    last_instr = instructions();
    last_exit = now_ns();
}

static long long bytes(int count, MPI_Datatype type) {
    int size = 0;
    PMPI_Type_size(type, &size);
    return (long long)count * size;
}

static void peer_field(char *buf, size_t n, int peer) {
    if (peer == MPI_ANY_SOURCE)
        snprintf(buf, n, "any");
    else
        snprintf(buf, n, "%d", peer);
}

static void tag_field(char *buf, size_t n, const char *key, int tag) {
    if (tag == MPI_ANY_TAG)
        snprintf(buf, n, " %s=any", key);
    else
        snprintf(buf, n, " %s=%d", key, tag);
}

/* --- init and finalize --- */

/* A rank killed by a signal flushes what it has traced first (best effort:
 * stdio in a signal handler), then dies of the signal as it would have;
 * `simpi trace` marks its trace incomplete (no end line). */
static void on_fatal(int sig) {
    signal(sig, SIG_DFL);
    if (out) fflush(out);
    raise(sig);
}

static void flush_on_fatal_signals(void) {
    static const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM, SIGINT, SIGHUP};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction old;
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL)
            signal(sigs[i], on_fatal); /* never over the program's or the MPI's own handler */
    }
}

/* The rank's file, created afresh in the private folder simpi trace made
 * (never through a link). */
static FILE *create_trace_file(const char *path) {
    int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
    int fd = open(path, flags, 0666);
    if (fd < 0 && errno == EEXIST && unlink(path) == 0) /* preloaded by hand: an old file */
        fd = open(path, flags, 0666); /* (a link planted again makes this fail, safely) */
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f && fd >= 0) close(fd);
    return f;
}

static void open_trace(void) {
    const char *dir = getenv("SIMPI_TRACE_DIR");
    if (!dir) return;
    int size;
    PMPI_Comm_rank(MPI_COMM_WORLD, &me);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    char path[4096];
    snprintf(path, sizeof path, "%s/rank%d.trace", dir, me);
    out = create_trace_file(path);
    if (!out) {
        fprintf(stderr, "simpi-trace: rank %d cannot write %s; not tracing\n", me, path);
        return;
    }
    setvbuf(out, NULL, _IOFBF, 1 << 16);
    fprintf(out, "simpi-trace 1\nranks %d\n", size);
    const char *clock = getenv("SIMPI_TRACE_CLOCK");
    if (clock && !strcmp(clock, "cpu")) {
        burst_clock = CLOCK_THREAD_CPUTIME_ID;
        fprintf(out, "# bursts timed by the thread's CPU clock\n");
    }
    flush_on_fatal_signals();
    open_instruction_counter();
    last_instr = instructions();
    last_exit = now_ns();
}

int MPI_Init(int *argc, char ***argv) {
    int rc = PMPI_Init(argc, argv);
    open_trace();
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    open_trace();
    return rc;
}

int MPI_Finalize(void) {
    if (enter()) {
        while (pcontrol_depth-- > 0)
            fprintf(out, "%d interval_end\n", me);
        if (untraced) /* the replay would miss their messages: it refuses the trace */
            fprintf(out,
                    "%d incomplete # %lld MPI call(s) on communicators the tracer does not "
                    "follow (inter-communicators, MPI_Comm_create_group...) were left out\n",
                    me, untraced);
        fprintf(out, "# end of trace\n"); /* simpi trace checks that it is there */
        fclose(out);
        out = NULL;
    }
    return PMPI_Finalize();
}

int MPI_Pcontrol(const int level, ...) {
    if (enter()) {
        if (level > 0) {
            fprintf(out, "%d interval_begin MPI_Pcontrol(%d)\n", me, level);
            pcontrol_depth++;
        } else if (pcontrol_depth > 0) {
            fprintf(out, "%d interval_end\n", me);
            pcontrol_depth--;
        }
        leave();
    }
    return MPI_SUCCESS;
}

/* --- point-to-point --- */

static const char *send_name(int mode, int nonblocking) {
    static const char *const names[2][4] = {{"send", "ssend", "bsend", "rsend"},
                                            {"isend", "issend", "ibsend", "irsend"}};
    return names[nonblocking][mode];
}

/* Writes a send record; req: the new request (non-blocking) or NULL. */
static void put_send(int mode, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                     MPI_Request *req) {
    int c = comm_id(comm);
    if (dest == MPI_PROC_NULL) return;
    if (c < 0) {
        untraced++;
        return;
    }
    fprintf(out, "%d %s %d %lld tag=%d comm=%d", me, send_name(mode, req != NULL), dest,
            bytes(count, type), tag, c);
    if (req) {
        struct slot *s = find(&reqs, key_of(req, sizeof *req), 1);
        s->id = next_req++;
        fprintf(out, " req=%d", s->id);
    }
    fputc('\n', out);
}

static void put_recv(int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                     MPI_Request *req) {
    int c = comm_id(comm);
    if (source == MPI_PROC_NULL) return;
    if (c < 0) {
        untraced++;
        return;
    }
    char src[16], tg[32];
    peer_field(src, sizeof src, source);
    tag_field(tg, sizeof tg, "tag", tag);
    fprintf(out, "%d %s %s %lld%s comm=%d", me, req ? "irecv" : "recv", src, bytes(count, type), tg,
            c);
    if (req) {
        struct slot *s = find(&reqs, key_of(req, sizeof *req), 1);
        s->id = next_req++;
        fprintf(out, " req=%d", s->id);
    }
    fputc('\n', out);
}

#define SEND_WRAPPER(NAME, MODE)                                                                   \
    int NAME(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {    \
        int t = enter();                                                                           \
        int rc = P##NAME(buf, count, type, dest, tag, comm);                                       \
        if (t) {                                                                                   \
            put_send(MODE, count, type, dest, tag, comm, NULL);                                    \
            leave();                                                                               \
        }                                                                                          \
        return rc;                                                                                 \
    }
SEND_WRAPPER(MPI_Send, 0)
SEND_WRAPPER(MPI_Ssend, 1)
SEND_WRAPPER(MPI_Bsend, 2)
SEND_WRAPPER(MPI_Rsend, 3)

#define ISEND_WRAPPER(NAME, MODE)                                                                  \
    int NAME(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,      \
             MPI_Request *req) {                                                                   \
        int t = enter();                                                                           \
        int rc = P##NAME(buf, count, type, dest, tag, comm, req);                                  \
        if (t) {                                                                                   \
            put_send(MODE, count, type, dest, tag, comm, req);                                     \
            leave();                                                                               \
        }                                                                                          \
        return rc;                                                                                 \
    }
ISEND_WRAPPER(MPI_Isend, 0)
ISEND_WRAPPER(MPI_Issend, 1)
ISEND_WRAPPER(MPI_Ibsend, 2)
ISEND_WRAPPER(MPI_Irsend, 3)

int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
             MPI_Status *status) {
    int t = enter();
    MPI_Status st;
    int rc =
        PMPI_Recv(buf, count, type, source, tag, comm, status == MPI_STATUS_IGNORE ? &st : status);
    if (t) {
        MPI_Status *got = status == MPI_STATUS_IGNORE ? &st : status;
        /* the source and tag matched, so that the replay matches the same message */
        put_recv(count, type, source == MPI_ANY_SOURCE ? got->MPI_SOURCE : source,
                 tag == MPI_ANY_TAG ? got->MPI_TAG : tag, comm, NULL);
        leave();
    }
    return rc;
}

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
              MPI_Request *req) {
    int t = enter();
    int rc = PMPI_Irecv(buf, count, type, source, tag, comm, req);
    if (t) {
        put_recv(count, type, source, tag, comm, req);
        leave();
    }
    return rc;
}

int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest, int stag, void *rbuf,
                 int rcount, MPI_Datatype rtype, int source, int rtag, MPI_Comm comm,
                 MPI_Status *status) {
    int t = enter();
    int rc = PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm,
                           status);
    if (t) {
        int c = comm_id(comm);
        if (c < 0) {
            untraced++;
        } else if (dest == MPI_PROC_NULL || source == MPI_PROC_NULL) {
            put_send(0, scount, stype, dest, stag, comm, NULL);
            put_recv(rcount, rtype, source, rtag, comm, NULL);
        } else {
            char src[16], tg[32];
            peer_field(src, sizeof src, source);
            tag_field(tg, sizeof tg, "recvtag", rtag);
            fprintf(out, "%d sendrecv %d %lld %s %lld tag=%d%s comm=%d\n", me, dest,
                    bytes(scount, stype), src, bytes(rcount, rtype), stag, tg, c);
        }
        leave();
    }
    return rc;
}

/* --- completion --- */

/* The ids of the requests (read before the call, which nulls them). */
static int ids_of(int n, const MPI_Request *r, int *ids) {
    int k = 0;
    for (int i = 0; i < n; i++) {
        ids[i] = -1;
        if (r[i] == MPI_REQUEST_NULL) continue;
        struct slot *s = find(&reqs, key_of(&r[i], sizeof r[i]), 0);
        if (s) ids[i] = s->id, k++;
    }
    return k;
}

static void put_ids(const char *what, int n, const int *ids, const int *done) {
    int k = 0;
    for (int i = 0; i < n; i++)
        k += ids[i] >= 0 && (!done || done[i]);
    if (k == 0) return;
    fprintf(out, "%d %s", me, k == 1 && !strcmp(what, "waitall") ? "wait" : what);
    for (int i = 0; i < n; i++)
        if (ids[i] >= 0 && (!done || done[i])) fprintf(out, " %d", ids[i]);
    fputc('\n', out);
}

static void forget_done(int n, const MPI_Request *before, const int *ids, const int *done) {
    for (int i = 0; i < n; i++)
        if (ids[i] >= 0 && (!done || done[i])) forget(&reqs, key_of(&before[i], sizeof before[i]));
}

int MPI_Wait(MPI_Request *req, MPI_Status *status) {
    int t = enter(), id;
    MPI_Request before = *req;
    if (t) ids_of(1, req, &id);
    int rc = PMPI_Wait(req, status);
    if (t) {
        put_ids("wait", 1, &id, NULL);
        forget_done(1, &before, &id, NULL);
        leave();
    }
    return rc;
}

int MPI_Waitall(int n, MPI_Request reqv[], MPI_Status st[]) {
    int t = enter();
    int *ids = t ? calloc((size_t)n + 1, sizeof *ids) : NULL;
    MPI_Request *before = t ? calloc((size_t)n + 1, sizeof *before) : NULL;
    if (t) {
        ids_of(n, reqv, ids);
        memcpy(before, reqv, sizeof *reqv * (size_t)n);
    }
    int rc = PMPI_Waitall(n, reqv, st);
    if (t) {
        put_ids("waitall", n, ids, NULL);
        forget_done(n, before, ids, NULL);
        leave();
    }
    free(ids);
    free(before);
    return rc;
}

int MPI_Waitany(int n, MPI_Request reqv[], int *index, MPI_Status *st) {
    int t = enter();
    int *ids = t ? calloc((size_t)n + 1, sizeof *ids) : NULL;
    MPI_Request *before = t ? calloc((size_t)n + 1, sizeof *before) : NULL;
    if (t) {
        ids_of(n, reqv, ids);
        memcpy(before, reqv, sizeof *reqv * (size_t)n);
    }
    int rc = PMPI_Waitany(n, reqv, index, st);
    if (t) {
        if (*index != MPI_UNDEFINED && ids[*index] >= 0) {
            put_ids("waitany", n, ids, NULL);
            forget(&reqs, key_of(&before[*index], sizeof before[*index]));
        }
        leave();
    }
    free(ids);
    free(before);
    return rc;
}

int MPI_Test(MPI_Request *req, int *flag, MPI_Status *status) {
    int t = enter(), id;
    MPI_Request before = *req;
    if (t) ids_of(1, req, &id);
    int rc = PMPI_Test(req, flag, status);
    if (t) {
        if (*flag && id >= 0) {
            fprintf(out, "%d test %d\n", me, id);
            forget(&reqs, key_of(&before, sizeof before));
        }
        leave();
    }
    return rc;
}

int MPI_Testall(int n, MPI_Request reqv[], int *flag, MPI_Status st[]) {
    int t = enter();
    int *ids = t ? calloc((size_t)n + 1, sizeof *ids) : NULL;
    MPI_Request *before = t ? calloc((size_t)n + 1, sizeof *before) : NULL;
    if (t) {
        ids_of(n, reqv, ids);
        memcpy(before, reqv, sizeof *reqv * (size_t)n);
    }
    int rc = PMPI_Testall(n, reqv, flag, st);
    if (t) {
        for (int i = 0; *flag && i < n; i++)
            if (ids[i] >= 0) fprintf(out, "%d test %d\n", me, ids[i]);
        if (*flag) forget_done(n, before, ids, NULL);
        leave();
    }
    free(ids);
    free(before);
    return rc;
}

/* --- collectives --- */

static int coll_comm(MPI_Comm comm) {
    int c = comm_id(comm);
    if (c < 0) untraced++;
    return c;
}

static int comm_size(MPI_Comm comm) {
    int n;
    PMPI_Comm_size(comm, &n);
    return n;
}

int MPI_Barrier(MPI_Comm comm) {
    int t = enter();
    int rc = PMPI_Barrier(comm);
    int c = t ? coll_comm(comm) : -1;
    if (c >= 0) fprintf(out, "%d barrier comm=%d\n", me, c);
    if (t) leave();
    return rc;
}

int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
    int t = enter();
    int rc = PMPI_Bcast(buf, count, type, root, comm);
    int c = t ? coll_comm(comm) : -1;
    if (c >= 0) fprintf(out, "%d bcast %lld root=%d comm=%d\n", me, bytes(count, type), root, c);
    if (t) leave();
    return rc;
}

int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, int root,
               MPI_Comm comm) {
    int t = enter();
    int rc = PMPI_Reduce(sbuf, rbuf, count, type, op, root, comm);
    int c = t ? coll_comm(comm) : -1;
    if (c >= 0) fprintf(out, "%d reduce %lld root=%d comm=%d\n", me, bytes(count, type), root, c);
    if (t) leave();
    return rc;
}

int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                  MPI_Comm comm) {
    int t = enter();
    int rc = PMPI_Allreduce(sbuf, rbuf, count, type, op, comm);
    int c = t ? coll_comm(comm) : -1;
    if (c >= 0) fprintf(out, "%d allreduce %lld comm=%d\n", me, bytes(count, type), c);
    if (t) leave();
    return rc;
}

#define BLOCK_WRAPPER(NAME, TRACE_NAME, ROOTED, ARGS, CALL, BLOCK)                                 \
    int NAME ARGS {                                                                                \
        int t = enter();                                                                           \
        int rc = P##NAME CALL;                                                                     \
        int c = t ? coll_comm(comm) : -1;                                                          \
        if (c >= 0 && ROOTED)                                                                      \
            fprintf(out, "%d " TRACE_NAME " %lld root=%d comm=%d\n", me, BLOCK, root_of, c);       \
        else if (c >= 0)                                                                           \
            fprintf(out, "%d " TRACE_NAME " %lld comm=%d\n", me, BLOCK, c);                        \
        if (t) leave();                                                                            \
        return rc;                                                                                 \
    }

#define root_of root
BLOCK_WRAPPER(MPI_Gather, "gather", 1,
              (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
               MPI_Datatype rtype, int root, MPI_Comm comm),
              (sbuf, scount, stype, rbuf, rcount, rtype, root, comm),
              sbuf == MPI_IN_PLACE ? bytes(rcount, rtype) : bytes(scount, stype))
BLOCK_WRAPPER(MPI_Scatter, "scatter", 1,
              (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
               MPI_Datatype rtype, int root, MPI_Comm comm),
              (sbuf, scount, stype, rbuf, rcount, rtype, root, comm),
              rbuf == MPI_IN_PLACE ? bytes(scount, stype) : bytes(rcount, rtype))
#undef root_of
#define root_of 0
BLOCK_WRAPPER(MPI_Allgather, "allgather", 0,
              (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
               MPI_Datatype rtype, MPI_Comm comm),
              (sbuf, scount, stype, rbuf, rcount, rtype, comm), bytes(rcount, rtype))
BLOCK_WRAPPER(MPI_Alltoall, "alltoall", 0,
              (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
               MPI_Datatype rtype, MPI_Comm comm),
              (sbuf, scount, stype, rbuf, rcount, rtype, comm), bytes(rcount, rtype))
BLOCK_WRAPPER(MPI_Reduce_scatter_block, "reduce_scatter", 0,
              (const void *sbuf, void *rbuf, int rcount, MPI_Datatype type, MPI_Op op,
               MPI_Comm comm),
              (sbuf, rbuf, rcount, type, op, comm), bytes(rcount, type))
BLOCK_WRAPPER(MPI_Scan, "scan", 0,
              (const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
               MPI_Comm comm),
              (sbuf, rbuf, count, type, op, comm), bytes(count, type))
BLOCK_WRAPPER(MPI_Exscan, "exscan", 0,
              (const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
               MPI_Comm comm),
              (sbuf, rbuf, count, type, op, comm), bytes(count, type))
#undef root_of

/* "a,b,c": counts x type size for n members. */
static void put_counts(const char *key, const int *counts, MPI_Datatype type, int n) {
    int size = 0;
    PMPI_Type_size(type, &size);
    fprintf(out, " %s=", key);
    for (int i = 0; i < n; i++)
        fprintf(out, "%s%lld", i ? "," : "", (long long)counts[i] * size);
}

/* A collective where every rank knows every block (allgatherv,
 * reduce_scatter): its own block and the list. */
static void put_blocks(const char *name, const int *counts, MPI_Datatype type, MPI_Comm comm) {
    int c = coll_comm(comm);
    if (c < 0) return;
    int n = comm_size(comm), r;
    PMPI_Comm_rank(comm, &r);
    fprintf(out, "%d %s %lld comm=%d", me, name, bytes(counts[r], type), c);
    put_counts("recv", counts, type, n);
    fputc('\n', out);
}

int MPI_Gatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, const int rcounts[],
                const int displs[], MPI_Datatype rtype, int root, MPI_Comm comm) {
    int t = enter();
    int rc = PMPI_Gatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm);
    int c = t ? coll_comm(comm) : -1;
    if (c >= 0) {
        int n = comm_size(comm), r;
        PMPI_Comm_rank(comm, &r);
        long long mine = sbuf == MPI_IN_PLACE ? bytes(rcounts[r], rtype) : bytes(scount, stype);
        fprintf(out, "%d gatherv %lld root=%d comm=%d", me, mine, root, c);
        if (r == root) put_counts("recv", rcounts, rtype, n);
        fputc('\n', out);
    }
    if (t) leave();
    return rc;
}

int MPI_Scatterv(const void *sbuf, const int scounts[], const int displs[], MPI_Datatype stype,
                 void *rbuf, int rcount, MPI_Datatype rtype, int root, MPI_Comm comm) {
    int t = enter();
    int rc = PMPI_Scatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm);
    int c = t ? coll_comm(comm) : -1;
    if (c >= 0) {
        int n = comm_size(comm), r;
        PMPI_Comm_rank(comm, &r);
        long long mine = rbuf == MPI_IN_PLACE ? bytes(scounts[r], stype) : bytes(rcount, rtype);
        fprintf(out, "%d scatterv %lld root=%d comm=%d", me, mine, root, c);
        if (r == root) put_counts("send", scounts, stype, n);
        fputc('\n', out);
    }
    if (t) leave();
    return rc;
}

int MPI_Allgatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                   const int rcounts[], const int displs[], MPI_Datatype rtype, MPI_Comm comm) {
    int t = enter();
    int rc = PMPI_Allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm);
    if (t) put_blocks("allgatherv", rcounts, rtype, comm);
    if (t) leave();
    return rc;
}

/* MPI_Reduce_scatter: the counted form, even when the counts are equal
 * (MPI_Reduce_scatter_block is the uniform record); Open MPI chooses the
 * two by different tables. */
int MPI_Reduce_scatter(const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype type,
                       MPI_Op op, MPI_Comm comm) {
    int t = enter();
    int rc = PMPI_Reduce_scatter(sbuf, rbuf, rcounts, type, op, comm);
    if (t) put_blocks("reduce_scatterv", rcounts, type, comm);
    if (t) leave();
    return rc;
}

int MPI_Alltoallv(const void *sbuf, const int scounts[], const int sdispls[], MPI_Datatype stype,
                  void *rbuf, const int rcounts[], const int rdispls[], MPI_Datatype rtype,
                  MPI_Comm comm) {
    int t = enter();
    int rc = PMPI_Alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm);
    int c = t ? coll_comm(comm) : -1;
    if (c >= 0) {
        int n = comm_size(comm), r;
        PMPI_Comm_rank(comm, &r);
        const int *sc = sbuf == MPI_IN_PLACE ? rcounts : scounts;
        MPI_Datatype st = sbuf == MPI_IN_PLACE ? rtype : stype;
        fprintf(out, "%d alltoallv %lld comm=%d", me, bytes(sc[r], st), c);
        put_counts("send", sc, st, n);
        put_counts("recv", rcounts, rtype, n);
        fputc('\n', out);
    }
    if (t) leave();
    return rc;
}

/* --- communicators --- */

static void name_new(MPI_Comm parent, MPI_Comm made, int color, int key, int dup) {
    int p = comm_id(parent);
    if (p < 0) {
        untraced++;
        return;
    }
    int id = next_comm++;
    if (made != MPI_COMM_NULL) find(&comms, key_of(&made, sizeof made), 1)->id = id;
    if (dup)
        fprintf(out, "%d comm_dup %d new=%d\n", me, p, id);
    else if (color == MPI_UNDEFINED)
        fprintf(out, "%d comm_split %d color=undefined key=%d new=%d\n", me, p, key, id);
    else
        fprintf(out, "%d comm_split %d color=%d key=%d new=%d\n", me, p, color, key, id);
}

/* A communicator made from parent by a call other than split and dup
 * (topologies: MPI_Cart_create, MPI_Cart_sub, MPI_Graph_create,
 * MPI_Dist_graph_create(_adjacent); MPI_Comm_split_type, MPI_Comm_create),
 * called by every member of parent: traced as the split that makes the
 * same groups. Its color is the world rank of the new communicator's rank
 * 0 (the same at every member, another for each of disjoint
 * communicators), its key the rank in it (a reordered topology keeps its
 * order); MPI_COMM_NULL is the undefined color. The topology itself is
 * not needed: its calls are traced as the messages they are. */
static void name_derived(MPI_Comm parent, MPI_Comm made) {
    if (made == MPI_COMM_NULL) {
        name_new(parent, made, MPI_UNDEFINED, 0, 0);
        return;
    }
    int inter = 0;
    PMPI_Comm_test_inter(made, &inter);
    if (inter) {
        untraced++;
        return;
    }
    int rank, zero = 0, color = 0;
    MPI_Group g, world;
    PMPI_Comm_rank(made, &rank);
    PMPI_Comm_group(made, &g);
    PMPI_Comm_group(MPI_COMM_WORLD, &world);
    PMPI_Group_translate_ranks(g, 1, &zero, world, &color);
    PMPI_Group_free(&g);
    PMPI_Group_free(&world);
    name_new(parent, made, color, rank, 0);
}

#define DERIVED(CALL, PARENT, MADE, ...)                                                           \
    int t = enter();                                                                               \
    int rc = P##CALL(__VA_ARGS__);                                                                 \
    if (t) {                                                                                       \
        if (rc == MPI_SUCCESS) name_derived(PARENT, MADE);                                         \
        leave();                                                                                   \
    }                                                                                              \
    return rc

int MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[], const int periods[], int reorder,
                    MPI_Comm *newcomm) {
    DERIVED(MPI_Cart_create, comm, *newcomm, comm, ndims, dims, periods, reorder, newcomm);
}

int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm) {
    DERIVED(MPI_Cart_sub, comm, *newcomm, comm, remain_dims, newcomm);
}

int MPI_Graph_create(MPI_Comm comm, int nnodes, const int index[], const int edges[], int reorder,
                     MPI_Comm *newcomm) {
    DERIVED(MPI_Graph_create, comm, *newcomm, comm, nnodes, index, edges, reorder, newcomm);
}

int MPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree, const int sources[],
                                   const int sourceweights[], int outdegree,
                                   const int destinations[], const int destweights[], MPI_Info info,
                                   int reorder, MPI_Comm *newcomm) {
    DERIVED(MPI_Dist_graph_create_adjacent, comm, *newcomm, comm, indegree, sources, sourceweights,
            outdegree, destinations, destweights, info, reorder, newcomm);
}

int MPI_Dist_graph_create(MPI_Comm comm, int n, const int sources[], const int degrees[],
                          const int destinations[], const int weights[], MPI_Info info, int reorder,
                          MPI_Comm *newcomm) {
    DERIVED(MPI_Dist_graph_create, comm, *newcomm, comm, n, sources, degrees, destinations, weights,
            info, reorder, newcomm);
}

int MPI_Comm_split_type(MPI_Comm comm, int type, int key, MPI_Info info, MPI_Comm *newcomm) {
    DERIVED(MPI_Comm_split_type, comm, *newcomm, comm, type, key, info, newcomm);
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm) {
    DERIVED(MPI_Comm_create, comm, *newcomm, comm, group, newcomm);
}

/* Called by the group's members only, not by every member of comm: no
 * split makes it; left out (and the calls on it), and counted. */
int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm) {
    if (out) untraced++;
    return PMPI_Comm_create_group(comm, group, tag, newcomm);
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm) {
    int t = enter();
    int rc = PMPI_Comm_split(comm, color, key, newcomm);
    if (t) {
        name_new(comm, *newcomm, color, key, 0);
        leave();
    }
    return rc;
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm) {
    int t = enter();
    int rc = PMPI_Comm_dup(comm, newcomm);
    if (t) {
        name_new(comm, *newcomm, 0, 0, 1);
        leave();
    }
    return rc;
}

/* --- MPI-IO --- */

int MPI_File_open(MPI_Comm comm, const char *name, int amode, MPI_Info info, MPI_File *fh) {
    int t = enter();
    int rc = PMPI_File_open(comm, name, amode, info, fh);
    if (t && rc == MPI_SUCCESS) {
        struct slot *s = find(&files, key_of(fh, sizeof *fh), 1);
        s->id = coll_comm(comm); /* -1: not traced */
    }
    if (t) leave();
    return rc;
}

int MPI_File_close(MPI_File *fh) {
    if (out) forget(&files, key_of(fh, sizeof *fh));
    return PMPI_File_close(fh);
}

/* A storage request of count x type bytes, waited for at once; a
 * collective access first meets the file's other members. */
static void file_access(MPI_File fh, int count, MPI_Datatype type, int collective) {
    int size = 0;
    PMPI_Type_size(type, &size);
    struct slot *f = find(&files, key_of(&fh, sizeof fh), 0);
    if (collective && f && f->id >= 0) fprintf(out, "%d barrier comm=%d\n", me, f->id);
    int id = next_req++;
    fprintf(out, "%d file_io %lld req=%d\n%d wait %d\n", me, (long long)count * size, id, me, id);
}

#define FILE_RW(NAME, BUF, COLL, ...)                                                              \
    int NAME(MPI_File fh, __VA_ARGS__ BUF buf, int count, MPI_Datatype type, MPI_Status *st) {     \
        int t = enter();                                                                           \
        int rc = P##NAME(fh, ARGS_##COLL buf, count, type, st);                                    \
        if (t) {                                                                                   \
            file_access(fh, count, type, COLL & 1);                                                \
            leave();                                                                               \
        }                                                                                          \
        return rc;                                                                                 \
    }
#define ARGS_0
#define ARGS_1
#define ARGS_2 offset,
#define ARGS_3 offset,
FILE_RW(MPI_File_read, void *, 0, )
FILE_RW(MPI_File_write, const void *, 0, )
FILE_RW(MPI_File_read_all, void *, 1, )
FILE_RW(MPI_File_write_all, const void *, 1, )
FILE_RW(MPI_File_read_at, void *, 2, MPI_Offset offset, )
FILE_RW(MPI_File_write_at, const void *, 2, MPI_Offset offset, )
FILE_RW(MPI_File_read_at_all, void *, 3, MPI_Offset offset, )
FILE_RW(MPI_File_write_at_all, const void *, 3, MPI_Offset offset, )

int MPI_Comm_free(MPI_Comm *comm) {
    if (out) forget(&comms, key_of(comm, sizeof *comm));
    return PMPI_Comm_free(comm);
}
